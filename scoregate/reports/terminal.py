"""The consoles the CLI prints through, and safe rendering of user text.

Rich wraps at 80 columns when stdout is not a terminal (a pipe, a file, CI logs), which
breaks lines that scripts grep. Without a terminal the console gets a width no line
reaches, so nothing wraps; with one, Rich measures the terminal as usual.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.text import Text

#: The width used when the output is not a terminal (and ``COLUMNS`` is unset).
PIPE_WIDTH = 10_000
#: The widest a horizontal rule is drawn (a pipe's console is PIPE_WIDTH wide).
RULE_WIDTH = 100


def make_console(*, stderr: bool = False) -> Console:
    """A console for stdout (or stderr) that never wraps output that goes to a pipe.

    Whether the stream is a terminal is read now; the stream itself is looked up at
    each print (as Rich does), so a test runner's captured stream is honoured.
    """
    stream = sys.stderr if stderr else sys.stdout
    if _is_terminal(stream) or os.environ.get("COLUMNS"):
        return Console(stderr=stderr)
    return Console(stderr=stderr, width=PIPE_WIDTH, soft_wrap=True)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or stand-in stream
        return False


def safe(value: Any) -> str:
    """``value`` as text with Rich markup escaped: user text prints as written."""
    return escape("" if value is None else str(value))


def plain(value: Any, style: str = "") -> Text:
    """A table cell or line that is never parsed as markup (a band, a reason, an id)."""
    return Text("" if value is None else str(value), style=style)


def rule(console: Console, title: str = "") -> None:
    """A horizontal rule, at most :data:`RULE_WIDTH` wide (not PIPE_WIDTH in a pipe)."""
    console.print(Rule(safe(title)), width=min(console.width, RULE_WIDTH))

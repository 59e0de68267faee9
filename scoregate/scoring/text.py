"""Text helpers shared by the scorers: reason hygiene, line and word counts, code fences.

Everything here is linear in the length of its input, so it is safe on very large
agent outputs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

#: Longest reason kept, in characters; longer ones end with an ellipsis.
MAX_REASON_CHARS = 300

# Control characters, line and paragraph separators, zero-width and bidi-override marks:
# none belongs in a one-line, human-readable reason.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
_SPACES = re.compile(r"\s+")
# A code fence: three or more backticks or tildes, indented by at most three spaces.
_RUN = {"`": re.compile("`+"), "~": re.compile("~+")}


def clean_reason(text: str, max_chars: int = MAX_REASON_CHARS) -> str:
    """One line: control characters removed, whitespace collapsed, truncated with "…"."""
    # Only the head can survive truncation; cleaning a huge reason whole would be waste.
    line = _SPACES.sub(" ", _CONTROL.sub(" ", text[: max_chars * 8])).strip()
    if len(line) > max_chars:
        line = line[: max_chars - 1].rstrip() + "…"
    return line


def sanitize_reasons(reasons: list[str], max_count: int, *, sort: bool = True) -> list[str]:
    """Clean, deduplicate, order and cap a list of reasons.

    Args:
        reasons: Free-text reasons, possibly with user-supplied fragments.
        max_count: Most lines returned. When there are more, the first ``max_count - 1``
            are kept and the last line reads ``"... N additional factor(s)"``.
        sort: Sort alphabetically (deterministic); ``False`` keeps first-seen order.

    Raises:
        ValueError: ``max_count`` is below 1.
    """
    if max_count < 1:
        raise ValueError(f"max_count must be at least 1 (got {max_count})")
    cleaned = (clean_reason(r) for r in reasons)
    unique = list(dict.fromkeys(c for c in cleaned if c))
    if sort:
        unique.sort()
    if len(unique) <= max_count:
        return unique
    kept = unique[: max_count - 1]
    return [*kept, f"... {len(unique) - len(kept)} additional factor(s)"]


def plural(count: int, noun: str) -> str:
    """``"1 line"``, ``"2 lines"``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def count_lines(content: str) -> int:
    """Lines in ``content``; a trailing newline does not start another line."""
    if not content:
        return 0
    return content.count("\n") + (0 if content.endswith("\n") else 1)


def count_words(content: str) -> int:
    """Whitespace-separated words."""
    return len(content.split())


@dataclass(frozen=True)
class CodeBlock:
    """A fenced code block: its info string (``python title="a.py"``), body and span."""

    info: str
    body: str
    start: int
    end: int


def _fence_runs(content: str) -> Iterator[tuple[int, int]]:
    """Spans of runs of three or more backticks or tildes (``str.find`` is fast)."""
    following = {marker: content.find(marker) for marker in ("```", "~~~")}
    while True:
        hits = [(i, marker) for marker, i in following.items() if i >= 0]
        if not hits:
            return
        start, marker = min(hits)
        run = _RUN[marker[0]].match(content, start)
        end = run.end() if run else start + len(marker)
        yield start, end
        for other, i in following.items():
            if 0 <= i < end:
                following[other] = content.find(other, end)


def _fence_lines(content: str) -> Iterator[tuple[str, str, int, int]]:
    """(marker, info, line start, line end) of each line that is a code fence."""
    for start, end in _fence_runs(content):
        indent = 0
        while indent < 4 and start - indent > 0 and content[start - indent - 1] in " \t":
            indent += 1
        line_start = start - indent
        if indent > 3 or (line_start > 0 and content[line_start - 1] != "\n"):
            continue
        line_end = content.find("\n", end)
        line_end = len(content) if line_end == -1 else line_end
        marker, info = content[start:end], content[end:line_end].strip()
        if not (marker[0] == "`" and "`" in info):
            yield marker, info, line_start, line_end


def fenced_blocks(content: str) -> list[CodeBlock]:
    """Markdown fenced code blocks, in order; an unclosed fence runs to the end."""
    blocks: list[CodeBlock] = []
    opener: tuple[str, str, int, int] | None = None
    for fence in _fence_lines(content):
        if opener is None:
            opener = fence
            continue
        marker, info, start, end = fence
        if marker[0] == opener[0][0] and len(marker) >= len(opener[0]) and not info:
            body = content[opener[3] + 1 : max(opener[3] + 1, start - 1)]
            blocks.append(CodeBlock(opener[1], body, opener[2], end))
            opener = None
    if opener is not None:
        blocks.append(CodeBlock(opener[1], content[opener[3] + 1 :], opener[2], len(content)))
    return blocks


def unfence(content: str) -> str:
    """The body of ``content`` when it is one fenced code block and nothing else."""
    stripped = content.strip()
    if not stripped.startswith(("```", "~~~")):
        return content
    blocks = fenced_blocks(stripped)
    if len(blocks) == 1 and blocks[0].start == 0 and blocks[0].end == len(stripped):
        return blocks[0].body
    return content

"""What changed between two answers, word by word, for the review page.

Two steps, so that a long answer costs about as much as its length: the answers are
matched by segment (a line, or a sentence within one), then each changed run of segments
word by word. Word matching is quadratic in the words of a run, so a run that would cost
more than what is left of :data:`WORD_PAIRS` is shown removed and added whole.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

_TOKENS = re.compile(r"\s+|[^\s]+")
#: A line, or a sentence of one: up to a newline, or to an end mark and the spaces after it.
_SEGMENTS = re.compile(r".*?(?:[.!?]+[ \t]+|\n|$)", re.S)
#: Word pairs (words before x words after, summed over the changed runs) the word matching
#: may weigh for one diff: about 0.2 s at worst (text of few distinct words).
WORD_PAIRS = 2_000_000


def word_diff(before: str, after: str) -> list[tuple[str, str]]:
    """``after`` against ``before`` as ``(op, text)`` runs; op is ``same``, ``add`` or ``del``.

    Whitespace is kept as its own token, so joining the ``same`` and ``add`` runs gives
    ``after`` back exactly (and the ``same`` and ``del`` runs ``before``).
    """
    a, b = _segments(before), _segments(after)
    out: list[tuple[str, str]] = []
    budget = WORD_PAIRS
    # autojunk: a segment repeated all over a long answer ("\n") does not make it quadratic
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b).get_opcodes():
        old, new = "".join(a[i1:i2]), "".join(b[j1:j2])
        if op == "equal":
            _push(out, "same", new)
            continue
        ta, tb = _TOKENS.findall(old), _TOKENS.findall(new)
        if ta and tb and len(ta) * len(tb) <= budget:
            budget -= len(ta) * len(tb)
            for run in _words(ta, tb):
                _push(out, *run)
            continue
        _push(out, "del", old)
        _push(out, "add", new)
    return out


def _segments(text: str) -> list[str]:
    return [s for s in _SEGMENTS.findall(text) if s]


def _words(a: list[str], b: list[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            _push(out, "same", "".join(b[j1:j2]))
            continue
        if op in ("delete", "replace"):
            _push(out, "del", "".join(a[i1:i2]))
        if op in ("insert", "replace"):
            _push(out, "add", "".join(b[j1:j2]))
    return out


def _push(out: list[tuple[str, str]], op: str, text: str) -> None:
    if not text:
        return
    if out and out[-1][0] == op:
        out[-1] = (op, out[-1][1] + text)
    else:
        out.append((op, text))

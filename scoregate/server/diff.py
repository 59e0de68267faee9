"""What changed between two answers, word by word, for the review page."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

_TOKENS = re.compile(r"\s+|[^\s]+")


def word_diff(before: str, after: str) -> list[tuple[str, str]]:
    """``after`` against ``before`` as ``(op, text)`` runs; op is ``same``, ``add`` or ``del``.

    Whitespace is kept as its own token, so joining the ``same`` and ``add`` runs gives
    ``after`` back exactly.
    """
    a, b = _TOKENS.findall(before), _TOKENS.findall(after)
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

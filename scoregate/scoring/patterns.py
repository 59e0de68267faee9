"""User regexes that would take too long just to compile, found before compiling.

``regex`` unrolls the minimum of a counted repeat (``a{1000}`` is a thousand items) and
multiplies it through nested groups, all at compile time, where no timeout applies:
``(((a{50}){50}){50}){50}`` takes seconds. A linear scan estimates that size; patterns
over ``reward.regex_max_unrolled`` are refused with a reason instead.
"""

from __future__ import annotations

import regex

from scoregate.config.tracks import RewardConfig

__all__ = ["compile_user_pattern", "unrolled_size"]

_COUNT = regex.compile(r"\{\s*(\d*)\s*(?:,\s*(\d*)\s*)?\}")
# Escapes whose argument is in braces (\p{L}, \N{DASH}, \x{41}, \g{1}): not a count.
_BRACED_ESCAPES = frozenset("pPNxXuUgk")


def _skip_set(pattern: str, i: int) -> int:
    """The index just past the character set that opens at ``pattern[i] == "["``."""
    i += 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    return i + 1


def _skip_escape(pattern: str, i: int) -> int:
    """The index just past the escape that opens at ``pattern[i] == "\\"``."""
    if i + 2 < len(pattern) and pattern[i + 1] in _BRACED_ESCAPES and pattern[i + 2] == "{":
        end = pattern.find("}", i + 2)
        return len(pattern) if end < 0 else end + 1
    return i + 2


def unrolled_size(pattern: str, limit: int) -> int:
    """How many items compiling ``pattern`` unrolls its counted repeats into, about.

    ``regex`` expands the minimum of a count (``a{1000}`` is a thousand items) and
    multiplies it through nested groups: ``(((a{50}){50}){50}){50}`` is 6.25 million and
    takes seconds to compile, before any timeout applies. Each atom counts 1, a count
    multiplies what it repeats by its minimum (at least 1: ``{0,n}`` and ``*`` unroll
    nothing), a group sums what it holds. Conservative: the result stops at ``limit + 1``.
    """
    frames = [[0, 0]]  # per open group: [size so far, size of the last atom]
    i = 0
    while i < len(pattern):
        ch, atom = pattern[i], 1
        count = _COUNT.match(pattern, i) if ch == "{" else None
        if count is not None:
            # More than 9 digits is past any limit (and int() refuses thousands of digits).
            times = max(1, limit + 1 if len(count[1]) > 9 else int(count[1] or 0))
            size, last = frames[-1]
            frames[-1] = [min(size + last * (times - 1), limit + 1), min(last * times, limit + 1)]
            i = count.end()
            continue
        if ch == "(":
            frames.append([0, 0])
            i += 1
            continue
        if ch == ")" and len(frames) > 1:
            atom = max(frames.pop()[0], 1)
        i = (
            _skip_set(pattern, i)
            if ch == "["
            else _skip_escape(pattern, i)
            if ch == "\\"
            else i + 1
        )
        frames[-1][0] = min(frames[-1][0] + atom, limit + 1)
        frames[-1][1] = atom
    while len(frames) > 1:
        inner = frames.pop()[0]
        frames[-1][0] = min(frames[-1][0] + inner, limit + 1)
    return frames[0][0]


def compile_user_pattern(pattern: str, flags: int, cfg: RewardConfig) -> regex.Pattern[str]:
    """Compile a user regex, refusing first one whose counts unroll past the limit.

    Raises:
        regex.error: the pattern is invalid, or too large to compile (the message says so).
    """
    size = unrolled_size(pattern, cfg.regex_max_unrolled)
    if size > cfg.regex_max_unrolled:
        raise regex.error(
            f"its counted repeats ({{m,n}}) unroll to more than {cfg.regex_max_unrolled:,}"
            " items when compiled, multiplied through nested groups (reward.regex_max_unrolled);"
            " use + or * or smaller counts"
        )
    return regex.compile(pattern, flags)

"""Seed-001 track 3: hard constraints checked mechanically; the score is passed / total.

Each constraint passes or fails with a reason, never with an exception: a user regex that
backtracks is stopped after ``reward.regex_timeout_s``, one whose counted repeats would
take seconds just to compile is refused (``reward.regex_max_unrolled``), an invalid pattern
or JSON schema is a failed constraint that says why, and so is any unexpected error in a
check (``MemoryError``, ``RecursionError``...). Every check is linear in the content (a 10 MB
output takes well under a second per check; JSON Schema's ``uniqueItems`` is checked with a
set, not jsonschema's pairwise comparison); Python is not parsed above
``reward.ast_max_chars``, and a function search, like a regex, stops at the timeout.

The whole track has one time budget, ``reward.time_budget_s``: each regex timeout (and the
function search and the schema's patterns) is capped by what is left of it, and once it is
spent every constraint not yet checked fails, saying so; none is skipped or passed.

What the checks read:

* Lines: a trailing newline does not start another line. Words: whitespace-separated.
* ``starts_with`` / ``ends_with``: the content with surrounding whitespace removed.
* ``file_extension``: the output *names* a file with that extension: on its first
  non-blank line (``# src/app.py``, ``File: app.py``, or the whole output being a path),
  on the first line of a fenced code block, or in a fence header
  (```` ```python title="app.py" ````). A bare language tag (```` ```python ````) is not a
  file name. Extensions compare case-insensitively.
* ``valid_json``, ``json_schema``, ``valid_python``: the body of the fenced block when the
  whole output is one fenced block, else the whole output.
* ``contains_function``: Python by AST (``def``, ``async def``, methods, nested), over the
  whole output or, when that is not Python, each fenced block; code that does not parse
  is searched by pattern. Other languages by pattern (see
  :data:`scoregate.scoring.reward_code.FUNCTION_PATTERNS`).

The checks of structured formats are in :mod:`scoregate.scoring.reward_json`, those of
code in :mod:`scoregate.scoring.reward_code`; what they share (the content's views, the
time budget) in :mod:`scoregate.scoring.reward_subject`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import regex
from pydantic import BaseModel, ConfigDict

from scoregate.config.tracks import RewardConfig
from scoregate.schemas import constraints as c
from scoregate.schemas.constraints import Constraint
from scoregate.schemas.result import TrackScore
from scoregate.scoring.instructions import check_instruction, describe
from scoregate.scoring.patterns import compile_user_pattern
from scoregate.scoring.reward_code import check_contains_function, check_valid_python
from scoregate.scoring.reward_json import check_json_schema, check_valid_json, schema_problem
from scoregate.scoring.reward_subject import Outcome, Subject, budget_ran_out, quote
from scoregate.scoring.text import clean_reason, count_lines, count_words, plural

__all__ = ["ConstraintResult", "check_constraints", "evaluate_constraint", "evaluate_reward"]


class ConstraintResult(BaseModel):
    """One constraint's outcome."""

    model_config = ConfigDict(frozen=True)

    kind: str
    label: str
    passed: bool
    hard: bool
    reason: str
    #: Inferred from the request by request analysis (soft), not given by the caller.
    inferred: bool = False


# --- size ---------------------------------------------------------------------------------


def _bound(actual: int, limit: int, noun: str, *, upper: bool) -> Outcome:
    ok = actual <= limit if upper else actual >= limit
    sign = ("<=" if ok else ">") if upper else (">=" if ok else "<")
    word = "allowed" if upper else "required"
    return ok, f"{plural(actual, noun)} {sign} {limit} {word}"


#: Size checks: what to measure, its noun, and whether ``value`` is an upper bound.
_MEASURES: dict[str, tuple[Callable[[str], int], str, bool]] = {
    "max_lines": (count_lines, "line", True),
    "min_lines": (count_lines, "line", False),
    "max_chars": (len, "character", True),
    "min_words": (count_words, "word", False),
    "max_words": (count_words, "word", True),
}


def _size(s: Subject, k: Any, _cfg: RewardConfig) -> Outcome:
    measure, noun, upper = _MEASURES[k.kind]
    return _bound(measure(s.content), k.value, noun, upper=upper)


# --- text ---------------------------------------------------------------------------------


def _affix(s: Subject, k: c.StartsWith | c.EndsWith, _cfg: RewardConfig) -> Outcome:
    start = k.kind == "starts_with"
    text = s.content.lstrip() if start else s.content.rstrip()
    # casefold can triple a character's length; three times the value covers any match.
    span = 3 * len(k.value)
    part = text[:span] if start else text[-span:]
    value = k.value
    if not k.case_sensitive:
        part, value = part.casefold(), value.casefold()
    ok = part.startswith(value) if start else part.endswith(value)
    where = "starts" if start else "ends"
    shown = text[: len(k.value)] if start else text[-len(k.value) :]
    if ok:
        return True, f"output {where} with {quote(k.value)}"
    return False, f"output {where} with {quote(shown)}, not {quote(k.value)}"


def _contains(s: Subject, k: c.Contains | c.NotContains, _cfg: RewardConfig) -> Outcome:
    found = k.value in s.content if k.case_sensitive else k.value.casefold() in s.folded
    if k.kind == "contains":
        return found, f"{quote(k.value)} {'found' if found else 'not found'}"
    return not found, f"{quote(k.value)} {'found' if found else 'not found'}"


_FLAGS = {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}


def _flags(k: c.Regex | c.NotRegex) -> int:
    flags = 0
    for ch in k.flags:
        flags |= _FLAGS[ch]
    return flags


def check_constraints(request: Any, cfg: RewardConfig) -> None:
    """Refuse a request whose own regex or JSON Schema constraint is broken, before scoring:
    the caller's mistake is not the agent's failed constraint.

    Raises:
        ValueError: names the constraint (its index and kind) and what is wrong with it.
    """
    for i, k in enumerate(request.constraints):
        where = f"constraints[{i}] ({k.kind})"
        if isinstance(k, c.Regex | c.NotRegex):
            try:
                compile_user_pattern(k.value, _flags(k), cfg)
            except regex.error as exc:
                raise ValueError(f"{where}: invalid pattern {quote(k.value)}: {exc}") from None
        elif isinstance(k, c.JsonSchema):
            problem = schema_problem(k.value, cfg)
            if problem is not None:
                raise ValueError(f"{where}: {problem}")


def _regex(s: Subject, k: c.Regex | c.NotRegex, cfg: RewardConfig) -> Outcome:
    flags = _flags(k)
    try:
        pattern = compile_user_pattern(k.value, flags, cfg)
    except regex.error as exc:
        return False, f"invalid pattern {quote(k.value)}: {exc}"
    limit = s.limit(cfg)
    try:
        match = pattern.search(s.content, timeout=limit.seconds)
    except TimeoutError:
        hint = "" if limit.by_budget else " (catastrophic backtracking?)"
        return False, limit.spent("regex", cfg, f" on pattern {quote(k.value)}") + hint
    if match is None:
        return k.kind == "not_regex", f"no match for pattern {quote(k.value)}"
    line = s.content.count("\n", 0, match.start()) + 1
    return k.kind == "regex", f"pattern {quote(k.value)} matches at line {line}: {quote(match[0])}"


# --- files --------------------------------------------------------------------------------

_PATH_TOKEN = regex.compile(r"[^\s\"'`<>()\[\]{}:,;=|*?]+")
# Only the head of a line can name the file; a bounded look keeps huge lines cheap.
_HEAD_CHARS = 1000


def _names_file(line: str, ext: str) -> bool:
    for token in _PATH_TOKEN.findall(line[:_HEAD_CHARS]):
        name = token.rstrip(".").casefold()
        if name.endswith(ext) and len(name) > len(ext) and not name.endswith("/" + ext):
            return True
    return False


def _first_line(text: str) -> str:
    for line in text[: _HEAD_CHARS * 4].splitlines():
        if line.strip():
            return line
    return ""


def _file_extension(s: Subject, k: c.FileExtension, _cfg: RewardConfig) -> Outcome:
    ext = ("" if k.value.startswith(".") else ".") + k.value.casefold()
    places = [_first_line(s.content), *(b.info for b in s.fences), *map(_first_line, s.blocks)]
    if any(_names_file(place, ext) for place in places):
        return True, f"names a {ext} file"
    return False, f"no file name ending in {ext} on the first line or in a code block header"


def _instruction(s: Subject, k: c.Instruction, cfg: RewardConfig) -> Outcome:
    passed, detail = check_instruction(s.content, k)
    if passed is None:  # nothing to judge: evaluate_reward leaves it out
        raise _NotApplicable(detail)
    return passed, detail


class _NotApplicable(Exception):
    """The instruction cannot be judged on this answer (no list to count...)."""


# --- evaluation ---------------------------------------------------------------------------

_CHECKS: dict[str, Callable[[Subject, Any, RewardConfig], Outcome]] = {
    "max_lines": _size,
    "min_lines": _size,
    "max_chars": _size,
    "min_words": _size,
    "max_words": _size,
    "starts_with": _affix,
    "ends_with": _affix,
    "file_extension": _file_extension,
    "contains": _contains,
    "not_contains": _contains,
    "regex": _regex,
    "not_regex": _regex,
    "contains_function": check_contains_function,
    "valid_json": check_valid_json,
    "json_schema": check_json_schema,
    "valid_python": check_valid_python,
    "instruction": _instruction,
}


def _label(k: Constraint) -> str:
    if k.label:
        return k.label
    if isinstance(k, c.Instruction):
        return describe(k)
    value = getattr(k, "value", None)
    if value is None or isinstance(value, dict):
        return k.kind
    return f"{k.kind} {value}" if isinstance(value, int) else f"{k.kind} {quote(value, 40)}"


# Signals that must stop the task, not fail one constraint (Celery's soft time limit is an
# Exception subclass; scoring does not import Celery, so it is matched by name).
_PROPAGATE = frozenset({"SoftTimeLimitExceeded"})


def _check(s: Subject, k: Constraint, cfg: RewardConfig) -> Outcome:
    try:
        return _CHECKS[k.kind](s, k, cfg)
    except _NotApplicable:
        raise
    except Exception as exc:  # a constraint fails with a reason; it never takes the track down
        if any(t.__name__ in _PROPAGATE for t in type(exc).__mro__):
            raise
        why = f"{type(exc).__name__}: {str(exc)[:200]}".rstrip(": ")
        return False, f"could not be checked ({why}); counted as failed"


def _evaluate(
    s: Subject, k: Constraint, cfg: RewardConfig, *, unchecked: bool = False
) -> ConstraintResult:
    """The outcome; an ``unchecked`` constraint (the budget ran out before it) fails."""
    if unchecked:
        passed = False
        detail = f"not checked: {budget_ran_out(cfg)}; counted as failed (reward.time_budget_s)"
    else:
        passed, detail = _check(s, k, cfg)
    inferred = isinstance(k, c.Instruction) and k.inferred
    if isinstance(k, c.Instruction):
        prefix = "inferred from the request" if inferred else (k.label or k.kind)
    else:
        prefix = f"{k.label} ({k.kind})" if k.label else k.kind
    return ConstraintResult(
        kind=k.kind,
        label=_label(k),
        passed=passed,
        hard=k.hard,
        reason=clean_reason(f"{prefix}: {detail[:2000]}"),
        inferred=inferred,
    )


def evaluate_constraint(
    content: str, constraint: Constraint, cfg: RewardConfig
) -> ConstraintResult:
    """Check one constraint against ``content``; failures carry the reason, never raise.

    The check has the whole ``reward.time_budget_s`` to itself.
    """
    return _evaluate(Subject(content, time.monotonic() + cfg.time_budget_s), constraint, cfg)


def evaluate_reward(
    content: str, constraints: list[Constraint], cfg: RewardConfig
) -> TrackScore | None:
    """The reward track: the share of constraints passed, or ``None`` with no constraints.

    ``details`` holds every result, the counts, and the reasons of failed hard
    constraints (``hard_failures``), which cap the fused score. The constraints are checked
    in order within ``reward.time_budget_s``; those left when it runs out fail (counted in
    ``details["unchecked"]``).
    """
    if not constraints:
        return None
    subject = Subject(content, time.monotonic() + cfg.time_budget_s)
    results = []
    unchecked = 0
    not_applicable: list[str] = []
    for k in constraints:
        spent = subject.left() <= 0
        unchecked += spent
        try:
            results.append(_evaluate(subject, k, cfg, unchecked=spent))
        except _NotApplicable as why:
            not_applicable.append(f"{_label(k)}: {why}")
    if not results:
        return None
    passed = sum(r.passed for r in results)
    failures = [r.reason for r in results if not r.passed]
    details = {
        "results": [r.model_dump() for r in results],
        "passed": passed,
        "total": len(results),
        "unchecked": unchecked,
        "hard_failures": [r.reason for r in results if r.hard and not r.passed],
        "inferred_failures": [r.reason for r in results if r.inferred and not r.passed],
        "not_applicable": not_applicable,
    }
    reasons = failures or [f"all {plural(len(results), 'constraint')} passed"]
    return TrackScore(name="reward", score=passed / len(results), details=details, reasons=reasons)

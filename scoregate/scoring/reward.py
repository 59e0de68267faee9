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
  is searched by pattern. Other languages by pattern (see :data:`_FUNCTION_PATTERNS`).
"""

from __future__ import annotations

import ast
import itertools
import json
import time
import warnings
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from functools import cached_property, lru_cache
from typing import Any, NamedTuple, NoReturn

import jsonschema
import regex
from jsonschema import Draft202012Validator, ValidationError
from jsonschema.exceptions import best_match
from pydantic import BaseModel, ConfigDict
from referencing import Registry
from referencing.exceptions import Unresolvable

from scoregate.config.tracks import RewardConfig
from scoregate.schemas import constraints as c
from scoregate.schemas.constraints import Constraint
from scoregate.schemas.result import TrackScore
from scoregate.scoring.instructions import check_instruction, describe
from scoregate.scoring.patterns import compile_user_pattern, unrolled_size
from scoregate.scoring.text import (
    CodeBlock,
    clean_reason,
    count_lines,
    count_words,
    fenced_blocks,
    plural,
    unfence,
)

__all__ = ["ConstraintResult", "evaluate_constraint", "evaluate_reward"]


class ConstraintResult(BaseModel):
    """One constraint's verdict."""

    model_config = ConfigDict(frozen=True)

    kind: str
    label: str
    passed: bool
    hard: bool
    reason: str
    #: Inferred from the request by request analysis (soft), not given by the caller.
    inferred: bool = False


class _Limit(NamedTuple):
    """How long a timed check may run, and whether the track's budget (not the timeout) set it."""

    seconds: float
    by_budget: bool

    def spent(self, what: str, cfg: RewardConfig, on: str = "") -> str:
        """Why ``what`` (``"regex"``, ``"search for function f"``) ``on`` something stopped."""
        if self.by_budget:
            return f"{what}{on} stopped after {self.seconds:.2g}s: {_budget_ran_out(cfg)}"
        return f"{what} timed out after {self.seconds:g}s{on}"


def _budget_ran_out(cfg: RewardConfig) -> str:
    return f"the reward track's time budget ({cfg.time_budget_s} s) ran out"


class _Subject:
    """The content with the derived views the checks share, each computed at most once.

    ``deadline`` (``time.monotonic()``) is when the reward track's time budget runs out.
    """

    def __init__(self, content: str, deadline: float = float("inf")) -> None:
        self.content = content
        self.deadline = deadline

    def left(self) -> float:
        """Seconds left of the track's budget (0 or less once spent)."""
        return self.deadline - time.monotonic()

    def limit(self, cfg: RewardConfig) -> _Limit:
        """``reward.regex_timeout_s``, capped by what is left of the track's budget."""
        left = max(self.left(), 0.001)
        if left < cfg.regex_timeout_s:
            return _Limit(left, by_budget=True)
        return _Limit(cfg.regex_timeout_s, by_budget=False)

    @cached_property
    def folded(self) -> str:
        return self.content.casefold()

    @cached_property
    def code(self) -> str:
        return unfence(self.content)

    @cached_property
    def fences(self) -> list[CodeBlock]:
        return fenced_blocks(self.content)

    @property
    def blocks(self) -> list[str]:
        return [b.body for b in self.fences]


Verdict = tuple[bool, str]


def _q(text: str, limit: int = 60) -> str:
    """A short quoted excerpt of user text for a reason."""
    return repr(text[:limit]) + ("…" if len(text) > limit else "")


# --- size ---------------------------------------------------------------------------------


def _bound(actual: int, limit: int, noun: str, *, upper: bool) -> Verdict:
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


def _size(s: _Subject, k: Any, _cfg: RewardConfig) -> Verdict:
    measure, noun, upper = _MEASURES[k.kind]
    return _bound(measure(s.content), k.value, noun, upper=upper)


# --- text ---------------------------------------------------------------------------------


def _affix(s: _Subject, k: c.StartsWith | c.EndsWith, _cfg: RewardConfig) -> Verdict:
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
        return True, f"output {where} with {_q(k.value)}"
    return False, f"output {where} with {_q(shown)}, not {_q(k.value)}"


def _contains(s: _Subject, k: c.Contains | c.NotContains, _cfg: RewardConfig) -> Verdict:
    found = k.value in s.content if k.case_sensitive else k.value.casefold() in s.folded
    if k.kind == "contains":
        return found, f"{_q(k.value)} {'found' if found else 'not found'}"
    return not found, f"{_q(k.value)} {'found' if found else 'not found'}"


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
                raise ValueError(f"{where}: invalid pattern {_q(k.value)}: {exc}") from None
        elif isinstance(k, c.JsonSchema):
            problem = _schema_problem(k.value, cfg)
            if problem is not None:
                raise ValueError(f"{where}: {problem}")


def _regex(s: _Subject, k: c.Regex | c.NotRegex, cfg: RewardConfig) -> Verdict:
    flags = _flags(k)
    try:
        pattern = compile_user_pattern(k.value, flags, cfg)
    except regex.error as exc:
        return False, f"invalid pattern {_q(k.value)}: {exc}"
    limit = s.limit(cfg)
    try:
        match = pattern.search(s.content, timeout=limit.seconds)
    except TimeoutError:
        hint = "" if limit.by_budget else " (catastrophic backtracking?)"
        return False, limit.spent("regex", cfg, f" on pattern {_q(k.value)}") + hint
    if match is None:
        return k.kind == "not_regex", f"no match for pattern {_q(k.value)}"
    line = s.content.count("\n", 0, match.start()) + 1
    return k.kind == "regex", f"pattern {_q(k.value)} matches at line {line}: {_q(match[0])}"


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


def _file_extension(s: _Subject, k: c.FileExtension, _cfg: RewardConfig) -> Verdict:
    ext = ("" if k.value.startswith(".") else ".") + k.value.casefold()
    places = [_first_line(s.content), *(b.info for b in s.fences), *map(_first_line, s.blocks)]
    if any(_names_file(place, ext) for place in places):
        return True, f"names a {ext} file"
    return False, f"no file name ending in {ext} on the first line or in a code block header"


# --- structured formats -------------------------------------------------------------------


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not allowed in JSON")


def load_json(text: str) -> tuple[Any, str | None]:
    """Parse strict JSON (no NaN/Infinity): ``(value, None)`` or ``(None, why not)``."""
    try:
        return json.loads(text, parse_constant=_no_constants), None
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
    except ValueError as exc:
        return None, f"invalid JSON: {exc}"
    except RecursionError:
        return None, "JSON is nested too deeply to check"


def _valid_json(s: _Subject, _k: c.ValidJson, _cfg: RewardConfig) -> Verdict:
    _, error = load_json(s.code)
    return (True, "valid JSON") if error is None else (False, error)


# JSON Schema patterns are user regexes too: jsonschema matches them with ``re``, which
# cannot be interrupted, so the keywords that match patterns are replaced by versions that
# use ``regex`` against one deadline for the whole validation. ``unevaluatedProperties``
# would still match ``patternProperties`` with ``re``, so that pairing is refused.
_DEADLINE: ContextVar[float] = ContextVar("_DEADLINE", default=float("inf"))


def _search(pattern: str, text: str) -> bool:
    remaining = _DEADLINE.get() - time.monotonic()
    if remaining <= 0:
        raise TimeoutError("regex timed out")
    return regex.search(pattern, text, timeout=remaining) is not None


def _kw_pattern(v: Any, patrn: str, instance: Any, _schema: Any) -> Iterator[ValidationError]:
    if v.is_type(instance, "string") and not _search(patrn, instance):
        yield ValidationError(f"{_q(instance)} does not match {patrn!r}")


def _kw_pattern_properties(
    v: Any, patterns: dict[str, Any], instance: Any, _schema: Any
) -> Iterator[ValidationError]:
    if not v.is_type(instance, "object"):
        return
    for patrn, subschema in patterns.items():
        for key, value in instance.items():
            if _search(patrn, key):
                yield from v.descend(value, subschema, path=key, schema_path=patrn)


def _kw_additional_properties(
    v: Any, extra_schema: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if not v.is_type(instance, "object"):
        return
    known, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
    extras = sorted(
        key for key in instance if key not in known and not any(_search(p, key) for p in patterns)
    )
    if v.is_type(extra_schema, "object"):
        for key in extras:
            yield from v.descend(instance[key], extra_schema, path=key)
    elif extra_schema is False and extras:
        yield ValidationError(f"additional properties are not allowed: {', '.join(extras)}")


class _BudgetSpent(Exception):
    """The reward track's time budget ran out in the middle of a schema validation."""


class _Canonical:
    """Hashable forms of JSON values, equal exactly when JSON Schema calls the values equal.

    Numbers compare by value (``1 == 1.0``, as Python's own ``==`` and ``hash`` agree), but a
    boolean is never a number (``true != 1``), objects compare whatever their key order, and
    arrays element by element with the same rules. Each array or object is converted once
    per validation (nested ``uniqueItems`` reuse it), and the track's deadline is checked
    every few thousand containers.
    """

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        # By id, holding the value too: no id can be reused while the cache lives.
        self.cache: dict[int, tuple[Any, Hashable]] = {}
        self.count = 0

    def __call__(self, value: Any) -> Hashable:
        if isinstance(value, bool):
            return ("bool", value)
        if not isinstance(value, dict | list):
            scalar: Hashable = value  # str, int, float, None: Python's equality is JSON's
            return scalar
        found = self.cache.get(id(value))
        if found is not None:
            return found[1]
        self.count += 1
        if self.count % 4096 == 0 and time.monotonic() >= self.deadline:
            raise _BudgetSpent
        form: Hashable
        if isinstance(value, dict):
            form = ("object", frozenset((k, self(v)) for k, v in value.items()))
        else:
            form = ("array", tuple(self(v) for v in value))
        self.cache[id(value)] = (value, form)
        return form


_CANONICAL: ContextVar[_Canonical | None] = ContextVar("_CANONICAL", default=None)


def _kw_unique_items(v: Any, unique: Any, instance: Any, _schema: Any) -> Iterator[ValidationError]:
    """``uniqueItems`` in linear time: canonical forms in a set (jsonschema compares pairs)."""
    if not unique or not v.is_type(instance, "array"):
        return
    canonical = _CANONICAL.get() or _Canonical(float("inf"))
    seen: set[Hashable] = set()
    for index, item in enumerate(instance):
        form = canonical(item)
        if form in seen:
            shown = _q(json.dumps(item, ensure_ascii=False))
            yield ValidationError(f"items must be unique: item {index} repeats one before, {shown}")
            return
        seen.add(form)


_Validator = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    {
        "pattern": _kw_pattern,
        "patternProperties": _kw_pattern_properties,
        "additionalProperties": _kw_additional_properties,
        "uniqueItems": _kw_unique_items,
    },
)


def _keywords(schema: Any) -> set[str]:
    """Every key of every object in the schema (iterative: deep schemas are fine)."""
    keys: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            keys.update(k for k in node if isinstance(k, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return keys


def _schema_patterns(schema: Any) -> Iterator[str]:
    """Every ``pattern`` and ``patternProperties`` key of the schema (iteratively)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            if isinstance(node.get("patternProperties"), dict):
                yield from (k for k in node["patternProperties"] if isinstance(k, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _schema_problem(schema: dict[str, Any], cfg: RewardConfig) -> str | None:
    if {"unevaluatedProperties", "patternProperties"} <= _keywords(schema):
        return (
            "unevaluatedProperties together with patternProperties is not supported"
            " (those patterns could not be time-limited)"
        )
    limit = cfg.regex_max_unrolled
    for pattern in _schema_patterns(schema):
        if unrolled_size(pattern, limit) > limit:
            return (
                f"the schema's pattern {_q(pattern)} is refused: its counted repeats ({{m,n}})"
                f" unroll to more than {limit:,} items when compiled"
                " (reward.regex_max_unrolled); use + or * or smaller counts"
            )
    try:
        Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return f"the schema itself is invalid: {exc.message[:500]}"
    except RecursionError:
        return "the schema is nested too deeply to check"
    return None


def _first_violation(
    schema: dict[str, Any], instance: Any, s: _Subject, cfg: RewardConfig
) -> str | None:
    # An empty registry (jsonschema adds the meta-schemas): a remote $ref is never fetched.
    validator = _Validator(schema, registry=Registry())
    limit = s.limit(cfg)
    token = _DEADLINE.set(time.monotonic() + limit.seconds)
    canonical = _CANONICAL.set(_Canonical(s.deadline))
    try:
        errors = list(itertools.islice(validator.iter_errors(instance), 20))
    except TimeoutError:
        return limit.spent("a pattern in the schema", cfg)
    except _BudgetSpent:
        return f"validation stopped: {_budget_ran_out(cfg)} (reward.time_budget_s)"
    except regex.error as exc:
        return f"the schema has an invalid pattern: {exc}"
    except Unresolvable as exc:
        return f"the schema has a $ref that cannot be resolved here: {exc}"
    except RecursionError:
        return "the JSON or the schema is nested too deeply to check"
    finally:
        _CANONICAL.reset(canonical)
        _DEADLINE.reset(token)
    error = best_match(errors)
    if error is None:
        return None
    more = ""
    if len(errors) > 1:
        more = f" (and {len(errors) - 1}{'+' if len(errors) == 20 else ''} more)"
    return f"{error.json_path}: {error.message[:500]}{more}"


def _json_schema(s: _Subject, k: c.JsonSchema, cfg: RewardConfig) -> Verdict:
    problem = _schema_problem(k.value, cfg)
    if problem is not None:
        return False, problem
    instance, problem = load_json(s.code)
    if problem is None:
        problem = _first_violation(k.value, instance, s, cfg)
    return (True, "JSON matches the schema") if problem is None else (False, problem)


def parse_python(code: str, cfg: RewardConfig) -> tuple[ast.Module | None, str | None]:
    """``(tree, None)`` or ``(None, why it could not be parsed)``."""
    if len(code) > cfg.ast_max_chars:
        return None, f"too large to parse as Python ({len(code)} > {cfg.ast_max_chars} chars)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes etc. are not our business
            return ast.parse(code), None
    except SyntaxError as exc:
        return None, f"SyntaxError at line {exc.lineno}: {exc.msg}"
    except ValueError as exc:
        return None, f"not valid Python: {exc}"
    except (RecursionError, MemoryError):
        return None, "Python is nested too deeply to parse"


def _valid_python(s: _Subject, _k: c.ValidPython, cfg: RewardConfig) -> Verdict:
    _, error = parse_python(s.code, cfg)
    return (True, "valid Python") if error is None else (False, error)


# --- functions ----------------------------------------------------------------------------

_PY = [r"^[ \t]*(?:async[ \t]+)?def[ \t]+{n}[ \t]*[\[(]"]
_JS = [
    r"\bfunction\b[ \t]*\*?[ \t]*{n}[ \t]*(?:<[^>\n]{{0,200}}>)?[ \t]*\(",
    r"\b(?:const|let|var)[ \t]+{n}[ \t]*(?::[^=\n]{{0,200}})?=[ \t]*(?:async\b[ \t]*)?"
    r"(?:function\b|\([^)]{{0,1000}}\)[ \t]*(?::[^=\n]{{0,200}})?=>"
    r"|[A-Za-z_$][\w$]{{0,100}}[ \t]*=>)",
    r"(?<![\w$.]){n}[ \t]*[:=][ \t]*(?:async\b[ \t]*)?"
    r"(?:function\b|\([^)]{{0,1000}}\)[ \t]*(?::[^=\n]{{0,200}})?=>)",
    r"^[ \t]*(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)"
    r"[ \t]+){{0,6}}\*?[ \t]*{n}[ \t]*(?:<[^>\n]{{0,200}}>)?\([^)]{{0,1000}}\)[ \t]*"
    r"(?::[^{{;\n]{{0,200}})?\{{",
]
_GO = [r"\bfunc[ \t]*(?:\([^)\n]{{0,200}}\)[ \t]*)?{n}[ \t]*[\[(]"]
_RUST = [r"\bfn[ \t]+{n}[ \t]*[<(]"]
_RUBY = [r"^[ \t]*def[ \t]+(?:self\.)?{n}(?=[ \t(;]|$)"]
# Return type and modifiers, then the name, the parameters and a body: a declaration, not
# a call. Token and separator classes are disjoint, so matching never backtracks badly.
_C_FAMILY = [
    r"^[ \t]*(?:[\w<>\[\],.?:~@]+[ \t*&]+){{1,8}}(?:\w+::){{0,4}}{n}[ \t]*\([^)]{{0,1000}}\)[ \t]*"
    r"(?:const\b[ \t]*)?(?:noexcept\b[ \t]*)?(?:(?:->|throws\b)[^{{;\n]{{0,200}})?\s{{0,20}}\{{"
]
#: Definition patterns by language; ``{n}`` is the escaped function name.
_FUNCTION_PATTERNS: dict[str, list[str]] = {
    "python": _PY,
    "javascript": _JS,
    "typescript": _JS,
    "go": _GO,
    "rust": _RUST,
    "ruby": _RUBY,
    "java": _C_FAMILY,
    "c": _C_FAMILY,
    "cpp": _C_FAMILY,
    "any": _PY + _JS + _GO + _RUST + _RUBY + _C_FAMILY,
}


@lru_cache(maxsize=256)
def _name_pattern(name: str) -> regex.Pattern[str]:
    return regex.compile(r"(?<![\w$])" + regex.escape(name) + r"(?![\w$])")


@lru_cache(maxsize=256)
def _definition_pattern(language: str, name: str) -> regex.Pattern[str]:
    n = _name_pattern(name).pattern
    alternatives = (p.format(n=n) for p in _FUNCTION_PATTERNS[language])
    return regex.compile("|".join(f"(?:{a})" for a in alternatives), regex.MULTILINE)


# A definition spans at most this much text before and after the name (modifiers and
# return type; parameters, return type and the opening brace).
_BEFORE, _AFTER = 400, 1500


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("function search timed out")
    return left


def _near_name(text: str, name: str, deadline: float) -> str:
    """Only the text around each mention of ``name``: the patterns then scan little."""
    spans: list[list[int]] = []
    for i, m in enumerate(_name_pattern(name).finditer(text)):
        if i % 1024 == 1023:
            _remaining(deadline)
        line = text.rfind("\n", max(0, m.start() - _BEFORE), m.start()) + 1
        start, end = max(line, m.start() - _BEFORE), min(len(text), m.end() + _AFTER)
        if spans and start <= spans[-1][1]:
            spans[-1][1] = end
        else:
            spans.append([start, end])
    return "\n".join(text[a:b] for a, b in spans)


def _pattern_defines(text: str, language: str, name: str, deadline: float) -> bool:
    near = _near_name(text, name, deadline)
    pattern = _definition_pattern(language, name)
    return bool(near) and pattern.search(near, timeout=_remaining(deadline)) is not None


def _defines(tree: ast.Module, name: str) -> bool:
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name
        for node in ast.walk(tree)
    )


def _python_sources(s: _Subject, cfg: RewardConfig) -> Iterator[tuple[str, ast.Module | None]]:
    """The whole output if it parses, else each fenced block (or the output), parsed or not."""
    tree, _ = parse_python(s.content, cfg)
    if tree is not None:
        yield s.content, tree
        return
    for body in s.blocks or [s.content]:
        yield body, parse_python(body, cfg)[0]


def _find_definition(
    s: _Subject, k: c.ContainsFunction, cfg: RewardConfig, limit: _Limit
) -> str | None:
    """How the definition was found ("Python AST", "go pattern"), or ``None``."""
    deadline = time.monotonic() + limit.seconds
    if k.language in ("python", "any"):
        for text, tree in _python_sources(s, cfg):
            if tree is not None and _defines(tree, k.value):
                return "Python AST"
            if tree is None and _pattern_defines(text, "python", k.value, deadline):
                return "python pattern"
        if k.language == "python":
            return None
    if _pattern_defines(s.content, k.language, k.value, deadline):
        return f"{k.language} pattern"
    return None


def _instruction(s: _Subject, k: c.Instruction, cfg: RewardConfig) -> Verdict:
    passed, detail = check_instruction(s.content, k)
    if passed is None:  # nothing to judge: evaluate_reward leaves it out
        raise _NotApplicable(detail)
    return passed, detail


class _NotApplicable(Exception):
    """The instruction cannot be judged on this answer (no list to count...)."""


def _contains_function(s: _Subject, k: c.ContainsFunction, cfg: RewardConfig) -> Verdict:
    limit = s.limit(cfg)
    try:
        how = _find_definition(s, k, cfg, limit)
    except TimeoutError:
        return False, limit.spent(f"search for function {k.value}", cfg)
    if how is None:
        return False, f"no definition of function {k.value} found ({k.language})"
    return True, f"function {k.value} defined ({how})"


# --- evaluation ---------------------------------------------------------------------------

_CHECKS: dict[str, Callable[[_Subject, Any, RewardConfig], Verdict]] = {
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
    "contains_function": _contains_function,
    "valid_json": _valid_json,
    "json_schema": _json_schema,
    "valid_python": _valid_python,
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
    return f"{k.kind} {value}" if isinstance(value, int) else f"{k.kind} {_q(value, 40)}"


# Signals that must stop the task, not fail one constraint (Celery's soft time limit is an
# Exception subclass; scoring does not import Celery, so it is matched by name).
_PROPAGATE = frozenset({"SoftTimeLimitExceeded"})


def _check(s: _Subject, k: Constraint, cfg: RewardConfig) -> Verdict:
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
    s: _Subject, k: Constraint, cfg: RewardConfig, *, unchecked: bool = False
) -> ConstraintResult:
    """The verdict; an ``unchecked`` constraint (the budget ran out before it) fails."""
    if unchecked:
        passed = False
        detail = f"not checked: {_budget_ran_out(cfg)}; counted as failed (reward.time_budget_s)"
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
    return _evaluate(_Subject(content, time.monotonic() + cfg.time_budget_s), constraint, cfg)


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
    subject = _Subject(content, time.monotonic() + cfg.time_budget_s)
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

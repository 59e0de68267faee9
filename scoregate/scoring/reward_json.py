"""The reward track's structured-format checks: ``valid_json`` and ``json_schema``.

A JSON Schema's patterns are user regexes too, matched against the track's deadline;
``uniqueItems`` is checked in linear time; a remote ``$ref`` is never fetched.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Hashable, Iterator
from contextvars import ContextVar
from typing import Any, NoReturn

import jsonschema
import regex
from jsonschema import Draft202012Validator, ValidationError
from jsonschema.exceptions import best_match
from referencing import Registry
from referencing.exceptions import Unresolvable

from scoregate.config.tracks import RewardConfig
from scoregate.schemas import constraints as c
from scoregate.scoring.patterns import unrolled_size
from scoregate.scoring.reward_subject import Outcome, Subject, budget_ran_out, quote


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


def json_strings(value: Any, keys: frozenset[str] = frozenset()) -> list[str]:
    """Every string in a parsed JSON value, keys aside, in order; with ``keys``, only the
    strings under an object key among them (lower-cased), at any depth. Read without
    recursion: the value may be nested as deep as the parser allows."""
    found: list[str] = []
    todo: list[tuple[Any, bool]] = [(value, not keys)]
    while todo:
        v, wanted = todo.pop()
        if isinstance(v, str) and wanted:
            found.append(v)
        elif isinstance(v, list):
            todo += [(item, wanted) for item in reversed(v)]
        elif isinstance(v, dict):
            todo += [
                (item, wanted or (isinstance(key, str) and key.lower() in keys))
                for key, item in reversed(list(v.items()))
            ]
    return found


def check_valid_json(s: Subject, _k: c.ValidJson, _cfg: RewardConfig) -> Outcome:
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
        yield ValidationError(f"{quote(instance)} does not match {patrn!r}")


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
            shown = quote(json.dumps(item, ensure_ascii=False))
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


def schema_problem(schema: dict[str, Any], cfg: RewardConfig) -> str | None:
    if {"unevaluatedProperties", "patternProperties"} <= _keywords(schema):
        return (
            "unevaluatedProperties together with patternProperties is not supported"
            " (those patterns could not be time-limited)"
        )
    limit = cfg.regex_max_unrolled
    for pattern in _schema_patterns(schema):
        if unrolled_size(pattern, limit) > limit:
            return (
                f"the schema's pattern {quote(pattern)} is refused: its counted repeats ({{m,n}})"
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
    schema: dict[str, Any], instance: Any, s: Subject, cfg: RewardConfig
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
        return f"validation stopped: {budget_ran_out(cfg)} (reward.time_budget_s)"
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


def check_json_schema(s: Subject, k: c.JsonSchema, cfg: RewardConfig) -> Outcome:
    problem = schema_problem(k.value, cfg)
    if problem is not None:
        return False, problem
    instance, problem = load_json(s.code)
    if problem is None:
        problem = _first_violation(k.value, instance, s, cfg)
    return (True, "JSON matches the schema") if problem is None else (False, problem)

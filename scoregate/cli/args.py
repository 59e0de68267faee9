"""How constraints are written on the command line, read from the constraint schema.

``--constraint KIND=VALUE`` and ``--hard KIND=VALUE`` take the kinds of
:data:`scoregate.schemas.constraints.Constraint`; the help text and the value types the
parser converts to are derived from that union, so a new kind shows up here by itself.
The request options that ``score`` and ``submit`` share, and the request they build, are
here too.
"""

from __future__ import annotations

import json
import types
import typing
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel

from scoregate.cli.console import die
from scoregate.schemas.constraints import CONSTRAINT_KINDS, Constraint

#: What each value syntax means, for the help text.
VALUE_SYNTAX = {"N": "a whole number", "TEXT": "text", "JSON": "a JSON object"}


@dataclass(frozen=True)
class KindSyntax:
    """One constraint kind as the CLI takes it."""

    kind: str
    #: ``N``, ``TEXT`` or ``JSON`` (see :data:`VALUE_SYNTAX`), ``""`` for a kind that
    #: takes no value, ``None`` for one that only a whole JSON object can express.
    value: str | None

    @property
    def usage(self) -> str:
        if self.value is None:
            return f'{{"kind": "{self.kind}", ...}}'
        return f"{self.kind}={self.value}" if self.value else self.kind


def _models() -> list[type[BaseModel]]:
    union = typing.get_args(Constraint)[0]  # Annotated[Union[...], Field(discriminator=...)]
    return [m for m in typing.get_args(union) if isinstance(m, type)]


def _value_syntax(model: type[BaseModel]) -> str | None:
    field = model.model_fields.get("value")
    if field is None:
        return ""
    ann = field.annotation
    if ann is int:
        return "N"
    if typing.get_origin(ann) is dict:
        return "JSON"
    if isinstance(ann, types.UnionType) or typing.get_origin(ann) is typing.Union:
        return None  # several shapes (instruction): only a JSON object says which
    return "TEXT"


@cache
def constraint_syntax() -> tuple[KindSyntax, ...]:
    """Every constraint kind, in the schema's order, with the value it takes."""
    return tuple(KindSyntax(m.model_fields["kind"].default, _value_syntax(m)) for m in _models())


def kinds_with(value: str | None) -> frozenset[str]:
    """The kinds whose value has syntax ``value`` (``"N"``, ``"TEXT"``, ``"JSON"``, ``""``)."""
    return frozenset(k.kind for k in constraint_syntax() if k.value == value)


def constraint_epilog() -> str:
    """The ``--help`` section of ``score`` and ``submit``: the syntax and every kind.

    Paragraphs are separated by blank lines: Typer's help joins single line breaks.
    """
    kinds = ", ".join(k.usage for k in constraint_syntax())
    legend = "; ".join(f"{k} = {v}" for k, v in VALUE_SYNTAX.items())
    return "\n\n".join(
        (
            "Constraints: --constraint KIND=VALUE (soft) or --hard KIND=VALUE (failing it"
            " caps the score), each repeatable. A whole JSON object works too, e.g."
            ' --hard \'{"kind": "regex", "value": "^#", "flags": "m"}\'.',
            f"Constraint kinds ({legend}): {kinds}.",
            "Examples: --constraint max_lines=40  --hard not_contains=peanut  --hard valid_json"
            '  --constraint \'json_schema={"type": "object"}\'',
        )
    )


_INT_KINDS = kinds_with("N")
_FLAG_KINDS = kinds_with("")


def parse_constraint(text: str, *, hard: bool = False) -> dict[str, Any]:
    """``KIND=VALUE`` (or a JSON object) -> a constraint dict; errors name the fix."""
    text = text.strip()
    if text.startswith("{"):
        data = _load_json(text, f"constraint {text[:80]!r}")
        if not isinstance(data, dict):
            raise ValueError(f"constraint {text[:80]!r} must be a JSON object")
        if hard and data.get("hard") is False:
            raise ValueError(
                f'constraint {text[:80]!r} says "hard": false but was given with --hard;'
                ' give it with --constraint, or drop "hard"'
            )
        return {**data, "hard": hard or data.get("hard", False)}
    kind, sep, value = text.partition("=")
    kind = kind.strip()
    if kind not in CONSTRAINT_KINDS:
        raise ValueError(f"unknown constraint kind {kind!r}; known: {', '.join(CONSTRAINT_KINDS)}")
    if kind in _FLAG_KINDS:
        if sep:  # "valid_json=false" would still check valid_json: say so
            raise ValueError(f"constraint {kind!r} takes no value: give it as {kind} alone")
        return {"kind": kind, "hard": hard}
    if not sep:
        raise ValueError(f"constraint {kind!r} needs a value: {kind}=VALUE")
    return {"kind": kind, "value": _constraint_value(kind, value), "hard": hard}


def _constraint_value(kind: str, value: str) -> Any:
    if kind in _INT_KINDS:
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{kind} needs a whole number, got {value!r}") from None
    if kind == "json_schema":
        return _load_json(value, "json_schema value")
    return value


def _load_json(text: str, what: str) -> Any:
    """Parse JSON for a constraint; every failure is a ``ValueError`` naming ``what``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} is not valid JSON: {exc.msg}") from exc
    except RecursionError:
        raise ValueError(
            f"{what} is nested too deeply to read: flatten it (a schema needs only a few levels)"
        ) from None


def read_content(content: str | None, content_file: Path | None) -> str:
    """The agent's output from ``--content`` or ``--content-file`` (exactly one of them)."""
    if (content is None) == (content_file is None):
        raise die("give exactly one of --content or --content-file")
    if content_file is None:
        return content or ""
    if content_file.is_dir():
        raise die(f"{content_file} is a directory: give the file holding the agent's output")
    try:
        return content_file.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise die(f"{content_file} does not exist") from None
    except UnicodeDecodeError as exc:
        raise die(f"{content_file} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise die(f"cannot read {content_file}: {exc.strerror or exc}") from None


def request_body(
    query: str,
    content: str,
    constraints: list[str] | None,
    hard: list[str] | None,
    role: str | None,
    task_type: str | None,
) -> dict[str, Any]:
    """The score request the flags describe; a bad constraint exits 2 naming the fix."""
    try:
        parsed = [parse_constraint(c) for c in constraints or []]
        parsed += [parse_constraint(c, hard=True) for c in hard or []]
    except ValueError as exc:
        raise die(str(exc)) from None
    metadata = {k: v for k, v in {"role": role, "task_type": task_type}.items() if v}
    return {"query": query, "content": content, "constraints": parsed, "metadata": metadata}


# The options ``score`` and ``submit`` share.
Query = Annotated[str, typer.Option("--query", "-q", help="The request the agent was given.")]
Content = Annotated[str | None, typer.Option("--content", "-c", help="The agent's output.")]
ContentFile = Annotated[
    Path | None, typer.Option("--content-file", "-f", help="Read the agent's output from a file.")
]
Constraints = Annotated[
    list[str] | None,
    typer.Option(
        "--constraint",
        help="KIND=VALUE, e.g. max_lines=400 or not_contains=nuts (repeatable; kinds below).",
    ),
]
HardConstraints = Annotated[
    list[str] | None,
    typer.Option("--hard", help="A hard constraint (KIND=VALUE): failing it caps the score."),
]
Role = Annotated[str | None, typer.Option("--role", help="Caller role, e.g. admin.")]
TaskType = Annotated[
    str | None, typer.Option("--task-type", help="analysis, research, creative, code...")
]
AsJson = Annotated[
    bool, typer.Option("--json", help="Print JSON (schema_version 1, docs/json-output.md).")
]


def actor_name(actor: str | None) -> str:
    """Who acts: ``--actor``, else ``$USER``, else the login name; refused with a usage
    error when none is known (the audit trail and ``scoregate calibrate`` need a name), or
    when the audit trail cannot store it: longer than its column, or a NUL character."""
    from scoregate.pipelines.validation import MAX_KEY_CHARS, check_name

    who, where = _actor(actor)
    if len(who) > MAX_KEY_CHARS:
        raise die(f"{where} is {len(who)} characters long: give a name of at most {MAX_KEY_CHARS}")
    try:
        check_name(who, where)
    except ValueError as exc:
        raise die(str(exc)) from None
    return who


def _actor(actor: str | None) -> tuple[str, str]:
    """The name and where it came from, for the error that refuses it."""
    import getpass
    import os

    if actor:
        return actor, "--actor"
    if os.environ.get("USER"):
        return os.environ["USER"], "$USER"
    try:
        login = getpass.getuser()
    except (KeyError, OSError):  # no LOGNAME/USER and no passwd entry for the uid
        login = ""
    if login:
        return login, "the login name"
    raise die(
        "no name to record for who acts ($USER is unset and there is no login name):"
        " give --actor NAME"
    )

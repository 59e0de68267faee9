"""How constraints are written on the command line, read from the constraint schema.

``--constraint KIND=VALUE`` and ``--hard KIND=VALUE`` take the kinds of
:data:`scoregate.schemas.constraints.Constraint`; the help text and the value types the
parser converts to are derived from that union, so a new kind shows up here by itself.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from functools import cache

from pydantic import BaseModel

from scoregate.schemas.constraints import Constraint

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

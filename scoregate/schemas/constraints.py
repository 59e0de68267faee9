"""Hard constraints checked mechanically by the reward track (seed 001).

A discriminated union on ``kind``; every constraint may be marked ``hard``: a
hard constraint that fails caps the fused score.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Base(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    hard: bool = False
    label: str | None = Field(default=None, max_length=200)


class MaxLines(_Base):
    kind: Literal["max_lines"] = "max_lines"
    value: int = Field(ge=0)


class MinLines(_Base):
    kind: Literal["min_lines"] = "min_lines"
    value: int = Field(ge=0)


class MaxChars(_Base):
    kind: Literal["max_chars"] = "max_chars"
    value: int = Field(ge=0)


class MinWords(_Base):
    kind: Literal["min_words"] = "min_words"
    value: int = Field(ge=0)


class MaxWords(_Base):
    kind: Literal["max_words"] = "max_words"
    value: int = Field(ge=0)


class StartsWith(_Base):
    kind: Literal["starts_with"] = "starts_with"
    value: str = Field(min_length=1, max_length=10_000)
    case_sensitive: bool = True


class EndsWith(_Base):
    kind: Literal["ends_with"] = "ends_with"
    value: str = Field(min_length=1, max_length=10_000)
    case_sensitive: bool = True


class FileExtension(_Base):
    """The output names a file (first line, or the whole content) with this extension."""

    kind: Literal["file_extension"] = "file_extension"
    value: str = Field(min_length=1, max_length=20, pattern=r"^\.?[A-Za-z0-9_+-]+$")


class Contains(_Base):
    kind: Literal["contains"] = "contains"
    value: str = Field(min_length=1, max_length=10_000)
    case_sensitive: bool = False


class NotContains(_Base):
    kind: Literal["not_contains"] = "not_contains"
    value: str = Field(min_length=1, max_length=10_000)
    case_sensitive: bool = False


class Regex(_Base):
    kind: Literal["regex"] = "regex"
    value: str = Field(min_length=1, max_length=2_000)
    flags: str = Field(default="", pattern=r"^[imsx]*$")


class NotRegex(_Base):
    kind: Literal["not_regex"] = "not_regex"
    value: str = Field(min_length=1, max_length=2_000)
    flags: str = Field(default="", pattern=r"^[imsx]*$")


class ContainsFunction(_Base):
    """A function definition named ``value``: Python by AST, other languages by pattern."""

    kind: Literal["contains_function"] = "contains_function"
    value: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z_$][A-Za-z0-9_$]*$")
    language: Literal[
        "python", "javascript", "typescript", "go", "rust", "java", "c", "cpp", "ruby", "any"
    ] = "python"


class ValidJson(_Base):
    kind: Literal["valid_json"] = "valid_json"


class JsonSchema(_Base):
    kind: Literal["json_schema"] = "json_schema"
    value: dict[str, Any]


class ValidPython(_Base):
    kind: Literal["valid_python"] = "valid_python"


Constraint = Annotated[
    MaxLines
    | MinLines
    | MaxChars
    | MinWords
    | MaxWords
    | StartsWith
    | EndsWith
    | FileExtension
    | Contains
    | NotContains
    | Regex
    | NotRegex
    | ContainsFunction
    | ValidJson
    | JsonSchema
    | ValidPython,
    Field(discriminator="kind"),
]

CONSTRAINT_ADAPTER: TypeAdapter[Constraint] = TypeAdapter(Constraint)

#: Every kind the reward track knows, for error messages and the CLI.
CONSTRAINT_KINDS: tuple[str, ...] = (
    "max_lines",
    "min_lines",
    "max_chars",
    "min_words",
    "max_words",
    "starts_with",
    "ends_with",
    "file_extension",
    "contains",
    "not_contains",
    "regex",
    "not_regex",
    "contains_function",
    "valid_json",
    "json_schema",
    "valid_python",
)

"""Hard constraints checked mechanically by the reward track (seed 001).

A discriminated union on ``kind``; every constraint may be marked ``hard``: a
hard constraint that fails caps the fused score.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator


class _Base(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # Numbers and flags are strict (as in the request): ``true`` or ``"10"`` is refused,
    # not read as 1 or 10.
    hard: bool = Field(default=False, strict=True)
    label: str | None = Field(default=None, max_length=200)


class MaxLines(_Base):
    kind: Literal["max_lines"] = "max_lines"
    value: int = Field(ge=0, strict=True)


class MinLines(_Base):
    kind: Literal["min_lines"] = "min_lines"
    value: int = Field(ge=0, strict=True)


class MaxChars(_Base):
    kind: Literal["max_chars"] = "max_chars"
    value: int = Field(ge=0, strict=True)


class MinWords(_Base):
    kind: Literal["min_words"] = "min_words"
    value: int = Field(ge=0, strict=True)


class MaxWords(_Base):
    kind: Literal["max_words"] = "max_words"
    value: int = Field(ge=0, strict=True)


class StartsWith(_Base):
    kind: Literal["starts_with"] = "starts_with"
    value: str = Field(min_length=1, max_length=10_000)
    case_sensitive: bool = Field(default=True, strict=True)


class EndsWith(_Base):
    kind: Literal["ends_with"] = "ends_with"
    value: str = Field(min_length=1, max_length=10_000)
    case_sensitive: bool = Field(default=True, strict=True)


class FileExtension(_Base):
    """The output names a file (first line, or the whole content) with this extension."""

    kind: Literal["file_extension"] = "file_extension"
    value: str = Field(min_length=1, max_length=20, pattern=r"^\.?[A-Za-z0-9_+-]+$")


class Contains(_Base):
    kind: Literal["contains"] = "contains"
    value: str = Field(min_length=1, max_length=10_000)
    case_sensitive: bool = Field(default=False, strict=True)


class NotContains(_Base):
    kind: Literal["not_contains"] = "not_contains"
    value: str = Field(min_length=1, max_length=10_000)
    case_sensitive: bool = Field(default=False, strict=True)


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


#: What an ``instruction`` constraint checks (see :mod:`scoregate.scoring.instructions`).
InstructionCheck = Literal[
    "count",
    "list_form",
    "format",
    "case",
    "forbidden_chars",
    "keywords",
    "forbidden_words",
    "word_frequency",
    "letter_frequency",
    "capital_words",
    "quoted",
    "title",
    "postscript",
    "starts_with",
    "ends_with",
    "yes_no_first",
    "answer_choice",
    "language",
    "repeat_prompt",
    "two_responses",
    "paragraph_first_word",
    "headings",
    "json_keys",
    "json_array",
    "table_columns",
    "bare_answer",
    "mentions",
    "closing_line",
    "line_template",
    "stdlib_only",
    "translation",
    "rhyme",
]
CountUnit = Literal[
    "words",
    "sentences",
    "paragraphs",
    "bullets",
    "numbered",
    "items",
    "lines",
    "code_lines",
    "verse_lines",
    "sections",
    "highlights",
    "bold_spans",
    "placeholders",
    "item_words",
    "item_sentences",
    "section_items",
    "characters",
    "item_characters",
    "headings",
    "stanzas",
]
Relation = Literal["exactly", "at_least", "at_most"]

#: The parameters each instruction check needs.
_NEEDS: dict[str, tuple[str, ...]] = {
    "count": ("unit", "value"),
    "list_form": ("value",),
    "format": ("value",),
    "case": ("value",),
    "forbidden_chars": ("value",),
    "keywords": ("value",),
    "forbidden_words": ("value",),
    "word_frequency": ("value", "count"),
    "letter_frequency": ("value", "count"),
    "capital_words": ("count",),
    "starts_with": ("value",),
    "ends_with": ("value",),
    "answer_choice": ("value",),
    "language": ("value",),
    "repeat_prompt": ("value",),
    "paragraph_first_word": ("value", "index"),
    "headings": ("value",),
    "json_array": ("value", "count"),
    "table_columns": ("value",),
    "mentions": ("value",),
    "closing_line": ("value",),
    "line_template": ("value",),
    "translation": ("value",),
    "rhyme": ("value",),
}


#: What a ``mentions`` instruction can find by its form: a complexity ("O(n)"), a price
#: ("$45", "130 €"), or a price in every list item.
MENTIONABLE = ("complexity", "price", "price of each")
#: The forms a ``format`` instruction checks (``table_only``: a table and nothing else;
#: ``list_only``: list items and nothing else;
#: ``code_only``: code with no prose; ``commented``: a comment on every line of code).
FORMATS = (
    "json",
    "yaml",
    "json_block",
    "yaml_block",
    "code_block",
    "code_only",
    "blockquote",
    "comma_separated",
    "table",
    "table_only",
    "list_only",
    "commented",
)


class Instruction(_Base):
    """A checkable instruction about the answer's form: counts, list form, format, case,
    words and letters, markers, language... Written by the user, or inferred from the
    request by request analysis (``inferred``: then soft, and ``phrase`` quotes the
    request's words that asked for it).

    ``value`` is a count (``count``), a phrase, a word list, or a name (``format``: one of
    ``FORMATS``; ``case``: lowercase / uppercase; ``list_form``:
    numbered / bulleted; ``language``: an ISO 639-1 code; ``mentions``: one of
    ``MENTIONABLE``; ``title``: unset for a ``<<title>>``, ``plain`` for a title line,
    ``none`` for no title at all); ``count`` is the number a frequency check compares with.
    ``translation``: ``value`` is the text the answer translates; the answer keeps every
    number of it, at least half its names, about its length and its sentences.
    """

    kind: Literal["instruction"] = "instruction"
    check: InstructionCheck
    unit: CountUnit | None = None
    relation: Relation = "exactly"
    value: (
        Annotated[int, Field(strict=True)]
        | str
        | list[Annotated[str, Field(min_length=1, max_length=200)]]
        | None
    ) = None
    count: int | None = Field(default=None, ge=0, strict=True)
    separator: str | None = Field(default=None, max_length=20)
    index: int | None = Field(default=None, ge=1, strict=True)
    inferred: bool = Field(default=False, strict=True)
    phrase: str | None = Field(default=None, max_length=500)

    @model_validator(mode="after")
    def _complete(self) -> Instruction:
        missing = [f for f in _NEEDS.get(self.check, ()) if getattr(self, f) in (None, "", [])]
        if missing:
            raise ValueError(
                f"instruction {self.check!r} needs {', '.join(missing)}"
                f' (e.g. {{"kind": "instruction", "check": "count", "unit":'
                f' "bullets", "relation": "exactly", "value": 3}})'
            )
        if self.check == "count" and not isinstance(self.value, int):
            raise ValueError("instruction 'count' needs an integer value")
        if self.check == "count" and isinstance(self.value, int) and self.value < 0:
            raise ValueError(f"instruction 'count' needs a value of 0 or more, not {self.value}")
        if self.check == "format" and self.value not in FORMATS:
            raise ValueError(
                f"instruction 'format' checks one of {', '.join(map(repr, FORMATS))},"
                f" not {self.value!r}"
            )
        if self.check == "mentions" and self.value not in MENTIONABLE:
            raise ValueError(
                f"instruction 'mentions' checks one of {', '.join(map(repr, MENTIONABLE))},"
                f" not {self.value!r}; for a word the answer must use, use 'keywords'"
            )
        return self


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
    | ValidPython
    | Instruction,
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
    "instruction",
)

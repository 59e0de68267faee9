"""What a caller sends to be scored."""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from scoregate.schemas.constraints import Constraint
from scoregate.schemas.metrics import EvalMetric

#: Largest content accepted at the boundary (characters). Larger bodies are refused
#: with a clear error rather than silently truncated.
MAX_CONTENT_CHARS = 2_000_000
MAX_QUERY_CHARS = 100_000


def is_blank(text: str) -> bool:
    """Whether ``text`` shows nothing: only white space and invisible format characters
    (Unicode category Cf: zero-width spaces, a byte-order mark, direction marks)."""
    return all(c.isspace() or unicodedata.category(c) == "Cf" for c in text)


# Numbers are strict: ``true`` or ``"0.5"`` where a number belongs is refused, not read as
# 1 or 0.5 (an integer is still a valid float).


def _edits(a: str, b: str) -> int:
    """The Levenshtein distance between ``a`` and ``b`` (insertions, deletions, swaps of
    one character each)."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def _folded(key: str) -> str:
    return "".join(c for c in key.lower() if c not in "_- ")


def near_miss(key: str, known: tuple[str, ...]) -> str | None:
    """The known key that ``key`` (not one of them) is most likely a misspelling of: the
    same but for case, ``_``, ``-`` or spaces (``taskType``, ``Role``), or one edit away
    (``rol``, ``task_typ``), two for a key of eight letters or more
    (``requred_topic``); None when it is not close to any. Short keys get one edit
    only: ``note`` or ``mode`` is two from ``role`` and may well be a key of the caller's."""
    for name in known:
        if _folded(key) == _folded(name):
            return name
    best = min(known, key=lambda name: _edits(key.lower(), name))
    reach = 2 if len(best) >= 8 else 1
    return best if _edits(key.lower(), best) <= reach else None


class ScoringMetadata(BaseModel):
    """Context that selects the weight profile (seed 001) and feeds the heuristics (seed 004).

    Keys of the caller's own are kept (hooks and agents read them back), except one so
    close to a key scoregate reads that it is most likely a misspelling of it (``rol``,
    ``task_typ``, ``Role``): that one is refused with the key meant, since it would
    otherwise do nothing (no weight profile picked, no heuristic fed) without a word.
    """

    model_config = ConfigDict(extra="allow")

    @model_validator(mode="before")
    @classmethod
    def _no_misspelt_keys(cls, data: object) -> object:
        if isinstance(data, dict):
            known = tuple(cls.model_fields)
            for key in data:
                if not isinstance(key, str) or key in known:
                    continue
                meant = near_miss(key, known)
                if meant is not None:
                    raise ValueError(
                        f"metadata key {key!r} is not one scoregate reads: did you mean"
                        f" {meant!r}? Send {meant!r} (a key of your own must not be this"
                        f" close to one of scoregate's: {', '.join(known)})"
                    )
        return data

    role: str | None = Field(default=None, max_length=100)
    task_type: str | None = Field(default=None, max_length=100)
    required_topics: list[Annotated[str, Field(max_length=500)]] = Field(
        default_factory=list, max_length=200
    )
    provided_sources: list[Annotated[str, Field(max_length=2000)]] = Field(
        default_factory=list, max_length=200
    )
    expected_word_count: int | None = Field(default=None, ge=1, strict=True)
    task_difficulty: float | None = Field(default=None, ge=0.0, le=1.0, strict=True)

    @field_validator("required_topics", "provided_sources")
    @classmethod
    def _no_blanks(cls, v: list[str], info: ValidationInfo) -> list[str]:
        # A blank entry is "contained" in every text, so it would count as covered: refused
        # rather than dropped, so the caller learns its list is not what it meant.
        for i, item in enumerate(v):
            if not item.strip():
                raise ValueError(
                    f"{info.field_name}[{i}] is blank: remove it or give the text to look for"
                )
        return v


class Evidence(BaseModel):
    """Seed-003 verification inputs (``ConfidenceInputs``)."""

    model_config = ConfigDict(extra="forbid")

    total_numbers: int = Field(default=0, ge=0, strict=True)
    cited_numbers: int = Field(default=0, ge=0, strict=True)
    citation_errors: int = Field(default=0, ge=0, strict=True)
    claims_total: int = Field(default=0, ge=0, strict=True)
    claims_matched: int = Field(default=0, ge=0, strict=True)
    math_checks: dict[str, bool] = Field(default_factory=dict)
    l2_warnings: int = Field(default=0, ge=0, strict=True)
    l3_redactions: int = Field(default=0, ge=0, strict=True)
    l4_errors: int = Field(default=0, ge=0, strict=True)
    l4_warnings: int = Field(default=0, ge=0, strict=True)
    max_age_hours: float | None = Field(default=None, ge=0.0, strict=True)
    freshness_sla_hours: float | None = Field(default=None, gt=0.0, strict=True)
    #: The previous evidence score (0-100) of a streaming session: its band hysteresis.
    #: (The request's own ``previous_score`` is the previous *fused* score, another scale.)
    previous_score: float | None = Field(default=None, ge=0.0, le=100.0, strict=True)

    @field_validator("max_age_hours", "freshness_sla_hours")
    @classmethod
    def _finite(cls, v: float | None) -> float | None:
        if v is not None and not math.isfinite(v):
            raise ValueError("must be a finite number of hours")
        return v

    @model_validator(mode="after")
    def _parts_within_totals(self) -> Evidence:
        for part, total in (("cited_numbers", "total_numbers"), ("claims_matched", "claims_total")):
            got, of = getattr(self, part), getattr(self, total)
            if got > of:
                raise ValueError(
                    f"{part} ({got}) cannot exceed {total} ({of}): count each one at most once"
                )
        return self


class ScoreRequest(BaseModel):
    """One agent output to score against the query that produced it."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="The request the agent was given (not blank).",
    )
    content: str = Field(
        max_length=MAX_CONTENT_CHARS,
        description=f"The agent's answer, up to {MAX_CONTENT_CHARS:,} characters.",
    )
    constraints: list[Constraint] = Field(
        default_factory=list,
        max_length=500,
        description="Checks the answer must pass (hard) or should (soft); more are read from"
        " the query itself.",
    )
    metadata: ScoringMetadata = Field(
        default_factory=ScoringMetadata,
        description="`role` and `task_type` pick the weight profile; keys of your own are"
        " kept, but a near miss of scoregate's (`rol`, `task_typ`) is refused.",
    )
    evidence: Evidence | None = Field(
        default=None, description="Seed-003 verification counts (citations, claims, checks)."
    )
    eval_metrics: list[EvalMetric] | None = Field(
        default=None, max_length=500, description="The agent's own metrics, each named once."
    )
    raw_metrics: bool = Field(
        default=False,
        strict=True,
        description="Raw mode for the eval metrics: their unweighted mean, and each one's"
        " score in the result's `raw_metrics`, rather than the weighted mean.",
    )
    self_reported_confidence: str | None = Field(
        default=None,
        max_length=100,
        description="The agent's own confidence (high, medium or low) for seed 002's gate:"
        " it can lower the gate's tier, never raise it above the band's.",
    )
    previous_score: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        strict=True,
        description="The previous fused score (0-1) of this answer's thread, for band hysteresis.",
    )

    @field_validator("eval_metrics")
    @classmethod
    def _unique_metric_names(cls, v: list[EvalMetric] | None) -> list[EvalMetric] | None:
        names = Counter(m.name for m in v or [])
        dupes = sorted(name for name, n in names.items() if n > 1)
        if dupes:
            raise ValueError(
                f"duplicate metric name(s) {', '.join(map(repr, dupes))}: each name may appear"
                " once; merge or rename them"
            )
        return v

    @field_validator("query")
    @classmethod
    def _query_not_blank(cls, v: str) -> str:
        if is_blank(v):
            raise ValueError(
                "query is blank (spaces or invisible characters only): pass the request the"
                " agent was given"
            )
        return v

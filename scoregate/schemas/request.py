"""What a caller sends to be scored."""

from __future__ import annotations

import math
from collections import Counter
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from scoregate.schemas.constraints import Constraint
from scoregate.schemas.metrics import EvalMetric

#: Largest content accepted at the boundary (characters). Larger bodies are refused
#: with a clear error rather than silently truncated.
MAX_CONTENT_CHARS = 2_000_000
MAX_QUERY_CHARS = 100_000


# Numbers are strict: ``true`` or ``"0.5"`` where a number belongs is refused, not read as
# 1 or 0.5 (an integer is still a valid float).


class ScoringMetadata(BaseModel):
    """Context that selects the weight profile (seed 001) and feeds the heuristics (seed 004)."""

    model_config = ConfigDict(extra="allow")

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

    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    content: str = Field(max_length=MAX_CONTENT_CHARS)
    constraints: list[Constraint] = Field(default_factory=list, max_length=500)
    metadata: ScoringMetadata = Field(default_factory=ScoringMetadata)
    evidence: Evidence | None = None
    eval_metrics: list[EvalMetric] | None = Field(default=None, max_length=500)
    raw_metrics: bool = False
    self_reported_confidence: str | None = Field(default=None, max_length=100)
    previous_score: float | None = Field(default=None, ge=0.0, le=1.0, strict=True)

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
        if not v.strip():
            raise ValueError("query is blank: pass the request the agent was given")
        return v

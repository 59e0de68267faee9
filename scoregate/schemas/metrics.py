"""Seed-000 evaluation metric: a named value in [0, 1] with a relative weight."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, field_validator


class EvalMetric(BaseModel):
    """One evaluation metric written by the agent (seed 000).

    ``value`` may be ``None`` when the metric has not been computed yet; the
    scorer then counts it as 0.0 instead of failing.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    value: float | None = None
    weight: float = 1.0
    notes: str = Field(default="", max_length=2000)

    @field_validator("value")
    @classmethod
    def _check_value(cls, v: float | None) -> float | None:
        if v is None:
            return None
        if not math.isfinite(v):
            raise ValueError(f"metric value must be a finite number in [0, 1], got {v!r}")
        if v < 0.0 or v > 1.0:
            raise ValueError(f"metric value must be in [0, 1], got {v!r}")
        return v

    @field_validator("weight")
    @classmethod
    def _check_weight(cls, w: float) -> float:
        if not math.isfinite(w):
            raise ValueError(f"metric weight must be a finite number >= 0, got {w!r}")
        if w < 0.0:
            raise ValueError(f"metric weight must be >= 0, got {w!r}; use 0 to ignore a metric")
        return w

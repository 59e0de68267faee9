"""Pydantic models at every boundary: requests, constraints, results, policies."""

from scoregate.schemas.constraints import CONSTRAINT_KINDS, Constraint
from scoregate.schemas.metrics import EvalMetric
from scoregate.schemas.request import Evidence, ScoreRequest, ScoringMetadata
from scoregate.schemas.result import Gate, ScoreResult, TrackScore, WeakFactor

__all__ = [
    "CONSTRAINT_KINDS",
    "Constraint",
    "EvalMetric",
    "Evidence",
    "Gate",
    "ScoreRequest",
    "ScoreResult",
    "ScoringMetadata",
    "TrackScore",
    "WeakFactor",
]

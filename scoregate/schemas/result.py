"""What scoring returns: per-track scores, the fused score and its explanation."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scoregate.schemas.details_doc import Dashboard, Documented, TrackDetails
from scoregate.schemas.markdown import render_markdown

Band = Literal["GREEN", "AMBER", "RED"]
Action = Literal["accept", "review", "iterate", "reject"]
TrackStatus = Literal["ok", "failed", "timeout"]
Tier = Literal["high", "medium", "low"]
GateAction = Literal["auto_proceed", "user_choice", "research_triggered"]


class TrackScore(BaseModel):
    """One track's result. ``score`` is ``None`` when the track failed or timed out."""

    model_config = ConfigDict(extra="forbid")

    name: str
    score: float | None = Field(default=None, ge=0.0, le=1.0)
    status: TrackStatus = "ok"
    #: A plain dict at runtime; its keys are declared for clients in ``details_doc``.
    details: Annotated[dict[str, Any], Documented(TrackDetails)] = Field(
        default_factory=dict,
        description="What the track found; the keys depend on the track (see TrackDetails).",
    )
    reasons: list[str] = Field(default_factory=list)
    elapsed_ms: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok" and self.score is not None


class WeakFactor(BaseModel):
    factor: str
    score: float
    suggestion: str


class Gate(BaseModel):
    """Seed-002 confidence tier and the gating action it implies."""

    tier: Tier
    action: GateAction
    source: Literal["self_reported", "band"]
    warning: str | None = None


class _Open(BaseModel):
    """A part of the breakdown a later version may add fields to: kept, not refused."""

    model_config = ConfigDict(extra="allow")


class ExcludedItem(_Open):
    item: str = Field(description="What the request rules out, e.g. `garlic`.")
    phrase: str = Field(description="The request's words that ruled it out.")
    for_now: bool = Field(
        default=False,
        description="Ruled out only for a time (`no power tools for now`, `not right now`): "
        "an answer may put it off to a later time.",
    )


class ExpectedAnswer(_Open):
    phrase: str = Field(description="The question, e.g. `how long`.")
    kind: str = Field(description="The form its answer takes: duration, amount, ...")


class AvoidedActivity(_Open):
    activity: str
    phrase: str
    for_now: bool = Field(
        default=False,
        description="Refused only for a time (`I don't want to repot it right now`): an "
        "answer may put it off, and breaks it by having it done now.",
    )


class TriedThing(_Open):
    item: str = Field(description="What the request has already tried, e.g. `waxworms`.")
    phrase: str = Field(description="The request's words that say so.")


class StatedBudget(_Open):
    currency: str = Field(description='The currency sign; "" when the request gives none.')
    amount: float
    per: str | None = Field(default=None, description="The period, e.g. `month`.")
    phrase: str


class RequestAnalysisOut(_Open):
    """What request analysis read in the request (``scoring.request_analysis``)."""

    core_ask: str = ""
    exclusions: list[ExcludedItem] = Field(default_factory=list)
    #: Inferred instructions, each as its constraint (``schemas.constraints.Instruction``)
    #: without the fields left at their defaults.
    instructions: list[dict[str, Any]] = Field(default_factory=list)
    asks: list[str] = Field(default_factory=list)
    topic: str = ""
    expects: list[ExpectedAnswer] = Field(default_factory=list)
    avoided: list[AvoidedActivity] = Field(default_factory=list)
    tried: list[TriedThing] = Field(default_factory=list)
    budget: StatedBudget | None = None


class ScoreResult(BaseModel):
    """The fused score with everything needed to explain and act on it."""

    model_config = ConfigDict(extra="forbid")

    score: float = Field(ge=0.0, le=1.0)
    score_100: int = Field(ge=0, le=100)
    band: Band
    action: Action
    #: The cut points this result was judged by (accept, review, iterate, reject).
    cuts: dict[str, float] = Field(default_factory=dict)
    #: Seed 004: the score reaches ``actions.reject`` (the minimum threshold).
    passes_minimum: bool = True
    minimum_threshold: float = Field(default=0.3, ge=0.0, le=1.0)
    calibrated: float = Field(ge=0.0, le=1.0)
    tracks: dict[str, TrackScore]
    components: dict[str, float] = Field(default_factory=dict)
    weights: dict[str, float] = Field(default_factory=dict)
    profile: str = "default"
    #: Request analysis: the core ask, the exclusions and the inferred instructions.
    analysis: RequestAnalysisOut = Field(default_factory=RequestAnalysisOut)
    reasons: list[str] = Field(default_factory=list)
    weakest_factors: list[WeakFactor] = Field(default_factory=list)
    dashboard: Annotated[dict[str, Any], Documented(Dashboard)] = Field(
        default_factory=dict, description="The figures a dashboard shows for this score."
    )
    gate: Gate | None = None
    raw_metrics: dict[str, float] | None = None
    hard_failures: list[str] = Field(default_factory=list)

    def to_markdown(self) -> str:
        """Render the seed-003 "Confidence Assessment" report section."""
        return render_markdown(self)

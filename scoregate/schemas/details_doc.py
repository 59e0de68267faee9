"""The keys of the free-form parts of a score and of the audit trail, for ``/openapi.json``.

The scoring code writes ``TrackScore.details``, ``ScoreResult.dashboard`` and a decision's
``details`` as plain dicts, and the rest of the code reads them as dicts. The typed dicts
here only describe those keys to clients: a field annotated ``Documented(SomeDoc)`` keeps
its runtime type (``dict[str, Any]``), its validation and its JSON, and its OpenAPI schema
becomes the ``$ref`` of ``SomeDoc``'s component.

Every object here is open (``additionalProperties: true``): a track or step may write more
keys in a later version, and a client should keep the keys it does not know, not refuse
them. ``tests/unit/test_openapi_details.py`` scores examples and reads the code that writes
these dicts, and fails when a key is written that is not declared here (or declared here
and no longer written): add the key to the matching class below, with its type and a
one-line description.

Why one ``TrackDetails`` object (every key optional, each description naming the track
that writes it) rather than a ``oneOf`` of per-track objects: the track is named beside
``details`` (``TrackScore.name`` and the key of ``ScoreResult.tracks``), not inside it, so
there is nothing for a discriminator to read; and open objects whose keys are all optional
each match any details, so a ``oneOf`` would match several branches (invalid) and an
``anyOf`` leaves a client generator to pick the first branch or to emit an untyped union.
One object gives one class with a typed, optional field per key, which every generator
handles. No two tracks use one key with different types (the test checks it).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, GetJsonSchemaHandler, TypeAdapter, with_config
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema
from pydantic_core import core_schema as cs
from typing_extensions import TypedDict

__all__ = [
    "DETAILS_BY_TRACK",
    "Dashboard",
    "DecisionDetails",
    "Documented",
    "TrackDetails",
]

OPEN = ConfigDict(extra="allow")


class Documented:
    """Field metadata: document a ``dict[str, Any]`` field as the typed dict ``doc``.

    Only the JSON schema changes (it becomes a reference to ``doc``'s component); the
    field is validated and serialised as its own type.
    """

    def __init__(self, doc: Any) -> None:
        self.doc = doc

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        inner = TypeAdapter(self.doc).core_schema
        ref = inner.get("ref")
        if ref is None:
            return handler(inner)
        # As a definition, so that the document names it once (a component) and refers to it.
        return handler(cs.definitions_schema(cs.definition_reference_schema(ref), [inner]))


# --- TrackScore.details ----------------------------------------------------------------------


@with_config(OPEN)
class SemanticAsk(TypedDict):
    """One part of a multi-part request, with how close the answer comes to it."""

    ask: Annotated[str, Field(description="The part of the request, in its own words.")]
    cosine: Annotated[
        float, Field(description="Cosine similarity of the answer sentence closest to it.")
    ]


@with_config(OPEN)
class ConstraintOutcome(TypedDict):
    """One constraint checked by the reward track."""

    kind: Annotated[str, Field(description="The constraint's kind, e.g. `max_words`, `regex`.")]
    label: Annotated[str, Field(description="A short name for the constraint, for people.")]
    passed: Annotated[bool, Field(description="Whether the answer meets it.")]
    hard: Annotated[bool, Field(description="A hard constraint: failing it caps the score.")]
    reason: Annotated[str, Field(description="What was checked and what was found.")]
    inferred: Annotated[
        bool, Field(description="Read from the request's wording, not given by the caller.")
    ]


@with_config(OPEN)
class HeuristicsFactor(TypedDict):
    """One factor of the heuristics track's preset."""

    score: Annotated[float, Field(description="The factor's score, 0 to 1.")]
    weight: Annotated[float, Field(description="Its weight in the preset.")]
    contribution: Annotated[float, Field(description="score times weight.")]
    evidence: Annotated[list[str], Field(description="What raised or lowered the factor.")]


@with_config(OPEN)
class _Chunked(TypedDict, total=False):
    chunks: Annotated[
        int,
        Field(
            description="semantic, precision: how many chunks the answer was read in"
            " (0 for an empty answer); the best chunk counts."
        ),
    ]


@with_config(OPEN)
class SemanticDetails(_Chunked, total=False):
    """What the ``semantic`` track writes."""

    cosine: Annotated[
        float,
        Field(
            description="semantic: cosine similarity of the request's topic and the answer's"
            " closest chunk, before it is scaled to the score."
        ),
    ]
    asks: Annotated[
        list[SemanticAsk],
        Field(description="semantic: for a multi-part request, each part and its cosine."),
    ]


@with_config(OPEN)
class PrecisionDetails(_Chunked, total=False):
    """What the ``precision`` track writes."""

    model_score: Annotated[
        float,
        Field(description="precision: how well the answer fits the request, per the model (0-1)."),
    ]
    raw_model_score: Annotated[
        float,
        Field(
            description="precision: the model's score before the lift given to short answers"
            " (only when the lift changed it)."
        ),
    ]
    words: Annotated[
        int, Field(description="precision: the answer's word count (with raw_model_score).")
    ]
    core_query: Annotated[
        str,
        Field(
            description="precision: the request without what it rules out, also scored"
            " (only for a request that excludes something)."
        ),
    ]
    core_score: Annotated[
        float, Field(description="precision: how well the answer fits core_query (0-1).")
    ]
    ask_scores: Annotated[
        dict[str, float],
        Field(
            description="precision: each part of a multi-part request and how well the answer"
            " fits it (with precision.score_each_ask)."
        ),
    ]
    excluded: Annotated[
        list[str],
        Field(description="precision: the things the request rules out (exclusion check on)."),
    ]
    violated: Annotated[
        list[str],
        Field(
            description="precision: the excluded things and avoided activities the answer"
            " uses, and the things already tried that it offers again."
        ),
    ]
    violated_by: Annotated[
        dict[str, str],
        Field(
            description="precision: each excluded thing the answer uses, with the answer's"
            " word for it (e.g. `nuts` -> `walnuts`)."
        ),
    ]
    violations: Annotated[
        list[str],
        Field(description="precision: one plain sentence per thing the answer should not use."),
    ]
    violated_lacks_only: Annotated[
        bool,
        Field(
            description="precision: everything violated is something the asker says they do"
            " not have (reviewed, not penalised)."
        ),
    ]


@with_config(OPEN)
class RewardDetails(TypedDict, total=False):
    """What the ``reward`` track writes."""

    results: Annotated[
        list[ConstraintOutcome], Field(description="reward: every constraint checked, in order.")
    ]
    passed: Annotated[int, Field(description="reward: how many constraints the answer meets.")]
    total: Annotated[int, Field(description="reward: how many constraints were checked.")]
    unchecked: Annotated[
        int,
        Field(
            description="reward: constraints left unchecked when the time budget ran out"
            " (counted as failed)."
        ),
    ]
    hard_failures: Annotated[
        list[str],
        Field(description="reward: why each failed hard constraint failed (these cap the score)."),
    ]
    inferred_failures: Annotated[
        list[str],
        Field(description="reward: the reasons of the failed constraints read from the request."),
    ]
    not_applicable: Annotated[
        list[str],
        Field(description="reward: constraints that do not apply to this answer, and why."),
    ]


@with_config(OPEN)
class HeuristicsDetails(TypedDict, total=False):
    """What the ``heuristics`` track writes."""

    preset: Annotated[
        str, Field(description="heuristics: the task-type preset used, e.g. `analysis`.")
    ]
    factors: Annotated[
        dict[str, HeuristicsFactor],
        Field(description="heuristics: each factor (reasoning, sources, ...) and its share."),
    ]
    hints: Annotated[
        dict[str, str],
        Field(description="heuristics: a specific suggestion per factor, where there is one."),
    ]


@with_config(OPEN)
class EvidenceDetails(TypedDict, total=False):
    """What the ``evidence`` track writes."""

    score: Annotated[int, Field(description="evidence: the evidence score, 0 to 100.")]
    band: Annotated[
        Literal["GREEN", "AMBER", "RED"], Field(description="evidence: the band of that score.")
    ]
    components: Annotated[
        dict[str, float],
        Field(
            description="evidence: each component (citation, numbers, cross, privacy,"
            " freshness), 0 to 100."
        ),
    ]
    reasons: Annotated[
        list[str], Field(description="evidence: what raised or lowered the evidence score.")
    ]


@with_config(OPEN)
class MetricsDetails(TypedDict, total=False):
    """What the ``metrics`` track writes."""

    mode: Annotated[
        Literal["raw", "weighted"],
        Field(description="metrics: `weighted` (a weighted mean) or `raw` (raw_metrics: true)."),
    ]
    raw: Annotated[
        dict[str, float],
        Field(description="metrics (raw mode): each metric's value (0.0 when it has none)."),
    ]
    values: Annotated[
        dict[str, float],
        Field(description="metrics (weighted mode): each metric's value (0.0 when it has none)."),
    ]
    weights: Annotated[
        dict[str, float],
        Field(description="metrics (weighted mode): the weight each metric was given."),
    ]


@with_config(OPEN)
class TrackDetails(
    SemanticDetails,
    PrecisionDetails,
    RewardDetails,
    HeuristicsDetails,
    EvidenceDetails,
    MetricsDetails,
    total=False,
):
    """What a track found, by track: each key's description starts with the track that
    writes it (a track writes only its own keys). A track may add keys in a later version:
    keep the ones you do not know."""


#: Each track's own keys of ``TrackScore.details``.
DETAILS_BY_TRACK: dict[str, type] = {
    "semantic": SemanticDetails,
    "precision": PrecisionDetails,
    "reward": RewardDetails,
    "heuristics": HeuristicsDetails,
    "evidence": EvidenceDetails,
    "metrics": MetricsDetails,
}


# --- ScoreResult.dashboard -------------------------------------------------------------------


@with_config(OPEN)
class Dashboard(TypedDict, total=False):
    """The figures a dashboard shows for a score (fusion writes all five). Later versions
    may add keys: keep the ones you do not know."""

    score: Annotated[int, Field(description="The fused score, 0 to 100 (score_100).")]
    band: Annotated[Literal["GREEN", "AMBER", "RED"], Field(description="The result's band.")]
    coverage: Annotated[
        float,
        Field(
            description="0 to 100: the evidence track's citation component when it ran, else"
            " the share of the profile's weight whose tracks scored."
        ),
    ]
    freshness: Annotated[
        float | None,
        Field(description="The evidence track's freshness component, 0 to 100; null without it."),
    ]
    unverified: Annotated[
        bool,
        Field(
            description="True when too little of the profile's weight was scored to judge the"
            " answer (one in a language the models do not read, failed model tracks): the"
            " action is review at most, and a loop sends it to a person rather than back to"
            " its agent."
        ),
    ]


# --- DecisionOut.details ---------------------------------------------------------------------


@with_config(OPEN)
class DecisionDetails(TypedDict, total=False):
    """More about one line of the audit trail; which keys depends on its ``action``, and
    each description says which actions write it (most write none). Later versions may add
    keys: keep the ones you do not know."""

    recommended_action: Annotated[
        Literal["accept", "review", "iterate", "reject"],
        Field(description="The loop's decisions (complete, iterate, exit...): the score's action."),
    ]
    exit_reason: Annotated[
        str | None,
        Field(
            description="The loop's decisions, escalate and fail after agent errors: why the"
            " loop stopped (`max_iterations_reached`, `agent_failed`); null when it did not."
        ),
    ]
    error_type: Annotated[
        str, Field(description="agent_error: the kind of error the agent reported.")
    ]
    message: Annotated[str, Field(description="agent_error: the agent's error message.")]
    task_id: Annotated[
        str | None, Field(description="agent_error: the id of the agent's attempt, if given.")
    ]
    attempt: Annotated[
        int,
        Field(
            description="agent_error: the number of this report for its iteration (1: the first)."
        ),
    ]
    previous_status: Annotated[
        str, Field(description="cancel: the job's status before it was cancelled.")
    ]
    message_id: Annotated[
        str | None,
        Field(description="submit_refused: the id of the refused submission's Celery message."),
    ]
    task_name: Annotated[
        str, Field(description="workflow_task: the workflow task the job was submitted for.")
    ]
    agent: Annotated[
        str | None, Field(description="workflow_task: the role that does the task, if named.")
    ]
    agent_task: Annotated[
        str | None, Field(description="workflow_task: the agent task the loop re-runs, if any.")
    ]

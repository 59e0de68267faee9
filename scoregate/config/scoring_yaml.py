"""The scoring YAML: its top level, fusion and the one set of cut points; and loading it.

The packaged ``scoregate/default_scoring.yaml`` is validated here; a user file
overlays it. Each track's own section is in :mod:`scoregate.config.tracks`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
from collections.abc import Callable
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, ValidationError, field_validator, model_validator

from scoregate.config.tracks import (
    TRACKS,
    EvidenceConfig,
    HeuristicsConfig,
    PrecisionConfig,
    RewardConfig,
    SemanticConfig,
    StrictSection,
    check_named_weights,
    unknown_keys,
)

log = logging.getLogger(__name__)


class ConfigError(ValueError):
    """A config file that cannot be used (values out of range, conflicting cut points, not
    YAML, a directory); the message names the file and the problem."""


#: The request metadata a fusion rule matches on (the text fields of ``ScoringMetadata``).
MATCH_KEYS: tuple[str, ...] = ("role", "task_type")


class FusionRule(StrictSection):
    match: dict[str, str]
    profile: str

    @field_validator("match")
    @classmethod
    def _match_keys(cls, match: dict[str, str]) -> dict[str, str]:
        # A misspelt key ("task_typ") would make a rule that never matches, silently.
        unknown = [k for k in match if k not in MATCH_KEYS]
        if unknown:
            raise ValueError(unknown_keys(unknown, list(MATCH_KEYS)))
        return match


class FusionConfig(StrictSection):
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
    #: An answer of at most this many words to a request that asks for a short answer
    #: ("just the name", "one word answer", "a 6-word story") is not gated on relevance:
    #: the embeddings of a three-word name and of the request are far apart whatever the
    #: name; the cross-encoder still reads the pair. 0 gates every answer.
    short_answer_words: int = Field(default=8, ge=0)
    #: An answer that is a list with the number of items the request asks for ("exactly 3
    #: bullet points"), its items at most this many words on average, is not gated on
    #: relevance either (a few terse items are far from any request in embedding space);
    #: capped at ``missed_ask_cap`` as unverified instead. 0 turns it off.
    short_item_words: int = Field(default=10, ge=0)
    #: A request that asks several things: when no sentence of the answer comes within
    #: this cosine of one of the asks, the answer probably leaves it out, and the fused
    #: score is capped at ``missed_ask_cap`` (below the accept cut: a human looks).
    ask_min_cosine: float = Field(default=0.25, ge=-1, le=1)
    missed_ask_cap: float = Field(default=0.70, ge=0, le=1)
    #: An answer to a request of two or more asks that comes within ``none_asked_cosine``
    #: of none of them (no sentence does), with a semantic score under
    #: ``none_asked_relevance``, answers none of its parts (an agent that picked up the
    #: wrong ticket): capped at ``none_asked_cap``. None turns the check off.
    none_asked_cosine: float | None = Field(default=None, ge=-1, le=1)
    none_asked_relevance: float = Field(default=0.80, ge=0, le=1)
    none_asked_cap: float = Field(default=0.25, ge=0, le=1)
    #: A translation answered in the language of the text it was to translate (the text
    #: given back, or another text in that language): capped here (the iterate zone), as
    #: the inferred language check alone would leave it in review. None turns it off.
    untranslated_cap: float | None = Field(default=0.45, ge=0, le=1)
    #: An answer of at least ``unshared_min_words`` words that uses under this share of the
    #: request's own words (``scoring.shared_words``, read in the request less its form-only
    #: clauses, for a request of at least ``unshared_min_request_words`` of them), with a
    #: semantic score under ``unshared_relevance``, answers another request (a wrong ticket
    #: in the same field): capped at ``none_asked_cap`` too. None turns the check off.
    unshared_share: float | None = Field(default=None, ge=0, le=1)
    unshared_relevance: float = Field(default=0.80, ge=0, le=1)
    unshared_min_words: int = Field(default=20, ge=0)
    unshared_min_request_words: int = Field(default=14, ge=1)
    #: Whether the check reads only requests that ask a question, not ones that ask to have
    #: something written or made (``scoring.shared_words.asks_to_make``): a good toast or
    #: plan names its own things, not the request's words.
    unshared_questions_only: bool = True
    #: An answer of at least ``repetition_min_words`` words outside tables and code whose
    #: richness (distinct words over the square root of the words; ``scoring.repetition``)
    #: is under ``repetition_richness`` repeats a few words over and over (a generation
    #: stuck in a loop, padding): capped at ``none_asked_cap``. None turns the check off.
    repetition_richness: float | None = Field(default=2.0, gt=0)
    repetition_min_words: int = Field(default=150, ge=1)
    #: A question whose answer has a recognisable form ("how long" -> a duration, "how
    #: much protein" -> an amount; ``scoring.answer_types``) that the answer gives nothing
    #: of that form for is left out: the fused score is capped at ``missed_ask_cap`` too.
    answer_type_check: bool = True
    #: A fact of the request that the answer restates the other way round ("hard winters"
    #: -> "your mild winters", "I'm pregnant" -> "you're not pregnant", "a 25 litre tank" ->
    #: "a 100 litre tank"; ``scoring.restated``) caps the fused score at ``missed_ask_cap``
    #: too.
    restated_fact_check: bool = True
    #: An amount in the answer above the budget the request states ("my budget is $250,
    #: max" -> "the Roborock Q5 ($299)"; ``scoring.budget``) caps the fused score at
    #: ``missed_ask_cap`` too.
    budget_check: bool = True
    #: A plan length the answer names outright over the time the request says the asker
    #: has ("I only get about 15 minutes a day" -> "Aim for about 45 minutes";
    #: ``scoring.timebox``) caps the fused score at ``missed_ask_cap`` too.
    time_check: bool = True

    @model_validator(mode="after")
    def _profiles_valid(self) -> FusionConfig:
        for name, weights in self.profiles.items():
            check_named_weights(f"fusion.profiles.{name}", weights, TRACKS, "track")
        names = {self.default_profile, *(r.profile for r in self.rules)}
        missing = names - set(self.profiles)
        if missing:
            raise ValueError(f"fusion refers to undefined profile(s) {sorted(missing)}")
        return self


#: The action cut points, highest first.
CUTS: tuple[str, ...] = ("accept", "review", "iterate", "reject")


def order_fix(cuts: dict[str, float], defaults: list[str]) -> str:
    """Why ``cuts`` are out of order and what to change: the cuts left at their packaged
    defaults move to fit the ones given, unless the given ones are out of order themselves."""
    got = ", ".join(f"{n} {cuts[n]:g}" for n in CUTS)
    if defaults:
        are = "is the packaged default" if len(defaults) == 1 else "are the packaged defaults"
        got += f"; {_and(defaults)} {are}"
    head = f"actions must satisfy accept >= review >= iterate >= reject (got {got})"
    given = [n for n in CUTS if n not in defaults]
    for hi, lo in zip(given, given[1:], strict=False):
        if cuts[hi] < cuts[lo]:
            return f"{head}: actions.{hi} is below actions.{lo}; raise one or lower the other"
    fixes: dict[str, list[str]] = {}
    for name in defaults:
        above = [cuts[n] for n in given if CUTS.index(n) < CUTS.index(name)]
        below = [cuts[n] for n in given if CUTS.index(n) > CUTS.index(name)]
        if above and cuts[name] > min(above):
            fixes.setdefault(f"{min(above):g} or lower", []).append(f"actions.{name}")
        elif below and cuts[name] < max(below):
            fixes.setdefault(f"{max(below):g} or higher", []).append(f"actions.{name}")
    todo = "; ".join(f"set {_and(names)} to {bound}" for bound, names in fixes.items())
    return f"{head}: {todo} too" if todo else head


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


class ActionThresholds(StrictSection):
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
        cuts = {name: float(getattr(self, name)) for name in CUTS}
        if not self.accept >= self.review >= self.iterate >= self.reject:
            fields = type(self).model_fields
            defaults = [n for n in CUTS if cuts[n] == fields[n].default]
            raise ValueError(order_fix(cuts, defaults))
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


class BandsConfig(StrictSection):
    """Hysteresis of the bands. The bands themselves are the action cut points
    (GREEN from ``actions.accept``, AMBER from ``actions.review``); ``GREEN`` / ``AMBER``
    may be given only with those same values (seed 003's files name them)."""

    GREEN: float | None = Field(default=None, ge=0, le=1)
    AMBER: float | None = Field(default=None, ge=0, le=1)
    enable_hysteresis: bool = True
    hysteresis_tolerance: float = Field(default=0.04, ge=0, le=1)


class GatingConfig(StrictSection):
    research_quota_per_hour: int = Field(default=5, ge=0)
    band_tiers: dict[Literal["GREEN", "AMBER", "RED"], Literal["high", "medium", "low"]] = {
        "GREEN": "high",
        "AMBER": "medium",
        "RED": "low",
    }


class AlertsConfig(StrictSection):
    """Seed-003 alerting, judged by ``scoregate report`` over a time window."""

    #: Alert when more than this share of the window's scores is RED.
    red_share_max: float = Field(default=0.20, ge=0, le=1)
    #: The default window of ``scoregate report``: a number and s, m, h, d or w.
    window: str = Field(default="1h", pattern=r"^\d+(\.\d+)?[smhdw]$")

    @field_validator("window")
    @classmethod
    def _window_fits(cls, window: str) -> str:
        parse_window(window)  # a window too long for a date ("9999999d") is refused here
        return window


_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_WINDOW = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
#: The longest time window: a start date before it would be out of range sooner or later.
MAX_WINDOW_DAYS = 36500


def parse_window(text: str) -> timedelta:
    """``30m``, ``1h``, ``24h``, ``7d`` -> a timedelta of at most 100 years.

    Raises:
        ValueError: the text is not a positive number followed by s, m, h, d or w, or the
            window is longer than ``MAX_WINDOW_DAYS``.
    """
    match = _WINDOW.match(text)
    if match is None or float(match.group(1)) <= 0:
        raise ValueError(f"a window looks like 30m, 1h, 24h or 7d (got {text!r})")
    value, unit = float(match.group(1)), match.group(2)
    if not math.isfinite(value) or value * _SECONDS[unit] > MAX_WINDOW_DAYS * 86400:
        raise ValueError(
            f"a window is at most {MAX_WINDOW_DAYS}d (100 years; got {text!r}): give a shorter"
            " one, e.g. 365d"
        )
    return timedelta(**{_UNITS[unit]: value})


class ScoringConfig(StrictSection):
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
# A list, ``fusion.rules`` included, is replaced whole too: its order decides (the first
# match wins), which a merge could not keep; ``dropped_rules`` warns of what that drops.
_REPLACE = frozenset({"weights", "rules"})
_REPLACE_CHILDREN = frozenset({("fusion", "profiles"), ("heuristics", "presets")})


def _read_yaml(text: str, where: str) -> dict[str, Any]:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{where} is not valid YAML: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"{where} must hold a mapping at the top level, got {type(data).__name__}"
        )
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
        base = data
        data = _deep_merge(data, _read_yaml(_read_overlay(Path(path)), str(path)))
    try:
        cfg = ScoringConfig.model_validate(data)
    except ValidationError as exc:
        where = f"scoring config {path}" if path is not None else "the default scoring config"
        raise ConfigError(f"{where}: {validation_summary(exc)}") from None
    if path is not None:
        packaged = ScoringConfig.model_validate(base).fusion.rules
        dropped = dropped_rules(packaged, cfg.fusion.rules)
        if dropped:
            log.warning(
                "scoring config %s: fusion.rules replaces the packaged rules whole, so these"
                " no longer apply: %s; copy the ones to keep into its fusion.rules (a rule"
                " with the same match and another profile silences this)",
                path,
                ", ".join(dropped),
            )
    return cfg


def config_digest(cfg: ScoringConfig) -> str:
    """A short hash of the effective config (defaults and overlay merged): two processes
    with the same digest score and decide alike, whatever files they read."""
    canonical = json.dumps(cfg.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:12]


def dropped_rules(packaged: list[FusionRule], rules: list[FusionRule]) -> list[str]:
    """The packaged fusion rules whose ``match`` no rule of ``rules`` has, as
    "task_type=code -> code": an overlay that gives ``fusion.rules`` replaces the list."""

    def key(rule: FusionRule) -> frozenset[tuple[str, str]]:
        return frozenset((k, v.strip().lower()) for k, v in rule.match.items())

    kept = {key(r) for r in rules}
    return [
        f"{' '.join(f'{k}={v}' for k, v in r.match.items())} -> {r.profile}"
        for r in packaged
        if key(r) not in kept
    ]


def validation_summary(
    exc: ValidationError, name: Callable[[tuple[int | str, ...]], str] | None = None
) -> str:
    """A pydantic error in one line, one part per problem: "actions.accept: must be ...".
    ``name`` turns a location into what the user wrote (an environment variable): the
    part then shows the value given, unless the message names it already."""
    parts = []
    for e in exc.errors():
        msg = str(e["msg"]).removeprefix("Value error, ")
        if name is None:
            loc = ".".join(str(p) for p in e["loc"])
            parts.append(f"{loc}: {msg}" if loc else msg)
        else:
            label = name(e["loc"])
            parts.append(msg if msg.startswith(label) else f"{label}={e.get('input')!r}: {msg}")
    return "; ".join(parts)


def _read_overlay(p: Path) -> str:
    if p.is_dir():
        raise ConfigError(f"scoring config {p} is a directory: give the path of a YAML file")
    if not p.exists():
        raise FileNotFoundError(f"scoring config {p} does not exist")
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"scoring config {p} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"scoring config {p} cannot be read: {exc.strerror or exc}") from None

"""Factor-weighted fusion (seeds 001, 003, 004): one score, band, action and explanation."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from scoregate.config.scoring_yaml import ActionThresholds, ScoringConfig
from scoregate.schemas.constraints import FORMATS
from scoregate.schemas.request import ScoreRequest, ScoringMetadata, near_miss
from scoregate.schemas.result import Action, Band, ScoreResult, TrackScore, WeakFactor
from scoregate.scoring.answer_types import KIND_NAMES, asked_terms, missing_answers, unnamed_terms
from scoregate.scoring.bands import held_band
from scoregate.scoring.budget import over_budget
from scoregate.scoring.calibration import Calibrator, calibrate
from scoregate.scoring.counting import item_word_counts, unfenced
from scoregate.scoring.figures import score_text
from scoregate.scoring.gating import resolve_tier
from scoregate.scoring.heuristics import weakest_factors
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.language import (
    LANGUAGE_NAMES,
    detect_language,
    foreign_language,
    readable_text,
)
from scoregate.scoring.phrasing import short_answer_asked
from scoregate.scoring.repetition import repeated
from scoregate.scoring.request_analysis import (
    RequestAnalysis,
    analyze,
    asking_sentences,
    is_form_item,
)
from scoregate.scoring.restated import contradicted
from scoregate.scoring.reward_json import json_strings, load_json
from scoregate.scoring.shared_words import asks_to_make, shared_words
from scoregate.scoring.text import sanitize_reasons
from scoregate.scoring.timebox import over_time
from scoregate.scoring.translation import translation_request


def select_profile(metadata: ScoringMetadata, cfg: ScoringConfig) -> str:
    """The first fusion rule whose every ``match`` key equals the metadata value wins."""
    fields = metadata.model_dump()
    for rule in cfg.fusion.rules:
        if all(
            str(fields.get(key) or "").strip().lower() == str(value).strip().lower()
            for key, value in rule.match.items()
        ):
            return rule.profile
    return cfg.fusion.default_profile


def unmatched_metadata(metadata: ScoringMetadata, cfg: ScoringConfig) -> list[str]:
    """A warning for each ``task_type`` or ``role`` that no fusion rule and no heuristics
    preset names ("creatve"): it changes nothing, which a typo should not do silently."""
    out = []
    for key in ("task_type", "role"):
        given = str(getattr(metadata, key, None) or "").strip().lower()
        if not given:
            continue
        known = _known_values(key, cfg)
        if given not in known:
            out.append(
                f"{key} {given!r} matches no fusion rule or preset"
                f" (known: {', '.join(sorted(known))}); it changes nothing"
            )
    return out


def misspelt_metadata(metadata: ScoringMetadata, cfg: ScoringConfig) -> str | None:
    """What is wrong when a ``task_type`` or ``role`` that no fusion rule or preset names is
    one edit from one that does (two for long names: ``schemas.request.near_miss``;
    "creatve" for "creative"): it would pick the default
    profile without a word. A value far from every known one (a caller's own) is no typo."""
    for key in ("task_type", "role"):
        given = str(getattr(metadata, key, None) or "").strip().lower()
        known = _known_values(key, cfg)
        if not given or given in known or not known:
            continue
        meant = near_miss(given, tuple(sorted(known)))
        if meant is not None:
            return (
                f"metadata.{key} {given!r} matches no fusion rule or preset of this scoring"
                f" config: did you mean {meant!r}? (known: {', '.join(sorted(known))})"
            )
    return None


def _known_values(key: str, cfg: ScoringConfig) -> set[str]:
    known = {str(r.match[key]).strip().lower() for r in cfg.fusion.rules if key in r.match}
    if key == "task_type":
        known |= {name.lower() for name in cfg.heuristics.presets}
    return known


def percent(score: float) -> int:
    """The fused score as the whole percent shown (``score_100``), rounded down.

    The band is taken from this value too, so a report never reads "90/100 — AMBER", and
    rounding down keeps the thresholds exact: GREEN needs a score >= 0.90, not >= 0.895.
    Rounded to 6 places first so that a float sum such as 0.8999999999 counts as 90.
    """
    return math.floor(round(score * 100, 6))


def band_for(
    score: float,
    cfg: ScoringConfig,
    previous: float | None = None,
    cuts: ActionThresholds | None = None,
) -> Band:
    """GREEN (the accept zone) / AMBER (the review zone) / RED of the whole percent shown,
    held at the previous band while the change is within tolerance (in points, as seed
    003 does). The zones are the action cut points: there is one threshold model."""
    b = cfg.bands
    c = cuts or cfg.actions
    prev = percent(previous) if previous is not None and b.enable_hysteresis else None
    points = (round(c.accept * 100, 6), round(c.review * 100, 6))
    tolerance = round(b.hysteresis_tolerance * 100, 6)
    return held_band(percent(score), prev, *points, tolerance)[0]


def action_for(score: float, cfg: ScoringConfig, cuts: ActionThresholds | None = None) -> Action:
    """Seed 004's ``determineAction``: accept / review / iterate at or above each
    cut, else reject. (``reject`` is the seed's minimum: see :func:`passes_minimum`.)"""
    t = cuts or cfg.actions
    if score >= t.accept:
        return "accept"
    if score >= t.review:
        return "review"
    if score >= t.iterate:
        return "iterate"
    return "reject"


def action_of_band(band: Band, score: float, cuts: ActionThresholds) -> Action:
    """The action the band stands for, so a band held by hysteresis and the action never
    disagree: GREEN accept, AMBER review, RED iterate or reject by the iterate cut."""
    if band == "GREEN":
        return "accept"
    if band == "AMBER":
        return "review"
    return "iterate" if score >= cuts.iterate else "reject"


def _cap_short_coverage(score: float, note: str, cuts: ActionThresholds) -> tuple[float, str]:
    """Too little was scored to accept: the score itself stays below the accept cut (at the
    highest 4-place value under it), so a client gating on the score cannot accept what the
    action sends to review."""
    top = math.ceil(cuts.accept * 10_000 - 1e-6) / 10_000 - 0.0001
    if score <= top:
        return score, note
    return top, f"{note}; score capped at {top:.4f}, below the accept cut {cuts.accept:.2f}"


def passes_minimum(score: float, cfg: ScoringConfig, cuts: ActionThresholds | None = None) -> bool:
    """Seed 004's ``passesMinimum``: the score reaches the ``reject`` threshold."""
    return score >= (cuts or cfg.actions).reject


def _weights(
    profile: dict[str, float], tracks: dict[str, TrackScore]
) -> tuple[dict[str, float], float]:
    """Profile weights of the tracks that produced a score, renormalised; and the mass covered."""
    usable = {n: w for n, w in profile.items() if n in tracks and tracks[n].ok and w > 0}
    mass = sum(usable.values())
    if mass <= 0:
        return {}, 0.0
    return {n: w / mass for n, w in usable.items()}, mass


def _track_notes(tracks: dict[str, TrackScore], profile: dict[str, float]) -> list[str]:
    notes = []
    for name, track in sorted(tracks.items()):
        if not track.ok:
            why = f": {track.error}" if track.error else ""
            notes.append(f"{name} track {track.status}{why}; fused the remaining tracks")
    skipped = [n for n, w in profile.items() if w > 0 and n not in tracks]
    if skipped and notes:
        notes.append(f"tracks not run: {', '.join(sorted(skipped))}; weights renormalised")
    return notes


def _components(tracks: dict[str, TrackScore]) -> dict[str, float]:
    comps: dict[str, float] = {
        n: round(t.score, 4) for n, t in tracks.items() if t.ok and t.score is not None
    }
    heur = tracks.get("heuristics")
    if heur is not None and heur.ok:
        for factor, data in heur.details.get("factors", {}).items():
            comps[factor] = round(float(data["score"]), 4)
    ev = tracks.get("evidence")
    if ev is not None and ev.ok:
        for comp, value in ev.details.get("components", {}).items():
            comps[f"evidence.{comp}"] = round(float(value) / 100.0, 4)
    return comps


def _quoted(phrases: list[str], limit: int = 3) -> str:
    shown = [f"'{p}'" for p in dict.fromkeys(phrases)]
    more = len(shown) - limit
    return ", ".join(shown[:limit]) + (f" and {more} more" if more > 0 else "")


def precision_suggestion(
    base: str,
    track: TrackScore,
    analysis: RequestAnalysis,
    cuts: ActionThresholds,
    capped: Sequence[str] = (),
) -> str:
    """What the agent is told when the precision track is among the weakest: the configured
    text, then what this request and this answer give to act on. The evidence the track found
    comes first; else what the request rules out, or the parts it asks, to check against;
    else it says plainly that no specific fault was found (or points to the reasons, when a
    check capped the score), with the model's score and the accept cut, so that a generic
    line is never read as a diagnosis."""
    found = [str(v) for v in track.details.get("violations", [])]
    if found:
        return f"{base} Fix: {'; '.join(found[:3])}."
    score = track.score or 0.0
    fit = f"the model rates the fit {score_text(score)}, below the accept cut {cuts.accept:.2f}"
    if capped:  # the answer-side checks found something: the reasons name it
        return f"{base} {fit[0].upper()}{fit[1:]}; see the reasons for what the checks found."
    # (a form ruled out, "skip the headings", is not looked for by words: no claim on it)
    words = [e for e in analysis.exclusions if not is_form_item(e.item)]
    if words:
        phrases = [e.phrase for e in words]
        # "don't want a dog" within "don't want a dog or a cat": the longer one says both
        ruled = _quoted([p for p in phrases if not any(p != q and p in q for q in phrases)])
        return (
            f"{base} Nothing the request rules out ({ruled}) was found in the answer, but"
            f" {fit}: see that it answers what was asked."
        )
    if analysis.asks:
        parts = _quoted(list(analysis.asks))
        return (
            f"{base} No specific fault was found (each part, {parts}, has a sentence near"
            f" it), but {fit}."
        )
    return f"{base} No specific fault was found, but {fit}."


def _weakest(
    tracks: dict[str, TrackScore],
    weights: dict[str, float],
    cfg: ScoringConfig,
    analysis: RequestAnalysis,
    cuts: ActionThresholds,
    capped: list[str],
    *,
    accepted: bool = False,
) -> list[WeakFactor]:
    """The weakest factors with what to tell the agent; a track of an accepted answer is
    not listed as below the accept cut (the cut applies to the fused score)."""
    n = cfg.fusion.weakest_count
    scored = [
        (t.score, name) for name, t in tracks.items() if name in weights and t.score is not None
    ]

    reward = tracks.get("reward")
    failed = [
        str(r.get("reason", ""))
        for r in (reward.details.get("results", []) if reward is not None else [])
        if isinstance(r, dict) and not r.get("passed", True)
    ]

    def suggestion(name: str) -> str:
        text = cfg.fusion.suggestions.get(name, "")
        if name == "precision":
            # a failed check (a cap, or a constraint the caller or the request set) is
            # something found: "see the reasons", not "no specific fault was found"
            return precision_suggestion(text, tracks[name], analysis, cuts, [*capped, *failed])
        if name == "reward" and failed:  # name what failed, not only "listed in the reasons"
            return f"{text.rstrip('. ')}: {'; '.join(failed[:3])}."
        return text

    out = [
        WeakFactor(factor=name, score=round(s, 4), suggestion=suggestion(name))
        for s, name in sorted(scored)
        if name != "heuristics" and s < cuts.accept and not accepted
    ]
    heur = tracks.get("heuristics")
    if heur is not None and heur.ok:
        factors = {f: float(d["score"]) for f, d in heur.details.get("factors", {}).items()}
        out += weakest_factors(factors, cfg.heuristics, n=n, hints=heur.details.get("hints"))
    return sorted(out, key=lambda w: w.score)[:n]


def _reasons(
    tracks: dict[str, TrackScore],
    notes: list[str],
    capped: list[str],
    weights: dict[str, float],
    cfg: ScoringConfig,
) -> list[str]:
    """The evidence first (the excluded items the answer uses), then the notes, then each
    weighted track's own reasons, then the caps. A track without weight says nothing."""
    ordered = ["precision", "reward", "semantic", "evidence", "metrics", "heuristics"]
    prec = tracks.get("precision")
    evidence = list(prec.details.get("violations", [])) if prec is not None else []
    reasons = evidence + notes
    # An answer that restates the request's fact the other way round ("since you're not
    # allergic to penicillin") names the item in a negation: "rules out penicillin, as the
    # request asks" would say it complies where it contradicts.
    turned = any(RESTATED in c for c in capped)
    for name in ordered + sorted(set(tracks) - set(ordered)):
        if name in tracks and (name in weights or tracks[name].status != "ok"):
            reasons += [
                r
                for r in tracks[name].reasons[:4]
                if r not in evidence and not (turned and r.endswith(RULED_OUT))
            ]
    return sanitize_reasons(reasons + capped, cfg.fusion.max_reasons, sort=False)


def _dashboard(
    score_100: int, band: Band, tracks: dict[str, TrackScore], mass: float, unverified: bool
) -> dict[str, Any]:
    ev = tracks.get("evidence")
    comps = ev.details.get("components", {}) if ev is not None and ev.ok else {}
    coverage = comps.get("citation", round(mass * 100.0, 1))
    return {
        "score": score_100,
        "band": band,
        "coverage": coverage,
        "freshness": comps.get("freshness"),
        "unverified": unverified,
    }


#: Tracks every request gets: the two model tracks. The reward, heuristics, evidence and
#: metrics tracks apply only when the request brings constraints (or implies
#: instructions), a task type with a heuristics preset, evidence or metrics.
ALWAYS_APPLICABLE: tuple[str, ...] = ("semantic", "precision")


def _applicable(request: ScoreRequest, tracks: dict[str, TrackScore]) -> set[str]:
    names = set(tracks) | set(ALWAYS_APPLICABLE)
    if request.constraints:
        names.add("reward")
    if request.evidence is not None:
        names.add("evidence")
    if request.eval_metrics:
        names.add("metrics")
    return names


def _coverage_note(
    request: ScoreRequest,
    tracks: dict[str, TrackScore],
    weights: dict[str, float],
    profile_name: str,
    cfg: ScoringConfig,
) -> str | None:
    """Why the result may not pass, when too little of the profile's weight was scored.

    Only tracks that apply to the request count: an admin request without constraints is
    not short of its reward weight, but one whose reward or model tracks failed is.
    """
    profile = cfg.fusion.profiles[profile_name]
    applicable = {n: w for n, w in profile.items() if w > 0 and n in _applicable(request, tracks)}
    total = sum(applicable.values())
    share = sum(w for n, w in applicable.items() if n in weights) / total if total > 0 else 0.0
    minimum = cfg.fusion.min_weight_coverage
    if share >= minimum:
        return None
    missing = ", ".join(sorted(n for n in applicable if n not in weights)) or "none"
    return (
        f"only {share:.1%} of the {profile_name} profile's weight was scored (minimum"
        f" {minimum:.0%}; not scored: {missing}): action at most review, band at most AMBER"
    )


def _unchecked_hard(request: ScoreRequest, tracks: dict[str, TrackScore]) -> str | None:
    """Why the request's hard constraints could not be checked, or ``None``."""
    if not any(k.hard for k in request.constraints):
        return None
    reward = tracks.get("reward")
    if reward is None:
        return "hard constraints could not be checked: the reward track did not run"
    if reward.ok:
        return None
    why = f": {reward.error}" if reward.error else ""
    return f"hard constraints could not be checked: the reward track {reward.status}{why}"


def _cap_hard(
    request: ScoreRequest,
    tracks: dict[str, TrackScore],
    score: float,
    cfg: ScoringConfig,
    notes: list[str],
) -> tuple[float, list[str]]:
    """The score capped by failed or unchecked hard constraints, and their reasons."""
    hard = _hard_failures(tracks)
    unchecked = _unchecked_hard(request, tracks)
    cap = cfg.reward.hard_fail_cap
    capped = f"; score capped at {cap:.2f}" if score > cap else ""
    if unchecked is not None:
        hard.append(unchecked)
        notes.insert(0, unchecked + capped)
    elif hard and capped:
        notes.insert(0, "hard constraint failed" + capped)
    return (min(score, cap) if hard else score), hard


def _relevance(
    request: ScoreRequest,
    tracks: dict[str, TrackScore],
    cfg: ScoringConfig,
    other: str | None = None,
) -> tuple[float, float, str | None]:
    """The semantic track as a relevance gate: a factor in [0, 1], a cap, and why.

    A short answer to a request that asks for one ("just the name") is not gated: cosine
    cannot judge three words. Its relevance is then unverified, so it is capped at
    ``missed_ask_cap`` (the review zone) instead, with a factor of 1."""
    sem = tracks.get("semantic")
    if sem is None or not sem.ok or sem.score is None:
        return 1.0, 1.0, None
    f = cfg.fusion
    if other is not None:  # ``_other_language``, read once by ``fuse``
        return (
            1.0,
            f.missed_ask_cap,
            (
                f"relevance {sem.score:.2f} not held: {other}, and the semantic and precision"
                " models compare English texts only; unverified, so it cannot be accepted"
                " (review at most)"
            ),
        )
    span = f.relevance_full - f.relevance_floor
    gate = 1.0 if span <= 0 else (sem.score - f.relevance_floor) / span
    gate = min(1.0, max(0.0, gate))
    if gate >= 1.0:
        return 1.0, 1.0, None
    words = len(request.content.split())
    asked = short_answer_asked(request.query) if words <= f.short_answer_words else None
    if asked is None and gate > 0.0:  # at or below the floor, a list is off topic too
        short = _short_items(request, f.short_item_words)
        if short is not None:
            return (
                1.0,
                f.missed_ask_cap,
                (
                    f"relevance {sem.score:.2f} not held against {short}, as the request asks"
                    " (a few words are too few for it); unverified, so it cannot be accepted"
                    " (review at most)"
                ),
            )
    if asked is not None:
        return (
            1.0,
            f.missed_ask_cap,
            (
                f"relevance {sem.score:.2f} not held against a {words}-word answer, since"
                f" the request asks for a short answer ('{asked}'); unverified, so it cannot be"
                " accepted (review at most)"
            ),
        )
    given = _gives_what_is_asked(request, cfg) if words <= f.short_answer_words else None
    if given is not None:
        return (
            1.0,
            f.missed_ask_cap,
            (
                f"relevance {sem.score:.2f} not held against a {words}-word answer that gives"
                f" {given}; unverified, so it cannot be accepted (review at most)"
            ),
        )
    if gate <= 0.0:
        return (
            0.0,
            1.0,
            f"off topic: the answer does not address the request (relevance {sem.score:.2f})",
        )
    if f"{gate:.2f}" == "1.00":  # a factor that reads x1.00 changes nothing worth a reason
        return gate, 1.0, None
    if asks_to_make(request.query):  # a made thing names its own things: no advice to echo
        return (
            gate,
            1.0,
            f"the answer has little in common with the request's wording (relevance"
            f" {sem.score:.2f}), as a piece in its own words may, or an answer to another"
            f" request; score x{gate:.2f}",
        )
    return (
        gate,
        1.0,
        f"the answer has little in common with the request (relevance {sem.score:.2f}), as"
        f" an answer to another request would: name what the request asks about; score"
        f" x{gate:.2f}",
    )


#: The units of an inferred count that a list answers: "exactly 3 bullet points", "list 5
#: tips", "4 numbered steps", "in 3 lines".
_LIST_UNITS = frozenset({"bullets", "items", "numbered", "lines", "verse_lines"})


def _short_items(request: ScoreRequest, max_words: int) -> str | None:
    """What short items the answer is, when they are what the request asks for: a list of
    the count asked for, or JSON strings where the request asks for JSON."""
    items = short_list_asked(request.query, request.content, max_words)
    if items is not None:
        return f"a list of {items} short items"
    strings = short_json_strings(request.query, request.content, max_words)
    if strings is not None:
        return f"JSON of {strings} short strings"
    return None


def short_json_strings(query: str, content: str, max_words: int) -> int | None:
    """The number of strings of ``content`` when the request asks for JSON and the content
    is a JSON array or object of strings of at most ``max_words`` words on average (["beetroot",
    "carrots", ...]): cosine cannot judge it; else None."""
    if max_words <= 0 or not any(
        i.check == "format" and i.value in ("json", "json_block")
        for i in analyze(query).instructions
    ):
        return None
    value, error = load_json(unfenced(content.strip()))  # ```json ... ```: the JSON inside
    if error is not None:
        return None
    strings = json_strings(value) if isinstance(value, (list, dict)) else []
    if len(strings) < 2 or sum(len(s.split()) for s in strings) / len(strings) > max_words:
        return None
    return len(strings)


def keyed_json(query: str, content: str, max_words: int) -> list[str] | None:
    """The keys the request names for its JSON, when ``content`` is JSON data (fenced or
    not) whose every record has them and whose strings are at most ``max_words`` words
    each (values, not prose): ``{"water_temp_c": 70, "steep_seconds": 60}``; else None."""
    asked = [k for k in analyze(query).instructions if k.check == "json_keys"]
    if max_words <= 0 or len(asked) != 1 or check_instruction(content, asked[0])[0] is not True:
        return None  # the reward track's own check of the keys
    value, error = load_json(unfenced(content.strip()))
    if error is not None or any(len(text.split()) > max_words for text in json_strings(value)):
        return None
    return [str(key) for key in asked[0].value] if isinstance(asked[0].value, list) else None


def short_list_asked(query: str, content: str, max_words: int) -> int | None:
    """The number of items of ``content`` when it is a list with the count of items the
    request asks for, its items at most ``max_words`` words on average; else None."""
    if max_words <= 0:
        return None
    counts = [
        k
        for k in analyze(query).instructions
        if k.check == "count" and k.unit in _LIST_UNITS and isinstance(k.value, int)
    ]
    if len(counts) != 1:
        return None
    wanted = counts[0]
    words = item_word_counts(content)
    if not words or sum(words) / len(words) > max_words:
        return None
    n = len(words)
    value = int(wanted.value)  # type: ignore[arg-type]
    met = {"exactly": n == value, "at_most": 0 < n <= value, "at_least": n >= value}
    return n if met.get(wanted.relation or "exactly", False) else None


def _counted_as_asked(request: ScoreRequest) -> bool:
    """Whether the answer is a list of exactly the count of items the request asks for
    ("exactly three bullet points"; two or more, of any length)."""
    asked = [
        k.value
        for k in analyze(request.query).instructions
        if k.check == "count" and k.unit in _LIST_UNITS and k.relation == "exactly"
    ]
    if len(asked) != 1 or not isinstance(asked[0], int) or asked[0] < 2:
        return False
    return short_list_asked(request.query, request.content, _ANY_LENGTH) == asked[0]


#: Words an item may have on average when only its count matters.
_ANY_LENGTH = 10_000


def _other_language(request: ScoreRequest) -> str | None:
    """Why the English models cannot compare the request with the answer, when they cannot:
    the request asks for a translation from or into another language ("Translate to
    English: '¿Dónde está ...?'"), or it is written in a language other than English that
    it asks the answer to be in, or asks for an answer in another one, and the answer is
    not in the request's language ("Responde en español: ..." answered in English; "Answer
    in English: ¿qué significa ...?" answered in English): the cosine of the two says
    nothing then."""
    translation = translation_request(request.query)
    if translation is not None and translation.unread:
        if translation.source == "en" and detect_language(request.content) == "en":
            return None  # an English text answered in English: the models compare the two
        source = LANGUAGE_NAMES.get(translation.source or "", "another language")
        target = LANGUAGE_NAMES.get(translation.target, translation.target)
        return f"the request asks for a translation from {source} into {target}"
    asked = {str(i.value) for i in analyze(request.query).instructions if i.check == "language"}
    written = detect_language(request.query)
    if written is None or written == "en" or not asked:
        return None
    if detect_language(request.content) == written:
        return None
    return f"the request is in {LANGUAGE_NAMES.get(written, written)} and the answer is not"


def _gives_what_is_asked(request: ScoreRequest, cfg: ScoringConfig) -> str | None:
    """What a short answer gives, when the request's questions expect a form of answer
    and it gives every one ("How long should I boil an egg?" "6 minutes"): "a duration, as
    the request asks ('How long')"; ``None`` otherwise (or with ``answer_type_check`` off)."""
    if not cfg.fusion.answer_type_check:
        return None
    expects = analyze(request.query).expects
    if not expects or missing_answers(expects, request.content):
        return None
    kinds = " and ".join(KIND_NAMES[e.kind] for e in expects)
    asked = "', '".join(e.phrase for e in expects)
    return f"{kinds}, as the request asks ('{asked}')"


def _unanswered(request: ScoreRequest, cfg: ScoringConfig) -> tuple[float, str] | None:
    """A cap when the request asks for a figure of a kind the answer gives none of ("how
    long?" and no duration anywhere), with its reason."""
    if not cfg.fusion.answer_type_check:
        return None
    missing = missing_answers(analyze(request.query).expects, request.content)
    if not missing:
        return None
    e = missing[0]
    return (
        cfg.fusion.missed_ask_cap,
        f"the request asks '{e.phrase}' ({KIND_NAMES[e.kind]}) and the answer gives none",
    )


def _unexplained(request: ScoreRequest, cfg: ScoringConfig) -> tuple[float, str] | None:
    """A cap when the request asks what a quoted term means and a long answer never names
    it ("what's this 'heterodyning' thing?" answered with how to play)."""
    if not cfg.fusion.answer_type_check:
        return None
    asked = " ".join(asking_sentences(analyze(request.query).topic))
    missing = unnamed_terms(asked_terms(asked), request.content)
    if not missing:
        return None
    return (
        cfg.fusion.missed_ask_cap,
        f"the request asks what '{missing[0]}' is and the answer never names it",
    )


#: The restated-fact reason's middle, and the end of membership's "rules out X" reason.
RESTATED = " where the request says "
RULED_OUT = ", as the request asks"


def _restated(request: ScoreRequest, cfg: ScoringConfig) -> tuple[float, str] | None:
    """A cap when the answer restates a fact of the request the other way round."""
    if not cfg.fusion.restated_fact_check:
        return None
    found = contradicted(request.query, request.content)
    if not found:
        return None
    said, stated = found[0]
    return (
        cfg.fusion.missed_ask_cap,
        f"the answer says '{said}'{RESTATED}'{stated}'",
    )


def _over_budget(request: ScoreRequest, cfg: ScoringConfig) -> tuple[float, str] | None:
    """A cap when the answer suggests spending more than the request's stated budget."""
    if not cfg.fusion.budget_check:
        return None
    found = over_budget(request.query, request.content, analyze(request.query).budget)
    if found is None:
        return None
    amount, budget = found
    return (
        cfg.fusion.missed_ask_cap,
        f"the answer suggests {amount}, above the request's budget ('{budget}')",
    )


def _over_time(request: ScoreRequest, cfg: ScoringConfig) -> tuple[float, str] | None:
    """A cap when the answer plans more time than the request says the asker has."""
    if not cfg.fusion.time_check:
        return None
    found = over_time(request.query, request.content)
    if found is None:
        return None
    plan, limit = found
    return (
        cfg.fusion.missed_ask_cap,
        f"the answer says '{plan}', more time than the request gives ('{limit}')",
    )


def _soft_caps(
    request: ScoreRequest, tracks: dict[str, TrackScore], cfg: ScoringConfig, *, read: bool
) -> list[tuple[float, str]]:
    """Caps from evidence in the answer: an excluded item it affirms, a question it
    leaves out, a fact of the request it restates the other way round, an amount above the
    request's budget, inferred instructions it fails. Each with its reason, in plain words.
    ``read``: the answer is in a language the checks of its wording can read."""
    caps: list[tuple[float, str]] = []
    prec = tracks.get("precision")
    if prec is not None and prec.ok and prec.details.get("violated"):
        if prec.details.get("violated_lacks_only"):
            cap = cfg.actions.review  # a lack stated, not a thing ruled out: review at most
            caps.append((cap, "uses something the request says is not available"))
        else:
            caps.append((cfg.precision.exclusion_cap, "uses something the request excludes"))
    sem = tracks.get("semantic")
    asks = sem.details.get("asks", []) if sem is not None and sem.ok else []
    missed = [a for a in asks if a["cosine"] < cfg.fusion.ask_min_cosine]
    looped = _repeated(request, cfg)
    if looped is not None:
        caps.append(looped)
    untranslated = _untranslated(request, cfg)
    if untranslated is not None:
        caps.append(untranslated)
    wrong_ticket = None
    if read:  # else the request's and the answer's wordings cannot be compared
        wrong_ticket = _none_asked(request, asks, sem, cfg) or _unshared(request, sem, cfg)
    if wrong_ticket is not None and _counted_as_asked(request):
        # a list of just the count asked for has the request's shape, which a wrong
        # ticket's answer seldom has: for a person to look at, not a reject
        wrong_ticket = (
            cfg.fusion.missed_ask_cap,
            f"{wrong_ticket[1]}; but it is a list of the count the request asks for",
        )
    if wrong_ticket is not None:
        caps.append(wrong_ticket)
    elif missed and read:
        worst = min(missed, key=lambda a: a["cosine"])
        caps.append(
            (
                cfg.fusion.missed_ask_cap,
                f"the answer may leave out part of the request: '{worst['ask']}'"
                f" (closest sentence cosine {worst['cosine']:.2f})",
            )
        )
    for check in (_unanswered, _unexplained, _restated, _over_budget, _over_time) if read else ():
        found = check(request, cfg)
        if found is not None:
            caps.append(found)
    reward = tracks.get("reward")
    failed = reward.details.get("inferred_failures", []) if reward is not None and reward.ok else []
    if failed:
        r = cfg.reward
        caps.append((r.inferred_fail_cap * r.inferred_fail_decay ** (len(failed) - 1), failed[0]))
    return caps


def _untranslated(request: ScoreRequest, cfg: ScoringConfig) -> tuple[float, str] | None:
    """The cap of a translation written in the language of the text it was to translate."""
    cap = cfg.fusion.untranslated_cap
    asked = translation_request(request.query)
    if cap is None or asked is None or asked.extras or asked.source in (None, "xx"):
        return None
    if detect_language(readable_text(request.content, asked.target)) != asked.source:
        return None
    source = LANGUAGE_NAMES.get(asked.source, asked.source)
    target = LANGUAGE_NAMES.get(asked.target, asked.target)
    return (
        cap,
        f"the answer is in {source}, the language of the text to translate: the request asks"
        f" for it in {target}",
    )


def _repeated(request: ScoreRequest, cfg: ScoringConfig) -> tuple[float, str] | None:
    """The cap of an answer that repeats a few words over and over (a generation stuck in a
    loop, padding): the models read its best chunk, which can fit the request."""
    f = cfg.fusion
    if f.repetition_richness is None:
        return None
    found = repeated(request.content, f.repetition_min_words, f.repetition_richness)
    if found is None:
        return None
    where = "" if found.whole else " in a stretch"
    return (
        f.none_asked_cap,
        f"the answer repeats a few words over and over ({found.distinct} distinct words in"
        f" {found.words}{where}), as a generation stuck in a loop or padding does: write it"
        " again without the repeats",
    )


def _none_asked(
    request: ScoreRequest, asks: list[dict[str, Any]], sem: TrackScore | None, cfg: ScoringConfig
) -> tuple[float, str] | None:
    """The cap of an answer that addresses none of a multi-part request's asks (no sentence
    near any of them, and little relevance as a whole): a wrong ticket's answer. Not for an
    answer given as data (a request for JSON, YAML or code, or content that is a JSON
    value or a code block): it has no sentences to come near an ask."""
    f = cfg.fusion
    if f.none_asked_cosine is None or len(asks) < 2 or sem is None or sem.score is None:
        return None
    if _as_data(request):
        return None
    best = max(asks, key=lambda a: a["cosine"])
    if sem.score >= f.none_asked_relevance or best["cosine"] >= f.none_asked_cosine:
        return None
    return (
        f.none_asked_cap,
        f"the answer addresses none of the request's {len(asks)} parts: the closest,"
        f" '{best['ask']}', is at sentence cosine {best['cosine']:.2f}",
    )


def _unshared(
    request: ScoreRequest, sem: TrackScore | None, cfg: ScoringConfig
) -> tuple[float, str] | None:
    """The cap of an answer that names almost nothing the request names, with little
    relevance: another request's answer in the same field (a wrong ticket). The request's
    words are read in its topic (the request less its form-only clauses: "in all lowercase"
    names nothing an answer should repeat). Not for a short answer, an answer given as
    data, or a request of too few words of its own (a short request's good answer often
    repeats none of them), nor, with ``unshared_questions_only``, a request to have
    something written or made (a good one names its own things)."""
    f = cfg.fusion
    if f.unshared_share is None or sem is None or sem.score is None:
        return None
    if sem.score >= f.unshared_relevance or len(request.content.split()) < f.unshared_min_words:
        return None
    found = shared_words(_topic_less_form(request.query), request.content)
    if len(found.request) < f.unshared_min_request_words or found.share >= f.unshared_share:
        return None
    if _as_data(request) or (f.unshared_questions_only and asks_to_make(request.query)):
        return None
    return (
        f.none_asked_cap,
        f"the answer may answer another request: it uses {len(found.shared)} of the"
        f" request's {len(found.request)} own words (not: {', '.join(found.unused(4))})"
        f" and its relevance is {sem.score:.2f}",
    )


#: What people write after a count: "under 60 words total", "80 characters max".
_COUNT_TAIL = r"(?:\s+(?:total|in\s+total|max(?:imum)?|tops|or\s+(?:less|fewer)))?\b"


def _topic_less_form(query: str) -> str:
    """The request's topic less the words of its instructions: "the basic dinghy rules in
    under 60 words total" names no words or totals an answer should repeat."""
    analysis = analyze(query)
    topic = analysis.topic or query
    for k in analysis.instructions:
        if k.phrase and len(k.phrase.split()) >= 2:
            topic = re.sub(rf"(?i)\b{re.escape(k.phrase.strip())}{_COUNT_TAIL}", " ", topic)
    return topic


def _as_data(request: ScoreRequest) -> bool:
    """Whether the answer is data rather than prose: the request asks for a data format (JSON,
    YAML, code, a comma-separated list, a table), or the content is a JSON array or object,
    a fenced code block or a table."""
    wanted = set(FORMATS) - {"blockquote", "commented"}  # a quote or comments: prose still
    if any(i.check == "format" and i.value in wanted for i in analyze(request.query).instructions):
        return True
    return request.content.lstrip().startswith(("[", "{", "```", "|"))


def fuse(
    request: ScoreRequest,
    tracks: dict[str, TrackScore],
    cfg: ScoringConfig,
    *,
    accept_cut: float | None = None,
    calibrator: Calibrator | None = None,
) -> ScoreResult:
    """Combine the tracks that ran into one :class:`ScoreResult`.

    One path: the profile's weighted mean of the tracks that scored; times the relevance
    gate (the semantic track: off-topic answers score 0, drifting ones less; a short answer
    to a request for one is capped at review instead); capped by
    what the answer does against the request (an excluded item it affirms, inferred
    instructions it fails, failed hard constraints); then the one set of cut points
    (``actions``, with the accept cut moved to ``accept_cut``, a job's own loop threshold)
    gives the action and the band. ``calibrated`` is the one calibration of the score
    (:func:`scoregate.scoring.calibration.calibrate`): ``calibrator``, the map fitted to
    reviewers' verdicts, when one is in force, else seed 004's prior adjustment.

    Fails closed: hard constraints that failed *or could not be checked* cap the score at
    ``reward.hard_fail_cap``, and a result scored on less than
    ``fusion.min_weight_coverage`` of its profile is never accepted nor GREEN.
    """
    cuts = cfg.actions.with_accept(accept_cut)
    profile_name = select_profile(request.metadata, cfg)
    profile = cfg.fusion.profiles[profile_name]
    unread = foreign_language(request.content)
    if unread is not None:  # the models read English: their scores say nothing here
        tracks = {n: t for n, t in tracks.items() if n not in ALWAYS_APPLICABLE}
    # a request in a language the models do not read, answered in another (English asked
    # of a Spanish request): neither the cosine nor the cross-encoder can compare the two,
    # so neither weighs; the relevance gate below caps it at review, unverified
    other = _other_language(request) if unread is None else None
    weighed = {n: t for n, t in tracks.items() if n not in ALWAYS_APPLICABLE} if other else tracks
    weights, mass = _weights(profile, weighed)
    notes = _track_notes(tracks, profile)
    if unread is not None:
        notes.append(
            f"the answer is in {LANGUAGE_NAMES.get(unread, unread)}: the semantic and precision"
            " models read English, so only its form and constraints were judged"
        )
    score = sum(w * (tracks[n].score or 0.0) for n, w in weights.items())
    score = _weighed_score(score, weights, tracks, cuts, notes, unverified=bool(unread or other))
    gate, cap, drift = _relevance(request, tracks, cfg, other)
    score = min(score * gate, cap)
    if drift is not None:
        notes.insert(0, drift)
    keys = keyed_json(request.query, request.content, cfg.fusion.short_item_words)
    if keys is not None and score < cuts.review:
        # data, not prose: the cross-encoder cannot judge {"steep_seconds": 60}; the keys
        # asked for are there, so a person reads it (the caps below still apply)
        score = cuts.review
        notes.append(
            f"JSON with the keys the request names ({', '.join(keys)}): the models read"
            " prose, not data, so it is held at review (unverified values)"
        )
    capped: list[str] = []
    for cap, why in _soft_caps(request, tracks, cfg, read=unread is None and other is None):
        if score > cap:
            score = cap
            capped.append(f"score capped at {cap:.2f}: {why}")
        elif why not in capped:
            capped.append(why)  # the evidence still explains a score already below its cap
    score, hard = _cap_hard(request, tracks, score, cfg, notes)
    coverage = _coverage_note(request, tracks, weights, profile_name, cfg)
    held = False  # an answer that reached the accept cut but was scored on too little
    if coverage is not None:
        held = score >= cuts.accept
        score, coverage = _cap_short_coverage(score, coverage, cuts)
    # Rounded once: the stored score, score_100, the band and the action all read this value.
    score = round(min(1.0, max(0.0, score)), 4)
    band = band_for(score, cfg, request.previous_score, cuts)
    if coverage is not None:
        # Review (a person reads it), even where a job's loop threshold sits on the review
        # cut and leaves no review zone under it: an answer the models could not read is
        # not accepted, nor marked for rewriting (the loop sends an unverified answer to a
        # person: ``dashboard["unverified"]``, ``pipelines.loop.decide``).
        band = "AMBER" if band == "GREEN" or held else band
        notes.append(coverage)
    action = action_of_band(band, score, cuts)
    gate_tier = resolve_tier(request.self_reported_confidence, band, cfg.gating)
    if gate_tier.warning:
        notes.append(gate_tier.warning)
    calibrated, _ = calibrate(score, cfg.heuristics.calibration, request.metadata, calibrator)
    metrics = tracks.get("metrics")
    score_100 = percent(score)
    analysis = analyze(request.query)
    return ScoreResult(
        score=score,
        score_100=score_100,
        band=band,
        action=action,
        cuts=cuts.model_dump(),
        passes_minimum=passes_minimum(score, cfg, cuts),
        minimum_threshold=cuts.reject,
        calibrated=round(calibrated, 4),
        tracks=tracks,
        components=_components(tracks),
        weights={n: round(w, 4) for n, w in weights.items()},
        profile=profile_name,
        analysis=analysis.to_dict(),
        reasons=_reasons(tracks, notes, capped, weights, cfg),
        weakest_factors=_weakest(
            tracks, weights, cfg, analysis, cuts, capped, accepted=action == "accept"
        ),
        dashboard=_dashboard(score_100, band, tracks, mass, unverified=coverage is not None),
        gate=gate_tier,
        raw_metrics=metrics.details.get("raw")
        if metrics is not None and request.raw_metrics
        else None,
        hard_failures=hard,
    )


def _weighed_score(
    score: float,
    weights: dict[str, float],
    tracks: dict[str, TrackScore],
    cuts: ActionThresholds,
    notes: list[str],
    *,
    unverified: bool,
) -> float:
    """The weighted mean ``score``, or what stands for it when the models are set aside
    (``unverified``: the answer or the request is in a language they do not read)."""
    if not weights and unverified:
        # nothing the models or the checks could read: unverified, not wrong, so a person
        # reads it (review), as for any answer in a language the models do not read
        notes.append("nothing in it could be checked here: a person should read it (review)")
        return cuts.review
    if not weights:
        notes.append("no track produced a score; nothing to trust")
    elif unverified and _inferred_only(tracks):
        # the score is the share of inferred checks passed: a failed one sends the answer
        # back with its reason (iterate), never rejects it by itself
        return max(score, cuts.iterate)
    return score


def _inferred_only(tracks: dict[str, TrackScore]) -> bool:
    """Whether the reward track checked inferred instructions only (none the caller gave)."""
    reward = tracks.get("reward")
    results = reward.details.get("results", []) if reward is not None and reward.ok else []
    return bool(results) and all(r.get("inferred") for r in results)


def _hard_failures(tracks: dict[str, TrackScore]) -> list[str]:
    reward = tracks.get("reward")
    if reward is None:
        return []
    return [str(r) for r in reward.details.get("hard_failures", [])]

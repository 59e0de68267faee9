"""Seed-004's five factors of an answer: reasoning, sources, consistency, completeness,
uncertainty.

Each factor starts at a baseline and moves by the rule increments and penalties in
``heuristics.rules``; it is clamped to [0, 1] and explained by evidence lines. The
heuristics track (:mod:`scoregate.scoring.heuristics`) weights them by a task-type preset.

Where this departs from the seed's sketch, and why:

* Marker words match whole words ("just" does not fire inside "adjust").
* "first ... then ... finally" may span lines: step-by-step answers are lists.
* Hedges are counted by occurrence. The seed counted matching patterns, of which there
  are five, so its "more than five" penalty could never apply.
* Trusted URLs are judged by host (``https://evil.example/official`` is not trusted)
  and counted once each.
* With no required topics, topic coverage neither adds nor subtracts.

Every pattern is precompiled and linear in the content.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from dataclasses import dataclass, field

from scoregate.config.tracks import HeuristicsConfig
from scoregate.schemas.request import ScoringMetadata

__all__ = ["Factor", "format_inconsistencies", "score_factors", "term_variants"]

# Marker words and phrases, matched as whole words in the lower-cased, punctuation-free
# word sequence of the content.
_JUSTIFY = ("because", "since", "due to", "evidence", "shows that")
_ALTERNATIVES = ("alternatively", "however", "on the other hand", "could also")
_ASSUMPTIONS = ("assuming", "given that", "if we assume")
_LEAPS = ("obviously", "clearly", "simply", "just")
_STRONG = ("always", "never", "all", "none", "every", "definitely")
_CONCLUSION = ("in conclusion", "to summarize", "in summary", "therefore")
_HEDGES = (
    "i'm not sure",
    "i'm not entirely sure",
    "might",
    "may",
    "could",
    "possibly",
    "approximately",
    "around",
    "roughly",
    "uncertain",
    "unclear",
    "this is my estimate",
    "this is my best estimate",
)
_EDGE_CASES = tuple(
    f"{kind}{plural}"
    for kind in ("edge case", "exception", "special case", "corner case")
    for plural in ("", "s")
)
_CONTRADICTIONS = (("but", "contrary"), ("however", "this contradicts"), ("wait", "actually"))
_TO_WORDS = str.maketrans(dict.fromkeys(string.punctuation.replace("'", ""), " ") | {"\u2019": "'"})
_TO_TERMS = str.maketrans(dict.fromkeys(string.punctuation.replace("-", "").replace("_", ""), " "))
# Matched against the lower-cased content.
_STEP = re.compile(r"step\s*\d")
_CITATION = re.compile(r"\[\w+\]|\(\d{4}\)")
_URL = re.compile(r"https?://[^\s<>\"']+")
_CONFIDENCE = re.compile(r"confidence:\s*\d+%")
_CONFIDENT = re.compile(r"%\s*confident")
# Matched against the content as written.
_BULLET = re.compile(r"^([ \t]*)([-*+])[ \t]+\S", re.MULTILINE)
_ORDERED = re.compile(r"^[ \t]*\d{1,9}([.)])[ \t]+\S", re.MULTILINE)
_ATX = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)
_UNDERLINE = re.compile(r"^[ \t]{0,3}(?:=+|-+)[ \t]*$", re.MULTILINE)
#: Hosts whose URLs count as trusted sources, matched within "." + host + ".".
TRUSTED_HOST_MARKERS = (".github.com.", "docs.", "official", ".gov.", ".edu.")


class _Doc:
    """The content with the views the factors share, each computed once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.low = text.lower()
        self.words = self.low.translate(_TO_WORDS).split()
        self.counts = Counter(self.words)
        self.padded = f" {' '.join(self.words)} "

    def count(self, markers: tuple[str, ...]) -> int:
        """Whole-word occurrences of the markers (words or phrases)."""
        return sum(self.counts[m] if " " not in m else self.padded.count(f" {m} ") for m in markers)

    def has(self, markers: tuple[str, ...]) -> bool:
        return any(m in self.counts if " " not in m else f" {m} " in self.padded for m in markers)

    def starts_word(self, pos: int) -> bool:
        return pos == 0 or not self.low[pos - 1].isalnum()


@dataclass
class Factor:
    """One factor's score with what moved it; ``issues`` are the findings against it."""

    score: float
    evidence: list[str] = field(default_factory=list)
    issues: list[str] = field(default_factory=list)
    hint: str | None = None

    def note(self, ok: bool, good: str, bad: str) -> bool:
        self.evidence.append(good if ok else bad)
        if not ok:
            self.issues.append(bad)
        return ok


def _clamp(value: float, low: float = 0.0, high: float = 1.0) -> float:
    return max(low, min(high, value))


def _in_order(words: list[str], sequence: tuple[str, ...]) -> bool:
    """Whether the words occur one after another (not necessarily adjacent)."""
    pos = 0
    for word in sequence:
        try:
            pos = words.index(word, pos) + 1
        except ValueError:
            return False
    return True


def _same_line(doc: _Doc, first: str, second: str) -> bool:
    """Whether ``second`` follows ``first`` on one line (the seed's ``a.*b``)."""
    if first not in doc.low or second not in doc.low:
        return False
    for line in doc.low.splitlines():
        padded = f" {' '.join(line.translate(_TO_WORDS).split())} "
        at = padded.find(f" {first} ")
        if at >= 0 and padded.find(f" {second} ", at + len(first) + 1) >= 0:
            return True
    return False


def _reasoning(doc: _Doc, r: dict[str, float]) -> Factor:
    f = Factor(r["reasoning_baseline"])
    steps = any(doc.starts_word(m.start()) for m in _STEP.finditer(doc.low))
    checks = (
        (
            steps or _in_order(doc.words, ("first", "then", "finally")),
            "reasoning_step_by_step",
            "Step-by-step analysis present",
            "No step-by-step structure",
        ),
        (
            doc.has(_JUSTIFY),
            "reasoning_evidence",
            "Evidence cited for claims",
            "Claims are not justified (because, since, evidence)",
        ),
        (
            doc.has(_ALTERNATIVES),
            "reasoning_alternatives",
            "Alternatives considered",
            "Missing consideration of alternatives",
        ),
        (
            doc.has(_ASSUMPTIONS),
            "reasoning_assumptions",
            "Assumptions stated",
            "No explicit assumptions",
        ),
    )
    for ok, rule, good, bad in checks:
        if f.note(ok, good, bad):
            f.score += r[rule]
    if not f.note(
        not doc.has(_LEAPS),
        "No leaps in logic",
        "Leaps in logic (obviously, clearly, simply, just)",
    ):
        f.score -= r["reasoning_logic_leap_penalty"]
    f.score = _clamp(f.score)
    return f


def _trusted(url: str) -> bool:
    host = url.split("/", 3)[2].split("@")[-1].split(":")[0] if url.count("/") >= 2 else ""
    dotted = f".{host}."
    return bool(host) and any(marker in dotted for marker in TRUSTED_HOST_MARKERS)


def _sources(doc: _Doc, meta: ScoringMetadata, r: dict[str, float]) -> Factor:
    f = Factor(r["sources_baseline"])
    citations = len(_CITATION.findall(doc.low)) + doc.count(("according to",))
    f.score += min(r["sources_citation_cap"], citations * r["sources_per_citation"])
    f.note(citations > 0, f"{citations} citation(s)", "No citations")
    urls = {u.rstrip(").,;:!?]") for u in _URL.findall(doc.low)}
    trusted = sum(_trusted(u) for u in urls)
    f.score += min(r["sources_trusted_url_cap"], trusted * r["sources_per_trusted_url"])
    f.note(trusted > 0, f"{trusted} trusted source(s) cited", "No trusted sources linked")
    if meta.provided_sources:
        used = sum(s.lower() in doc.low for s in meta.provided_sources)
        share = used / len(meta.provided_sources)
        f.score += share * r["sources_provided_used_max"]
        said = f"Used {used}/{len(meta.provided_sources)} provided sources"
        f.note(share == 1, said, said)
    strong = doc.count(_STRONG)
    penalty = strong * r["sources_per_strong_claim_penalty"]
    f.score -= min(r["sources_strong_claim_penalty_cap"], penalty)
    f.note(
        strong == 0, "No unsourced strong claims", f"{strong} unsourced strong claim(s) detected"
    )
    f.score = _clamp(f.score)
    return f


def term_variants(text: str) -> list[list[str]]:
    """Terms written more than one way: ``JavaScript``/``javascript``, ``e-mail``/``email``.

    A capitalised or all-capitals word counts as its lower-case form (sentence starts,
    emphasis); internal capitals, hyphens and underscores make a distinct spelling.
    """
    forms: dict[str, set[str]] = {}
    for token in set(text.translate(_TO_TERMS).split()):
        word = token.strip("-_")
        if len(word) < 3 or not word[0].isalpha():
            continue
        plain = word.lower() if word[1:].islower() or word.isupper() else word
        key = plain.lower().replace("-", "").replace("_", "")
        forms.setdefault(key, set()).add(plain)
    return [sorted(v) for _, v in sorted(forms.items()) if len(v) > 1]


def format_inconsistencies(text: str) -> list[str]:
    """Formatting styles mixed within one output (bullets, numbering, headings, newlines)."""
    found = []
    markers: dict[str, set[str]] = {}
    for indent, marker in _BULLET.findall(text):
        markers.setdefault(indent, set()).add(marker)
    mixed = sorted({m for ms in markers.values() if len(ms) > 1 for m in ms})
    if mixed:
        found.append(f"Mixed bullet markers ({', '.join(mixed)})")
    if len(set(_ORDERED.findall(text))) > 1:
        found.append("Mixed numbered-list styles (1. and 1))")
    if _ATX.search(text) and _has_setext(text):
        found.append("Mixed heading styles (# and underlined)")
    if "\r\n" in text and text.count("\n") > text.count("\r\n"):
        found.append("Mixed line endings (CRLF and LF)")
    return found


def _has_setext(text: str) -> bool:
    for m in _UNDERLINE.finditer(text):
        prev_end = max(m.start() - 1, 0)
        prev = text[text.rfind("\n", 0, prev_end) + 1 : prev_end].strip()
        if prev and not _BULLET.match(prev) and not _UNDERLINE.match(prev):
            return True
    return False


def _consistency(doc: _Doc, r: dict[str, float]) -> Factor:
    f = Factor(r["consistency_baseline"])
    hits = sum(_same_line(doc, a, b) for a, b in _CONTRADICTIONS)
    f.score -= hits * r["consistency_contradiction_penalty"]
    f.note(hits == 0, "No contradictions detected", f"{hits} contradiction marker(s)")
    variants = term_variants(doc.text)
    f.score -= len(variants) * r["consistency_term_variant_penalty"]
    shown = "; ".join(" vs ".join(v) for v in variants[:3])
    f.note(not variants, "Consistent terminology", f"Inconsistent terminology: {shown}")
    formats = format_inconsistencies(doc.text)
    f.score -= len(formats) * r["consistency_format_penalty"]
    if not f.note(not formats, "Consistent formatting", "; ".join(formats)):
        f.hint = "Use one style for " + ", ".join(x.split(" (")[0].lower() for x in formats)
    f.score = _clamp(f.score)
    return f


def _length(f: Factor, words: int, expected: int, r: dict[str, float]) -> None:
    ratio = words / expected
    said = f"{words} words vs {expected} expected"
    on_target = (
        r["completeness_length_ratio_min_on_target"]
        <= ratio
        <= r["completeness_length_ratio_max_on_target"]
    )
    far = ratio < r["completeness_length_ratio_too_short"] or (
        ratio > r["completeness_length_ratio_too_long"]
    )
    if on_target:
        f.score += r["completeness_length_on_target"]
        f.evidence.append(f"Length on target: {said}")
    elif far:
        f.score -= r["completeness_length_off_target_penalty"]
        f.note(False, "", f"Length far off target: {said}")
    else:
        f.evidence.append(f"Length near target: {said}")


def _completeness(doc: _Doc, meta: ScoringMetadata, r: dict[str, float]) -> Factor:
    f = Factor(r["completeness_baseline"])
    topics = meta.required_topics
    if topics:
        missing = [t for t in topics if t.lower() not in doc.low]
        covered = len(topics) - len(missing)
        f.score += covered / len(topics) * r["completeness_topic_coverage_max"]
        said = f"{covered}/{len(topics)} required topics covered"
        if not f.note(not missing, said, said):
            f.hint = "Cover remaining topics: " + ", ".join(missing)
    if f.note(doc.has(_CONCLUSION), "Conclusion present", "No conclusion section"):
        f.score += r["completeness_conclusion"]
    if meta.expected_word_count:
        _length(f, len(doc.text.split()), meta.expected_word_count, r)
    f.score = _clamp(f.score)
    return f


def _states_confidence(low: str) -> bool:
    if _CONFIDENCE.search(low):
        return True
    return any(m.start() > 0 and low[m.start() - 1].isdigit() for m in _CONFIDENT.finditer(low))


def _uncertainty(doc: _Doc, r: dict[str, float]) -> Factor:
    f = Factor(r["uncertainty_baseline"])
    hedges = doc.count(_HEDGES)
    low_n, high_n = r["uncertainty_calibrated_min_markers"], r["uncertainty_calibrated_max_markers"]
    if low_n <= hedges <= high_n:
        f.score += r["uncertainty_calibrated_bonus"]
        f.evidence.append(f"Calibrated uncertainty: {hedges} hedge(s)")
    elif hedges > r["uncertainty_excess_markers"]:
        f.score -= r["uncertainty_excess_penalty"]
        f.note(False, "", f"Excessive hedging: {hedges} hedges")
    else:
        f.note(hedges > 0, f"{hedges} hedges", "Limited uncertainty markers")
    if f.note(
        _states_confidence(doc.low),
        "Explicit confidence statement",
        "No explicit confidence statement",
    ):
        f.score += r["uncertainty_confidence_statement"]
    if f.note(doc.has(_EDGE_CASES), "Edge cases acknowledged", "No edge cases acknowledged"):
        f.score += r["uncertainty_edge_cases"]
    f.score = _clamp(f.score)
    return f


def score_factors(
    content: str, metadata: ScoringMetadata, cfg: HeuristicsConfig
) -> dict[str, Factor]:
    """The five seed-004 factors of ``content``, each in [0, 1] with its evidence."""
    doc, r = _Doc(content), cfg.rules
    return {
        "reasoning": _reasoning(doc, r),
        "sources": _sources(doc, metadata, r),
        "consistency": _consistency(doc, r),
        "completeness": _completeness(doc, metadata, r),
        "uncertainty": _uncertainty(doc, r),
    }

"""Precision track (seed 001 track 2): a cross-encoder reads (query, content) together.

The packaged MiniLM cross-encoder (``scoregate:precision``) gives one logit; its
``predict`` applies a sigmoid, so the score is in [0, 1]: high when the content answers
the query and honours what it excludes, low when it contradicts the request, does what
the request excludes, or is off-topic.

Content longer than the model's window is split into token chunks (sharing the window
with the query) and scored chunk by chunk; the content's score is the maximum over its
chunks, as in the semantic track. Nothing is silently truncated.

On top of the model, an optional explicit exclusion check (``precision.exclusion_check``)
parses what the request excludes ("without X", "no X", "other than X", "never use X",
"I do NOT want X", "X-free", ...) and, when the content mentions X without negating it,
multiplies the score by ``precision.exclusion_penalty``. torch is never imported here.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from scoregate.config import PrecisionConfig
from scoregate.schemas.result import TrackScore
from scoregate.scoring.semantic import chunk_text, token_spans

TRACK = "precision"
#: [CLS] query [SEP] content [SEP]
PAIR_SPECIAL_TOKENS = 3


class PairScorer(Protocol):
    """What the track needs from a CrossEncoder."""

    tokenizer: Any

    def predict(self, sentences: list[tuple[str, str]], **kwargs: Any) -> Any: ...


# --- exclusion parsing -----------------------------------------------------------------

_TERM = r"(?P<x>[^.;:!?\n]{1,80}?)"
#: Words that open a new clause, not an excluded thing: "no nuts, I'm allergic",
#: "not a dog, I want a cat", "Not memory foam, it's too hot for me".
_PRONOUNS = frozenset("i i'm i've it it's they they're we we're you you're he she that's".split())
_PRONOUN_ALT = "|".join(sorted(_PRONOUNS, key=len, reverse=True))
_END = (
    r"(?=\s*(?:[.;:!?)\n]|-\s|$|\b(?:but|please|because|since|if|when|while|unless|thanks|so that"
    r"|in it|in the|at all|anymore|either|for (?:me|my|the|a|this|dinner|lunch))\b"
    rf"|,\s*(?:{_PRONOUN_ALT})(?![\w']))"
    r")"
)
_VERBS = (
    r"(?:want|use|using|include|add|mention|put|need|like|contain|show|give|suggest"
    r"|recommend|eat|have|do|play|draw|see|go|get|travel|write|take|visit|bring\s+up|blame"
    r"|ask\s+for|start\s+with|talk\s+about|modify|touch)"
)
_CUES: tuple[str, ...] = (
    r"\bwithout\s+(?:any\s+|using\s+)?",
    r"\bno\s+(?!one\b|longer\b|matter\b|more\b|less\b|later\b|need\b|problem\b|doubt\b|way\b"
    r"|idea\b|sooner\b)",
    r"\b(?:other|rather)\s+than\s+",
    r"\b(?:anything|everything|anywhere|anyone|any\s+\w+)\s+(?:but|except)\s+(?:for\s+)?",
    r"\bexcept\s+(?:for\s+)?",
    r"\bexcluding\s+",
    r"(?:\bnot|n't|\bnever)\s+" + _VERBS + r"\s+(?:to\s+\w+\s+)?(?:any\s+)?",
    r"\b(?:isn't|is\s+not|aren't|are\s+not)\s+",
    r"\bbut\s+not\s+",
    r"\bnot\s+(?:a|an|in|by|with|of)\s+",
    r"\bnot\s+a\s+fan\s+of\s+",
    r"\bnot\s+(?:ok|okay|happy|keen|interested)\s+(?:with|on|about|in)\s+",
    r"\bnothing\s+(?:with|containing|involving|about|by|from|too"
    r"|(?:that|which)\s+(?:needs|uses|requires|involves|has|is))\s+",
    # "nothing slow." / "nothing spicy, please": one word closing the clause.
    r"\bnothing\s+(?=[a-z]+\s*(?:[.,;!?)]|$))",
    r"\bnever\s+(?:by|in|on|at|via|through)\s+",
    # A clause that opens with "not": "Not red.", "..., not Nike.", "please - not Python."
    r"(?:^|[,;(]|\s-)\s*not\s+(?!only\b|just\b|sure\b|too\b|really\b|even\b|yet\b|so\b"
    r"|very\b|that\b|at\s+all\b|until\b|because\b|if\b|when\b|much\b|quite\b|necessarily\b)",
    r"\b(?:hate|dislike|can't\s+stand|cannot\s+stand)\s+",
    r"\b(?:avoid|avoiding|skip|exclude|leave\s+out|keep\s+out|hold\s+the|minus)\s+",
    r"\b(?:allergic|intolerant)\s+to\s+",
    r"\bfree\s+(?:of|from)\s+",
)
_EXCLUSION_RES = tuple(re.compile(cue + _TERM + _END, re.IGNORECASE) for cue in _CUES)
_FREE_RE = re.compile(r"\b(?P<x>[a-z]+)[- ]free\b", re.IGNORECASE)
_OUT_RE = re.compile(r"\b(?:keep|leave)\s+(?P<x>[^.;:!?,\n]{1,40}?)\s+out\b", re.IGNORECASE)
_LEADING = re.compile(
    r"^(?:(?:a|an|the|any|some|all|my|your|our|their|this|that|these|those|kind|kinds|sort"
    r"|type|types|use|using|of|to|be|more|extra|added|going|travelling|traveling|by|getting"
    r"|having|doing|eating|drinking|playing|mentioning|including|adding|mood\s+for)\s+)+",
    re.IGNORECASE,
)
_SPLIT = re.compile(r",|\bor\b|\bnor\b|\band\b|/", re.IGNORECASE)
_STOP_TERMS = frozenset(
    {
        "it",
        "them",
        "that",
        "this",
        "one",
        "thing",
        "things",
        "anything",
        "something",
        "please",
        "me",
        "you",
        "i",
        "we",
        "sure",
        "good",
        "bad",
        "problem",
        "idea",
        "longer",
        "more",
        "less",
        "else",
    }
)
MAX_TERM_WORDS = 4


def _clean_term(raw: str) -> str | None:
    term = raw.strip(" '\"-").lower()
    if " of " in f" {term} ":
        term = term.rsplit(" of ", 1)[-1] if " of " in term else term
    term = _LEADING.sub("", term).strip()
    words = term.split()
    if not words or term in _STOP_TERMS or len(words) > MAX_TERM_WORDS or words[0] in _PRONOUNS:
        return None
    return term


#: A yes/no question asks about a condition ("Is it safe to run without water?"); it
#: excludes nothing. "Can you ..." / "Could you ..." are requests and still count.
_YES_NO = re.compile(
    r"^\s*(?:is|are|was|were|does|do|did|will|would it|should i|should we|can(?!\s+you\b)"
    r"|could(?!\s+you\b))\b[^?]*\?",
    re.IGNORECASE,
)
_SENTENCES = re.compile(r"[^.!?\n]+[.!?]*")


def parse_exclusions(query: str) -> list[str]:
    """What ``query`` excludes, as short lower-case terms (e.g. ``["nuts", "dog"]``)."""
    found: list[str] = []
    for sentence in _SENTENCES.findall(query):
        if _YES_NO.match(sentence):
            continue
        for rx in _EXCLUSION_RES:
            for m in rx.finditer(sentence):
                found += [t for p in _SPLIT.split(m.group("x")) if (t := _clean_term(p))]
        found += [t for m in _OUT_RE.finditer(sentence) if (t := _clean_term(m.group("x")))]
        found += [m.group("x").lower() for m in _FREE_RE.finditer(sentence)]
    return list(dict.fromkeys(t for t in found if t not in _STOP_TERMS))


#: Words that carry no request of their own once an exclusion is cut out of a sentence
#: ("I'm allergic to shellfish." leaves "I'm": the sentence is dropped).
_EMPTY_WORDS = frozenset(
    "i i'm im we we're am is are do does did also really just so but and or please that"
    " that's which who it it's my me can can't cannot could would will".split()
)
#: Connectors left dangling at the end of a sentence once its exclusion is cut out.
_DANGLING = re.compile(
    r"(?:[\s,;:-]+|\s*\b(?:but|so|and|or|if|that|that's|which|who|please|with|just|also"
    r"|in it|i|i'm|i've|we|you|have|has)(?![\w']))+$",
    re.IGNORECASE,
)


def _word_start(text: str, i: int) -> int:
    """Where the word that ``text[i]`` belongs to starts."""
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "'_"):
        i -= 1
    return i


def _exclusion_spans(sentence: str) -> list[tuple[int, int]]:
    """Character spans of the exclusion clauses in one sentence, merged and sorted."""
    spans: list[tuple[int, int]] = []
    for rx in (*_EXCLUSION_RES, _OUT_RE, _FREE_RE):
        for m in rx.finditer(sentence):
            # A cue that starts inside a word ("n't" of "don't") takes the whole word.
            first = sentence[m.start() : m.start() + 1]
            inside = first.isalnum() or first == "'"
            spans.append((_word_start(sentence, m.start()) if inside else m.start(), m.end()))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


#: A clause that states a fact about the asker, not a request: "they have plenty".
_STATE = re.compile(
    r"^[\s,;:-]*(?:i|we|they|it|he|she)(?:'s|'ve|'m|'re|\s+(?:have|has|had|am|is|are|was|were))\b",
    re.IGNORECASE,
)


def _asks_something(part: str, after_exclusion: bool = False) -> bool:
    if after_exclusion and _STATE.match(part):
        return False
    return any(w not in _EMPTY_WORDS for w in _WORD.findall(part.lower()))


def strip_exclusions(query: str) -> str:
    """What ``query`` asks for, with its exclusion clauses cut out.

    "Dinner ideas please, but I can't eat gluten." -> "Dinner ideas." A sentence
    left with no request of its own is dropped; "" when nothing but exclusions remains.
    Yes/no questions are kept whole (they exclude nothing, see ``parse_exclusions``).
    """
    kept: list[str] = []
    for sentence in _SENTENCES.findall(query):
        spans = [] if _YES_NO.match(sentence) else _exclusion_spans(sentence)
        if not spans:
            kept.append(sentence.strip())
            continue
        body = sentence.rstrip(".!? ")
        end = sentence[len(body) :].strip() or "."
        parts, last = [], 0
        for start, stop in spans:
            parts.append(body[last:start])
            last = stop
        parts.append(body[last:])
        # A part with no request of its own goes too: the "I" of "I don't want a dog, ...",
        # or the reason after an exclusion ("Not memory foam, it's too hot for me").
        parts = [p for i, p in enumerate(parts) if _asks_something(p, after_exclusion=i > 0)]
        text = re.sub(r"\s+", " ", " ".join(p.strip() for p in parts)).strip()
        text = re.sub(r"\s+([,;:])", r"\1", re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text))
        text = _DANGLING.sub("", text).lstrip(" ,;:-")
        if _asks_something(text):
            kept.append(text + end)
    return " ".join(kept).strip()


# --- does the content affirm an excluded term? ----------------------------------------

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_SENTENCE = re.compile(r"[.!?;\n]+")
_NEGATORS = frozenset(
    {
        "no",
        "not",
        "without",
        "never",
        "avoid",
        "avoids",
        "avoided",
        "avoiding",
        "skip",
        "skipped",
        "instead",
        "except",
        "excluding",
        "excluded",
        "nor",
        "zero",
        "free",
        "left",
        "leave",
        "omit",
        "omitted",
        "remove",
        "removed",
        "than",
        "none",
        "neither",
        "but",
    }
)
_AFTER_NEGATORS = frozenset({"free", "not", "excluded", "omitted", "removed", "removal"})
_SUFFIXES = ("ly", "ions", "ion", "ive", "ing", "ed", "es", "s", "e")
_FILLER = frozenset({"a", "an", "the", "of", "by", "to", "for", "in", "on", "with", "my"})
NEGATION_WINDOW = 5


def stem(word: str) -> str:
    """A crude stem: strip up to three common suffixes, keeping at least three letters."""
    w = word.lower()
    for _ in range(3):
        for suffix in _SUFFIXES:
            if w.endswith(suffix) and len(w) - len(suffix) >= 3:
                w = w[: -len(suffix)]
                break
    return w


#: A compound ("walnut" for "nut") needs a real word before the term, not "mi" in "minute".
MIN_COMPOUND_PREFIX = 3


def _matches(token: str, term_stem: str) -> bool:
    s = stem(token)
    if s == term_stem:
        return True
    return (
        len(term_stem) >= 3
        and s.endswith(term_stem)
        and len(s) - len(term_stem) >= MIN_COMPOUND_PREFIX
    )


def _negated(tokens: list[str], i: int) -> bool:
    before = tokens[max(0, i - NEGATION_WINDOW) : i]
    after = tokens[i + 1 : i + 3]
    return any(t in _NEGATORS or t.endswith("n't") for t in before) or any(
        t in _AFTER_NEGATORS or t.endswith("n't") for t in after
    )


def _occurrences(tokens: list[str], stems: list[str]) -> list[int]:
    """Indexes where the term's head occurs with its other words just before it."""
    head, rest = stems[-1], stems[:-1]
    out: list[int] = []
    for i, tok in enumerate(tokens):
        if _matches(tok, head):
            window = [stem(t) for t in tokens[max(0, i - len(rest) - 2) : i]]
            if all(s in window for s in rest):
                out.append(i)
    return out


def mentions(content: str, term: str) -> tuple[bool, bool]:
    """(mentioned at all, mentioned affirmatively) for ``term`` in ``content``."""
    stems = [stem(w) for w in _WORD.findall(term.lower()) if w not in _FILLER]
    if not stems:
        return False, False
    seen = affirmed = False
    for sentence in _SENTENCE.split(content.lower()):
        tokens = _WORD.findall(sentence)
        for i in _occurrences(tokens, stems):
            seen = True
            affirmed = affirmed or not _negated(tokens, i)
    return seen, affirmed


@dataclass
class ExclusionCheck:
    """Terms the request excludes, and those the content affirms anyway."""

    excluded: list[str] = field(default_factory=list)
    violated: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)

    def reasons(self) -> list[str]:
        """Human-readable reasons, one per excluded term found in the content."""
        out = [f"request excludes '{t}' but the answer includes it" for t in self.violated]
        out += [f"request excludes '{t}' and the answer rules it out" for t in self.ruled_out]
        return out


def check_exclusions(query: str, content: str) -> ExclusionCheck:
    """Parse what ``query`` excludes and check whether ``content`` affirms it."""
    check = ExclusionCheck(excluded=parse_exclusions(query))
    for term in check.excluded:
        seen, affirmed = mentions(content, term)
        if affirmed:
            check.violated.append(term)
        elif seen:
            check.ruled_out.append(term)
    return check


# --- the track ---------------------------------------------------------------------------


def content_chunks(model: PairScorer, query: str, content: str, cfg: PrecisionConfig) -> list[str]:
    """``[content]`` when the pair fits ``max_length``, else content chunks that do."""
    query_tokens = len(token_spans(model.tokenizer, query))
    budget = cfg.max_length - PAIR_SPECIAL_TOKENS - min(query_tokens, cfg.max_length // 2)
    spans = token_spans(model.tokenizer, content)
    if len(spans) <= budget:
        return [content]
    return chunk_text(content, spans, budget, min(cfg.chunk_overlap, budget // 2))


def _predict(model: PairScorer, flat: list[tuple[str, str]], cfg: PrecisionConfig) -> list[float]:
    if not flat:
        return []
    out = model.predict(flat, batch_size=cfg.batch_size, show_progress_bar=False)
    return [min(1.0, max(0.0, float(x))) for x in out]


@dataclass
class _Slots:
    """Where one pair's chunks sit in the flat predict batch: against the whole request
    and, when the request excludes something, against what it asks for (``core``)."""

    full: slice | None
    core: slice | None = None
    core_query: str = ""


def _pair_score(
    pair: tuple[str, str],
    raw: list[float],
    slots: _Slots,
    cfg: PrecisionConfig,
    elapsed_ms: float,
) -> TrackScore:
    if slots.full is None:
        return TrackScore(
            name=TRACK,
            score=0.0,
            details={"model_score": 0.0, "chunks": 0},
            reasons=["content is empty: nothing answers the query"],
            elapsed_ms=elapsed_ms,
        )
    model_score, chunks = max(raw[slots.full]), slots.full.stop - slots.full.start
    best = f", best of {chunks} chunks" if chunks > 1 else ""
    details: dict[str, Any] = {"model_score": round(model_score, 4), "chunks": chunks}
    reasons = [f"answer fits the request {model_score:.2f} (cross-encoder{best})"]
    score = model_score
    if slots.core is not None:
        core_score = max(raw[slots.core])
        details.update(core_query=slots.core_query, core_score=round(core_score, 4))
        reasons.append(f"answer fits what the request asks for {core_score:.2f} (exclusions aside)")
        score = (model_score + core_score) / 2
    if cfg.exclusion_check:
        check = check_exclusions(*pair)
        details.update(excluded=check.excluded, violated=check.violated)
        reasons += check.reasons()
        if check.violated:
            score *= cfg.exclusion_penalty
    return TrackScore(
        name=TRACK, score=score, details=details, reasons=reasons, elapsed_ms=elapsed_ms
    )


def core_query(query: str, cfg: PrecisionConfig) -> str | None:
    """The request without its exclusions, when the track also scores against it."""
    if not (cfg.exclusion_check and cfg.score_without_exclusions):
        return None
    core = strip_exclusions(query)
    return core if core and core != query.strip() else None


def precision_scores(
    model: PairScorer, pairs: list[tuple[str, str]], cfg: PrecisionConfig
) -> list[TrackScore]:
    """Score (query, content) pairs with the cross-encoder, all chunks in one predict call.

    A request that excludes something ("Cookies with no chocolate, please.") is read
    twice when ``score_without_exclusions`` is on: as written, and as what it asks for
    ("Cookies."); the model's two scores are averaged, and the exclusion itself is left
    to the explicit check. The model alone tends to score any answer to an exclusion
    request low, faithful ones included.

    Args:
        model: A one-label CrossEncoder (``predict`` returns sigmoid scores in [0, 1]).
        pairs: (query, content) pairs.
        cfg: The ``precision`` section of the scoring config.
    """
    start = time.perf_counter()
    flat: list[tuple[str, str]] = []
    slots: list[_Slots] = []

    def add(query: str, chunks: list[str]) -> slice:
        flat.extend((query, chunk) for chunk in chunks)
        return slice(len(flat) - len(chunks), len(flat))

    for query, content in pairs:
        if not content.strip():
            slots.append(_Slots(None))
            continue
        chunks = content_chunks(model, query, content, cfg)
        slot = _Slots(add(query, chunks))
        core = core_query(query, cfg)
        if core is not None:
            slot.core, slot.core_query = add(core, content_chunks(model, core, content, cfg)), core
        slots.append(slot)
    raw = _predict(model, flat, cfg)
    share = (time.perf_counter() - start) * 1000 / max(len(pairs), 1)
    return [_pair_score(p, raw, s, cfg, share) for p, s in zip(pairs, slots, strict=True)]

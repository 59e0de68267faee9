"""What a request excludes, what it asks for without the exclusions, and whether an answer
affirms an excluded term (pure text; the class-membership check by embeddings lives in
:mod:`scoregate.scoring.membership`).

"Cookies with no chocolate" excludes ``chocolate`` and asks for "Cookies."; "Here are
cookies made with chocolate chips" affirms it, "no chocolate needed" rules it out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# --- exclusion parsing -----------------------------------------------------------------

_TERM = r"(?P<x>[^.;:!?\n]{1,80}?)"
#: Words that open a new clause, not an excluded thing: "no nuts, I'm allergic",
#: "not a dog, I want a cat", "Not memory foam, it's too hot for me".
_PRONOUNS = frozenset(
    "i i'm i've it it's they they're we we're you you're he she that's my our his their".split()
)
_PRONOUN_ALT = "|".join(sorted(_PRONOUNS, key=len, reverse=True))
_END = (
    r"(?=\s*(?:[.;:!?)\n]|-\s|$|\b(?:but|please|because|since|if|when|while|unless|thanks|so that"
    r"|in it|in the|at all|anymore|either|for (?:me|my|the|a|this|dinner|lunch))\b"
    rf"|,\s*(?:{_PRONOUN_ALT})(?![\w'])"
    # A clause about the answer's form: "without garlic, as a numbered list of 5 steps".
    r"|,\s*(?:as|in|using|formatted|written|under|within|keep(?:ing)?|and\s+(?:keep|make|use"
    r"|write|format|give|put|end|start|begin))\b)"
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
    # Negated preferences: "I'd rather not turn the oven on", "prefer not to fly".
    r"\b(?:rather|prefer(?:ably)?)\s+not\s+(?:to\s+)?",
    r"\b(?:not\s+(?:into|big\s+on|a\s+big\s+fan\s+of)|no\s+interest\s+in|(?:do\s+not|don't)\s+feel\s+like)\s+",
)
_EXCLUSION_RES = tuple(re.compile(cue + _TERM + _END, re.IGNORECASE) for cue in _CUES)
_FREE_RE = re.compile(r"\b(?P<x>[a-z]+)[- ]free\b", re.IGNORECASE)
_OUT_RE = re.compile(r"\b(?:keep|leave)\s+(?P<x>[^.;:!?,\n]{1,40}?)\s+out\b", re.IGNORECASE)
_LEADING = re.compile(
    r"^(?:(?:a|an|the|any|some|all|my|your|our|their|this|that|these|those|kind|kinds|sort"
    r"|type|types|use|using|of|to|be|more|extra|added|going|travelling|traveling|by|getting"
    r"|having|doing|eating|drinking|playing|mentioning|including|adding|mood\s+for|into"
    r"|me|him|us|them)\s+)+",
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
        "any",
    }
)
MAX_TERM_WORDS = 4


#: A verb that opens a dispreferred activity: "turn the oven on" excludes the oven.
_ACTIVITY_VERBS = frozenset(
    "turn use spend go deal cook buy make take eat have get pay wear do hire call install put"
    " switch run ride fly rent book bake fry watch".split()
)
_TRAILING = re.compile(
    r"\s+(?:on|off|up|out|tonight|today|anymore|again|now|this\s+\w+|at\s+all|every\s+\w+|much)$"
)


#: Chat filler that trails an excluded term: "no peanuts pls", "not rodents though".
_CHAT_TAIL = re.compile(
    r"(?:\s+(?:pls|plz|please|lol|though|tho|rn|actually|either|anyway|this\s+year|anymore"
    r"|at\s+all|for\s+it|thanks|thx))+$"
)


def _clean_term(raw: str) -> str | None:
    term = _CHAT_TAIL.sub("", raw.strip(" '\"-").lower())
    words = term.split()
    if len(words) >= 2 and words[0] in _ACTIVITY_VERBS:
        term = _TRAILING.sub("", " ".join(words[1:]))
        term = _TRAILING.sub("", term)
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
#: Sentences of a request (with their end punctuation), as the parsers here read them.
SENTENCES = re.compile(r"[^.!?\n]+[.!?]*")


def exclusion_matches(query: str) -> list[tuple[str, str]]:
    """Each term ``query`` excludes, with the phrase that excluded it, in order found."""
    found: list[tuple[str, str]] = []
    for sentence in SENTENCES.findall(query):
        if _YES_NO.match(sentence):
            continue
        for rx in _EXCLUSION_RES:
            for m in rx.finditer(sentence):
                found += [
                    (t, m.group(0)) for p in _SPLIT.split(m.group("x")) if (t := _clean_term(p))
                ]
        found += [
            (t, m.group(0)) for m in _OUT_RE.finditer(sentence) if (t := _clean_term(m.group("x")))
        ]
        found += [(m.group("x").lower(), m.group(0)) for m in _FREE_RE.finditer(sentence)]
    found = [(_verb_for_adverb(t, phrase), phrase) for t, phrase in found]
    return [
        (t, phrase)
        for t, phrase in found
        if t not in _STOP_TERMS and not t.startswith(("other ", "any other "))
    ]


_ADVERBS = frozenset("anywhere far alone much long late again there here around".split())


#: "I don't want to declaw her": the activity is what is excluded, not its object.
_OBJECT_PRONOUNS = frozenset({"her", "him", "us"})
_PLACE_PREPOSITIONS = ("in ", "on ", "at ", "to ", "around ", "through ", "across ")


def _verb_for_adverb(term: str, phrase: str) -> str:
    """ "don't want to drive anywhere" / "... to drive in Iceland": the verb, not the
    adverb or the place, is what is excluded."""
    if (
        term not in _ADVERBS
        and term not in _OBJECT_PRONOUNS
        and not term.startswith(_PLACE_PREPOSITIONS)
    ):
        return term
    m = re.search(r"\bto\s+(\w+)\s+" + re.escape(term), phrase, re.IGNORECASE)
    return m.group(1).lower() if m else term


def parse_exclusions(query: str) -> list[str]:
    """What ``query`` excludes, as short lower-case terms (e.g. ``["nuts", "dog"]``)."""
    return list(dict.fromkeys(t for t, _ in exclusion_matches(query)))


#: Words that carry no request of their own once an exclusion is cut out of a sentence
#: ("I'm allergic to shellfish." leaves "I'm": the sentence is dropped).
_EMPTY_WORDS = frozenset(
    "i i'm im i'd i'll we we're we'd am is are do does did also really just so but and or"
    " please that"
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
    for sentence in SENTENCES.findall(query):
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
#: Words that negate what follows them (also read by ``membership``).
NEGATORS = frozenset(
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
        # "non-rodent options", "Non-medication ideas" ("non" is its own word here).
        "non",
        # Warnings about an excluded item are not uses of it: "check the label for
        # chicken fat", "hidden gluten", "traces of peanuts".
        "hidden",
        "label",
        "labels",
        "traces",
    }
)
_AFTER_NEGATORS = frozenset(
    {
        "free",
        "not",
        "excluded",
        "omitted",
        "removed",
        "removal",
        "alternative",
        "alternatives",
        "substitute",
        "substitutes",
        "less",
    }
)
_SUFFIXES = ("ly", "ions", "ion", "ive", "ing", "ed", "es", "s", "e")
_FILLER = frozenset({"a", "an", "the", "of", "by", "to", "for", "in", "on", "with", "my"})
NEGATION_WINDOW = 6


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
    return any(t in NEGATORS or t.endswith("n't") for t in before) or any(
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

"""Request analysis: what a request asks for, what it excludes, and the checkable
instructions it implies. The first step of every decision (pure: text in, data out).

>>> a = analyze("A quick pasta recipe without garlic, as a numbered list of 5 steps.")
>>> [e.item for e in a.exclusions]
['garlic']
>>> [(k.check, k.unit, k.value) for k in a.instructions]
[('count', 'numbered', 5), ('list_form', None, 'numbered')]

Instructions found here are *inferred*: the reward track checks them as soft
constraints marked ``inferred`` (``reward.infer_instructions`` turns them off). Only
forms a checker can verify are inferred ("exactly three", "under 50 words", "as a
numbered list", "in JSON", "all lowercase", "no commas", "end with 'Cheers'",
"answer yes or no first", "respond in Spanish", "a title in <<...>>", "a P.S.", ...);
"keep it short" is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scoregate.schemas.constraints import Constraint, Instruction
from scoregate.scoring.exclusions import SENTENCES, exclusion_matches, strip_exclusions
from scoregate.scoring.language import LANGUAGE_CODES

_NUM_WORDS = {
    "a single": 1,
    "single": 1,
    "one": 1,
    "a": 1,
    "an": 1,
    "two": 2,
    "a couple of": 2,
    "a pair of": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "hundred": 100,
    "a hundred": 100,
}
_NUM = r"(?P<n>\d{1,5}|" + "|".join(sorted(_NUM_WORDS, key=len, reverse=True)) + r")"


def _num(text: str) -> int:
    text = text.lower().strip()
    return int(text) if text.isdigit() else _NUM_WORDS[text]


@dataclass(frozen=True)
class Exclusion:
    """One thing the request excludes, and the phrase that excluded it."""

    item: str
    phrase: str


@dataclass(frozen=True)
class RequestAnalysis:
    """What a request asks for (``core_ask``), excludes, and implies about the form."""

    query: str
    core_ask: str
    exclusions: tuple[Exclusion, ...] = ()
    instructions: tuple[Instruction, ...] = ()
    #: The separate things the request asks, when it asks more than one ("when should I
    #: go, and what should I pack?"); empty for a single ask.
    asks: tuple[str, ...] = ()

    @property
    def excluded(self) -> list[str]:
        return [e.item for e in self.exclusions]

    def to_dict(self) -> dict[str, Any]:
        """The breakdown's ``analysis`` entry (JSON-ready)."""
        return {
            "core_ask": self.core_ask,
            "exclusions": [{"item": e.item, "phrase": e.phrase} for e in self.exclusions],
            "instructions": [
                k.model_dump(exclude_defaults=True, exclude={"inferred"}) for k in self.instructions
            ],
            "asks": list(self.asks),
        }


# --- relations --------------------------------------------------------------------------------

_AT_LEAST = r"(?:at\s+least|no\s+(?:less|fewer)\s+than|a\s+minimum\s+of|minimum(?:\s+of)?|min\.?)"
_AT_MOST = (
    r"(?:at\s+most|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|maximum(?:\s+of)?|max\.?"
    r"|up\s+to|under|within|below|no\s+longer\s+than|not\s+exceeding|not\s+over)"
)
_LESS = r"(?:less\s+than|fewer\s+than)"
_MORE = r"(?:more\s+than|over)"
_EXACT = r"(?:exactly|precisely|just|only)"
_REL = rf"(?P<rel>{_AT_LEAST}|{_AT_MOST}|{_LESS}|{_MORE}|{_EXACT})"
_TAIL_MOST = r"(?:\s+(?:or\s+(?:less|fewer)|max(?:imum)?|tops|at\s+most|or\s+under))"
_TAIL_LEAST = r"(?:\s+(?:or\s+more|minimum|at\s+least))"


def _relation(rel: str | None, tail: str | None, n: int) -> tuple[str, int]:
    rel = (rel or "").lower()
    tail = (tail or "").lower()
    if re.fullmatch(_LESS, rel):
        return "at_most", max(n - 1, 0)
    if re.fullmatch(_MORE, rel):
        return "at_least", n + 1
    if re.fullmatch(_AT_LEAST, rel) or re.fullmatch(_TAIL_LEAST.strip(), tail.strip() or "-"):
        return "at_least", n
    if re.fullmatch(_AT_MOST, rel) or re.fullmatch(_TAIL_MOST.strip(), tail.strip() or "-"):
        return "at_most", n
    return "exactly", n


_UNIT_WORDS: dict[str, str] = {
    "words?": "words",
    "sentences?": "sentences",
    "paragraphs?": "paragraphs",
    "(?:bullet(?:ed)?\\s+points?|bullets?|bulleted\\s+items?)": "bullets",
    "lines?": "lines",
    "highlighted\\s+sections?": "highlights",
    "placeholders?": "placeholders",
}

#: Plural nouns that name the items of a list the request asks for ("5 ideas").
_ITEM_NOUNS = (
    r"ideas|tips|ways|options|names|questions|examples|reasons|steps|items|things|suggestions"
    r"|places|recipes|books|movies|films|songs|activities|exercises|points|facts|meals|dishes"
    r"|gifts|destinations|titles|slogans|taglines|alternatives|strategies|habits|stops|games"
    r"|snacks|apps|tools|resources|podcasts|shows|hobbies|jokes|quotes|prompts|topics|bullets"
    r"|headlines|takeaways|benefits|pros|cons|mistakes|rules|sites|websites|restaurants|cities"
    r"|countries|plants|breeds|exercises|stretches|drills|sources|key\s+points|action\s+items"
    r"|day\s+trips|hikes|trails|attractions|sights|neighbou?rhoods|recommendations|picks"
)
_LIST_VERBS = (
    r"(?:give|list|suggest|name|share|provide|recommend|write|need|want|brainstorm|pick|offer"
    r"|propose|come\s+up\s+with|send|show|tell|get|draft|outline|top|with|me|i'd\s+like|into)"
)


# --- the rules ----------------------------------------------------------------------------------

Rule = Callable[[str, str], Iterator[Instruction]]
_RULES: list[Rule] = []


def _rule(fn: Rule) -> Rule:
    _RULES.append(fn)
    return fn


def _make(check: str, phrase: str, **kw: Any) -> Instruction:
    return Instruction(check=check, inferred=True, phrase=phrase.strip()[:500], **kw)


@_rule
def _counts(q: str, low: str) -> Iterator[Instruction]:
    for unit_rx, unit in _UNIT_WORDS.items():
        head = (
            rf"\b{_REL}?\s*{_NUM}(?:\s*-\s*|\s+)(?:\w+\s+)?{unit_rx}\b"
            rf"(?P<tail>{_TAIL_MOST}|{_TAIL_LEAST})?"
        )
        for m in re.finditer(head, low):
            n = _num(m.group("n"))
            rel, value = _relation(m.group("rel"), m.group("tail"), n)
            if m.group("n") in ("a", "an") and unit not in ("sentences", "paragraphs"):
                continue  # "a word", "a line": not a count
            if unit in ("words", "lines") and rel == "exactly" and not m.group("rel"):
                # "in 50 words" reads as at most 50; a bare "300-word essay" is a target
                # nobody counts exactly, so it is not inferred.
                if re.search(
                    rf"\bin\s+{re.escape(m.group('n'))}\s", low[max(0, m.start() - 4) : m.end()]
                ):
                    rel, value = "at_most", n
                else:
                    continue
            sep = "***" if unit == "paragraphs" and re.search(r"\*\s?\*\s?\*", q) else None
            yield _make("count", m.group(0), unit=unit, relation=rel, value=value, separator=sep)
    for m in re.finditer(rf"\bword\s+(?:limit|count)\s+of\s+{_NUM}", low):
        yield _make("count", m.group(0), unit="words", relation="at_most", value=_num(m.group("n")))
    for m in re.finditer(
        r"\b(?:in\s+|as\s+|with\s+|using\s+)?(?:one|a\s+single|1)\s+sentence\b", low
    ):
        if not re.search(r"\b(?:each|per|every)\s+\w*\s*$", low[: m.start()]) and not re.search(
            r"^\s*(?:each|per|for|summar|about|that)", low[m.end() :]
        ):
            yield _make("count", m.group(0), unit="sentences", relation="exactly", value=1)
    for m in re.finditer(r"\b(?:in\s+|as\s+)?(?:one|a\s+single)\s+paragraph\b", low):
        if not re.search(r"^\s*(?:each|per|for)", low[m.end() :]):
            yield _make("count", m.group(0), unit="paragraphs", relation="exactly", value=1)
    for m in re.finditer(
        r"\b(?:in\s+|answer\s+in\s+|reply\s+in\s+)(?:one|a\s+single)\s+word\b", low
    ):
        yield _make("count", m.group(0), unit="words", relation="exactly", value=1)


@_rule
def _paragraph_separators(q: str, low: str) -> Iterator[Instruction]:
    m = re.search(
        r"(?:separated|separate|divided|split)\s+(?:\w+\s+){0,6}?(?:by|with)\s+(?:the\s+)?(?:markdown\s+divider\s*:?\s*)?(\*\s?\*\s?\*)",
        low,
    )
    if m and "paragraph" in low:
        n = re.search(rf"{_REL}?\s*{_NUM}\s+paragraphs?", low)
        if n:
            rel, value = _relation(n.group("rel"), None, _num(n.group("n")))
            yield _make(
                "count", n.group(0), unit="paragraphs", relation=rel, value=value, separator="***"
            )
    for m in re.finditer(
        rf"paragraph\s+(?:{_NUM}|(?P<ord>first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th))"
        r"\s+(?:must|should|has\s+to|needs\s+to)\s+(?:start|begin)\s+with\s+(?:the\s+word\s+)?[\"'“]?(?P<w>\w[\w-]*)",
        low,
    ):
        ordinals = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}
        raw = m.group("ord") or m.group("n")
        idx = ordinals.get(raw, None) or int(re.sub(r"\D", "", raw) or _num(raw))
        sep = "***" if "***" in q or "* * *" in q else None
        word = q[m.start("w") : m.end("w")]
        yield _make("paragraph_first_word", m.group(0), value=word, index=idx, separator=sep)


@_rule
def _lists(q: str, low: str) -> Iterator[Instruction]:
    numbered = re.search(
        r"\bnumbered\s+(?:list|steps|points|items)\b|\bnumber\s+(?:them|each|the\s+steps)\b", low
    )
    if numbered:
        yield _make("list_form", numbered.group(0), value="numbered")
    bulleted = re.search(
        r"\b(?:in|as|with|use|using)\s+(?:a\s+)?(?:markdown\s+)?(?:bullet(?:ed)?\s*(?:points?|list|form)|bullets)\b"
        r"|\bbullet(?:ed)?[- ](?:point\s+)?list\b",
        low,
    )
    if bulleted and not numbered:
        yield _make("list_form", bulleted.group(0), value="bulleted")
    rx = (
        rf"\b{_LIST_VERBS}\s+(?:me\s+|us\s+|the\s+)?(?:{_REL}\s+)?{_NUM}\s+"
        rf"(?:[\w'-]+\s+){{0,3}}?(?:{_ITEM_NOUNS})\b"
    )
    explicit = (
        rf"\b{_LIST_VERBS}\s+(?:me\s+|us\s+|the\s+)?"
        rf"(?P<rel>exactly|at\s+least|at\s+most|no\s+more\s+than)"
        rf"\s+{_NUM}\s+(?:[\w'-]+\s+){{0,2}}?[a-z]{{3,}}s\b"
    )
    matches = list(re.finditer(rx, low)) or list(re.finditer(explicit, low))
    for m in matches:
        if m.group("n") in ("a", "an", "single", "a single"):
            continue
        n = _num(m.group("n"))
        if n < 2 or n > 50:
            continue
        rel, value = _relation(m.group("rel"), None, n)
        unit = "numbered" if numbered else "items"
        yield _make("count", m.group(0), unit=unit, relation=rel, value=value)


def _patterns(*pairs: tuple[str, str]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((value, re.compile(rx)) for value, rx in pairs)


#: The format a request asks for, by the words that ask for it (first match of each).
_FORMATS = _patterns(
    (
        "json",
        r"\b(?:in|as|into|using|use|valid|return|output|wrap\w*\s+(?:\w+\s+){0,4}in)\s+"
        r"(?:a\s+|an\s+|the\s+)?(?:valid\s+)?json\b(?!\s+file\s+(?:called|named))"
        r"|\bjson\s+(?:format|object|only)\b",
    ),
    ("yaml", r"\b(?:in|as|into|valid)\s+(?:a\s+)?yaml\b|\byaml\s+format\b"),
    (
        "code_block",
        r"\b(?:in|inside|within|as|use)\s+(?:a\s+)?(?:fenced\s+|markdown\s+)?code\s*block\b",
    ),
    (
        "table",
        r"\b(?:in|as|into|using)\s+(?:a\s+)?(?:markdown\s+)?table\b|\btable\s+format\b"
        r"|\bmarkdown\s+table\b",
    ),
)
#: All lowercase or all capitals; the first that matches wins.
_CASES = _patterns(
    (
        "lowercase",
        r"\ball\s+(?:in\s+)?lower\s*-?case\b|\bin\s+lower\s*-?case\b"
        r"|\blower\s*-?case\s+(?:letters\s+)?only\b|\bno\s+capital\s+letters\b"
        r"|\bonly\s+lower\s*-?case\b",
    ),
    (
        "uppercase",
        r"\ball\s+caps\b|\ball\s+(?:in\s+)?capital(?:s|\s+letters)\b"
        r"|\bin\s+(?:all\s+)?(?:upper\s*-?case|capitals|caps)\b|\ball\s+upper\s*-?case\b"
        r"|\bcapital\s+letters\s+only\b",
    ),
)
_CAPITAL_WORD_COUNT = re.compile(r"words?\s+(?:with|in)\s+all\s+capital")


@_rule
def _formats(q: str, low: str) -> Iterator[Instruction]:
    for value, rx in _FORMATS:
        if m := rx.search(low):
            yield _make("format", m.group(0), value=value)


@_rule
def _cases(q: str, low: str) -> Iterator[Instruction]:
    if _CAPITAL_WORD_COUNT.search(low):
        low = _CAPITAL_WORD_COUNT.sub(" ", low)  # "words in all capital letters ... N times"
    for value, rx in _CASES:
        if m := rx.search(low):
            yield _make("case", m.group(0), value=value)
            return


_CHAR_WORDS = {
    "commas?": ",",
    "exclamation\\s+(?:marks?|points?)": "!",
    "semicolons?": ";",
    "question\\s+marks?": "?",
    "hashtags?": "#",
    "em[- ]?dashes": "—",
}


@_rule
def _chars(q: str, low: str) -> Iterator[Instruction]:
    for words, char in _CHAR_WORDS.items():
        m = re.search(
            rf"\b(?:no|without(?:\s+(?:any|using))?|refrain\s+from\s+(?:the\s+)?(?:use\s+of\s+|using\s+)?(?:any\s+)?"
            rf"|(?:do\s+not|don't|never)\s+use\s+(?:any\s+)?|avoid(?:ing)?\s+(?:any\s+)?|zero)\s*{words}\b",
            low,
        )
        if m:
            yield _make("forbidden_chars", m.group(0), value=char)


_QUOTED = r"[\"“'‘](?P<v>[^\"”'’\n]{1,150})[\"”'’]"


def _quoted_list(text: str) -> list[str]:
    return [m.group("v").strip() for m in re.finditer(_QUOTED, text) if m.group("v").strip()]


def _word_list(q: str, m: re.Match[str], max_words: int) -> list[str]:
    """The words a keyword instruction names: quoted ones, else a short list after it."""
    words = _quoted_list(q[m.start("rest") : m.end("rest")])
    if words:
        return words[:10]
    rest = m.group("rest").split(" in ")[0]
    split = (w.strip(" .") for w in re.split(r",\s*|\s+and\s+|\s+or\s+", rest))
    return [w for w in split if 0 < len(w.split()) <= max_words][:10]


#: A count as words say it: "3", "three", "twice".
_COUNT = rf"(?P<n>\d+|once|twice|thrice|{'|'.join(_NUM_WORDS)})"


@_rule
def _keywords(q: str, low: str) -> Iterator[Instruction]:
    m = re.search(
        r"\b(?:include|use|mention|contain|incorporate|feature|have)\s+(?:the\s+)?(?:key\s*)?words?\s+(?P<rest>[^.\n]{1,200})",
        low,
    )
    if m and not re.search(
        r"\b(?:at\s+least|less\s+than|fewer|times|no\s+more)\b", m.group("rest")
    ):
        words = _word_list(q, m, max_words=2)
        if words and not re.search(
            r"\b(?:do\s+not|don't|never|avoid|without)\s+$", low[max(0, m.start() - 12) : m.start()]
        ):
            yield _make("keywords", m.group(0), value=words)
    m = re.search(
        r"\b(?:do\s+not|don't|never|avoid|without|refrain\s+from)\s+(?:include|includ\w+|us\w+|mention\w*|say\w*|the\s+use\s+of)\s+"
        r"(?:the\s+|any\s+of\s+the\s+)?(?:key\s*)?words?\s+(?P<rest>[^.\n]{1,200})",
        low,
    )
    if m and (words := _word_list(q, m, max_words=1)):
        yield _make("forbidden_words", m.group(0), value=words)
    freq = (
        rf"\b(?:the\s+)?(?:word|keyword)\s+(?:{_QUOTED}|(?P<w>[\w'-]+))\s+(?:should|must|has\s+to|needs\s+to)?\s*"
        rf"(?:appear|be\s+used|occur|show\s+up)\s+{_REL}?\s*{_COUNT}\s*(?:times?)?"
    )
    for m in re.finditer(freq, low):
        word = (m.group("v") or m.group("w") or "").strip()
        yield _freq("word_frequency", m, word, q)
    use = (
        rf"\b(?:use|mention|say|repeat|include)\s+(?:the\s+word\s+)?(?:{_QUOTED}|(?P<w>[\w'-]+))\s+"
        rf"{_REL}?\s*{_COUNT}\s*(?:times?)?(?=\W|$)"
    )
    for m in re.finditer(use, low):
        word = (m.group("v") or m.group("w") or "").strip()
        if m.group("rel") or m.group("n") in ("twice", "thrice") or "time" in m.group(0):
            yield _freq("word_frequency", m, word, q)
    for m in re.finditer(
        rf"\bletter\s+[\"'“]?(?P<w>[a-z])[\"'”]?\s+(?:should|must)?\s*(?:appear|be\s+used|occur)\s+{_REL}?\s*{_COUNT}",
        low,
    ):
        yield _freq("letter_frequency", m, m.group("w"), q)
    for m in re.finditer(
        rf"words?\s+(?:with|in)\s+all\s+capital\s+letters\s+(?:should|must)?\s*(?:appear|be\s+used)\s+{_REL}?\s*{_COUNT}",
        low,
    ):
        n = _count_word(m.group("n"))
        rel, value = _relation(m.group("rel"), None, n)
        yield _make("capital_words", m.group(0), relation=rel, count=value)


def _count_word(text: str) -> int:
    return {"once": 1, "twice": 2, "thrice": 3}.get(text) or _num(text)


def _freq(check: str, m: re.Match[str], word: str, q: str) -> Instruction:
    n = _count_word(m.group("n"))
    rel, value = _relation(m.group("rel"), None, n)
    if not m.group("rel"):
        rel = "at_least"  # "use the word 'river' twice": at least, as people mean it
    return _make(check, m.group(0), value=word, relation=rel, count=value)


@_rule
def _markers(q: str, low: str) -> Iterator[Instruction]:
    m = re.search(
        r"\bwrap\w*\s+(?:your\s+|the\s+)?(?:entire\s+|whole\s+)?(?:response|reply|answer|output)\s+(?:with|in)\s+double\s+quot",
        low,
    ) or re.search(
        r"\b(?:entire|whole)\s+(?:response|reply|answer)\s+(?:\w+\s+){0,3}in\s+double\s+quot", low
    )
    if m:
        yield _make("quoted", m.group(0))
    m = re.search(r"\btitle[^.\n]{0,40}(?:double\s+angular\s+brackets|<<)", low)
    if m:
        yield _make("title", m.group(0))
    m = re.search(r"\b(?:post\s*script|p\.\s?p\.\s?s|p\.\s?s\.?)(?=\W|$)", low)
    if m:
        marker = "P.P.S" if re.search(r"p\.\s?p\.\s?s", low) else "P.S."
        yield _make("postscript", m.group(0), value=marker)
    m = re.search(
        rf"\bhighlight\w*\s+{_REL}?\s*{_NUM}\s+(?:\w+\s+)?(?:sections?|parts?|phrases?)", low
    )
    if m:
        rel, value = _relation(m.group("rel") or "at least", None, _num(m.group("n")))
        yield _make("count", m.group(0), unit="highlights", relation=rel, value=value)
    counted = re.search(rf"\b{_REL}?\s*{_NUM}\s+placeholders?", low)  # _counts reads those
    if not counted and re.search(r"\bplaceholders?\b[^.\n]{0,60}square\s+brackets", low):
        yield _make(
            "count",
            "placeholders in square brackets",
            unit="placeholders",
            relation="at_least",
            value=1,
        )
    m = re.search(
        rf"\b(?:has|have|contain|with|in)\s+{_NUM}\s+sections?[^\n]{{0,80}}?(?:mark|begin|start)\w*[^.\n]{{0,60}}?(?:with|by)\s+[\"'“]?(?P<mk>[A-Za-z]+)\s+(?:x|n|\d|\{{)",
        low,
    )
    if m:
        marker = q[m.start("mk") : m.end("mk")]
        yield _make(
            "count",
            m.group(0),
            unit="sections",
            relation="exactly",
            value=_num(m.group("n")),
            separator=marker,
        )
    m = re.search(r"\brepeat\s+the\s+(?:request|question|prompt)\s+word\s+for\s+word", low)
    if m:
        body = re.split(
            r"(?i)\bfirst,?\s+repeat\s+the|\brepeat\s+the\s+(?:request|question|prompt)", q
        )[0].strip()
        if body:
            yield _make("repeat_prompt", m.group(0), value=body)
    m = re.search(
        r"\b(?:give|provide|write)\s+two\s+different\s+(?:responses|answers|versions)", low
    )
    if m and "******" in q:
        yield _make("two_responses", m.group(0))


@_rule
def _first_and_last(q: str, low: str) -> Iterator[Instruction]:
    yn = re.search(
        r"\b(?:answer|reply|respond|start|begin|lead|open)\w*\s+(?:\w+\s+){0,4}?(?:with\s+)?(?:a\s+)?(?:simple\s+|clear\s+)?"
        r"[\"'“]?yes[\"'”]?\s+or\s+[\"'“]?no[\"'”]?\s*(?:first|up\s+front|before|then|at\s+the\s+start|,|\.|$)"
        r"|\byes\s+or\s+no\s+(?:first|up\s+front|answer\s+first)\b|\bstart\s+with\s+(?:a\s+)?yes\s+or\s+no\b",
        low,
    )
    if yn:
        yield _make("yes_no_first", yn.group(0))
    choice = re.search(
        r"\banswer\s+with\s+one\s+of\s+the\s+following\s+options?\s*:?(?P<rest>[^\n]{1,300})", low
    )
    if choice:
        options = _quoted_list(q[choice.start("rest") : choice.end("rest")])
        if len(options) >= 2:
            yield _make("answer_choice", choice.group(0), value=options[:10])
    start = re.search(
        r"\b(?:start|begin|open)\w*\s+(?:your\s+|the\s+)?(?:reply|response|answer|email|message|letter|note|post|it)?\s*"
        r"(?:with|by\s+saying)\s+(?:the\s+(?:word|phrase)\s+)?" + _QUOTED,
        low,
    )
    if start and re.search(r"paragraph", low[max(0, start.start() - 40) : start.start()]):
        start = None  # "paragraph 2 must start with ...": a paragraph_first_word instruction
    if start and not yn:
        yield _make("starts_with", start.group(0), value=q[start.start("v") : start.end("v")])
    else:
        word = re.search(
            r"\b(?:start|begin)\w*\s+(?:your\s+|the\s+)?(?:reply|response|answer|email|message|letter)\s+with\s+the\s+word\s+(?P<w>[\w'-]+)",
            low,
        )
        if word:
            yield _make("starts_with", word.group(0), value=q[word.start("w") : word.end("w")])
    end = re.search(
        r"\b(?:end|finish|close|conclude|sign\s+(?:it\s+)?off|wrap\s+up)\w*\s+(?:your\s+|the\s+)?(?:reply|response|answer|email|message|letter|note|post|it)?\s*"
        r"(?:with|by\s+saying)\s+(?:this\s+exact\s+phrase|the\s+(?:exact\s+)?(?:word|phrase|line|question)|exactly)?\s*:?\s*"
        + _QUOTED,
        low,
    )
    if end:
        yield _make("ends_with", end.group(0), value=q[end.start("v") : end.end("v")])


_LANG_NAMES = "|".join(sorted((re.escape(n) for n in LANGUAGE_CODES), key=len, reverse=True))


@_rule
def _language(q: str, low: str) -> Iterator[Instruction]:
    m = re.search(
        rf"\b(?:respond|reply|answer|write|written|response|output|text|translate\w*|explain|say|tell|"
        rf"email|message|it|everything|entirely|only|language|must\s+be|should\s+be)\b[^.\n]{{0,40}}?\bin\s+(?P<lang>{_LANG_NAMES})\b"
        rf"(?!\s+(?:cuisine|food|restaurant|style|history|culture|class|lessons?|course|wines?|words?|phrases?|names?))",
        low,
    )
    if m is None:
        m = re.search(
            rf"\b(?:in|into)\s+(?P<lang>{_LANG_NAMES})\s*(?:please|only|language|,|\.|!|$)", low
        )
    if m:
        code = LANGUAGE_CODES[m.group("lang")]
        if code == "en" and not re.search(r"\b(?:entire|only|language|no\s+other)\b", low):
            return  # "in English" in an English request asks for nothing checkable
        yield _make("language", m.group(0), value=code)


def infer_instructions(query: str) -> list[Instruction]:
    """The checkable instructions ``query`` implies, each once (first phrasing wins)."""
    low = query.lower()
    out: list[Instruction] = []
    seen: set[tuple[Any, ...]] = set()
    for rule in _RULES:
        for k in rule(query, low):
            value = tuple(k.value) if isinstance(k.value, list) else k.value
            key: tuple[Any, ...] = (
                (k.check, k.unit) if k.check == "count" else (k.check, k.unit, value)
            )
            if key not in seen:
                seen.add(key)
                out.append(k)
    units = {k.unit for k in out if k.check == "count"}
    if "numbered" in units or "bullets" in units:
        out = [k for k in out if not (k.check == "count" and k.unit == "items")]
    return out


def _instruction_terms(instructions: Sequence[Instruction]) -> str:
    return " ".join((k.phrase or "").lower() for k in instructions)


#: Diets and conditions that exclude classes of things without saying "no".
_IMPLIED: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(rx, re.IGNORECASE), items)
    for rx, items in (
        (r"\bvegan\b", ("meat", "fish", "dairy", "eggs")),
        (r"\bvegetarian\b", ("meat", "fish")),
        (r"\bpescatarian\b", ("meat",)),
        (r"\blactose[- ]intolerant\b", ("dairy",)),
        (r"\b(?:coeliac|celiac)\b", ("gluten",)),
        (r"\bhalal\b", ("pork", "alcohol")),
        (r"\b(?:i'm|i am|we're|we are)\s+(?:sober|teetotal|not drinking)\b", ("alcohol",)),
    )
)


def _implied_exclusions(query: str) -> Iterator[Exclusion]:
    for rx, items in _IMPLIED:
        m = rx.search(query)
        if m and not re.search(r"\b(?:not|n't|non)[- ]?\s*$", query[: m.start()]):
            for item in items:
                yield Exclusion(item=item, phrase=m.group(0))


#: A sentence that only gives the reason for an exclusion: "My flatmate hates them."
_REASON_ONLY = re.compile(
    r"^\s*(?:my|our|his|her|their|the|i|we|he|she|they)\b[\w' ]{0,40}?\b(?:hates?|can't\s+stand"
    r"|cannot\s+stand|dislikes?|(?:doesn't|don't|does\s+not|do\s+not)\s+(?:like|eat|want)"
    r"|(?:is|are|am)\s+allergic\s+to)\s+(?:it|them|that|those|these)\b[^.!?]*[.!?]*\s*$",
    re.IGNORECASE,
)


def _clean_core(query: str, core: str) -> str:
    """Drop what stripping left of a sentence that only gave a reason ("My partner
    can't stand it." leaves "My partner."): a changed sentence of three words or fewer,
    and sentences that only give the reason ("My flatmate hates them.")."""
    original = {s.strip() for s in SENTENCES.findall(query)}
    kept = [
        s.strip()
        for s in SENTENCES.findall(core)
        if (s.strip() in original or len(s.split()) > 3) and not _REASON_ONLY.match(s)
    ]
    return " ".join(kept) or core


# --- the separate asks of a multi-part request -----------------------------------------

_ASK_WORD = (
    r"(?:what|which|how|where|when|who|whom|whose|why|whether|is|are|was|should|can|could|do"
    r"|does|did|would|will|any|anything)"
)
#: A sentence that asks without a question mark: "Explain X and list Y."
_ASK_VERB = (
    r"(?:tell|explain|give|list|suggest|recommend|describe|compare|show|name|outline"
    r"|summari[sz]e)"
)
_IMPERATIVE = re.compile(rf"^\s*(?:please\s+)?{_ASK_VERB}\b", re.IGNORECASE)
#: Where one ask ends and the next begins inside a sentence: "..., and which one ...",
#: "... and also how ...", "...? Also, what ...".
_ASK_SPLIT = re.compile(
    rf",?\s*\b(?:and(?:\s+also)?|also|plus)\s+(?=(?:{_ASK_WORD}|{_ASK_VERB})\b)", re.IGNORECASE
)
MIN_ASK_WORDS = 3


def split_asks(query: str) -> tuple[str, ...]:
    """The separate asks of ``query`` when it has more than one, else ``()``.

    >>> split_asks("When's the best time to hike in Patagonia, and what should I pack?")
    ("When's the best time to hike in Patagonia", 'what should I pack?')
    """
    asks: list[str] = []
    for sentence in SENTENCES.findall(query):
        s = sentence.strip()
        if not (s.endswith("?") or _IMPERATIVE.match(s)):
            continue
        s = re.sub(r"^(?:also|and|plus)\b[,\s]*", "", s, flags=re.IGNORECASE)
        asks += [p.strip() for p in _ASK_SPLIT.split(s) if len(p.split()) >= MIN_ASK_WORDS]
    return tuple(asks) if len(asks) > 1 else ()


@lru_cache(maxsize=1024)
def analyze(query: str) -> RequestAnalysis:
    """Read ``query``: its core ask, exclusions (with their phrases) and instructions.

    Cached (the result is immutable): the reward track, the precision track and fusion
    all read the same request, often in the same process."""
    instructions = infer_instructions(query)
    covered = _instruction_terms(instructions)
    exclusions: list[Exclusion] = []
    seen: set[str] = set()
    for item, phrase in exclusion_matches(query):
        if item in seen or item in covered or phrase.lower().strip() in covered:
            continue  # "no commas" / "don't use the word X" are instructions, not exclusions
        seen.add(item)
        at = phrase.lower().find(item)
        phrase = phrase[: at + len(item)] if at >= 0 else phrase
        exclusions.append(Exclusion(item=item, phrase=phrase.strip(" ,;-")))
    for e in _implied_exclusions(query):
        if e.item not in seen:
            seen.add(e.item)
            exclusions.append(e)
    core = _clean_core(query, strip_exclusions(query)) if exclusions else query.strip()
    return RequestAnalysis(
        query=query,
        core_ask=core or query.strip(),
        exclusions=tuple(exclusions),
        instructions=tuple(instructions),
        asks=split_asks(query),
    )


def inferred_constraints(query: str, given: Sequence[Constraint] = ()) -> list[Instruction]:
    """The request's inferred instructions, less those the caller already gave as an
    ``instruction`` constraint of the same check (the caller's wins)."""
    mine = {(k.check, k.unit) for k in given if isinstance(k, Instruction)}
    return [k for k in analyze(query).instructions if (k.check, k.unit) not in mine]

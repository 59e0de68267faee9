"""The checkable instructions a request implies, read from its wording.

>>> found = infer_instructions("Give me 3 tips, under 50 words.")
>>> [(k.check, k.unit, k.relation, k.value) for k in found]
[('count', 'words', 'at_most', 50), ('count', 'items', 'exactly', 3)]

Each rule reads one family of phrasings ("exactly three", "under 50 words", "as a
numbered list", "in JSON", "all lowercase", "no commas", "end with 'Cheers'", "answer
yes or no first", "respond in Spanish", "a title in <<...>>", "a P.S.", ...) and yields
:class:`~scoregate.schemas.constraints.Instruction` constraints marked ``inferred``.
Only forms a checker can verify are inferred: "keep it short" is not. Pure: text in,
constraints out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from scoregate.schemas.constraints import Instruction
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
    if re.fullmatch(_AT_LEAST, rel) or re.fullmatch(_TAIL_LEAST, tail or "-"):
        return "at_least", n
    if re.fullmatch(_AT_MOST, rel) or re.fullmatch(_TAIL_MOST, tail or "-"):
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


#: Words before a count that make it a count of a part, not of the whole answer:
#: "each one under 10 words", "then one sentence of advice", "plus 2 sentences".
_PART_BEFORE = re.compile(
    r"\b(?:each|per|every)\b(?:\s+[\w']+){0,2}\s+(?:with\s+|in\s+|of\s+|to\s+|under\s+)?$"
    r"|\b(?:then|plus|followed\s+by|and\s+then|after\s+that|afterwards)\s+(?:explain\w*\s+|add\s+)?"
    r"(?:in\s+|with\s+)?$"
)


def _is_part(low: str, m: re.Match[str]) -> bool:
    """Whether the count ``m`` found is of a part of the answer (see ``_PART_BEFORE``)."""
    start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
    return _PART_BEFORE.search(low[max(0, start - 30) : start]) is not None


@_rule
def _counts(q: str, low: str) -> Iterator[Instruction]:
    for unit_rx, unit in _UNIT_WORDS.items():
        head = (
            rf"\b{_REL}?\s*(?P<low>\d{{1,4}}\s*(?:-|–|to)\s*)?{_NUM}(?:\s*-\s*|\s+)(?:\w+\s+)?"
            rf"(?P<unit>{unit_rx})\b(?P<tail>{_TAIL_MOST}|{_TAIL_LEAST})?"
        )
        for m in re.finditer(head, low):
            n = _num(m.group("n"))
            rel, value = _relation(m.group("rel"), m.group("tail"), n)
            if m.group("low"):
                rel = "at_most"  # "2-3 sentences": at most 3 (at least 2 is rarely the risk)
            if m.group("n") in ("a", "an") and (
                unit not in ("sentences", "paragraphs") or m.group("unit").endswith("s")
            ):
                continue  # "a word", "a line", "a few sentences": not a count
            if _is_part(low, m):
                continue  # "keep each one under 10 words", "then 2 sentences of advice"
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


@_rule
def _single_counts(q: str, low: str) -> Iterator[Instruction]:
    for m in re.finditer(rf"\bword\s+(?:limit|count)\s+of\s+{_NUM}", low):
        yield _make("count", m.group(0), unit="words", relation="at_most", value=_num(m.group("n")))
    for m in re.finditer(
        r"\b(?:in\s+|as\s+|with\s+|using\s+)?(?:one|a\s+single|1)\s+sentence\b", low
    ):
        if not _is_part(low, m) and not re.search(
            r"^\s*(?:each|per|for|summar|about|that|of|on|at\s+the\s+end)", low[m.end() :]
        ):
            yield _make("count", m.group(0), unit="sentences", relation="exactly", value=1)
    for m in re.finditer(r"\b(?:in\s+|as\s+)?(?:one|a\s+single)\s+paragraph\b", low):
        if not re.search(r"^\s*(?:each|per|for)", low[m.end() :]):
            yield _make("count", m.group(0), unit="paragraphs", relation="exactly", value=1)
    for m in re.finditer(
        r"\b(?:in\s+|answer\s+in\s+|reply\s+in\s+)(?:one|a\s+single)\s+word\b", low
    ):
        yield _make("count", m.group(0), unit="words", relation="exactly", value=1)


_ORDINALS = {
    **{w: i for i, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth"), 1)},
    **{w: i for i, w in enumerate(("1st", "2nd", "3rd", "4th", "5th", "6th"), 1)},
}
_ORD = "|".join(_ORDINALS)
#: "paragraph 2 must start with ...", "the second paragraph should begin with the word 'Yet'".
_PARAGRAPH_FIRST_WORD = re.compile(
    rf"(?:paragraph\s+(?:{_NUM}|(?P<ord>{_ORD}))|(?P<ord2>{_ORD})\s+paragraph)"
    r"\s+(?:must|should|has\s+to|needs\s+to|will|is\s+to)?\s*(?:start|begin|open)s?\s+with\s+"
    r"(?:the\s+(?:exact\s+)?word\s+)?[\"'“‘]?(?P<w>\w[\w-]*)"
)


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
    for m in _PARAGRAPH_FIRST_WORD.finditer(low):
        raw = m.group("ord") or m.group("ord2") or m.group("n")
        idx = _ORDINALS.get(raw) or int(re.sub(r"\D", "", raw) or _num(raw))
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
    list_of = (
        rf"\b(?P<form>numbered|bullet(?:ed)?(?:[- ]point)?|ordered)?\s*list\s+of\s+"
        rf"(?:{_REL}\s+)?{_NUM}\s+(?:[\w'-]+\s+){{0,2}}?[a-z]{{3,}}s\b"
    )
    # "Exactly 4 steps, numbered.": a sentence that opens with the count
    opening = (
        rf"(?:^|[.!?;:]\s+)(?P<rel>exactly|at\s+least|at\s+most|no\s+more\s+than)\s+{_NUM}\s+"
        rf"(?:[\w'-]+\s+){{0,2}}?(?:{_ITEM_NOUNS})\b"
    )
    matches = (
        list(re.finditer(list_of, low))
        or list(re.finditer(rx, low))
        or list(re.finditer(explicit, low))
        or list(re.finditer(opening, low))
    )
    for m in matches:
        if m.group("n") in ("a", "an", "single", "a single"):
            continue
        if _is_part(low, m):
            continue  # "a Pros section and a Cons section, each with exactly 2 bullets"
        n = _num(m.group("n"))
        if n < 2 or n > 50:
            continue
        rel, value = _relation(m.group("rel"), None, n)
        form = m.groupdict().get("form") or ""
        unit = "numbered" if numbered else "bullets" if form.startswith("bullet") else "items"
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
        r"|\bonly\s+lower\s*-?case\b|\beverything\s+(?:in\s+)?lower\s*-?case\b|\bno\s+capitals\b"
        r"|\b(?:make|keep|write|put|type)\s+(?:everything|it\s+all|all\s+of\s+it|it|the\s+(?:whole|entire)"
        r"\s+\w+|your\s+(?:whole|entire)\s+\w+)\s+(?:in\s+)?(?:all\s+)?lower\s*-?case\b",
    ),
    (
        "uppercase",
        r"\ball\s+caps\b|\ball\s+(?:in\s+)?capital(?:s|\s+letters)\b"
        r"|\bin\s+(?:all\s+)?(?:upper\s*-?case|capitals|caps)\b|\ball\s+upper\s*-?case\b"
        r"|\bcapital\s+letters\s+only\b"
        r"|(?<!title )(?<!heading )(?<!headline )(?<!name )"
        r"\bin\s+(?:english\s+)?(?:all\s+)?capital\s+letters\b",
    ),
)
#: "words in all capital letters", "words written entirely in capitals", "all-caps words".
_CAPS = r"(?:capital(?:s|\s+letters|ized)?|caps|upper\s*-?case(?:\s+letters)?)"
_CAPS_WORDS = (
    rf"(?:words?\s+(?:that\s+are\s+|written\s+|typed\s+|set\s+)?(?:entirely\s+|fully\s+"
    rf"|completely\s+|all\s+)?(?:with\s+|in\s+)?(?:all\s+)?{_CAPS}|all[- ]caps\s+words?)"
)
_CAPITAL_WORD_COUNT = re.compile(_CAPS_WORDS)


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
            rf"|(?:do\s+not|don't|never)\s+use\s+(?:any\s+|a\s+single\s+)?|avoid(?:ing)?\s+(?:any\s+)?"
            rf"|not\s+(?:a\s+)?(?:single\s+)?|zero)\s*{words}\b|\b{words}[- ]free\b",
            low,
        )
        if m:
            yield _make("forbidden_chars", m.group(0), value=char)


_QUOTED = r"[\"“'‘](?P<v>(?:[^\"”'’\n]|['’](?=[a-z])){1,150})[\"”'’]"


def _quoted_list(text: str) -> list[str]:
    return [m.group("v").strip() for m in re.finditer(_QUOTED, text) if m.group("v").strip()]


def _option_list(text: str) -> list[str]:
    """The quoted options that open ``text`` one after another ("'A', 'B' or 'C'. Then
    ..."): a quote after other words is not an option."""
    out: list[str] = []
    end = 0
    for m in re.finditer(_QUOTED, text):
        if out and not re.fullmatch(r"[\s,;/]*(?:or\s+|and\s+)?", text[end : m.start()]):
            break
        if m.group("v").strip():
            out.append(m.group("v").strip())
        end = m.end()
    return out


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
        r"\b(?:(?:do\s+not|don't|never|without|refrain\s+from)\s+(?:include|includ\w+|us\w+|mention\w*"
        r"|say\w*|writ\w+|the\s+use\s+of)|avoid(?:ing)?(?:\s+(?:using|the\s+use\s+of|saying|mentioning))?)\s+"
        r"(?:the\s+|any\s+of\s+the\s+)?(?:key\s*)?(?:words?|terms?)\s+(?P<rest>[^.\n]{1,200})",
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
        rf"\b(?:use|mention|say|repeat|include)\s+(?:(?:the\s+word\s+)?{_QUOTED}|the\s+word\s+(?P<w>[\w'-]+))\s+"
        rf"{_REL}?\s*{_COUNT}\s*(?:times?)?(?=\W|$)"
    )
    for m in re.finditer(use, low):
        word = (m.group("v") or m.group("w") or "").strip()
        if m.group("rel") or m.group("n") in ("twice", "thrice") or "time" in m.group(0):
            yield _freq("word_frequency", m, word, q)
    for rx in _LETTER_FREQ:
        for m in rx.finditer(low):
            yield _freq("letter_frequency", m, m.group("w"), q)
    for rx in _CAPS_FREQ:
        for m in rx.finditer(low):
            rel, value = _relation(m.group("rel"), None, _count_word(m.group("n")))
            yield _make("capital_words", m.group(0), relation=rel, count=value)


#: "the letter 'z' should appear at least 5 times", "use the letter 'q' at least 4 times".
_LETTER = r"letter\s+[\"'“]?(?P<w>[a-z])[\"'”]?"
_LETTER_FREQ = (
    re.compile(
        rf"\b{_LETTER}\s+(?:should|must|has\s+to|needs\s+to|will)?\s*"
        rf"(?:appears?|be\s+used|is\s+used|occurs?|shows?\s+up)\s+{_REL}?\s*{_COUNT}"
    ),
    re.compile(rf"\b(?:use|include|have)\s+the\s+{_LETTER}\s+{_REL}?\s*{_COUNT}\s*times"),
)
#: "words in all capital letters should appear at least 3 times", "use 4 all-caps words".
_CAPS_FREQ = (
    re.compile(
        rf"{_CAPS_WORDS}\s+(?:for\s+emphasis\s+)?(?:should|must|can|may|need\s+to|has\s+to)?\s*"
        rf"(?:appear|be\s+used|occur|show\s+up)\s+{_REL}?\s*{_COUNT}"
    ),
    re.compile(rf"\b(?:use|include|have|contain|with|add)\s+{_REL}?\s*{_COUNT}\s+{_CAPS_WORDS}"),
)


def _count_word(text: str) -> int:
    return {"once": 1, "twice": 2, "thrice": 3}.get(text) or _num(text)


def _freq(check: str, m: re.Match[str], word: str, q: str) -> Instruction:
    n = _count_word(m.group("n"))
    rel, value = _relation(m.group("rel"), None, n)
    if not m.group("rel"):
        rel = "at_least"  # "use the word 'river' twice": at least, as people mean it
    return _make(check, m.group(0), value=word, relation=rel, count=value)


#: "Wrap your entire response / the whole letter in double quotation marks".
_QUOTED_WHOLE = re.compile(
    r"\b(?:wrap|enclose|put|place|surround)\w*\s+(?:your\s+|the\s+)?(?:entire\s+|whole\s+|full\s+)?"
    r"(?:[\w']+\s+){0,2}?(?:with|in|inside|within|between)\s+(?:a\s+pair\s+of\s+)?double\s+quot"
    r"|\b(?:entire|whole)\s+(?:response|reply|answer|output|text)\s+(?:\w+\s+){0,3}in\s+double\s+quot"
)
#: What a highlight instruction counts: "highlight at least 2 key phrases with markdown".
_HIGHLIGHT = re.compile(
    rf"\bhighlight\w*\s+{_REL}?\s*{_NUM}\s+(?:[\w'-]+\s+){{0,2}}?"
    r"(?P<noun>sections?|parts?|phrases?|words?|lines?|sentences?|tips?|points?|ideas?|terms?"
    r"|clues?|items?|facts?|steps?|names?|takeaways?|[a-z]{3,}s)\b"
)
#: Section markers: "3 sections, marking the start of each with SECTION X".
_SECTION_COUNT = re.compile(
    rf"\b(?:has|have|contain|with|in|into|use)\s+{_REL}?\s*{_NUM}\s+sections?"
)
_SECTION_MARK = re.compile(
    r"\b(?:mark|begin|start|label|head|open|title)\w*\s+(?:the\s+)?(?:beginning\s+|start\s+)?(?:of\s+)?"
    r"(?:each|every)\b[^.\n]{0,40}?\b(?:with|by|as)\s+[\"'“]?(?P<mk>[A-Za-z]+)\s+(?:x|n|\d|\{|#)"
    r"|\bsections?\b[^.\n]{0,60}?(?:mark|begin|start|label)\w*[^.\n]{0,60}?(?:with|by)\s+[\"'“]?"
    r"(?P<mk2>[A-Za-z]+)\s+(?:x|n|\d|\{|#)"
)
_REPEAT = re.compile(
    r"\brepeat\w*\s+(?:this|the|my|your)\s+(?:request|question|prompt|instruction|task)"
    r"(?:\s+(?:above|below))?\s+(?:word\s+for\s+word|verbatim|exactly)"
)
_TWO_RESPONSES = re.compile(
    r"\b(?:give|provide|write|offer|draft|suggest)\s+(?:me\s+|us\s+)?(?:two|2)\s+(?:different|distinct"
    r"|separate|alternative)\s+[\w'-]+"
)
_SIX_ASTERISKS = re.compile(r"\*{6}|\b(?:6|six)\s+asterisk")


@_rule
def _markers(q: str, low: str) -> Iterator[Instruction]:
    if m := _QUOTED_WHOLE.search(low):
        yield _make("quoted", m.group(0))
    if m := re.search(r"\btitle[^.\n]{0,40}(?:double\s+angular\s+brackets|<<)", low):
        yield _make("title", m.group(0))
    if m := re.search(r"\b(?:post\s*script|p\.\s?p\.\s?s|p\.\s?s\.?)(?=\W|$)", low):
        marker = "P.P.S" if re.search(r"p\.\s?p\.\s?s", low) else "P.S."
        yield _make("postscript", m.group(0), value=marker)
    if (m := _HIGHLIGHT.search(low)) and (
        re.search(r"markdown|\*", low) or re.fullmatch(r"sections?|parts?", m.group("noun"))
    ):
        rel, value = _relation(m.group("rel") or "at least", None, _num(m.group("n")))
        yield _make("count", m.group(0), unit="highlights", relation=rel, value=value)
    counted = re.search(rf"\b{_REL}?\s*{_NUM}\s+placeholders?", low)  # _counts reads those
    if not counted and re.search(
        r"\bplaceholders?\b[^.\n]{0,60}square\s+brackets|square[- ]bracket(?:ed)?\s+placeholders?",
        low,
    ):
        phrase = "placeholders in square brackets"
        yield _make("count", phrase, unit="placeholders", relation="at_least", value=1)
    yield from _sections(q, low)
    if m := _REPEAT.search(low):
        opening = max(q.rfind(c, 0, m.start()) for c in ".!?\n")
        body = q[: opening + 1].strip() if opening >= 0 else ""
        if body:
            yield _make("repeat_prompt", m.group(0), value=body)
    if (m := _TWO_RESPONSES.search(low)) and _SIX_ASTERISKS.search(low):
        yield _make("two_responses", m.group(0))


def _sections(q: str, low: str) -> Iterator[Instruction]:
    mark = _SECTION_MARK.search(low)
    if mark is None:
        return
    at = mark.start("mk") if mark.group("mk") else mark.start("mk2")
    marker = q[at : at + len(mark.group("mk") or mark.group("mk2"))]
    count = _SECTION_COUNT.search(low)
    span = re.search(
        rf"\b{re.escape(marker.lower())}\s+1\s+(?:through|to|-|–)\s+(?:\w+\s+)?(\d+)", low
    )
    if count:
        rel, value = _relation(count.group("rel"), None, _num(count.group("n")))
    elif span:
        rel, value = "exactly", int(span.group(1))
    else:
        rel, value = "at_least", 1
    yield _make(
        "count", mark.group(0), unit="sections", relation=rel, value=value, separator=marker
    )


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
        r"\b(?:answer|respond|reply|choose|pick)\s+(?:with\s+)?(?:only\s+)?one\s+of\s+(?:the\s+following|these|"
        r"the|those)\s+(?:options?|answers?|choices|responses?|phrases?)\s*:?(?P<rest>[^\n]{1,300})",
        low,
    )
    if choice:
        options = _option_list(q[choice.start("rest") : choice.end("rest")])
        if len(options) >= 2:
            yield _make("answer_choice", choice.group(0), value=options[:10])
    start = re.search(
        r"\b(?:start|begin|open)\w*\s+(?:your\s+|the\s+|my\s+)?(?:[\w']+\s+){0,2}?"
        r"(?:with|by\s+saying)\s+(?:the\s+(?:exact\s+)?(?:words?|phrase|sentence|line|greeting)\s*:?\s*"
        r"|exactly\s+)?" + _QUOTED,
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
        r"\b(?:end|finish|close|conclude|sign\s+(?:it\s+)?off|wrap\s+up)\w*\s+(?:your\s+|the\s+|my\s+)?"
        r"(?:[\w']+\s+){0,2}?(?:with|by\s+saying)\s+(?:this\s+exact\s+phrase|the\s+(?:exact\s+)?"
        r"(?:words?|phrase|line|question|sentence|sign-?off)|exactly)?\s*:?\s*" + _QUOTED,
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


def instruction_terms(instructions: Sequence[Instruction]) -> str:
    return " ".join((k.phrase or "").lower() for k in instructions)

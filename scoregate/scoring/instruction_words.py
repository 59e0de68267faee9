"""Instruction rules about words and markers: required, banned and counted words and
letters, capital-word counts, quoting, titles, postscripts, highlights, placeholders,
sections, repeating the request, two responses, how the answer opens and ends, and its
language. :mod:`scoregate.scoring.instruction_rules` runs them after the form rules.

Pure: text in, constraints out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.language import (
    ENDONYMS,
    ENGLISH_COMMON,
    LANGUAGE_CODES,
    LANGUAGE_NAMES,
    detect_language,
)
from scoregate.scoring.phrasing import (
    CAPS_WORDS,
    COUNT,
    NUM,
    QUOTED,
    QUOTED_ANY,
    REL,
    Rule,
    count_word,
    frequency,
    make,
    num,
    option_list,
    relation,
    word_list,
)


def _keywords(q: str, low: str) -> Iterator[Instruction]:
    m = re.search(
        r"\b(?:include|use|mention|contain|incorporate|feature|have)\s+(?:the\s+)?(?:key\s*)?words?\s+(?P<rest>[^.\n]{1,200})",
        low,
    )
    if m and not re.search(
        r"\b(?:at\s+least|less\s+than|fewer|times|no\s+more)\b", m.group("rest")
    ):
        words = word_list(q, m, max_words=2)
        if words and not re.search(
            r"\b(?:do\s+not|don't|never|avoid|without)\s+$", low[max(0, m.start() - 12) : m.start()]
        ):
            yield make("keywords", m.group(0), value=words)
    m = re.search(
        r"\b(?:(?:do\s+not|don't|never|without|refrain\s+from)\s+(?:include|includ\w+|us\w+|mention\w*"
        r"|say\w*|writ\w+|the\s+use\s+of)|avoid(?:ing)?(?:\s+(?:using|the\s+use\s+of|saying|mentioning))?)\s+"
        r"(?:the\s+|any\s+of\s+the\s+)?(?:key\s*)?(?:words?|terms?)\s+(?P<rest>[^.\n]{1,200})",
        low,
    )
    if m and (words := word_list(q, m, max_words=1)):
        yield make("forbidden_words", m.group(0), value=words)
    freq = (
        rf"\b(?:the\s+)?(?:word|keyword)\s+(?:{QUOTED}|(?P<w>[\w'-]+))\s+(?:should|must|has\s+to|needs\s+to)?\s*"
        rf"(?:appear|be\s+used|occur|show\s+up)\s+{REL}?\s*{COUNT}\s*(?:times?)?"
    )
    for m in re.finditer(freq, low):
        word = (m.group("v") or m.group("w") or "").strip()
        yield frequency("word_frequency", m, word, q)
    use = (
        rf"\b(?:use|mention|say|repeat|include)\s+(?:(?:the\s+word\s+)?{QUOTED}|the\s+word\s+(?P<w>[\w'-]+))\s+"
        rf"{REL}?\s*{COUNT}\s*(?:times?)?(?=\W|$)"
    )
    for m in re.finditer(use, low):
        word = (m.group("v") or m.group("w") or "").strip()
        if m.group("rel") or m.group("n") in ("twice", "thrice") or "time" in m.group(0):
            yield frequency("word_frequency", m, word, q)
    for rx in _LETTER_FREQ:
        for m in rx.finditer(low):
            yield frequency("letter_frequency", m, m.group("w"), q)
    if m := _LETTER_BANNED.search(low):
        yield make("letter_frequency", m.group(0), value=m.group("w"), relation="at_most", count=0)
    for rx in _CAPS_FREQ:
        for m in rx.finditer(low):
            rel, value = relation(m.group("rel"), None, count_word(m.group("n")))
            yield make("capital_words", m.group(0), relation=rel, count=value)


#: "the letter 'z' should appear at least 5 times", "use the letter 'q' at least 4 times".
_LETTER = r"letter\s+[\"'“]?(?P<w>[a-z])[\"'”]?"
_LETTER_FREQ = (
    re.compile(
        rf"\b{_LETTER}\s+(?:should|must|has\s+to|needs\s+to|will)?\s*"
        rf"(?:appears?|be\s+used|is\s+used|occurs?|shows?\s+up)\s+{REL}?\s*{COUNT}"
    ),
    re.compile(rf"\bthe\s+{_LETTER}\s+{REL}?\s*{COUNT}\s*times"),
)
#: A lipogram: "without using the letter e", "never use the letter 'a'".
_LETTER_BANNED = re.compile(
    rf"\b(?:without(?:\s+using)?|never\s+us\w+|(?:do\s+not|don't)\s+use|avoid(?:ing)?(?:\s+using)?"
    rf"|no)\s+(?:the\s+|a\s+single\s+|any\s+)?{_LETTER}"
)
#: "words in all capital letters should appear at least 3 times", "use 4 all-caps words".
_CAPS_FREQ = (
    re.compile(
        rf"{CAPS_WORDS}\s+(?:for\s+emphasis\s+)?(?:should|must|can|may|need\s+to|has\s+to)?\s*"
        rf"(?:appear|be\s+used|occur|show\s+up)\s+{REL}?\s*{COUNT}"
    ),
    re.compile(rf"\b(?:use|include|have|contain|with|add)\s+{REL}?\s*{COUNT}\s+{CAPS_WORDS}"),
)


#: "Wrap your entire response / the whole letter in double quotation marks".
_QUOTED_WHOLE = re.compile(
    r"\b(?:wrap|enclose|put|place|surround)\w*\s+(?:your\s+|the\s+)?(?:entire\s+|whole\s+|full\s+)?"
    r"(?:[\w']+\s+){0,2}?(?:with|in|inside|within|between)\s+(?:a\s+pair\s+of\s+)?double\s+quot"
    r"|\b(?:entire|whole)\s+(?:response|reply|answer|output|text)\s+(?:\w+\s+){0,3}in\s+double\s+quot"
)
#: What a highlight instruction counts: "highlight at least 2 key phrases with markdown".
_HIGHLIGHT = re.compile(
    rf"\bhighlight\w*\s+{REL}?\s*{NUM}\s+(?:[\w'-]+\s+){{0,2}}?"
    r"(?P<noun>sections?|parts?|phrases?|words?|lines?|sentences?|tips?|points?|ideas?|terms?"
    r"|clues?|items?|facts?|steps?|names?|takeaways?|[a-z]{3,}s)\b"
)
#: Section markers: "3 sections, marking the start of each with SECTION X".
_SECTION_NOUN = r"(?:sections?|parts?|chapters?)"
_SECTION_COUNT = re.compile(
    rf"\b(?:has|have|contain|with|in|into|use)\s+{REL}?\s*{NUM}\s+{_SECTION_NOUN}"
)
_SECTION_MARK = re.compile(
    r"\b(?:mark|begin|start|label|head|open|title)\w*\s+(?:the\s+)?(?:beginning\s+|start\s+)?(?:of\s+)?"
    r"(?:each|every)\b[^.\n]{0,40}?\b(?:with|by|as)\s+[\"'“]?(?P<mk>[A-Za-z]+)\s+(?:x|n|\d|\{|#)"
    r"|\bsections?\b[^.\n]{0,60}?(?:mark|begin|start|label)\w*[^.\n]{0,60}?(?:with|by)\s+[\"'“]?"
    r"(?P<mk2>[A-Za-z]+)\s+(?:x|n|\d|\{|#)"
    # "3 parts labelled Part 1, Part 2 and Part 3", "sections titled SECTION 1 ..."
    rf"|\b{_SECTION_NOUN}\s+(?:labell?ed|titled|headed|named|marked|called)\s+[\"'“]?"
    r"(?P<mk3>[A-Za-z]+)\s+(?:x|n|1|i|\{|#)\b"
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


def _markers(q: str, low: str) -> Iterator[Instruction]:
    if m := _QUOTED_WHOLE.search(low):
        yield make("quoted", m.group(0))
    if m := re.search(r"\btitle[^.\n]{0,40}(?:double\s+angular\s+brackets|<<)", low):
        yield make("title", m.group(0))
    if m := re.search(r"\b(?:post\s*script|p\.\s?p\.\s?s|p\.\s?s\.?)(?=\W|$)", low):
        marker = "P.P.S" if re.search(r"p\.\s?p\.\s?s", low) else "P.S."
        yield make("postscript", m.group(0), value=marker)
    if (m := _HIGHLIGHT.search(low)) and (
        re.search(r"markdown|\*", low) or re.fullmatch(r"sections?|parts?", m.group("noun"))
    ):
        rel, value = relation(m.group("rel") or "at least", None, num(m.group("n")))
        yield make("count", m.group(0), unit="highlights", relation=rel, value=value)
    counted = re.search(rf"\b{REL}?\s*{NUM}\s+placeholders?", low)  # _counts reads those
    if not counted and re.search(
        r"\bplaceholders?\b[^.\n]{0,60}square\s+brackets|square[- ]bracket(?:ed)?\s+placeholders?",
        low,
    ):
        phrase = "placeholders in square brackets"
        yield make("count", phrase, unit="placeholders", relation="at_least", value=1)
    yield from _sections(q, low)
    if (m := _REPEAT.search(low)) and (body := _request_to_repeat(q, low, m)):
        yield make("repeat_prompt", m.group(0), value=body)
    if (m := _TWO_RESPONSES.search(low)) and _SIX_ASTERISKS.search(low):
        yield make("two_responses", m.group(0))


#: "... The request: List three benefits of ...": the request to repeat, labelled.
_LABELLED_REQUEST = re.compile(
    r"(?:^|\n|[.!?]\s+)(?:the\s+|my\s+)?(?:request|prompt|question|task)\s*:\s*(?P<body>\S.*)$",
    re.DOTALL | re.IGNORECASE,
)


def _sentence_end(text: str, start: int) -> int:
    """Where the sentence running at ``start`` ends (after its stop), brackets skipped."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        depth += c in "([" and 1 or 0
        depth -= c in ")]" and depth > 0 and 1 or 0
        if depth == 0 and c in ".!?" and (i + 1 == len(text) or text[i + 1].isspace()):
            return i + 1
    return len(text)


def _request_to_repeat(q: str, low: str, m: re.Match[str]) -> str:
    """The part of ``q`` that the instruction ``m`` asks to be repeated: a labelled
    request ("The request: ..."), the text after the instruction when it says "below" or
    opens the message, else the text before the instruction's sentence."""
    if labelled := _LABELLED_REQUEST.search(q, m.end()):
        return labelled.group("body").strip()
    opening = max(q.rfind(c, 0, m.start()) for c in ".!?\n")
    before = q[: opening + 1].strip() if opening >= 0 else ""
    if before and "below" not in m.group(0):
        return before
    return q[_sentence_end(q, m.end()) :].strip()


def _sections(q: str, low: str) -> Iterator[Instruction]:
    mark = _SECTION_MARK.search(low)
    if mark is None:
        return
    group = next(g for g in ("mk", "mk2", "mk3") if mark.group(g))
    marker = q[mark.start(group) : mark.end(group)]
    count = _SECTION_COUNT.search(low)
    span = re.search(
        rf"\b{re.escape(marker.lower())}\s+1\s+(?:through|to|-|–)\s+(?:\w+\s+)?(\d+)", low
    )
    if count:
        rel, value = relation(count.group("rel"), None, num(count.group("n")))
    elif span:
        rel, value = "exactly", int(span.group(1))
    else:
        rel, value = "at_least", 1
    yield make("count", mark.group(0), unit="sections", relation=rel, value=value, separator=marker)


def _first_and_last(q: str, low: str) -> Iterator[Instruction]:
    yn = re.search(
        r"\b(?:answer|reply|respond|start|begin|lead|open)\w*\s+(?:\w+\s+){0,4}?(?:with\s+)?(?:a\s+)?(?:simple\s+|clear\s+)?"
        r"[\"'“]?yes[\"'”]?\s+or\s+[\"'“]?no[\"'”]?\s*(?:first|up\s+front|before|then|at\s+the\s+start|,|\.|$)"
        r"|\byes\s+or\s+no\s+(?:first|up\s+front|answer\s+first)\b|\bstart\s+with\s+(?:a\s+)?yes\s+or\s+no\b",
        low,
    )
    if yn:
        yield make("yes_no_first", yn.group(0))
    choice = re.search(
        r"\b(?:answer|respond|reply|choose|pick)\s+(?:with\s+)?(?:only\s+)?one\s+of\s+(?:the\s+following|these|"
        r"the|those)\s+(?:options?|answers?|choices|responses?|phrases?)\s*:?(?P<rest>[^\n]{1,300})",
        low,
    )
    either = re.search(
        rf"\b(?:answer|respond|reply|start|begin|say)\w*\s+(?:\w+\s+){{0,2}}?with\s+(?:either\s+|one\s+of\s+)"
        rf"(?P<rest>{QUOTED_ANY}(?:\s*,\s*|\s+or\s+|\s*,\s*or\s+){QUOTED_ANY}.*)",
        low,
    )
    for found in (choice, either):
        if found:
            options = option_list(q[found.start("rest") : found.end("rest")])
            if len(options) >= 2:
                yield make("answer_choice", found.group(0), value=options[:10])
                break
    start = re.search(
        r"\b(?:start|begin|open)\w*\s+(?:your\s+|the\s+|my\s+)?(?:[\w']+\s+){0,2}?"
        r"(?:with|by\s+saying)\s+(?:the\s+(?:exact\s+)?(?:words?|phrase|sentence|line|greeting)\s*:?\s*"
        r"|exactly\s+)?" + QUOTED,
        low,
    )
    if start and re.search(r"paragraph", low[max(0, start.start() - 40) : start.start()]):
        start = None  # "paragraph 2 must start with ...": a paragraph_first_word instruction
    if start and not yn:
        yield make("starts_with", start.group(0), value=q[start.start("v") : start.end("v")])
    else:
        word = re.search(
            r"\b(?:start|begin)\w*\s+(?:your\s+|the\s+)?(?:reply|response|answer|email|message|letter)\s+with\s+the\s+word\s+(?P<w>[\w'-]+)",
            low,
        )
        if word:
            yield make("starts_with", word.group(0), value=q[word.start("w") : word.end("w")])
    end = re.search(
        r"\b(?:end|finish|close|conclude|sign\s+(?:it\s+)?off|wrap\s+up)\w*\s+(?:your\s+|the\s+|my\s+)?"
        r"(?:[\w']+\s+){0,2}?(?:with|by\s+saying)\s+(?:this\s+exact\s+phrase|the\s+(?:exact\s+)?"
        r"(?:words?|phrase|line|question|sentence|sign-?off)|exactly)?\s*:?\s*" + QUOTED,
        low,
    )
    if end:
        yield make("ends_with", end.group(0), value=q[end.start("v") : end.end("v")])


_LANG_NAMES = "|".join(sorted((re.escape(n) for n in LANGUAGE_CODES), key=len, reverse=True))


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
    if m is None:
        m = _IN_OWN_NAME.search(low)
    if m:
        code = LANGUAGE_CODES.get(m.group("lang")) or ENDONYMS[m.group("lang")]
        if code == "en" and not re.search(r"\b(?:entire|only|language|no\s+other)\b", low):
            return  # "in English" in an English request asks for nothing checkable
        yield make("language", m.group(0), value=code)
    elif (own := _written_in(q, low)) is not None:
        yield make("language", f"the request is written in {LANGUAGE_NAMES[own]}", value=own)


#: "en español", "auf Deutsch", "em português": a language named in its own tongue.
_ENDONYM_ALT = "|".join(sorted(ENDONYMS, key=len, reverse=True))
_IN_OWN_NAME = re.compile(rf"\b(?:en|auf|in|em|på|op|na|w)\s+(?P<lang>{_ENDONYM_ALT})\b")


_MIN_OWN_WORDS = 6


def _written_in(q: str, low: str) -> str | None:
    """The language a request is written in, when it is not English and both its first
    and last sentences say so (pasted material in another language sits in between);
    ``None`` when the request names English or asks for a translation."""
    if re.search(r"\benglish\b|\btrans(?:lat|cri)", low):
        return None
    words = re.findall(r"[^\W\d_]+", low)
    if len(words) < _MIN_OWN_WORDS or sum(w in ENGLISH_COMMON for w in words) >= 0.1 * len(words):
        return None  # short, or English with foreign names in it
    sentences = [s for s in re.findall(r"[^.!?\n]+[.!?]*", q) if len(s.split()) >= 4]
    if not sentences:
        return None
    head = sentences[0].split(":")[0]  # "Summarize this: <pasted text>": the ask is the head
    first = detect_language(head) if len(head.split()) >= 4 else None
    last = detect_language(sentences[-1]) if len(sentences) > 1 else first
    return first if first is not None and first == last and first != "en" else None


#: The rules, in order: where two phrasings give the same check, the first wins.
WORD_RULES: tuple[Rule, ...] = (_keywords, _markers, _first_and_last, _language)

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
from scoregate.scoring.counting import sentence_end
from scoregate.scoring.instruction_language import language_rule
from scoregate.scoring.phrasing import (
    CAPS_WORDS,
    COUNT,
    NUM,
    QUOTE_SEP,
    QUOTED,
    QUOTED_ANY,
    QUOTED_LIST,
    REL,
    Rule,
    count_word,
    frequency,
    make,
    negated_before,
    num,
    option_list,
    quoted_list,
    relation,
    word_list,
)

#: "the words chlorophyll and glucose both show up", "the words X and Y must appear".
_BOTH_WORDS = re.compile(
    r"\bthe\s+(?:key\s*)?words\s+(?P<rest>[^.\n]{1,80}?)\s+(?:both\s+|all\s+)?"
    r"(?:show\s+up|appear|are\s+used|are\s+included|are\s+in\s+it)\b"
)
_NEGATION = (
    r"(?:must\s+not|mustn't|should\s+not|shouldn't|can't|cannot|can\s+not|do\s+not|don't|never"
    r"|without|refrain\s+from|avoid(?:ing)?|no)"
)
#: A negated verb before quoted words: "can't use "best" or "perfect"", "must not contain
#: the words "delicious" or "tasty"", "don't use "things" or "stuff"".
_BANNED_QUOTED = re.compile(
    rf"\b{_NEGATION}\s+(?:us\w*|includ\w*|contain\w*|mention\w*|say\w*|writ\w*|hav\w*"
    rf"|the\s+use\s+of)?\s*(?:the\s+|any\s+of\s+the\s+)?(?:(?:key\s*)?(?:words?|terms?|phrases?)"
    rf"\s+(?:like\s+)?)?(?P<rest>{QUOTED_LIST})"
)
#: "should mention "Edinburgh"", "work in the word HYDRATE": a word the answer must use.
_MENTION_QUOTED = re.compile(
    rf"\b(?:mention\w*|includ\w*|us(?:e|es|ing)\b|work\s+in|featur\w*)\s+"
    rf"(?:the\s+(?:word|term|name|phrase)\s+)?"
    rf"(?P<rest>{QUOTED_LIST})"
    rf"|\bwork\s+in\s+the\s+word\s+(?P<bare>[a-z][\w-]+)"
)
_COUNTED_AFTER = re.compile(r"\s*(?:at\s+(?:least|most)|no\s+more|twice|thrice|once|\d+\s+times)\b")
#: ""sustainable" appears at most once": a quoted word and how often it may appear.
_QUOTED_FREQ = re.compile(
    rf"{QUOTED}\s+(?:should\s+|must\s+|can\s+|may\s+|only\s+)*(?:appears?|be\s+used|is\s+used"
    rf"|occurs?|shows?\s+up)\s+{REL}?\s*{COUNT}\s*(?:times?)?"
)


def _keywords(q: str, low: str) -> Iterator[Instruction]:
    m = re.search(
        r"\b(?:includ|us|mention|contain|incorporat|featur|hav)\w*\s+(?:the\s+)?(?:key\s*)?words?\s+"
        r"(?P<rest>[^.\n]{1,200})",
        low,
    )
    if m and not re.search(
        r"\b(?:at\s+least|less\s+than|fewer|times|no\s+more)\b", m.group("rest")
    ):
        words = word_list(q, m, max_words=2)
        if words and not negated_before(low, m):
            yield make("keywords", m.group(0), value=words)
    elif m := _BOTH_WORDS.search(low):  # "make sure the words X and Y both show up"
        if words := word_list(q, m, max_words=1):
            yield make("keywords", m.group(0), value=words)
    elif (
        (m := _MENTION_QUOTED.search(low))
        and not negated_before(low, m)
        and not _COUNTED_AFTER.match(low, m.end())
    ):  # 'mention "Edinburgh"', "work in the word HYDRATE"; "... at least twice" is counted
        if m.group("bare"):
            words = [q[m.start("bare") : m.end("bare")]]
        else:
            words = option_list(q[m.start("rest") : m.end("rest")])
        if words:
            yield make("keywords", m.group(0), value=words)

    m = re.search(
        r"\b(?:(?:do\s+not|don't|never|without|refrain\s+from)\s+(?:include|includ\w+|us\w+|mention\w*"
        r"|say\w*|writ\w+|the\s+use\s+of)|avoid(?:ing)?(?:\s+(?:using|the\s+use\s+of|saying|mentioning))?)\s+"
        r"(?:the\s+|any\s+of\s+the\s+)?(?:key\s*)?(?:words?|terms?)\s+(?P<rest>[^.\n]{1,200})",
        low,
    )
    if m and (words := word_list(q, m, max_words=1)):
        yield make("forbidden_words", m.group(0), value=words)
    elif m := _BANNED_QUOTED.search(low):  # "can't use "best" or "perfect" anywhere"
        if words := option_list(q[m.start("rest") : m.end("rest")]):
            yield make("forbidden_words", m.group(0), value=words)


_TELL = r"(?:mention|include|state|give|add|note|quote|list|show|put\s+in|tell\s+me)"
#: "mention the time complexity", "include the approximate price of each": an element the
#: answer must give, found by its form (``mentions``).
_ELEMENT = re.compile(
    rf"\b{_TELL}\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+|what\s+)?"
    r"(?:approximate\s+|rough\s+|estimated\s+|typical\s+|ballpark\s+|big-?o\s+|runtime\s+)?"
    r"(?P<thing>(?:time\s+)?complexity|big-?o|prices?|costs?)"
    r"(?P<each>\s+(?:of\s+|for\s+)?(?:each|every|all)\b)?"
)
#: What people number: "reference number", "order #", "booking ref".
_REFERENCE = (
    r"(?:reference|ref|order|account|case|ticket|invoice|booking|policy|claim|tracking"
    r"|membership|customer)"
)
_REFERENCE_SUFFIX = r"(?:number|no\.?|#|id|code)"
#: A reference as people write them: digits with letters or hyphens ("BW-55217", "4471-XZ").
_REFERENCE_ID = r"(?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]{3,}[A-Za-z0-9]"
#: "include the reference number BW-55217", "quote my order number 4471-XZ": the number
#: named, as written.
_NUMBER_NAMED = re.compile(
    rf"\b{_TELL}\s+(?:the|my|our|his|her|their)\s+{_REFERENCE}\s*{_REFERENCE_SUFFIX}"
)
#: ... the one given with the ask: a reference with a letter or a hyphen, or six digits.
_ID_TOKEN = re.compile(
    rf"(?<![\w-])(?:(?=[A-Za-z0-9-]*[A-Za-z-]){_REFERENCE_ID}|\d{{6,}})(?![\w-])"
)
#: A reference the request gives by name: "My reference is BW-55217", "order #4471-XZ".
_REFERENCE_GIVEN = re.compile(
    rf"(?i:\b{_REFERENCE}(?:\s*{_REFERENCE_SUFFIX})?(?:\s+is|\s*[:#-])?\s*)"
    rf"(?P<id>{_REFERENCE_ID})(?![\w-])"
)
#: "sign it from the Hendersons", "address it to Ms Patel": a name the letter must carry.
_SIGNED_OR_ADDRESSED = re.compile(
    r"(?i:\b(?:sign(?:ed)?\s+(?:it\s+|off\s+)?(?:from|as)|address(?:ed)?\s+(?:it\s+)?to)\s+"
    r"(?:the\s+|(?:mr|mrs|ms|miss|dr|prof)\.?\s+)?)(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"
)


def _named_elements(q: str, low: str) -> Iterator[Instruction]:
    for m in _ELEMENT.finditer(low):
        if negated_before(low, m):
            continue
        named = m.group("thing")
        thing = "complexity" if "complexity" in named or "big" in named else "price"
        value = f"{thing} of each" if thing == "price" and m.group("each") else thing
        yield make("mentions", m.group(0), value=value)
        break
    number = _NUMBER_NAMED.search(low)
    if number and not negated_before(low, number):
        after = re.split(r"[.!?\n](?:\s|$)", q[number.end() : number.end() + 40])[0]
        if token := _ID_TOKEN.search(after):  # the number given with the ask
            yield make("keywords", number.group(0) + after[: token.end()], value=[token.group(0)])
        elif given := _REFERENCE_GIVEN.search(q):  # "My reference is BW-55217." earlier on
            yield make("keywords", number.group(0), value=[given.group("id")])
    for name in _SIGNED_OR_ADDRESSED.finditer(q):
        yield make("keywords", name.group(0), value=[name.group("name").split()[-1]])


#: The most words a counted phrase has ("'for example' at most twice").
_MAX_COUNTED_WORDS = 4


def _frequencies(q: str, low: str) -> Iterator[Instruction]:
    freq = (
        rf"\b(?:the\s+)?(?:word|keyword)\s+(?:{QUOTED}|(?P<w>[\w'-]+))\s+(?:should|must|has\s+to|needs\s+to)?\s*"
        rf"(?:appear|be\s+used|occur|show\s+up)\s+{REL}?\s*{COUNT}\s*(?:times?)?"
    )
    quoted = [
        m
        for m in _QUOTED_FREQ.finditer(low)
        if 1 < len(m.group("v").strip())
        and len(m.group("v").split()) <= _MAX_COUNTED_WORDS
        and not low[: m.start()].rstrip().endswith("letter")
    ]  # "the letter 'z' appears at least 5 times": a letter, which _letters_and_capitals
    # reads; "children's story ... the letter 'z'": an apostrophe, not a quotation
    for m in [*re.finditer(freq, low), *quoted]:
        word = (m.group("v") or m.groupdict().get("w") or "").strip()
        yield frequency("word_frequency", m, word)
    use = (
        rf"\b(?:use|mention|say|repeat|include)\s+(?:(?:the\s+word\s+)?{QUOTED}|the\s+word\s+(?P<w>[\w'-]+))\s+"
        rf"{REL}?\s*{COUNT}\s*(?:times?)?(?=\W|$)"
    )
    for m in re.finditer(use, low):
        word = (m.group("v") or m.group("w") or "").strip()
        if m.group("rel") or m.group("n") in ("twice", "thrice") or "time" in m.group(0):
            yield frequency("word_frequency", m, word)


def _letters_and_capitals(q: str, low: str) -> Iterator[Instruction]:
    for rx in _LETTER_FREQ:
        for m in rx.finditer(low):
            yield frequency("letter_frequency", m, m.group("w"))
    if banned := _LETTER_BANNED.search(low):
        yield make(
            "letter_frequency",
            banned.group(0),
            value=banned.group("w"),
            relation="at_most",
            count=0,
        )
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
    re.compile(
        rf"\b(?:use|include|have|contain|with|add|want|need|put|get)\s++(?:{REL}\s*+)?{COUNT}\s+"
        rf"{CAPS_WORDS}"
    ),
    # "put the most important words in all capital letters, at least 4 of them"
    re.compile(rf"{CAPS_WORDS}[^.\n]{{0,20}}?\b{REL}\s*{COUNT}\s+of\s+them"),
)


#: "Wrap your entire response / the whole letter in double quotation marks".
_QUOTED_WHOLE = re.compile(
    r"\b(?:wrap|enclose|put|place|surround)\w*\s+(?:your\s+|the\s+)?(?:entire\s+|whole\s+|full\s+)?"
    r"(?:[\w']+\s+){0,2}?(?:with|in|inside|within|between)\s+(?:a\s+pair\s+of\s+)?double\s+quot"
    r"|\b(?:entire|whole)\s+(?:response|reply|answer|output|text)\s+(?:\w+\s+){0,3}in\s+double\s+quot"
)
#: What a highlight instruction counts: "highlight at least 2 key phrases with markdown".
_HIGHLIGHT_ANY = re.compile(r"\bhighlight\w*\b[^.\n]{0,80}?(?:markdown|\*)")
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
    r"|\beach\s+(?:one\s+)?(?:starting|beginning|opening|marked|labell?ed|headed)\s+(?:with\s+)?"
    r"(?:a\s+(?:marker|header|heading|label)\s+(?:like\s+)?|the\s+(?:marker|header|heading)\s+)?"
    r"[\"'“]?(?P<mk4>[A-Za-z]+)\s+(?:x|n|1|\{|#)\b"
    rf"|\b{_SECTION_NOUN},?\s+(?:labell?ed|titled|headed|named|marked|called)\s+[\"'“]?"
    r"(?P<mk3>[A-Za-z]+)\s+(?:x|n|1|i|\{|#)\b"
)
_REPEAT = re.compile(
    r"\b(?:repeat|echo|restate|copy)\w*\s+(?:back\s+)?(?:this|the|my|your)\s+(?:following\s+|above\s+"
    r"|below\s+)?(?:request|question|prompt|instruction|task)(?:\s+(?:above|below))?\s+(?:back\s+)?"
    r"(?:word\s+for\s+word|verbatim|exactly)"
)
_TWO_RESPONSES = re.compile(
    r"\b(?:give|provide|write|offer|draft|suggest|need|want|create|make|come\s+up\s+with|like)\s+"
    r"(?:me\s+|us\s+)?(?:two|2)\s+(?:different\s+|distinct\s+|separate\s+|alternative\s+)?[\w'-]+"
)
_SIX_ASTERISKS = re.compile(r"\*{6}|\b(?:6|six)\s+asterisk")


#: A title line above the answer: "give me a title and then 5 bullet points", "with a
#: heading" (not "a title for my essay", where the title is the answer).
_PLAIN_TITLE = re.compile(
    r"\b(?:with|add|include|start\s+with|begin\s+with|give(?:\s+(?:me|it))?|put)\s+a\s+"
    r"(?:short\s+|catchy\s+|clear\s+|bold\s+)?(?:title|heading|headline)\b"
    r"(?!\s+(?:for|of|about|to|that|which|in|idea|ideas|options|suggestions)\b)"
)


#: What else has a title: "a plot of sales with a title" asks for a title on the chart.
_GRAPHIC = re.compile(r"\b(?:plot|plots|chart|graph|figure|axis|axes|matplotlib|slide|slides)\b")


def _markers(q: str, low: str) -> Iterator[Instruction]:
    if m := _QUOTED_WHOLE.search(low):
        yield make("quoted", m.group(0))
    if m := re.search(r"\btitle[^.\n]{0,60}?(?:double\s+angul(?:ar|e)\s+brackets|<<)", low):
        yield make("title", m.group(0))
    elif (m := _PLAIN_TITLE.search(low)) and not _GRAPHIC.search(low):
        yield make("title", m.group(0), value="plain")
    if m := re.search(r"\b(?:post\s*script|p\.\s?p\.\s?s|p\.\s?s\.?)(?=\W|$)", low):
        marker = "P.P.S" if re.search(r"p\.\s?p\.\s?s", low) else "P.S."
        yield make("postscript", m.group(0), value=marker)
    if (m := _HIGHLIGHT.search(low)) and (
        re.search(r"markdown|\*", low) or re.fullmatch(r"sections?|parts?", m.group("noun"))
    ):
        rel, value = relation(m.group("rel") or "at least", None, num(m.group("n")))
        yield make("count", m.group(0), unit="highlights", relation=rel, value=value)
    elif m := _HIGHLIGHT_ANY.search(low):
        yield make("count", m.group(0), unit="highlights", relation="at_least", value=1)
    counted = re.search(rf"\b{REL}?\s*{NUM}\s+placeholders?", low)  # _counts reads those
    if not counted and (
        m := re.search(rf"\bplaceholders?\b[^.\n]{{0,80}}?\b{REL}\s*{NUM}\s+of\s+them", low)
    ):
        counted = m
        rel, value = relation(m.group("rel"), None, num(m.group("n")))
        yield make("count", m.group(0), unit="placeholders", relation=rel, value=value)
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
    r"(?:^|\n|[.!?]\s+)(?:the\s+|my\s+)?(?P<label>request|prompt|question|task)\s*:\s*(?P<body>\S.*)$",
    re.DOTALL | re.IGNORECASE,
)


def _request_to_repeat(q: str, low: str, m: re.Match[str]) -> str:
    """The part of ``q`` that the instruction ``m`` asks to be repeated: a labelled
    request ("The request: ..."), the text after the instruction when it says "below" (the
    block under a blank line, when there is one) or opens the message, else the text
    before the instruction's sentence."""
    if labelled := _LABELLED_REQUEST.search(q, m.end()):
        body = labelled.group("body").strip().split("\n")[0]
        if labelled.group("label").lower() == "question" and "?" in body:
            body = body[: body.index("?") + 1]  # "Question: What causes ...? Make sure ..."
        return body.strip()
    end = sentence_end(q, m.end())
    colon = q.rfind(":", m.end(), end)
    if colon >= 0 and "following" in m.group(0) + low[m.end() : colon]:
        return q[colon + 1 : end].strip()  # "repeat the following request ...: What is ...?"
    opening = max(q.rfind(c, 0, m.start()) for c in ".!?\n")
    before = q[: opening + 1].strip() if opening >= 0 else ""
    if before and "below" not in m.group(0):
        return before
    if "below" in m.group(0) and (gap := re.search(r"\n\s*\n", q[m.end() :])):
        return q[m.end() + gap.end() :].strip()  # the block under the instructions
    return q[end:].strip()


def _sections(q: str, low: str) -> Iterator[Instruction]:
    mark = _SECTION_MARK.search(low)
    if mark is None:
        return
    group = next(g for g in ("mk", "mk2", "mk3", "mk4") if mark.group(g))
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


#: Named headings: "two sections with the headings 'Autumn' and 'Spring'", "headed
#: 'Pros' and 'Cons'", "with these headings and nothing else: SHOPPING and COOKING", "a
#: Pros section and a Cons section".
_HEADINGS_QUOTED = re.compile(
    rf"\b(?:headings?|sub-?headings?|(?:sections?|parts?)\s+(?:headed|titled|called|named"
    rf"|labell?ed)|(?:use|using|with|under)\s+(?:the\s+|these\s+)?(?:following\s+)?headers)"
    rf"\b(?:\s+[\w']+){{0,4}}?\s*:?\s*(?P<names>{QUOTED_LIST})",
    re.IGNORECASE,
)
_HEADING_NAME = r"[A-Z][\w'/-]*(?:\s[A-Z][\w'/-]*){0,3}"
#: Between two unquoted heading names: "Produce, Protein and Pantry", "Pros & Cons".
_NAME_SEP = r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*"
_HEADINGS_AFTER_COLON = re.compile(
    rf"\b(?i:(?:sub-?)?headings)\b(?:[^.:\n]{{0,60}}:)?\s*(?P<names>{_HEADING_NAME}"
    rf"(?:(?:{_NAME_SEP}){_HEADING_NAME})+)\s*(?:[.!]|$)",
    re.MULTILINE,
)
#: "split it into a Pros section and a Cons section": the sections asked of the answer.
_NAMED_SECTIONS = re.compile(
    rf"\b(?i:into|with|include|including|use|using|give\s+me|write|have)\s+(?:an?\s+|the\s+)?"
    rf"(?P<a>{_HEADING_NAME})\s+section,?\s+and\s+(?:an?\s+|the\s+)?"
    rf"(?P<b>{_HEADING_NAME})\s+section\b"
)


#: "formatted as Attendees / Decisions / Action Items": labels split by slashes.
_SLASHED_LABELS = re.compile(
    rf"\b(?i:formatted|laid\s+out|structured|organi[sz]ed|split)\s+(?i:as|into)\s+"
    rf"(?P<names>{_HEADING_NAME}(?:\s+/\s+{_HEADING_NAME})+)"
)
#: A template given line by line after "this format:": "Done: ...", "Weather: <one sentence>".
_TEMPLATE_INTRO = re.compile(r"\b(?i:format|template|layout|structure)\s*:[ \t]*\n")
_TEMPLATE_LINE = re.compile(
    r"^[ \t]*(?:[-*][ \t]+)?\**(?P<label>[A-Z][\w'&/ -]{0,30}?)\**[ \t]*:\**[ \t]*"
    r"(?:\.\.\.|…|<[^>\n]*>|\[[^\]\n]*\]|_+|\{[^}\n]*\})?[ \t]*$"
)


def _template_labels(q: str) -> tuple[re.Match[str], list[str]] | None:
    """The labels of a template the request gives line by line after "this format:"."""
    m = _TEMPLATE_INTRO.search(q)
    if m is None:
        return None
    labels: list[str] = []
    for line in q[m.end() :].splitlines():
        if not line.strip():
            if labels:
                break
            continue
        found = _TEMPLATE_LINE.match(line)
        if found is None:
            break
        labels.append(found["label"].strip())
    return (m, labels) if len(labels) >= 2 else None


#: "formatted exactly as: Game – players – time": every line's parts, between dashes or bars.
_LINE_TEMPLATE = re.compile(
    r"\b(?i:format(?:ted)?|laid\s+out|written|one\s+per\s+line)\s+"
    r"(?i:(?:it|them|each\s+(?:one|line|item)|every\s+line)\s+)?(?i:exactly\s+)?(?i:as|like)\s*:?\s*"
    r"[\"'“‘`]?(?P<t>[\w<>\[\]{}'-]+(?:\s+[\w<>\[\]{}'-]+){0,2}"
    r"(?:\s+[–—|-]\s+[\w<>\[\]{}'-]+(?:\s+[\w<>\[\]{}'-]+){0,2})+)"
)


def _line_template(q: str, low: str) -> Iterator[Instruction]:
    del low  # the template keeps its case
    m = _LINE_TEMPLATE.search(q)
    if m and len(re.split(r"\s+[–—|-]\s+", m.group("t"))) >= 3:  # not "a pros - cons list"
        yield make("line_template", m.group(0), value=m.group("t"))


def _headings(q: str, low: str) -> Iterator[Instruction]:
    del low  # heading names keep their case
    m = _HEADINGS_QUOTED.search(q)
    if m:
        names = quoted_list(m.group("names"))
    elif m := _HEADINGS_AFTER_COLON.search(q):
        names = [n.strip() for n in re.split(_NAME_SEP, m["names"])]
    elif m := _NAMED_SECTIONS.search(q):
        names = [m["a"], m["b"]]
    elif m := _SLASHED_LABELS.search(q):
        names = [n.strip() for n in m["names"].split("/")]
    elif template := _template_labels(q):
        m, names = template
    else:
        return
    names = [n.strip("#*_: ") for n in names]  # "'## Example'" names the heading Example
    names = [n for n in dict.fromkeys(names) if n and len(n.split()) <= 6]
    if len(names) >= 2:
        yield make("headings", m.group(0), value=names)


#: Before a "start with ...": the start of a part, not of the answer.
_PART_START = re.compile(
    r"\b(?:paragraph|summary|line|sentence|section|bullet|item|each|every|one-liner|last|final"
    r"|closing|signature|subject)\b[^.\n]{0,30}$"
)
#: "End your reply with a question".
_ENDS_WITH_QUESTION = re.compile(
    r"\b(?:end|finish|close|wrap\s+up)\w*+\s++(?:(?:your|the)\s++)?(?:(?:reply|response|answer"
    r"|message|email|post|note|it)\s*+)?(?:with|on)\s++a\s++(?:\w++\s++)?question\b"
)


#: An ending given after a colon without quotes, to the end of its line: "Please end it
#: with exactly: Thanks in advance, Priya".
_ENDS_WITH_BARE = re.compile(
    r"\b(?:end|finish|close|sign\s++(?:it\s++)?off)\w*+\s++(?:(?:it|your\s++\w++|the\s++\w++)\s++)?"
    r"with\s++(?:exactly|the\s++(?:exact\s++)?(?:words?|phrase|line|sign-?off))\s*+:\s*+"
    # to the end of its sentence: "...: Thanks, Priya. Keep it short." ends "Thanks, Priya"
    r"(?P<v>[^\s\"'“‘](?:[^\n.!?]|[.!?](?!\s|$)){0,78}[^\s.!?])"
)


def _first_and_last(q: str, low: str) -> Iterator[Instruction]:
    yn = re.search(
        r"\b(?:answer|reply|respond|start|begin|lead|open)\w*\s+(?:\w+\s+){0,4}?(?:with\s+)?(?:a\s+)?(?:simple\s+|clear\s+)?"
        r"[\"'“]?yes[\"'”]?\s+or\s+[\"'“]?no[\"'”]?\s*(?:first|up\s+front|before|then|at\s+the\s+start|,|\.|$)"
        r"|\byes\s+or\s+no\s+(?:first|up\s+front|answer\s+first)\b|\bstart\s+with\s+(?:a\s+)?yes\s+or\s+no\b"
        r"|\byes\s*/\s*no\s+(?:as|at)\s+(?:the\s+)?(?:very\s+)?(?:first|start|beginning)",
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
        rf"(?P<rest>{QUOTED_ANY}{QUOTE_SEP}{QUOTED_ANY}.*)",
        low,
    )
    labels = re.search(
        r"\bone\s+of\s+(?:these|the\s+following|the)\s+(?:labels?|options?|categories|words?|values?"
        r"|tags?)[^:\n]{0,40}:\s*(?P<rest>[\w-]+(?:\s*,\s*[\w-]+)+)",
        low,
    )
    if labels and not choice:
        options = [o.strip() for o in q[labels.start("rest") : labels.end("rest")].split(",")]
        yield make("answer_choice", labels.group(0), value=options[:10])
        return
    letters = re.search(
        r"\bone\s+of\s*:?\s*(?P<rest>\([a-z]\)(?:\s*(?:,|or|/)\s*\([a-z]\)){1,9})", low
    )
    if letters and not choice:
        options = re.findall(r"\([A-Za-z]\)", q[letters.start("rest") : letters.end("rest")])
        yield make("answer_choice", letters.group(0), value=options)
        return
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
    if start and _PART_START.search(low[max(0, start.start() - 40) : start.start() + 4]):
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


#: "end with a one-line summary starting with TL;DR": the last line's first words.
_CLOSING_LINE = re.compile(
    r"\b(?:end|finish|close|wrap\s+up)\w*\s+(?:it\s+|the\s+\w+\s+)?with\s+(?:a\s+|one\s+)?"
    r"(?:(?:one-line|single-line|one\s+line|short|final|brief|quick)\s+)*"
    r"(?:summary|line|sentence|takeaway|note|verdict)\s+(?:that\s+)?(?:start|begin|open)\w*\s+with\s+"
    r"(?:the\s+(?:word|words|phrase|label)\s+)?"
    rf"(?:{QUOTED}|(?!(?:a|an|the|your|its)\b)(?P<bare>[\w;:'-]+(?:\s+line:?)?))"
)


def _endings(q: str, low: str) -> Iterator[Instruction]:
    if closing := _CLOSING_LINE.search(low):
        lo, hi = closing.span("v") if closing.group("v") else closing.span("bare")
        yield make("closing_line", closing.group(0), value=q[lo:hi].strip())
    end = re.search(
        r"\b(?:end|finish|close|conclude|sign\s+(?:it\s+)?off|wrap\s+up)\w*+\s++(?:your\s+|the\s+|my\s+)?"
        r"(?:[\w']+\s+){0,2}?(?:with|by\s+saying)\s*+(?:(?:this\s+exact\s+phrase|the\s+(?:exact\s+)?"
        r"(?:words?|phrase|line|question|sentence|sign-?off)|exactly)\s*+)?:?\s*+" + QUOTED,
        low,
    )
    bare = None if end else _ENDS_WITH_BARE.search(low)
    found = end or bare
    if closing and found is not None and found.start() < closing.end():
        return  # the same words: how the last line opens, read above
    if end:
        yield make("ends_with", end.group(0), value=q[end.start("v") : end.end("v")])
    elif bare:
        yield make("ends_with", bare.group(0), value=q[bare.start("v") : bare.end("v")].strip())
    elif question := _ENDS_WITH_QUESTION.search(low):
        yield make("ends_with", question.group(0), value="?")


#: The rules, in order: where two phrasings give the same check, the first wins.
WORD_RULES: tuple[Rule, ...] = (
    _keywords,
    _named_elements,
    _line_template,
    _frequencies,
    _letters_and_capitals,
    _markers,
    _headings,
    _first_and_last,
    _endings,
    language_rule,
)

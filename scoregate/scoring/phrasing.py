"""The vocabulary the instruction rules read requests with: numbers as words say them,
relations ("at least", "under", "or fewer"), quoted phrases and word lists, and the
marks of a count that is only of a part of the answer ("each under 10 words").

>>> relation("under", None, 50)
('at_most', 50)
>>> quoted_list("use the words 'loch' and 'ferry'")
['loch', 'ferry']

Pure: text in, values out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.language import LANGUAGE_CODES

NUM_WORDS = {
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
NUM = r"(?P<n>\d{1,5}|" + "|".join(sorted(NUM_WORDS, key=len, reverse=True)) + r")"


def num(text: str) -> int:
    text = text.lower().strip()
    return int(text) if text.isdigit() else NUM_WORDS[text]


# --- relations --------------------------------------------------------------------------------

AT_LEAST = r"(?:at\s+least|no\s+(?:less|fewer)\s+than|a\s+minimum\s+of|minimum(?:\s+of)?|min\.?)"
AT_MOST = (
    r"(?:at\s+most|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|maximum(?:\s+of)?|max\.?"
    r"|up\s+to|under|within|below|no\s+longer\s+than|not\s+exceeding|not\s+over)"
)
LESS = r"(?:less\s+than|fewer\s+than)"
MORE = r"(?:more\s+than|over)"
EXACT = r"(?:exactly|precisely|just|only)"
REL = rf"(?P<rel>{AT_LEAST}|{AT_MOST}|{LESS}|{MORE}|{EXACT})"
TAIL_MOST = r"(?:\s+(?:or\s+(?:less|fewer)|max(?:imum)?|tops|at\s+most|or\s+under))"
TAIL_LEAST = r"(?:\s+(?:or\s+more|minimum|at\s+least))"
#: The high end of a range after a count: "3 or 4", "3 to 5", "3-5", "3–5", "two or three",
#: "between 3 and 5".
HI_NUM = (
    r"(?P<hi>\d{1,3}|"
    + "|".join(
        sorted(
            (w for w in NUM_WORDS if " " not in w and w not in ("a", "an", "single", "hundred")),
            key=len,
            reverse=True,
        )
    )
    + r")\b"
)
#: "between 3 and 5": "and" joins a range only after "between" and its low end (a digit or a
#: number word of up to five letters, each a fixed-width look-behind).
_BETWEEN_AND = "(?:" + "|".join(rf"(?<=\bbetween\s\w{{{n}}})" for n in range(1, 6)) + r")\s+and\b"
RANGE_HI = rf"\s*(?:-|–|—|\bto\b|\bor\b|{_BETWEEN_AND})\s*{HI_NUM}"
#: "a couple or three": two or three.
COUPLE_OR_THREE = r"a\s+couple(?:\s+of)?\s+or\s+(?:three|3)\b"


def relation(rel: str | None, tail: str | None, n: int) -> tuple[str, int]:
    rel = (rel or "").lower()
    tail = (tail or "").lower()
    if re.fullmatch(LESS, rel):
        return "at_most", max(n - 1, 0)
    if re.fullmatch(MORE, rel):
        return "at_least", n + 1
    if re.fullmatch(AT_LEAST, rel) or re.fullmatch(TAIL_LEAST, tail or "-"):
        return "at_least", n
    if re.fullmatch(AT_MOST, rel) or re.fullmatch(TAIL_MOST, tail or "-"):
        return "at_most", n
    return "exactly", n


#: A rule reads ``(query, query.lower())`` and yields the instructions it finds.
Rule = Callable[[str, str], Iterator[Instruction]]


def make(check: str, phrase: str, **kw: Any) -> Instruction:
    return Instruction(check=check, inferred=True, phrase=phrase.strip()[:500], **kw)


#: Words before a count that make it a count of a part, not of the whole answer:
#: "each one under 10 words", "then one sentence of advice", "plus 2 sentences",
#: "followed by a one-sentence summary".
PART_BEFORE = re.compile(
    r"\b(?:each|per|every)\b(?:\s+[\w']+){0,2}\s+(?:with\s+|in\s+|of\s+|to\s+|under\s+)?$"
    r"|\b(?:then|plus|followed\s+by|and\s+then|after\s+that|afterwards)\s+"
    r"(?:explain\w*\s+|add\s+|(?:tell|give|show)\s+(?:me\s+|us\s+)?)?(?:in\s+|with\s+)?"
    r"(?:(?:a|an|the)\s+(?:short\s+|brief\s+|final\s+|closing\s+|quick\s+)?)?$"
)
#: Words after a count that make it a count of a part: "one sentence each", "3 bullets
#: under each"; and, for sentences, "in one sentence, then list 3 features" (the same
#: sentence goes on to ask for more), "a one-sentence pitch followed by a slogan".
PART_EACH = re.compile(r"^\s*(?:(?:under|in|for|of|with)\s+)?(?:each|every|apiece|per)\b")
PART_THEN = re.compile(r"^[^.!?:\n]{0,80}?\b(?:then|followed\s+by|plus)\b")
#: A count in a template's placeholder: "Weather: <one sentence>", "[2 sentences]".
IN_PLACEHOLDER = re.compile(r"[<\[]\s*$")
#: A count of what comes with the thing asked for: "the RAG status with a 2-sentence
#: justification" (but "answer with a one-sentence reply" counts the whole answer).
WITH_BEFORE = re.compile(r"(?<!\banswer)(?<!\breply)(?<!\brespond)\s+with\s+(?:a|an)\s*$")
WITH_PART = re.compile(
    r"^\s*(?:justification|explanation|rationale|reason|reasoning|note|comment|caption)s?\b"
)


def count_start(m: re.Match[str]) -> int:
    """Where the count ``m`` found starts, past the blanks its pattern may open with."""
    return m.start() + len(m.group(0)) - len(m.group(0).lstrip())


def is_part(low: str, m: re.Match[str]) -> bool:
    """Whether the count ``m`` found is of a part of the answer (see ``PART_BEFORE``)."""
    start = count_start(m)
    return PART_BEFORE.search(low[max(0, start - 30) : start]) is not None


def each_after(low: str, m: re.Match[str]) -> bool:
    """Whether "each", "per"... follows the count ``m``: "one sentence each"."""
    return PART_EACH.search(low[m.end() : m.end() + 40]) is not None


def is_part_after(low: str, m: re.Match[str], *, then: bool = False) -> bool:
    """Whether what follows the count ``m`` (or the placeholder it sits in) makes it a
    count of a part of the answer (``PART_EACH``; ``PART_THEN`` too when ``then``;
    ``IN_PLACEHOLDER``)."""
    if IN_PLACEHOLDER.search(low[max(0, m.start() - 3) : m.start()]):
        return True
    if each_after(low, m):
        return True
    if WITH_PART.search(low[m.end() : m.end() + 20]) and WITH_BEFORE.search(
        low[max(0, m.start() - 30) : m.start()]
    ):
        return True
    return then and PART_THEN.search(low[m.end() : m.end() + 120]) is not None


#: A negation shortly before a keyword instruction: "must not contain the words ...".
NEGATED = re.compile(
    r"(?:\b(?:not|never|no|avoid\w*|without|refrain\w*)|n't)\b(?:\s+[\w']+){0,2}\s*$"
)


#: A negation of the phrase right after it: "don't use", "do not include a", "but not as
#: a", "without a", "no need for a" (not past a conjunction: "no commas and under 40 words"
#: negates the commas only).
_NEGATES_PHRASE = re.compile(
    r"(?:\b(?:not|never|without|avoid\w*|refrain\s+from)|n't)"
    r"(?!\s+(?:forget|fail|hesitate)\b)"  # "don't forget to put the key terms in bold"
    r"(?:\s+(?!(?:and|or|but|then|so|just|only|also|plus)\b)[\w']+){0,2}\s*$"
    r"|\bno\s*$|\bno\s+need\s+(?:for|to)\b(?:\s+[\w']+){0,2}\s*$"
)


def negated_phrase(low: str, phrase: str) -> bool:
    """Whether every place the (lower-cased) request ``low`` says ``phrase`` is negated just
    before it, in its own sentence: "don't use bullet points", "do not include a title",
    "not as a numbered list", "no need for a P.S."."""
    places = _places(low, phrase, 40)
    return bool(places) and all(_NEGATES_PHRASE.search(before) for before, _ in places)


def negated_before(low: str, m: re.Match[str]) -> bool:
    """Whether a negation stands just before the match ``m`` ("must not contain ...")."""
    return NEGATED.search(low[max(0, m.start() - 24) : m.start()]) is not None


#: Words before a form's phrase that make the form what the request is about, not how the
#: answer is to look: a question about making or reading it ("how do I write a numbered
#: list", "what does P.S. mean", "the difference between a numbered list and ..."), someone's
#: habit ("why do people write in all caps", "typing in all caps looks rude"), or what the
#: asker has already ("my essay has two paragraphs", "I wrote three paragraphs").
_MODAL = r"(?!(?:should|must|needs?|will|can|could|would|to|has\s+to|have\s+to)\b)"
_WRITES = (
    r"(?:writes?|wrote|written|writing|types?|typed|typing|texts?|texted|texting|posts?|posted"
    r"|posting|repl(?:y|ies|ied|ying)|respond(?:s|ed|ing)?|emails?|emailed|emailing|messages?"
    r"|messaged|messaging|shouts?|shouted|shouting|talks?|talked|talking|sends?|sent|sending)"
)
ABOUT_THE_FORM = re.compile(
    r"\bhow\s+(?:do|does|can|could|should|would|to)\s+(?:(?:i|you|we|one|people|they)\s+)?"
    r"(?:[\w']+\s+)?(?:write|type|make|create|format|add|insert|get|use|put|start|end|number"
    r"|turn\s+(?:off|on)|stop|avoid|remove|undo|fix|disable|enable)\s+"
    r"(?:(?:a|an|the|my|our|this|that|these|those)\s+)?$"
    r"|\b(?:meaning|definition|purpose|point|origin)\s+of\s+(?:(?:a|an|the)\s+)?$"
    r"|\bdifference\s+between\s+(?:(?:a|an|the)\s+)?$"
    r"|\bwhen\s+(?:do|does|should|would|can)\s+(?:i|you|we|one|people)\s+use\s+"
    r"(?:(?:a|an|the)\s+)?$"
    rf"|\bwhy\s+(?:do|does|did|would|is|are|was|were)\s+(?:[\w']+\s+){{0,2}}{_WRITES}\s+$"
    rf"|(?:^|[,;:]\s*)(?:[\w']+\s+)?(?:typing|writing|texting|posting|replying|responding"
    r"|emailing|messaging|shouting|talking)\s+$"
    r"|\b(?:people|someone|somebody|everyone|everybody|he|she|they|users?|customers?|clients?"
    r"|(?:my|our|his|her|their)\s+[\w-]+)\s+(?:always\s+|often\s+|keeps?\s+|still\s+"
    rf"|sometimes\s+|usually\s+|only\s+|just\s+)?{_WRITES}\s+$"
    rf"|\b(?:my|our|his|her|their)\s+(?:{_MODAL}[\w'-]+\s+){{0,2}}?(?:has|have|had|contains?"
    r"|contained|includes?|included|is|was|are|were|uses?|used)\s+(?:only\s+|just\s+|about\s+"
    r"|around\s+|over\s+|nearly\s+|almost\s+)?$"
    r"|\b(?:i|we)(?:\s+(?:have|had|wrote|typed)|'ve\s+(?:got|written)|\s+have\s+(?:got|written))"
    r"\s+(?:only\s+|just\s+|about\s+|around\s+|over\s+)?$"
)
#: A rule the asker's own work must meet: "my essay must be at least 500 words", "our
#: brochure should have three paragraphs" (the answer's form only when the request asks for
#: that work to be written: ``_MAKES_IT``).
#: The rest of a clause that tells of the asker's own work, up to the phrase, with no ask
#: of the answer in it ("..., so use", "... and please").
_TOLD_ON = r"(?:(?!\b(?:so|please|pls|use|include|make\s+sure)\b)[^.!?\n;])*$"
_OWN_WORK_RULE = re.compile(
    r"\b(?:my|our|his|her|their)\s+(?!(?:answer|reply|response|output)\b)(?:[\w'-]+\s+){1,2}?"
    r"(?:must|should|needs?\s+to|has\s+to"
    r"|have\s+to|is\s+supposed\s+to|can(?:not|'t)|is\s+meant\s+to)\s+(?:be\s+|have\s+|contain\s+"
    r"|fit\s+(?:in(?:to)?\s+|within\s+)?|stay\s+|run\s+|go\s+|exceed\s+)?(?:only\s+|just\s+"
    r"|about\s+|around\s+)?$"
    # a rule told of it: "my instructor said the abstract should be one paragraph", "the
    # assignment is to write a 500-word essay with 3 sources", "I have to write a 5
    # paragraph essay"
    r"|\b(?:my|our|his|her|their|the)\s+(?:teacher|instructor|professor|prof|tutor|lecturer"
    r"|boss|manager|editor|supervisor|advisor|adviser|rubric|syllabus|guidelines?"
    r"|requirements?)\s+(?:said|says|wants|told\s+(?:me|us)|requires|insists)\s+(?:that\s+)?"
    r"(?:the|my|our|his|her|their|it|this)\s+(?:[\w'-]+\s+){0,2}?(?:must|should|needs?\s+to"
    r"|has\s+to|have\s+to|is\s+supposed\s+to|can(?:not|'t))\s+(?:be\s+|have\s+|contain\s+)?"
    r"(?:only\s+|just\s+|about\s+|around\s+)?$"
    rf"|\b(?:the|my|our|his|her|their)\s+(?:assignment|homework|task)\s+is\s+to\b{_TOLD_ON}"
    rf"|\b(?:i|we)\s+(?:have|need|got)\s+to\s+(?:write|submit|turn\s+in|hand\s+in)\b{_TOLD_ON}"
    r"|\b(?:i|we)\s+(?:wrote|have\s+written|drafted|sent)\s+(?:a|an)\s+$"
)
#: ... or after it: "a 3 sentence summary is what my teacher wants".
_OWN_WORK_AFTER = re.compile(
    r"^[^.!?\n]{0,30}?\b(?:is|are)\s+what\s+(?:my|our|his|her|their|the)\s+[\w-]+\s+"
    r"(?:wants?|asked\s+for|requires?|said|expects?)\b"
)
#: A request to write the work itself: "write it", "draft one", "write my essay".
_MAKES_IT = re.compile(
    r"(?<!\bi\s)(?<!\bwe\s)(?<!\bhave\sto\s)(?<!\bneed\sto\s)(?<!\bgot\sto\s)(?<!\bis\sto\s)"
    r"\b(?:write|draft|compose|create|make|produce|rewrite|redo|expand|shorten|generate|turn|edit"
    r"|give\s+me)\s+(?:it|one|me\s+one|this|that|my|our|the|a|an|him|her|them)\b"
)
#: ... or a question of what the form is or means, told by what follows it too: "what does
#: P.S. mean", "what is a numbered list?" (but "what is a 5-word slogan for a bakery?" asks
#: for one).
WHAT_IS = re.compile(r"\bwhat(?:'s|’s|\s+(?:does|do|did|is|are|was|were))\s+(?:(?:a|an|the)\s+)?$")
MEANS = re.compile(
    r"^\s*(?:\?|(?:actually\s+|really\s+)?(?:mean|means|stand\s+for|stands\s+for|signify"
    r"|refer\s+to|look\s+like|do)\b)"
)
#: Where the sentence a phrase is in starts (a dot inside "P.S." or "e.g." is no end).
_SENTENCE_END = re.compile(r"(?:[!?\n]|\.(?=\s+[a-z0-9\"'“‘(]|\s*$))")


def _places(low: str, phrase: str, reach: int) -> list[tuple[str, int]]:
    """Each place the (lower-cased) request ``low`` says ``phrase``: the text before it in
    its own sentence (at most ``reach`` characters back) and where the phrase starts."""
    phrase = phrase.lower()
    out: list[tuple[str, int]] = []
    for m in re.finditer(re.escape(phrase), low) if phrase else ():
        before = low[max(0, m.start() - reach) : m.start()]
        ends = list(_SENTENCE_END.finditer(before))
        out.append((before[ends[-1].end() :] if ends else before, m.start()))
    return out


def about_the_form(low: str, phrase: str) -> bool:
    """Whether every place the (lower-cased) request ``low`` says ``phrase`` makes the form
    it names the request's topic, not the answer's form (see ``ABOUT_THE_FORM``)."""
    phrase = phrase.lower()
    places = _places(low, phrase, 120)
    if not places:
        return False
    for before, start in places:
        # (a quoted phrase: 'what does "in all caps" mean')
        before = re.sub(r"[\s\"'“‘(*]+$", " ", before.lstrip(" \"'“‘(*"))
        after = low[start + len(phrase) : start + len(phrase) + 40].lstrip("\"'”’)*")
        if ABOUT_THE_FORM.search(before):
            continue
        if (_OWN_WORK_RULE.search(before) or _OWN_WORK_AFTER.match(after)) and not _MAKES_IT.search(
            low
        ):
            continue  # "my essay must be at least 500 words. Can you suggest a topic?"
        if not (WHAT_IS.search(before) and MEANS.search(after)):
            return False
    return True


#: Quoted material a request holds: 'her homework says "write three paragraphs"', "the
#: prompt is 'describe your hometown in 3 sentences'" (an apostrophe inside a word is no
#: quote: "kids' homework", "don't").
_QUOTED_MATERIAL = re.compile(
    r"\"[^\"\n]{3,}?\"|“[^”\n]{3,}?”|‘(?:[^’\n]|’(?=\w)){3,}?’"
    # not "the '80s ... my parents' place", "rock 'n' roll", "'til": an elision opens no quote
    r"|(?<![\w'])'(?=\S)(?!\d0s\b|n'|til\b|em\b|cause\b|bout\b)(?:[^'\n]|'(?=\w)){2,}?\S'"
    r"(?!\w)"
)


#: A request to carry out what it quotes: 'Prompt: "..." Write it for me.', "answer this
#: prompt", "complete the task below" (the quoted form is then the answer's).
_DOES_QUOTED = re.compile(
    r"(?<!\bi\s)(?<!\bwe\s)(?<!\bhe\s)(?<!\bshe\s)(?<!\bthey\s)(?<!\bto\s)"
    r"\b(?:write|do|answer|complete|draft|respond\s+to|reply\s+to|follow|fulfil+)\s+"
    r"(?:it|this|that|one|the\s+(?:prompt|assignment|task|question|exercise|instructions?)"
    r"|(?:this|that)\s+(?:prompt|assignment|task|question|exercise|instructions?))\b"
)


def in_quoted_material(low: str, phrase: str) -> bool:
    """Whether every place the (lower-cased) request ``low`` says ``phrase`` lies inside
    material it quotes after words of its own ('her homework says "write three paragraphs"':
    the homework's form, not the answer's; a request that is all one quotation is its own,
    and so is one that asks for the quoted task done: 'Prompt: "..." Write it for me.')."""
    phrase = phrase.lower()
    spans = [
        (m.start(), m.end()) for m in _QUOTED_MATERIAL.finditer(low) if low[: m.start()].strip()
    ]
    if spans and _DOES_QUOTED.search(_QUOTED_MATERIAL.sub(" ", low)):
        return False
    places = [m.start() for m in re.finditer(re.escape(phrase), low)] if phrase else []
    return bool(places and spans) and all(
        any(a < at and at + len(phrase) <= b for a, b in spans) for at in places
    )


def patterns(*pairs: tuple[str, str]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((value, re.compile(rx)) for value, rx in pairs)


#: "words in all capital letters", "words written entirely in capitals", "all-caps words".
CAPS = r"(?:capital(?:s|\s+letters|ized)?|caps|upper\s*-?case(?:\s+letters)?)"
#: What follows "words" when they are capitalised: "written entirely in capitals".
CAPITALISED = (
    rf"(?:that\s+are\s+|written\s+|typed\s+|set\s+)?(?:entirely\s+|fully\s+|completely\s+"
    rf"|all\s+)?(?:with\s+|in\s+)?(?:all\s+)?{CAPS}"
)
CAPS_WORDS = rf"(?:words?\s+{CAPITALISED}|all[- ]caps\s+words?)"

QUOTED = r"[\"“'‘](?P<v>(?:[^\"”'’\n]|['’](?=[a-z])){1,150})[\"”'’]"
#: The same, without a group: for patterns that hold several quoted phrases.
QUOTED_ANY = QUOTED.replace("(?P<v>", "(?:")
#: What stands between two quoted options: "'A', 'B' or 'C'", "'A' and 'B'".
QUOTE_SEP = r"(?:\s*,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+)"
#: One quoted phrase or several in a row.
QUOTED_LIST = rf"{QUOTED_ANY}(?:{QUOTE_SEP}{QUOTED_ANY})*"


def quoted_list(text: str) -> list[str]:
    return [m.group("v").strip() for m in re.finditer(QUOTED, text) if m.group("v").strip()]


def option_list(text: str) -> list[str]:
    """The quoted options that open ``text`` one after another ("'A', 'B' or 'C'. Then
    ..."): a quote after other words is not an option."""
    out: list[str] = []
    end = 0
    for m in re.finditer(QUOTED, text):
        if out and not re.fullmatch(r"[\s,;/]*(?:or\s+|and\s+)?", text[end : m.start()]):
            break
        if m.group("v").strip():
            out.append(m.group("v").strip())
        end = m.end()
    return out


#: Words after an unquoted keyword that are not part of it: "use the word snowball somewhere".
_TRAILING_FILLER = re.compile(
    r"(?:\s+(?:somewhere|anywhere|at\s+least\s+once|once|please|pls|too|as\s+well|in\s+it"
    r"|in\s+there|in\s+the\s+\w+|if\s+you\s+can))+\s*$"
)


def word_list(q: str, m: re.Match[str], max_words: int) -> list[str]:
    """The words a keyword instruction names: quoted ones, else a short list after it."""
    words = quoted_list(q[m.start("rest") : m.end("rest")])
    if words:
        return words[:10]
    rest = _TRAILING_FILLER.sub("", m.group("rest").split(" in ")[0])
    split = (w.strip(" .") for w in re.split(r",\s*|\s+and\s+|\s+or\s+", rest))
    return [w for w in split if 0 < len(w.split()) <= max_words][:10]


#: A count as words say it: "3", "three", "twice".
COUNT = rf"(?P<n>\d+|once|twice|thrice|{'|'.join(NUM_WORDS)})"


def count_word(text: str) -> int:
    return {"once": 1, "twice": 2, "thrice": 3}.get(text) or num(text)


def frequency(check: str, m: re.Match[str], word: str) -> Instruction:
    n = count_word(m.group("n"))
    rel, value = relation(m.group("rel"), None, n)
    if not m.group("rel"):
        rel = "at_least"  # "use the word 'river' twice": at least, as people mean it
    return make(check, m.group(0), value=word, relation=rel, count=value)


_COUNT_WORD = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|[1-9]|10)"
#: A yes or no and nothing else: "reply with only yes or no", "answer just yes/no", "yes or
#: no only" (not "answer yes or no first, then explain").
YES_OR_NO_ONLY = (
    r"\b(?:(?:reply|answer|respond)\s+(?:with\s+)?)?(?<!\bnot\s)(?<!n't\s)(?:only|just|simply)\s+"
    r"(?:with\s+)?(?:a\s+)?[\"'“]?yes[\"'”]?\s*(?:or|/)\s*[\"'“]?no[\"'”]?\b"
    r"(?![\s,;:-]+(?:first|then|and|but|plus|followed|with)\b)"
    r"|\byes\s*(?:or|/)\s*no\s+only\b"
)
#: Every language name, longest first, as regex alternatives ("Brazilian Portuguese" before
#: "Portuguese").
LANGUAGE_ALTERNATIVES = "|".join(
    sorted((re.escape(n) for n in LANGUAGE_CODES), key=len, reverse=True)
)
#: A question for a word or phrase in another language: "how do you say 'thank you' in
#: French?", "a polite way to say 'I don't understand' in Japanese" (it asks for the phrase,
#: not for an answer written in that language).
SAYING_IN = re.compile(
    r"\b(?:how\s+(?:do|does|would|can|could|should|to)\s+(?:(?:you|i|we|one|they|people)\s+)?"
    r"|(?:a|the|another|any|some)\s+(?:[\w-]+\s+){0,2}?ways?\s+(?:to\s+|of\s+)?)"
    r"(?:say|saying|tell|ask|asking|write|writing|call|spell|pronounce|express)\b"
    rf"[^.?!\n]{{1,60}}?\b(?:in|into)\s+(?:{LANGUAGE_ALTERNATIVES})\b"
)
#: A request for a short answer: a name, a word or a few, a number, a 6-word story.
SHORT_ANSWER = re.compile(
    r"\b(?:just|only)\s+(?:the\s+|one\s+|a\s+|1\s+)?(?:\w+\s+)?"
    r"(?:name|word|words|number|title|figure|date|year|slogan|phrase)\b"
    r"|\b(?:one|single)[- ]word\b"
    r"|\b(?:in|with)\s+(?:one|a\s+single|two|three|four|five|[1-5])\s+words?\b"
    rf"|\b{_COUNT_WORD}[- ]word\s+(?:\w+\s+)?(?:story|slogan|title|summary|description|answer"
    r"|tagline|motto|phrase|poem|review|name|bio)\b"
    rf"|\b{_COUNT_WORD}\s+words?\s+(?:to\s+describe|that\s+describe|describing|for|about"
    r"|summari[sz]ing)\b"
    r"|\b(?:suggest|give\s+me|pick|come\s+up\s+with)\s+(?:a|one)\s+(?:good\s+|catchy\s+"
    r"|fun\s+|short\s+|new\s+)?(?:name|title|tagline|slogan)\b"
    r"|\bnothing\s+else\b"
    r"|(?:^|[.!?]\s+)name\s+(?:one|a|an|1)\s"
    # "Summarise the meeting in one line.", "a one-liner", "a one-line summary"
    r"|(?<!each\s)(?<!every\s)\b(?:in|as)\s+(?:one|a\s+single|a)\s+line\b(?!\s+each\b)"
    r"|\bone[- ]liner\b"
    r"|\bone[- ]line\s+(?:summary|answer|description|reply|update|recap)\b" + rf"|{YES_OR_NO_ONLY}"
    # "Reply with only yes or no", "just yes or no", "yes or no only"
    # a word asked for: "what's the French word for cheese?", "how do you say 'thank you'
    # in French?"
    r"|\bwhat(?:'s|’s|\s+is)\s+(?:the|a)\s+(?:[\w-]+\s+){0,2}?(?:word|term)\s+for\b"
    + rf"|{SAYING_IN.pattern}"
)


#: The stricter kin of ``SHORT_ANSWER``: a request for the answer alone, nothing around it
#: (the ``bare_answer`` check): "Just the number.", "Just the subject line", "One word
#: answer." (not "just the name of the file, and why", nor "just give me the answer",
#: which waves off a lecture; code alone is the ``code_only`` format). ``SHORT_ANSWER``
#: also holds what only excuses a short answer from the relevance gate ("in three words",
#: "suggest a name", "nothing else").
BARE_ANSWER = re.compile(
    r"\b(?:just|only)\s+(?:the\s+|one\s+|a\s+|1\s+)?(?:(?:two|three|four|five|six|\d)\s+)?"
    r"(?P<what>names?|words?|numbers?|figures?|dates?|years?|titles?|subject\s+line|headlines?"
    r"|price|amount|total)\b(?=\s*(?:[.,;!)]|$|please\b|pls\b|in\s+quotes\b|nothing\s+else\b|no\s+\w+"
    r"|for\s+(?:an?|the|my|our)\s))"
    r"|\b(?:one|single|1)[- ]word\s+(?:answer|reply|response)\b"
    r"|\banswer\s+(?:as|with)\s+['\"‘“][^'\"’”\n]{1,30}['\"’”]\s+and\s+nothing\s+else\b"
    + rf"|{YES_OR_NO_ONLY}",
    re.MULTILINE,
)


def short_answer_asked(query: str) -> str | None:
    """The phrase of ``query`` that asks for a short answer ("just the name", "one word
    answer", "a 6-word story"), or ``None``."""
    m = SHORT_ANSWER.search(query.lower())
    return m.group(0).strip(" .!?") if m else None

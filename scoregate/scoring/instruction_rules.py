"""The checkable instructions a request implies, read from its wording: the form rules
(counts, lists, paragraphs, formats, case, banned characters) here, the rules about
words, markers, openings, endings and language in :mod:`scoregate.scoring.instruction_words`.

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
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import ValidationError

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.dependencies import STDLIB_ONLY
from scoregate.scoring.instruction_words import WORD_RULES
from scoregate.scoring.phrasing import (
    BARE_ANSWER,
    CAPITALISED,
    CAPS_WORDS,
    COUPLE_OR_THREE,
    NUM,
    NUM_WORDS,
    RANGE_HI,
    REL,
    TAIL_LEAST,
    TAIL_MOST,
    Rule,
    about_the_form,
    count_start,
    each_after,
    in_quoted_material,
    is_part,
    is_part_after,
    make,
    negated_before,
    negated_phrase,
    num,
    patterns,
    relation,
)

#: A bound after the noun ("5 tips max", "3 ideas or fewer"), unless a number follows it
#: ("3 rivers at least 1000 km long": the bound is the next words').
_TAIL = rf"(?:(?P<tail>{TAIL_MOST}|{TAIL_LEAST})(?!\s*\d))?"

_UNIT_WORDS: dict[str, str] = {
    "words?": "words",
    "sentences?": "sentences",
    "paragraphs?": "paragraphs",
    "(?:bullet(?:ed)?\\s+points?|bullets?|bulleted\\s+items?)": "bullets",
    "lines?": "lines",
    "highlighted\\s+sections?": "highlights",
    "placeholders?": "placeholders",
    "char(?:acter)?s?": "characters",
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
    r"|phrases|expressions|sayings|greetings|openers|icebreakers|conversation\s+starters"
)
#: A question for things, closing just before the text read: "what tools do I need? ",
#: "any good hikes near Denver? " (not "what is 2+3? ").
_THINGS_ASKED = re.compile(
    r"\b(?:what|which|any|some|best|good)\b[^?.!\n]*\b[a-z]{3,}s\b[^?.!\n]*\?"
)
_PLURAL_ASKED = re.compile(_THINGS_ASKED.pattern + r"\s*$")
#: (``_THINGS_ASKED`` alone: anywhere before, "What are good questions to ask ...? Small
#: firm. Just give me 5".)
_LIST_VERBS = (
    r"(?:give|list|suggest|name|share|provide|recommend|write|need|want|brainstorm|pick|offer"
    r"|propose|come\s+up\s+with|send|show|tell|get|draft|outline|top|with|me|i'd\s+like|into"
    # "keep it to exactly five points" (not "limit": a cap, read elsewhere)
    r"|keep\s+(?:it|this|the\s+list|them)\s+to"
    r"|what\s+are|what're)"
)


#: A request about code, whose "N lines" are lines of code.
_ABOUT_CODE = re.compile(
    r"\b(?:script|code|snippet|function|program|command|one-liner|regex|query|sql|python"
    r"|bash|javascript|js|typescript|class|method)\b"
)


def _per_item_unit(low: str, m: re.Match[str], unit: str, rel: str) -> str | None:
    """The unit of a count of a part that is a limit on every item, if it is one: "keep
    each one under 10 words" (``item_words``), "two sentences each" (``item_sentences``),
    "each under 40 characters" (``item_characters``)."""
    if unit == "words" and rel != "at_least" and _each_item(low, m):
        return "item_words"
    if (
        unit == "characters"
        and rel == "at_most"
        and (_each_item(low, m) or each_after(low, m))
        and not _CHARACTER_THING.search(low)
    ):  # "five taglines, each under 40 characters"; not "passwords, each 16 characters"
        return "item_characters"
    if unit == "sentences" and (
        each_after(low, m) or (rel == "at_most" and m.group("low") and _each_item(low, m))
    ):  # "two sentences each", "keep each step to one or two sentences"
        return "item_sentences"
    if unit == "bullets" and (each_after(low, m) or _EACH_SECTION.search(low[: m.start()])):
        return "section_items"  # "3 bullets under each", "two sections, each with 2 bullets"
    return None


#: "..., each with exactly 2 bullets": the count that follows is of every section's list.
_EACH_SECTION = re.compile(r"\beach\s+(?:one\s+|section\s+|part\s+|day\s+)?(?:with|having|of)\s+$")


def _each_item(low: str, m: re.Match[str]) -> bool:
    """Whether "each one", "every tip"... stands just before the count ``m``."""
    before = low[max(0, m.start() - 40) : m.start()]
    return is_part(low, m) and _EACH_ITEM.search(before) is not None


#: A text the answer is, whose characters are counted: a tweet, a description, a bio.
_CHARACTER_TEXT = re.compile(
    r"\b(?:tweets?|posts?|descriptions?|bios?|captions?|titles?|headlines?|subject\s+lines?|sms"
    r"|texts?|messages?|taglines?|slogans?|summary|summaries|alt\s+text|blurbs?|ad|ads"
    r"|copy|reply|answer|response|status|notification|preview)\b"
)
#: ... not a part of it: "subject line under 50 characters, then a blank line and a body".
_CHARACTER_PART = re.compile(
    r"\b(?:titles?|subject(?:\s+line)?|headlines?|headings?|names?|labels?|first\s+line|hook"
    r"|opening|each|every|per)\b[^.\n]*$"
)
#: ... not a thing inside it: "a password of 16 characters".
_CHARACTER_THING = re.compile(
    r"\b(?:passwords?|passphrases?|pins?|usernames?|keys?|tokens?|strings?|ids?|hash(?:es)?|codes?"
    r"|serials?|fields?|columns?|varchar|tables?|schemas?|inputs?|database)\b"
)


#: Verse, whose lines are counted exactly: "poem about coffee, 6 lines", "a 2-line couplet".
_VERSE = re.compile(
    r"\b(?:poems?|verses?|couplets?|haikus?|limericks?|stanzas?|sonnets?|rhymes?)\b"
)


_AFTER_ANOTHER = re.compile(r"\b(?:then|followed\s+by|plus|and\s+also|as\s+well\s+as)\b")


def _bare_count(low: str, m: re.Match[str], unit: str, n: int) -> tuple[str, int] | None:
    """A bare "N words" / "N lines": "in 50 words" reads as at most 50; a "300-word essay" is
    a target nobody counts exactly, so it is not inferred (but a "6 lines" poem has 6, and
    a "6-word story" 6 words)."""
    if re.search(rf"\bin\s+{re.escape(m.group('n'))}\s", low[max(0, m.start() - 4) : m.end()]):
        return "at_most", n
    if unit == "lines" and _VERSE.search(low):
        return "exactly", n
    if (
        unit == "words"
        and n <= 12
        and "-" in m.group(0)
        and not _AFTER_ANOTHER.search(low[: m.start()])
    ):
        return "exactly", n  # "a 6-word story": every word counts (not "..., then a 3-word slogan")
    return None


_YES_NO_THEN = re.compile(
    r"\byes\s+or\s+no\b[^.?!\n]{0,40}?\bthen\s+(?:(?:give|add|write)\s+(?:me\s+)?"
    r"|explain\w*\s+(?:it\s+|why\s+)?(?:in\s+)?)?$"
)


def _after_yes_no(low: str, m: re.Match[str]) -> bool:
    """Whether the count ``m`` follows "yes or no first, then": the rest of the answer."""
    start = count_start(m)
    return _YES_NO_THEN.search(low[max(0, start - 80) : start]) is not None


def _whole_count(
    low: str, m: re.Match[str], unit: str, rel: str, value: int
) -> tuple[str, int] | None:
    """The relation and value of a count of the whole answer, or ``None`` where it is none
    to check."""
    if unit == "characters":
        if not _CHARACTER_TEXT.search(low) or _CHARACTER_THING.search(low):
            return None  # "a password of 16 characters" counts the password, not the answer
        if _CHARACTER_PART.search(low[max(0, m.start() - 30) : m.start()]):
            return None  # "a title under 80 characters and 5 bullet points": a part
        if rel == "exactly" and not m.group("rel"):
            return "at_most", value  # "a 280-character tweet", "160 characters": a limit
    if unit == "words" and _CAPITALISED.match(low, m.end()):
        return None  # "fewer than 3 words in all caps": capital_words reads it
    if unit in ("words", "lines") and rel == "exactly" and not m.group("rel"):
        return _bare_count(low, m, unit, value)
    return rel, value


def _lines_of(low: str, unit: str) -> str:
    """What a count of lines counts: the code of a script ("keep the script to 10 lines":
    its code, not the fences), the verse of a poem ("a 6-line poem, then explain the
    imagery", "Here's a 6-line poem:": the poem's lines, not the prose beside it), or all
    the answer's lines."""
    if unit == "lines" and _ABOUT_CODE.search(low):
        return "code_lines"
    if unit == "lines" and _VERSE.search(low):
        return "verse_lines"
    return unit


#: Words counted for a form put on them, not the answer's length: "bold no more than 3
#: words", "italicize at most 5 words", "bold the 2-3 word phrases" (the bold rule reads
#: those).
_FORMATTED_WORDS = re.compile(
    r"\b(?:bold|bolded|bolding|italici[sz]e|italici[sz]ed|underline|underlined|highlight)"
    r"\s+(?:(?:only|just|the)\s+){0,2}$"
)


#: The low end of a range of a unit: "2-3 sentences", "two or three paragraphs", "a couple
#: or three sentences".
_LOW_END = (
    r"(?:\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty"
    r"|thirty|fifty|a\s+couple(?:\s+of)?)"
)
#: "a sentence or two", "a paragraph or three": at most the number after "or".
_OR_MORE = re.compile(r"\s+or\s+(?P<hi>two|three|2|3)\b")


#: Words before "a paragraph" / "a sentence" that ask for one as the answer: "write (me) a
#: paragraph", "answer in a sentence", "keep it to a paragraph", "no longer than a
#: paragraph", or a clause that opens with it ("A paragraph on bees, please.").
_ASKS_ONE = re.compile(
    r"(?:^|[.!?;:(\n]|,)\s*(?:(?:please|pls|just|only|and|then|also|now)\s+)?$"
    r"|\b(?:write|give|draft|compose|make|create|produce|generate|need|want|like|get|do|send"
    r"|craft|prepare|type|provide|love|offer|share|(?:write|type|jot)\s+(?:up|down|out)|put\s+together"
    r"|turn\s+(?:it|this|that)\s+into|(?:answer|reply|respond)\s+with)"
    r"\s+(?:me\s+|us\s+)?(?:just\s+|only\s+)?$"
    r"|\b(?P<prep>in|as|into|than|under|within|form\s+of)\s+(?:(?:just|only|about|roughly"
    r"|around|under|at\s+most)\s+)?$"
    r"|\b(?:keep|limit|cut|trim|shorten|condense|restrict|stick|boil|it|this|that|them|down"
    r"|answer|reply|response|yourself)\s+(?:it\s+|this\s+|that\s+|them\s+|down\s+)?to\s+"
    r"(?:just\s+|only\s+|about\s+)?$"
)
#: Words before a count of paragraphs or sentences that make them the asker's material, not
#: the answer's form: "for a paragraph about bees", "feedback on the 3 paragraphs", "help
#: with one paragraph", "in the two sentences below", "here's a paragraph".
_MATERIAL_BEFORE = re.compile(
    # not "aim for 3-4 sentences", "shoot for 2 paragraphs", "go for a paragraph": a target
    r"\b(?:(?<!\baim\s)(?<!\bshoot\s)(?<!\bgo\s)(?<!\bgoing\s)(?<!\btarget\s)"
    r"(?<!\bstrive\s)(?<!\baiming\s)(?<!\bshooting\s)for|from|on|regarding"
    r"|help\s+(?:me\s+)?with|read|reading"
    r"|here'?s|here\s+is|check|proofread|fix|edit|review|grade|mark|understand|analy[sz]e"
    r"|explain|identify|find|summari[sz]e)\s+"
    r"(?:(?:the|this|that|these|those|my|our|his|her|their|your|its|a|an)\s+)?$"
    # "about the 3 paragraphs" (not "about 3 sentences", "about a paragraph": a hedge)
    r"|\b(?:of|in|into|with|about)\s+(?:the|this|that|these|those|my|our|his|her|their|your"
    r"|its)\s+$"
)
#: Words before a count that ask the answer to write that many ("write 2 paragraphs in my
#: style", "give me two sentences from the perspective of a cat"): the words after the count
#: then say what to write, not whose material it is.
_WRITES_COUNT = re.compile(
    r"\b(?:write|give|draft|compose|create|produce|generate|craft|prepare|provide|type|add"
    r"|(?:write|type|jot)\s+(?:up|down|out))\s+(?:me\s+|us\s+)?(?:just\s+|only\s+|about\s+"
    r"|around\s+|roughly\s+|exactly\s+)?$"
)
#: "continue it for two more paragraphs", "add 2 more sentences": more of the answer's own.
_MORE_OF = re.compile(r"\S+\s+(?:more|additional|extra)\s")
#: ... or after it (matched where the count ends): "a paragraph she wrote", "one paragraph
#: from my essay", "the 3 sentences I have".
_MATERIAL_AFTER = re.compile(
    r"\s*(?:(?:that|which)\s+)?(?:i|she|he|we|they|you|my\s+\w+|her\s+\w+|his\s+\w+)\s+"
    r"(?:wrote|write|have|had|has|did|made|found|read|got|sent|typed|posted|pasted|drafted"
    r"|am\s+\w+ing|was\s+\w+ing|is\s+\w+ing|are\s+\w+ing)\b"
    r"|\s*(?:from|of)\s+(?:my|her|his|their|our|the|this|that|your|a|an)\b"
    r"|\s*in\s+(?:my|her|his|their|our|your)\b"
)


#: A topic after "in a paragraph" that names the paragraph ("in a paragraph about bees"),
#: not a length ("in a paragraph about 80 words long").
_ABOUT = re.compile(r"\s+(?:about|on)\s+(?!\d)")


def _names_material(low: str, m: re.Match[str], start: int | None = None) -> bool:
    """Whether the count of paragraphs or sentences ``m`` names the asker's material (the
    subject matter: "for a paragraph about bees", "a paragraph she wrote") rather than the
    answer's form; "a paragraph" / "a sentence" asks for the answer's form only where
    ``_ASKS_ONE`` says so ("write a paragraph", "in a sentence", "keep it to a paragraph")."""
    at = count_start(m) if start is None else start
    before = low[max(0, at - 60) : at]
    if _MORE_OF.match(low, at):
        return False  # "continue it for two more paragraphs"
    if _MATERIAL_BEFORE.search(before):
        return True
    if _MATERIAL_AFTER.match(low, m.end()) and not _WRITES_COUNT.search(before):
        return True  # "a paragraph she wrote" (not "write 2 paragraphs in my style")
    if re.match(r"an?\s+(?!single\b)", low[at:]):  # "a paragraph", "a sentence"
        asks = _ASKS_ONE.search(before)
        # "find two facts in a paragraph about volcanoes": the paragraph is named by its topic
        return asks is None or bool(asks.group("prep") and _ABOUT.match(low, m.end()))
    return False


def _number_at(m: re.Match[str]) -> int:
    """Where the number of the count ``m`` starts: past "in" / "as" in "in one sentence"."""
    said = re.search(r"\b(?:one|a\s+single|1)\b", m.group(0))
    return m.start() + (said.start() if said else 0)


def _count_relation(low: str, m: re.Match[str]) -> tuple[str, int]:
    """The relation and value of the count of a unit ``m``: "under 50 words", "2-3
    sentences" and "two or three paragraphs" (at most 3: at least 2 is rarely the risk), "in
    a sentence or two" (at most 2), "a couple of sentences" (at most 3)."""
    rel, value = relation(m.group("rel"), m.group("tail"), num(m.group("n")))
    if m.group("low"):
        rel = "at_most"
    elif (more := _OR_MORE.match(low, m.end())) and m.group("n") in ("a", "an", "one"):
        rel, value = "at_most", num(more.group("hi"))
    if m.group("n") == "a couple of" and not m.group("rel"):
        rel, value = "at_most", 3
    return rel, value


#: What a number before "words" may measure instead of counting them: "two-letter words".
_WORD_LENGTH = r"(?:letter|syllable|character|digit)s?\b"


def _counts(q: str, low: str) -> Iterator[Instruction]:
    for unit_rx, unit in _UNIT_WORDS.items():
        head = (
            rf"\b{REL}?\s*(?P<low>between\s+{_LOW_END}\s+and\s+|{_LOW_END}\s*(?:-|–|—|to\b|or\b)\s*)?"
            rf"{NUM}(?:\s*-\s*|\s+)"
            rf"(?:(?!{_LOW_END}\b|{_WORD_LENGTH})\w+\s+)?"  # not "a 3 sentence summary"
            # a length of each word between: "exactly 5 two-letter words" counts 5 words,
            # as a list ("two-letter words" alone counts none)
            rf"(?:\w+-{_WORD_LENGTH}\s+(?:\w+\s+)?)?"  # ("6 one-syllable fruit words")
            rf"(?P<unit>{unit_rx})\b{_TAIL}"
        )
        for m in re.finditer(head, low):
            start = count_start(m)  # past the blank the match may open with: "bold 2-3 words"
            if _FORMATTED_WORDS.search(low[max(0, start - 20) : start]):
                continue  # "bold no more than 3 words": a count of bold spans
            rel, value = _count_relation(low, m)
            if m.group("n") in ("a", "an") and (
                unit not in ("sentences", "paragraphs") or m.group("unit").endswith("s")
            ):
                continue  # "a word", "a line", "a few sentences": not a count
            if unit in ("sentences", "paragraphs") and _names_material(low, m):
                continue  # "for a paragraph about bees", "a paragraph she wrote"
            if is_part(low, m) or is_part_after(low, m, then=unit == "sentences"):
                # "then 2 sentences of advice", "one sentence each", "in one sentence, then
                # list 3 features": a count of a part; "keep each one under 10 words" is a
                # limit on every item
                per_item = _per_item_unit(low, m, unit, rel)
                if per_item is not None:
                    yield make("count", m.group(0), unit=per_item, relation=rel, value=value)
                elif unit == "sentences" and rel != "at_least" and _after_yes_no(low, m):
                    # "yes or no first, then one sentence": the verdict and one more
                    yield make("count", m.group(0), unit=unit, relation="at_most", value=value + 1)
                continue
            whole = _whole_count(low, m, unit, rel, value)
            if whole is None:
                continue
            rel, value = whole
            sep = "***" if unit == "paragraphs" and re.search(r"\*\s?\*\s?\*", q) else None
            unit = _lines_of(low, unit)
            if unit == "words" and re.search(rf"-{_WORD_LENGTH}", m.group(0)):
                unit = "items"  # "exactly 5 two-letter words": a list of five words
            yield make("count", m.group(0), unit=unit, relation=rel, value=value, separator=sep)


#: The unit named first, its bound after it: "Bullet points, 3 max.", "sentences: 2 tops".
_UNIT_THEN_BOUND = re.compile(
    rf"\b(?P<unit>bullet(?:ed)?\s+points?|bullets|sentences|paragraphs|words|lines)\s*[,:(–-]\s*"
    rf"{NUM}(?P<tail>{TAIL_MOST}|{TAIL_LEAST})"
)


def _single_counts(q: str, low: str) -> Iterator[Instruction]:
    for m in _UNIT_THEN_BOUND.finditer(low):
        word = m.group("unit")
        unit = "bullets" if word.startswith("bullet") else word  # the others name their unit
        rel, value = relation(None, m.group("tail"), num(m.group("n")))
        yield make("count", m.group(0), unit=unit, relation=rel, value=value)
    for m in re.finditer(rf"\bword\s+(?:limit|count)\s+of\s+{NUM}", low):
        yield make("count", m.group(0), unit="words", relation="at_most", value=num(m.group("n")))
    for m in re.finditer(
        r"\b(?:in\s+|as\s+|with\s+|using\s+)?(?:one|a\s+single|1)\s+sentence\b", low
    ):
        if (each_after(low, m) and not is_part(low, m)) or _each_item(low, m):
            # "one sentence each", "each step a single sentence", "keep each bullet to one
            # sentence"
            yield make("count", m.group(0), unit="item_sentences", relation="exactly", value=1)
        elif (
            not is_part(low, m)
            and not is_part_after(low, m, then=True)
            and not re.search(
                r"^\s*(?:each|per|for|summar|about|that|of|on|at\s+the\s+end)", low[m.end() :]
            )
            and not _names_material(low, m, _number_at(m))
        ):
            yield make("count", m.group(0), unit="sentences", relation="exactly", value=1)
    for m in re.finditer(r"\b(?:in\s+|as\s+)?(?:one|a\s+single)\s+paragraph\b", low):
        if not re.search(r"^\s*(?:each|per|for)", low[m.end() :]) and not _names_material(
            low, m, _number_at(m)
        ):
            yield make("count", m.group(0), unit="paragraphs", relation="exactly", value=1)
    for m in re.finditer(
        r"\b(?:in\s+|answer\s+in\s+|reply\s+in\s+)(?:one|a\s+single)\s+word\b", low
    ):
        yield make("count", m.group(0), unit="words", relation="exactly", value=1)


_ORDINALS = {
    **{w: i for i, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth"), 1)},
    **{w: i for i, w in enumerate(("1st", "2nd", "3rd", "4th", "5th", "6th"), 1)},
}
_ORD = "|".join(_ORDINALS)
#: "paragraph 2 must start with ...", "the second paragraph should begin with the word 'Yet'".
_PARAGRAPH_FIRST_WORD = re.compile(
    rf"(?:paragraph\s+(?:{NUM}|(?P<ord>{_ORD}))|(?P<ord2>{_ORD})\s+paragraph)"
    r"\s+(?:must|should|has\s+to|needs\s+to|will|is\s+to)?\s*(?:start|begin|open)s?\s+with\s+"
    r"(?:the\s+(?:exact\s+)?word\s+)?[\"'“‘]?(?P<w>\w[\w-]*)"
)


def _paragraph_separators(q: str, low: str) -> Iterator[Instruction]:
    m = re.search(
        r"(?:separated|separate|divided|split)\s+(?:\w+\s+){0,6}?(?:by|with)\s+(?:the\s+)?(?:markdown\s+divider\s*:?\s*)?(\*\s?\*\s?\*)",
        low,
    )
    if m and "paragraph" in low:
        n = re.search(rf"{REL}?\s*{NUM}\s+paragraphs?", low)
        if n:
            rel, value = relation(n.group("rel"), None, num(n.group("n")))
            yield make(
                "count", n.group(0), unit="paragraphs", relation=rel, value=value, separator="***"
            )
    for m in _PARAGRAPH_FIRST_WORD.finditer(low):
        raw = m.group("ord") or m.group("ord2") or m.group("n")
        idx = _ORDINALS.get(raw) or int(re.sub(r"\D", "", raw) or num(raw))
        sep = "***" if "***" in q or "* * *" in q else None
        word = q[m.start("w") : m.end("w")]
        yield make("paragraph_first_word", m.group(0), value=word, index=idx, separator=sep)


#: "each one", "each bullet", "every tip": a limit that applies to every list item.
_EACH_ITEM = re.compile(
    r"\b(?:each|every)\s*(?:one|item|bullet(?:\s+point)?|point|tip|idea|step|line|reason|suggestion"
    r"|option|entry|answer)?\b[^.\n]{0,12}$"
)
#: Plural nouns a count may end on that are not items of a list.
_NOT_ITEMS = frozenset(
    "parts sections chapters paragraphs sentences words lines times letters characters"
    " minutes hours days weeks months years pages versions variants"
    # verse, counted in blocks of lines ("exactly 3 haikus": stanzas), not list items
    " haiku haikus limericks quatrains tanka tankas stanzas poems verses sonnets couplets".split()
)


#: Verse a list count may count, by another noun: "2 haikus as examples", "3 limerick
#: examples", "three haiku as samples" (not "5 poem ideas", "3 haiku prompts": a list).
_VERSE_AS_ITEMS = re.compile(
    r"\b(?:haikus|limericks|quatrains|tankas|stanzas|poems|verses|sonnets|couplets"
    r"|(?:haiku|limerick|quatrain|tanka|stanza|poem|verse|sonnet|couplet)s?"
    r"\s+(?:as\b|examples?\b|samples?\b))"
)
#: Examples of verse, when the request names a kind of it and says of nothing else:
#: "explain what a haiku is with 2 examples", "give 3 examples of limericks" (not "a poem
#: about spring, then 3 examples of flowers").
_EXAMPLES_OF = re.compile(r"\s+of\s+(?:(?:the|a|an|good|short|funny|famous)\s+)?(?P<what>\w+)")


def _verse_items(low: str, m: re.Match[str]) -> bool:
    """Whether the list count ``m`` counts poems, not list items: "with 2 haikus as
    examples", "give 3 limericks as examples", "explain what a haiku is with 2 examples"
    (a count of verse reads as stanzas, where it reads at all)."""
    said = "n" if m.group("n") else "couple"  # "a couple or three haikus as examples"
    counted = m.group(0)[m.end(said) - m.start() :]
    if _VERSE_AS_ITEMS.search(counted):
        return True
    if m.group(0).split()[-1] not in ("examples", "samples"):
        return False
    of = _EXAMPLES_OF.match(low, m.end())
    if of is not None:
        return _VERSE.fullmatch(of.group("what")) is not None
    return _VERSE.search(low) is not None


#: A count of list items that may be a range: "3", "3 or 4", "3 to 5", "3-5", "3–5", "a
#: couple or three" (``lo``/``hi`` of :func:`_item_range`).
_NUM_RANGE = rf"(?:(?P<couple>{COUPLE_OR_THREE})|(?:between\s)?{NUM}(?:{RANGE_HI})?)"
#: The list a bare bound is of, earlier in its sentence: "tips for sleep, no more than 5",
#: "numbered list, 8 max".
_LIST_NAMED = re.compile(rf"\b(?:{_ITEM_NOUNS}|list|numbered|bullets?|bullet\s+points?)\b")
#: Other things a bare number may count: "explain it in sentences, 3 max", "10 minutes max".
_OTHER_UNIT = re.compile(
    r"\b(?:words?|sentences?|paragraphs?|lines?|char(?:acter)?s?|minutes?|hours?|days?|weeks?"
    r"|months?|years?|times?|pages?|people|persons?|kids?|guests?|dollars?|bucks|euros?|pounds?"
    r"|calories|grams?|kg|lbs?|miles?|km|steps?\s+each)\b|[$€£%]"
)
#: A bound with no noun, in a clause of its own: ", no more than 5", ", 8 max", "(5 tops)".
_BARE_BOUNDS = (
    re.compile(
        r"(?:[,;:(]|\s[–—-])\s*(?P<rel>max(?:imum)?|no\s+more\s+than|not\s+more\s+than"
        rf"|at\s+most|up\s+to)\s+{NUM}(?P<tail>)"
        r"\s*(?=[.,;!?)]|$|\s+(?:please|pls|plz|thanks|thx|tops|total)\b)"
    ),
    re.compile(
        rf"(?:[,;:(]|\s[–—-])\s*(?P<rel>){NUM}(?P<tail>{TAIL_MOST})"
        r"\s*(?=[.,;!?)]|$|\s+(?:please|pls|plz|thanks|thx)\b)"
    ),
)


def _bare_bounds(low: str) -> Iterator[re.Match[str]]:
    """The bounds with no noun ("..., no more than 5", "numbered list, 8 max") that follow
    a list named earlier in their sentence, with nothing else counted between."""
    for rx in _BARE_BOUNDS:
        for m in rx.finditer(low):
            opening = max(low.rfind(c, 0, m.start()) for c in ".!?\n")
            before = low[opening + 1 : m.start()]
            named = list(_LIST_NAMED.finditer(before))
            if (
                named
                and m.group("n") not in ("a", "an")
                and not _OTHER_UNIT.search(before[named[-1].end() :])
            ):
                yield m


#: A measure right after a count, which makes the count a modifier of the noun, not a number
#: of items: "20-30 minute dinner recipes", "8-10 year old books", "5-10 dollar gift ideas",
#: "2-3 hour hikes", "3 ingredient cocktails" (not "5 day trips": trips to count).
_MEASURE_AFTER = re.compile(
    r"\s*-?\s*(?:minute|min|hour|hr|second|day(?!\s+trips)|night|week|month|year|years?[- ]old"
    r"|dollar|buck|euro|pound|cent|ingredient|mile|km|kilometer|kilometre|meter|metre|foot|feet"
    r"|inch|page|person|people|player|serving|calorie|step|piece|course|star|bedroom|seat|pack"
    r"|liter|litre|gallon|ounce|oz|gram|kg|lb|word|sentence|paragraph|line|volt|watt|gb|mb)\b"
    r"(?!\s+(?:or|and)\b)"
)


#: "my top 3 ...": the asker's own favourites, told, not asked for.
_OWN_TOP = re.compile(r"\b(?:my|our|his|her|their)\s+$")


def _measure_count(m: re.Match[str]) -> bool:
    """Whether the list count ``m`` is a measure of what is listed ("20-30 minute dinner
    recipes", "8-10 year old books", "2-3 ingredient cocktails"): a modifier, not a count."""
    end = m.end("hi") if m.groupdict().get("hi") else m.end("n") if m.group("n") else -1
    return end >= 0 and _MEASURE_AFTER.match(m.string, end) is not None


def _item_range(m: re.Match[str]) -> tuple[int, int] | None:
    """The range a list count ``m`` gives ("3 or 4 plants", "3-5 ideas", "a couple or three
    birds", "a couple of tips": two or three), if it gives one."""
    if m.groupdict().get("couple") or (
        m.group("n") == "a couple of" and not m.groupdict().get("rel")
    ):
        return 2, 3
    if m.groupdict().get("hi"):
        return num(m.group("n")), num(m.group("hi"))
    return None


#: Words right after a list count that hedge it ("5 or so books", "3ish ideas") or bound it
#: ("5 or more books", "5 or fewer tips", read as ``TAIL_LEAST`` / ``TAIL_MOST``).
_SAID_AFTER_COUNT = re.compile(
    r"(?:-?ish\b|\s+or\s+(?:so(?![\w-])|thereabouts)\b|(?P<bound>\s+or\s+(?:more|fewer|less)\b))"
)
#: A hedge after the counted noun: "5 tips or so", "10 ideas, give or take", "4 hikes,
#: roughly" (not "5 bands or so-called supergroups").
_HEDGE_AFTER = re.compile(
    r"\s*(?:or\s+so(?![\w-])|or\s+thereabouts|,?\s*give\s+or\s+take|-?ish"
    r"|,\s*(?:roughly|approximately|approx|more\s+or\s+less)\s*(?:[.!?,;]|$))",
)
#: A number said in a word (``NUM_WORDS``'s one-word numbers, "a", "an", "single" aside).
_NUMBER_WORD = (
    "(?:" + "|".join(w for w in NUM_WORDS if " " not in w and w not in ("a", "an", "single")) + ")"
)
#: A hedge that closes the sentence of a count, after what the count's noun is of: "4 hikes
#: near Bath, roughly.", "5 ideas for a rainy day, give or take." (not "5 tips, roughly in
#: order": a hedge of the order).
_HEDGE_CLOSES = re.compile(
    # no other number between: "5 snacks under 200 calories, roughly" hedges the calories
    rf"(?:(?!\d|\b{_NUMBER_WORD}\b)[^.!?\n])*?,\s*(?:roughly|approximately|approx|more\s+or\s+less"
    r"|or\s+so|give\s+or\s+take|or\s+thereabouts)\s*(?:[.!?\n]|$)"
)
#: A bound after the counted noun and a comma: "7 recipes, or more if you have them".
_BOUND_AFTER = re.compile(r",?\s*(?P<tail>or\s+(?:more|fewer|less))\b")


def _no_list_count(low: str, m: re.Match[str]) -> bool:
    """Whether the list count ``m`` found counts no items of the answer's list."""
    return (
        m.group("n") in ("a", "an", "single", "a single")
        # "a Pros section and a Cons section, each with exactly 2 bullets"
        or is_part(low, m)
        or is_part_after(low, m)
        # "into exactly 3 parts", "at least 3 times": not list items
        or m.group(0).split()[-1] in _NOT_ITEMS
        # "with 2 haikus as examples": poems, not list items
        or _verse_items(low, m)
        # "20-30 minute dinner recipes", "8-10 year old books": a measure
        or _measure_count(m)
        # "my top 3 favorite movies are ...": the asker's own list
        or bool(_OWN_TOP.search(low, 0, count_start(m)) and m.group(0).lstrip().startswith("top"))
    )


def _lists(q: str, low: str) -> Iterator[Instruction]:
    numbered = re.search(
        r"\bnumbered\s+(?:list|steps|points|items)\b|\bnumber\s+(?:them|each|the\s+steps)\b"
        r"|(?:^|[.!?,;:]\s*)numbered\s*(?:[,.;!]|$)",
        low,
    )
    if numbered:
        yield make("list_form", numbered.group(0), value="numbered")
    bulleted = re.search(
        r"\b(?:in|as|with|use|using)\s+(?:a\s+)?(?:markdown\s+)?(?:bullet(?:ed)?\s*(?:points?|list|form)|bullets)\b"
        r"|\bbullet(?:ed)?[- ](?:point\s+)?list\b"
        # a fragment on its own: "Bullet points pls.", "..., bullets please"
        r"|(?:^|(?<=[.!?,;:])|(?<=[.!?,;:]\s))(?:in\s+)?bullet(?:ed)?s?\s*(?:points?|form|list)?"
        r"(?:\s+(?:pls|plz|please|only))?\s*(?:[.!]|$)",
        low,
    )
    if bulleted and not numbered:
        yield make("list_form", bulleted.group(0), value="bulleted")
    rx = (
        rf"\b{_LIST_VERBS}\s+(?:me\s+|us\s+|the\s+)?(?:{REL}\s+)?{_NUM_RANGE}\s+"
        rf"(?:[\w'-]+\s+){{0,3}}?(?:{_ITEM_NOUNS})\b{_TAIL}"
    )
    explicit = (
        rf"\b{_LIST_VERBS}\s+(?:me\s+|us\s+|the\s+)?"
        rf"(?P<rel>exactly|at\s+least|at\s+most|no\s+more\s+than)"
        rf"\s+{NUM}\s+(?:[\w'-]+\s+){{0,2}}?[a-z]{{3,}}s\b"
    )
    list_of = (
        rf"\b(?P<form>numbered|bullet(?:ed)?(?:[- ]point)?|ordered|check)?\s*list\s+of\s+"
        rf"(?:{REL}\s+)?{_NUM_RANGE}\s+(?:[\w'-]+\s+){{0,2}}?[a-z]{{3,}}s\b{_TAIL}"
    )
    # "What tools do I need? Give me exactly 5, numbered.": a count with its noun left to
    # the question before it (a verb of giving, a relation spelled out, at most 20, the count
    # closing its clause; not "I need at least 27", inches)
    bare = (
        r"(?<=\?\s)(?:[\w'-]+\s+){0,4}?(?:give|list|name|send|suggest|pick|show|recommend"
        r"|share)\s+(?:me\s+|us\s+)?(?P<rel>exactly|at\s+least|at\s+most|no\s+more\s+than)\s+"
        r"(?P<n>\d|1\d|20|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty)"
        r"(?=\s*(?:[,.;!]|$|(?:please|pls)\b))"
    )
    # "list 5 foods", "name 3 rivers": a listing verb, a number, any plural noun
    listing = (
        rf"\b(?:list|name|enumerate)\s+(?:me\s+)?(?P<rel>exactly\s+|at\s+least\s+|at\s+most\s+)?"
        rf"{_NUM_RANGE}\s+(?:[\w'-]+\s+){{0,2}}?[a-z]{{3,}}s\b{_TAIL}"
    )
    # "top 3 likely causes", "your top 5 picks": as many items as the count
    top = (
        rf"\btop\s+(?P<rel>){_NUM_RANGE}\s+(?!per\s*cent|percent)(?:(?!of\b)[\w'-]+\s+){{0,2}}?"
        rf"[a-z]{{3,}}s\b{_TAIL}"
    )
    # "Use exactly 5 checkbox items": a stated count of items to use
    using = (
        rf"\b(?:use|using|include|including)\s+(?P<rel>exactly|at\s+least|at\s+most"
        rf"|no\s+more\s+than)\s+{NUM}\s+(?:[\w'-]+\s+){{0,2}}?(?:items|bullets|bullet\s+points"
        rf"|checkbox(?:es)?|list\s+items)\b"
    )
    # "Exactly 4 steps, numbered.": a sentence that opens with the count
    # "Max 8 items, each under 50 characters."
    opening = (
        # (", and no more than 6 steps": "and" only before a relation spelled out, not "and
        # max 2 games in a row", a rule the asker quotes)
        rf"(?:^|[.!?;:,]\s+|[,;]\s+(?P<joined>and|but)\s+"
        rf"(?=exactly|at\s+least|at\s+most|no\s+more))"
        rf"(?P<rel>exactly|at\s+least|at\s+most|no\s+more\s+than|max(?:imum)?\.?"
        rf"|up\s+to)\s+{NUM}\s+"
        rf"(?:[\w'-]+\s+){{0,2}}?(?:{_ITEM_NOUNS})\b"
    )
    # "numbered list, 8 items max", "5 ideas at most": a clause that is the count and the
    # bound after its noun
    tailed = (
        rf"(?:^|[.!?;:,(]\s*|\b(?:and|but|just|only)\s+)(?P<rel>){_NUM_RANGE}\s+"
        rf"(?:[\w'-]+\s+){{0,2}}?(?:{_ITEM_NOUNS})\b(?P<tail>{TAIL_MOST}|{TAIL_LEAST})(?!\s*\d)"
    )
    # "3 mocktail ideas with ginger beer.": a short request that opens with what it wants
    # (not "3 options I'm weighing", "2 questions: ...", "3 tips that worked for me",
    # "3 steps to reset my router failed", "2 recipes and 1 dessert": the asker's own, or
    # more than one count)
    leading = (
        rf"^\s*(?P<rel>)(?P<n>\d{{1,2}}|two|three|four|five|six|seven|eight|nine|ten|twelve)"
        rf"(?:{RANGE_HI})?\s+"
        # "Two questions. How ...": the asker's own count
        rf"(?!(?:[\w'-]+\s+)?questions?\b)(?:[\w'-]+\s+){{0,2}}?(?:{_ITEM_NOUNS})\b"
        rf"(?=\s*(?:[.,;!?]|$)|\s+(?:with|for|about|on|to|using|that\s+(?!i\b|we\b)|please|pls)\b)"
        rf"(?![^.!?:\n]*(?:\b(?:my|me|i|i'm|i've|we|our|us)\b|\d))(?=[^:\n]*(?:[.!?]|$))"
    )
    # "What are good questions to ask ...? Small firm, 14 people. Just give me 5, numbered.":
    # a count said alone after a question for things, "just" or "only" before it
    just = (
        r"(?:^|(?<=[.!?]\s))(?:just|only)\s+(?:give|list|name|send|suggest|pick|show|share)\s+"
        r"(?:me\s+|us\s+)?(?P<rel>)(?P<n>\d|1\d|20|two|three|four|five|six|seven|eight|nine|ten"
        r"|twelve|fifteen|twenty)(?=\s*(?:[,.;!]|$|(?:please|pls)\b))"
    )
    # "just 3 steps please, I'm going to print it": a count of items asked for
    only = (
        rf"(?:^|[.!?,;:]\s*|\b(?:me|us|it|in)\s+)(?:just|only)\s+(?P<rel>){NUM}\s+"
        rf"(?:[\w'-]+\s+)?(?:{_ITEM_NOUNS})(?=\s*(?:[.,;!]|$|(?:please|pls)\b))(?!,?\s*max\b)"
    )
    # "a practice plan as exactly five numbered steps", "in exactly 4 steps": the form the
    # answer is given in, counted (a relation spelled out, a noun of list items)
    shaped = (
        rf"\b(?:as|in|into)\s+(?P<rel>exactly|at\s+least|at\s+most|no\s+more\s+than)\s+{NUM}\s+"
        rf"(?:[\w'-]+\s+){{0,2}}?(?:{_ITEM_NOUNS})\b"
    )
    matches = (
        list(re.finditer(list_of, low))
        or list(re.finditer(rx, low))
        or list(re.finditer(explicit, low))
        or list(re.finditer(shaped, low))
        or [m for m in re.finditer(bare, low) if _PLURAL_ASKED.search(low, 0, m.start())]
        or [m for m in re.finditer(just, low) if _THINGS_ASKED.search(low, 0, m.start())]
        or list(re.finditer(only, low))
        or list(re.finditer(opening, low))
        or [m for m in re.finditer(using, low) if not negated_before(low, m)]
        or list(re.finditer(listing, low))
        or list(re.finditer(top, low))
        or list(re.finditer(tailed, low))
        or list(re.finditer(leading, low))
        or list(_bare_bounds(low))
    )
    for m in matches:
        if _no_list_count(low, m) or _quoted_rule(low, m):
            continue
        form = m.groupdict().get("form") or ""
        unit = "numbered" if numbered else "bullets" if form.startswith("bullet") else "items"
        phrase = m.group(0).lstrip(" \t\n.!?;:,(–—-")
        if (ranged := _item_range(m)) is not None:
            lo, hi = ranged
            tail = m.groupdict().get("tail") or ""
            if 2 <= lo < hi <= 50:  # "3 or 4 plants": at least 3, at most 4
                if not re.fullmatch(TAIL_MOST, tail):  # "4-5 ideas max": at most 5 only
                    yield make("count", phrase, unit=unit, relation="at_least", value=lo)
                yield make("count", phrase, unit=unit, relation="at_most", value=hi)
            continue
        said = _said_count(low, m)
        if said is not None:
            yield make("count", phrase, unit=unit, relation=said[0], value=said[1])


def _quoted_rule(low: str, m: re.Match[str]) -> bool:
    """Whether a count joined on by "and" (", and at most 5 items") goes on a colon's
    material in its sentence: "a notice for the library: ... and at most 5 items at a
    time" quotes a rule, it sets no form of the answer."""
    if not m.groupdict().get("joined"):
        return False
    opens = max(low.rfind(c, 0, m.start()) for c in ".!?\n")
    return ":" in low[opens + 1 : m.start()]


def _said_count(low: str, m: re.Match[str]) -> tuple[str, int] | None:
    """The relation and the number of one list count ``m`` that is no range, or ``None`` when
    the count is out of bounds or hedged."""
    n = num(m.group("n"))
    if n < 2 or n > 50:
        return None
    tail = m.groupdict().get("tail")
    said = _SAID_AFTER_COUNT.match(low, m.end("n"))
    if said is not None:
        if said.group("bound") is None:
            return None  # "5 or so books", "3ish ideas": a hedge, no count
        tail = tail or said.group(0)  # "5 or more books", "5 or fewer tips"
    if _HEDGE_AFTER.match(low, m.end()) or _HEDGE_CLOSES.match(low, m.end()):
        return None  # "5 tips or so", "10 ideas, give or take", "4 hikes near Bath, roughly."
    if not tail and (bound := _BOUND_AFTER.match(low, m.end())) is not None:
        tail = " " + bound.group("tail")  # "7 recipes, or more if you have them"
    # "5 tips max", "3 ideas or fewer": the tail after the noun sets the relation
    return relation(m.group("rel"), tail, n)


#: What a request may ask for alone, as code: "just the SQL", "formula only".
_CODE_NOUNS = (
    r"(?:code|sql|sql\s+query|query|regex|regexp|regular\s+expression|formula|ddl|css|html"
    r"|bash|shell\s+command|script|snippet|function|interface|type|schema|dockerfile)"
)
#: A verb that asks for data to be made, and up to three words of what ("give me a sample",
#: "write a docker-compose", "generate the"), none of them the asker's own or "help".
_ASKS_FOR_DATA = (
    r"\b(?:give|write|show|make|generate|create|draft|send|provide|produce|share|need|want)"
    r"\s+(?:me\s+|us\s+)?(?:an?\s+|the\s+|some\s+|one\s+)?"
    r"(?:(?!(?:my|our|your|his|her|their|this|that|these|those|help|with|about|in|on|of|for"
    r"|to|from|what|why|how|when|where|which|is|are)\b)[\w.-]+\s+){0,3}?"
)
#: What data in a format is called: "a YAML config", "a JSON payload".
_DATA_NOUNS = (
    r"(?:config(?:uration)?s?|files?|manifests?|snippets?|examples?|samples?|workflows?|specs?"
    r"|templates?|blocks?|definitions?|pipelines?|versions?|equivalents?|payloads?|bodies|body"
    r"|schemas?|for|that|with)"
)
#: The format a request asks for, by the words that ask for it (first match of each).
_FORMATS = patterns(
    (
        "json",
        r"\b(?:in|as|into|using|use|valid|return|output|wrap\w*\s+(?:\w+\s+){0,4}in)\s+"
        r"(?:a\s+|an\s+|the\s+)?(?:valid\s+)?json\b(?!\s+file\s+(?:called|named))"
        r"|\bjson\s+(?:format|object|only)\b"
        r"|\b(?:convert|turn|transform|change|reformat|export|seriali[sz]e)\w*\s+(?:[\w']+\s+){0,5}?"
        r"(?:in)?to\s+(?:a\s+|an\s+)?(?:valid\s+)?json\b",
    ),
    (
        "yaml",
        # (not a choice: "should I write my config in YAML or TOML?")
        r"\b(?:in|as|into|valid)\s+(?:a\s+)?yaml\b(?!\s+or\s)|\byaml\s+format\b"
        r"|\b(?:convert|turn|transform|change|reformat|export)\w*\s+(?:[\w']+\s+){0,3}?(?:in)?to\s+yaml\b",
    ),
    (
        # "give me a YAML config for ...", "write a docker-compose YAML", "I need a sample
        # JSON payload": data in that format somewhere in the answer (a sentence around it
        # is fine), not the whole answer ("as YAML", above). Not "my YAML file fails" (the
        # asker's own), nor "help with this YAML" (words between the verb and the format
        # may not be a possessive, a preposition or "help").
        "yaml_block",
        rf"{_ASKS_FOR_DATA}ya?ml\b(?:\s+{_DATA_NOUNS}\b|\s*[.,;:!?)]|\s*$)",
    ),
    (
        "json_block",
        rf"{_ASKS_FOR_DATA}json\b(?:\s+{_DATA_NOUNS}\b|\s*[.,;:!?)]|\s*$)",
    ),
    (
        "code_only",
        r"\b(?:just|only)\s+(?:the\s+)?code\b[^.\n]{0,40}?(?:code\s*block|no\s+explanation)"
        # "just the command pls, no explanation", "only the one-liner"
        r"|\b(?:just|only)\s+(?:the\s+)?(?:command|one[- ]?liner)s?\b"
        # "Just the SQL, no explanation.", "Reply with only the regex.", "Formula only.",
        # "Give the DDL and nothing else." (not "only the SQL part is slow")
        rf"|\b(?:just|only)\s+(?:the\s+|a\s+|one\s+)?{_CODE_NOUNS}"
        r"(?=\s*(?:[.,;!)]|$|pls\b|please\b|and\s+nothing\b|with\s+no\b|no\s+(?:explanation|prose)))"
        rf"|(?:^|[.!?,;:]\s*|\b(?:the|a)\s+){_CODE_NOUNS}\s+only\b(?=\s*(?:[.,;!)]|$|pls\b|please\b))"
        rf"|\b{_CODE_NOUNS}\s+and\s+nothing\s+else\b"
        r"|\bcode\s+block[^.\n]{0,30}?(?:no|without\s+(?:any\s+)?)\s*(?:explanation|commentary|prose|text)",
    ),
    (
        "code_block",
        r"\b(?:in|inside|within|as|use)\s+(?:a\s+)?(?:fenced\s+|markdown\s+)?code\s*block\b",
    ),
    (
        # "put a comment on every line", "comment each line", "with comments on every line"
        "commented",
        r"\b(?:a\s+)?comments?\s+(?:on|for|beside|next\s+to)\s+(?:every|each)\s+(?:single\s+)?line\b"
        r"(?!\s+items?\b)"
        r"|\bcomment\s+(?:on\s+)?(?:every|each)\s+(?:single\s+)?line\b(?!\s+items?\b)"
        r"|\b(?:every|each)\s+line\s+(?:commented|should\s+have\s+a\s+comment|needs\s+a\s+comment)\b",
    ),
    (
        "comma_separated",
        r"\bcomma[- ]?separated\b(?!\s+(?:values?|file|csv))|\bseparated\s+by\s+commas\b",
    ),
    (
        "blockquote",
        r"\b(?:in|as|inside|within|use|using)\s+(?:a\s+)?(?:markdown\s+)?block[\s-]?quotes?\b",
    ),
    (
        # "Just the table please, nothing else.", "table only", "the table and nothing else"
        "table_only",
        r"\b(?:just|only)\s+(?:the\s+|a\s+)?(?:markdown\s+)?table\b"
        r"(?=\s*(?:[.,;!)]|$|pls\b|please\b|and\s+nothing\b|with\s+no\b|no\s+(?:intro|text|prose|explanation)))"
        r"|(?:^|[.!?,;:]\s*|\b(?:the|a)\s+)(?:markdown\s+)?table\s+only\b(?=\s*(?:[.,;!)]|$|pls\b|please\b))"
        r"|\btable\s+and\s+nothing\s+else\b",
    ),
    (
        "table",
        # (not a game or a thing named with "table": "back into table tennis")
        r"\b(?:in|as|into|using)\s+(?:a\s+)?(?:markdown\s+)?table\b"
        r"(?![\s-]+(?:tennis|football|soccer|salt|saw|wine|manners|top|tops|leg|legs|lamp"
        r"|runner|mats?|cloth|linen|service|games?|talk|read)\b)|\btable\s+format\b"
        r"|\bmarkdown\s+table\b"
        # "can you make a table comparing ...", "put together a little table for me: ...",
        # "I need a table comparing ...", "make a table of the results"; not "how do I make a
        # table showing ... in Word?" (a question about the tool), nor "a script that will
        # create a table" or "my manager asked me to make a table" (someone else's table)
        r"|(?:(?:\byou\s+to\s+|(?<!\bi\s)(?<!\bwe\s)(?<!\bhow\s)(?<!\bto\s)(?<!\bwill\s)"
        r"(?<!\bthat\s)(?<!\bwhich\s)\b)(?:make|create|draw\s+up|put\s+together|generate|produce"
        r"|give|whip\s+up)\s+(?:me\s+|us\s+)?|\b(?:i|we|and)\s+(?:need|want|would\s+like|'d\s+like)\s+"
        r"|\b(?:can|could|may)\s+(?:i|we)\s+(?:get|have)\s+)"
        r"(?:a\s+)?(?:(?:little|quick|simple|small|short|comparison|side[- ]by[- ]side|rough)\s+)*"
        r"table\b(?=\s*(?:for\s+(?:me|us)\s*)?(?::|comparing\b|that\s+compares\b|showing\b"
        r"|that\s+shows\b|listing\b|that\s+lists\b|summari[sz]ing\b"
        # "a table with three columns - role, ...", "a table with 4 columns"
        r"|with\s+(?:a\s+|\d+\s+|(?:two|three|four|five|six|seven)\s+)?columns?\b"
        # "a table for a lightweight backpacking kit: item, weight (g), price (GBP)"
        r"|for\s+(?:[\w'-]+\s+){0,5}?[\w'-]+\s*:"
        r"|of\s+(?!contents\b)))"
        # "A table would be ideal.", "a comparison table please" (a sentence of its own)
        r"|(?:^|[.!?]\s+)(?:a\s+|in\s+a\s+)?(?:comparison\s+|simple\s+|quick\s+)?table\s+"
        r"(?:would\s+be\s+(?:ideal|great|perfect|best|nice|good|helpful|handy|useful|lovely)"
        r"|(?:please|pls)|if\s+(?:possible|you\s+can))"
        r"(?:\s*,?\s*(?:thanks|thank\s+you|cheers|ta)\b)?\s*[.!]?\s*$"
        # "A table please, columns for light, watering and temperature": its layout told
        r"|(?:^|[.!?]\s+)(?:a\s+|in\s+a\s+)?(?:comparison\s+|simple\s+|quick\s+)?table\s+"
        r"(?:please|pls)\s*(?:[,:;—–-]\s*|\s)(?:with\s+)?(?:(?:a\s+|\d+\s+"
        r"|(?:two|three|four|five|six|seven)\s+)?columns?|(?:one\s+)?rows?)\b",
    ),
)
#: All lowercase or all capitals; the first that matches wins.
_CASES = patterns(
    (
        "lowercase",
        r"\ball\s+(?:in\s+)?lower\s*-?case\b|\bin\s+lower\s*-?case\b"
        r"|\blower\s*-?case\s+(?:letters\s+)?only\b|\bno\s+capital\s+letters\b"
        r"|\bonly\s+lower\s*-?case\b|\beverything\s+(?:in\s+)?lower\s*-?case\b|\bno\s+capitals\b"
        # a fragment on its own: "Lowercase, comma separated."
        r"|(?:^|(?<=[.!?;:])\s*)lower\s*-?case\s*(?:only\s*)?(?=[,.;!]|$)"
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


_CAPITAL_WORD_COUNT = re.compile(CAPS_WORDS)
#: What follows "N words" when they are capitalised words, not the answer's length.
_CAPITALISED = re.compile(rf"\s+{CAPITALISED}")


#: A data noun made by a verb, then "in YAML": "write a GitHub Actions workflow in YAML",
#: "a compose file in yaml": data in the answer, not every line of it YAML.
_DATA_IN = re.compile(
    r"\b(?:give|write|show|make|generate|create|draft|provide|produce|share|need|want)\b"
    r"[^.!?\n]{0,60}?\b(?:config(?:uration)?|file|manifest|workflow|spec|specification"
    r"|template|pipeline|definition|example|sample|snippet|payload|body|schema)s?\s*$"
)
#: A question about data, not a request for it: "Should I write a JSON schema or use
#: Pydantic?", "Do I need a YAML file for this?", "Why would anyone write a YAML config?".
_ASKED_ABOUT = re.compile(
    r"(?:^|[.!?\n]\s*)(?:should|why|is|are|does|did|do\s+(?:i|we|you)|how)\b[^.!?\n]*$"
)
#: After the data phrase: a choice, a how-to or the asker's own data ("..., how?", "? or
#: should I use k8s", "smaller, it's 2MB").
_ASKED_AFTER = re.compile(
    r"^(?:[^.!?\n]*\bhow\s*\?|\s*\??\s*or\b|\s+(?:smaller|shorter|bigger|larger|faster|work))"
)
#: Code whose product is data: "a function to generate a JSON payload", "a JSON Schema
#: validator", "... in Python", "with fetch()", "to a file".
_CODE_PURPOSE = re.compile(
    r"\b(?:function|script|class|method|program|code|cli|tool|endpoint|handler|util\w*)\b"
    r"[^.!?\n]{0,20}\bto\s*$"
)
_CODE_AFTER = re.compile(
    r"^\s*(?:validators?|parsers?|generators?|seriali[sz]ers?|librar(?:y|ies)|loaders?"
    r"|readers?|writers?|builders?|types?|classes|class|models?)\b"
    r"|^[^.!?\n]{0,30}\b(?:in|with|using)\s+(?:python|node(?:\.js)?|js|javascript|typescript|ts"
    r"|go|golang|java|c#|rust|ruby|php|kotlin|swift|bash|fetch|curl|axios|requests)\b"
    r"|^[^.!?\n]{0,30}\bto\s+(?:a\s+|the\s+)?(?:file|disk|database|db|s3)\b"
)


def _data_asked(low: str, m: re.Match[str]) -> bool:
    """Whether the data phrase at ``m`` asks for data in the answer (not a question about
    data, nor code that makes it)."""
    before, after = low[: m.start()], low[m.end() :]
    if _ASKED_ABOUT.search(before) or _ASKED_AFTER.match(after):
        return False
    return not (_CODE_PURPOSE.search(before) or _CODE_AFTER.match(after))


#: Data asked for in a question or an ask to give it: "Could you give me the fields it should
#: have as JSON?" (not "Wrap your entire output as JSON": see ``_DATA_ALONE``).
_GIVEN_AS = re.compile(r"\b(?:give|send|show|list|provide|share)\b[^.?!\n]{0,80}$")
#: Data asked for by a conversion: "pull these into JSON", "convert it to JSON".
_INTO = re.compile(r"into\b|\w+\s+(?:[\w']+\s+){0,5}?(?:in)?to\b")
#: A request that wants the data and nothing else, said of the answer: "JSON only",
#: "nothing outside the JSON", "don't say anything else", "I'm pasting it into an app",
#: "your entire output" (not "I only have it as a CSV", "my raw sensor log").
_DATA_ALONE = re.compile(
    r"\b(?:json\s+only|only\s+(?:the\s+)?(?:valid\s+)?json|just\s+(?:the\s+)?(?:valid\s+)?json"
    r"|nothing\s+(?:else|outside|but)|no\s+(?:other|extra)\s+(?:text|words)"
    r"|no\s+(?:prose|commentary|explanations?|notes?)"
    r"|(?:don'?t|do\s+not)\s+(?:say|add|write|include)\s+anything\s+else"
    r"|(?:feed|pipe|send|load|post|past|pars)\w*\s+(?:[\w']+\s+){0,4}?(?:in)?(?:to\s+)?"
    r"(?:(?:my|an?|the|our)\s+)?(?:api|app|script|jq|code|program|parser|postman|insomnia|terminal"
    r"|tool|website|site|form|database|db|system)"
    r"|(?:so|because)\s+(?:i|we)\s+can\s+parse"
    r"|(?:your|the)\s+(?:entire|whole)\s+(?:output|response|answer)"
    r"|machine[\s-]readable|programmatically)\b"
)


#: A table left to the answer's choice ("a bulleted list is totally fine", "a table or a
#: list, whatever's clearer"), asked for as another format ("... as CSV"), or a
#: database's table.
_TABLE_OPTIONAL = re.compile(
    r"\bor\s+(?:a\s+)?(?:bullet(?:ed)?\s+|numbered\s+)?list\b|\blists?\s+(?:is|are|would\s+be)"
    r"\s+(?:\w+\s+)?(?:fine|ok|okay|good)\b|\bwhatever(?:'s|\s+is)\s+(?:clearer|easier|best)\b"
    r"|\bif\s+a\s+table(?:'s|\s+is)\b|\b(?:as|in|into|to)\s+(?:a\s+)?csv\b"
    # a table the asker's code makes: "React: how do I render an array of users as a table?"
    r"|\bhow\s+(?:do|can|would|should|to)\s+(?:i\s+|we\s+)?(?:\w+\s+){0,2}?(?:render|display"
    r"|print|output|draw|build|generate)\w*\b[^.?!\n]{0,60}\btable\b"
    # a database's table ("create a table with columns id, email in postgres")
    r"|\b(?:sql|postgres(?:ql)?|mysql|sqlite|mariadb|database|db|schema|query|select|join"
    r"|migration|auto[\s-]?increments?|primary\s+key|foreign\s+key|varchar|dataframe|pandas)\b"
)


def _formats(q: str, low: str) -> Iterator[Instruction]:
    found: set[str] = set()
    for value, rx in _FORMATS:
        if (m := rx.search(low)) and not negated_before(low, m):  # "don't put it in a table"
            if value == "table" and _TABLE_OPTIONAL.search(low):
                continue
            if value in ("json", "yaml", "json_block", "yaml_block") and not _data_asked(low, m):
                continue
            if (
                value in ("json", "yaml")
                and m.group(0).startswith("in")
                and _DATA_IN.search(low[: m.start()])
                and not re.match(r"\s+only\b", low[m.end() :])  # "... in YAML only"
            ):
                value = f"{value}_block"
            given = m.group(0).startswith("as") and _GIVEN_AS.search(low[: m.start()])
            if (
                value == "json"
                and (_INTO.match(m.group(0)) or given)
                and not _DATA_ALONE.search(low)
            ):
                value = "json_block"  # "pull the line items out of this into JSON", "could you
                # give me the fields as JSON?": a note after the block is fine, unless the
                # request wants the data alone
            if value.removesuffix("_block") in found or value in found:
                continue  # "convert this to a YAML file": the whole answer, as YAML
            found.add(value)
            yield make("format", m.group(0), value=value)
    yield from _table_columns(q, low, asked=bool(found & {"table", "table_only"}))


def _stdlib_only(q: str, low: str) -> Iterator[Instruction]:
    """ "stdlib only", "no third-party packages", "can't pip install anything"."""
    m = STDLIB_ONLY.search(low)
    if m and not negated_before(low, m) and not _NOT_LIMITED.search(low[: m.start()]):
        yield make("stdlib_only", m.group(0))


#: "don't limit it to the standard library", "no need to stick to": a freedom, not a rule.
_NOT_LIMITED = re.compile(
    r"\b(?:don'?t|do\s+not|doesn'?t|no\s+need\s+to|not)\s+(?:have\s+to\s+)?(?:limit|restrict|stick)"
    r"[^.!?\n]{0,30}$"
)


def _cases(q: str, low: str) -> Iterator[Instruction]:
    if _CAPITAL_WORD_COUNT.search(low):
        low = _CAPITAL_WORD_COUNT.sub(" ", low)  # "words in all capital letters ... N times"
    for value, rx in _CASES:
        for m in rx.finditer(low):
            before = low[max(0, m.start() - 40) : m.start()]
            if _SOME_WORDS.search(before) and not _WHOLE_ANSWER.search(before):
                continue  # "put the essential items in ALL CAPS": some words, not the answer
            if re.search(r"[\"'”’]\s*\($", before):
                continue  # '"SECTION 1", "SECTION 2" (in caps)': the quoted words only
            if negated_phrase(low, m.group(0)):
                continue  # "in all caps, not in lowercase": the case not asked for
            yield make("case", m.group(0), value=value)
            return


#: What a case instruction names when it is about some words only.
_SOME_WORDS = re.compile(
    r"\b(?:words?|items?|terms?|names?|phrases?|headings?|headers?|titles?|labels?|letters?"
    r"|keywords?|acronyms?|warnings?)\b(?:\s+[\w']+){0,2}\s*$"
)
#: ... unless the answer itself is named right before: "so write it in ALL CAPS".
_WHOLE_ANSWER = re.compile(
    r"\b(?:it|everything|all\s+of\s+it|the\s+whole\s+\w+|your\s+(?:entire\s+|whole\s+)?(?:answer"
    r"|response|reply))\s*$"
)


_CHAR_WORDS = {
    "commas?": ",",
    "exclamation\\s+(?:marks?|points?)": "!",
    "semicolons?": ";",
    "question\\s+marks?": "?",
    "hashtags?": "#",
    "em[- ]?dashes": "—",
    # (not "periods": "no periods for three months" is no punctuation)
    "full[- ]?stops?": ".",
}


def _chars(q: str, low: str) -> Iterator[Instruction]:
    for words, char in _CHAR_WORDS.items():
        m = re.search(
            # "without using any commas", "do not include any semicolons", "avoid using"
            rf"\b(?:no|skip|without(?:\s+(?:using|including))?(?:\s+any)?"
            rf"|refrain\s+from\s+(?:the\s+)?(?:use\s+of\s+|using\s+)?(?:any\s+)?"
            rf"|(?:do\s+not|don't|never)\s+(?:use|include|put|add)\s+(?:any\s+|a\s+single\s+)?"
            rf"|avoid(?:ing)?\s+(?:using\s+)?(?:any\s+)?"
            rf"|not\s+(?:a\s+)?(?:single\s+)?|zero)\s*{words}\b|\b{words}[- ]free\b",
            low,
        )
        if m:
            yield make("forbidden_chars", m.group(0), value=char)


#: The keys a JSON answer must have: 'as JSON with keys "item" and "quantity"', "JSON with
#: keys name, current_role, notice_period". The list ends where the clause does.
_JSON_KEYS = re.compile(
    r"\bjson\b[^.\n]{0,80}?\b(?:with|using|having|containing|(?:should|must)\s+have)\s+"
    r"(?:the\s+)?(?:(?:two|three|four|five|six|\d)\s+)?(?:keys|fields|properties)\s*:?\s*"
    r"(?P<keys>[^.;:\n]{1,300})"
    # quoted names before the word: "a JSON object with `title` and `year` fields"
    r"|\bjson\b[^.\n]{0,80}?\bwith\s+(?P<named>(?:[\"'`][\w .-]{1,40}?[\"'`]"
    r"(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+)?){2,})\s*(?:keys|fields|properties)\b"
)
_QUOTED_KEY = re.compile(r"[\"'`“‘]([\w .-]{1,40}?)[\"'`”’]")
_BARE_KEY = re.compile(r"^[a-z_][a-z0-9_]{0,39}$")


def _json_keys(q: str, low: str) -> Iterator[Instruction]:
    if "json" in low:  # '"tips" (array of exactly 3 short strings)', wherever it is told
        for a in _ARRAY_OF.finditer(q):
            relation = "at_most" if a.group("most") else "exactly"
            n = num(a.group("n"))
            yield make("json_array", a.group(0), value=a.group("key"), count=n, relation=relation)
    m = _JSON_KEYS.search(low)
    if m is None:
        return
    group = "keys" if m.group("keys") is not None else "named"
    span = q[m.start(group) : m.end(group)]
    keys = _QUOTED_KEY.findall(span)
    if not keys:  # bare names: "keys name, current_role and notice_period"
        parts = [p.strip() for p in re.split(r",|\band\b|\bor\b", span)]
        keys = []
        for part in parts:
            if not _BARE_KEY.match(part):
                break  # the list ran into words: "..., each an array of strings"
            keys.append(part)
    if len(keys) >= 2:
        yield make("json_keys", m.group(0), value=list(dict.fromkeys(keys)))


#: A key's array of a set size, told in brackets after it: '"tips" (array of exactly 3
#: short strings)', '"steps": a list of up to 5 strings'.
_ARRAY_OF = re.compile(
    r"[\"'`“‘](?P<key>[\w .-]{1,40}?)[\"'`”’]\s*(?:(?:key|field)(?:\s+too)?\s*)?"
    r"(?:\(|:|-|,|as|is|should\s+be|must\s+be)?\s*(?:an?\s+)?(?:array|list)\s+of\s+"
    r"(?:exactly\s+|(?P<most>(?:at\s+most|up\s+to|no\s+more\s+than)\s+))?"
    r"(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\b",
    re.IGNORECASE,
)


#: What keeps a list alone: "nothing else", "no intro", "nothing before or after", "bullet
#: points only".
_LIST_ALONE = re.compile(
    r"\bnothing\s+else\b(?!\s+(?:works?|worked|helps?|helped|matters?|fits?|will|would|is|was)\b)"
    r"|\bno\s+(?:intro(?:duction)?|preamble|outro)\b"
    r"|\bnothing\s+(?:before|after)\s+(?:or|and)\s+(?:after|before)\b"
    r"|\b(?:don't|do\s+not|no)\s+(?:add\s+)?(?:any\s+)?(?:chat|text|words|commentary)\s+"
    r"before\s+or\s+after\b"
    r"|\b(?:just|only)\s+the\s+(?:list|steps|items|bullets|bullet\s+points)\b"
    r"(?=\s*(?:[.,;!)-]|$|pls\b|please\b))"
    r"|\b(?:bullet\s+points|bullets|numbered\s+list|list)\s+only\b"
)
_DATA_FORM = re.compile(
    r"\b(?:json|yaml|csv|xml|table|code|sql|regex|script|tsv|comma[- ]?separated|commas)\b"
)
#: What the list is asked as: "a list", "bullet points", "numbered", "the steps".
_A_LIST = re.compile(r"\b(?:list|bullet(?:ed)?(?:\s+points?)?|bullets|numbered|steps)\b")


def _list_alone(q: str, low: str) -> Iterator[Instruction]:
    """A list asked for with nothing around it: "Numbered list of what I need, and nothing
    else - no intro", "Only the steps, nothing before or after them", "Bullet points only -
    don't add any chat before or after the list"."""
    if _DATA_FORM.search(low):
        return  # "Convert this list to JSON, nothing else": the data alone, not a list
    m = _LIST_ALONE.search(low)
    if m is not None and _A_LIST.search(low) and not negated_before(low, m):
        yield make("format", m.group(0), value="list_only")


#: The columns a table is asked with: "a table please, columns for light, watering and
#: temperature", "with the columns Type, Power source, Maintenance", "three columns: day,
#: sauna, cold plunge", "columns Appliance | Watts | Hours/day".
_COLUMNS = re.compile(
    r"\bcolumns?\b(?:\s+(?:for|of|called|named|labell?ed|showing|headed))?\s*[:,—–-]?\s*"
    # (not the rows: "three columns comparing cast iron, stainless steel and nonstick pans:
    # material, best for, and care tips" names its columns after the colon)
    r"(?!\s*(?:comparing|that\s+compares?|listing|covering|across|on|about)\b)"
    # (a unit in brackets is part of a name: "rough price (GBP)")
    r"(?:(?:the|a)\s+)?(?P<list>(?:[^.!?;:()\n]|\([^()\n]{1,20}\))+)"
)
#: Where the list of columns ends: the rows' layout, or what the table is for.
_COLUMNS_END = re.compile(
    # (a dash closes the list: "three columns - Part, What it does, What to check -
    # covering the wheel, ...")
    r"\s[—–-]\s|,?\s*(?:(?:with\s+)?(?:one|a)\s+row\b|rows?\b|so\s+(?:i|we)\b|(?:please|pls|thanks)\b"
    r"|(?:and\s+)?(?:exactly|no\s+more|at\s+most|nothing)\b)"
)
#: The most words a column's name has, and the fewest columns a list names.
_COLUMN_WORDS = 4
_MIN_COLUMNS = 2


#: A table's columns listed after it: "a table of cities, nights and hotel budget", "in a
#: table: trail, distance (km), elevation gain, difficulty" (three names at least: "a
#: table of the results" names one thing).
_TABLE_OF = re.compile(
    r"\btable\b(?:\s+(?:please|pls))?(?:\s+for\s+(?:[\w'-]+\s+){0,5}?[\w'-]+\s*(?=:))?"
    r"(?:\s*(?::|of)|\s+[—–-])\s*(?P<list>[^.!?;:\n]+)"
)
#: A layout asked for by its columns alone: "Make me a chore chart for my two kids. Three
#: columns: date, task, owner" (a table, though the request never says so).
_MADE_WITH_COLUMNS = re.compile(
    r"\b(?:make|draft|write|create|give|build|draw\s+up|set\s+up|put\s+together)\b[^.!?\n]{0,80}"
    r"(?:[.!?]\s+)?(?:two|three|four|five|six|[2-6])\s+columns?\s*:"
)
_MIN_LISTED = 3


def _column_names(q: str, m: re.Match[str]) -> tuple[list[str], str]:
    """The names of the list a ``_COLUMNS`` or ``_TABLE_OF`` match opens, up to where it
    ends, and the request's words that name them; no names when a piece is too long for
    a name."""
    span = q[m.start("list") : m.end("list")]
    end = _COLUMNS_END.search(span.lower())
    span = span[: end.start()] if end else span
    parts = [p.strip(" '\"`*—–-") for p in re.split(r",|\band\b|\s\|\s|\s\+\s|&", span)]
    names = [p for p in parts if p]
    if any(len(n.split()) > _COLUMN_WORDS for n in names):
        return [], ""
    return list(dict.fromkeys(names)), q[m.start() : m.start("list") + len(span)].strip()


def _table_columns(q: str, low: str, *, asked: bool) -> Iterator[Instruction]:
    """The columns a table request names (``asked``: a table format was read): after
    "columns" when a table is asked for, or made by its columns alone ("Three columns:
    date, task, owner"), or listed after the table ("a table of cities, nights and hotel
    budget", "care table please: plant, how often to water, light needs"); a table is then
    asked for, if no other words did."""
    if _TABLE_OPTIONAL.search(low):
        return
    m = _COLUMNS.search(low)
    made = _MADE_WITH_COLUMNS.search(low)
    if m is None or not (asked or made):
        m = _TABLE_OF.search(low)
        made = m
    if m is None:
        return
    names, phrase = _column_names(q, m)
    if len(names) < (_MIN_COLUMNS if asked else _MIN_LISTED):
        return
    if not asked and made is not None:
        yield make("format", made.group(0), value="table")
    yield make("table_columns", phrase, value=names)


def _bare_answer(q: str, low: str) -> Iterator[Instruction]:
    for m in BARE_ANSWER.finditer(low):
        if is_part(low, m) or is_part_after(low, m, then=True) or negated_before(low, m):
            continue  # "then just the number on its own line": a part; "not just the name"
        yield make("bare_answer", m.group(0), value=q[m.start() : m.end()].strip(" .,;!"))
        return


#: A list form ruled out: "no bullet points", "skip the bullets", "without a numbered list",
#: "don't use bullet points" (none of its items: at most 0).
_NO_LIST = re.compile(
    r"\b(?:no|without(?:\s+(?:any|using))?|skip(?:\s+the)?|avoid(?:ing)?(?:\s+using)?(?:\s+any)?"
    r"|(?:do\s+not|don't|never)\s+(?:use|include|write|give\s+me|format\s+it\s+as)(?:\s+any)?"
    r"|not\s+(?:in|as))\s+(?:a\s+|the\s+)?"
    r"(?:(?P<bullets>bullet(?:ed)?\s+points?|bullets|bullet(?:ed)?\s+lists?)"
    r"|(?P<numbered>numbered\s+lists?|numbered\s+points|numbering)"
    # "no lists or bullet points", "write it as prose, no lists": neither form
    r"|(?P<lists>lists)(?=\s*(?:or|and|,|\.|;|!|please|pls|$)))\b"
)


def _no_lists(q: str, low: str) -> Iterator[Instruction]:
    for m in _NO_LIST.finditer(low):
        if m.group("lists"):
            yield make("count", m.group(0), unit="bullets", relation="at_most", value=0)
            yield make("count", m.group(0), unit="numbered", relation="at_most", value=0)
            continue
        unit = "bullets" if m.group("bullets") else "numbered"
        yield make("count", m.group(0), unit=unit, relation="at_most", value=0)


#: A count given after the list's form, of its items: "as numbered steps, exactly six of
#: them", "numbered, exactly three so I can pick one", "bullet points, no more than 4".
_COUNT_AFTER_FORM = re.compile(
    r"\b(?P<form>numbered|bulleted|bullet(?:ed)?\s+points?|bullets|(?:numbered\s+)?steps)\b"
    rf"(?:\s+(?:list|please|pls))?\s*,\s*(?:and\s+)?{REL}\s+{NUM}"
    r"(?:\s+of\s+them)?\b"
    # not a count of a part or of something else: "numbered, exactly 3 words each"
    r"(?!\s+(?:words?|sentences?|lines?|characters?|paragraphs?|times?|minutes?|hours?|days?"
    r"|weeks?|months?|years?|each|per|apiece)\b)"
)


def _count_after_form(q: str, low: str) -> Iterator[Instruction]:
    if m := _COUNT_AFTER_FORM.search(low):
        rel, value = relation(m.group("rel"), None, num(m.group("n")))
        form = m.group("form")
        unit = "numbered" if form.startswith(("numbered", "steps")) else "bullets"
        if form.startswith("steps") and "numbered" not in low[: m.end()]:
            unit = "items"  # "as steps, exactly six": steps in whatever list
        yield make("count", m.group(0), unit=unit, relation=rel, value=value)


#: Headings ruled out: "don't use any headings", "no headers please", "without section
#: headings", "skip the headings", "no markdown headings", "no bullet points or headings",
#: "I don't want headings", "no need for headers" (none: at most 0).
_NO_HEADINGS = re.compile(
    r"\b(?:no(?:\s+need\s+for)?|without(?:\s+(?:any|using))?|skip(?:\s+(?:the|any))?"
    r"|avoid(?:ing)?(?:\s+using)?(?:\s+any)?|leave\s+out(?:\s+the)?"
    r"|(?:do\s+not|don't|dont|never)\s+(?:use|include|add|put(?:\s+in)?|want|need|give\s+(?:me|it))"
    r"(?:\s+any)?)\s+(?:the\s+|any\s+)?"
    # other forms ruled out with them: "no bullet points or headings", "no bold, lists or headers"
    r"(?:(?:[\w-]+\s+){0,2}?[\w-]+(?:\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|\s*/\s*)){0,3}?"
    r"(?P<what>(?:markdown\s+|section\s+|sub-?)?(?:headings?|headers)|sub-?headings?)\b"
    # not "no header row", "without headers in the CSV", "no headings except the title"
    r"(?!\s*(?:rows?|columns?|cells?|lines?|fields?|files?|pins?|comments?|guards?|only)\b)"
    # not "no jargon, headings are fine"; not "headings like 'Introduction'" (which ones)
    r"(?!\s+(?:are|is|would|will|can|help\w*|like|such\s+as|that\s+(?:are|say|read)|named"
    r"|called|e\.g\.)(?=\W))"
    r"(?![^.!?\n]{0,20}\b(?:except|other\s+than|besides|apart\s+from|but\s+(?:the|a|one))\b)"
)
#: A request whose headers are not the answer's: HTTP, CSV, spreadsheets, C, email, a
#: page's headers and footers.
_OTHER_HEADERS = re.compile(
    r"\b(?:https?|curl|requests?|api|csv|tsv|sheets?|spreadsheets?|excel|columns?|rows?|tables?"
    r"|dataframe|pandas|cors|cookies?|nginx|apache|c\+\+|cpp|#include|emails?|smtp|packets?"
    r"|fetch|axios|postman|webhook|jwt|auth\w*|token|files?|pdf|word\s+doc\w*|footers?)\b"
)


#: More ways to rule headings out: "don't format it with headings", "don't break it into
#: sections with headers", "no H2s please", "don't use # headers", "headings are not
#: needed", "remove the headings".
_NO_HEADINGS_MORE = re.compile(
    r"\b(?:do\s+not|don't|dont|never)\s+(?:format|break|split|divide|organi[sz]e|structure)"
    r"\s+(?:it|this|the\s+\w+)\s+(?:(?:in|into|up\s+into)\s+sections\s+)?(?:with|using)\s+"
    r"(?:any\s+)?(?:headings|headers)\b"
    r"|\bno\s+(?:h[1-6]s|#+\s+headers|#+\s+headings)(?=\s*(?:[,.;!)]|$|please\b|pls\b|or\b))"
    r"|\b(?:do\s+not|don't|dont|never)\s+use\s+(?:any\s+)?(?:#+\s+|h[1-6]\s+)(?:headers|headings)\b"
    r"|\b(?:headings|headers)\s+(?:are\s+not|aren't|not)\s+(?:needed|necessary|required)\b"
    r"|^\s*remove\s+(?:all\s+|the\s+|any\s+)?(?:headings|headers)\b"
)
#: The user's own text described, not the answer ruled: "they have no headings", "the page
#: has no headings", "I wrote the post without headings", "(no headings, no paragraphs)".
_HEADINGS_DESCRIBED_BEFORE = re.compile(
    r"(?:(?<!that\s)(?<!which\s)(?<!\bit\s)(?<!should\s)(?<!must\s)(?<!\bto\s)(?<!will\s)"
    r"\b(?:has|have|had|there\s+(?:are|were|is)|currently|right\s+now|wrote|written)\b"
    r"[^.!?;\n]{0,30}|\(\s*)$"
)
#: ... or what follows says so: "without headings it's hard to navigate"; or the rule is a
#: part's: "skip the headings for the intro".
_HEADINGS_DESCRIBED_AFTER = re.compile(
    r"^\s*(?:it's|it\s+is|its|it\s+was|is|was|the\s+\w+\s+(?:is|was))\b"
    r"|^\s+(?:for|in)\s+(?:the\s+)?(?:intro\w*|first|opening|conclusion|summary|abstract)"
)
#: Headings the request asks for too: "add H2 headers", "suggest headings", "use clear
#: section headings", "what headings should I add" (a negation before it is checked apart).
_HEADINGS_ASKED = re.compile(
    r"\b(?:add|use|suggest|include|insert|with|what|which|into\s+a\s+\w+\s+\w+\s+with)\s+"
    r"(?:(?!no\b|not\b|any\b|without\b)[\w-]+\s+){0,3}?(?:headings|headers|h[1-6]s?)\b"
)
_NEGATED_BEFORE = re.compile(r"\b(?:no|not|don't|dont|never|without)\s+(?:\w+\s+)?$")


def _headings_asked(low: str) -> bool:
    """Whether the request asks for headings somewhere (not "don't use headings")."""
    return any(
        not _NEGATED_BEFORE.search(low[max(0, m.start() - 15) : m.start()])
        for m in _HEADINGS_ASKED.finditer(low)
    )


def _no_headings(q: str, low: str) -> Iterator[Instruction]:
    for m in _NO_HEADINGS.finditer(low):
        if m.group("what").startswith("header") and _OTHER_HEADERS.search(low):
            continue  # "curl it with no headers", "export the CSV without headers"
        if _HEADINGS_DESCRIBED_BEFORE.search(low[max(0, m.start() - 40) : m.start()]):
            continue  # "right now they have no headings", "the page has no headings"
        if _HEADINGS_DESCRIBED_AFTER.search(low[m.end() : m.end() + 40]) or _headings_asked(low):
            continue  # "without headings it's hard to navigate", "please add H2 headers"
        yield make("count", m.group(0), unit="headings", relation="at_most", value=0)
        return
    more = _NO_HEADINGS_MORE.search(low)
    if more and not _OTHER_HEADERS.search(low):
        yield make("count", more.group(0), unit="headings", relation="at_most", value=0)


#: Verse counted in blocks: "write 3 haikus", "two limericks", "a poem with four stanzas",
#: "3 quatrains", "a four-stanza poem" (not "verses", which may be a song's, with a chorus
#: between; nor "poems" or "sonnets", whose stanzas are blocks of their own; nor "5
#: limerick ideas").
_VERSE_COUNT = re.compile(
    r"(?:^|(?<=[.!?:;,(\n])|\b(?:write|give|compose|create|make|pen|craft|draft|generate|produce"
    r"|need|want|share|send|like|do|with|in|into|of|having|be|me|us|up\s+with|and"
    r"|(?:should|must|will|to|needs?\s+to)\s+have))"
    rf"\s*(?:me\s+|us\s+)?(?:an?\s+)?{REL}?\s*{NUM}"
    r"(?:(?:\s*-\s*|\s+)(?:[\w'-]+\s+){0,2}?(?P<verse>haikus?|limericks|quatrains|tankas?|stanzas)\b"
    r"(?!\s*-?\s*(?:ideas?|prompts?|titles?|topics?|themes?|examples?|options?|suggestions?"
    r"|starters?|lines?|syllables?|words?|collections?|books?|contests?|poets?|per|each"
    r"|apiece)\b)"
    r"|[- ](?P<verse1>stanza|quatrain)\s+(?:poem|ode|ballad)\b)"
)
#: The kinds of verse a request may name: a second kind beside the one counted ("3 haikus
#: and a limerick", "a poem with 4 stanzas and a chorus") makes the blocks not all of it.
_VERSE_KINDS = re.compile(
    r"\b(?:haikus?|limericks?|quatrains?|tankas?|stanzas?|sonnets?|couplets?|poems?|verses?"
    r"|chorus(?:es)?|refrains?|bridges?|songs?|raps?|ballads?|odes?|riddles?|stories|story"
    r"|jokes?|acrostics?|cinquains?)\b"
)
#: Which kinds go with each counted one: a poem has stanzas and quatrains.
_SAME_VERSE = {
    "haiku": ("haiku",),
    "limerick": ("limerick",),
    "tanka": ("tanka",),
    "stanza": ("stanza", "poem", "quatrain", "ode", "ballad"),
    "quatrain": ("quatrain", "poem", "stanza", "ode", "ballad"),
}

#: Two responses split by six asterisks ("two different limericks, separated by
#: ******"), which ``two_responses`` checks.
_TWO_BY_ASTERISKS = re.compile(r"\*{6}|\b(?:6|six)\s+asterisk")


def _verse_kind(word: str) -> str:
    """The kind a plural names: "haikus" is "haiku"."""
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


#: Other content the verse is part of, where blocks of lines are not all verse: "then
#: explain the imagery", "a blog post with 2 haikus as examples", "a lesson plan in which
#: students write 3 haikus"; a question about a form ("how many stanzas does a villanelle
#: have?").
_VERSE_AMONG_PROSE = re.compile(
    r"\b(?:explain\w*|explanation|analy[sz]\w*|blog|essay|article|lesson|discuss\w*"
    r"|commentary|as\s+(?:an?\s+)?examples?|in\s+which|how\s+many)\b"
)


#: Verse counted in other words: "haiku x3", "haiku x3, no title", "3x haiku", "a trio of
#: haikus", "a couple haikus" (not "x3,000").
_VERSE_NOUN = r"(?:haikus?|limericks?|quatrains?|tankas?)"
_VERSE_TIMES = re.compile(
    rf"\b(?P<verse2>{_VERSE_NOUN})\s*[x×]\s*(?P<n2>\d{{1,2}})(?![\w/]|[.,]\d)"
    rf"|(?<![\w.,/])(?P<n3>\d{{1,2}})\s*[x×]\s*(?P<verse3>{_VERSE_NOUN})\b"
    rf"|\ba\s+(?P<trio>trio)\s+of\s+(?:[\w'-]+\s+){{0,2}}?(?P<verse4>{_VERSE_NOUN})\b"
    r"|\ba\s+couple\s+(?P<verse5>haikus|limericks|quatrains|tankas)\b"
)
#: What may follow "haiku" or "tanka" (a plural as it stands) when it names the poems: "3
#: haiku about the sea", "a trio of haiku, please"; another word makes it a kind of thing
#: ("a trio of haiku prompts", "a couple of haiku writing tips").
_VERSE_NAMED = re.compile(
    r"[ \t]*(?:\n|[^\w\s]|$)"
    r"|\s*(?:about|on|for|of|in|to|that|which|with|from|by|and|or|please|pls|each|inspired"
    r"|celebrating|describing|capturing|set|featuring|using|based|like|as|at|around|titled"
    r"|called|without|only|so|then|but|now|today|tonight|where|when|while|numbered|separated"
    r"|following|exploring|evoking|reflecting|the|a|an|my|your|our|his|her|their|this|these"
    r"|those|me|us|i|we|you|they|he|she|it)\b"
)


def _verse_found(m: re.Match[str]) -> tuple[str, str]:
    """The kind of verse a count found names, and its number as the request says it."""
    for verse, n in (("verse", "n"), ("verse1", "n"), ("verse2", "n2"), ("verse3", "n3")):
        if verse in m.re.groupindex and m.group(verse):
            return m.group(verse), m.group(n)
    if m.group("verse5"):
        return m.group("verse5"), "a couple of"
    return m.group("verse4"), "three"


def _verse_named(low: str, m: re.Match[str]) -> bool:
    """Whether the count ``m`` names poems, not a kind of thing ("a trio of haiku masters")."""
    verse = m.group("verse") if "verse" in m.re.groupindex else m.group("verse4")
    return verse not in ("haiku", "tanka") or _VERSE_NAMED.match(low, m.end()) is not None


def _verse_counts(q: str, low: str) -> Iterator[Instruction]:
    if _VERSE_AMONG_PROSE.search(low):
        return  # "write 2 haikus, then explain the imagery in each"
    found = [m for m in _VERSE_COUNT.finditer(low) if m.group("n") not in ("a", "an")]
    # "write 3 x haiku" is read by both patterns, once
    found += [t for t in _VERSE_TIMES.finditer(low) if all(t.start() >= c.end() for c in found)]
    found = [m for m in found if _verse_named(low, m)]
    if len(found) != 1:
        return  # none, or "3 haikus and 2 limericks": blocks of two kinds
    m = found[0]
    verse, said = _verse_found(m)
    kind = _verse_kind(verse)
    named = {_verse_kind(w) for w in _VERSE_KINDS.findall(low)}
    if named - set(_SAME_VERSE[kind]):
        return  # "3 haikus and a limerick", "4 stanzas and a chorus"
    if is_part(low, m) or is_part_after(low, m):
        return  # "then 2 haikus", "3 haikus per season"
    n = num(said)
    rel = m.group("rel") if "rel" in m.re.groupindex else None
    phrase = m.group(0)
    ranged = re.match(RANGE_HI, low[m.end("n") :]) if m.re is _VERSE_COUNT else None
    if ranged and not rel:  # "write 2 or 3 haikus", "2-3 limericks": at least 2, at most 3
        if n < (hi := num(ranged.group("hi"))) <= 20:
            yield make("count", phrase, unit="stanzas", relation="at_least", value=n)
            yield make("count", phrase, unit="stanzas", relation="at_most", value=hi)
        return
    if n == 2 and _TWO_BY_ASTERISKS.search(low):
        return  # "two different limericks, separated by 6 asterisks": two_responses reads it
    if n < 2 or n > 20:
        return
    if said == "a couple of" and not rel:  # "a couple of haikus": two or three
        yield make("count", phrase, unit="stanzas", relation="at_least", value=2)
        yield make("count", phrase, unit="stanzas", relation="at_most", value=3)
        return
    rel, value = relation(rel, None, n)
    yield make("count", phrase, unit="stanzas", relation=rel, value=value)


#: The rules, in order: where two phrasings give the same check, the first wins.
FORM_RULES: tuple[Rule, ...] = (
    _no_lists,
    _no_headings,
    _counts,
    _single_counts,
    _paragraph_separators,
    _lists,
    _count_after_form,
    _verse_counts,
    _formats,
    _stdlib_only,
    _json_keys,
    _list_alone,
    _bare_answer,
    _cases,
    _chars,
)


#: The form checks a negation before their phrase turns around: "Don't use bullet points"
#: asks for none, "Do not include a title" for none, "Don't write more than 2 sentences" for
#: at most 2. (The other rules read their own negations: "no commas", "must not contain".)
_NEGATABLE = frozenset({"list_form", "title", "case", "postscript", "format", "count"})


def _unless_negated(low: str, k: Instruction) -> Instruction | None:
    """``k``, or what its negation asks ("don't write more than 2 sentences": at most 2),
    or ``None`` when no check says it (a form ruled out: no list, no title)."""
    if k.check not in _NEGATABLE or not negated_phrase(low, k.phrase or ""):
        return k
    if k.check == "count" and isinstance(k.value, int):
        if k.relation == "at_least" and k.value > 0:
            return k.model_copy(update={"relation": "at_most", "value": k.value - 1})
        if k.relation == "at_most":
            return k.model_copy(update={"relation": "at_least", "value": k.value + 1})
    return None


def _valid(rule: Rule, query: str, low: str) -> Iterator[Instruction]:
    """What ``rule`` reads, up to an instruction the schema refuses (a 300-letter "term"):
    a request is never refused for what an inferred instruction would have held."""
    try:
        yield from rule(query, low)
    except ValidationError:
        return


def _other_end(out: list[Instruction], k: Instruction) -> bool:
    """Whether the count ``k`` is the other end of a range one phrase gave ("bold 3-5 key
    terms": at least 3 and at most 5), kept beside the first end."""
    same = [o for o in out if o.check == "count" and o.unit == k.unit]
    return (
        k.check == "count"
        and len(same) == 1
        and same[0].phrase == k.phrase
        and same[0].relation != k.relation
        and "exactly" not in (k.relation, same[0].relation)
    )


#: The form checks a count or form named only inside quoted material does not ask of the
#: answer (the words or phrases a check asks for are often quoted: "end with 'Cheers'").
_QUOTABLE = frozenset({"count", "list_form", "format", "case"})


def infer_instructions(query: str) -> list[Instruction]:
    """The checkable instructions ``query`` implies, each once (first phrasing wins)."""
    low = query.lower()
    out: list[Instruction] = []
    seen: set[tuple[Any, ...]] = set()
    for rule in (*FORM_RULES, *WORD_RULES):
        for rule_k in _valid(rule, query, low):
            if about_the_form(low, rule_k.phrase or ""):
                continue  # "how do I write a numbered list", "my essay has two paragraphs"
            if rule_k.check in _QUOTABLE and in_quoted_material(low, rule_k.phrase or ""):
                continue  # 'her homework says "write three paragraphs"': the homework's form
            k = _unless_negated(low, rule_k)
            if k is None:
                continue  # "don't use bullet points", "do not include a title"
            value = tuple(k.value) if isinstance(k.value, list) else k.value
            key: tuple[Any, ...] = (
                (k.check, k.unit) if k.check == "count" else (k.check, k.unit, value)
            )
            if key not in seen or _other_end(out, k):
                seen.add(key)
                out.append(k)
    units = {k.unit for k in out if k.check == "count"}
    if "numbered" in units or "bullets" in units:
        out = [k for k in out if not (k.check == "count" and k.unit == "items")]
    verse = [(k.phrase or "") for k in out if k.check == "count" and k.unit == "stanzas"]
    if verse:  # "give 3 examples of haikus": the haikus are counted as verse, not list items
        out = [
            k
            for k in out
            if not (
                k.check == "count"
                and k.unit == "items"
                and any((k.phrase or "") in v or v in (k.phrase or "") for v in verse)
            )
        ]
    return out


def instruction_terms(instructions: Sequence[Instruction]) -> str:
    return " ".join((k.phrase or "").lower() for k in instructions)

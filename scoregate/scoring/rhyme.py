"""Rhyme asked for or ruled out: "a rhyming poem for the card", "no rhymes please, the
teacher wants free verse". The request rule reads the ask; the check reads the line-end
words of the answer's verse.

Rhymes are read from spelling, not sound: two line-end words rhyme when they differ and end
the same from their last vowel on ("cold" / "gold", "cake" / "lake"), or from the vowel
before when that ending is a weak suffix ("walked" / "talked", not "walked" / "jumped"),
with a few spellings of one sound read as one ("blue" / "new", "night" / "kite"). Sound
rhymes spelt apart ("through" / "blue") are missed, so a rhyme asked for and not found is
judged only where the answer has no verse at all; a ruled-out rhyme fails on two rhyming
pairs.

Pure: text in, verdicts out.

>>> rhyme_key("stake"), rhyme_key("cold"), rhyme_key("walked"), rhyme_key("sky")
('ake', 'old', 'alked', 'ai')
>>> rhymes("cold", "gold"), rhymes("cold", "cold"), rhymes("running", "jumping")
(True, False, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.counting import verse_block_lines
from scoregate.scoring.phrasing import make

#: A vowel group: "y" is a vowel after a consonant ("sky", "happy"), not at a word's start.
_VOWELS = re.compile(r"(?:[aeiou]|(?<=[^aeiou\W])y)+")
#: Endings that are a suffix more than a rhyme: the vowel before them must match too.
_WEAK = frozenset(
    {"ing", "ings", "ed", "es", "ly", "y", "er", "ers", "ion", "ions", "ness", "less", "ful"}
    | {"ment", "ments", "ous", "al", "en", "est", "ies", "ied"}
)
#: Spellings of one sound read as one.
_SAME_SOUND = {
    "ew": "oo", "ue": "oo", "oo": "oo",
    "ight": "ite", "ite": "ite",
    "ain": "ane", "ane": "ane",
    "ee": "ee", "ea": "ee",
    "y": "ai", "igh": "ai", "ie": "ai", "i": "ai", "ye": "ai",
    "oung": "ung", "ung": "ung", "oor": "ore", "ore": "ore",
}  # fmt: skip
#: Endings spelt alike and said apart ("rough" / "though", "come" / "home", "most" /
#: "lost"): no rhyme is read from them.
_EYE = frozenset(
    "ough oughs ost ome one ove oves ood ear ears ead eads ow ows own ose oot our ours ind"
    " ild int ant ood ook ooks".split()
)
#: Words said apart from their spelling ("said" is no "paid", "great" no "heat").
_ODD = frozenset(
    "said says great break steak been were there where have give live heart friend shoe"
    " does won son ton".split()
)
#: Words whose sound their spelling does not give: "eye" rhymes with "high".
_WORD_SOUND = {"eye": "ai", "buy": "ai", "guy": "ai"}


def rhyme_key(word: str) -> str | None:
    """The spelling a rhyming word shares: from its last vowel on, a silent final "e" read
    with the vowel before it; ``None`` for a word too short to rhyme."""
    w = re.sub(r"[^a-z]", "", re.sub(r"['’]s$", "", word.lower()))
    groups = list(_VOWELS.finditer(w))
    if w in _WORD_SOUND:
        return _WORD_SOUND[w]
    if len(w) < 2 or not groups or w in _ODD:
        return None
    last = groups[-1]
    silent_e = (
        len(groups) > 1 and last.group(0) == "e" and last.end() == len(w) and w[-2] not in "aeiou"
    )
    if silent_e:
        groups.pop()
        last = groups[-1]
    key = w[last.start() :]
    if key in _WEAK and len(groups) > 1:
        key = w[groups[-2].start() :]
    return None if key in _EYE else _SAME_SOUND.get(key, key)


def rhymes(a: str, b: str) -> bool:
    """Whether two different words rhyme by spelling (the same word repeated does not, nor
    an ending spelt alike and said apart: ``_EYE``)."""
    ka, kb = rhyme_key(a), rhyme_key(b)
    return ka is not None and ka == kb and a.lower() != b.lower()


def _end_word(line: str) -> str:
    words = re.findall(r"[A-Za-z][A-Za-z'’]*", line)
    return words[-1] if words else ""


def rhyme_pairs(content: str) -> tuple[int, int, list[tuple[str, str]]]:
    """``(lines, rhyming_lines, pairs)`` of the answer's verse: its lines, how many end on a
    word that rhymes with the end of a line at most two lines away in its block, and those
    pairs of words."""
    lines = 0
    rhyming: set[tuple[int, int]] = set()
    pairs: list[tuple[str, str]] = []
    for b, block in enumerate(verse_block_lines(content)):
        ends = [_end_word(ln) for ln in block]
        lines += len(ends)
        for i, word in enumerate(ends):
            for j in range(i + 1, min(i + 3, len(ends))):
                if rhymes(word, ends[j]):
                    rhyming |= {(b, i), (b, j)}
                    pairs.append((word, ends[j]))
    return lines, len(rhyming), pairs


#: A rhyme ruled out: "no rhymes", "without rhyming", "don't make it rhyme", "it should not
#: rhyme", "non-rhyming", "unrhymed", "free verse" ("doesn't have to rhyme" permits, rules
#: nothing out; "no nursery rhymes" names songs, not a form; "no rhymes about death" rules
#: out a topic).
_NO_RHYME = re.compile(
    r"\b(?:no|without|zero|don'?t|do\s+not|shouldn'?t|should\s+not|must\s+not|mustn'?t"
    r"|not|never)\s+(?:make\s+(?:it|them|the\s+\w+)\s+|use\s+|want\s+(?:it|them)\s+to\s+"
    r"|have\s+(?:any\s+)?)?(?:any\s+)?rhym(?:e|es|ing)\b"
    # (not "rhyme scheme", "rhyme time", nor a topic ruled out: "no rhymes about death")
    r"(?!\s+(?:scheme|time|about|with|that|which|for|from|on)\b)"
    r"|\b(?:non-?rhyming|unrhymed|rhyme-?free|free[\s-]verse|blank\s+verse)\b"
    # a dislike of rhyme: "he hates rhyming poems", "I can't stand rhymes"
    r"|\b(?:hates?|dislikes?|can'?t\s+stand|not\s+a\s+fan\s+of)\s+(?:\w+\s+)?rhym(?:es|ing)\b"
)
#: A rhyme asked for: "a rhyming poem", "make it rhyme", "it has to rhyme", "a short rhyme
#: for the invitation", "in rhyming couplets".
_RHYME = re.compile(
    r"\brhyming\s+(?:[\w'-]+\s+){0,2}(?:poem|verse|couplets?|lines?|song|lyrics?|toast|card"
    r"|message|invitation|jingle|riddle|story|book|limerick|quatrains?|lullaby|ditty|chant"
    r"|ballad|carol|rap|greeting|note|birthday)s?\b"
    r"|\b(?:make|have|get)\s+(?:it|them|this(?:\s+one)?|that(?:\s+one)?|the\s+\w+(?:\s+\w+)?)"
    r"\s+rhyme\b"
    r"|\b(?:should|must|has\s+to|have\s+to|needs?\s+to|got\s+to|gotta)\s+rhyme\b"
    r"|\bthat\s+rhymes?\b(?!\s+with)|\b(?:write|do|put|tell)\b[^.?!\n]{0,40}\bin\s+rhyme\b"
    r"|\b(?:a|an)\s+(?:[\w-]+\s+){0,3}?rhyme\s+(?:for|about|to)\b"
)
#: A rhyme asked for outright, which overrides a rule against it said before: "it must
#: rhyme", "make it rhyme".
_MUST = re.compile(r"\b(?:should|must|has\s+to|have\s+to|needs?\s+to|got\s+to|gotta|make)\b")
#: Words before an ask that make it the asker's own trouble or a permission: "my chorus
#: doesn't rhyme", "it doesn't have to rhyme".
_PERMITS = re.compile(r"(?:doesn'?t|does\s+not|don'?t|do\s+not|not|never)\s+(?:\w+\s+){0,2}$")


#: What a request to have verse written names: a poem, a song, a card, a page of a book.
_VERSE = (
    r"(?:poem|poetry|verses?|haiku|song|lyrics?|limerick|rap|jingle|ode|sonnet|ditty|lines"
    r"|couplets?|(?<!to\s)rhymes?|toast|card|lullaby|chant|ballad|carol|quatrains?|stanzas?"
    r"|chorus|message|invitation|greeting|page|book|story)"
)
#: A request to have verse written: "write me a poem", "I need a few lines for a card",
#: "A short poem about the city, ...", "For the newsletter: a poem about tomatoes" (not
#: the asker's own writing asked about: "im writing a song ... how do i make lines hang
#: together?").
_MAKES_VERSE = re.compile(
    r"\b(?:write|compose|draft|pen|give\s+(?:me|us)|come\s+up\s+with|make\s+up|create|need"
    r"|want|rewrite|redo|turn\s+(?:this|it)\s+into|can\s+you\s+do)\b[^.?!,;\n]{0,60}?"
    rf"\b{_VERSE}\b"
    r"|\b(?:make|have|get)\s+(?:it|this|them)(?:\s+one)?\s+rhyme\b"
    rf"|(?:^|[:.!?]\s*)(?:a|an|some|one|two|three|four|\d+)\s+(?:[\w'-]+\s+){{0,3}}?{_VERSE}\b"
)
#: A question about rhyme, not a form asked for: "Why are so many cards written in rhyme?"
_ASKS_ABOUT = re.compile(r"(?:^|[.!?]\s+)(?:why|what|how|is|are|does|do|did|when|where|who)\b")


def rhyme_rule(q: str, low: str) -> Iterator[Instruction]:
    """A rhyme ruled out (``value="none"``) or asked for (``value="required"``) in a request
    to have verse written; where the request says both, a later "it must rhyme" ("I
    assumed free verse, but the sheet says it must rhyme")."""
    if not _MAKES_VERSE.search(low):
        return
    ruled_out = _NO_RHYME.search(low)
    asked = [
        m
        for m in _RHYME.finditer(low)
        if not _PERMITS.search(low[max(0, m.start() - 30) : m.start()])
        and not _ASKS_ABOUT.match(_sentence_before(low, m.start()))
    ]
    if ruled_out:  # a later "it must rhyme" corrects it; "teachers mark down rhyming poems" not
        asked = [m for m in asked if m.start() >= ruled_out.end() and _MUST.search(m.group(0))]
    if asked:
        yield make("rhyme", asked[0].group(0), value="required")
    elif ruled_out:
        yield make("rhyme", ruled_out.group(0), value="none")


def _sentence_before(low: str, at: int) -> str:
    """The sentence ``at`` is in, from its start."""
    start = max(low.rfind(c, 0, at) for c in ".!?\n") + 1
    return low[start:at].lstrip()


def check_rhyme(content: str, k: Instruction) -> tuple[bool | None, str]:
    """A ruled-out rhyme fails on two rhyming pairs of line ends; a rhyme asked for passes
    when two in five lines rhyme, fails on an answer with no verse, and is left open
    otherwise (rhymes spelt apart, "knew" / "through", are not read)."""
    lines, rhyming, pairs = rhyme_pairs(content)
    shown = ", ".join(f"{a}/{b}" for a, b in pairs[:3])
    if k.value == "none":
        if len(pairs) >= 2 and rhyming >= 3:
            return False, f"line ends rhyme ({shown}); the request asks for no rhymes"
        return True, "no rhyming line ends"
    if lines == 0:
        return False, "no verse; the request asks for a rhyme"
    if rhyming >= 0.4 * lines:
        return True, f"{rhyming} of {lines} lines rhyme ({shown})"
    return None, f"{rhyming} of {lines} lines rhyme by their spelling"

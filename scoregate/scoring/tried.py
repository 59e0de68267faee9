"""What the asker has already tried, and whether an answer offers it again.

"I already tried offering waxworms to tempt him and he ignored them": an answer that says
"try a waxworm or two as an appetite starter" repeats what failed. The request names a
thing after "already tried" (or after "I've tried" in a sentence that says it failed), and
an answer offers it again when one of its clauses suggests it: opens on a verb of offering
("Try a waxworm", "- Use wooden wicks"), or says "you could use ...", "and try ...", with the
thing after the verb and no negation between. Telling why it failed ("Wooden wicks often
drown in coconut wax") or ruling it out ("skip the waxworms") is no offer. Acts are left
out ("I already tried restarting the router"): only things are read.

>>> [t.item for t in tried_things("I already tried offering waxworms to tempt him.")]
['waxworms']
>>> offered_again("- Try a waxworm or two as a starter.", tried_things(
...     "I already tried offering waxworms to tempt him."))[0][1]
'Try a waxworm'
>>> offered_again("Since he ignored the waxworms, offer dubia instead.", tried_things(
...     "I already tried offering waxworms to tempt him."))
[]

Pure text; :mod:`scoregate.scoring.precision` reports what it finds as a violation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoregate.scoring.affirmation import stem

#: "I already tried", "we've already tried", "Already tried": tried, whatever came of it.
_ALREADY = re.compile(
    r"(?:\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+already\s+|(?:^|(?<=[.!?]\s))already\s+)tried\s+",
    re.IGNORECASE,
)
#: "I've tried ...", "we tried ...": tried, read only in a sentence that says it failed.
_TRIED = re.compile(r"\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+tried\s+", re.IGNORECASE)
_FAILED = re.compile(
    r"\b(?:didn'?t|did\s+not|doesn'?t|does\s+not|don'?t|won'?t|wouldn'?t)\s+(?:work|help|do)\b"
    r"|\bno\s+(?:luck|joy|difference|change|improvement)\b|\bnothing\s+(?:works|worked|helped)\b"
    r"|\b(?:failed|useless|ignored|hated|still\b)",
    re.IGNORECASE,
)
#: The way of trying it, before the thing tried: "offering waxworms", "switching to Linux".
_WAY = re.compile(
    r"(?:(?:using|offering|giving|adding|feeding|taking|buying|switching\s+to|putting)\s+"
    r"(?:(?:him|her|them|it)\s+)?)?",
    re.IGNORECASE,
)
#: Words that end the thing tried: what it was for, what came of it, a new clause.
_ENDS = frozenset(
    "to and but which that because before after last when with on for in so as it they he"
    " she we i already again too also or nor at from by".split()
)
_DETERMINERS = frozenset(
    "a an the my our his her their your some any this that these those".split()
)
#: Heads that name no thing to look for.
_VAGUE = frozenset(
    "it them that this everything anything something all both everything things stuff one"
    " ones lot way ways".split()
)
#: Between two things tried: "X, Y and Z", "X or Y".
_AND = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*", re.IGNORECASE)
_SENTENCES = re.compile(r"[^.!?\n]+")


@dataclass(frozen=True)
class Tried:
    """A thing the request has already tried, and the phrase that says so."""

    item: str
    phrase: str


def _thing_after(sentence: str, start: int) -> tuple[str, int] | None:
    """The thing named at ``start``: up to four words before a word that ends it, less
    determiners; ``None`` for an act ("restarting the router") or a vague word."""
    way = _WAY.match(sentence, start)
    at = way.end() if way else start
    words: list[str] = []
    end = at
    for m in _WORD.finditer(sentence, at):
        low = m.group(0).lower()
        if low in _ENDS or len(words) == 4 or sentence[end : m.start()].strip(" "):
            break
        if low not in _DETERMINERS or words:
            words.append(low)
        end = m.end()
    if not words or words[-1] in _VAGUE or words[0] in _VAGUE:
        return None
    if words[0].endswith("ing") and not (way and way.group(0)):
        return None  # an act tried: "restarting the router", "downsampling"
    return " ".join(words), end


def tried_things(query: str) -> list[Tried]:
    """What ``query`` says it has already tried, in order, each once."""
    found: list[Tried] = []
    for s in _SENTENCES.finditer(query):
        sentence = s.group(0)
        cues = list(_ALREADY.finditer(sentence))
        if not cues and _FAILED.search(sentence):
            cues = list(_TRIED.finditer(sentence))
        for m in cues:
            read = _thing_after(sentence, m.end())
            while read is not None:  # "a heat mat, a new thermostat and a basking bulb"
                if read[0] not in {t.item for t in found}:
                    found.append(Tried(read[0], sentence[m.start() : read[1]].strip()))
                more = _AND.match(sentence, read[1])
                read = _thing_after(sentence, more.end()) if more else None
    return found


#: A clause that suggests doing something: it opens on a verb of offering (after a list
#: marker, a bold label or a linking word), or the verb follows "you could", "I'd", "and".
_OFFER_VERB = (
    r"(?:try|offer|use|give|add|feed|switch\s+to|buy|get|go\s+(?:up|down|back\s+to)|pick"
    r"|start\s+with|stick\s+with|keep\s+(?:using|offering|trying)|swap\s+in|put|apply|choose"
    r"|opt\s+for|go\s+with)"
)
_OFFER = re.compile(
    r"(?:^\s*(?:[-*•]|\d+[.)])?\s*(?:\*\*[^*\n]{1,40}\*\*:?\s*)?"
    r"(?:(?:first|then|next|also|instead|finally|so|now|meanwhile|otherwise)\s*,?\s+)?"
    r"|\b(?:you\s+(?:could|can|should|might|may\s+want\s+to|need\s+to|want\s+to)"
    r"|i'?d|i\s+would|we'?d|and|then|or|also|just)\s+(?:also\s+|still\s+|just\s+)?|,\s*)"
    rf"(?P<verb>{_OFFER_VERB})\b(?P<rest>[^;:\n]{{0,80}})",
    re.IGNORECASE,
)
#: A negation or a turn away between the verb and the thing: "use anything but waxworms".
_TURNED = re.compile(
    r"\b(?:not|no|never|without|instead\s+of|rather\s+than|other\s+than|but|except|than"
    r"|besides|beyond|unlike|apart\s+from)\b|n't\b",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"[^.!?;\n]+")


def _names(text: str, item: str) -> re.Match[str] | None:
    """Where ``text`` names ``item``: its head word, with the word before it when it has
    one ("wooden wicks": "a booster wooden wick"; "waxworms": "a waxworm")."""
    words = item.split()
    head = re.escape(stem(words[-1]))
    before = rf"{re.escape(stem(words[-2]))}[\w'-]*\s+" if len(words) > 1 else ""
    return re.search(rf"\b{before}{head}[\w'-]*", text, re.IGNORECASE)


def offered_again(answer: str, tried: Sequence[Tried]) -> list[tuple[Tried, str]]:
    """Each tried thing the answer suggests again, with the words that suggest it."""
    done: list[tuple[Tried, str]] = []
    clauses = [c.group(0) for c in _CLAUSES.finditer(answer)]
    for t in tried:
        for clause in clauses:
            hit = next(
                (
                    (m, named)
                    for m in _OFFER.finditer(clause)
                    if (named := _names(m.group("rest"), t.item))
                    and not _TURNED.search(m.group("rest")[: named.start()])
                ),
                None,
            )
            if hit is not None:
                m, named = hit
                done.append((t, clause[m.start("verb") : m.start("rest") + named.end()]))
                break
    return done

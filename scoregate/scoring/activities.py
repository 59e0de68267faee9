"""What a request would rather not do, and whether an answer has the asker do it anyway.

"I'd rather not go through a mortgage broker", "I don't want to keep buying bags of ice":
the request rules out an activity, not a thing, so the exclusion parser (which keeps short
names of things) leaves it out. Here such a preference is read as a verb and its object's
head noun ("ask ... parents", "buy ... ice"); an answer does the activity when one of its
clauses has the verb with the head a few words after it, neither negated ("ask your
parents for a short-term loan"). A verb that says little of its own ("use", "go", "do") is
left out and the head must come with one of the object's other words instead ("a
mortgage broker", "a house meeting"), so "the chair method" is no "cry-it-out method".

>>> [a.label for a in avoided_activities("I'd rather not ask my parents for money.")]
['ask my parents']
>>> done = affirmed_activities("Ask your parents for a loan.", avoided_activities(
...     "I'd rather not ask my parents for money."))
>>> done[0][1]
'ask your parents'

Pure text; :mod:`scoregate.scoring.precision` reports what it finds as a violation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoregate.scoring.affirmation import (
    LATER,
    NOW,
    WARNINGS,
    clause_tokens,
    is_negated,
    read_sentences,
    stem,
    unwarned,
)
from scoregate.scoring.exclusions import BEINGS, FOR_NOW, HELD_FOR, harms

#: A stated wish not to do something, and what follows it.
_CUE = re.compile(
    r"\b(?:(?:i'?d|i\s+would|we'?d|we\s+would)\s+rather\s+not|rather\s+not"
    r"|prefer(?:ably)?\s+(?:to\s+)?not(?:\s+to)?|(?:do\s*n[o']?t|dont)\s+(?:really\s+)?want\s+to"
    r"|refuse\s+to|hate\s+having\s+to|(?:prefer|like)\s+to\s+avoid|not\s+ready\s+to"
    r"|(?:i|we)\s+never\s+want\s+to|(?:do\s*n[o']?t|dont)\s+make\s+(?:me|us)"
    # read only with a time the refusal holds for: "I won't divide my hostas this year",
    # "not getting a second cat until Luna has recovered", "we're not moving the baby to
    # her own room until she's 6 months" (not "I'm not getting any replies": what happens)
    r"|(?P<timed>(?:\b(?:i|we)\s+(?:won'?t|will\s+not)|(?:\b(?:i'?m|we'?re|i\s+am|we\s+are)\s+|^\s*"
    r"|[.!?]\s+)not(?=\s+[a-z]{3,}ing\b)))"
    # after these a gerund names the activity ("sick of ironing"); a noun names a thing
    # ("tired of the noise"), which is no activity
    r"|(?P<ing>can'?t\s+be\s+bothered(?:\s+with)?|(?:not|n't)\s+keen\s+on|want\s+to\s+stop"
    # (a skill only: "can't face learning to read sheet music"; "can't face cooking from
    # scratch" names a thing the exclusions read)
    r"|(?:can'?t|cannot)\s+(?:really\s+)?face(?=\s+learning\s+to\b)"
    r"|(?:sick|tired)\s+of|don'?t\s+fancy))\s+"
    r"(?:(?:just|really|having\s+to|to|keep|keeping|have\s+to)\s+)*"
    r"(?P<verb>[a-z][a-z'-]+)(?P<obj>(?:\s+[a-z0-9][a-z0-9'_-]*){0,7})",
    re.IGNORECASE,
)
#: A time the refusal holds for, inside the words read as the object: "book a hotel *until
#: my visa comes through*", "touch my emergency fund *this month*" (cut off; the refusal
#: then holds for now).
_FOR_A_TIME = re.compile(rf"\s+(?:{HELD_FOR}|while\b).*$")
#: Verbs that say little of their own: the object's words must carry the activity.
_GENERIC = frozenset(
    "go get do have make take use be keep start spend deal put give let try pay".split()
)
#: ... and their forms in "-ing", which a refusal for a time may open on.
_SAYS_LITTLE = _GENERIC | frozenset("going getting being doing having making taking".split())
#: Helpers before the verb that matters: "be picking stocks", "keep buying ice".
_AUXILIARIES = frozenset("be being keep keeping start starting have go".split())
#: ... of which a refusal for a time may not open on, past its helpers ("won't be buying").
_TIMED_SAYS_LITTLE = _SAYS_LITTLE - _AUXILIARIES
#: Prepositions after a generic verb that open its object: "go through a broker".
_OPENING = frozenset("through via with from into onto over by".split())
#: The particle of a phrasal verb names nothing: "take out a loan", "cry-it-out".
_PARTICLES = frozenset("out up off on over down away back in it".split())
#: Prepositions that open an object's head after a verb's own object ("pour it *over*
#: ice", "run it *through* the dryer").
_VIA = frozenset("over into onto through via".split())
#: Words of an object that name nothing: determiners and quantifiers.
_FILLER = frozenset(
    "a an the my our his her their your some any this that these those every each all more"
    " much just really".split()
)
#: Words that end an object: "ask my parents *for* money", "move DNS *to* another provider".
_OBJECT_END = frozenset(
    "for to in on at with again anymore because since so and or but just when while if every"
    " each like why how what about which who whenever".split()
)
#: Heads that name nothing to look for.
_VAGUE_HEADS = frozenset(
    "it them one that this stuff things thing something anything everything lot way time".split()
)
#: Who does it, after the object: "open the caseback *myself*", "handling her *myself*".
#: Such a refusal is of doing it oneself, which an answer that has another do it keeps
#: ("a watchmaker will open the caseback"): not read.
_SELF = frozenset("myself ourselves".split())
#: Verbs of taking up a skill: "learning to read sheet music" is told by its object's
#: words ("sheet music"), whatever the answer's verb ("give sheet music another go").
_TAKE_UP = frozenset("learn learning".split())
#: Verbs that do the same to their object, as stems: "hire a firm" is done by "engage a
#: firm", "phone the council" by "ring the council".
_SAME_VERB: dict[str, frozenset[str]] = {
    v: group
    for group in (
        frozenset({"hir", "engag", "retain", "employ"}),
        frozenset({"call", "phon", "ring"}),
        frozenset({"buy", "purcha"}),
        frozenset({"ask", "request"}),
        frozenset({"fertiliz", "feed"}),
        frozenset({"divid", "split"}),
    )
    for v in group
}
#: Words the verb may stand before its object's head: "ask your parents", "move your DNS
#: hosting".
VERB_REACH = 6
#: Words a modifier may stand before the head: "a fee-free, whole-of-market mortgage broker".
MODIFIER_REACH = 3


@dataclass(frozen=True)
class Activity:
    """An activity the request would rather avoid, as the answer would name it."""

    #: The request's words ("rather not ask my parents").
    phrase: str
    #: A short label ("ask my parents").
    label: str
    #: The verb's stem ("ask"), or ``None`` for a verb that says little ("use", "go").
    verb: str | None
    #: The stem of the object's head noun ("parent").
    head: str
    #: The stems of the object's other words ("mortgage" of "a mortgage broker").
    modifiers: frozenset[str]
    #: The preposition that opens the head ("over" of "pour it over ice"), if any: an
    #: answer may put a long object between the verb and it ("pour the hot concentrated
    #: tea straight over the ice").
    via: str | None = None
    #: Refused for now ("I don't want to book a hotel until my visa comes through"): an
    #: answer may put it off to a later time ("once the visa arrives, book a hotel").
    for_now: bool = False


def _verb_and_object(verb: str, obj: list[str]) -> tuple[str, list[str]] | None:
    """The verb that matters and its object's words: "be picking stocks" is picking,
    "spend my weekends cleaning the oven" cleaning the oven, "go through a broker" going
    to a broker; ``None`` where the verb is a preposition ("rather not through ...")."""
    while verb in _AUXILIARIES and obj and re.fullmatch(r"[a-z]+ing", obj[0]):
        verb, obj = obj[0], obj[1:]
    if verb in ("spend", "spending"):
        at = next((i for i, w in enumerate(obj[:5]) if re.fullmatch(r"[a-z]{3,}ing", w)), None)
        if at is not None:
            verb, obj = obj[at], obj[at + 1 :]
    if verb in _OPENING:
        return None
    if verb in _GENERIC and obj and obj[0] in _OPENING:
        obj = obj[1:]
    return verb, obj


def _verb_only(query: str, m: re.Match[str], verb: str) -> Activity:
    """An act refused for now whose object names nothing to look for ("I'm not regluing
    it until the paint has cured"): found only where the answer has it done now."""
    return Activity(
        phrase=query[m.start() : m.end("verb")],
        label=query[m.start("verb") : m.end("verb")],
        verb=stem(verb),
        head="",
        modifiers=frozenset(),
        for_now=True,
    )


def _for_a_time(query: str, m: re.Match[str]) -> tuple[str, bool]:
    """The words read as the object, less a time the refusal holds for, and whether it
    holds only for a time ("book a hotel until my visa comes through")."""
    obj = m.group("obj").lower()
    timed = _FOR_A_TIME.search(obj)
    if timed is not None:
        return obj[: timed.start()], True
    return obj, FOR_NOW.match(query, m.end()) is not None


def _object_words(obj: list[str]) -> list[str]:
    """The words of an object that name something, up to a word that ends it."""
    words: list[str] = []
    for w in obj:
        if w in _OBJECT_END:
            break
        if w in _SELF:
            return []
        if w not in _FILLER:
            words.append(w)
    return words


def avoided_activities(query: str) -> list[Activity]:
    """The activities ``query`` would rather not do, with a named object."""
    out: list[Activity] = []
    for m in _CUE.finditer(query):
        verb = m.group("verb").lower()
        if verb in _FILLER or (m.group("ing") and not verb.endswith("ing")):
            continue  # "tired of the noise", "not keen on my job": a thing, not an activity
        obj_text, for_now = _for_a_time(query, m)
        if m.group("timed") and (not for_now or verb in _TIMED_SAYS_LITTLE):
            # "I won't ..." with no time: read by the exclusions, if at all; "not going back
            # to the gym until ...": too little said to look for
            continue
        found = _verb_and_object(verb, obj_text.split())
        if found is None:
            continue
        verb, obj = found
        skill = verb in _TAKE_UP and obj[:1] == ["to"] and len(obj) > 2
        if skill:  # "learning to read sheet music": sheet music
            obj = obj[2:]
        if harms(verb, " ".join(obj)):
            continue  # "don't want to hurt her feelings": a harm to avoid, warned of
        words = _object_words(obj)
        if (
            not words
            or not re.fullmatch(r"[a-z][a-z-]{2,}", words[-1])
            or words[-1] in _VAGUE_HEADS
        ):
            if for_now and verb not in _SAYS_LITTLE:  # "I'm not regluing it until ...": the
                out.append(_verb_only(query, m, verb))  # act alone, done now or not
            continue
        modifiers = frozenset(
            stem(t)
            for w in words[:-1]
            for t in re.findall(r"[a-z0-9]+", w)
            if len(t) >= 3 and t not in _PARTICLES
        )
        generic = verb in _GENERIC or skill
        if generic and not modifiers:
            continue  # "rather not use a blender": a thing, which the exclusions read
        at = len(obj) - 1 - obj[::-1].index(words[-1])
        before = [w for w in obj[:at] if w not in _FILLER]
        via = before[-1] if before and before[-1] in _VIA else None
        # the object's last word, as the request wrote it (it is always in the match)
        stop = query.lower().index(words[-1], m.start("verb"), m.end()) + len(words[-1])
        out.append(
            Activity(
                phrase=query[m.start() : stop],
                label=query[m.start("verb") : stop].strip(),
                verb=None if generic else stem(verb),
                head=stem(words[-1]),
                modifiers=modifiers,
                via=via,
                for_now=for_now,
            )
        )
    return out


def _done_in(tokens: list[str], clauses: list[int], a: Activity) -> str | None:
    """The answer's words that do ``a`` in this sentence, if any."""
    stems = [stem(t) for t in tokens]
    for j, s in enumerate(stems):
        if s != a.head or is_negated(tokens, clauses, j):
            continue
        if a.verb is None:
            near = range(max(0, j - MODIFIER_REACH), j)
            # "peat-free compost" is no peat-based compost
            start = next(
                (i for i in near if stems[i] in a.modifiers and not is_negated(tokens, clauses, i)),
                None,
            )
        else:
            # the word before the head, past fillers: "... straight over the ice"
            k = next((k for k in range(j - 1, -1, -1) if tokens[k] not in _FILLER), None)
            reach = 2 * VERB_REACH if a.via and k is not None and tokens[k] == a.via else VERB_REACH
            near = range(max(0, j - reach), j)
            verbs = _SAME_VERB.get(a.verb, frozenset({a.verb}))
            start = next(
                (i for i in near if stems[i] in verbs and not is_negated(tokens, clauses, i)),
                None,
            )
        if start is not None and clauses[start] == clauses[j]:
            return " ".join(tokens[start : j + 1])
    return None


#: What keeps the act from being done now, before its verb in the clause: "don't move it
#: now", "no need to sand it today", "wait rather than move it this week".
_HELD = re.compile(
    r"\b(?:not|never|no\s+need|don'?t|do\s+not|wait|hold\s+off|instead\s+of|rather\s+than"
    r"|avoid|without|until|once|after|when)\b|n't\b"
)


def _done_now(answer: str, a: Activity) -> str | None:
    """For an act refused for now, the answer's words that have it done now with its verb
    ("Split them this weekend", "Move her into the nursery tonight"), the object told by
    a pronoun or not at all."""
    if a.verb is None:
        return None
    verbs = "|".join(re.escape(v) for v in sorted(_SAME_VERB.get(a.verb, {a.verb})))
    done = re.compile(
        rf"\b(?:{verbs})[a-z]*\b(?:\s+[\w'-]+){{0,5}}?\s+{NOW}\b"
        # "now is the best time to move it"
        rf"|\b{NOW}\s+(?:is|would\s+be)\s+(?:the|a)\s+(?:\w+\s+)?time\s+to\s+(?:{verbs})[a-z]*\b"
    )
    for clause in re.split(r"[.!?;:\n,]", answer.lower()):
        m = done.search(clause)
        if m is None or _HELD.search(clause, 0, m.start()):
            continue
        # (told, not done: "fertilizing now would push growth the grass can't support")
        word = m.group(0).split()[0]
        if not (word.endswith(("ing", "ed")) and stem(word) != word):
            return m.group(0)
    return None


#: Acts whose object is a person the asker would rather not turn to: "I don't want to ask
#: my brother-in-law to fill in" is broken by an answer that proposes him by name ("The
#: easiest fill-in is your brother-in-law").
_TURN_TO = frozenset("ask invite call text phone involve bother rope borrow".split())
#: What sets the person aside before them in their sentence: "if you'd rather not ask your
#: brother-in-law", "without your sister".
_SET_ASIDE = re.compile(
    r"\b(?:not|never|no|rather|instead|without|avoid\w*|skip\w*|unless|besides|other\s+than"
    r"|apart\s+from|except|since|as\s+you|if|spare|leave|leaving)\b|n't\b"
)


#: What puts the person forward, just before them: "the easiest fill-in is your
#: brother-in-law", "try your sister", "rope in your dad" (not "Your parents may ask").
_PROPOSED = (
    r"(?:\b(?:is|are|be|try|ask|get|call|text|phone|invite|borrow|in|on|to|with|from)|:)\s+"
    r"(?:(?:just|simply|probably|really|obviously)\s+)?"
)
#: ... or after them: "Your father-in-law is the obvious person to ask".
_FIRST_CHOICE = (
    r"\s+(?:the|your|an?)\s+(?:obvious|best|easiest|cheapest|simplest|quickest|natural|ideal"
    r"|perfect|safest|first)\b"
)
#: Whom an asker may not want to turn to: the people of ``BEINGS`` and more relatives (their
#: stems, as an activity's head is one).
_PEOPLE = frozenset(
    stem(w)
    for w in (
        *BEINGS,
        *"aunt auntie uncle cousin niece nephew stepdad stepmum stepmom grandad granddad".split(),
        *"godmother godfather in-laws".split(),
    )
)


def _person_forms(a: Activity) -> str | None:
    """How an answer names the person of ``a``, as a pattern: "your aunt", "your uncle" or
    "Paul" for "my uncle Paul", "your mum and dad" for "my parents"; ``None`` where ``a`` is
    no act of turning to a person."""
    if a.verb not in _TURN_TO:
        return None
    words = a.label.split()[1:]
    if words[:1] and words[0].lower() in ("my", "our"):
        words = words[1:]
    if not words:
        return None
    if a.head.split("-")[0] in _PEOPLE:  # "my brother-in-law", "my parents"
        forms = [rf"your\s+{re.escape(a.head)}[a-z'-]*"]
        if a.head == "parent":
            forms.append(r"your\s+(?:mum|mom)\s+and\s+dad|your\s+folks")
        return "|".join(forms)
    relation = words[0].lower()
    if len(words) == 2 and stem(relation) in _PEOPLE and words[1][:1].isupper():
        name = re.escape(words[1].lower())  # "my uncle Paul": "your uncle", "Paul"
        return rf"your\s+{re.escape(relation)}\b|\b{name}(?:'s)?\b"
    return None


def _person_proposed(answer: str, a: Activity) -> str | None:
    """For a person the asker won't turn to, the answer's words that put them forward
    ("the easiest option is your aunt", "borrow Phil's trailer", "Your uncle is the obvious
    person to ask") in a sentence that sets nothing aside before them."""
    named = _person_forms(a)
    if named is None:
        return None
    said = re.compile(
        rf"{_PROPOSED}(?:{named})|(?:{named})(?:\s+[\w-]+){{0,2}}?\s+(?:is|are|would\s+be)"
        rf"{_FIRST_CHOICE}"
    )
    for sentence in read_sentences(answer):
        low = sentence.lower()
        m = said.search(low)
        if m is not None and not _SET_ASIDE.search(low, 0, m.start()):
            return m.group(0)
    return None


def affirmed_activities(answer: str, activities: Sequence[Activity]) -> list[tuple[Activity, str]]:
    """Each activity the answer has the asker do, with the answer's words that do it."""
    found: list[tuple[Activity, str]] = []
    if not activities:
        return found
    sentences = [clause_tokens(unwarned(s)) for s in read_sentences(answer)]
    later = (  # "Once the visa comes through, book a hotel": put off, not done now
        [clause_tokens(unwarned(s)) for s in read_sentences(LATER.sub(" ", answer))]
        if any(a.for_now for a in activities)
        else sentences
    )
    for a in activities:
        for tokens, clauses in later if a.for_now else sentences:
            if not WARNINGS.isdisjoint(tokens):
                continue
            words = _done_in(tokens, clauses, a)
            if words is not None:
                found.append((a, words))
                break
        else:
            now = _done_now(answer, a) if a.for_now else _person_proposed(answer, a)
            if now is not None:
                found.append((a, now))
    return found

"""Request analysis: what a request asks for, what it excludes, and the checkable
instructions it implies. The first step of every decision (pure: text in, data out).

>>> a = analyze("A quick pasta recipe without garlic, as a numbered list of 5 steps.")
>>> [e.item for e in a.exclusions]
['garlic']
>>> [(k.check, k.unit, k.value) for k in a.instructions]
[('list_form', None, 'numbered'), ('count', 'numbered', 5)]

Instructions found here are *inferred*: the reward track checks them as soft
constraints marked ``inferred`` (``reward.infer_instructions`` turns them off). Only
forms a checker can verify are inferred ("exactly three", "under 50 words", "as a
numbered list", "in JSON", "all lowercase", "no commas", "end with 'Cheers'",
"answer yes or no first", "respond in Spanish", "a title in <<...>>", "a P.S.", ...);
"keep it short" is not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scoregate.schemas.constraints import Constraint, Instruction
from scoregate.scoring.activities import Activity, avoided_activities
from scoregate.scoring.affirmation import stem
from scoregate.scoring.answer_types import Expectation, expected_answers
from scoregate.scoring.budget import Ceiling, ceiling
from scoregate.scoring.exclusions import (
    ALLERGY_NOUNS,
    AWAY,
    BANS,
    BEINGS,
    FAMILIES,
    FOR_NOW,
    LACK,
    SAID_BY,
    SENTENCES,
    UNAVAILABLE,
    exclusion_reads,
    listed_after,
    strip_exclusions,
)
from scoregate.scoring.instruction_rules import infer_instructions, instruction_terms
from scoregate.scoring.language import LANGUAGE_CODES
from scoregate.scoring.membership import CLASS_MEMBERS, THING_MEMBERS, class_members
from scoregate.scoring.phrasing import make
from scoregate.scoring.translation import Translation, translation_request, without_text
from scoregate.scoring.tried import Tried, tried_things


@dataclass(frozen=True)
class Exclusion:
    """One thing the request excludes, and the phrase that excluded it."""

    item: str
    phrase: str
    #: A lack the asker states ("I don't have a car"), not a thing ruled out.
    lack: bool = False
    #: A thing's own lack ("the pot it came in has no drainage hole", "there's no heater in
    #: it"): an answer that proposes to add it ("repot into a pot with drainage holes") does
    #: not use it; one that takes it as there ("set the heater to 25°C") does.
    situation: bool = False
    #: Ruled out for now ("I don't want to repot it right now"): an answer may put it off
    #: to a later time ("Once it has finished flowering, repot it").
    for_now: bool = False


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
    #: What the answer should be about: the request less the clauses that only set its
    #: form ("Give me 3 bullet points, all lowercase."); the request itself if nothing is left.
    topic: str = ""
    #: The questions whose answer has a recognisable form ("how long" -> a duration,
    #: "how much protein" -> an amount): ``scoring.answer_types``.
    expects: tuple[Expectation, ...] = ()
    #: The asking sentences of the request less its exclusions, when it excludes
    #: something: their words are never members of what it excludes
    #: (``membership.check_members``).
    asked: str = ""
    #: Activities the request would rather avoid, with a named object ("rather not ask my
    #: parents"): ``scoring.activities``.
    avoided: tuple[Activity, ...] = ()
    #: What the request says it has already tried ("I already tried wooden wicks"):
    #: ``scoring.tried``.
    tried: tuple[Tried, ...] = ()
    #: The budget the request states ("my budget is $250, max"): ``scoring.budget``.
    budget: Ceiling | None = None

    @property
    def excluded(self) -> list[str]:
        return [e.item for e in self.exclusions]

    @property
    def lacks(self) -> list[str]:
        """The excluded items the asker says they lack (``Exclusion.lack``)."""
        return [e.item for e in self.exclusions if e.lack]

    @property
    def situations(self) -> list[str]:
        """The excluded items that are a thing's own lack (``Exclusion.situation``)."""
        return [e.item for e in self.exclusions if e.situation]

    @property
    def for_now(self) -> list[str]:
        """The excluded items ruled out only for now (``Exclusion.for_now``), or whose act
        the request refuses for now elsewhere ("rather not drain the pool until fall ...
        without draining")."""
        acts = {a.verb for a in self.avoided if a.for_now and a.verb}
        return [
            e.item
            for e in self.exclusions
            if e.for_now or (acts and stem(e.item.split()[0]) in acts)
        ]

    def to_dict(self) -> dict[str, Any]:
        """The breakdown's ``analysis`` entry (JSON-ready)."""
        return {
            "core_ask": self.core_ask,
            "exclusions": [
                {"item": e.item, "phrase": e.phrase, "for_now": e.for_now} for e in self.exclusions
            ],
            "instructions": [
                k.model_dump(exclude_defaults=True, exclude={"inferred"}) for k in self.instructions
            ],
            "asks": list(self.asks),
            "topic": self.topic,
            "expects": [{"phrase": e.phrase, "kind": e.kind} for e in self.expects],
            "avoided": [
                {"activity": a.label, "phrase": a.phrase, "for_now": a.for_now}
                for a in self.avoided
            ],
            "tried": [{"item": t.item, "phrase": t.phrase} for t in self.tried],
            "budget": None
            if self.budget is None
            else {
                "currency": self.budget.currency,
                "amount": self.budget.value,
                "per": self.budget.period,
                "phrase": self.budget.phrase,
            },
        }


#: Diets and conditions that exclude classes of things without saying "no".
_IMPLIED: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(rx, re.IGNORECASE), items)
    for rx, items in (
        (r"\bvegan\b", ("meat", "seafood", "dairy", "eggs", "honey", "gelatin")),
        (r"\bvegetarian\b", ("meat", "seafood")),
        (r"\bpescatarian\b", ("meat",)),
        (r"\blactose[- ]intolerant\b", ("dairy",)),
        (r"\b(?:coeliac|celiac)\b", ("gluten",)),
        (r"\bhalal\b", ("pork", "alcohol")),
        (r"\b(?:i'm|i am|we're|we are)\s+(?:sober|teetotal|not drinking)\b", ("alcohol",)),
    )
)


#: The diet asked about, not kept: "Is honey vegan?", "are gummy bears vegetarian or not?".
_DIET_ASKED = re.compile(r"(?:^|[.!?]\s*)(?:is|are|isn't|aren't)\s+[^.!?\n]{1,40}?$", re.IGNORECASE)
#: A person in a story or joke, not the asker: "a vegan walks into a steakhouse", "a joke
#: about a vegan at a steakhouse", "a vegan and a meat eater".
_DIET_PERSON = re.compile(
    r"^\s*(?:(?:and|or)\s+an?\s+[\w-]+\s+eater|walks?\b|goes\b|went\b|meets?\b|at\s+an?\b"
    r"|who\s+(?:walks|goes|meets))",
    re.IGNORECASE,
)


def _diet_kept(query: str, m: re.Match[str]) -> bool:
    """Whether the diet word at ``m`` is one the answer must keep: not after "not", not the
    predicate of a question about a food ("Is honey vegan?"), not a person in a joke."""
    before, after = query[: m.start()], query[m.end() :]
    # (not "not vegan", "non-vegan", "not going vegan", "never gone keto")
    if re.search(
        r"\b(?:not|n't|non|never)[- ]?\s*(?:(?:going|gone|turning|becoming|go)\s+)?$", before
    ):
        return False
    if _DIET_ASKED.search(before) and re.match(r"[\s-]*(?:friendly)?\s*(?:\?|or\b)", after):
        return False
    return not (
        re.search(r"\b(?:an?|the)\s+$", before, re.IGNORECASE) and _DIET_PERSON.match(after)
    )


#: A ban by a rule ("my lease bans subwoofers", "our building doesn't allow grills").
_BANNED = re.compile(rf"\b{BANS}\b", re.IGNORECASE)
#: A ban that holds only at some times: "doesn't allow generators after 10pm", "bans
#: phones during the school day" (the answer may use the thing at other times).
_IN_TIME = re.compile(
    # (a time of day or an hour after "after", not why: "banned kettlebells last month after
    # someone dropped one", "after a fire")
    r"[\w-]*\s+(?:(?:after|before)\s+(?:\d|dark|noon|midday|midnight|sunset|sundown|dusk|dawn"
    r"|lunch|dinner|tea|work|school|bed|bedtime|hours|closing|opening|the\s+(?:evening|morning"
    r"|watershed)|\w+(?:am|pm)\b)|until|till|between|during|on\s+(?:weekdays|weekends|school\s+nights"
    r"|\w+days)|at\s+night|overnight|past)\b",
    re.IGNORECASE,
)
#: The rule itself questioned, or the asker's work on it: "Can they actually do that?",
#: "is that even legal?", "how do I politely enforce it?", "how do I set up a no-phones
#: zone?" (the answer talks of the thing the rule bans).
_RULE_ASKED = re.compile(
    r"\b(?:can|could)\s+(?:they|he|she|it|the\s+\w+|my\s+\w+)\s+(?:actually\s+|legally\s+"
    r"|really\s+|even\s+)?(?:do|enforce|ban|forbid|stop)\b|\b(?:is|are)\s+(?:that|this|it|they)"
    r"\s+(?:even\s+|actually\s+|really\s+)?(?:legal|enforceable|allowed|lawful)\b"
    r"|\b(?:fight|appeal|challenge|contest|overturn|get\s+around|enforce|set\s+up|introduce"
    r"|implement|establish|explain|announce|start|stick\s+to|keep\s+to)\s+(?:it|this|that|them"
    r"|the\s+(?:rule|policy|ban|zone|restriction|clause)|(?:a|an|our|my|the)\s+no-)\b",
    re.IGNORECASE,
)


def _rule_kept(query: str, phrase: str) -> bool:
    """Whether a ban by a rule ("my lease bans subwoofers") is one the answer must keep:
    not one that holds only at some times, nor one the request questions or asks how to
    run, nor one inside the question itself ("does my lease ban ...?")."""
    at = query.find(phrase)
    if at >= 0 and _IN_TIME.match(query, at + len(phrase)):
        return False
    ban = _BANNED.search(phrase)  # (after the ban: not "the kitchen I rent on Saturdays")
    if _IN_TIME.search(phrase, ban.end() if ban else 0):  # "... generators after 10pm"
        return False
    asking = asking_sentences(query)
    return not any(_RULE_ASKED.search(s) or _asked_in(phrase, s) for s in asking)


#: A question of its own after a statement, in one sentence: "... has banned chalk
#: completely (any kind) so what else can I do??".
_THEN_ASKS = re.compile(
    r"\b(?:so|but)\s+(?:what|how|where|which|who|when|why|can|could|should|would|do|does"
    r"|is|are|any)\b",
    re.IGNORECASE,
)


def _asked_in(phrase: str, sentence: str) -> bool:
    """Whether ``phrase`` stands in the question of ``sentence`` ("does my lease ban
    subwoofers?"), not in a statement before a question of its own ("the studio has banned
    chalk, so what else can I do?")."""
    at = sentence.find(phrase)
    return at >= 0 and not _THEN_ASKS.search(sentence, at + len(phrase))


def _implied_exclusions(query: str) -> Iterator[Exclusion]:
    for rx, items in _IMPLIED:
        m = next((m for m in rx.finditer(query) if _diet_kept(query, m)), None)
        if m:
            for item in items:
                yield Exclusion(item=item, phrase=m.group(0))


#: A part the asker took off: "Took the heel brake off my inline skates", "Took the crate
#: out of the lounge", "I removed the stabilisers because ...", "we got rid of the bread
#: maker".
_TAKEN_OFF = re.compile(
    r"\b(?:took|taken|ripped|pulled|unscrewed|unbolted|removed)\s+(?:the|my|our|its)\s+"
    r"(?P<x>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:off|out|down)\b"
    r"|\b(?:removed|ditched|binned|got\s+rid\s+of)\s+(?:the|my|our|its)\s+"
    r"(?P<y>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
    r"(?=\s*(?:[.,;!?]|$|\b(?:because|since|as|and|from|so)\b))",
    re.IGNORECASE,
)
#: ... and what is then asked to do without it: "How do I stop without it?", "... park it
#: without one?".
_WITHOUT_IT = re.compile(r"\bwithout\s+(?:it|them|one)\b", re.IGNORECASE)


def _taken_off(query: str) -> Iterator[Exclusion]:
    """The part the asker took off, ruled out by a later "without it" ("Took the heel brake
    off ... How do I stop without it?": the heel brake)."""
    for m in _TAKEN_OFF.finditer(query):
        without = _WITHOUT_IT.search(query, m.end())
        if without is not None:
            yield Exclusion(item=(m.group("x") or m.group("y")).lower(), phrase=without.group(0))
            return


#: A sentence that only gives the reason for an exclusion: "My flatmate hates them."
_REASON_ONLY = re.compile(
    r"^\s*(?:my|our|his|her|their|the|i|we|he|she|they)\b[\w' ]{0,40}?\b(?:hates?|can't\s+stand"
    r"|cannot\s+stand|dislikes?|(?:doesn't|don't|does\s+not|do\s+not)\s+(?:like|eat|want)"
    r"|(?:is|are|am)\s+allergic\s+to)\s+(?:it|them|that|those|these)\b[^.!?]*[.!?]*\s*$",
    re.IGNORECASE,
)


#: Words that say nothing of the ask when a stripped clause is left with only them: "I
#: want to", "Id if I can" (of "I want to avoid carrying a stove —", "Id rather not pay
#: for an accountant if I can avoid it —").
_STUB_WORDS = frozenset(
    """
    i id i'd im i'm we we'd we're you it if can could would will want wanted to like rather
    really just also so and but or please pls the a an that this
    """.split()
)
#: Where a stripped sentence breaks into clauses: a dash, a semicolon or a comma.
_STUB_BREAK = re.compile(r"\s*(?:[\u2013\u2014;,]|\s-)\s*")


def _unstubbed(sentence: str) -> str:
    """A changed sentence less its clauses left with no word of the ask ("Id if I can —
    is self assessment something I can do myself?": "is self assessment ...")."""
    parts = _STUB_BREAK.split(sentence)
    if len(parts) < 2:
        return sentence
    kept = [p for p in parts if not set(re.findall(r"[a-z']+", p.lower())) <= _STUB_WORDS]
    if not kept or len(kept) == len(parts):
        return sentence
    out = ", ".join(kept)
    return out[:1].upper() + out[1:]


def _clean_core(query: str, core: str) -> str:
    """Drop what stripping left of a sentence that only gave a reason ("My partner
    can't stand it." leaves "My partner."): a changed sentence of three words or fewer,
    and sentences that only give the reason ("My flatmate hates them."); and, in a changed
    sentence, clauses left with no word of the ask ("I want to — what food works?")."""
    original = {s.strip() for s in SENTENCES.findall(query)}
    kept: list[str] = []
    for sentence in SENTENCES.findall(core):
        s = sentence.strip()
        if s not in original:
            s = _unstubbed(s)
            if s not in original and len(s.split()) <= 3:
                continue
        if not _REASON_ONLY.match(s):
            kept.append(s)
    return " ".join(kept) or core


# --- the topic: the request less the clauses that only set the answer's form ------------

#: Words that say how the answer looks, not what it is about.
_FORM_WORDS = frozenset(
    """
    give me us use keep make write answer reply respond response responses output text
    entire whole all your my the a an in into with and or no not any anywhere at least most
    under over than fewer less more only just please pls format formatted formatting as list
    lists numbered bullet bullets bulleted point points item items word words sentence
    sentences paragraph paragraphs line lines letter letters capital capitals caps lowercase
    uppercase lower upper case comma commas json yaml markdown table code block fenced title
    titled brackets double angular quotation quote quotes marks mark wrap wrapped it
    everything thing total max maximum minimum separated separate separator by end ending
    start starting begin beginning phrase exact exactly one two three four five six seven
    eight nine ten should must be do don't dont using include including mention highlight
    highlighted section sections placeholder placeholders square postscript p s language
    asterisks asterisk divider new blank long short each per every then also so that is are
    bold bolded boldface
    of to for nothing else after before it's this these those them they sure time times once
    twice entirely completely quick quickly brief briefly simple simply concise written
    english tops limit count counting nope never avoid keeping kept step steps explain
    summarise summarize character characters including spaces thanks thank thx cheers
    """.split()
)
#: Clauses of a request; a stop or comma inside a number, path or name (".env", "1,000",
#: "1.8kg") does not end one.
_CLAUSE = re.compile(r"(?:[^.!?;:,\n]|[.!?;:,](?=[\w`/]))+[.!?;:,]*")
_CLAUSE_SPLIT = re.compile(r"\s+(?:and|but|then|plus)\s+", re.IGNORECASE)
_LANGUAGE_WORDS = frozenset(w for name in LANGUAGE_CODES for w in name.split())


def _form_only(clause: str) -> bool:
    words = re.findall(r"[a-z']+", clause.lower())
    return bool(words) and all(w in _FORM_WORDS or w in _LANGUAGE_WORDS for w in words)


def request_topic(query: str, instructions: Sequence[Instruction]) -> str:
    """``query`` less the clauses that only set the answer's form, when it has
    instructions; ``query`` itself when nothing else would be left.

    >>> request_topic("Weekend in Lisbon: what are the must-dos? Give me 3 bullet points,"
    ...               " all lowercase.", infer_instructions("3 bullet points, all lowercase"))
    'Weekend in Lisbon: what are the must-dos?'
    """
    if not instructions:
        return query.strip()
    # an instruction's own words say how the answer looks ("a numbered list of exactly 7
    # titles"): a clause is form only when nothing but form words is left without them
    phrases = sorted(
        {k.phrase.strip(" .,;:!?").lower() for k in instructions if k.phrase}, key=len, reverse=True
    )

    def form_only(part: str) -> bool:
        low = part.lower()
        for phrase in phrases:
            if phrase and len(phrase.split()) >= 2:
                low = low.replace(phrase, " ")
        if _form_only(part):
            return True
        # what is left once the instructions' words are out: nothing, or form words only
        words = [w for w in re.findall(r"[a-z']+", low) if w.strip("'")]
        return low != part.lower() and all(w in _FORM_WORDS for w in words)

    kept: list[str] = []
    for clause in _CLAUSE.findall(query):
        parts = [p for p in _CLAUSE_SPLIT.split(clause) if not form_only(p)]
        if parts:
            kept.append(" and ".join(p.strip() for p in parts))
    topic = re.sub(r"\s+", " ", " ".join(kept)).strip(" ,;:")
    return topic if len(topic.split()) >= MIN_ASK_WORDS else query.strip()


# --- the separate asks of a multi-part request -----------------------------------------

_ASK_WORD = (
    # ("whats", "hows": typed without the apostrophe)
    r"(?:what|whats|which|how|hows|where|wheres|when|who|whom|whose|why|whether|is|are|was"
    r"|should|can|could|do"
    r"|does|did|would|will|any|anything)"
)
#: A sentence that asks without a question mark: "Explain X and list Y."
_ASK_VERB = (
    r"(?:tell|explain|give|list|suggest|recommend|describe|compare|show|name|outline"
    r"|summari[sz]e)"
)
_IMPERATIVE = re.compile(rf"^\s*(?:please\s+)?{_ASK_VERB}\b", re.IGNORECASE)
#: A question typed without its question mark: "how long do i boil eggs, and also how do
#: i peel them".
_QUESTION = re.compile(
    r"^\s*(?:(?:how|what|which|where|when|why|who)(?:'?s)?\s+(?:do|does|did|can|could|should|would"
    r"|is|are|was|much|many|long|often|big|size|temp|kind|type|time)|(?:should|can|do)\s+i"
    r"|is\s+(?:it|this|that|there)"
    # "and any tricks for peeling them": a request for help, typed without its mark
    r"|any\s+(?:good\s+)?(?:tips|tricks|ideas|advice|suggestions|recommendations|hacks)"
    r"(?=\s+(?:for|on|about|to|with|how)\b|\s*$))\b[^:]*$",
    re.IGNORECASE,
)
#: A dot that ends an abbreviation, not a sentence: "P.S. mean", "e.g. apples", "the U.S.
#: economy", "Dr. Lee", "vs. Python", "salt, pepper, etc. and" (a dotted letter or "etc."
#: before a word in lower case; a title before any word).
_ABBREVIATION_DOT = (
    # (a letter alone: not the "d" of "I'd. what ...")
    r"(?:(?<=[A-Za-z])(?<![^\s(.\"“][A-Za-z])|(?<=\betc))\.(?=[\s\"'”’)]+[a-z0-9])"
    r"|(?:(?<=\b[Mm]r)|(?<=\b[Mm]rs)|(?<=\b[Mm]s)|(?<=\b[Dd]r)|(?<=\b[Pp]rof)|(?<=\b[Ss]t)"
    r"|(?<=\b[Vv]s)|(?<=\b[Jj]r)|(?<=\b[Ss]r))\.(?=\s+\w)"
)
#: Sentences for the asks (a stop inside a number, path or name, or after an abbreviation,
#: does not end one).
_ASK_SENTENCES = re.compile(rf"(?:[^.!?\n]|[.!?](?=[\w`/])|{_ABBREVIATION_DOT})+[.!?]*")
#: A want stated, which asks only when it names two things: "I want a chili recipe, plus
#: how to reheat it" (but "We need salt and pepper grinders." is context).
_WANT = re.compile(
    r"^\s*(?:i|we)(?:'d\s+like|\s+would\s+like|\s+want|\s+need|'m\s+looking\s+for)\b",
    re.IGNORECASE,
)
#: Where one ask ends and the next begins inside a sentence: "..., and which one ...",
#: "... and also how ...", "...? Also, what ...".
_JOIN = r",?\s*\b(?:and(?:\s+also)?|also|plus)\s+"
#: A second ask stressed in capitals: "a fajita recipe AND a shopping list".
_CAPS_JOIN = r"|\s+(?-i:AND|PLUS)\s+"
#: A second ask behind its condition: "..., and if I do hear a pop, what should I do?".
#: ("..., and if so, how much?" asks nothing new: "if so" / "if not" stay with the first.)
_IF_ASK = rf"if\b(?!\s+(?:so|not|yes|no)\b)[^,?.]{{1,80}},\s*(?:{_ASK_WORD}|{_ASK_VERB})\b"
_ASK_SPLIT = re.compile(
    rf"{_JOIN}(?=(?:{_ASK_WORD}|{_ASK_VERB})\b|{_IF_ASK}){_CAPS_JOIN}", re.IGNORECASE
)
#: The same inside a stated want, where only a question word opens a second ask: "I need
#: a gift for my sister, she just moved and is always complaining" is one.
_WANT_SPLIT = re.compile(
    rf"{_JOIN}(?=(?:whats?|which|hows?|where|when|why|whether)\b){_CAPS_JOIN}", re.IGNORECASE
)
MIN_ASK_WORDS = 3
#: The fields of a thing asked for, listed after a colon, the last one told by a question
#: word: "a table with three columns: stitch name, hook size, and what it's good for".
_FIELDS_LISTED = re.compile(
    r":\s*(?:[^,:;.?!\n]{1,30},\s*)+(?:and\s+)?(?:what|how|which|where|when|why|who)\b"
    r"[^,:;.?!\n]{0,40}[.!]?\s*$",  # (not a question: "Two things: the price, and how do I book?")
    re.IGNORECASE,
)
#: ... and a table's columns listed in a question: "Could you compare them in a table with
#: four columns: yacht, rough price (GBP), how you'd transport it, and who it suits?" (the
#: columns are the table's layout, not asks of their own).
_COLUMNS_LISTED = re.compile(
    r"\b(?:columns?|fields|keys|headings|headers)\b[^:.?!\n]{0,20}[:—–-]\s*"
    r"(?:[^,:;.?!\n]{1,40},\s*)+(?:and\s+)?[^,:;.?!\n]{1,40}\?\s*$",
    re.IGNORECASE,
)


#: A sentence that seeks a fact without asking it outright: "tell me how long to rest it".
_SEEKS = re.compile(
    r"\b(?:tell me|let me know|wondering|want to know|need to know|like to know)\b",
    re.IGNORECASE,
)


def _asking(sentence: str) -> bool:
    return bool(sentence.endswith("?") or _IMPERATIVE.match(sentence) or _QUESTION.match(sentence))


def _sentences(query: str) -> Iterator[str]:
    """The sentences of ``query``, each read past a joining word that opens it ("...
    lentils? and is it a complete protein")."""
    for sentence in _ASK_SENTENCES.findall(query):
        yield re.sub(r"^(?:also|and|plus)\b[,\s]*", "", sentence.strip(), flags=re.IGNORECASE)


def asking_sentences(query: str) -> list[str]:
    """The sentences of ``query`` that ask something (a question, with or without its
    question mark, an imperative ask, or a fact sought: "tell me how long it keeps")."""
    return [s for s in _sentences(query) if _asking(s) or _SEEKS.search(s)]


#: Words an ask may hold that say nothing of their own: question words, pronouns, helpers and
#: the general verbs and judgements of an ask that refers back to what was said before it
#: ("what could it be", "what should I do?", "is that normal?", "why is that?", "how do I
#: fix it?", "any ideas?").
_REFERRING_WORDS = frozenset(
    """
    what what's whats which how how's why why's where when who whom whose whether is isn't
    are aren't was wasn't were am be been being do does doesn't did didn't doing done don't
    have has had having can can't could couldn't should shouldn't would wouldn't will won't
    shall may might must i i'm i've i'd me my mine we we're us our you your it it's its
    that that's this these those they them their there here he she him her his a an the
    any anything something some thing things one ones else other so then now just really gone went
    actually even also still ever all or and but if not no yes to of for with on in about
    at from up out off into by as please pls guys anyone anybody going go goes get gets
    getting got happen happens happening happened cause causes causing caused think
    thoughts thought idea ideas suggest suggestions suggestion recommend
    recommendations advice advise tips fix fixed solve sort stop handle deal help try know
    tell say let make look looks like sound sounds seem seems normal ok okay fine alright
    serious bad good wrong right worry worried worrying concerned worth possible likely
    better best worse way ways do's next best bet
    """.split()
)


#: What an ask that refers back may ask of the situation told: its cause, its nature, whether
#: it is normal or bad ("what could it be", "is that normal?", "what's going on", "why is
#: that?", "any ideas?", "thoughts?", "should I be worried?", "what do you think?").
_ASKS_WHAT_IT_IS = re.compile(
    r"\b(?:could|might|would|can|may)\s+(?:it|this|that)\s+be\b|\bnormal\b|\bgoing\s+on\b"
    r"|\bhappen(?:s|ed|ing)?\b|\bwhy(?:'s)?\b|\bideas?\b|\bthoughts?\b|\bthink\b"
    r"|\bworr(?:y|ied|ying)\b|\bconcerned\b|\bcaus(?:e|es|ed|ing)\b|\bwrong\b|\bserious\b"
    r"|\bbad\b|\b(?:ok|okay|fine|alright)\b|\bpossible\b|\blikely\b"
    r"|\bwhat(?:'s|\s+is|\s+was)\s+(?:it|this|that)\b",
    re.IGNORECASE,
)
#: ... and what it asks of its own, past "what do you think": what to do, where, when, how to
#: tell ("what should I do?", "how do I fix it?", "where should I stay?", "how do I know
#: when it's done?", "what should I do next?"): a part of its own.
_ASKS_WHAT_TO_DO = re.compile(
    r"\b(?:(?:i|we)\s+(?:\w+\s+)?(?:do|know|tell|try|get|make|go)|fix|solve|sort|stop|handle"
    r"|deal|help|next|where|when|suggest|recommend\w*|advice|advise|tips|ways?|bet|better|best)\b",
    re.IGNORECASE,
)
#: An ask for the answerer's own view, which asks nothing new: "what do you think?", "what
#: would you do?", "what would you say?".
_YOUR_VIEW = re.compile(
    r"\b(?:(?:do|does|did)\s+(?:you|u|anyone|anybody)\s+think"
    r"|what\s+(?:would|do)\s+(?:you|u)\s+(?:do|say|think|reckon))\b",
    re.IGNORECASE,
)


def _no_content(part: str) -> bool:
    """Whether the ask ``part`` has no content word of its own: "What could it be", "is that
    normal?", "what should I do?" (it reads by the situation told before it)."""
    words = re.findall(r"[a-z0-9][a-z0-9']*", part.lower())  # ("what does 203 mean")
    return all(w.strip("'") in _REFERRING_WORDS or w in _REFERRING_WORDS for w in words)


def _refers_back(part: str) -> bool:
    """Whether the ask ``part`` has no content word of its own and asks only what the
    situation told before it is ("What could it be", "is that normal?", "why is that?"): not
    what to do about it ("how do I fix it?", "what should I do next?"), a part of its own."""
    return (
        _no_content(part)
        and (_ASKS_WHAT_IT_IS.search(part) or _YOUR_VIEW.search(part)) is not None
        and _ASKS_WHAT_TO_DO.search(_YOUR_VIEW.sub(" ", part)) is None
    )


#: The words of a situation told before an ask that refers back, enough to read it by.
_SITUATION_WORDS = 6


def split_asks(query: str) -> tuple[str, ...]:
    """The separate asks of ``query`` when it has more than one, else ``()``.

    An ask with no content word of its own ("What could it be", "is that normal?", "what
    should I do?") reads with the situation told just before it ("I get a clunk when I shift
    into drive. What could it be"); else, one that asks only what the situation is ("why is
    that?", "any ideas?") goes with the ask before it or is left out, and one that asks what
    to do, where, when or how to tell ("How do I fix it?") is a part of its own.

    >>> split_asks("When's the best time to hike in Patagonia, and what should I pack?")
    ("When's the best time to hike in Patagonia", 'what should I pack?')
    >>> split_asks("My car clunks into drive. What could it be, and is it safe to drive?")
    ('My car clunks into drive. What could it be', 'is it safe to drive?')
    """
    asks: list[str] = []
    told: list[str] = []  # the sentences of the situation since the last ask
    for s in _sentences(query):
        asking = _asking(s)
        if not (asking or _WANT.match(s)):
            told.append(s)
            continue
        split = _ASK_SPLIT if asking else _WANT_SPLIT
        parts = [p.strip() for p in split.split(s) if len(p.split()) >= MIN_ASK_WORDS]
        # "three columns: stitch name, ..., and what it's good for": one ask
        if _FIELDS_LISTED.search(s) or _COLUMNS_LISTED.search(s):
            parts = [s]
        if not (asking or len(parts) > 1):
            told.append(s)
            continue
        for part in parts:
            if not _no_content(part):
                asks.append(part)
            elif told:  # "I get a clunk ... . What could it be", "... . Where should I stay?"
                asks.append(" ".join([*_situation(told), part]))
            elif not _refers_back(part):  # "Is it serious? What should I do?": its own part
                asks.append(part)
            elif asks:  # "How do I reset it, and why is that?": one ask
                asks[-1] = f"{asks[-1].rstrip(' ,;')}, {part}"
            told = []
        told = []
    return tuple(asks) if len(asks) > 1 else ()


def _situation(told: list[str]) -> list[str]:
    """The last sentences of the situation ``told``, back to enough words to read it by."""
    kept: list[str] = []
    for sentence in reversed(told):
        kept.insert(0, sentence)
        if len(re.findall(r"\w+", " ".join(kept))) >= _SITUATION_WORDS:
            break
    return kept


def _whole_words(query: str, phrase: str) -> str:
    """``phrase`` with the word it starts inside of: "n't have a car" -> "won't have a car"."""
    at = query.find(phrase)
    start = at
    while start > 0 and query[start - 1].isalpha():
        start -= 1
    return query[start:at] + phrase if at > 0 else phrase


_AFTER_ITEM = re.compile(rf"[- ](?:{'|'.join(ALLERGY_NOUNS)})\b", re.IGNORECASE)
#: What the asker's setup lacks, said of the thing: "XLOOKUP isn't available", "window
#: functions don't exist" (on their version): like "I don't have X", review at most.
_UNAVAILABLE = re.compile(UNAVAILABLE, re.IGNORECASE)


#: Forms of the answer a request may rule out, which the exclusion check (words in the
#: answer) cannot see: a heading has no word "heading" ("skip the headings", "no markdown").
#: Still excluded items (the precision track reads the request without them), but no
#: feedback says "nothing the request rules out was found" over them (``is_form_item``).
_FORM_ITEM = re.compile(
    r"(?:section\s+|sub)?(?:headings?|headers?)|(?:a\s+)?titles?|json|yaml|markdown"
    r"|(?:fenced\s+)?code\s*blocks?|bold(?:\s+text)?|bullet(?:ed)?\s+(?:points?|lists?)|lists?"
    r"|numbered\s+lists?|bullets?",
    re.IGNORECASE,
)


def is_form_item(item: str) -> bool:
    """Whether an excluded ``item`` is a form of the answer ("headings", "markdown")."""
    return _FORM_ITEM.fullmatch(item.strip()) is not None


#: A "no" that rules out what follows it ("no eggs and no honey": two of them).
_OWN_NO = re.compile(r"\b(?:no|not|without)\s+(?!even\b)")


@lru_cache(maxsize=1024)
def analyze(query: str) -> RequestAnalysis:
    """Read ``query``: its core ask, exclusions (with their phrases) and instructions.

    Cached (the result is immutable): the reward track, the precision track and fusion
    all read the same request, often in the same process."""
    asked = translation_request(query)
    whole = query
    if asked is not None:  # the text to translate is the asker's material, not the ask
        query = without_text(query, asked.text)
    instructions = infer_instructions(query)
    if asked is not None:
        instructions = [*_translation_instructions(asked, instructions)]
    covered = instruction_terms(instructions)
    exclusions: list[Exclusion] = []
    seen: set[str] = set()
    reads = exclusion_reads(query)
    raws: list[str] = []  # each exclusion's phrase as read, for the members listed after it
    # a situation only where every reading of the item is one ("there's no heater in it")
    told = {item for item, _, situation in reads if not situation}
    for item, phrase, situation in reads:
        raw = phrase
        if item in seen or item in covered or phrase.lower().strip() in covered:
            continue  # "no commas" / "don't use the word X" are instructions, not exclusions
        if _under_question(query, item, phrase):
            continue  # "Suit or no suit??", "my sister says no cheese ... is cheese ok?"
        if _person_away(query, item, phrase):
            continue  # "Tom is out until 5": a person away, no thing ruled out
        if _BANNED.search(phrase) and not _rule_kept(query, phrase):
            continue  # "the HOA forbids antennas. Can they actually do that?"
        seen.add(item)
        lack = bool(LACK.match(phrase) or _UNAVAILABLE.search(phrase))
        phrase = SAID_BY.sub("", phrase)  # "the vicar says confetti ...": the rule itself
        at = phrase.lower().find(item)
        # the phrase up to its item ("no nuts", not "no nuts, she's allergic"), unless what
        # rules it out comes after it ("a severe peanut allergy")
        if at > 0 and not _AFTER_ITEM.match(phrase, at + len(item)):
            phrase = phrase[: at + len(item)]
            # from the item's own "no": "no honey", not "no eggs and no honey"
            if len(negs := list(_OWN_NO.finditer(phrase.lower(), 0, at))) > 1:
                phrase = phrase[negs[-1].start() :]
        phrase = _whole_words(query, phrase.strip(" ,;-"))
        lack = lack or _lack_told_before(query, phrase, item)  # "I only have X, no Y"
        situation = situation and item not in told
        exclusions.append(
            Exclusion(
                item=item,
                phrase=phrase,
                lack=lack,
                situation=situation,
                for_now=_for_now(query, phrase),
            )
        )
        raws.append(raw)
    exclusions += _members_listed(query, exclusions, raws, seen)
    for e in (*_implied_exclusions(query), *_taken_off(query)):
        if e.item not in seen:
            seen.add(e.item)
            exclusions.append(e)
    stripped = strip_exclusions(query) if exclusions else ""
    core = _clean_core(query, stripped) if exclusions else query.strip()
    topic = request_topic(query, instructions)
    return RequestAnalysis(
        query=whole,
        core_ask=core or query.strip(),
        exclusions=tuple(exclusions),
        instructions=tuple(instructions),
        asks=split_asks(topic),
        topic=topic,
        expects=expected_answers(" ".join(asking_sentences(topic)), query),
        asked=" ".join([*asking_sentences(stripped), *_wanted(query, exclusions)]),
        avoided=tuple(_avoided(query, exclusions)),
        tried=tuple(tried_things(query)),
        budget=ceiling(query),
    )


def _for_now(query: str, phrase: str) -> bool:
    """Whether ``phrase`` rules its item out only for a time (``FOR_NOW`` after it)."""
    at = query.find(phrase)
    return at >= 0 and FOR_NOW.match(query, at + len(phrase)) is not None


def _members_listed(
    query: str, exclusions: Sequence[Exclusion], raws: Sequence[str], seen: set[str]
) -> list[Exclusion]:
    """What the request lists in brackets after an exclusion's phrase (``raws``: each as
    read) when it lists members of the class excluded: a plant family's ("allergic to the
    whole allium family (onion, garlic, shallots, leeks, chives, all of it)"), or pieces of
    which one at least is a known member ("no retinoids of any kind (retinol, tretinoin,
    adapalene etc)"). Not a reason ("no caffeine (arrhythmia, insomnia, reflux)", "no
    stairs (small flat, narrow stairs, tiny lift)")."""
    out: list[Exclusion] = []
    for e, raw in zip(exclusions, raws, strict=True):
        pieces = listed_after(query, raw)
        known = {stem(m) for m in class_members(e.item)}
        family = e.item in FAMILIES or e.item.removesuffix("s") in FAMILIES  # "nightshades"
        if not family and not any(stem(p) in known for p in pieces):
            continue
        for piece in pieces:
            if piece not in seen:
                seen.add(piece)
                out.append(Exclusion(item=piece, phrase=e.phrase))
    return out


#: What the asker says they want to do, in their own words: "I want to do it in just a
#: swimsuit" (its words are asked for, never members of what is excluded).
_WANTED = re.compile(
    r"\b(?:i|we)(?:\s+really)?\s*(?:want|'d\s+like|would\s+like|'d\s+prefer|prefer|plan"
    r"|intend|'m\s+going|am\s+going|are\s+going|'re\s+going)\s+to\s+[^.!?;\n]{1,100}",
    re.IGNORECASE,
)


def _wanted(query: str, exclusions: Sequence[Exclusion]) -> list[str]:
    """The clauses that say what the asker wants to do, each cut where it names something
    excluded ("I want to swim in just a swimsuit, no wetsuits": "... just a swimsuit,")."""
    out = []
    for clause in _WANTED.findall(query):
        cuts = [
            m.start()
            for e in exclusions
            for text in (e.phrase, e.item)
            if (m := re.search(rf"\b{re.escape(text)}", clause, re.IGNORECASE))
        ]
        kept = clause[: min(cuts)] if cuts else clause
        if len(kept.split()) > 3:  # more than "I want to"
            out.append(kept)
    return out


#: What sets an item aside where a question names it: "can I use walnuts instead of pine
#: nuts?" still asks without pine nuts.
_SET_APART_BEFORE = re.compile(
    r"\b(?:instead\s+of|rather\s+than|other\s+than|without|no|not|besides|except(?:\s+for)?"
    r"|apart\s+from|aside\s+from|replace|swap(?:\s+out)?|substitute\s+for|in\s+place\s+of)"
    r"\s+(?:the\s+|any\s+|using\s+)?$",
    re.IGNORECASE,
)


#: Words of leaving a thing or being paid back, in both questions below.
_LEAVE_WORDS = r"cancel\w*|unsubscrib\w+|deactivat\w+|refund\w*|complain\w*|dispute|opt\s+out"
#: A question that asks for help with the thing itself, leaving it or setting it right:
#: "I won't use Chrome anymore. How do I uninstall Chrome?", "... How do I delete my Shein
#: account?", "How does Starling compare to Monzo?".
_DEALT_WITH = re.compile(
    r"\b(?:" + _LEAVE_WORDS + r"|claim\w*|delete|deleting|close|closing|report|reporting"
    r"|uninstall\w*|remove|removing|return|returning|compare[sd]?|comparing|get\s+rid\s+of"
    r"|get\s+out\s+of|sue|suing|escalate|leave|leaving|quit|quitting|switch\w*\s+(?:from|away)"
    r"|move\s+(?:from|away))\b[^?]*\?",
    re.IGNORECASE,
)
#: A question that asks how to leave or be paid back, the thing left unnamed or not: what
#: the request rules out is what the answer must name to help ("How do I cancel Prime?",
#: "How do I get the cleaning fee refunded?").
_LEAVING = re.compile(
    r"\b(?:how\s+(?:do|can|should|would)\s+(?:i|we)|(?:can|could|should)\s+(?:i|we)"
    r"|(?:what|where|who)\s+do\s+(?:i|we)|help\s+(?:me|us))\b[^?]*"
    r"\b(?:" + _LEAVE_WORDS + r"|(?:my|the|our)\s+money\s+back"
    r"|claim\w*\s+(?:compensation|a\s+refund|back)|chargeback"
    r"|(?:delete|close)\s+(?:my|the|our)\s+(?:\w+\s+)?account)\b[^?]*\?",
    re.IGNORECASE,
)
#: A question whether to do or have something: "is it ok to eat cheese?", "should I add a
#: filter?", "can I still have coffee?" (not "are mushrooms in most risottos?").
_WHETHER_TO = re.compile(
    r"\b(?:ok|okay|safe|fine|alright|allowed|worth|should\s+i|can\s+i|could\s+i|do\s+i\s+need"
    r"|would\s+you|is\s+it\s+(?:bad|wise|smart))\b[^?]*\?",
    re.IGNORECASE,
)


#: What the asker has, then what they lack, in one breath: "I only have liability on this
#: car, no collision and no uninsured motorist coverage", "we've got a hob, no oven", "we
#: have a tiny flat, no garden": "only" / "just" before what is had, or a thing had
#: ("a hob"), not an occasion or a condition ("I have a dinner party on Saturday, no
#: shellfish", "we have a small budget, no fancy ingredients", "I have celiac, no gluten").
#: The lacks told before a "no X" in the same breath: "no collision and no uninsured ...".
_NOS_BEFORE = r"(?:no\s+[\w'-]+(?:\s+[\w'-]+){0,3}?(?:\s*,\s*|\s+and\s+|\s+or\s+))*$"
_HAVE_THEN = re.compile(
    r"\b(?:i|we)(?P<only>\s+(?:only|just))?\s*(?:have|'ve\s+got|have\s+got|got|own)\b"
    r"(?P<had>(?:(?!\bno\b)[^.;:!?\n]){1,80}),\s*(?:but\s+|and\s+)?" + _NOS_BEFORE,
    re.IGNORECASE,
)
#: "I've got no ...", "we've got no gym and no ...": what the asker has, told as none.
_GOT_NO = re.compile(r"\b(?:i|we)(?:'ve|’ve|\s+have|ve)\s+got\s+" + _NOS_BEFORE, re.IGNORECASE)
#: A thing had, in a few words: "a hob", "a tiny flat", "an old gas cooker".
_A_THING = re.compile(r"\s*(?:a|an)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s*$", re.IGNORECASE)
#: What a request has that is no thing the lacked one could be among.
_OCCASIONS = frozenset(
    """
    party parties dinner lunch event wedding meeting interview trip holiday budget deadline
    guest guests visitor visitors date appointment shift exam test allergy intolerance
    condition diet baby toddler kid child son daughter
    """.split()
)


def _person_away(query: str, item: str, phrase: str) -> bool:
    """Whether "<Name> is out" ``phrase`` tells a person is away ("Tom is out until 5", "Priya
    is out at work all day"): one capitalised word, a time or a place after it, and no
    thing the project's lists know ("Coffee is out until noon", "Bacon is out till Monday"
    still rule the thing out)."""
    if not re.fullmatch(r"[A-Z][a-z]+(?<!ing)(?:\s+is|['’]s)\s+out", phrase.strip()):
        return False
    at = query.find(phrase)
    return at >= 0 and AWAY.match(query, at + len(phrase)) is not None and item not in _LISTED


#: Every class and member the project's lists know: things, never a person's name.
_LISTED = frozenset(
    [*CLASS_MEMBERS, *THING_MEMBERS, *(m for ms in CLASS_MEMBERS.values() for m in ms)]
    + [m for ms in THING_MEMBERS.values() for m in ms]
)


def _lack_told_before(query: str, phrase: str, item: str) -> bool:
    """Whether a "no X" ``phrase`` closes a clause that tells what the asker has: a lack
    stated (``Exclusion.lack``), not a thing ruled out (the item right after its "no":
    not "no GPU, and can't use cloud", whose cloud is ruled out), or follows "I've got" /
    "we've got", as "I don't have X" does ("we've got no gym and no equipment")."""
    at = query.find(phrase)
    if at > 0 and phrase.lower().startswith("no ") and _GOT_NO.search(query, 0, at):
        return True
    if not phrase.lower().startswith(f"no {item.lower()}"):
        return False
    had = _HAVE_THEN.search(query, max(0, at - 120), at) if at > 0 else None
    if had is None or _ASKED_AFTER.match(query, at + len(phrase)):
        return False  # "I have a toddler, no nuts in the house please": a rule
    words = re.findall(r"[\w']+", had.group("had").lower())
    if BEINGS.intersection(words) or _OCCASIONS.intersection(words):
        return False
    return bool(had.group("only")) or _A_THING.fullmatch(had.group("had")) is not None


#: A lack is told, a rule asked: "..., no nuts please", "..., no nuts!".
_ASKED_AFTER = re.compile(r"[^.;!?\n]*?(?:\b(?:please|pls|plz)\b|!)", re.IGNORECASE)


def _under_question(query: str, item: str, phrase: str) -> bool:
    """Whether the request asks about ``item`` rather than ruling it out: a choice ending its
    clause ("Suit or no suit??", "with or without sugar?"; not "no wool or wool blends"), or
    a question of its own that names the item plainly, outside the sentence that excludes
    it ("my sister says no cheese at all ... which cheeses are fine?", "small pump but no
    filter ... Should I add a filter?"), or one that asks how to leave, cancel or be paid
    back, whatever it names ("I won't give Amazon any more money. How do I cancel Prime?"),
    or what to do with the item itself ("I won't use Chrome anymore. How do I uninstall
    Chrome?", "How does Starling compare to Monzo?")."""
    word = rf"{re.escape(item)}(?:e?s)?"
    choice = (
        rf"(?:\b{word}\s+or\s+no\s+{word}|\bno\s+{word}\s+or\s+{word}"
        rf"|\bwith\s+or\s+without\s+(?:the\s+|any\s+)?{word})(?=\s*(?:[?.!,;:]|$))"
    )
    if re.search(choice, query, re.IGNORECASE):
        return True
    excluding = phrase.lower()
    for sentence in asking_sentences(query):
        if excluding in sentence.lower():
            continue
        if _LEAVING.search(sentence):
            return True  # "I won't give Amazon any more money. How do I cancel Prime?"
        if not (_WHETHER_TO.search(sentence) or _DEALT_WITH.search(sentence)):
            continue
        for m in re.finditer(rf"\b{word}\b", sentence, re.IGNORECASE):
            if not _SET_APART_BEFORE.search(sentence[: m.start()]):
                return True
    return False


def _translation_instructions(
    asked: Translation, found: Sequence[Instruction]
) -> Iterator[Instruction]:
    """The request's other instructions, with its target language in place of any other
    language read (when the language check can tell it), and the text, which a translation
    keeps whole (``translation.translation_fault``); neither when the request asks for more
    than the translation."""
    yield from (k for k in found if k.check != "language")
    if asked.extras:  # notes, a transliteration, the original beside it: more than the text
        return
    if asked.told:
        yield make("language", asked.phrase, value=asked.target)
    yield make("translation", asked.phrase, value=asked.text)


def _avoided(query: str, exclusions: Sequence[Exclusion]) -> Iterator[Activity]:
    """The activities the request would rather avoid whose object is not already an
    excluded item (that one is checked as a thing: "rather not use a food processor")."""
    items = [{stem(w) for w in e.item.split()} for e in exclusions]
    for a in avoided_activities(query):
        if not any(a.head in item and item <= a.modifiers | {a.head} for item in items):
            yield a


def inferred_constraints(query: str, given: Sequence[Constraint] = ()) -> list[Instruction]:
    """The request's inferred instructions, less those the caller already gave as an
    ``instruction`` constraint of the same check (the caller's wins)."""
    mine = {(k.check, k.unit) for k in given if isinstance(k, Instruction)}
    return [k for k in analyze(query).instructions if (k.check, k.unit) not in mine]

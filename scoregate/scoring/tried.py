"""What the asker has already tried, and whether an answer offers it again.

"I already tried offering waxworms to tempt him and he ignored them": an answer that says
"try a waxworm or two as an appetite starter" repeats what failed. The request names a
thing after "already tried" (or after "I've tried" in a sentence that says it failed), and
an answer offers it again when one of its clauses suggests it: opens on a verb of offering
("Try a waxworm", "- Use wooden wicks"), or says "you could use ...", "and try ...", with the
thing after the verb and no negation between. An act tried ("I already restarted the
router", "I've already tried clearing the cache", "I already ran sfc /scannow") is offered
again by a clause that opens on the same verb with the same object ("Restart your router",
"1. Run sfc /scannow"). Telling why it failed ("Wooden wicks often drown in coconut wax",
"Since restarting the router didn't help") or ruling it out ("skip the waxworms") is no
offer.

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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from scoregate.scoring.affirmation import bare_verb, stem

#: "I already tried", "we've already tried", "Already tried": tried, whatever came of it.
_ALREADY = re.compile(
    r"(?:\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+already\s+|^\s*already\s+)tried\s+",
    re.IGNORECASE,
)
#: A verb of an act done, in the past: "restarted", "ran", "cleared" (not a verb of no
#: attempt: "decided", "booked", "asked").
_DID = (
    r"(?P<verb>(?!(?:tried|decided|planned|booked|paid|agreed|named|noticed|mentioned|explained"
    r"|learned|married|retired|graduated|received|started|finished|moved|owned|asked|used"
    r"|needed|wanted|liked|loved|hated|signed|registered|applied|lived|worked|looked|told"
    r"|spent|lost)\b)[a-z]{3,}ed|ran|did|done|made|took|gave|put|set|got|bought|reset|rebuilt|bled"
    r"|fed|cut)\s+"
)
#: "I already restarted the router", "we've already ran sfc": an act done, the verb kept.
_ALREADY_DID = re.compile(r"\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+already\s+" + _DID, re.IGNORECASE)
#: "I've bled all the radiators twice and they're still cold": an act done, read only in a
#: sentence that says it failed.
_DONE_AND_FAILED = re.compile(r"\b(?:i|we)(?:'ve|\s+have)\s+" + _DID, re.IGNORECASE)
#: "I already know full OLL and full PLL": a thing learned, offered again by "Finish learning
#: full OLL" (not "I already know how to ...", "I already know that ...": no thing).
_KNOWN = re.compile(
    r"(?:\b(?:i|we)(?:'ve|\s+have)?\s+(?:already|both)\s+know\s+(?:all\s+)?"
    r"|\b(?:i'm|i\s+am|we're|we\s+are)\s+(?:already\s+)?fluent\s+in\s+)"
    r"(?!(?:how|what|that|where|when|why|who|which|if|whether|about|it|this)\b)",
    re.IGNORECASE,
)
#: "ive memorised the whole periodic table already", "I've already mastered the basic
#: strokes": a thing learned, read only in a sentence that says "already".
_LEARNED = re.compile(
    r"\b(?:i|we)(?:'ve|\s+have|ve)?\s+(?:already\s+)?(?:memori[sz]ed|mastered|learned|learnt)"
    r"\s+(?:the\s+whole\s+|all\s+)?(?!(?:how|what|that|to|about|it|this|from|a\s+lot)\b)",
    re.IGNORECASE,
)
#: "I've finished the Duolingo Gaelic course twice", "we've completed the NHS couch to 5k
#: programme": a course gone through, offered again by "Start with the Duolingo Gaelic
#: course" (not "I've finished the first draft": only a course, a book or a programme).
_COURSES = (
    r"course|programme|program|textbook|workbook|book|curriculum|syllabus|tutorial|bootcamp"
    r"|level|class(?:es)?"
)
_COMPLETED = re.compile(
    r"\b(?:i|we)(?:'ve|\s+have|\s+had|ve)?\s+(?:already\s+|just\s+)?(?:finished|completed|done"
    r"|gone\s+through|worked\s+through)\s+(?=(?:(?:the|a|an|my|our|all\s+of(?:\s+the)?)\s+)?"
    rf"(?P<thing>(?:[\w'-]+\s+){{0,3}}(?:{_COURSES})s?)\b)",
    re.IGNORECASE,
)
#: The words of a credential one holds: "licence", "certification", "belt" ...
_HELD_NOUNS = (
    r"licen[cs]e|certificate|certification|qualification|badge|belt|diploma|degree|rating"
    r"|endorsement|permit|visa"
)
#: ... and those one passes, whose "got my" is one to come ("got my Goethe B1 exam") or
#: another thing ("got my card").
_PASSED_NOUNS = _HELD_NOUNS + r"|grade|test|exam|card|course"


def _credential(group: str, nouns: str) -> str:
    """A credential's name of up to five words before its noun, as the group ``group``."""
    return rf"(?P<{group}>(?:[\w'-]+\s+){{0,5}}?(?:{nouns})s?)"


#: "Got my A licence last month", "I've passed my theory test", "we both earned our PADI
#: Open Water certification": a credential held, offered again by "pass your A licence
#: check" (not "got my licence suspended": lost, not held).
_EARNED = re.compile(
    r"(?:\b(?:i|we)(?:'ve|\s+have|ve)?(?:\s+both)?\s+|\bboth\s+|^\s*)"
    r"(?:already\s+|just\s+|finally\s+|recently\s+)?"
    r"(?:(?:earned|passed|obtained|achieved|gained)\s+(?:my|our)\s+"
    + _credential("cred", _PASSED_NOUNS)
    + r"|(?:got|gotten)\s+(?:my|our)\s+"
    + _credential("got", _HELD_NOUNS)
    + r")\b"
    r"(?!\s+(?:[\w'-]+\s+){0,2}?(?:suspended|revoked|taken|back|cancell?ed|rejected"
    r"|returned|renewed|stolen|lost|expired|results?)\b)"
    # "My husband and I both have our PADI Open Water certification" (not "I have my driving
    # test next week": a test to come)
    r"|\b(?:i|we)(?:\s+both|\s+already|\s+each)?\s+(?:have|hold)\s+(?:my|our)\s+"
    + _credential("held", _HELD_NOUNS)
    + r"\b"
    # "My PLA standard permit came through last week", "our visas were approved"
    r"|\b(?:my|our)\s+"
    + _credential("came", _HELD_NOUNS + r"|id")
    # (what it is for or from: "my working holiday visa for New Zealand was approved")
    + r"(?:\s+(?:for|from|with)(?:\s+[\w'-]+){1,4}?)?"
    r"\s+(?:(?:has|have|finally|just)\s+)?(?:came\s+through|come\s+through|arrived"
    r"|(?:was|were|got|has\s+been|have\s+been)\s+(?:approved|granted|issued))\b",
    re.IGNORECASE,
)
_ALREADY_WORD = re.compile(r"\balready\b", re.IGNORECASE)
#: The verbs that offer a thing to learn: "Learn full PLL", "Finish learning OLL".
_LEARN = (
    r"(?:finish|start|begin|keep)\s+learning|(?:start|begin)\s+by\s+(?:learning|memori[sz]ing)"
    r"|make\s+sure\s+(?:you\s+)?learn|learn|memori[sz]e"
)
#: A second act told after the first: "... and ran sfc /scannow", ", then reinstalled it".
_NEXT_ACT = re.compile(r"\s*,?\s*(?:(?:and|then|also)\s+)+" + _DID, re.IGNORECASE)
#: Irregular past forms, read as the verb an answer would tell the asker to do.
_PAST = {
    "ran": "run", "did": "do", "done": "do", "made": "make", "took": "take", "gave": "give",
    "put": "put", "set": "set", "got": "get", "bought": "buy", "reset": "reset",
    "rebuilt": "rebuild", "bled": "bleed", "fed": "feed", "cut": "cut",
}  # fmt: skip
#: "I already swapped to a light gauge set", "we've already switched to the 2.4 GHz band":
#: the thing gone over to, tried.
_SWAPPED_TO = re.compile(
    r"\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+already\s+(?:swapped|switched|changed|moved|gone)"
    r"\s+(?:(?:it|them)\s+)?(?:over\s+)?to\s+",
    re.IGNORECASE,
)
#: "I put a brand new chain on last week", "we fitted a new thermostat": a new one tried,
#: read only in a sentence that says it failed (the new one is the thing: "Fit a new chain"
#: offers it again, "put the chain back on" does not).
_NEW_FITTED = re.compile(
    r"\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+(?:already\s+)?(?:put|fitted|fit|installed|bought|got"
    r"|swapped\s+in|tried)\s+(?:(?:a|an|some)\s+)?(?:brand[\s-]+)?(?=new\s)",
    re.IGNORECASE,
)
#: "I replaced the toilet flapper two days ago and it still runs": a new one tried, read
#: only in a sentence that says it failed.
_REPLACED = re.compile(
    r"\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+(?:already\s+)?replaced\s+(?:the|my|our)\s+",
    re.IGNORECASE,
)
#: "I've tried ...", "we tried ...": tried, read only in a sentence that says it failed.
_TRIED = re.compile(r"\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+tried\s+", re.IGNORECASE)
_FAILED = re.compile(
    r"\b(?:didn'?t|did\s+not|doesn'?t|does\s+not|don'?t|won'?t|wouldn'?t)\s+(?:work|help|do)\b"
    r"|\bno\s+(?:luck|joy|difference|change|improvement)\b|\bnothing\s+(?:works|worked|helped)\b"
    r"|\b(?:failed|useless|ignored|hated|still\b)|\b(?:exactly\s+)?the\s+same\s+(?:thing|problem|issue)\b"
    # what it did to the asker, and a way given up: "it left my hips bruised for days, so
    # not going down that road again"
    r"|\bnot\s+going\s+down\s+that\s+(?:road|route|path)\b|\bnever\s+again\b"
    r"|\b(?:not|never)\s+(?:using|doing|buying|trying|getting)\s+(?:it|one|them|that|those"
    r"|another)\s+again\b|\b(?:binned|ditched|chucked)\s+(?:them|it|those)\b"
    r"|\bthrew\s+(?:them|it|those)\s+(?:out|away)\b"
    r"|\b(?:i'm|we're|i\s+am|we\s+are)\s+done\s+with\s+(?:that|it|them|those|these)\b"
    r"|\bleft\s+(?:me|us|her|him|them|my\s+[a-z]+)\s+(?:[a-z]+\s+)?(?:bruised|sore|aching"
    r"|blistered|terrified|shaking|scared|raw|itchy|worse|in\s+agony|in\s+pain)\b"
    r"|\bchafed\b",
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
    " she we i already again too also or nor at from by around under over into onto near"
    " every each twice once daily since times multiple several all still same no nothing"
    " didn't doesn't don't wasn't isn't won't i've we've i'm we're i'd it's they've been"
    " has have had is are was were now how what why where who do does can could should would"
    " will any anything about ago yesterday today earlier like using via through per"
    # (a typed "ive", a wish: "I already know Python and want to ...")
    " ive im want wants need needs"
    # (where from: "scrubbing the limescale off my shower screen")
    " off"
    # (a thing named loosely: "the split cage thing" is the split cage)
    " thing stuff".split()
)
_DETERMINERS = frozenset(
    "a an the my our his her their your some any this that these those more extra less"
    " another both".split()
)
#: Heads that name no thing to look for.
_VAGUE = frozenset(
    "it them that this everything anything something all both everything things stuff one"
    " ones lot way ways".split()
)
#: Between two things tried: "X, Y and Z", "X or Y".
_AND = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9][\w'-]*", re.IGNORECASE)
_SENTENCES = re.compile(r"[^.!?\n]+")


@dataclass(frozen=True)
class Tried:
    """A thing the request has already tried, or the object of an act tried, and the
    phrase that says so."""

    item: str
    phrase: str
    #: The act's verb, as a stem ("restart" of "restarted the router"); ``None`` for a
    #: thing tried ("wooden wicks").
    act: str | None = None


#: Numbers, which open a thing ("two supers") but never go on one.
_COUNTS = frozenset("two three four five six seven eight nine ten couple few".split())
#: Words that link a thing to what follows it, never its last word.
_LINKS = frozenset("of for with in on at to from by".split())


def _thing_after(sentence: str, start: int, *, act: bool = False) -> tuple[str, int] | None:
    """The thing named at ``start``: up to four words before a word that ends it, less
    determiners; ``None`` for an act ("restarting the router", unless ``act``: the object
    of an act read already) or a vague word."""
    way = None if act else _WAY.match(sentence, start)
    at = way.end() if way else start
    one_of = _ONE_OF.match(sentence, at)  # "tried one of those padded weighted hoops"
    at = one_of.end() if one_of else at
    words: list[str] = []
    end = at
    for m in _WORD.finditer(sentence, at):
        low = m.group(0).lower()
        if low == "all" and not words and end == at:
            end = m.end()  # "bled all the radiators": the radiators
            continue
        if low in _ENDS or len(words) == 4 or sentence[end : m.start()].strip(" "):
            break
        if words and (low.isdigit() or low in _COUNTS):
            break  # a time after the thing: "replaced the flapper two days ago"
        if low not in _DETERMINERS or words:
            words.append(low)
        end = m.end()
    if words and (words[-1] in _DETERMINERS or words[-1] in _LINKS):
        return None  # "a test drive of the Tesla": longer than four words, not read
    if not words or words[-1] in _VAGUE or words[0] in _VAGUE:
        return None
    if words[0].endswith(("ing", "ed")) and not (way and way.group(0)) and not one_of:
        return None  # an act tried: "restarting the router", "downsampling"
    return " ".join(words), end


_ONE_OF = re.compile(r"one\s+of\s+(?:those|these|the|them)\s+", re.IGNORECASE)


#: A gerund after "already tried": the act tried ("tried restarting the router").
_GERUND = re.compile(r"([a-z]{3,}ing)\s+", re.IGNORECASE)


def _reads(sentence: str) -> Iterator[tuple[int, int, str | None]]:
    """Where each thing or act tried is named: the cue's start, where its object starts,
    and the act's verb stem (``None`` for a thing)."""
    cues = list(_ALREADY.finditer(sentence)) + list(_SWAPPED_TO.finditer(sentence))
    failed = _FAILED.search(sentence) is not None
    if not cues and failed:
        cues = list(_TRIED.finditer(sentence))
    if failed:
        cues += list(_NEW_FITTED.finditer(sentence))
    for m in cues:
        way = _WAY.match(sentence, m.end())
        gerund = None if way and way.group(0) else _GERUND.match(sentence, m.end())
        if gerund:
            yield m.start(), gerund.end(), bare_verb(stem(gerund.group(1)))
        else:
            yield m.start(), m.end(), None
    done = list(_ALREADY_DID.finditer(sentence))
    if failed and not done:
        done = list(_DONE_AND_FAILED.finditer(sentence))
    for m in done:
        verb = m.group("verb").lower()
        yield m.start(), m.end(), stem(_PAST.get(verb, verb))
    for m in _KNOWN.finditer(sentence):
        yield m.start(), m.end(), "learn"
    if _ALREADY_WORD.search(sentence):
        for m in _LEARNED.finditer(sentence):
            yield m.start(), m.end(), "learn"


def tried_things(query: str) -> list[Tried]:
    """What ``query`` says it has already tried, in order, each once; not what a question
    of the request asks about ("I already tried X. Is it worth trying X again?")."""
    found = _told(query)
    questions = [m.group(0) for m in re.finditer(r"[^.!?\n]+\?", query)]
    return [t for t in found if not any(t.phrase not in q and _names(q, t.item) for q in questions)]


def _renewed(sentence: str, found: list[Tried]) -> list[Tried]:
    """The parts the sentence says were replaced and still failed, each as a new one tried
    ("I replaced the flapper and it still runs": a new flapper)."""
    if _FAILED.search(sentence) is None:
        return []
    out: list[Tried] = []
    for m in _REPLACED.finditer(sentence):
        read = _thing_after(sentence, m.end(), act=True)
        if read is None:
            continue
        item = f"new {read[0]}"
        if all(t.item != item or t.act for t in found + out):
            out.append(Tried(item, sentence[m.start() : read[1]].strip()))
    return out


def _told(query: str) -> list[Tried]:
    found: list[Tried] = []
    for s in _SENTENCES.finditer(query):
        sentence = s.group(0)
        found += _renewed(sentence, found)
        for m in _EARNED.finditer(sentence):  # "Got my A licence": the licence, as held
            item = m.group("cred") or m.group("got") or m.group("held") or m.group("came")
            item = item.lower()
            if (item, "earn") not in {(t.item, t.act) for t in found}:
                found.append(Tried(item, m.group(0).strip(), "earn"))
        # a course gone through, named up to its kind ("the Couch to 5K programme"); "I've
        # already done the course" is read once, as an act
        acts = {m.start() for m in _ALREADY_DID.finditer(sentence)}
        for m in _COMPLETED.finditer(sentence):
            item = m.group("thing").lower().strip()
            if m.start() not in acts and item not in {t.item for t in found}:
                found.append(Tried(item, sentence[m.start() : m.end("thing")].strip()))
        for start, at, act in _reads(sentence):
            read = _thing_after(sentence, at, act=act is not None)
            while read is not None:  # "a heat mat, a new thermostat and a basking bulb"
                if (read[0], act) not in {(t.item, t.act) for t in found}:
                    found.append(Tried(read[0], sentence[start : read[1]].strip(), act))
                more = _AND.match(sentence, read[1])
                verb = _NEXT_ACT.match(sentence, read[1]) if act is not None else None
                if verb is not None:  # "restarted the router and ran sfc /scannow"
                    act = stem(_PAST.get(verb.group("verb").lower(), verb.group("verb").lower()))
                    read = _thing_after(sentence, verb.end(), act=True)
                else:
                    read = _thing_after(sentence, more.end(), act=act is not None) if more else None
    return found


#: A clause that suggests doing something: it opens on a verb of offering (after a list
#: marker, a bold label or a linking word), or the verb follows "you could", "I'd", "and".
_OFFER_VERB = (
    r"(?:try|offer|use|give|add|feed|switch\s+to|buy|get|go\s+(?:up|down|back\s+to)|pick"
    r"|start\s+with|(?:re)?start|begin|stick\s+with|keep\s+(?:using|offering|trying)|swap\s+in|put|apply|choose"
    r"|opt\s+for|go\s+with|fit|install|order|take|work\s+through|go\s+through|enroll?\s+in"
    r"|sign\s+up\s+for|redo|repeat|line|lay|cover|wrap)"
)
_OPENS = (
    r"(?:^\s*(?:[-*•]|\d+[.)])?\s*(?:\*\*[^*\n]{1,40}\*\*:?\s*)?(?:step\s+\d+\s*[:.)-]\s*)?"
    r"(?:(?:first|then|next|also|instead|finally|so|now|meanwhile|otherwise)\s*,?\s+)?"
    r"|\b(?:you\s+(?:could|can|should|might|may\s+want\s+to|need\s+to|want\s+to)"
    r"|i'?d|i\s+would|we'?d|and|then|or|also|just|so"
    # "the best place to begin is to enrol in ...", "the first thing to do is bleed ..."
    r"|(?:is|be)\s+to|(?:to|can|could|should)\s+do\s+is"
    # "Make sure you both obtain a Level 2 certificate"
    r"|make\s+sure\s+(?:you\s+)?(?:both\s+|all\s+|each\s+)?)\s*(?:also\s+|still\s+|just\s+)?|,\s*"
    # "Lock in the basics first: start with the Duolingo course"
    r"|:\s+)"
)
#: (a lookahead, so that a later verb of the clause is read too: "Go up one size, and try a
#: booster wooden wick")
_REST = r"\b(?=(?P<rest>[^;:\n]{0,80}))"
_OFFER = re.compile(rf"{_OPENS}(?P<verb>{_OFFER_VERB}){_REST}", re.IGNORECASE)
#: A negation or a turn away between the verb and the thing: "use anything but waxworms".
_TURNED = re.compile(
    r"\b(?:not|no|never|without|instead\s+of|rather\s+than|other\s+than|but|except|than"
    r"|besides|beyond|unlike|apart\s+from"
    # a new clause: "run DISM so sfc has a source", "update Windows, then re-run sfc"
    r"|so|then|until|before|after|because|if|when|while|since|and|or|to)\b|n't\b|,",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"[^.!?;\n]+")


def _names(text: str, item: str) -> re.Match[str] | None:
    """Where ``text`` names ``item``: its head word, with the word before it when it has
    one ("wooden wicks": "a booster wooden wick"; "waxworms": "a waxworm")."""
    words = item.split()
    before = rf"{re.escape(stem(words[-2]))}[\w'-]*\s+" if len(words) > 1 else ""
    # (its own forms, not a longer word: "the chain" is no "chainring"; the word itself
    # where the stem cuts more than an ending: "course" stems to "cour")
    ends = r"(?:ions?|ive|ing|ed|es|s|e|er|ers|'s|s')?"
    head = rf"(?:{re.escape(stem(words[-1]))}{ends}|{re.escape(words[-1])}(?:s|'s)?)"
    return re.search(rf"\b{before}{head}\b", text, re.IGNORECASE)


#: Verbs that do one act, as stems: "did a factory reset" is done again by "perform a
#: factory reset", "restarted the router" by "reboot the router", "did my makeup trial" by
#: "book your makeup trial".
_SAME_ACT = tuple(
    frozenset(group.split())
    for group in (
        # (an event done: "I already did my makeup trial" is offered again by "book your
        # makeup trial")
        "do perform run execut book schedul arrang",
        "restart reboot",
        "clear delet wip remov",
        "updat upgrad",
        # (a credential held: "got my A licence" is offered again by "pass your A licence")
        # (and "apply for your PLA foreshore permit" for "my PLA standard permit came through")
        "earn pass get obtain achiev gain sit complet appl",
    )
)


#: The most words between the verb and what it offers: "Go up a size in wooden wick" (not
#: "run ALTER DEFAULT PRIVILEGES IN SCHEMA sales GRANT SELECT": another command).
_REACH = 3


def _near(between: str) -> bool:
    """Whether the words between the verb and the thing keep it the verb's object: a few
    of them, with no negation, turn or new clause."""
    return len(between.split()) <= _REACH and not _TURNED.search(between)


#: What a verb of lining covers before the thing it is lined with: "Line your tray with a
#: silicone baking mat".
_LINED_WITH = re.compile(r"^\s*(?:your|the|a|each|every)\s+[\w-]+\s+(?:with|in)\s+", re.IGNORECASE)
_LINING = frozenset("line lay cover wrap".split())


def _lined(m: re.Match[str], between: str) -> str:
    """``between`` less what a verb of lining covers ("your tray with")."""
    return _LINED_WITH.sub("", between) if m.group("verb").lower() in _LINING else between


#: A clause that renews a part: "Replace the chain", "renew the flapper".
_RENEW = re.compile(rf"{_OPENS}(?P<verb>replace|renew|change){_REST}", re.IGNORECASE)


def _offers(t: Tried) -> re.Pattern[str]:
    """A clause that offers ``t``: a verb of offering, or the act's own verb."""
    if t.act is None:
        return _OFFER
    if t.act == "learn":
        return re.compile(rf"{_OPENS}(?P<verb>{_LEARN}){_REST}", re.IGNORECASE)
    verbs = next((g for g in _SAME_ACT if t.act in g), frozenset({t.act}))
    alternatives = "|".join(re.escape(v) for v in sorted(verbs))
    if t.act == "do":  # "already done the split cage" is offered again by "Start with a split cage"
        alternatives += f"|{_OFFER_VERB}"
    return re.compile(rf"{_OPENS}(?P<verb>(?:{alternatives})[a-z]*){_REST}", re.IGNORECASE)


#: A word that makes the offer a new one, not the same again: "book a makeup trial with a
#: different artist", "schedule a follow-up blood test", "a consultation with a second
#: surgeon" (not "another": "add another brood box" is the same again).
_REPEAT = re.compile(r"\b(?:second|follow-?up|different)\b", re.IGNORECASE)


#: A clause that opens in bold, after any list marker: "1. **Start with a split cage:** ...".
_BOLD_OPEN = re.compile(r"\s*(?:[-*•]\s+|\d+[.)]\s*)?\*\*")


def offered_again(answer: str, tried: Sequence[Tried]) -> list[tuple[Tried, str]]:
    """Each tried thing the answer suggests again, with the words that suggest it (an act:
    its verb told, not "restarting" or "restarted")."""
    done: list[tuple[Tried, str]] = []
    clauses = [c.group(0) for c in _CLAUSES.finditer(answer)]
    # (a bold label that is itself the offer: "**Start with a split cage:** put ...")
    clauses += [c.replace("**", "") for c in clauses if _BOLD_OPEN.match(c)]
    for t in tried:
        hit = _offered(t, clauses)
        if hit is not None:
            done.append(hit)
    return done


#: The words that name a credential's kind, not which one: "PADI Open Water certification"
#: is named by "your PADI Open Water".
_CREDENTIAL_KIND = frozenset(
    "licence license certificate certificates certification qualification course test exam".split()
)


def _named_as(rest: str, t: Tried, renew: bool) -> re.Match[str] | None:
    """Where the words after an offer name ``t``: a new part also by its bare name after
    "Replace" or after a word of renewal ("a different HDMI cable", "a fresh filter"); a
    credential also without the word of its kind ("earn your PADI Open Water")."""
    if t.act == "earn":
        words = t.item.split()
        named = _names(rest, t.item)
        if named is None and len(words) > 2 and words[-1] in _CREDENTIAL_KIND:
            named = _names(rest, " ".join(words[:-1]))
        if named is None and len(words) > 2:  # "your PLA foreshore permit": its issuer and kind
            named = re.search(
                rf"\b{re.escape(words[0])}\s+(?:[\w'-]+\s+){{0,2}}{re.escape(words[-1])}s?\b",
                rest,
                re.IGNORECASE,
            )
        return named
    if not t.item.startswith("new "):
        words = t.item.split()
        if len(words) > 1 and re.fullmatch(rf"(?:{_COURSES})s?", words[-1]):
            # "start Couch to 5K again" for "the Couch to 5K programme"
            return _names(rest, t.item) or _names(rest, " ".join(words[:-1]))
        named = _names(rest, t.item)
        if named is None and t.act is not None and len(words) > 1:
            named = _names(rest, words[-1])  # the act done again: "scrub the grout" for
        return named  # "scrubbing the shower grout"
    bare = _names(rest, t.item.split()[-1])  # "Replace the flapper" for the toilet flapper
    if renew or bare is None:
        return bare if renew else _names(rest, t.item)
    return bare if _RENEWAL.search(rest[: bare.start()]) else _names(rest, t.item)


#: Words that make a part another one of its kind: "a different cable", "a fresh filter".
_RENEWAL = re.compile(r"\b(?:new|different|another|fresh|replacement|spare)\b", re.IGNORECASE)


def _less_item(between: str, t: Tried) -> str:
    """The words between an offer and a credential less the credential's own ("obtain a
    Level 2 Food Hygiene certificate": "a"); other words as they are."""
    if t.act != "earn":
        return between
    own = set(t.item.split())
    return " ".join(w for w in between.split() if w.lower() not in own)


def _told_done(verb: str) -> bool:
    """Whether the offer's verb is told as done or doing ("restarting", "restarted"), not
    asked for ("bleed", "feed": an "-eed" verb)."""
    return verb.endswith(("ing", "ed")) and not verb.endswith("eed")


#: Applying for a credential of the kind held, however it is named: "apply for your
#: Environment Agency fishing licence" for "my rod licence came through" (the kind's noun
#: substituted for ``{kind}``; not "another", "a second" or "a new" one).
_APPLY_FOR = (
    r"(?:^|\b(?:to|first|then|now|and|please)\s+|[:;,]\s*)(?:apply|register)\b"
    # (who with, where, as what: "register as a drone operator on the CAA website to get")
    r"(?:[^.;:!?\n]{{0,60}}?\s)?(?:for|to\s+(?:get|obtain))\s+"
    r"(?!(?:another|a\s+second|a\s+new|a\s+replacement|your\s+next)\b)"
    r"(?:[\w'-]+\s+){{0,5}}?{kind}s?\b"
)
#: An application for it lodged again: "lodge your Working Holiday entry permit
#: application", "submit your application under the Working Holiday Scheme" (the
#: credential's own words, less its kind, substituted for ``{name}``).
_LODGE = (
    r"\b(?:lodge|submit|file|send\s+off|complete)\s+(?:your|an|the)\s+"
    r"(?:(?:[\w'-]+\s+){{0,5}}?application\b[^.;:!?\n]{{0,40}}?\b{name}\b"
    r"|(?:[\w'-]+\s+){{0,2}}?{name}\b(?:\s+[\w'-]+){{0,3}}?\s+application\b)"
)


_NO_NEED = re.compile(r"\b(?:not|no|never|already|needn't|without)\b|n't\b", re.IGNORECASE)


def _applied_again(t: Tried, clauses: list[str]) -> tuple[Tried, str] | None:
    """The first clause that has the asker apply for the kind of credential ``t`` they hold."""
    words = t.item.split()
    rxs = [re.compile(_APPLY_FOR.format(kind=re.escape(words[-1])), re.IGNORECASE)]
    if len(words) > 2:  # "working holiday": a name of two words or more
        name = r"\s+".join(re.escape(w) for w in words[:-1])
        rxs.append(re.compile(_LODGE.format(name=name), re.IGNORECASE))
    for clause in clauses:
        for rx in rxs:
            m = rx.search(clause)
            if m is not None and not _NO_NEED.search(clause[: m.start()]):
                return t, m.group(0).strip(" :;,")
    return None


def _offered(t: Tried, clauses: list[str]) -> tuple[Tried, str] | None:
    """The first clause that offers ``t`` again, with its words."""
    if t.act == "earn" and (applied := _applied_again(t, clauses)) is not None:
        return applied
    new = t.item.startswith("new ")
    for offers in (_offers(t), _RENEW) if new else (_offers(t),):
        for clause in clauses:
            hit = next(
                (
                    (m, named)
                    for m in offers.finditer(clause)
                    if not _told_done(m.group("verb").split()[0].lower())
                    and (named := _named_as(m.group("rest"), t, offers is _RENEW))
                    and _near(_lined(m, _less_item(m.group("rest")[: named.start()], t)))
                ),
                None,
            )
            # ("book a consultation with a second surgeon", "a follow-up test": a new one;
            # but another new part is the same again)
            if hit is not None and (new or not _REPEAT.search(hit[0].group("rest"))):
                m, named = hit
                return t, clause[m.start("verb") : m.start("rest") + named.end()]
    return None

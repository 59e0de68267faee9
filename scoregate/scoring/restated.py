"""Facts of the request that the answer restates the other way round (pure).

An answer built on a wrong premise often says so in as many words: "with your mild
winters" to someone who wrote "zone 4 with hard winters", "since you're not pregnant" to
"I'm pregnant". The cross-encoder reads such an answer as fluent and on topic; the words
themselves are checkable. Three forms are read (and the platform the request runs on:
"my laptop runs Ubuntu" answered "since you're on Windows"; a sheet's layout, "my dates
are in column C" answered "assuming your dates are in column A" with no range of column C;
the files' own extension, "all the files end in .JPEG" answered with a glob "*.jpg" and
no ".JPEG"; another weekday as the asker's own, "I took the first one Monday" answered
"since you started on Tuesday"; one leg as the whole day, "14 miles each way" answered
"14 miles a day"; the asker's date with another month, "married October 18" answered "your
November 18 wedding"; a sum that holds its tax taken as the sum before it, "£1,440 INCLUDES
20% VAT" answered "your net amount is £1,440"; a weekday habit told back as another, "our
sessions are Thursday evenings" answered "try moving your Saturday sessions"; the asker's
party set up for another, "just me and my wife" answered "With four players"; sessions a
week beyond a stated limit, "once a week and that's it" answered "three sessions a week";
full function of a body part taken as weak, "full trunk function" answered "since your
trunk control is limited"), all narrow on purpose:

* the same noun with the opposite adjective ("hard winters" -> "mild winters", "low heat"
  -> "high heat"), when the request does not name the opposite itself ("cold or hot
  water?" offers both) and the answer never repeats the request's own pair;
* a statement about the asker turned into its negation ("I'm vegan" -> "you're not
  vegan", "as you aren't vegan");
* the request's own figure restated as another figure. A figure of the request is a
  number (digits, or a number word from one to twenty or a ten, "twenty-five" too) with a
  unit or a counted noun right after it: "25 litre tank", "6 weeks", "3 kids", "a 2 bed
  flat", "40 guests", or a currency before it ("£600 budget"); its noun is the word after
  it, or the one it is told of ("the budget is £600", "my dog weighs 30 kg", "my phone has
  128 GB"). Not a figure: a number in a range or a list ("5-6 weeks", "between 20 and 30
  guests"), a bound ("over 40 guests", "up to 6 weeks", "40 guests or so"), a unit the
  request gives two numbers for ("from a 2 bed to a 3 bed flat"). The answer restates it
  wrong only when it gives another number with the same unit as the asker's OWN premise,
  in one of three frames:
  - a cause: "since / as / given (that) / now that / because / seeing as / with" and
    "you've got / you have (got) / you're / you are", a hedge ("about", "only", "just",
    "roughly", "around") or "a" allowed, then the figure: "since you've got about ten
    weeks", "as you're 28 weeks along", "given you have 3 days in Rome", "since you have
    a 100 litre tank" ("you have N weeks" is not read for a state, "30 weeks pregnant":
    it tells the time left);
  - a possessive: "your <number> <unit> <noun>" with the request's own noun ("your 40
    litre tank", "your 9-year-old", "your 20 kg dog" for "my dog weighs 30 kg"), or
    "your <number> <unit>" with no noun ("your 4 kids", "your 7 days");
  - a likeness: "a <number> <unit> <noun> like yours" with the request's noun;
  nothing else: a bare "a 200 litre tank" ("angelfish really need a 200 litre tank") and a
  bare "you have about 10 weeks" or "you've got roughly £85/day" are general or worked-out
  figures. After the frame, the request's own noun, nothing ("your 7 days,", "28 weeks
  along"), a word of the request ("3 days in Rome") or, for a larger number, a function
  word must follow: a smaller one followed by other words is often a part ("you have 10
  minutes of prep"). Not read either: an answer that states the request's own number with
  that unit anywhere ("25 litres", "25-litre", "5-6 weeks", or a plan whose steps end at
  it: "Week 1 ... Week 6" for "in 6 weeks"), an answer's number found in the request, a
  question, a sentence with another number before the figure (steps: "Week 2: you have 3
  sessions"), a comparison or condition ("unlike", "than", "if", "would", "could", "or",
  "after"), the future ("will" before the figure or in its clause, "next spring", "by
  then", "in 2 years": "Next spring your 4-year-old will be ready"), and a split, a
  remainder or a sum near the figure ("/day", "per week", "a day", "each", "left",
  "remaining", "to go", "that means", "so you"; a rate the request's figure carries too,
  "2 hours a day" answered "your 4 hours a day", is no split). Missing a case is preferred
  to firing on a faithful answer: on a reviewer's 136 realistic pairs the form fired on 13
  of 92 good answers and caught 18 of 44 bad ones before this narrowing, and fires on 0
  and catches 21 after it (``tests/unit/test_fx26d.py``).

>>> contradicted("I'm in zone 4 with hard winters. Can I grow a fig?",
...              "Yes: with your mild winters a fig grows happily outside.")
[('mild winters', 'hard winters')]
>>> contradicted("Start eggs in cold or hot water?", "Start them in cold water.")
[]
>>> contradicted("My Goethe B1 exam is in 6 weeks. A week-by-week writing plan?",
...              "Since you've got about ten weeks, here's a steady plan.")
[("you've got about ten weeks", '6 weeks')]
>>> contradicted("I have a 25 litre tank. Can I keep angelfish?",
...              "No: angelfish really need a 200 litre tank.")
[]
>>> contradicted("My Goethe B1 exam is in 6 weeks. A week-by-week writing plan?",
...              "Week 1: the tasks. Week 2: phrases. ... Week 6: a mock, then rest.")
[]
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import NamedTuple

from scoregate.scoring.exclusions import OWNED_THE

#: Adjectives whose opposite, on the same noun, contradicts a stated fact.
_OPPOSITES: tuple[tuple[str, str], ...] = (
    ("hard", "mild"),
    ("harsh", "mild"),
    ("severe", "mild"),
    ("cold", "warm"),
    ("cold", "mild"),
    ("hot", "cold"),
    ("hot", "cool"),
    ("small", "large"),
    ("small", "big"),
    ("tiny", "huge"),
    ("tiny", "large"),
    ("tiny", "spacious"),
    ("short", "long"),
    ("low", "high"),
    ("slow", "fast"),
    ("cheap", "expensive"),
    ("quiet", "noisy"),
    ("quiet", "loud"),
    ("dry", "humid"),
    ("dry", "wet"),
    ("dry", "rainy"),
    ("sunny", "shady"),
    ("light", "heavy"),
    ("strict", "relaxed"),
    ("shared", "private"),
    ("weak", "strong"),
    ("early", "late"),
    ("thin", "thick"),
    ("narrow", "wide"),
    ("shallow", "deep"),
    ("flat", "hilly"),
    ("rural", "urban"),
    ("indoor", "outdoor"),
    ("empty", "full"),
    ("tight", "generous"),
    ("limited", "unlimited"),
    ("beginner", "advanced"),
    ("mild", "spicy"),
)
_OPPOSITE: dict[str, set[str]] = {}
for _a, _b in _OPPOSITES:
    _OPPOSITE.setdefault(_a, set()).add(_b)
    _OPPOSITE.setdefault(_b, set()).add(_a)

_WORD = re.compile(r"[a-z][a-z'-]*")
#: "I'm pregnant", "we are vegetarian": a statement about the asker.
_ABOUT_ME = re.compile(r"\b(?:i'm|i am|im|we're|we are)\s+(?:an?\s+)?([a-z][a-z-]{3,})\b")
#: Words after "I'm" that say what the asker does, not what they are.
_NOT_A_STATE = frozenset(
    "looking trying going planning thinking hoping wondering getting having making doing"
    " about just also really still currently here sure afraid worried told using working"
    " moving writing leaving heading staying".split()
)


#: Other words for a state, and what an answer says that denies it: "I'm pregnant"
#: answered "since you're not expecting"; "I'm 68 and retired" answered "since you're
#: still working", "with decades until you retire".
_NOT_EXPECTING = r"\byou(?:'re\s+not|\s+are\s+not|\s+aren't)\s+(?:expecting|pregnant)\b"
_DENIED: dict[str, str] = {
    "pregnant": _NOT_EXPECTING,
    "expecting": _NOT_EXPECTING,
    "retired": r"\byou(?:'re|\s+are)\s+still\s+working\b|\b(?:years|decades)\s+(?:until|before"
    r"|from)\s+(?:you\s+)?retire",
}
#: "I'm 68 and retired", "we are now retired": a state of ``_DENIED`` after an age or a word.
_STATE_AFTER_AGE = re.compile(
    r"\b(?:i'm|i am|im|we're|we are)\s+(?:\d+\s+and\s+|now\s+|fully\s+)(retired|pregnant)\b"
)
#: The platform a request runs on, by family: "my laptop runs Ubuntu 22.04" answered "since
#: you're on Windows" builds on the wrong one.
_PLATFORMS: dict[str, tuple[str, ...]] = {
    "Windows": ("windows", "win10", "win11"),
    "macOS": ("mac", "macos", "macbook", "imac", "osx"),
    "Linux": ("linux", "ubuntu", "debian", "fedora", "centos", "rhel", "mint", "arch"),
    "iOS": ("iphone", "ipad", "ios"),
    "Android": ("android",),
    "ChromeOS": ("chromebook", "chromeos"),
}
_FAMILY = {w: fam for fam, names in _PLATFORMS.items() for w in names}
#: "since you're on Windows", "as you are running macOS", "because you use an iPhone".
_YOU_RUN = re.compile(
    r"\b(?:since|as|because|given\s+that|now\s+that)\s+you(?:'re|\s+are)?\s+"
    r"(?:on|using|running|use|run)\s+(?:an?\s+|the\s+)?([a-z0-9]+)\b"
)


def _platform(query_words: frozenset[str], answer: str) -> tuple[str, str] | None:
    """The answer's "since you're on X" where the request runs on one other platform and
    the answer never names it."""
    asked = {_FAMILY[w] for w in query_words if w in _FAMILY}
    if len(asked) != 1:  # none, or "moving from Windows to Linux": both are the asker's
        return None
    (family,) = asked
    said = _YOU_RUN.search(answer)
    if said is None or _FAMILY.get(said.group(1)) in (None, family):
        return None
    if any(_FAMILY.get(w) == family for w in _WORD.findall(answer)):
        return None  # it names the asker's own too: it may be comparing
    stated = next(w for w in sorted(query_words) if _FAMILY.get(w) == family)
    return said.group(0), stated


# --- the request's own figure restated as another figure ---------------------------------

_ONES = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    " sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORD_VALUE = {w: i for i, w in enumerate(_ONES, 1)} | {w: 10 * i for i, w in enumerate(_TENS, 2)}
_NUMBER = (
    r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?"
    rf"|(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_ONES[:9])}))?\b"
    rf"|(?:{'|'.join(sorted(_ONES, key=len, reverse=True))})\b)"
)
_SEP = r"(?:[ ]?-[ ]?|[ \t]+)"
#: "25 litre tank", "6 weeks", "7-year-old", "25l", "£600 budget", "$2k budget".
_FIGURE = re.compile(
    r"(?<![\w£$€.,/:+#-])(?:(?P<cur>[£$€])[ ]?)?"
    rf"(?P<n>{_NUMBER})(?P<k>(?<=\d)k\b)?"
    rf"(?:(?:{_SEP}|(?<=\d))(?P<unit>[a-z]+)\b(?:'s\b|')?"
    rf"(?:{_SEP}(?P<noun>[a-z]+)\b)?)?"
)
_ANY_NUMBER = re.compile(rf"(?<![\w.,]){_NUMBER}")
#: Words that are neither a unit nor a counted noun ("3 of", "6 and a half", "5th").
_FUNCTION = frozenset(
    "a an the and or but nor of to in on at for from by with without into onto about as than"
    " then so if is are was were be been being am do does did has have had i me my you your"
    " he him his she her it its we us our they them their this that these those there here"
    " which who whom whose what when where why how not no all any each every some more most"
    " less least few other such only just also very too now still yet can could will would"
    " shall should may might must per vs via st nd rd th times under over above below after"
    " before until since during around off out up down"
    "".split()
)
#: Spellings of one unit: "25l" and "25 litres", "3 children" and "3 kids".
_ALIAS = {
    "l": "litre", "liter": "litre", "ltr": "litre", "lt": "litre", "gal": "gallon",
    "yr": "year", "yo": "year", "wk": "week", "hr": "hour", "min": "minute", "sec": "second",
    "kilo": "kg", "kilogram": "kg", "lb": "lb", "lbs": "lb", "pound": "£", "quid": "£",
    "dollar": "$", "buck": "$", "euro": "€", "bedroom": "bed", "br": "bed",
    "person": "people", "child": "kid", "children": "kid",
}  # fmt: skip
#: A figure of the request that is a bound, a range or a choice, not a fact:
#: "over 40 guests", "between 20 and 30 guests", "should I get a 60 litre tank".
_NOT_A_FACT_BEFORE = re.compile(
    r"(?:\b(?:over|under|above|below|up\s+to|at\s+(?:least|most)|(?:more|less|fewer)\s+than"
    r"|nearly|almost|between|within|max(?:imum)?|min(?:imum)?|upwards\s+of)\s+(?:an?\s+)?"
    rf"|{_NUMBER}\s*(?:,|-|–|/|to|or|and)\s*)$"
)
_NOT_A_FACT_AFTER = re.compile(
    r"^(?:\s*(?:or\s+(?:so|more|less|fewer|under|over)|\+|max\b|maximum|minimum|tops|at\s+"
    r"(?:most|least)|-?ish\b))"
)
_A_CHOICE = re.compile(
    r"\b(?:get|buy|buying|getting|consider|considering|choose|choosing|between|upgrade"
    r"|upgrading|upgraded|instead\s+of|rather\s+than|or|vs|versus|than|if|like|thinking\s+of"
    r"|thinking\s+about|another)\s+(?:[\w'-]+\s+)?$"
)
#: "the budget is £600", "a class of 30 students", "my dog weighs 30 kg", "my phone has
#: 128 GB": the noun a figure tells of, before it.
_HEAD = re.compile(
    r"\b([a-z]+)\s+(?:is|was|are|of|weighs|weighed|has)\s+(?:(?:about|around|roughly|only|just)\s+)?$"
)
#: "the one thing", "no one": "one" a pronoun, not a number.
_NOT_ONE = re.compile(r"\b(?:the|this|that|no|any|each|every|some|which)\s+$")
#: The frames that present the answer's figure as the asker's own premise. A cause:
#: "since you've got about ten weeks", "as you're 28 weeks along", "given you have 3 days
#: in Rome"; a possessive: "your 40 litre tank", "your 9-year-old"; a likeness: "a 60
#: litre tank like yours". Nothing else: "they need a 200 litre tank" and "you have about
#: 10 weeks" are read as general or derived figures.
_CAUSE = r"\b(?:since|as|given(?:\s+that)?|now\s+that|because|seeing\s+as|with)\s+"
_BECAUSE_YOU = re.compile(
    _CAUSE + r"(?:(?P<you>you)(?:(?P<have>'ve\s+got|\s+have(?:\s+got)?)|\s+are|'re)"
    # "now that they're 4 weeks old": the asker's own animal or child
    r"|(?P<they>they(?:'re|\s+are)|(?:she|he)(?:'s|\s+is)))\s+"
    r"(?:(?:about|only|just|roughly|around|an?)\s+){0,2}$"
)
#: "since yours is the 6-quart model": the asker's thing told, opening a clause (not "the
#: next size up from yours is the 6-quart", "the lid that fits yours is the 10.25-inch one").
_YOURS_IS = re.compile(
    r"(?:^|[,;(]\s*|\b(?:since|as|because|and|but|so|now\s+that|given\s+that)\s+)"
    r"yours\s+(?:is|'s)\s+(?:the\s+|an?\s+)?$"
)
_YOUR = re.compile(r"\byour\s+$")
#: "At 24 lands you're on the heavy side": the asker's figure opening the sentence.
_AT_FIGURE = re.compile(r"^\s*(?:[-*•]\s*)?at\s+$")
#: "... you're running them far too hard", after the figure and any rate ("a day"); not a
#: plan or a risk ("you're going to", "you're aiming for", "you're risking screw").
_YOU_ARE_AFTER = re.compile(
    r"(?:\s+(?:a|an|per|each)\s+(?:day|night|week|month|session))?\s+(?P<you>you(?:'re|\s+are))\s+"
    r"(?!(?:going|planning|aiming|hoping|trying|thinking|about|risking|likely\s+to|liable|bound|asking"
    r"|inviting|more|less)\b)"
)
#: The request's own noun, then its figure after "of" or "at": "since you've got a
#: decent-sized tank at around 120 litres", "your tank of 120 litres" (the noun must be the
#: request's: "since you have a budget of £900" for "my budget is £500").
_YOUR_THING_AT = re.compile(
    rf"(?:{_CAUSE}(?P<you>you)"
    r"(?:'ve\s+got|\s+have(?:\s+got)?|'re\s+working\s+with)\s+(?:a|an)|\b(?P<your>your))\s+"
    r"(?:[\w-]+\s+){0,2}?(?P<noun>[a-z]+)\s+(?:of|at)\s+(?:(?:about|around|roughly|only|just)\s+)?$"
)
_AN = re.compile(r"\ban?\s+$")
_LIKE_YOURS = re.compile(r"\s+like\s+yours\b")
#: A sentence that compares, supposes or steps through a plan: its figure is not a
#: restatement ("unlike a 100 litre tank", "if you have 10 weeks", "after week 2").
_NOT_YOURS = re.compile(
    r"\b(?:if|unless|would|could|might|than|instead|rather|unlike|compared|comparison|versus"
    r"|vs|suppose|imagine|or|when|whenever|once|until|till|after|before|later|eventually"
    r"|by\s+the\s+time"
    r"|another|other)\b|e\.g\.|i\.e\."
)
#: A sentence about the future: "next spring your 4-year-old will be ready", "by then
#: you're 36 weeks". Its "will" is read before the figure and in the figure's own clause.
_FUTURE_ANYWHERE = re.compile(
    r"\b(?:next\s+(?:year|spring|summer|autumn|fall|winter|month|week|term|season)|by\s+then"
    rf"|in\s+(?:a|an|a\s+few|{_NUMBER})\s+(?:years?|months?))\b"
)
_WILL = re.compile(r"\b(?:will|won't|shall|going\s+to)\b|'ll\b")
#: A figure worked out from the request's rather than restating it: a split ("£85/day",
#: "per week", "each"), a remainder ("10 weeks left", "to go"; "after" is read by
#: ``_NOT_YOURS``), a sum ("that means you have £7,000", "so you have 14 hours").
_DERIVED = re.compile(
    r"/\s*[a-z]|\bper\b|\ban?\s+(?:day|night|week|month|year|head|person)\b|\beach\b"
    r"|\bleft\b|\bremaining\b|\bto\s+go\b|\bleaving\b|\bthat\s+means\b|\bso\s+you\b"
)
#: "2 hours a day": a rate right after a figure, and its period.
_RATE = re.compile(r"\s*(?:/\s*|(?:an?|per|each)\s+)(day|night|week|month|year)\b")
#: How near the figure a split or a remainder is read.
_NEAR = 30
#: Words after a figure that add nothing to it: "28 weeks along".
_NOTHING = frozenset("along already altogether now today".split())
#: Nouns of a state the asker is in ("30 weeks pregnant", "7 years old"): what "you have
#: N weeks" tells of is the time left or ahead, not the state.
_STATES = frozenset("pregnant old along".split())
_CLAUSE_END = re.compile(r"[,;:()\u2013\u2014]|\s-\s")
#: How far either side of a figure its sentence is read, and how many figures of a request.
_REACH = 200
_MOST_FACTS = 30
_BARE = re.compile(r"(?:'s|')?\s*(?:[^\w\s]|$)")
_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)(?<!vs)[.!?](?=\s|$)|\n")
_A_NUMBER_BEFORE = re.compile(rf"\d|\b(?!one\b){_NUMBER}")
#: "Week 1 ... Week 6", "weeks 5-6": the steps of a plan, read for the last one.
_STEP = re.compile(
    rf"\b(?P<unit>[a-z]+)\s+(?P<n>{_NUMBER})(?:\s*(?:-|–|to|and)\s*(?P<m>{_NUMBER}))?"
)
#: "5-6 weeks", "8 to 10 weeks", "£500-600": a range that states both its ends.
_RANGE = re.compile(
    rf"(?<![\w.,])(?:(?P<cur>[£$€])[ ]?)?(?P<n>{_NUMBER})\s*(?:-|–|to|or)\s*[£$€]?(?P<m>{_NUMBER})"
    rf"(?:{_SEP}|(?<=\d))?(?P<unit>[a-z]+)?"
)


class _Figure(NamedTuple):
    value: float
    unit: str
    noun: str | None
    start: int
    end: int


def _value(number: str) -> float:
    if number[0].isdigit():
        return float(number.replace(",", ""))
    return float(sum(_WORD_VALUE[w] for w in re.split(r"[- ]", number)))


def _unit(word: str) -> str:
    """One spelling of a unit or a counted noun: "litres", "liter" and "l" are "litre"."""
    w = _ALIAS.get(word, word)
    if w.endswith(("ches", "shes", "xes", "sses")):
        w = w[:-2]
    elif w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        w = w[:-1]
    return _ALIAS.get(w, w)


def _figures(text: str) -> list[_Figure]:
    """Every number of ``text`` with a unit or a counted noun after it (or a currency before)."""
    found = []
    for m in _FIGURE.finditer(text):
        cur = m.group("cur")
        if cur is not None:  # "£600 budget": the currency is the unit, "budget" the noun
            unit, noun, noun_end = cur, m.group("unit"), m.end("unit")
            unit_end = m.end("k") if m.group("k") else m.end("n")
        else:
            unit, noun, noun_end, unit_end = (
                m.group("unit"), m.group("noun"), m.end("noun"), m.end("unit")
            )  # fmt: skip
            if unit is None or unit in _FUNCTION or m.group("k"):
                continue  # "3 of", "6 and a half", "a 5k run"
            if len(unit) == 1 and unit != "l":
                continue  # "4x4", "the 1990s"
        if noun is not None and noun in _FUNCTION:
            noun = None
        value = _value(m.group("n")) * (1000 if m.group("k") else 1)
        end = unit_end if noun is None else noun_end
        found.append(_Figure(value, _unit(unit), noun and _unit(noun), m.start(), end))
    return found


def _facts(query: str) -> tuple[_Figure, ...]:
    """The request's figures that state a fact about the asker: not a bound, a range or a
    choice, and not a unit the request gives two numbers for."""
    figures = _figures(query)
    values: dict[str, set[float]] = {}
    for f in figures:
        values.setdefault(f.unit, set()).add(f.value)
    facts: list[_Figure] = []
    for f in figures:
        if len(values[f.unit]) > 1:
            continue
        before = query[max(0, f.start - 40) : f.start]
        if _NOT_A_FACT_BEFORE.search(before) or _NOT_A_FACT_AFTER.match(query[f.end :]):
            continue
        if _A_CHOICE.search(before):
            continue
        if query.startswith("one", f.start) and _NOT_ONE.search(before):
            continue
        head = _HEAD.search(before) if f.noun is None else None
        if head is not None and head.group(1) not in _FUNCTION:
            f = f._replace(noun=_unit(head.group(1)))
        if all(f.unit != other.unit for other in facts):
            facts.append(f)
    return tuple(facts[:_MOST_FACTS])


def _plain(low: str) -> str:
    """``low`` with curly apostrophes made straight (the same length)."""
    return low.replace("\u2019", "'")


def _sentence(text: str, ends: list[int], start: int, end: int) -> tuple[str, str, bool]:
    """The sentence around ``text[start:end]`` (``ends``: where its sentences end), at most
    ``_REACH`` characters either side: its part before, its part after, and whether it is
    a question."""
    i = bisect_right(ends, start)
    first = ends[i - 1] if i else 0
    j = bisect_right(ends, end)
    last = ends[j] if j < len(ends) else len(text)
    question = text[last - 1 : last] == "?"
    return text[max(first, start - _REACH) : start], text[end : min(last, end + _REACH)], question


def _states(answer: str, figures: list[_Figure], f: _Figure) -> bool:
    """Whether ``answer`` states the request's own number with its unit: "25 litres",
    "a 25-litre tank", "5-6 weeks", or a plan whose steps end at it ("Week 1 ... Week 6")."""
    if any(a.unit == f.unit and a.value == f.value for a in figures):
        return True
    for m in _RANGE.finditer(answer):
        unit = m.group("cur") or m.group("unit")
        if unit and _unit(unit) == f.unit and f.value in (_value(m["n"]), _value(m["m"])):
            return True
    steps = [
        _value(n)
        for m in _STEP.finditer(answer)
        if _unit(m.group("unit")) == f.unit
        for n in (m.group("n"), m.group("m"))
        if n is not None
    ]
    return bool(steps) and max(steps) == f.value


def _followed(a: _Figure, f: _Figure, after: str, query_words: frozenset[str]) -> bool:
    """Whether what follows the answer's figure lets it stand for the request's: the
    request's own noun, nothing (a comma, the end, "along"), or function words and then a
    word of the request ("your 3 days in Rome"), or for a larger number any function word
    ("with your 5 days there"), or "one" ("your 5mm ones"). A smaller one followed by other
    words is often a part of the request's ("you have 10 minutes of prep", "2 weeks to build
    vocabulary")."""
    noun = None if a.noun in _NOTHING else a.noun
    if noun is not None:  # "your 5mm ones": the pronoun stands for the request's noun
        return noun in (f.noun, "one")
    if a.value > f.value or _BARE.match(after) is not None:
        return True
    words = _WORD.findall(after[:60])
    content = next((w for w in words if w not in _FUNCTION and w not in _NOTHING), None)
    return content is not None and content in query_words


def _derived(query: str, f: _Figure, before: str, clause: str) -> bool:
    """Whether a split, a remainder or a sum is read near the answer's figure ("£85/day",
    "10 weeks left", "that means you have"); a rate the request's own figure carries too
    ("2 hours a day" answered "your 4 hours a day", "5 litres of water a day" answered "At 10
    litres a day") is not one."""
    rate, asked = _RATE.match(clause), _RATE.search(query, f.end, f.end + _NEAR)
    if rate is not None and asked is not None and rate.group(1) == asked.group(1):
        clause = clause[rate.end() :]
    return _DERIVED.search(before[-_NEAR:] + " | " + clause[:_NEAR]) is not None


def _plain_figure(
    query: str, answer: str, ends: list[int], a: _Figure, f: _Figure, *, clause_only: bool = False
) -> tuple[str, str, str] | None:
    """The answer's figure ``a`` in its sentence (the text before it, after it, and the rest
    of its clause), or ``None`` where the sentence is a question, a comparison or a
    supposition, tells of the future, or splits or works out the request's ``f``
    (``clause_only``: a comparison read in the figure's own clause only)."""
    before, after, question = _sentence(answer, ends, a.start, a.end)
    # "since yours is the 6-quart model, you could ...": told as the asker's, whatever follows
    told = _YOURS_IS.search(before) is not None
    if question or (_A_NUMBER_BEFORE.search(before) and not told):
        return None
    clause_end = _CLAUSE_END.search(after)
    clause = after if clause_end is None else after[: clause_end.start()]
    if _NOT_YOURS.search(before if told else before + " " + (clause if clause_only else after)):
        return None
    if _FUTURE_ANYWHERE.search(before + " " + after) or _WILL.search(before + " " + clause):
        return None
    if _derived(query, f, before, clause):
        return None
    return before, after, clause


#: Nouns that name the asker's thing whatever it is: "yours is the 6-quart model".
_ANY_NOUN = frozenset("model version size one".split())
#: Words after a figure that make it a part or a sum of the request's: "yours is a 3-day
#: Lisbon leg", "yours is a £620 bill all in".
_PART_OR_SUM = re.compile(r"\b(?:leg|part|bill|total|all\s+in|in\s+total|altogether|stretch)\b")


def _told_as_yours(a: _Figure, f: _Figure, clause: str) -> bool:
    """Whether "yours is <a>" tells the asker's own thing with another figure: with no noun,
    the request's own or a generic one ("the 6-quart model"), not a part or a sum, and not
    the request's figure made exact ("yours is the 10.25-inch" for "10 inch")."""
    noun_ok = a.noun is None or a.noun == f.noun or a.noun in _ANY_NOUN | _NOTHING
    near = abs(a.value - f.value) <= 0.1 * max(abs(f.value), 1e-9)
    return noun_ok and not near and _PART_OR_SUM.search(clause) is None


def _told_at(answer: str, a: _Figure, f: _Figure, before: str, after: str) -> str | None:
    """The answer's figure ``a`` (``before`` and ``after`` it: the rest of a sentence whose
    clause is no comparison or supposition, ``_plain_figure``) told as the asker's own:
    opening a sentence ("At 24 lands you're on the heavy side", the figure's first mention:
    not a setting just advised), or as "your 3.5mm needles" / "your 18mm ones" with the
    request's own noun ("..., so go up to 4.5mm or even 5mm" after it)."""
    start = a.start - len(before)
    at, you = _AT_FIGURE.search(before), _YOU_ARE_AFTER.match(after)
    if at is not None and you is not None and a.noun in (None, f.noun):
        if any(b.value == a.value and b.unit == a.unit for b in _figures(answer[: a.start])):
            return None  # "Raise it to 40mm. At 40mm you're clear of the bumps"
        return answer[start + at.start() : a.end + you.end("you")].strip()
    mine = _YOUR.search(before)
    if mine is not None and a.noun in (f.noun, "one"):
        return answer[start + mine.start() : a.end]
    return None


def _restates(
    query: str, answer: str, ends: list[int], a: _Figure, f: _Figure, query_words: frozenset[str]
) -> str | None:
    """What the answer says when its figure ``a`` presents the asker's own premise with
    the unit of the request's ``f`` (the caller has checked the numbers differ): "since
    you've got about ten weeks", "your 40 litre tank", "a 60 litre tank like yours"."""
    plain = _plain_figure(query, answer, ends, a, f, clause_only=True)
    if plain is None:
        return None
    before, after, clause = plain
    at = _told_at(answer, a, f, before, after)
    if at is not None:
        return at
    if _YOURS_IS.search(before) is None and _NOT_YOURS.search(before + " " + after):
        return None  # (the other forms: a comparison anywhere in the sentence)
    start = a.start - len(before)
    cause = _BECAUSE_YOU.search(before)
    if cause is not None and cause.group("have") and f.noun in _STATES:
        cause = None  # "I'm 30 weeks pregnant" answered "since you have about 10 weeks"
    if cause is not None and cause.group("they") and f.noun not in _STATES:
        cause = None  # "since they're 4 kids": only an age or a stage is told of them
    if cause is not None and _followed(a, f, after, query_words):
        return answer[start + cause.start("you" if cause.group("you") else "they") : a.end]
    mine = _YOUR.search(before)
    if mine is not None and _followed(a, f, after, query_words):
        return answer[start + mine.start() : a.end]
    told = _YOURS_IS.search(before)
    if told is not None and _told_as_yours(a, f, clause):  # "since yours is the 6-quart model"
        return answer[start + told.start() + told.group(0).find("yours") : a.end]
    thing = _YOUR_THING_AT.search(before)
    if thing is not None and f.noun is not None and _unit(thing.group("noun")) == _unit(f.noun):
        return answer[start + thing.start("you" if thing.group("you") else "your") : a.end]
    like = _AN.search(before)
    yours = _LIKE_YOURS.match(after)
    if like is not None and yours is not None and f.noun is not None and a.noun == f.noun:
        return answer[start + like.start() : a.end + yours.end()]
    return None


def _figure_restated(query: str, facts: tuple[_Figure, ...], answer: str) -> tuple[str, str] | None:
    """The first figure of the request the answer restates as another figure."""
    figures = _figures(answer)
    ends = [m.end() for m in _SENTENCE_END.finditer(answer)]
    asked = {_value(n) for n in _ANY_NUMBER.findall(query)}
    query_words = frozenset(_WORD.findall(query))
    for f in facts:
        wrong = [a for a in figures if a.unit == f.unit and a.value not in asked]
        if not wrong or _states(answer, figures, f):
            continue
        for a in wrong:
            said = _restates(query, answer, ends, a, f, query_words)
            if said is not None:
                return said, query[f.start : f.end]
    return None


#: A verb of advice or choice before a figure: what to do, not what the asker has.
_ADVISED = re.compile(
    r"\b(?:try|trying|use|using|switch(?:ing)?\s+to|swap(?:ping)?\s+to|go(?:ing)?\s+(?:up|down)\s+to"
    r"|move\s+to|pick|choose|buy|get|order|book|need|want|aim\s+for|upgrade\s+to|recommend"
    r"|consider|drop(?:ping)?\s+(?:down\s+)?to)"
    r"\s+(?:(?:a|an|the|some|about|around|roughly)\s+)?$"
)


#: Words of a general fact or a rule, not the asker's case: "most DK patterns call for 4mm
#: needles", "code requires a 1,250-gallon tank", "shelters often recommend two cats".
_GENERAL = re.compile(
    r"\b(?:most|many|typical|typically|usually|often|generally|minimum|maximum|at\s+least"
    r"|code|codes|studies|research|rule\s+of\s+thumb|recommend\w*|should|need|needs|required?"
    r"|requires|classic|common|commonly|average|plans?|ideal|sweet\s+spot|even|any|anything"
    r"|upward|upwards|below|above|up\s+to|from|range|consider|fit|fits)\b"
)
#: A request for a document about the asker's case, whose counts restate the request's:
#: "Now HR wants a written follow-up summarising that conversation. Can you draft it?"
_DRAFT_ASKED = re.compile(
    r"\b(?:draft|write\s+(?:up|me|a|an|the)|summari[sz]e|summarising|summarizing|put\s+together"
    r"\s+(?:a|an|the))\b"
)


def _count_moved(query: str, facts: tuple[_Figure, ...], answer: str) -> tuple[str, str] | None:
    """The request's count of a named thing told back as another count of it, with no
    frame: "1,000-gallon tank" answered "puts a 1,500-gallon tank with five people at 3.3
    years", "missing three client deadlines" answered "two client deadlines were missed".
    Read only for a figure with both a unit and a noun after it, the same two words in the
    answer, the request's own number nowhere in the answer and the sentence no comparison,
    supposition, plan, question, split or remainder."""
    figures = _figures(answer)
    ends = [m.end() for m in _SENTENCE_END.finditer(answer)]
    asked = {_value(n) for n in _ANY_NUMBER.findall(query)}
    for f in facts:
        if f.noun is None or f.noun in _NOTHING or _states(answer, figures, f):
            continue
        for a in figures:
            if a.unit != f.unit or a.noun != f.noun or a.value in asked:
                continue
            plain = _plain_figure(query, answer, ends, a, f)
            if plain is None:
                continue
            before, after, _ = plain
            if (
                _WILL.search(after)  # anywhere in its sentence, not only its clause
                or _ADVISED.search(before)  # "Try 4.5mm needles first.": advice
                or _GENERAL.search(before + " " + after)  # "most DK patterns call for 4mm"
            ):
                continue
            # told of the asker's case: beside another of the request's facts ("a
            # 1,500-gallon tank with five people"), or in a draft the request asks for
            beside = any(
                b.unit != f.unit and any(b.unit == g.unit and b.value == g.value for g in facts)
                for b in figures
                if bisect_right(ends, b.start) == bisect_right(ends, a.start)
            )
            if beside or _DRAFT_ASKED.search(query):
                return answer[a.start : a.end], query[f.start : f.end]
    return None


#: A sum worked at the answer's own figure, opening its sentence: "At 100 Mbps that's 12.5
#: MB per second" (after a bullet or a bold mark at most).
_WORKED_AT = re.compile(
    r"(?:^|(?<=[.!?:\n])\s*|(?<=\n)[-*\u2022 ]+)(?:\*\*)?"
    rf"at\s+(?P<n>{_NUMBER})\s?(?P<unit>[a-z]+)\b"
    r"(?:\*\*)?,?\s+(?:that's|that\s+is|that\s+comes|this\s+is|it's|it\s+comes|you\s+get"
    r"|you'd|you\s+would|you'll|you\s+will|the\s+)"
)
#: Advice sized for a thing of another size than the asker's: "so 1/2" for a boat around 34
#: ft", "for a 34 ft boat" (the thing the request names, or a boat, car, room, tank ...).
_SIZED_FOR = re.compile(
    rf"\bfor\s+an?\s+(?:(?P<noun>[a-z]+)\s+(?:of|around|about|roughly)\s+(?P<n>{_NUMBER})\s?"
    rf"(?P<unit>[a-z]+)\b|(?P<n2>{_NUMBER})[\s-]?(?P<unit2>[a-z]+)\s+(?P<noun2>[a-z]+))"
)
#: (as ``_unit`` spells them; "m" and "in" are never read as units: see ``_figures``)
_SIZED_UNITS = frozenset("ft foot feet metre meter inch cm litre gallon sqft".split())
#: What a size in feet, metres or litres is told of when the request names it by its make.
_SIZED_THINGS = frozenset("boat yacht room tank pool shed caravan trailer car van".split())


def _worked_from(query: str, facts: tuple[_Figure, ...], answer: str) -> tuple[str, str] | None:
    """The request's figure replaced by another that the answer works from, when the answer
    never states the request's own: "150 Mbps" answered "At 100 Mbps that's 12.5 MB per
    second", "a 24ft Sea Ray" answered "so 1/2" for a boat around 34 ft"."""
    figures = _figures(answer)
    asked = {_value(n) for n in _ANY_NUMBER.findall(query)}
    for f in facts:
        if _states(answer, figures, f):
            continue
        # (the request's own figure told with "at" too: "in 4K at 150 Mbps"; a time of day
        # is no figure worked from: "At 5 pm the roads get worse")
        at_too = query[max(0, f.start - 3) : f.start] == "at " and f.unit not in ("am", "pm")
        for m in _WORKED_AT.finditer(answer) if at_too else ():
            if _unit(m.group("unit")) == f.unit and _value(m.group("n")) not in asked:
                return m.group(0).strip(" -*\n"), query[f.start : f.end]
        for m in _AT_WHO.finditer(answer):  # "At 16.5 inches, Biscuit falls in ..."
            who = m.group("who") or m.group("yours")  # "At 43.5 inches, your window needs"
            named = who in _WHO_AT or (who not in _FUNCTION and re.search(rf"\b{who}\b", query))
            part = m.group("part")  # "At a 40-inch chest, you fall into ...": the request's part
            named = named and (part is None or re.search(rf"\b{part}\b", query) is not None)
            unit = _unit(m.group("unit"))
            if (
                named
                and unit == f.unit
                and unit not in _TIME_UNITS
                and _value(m.group("n")) not in asked
            ):
                return m.group(0).strip(" -*\n"), query[f.start : f.end]
        if f.unit not in _SIZED_UNITS:
            continue
        for m in _SIZED_FOR.finditer(answer):
            n, unit, noun = (
                (m.group("n"), m.group("unit"), m.group("noun"))
                if m.group("n")
                else (m.group("n2"), m.group("unit2"), m.group("noun2"))
            )
            if _unit(unit) != f.unit or _value(n) in asked or noun in _FUNCTION:
                continue
            if noun in _SIZED_THINGS or re.search(rf"\b{re.escape(noun)}\b", query):
                return m.group(0), query[f.start : f.end]
    return None


#: A sentence that opens at a figure and goes on about the asker's own: "At 16.5 inches,
#: Biscuit falls in the 16-20 in class", "At 9 kg, she needs ...".
_AT_WHO = re.compile(
    rf"(?:^|(?<=[.!?:\n])\s*)(?:\*\*)?at\s+(?:a\s+)?(?P<n>{_NUMBER})[\s-]?(?P<unit>[a-z]+)"
    r"(?:\s+(?:tall|long|wide|high|heavy|across)|\s+(?P<part>[a-z]+))?\s*,\s+"
    # (a state, not a milestone to come: "At 12 weeks, she can have her second jab")
    r"(?:your\s+(?P<yours>[a-z]+)|(?P<who>[a-z]+))\b(?!'ll|\s+(?:can|will|could|should|may"
    r"|might|would|has\s+to|must|is\s+(?:ready|old\s+enough))\b)",
    re.MULTILINE,
)
_WHO_AT = frozenset("she he they you".split())
#: Units of time, whose figures an "At ..." tells as milestones.
_TIME_UNITS = frozenset("day week month year hour minute min second sec".split())
#: The asker's present told back at another figure, opening a sentence or after "so":
#: "At 5 weeks they still need their heat" for poults "3 weeks old today", "so at day 20
#: you're well past halfway" for a goose "sitting for 12 days now". Only with a word of
#: the present after it ("still", "already", "past", "halfway"): "At 8 weeks they can go
#: out" tells a milestone to come.
_AT_NOW = re.compile(
    r"(?:^|(?<=[.!?:\n])\s*|\bso\s+|,\s+)at\s+"
    rf"(?:(?P<day>day|week|month)\s+(?P<dn>{_NUMBER})|(?P<n>{_NUMBER})[\s-]+(?P<unit>[a-z]+)"
    r"(?:[\s-]+old)?)\s*,?\s+"
    r"(?:(?:(?:they|she|he|it|you|we|yours)(?:'re|'s|'ve|\s+are|\s+is|\s+have|\s+has)?\s+)?"
    r"(?:(?:well|only|just|about|nearly|almost|already|right)\s+)?"
    r"(?:still|already|past|halfway|over\s+halfway|into\s+the|in\s+(?:that|the\s+middle))\b"
    # "so at day 18 you're in lockdown now"
    r"|(?:they|she|he|it|you|we)(?:'re|'s|\s+are|\s+is)\s+[^.,;:!?\n]{0,30}?\bnow\b)",
    re.MULTILINE,
)
#: The request's figure told as the present: "3 weeks old today", "for 12 days now",
#: "been sitting for 12 days" (a state told by its noun, "my kitten is 10 weeks old", "28
#: weeks along", is read by ``_STATES``).
_NOW_AFTER = re.compile(r"^(?:[\s-]+old)?\s*(?:today|now|so\s+far|already)\b|^[\s-]+old\b")
_NOW_BEFORE = re.compile(r"\bfor\s+(?:about\s+|around\s+)?$")


def _at_now(query: str, facts: tuple[_Figure, ...], answer: str) -> tuple[str, str] | None:
    """The asker's present figure ("3 weeks old today", "for 12 days now") told back as
    another at the opening of a sentence about the present ("At 5 weeks they still need
    their heat"), when the answer never states the request's own number with its unit."""
    now = [
        f
        for f in facts
        if f.noun in _STATES
        or _NOW_AFTER.match(query[f.end :])
        or _NOW_BEFORE.search(query[max(0, f.start - 20) : f.start])
    ]
    if not now:
        return None
    figures = _figures(answer)
    asked = {_value(n) for n in _ANY_NUMBER.findall(query)}
    for m in _AT_NOW.finditer(answer):
        n, unit = (m["dn"], m["day"]) if m["day"] else (m["n"], m["unit"])
        if _value(n) in asked:
            continue
        for f in now:
            if _unit(unit) == f.unit and not _states(answer, figures, f):
                return m.group(0).strip(" ,"), query[f.start : f.end]
    return None


def _pairs(words: list[str]) -> set[tuple[str, str]]:
    return set(zip(words, words[1:], strict=False))


@lru_cache(maxsize=1024)
def _stated(
    query: str,
) -> tuple[
    tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], frozenset[str], tuple[_Figure, ...]
]:
    """What of ``query`` an answer could restate the other way round: its (adjective, noun)
    pairs with an opposite, its statements about the asker, its words, and its figures."""
    low = query.lower()
    words = _WORD.findall(low)
    pairs = tuple(
        (adj, noun) for adj, noun in sorted(_pairs(words)) if adj in _OPPOSITE and len(noun) > 3
    )
    about_me = tuple(
        (m.group(1), m.group(0)) for m in _ABOUT_ME.finditer(low) if m.group(1) not in _NOT_A_STATE
    ) + tuple((m.group(1), m.group(0)) for m in _STATE_AFTER_AGE.finditer(low))
    return pairs, about_me, frozenset(words), _facts(_plain(low))


def _opposites(
    pairs: tuple[tuple[str, str], ...], q_set: frozenset[str], a_low: str
) -> list[tuple[str, str]]:
    """The request's (adjective, noun) pairs the answer gives with the opposite adjective."""
    a_pairs = _pairs(_WORD.findall(a_low))
    found = []
    for adj, noun in pairs:
        if (adj, noun) in a_pairs:
            continue
        for other in sorted(_OPPOSITE[adj] - q_set):
            if (other, noun) in a_pairs:
                found.append((f"{other} {noun}", f"{adj} {noun}"))
    return found


#: "my dates are in column C", "the amounts in column F", "your dates are in column A:": a
#: sheet's layout as told (not "column A2" or "A:A"; "or", "to"... are no column letters).
_IN_COLUMN = re.compile(
    r"\b(?P<noun>[a-z]{3,})\s+(?:(?:is|are)\s+)?(?:all\s+)?in\s+col(?:umn|\.)?\s+"
    r"(?P<col>(?!(?:or|to|in|of|is|as|at|by|an|on|it|if|so|no|be|we|me|my|do|go|up|us|he)\b)"
    r"[a-z]{1,2})\b(?!\d|:\$?[a-z])"
)
#: An answer's premise about the sheet: "assuming your dates are in column A and the
#: amounts in column B" (not "the clean numbers in column B", where it puts its output).
_PREMISE = re.compile(
    r"\b(?:assuming|supposing|suppose|given\s+that|since|as|if|let's\s+say|say)\s+(?:that\s+)?"
    r"(?:your|the)\s+[^.;!?\n]*"
)


def _columns(low: str) -> dict[str, str]:
    """The request's sheet layout: noun -> column letter, for nouns told of one column."""
    seen: dict[str, set[str]] = {}
    for m in _IN_COLUMN.finditer(low):
        if m.group("noun") not in _FUNCTION:
            seen.setdefault(m.group("noun"), set()).add(m.group("col"))
    return {noun: cols.pop() for noun, cols in seen.items() if len(cols) == 1}


def _column_moved(columns: dict[str, str], a_low: str) -> tuple[str, str] | None:
    """The answer's premise that puts the request's data in another column ("assuming your
    dates are in column A" for "my dates are in column C"), when the answer never reads
    the request's own column (no "C2:C500", "C:C" or "column C"): a formula built on a
    sheet the asker does not have."""
    for premise in _PREMISE.finditer(a_low):
        for m in _IN_COLUMN.finditer(premise.group(0)):
            told = columns.get(m.group("noun"))
            if told is None or told == m.group("col") or " were " in premise.group(0):
                continue
            own = rf"\b{told}\$?\d*:\$?{told}\$?\d*\b|\bcol(?:umn|\.)?\s+{told}\b"
            if re.search(own, a_low) is None:
                return m.group(0), f"{m.group('noun')} in column {told.upper()}"
    return None


_WEEKDAYS = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
#: The answer's premise of when the asker did something: "since you started on Tuesday".
_YOU_DID_ON = re.compile(
    _CAUSE + r"you(?:'ve|\s+have)?\s+(?:started"
    r"|began|begun|took|taken|had|did|got|left|arrived|moved|finished|flew|landed|came|ordered"
    r"|paid|signed|sent|posted|bought)\b[^.,;:!?\n]{0,30}?\b" + _WEEKDAYS + r"\b"
)
#: ... or of what the asker holds on a weekday: "try moving your Saturday morning sessions"
#: for sessions "on Thursday evenings".
_YOUR_DAY = re.compile(
    r"\byour\s+(?:(?:usual|regular|weekly)\s+"
    + _WEEKDAYS
    + r"\b|"
    + _WEEKDAYS
    + r"(?:\s+(?:morning|afternoon|evening|night))?\s+(?:sessions?|club|class(?:es)?|games?|shifts?"
    r"|meetings?|practices?|lessons?|group|services?|meetups?|rehearsals?)\b)"
)
#: A request that tells days relative to today: the answer may work out another weekday.
_RELATIVE_DAY = re.compile(r"\b(?:yesterday|today|tomorrow|tonight|last\s+night|this\s+morning)\b")


def _day_moved(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The answer's premise on another weekday than the request names ("since you started
    on Tuesday" for "I took the first one Monday morning")."""
    told = set(re.findall(rf"\b{_WEEKDAYS}s?\b", q_low))  # "on Thursdays" too
    if not told or _RELATIVE_DAY.search(q_low):
        return None
    for rx in (_YOU_DID_ON, _YOUR_DAY):
        for m in rx.finditer(a_low):
            if next(g for g in m.groups() if g) not in told:
                return m.group(0), "/".join(sorted(told))
    return None


#: A file extension as a request names the asker's files: "all the files end in .JPEG",
#: "a folder of .csv exports" (case kept, for a request that says it counts).
_EXTENSION = re.compile(r"(?<![\w/*.])\.([A-Za-z][A-Za-z0-9]{1,4})\b(?![.(])")
#: A request that says the letters' case matters.
_CASE_TOLD = re.compile(
    r"\b(?:upper|lower)[\s-]?case\b|\bcapital(?:s|\s+letters)?\b|\bcase[\s-]sensitive\b"
    r"|\bin\s+caps\b|\ball\s+caps\b",
    re.IGNORECASE,
)
#: ... and as code globs it: "for f in *.jpg", "glob('*.csv')".
_GLOB = re.compile(r"\*\.([A-Za-z][A-Za-z0-9]{1,4})\b")


def _extension_swapped(query: str, answer: str) -> tuple[str, str] | None:
    """The answer's glob of another extension when the request names its files' own one
    and the answer never writes it ("for f in *.jpg" for files that "end in .JPEG"): code
    that matches none of the asker's files."""
    told = set(_EXTENSION.findall(query))
    if not told:
        return None
    globbed = _GLOB.findall(answer)
    # the case counts only where the request says it does ("uppercase, with the E"): on
    # many systems "*.mov" finds an iPhone's ".MOV" files
    fold = (lambda x: x) if _CASE_TOLD.search(query) else str.lower
    told_folded = {fold(ext) for ext in told}
    if not globbed or any(f".{fold(ext)}" in fold(answer) for ext in told):
        return None
    other = next((ext for ext in globbed if fold(ext) not in told_folded), None)
    return None if other is None else (f"*.{other}", "." + "/.".join(sorted(told)))


#: A distance or time the request gives for one leg: "I commute 14 miles each way".
_ONE_LEG = re.compile(
    r"\b(\d+(?:\.\d+)?)\s*(miles?|mi|km|kilomet(?:re|er)s?|minutes?|mins?|hours?|hrs?)"
    r"\s+(?:each|one)\s+way\b"
)
#: Each unit's spellings.
_UNIT_FORMS = (
    (("min",), r"min(?:ute)?s?"),
    (("mi",), r"mi(?:les?)?"),
    (("km", "ki"), r"(?:km|kilomet(?:re|er)s?)"),
    (("h",), r"(?:hours?|hrs?|h)"),
)
#: Said of people at large, not of the asker: "the guideline is 30 minutes a day", "most
#: people riding 10 miles a day" ...
_GENERAL_BEFORE = re.compile(
    r"\b(?:guidelines?|recommend\w*|most\s+people|many\s+people|people\s+who|aim\s+for"
    r"|average|typical\w*|at\s+least)\b[^.!?\n]*$"
)
#: ... or set beside the asker's double: "you're doing double that", "twice over".
_DOUBLE_AFTER = re.compile(r"^[^.!?\n]{0,60}\b(?:double|twice|each\s+way|both\s+ways)\b")


def _leg_as_day(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The answer's day or round trip of the request's one leg ("14 miles a day" for "14
    miles each way"): half the distance the asker covers."""
    for m in _ONE_LEG.finditer(q_low):
        n = m.group(1)
        unit = next(rx for starts, rx in _UNIT_FORMS if m.group(2).startswith(starts))
        both = f"{float(n) * 2:g}"
        if re.search(rf"(?<![\d.]){re.escape(both)}\s*{unit}\b", a_low):
            continue  # the answer doubles it itself: "6 hours in all, 3 hours per day"
        day_rx = rf"(?<![\d.]){re.escape(n)}\s*{unit}\s+(?:(?:a|per|each)\s+day|daily"
        if re.search(day_rx + r")\b", q_low):
            continue  # the request's own day of something else: "and 30 minutes a day of yoga"
        whole = day_rx + r"|round[\s-]trip|return|there\s+and\s+back|in\s+total)\b"
        for day in re.finditer(whole, a_low):
            if not _GENERAL_BEFORE.search(a_low, 0, day.start()) and not _DOUBLE_AFTER.match(
                a_low[day.end() :]
            ):
                return day.group(0), m.group(0)
    return None


_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
#: A date as people write it: "October 18", "Oct 18th", "18 October", "the 18th of October".
_DATES = (
    re.compile(rf"\b{_MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b"),
    re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b"),
)


def _month_day(m: re.Match[str], rx: re.Pattern[str]) -> tuple[str, int]:
    """(month's first three letters, day) of a date ``m`` matched by ``rx`` of ``_DATES``."""
    month, day = (m.group(1), m.group(2)) if rx is _DATES[0] else (m.group(2), m.group(1))
    return month[:3], int(day)


def _dates(low: str) -> set[tuple[str, int]]:
    """(month's first three letters, day) of each date in ``low``."""
    return {_month_day(m, rx) for rx in _DATES for m in rx.finditer(low)}


def _date_moved(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's date told back with another month ("your November 18 wedding" for
    "we're getting married October 18"), when the answer never writes the request's."""
    told = _dates(q_low)
    if not told:
        return None
    a_low = a_low.replace("*", "")
    if told & _dates(a_low):
        return None
    days = {day: month for month, day in told}
    events = _EVENTS | set(_WORD.findall(q_low))
    for rx in _DATES:
        for m in re.finditer(r"\byour\s+(?:the\s+)?" + rx.pattern + _NEXT_WORDS, a_low):
            month, day = _month_day(m, rx)
            event = _WORD.findall(m.group(3))
            # the request's own event after it ("your November 18 wedding"), not a milestone
            # the answer sets ("your April 20 checkpoint", "your August 18 cutoff")
            if not events.intersection(event) or _MILESTONES.intersection(event):
                continue
            if day in days and days[day] != month:
                return f"your {month} {day}", f"{days[day]} {day}"
    return None


#: What a date of the asker's is for, named after it: "your November 18 wedding".
_EVENTS = frozenset(
    "wedding party birthday anniversary flight trip exam interview move surgery appointment"
    " race marathon event ceremony reception holiday vacation launch concert show match"
    " game".split()
)
#: The word or two after a date.
_NEXT_WORDS = r"((?:\s+[a-z'-]+){1,2})"
#: Dates an answer sets itself.
_MILESTONES = frozenset("deadline cutoff cut-off checkpoint target milestone filing".split())


#: A sum the request says already holds the tax: "came to £1,440 and that figure INCLUDES
#: 20% VAT", "$530 including sales tax", "£96 inc VAT".
_TAX_IN = re.compile(
    r"([£$€])\s?(\d[\d,]*(?:\.\d+)?)\b[^.!?\n]{0,60}?\b(?:includes?|including|inclusive\s+of"
    r"|incl|inc)\.?\s+(?:the\s+)?(?:\d+(?:\.\d+)?\s*%\s+)?(?:vat|gst|hst|sales\s+tax|tax)\b"
)


_RATE_IN = re.compile(r"(\d+(?:\.\d+)?)\s*%")


def _gross_as_net(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The request's tax-inclusive sum taken as the sum before tax: "so your net amount is
    £1,440", "£1,440 + VAT", "£1,440 × 0.20" or "× 1.2" for "£1,440 ... INCLUDES 20% VAT"."""
    a_low = a_low.replace("*", "").replace(",", "")
    for m in _TAX_IN.finditer(q_low):
        amount = re.escape(m.group(1)) + r"\s?" + re.escape(m.group(2).replace(",", ""))
        rate = _RATE_IN.search(m.group(0))
        # the rate taken of the whole sum, or added on it: "£1,440 × 0.20", "£1,440 × 1.2"
        # (not "£1,440 × 5/6", "× 0.8333": the right working)
        times = ""
        if rate is not None:
            r = rate.group(1).rstrip("0").rstrip(".") if "." in rate.group(1) else rate.group(1)
            frac = f"{float(r) / 100:.2f}".removeprefix("0").rstrip("0")
            times = rf"|{amount}(?![\d.])\s*[×x*]\s*(?:0?{re.escape(frac)}0?|{re.escape(r)}\s*%" + (
                rf"|1{re.escape(frac)}0?)(?![\d/])"
            )
        wrong = re.search(
            r"\b(?:net|before\s+(?:vat|gst|tax)|excl(?:uding|\.)?\s+(?:vat|gst|tax)|ex[\s.-]?vat"
            r"|pre-?tax)(?:\s+(?:amount|figure|price|total|cost|sum))?"
            rf"\s*(?:is|of|=|:|was|would\s+be|comes\s+to)?\s*{amount}(?![\d.])(?!\s*[÷/×x*−+=-])"
            rf"|{amount}(?![\d.])\s*(?:\+|plus\b)\s*(?:vat|gst|tax|sales\s+tax|[£$€]?\s?\d[\d.]*\s*"
            r"(?:vat|gst|tax)\b)" + times,
            a_low,
        )
        if wrong is not None:
            return wrong.group(0), m.group(0)
    return None


#: Water told as still: "a flat-water canal section", "flatwater paddling", "still water".
_STILL_WATER = re.compile(r"\b(?:flat|still)[\s-]?water\b")
#: ... and the answer's moving water, in a sentence that neither contrasts nor supposes
#: ("unlike moving water", "if you later try moving water").
_MOVING_WATER = re.compile(r"(?<![\w-])moving[\s-]water\b")
_MOVING_APART = re.compile(
    r"\b(?:unlike|if|when|whenever|later|than|instead|rather|compared|versus|vs|won't|never|no"
    r"|not|don't|ever|future|eventually|someday|next|after|near|where)\b"
)


def _water_moved(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The request's still water ("a flat-water canal") told as moving water ("teach the
    beginners to read the moving water"), when the answer never names still water itself
    and its sentence neither contrasts nor supposes."""
    still = _STILL_WATER.search(q_low)
    if still is None or _MOVING_WATER.search(q_low) or _STILL_WATER.search(a_low):
        return None
    ends = [m.end() for m in _SENTENCE_END.finditer(a_low)]
    for m in _MOVING_WATER.finditer(a_low):
        before, after, question = _sentence(a_low, ends, m.start(), m.end())
        # (what opens its clause: "unlike moving water", "if you later try moving water")
        if not question and not _MOVING_APART.search(before + " " + after[:12]):
            return m.group(0), still.group(0)
    return None


#: Experience the asker states: "growing microgreens commercially for about 2 years", "10
#: years commercial tomato grower", "my French is solid intermediate (B1)", "I can
#: comfortably run 5 miles", "rated 2100", "backpacked through 40+ countries" (not "my 6
#: year old", "in 10 years", "for the next 5 years").
_EXPERIENCED = re.compile(
    r"(?<!\bin\s)(?<!\bnext\s)(?<!\bwithin\s)(?<!\bthe\s)"
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|a\s+few|several|many)"
    r"\+?\s+(?:years?|yrs?)\b(?![\s-]+(?:old|ago|from\s+now|time|later|away|left|younger|older))"
    r"|\b(?:commercially|professionally|commercial|professional|senior)\b"
    r"|\b(?:intermediate|advanced|experienced|seasoned|fluent)\b|\b[bc][12]\s*\)|\([bc][12]\)"
    r"|\bcan\s+(?:already\s+)?comfortably\s+\w+|\brated\s+\d{3,4}\b|\b\d+\+?\s+countries\b"
    # a stage passed or reached: "I passed my Signature Level 1 BSL", "started Level 2"
    r"|\bpassed\s+(?:(?:my|his|her|their|the|our)\s+)?(?:[\w-]+\s+){0,3}?(?:level|grade|stage|exam"
    r"|module)\b"
    r"|\bgot\s+(?:my|his|her|a)\s+(?:level|grade|stage)\s+[2-9]\b"
    r"|\b(?:started|starting|now\s+on|moved\s+up\s+to|reached|got\s+to)\s+(?:level|grade|stage)\s+"
    r"(?:[2-9]|two|three|four|five)\b"
    # a rank earned: "I just got my blue belt", "reached a 1500 rating"
    r"|\b(?:got|earned|reached)\s+(?:my|a|an|the)\s+(?!white\b)[a-z]+\s+belt\b"
    r"|\b\d{3,4}\s+(?:rating|elo)\b"
    # done before: "All of us have done grade 3 gorges before", "we've all led climbs before"
    r"|\b(?:all\s+of\s+us\s+have|we've\s+all|we\s+have\s+all|i've|i\s+have)\s+(?:already\s+)?"
    r"(?:done|climbed|run|raced|paddled|led|completed|walked|ridden|sailed|skied|dived)\b"
    r"[^.!?]{1,40}?\bbefore\b"
    # by a count of what was done: "Both of us have run several half marathons"
    r"|\b(?:both\s+of\s+us|all\s+of\s+us|we've\s+both|we've\s+all|i've)\s+(?:have\s+)?"
    r"(?:already\s+)?(?:run|done|raced|completed|climbed|ridden|sailed|skied|led|paddled)\s+"
    r"(?:several|many|a\s+few|lots\s+of|loads\s+of|dozens\s+of|\d+|two|three|four|five|six)\s+\w",
)
#: ... and told it is new to it: "I'm a total beginner", "never done it", "just started".
_NEW_TOLD = re.compile(
    r"\b(?:beginners?|novices?|newbies?|new\s+to|never\s+(?:done|tried|played|used|made)"
    r"|just\s+(?:started|starting|getting\s+started)|from\s+scratch|first[- ]timers?)\b"
)
#: An answer that takes the asker as new to it: "Since you're just getting started", "As
#: you're starting from scratch", "As a total beginner, ...", "as someone new to bees",
#: "Since this is your first dog", "Since you've just started climbing".
_TAKEN_AS_NEW = re.compile(
    r"\b(?:since|as|because|given\s+(?:that\s+)?)\s+(?:(?:you(?:'re|\s+are)|(?:he|she)(?:'s|\s+is)"
    r"|they(?:'re|\s+are))\s+(?:still\s+)?"
    r"(?:(?:just|only|completely|totally|brand)\s+){0,2}(?:starting\s+(?:from\s+scratch|out)"
    r"|getting\s+started|new\s+(?:to|at)\b(?!\s+(?:this|the|your)\s+(?:gym|area|city|town|club"
    r"|team|job|company|school|country|neighbou?rhood|place|house|office|role|group|class)\b)"
    r"|learning\s+(?:the\s+basics|how\s+the)"
    r"|an?\s+(?:complete\s+|total\s+|absolute\s+)?(?:beginner|novice|newbie)|a\s+first[- ]timer?)"
    r"|you(?:'ve|\s+have)\s+(?:only\s+)?just\s+(?:started|begun|taken\s+up)"
    # (not "this is your first trip without a guide": a first of another kind)
    r"|this\s+is\s+your\s+(?:very\s+)?first\b(?!\s+(?:[\w-]+\s+){0,2}(?:without|unguided|solo"
    r"|alone|on\s+your\s+own|leading|as)\b)"
    # "Since none of you has been in a gorge before", "as you've never done this"
    r"|(?:(?:none|neither)\s+of\s+you\s+(?:has|have)|you(?:'ve|\s+have)\s+never|you\s+haven't)\s+"
    r"(?:ever\s+)?(?:been|done|tried|run|raced|climbed|baked|made|played|ridden)\b)"
    r"|(?:^|[.!?:]\s+|^\s*[-*•]\s+)as\s+(?:an?\s+(?:complete\s+|total\s+|absolute\s+)?(?:beginner|novice|newbie)"
    # "- As complete beginners, spend the first morning ..."
    r"|(?:complete|total|absolute)\s+(?:beginners|novices|newbies)"
    r"|an?\s+(?:complete\s+|total\s+|absolute\s+)?newcomer\b"
    r"|someone\s+new\s+to|a\s+first[- ]time\s+\w+"
    r"|someone\s+(?:just\s+)?(?:learning|starting)\s+(?:out|how))\b"
    # "For someone who has barely picked up a guitar before", "For a dog who's never ..."
    r"|(?:^|[.!?:]\s+)for\s+(?:someone|an?\s+\w+)\s+(?:who|that)(?:'s|\s+has|\s+is)\s+"
    r"(?:barely|never|only\s+just)\b"
    # "As he's still finding his way around the instrument", "Since balancing and pedalling
    # are still new to you", "Since you've only recently learned how the pieces move"
    r"|\b(?:since|as|because)\s+(?:you're|you\s+are|he's|she's|they're)\s+still\s+finding\s+"
    r"(?:your|his|her|their)\s+(?:feet|way)\b"
    r"|\b(?:since|as|because)\s+[^.,;!?\n]{1,40}?\s+(?:is|are)\s+still\s+new\s+to\s+(?:you|him|her)\b"
    r"|\b(?:since|as|because)\s+you(?:'ve|\s+have)\s+only\s+(?:just|recently)\s+(?:learned|learnt"
    r"|started|begun|got\s+behind|taken\s+up)\b",
    re.MULTILINE,
)


#: The step of a course or a plan the asker is on, named before its number: "I'm in week 6
#: of a 16-week plan", "we're on day 12", "currently at level 3".
_STEP_UNITS = r"(week|day|month|level|stage|grade|lesson|chapter|module|unit|book)"
_ON_STEP = re.compile(
    r"\b(?:i'm|i\s+am|we're|we\s+are|currently|now)\s+(?:now\s+|currently\s+)?(?:in|on|at)\s+"
    + _STEP_UNITS
    + r"\s+(\d+)\b"
)
#: ... told back as another step of the asker's own: "Since you're in week 9".
_YOU_ON_STEP = re.compile(
    r"\b(?:since|as|now\s+that|because|given\s+that)\s+you(?:'re|\s+are)\s+"
    r"(?:now\s+|already\s+|only\s+|just\s+)?(?:in|on|at)\s+" + _STEP_UNITS + r"\s+(\d+)\b"
)


def _step_moved(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's step ("I'm in week 6") told back as another ("Since you're in week 9")."""
    steps = {m.group(1): (m.group(2), m.group(0)) for m in _ON_STEP.finditer(q_low)}
    for m in _YOU_ON_STEP.finditer(a_low):
        told = steps.get(m.group(1))
        if told is not None and told[0] != m.group(2):
            return m.group(0), told[1]
    return None


#: The asker's party, counted: "it's just me and my wife", "just the two of us", "there are
#: four of us", "four of us are going", "a party of 5" (two for the asker and one other
#: named; not "... including me", whose players are one fewer).
_PARTNER = (
    r"(?:wife|husband|partner|son|daughter|friend|mate|boyfriend|girlfriend|dad|mum|mom"
    r"|fianc[eé]e?"
    r"|brother|sister|kid|child|grandson|granddaughter|flatmate|roommate)"
)
_PARTY = re.compile(
    # "just me and my partner", "It'll just be me and my partner", "Me and my sister,
    # nobody else"
    rf"(?:\bjust\s+(?:be\s+)?(?:me|us)|\bbe\s+just\s+me|^\s*me|[,;.!?]\s*me)\s+and\s+(?:my|our)\s+"
    rf"{_PARTNER}\b(?!\s+and\b|\s*,\s*+(?!and\b|(?:nobody|no\s+one|no-one)\s+else\b))"
    rf"|\b(?:just\s+)?the\s+(?P<n>{_NUMBER})\s+of\s+us\b"
    rf"|\bthere(?:'s|\s+is|\s+are|\s+will\s+be|'ll\s+be)\s+(?:just\s+|only\s+)?(?P<m>{_NUMBER})"
    r"\s+of\s+us\b"
    rf"|(?:^|[,;.!?]\s*)(?P<k>{_NUMBER})\s+of\s+us\s+(?:are|were|will|'re|'ll|play|go|meet|live"
    r"|share|have)\b"
    # "my fiancée and I are moving": two
    rf"|(?:^|[,;.!?]\s*)(?:my|our)\s+{_PARTNER}\s+and\s+i\b"
    r"(?!\s+and\b|\s*,\s*+(?!(?:nobody|no\s+one|no-one)\s+else\b))"
    rf"|\bfor\s+(?P<f>{_NUMBER})\s+of\s+us\b"
    rf"|\b(?:a\s+)?(?:party|group|family|household)\s+of\s+(?P<p>{_NUMBER})\b"
    # "our side is down to 5 dancers this season", "our quiz team is down to 3"
    rf"|\bdown\s+to\s+(?:just\s+|only\s+)?(?P<d>{_NUMBER})\s+(?:dancers|players|members"
    r"|singers|ringers|paddlers|rowers|riders|runners|musicians|volunteers|people)\b"
    r"|\b(?:team|side|squad|crew|band|choir|group|club)\s+(?:is|'s|has\s+gone|went|is\s+now)\s+"
    rf"down\s+to\s+(?:just\s+|only\s+)?(?P<e>{_NUMBER})\b",
    re.MULTILINE,
)
_INCLUDING_ME = re.compile(r"\s*,?\s*(?:including|incl\.?|counting)\s+(?:me|myself)\b")
#: ... answered for another party, opening a sentence or a clause: "With four players, each
#: draws 5 tiles", "For 6 people, ...", "For a family of four", "Split between four".
_PARTY_NOUNS = (
    r"(?:players|people|guests|of\s+you|housemates|members|adults|paddlers|climbers"
    r"|participants)"
)
_PARTY_TOLD = re.compile(
    r"(?:^|(?<=[.!?:\n])\s*|,\s+|-\s+)"
    rf"(?:with\s+(?P<n>{_NUMBER})\s+{_PARTY_NOUNS}\b"
    rf"|split\s+(?:between|among|by)\s+(?P<s>{_NUMBER})\b)"
    # a set-up for a party, anywhere: "a simple plan for two people", "ideal for a family of
    # four" (not "more than for 4 people", "like for six players")
    rf"|(?<!than\s)(?<!like\s)\bfor\s+(?:(?P<r>{_NUMBER})\s+{_PARTY_NOUNS}"
    rf"|(?:a|your)\s+(?:family|group|party|household)\s+of\s+(?P<f>{_NUMBER}))\b"
    # the asker's own group told at another size: "with your full set of six"
    rf"|\byour\s+(?:full\s+|whole\s+|usual\s+)?(?:set|side|team|squad|crew|band|choir"
    rf"|group)\s+of\s+(?P<y>{_NUMBER})\b",
    re.MULTILINE,
)
_PARTY_IF = re.compile(r"\b(?:would|could|might|instead|though)\b|'d\b")
#: Where the answer names a party of a size anywhere ("two of you", "2 players", "both of
#: you", "a two-player game").
_PARTY_NAMED = r"\b{n}(?:\s+of\s+(?:you|us)|\s+(?:players|people|guests)|-player)\b|\bfor\s+{n}\b"


#: What the asker has or runs a thing for, counted: "I only have 8 cords", "a session for 8
#: kids", "we've got 3 hives" (units, times and parts of an answer are no such things).
_OWN_COUNT = re.compile(
    r"\b(?:have|has|got|bought|own|with|for|only|just|there\s+are|we're|we\s+are|of)\s+"
    rf"(?:only\s+|just\s+|exactly\s+)?(?P<n>{_NUMBER})\s+(?:[a-z]+\s+)?(?P<noun>[a-z]+s)\b"
    r"(?!\s*(?:-|–|to|or)\s*\d)"
)
_NOT_OWN_COUNT = frozenset(
    """
    years months weeks days hours minutes mins seconds secs nights mornings evenings times
    metres meters inches feet miles kms grams kilos pounds ounces litres liters gallons cups
    dollars euros pence cents quid bucks percent degrees calories reps sets laps rounds steps
    words sentences paragraphs bullets items points lines pages chapters questions answers
    examples options ideas tips sections parts slides emails messages lessons sessions classes
    goes tries attempts shots levels stages episodes seasons
    """.split()
)
#: ... told back as more of them than the asker has: "Thread all 12 cords", "12 kids".
_MORE_TOLD = r"(?<![\w.,-])(?P<m>{n})\s+(?:[a-z]+\s+)?{noun}\b"
_COUNT_IF = re.compile(r"\b(?:if|would|could|might|instead|up\s+to|than)\b|'d\b")
#: A count of each part, right after the figure: "12 cords per side".
_PER = re.compile(r"\s*(?:per|each|a\s+piece)\b")
#: The asker's count at the end of a range is no count of theirs: "one box for every four
#: to five hens".
_RANGE_BEFORE = re.compile(r"(?:-|–|\bto|\bor)\s*$")


def _count_grown(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's own count of a thing ("I only have 8 cords", "a session for 8 kids")
    told back as more than they have ("Thread all 12 cords", "split the 12 kids into three
    groups"), when the answer never names the asker's own count: a plan for things or
    people the asker does not have. Fewer is no contradiction ("pair up 2 kids")."""
    ends = [m.end() for m in _SENTENCE_END.finditer(a_low)]
    for told in _OWN_COUNT.finditer(q_low):
        noun = told.group("noun")
        if noun in _NOT_OWN_COUNT:
            continue
        size = _value(told.group("n"))
        if size != int(size) or not 2 <= size <= 99:
            continue
        more = re.compile(_MORE_TOLD.format(n=_NUMBER, noun=re.escape(noun)))
        said = [
            (m, _value(m.group("m")))
            for m in more.finditer(a_low)
            if not _RANGE_BEFORE.search(a_low, 0, m.start())
        ]
        if any(v == size for _, v in said):
            continue
        asked = {_value(m.group("m")) for m in more.finditer(q_low)}  # "8 or 10 kids"
        for m, v in said:
            if v <= size or v in asked:
                continue
            before, after, _ = _sentence(a_low, ends, m.start(), m.end())
            if not _COUNT_IF.search(before + " " + after) and not _PER.match(after):
                return m.group(0), told.group(0)
    return None


#: A height in feet and inches: "5'2\"", "5 ft 4", "6’1”", "5 foot 10".
_HEIGHT = (
    r"(?P<ft>[4-7])\s*(?:'|’|ft\b|foot\b|feet\b)\s*(?P<in>1[01]|[0-9])(?!\d)"
    r"\s*(?:\"|”|''|in\b|inches\b)?"
)
_HEIGHT_RE = re.compile(r"(?<![\w.,/-])" + _HEIGHT)
#: ... told as the asker's: opening a sentence ("At 5'8\", a 38-inch hoop ..."), "you're
#: 5'8\"", "at your height of 5'8\"", "for your 5'8\" frame" (not a range of a sizing table).
_HEIGHT_TOLD = re.compile(
    r"(?:(?:^|[.!?:\n]\s*|\*\*)at\s+|\byou(?:'re|\s+are)\s+|\bat\s+your\s+height\s+(?:of\s+)?"
    r"|\bfor\s+(?:someone|a\s+(?:paddler|rider|person|runner|climber))\s+(?:who(?:'s|\s+is)\s+|of\s+|at\s+)?"
    r"|\byour\s+(?:height\s+of\s+)?|\bfor\s+your\s+)" + _HEIGHT + r"(?!\s*(?:-|–|to|and|or)\s*\d)",
    re.MULTILINE,
)


def _inches(m: re.Match[str]) -> int:
    return int(m.group("ft")) * 12 + int(m.group("in"))


def _height_moved(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's height ("I'm 5'2\"") told back as another ("At 5'8\", a 38-inch hoop is
    a good starting point"), when the answer never states the asker's own."""
    told = list(_HEIGHT_RE.finditer(q_low))
    if len({_inches(m) for m in told}) != 1:
        return None
    own = _inches(told[0])
    if any(_inches(m) == own for m in _HEIGHT_RE.finditer(a_low)):
        return None
    for m in _HEIGHT_TOLD.finditer(a_low):
        if _inches(m) != own:
            return m.group(0).strip(" *"), told[0].group(0).strip()
    return None


#: The time left before the asker's event: "her first competition in three weeks' time",
#: "the exam is in 10 days", "the race is 6 weeks away", "with 4 weeks to go".
_TIME_LEFT = re.compile(
    rf"\bin\s+(?:just\s+|only\s+|about\s+)?(?P<n>{_NUMBER})\s+(?P<unit>week|day|month)s?(?:'s?)?"
    r"\s+time\b"
    rf"|\b(?:is|'s|are|'re|comes?|coming\s+up|starts?)\s+in\s+(?:just\s+|only\s+|about\s+)?"
    rf"(?P<n2>{_NUMBER})\s+(?P<unit2>week|day|month)s?\b(?!\s+(?:after|before|from|later)\b)"
    rf"|\b(?P<n3>{_NUMBER})\s+(?P<unit3>week|day|month)s?\s+(?:away|to\s+go|left)\b"
)
#: A plan's steps, one to a line: "**Week 1:**", "- Weeks 7 to 8:", "Day 12-14".
_PLAN_STEP = re.compile(
    r"^[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?P<unit>week|day|month)s?[ \t]+(?P<a>\d{1,2})"
    r"(?:[ \t]*(?:-|–|to|and|&)[ \t]*(?P<b>\d{1,2}))?\b(?P<rest>[^\n]*)",
    re.MULTILINE,
)


def _plan_overruns(q_low: str, a_low: str) -> tuple[str, str] | None:
    """A plan for the time left before the asker's event ("her competition in three weeks'
    time") whose steps run past it ("**Weeks 7 to 8:** ..."): a plan for another date."""
    left = _TIME_LEFT.search(q_low)
    if left is None:
        return None
    number = left.group("n") or left.group("n2") or left.group("n3")
    unit = left.group("unit") or left.group("unit2") or left.group("unit3")
    size = _value(number)
    for m in _PLAN_STEP.finditer(a_low):
        last = int(m.group("b") or m.group("a"))
        if m.group("unit") == unit and last > size and not _AFTER_EVENT.search(m.group("rest")):
            step = a_low[m.start() : m.end("b") if m.group("b") else m.end("a")]
            return step.strip(" -*•\t"), left.group(0)
    return None


_AFTER_EVENT = re.compile(r"\b(?:after|afterwards|post|recovery|rest\s+week|if|optional)\b")


def _party_moved(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's party ("just me and my wife tonight") answered for another ("With four
    players, each draws 5 tiles"), when the answer never names the asker's own."""
    told = next(
        (m for m in _PARTY.finditer(q_low) if not _INCLUDING_ME.match(q_low, m.end())), None
    )
    if told is None:
        return None
    number = next((n for n in told.groups() if n), None)
    size = _value(number) if number else 2.0
    told_as = [
        (m, _value(m.group("n") or m.group("r") or m.group("f") or m.group("s") or m.group("y")))
        for m in _PARTY_TOLD.finditer(a_low)
    ]
    if any(n == size for _, n in told_as):
        return None
    ends = [m.end() for m in _SENTENCE_END.finditer(a_low)]
    for m, _ in told_as:  # the asker's own party counted again: "with four of you"
        if m.group(0).rstrip(" ,").endswith("of you"):
            _, after, _ = _sentence(a_low, ends, m.start(), m.end())
            if not _PARTY_IF.search(after):
                return m.group(0).strip(" ,"), told.group(0)
    names = [w for w, v in _WORD_VALUE.items() if v == size] + [str(int(size))]
    if size == 2.0:
        names.append("both")
    if re.search(_PARTY_NAMED.format(n=f"(?:{'|'.join(names)})"), a_low):
        return None
    for m, _ in told_as:
        _, after, _ = _sentence(a_low, ends, m.start(), m.end())
        if not _PARTY_IF.search(after):  # "With four players, it would be 5 each": a variant
            return m.group(0).strip(" ,"), told.group(0)
    return None


#: The asker going alone: "I'm going solo for a week", "I'll be paddling it on my own",
#: "chasing by myself this time" (not "I live alone", "left alone": no outing).
_ALONE = re.compile(
    r"(?:\bi'm|\bi\s+am|\bi'll|\bi\s+will|\bi\s+have\s+to|\bi'd|\bgoing|\bgo|\bdoing"
    r"|^\s*[a-z]+ing)\b[^.!?\n]{0,60}?"
    # (not a musical solo, "a solo", "the guitar solo")
    r"(?<!\ba\s)(?<!\bthe\s)(?<!\bmy\s)(?<!guitar\s)(?<!drum\s)(?<!piano\s)"
    r"\b(?:solo|alone|on\s+my\s+own|by\s+myself)\b",
    re.MULTILINE,
)
#: ... answered with a companion in the activity: "Let your passenger run radar", "your
#: belayer", "your dive buddy" (not "your partner": one at home, told of the plan).
_COMPANION = re.compile(
    r"\byour\s+(?:(?:chase|dive|diving|climbing|paddling|paddle|riding|hiking|running|ride"
    r"|walking|ski|training)\s+)?(?P<who>passenger|co-?driver|co-?pilot|navigator|spotter"
    r"|belayer|buddy|crew(?:mate)?|teammate|wingman|(?:chase|dive|ski|ride|[a-z]+ing)\s+partner)"
    r"s?\b"
)
_NOT_ALONE = re.compile(r"\b(?:not|never|rather|afraid|scared|worried)\b|n't\b")
#: ... not in a condition or a want: "If you can find a spotter, let your spotter ...".
_COMPANION_IF = re.compile(
    r"\b(?:if|unless|when|once|find|recruit|ask|bring|next\s+time|could|would)\b"
)


def _alone_joined(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker going alone ("going solo for a week on the Plains") answered with a
    companion on the outing ("Let your passenger run radar"), one the request never
    names."""
    alone = _ALONE.search(q_low)
    if alone is None or _NOT_ALONE.search(q_low, max(0, alone.start() - 25), alone.end()):
        return None  # "I'm not going solo this time", "I don't want to go alone"
    ends = [m.end() for m in _SENTENCE_END.finditer(a_low)]
    for m in _COMPANION.finditer(a_low):
        if m.group("who") in q_low:
            continue  # "your usual chase partner": the one the request told of
        before, _, _ = _sentence(a_low, ends, m.start(), m.end())
        if not _COMPANION_IF.search(before):
            return m.group(0), alone.group(0)
    return None


_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
#: An event days away: "next Saturday's gig", "the race is tomorrow", "this weekend", "in 3
#: days" ...
_DAYS_AWAY = re.compile(
    rf"\b(?:next|this|coming)\s+(?:{_WEEKDAY}|weekend)\b|\btomorrow\b|\btonight\b"
    rf"|\bon\s+{_WEEKDAY}\b(?!s)"
    r"|\bthis\s+week\b|\bin\s+(?:a\s+couple\s+of|a\s+few|two|three|four|five|six|\d)\s+days\b"
)
#: A span of three weeks or more ("six weeks", "two months", "several weeks") and the same
#: with "a" ("a month", "a good couple of months", "a few weeks"), for ``_WEEKS_LEFT``.
_LONG = (
    r"several\s+(?:weeks|months)|(?:three|four|five|six|seven|eight|[3-9]|1\d)\s+weeks"
    r"|(?:two|three|four|five|six|\d+)\s+months"
)
_A_LONG = r"a\s+(?:good\s+)?(?:month|couple\s+of\s+months|few\s+(?:weeks|months))"
#: An event days away told as weeks or months away: "With a month or so to go before the
#: gig", "you've got six weeks to prepare" (three weeks at least: "next Saturday" may be
#: nearly two away).
_WEEKS_LEFT = re.compile(
    r"\b(?:with|you've\s+got|you\s+have|you\s+still\s+have|there's|that\s+gives\s+you"
    r"|since\s+you\s+have|as\s+you\s+have)\s+(?:about\s+|around\s+|roughly\s+|nearly\s+"
    r"|almost\s+|over\s+|more\s+than\s+|at\s+least\s+|plenty\s+of\s+|still\s+)?"
    rf"(?:{_A_LONG}|{_LONG})"
    r"\s+(?:or\s+so\s+)?(?:still\s+)?(?:to\s+go|before|until|left|to\s+prepare|of\s+prep"
    r"|to\s+get\s+ready|to\s+practi[sc]e|in\s+hand)\b"
    # "Over the next couple of months, practise the stack"
    rf"|\bover\s+the\s+next\s+(?:couple\s+of\s+months|few\s+(?:weeks|months)|{_LONG})\b"
    # "Since the trip is still a few weeks off"
    rf"|\b(?:is|are|it's)\s+(?:still\s+)?(?:{_A_LONG}|{_LONG})\s+(?:off|away)\b"
)
_SPAN = re.compile(r"\b(?:weeks|months)\b")
_WEEKS_IF = re.compile(r"\b(?:if|ideally|would|normally|usually|typically|most|next\s+time)\b|'d\b")


#: The time an event starts: "40 min race starting 9am", "kick-off at 7:30pm".
_STARTS_AT = re.compile(
    r"\b(?:starts?|starting|start\s+time|kicks?\s+off|kick-?off|begins?|beginning|tee\s+time)"
    # (of what: "Kick-off for my son's under-10s match is 2:30pm")
    r"(?:\s+(?:for|of)\s+[^.?!\n]{0,40}?)?"
    r"\s+(?:is\s+)?(?:at\s+)?(?P<h>\d{1,2})(?::\d\d|\.\d\d)?\s*(?P<m>am|pm)\b"
)
#: ... told as at another part of the day: "your early afternoon start".
_PART_OF_DAY = re.compile(
    # "your early afternoon start", "yours is a mid-afternoon start", "an evening race like
    # yours", "Because it's a morning match"
    r"(?:\byour|\byours\s+is\s+an?|\b(?:it's|it\s+is)\s+an?|\ban?(?=\s+\S+\s+\S+\s+like\s+yours)"
    r"|(?:^|(?<=[.!?:\n]))\s*(?:[-*•]\s*)?(?:\*\*)?for\s+an?)"
    r"\s+(?:early[\s-]+|late[\s-]+|mid-?)?(?P<part>morning|afternoon|evening|lunchtime"
    r"|night)\s+(?:start|race|game|match|kick-?off|session|event|class|gig|run|ride|flight"
    r"|exam|departure|tee\s+time|heat|fixture|round|gala|meet|show|concert|recital"
    r"|performance|interview|appointment|shift|service|ceremony)\b"
)


#: Before a part of the day, what makes it no start of the asker's: "Don't fuel like it's an
#: afternoon race".
_AS_IF = re.compile(r"\b(?:like|as\s+if|as\s+though|not|n't)\s+$")


def _part_of(hour: int, meridiem: str) -> str:
    """The part of the day of an hour: morning before noon, afternoon to 5pm, then
    evening."""
    h = hour % 12 + (12 if meridiem == "pm" else 0)
    return "morning" if h < 12 else "afternoon" if h < 17 else "evening"


def _day_part_moved(q_low: str, a_low: str) -> tuple[str, str] | None:
    """An event's start ("starting 9am") told at another part of the day ("your early
    afternoon start")."""
    starts = _STARTS_AT.search(q_low)
    if starts is None:
        return None
    part = _part_of(int(starts.group("h")), starts.group("m"))
    told = [
        (m, {"lunchtime": "afternoon", "night": "evening"}.get(m.group("part"), m.group("part")))
        for m in _PART_OF_DAY.finditer(a_low)
        # (not "Don't fuel like it's an afternoon race": a likeness)
        if not _AS_IF.search(a_low, max(0, m.start() - 20), m.start())
    ]
    if any(p == part for _, p in told):
        return None  # "For a morning match ...; for an evening one ...": both told
    return next(((m.group(0).strip(), starts.group(0)) for m, p in told if p != part), None)


def _weeks_left(q_low: str, a_low: str) -> tuple[str, str] | None:
    """An event days away ("next Saturday's gig") told as weeks or months away ("With a
    month or so to go before the gig"), outside a condition or a general remark."""
    soon = _DAYS_AWAY.search(q_low)
    if soon is None or _SPAN.search(q_low):
        return None  # ("My marathon is 6 weeks from this Saturday": weeks away after all)
    ends = [m.end() for m in _SENTENCE_END.finditer(a_low)]
    for m in _WEEKS_LEFT.finditer(a_low):
        before, after, _ = _sentence(a_low, ends, m.start(), m.end())
        # (not "After the race, over the next few weeks ease back in": a time after it)
        if not _WEEKS_IF.search(before) and not re.search(r"\bafter\b", before + after):
            return m.group(0), soon.group(0)
    return None


#: How often the asker can meet, with its limit told in the same sentence: "We get the hall
#: once a week for 90 minutes and that's it", "we can only train twice a week".
_WEEKLY = re.compile(
    rf"\b(?P<n>once|twice|{_NUMBER}\s+times|(?:one|a|{_NUMBER})\s+(?:[a-z]+\s+)?(?:sessions?|practices?"
    r"|nights?|evenings?|lessons?|rehearsals?))\s+(?:a|per|each)\s+week\b"
    # one day: "only gets the boats on Saturday mornings"
    rf"|\bon\s+(?P<day>{_WEEKDAY})s?(?:\s+(?:mornings?|evenings?|nights?|afternoons?))?\b"
)
_WEEKLY_LIMIT = re.compile(
    # (not "my only pole": the one there is)
    r"\b(?:(?<!\bmy\s)(?<!\bour\s)(?<!\bthe\s)(?<!\ban\s)(?<!\bhis\s)(?<!\bher\s)only|that's\s+it|that\s+is\s+it|no\s+other|no\s+more|can't|cannot|can\s+not|max"
    r"|maximum|at\s+most|is\s+all|all\s+(?:we|i)\s+(?:get|have)|that'?s\s+all)\b"
)
#: ... of the asker's own ("we get the hall", "I can only train"), not a wish about
#: something else ("I don't want a split where each muscle only gets hit once a week").
_WEEKLY_OURS = re.compile(r"\b(?:i|we|me|us|my|our)\b")
#: ... and a day's limit told of a session ("only gets the boats on Saturday mornings"),
#: not of another event ("only hands over the keys on Monday").
_SESSION_VERB = re.compile(
    r"\b(?:gets?|have|has|use|book|train|practi[sc]e|rehearse|meet|play|swim|row|climb|session)\b"
)
_WEEKLY_WISH = re.compile(r"\b(?:want|wants|need|needs|prefer|rather|where|which|that)\b")
#: ... planned more often: "Split it across three sessions a week".
_WEEKLY_PLAN = re.compile(
    rf"\b(?:(?P<n>{_NUMBER})\s+(?:[a-z]+\s+)?(?:sessions|practices|times|nights|evenings|lessons"
    r"|rehearsals)|(?P<twice>twice|a\s+second\s+(?:[a-z]+\s+)?(?:session|practice|lesson"
    r"|rehearsal)))\s+(?:a|per|each)\s+week\b"
)
_WEEKLY_IF = re.compile(
    r"\b(?:if|could|ideally|when|whenever|once\s+you|later|eventually|people|others|those"
    r"|who|they|most|many|plenty|lots|pros?|athletes|bands|choirs|teams|clubs|groups|crews)\b"
    # other people's habits: "Bands that rehearse three times a week still get sloppy"
    r"|\b[a-z]+s\s+(?:that|who)\b"
)
#: A weekday the answer plans on, as a session ("Tuesday: limit bouldering", "add a
#: Thursday team session") unless rest, or the asker's own time at home, is what it plans.
_PLANNED_DAY = re.compile(rf"\b(?P<day>{_WEEKDAY})s?\b")
_NO_SESSION = re.compile(r"^[\s:)*-]*(?:rest|off|recover|recovery|walk|stretch|free|nothing)\b")
_ON_YOUR_OWN = re.compile(r"\b(?:home|own|solo|yourself|themselves|individually)\b")


def _times(word: str) -> float:
    """How many times a week a frequency's first word says: "once", "twice", "a" (session),
    or a number."""
    return {"once": 1.0, "twice": 2.0, "a": 1.0}.get(word) or _value(word)


def _weekly_limit(q_low: str) -> tuple[re.Match[str], float] | None:
    """The asker's sessions a week told with their limit, and how many that is."""
    ends = [m.end() for m in _SENTENCE_END.finditer(q_low)]
    for m in _WEEKLY.finditer(q_low):
        before, after, _ = _sentence(q_low, ends, m.start(), m.end())
        if (
            _WEEKLY_LIMIT.search(f"{before} {after}")
            and _WEEKLY_OURS.search(f"{before} {after}")
            and not _WEEKLY_WISH.search(re.split(r",|;|\bbut\b", before)[-1])
            and (m.group("day") is None or _SESSION_VERB.search(before))
        ):
            return m, 1.0 if m.group("day") else _times(m.group("n").split()[0])
    return None


def _planned_days(a_low: str, ends: list[int]) -> list[str]:
    """The weekdays the answer plans a session on: not a rest day, practice at home or on
    one's own, a condition or other people's habit."""
    days: dict[str, None] = {}
    for m in _PLANNED_DAY.finditer(a_low):
        line_end = a_low.find("\n", m.end())
        after = a_low[m.end() : min(m.end() + 40, line_end if line_end >= 0 else len(a_low))]
        before, rest, _ = _sentence(a_low, ends, m.start(), m.end())
        if _NO_SESSION.search(after) or _ON_YOUR_OWN.search(before + rest):
            continue
        if not _WEEKLY_IF.search(before + after):
            days[m.group("day")] = None
    return list(days)


def _weekly_moved(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's sessions a week, told with their limit ("once a week ... and that's it,
    no other sessions possible"), planned as more ("Split it across three sessions a week",
    or sessions on more weekdays), outside a condition ("if you can ever get a second
    session a week")."""
    limit = _weekly_limit(q_low)
    if limit is None:
        return None
    told, size = limit
    ends = [m.end() for m in _SENTENCE_END.finditer(a_low)]
    for m in _WEEKLY_PLAN.finditer(a_low):
        before, after, _ = _sentence(a_low, ends, m.start(), m.end())
        planned = 2.0 if m.group("twice") else _value(m.group("n"))
        if planned > size and not _WEEKLY_IF.search(f"{before} {after}"):
            return m.group(0), told.group(0)
    days = _planned_days(a_low, ends)
    return (", ".join(days), told.group(0)) if len(days) > size else None


#: The body's parts and functions an asker tells as sound.
_BODY = (
    r"(?:trunk|head|hips?|core|shoulders?|arms?|hands?|legs?|knees?|ankles?|back|neck|wrists?"
    r"|elbows?|fingers?|feet|foot|grip|balance|upper\s+body|lower\s+body)"
)
_ABLE = (
    r"(?:function|control|strength|mobility|movement|stability|dexterity|range(?:\s+of\s+motion)?)"
)
_SOUND = r"(?:full|good|normal|strong|fine|unaffected|ok|okay|excellent|great)"
#: A part the asker has in full: "full trunk and hip function", "good core strength",
#: "shoulder mobility is normal", "hips and trunk are totally fine".
_FULL_ABILITY = re.compile(
    rf"\b{_SOUND}\s+(?P<a>{_BODY})(?:\s+and\s+(?P<b>{_BODY}))?(?:\s+{_ABLE})?\b"
    rf"|\b(?P<c>{_BODY})(?:\s+and\s+(?P<d>{_BODY}))?(?:\s+{_ABLE})?\s+(?:is|are|'s)\s+"
    rf"(?:totally\s+|completely\s+|perfectly\s+|all\s+|absolutely\s+|back\s+to\s+)?{_SOUND}\b"
)
_WEAK = r"(?:limited|poor|weak|restricted|reduced|impaired|compromised|stiff|deconditioned)"
#: ... taken as weak: "Since your trunk control is limited", "Given your restricted
#: shoulder range", "With the hip weakness", "your shoulder limitation".
_WEAK_ABILITY = re.compile(
    rf"\b(?:your|his|her|their)\s+(?P<n>{_BODY})(?:\s+{_ABLE})?\s+(?:is|are)\s+"
    rf"(?:still\s+|quite\s+|so\s+|very\s+|a\s+bit\s+)?{_WEAK}\b"
    rf"|\b(?:your|his|her|their|the)\s+{_WEAK}\s+(?P<m>{_BODY})\b"
    rf"|\b(?:your|the)\s+(?P<o>{_BODY})\s+(?:weakness|limitation|limitations"
    r"|restriction|restrictions|instability)\b"
)


_WEAK_PART = re.compile(rf"\b{_WEAK}\s+(?P<m>{_BODY})\b")


def _part(word: str) -> str:
    """A body part as one form: "hips" is "hip", "feet" is "foot"."""
    return "foot" if word == "feet" else word.removesuffix("s")


def _ability_turned(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's full function of a body part ("full trunk and hip function") answered
    as weak ("Since your trunk control is limited")."""
    able = {
        _part(part): m.group(0)
        for m in _FULL_ABILITY.finditer(q_low)
        for part in (m.group("a"), m.group("b"), m.group("c"), m.group("d"))
        if part
    }
    if not able:
        return None
    # (a part the request itself calls weak is another's: "my partner has a weak core")
    weak = {_part(m.group("m")) for m in _WEAK_PART.finditer(q_low)}
    for m in _WEAK_ABILITY.finditer(a_low):
        part = _part(m.group("n") or m.group("m") or m.group("o"))
        told = None if part in weak else able.get(part)
        if told is not None:
            return m.group(0), told
    return None


#: A skill the asker has sound: "All three of us have solid rolls", "I've got a reliable
#: backhand" (not "good": "I have a good job" is no skill).
_SOUND_SKILL = re.compile(
    r"\b(?:have|has|got|with)\s+(?:a\s+|an\s+)?(?:really\s+|pretty\s+|very\s+|fairly\s+)?"
    r"(?:solid|reliable|bombproof|bomb-proof|dependable|consistent|strong)\s+"
    # (a skill of two words, "a solid parallel turn"; not "solid rolls and ...")
    r"(?P<n>[a-z-]+(?:\s+(?!(?:and|or|on|in|for|with|at|now|but|so|too|from|to)\b)[a-z-]+)?)\b"
)
#: ... told as unsound: "as your rolls aren't reliable yet", "your shaky rolls".
_UNSOUND = r"(?:shaky|unreliable|patchy|inconsistent|wobbly|weak|unsteady|rusty)"
_UNSOUND_SKILL = re.compile(
    r"\b(?:your|their|his|her)\s+(?P<n>[a-z-]+(?:\s+[a-z-]+)?)\s+(?:still\s+)?(?:is|are)"
    r"(?:n't|\s+not)\s+(?:yet\s+|quite\s+|fully\s+|entirely\s+|totally\s+|very\s+|really\s+)?"
    r"(?:solid|reliable|bombproof|dependable|consistent|strong|there)\b"
    # "your sight-reading is still shaky"
    rf"|\b(?:your|their|his|her)\s+(?P<k>[a-z-]+(?:\s+[a-z-]+)?)\s+(?:is|are)\s+(?:still\s+"
    rf"|a\s+bit\s+|quite\s+|pretty\s+|rather\s+)?{_UNSOUND}\b"
    rf"|\b(?:your|their|his|her)\s+{_UNSOUND}\s+(?P<m>[a-z-]+)\b"
)


def _skill_turned(q_low: str, a_low: str) -> tuple[str, str] | None:
    """A skill the asker has sound ("all three of us have solid rolls") told as unsound
    ("as your rolls aren't reliable yet")."""
    sound = {
        word.removesuffix("s"): m.group(0)
        for m in _SOUND_SKILL.finditer(q_low)
        for word in m.group("n").split()
    }
    if not sound:
        return None
    for m in _UNSOUND_SKILL.finditer(a_low):
        told = sound.get(
            (m.group("n") or m.group("k") or m.group("m")).split()[-1].removesuffix("s")
        )
        if told is not None:
            return m.group(0), told
    return None


#: The limbs a side is told of, grouped: "my left knee" answered "your right leg" is the
#: same limb told on the other side.
_LIMB_GROUPS = {
    "leg": "knee leg ankle foot feet hip hamstring calf calve shin toe heel".split(),
    "arm": "shoulder arm elbow wrist hand finger thumb".split(),
    "eye": ["eye"],
    "ear": ["ear"],
}
_LIMB = {part: group for group, parts in _LIMB_GROUPS.items() for part in parts}
_SIDED = (
    r"(?P<side>left|right)\s+(?:(?:big|little|index|middle|ring)\s+)?(?P<part>"
    + "|".join(_LIMB)
    + r")(?:e?s)?\b"
)
#: The asker's own limb on one side: "a meniscus repair on my left knee".
_MY_SIDE = re.compile(r"\bmy\s+" + _SIDED)
#: The answer's "your right leg", unless it is the sound one ("your right leg, the good one").
_YOUR_SIDE = re.compile(r"\byour\s+" + _SIDED)
_SOUND_SIDE = re.compile(
    r"\b(?:good|healthy|uninjured|unaffected|sound|stronger|other"
    # both sides, or a warning: "if your right eye starts twitching as well"
    r"|as\s+well|also|too|both|either|spread\w*)\b"
)
_IF_BEFORE = re.compile(r"\b(?:if|unless|should)\s+$")
#: The asker's limb told by its state, which makes "your right hand" the other one: "keep the
#: sore arm for light things", "leave the lens out of the affected eye", "the aching one".
_HURT_ONE = re.compile(
    r"\b(?:the|your)\s+(?:sore|aching|affected|injured|bad|painful|weak|weaker|operated|repaired"
    r"|swollen|hurt|damaged|problem|healing|broken)\s+(?:[a-z]+\s+)?(?:one|side|"
    + "|".join(_LIMB)
    + r")"
)


def _side_swapped(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's limb on one side ("my left knee") told back on the other ("avoid
    pivoting on your right leg"), in an answer that never names the request's side."""
    sides = {m.group("side"): m for m in _MY_SIDE.finditer(q_low)}
    if len(sides) != 1 or _A_SIDE.search(q_low.replace(next(iter(sides)), "")):
        return None  # no side, or both sides told (not "I'm right-footed", "all right")
    told = next(iter(sides.values()))
    if re.search(rf"\b{told.group('side')}\b", a_low) or _HURT_ONE.search(a_low):
        return None
    group = _LIMB[told.group("part")]
    ends = [e.end() for e in _SENTENCE_END.finditer(a_low)]
    for m in _YOUR_SIDE.finditer(a_low):
        before, after, _ = _sentence(a_low, ends, m.start(), m.end())
        warning = _IF_BEFORE.search(before) is not None
        sound = _SOUND_SIDE.search(f"{before}{m.group(0)}{after}") is not None
        if _LIMB[m.group("part")] == group and not (warning or sound):
            return m.group(0), told.group(0)
    return None


#: A place in a team on one side: "almost always at right corner", "I play left back", "as
#: a right winger".
_POSITION = (
    r"(?P<side>left|right)[\s-]+(?P<pos>corner|cover|wing|winger|back|half|half-back"
    r"|midfield|midfielder|fielder|flank|prop|tackle|guard|end|forward|defender|raider|lock"
    r"|centre|center|inside|outside)\b"
)
_MY_POSITION = re.compile(
    r"\b(?:at|as|play|plays|played|playing|my|usually|always|mostly|i'?m|i\s+am|im)\s+"
    r"(?:an?\s+|the\s+)?" + _POSITION
)
_YOUR_POSITION = re.compile(r"\b(?:at|as|your|from|play|playing)\s+(?:an?\s+|the\s+)?" + _POSITION)
#: Places that come in pairs without "left" or "right": a rugby prop, a rower's side.
_PAIRED_PLACES = (
    ("loosehead", "tighthead"),
    ("stroke side", "bow side"),
    ("ad court", "deuce court"),
)
#: "left" or "right" said of a side, not of a foot, a hand or a time ("naturally right
#: footed", "right now", "all right").
_A_SIDE = re.compile(
    r"(?<!\ball\s)\b(?:left|right)\b(?![\s-]+(?:footed|handed|foot|hand|now|away|after"
    r"|before|here|there|then))"
)


def _place(pos: str) -> str:
    return pos.removesuffix("er") if pos in ("winger", "midfielder") else pos


#: Words written in capitals for stress that have an opposite an answer may take instead:
#: "working on the REVERSE 3-beat weave" answered about the forward weave.
_OPPOSITE_OF = {
    a: b
    for x, y in (
        ("left", "right"),
        ("forward", "reverse"),
        ("forwards", "backwards"),
        ("front", "back"),
        ("inside", "outside"),
        ("upper", "lower"),
        ("top", "bottom"),
        ("indoor", "outdoor"),
        ("uphill", "downhill"),
        ("clockwise", "anticlockwise"),
        ("major", "minor"),
        ("male", "female"),
        ("hot", "cold"),
        ("before", "after"),
        ("odd", "even"),
        ("heel", "toe"),
    )
    for a, b in ((x, y), (y, x))
}
_STRESSED = re.compile(r"\b[A-Z]{3,}\b")


def _stress_swapped(query: str, a_low: str) -> tuple[str, str] | None:
    """A word the request stresses in capitals ("my LEFT foot down", "the REVERSE 3-beat
    weave") answered with its opposite before the same next word ("your right foot", "the
    forward weave"), in an answer that never names the stressed word."""
    for m in _STRESSED.finditer(query):
        word = m.group(0).lower()
        other = _OPPOSITE_OF.get(word)
        if other is None or re.search(rf"\b{word}\b", a_low):
            continue
        # its noun, a modifier between allowed: "the forward weave" for "REVERSE 3-beat weave"
        after = re.match(r"[\s-]+([a-z0-9][\w-]*)(?:\s+([a-z][\w-]*))?", query[m.end() :].lower())
        said = re.search(rf"\b{other}[\s-]+([\w-]+)", a_low)
        if said and after and said.group(1) in after.groups():
            return said.group(0), query[m.start() : m.end() + len(after.group(0))]
    return None


def _position_swapped(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's place in a team on one side ("almost always at right corner") told back
    on the other ("Twenty years at left corner"), in an answer that never names the
    request's place."""
    told = list(_MY_POSITION.finditer(q_low))
    sides = {m.group("side") for m in told}
    if len(sides) != 1 or len(_A_SIDE.findall(q_low)) != len(told):
        return _pair_swapped(q_low, a_low)
    own = told[0]
    place = _place(own.group("pos"))
    said = [m for m in _YOUR_POSITION.finditer(a_low) if _place(m.group("pos")) == place]
    if any(m.group("side") == own.group("side") for m in said):
        return None
    return (said[0].group(0), own.group(0)) if said else None


#: How a place is told as the reader's own: "as a bow-side rower", "on the tighthead side",
#: "you're a loosehead", "your tighthead" (not "bind on the opposing tighthead").
_AS_ONE = r"\b(?:as\s+an?|on\s+the|from\s+the|you(?:'re|\s+are)\s+an?|your)\s+"


def _pair_swapped(q_low: str, a_low: str) -> tuple[str, str] | None:
    """A place of a pair ("I'm a loosehead prop", "I row on stroke side") told back as the
    other ("On the tighthead side", "As a bow-side rower"), in an answer that never names
    the request's."""
    for pair in _PAIRED_PLACES:
        forms = [w.replace(" ", "[ -]?") for w in pair]
        named = [re.search(rf"\b{f}\b", q_low) for f in forms]
        if sum(m is not None for m in named) != 1:
            continue
        own = 0 if named[0] is not None else 1
        told = named[own]
        other = re.search(rf"{_AS_ONE}{forms[1 - own]}\b", a_low)
        if told and other and re.search(rf"\b{forms[own]}\b", a_low) is None:
            return other.group(0), told.group(0)
    return None


#: A figure the asker already has: "I'm already 95 kg", "I can already run a half in
#: 1:45", "he has already done 40 hours", "I already ride 100 km" (a few words between).
_ALREADY_AT = re.compile(
    r"\balready\s+(?:[a-z'-]+\s+){0,5}?(?P<n>\d+(?:[.:]\d+)?)(?:\s*(?P<u>[a-z]+))?"
)
#: ... told back as a goal to reach, a few words before the figure: "eat in a surplus to
#: reach at least 95 kg", "build your plank hold up to 2 minutes", "until you can
#: comfortably ride 100 km", "logs at least 40 hours", "work up to a 1:45 half".
_TO_REACH = re.compile(
    r"\b(?:reach|get\s+(?:you\s+)?(?:up\s+)?to|hit|build|work\s+(?:your\s+way\s+)?up\s+to"
    r"|aim(?:ing)?\s+for|bulk|gain|climb\s+to|progress\s+to|until\s+you\s+can|logs?"
    r"|towards?)\b(?P<gap>(?:\s+[a-z'-]+){0,5}?)\s+(?P<n>\d+(?:[.:]\d+)?)(?:\s*(?P<u>[a-z]+))?"
)
_NOT_NEEDED = re.compile(
    r"\b(?:no\s+need|don't\s+need|not|never|already|once\s+you've|you\s+can\s+(?:now|already))\b"
    r"[^.!?\n]*$"
)


def _figure_unit(m: re.Match[str]) -> str:
    """The unit after a figure ``m`` read; none for a time ("1:45") or a word that is no
    unit ("180 kg and", "40 hours" keeps "hour")."""
    u = m.group("u") or ""
    return "" if ":" in m.group("n") or u in _FUNCTION else _unit(u)


def _reached_already(q_low: str, a_low: str) -> tuple[str, str] | None:
    """A figure the asker already has ("I'm already 95 kg", "I already ride 100 km") told
    as a goal to reach ("to reach at least 95 kg before testing", "build your long ride
    until you can comfortably ride 100 km"), with the same unit (or none: "1:45")."""
    had = [
        (m.group("n"), _figure_unit(m), m.group(0))
        for m in _ALREADY_AT.finditer(q_low)
        if "." not in q_low[m.start() : m.end()].rstrip(".")
    ]
    if not had:
        return None
    for said in _TO_REACH.finditer(a_low):
        if " from" in f" {said.group('gap')}" or re.search(r"[,;:]", said.group("gap")):
            continue  # "build from 100 km": the figure is where the goal starts
        unit = _figure_unit(said)
        begin = max(a_low.rfind(c, 0, said.start()) for c in ".!?\n") + 1
        if _NOT_NEEDED.search(a_low, begin, said.start()):
            continue
        for n, u, told in had:
            if said.group("n") == n and unit == u:
                return said.group(0), told
    return None


#: Someone's handedness told: "she's 14 and LEFT handed", "I'm a lefty", "as a left-hander".
_HANDED = re.compile(
    r"\b(?:(?P<side>left|right)[\s-]?hand(?:ed|er)\b|(?P<lefty>lefty|southpaw|leftie)\b)"
)
#: The hand or arm that does the work, named on a side: "the fingers of her right hand",
#: "push the shot away with the right arm".
_HAND_SIDE = re.compile(
    r"\b(?:your|her|his|their|the)\s+(?P<side>left|right)\s+(?:hand|arm)\b(?!\s+side)"
)


def _hand_swapped(q_low: str, a_low: str) -> tuple[str, str] | None:
    """Someone left-handed ("she's 14 and LEFT handed") answered with the other hand at work
    ("at the base of the fingers of her right hand"), in an answer that never names their
    own hand or arm, nor handedness (a left-hander's other hand has its own jobs: "yarn in
    your right hand" beside "the hook in your left hand")."""
    told = list(_HANDED.finditer(q_low))
    sides = {m.group("side") or "left" for m in told}
    if len(sides) != 1 or _MY_SIDE.search(q_low):
        return None  # (a limb of the asker's on a side, "I've sprained my right wrist": the
        # other hand may take over)
    own = next(iter(sides))
    said = list(_HAND_SIDE.finditer(a_low))
    if any(m.group("side") == own for m in said) or "handed" in a_low or "hander" in a_low:
        return None
    ends = [e.end() for e in _SENTENCE_END.finditer(a_low)]
    for m in said:
        before, after, _ = _sentence(a_low, ends, m.start(), m.end())
        if not _IF_BEFORE.search(before):
            return m.group(0), told[0].group(0)
    return None


_SEXES = dict.fromkeys("female girl sister daughter doe hen sow".split(), "female") | dict.fromkeys(
    "male boy brother son buck cockerel boar".split(), "male"
)
_SEXED = "|".join(_SEXES)
#: A group of the asker's that is all one sex: "two chinchillas, both girls", "my twin
#: boys", "two teenage daughters", "both my cats are male", "two rabbits, both does".
_ALL_ONE_SEX = re.compile(
    r"\b(?:both|twin|two|three|four|all)\s+(?:of\s+(?:them|my|our)\s+|my\s+|our\s+)?"
    rf"(?:[\w-]+\s+){{0,2}}?(?:are\s+)?(?:(?P<noun>{_SEXED})s\b|(?P<adj>female|male)\b)"
)
#: Every word of the request that tells someone's sex.
_SEX_WORDS = (
    _SEXES
    | dict.fromkeys("she her hers wife mother mum mom woman women lady ladies".split(), "female")
    | dict.fromkeys("he his him husband father dad man men guy guys".split(), "male")
)
_ANY_SEX = re.compile(r"\b(?:" + "|".join(_SEX_WORDS) + r")s?\b")
#: One of them told back as the other sex: "the dominant male", "your boys".
_ONE_OF_SEX = re.compile(
    r"(?<!\bbang\sfor\s)\b(?:the|your)\s+(?:(?!(?:and|or|of|with)\b)[a-z]+(?:er|est|ant|y|ing)\s+"
    r"|(?:older|younger|bigger|smaller|new|other|big|little|top|alpha|lead|main)\s+)?"
    rf"(?P<noun>(?:{_SEXED})s?)\b(?!['’]s)"
)
#: A clause about animals or people in general: "something the male does in mixed pairs".
_IN_GENERAL = re.compile(
    r"\b(?:mixed|typically|generally|most|many|unlike|in\s+general"
    r"|only\s+something|isn't|aren't|not)\b"
)
_SEX_NOUN = re.compile(rf"\b(?:{_SEXED})s?\b")
#: Another animal or person the answer brings in, whom "the male" may be: "adding a sow",
#: "a neighbourhood tomcat", "the male outside the door".
_ANOTHER_ANIMAL = re.compile(
    r"\b(?:add(?:ing)?\s+(?:a|an|another)\s+(?:[\w-]+\s+){0,2}?(?:"
    + _SEXED
    + r"|companion|friend|kitten|puppy|one)s?|introduc\w*|another|a\s+new|visiting|neighbou?r\w*"
    r"|tomcat|stray|outside|next\s+door|classmates?|class|school)\b"
)
#: Someone else the request tells of, whom "the girl" may be: "their cousin Mia".
_SOMEONE_ELSE = re.compile(
    r"\b(?:cousins?|friends?|neighbou?rs?|nieces?|nephews?|classmates?|visitors?|guests?"
    r"|grandchild(?:ren)?|stepson|stepdaughter|another|new)\b"
)


def _clause_around(before: str, said: str, after: str) -> str:
    """The clause of a sentence around ``said`` (``before`` and ``after``: the rest of the
    sentence, ``_sentence``)."""
    cuts = list(_CLAUSE_END.finditer(before))
    end = _CLAUSE_END.search(after)
    return before[cuts[-1].end() if cuts else 0 :] + said + (after[: end.start()] if end else after)


def _sex_swapped(q_low: str, a_low: str) -> tuple[str, str] | None:
    """A group the request says is all one sex ("two chinchillas, both girls") with one of
    it told back as the other ("neutering the dominant male")."""
    told = _ALL_ONE_SEX.search(q_low)
    if told is None:
        return None
    sex = _SEXES[told.group("noun") or told.group("adj")]
    others = {
        _SEX_WORDS.get(m.group(0), _SEX_WORDS.get(m.group(0)[:-1]))
        for m in _ANY_SEX.finditer(q_low)
    }
    if others - {sex} or _SOMEONE_ELSE.search(q_low):
        return None  # the request tells of both sexes ("both girls ... my son"), or of another
    ends = [e.end() for e in _SENTENCE_END.finditer(a_low)]
    for m in _ONE_OF_SEX.finditer(a_low):
        if _SEXES[m.group("noun").rstrip("s")] == sex:
            continue
        before, after, _ = _sentence(a_low, ends, m.start(), m.end())
        clause = _clause_around(before, m.group(0), after)
        # (the sentence before too: "Pet shops suggest adding a sow, but the female ...")
        opens = max(0, m.start() - len(before) - 1)
        told_before = _sentence(a_low, ends, opens, opens)[0] + before
        if not (
            _IN_GENERAL.search(clause)
            or {_SEXES[w.rstrip("s")] for w in _SEX_NOUN.findall(clause)} == {"female", "male"}
            or _ANOTHER_ANIMAL.search(told_before + clause)
        ):
            return m.group(0), told.group(0)
    return None


#: A model code: letters then a number in one word ("rm750", "hl-l2350dw", "td-07kv"; not
#: "of 750").
_CODE = (
    r"(?:[a-z]{1,4}-)?(?P<letters>[a-z]{1,5})"
    # (one digit only joined and not a vitamin: "i3", "a7"; not the tax form "w-2" nor "b6")
    r"(?:-?(?P<digits>\d{2,5})|(?<![-\s]b|[-\s]c|[-\s]d|[-\s]e|[-\s]k)(?P<digit>\d))[a-z]{0,3}\b"
)
_MODEL_CODE = re.compile(r"\b" + _CODE)
#: A product line's name and its number, as the request writes it: "Duo 60", "Charge 5",
#: "Edge 530" (a capitalised name, not a sentence's first word nor a word of counting).
_NAMED_MODEL = re.compile(
    r"(?<=[a-z,] )(?P<letters>[A-Z][a-z]{1,9}) (?P<digits>\d{1,5})\b(?![.,]\d)"
)
_NOT_A_LINE = frozenset(
    "year years level grade stage week day page chapter step room flat unit gate platform route"
    " bus flight size number no version part section question term lesson module class form"
    " key act scene mile exit junction highway interstate apt suite floor block table seat row"
    " box group team season episode series volume vol book track zone tier band area ward bed"
    " january february march april may june july august september october november december"
    " jan feb mar apr jun jul aug sep sept oct nov dec top under over about around only".split()
)
#: The asker's model told back: "what your RM650 provides", "your Corsair RM650", "your
#: Edge 830".
_YOUR_CODE = re.compile(
    r"\byour\s+(?:[a-z][\w-]*\s+){0,2}?(?:" + _CODE + r"|(?P<name>[a-z]{2,10}) (?P<n>\d{1,5})\b)"
)


def _model_swapped(query: str, a_low: str) -> tuple[str, str] | None:
    """The asker's model ("a Corsair RM750", "my Garmin Edge 530") told back as another of
    its line ("your RM650", "your Edge 830"), in an answer that never names the request's
    own."""
    told: dict[str, list[tuple[str, str, str]]] = {}
    for m in _MODEL_CODE.finditer(query.lower()):
        digits = m.group("digits") or m.group("digit")
        told.setdefault(m.group("letters"), []).append((digits, m.group(0), "-?"))
    for m in _NAMED_MODEL.finditer(query):
        name = m.group("letters").lower()
        if name not in _NOT_A_LINE:
            told.setdefault(name, []).append((m.group("digits"), m.group(0), " "))
    for m in _YOUR_CODE.finditer(a_low):
        line = m.group("letters") or m.group("name")
        digits = m.group("digits") or m.group("digit") or m.group("n")
        mine = told.get(line, [])
        if len(mine) != 1 or mine[0][0] == digits:
            continue  # none or several of the line told, or the asker's own
        own, said, gap = mine[0]
        if not re.search(rf"\b{line}{gap}{own}(?:[a-z]{{0,3}})\b", a_low):
            return m.group(0), said
    return None


def _taken_as_new(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's stated experience ("growing microgreens commercially for about 2
    years") answered as a beginner's ("Since you're just getting started with
    microgreens")."""
    told = _EXPERIENCED.search(q_low)
    if told is None or _NEW_TOLD.search(q_low):
        return None
    taken = _TAKEN_AS_NEW.search(a_low)
    return None if taken is None else (taken.group(0).strip(" .!?:-*•\n"), told.group(0))


def _read_apart(query: str, answer: str) -> list[tuple[str, str]]:
    """The forms read whatever else the request states: the files' extension, the
    weekday, one leg as the whole day, the month of the asker's date, a sum with its tax
    taken as one before it, still water as moving, the asker's experience as a
    beginner's."""
    q_low, a_low = query.lower(), answer.lower()
    found = [
        _extension_swapped(query, answer) if "*." in answer else None,
        _day_moved(q_low, a_low) if "day" in a_low else None,
        _leg_as_day(q_low, a_low) if " way" in q_low else None,
        _date_moved(q_low, a_low) if "your " in a_low else None,
        _gross_as_net(q_low, a_low) if "inc" in q_low else None,
        _water_moved(q_low, a_low) if "moving" in a_low else None,
        _taken_as_new(q_low, a_low),
        _step_moved(q_low, a_low) if "you" in a_low else None,
        _party_moved(q_low, a_low),
        _count_grown(q_low, a_low),
        _plan_overruns(q_low, a_low) if "week" in a_low or "day" in a_low else None,
        _height_moved(q_low, a_low) if "'" in q_low or "ft" in q_low or "’" in q_low else None,
        _alone_joined(q_low, a_low) if "your " in a_low else None,
        _weeks_left(q_low, a_low) if "week" in a_low or "month" in a_low else None,
        _day_part_moved(q_low, a_low),
        _weekly_moved(q_low, a_low) if "week" in q_low or "day" in q_low else None,
        _ability_turned(q_low, a_low),
        _skill_turned(q_low, a_low),
        _side_swapped(q_low, a_low) if "left" in q_low or "right" in q_low else None,
        _hand_swapped(q_low, a_low) if "hand" in a_low or "arm" in a_low else None,
        _position_swapped(q_low, a_low),
        _stress_swapped(query, a_low) if _STRESSED.search(query) else None,
        _reached_already(q_low, a_low) if "already" in q_low else None,
        _sex_swapped(q_low, a_low),
        _model_swapped(query, a_low) if "your " in a_low else None,
        _kind_swapped(q_low, a_low) if ", not " in q_low and "your " in a_low else None,
    ]
    return [f for f in found if f is not None]


_NOT_THE = re.compile(
    r",\s*not\s+(?:the|an?)\s+(?P<y>[\w-]+(?:\s+[\w-]+){0,2}?)\s*"
    # (where the other one is: "not the conventional one at my mum's")
    r"(?=[),.;!?]|\s+(?:at|in|from|with|that|which)\b|$)"
)
#: Words that name the thing only as one of its kind: "the freestanding model" is told back
#: as "your freestanding Bosch".
_KIND_WORD = re.compile(r"\\ (?:one|model|version|type|kind)$")


def _kind_swapped(q_low: str, a_low: str) -> tuple[str, str] | None:
    """The asker's own thing told apart from its other kind ("a 1967 MGB GT - the
    fixed-roof coupé, not the roadster") and named as that other ("your roadster")."""
    for m in _NOT_THE.finditer(q_low):
        if OWNED_THE.search(q_low[: m.start() + 1]) is None:
            continue
        kind = re.escape(m.group("y"))
        # "the stainless steel one" told back as "your stainless steel kettle"
        kind = _KIND_WORD.sub(r"\\s+[a-z]+", kind)
        said = re.search(rf"\byour\s+{kind}\b", a_low)
        if said is not None:
            return said.group(0), m.group(0).lstrip(", ")
    return None


def contradicted(query: str, answer: str) -> list[tuple[str, str]]:
    """``(what the answer says, what the request says)`` for each fact restated the other
    way round; empty when there is none. Cheap when the request states nothing that could
    be restated (most requests): the answer is then not read."""
    pairs, about_me, q_set, facts = _stated(query)
    platform = q_set & _FAMILY.keys()
    columns = _columns(query.lower()) if "col" in q_set or "column" in q_set else {}
    found = _read_apart(query, answer)
    if not pairs and not about_me and not platform and not facts and not columns:
        return found
    a_low = answer.lower()
    if columns:
        moved = _column_moved(columns, a_low)
        if moved is not None:
            found.append(moved)
    if platform:
        wrong = _platform(q_set, a_low)
        if wrong is not None:
            found.append(wrong)
    if pairs:
        found += _opposites(pairs, q_set, a_low)
    for state, stated in about_me:
        not_so = rf"\byou(?:'re\s+not|\s+are\s+not|\s+aren't)\s+(?:an?\s+)?{state}\b"
        said = re.search(not_so, a_low) or (
            re.search(_DENIED[state], a_low) if state in _DENIED else None
        )
        if said:
            found.append((said.group(0), stated))
    if facts:
        q_plain, a_plain = _plain(query.lower()), _plain(a_low)
        figure = (
            _figure_restated(q_plain, facts, a_plain)
            or _count_moved(q_plain, facts, a_plain)
            or _worked_from(q_plain, facts, a_plain)
            or _at_now(q_plain, facts, a_plain)
        )
        if figure is not None:
            # (the figure read as the asker's own, once: "With your 4 kids" is not also a
            # count grown)
            found = [f for f in found if f[0] not in figure[0]] + [figure]
    return found

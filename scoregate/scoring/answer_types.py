"""What kind of answer a question expects, and whether an answer gives one (pure).

"How long do I roast it?" asks for a duration, "how much protein is in it?" for an
amount, "how often should I feed her?" for a frequency. An answer that gives no
expression of that kind at all has left that question out, however close its topic:
the cross-encoder reads "roast it at 425F" as a fine answer to "how long and at what
temperature?". Request analysis lists these expectations (``analysis.expects``); fusion
caps an answer that meets one of them with nothing (``fusion.answer_type_check``).

Only question phrases whose answer has a recognisable form are read (how long / much /
many / often / far / old / deep, what temperature, what time, at what age), and an answer
counts as giving one on any expression of the kind, anywhere: the check looks for a
question left out entirely, not for a wrong or vague value.

>>> [e.kind for e in expected_answers("How long and at what temp do I roast a chicken?")]
['duration', 'temperature']
>>> missing_answers(expected_answers("How long do I boil an egg?"), "About 9 minutes.")
[]
>>> [e.phrase for e in missing_answers(expected_answers("How often should I water it?"),
...                                    "Use rainwater if you can.")]
['How often']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

#: Number words ("seventy-three" reads as its last part).
_NUM_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen"
    r"|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy"
    r"|eighty|ninety|hundred|thousand|million|billion"
)
#: A number: digits (read whole and never given back: linear on long digit runs), a
#: fraction glyph or a number word, with an optional "million" after it.
_NUM = (
    rf"(?:(?:(?<![\d.,/])\d++(?:[.,/]\d++)*+|[½¼¾⅓⅔]|\b(?:an?|{_NUM_WORDS}|half|quarter"
    rf"|third|few|several|couple|dozen)\b)(?:\s+(?:million|billion|trillion|thousand|hundred))?)"
)
#: A number in digits.
_DIGITS = r"(?<![\d.,/])\d++(?:[.,/]\d++)*+"
_TIME_UNIT = (
    r"(?:sec(?:ond)?s?|min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|nights?|weeks?|wks?|months?"
    r"|years?|yrs?|decades?)"
)
_LENGTH_ABBR = r"(?:mm|cm|m|km|in|ft|yds?|mi)"
_LENGTH_WORD = r"(?:metres?|meters?|kilomet(?:re|er)s?|inch(?:es)?|feet|foot|yards?|miles?|blocks?)"
_MEASURE = (
    r"(?:g|gr|grams?|kg|kilos?|kilograms?|mg|mcg|µg|oz|ounces?|lbs?|pounds?|ml|l|litres?"
    r"|liters?|dl|cl|cups?|tbsp|tsp|tablespoons?|teaspoons?|glass(?:es)?|bottles?|cans?"
    r"|gal|gallons?|quarts?|qt|pints?|pt|scoops?|servings?|portions?|slices?|pieces?"
    r"|pouch(?:es)?|sachets?|packets?|handfuls?|pinch(?:es)?|drops?|doses?|tablets?|pills?"
    r"|capsules?|calories|kcal|cal|units?|iu|%|percent|per ?cent|x|times|kwh|watts?|amps?"
    r"|volts?|mah|ah|gb|mb|tb|kb|[kmg]bps|mph|km/h|kph)"
)
_CURRENCY_WORD = (
    r"(?:dollars?|euros?|pounds? sterling|bucks|quid|cents?|pence|yen|yuan|rupees?|pesos?"
    r"|francs?|chf|usd|eur|gbp|zł|zloty|krona|krone|kronor|baht|won|rand|reais|real)"
)
_CURRENCY = rf"(?:[$€£¥₹]\s?\d|{_DIGITS}\s?(?:[$€£¥₹]|k\b)|\b{_CURRENCY_WORD}\b)"
#: An amount of money as answers write one: "$45", "130 €", "CHF 130", "13,000 yen".
MONEY = re.compile(_CURRENCY, re.IGNORECASE)
#: A share of something: "a third of your income", "half of it".
_SHARE = r"\b(?:a|one|two)\s+(?:half|third|quarter|fifth|tenth)s?\b|\bhalf\s+(?:of|a|an|the)\b"


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), re.IGNORECASE)


#: Evidence of each kind of answer, anywhere in the answer. Patterns start at a word or a
#: digit run and never nest repeats, so a long run of digits is read in linear time.
_EVIDENCE: dict[str, re.Pattern[str]] = {
    "duration": _rx(
        rf"\b{_TIME_UNIT}\b",
        rf"{_DIGITS}\s*(?:h|m|s|min)\b",
        r"\b(?:overnight|indefinitely|forever|until|till|as long as|a while|no (?:need|limit"
        r"|minimum|maximum|wait)|not at all|right away|immediately|straight away|instantly"
        r"|(?:don't|do not|no need to)\s+(?:need\s+to\s+)?wait)\b",
        rf"{_NUM}\s*(?:pages?|words?|chapters?|episodes?|seasons?|books?|volumes?|laps?|reps?"
        r"|sets?|steps?|characters?|chars|letters|digits)\b",
        rf"{_DIGITS}\s*-?\s*{_LENGTH_ABBR}\b",
        rf"{_NUM}\s*-?\s*{_LENGTH_WORD}\b",
    ),
    "amount": _rx(
        rf"{_NUM}\s*-?\s*(?:to\s+\S+\s+)?{_MEASURE}(?![a-z])",
        rf"{_DIGITS}\s*-?\s*{_LENGTH_ABBR}\b",
        rf"{_NUM}\s*-?\s*{_LENGTH_WORD}\b",
        rf"{_NUM}\s*(?:-|to)?\s*(?:[a-z]\w*\s+)?{_TIME_UNIT}(?:'s|')?\s+(?:of|worth)\b",
        _CURRENCY,
        _SHARE,
        rf"{_DIGITS}\s?(?-i:A|V|W)\b",
        r"\b(?:free|no charge|nothing|none|no limit|unlimited|not much|very little|to taste"
        r"|a (?:little|lot|bit|splash|dash|drizzle|knob|pinch|handful)|as much as|enough"
        r"|equal parts|same amount|amount|portion size|serving size)\b",
    ),
    "count": _rx(
        r"\d",
        rf"\b(?:none|no|zero|{_NUM_WORDS}|dozens?|hundreds?|thousands?|several|a few|a couple"
        r"|a handful|many|single|both|pair|once|twice)\b",
        # a list of two or more items answers "how many ways ...? list some"
        r"(?:^|\n)[ \t]*(?:[-*•]|\d+[.)])[ \t]+\S[^\n]*\n[ \t]*(?:[-*•]|\d+[.)])[ \t]+\S",
    ),
    "frequency": _rx(
        r"\bevery\b",
        r"\b(?:once|twice|thrice)\b",
        rf"{_NUM}\s*(?:(?:-|–|to|or)\s*{_DIGITS}\s*)?(?:x|times?)\b",
        r"\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually"
        r"|biweekly|bi-weekly|seasonally)\b",
        rf"\b(?:a|an|per|each|a single)\s+(?:{_TIME_UNIT}|morning|evening|night|time|session"
        r"|meal|season|spring|summer|autumn|fall|winter|use|wash|visit)\b",
        r"\b(?:whenever|as needed|as often as|regularly|never|always|constantly|continuously"
        r"|at least|no more than|at most|at a time|a day|a week|a month|a year|no need"
        r"|when (?:the|it|its|it's|they|you see|you notice|needed)|once (?:the|it)|as soon as"
        r"|after each|after every|before each|before every)\b",
        # a lifespan or an interval answers it too: "most chains last 2,000-5,000 km"
        rf"\b(?:intervals?|lifespan|life span|service life)\b|\blasts?\s+(?:about\s+|around\s+"
        rf"|roughly\s+|up\s+to\s+)?{_NUM}",
    ),
    "temperature": _rx(
        r"°",
        rf"{_DIGITS}\s*(?:degrees?|deg|f|c|fahrenheit|celsius)\b",
        r"\b(?:low|mid|high|upper|lower)[- ]?(?:\d0s|teens|twenties|thirties|forties|fifties"
        r"|sixties|seventies|eighties|nineties)\b",
        r"\b(?:degrees|fahrenheit|celsius|gas mark|room temperature|lukewarm|simmer(?:ing)?"
        r"|boil(?:ing)?|(?:low|medium|moderate|high|medium[- ]high|medium[- ]low)\s+heat"
        r"|(?:hot|warm|cool|cold)\s+(?:oven|water|room|wash|cycle|setting)|fridge"
        r"|refrigerat\w*|freez\w*)\b",
    ),
    "distance": _rx(
        rf"{_DIGITS}\s*-?\s*{_LENGTH_ABBR}\b",
        rf"{_NUM}\s*-?\s*{_LENGTH_WORD}\b",
        rf"{_NUM}\s*-?\s*{_TIME_UNIT}\b",
        r"\b(?:walking distance|next door|nearby|close by|far)\b",
    ),
    "size": _rx(
        rf"{_DIGITS}\s*-?\s*{_LENGTH_ABBR}\b",
        # inches by their mark before a size word or a break: 2-1/2" deep, 1½" thick (not
        # a quoted "5", nor 'the "Top 10" tips')
        rf"(?<![\"“])\b{_DIGITS}[½¼¾⅛⅜⅝⅞]?[\"”″](?!\w)"
        r"(?=\s*(?:deep|deeper|long|longer|wide|wider|thick|thicker|tall|taller|high|higher|x\b|×"
        r"|by\b|to\b|or\b|and\b|-|–|,|;|\)|\.|$|\n|of\b|square|diameter|depth|thickness))",
        rf"{_NUM}\s*-?\s*{_LENGTH_WORD}\b",
        r"\b(?:(?:twice|three times|(?:as|so))\s+(?:as\s+)?(?:deep|tall|wide|high|thick)"
        r"|(?:knee|waist|shoulder|ankle|chest)[- ](?:deep|high)|ground level|flush with|level with"
        r"|knuckles?)\b",
    ),
    "age": _rx(
        r"\d",
        rf"\b(?:{_NUM_WORDS}|teens?|adults?|toddlers?|newborns?|infants?)\b",
    ),
    "clock_time": _rx(
        rf"{_DIGITS}\s*(?:am|pm|a\.m\.|p\.m\.|h)\b",
        r"\b\d{1,2}:\d\d\b",
        r"\b(?:noon|midday|midnight|o'clock|morning|afternoon|evening|night|dawn|dusk|sunrise"
        r"|sunset|bedtime|lunchtime|spring|summer|autumn|fall|winter|january|february|march"
        r"|april|may|june|july|august|september|october|november|december|weekends?"
        r"|weekdays?|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
        rf"{_NUM}\s*(?:-|to)?\s*(?:[a-z]\w*\s+)?{_TIME_UNIT}\s+(?:before|after|ahead|early|prior)\b",
    ),
}

_BARE = re.compile(rf"\d|\b(?:{_NUM_WORDS})\b", re.IGNORECASE)

#: What each kind is, in the words of a reason.
KIND_NAMES: dict[str, str] = {
    "duration": "a duration",
    "amount": "an amount (a quantity with its unit, a price or a share)",
    "count": "a number",
    "frequency": "how often (a frequency)",
    "temperature": "a temperature or heat",
    "distance": "a distance",
    "size": "a size (a depth, height, width or thickness)",
    "age": "an age",
    "clock_time": "a time of day",
}

#: Question phrases with a recognisable kind of answer. "How much" about a degree ("how
#: much does it matter", "how much difference does it make") and "how long ago" are not
#: read; "how much longer" asks for a duration.
_DEGREE = (
    r"of\s+(?:a|an)\b|difference\b|impact\b|effect\b|influence\b|(?:better|worse|harder|easier"
    r"|faster|slower|taller|bigger|smaller|cheaper|heavier|lighter|older|younger|higher|lower"
    r"|further|farther)\b|should\s+i\s+(?:worry|care|trust)\b|(?:do|does|did|will|would|can"
    r"|could|is|are)\s+(?:[\w'-]+\s+){0,4}?(?:matter|matters|affect|help|hurt|change|impact"
    r"|influence|improve|reduce|increase|differ|love|like|care|know|worry|count)\b"
)
_QUESTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rx, re.IGNORECASE), kind)
    for rx, kind in (
        (r"\bhow long\b(?!\s+ago\b)|\bhow much longer\b", "duration"),
        # an amount of time: "how much sleep / exercise / notice"
        (
            r"\bhow much\s+(?:(?!(?:each|every|per|at|a|one)\b)\w+\s+)?(?:sleep|exercise|time"
            r"|rest|notice|practi[cs]e|study|studying|walking|play|playtime|screen time|sun"
            r"|sunlight|daylight|light|downtime|leave|holiday|vacation|pto|overtime)\b",
            "duration",
        ),
        (rf"\bhow much\b(?!\s+(?:{_DEGREE}))", "amount"),
        (r"\bhow many\b", "count"),
        (r"\bhow often\b|\bhow frequently\b|\bhow regularly\b", "frequency"),
        (r"\b(?:what|which)\s+(?:temp|temperature|heat)\b|\bhow hot\b", "temperature"),
        (
            r"\bhow far\b(?!\s+(?:into|along|through|in|ahead|back|off)\b)"
            # (a degree: "how far should I trust that", "how far to rely on the auto-ID")
            r"(?!\s+(?:(?:should|can|could|do|would|might)\s+(?:i|we|you|one)\s+|to\s+)"
            r"(?:trust|rely|believe|credit)\b)",
            "distance",
        ),
        (r"\bhow old\b|\b(?:what|which)\s+age\b", "age"),
        # "how deep do I plant it?": a measure of size ("how high" may ask for heat)
        (r"\bhow (?:deep|tall|wide|thick)\b(?!\s+(?:into|in|should\s+i\s+go))", "size"),
        (
            r"\bwhat time\b(?!\s+(?:zone|zones|frame|period|limit|complexity|signature|span"
            r"|scale|horizon|slot|of\s+(?:year|the\s+year|month|season|life)|series|stamp)\b)",
            "clock_time",
        ),
    )
)

#: What puts a question phrase in a statement, a side remark or a question about a
#: method ("how do I check how much storage is left?" asks for the steps, not the figure;
#: "what determines how long a battery lasts?" for the causes).
_NOT_ASKED = re.compile(
    r"(?:\b(?:no matter|regardless of|doesn't matter|does not matter|don't care|do not care"
    r"|not sure it matters|whatever|however|see|check|find|view|track|count|measure|monitor"
    r"|calculate|compute|determine|determines|limit|reduce|control|asked|ask|asks|asking"
    r"|change|set|adjust|increase|decrease|lower|raise|estimate|predict|shows?|displays?"
    r"|print|prints|log|logs|return|returns|output|record|affects?|influences?|decides?"
    r"|depends?\s+on|matters?|tells? (?:you|us|them)|find out|work out|figure out)"
    r"|\bhow\s+(?:do|can|could|would|should)\s+(?:i|you|we|one)\s+(?:know|tell|decide|judge"
    r"|get)|\bhow\s+to\s+(?:know|tell|decide|judge|get))\s+$",
    re.IGNORECASE,
)
#: A request to work on given text (translate, proofread, reply to it) or to ask someone
#: else: the questions in it are not the asker's own.
_WORK_ON_TEXT = re.compile(
    r"\b(?:translat\w*|proofread\w*|rewrite|re-write|rephrase|reword|paraphrase|grammar"
    r"|spelling|polish|(?:reply|respond|replying|responding)\s+to|(?:a|my|the)\s+(?:reply"
    r"|response)|draft|e-?mail\s+(?:to|asking)|(?:message|letter|text)\s+to|asking"
    r"|ask\s+(?:him|her|them|my|the|for|if|whether|about))\b",
    re.IGNORECASE,
)
#: An answer this short with a figure in it ("260", "9 inches") answers any question for one.
SHORT_ANSWER_WORDS = 5


@dataclass(frozen=True)
class Expectation:
    """A question in the request whose answer has a recognisable form."""

    phrase: str
    kind: str


def expected_answers(text: str, request: str | None = None) -> tuple[Expectation, ...]:
    """The kinds of answer the questions in ``text`` (the asking sentences of ``request``)
    expect, in order, each kind once; none when the request asks for work on given text
    (a translation, a proofreading, a reply) or asks someone else."""
    if _WORK_ON_TEXT.search(text if request is None else request):
        return ()
    found: list[tuple[int, Expectation]] = []
    kinds: set[str] = set()
    taken: set[int] = set()
    for rx, kind in _QUESTIONS:
        for m in rx.finditer(text):
            if kind in kinds or m.start() in taken:
                continue
            if _NOT_ASKED.search(text[max(0, m.start() - 40) : m.start()]):
                continue
            if text[max(0, m.start() - 1) : m.start()] in ("'", '"', "‘", "“"):
                continue  # "is 'how much' or 'how many' right?": the words, not a question
            kinds.add(kind)
            taken.add(m.start())
            found.append((m.start(), Expectation(phrase=m.group(0), kind=kind)))
    return tuple(e for _, e in sorted(found, key=lambda p: p[0]))


def gives(kind: str, answer: str) -> bool:
    """Whether ``answer`` has any expression of ``kind`` in it."""
    if _EVIDENCE[kind].search(answer):
        return True
    # a bare figure answers any question for a figure ("How much do I pay?" "500"), unless
    # its unit makes it a figure of another kind ("Roast it at 220°C." gives no duration)
    return (
        kind != "clock_time"
        and len(answer.split()) <= SHORT_ANSWER_WORDS
        and _BARE.search(answer) is not None
        and not any(
            rx.search(answer)
            for other, rx in _EVIDENCE.items()
            if other not in (kind, "count", "age")
        )
    )


def missing_answers(expects: Sequence[Expectation], answer: str) -> list[Expectation]:
    """The expectations ``answer`` gives nothing for (an empty answer misses none: other
    checks judge that)."""
    if not answer.strip():
        return []
    return [e for e in expects if not gives(e.kind, answer)]


_OPEN_Q = "['\"‘“]"
_CLOSE_Q = "['\"’”]"
#: A quoted term the asker asks to have explained: "what's this 'heterodyning' thing?",
#: "what does 'sul tasto' mean?", "can you explain what 'vibrato' is?".
_TERM_ASKED = re.compile(
    rf"\bwhat(?:'s|\s+is|\s+are|\s+exactly\s+is)\s+(?:this|that|the|a|an|these|those)?\s*"
    rf"{_OPEN_Q}(?P<a>[^'\"’”]{{3,40}}){_CLOSE_Q}"
    rf"|\bwhat\s+(?:does|do|did)\s+{_OPEN_Q}(?P<b>[^'\"’”]{{3,40}}){_CLOSE_Q}\s+"
    r"(?:actually\s+|really\s+|even\s+|exactly\s+)?(?:mean|stand\s+for)"
    rf"|\bexplain\s+(?:what\s+)?{_OPEN_Q}(?P<c>[^'\"’”]{{3,40}}){_CLOSE_Q}",
    re.IGNORECASE,
)
#: An answer this long that explains a term names it; a shorter one may say "It means ...".
TERM_ANSWER_WORDS = 40


def asked_terms(text: str) -> list[str]:
    """The quoted terms the asking sentences ``text`` ask to have explained."""
    if _WORK_ON_TEXT.search(text):
        return []
    return [
        t for m in _TERM_ASKED.finditer(text) if (t := m.group("a") or m.group("b") or m.group("c"))
    ]


def unnamed_terms(terms: Sequence[str], answer: str) -> list[str]:
    """The terms a long answer never names: not every word of one (a hyphened word whole,
    its ending aside)."""
    if len(answer.split()) < TERM_ANSWER_WORDS:
        return []
    low = answer.lower()
    out = []
    for term in terms:
        # every word of it, a hyphened one whole ("ex-dividend date" is not named by
        # "dividends")
        words = [w for w in re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", term.lower()) if len(w) > 2]
        if words and not all(
            re.search(rf"\b{re.escape(w[: max(4, len(w) - 3)])}", low) for w in words
        ):
            out.append(term)
    return out

"""What kind of answer a question expects, and whether an answer gives one (pure).

"How long do I roast it?" asks for a duration, "how much protein is in it?" for an
amount, "how often should I feed her?" for a frequency. An answer that gives no
expression of that kind at all has left that question out, however close its topic:
the cross-encoder reads "roast it at 425F" as a fine answer to "how long and at what
temperature?". Request analysis lists these expectations (``analysis.expects``); fusion
caps an answer that meets one of them with nothing (``fusion.answer_type_check``).

Only question phrases whose answer has a recognisable form are read (how long / much /
many / often / far / old, what temperature, what time, at what age), and an answer
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

#: A number: digits, a fraction glyph or a number word.
_NUM = (
    r"(?:\d+(?:[.,/]\d+)?|[½¼¾⅓⅔]|\b(?:an?|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|half|quarter"
    r"|few|several|couple|dozen)\b)"
)
_TIME_UNIT = (
    r"(?:sec(?:ond)?s?|min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|nights?|weeks?|wks?|months?"
    r"|years?|yrs?|decades?)"
)
_LENGTH_UNIT = (
    r"(?:mm|cm|m|km|metres?|meters?|kilomet(?:re|er)s?|in|inch(?:es)?|ft|feet|foot|yards?"
    r"|yds?|miles?|mi|blocks?)"
)
_MEASURE = (
    r"(?:g|gr|grams?|kg|kilos?|kilograms?|mg|mcg|µg|oz|ounces?|lbs?|pounds?|ml|l|litres?"
    r"|liters?|dl|cl|cups?|tbsp|tsp|tablespoons?|teaspoons?|glass(?:es)?|bottles?|cans?"
    r"|scoops?|servings?|portions?|slices?|pieces?|pouch(?:es)?|sachets?|packets?"
    r"|handfuls?|pinch(?:es)?|drops?|doses?|tablets?|pills?|capsules?|calories|kcal|cal"
    r"|units?|iu|%|percent|per ?cent|x|times|kwh|watts?|amps?|volts?|mah|ah|gb|mb|tb"
    r"|mph|km/h|kph)"
)
#: A number in digits.
_DIGITS = r"\d+(?:[.,/]\d+)?"
_CURRENCY = r"(?:[$€£¥₹]\s?\d|\d\s?(?:[$€£¥₹]|usd|eur|gbp|dollars?|euros?|bucks|quid|k\b))"


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), re.IGNORECASE)


#: Evidence of each kind of answer, anywhere in the answer.
_EVIDENCE: dict[str, re.Pattern[str]] = {
    "duration": _rx(
        rf"\b{_TIME_UNIT}\b",
        r"\b\d+\s*(?:h|m|s|min)\b",
        r"\b(?:overnight|indefinitely|forever|until|till|as long as|a while)\b",
        rf"{_NUM}\s*(?:pages?|words?|chapters?|episodes?|seasons?|books?|volumes?|laps?"
        r"|reps?|sets?|steps?)\b",
        rf"{_DIGITS}\s*-?\s*{_LENGTH_UNIT}\b",
    ),
    "amount": _rx(
        rf"{_NUM}\s*-?\s*(?:to\s+\S+\s+)?{_MEASURE}(?![a-z])",
        rf"{_DIGITS}\s*-?\s*{_LENGTH_UNIT}\b",
        _CURRENCY,
        r"\d\s?(?-i:A|V|W)\b",
        r"\b(?:free|no charge|nothing|to taste|a (?:little|lot|bit|splash|dash|drizzle|knob"
        r"|pinch|handful)|as much as|enough|equal parts|same amount|amount|portion size"
        r"|serving size)\b",
    ),
    "count": _rx(
        r"\d",
        r"\b(?:none|no|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
        r"|dozens?|hundreds?|thousands?|several|a few|a couple|a handful|many|single|both"
        r"|pair|once|twice)\b",
    ),
    "frequency": _rx(
        r"\bevery\b",
        r"\b(?:once|twice|thrice)\b",
        rf"{_NUM}\s*(?:-|to|or)?\s*(?:\d+\s*)?(?:x|times?)\b",
        r"\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annually"
        r"|biweekly|bi-weekly|seasonally)\b",
        rf"\b(?:a|an|per|each|a single)\s+(?:{_TIME_UNIT}|morning|evening|night|time|session"
        r"|meal|season|spring|summer|autumn|fall|winter)\b",
        r"\b(?:whenever|as needed|as often as|regularly|never|always|constantly|continuously"
        r"|at least|no more than|at most|at a time|a day|a week|a month|a year)\b",
    ),
    "temperature": _rx(
        r"°",
        r"\b\d+\s*(?:degrees?|deg|f|c|fahrenheit|celsius)\b",
        r"\b(?:degrees|fahrenheit|celsius|gas mark|room temperature|lukewarm|simmer(?:ing)?"
        r"|boil(?:ing)?|(?:low|medium|moderate|high|medium[- ]high|medium[- ]low)\s+heat"
        r"|(?:hot|warm|cool|cold) (?:oven|water|room)|fridge|refrigerat\w*|freez\w*)\b",
    ),
    "distance": _rx(
        rf"{_DIGITS}\s*-?\s*{_LENGTH_UNIT}\b",
        rf"{_NUM}\s*-?\s*{_TIME_UNIT}\b",
        r"\b(?:walking distance|next door|nearby|close by|far)\b",
    ),
    "age": _rx(
        r"\d",
        r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teens?|adults?"
        r"|toddlers?|puppies|puppy|kittens?|newborns?|infants?|babies|baby|months?|years?)\b",
    ),
    "clock_time": _rx(
        r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|h)\b",
        r"\b\d{1,2}:\d\d\b",
        r"\b(?:noon|midday|midnight|o'clock|morning|afternoon|evening|night|dawn|dusk|sunrise"
        r"|sunset|bedtime|lunchtime|early|late|before|after)\b",
    ),
}

_BARE = re.compile(r"\d")

#: What each kind is, in the words of a reason.
KIND_NAMES: dict[str, str] = {
    "duration": "a duration",
    "amount": "an amount (a quantity with its unit, a price or a share)",
    "count": "a number",
    "frequency": "how often (a frequency)",
    "temperature": "a temperature or heat",
    "distance": "a distance",
    "age": "an age",
    "clock_time": "a time of day",
}

#: Question phrases with a recognisable kind of answer. "How much" about a degree ("how
#: much does it matter", "how much better") and "how long ago" are not read.
_QUESTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rx, re.IGNORECASE), kind)
    for rx, kind in (
        (r"\bhow long\b(?!\s+ago\b)", "duration"),
        # an amount of time: "how much sleep / exercise / notice"
        (
            r"\bhow much\s+(?:(?!(?:each|every|per|at|a|one)\b)\w+\s+)?(?:sleep|exercise|time"
            r"|rest|notice|practi[cs]e|study|studying|walking|play|playtime|screen time|sun"
            r"|sunlight|daylight|light|downtime"
            r"|leave|holiday|vacation|pto|overtime)\b",
            "duration",
        ),
        (
            r"\bhow much\b(?!\s+(?:of\s+(?:a|an)\b|(?:more|less|better|worse|longer|shorter"
            r"|harder|easier|faster|slower|taller|bigger|smaller|cheaper|heavier|lighter|older"
            r"|younger|higher|lower|further|farther)\b|do(?:es)?\s+(?:it|this|that)\s+"
            r"(?:matter|help|hurt|affect|change)|i\b|you\b\s+(?:love|like|care|know)))",
            "amount",
        ),
        (r"\bhow many\b", "count"),
        (r"\bhow often\b|\bhow frequently\b|\bhow regularly\b", "frequency"),
        (r"\b(?:what|which)\s+(?:temp|temperature|heat)\b|\bhow hot\b", "temperature"),
        (r"\bhow far\b(?!\s+(?:into|along|through|in|ahead|back|off)\b)", "distance"),
        (r"\bhow old\b|\b(?:what|which)\s+age\b", "age"),
        (r"\bwhat time\b", "clock_time"),
    )
)

#: What puts a question phrase in a statement, or in a question about a method ("how do I
#: check how much storage is left?" asks for the steps, not the figure).
_NOT_ASKED = re.compile(
    r"\b(?:no matter|regardless of|doesn't matter|does not matter|don't care|do not care"
    r"|not sure it matters|whatever|however|see|check|find|view|track|count|measure|monitor"
    r"|calculate|limit|reduce|control|asked|ask|asks|change|set|adjust|increase|decrease"
    r"|lower|raise|estimate|predict|shows?|displays?|tells? (?:you|us|them))\s+$",
    re.IGNORECASE,
)
#: An answer this short with a figure in it ("260", "9 inches") answers any question for one.
SHORT_ANSWER_WORDS = 5


@dataclass(frozen=True)
class Expectation:
    """A question in the request whose answer has a recognisable form."""

    phrase: str
    kind: str

    def describe(self) -> str:
        return f"'{self.phrase}' asks for {KIND_NAMES[self.kind]}"


def expected_answers(text: str) -> tuple[Expectation, ...]:
    """The kinds of answer the questions in ``text`` expect, in order, each kind once."""
    found: list[tuple[int, Expectation]] = []
    kinds: set[str] = set()
    taken: set[int] = set()
    for rx, kind in _QUESTIONS:
        for m in rx.finditer(text):
            if kind in kinds or m.start() in taken:
                continue
            if _NOT_ASKED.search(text[max(0, m.start() - 30) : m.start()]):
                continue
            kinds.add(kind)
            taken.add(m.start())
            found.append((m.start(), Expectation(phrase=m.group(0), kind=kind)))
    return tuple(e for _, e in sorted(found, key=lambda p: p[0]))


def gives(kind: str, answer: str) -> bool:
    """Whether ``answer`` has any expression of ``kind`` in it."""
    if kind != "clock_time" and len(answer.split()) <= SHORT_ANSWER_WORDS and _BARE.search(answer):
        return True
    return bool(_EVIDENCE[kind].search(answer))


def missing_answers(expects: Sequence[Expectation], answer: str) -> list[Expectation]:
    """The expectations ``answer`` gives nothing for (an empty answer misses none: other
    checks judge that)."""
    if not answer.strip():
        return []
    return [e for e in expects if not gives(e.kind, answer)]

"""An answer whose plan takes more time than the request says the asker has (pure).

"I only get about 15 minutes a day to practise", "the only time I get is about 10 min in
the car", "I can only spare 20 minutes a day": the asker's own time, a fact of the request
that a plan can break. The cross-encoder reads "Aim for about 30 minutes" as a fluent
answer about a warm-up; the figures themselves compare.

Read narrowly, since most figures of time in an answer are no time of the asker's:

* the limit is a number of minutes or hours the asker says they have: after "I/we (only)
  have/get/got", "I can (only) spare", "the only time I get is", in one sitting or per
  day, night, session (not per week), with nothing after it that makes it a thing ("20
  minutes of footage", "30 minutes left on the meter"); a deadline ("starts in 20
  minutes", "until the guests arrive") is not read: waiting counts against it, and an
  answer must be read whole to see what waits;
* the answer breaks it only where it names its plan's length outright, more than a
  quarter over (five minutes at least): "a 30-minute routine", "Aim for about 30 minutes",
  "That's an hour a day", "45 minutes in total"; not in a sentence that puts it later or
  on someone else ("build up to", "grow this into", "eventually", "your weekly lesson"),
  offers it beyond the plan ("if you have longer", "at the weekend"), or gives it another
  period ("a week").

The steps' own figures are not summed: two rounds of review found too many that are no
time spent (the bread rises, the dishwasher runs, three children tidy at once, one of
these each night, Weeks 1-2 then Weeks 3-4).

>>> over_time("The only time I get is about 10 min in the car. A vocal warm-up?",
...           "A proper warm-up matters. Aim for about 30 minutes before you go on.")
('Aim for about 30 minutes', 'The only time I get is about 10 min')
>>> over_time("I only get about 15 minutes a day to practise piano. How should I use it?",
...           "- 5 min: scales\\n- 8 min: your piece\\n- 2 min: play for fun") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_WORD_NUMBERS = {
    "a": 1.0,
    "an": 1.0,
    "one": 1.0,
    "two": 2.0,
    "three": 3.0,
    "four": 4.0,
    "five": 5.0,
    "six": 6.0,
    "seven": 7.0,
    "eight": 8.0,
    "nine": 9.0,
    "ten": 10.0,
    "fifteen": 15.0,
    "twenty": 20.0,
    "thirty": 30.0,
    "forty": 40.0,
    "forty-five": 45.0,
    "sixty": 60.0,
    "ninety": 90.0,
}
_NUMBER_WORDS = "|".join(sorted(_WORD_NUMBERS, key=len, reverse=True))
_NUM = r"(?P<n>\d+(?:\.\d+)?|half\s+an?|" + _NUMBER_WORDS + ")"
_UNIT = r"(?P<u>minutes?|mins?|hours?|hrs?)\b"
_HEDGE = (
    r"(?:(?:about|around|roughly|like|maybe|max|maximum|at\s+most|only|just|realistically)\s+)*"
)
_PERIOD = (
    r"(?P<p>\s+(?:a|per|each|every)\s+(?:day|night|evening|morning|session|weekday"
    r"|lesson|class)|\s+daily|\s+(?:on\s+)?weekdays)?"
)
#: The asker's own time, before its figure.
_LIMIT = re.compile(
    r"\b(?:(?:i|we)\s+(?:only\s+|just\s+|realistically\s+)?(?:have|get|got|'ve\s+got|’ve\s+got)"
    r"|(?:i|we)(?:'ve|’ve)\s+(?:only\s+|just\s+)?got"
    r"|(?:only|just)\s+(?:have|get|got)"
    r"|(?:i|we)\s+can\s+(?:only\s+)?spare"
    r"|the\s+only\s+time\s+(?:i|we)\s+(?:get|have)\s+is)\s+"
    + _HEDGE
    + _NUM
    + r"\s*-?\s*"
    + _UNIT
    + _PERIOD,
    re.IGNORECASE,
)
#: After the figure, what makes it a thing, a weekly total or a deadline rather than the
#: asker's time to spend: "20 minutes of footage", "2 hours a week", "an hour until ...".
_A_THING = re.compile(
    r"\s*(?:of|worth|left|remaining|long|old|away|ago|late|until|till|before|to\s+go"
    r"|each\s+way|per\s+trip|twice"
    r"|(?:a|per|each|every)\s+week|weekly)\b",
    re.IGNORECASE,
)
#: A length: "30 minutes", "an hour", "half an hour", "1.5 hours" (and "30-minute").
_LENGTH = r"(?:\d+\s*(?:minutes|mins)|(?:\d+(?:\.\d+)?|an|one|two)\s+hours?|half\s+an\s+hour)"
_LENGTH_PARTS = re.compile(
    r"\b(?P<n>\d+(?:\.\d+)?|an|one|two|half\s+an)[\s-]*(?P<u>minutes?|mins|hours?)\b",
    re.IGNORECASE,
)
#: A plan of a stated length: "a 30-minute routine", "Aim for about 30 minutes", "That's
#: an hour a day", "45 minutes in total".
_PLAN_LENGTH = re.compile(
    r"\b\d+-minute\s+(?:daily\s+)?(?:routine|session|workout|warm-?up|practice)\b"
    r"|\baim\s+for\s+" + _HEDGE + _LENGTH + r"\b"
    r"|\b(?:that's|that\s+is|that\s+comes\s+to|that\s+adds\s+up\s+to|which\s+comes\s+to)\s+"
    + _HEDGE
    + _LENGTH
    + r"\b"
    r"|\b\d+\s*(?:minutes|mins)\s+(?:in\s+total|in\s+all|all\s+in|total)\b",
    re.IGNORECASE,
)
#: A sentence that puts a longer plan later, on someone else, beyond the plan or in
#: another period.
_LATER = re.compile(
    r"\b(?:build|building|work|working|grow|growing)\s+(?:(?:it|this|that)\s+)?(?:up|into)\b"
    r"|\b(?:eventually|later|weekly|lesson|class|teacher|weekends?|saturday|sunday|longer"
    r"|optional|bonus)\b|\bonce\s+a\s+week\b|\b(?:a|per|each)\s+week\b"
    r"|\bif\s+you\s+(?:have|get|can|ever|want)\b",
    re.IGNORECASE,
)
#: How much over the limit a plan may run before it counts: "about 20 minutes" allows 25;
#: and at least this many minutes over.
SLACK = 1.25
MIN_OVER = 5.0


@dataclass(frozen=True)
class TimeLimit:
    """The request's limit: minutes, whether it recurs (a day, a session), its words."""

    minutes: float
    recurring: bool
    phrase: str


def _minutes(n: str, unit: str) -> float:
    n = n.lower()
    value = 0.5 if n.startswith("half") else _WORD_NUMBERS.get(n)
    if value is None:
        value = float(n)
    return value * (60.0 if unit.lower().startswith("h") else 1.0)


@lru_cache(maxsize=1024)
def time_limit(query: str) -> TimeLimit | None:
    """The least time the request says the asker has, or ``None``."""
    found: list[TimeLimit] = []
    for m in _LIMIT.finditer(query):
        if _A_THING.match(query, m.end()):
            continue  # "I have 20 minutes of footage"
        minutes = _minutes(m.group("n"), m.group("u"))
        if minutes <= 0:
            continue
        found.append(TimeLimit(minutes, bool(m.group("p")), m.group(0).strip()))
    return min(found, key=lambda t: t.minutes) if found else None


#: A deadline after the asker's time: "about 3 hours before friends arrive", "until the
#: guests come" (not read as a time to spend, but a night is past it all the same).
_DEADLINE = re.compile(r"\s*(?:before|until|till)\b", re.IGNORECASE)


def _sitting(query: str) -> TimeLimit | None:
    """The asker's one sitting of time: a limit that does not recur, or the time left
    before a deadline ("I've got about 3 hours before friends arrive")."""
    limit = time_limit(query)
    if limit is not None and not limit.recurring:
        return limit
    for m in _LIMIT.finditer(query):
        if _DEADLINE.match(query, m.end()) and not m.group("p"):
            return TimeLimit(_minutes(m.group("n"), m.group("u")), False, m.group(0).strip())
    return None


def _plan_length(answer: str) -> tuple[float, str] | None:
    """The longest plan the answer names outright, in a sentence that keeps it now."""
    best: tuple[float, str] | None = None
    for sentence in re.split(r"(?<=[.!?])\s+|\n", answer):
        if _LATER.search(sentence):
            continue
        for m in _PLAN_LENGTH.finditer(sentence):
            parts = _LENGTH_PARTS.search(m.group(0))  # each alternative holds one
            if parts is None:
                continue
            minutes = _minutes(parts.group("n"), parts.group("u"))
            if best is None or minutes > best[0]:
                best = (minutes, m.group(0).strip())
    return best


#: A step left overnight, in a plan for one sitting of some hours: "refrigerate the shaped
#: bagels overnight" for "I only have about 2 hours from start to eating" (not "20 minutes
#: or overnight", "the night before", "next time", "in advance": a choice or a time apart).
_OVERNIGHT = re.compile(
    r"(?<!\bor\s)\b(?:overnight|until\s+the\s+next\s+(?:morning|day)|till\s+the\s+morning)\b",
    re.IGNORECASE,
)
_APART = re.compile(
    r"\b(?:night|day|evening)\s+before\b|\bnext\s+time\b|\bin\s+advance\b|\bahead\b"
    r"|\bif\b|\bcould\b|\bwould\b|\botherwise\b|\bskip\b|\bno\b|\bwithout\b"
    r"|\binstead\s+of\b|\brather\s+than\b|n't\b|\bnot\b",
    re.IGNORECASE,
)
#: The most minutes of a sitting that a step left overnight breaks.
SITTING = 600.0


def _overnight(answer: str) -> str | None:
    """The first sentence that leaves a step overnight now, none of it apart."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n", answer):
        m = _OVERNIGHT.search(sentence)
        if m and not _LATER.search(sentence) and not _APART.search(sentence):
            start = sentence.rfind(" ", 0, max(0, m.start() - 40)) + 1
            return sentence[start : m.end()].strip()
    return None


def over_time(query: str, answer: str) -> tuple[str, str] | None:
    """(what the answer plans, the request's limit) when the plan runs over, else ``None``."""
    low = answer.lower()
    sitting = (
        _sitting(query) if "overnight" in low or "morning" in low or "next day" in low else None
    )
    if sitting is not None and sitting.minutes <= SITTING and (night := _overnight(answer)):
        return night, sitting.phrase
    limit = time_limit(query)
    if limit is None:
        return None
    allowed = max(limit.minutes * SLACK, limit.minutes + MIN_OVER)
    named = _plan_length(answer)
    if named is not None and named[0] > allowed:
        return named[1], limit.phrase
    return None

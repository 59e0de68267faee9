"""An answer that plans more time than the request says there is (pure).

"I only get about 15 minutes a day to practise", "the only time I get is about 10 min in
the car", "my session starts in like 20 minutes", "we have 90 minutes": the asker's own
time, a fact of the request that a plan can break in figures. The cross-encoder reads a
45-minute routine as a fluent answer about practice; the minutes themselves add up.

Read narrowly:

* the limit is a number of minutes or hours said of the asker's time: after "I/we (only)
  have/get/got", "the only time I get is", "starts in", "no more than", with nothing
  after it that makes it a thing ("20 minutes of footage", "30 minutes left on the
  meter");
* the answer's plan breaks it when its own steps add up to more than the limit allows
  ("Body (5 min)", "- 10 min: scales", one figure per step line, summed), when it names a
  routine, session or warm-up of more minutes ("a 30-minute routine", "Aim for about 30
  minutes"), or, against a one-off limit of minutes ("starts in 20 minutes"), when it lays
  the work out over days ("Day 1 ... Day 6");
* what the answer offers beyond the plan is not counted: a step marked optional, extra or
  for when there is more time, an option among others, a figure of another period ("two
  hours at the weekend" against "20 minutes a day" is read only when the limit has no
  period of its own).

>>> over_time("I only get about 15 minutes a day to practise piano. How should I use it?",
...           "- 10 min: scales\\n- 20 min: your piece\\n- 10 min: sight-reading")
('steps adding up to 40 minutes', 'I only get about 15 minutes a day')
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
    r"(?P<p>\s+(?:a|per|each|every)\s+(?:day|night|evening|morning|session|week|weekday"
    r"|lesson|class)|\s+daily|\s+(?:on\s+)?weekdays)?"
)
#: The asker's own time, before its figure.
_LIMIT = re.compile(
    r"\b(?:(?:i|we)\s+(?:only\s+|just\s+|realistically\s+)?(?:have|get|got|'ve\s+got|’ve\s+got)"
    r"|(?:i|we)(?:'ve|’ve)\s+(?:only\s+|just\s+)?got"
    r"|(?:only|just)\s+(?:have|get|got)"
    r"|the\s+only\s+time\s+(?:i|we)\s+(?:get|have)\s+is"
    r"|(?:starts?|begins?|kicks?\s+off)\s+in"
    r"|no\s+more\s+than|at\s+most)\s+" + _HEDGE + _NUM + r"\s*-?\s*" + _UNIT + _PERIOD,
    re.IGNORECASE,
)
#: After the figure, what makes it a thing rather than the asker's time.
_A_THING = re.compile(r"\s*(?:of|worth|left|remaining|long|old|away|ago|late)\b", re.IGNORECASE)
#: A figure of time in an answer: "5 min", "(10 minutes)", "10-15 min" (its lower end).
_DURATION = re.compile(
    r"\b(?P<n>\d+(?:\.\d+)?)(?:\s*[-–]\s*\d+(?:\.\d+)?)?\s*(?P<u>minutes?|mins?|hours?|hrs?)\b",
    re.IGNORECASE,
)
#: A step line: a list item, a numbered or bold heading, or "10 min:" opening a line.
_STEP_LINE = re.compile(r"^\s*(?:[-*•]|\d+[.)]|\*\*|#+|\d+\s*(?:min|mins|minutes)\b)")
#: A step that is no part of the plan proper, or one option among others.
_BEYOND = re.compile(
    r"^\W*(?:option|alternatively|or)\b|\b(?:optional|bonus|spare|longer|more\s+time"
    r"|if\s+you\s+(?:have|get)|weekends?)\b",
    re.IGNORECASE,
)
#: A line that states the whole plan's length or a stretch of weeks, no step of it:
#: "**A 20-minute daily routine**", "**Daily 20 minutes**", "- **Week 5:** use the
#: 8-minute block ...".
_WHOLE = re.compile(
    r"\b(?:daily|a\s+day|per\s+day|each\s+day|every\s+day|total|in\s+all|routine|plan)\b"
    r"|^\W*(?:weeks?|days?|months?)\s+\d",
    re.IGNORECASE,
)
#: A plan of a stated length: "a 30-minute routine", "Aim for about 30 minutes".
_PLAN_NOUNS = r"(?:routine|session|warm-?up|workout|practice|practise|plan|block|lesson)"
_PLAN_LENGTH = re.compile(
    r"\b(?P<n>\d+)\s*-?\s*(?P<u>minutes?|mins?|hours?)\s+(?:\w+\s+)?" + _PLAN_NOUNS + r"\b"
    r"|\b(?:aim\s+for|spend|set\s+aside|budget|block\s+out|allow)\s+"
    + _HEDGE
    + r"(?P<n2>\d+)\s*(?P<u2>minutes?|mins?|hours?)\b",
    re.IGNORECASE,
)
_DAY_HEADING = re.compile(r"^\W*day\s+(\d+)\b", re.IGNORECASE | re.MULTILINE)
#: How much over the limit a plan may run before it counts: "about 20 minutes" allows 25.
SLACK = 1.25


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
    return value * (60.0 if unit.lower().startswith(("h",)) else 1.0)


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


def _steps_total(answer: str) -> float:
    """The minutes of the answer's step lines, one figure per line, summed."""
    total = 0.0
    for line in answer.splitlines():
        if not _STEP_LINE.match(line) or _BEYOND.search(line) or _WHOLE.search(line):
            continue
        m = _DURATION.search(line[:80])
        if m is not None:
            total += _minutes(m.group("n"), m.group("u"))
    return total


def _plan_length(answer: str) -> tuple[float, str] | None:
    """The longest plan the answer names outright, in a sentence that offers no more."""
    best: tuple[float, str] | None = None
    for sentence in re.split(r"(?<=[.!?])\s+|\n", answer):
        if _BEYOND.search(sentence):
            continue
        for m in _PLAN_LENGTH.finditer(sentence):
            n, u = (m.group("n"), m.group("u")) if m.group("n") else (m.group("n2"), m.group("u2"))
            minutes = _minutes(n, u)
            if best is None or minutes > best[0]:
                best = (minutes, m.group(0).strip())
    return best


def over_time(query: str, answer: str, limit: TimeLimit | None = None) -> tuple[str, str] | None:
    """(what the answer plans, the request's limit) when the plan runs over, else ``None``."""
    limit = limit if limit is not None else time_limit(query)
    if limit is None:
        return None
    allowed = limit.minutes * SLACK
    total = _steps_total(answer)
    if total > allowed:
        return f"steps adding up to {total:g} minutes", limit.phrase
    named = _plan_length(answer)
    if named is not None and named[0] > allowed:
        return named[1], limit.phrase
    days = {int(d) for d in _DAY_HEADING.findall(answer)}
    if not limit.recurring and limit.minutes < 24 * 60 and len(days) >= 2:
        return f"a plan over {max(days)} days", limit.phrase
    return None

"""An answer whose steps take more time than the request says the asker has (pure).

"I only get about 15 minutes a day to practise", "the only time I get is about 10 min in
the car", "I've got about 20 minutes a day on weekdays": the asker's own time, a fact of
the request that a plan can break in figures. The cross-encoder reads a 45-minute routine
as a fluent answer about practice; the minutes themselves add up.

Read narrowly, since many figures of time in an answer are no time of the asker's:

* the limit is a number of minutes or hours the asker says they have: after "I/we (only)
  have/get/got", "I can (only) spare", "the only time I get is", in one sitting or per
  day, night, session (not per week), with nothing after it that makes it a thing ("20
  minutes of footage", "30 minutes left on the meter"); a deadline ("starts in 20
  minutes", "ready in 30 minutes") is not read: waiting counts against it and an answer
  must be read whole to see what waits;
* the answer breaks it when its own timed steps add up to more than a quarter over it
  (and five minutes at least): a step is a top-level list line or a bold heading line whose
  time is its label ("- 10 min: scales", "**1. Body (5 min)**", "- Warm-up (10 min):"),
  one figure per step; a step that waits or runs by itself (rest, rise, bake, marinate,
  cure, charge, render, overnight, meanwhile ...), is optional, for more time, for the
  weekend or another day, is not counted; nor does a heading over timed steps count, and
  an answer that offers a choice ("pick one", "one of these") is not summed;
* or when it names a routine of more minutes outright ("a 30-minute routine", "Aim for
  about 30 minutes"), in a sentence that does not put it later ("build up to", "grow
  into", "eventually") or make it someone else's ("your weekly lesson").

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
    r"|(?:a|per|each|every)\s+week|weekly)\b",
    re.IGNORECASE,
)
#: A step line's label: a marker, a few words at most, then its time as the label: "- 10
#: min: scales", "**1. Body (5 min)**", "- Warm-up (10 min):", "**2 min – warm up:**".
_MARKER = r"^(?P<indent>[ \t]*)(?:[-*•]\s*|\d+[.)]\s*)?(?:\*\*\s*)?(?:\d+[.)]\s*)?"
_STEP = re.compile(
    _MARKER + r"(?:(?P<n>\d+)\s*(?P<u>min|mins|minutes)\b\s*(?:[:–—-]|\*\*)"
    r"|[A-Za-z][\w'’/&,-]*(?:\s+[\w'’/&,-]+){0,5}\s*\((?:about\s+|~)?(?P<n2>\d+)\s*"
    r"(?P<u2>min|mins|minutes)\)"
    r"|[A-Za-z][\w'’/&,-]*(?:\s+[\w'’/&,-]+){0,5}\s*[:–—-]\s*(?P<n3>\d+)\s*(?P<u3>min|mins|minutes)\b)",
    re.IGNORECASE,
)
#: A step no part of the time spent: one that waits or runs by itself, another day's, or
#: one offered beyond the plan.
_NOT_SPENT = re.compile(
    r"\b(?:optional|bonus|spare|longer|more\s+time|if\s+you\s+(?:have|get)|weekends?"
    r"|rest|resting|rise|rising|prove|proof|proofing|bake|baking|roast|simmer|slow|oven"
    r"|marinate|marinating|soak|soaking|chill|chilling|cure|curing|dry|drying|set|setting"
    r"|charge|charging|render|rendering|restore|download|sleep|overnight|meanwhile|while"
    r"|itself|themselves|commute|drive|driving|flight|train|film|movie|lesson|class"
    r"|already|tomorrow|sunday|saturday|monday|tuesday|wednesday|thursday|friday"
    r"|(?:day|evening|night|session|week)\s+\d|option|alternatively|daily|total|in\s+all"
    r"|(?:a|per)\s+day|days?|keep\s+(?:it|doing)|as\s+it\s+is|as\s+usual)\b",
    re.IGNORECASE,
)
#: An answer that offers a choice of steps, not a plan to do them all.
_CHOICE = re.compile(
    r"\b(?:pick|choose|select)\s+(?:any\s+)?(?:one|two)\b|\bone\s+of\s+(?:these|the\s+following)"
    r"|\bany\s+of\s+these\b|\beither\s+of\b|\bmix\s+and\s+match\b|\brotate\b|\bwhichever\b",
    re.IGNORECASE,
)
#: A plan of a stated length: "a 30-minute routine", "Aim for about 30 minutes".
_PLAN_LENGTH = re.compile(
    r"\b(?P<n>\d+)-minute\s+(?:daily\s+)?(?:routine|session|workout|warm-?up|practice)\b"
    r"|\baim\s+for\s+" + _HEDGE + r"(?P<n2>\d+)\s*(?:minutes|mins)\b",
    re.IGNORECASE,
)
#: A sentence that puts a longer plan later or makes it someone else's.
_LATER = re.compile(
    r"\b(?:build|building|work|working|grow|growing)\s+(?:(?:it|this|that)\s+)?(?:up|into)\b|\beventually\b"
    r"|\blater\b|\bweekly\b|\blesson\b|\bclass\b|\bteacher\b|\bweekends?\b|\bonce\s+a\s+week\b",
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
    """The minutes of the answer's timed steps, summed (see the module's docstring)."""
    if _CHOICE.search(answer):
        return 0.0
    lines = answer.splitlines()
    steps: list[tuple[int, float, int]] = []  # (line number, minutes, indent)
    for no, line in enumerate(lines):
        m = _STEP.match(line)
        if m is None or _NOT_SPENT.search(line):
            continue
        n = m.group("n") or m.group("n2") or m.group("n3")
        u = m.group("u") or m.group("u2") or m.group("u3")
        steps.append((no, _minutes(n, u), len(m.group("indent").expandtabs(4))))
    if not steps:
        return 0.0
    top = min(indent for _, _, indent in steps)
    numbers = {no for no, _, _ in steps}
    total = 0.0
    for no, minutes, indent in steps:
        if indent > top:
            continue  # a sub-step repeats its parent's time
        nxt = next((k for k in range(no + 1, len(lines)) if lines[k].strip()), None)
        heading = not _LIST_ITEM.match(lines[no])
        if nxt in numbers and (heading or _indent(lines[nxt]) > indent):
            continue  # a heading over timed steps: "**Daily (20 min)**", "- Morning (20 min)"
        total += minutes
    return total


_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _plan_length(answer: str) -> tuple[float, str] | None:
    """The longest routine the answer names outright, in a sentence that keeps it now."""
    best: tuple[float, str] | None = None
    for sentence in re.split(r"(?<=[.!?])\s+|\n", answer):
        if _LATER.search(sentence) or _NOT_SPENT.search(sentence):
            continue
        for m in _PLAN_LENGTH.finditer(sentence):
            minutes = float(m.group("n") or m.group("n2"))
            if best is None or minutes > best[0]:
                best = (minutes, m.group(0).strip())
    return best


def over_time(query: str, answer: str, limit: TimeLimit | None = None) -> tuple[str, str] | None:
    """(what the answer plans, the request's limit) when the plan runs over, else ``None``."""
    limit = limit if limit is not None else time_limit(query)
    if limit is None:
        return None
    allowed = max(limit.minutes * SLACK, limit.minutes + MIN_OVER)
    total = _steps_total(answer)
    if total > allowed:
        return f"steps adding up to {total:g} minutes", limit.phrase
    named = _plan_length(answer)
    if named is not None and named[0] > allowed:
        return named[1], limit.phrase
    return None

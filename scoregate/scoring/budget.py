"""An answer that spends more than the budget the request states (pure).

"My budget is $250, max", "hard limit of $10/month", "£40 a session, absolute max", "budget
is roughly $600-800": the asker's own ceiling, a fact of the request that an answer can
break in figures. The cross-encoder reads "the Roborock S8 ($499) is worth every penny"
as a fluent answer about robot vacuums; the figures themselves are checkable.

Read narrowly:

* the ceiling is an amount in a currency sign ($, £, €) next to words that make it one
  (budget, limit, max, tops, no more than, up to, can only afford); a range's upper end
  ("$600-800": 800); its period when it names one ("$10/month", "£40 a session");
* an answer's amount counts when it is in the same currency, above the ceiling, and not
  of another period ("$40 per year" against "$10/month"; a monthly fee against a total);
  a range counts by its lower end;
* an amount the answer itself marks as over the budget, as a reference or as a bound
  ("over your budget", "list $199", "instead of $900", "save $200", "the total stays under
  $30"), one it offers as a stretch ("if you can stretch to $2,000"), and a figure the
  request gives itself are no suggestion to spend it;
* the budget is the asker's: figures in text the request quotes to be worked on are not
  read, and a share ("£18/head", "£15 each") is not compared with a total.

>>> over_budget("Robot vacuum for hard floors? My budget is $250, max.",
...             "Get the Roborock Q5 ($299): it maps well and handles rugs.")
('$299', 'budget is $250')
>>> over_budget("Robot vacuum for hard floors? My budget is $250, max.",
...             "The Eufy 11S ($199) is quiet and under your limit.") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
#: An amount: "$250", "£ 4,000", "€1.5k", with a range's upper end ("$600–800", "$600 to
#: $800") and a period ("$10/month", "£40 a session", "$15 per person").
_AMOUNT = (
    rf"(?P<cur>[$£€])\s?(?P<num>{_NUMBER})(?P<k>\s?k\b)?"
    rf"(?:\s?(?:–|—|-|to)\s?(?:[$£€]\s?)?(?P<hi>{_NUMBER})(?P<hik>\s?k\b)?)?"
    r"(?:\s?(?:/|per\s|an?\s|each\s)\s?(?P<per>month|mo|week|wk|year|yr|night|session"
    r"|day|person|head|hour|hr|lesson|class|item|each)s?\b|\s(?P<each>each)\b)?"
)
#: Periods that are a share of a total: "£18/head" is no ceiling on a bill for 40 heads.
_SHARES = frozenset({"person", "head", "item", "each"})
#: Text the request quotes to be worked on ("summarise this: '...'"): its figures are not
#: the asker's budget.
_QUOTED = re.compile(r"[\"“][^\"”]{60,}[\"”]|^>.*$", re.MULTILINE)
_AMOUNT_RE = re.compile(_AMOUNT, re.IGNORECASE)
#: Words that make an amount of the request a ceiling: before it ("budget is about",
#: "no more than", "can only afford") or after it ("tops", "absolute max", "or less").
_BEFORE = (
    r"\b(?:budget|spend|spending|limit|cap|ceiling)\b(?:\s+(?:is|of|at|around|about|roughly"
    r"|approx(?:imately)?|under|max(?:imum)?|up\s+to|total|only|just))*\s*[:=–—-]?\s*"
    r"|\b(?:no\s+more\s+than|not\s+more\s+than|up\s+to|under|below|less\s+than|max(?:imum)?"
    r"(?:\s+of)?|at\s+most|(?:can|could)\s+only\s+(?:afford|spend|pay)|afford)\s+(?:about\s+)?"
)
_AFTER = (
    r"[^.?!\n]{0,25}?\b(?:max(?:imum)?|tops|at\s+(?:the\s+)?most|or\s+less|limit|budget"
    r"|no\s+more)\b"
)
_BARE_AMOUNT = re.sub(r"\(\?P<\w+>", "(?:", _AMOUNT)  # the same, without its groups
_CEILING_RE = re.compile(
    rf"(?:{_BEFORE})(?P<a>{_BARE_AMOUNT})|(?P<b>{_BARE_AMOUNT}){_AFTER}", re.IGNORECASE
)
#: What an answer says of an amount that makes it no suggestion to spend it.
_REFERENCE_BEFORE = re.compile(
    r"\b(?:list|rrp|msrp|retail|originally|normally|usually|was|full\s+price|save|saves|saving"
    r"|savings\s+of|instead\s+of|rather\s+than|compared\s+(?:to|with)|vs\.?|versus|down\s+from"
    r"|reduced\s+from|avoid|skip"
    # a bound the answer states, not a price: "brings the total under £30"
    r"|under|below|less\s+than|within|up\s+to|no\s+more\s+than)\s+(?:(?:of|at|about|around|a|the)\s+)?$",
    re.IGNORECASE,
)
_OVER_MARKED = re.compile(
    r"\b(?:over|above|beyond|outside|exceeds?|exceeding|past|out\s+of|more\s+than|blows?)"
    r"\s+(?:your|the|that|this)?\s*(?:budget|range|limit|price\s+range|ceiling|cap)\b"
    r"|\bout\s+of\s+(?:your\s+)?(?:budget|range|reach)\b|\btoo\s+(?:expensive|pricey|much)\b"
    # a stretch the answer offers as one: "if you can stretch to $2,000"
    r"|\bstretch\b|\bif\s+you\s+(?:can|could)\s+(?:afford|spend|go\s+up)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|\n|$)")


@dataclass(frozen=True)
class Ceiling:
    """The request's budget: currency sign, upper value, period (or None), its words."""

    currency: str
    value: float
    period: str | None
    phrase: str


def _value(num: str, k: str | None) -> float:
    value = float(num.replace(",", ""))
    return value * 1000 if k else value


def _period(raw: str | None) -> str | None:
    if raw is None:
        return None
    raw = raw.lower()
    return {"mo": "month", "wk": "week", "yr": "year", "hr": "hour"}.get(raw, raw)


@lru_cache(maxsize=256)
def ceiling(query: str) -> Ceiling | None:
    """The budget ``query`` states, if it states one (the first)."""
    for m in _CEILING_RE.finditer(_QUOTED.sub(" ", query)):
        amount = _AMOUNT_RE.match(m.group("a") or m.group("b"))
        if amount is None:  # pragma: no cover - the group is an amount by construction
            continue
        hi = amount.group("hi")
        value = _value(hi, amount.group("hik") or amount.group("k")) if hi else None
        low = _value(amount.group("num"), amount.group("k"))
        if value is None or value < low:
            value = low  # "$600-800" is 800; "$800-1" is no range
        period = _period(amount.group("per") or amount.group("each"))
        return Ceiling(amount.group("cur"), value, period, m.group(0).strip(" ,"))
    return None


def over_budget(query: str, answer: str, cap: Ceiling | None = None) -> tuple[str, str] | None:
    """The first amount of ``answer`` above the budget ``query`` states (``cap``, when
    already read), with the request's words for the budget; ``None`` when there is no
    budget or nothing over it."""
    cap = cap or ceiling(query)
    if cap is None:
        return None
    # figures the request gives itself ("the invoice is £28,500") are restated, not spent
    given = {_value(m.group("num"), m.group("k")) for m in _AMOUNT_RE.finditer(query)}
    for sentence in _SENTENCE.findall(answer):
        if _OVER_MARKED.search(sentence):
            continue  # "the $900 model is over your budget"
        for m in _AMOUNT_RE.finditer(sentence):
            if m.group("cur") != cap.currency:
                continue
            period = _period(m.group("per") or m.group("each"))
            if period != cap.period and (
                period is not None or cap.period is None or cap.period in _SHARES
            ):
                continue  # "$40 per year" against "$10/month"; a fee against a total
            if _REFERENCE_BEFORE.search(sentence[: m.start()]):
                continue
            value = _value(m.group("num"), m.group("k"))
            if value > cap.value * 1.005 and value not in given:
                return m.group(0).strip(), cap.phrase
    return None

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
#: Currencies written as words after the number: "150 dollars", "40 quid", "500 euros".
_WORDS = {
    "dollar": "$",
    "dollars": "$",
    "bucks": "$",
    "usd": "$",
    "pound": "£",
    "pounds": "£",
    "quid": "£",
    "gbp": "£",
    "euro": "€",
    "euros": "€",
    "eur": "€",
}
_PERIODS = (
    r"month|mo|week|wk|year|yr|night|session|day|person|head|hour|hr|lesson|class|item|each"
    r"|serving|portion|meal|ticket|visit|guest"
)
#: An amount: "$250", "£ 4,000", "€1.5k", "40 quid", with a range's upper end ("$600–800",
#: "$600 to $800") and a period ("$10/month", "£40 a session", "$150-a-session").
_AMOUNT = (
    rf"(?:(?P<cur>[$£€])\s?(?P<num>{_NUMBER})(?P<k>\s?k\b)?"
    rf"(?:\s?(?:–|—|-|to)\s?(?:[$£€]\s?)?(?P<hi>{_NUMBER})(?P<hik>\s?k\b)?)?"
    rf"|(?<![\w.,])(?P<num2>{_NUMBER})(?P<k2>\s?k)?\s?(?P<word>{'|'.join(_WORDS)})\b)"
    rf"(?:\s?(?:/|-?per[\s-]|-?an?[\s-]|each\s)\s?(?P<per>{_PERIODS})s?\b|\s(?P<each>each)\b)?"
)
_AMOUNT_RE = re.compile(_AMOUNT, re.IGNORECASE)
#: Periods that are a share of a total: "£18/head" is no ceiling on a bill for 40 heads.
_SHARES = frozenset({"person", "head", "item", "each", "serving", "portion", "meal", "guest"})
#: Periods of time, in months, to compare "$99 a year" with "under $5 a month".
_MONTHS = {"day": 1 / 30, "week": 12 / 52, "month": 1.0, "year": 12.0}
#: A share named after the ceiling: "$300 max each", "£50 per person max".
_SHARE_AFTER = re.compile(r"[^.?!\n]{0,12}?\b(?:each|apiece|per\s+(?:person|head)|a\s+head)\b")
#: Text the request quotes to be worked on ("summarise this: '...'"): its figures are not
#: the asker's budget.
_QUOTED = re.compile(r"[\"“][^\"”]{60,}[\"”]|^>.*$", re.MULTILINE)
#: Words that make an amount of the request a ceiling: before it ("budget is about",
#: "no more than", "can't go over", "our cap for venue and catering is") or after it
#: ("tops", "absolute max", "that's my hard limit").
_BEFORE = (
    r"\b(?:budget|limit|cap|ceiling)\b[^.?!\n$£€\d]{0,40}?\b(?:is|of|at|=|under|around|about"
    r"|roughly|max(?:imum)?|total)\s*[:=–—-]?\s*(?:about\s+|around\s+|roughly\s+|only\s+|just\s+)?"
    r"|\b(?:budget|spend|spending|limit|cap|ceiling)\b\s*[:=–—-]?\s*"
    r"|\b(?:spend|pay|go|be)\s+(?:any\s+)?(?:more\s+than|over|above|beyond)\s+"
    r"|\b(?:no\s+more\s+than|not\s+more\s+than|up\s+to|under|below|less\s+than|max(?:imum)?"
    r"(?:\s+of)?|at\s+most|(?:can|could)\s+only\s+(?:afford|spend|pay|do)|afford)\s+"
    r"(?:about\s+|around\s+|roughly\s+)?"
    # "keep it to £40 a head", "my maximum is $25,000", "I've got 900 bucks for it"
    # ("Around €40 for my nephew's present", opening the request or a sentence)
    r"|(?:^|(?<=[.!?]\s))(?:around|about|roughly)\s+(?=[$£€]\s?\d[\d,.]*k?\s+for\b)"
    r"|\b(?:keep\s+it\s+(?:to|under|below|around|about)|(?:my|our)\s+(?:maximum|max)\s+is)\s+"
    r"(?:about\s+|around\s+)?"
    r"|\b(?:(?:i'?ve|we'?ve)\s+got|(?:i|we)\s+(?:only\s+)?have)\s+(?:about\s+|around\s+|like\s+)?"
    # ("I've got about £200 for a running watch")
    r"(?=[^.?!\n]{0,40}\b(?:for\s+(?:it|this|the|that|a|an|my|our)|to\s+spend|set\s+aside|that'?s\s+it"
    r"|total|firm|max)\b)"
)
_AFTER = (
    # (not past a question of the total: "If the hammer is £500, what will I pay all in?",
    # but "£2,000 is what I can spend, tops" is one)
    r"(?:(?!,\s*(?:what|how\s+much)\s+(?:will|would|do|does|did|is|am|are|should|can)"
    r"\s+(?:i|we|it|that)\b)[^.?!\n]){0,40}?\b(?:max(?:imum)?|tops|at\s+(?:the\s+)?most|or\s+less|limit|budget"
    r"|no\s+more|ceiling|set\s+aside|is\s+the\s+most|all\s+in|out\s+the\s+door)\b"
)
#: A budget given without a currency sign: "300 max", "my ceiling is 3k", "budget's around
#: 1.5k", "a grand"; compared with an answer's amounts in any currency.
_PLAIN_CEILING = re.compile(
    r"\b(?:budget(?:'s|\s+is)?|ceiling\s+is|limit\s+is|max(?:imum)?(?:\s+is)?|spend|afford)\s+"
    r"(?:of\s+)?(?:about\s+|around\s+|roughly\s+)?"
    r"(?:(?P<n>\d[\d,]*(?:\.\d+)?)\s?(?P<k>k\b|grand\b)?|(?P<grand>a\s+grand))"
    r"|(?P<n2>\d[\d,]*(?:\.\d+)?)\s?(?P<k2>k\b)?\s+(?:max(?:imum)?|tops)\b",
    re.IGNORECASE,
)
#: What may follow a bare number that is an amount of money: the clause's end, or words of
#: a budget ("300 max", "3k for the bike", "a grand, give or take"); anything else ("3
#: sentences", "95 kg") makes it no amount.
_MONEY_NEXT = re.compile(
    r"\s*(?:[.,;!?)]|$|\b(?:for|total|each|per|a\s+(?:month|week|year|night|head)|including"
    r"|incl|all\s+in|or\s+so|ish|give\s+or\s+take|max|tops|and|but|that'?s|firm|ideally)\b)",
    re.IGNORECASE,
)
_BARE_AMOUNT = re.sub(r"\(\?P<\w+>", "(?:", _AMOUNT)  # the same, without its groups
_CEILING_RE = re.compile(
    rf"(?:{_BEFORE})(?P<a>{_BARE_AMOUNT})|(?P<b>{_BARE_AMOUNT}){_AFTER}", re.IGNORECASE
)
#: A budget stated loosely: an answer may offer a stretch past it.
_SOFT = re.compile(
    r"\b(?:around|about|roughly|approx\w*|ish|flexible|ideally|give\s+or\s+take)\b", re.I
)
#: What an answer says of an amount that makes it no suggestion to spend it.
_REFERENCE_BEFORE = re.compile(
    r"\b(?:list|lists\s+(?:at|for)|rrp|msrp|retail|originally|normally|usually|was|full\s+price"
    r"|save|saves|saving|savings\s+of|instead\s+of|rather\s+than|compared\s+(?:to|with)|vs\.?"
    r"|versus|down\s+from|reduced\s+from"
    # a bound the answer states, not a price: "brings the total under £30"
    r"|under|below|less\s+than|within|up\s+to|no\s+more\s+than)\s+"
    r"(?:(?:of|at|about|around|a|the)\s+)?$",
    re.IGNORECASE,
)
#: What after an amount makes it no price to pay: "€149.99 list", "a $500 deductible".
_REFERENCE_AFTER = re.compile(
    r"\+?\s*(?:list|rrp|msrp|retail|full\s+price|deductible|excess|deposit|fine|penalty|salary"
    r"|income|refund|cashback|off\b|discount)",
    re.IGNORECASE,
)
_OVER_MARKED = re.compile(
    r"\b(?:over|above|beyond|outside|exceeds?|exceeding|past|out\s+of|more\s+than|blows?"
    r"|not\s+(?:for|within|in))\s+(?:your|the|that|this)?\s*(?:budget|range|limit"
    r"|price\s+range|ceiling|cap|[$£€]\s?\d)"
    r"|\bout\s+of\s+(?:your\s+)?(?:budget|range|reach)\b|\btoo\s+(?:expensive|pricey|much)\b"
    r"|\boutside\s+(?:what\s+you|your)\b"
    # the answer says how far over the budget it is, or steers away
    r"|\b(?:double|twice|triple)\s+your\s+(?:limit|budget)\b"
    r"|\bmore\s+than\s+you\s+need\b|\b(?:neither|none)\s+(?:of\s+them\s+)?fits?\b"
    r"|\b(?:that's|that\s+is|it's|which\s+is|they're)\s+(?:out|off\s+the\s+table|not\s+an\s+option)\b"
    r"|\b(?:ignore|rule\s+out)\s+(?:it|that|this|them|those)\b",
    re.IGNORECASE,
)
#: Words that steer away from what follows them: "skip the $300 ones" (the amount is not
#: offered), unless the sentence turns to what to get: "Skip the budget brands and get a
#: premium gi at $180" offers the $180.
_STEER = re.compile(r"\b(?:avoid|skip|stay\s+away\s+from|steer\s+clear\s+of|pass\s+on)\b", re.I)
_TURN = re.compile(
    r";|\bbut\b|\binstead\b|\b(?:and|then)\s+(?:just\s+)?(?:get|buy|go\s+for|choose|pick|grab|spend"
    r"|invest\s+in|opt\s+for)\b",
    re.IGNORECASE,
)


def _steered_from(sentence: str, at: int) -> bool:
    """Whether the amount at ``at`` is one the sentence steers away from: a steering word
    after it, or before it with no turn to what to get between."""
    steer = _STEER.search(sentence)
    if steer is None:
        return False
    return steer.start() > at or not _TURN.search(sentence, steer.end(), at)


#: A stretch the answer offers as one, past a loose budget: "if you can stretch to $2,000".
_STRETCH = re.compile(r"\bstretch\b|\bif\s+you\s+(?:can|could)\s+(?:afford|spend|go\s+up)\b", re.I)
#: Sentences of an answer; a stop inside a number or a name ("$19.95", "Node.js") ends none.
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?=\w))+(?:[.!?]+|\n|$)")


@dataclass(frozen=True)
class Ceiling:
    """The request's budget: currency sign ("" when it gives none: "300 max"), upper value,
    period (or None), whether it is firm ("max", "hard limit") or loose ("around"), and its
    words."""

    currency: str
    value: float
    period: str | None
    phrase: str
    firm: bool = True


def _value(num: str, k: str | None) -> float:
    value = float(num.replace(",", ""))
    return value * 1000 if k and k.strip() else value


def _period(raw: str | None) -> str | None:
    if raw is None:
        return None
    raw = raw.lower()
    return {"mo": "month", "wk": "week", "yr": "year", "hr": "hour"}.get(raw, raw)


def _amount(m: re.Match[str]) -> tuple[str, float, str | None]:
    """Currency sign, value (a range's lower end) and period of an amount match."""
    if m.group("cur"):
        currency, value = m.group("cur"), _value(m.group("num"), m.group("k"))
    else:
        currency, value = _WORDS[m.group("word").lower()], _value(m.group("num2"), m.group("k2"))
    return currency, value, _period(m.group("per") or m.group("each"))


@lru_cache(maxsize=256)
def ceiling(query: str) -> Ceiling | None:
    """The budget ``query`` states, if it states one (the first)."""
    text = _QUOTED.sub(" ", query)
    for m in _CEILING_RE.finditer(text):
        amount = _AMOUNT_RE.search(m.group("a") or m.group("b"))
        if amount is None:  # pragma: no cover - the group is an amount by construction
            continue
        currency, value, period = _amount(amount)
        if amount.group("hi"):  # "$600-800" is 800; "$800-1" is no range
            value = max(value, _value(amount.group("hi"), amount.group("hik") or amount.group("k")))
        if period is None and _SHARE_AFTER.match(text, m.end()):
            period = "each"  # "$300 max each"
        phrase = m.group(0).strip(" ,")
        context = text[max(0, m.start() - 20) : m.end() + 30]
        return Ceiling(currency, value, period, phrase, firm=not _SOFT.search(context))
    for m in _PLAIN_CEILING.finditer(text):
        raw = m.group("n") or m.group("n2")
        if m.group("grand"):
            value = 1000.0
        elif raw is None or not _MONEY_NEXT.match(text, m.end()):
            continue
        else:
            k = m.group("k") or m.group("k2")
            value = float(raw.replace(",", "")) * (1000 if k else 1)
        if value < 5:
            continue
        context = text[max(0, m.start() - 20) : m.end() + 30]
        period = "each" if _SHARE_AFTER.match(text, m.end()) else None
        return Ceiling("", value, period, m.group(0).strip(" ,"), firm=not _SOFT.search(context))
    return None


#: A sentence about a span or a bundle: its bare amounts are not per the budget's period
#: ("$300 up front for 12 months", "8-lesson packages for about $160").
_OTHER_SPAN = re.compile(
    r"\b(?:up\s*front|prepa(?:y|id)|one[- ](?:off|time)|annual(?:ly)?|a\s+year|per\s+year|yearly"
    r"|\d+\s+(?:months|weeks"
    r"|years|nights|sessions|lessons)|package|bundle|in\s+total|total|altogether|works\s+out)\b",
    re.IGNORECASE,
)


def _comparable(value: float, period: str | None, cap: Ceiling, sentence: str) -> float | None:
    """``value`` in the ceiling's period, or ``None`` where they cannot be compared (a fee
    against a total, a share against a bill; "$40 per year" against "$10/month" is
    converted; a bare amount against a monthly budget counts as one month's, unless its
    sentence is about another span or a bundle)."""
    if period == cap.period:
        return value
    if period in _MONTHS and cap.period in _MONTHS:
        return value / _MONTHS[period] * _MONTHS[cap.period]
    if period is None and cap.period not in _SHARES and not _OTHER_SPAN.search(sentence):
        return value
    return None


def over_budget(query: str, answer: str, cap: Ceiling | None = None) -> tuple[str, str] | None:
    """The first amount of ``answer`` above the budget ``query`` states (``cap``, when
    already read), with the request's words for the budget; ``None`` when there is no
    budget or nothing over it."""
    cap = cap or ceiling(query)
    if cap is None:
        return None
    # figures the request gives itself ("the invoice is £28,500") are restated, not spent
    given = {_amount(m)[1] for m in _AMOUNT_RE.finditer(query)}
    for sentence in _SENTENCE.findall(answer):
        if _OVER_MARKED.search(sentence) or (not cap.firm and _STRETCH.search(sentence)):
            continue  # "the $900 model is over your budget"
        for m in _AMOUNT_RE.finditer(sentence):
            currency, value, period = _amount(m)
            if (cap.currency and currency != cap.currency) or value in given:
                continue
            if _REFERENCE_BEFORE.search(sentence[: m.start()]) or _steered_from(
                sentence, m.start()
            ):
                continue
            if _REFERENCE_AFTER.match(sentence, m.end()):
                continue
            compared = _comparable(value, period, cap, sentence)
            if compared is not None and compared > cap.value * 1.005:
                return m.group(0).strip(), cap.phrase
    return None

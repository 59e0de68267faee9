"""Facts of the request that the answer restates the other way round (pure).

An answer built on a wrong premise often says so in as many words: "with your mild
winters" to someone who wrote "zone 4 with hard winters", "since you're not pregnant" to
"I'm pregnant". The cross-encoder reads such an answer as fluent and on topic; the words
themselves are checkable. Two forms are read, both narrow on purpose:

* the same noun with the opposite adjective ("hard winters" -> "mild winters", "low heat"
  -> "high heat"), when the request does not name the opposite itself ("cold or hot
  water?" offers both) and the answer never repeats the request's own pair;
* a statement about the asker turned into its negation ("I'm vegan" -> "you're not
  vegan", "as you aren't vegan").

>>> contradicted("I'm in zone 4 with hard winters. Can I grow a fig?",
...              "Yes: with your mild winters a fig grows happily outside.")
[('mild winters', 'hard winters')]
>>> contradicted("Start eggs in cold or hot water?", "Start them in cold water.")
[]
"""

from __future__ import annotations

import re
from functools import lru_cache

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


def _pairs(words: list[str]) -> set[tuple[str, str]]:
    return set(zip(words, words[1:], strict=False))


@lru_cache(maxsize=1024)
def _stated(
    query: str,
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], frozenset[str]]:
    """What of ``query`` an answer could restate the other way round: its (adjective, noun)
    pairs with an opposite, its statements about the asker, and its words."""
    low = query.lower()
    words = _WORD.findall(low)
    pairs = tuple(
        (adj, noun) for adj, noun in sorted(_pairs(words)) if adj in _OPPOSITE and len(noun) > 3
    )
    about_me = tuple(
        (m.group(1), m.group(0)) for m in _ABOUT_ME.finditer(low) if m.group(1) not in _NOT_A_STATE
    ) + tuple((m.group(1), m.group(0)) for m in _STATE_AFTER_AGE.finditer(low))
    return pairs, about_me, frozenset(words)


def contradicted(query: str, answer: str) -> list[tuple[str, str]]:
    """``(what the answer says, what the request says)`` for each fact restated the other
    way round; empty when there is none. Cheap when the request states nothing that could
    be restated (most requests): the answer is then not read."""
    pairs, about_me, q_set = _stated(query)
    platform = q_set & _FAMILY.keys()
    if not pairs and not about_me and not platform:
        return []
    a_low = answer.lower()
    found: list[tuple[str, str]] = []
    if platform:
        wrong = _platform(q_set, a_low)
        if wrong is not None:
            found.append(wrong)
    if pairs:
        a_pairs = _pairs(_WORD.findall(a_low))
        for adj, noun in pairs:
            if (adj, noun) in a_pairs:
                continue
            for other in sorted(_OPPOSITE[adj] - q_set):
                if (other, noun) in a_pairs:
                    found.append((f"{other} {noun}", f"{adj} {noun}"))
    for state, stated in about_me:
        not_so = rf"\byou(?:'re\s+not|\s+are\s+not|\s+aren't)\s+(?:an?\s+)?{state}\b"
        said = re.search(not_so, a_low) or (
            re.search(_DENIED[state], a_low) if state in _DENIED else None
        )
        if said:
            found.append((said.group(0), stated))
    return found

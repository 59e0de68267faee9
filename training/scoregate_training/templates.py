"""Templated request/response pairs for the precision cross-encoder.

Kinds of example (label in brackets):

* ``plain``: a request answered in other words [1.0];
* ``excl-ok``: a request that excludes something, answered without it [1.0];
* ``excl-bad``: the same request answered with the excluded thing [0.0];
* ``off-topic``: a request answered with another domain's answer [0.0];
* ``choice``: "I want X" / "I do NOT want X" against answers giving X or Y [1.0 / 0.0];
* ``fact``: a question with the right answer [1.0] or its opposite [0.0].
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from scoregate_training.choices import (
    ADVICE,
    CHOICES,
    CREATIVE,
    FACTS,
    FACTS_NO,
    FACTS_YES,
    GENERIC_FRAMES,
    Choice,
)
from scoregate_training.pairs import Pair, join_items
from scoregate_training.scenes import SCENES, TAG_NAMES, Scene

EXCLUDE_FORMS: tuple[str, ...] = (
    "{ask} without {x}.",
    "{ask}, but with no {x}.",
    "{ask}. I do NOT want {x}.",
    "{ask}. I don't want {x} in it.",
    "{ask}. Please leave out {x}.",
    "{ask}, and avoid {x}.",
    "{ask}. Never use {x}.",
    "{ask}. It must not include {x}.",
    "{ask} - no {x}, please.",
    "{ask}, excluding {x}.",
    "{ask}. Do not include {x}.",
    "{ask}. Nothing with {x}.",
    "I can't have {x}. {ask}.",
    "{ask}, using anything other than {x}.",
    "{ask}. Keep {x} out of it.",
    "{ask}. Absolutely no {x}.",
    "{ask}. I am not OK with {x}.",
)
ACK_FORMS: tuple[str, ...] = (
    "There is no {x} in it.",
    "I left out {x} as you asked.",
    "This version avoids {x} completely.",
    "As requested, it contains no {x}.",
    "Nothing here uses {x}.",
    "It is entirely free of {x}.",
)
VIOLATE_FORMS: tuple[str, ...] = (
    "I added {part} anyway.",
    "I know you said no {x}, but {part} really helps.",
    "It includes {part}.",
    "The key part is {part}.",
    "I made sure to include {x}.",
    "It has plenty of {x}.",
    "Adding {x} makes it much better.",
)
#: Share of answers built from ``GENERIC_FRAMES`` (no restating of the request).
GENERIC_SHARE = 0.4
_QUESTION_WORDS = (
    "how",
    "what",
    "which",
    "where",
    "can",
    "should",
    "who",
    "why",
    "is",
    "do",
    "what's",
    "where's",
    "how's",
)


@dataclass(frozen=True)
class _Part:
    text: str
    tags: frozenset[str]


def parse_part(spec: str) -> _Part:
    """``"walnuts|nuts,food"`` -> text and tags."""
    text, _, tags = spec.partition("|")
    return _Part(text, frozenset(t for t in tags.split(",") if t))


def as_sentence(ask: str) -> str:
    """End an ask with '?' when its last sentence is a question, '.' otherwise."""
    last = ask.replace("? ", ". ").split(". ")[-1]
    first = last.split(" ", 1)[0].lower()
    return ask + ("?" if first in _QUESTION_WORDS else ".")


def excludable_tags(scene: Scene) -> list[str]:
    """Tags that some parts carry and at least three parts do not."""
    parts = [parse_part(p) for p in scene.parts]
    tags = sorted({t for p in parts for t in p.tags})
    return [t for t in tags if sum(t not in p.tags for p in parts) >= 3]


def answer(scene: Scene, rng: random.Random, avoid: str | None, force: str | None) -> str:
    """An answer from a frame and 2-4 parts, avoiding the ``avoid`` tag or forcing ``force``."""
    parts = [parse_part(p) for p in scene.parts]
    pool = [p for p in parts if avoid is None or avoid not in p.tags]
    if force is not None:
        pool = [p for p in pool if force not in p.tags]
    chosen = rng.sample(pool, min(len(pool), rng.randint(2, 4)))
    if force is not None:
        hit = rng.choice([p for p in parts if force in p.tags])
        chosen.insert(rng.randrange(len(chosen) + 1), hit)
    return _fill_frame(frame(scene, rng), [p.text for p in chosen])


def frame(scene: Scene, rng: random.Random) -> str:
    """One of the scene's frames, or (``GENERIC_SHARE`` of the time) a generic one."""
    if rng.random() < GENERIC_SHARE:
        return rng.choice(GENERIC_FRAMES)
    return rng.choice(scene.frames)


def _fill_frame(fr: str, items: list[str]) -> str:
    text = fr.format(items=join_items(items))
    return text[:1].upper() + text[1:] if fr.startswith("{items}") else text


def exclusion_request(scene: Scene, tag: str, rng: random.Random) -> str:
    """A request for ``scene`` that excludes ``tag``."""
    return excluding(rng.choice(scene.asks), rng.choice(TAG_NAMES[tag]), rng)


def excluding(ask: str, name: str, rng: random.Random) -> str:
    """``ask`` with an exclusion of ``name`` in one of the ``EXCLUDE_FORMS``."""
    text = rng.choice(EXCLUDE_FORMS).format(ask=ask, x=name)
    if as_sentence(ask).endswith("?"):
        end = text.find(".", text.index(ask) + len(ask))
        if end != -1:
            text = text[:end] + "?" + text[end + 1 :]
    return text


def excl_ok(scene: Scene, rng: random.Random) -> Pair:
    """An exclusion request answered faithfully (sometimes saying so)."""
    tag = rng.choice(excludable_tags(scene))
    text = answer(scene, rng, avoid=tag, force=None)
    if rng.random() < 0.35:
        text += " " + rng.choice(ACK_FORMS).format(x=rng.choice(TAG_NAMES[tag]))
    return Pair(exclusion_request(scene, tag, rng), text, 1.0, "excl-ok")


def excl_bad(scene: Scene, rng: random.Random) -> Pair:
    """An exclusion request answered with the excluded thing."""
    tag = rng.choice(excludable_tags(scene))
    text = answer(scene, rng, avoid=None, force=tag)
    if rng.random() < 0.4:
        hit = rng.choice([p for p in map(parse_part, scene.parts) if tag in p.tags])
        form = rng.choice(VIOLATE_FORMS)
        text += " " + form.format(part=hit.text, x=rng.choice(TAG_NAMES[tag]))
    return Pair(exclusion_request(scene, tag, rng), text, 0.0, "excl-bad")


def plain(scene: Scene, rng: random.Random) -> Pair:
    """A plain request answered in other words."""
    text = answer(scene, rng, avoid=None, force=None)
    return Pair(as_sentence(rng.choice(scene.asks)), text, 1.0, "plain")


def off_topic(scene: Scene, rng: random.Random) -> Pair:
    """A request (plain or excluding) answered with another domain's answer.

    The other answer is often one that itself rules something out ("There is no X in
    it"), so that negation words in the content are not taken as honouring the request.
    """
    other = rng.choice([s for s in SCENES if s.domain != scene.domain])
    tags = excludable_tags(scene)
    if tags and rng.random() < 0.5:
        query = exclusion_request(scene, rng.choice(tags), rng)
    else:
        query = as_sentence(rng.choice(scene.asks))
    if rng.random() < 0.5:
        content = excl_ok(other, rng).content
    else:
        content = answer(other, rng, avoid=None, force=None)
    return Pair(query, content, 0.0, "off-topic")


def _article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _fill(form: str, key: str, value: str) -> str:
    return form.replace("{a" + key + "}", _article(value)).replace("{" + key + "}", value)


def choice_quad(choice: Choice, rng: random.Random) -> list[Pair]:
    """Four pairs: want X / not X, each against an answer giving X and one giving Y."""
    x, y = rng.sample(choice.options, 2)
    want = as_sentence(_fill(rng.choice(choice.wants), "x", x))
    refuse = as_sentence(_fill(rng.choice(choice.nots), "x", x))
    gives_x = _fill(rng.choice(choice.answers), "y", x)
    gives_y = _fill(rng.choice(choice.answers), "y", y)
    return [
        Pair(want, gives_x, 1.0, "choice-want"),
        Pair(want, gives_y, 0.0, "choice-want-other"),
        Pair(refuse, gives_x, 0.0, "choice-not-given"),
        Pair(refuse, gives_y, 1.0, "choice-not-other"),
    ]


def _triple_pairs(
    table: tuple[tuple[str, str, str], ...], kind: str, rng: random.Random
) -> list[Pair]:
    """Each (request, right, wrong): right 1.0, wrong 0.0, another row's answer 0.0."""
    out: list[Pair] = []
    for q, right, wrong in table:
        other = rng.choice([row for row in table if row[0] != q])
        out += [
            Pair(q, right, 1.0, f"{kind}-right"),
            Pair(q, wrong, 0.0, f"{kind}-wrong"),
            Pair(q, rng.choice(other[1:]), 0.0, f"{kind}-off"),
        ]
    return out


def fact_pairs(rng: random.Random) -> list[Pair]:
    """Questions with the right answer (1.0), the opposite (0.0), another's answer (0.0)."""
    return _triple_pairs(FACTS + FACTS_NO + FACTS_YES, "fact", rng)


def advice_pairs(rng: random.Random) -> list[Pair]:
    """How-to and creative requests with a fitting answer (1.0) and a broken one (0.0)."""
    return _triple_pairs(ADVICE, "advice", rng) + _triple_pairs(CREATIVE, "creative", rng)


#: Domains whose parts are short noun phrases, usable as "without <part>" exclusions.
NOUN_DOMAINS = frozenset(
    {
        "recipes",
        "travel",
        "images",
        "shopping",
        "music",
        "fitness",
        "health",
        "home",
        "events",
        "study",
        "finance",
        "pets",
    }
)
_DETERMINERS = ("a ", "an ", "the ", "two ", "three ", "some ", "fresh ", "chopped ")


def part_name(text: str) -> str:
    """How a request would name a part: "a spoon of honey" -> "honey"."""
    name = text.rsplit(" of ", 1)[-1].split(" by ", 1)[0]
    for det in _DETERMINERS:
        if name.startswith(det):
            name = name[len(det) :]
    return name


def part_pair(scene: Scene, rng: random.Random, violate: bool) -> Pair:
    """Exclude one part by name; the answer contains it (0.0) or does not (1.0)."""
    texts = [parse_part(p).text for p in scene.parts]
    rng.shuffle(texts)
    shown, hidden = texts[: rng.randint(2, 4)], texts[4:]
    target = rng.choice(shown) if violate else rng.choice(hidden)
    name = part_name(target)
    shown = [t for t in shown if violate or name not in t]
    body = _fill_frame(frame(scene, rng), shown)
    label, kind = (0.0, "part-bad") if violate else (1.0, "part-ok")
    return Pair(excluding(rng.choice(scene.asks), name, rng), body, label, kind)


def absent_ok(scene: Scene, rng: random.Random) -> Pair:
    """Excluding something the answer never mentions is honoured.

    The excluded thing comes from another task of the same domain when there is one.
    """
    same = [s for s in SCENES if s.domain == scene.domain and s != scene]
    other = rng.choice(same or [s for s in SCENES if s != scene])
    text = answer(scene, rng, avoid=None, force=None)
    names = [part_name(parse_part(p).text) for p in other.parts]
    name = rng.choice([n for n in names if n.lower() not in text.lower()] or names)
    return Pair(excluding(rng.choice(scene.asks), name, rng), text, 1.0, "absent-ok")


Maker = Callable[[Scene, random.Random], Pair]
MAKERS: dict[str, Maker] = {
    "plain": plain,
    "excl-ok": excl_ok,
    "excl-bad": excl_bad,
    "off-topic": off_topic,
    "part-ok": lambda s, rng: part_pair(s, rng, violate=False),
    "part-bad": lambda s, rng: part_pair(s, rng, violate=True),
    "absent-ok": absent_ok,
}
#: Kinds that only use scenes whose parts are noun phrases.
NOUN_KINDS = frozenset({"part-ok", "part-bad", "absent-ok"})


def scene_pairs(kind: str, n: int, rng: random.Random) -> list[Pair]:
    """``n`` distinct pairs of one kind, spread evenly over the scenes."""
    make = MAKERS[kind]
    scenes = [s for s in SCENES if kind not in NOUN_KINDS or s.domain in NOUN_DOMAINS]
    seen: set[tuple[str, str]] = set()
    out: list[Pair] = []
    for _ in range(n * 20):
        if len(out) >= n:
            break
        pair = make(scenes[len(out) % len(scenes)], rng)
        if (pair.query, pair.content) not in seen:
            seen.add((pair.query, pair.content))
            out.append(pair)
    return out


def choice_pairs(n_quads: int, rng: random.Random) -> list[Pair]:
    """``n_quads`` contrastive quads, spread over the choice tables."""
    out: list[Pair] = []
    for i in range(n_quads):
        out += choice_quad(CHOICES[i % len(CHOICES)], rng)
    return out

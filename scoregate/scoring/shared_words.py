"""How many of the request's own words an answer uses.

An agent that picked up the wrong ticket writes a fluent answer in the request's field
("cleaning a coffee grinder" for "descaling my kettle"): the embedding model finds it fairly
close, but it names almost nothing the request names. A faithful answer, in whatever form,
uses some of the request's words (the kettle, the limescale, the model the user owns).

Words are compared by a crude stem (:func:`scoregate.scoring.affirmation.stem`), after
dropping function words and the words every request uses to ask ("please", "help",
"recommend", "tips"). Pure and cheap: no model call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoregate.scoring.affirmation import stem
from scoregate.scoring.language import ENGLISH_COMMON

_WORD = re.compile(r"[a-z][a-z0-9'+-]*")

#: Words that say nothing about what a request is about: the common English words language
#: detection counts, more function words, and the words requests use to ask for anything.
_COMMON = ENGLISH_COMMON | frozenset(
    """
    about above after again against all also am any anyone anything aren't as because before
    being below best better between bit both can't cannot couldn't currently didn't doesn't
    doing don't done down during each easy either else even ever every few further gets
    getting good got great guess had hadn't has hasn't have haven't having he hello her here
    hers hey hi him his i'd i'll i'm i've idea ideas if into isn't it's itself just know let
    let's like looking lot lots may maybe might mine more most much must myself needs new
    nor now off once one only other ours out over own per quick quite rather really
    recommend recommendation recommendations right same say she shouldn't simple since so
    some something such suggest suggestions sure than thank thanks that's their theirs them
    then there there's they they're thing things think those though through tip tips too
    trying under until up upon use very wanted wants wasn't way ways we're we've well
    weren't what's whether while whose within without won't work works wouldn't yes yet
    you'd you'll you're you've yours yourself
    """.split()
)


@dataclass(frozen=True)
class SharedWords:
    """The request's own words (stemmed, each with the word as the request first wrote
    it, in the request's order), and the stems the answer uses too."""

    request: dict[str, str]
    shared: frozenset[str]

    @property
    def share(self) -> float:
        """The share of the request's own words the answer uses (1.0 for a request with
        none)."""
        return len(self.shared) / len(self.request) if self.request else 1.0

    def unused(self, n: int) -> list[str]:
        """The first ``n`` of the request's own words the answer does not use."""
        return [w for s, w in self.request.items() if s not in self.shared][:n]


def own_words(text: str) -> dict[str, str]:
    """The stems of ``text``'s words, less function words and asking words, each with the
    word as first written, in order."""
    found: dict[str, str] = {}
    for w in _WORD.findall(text.lower().replace("\u2019", "'")):
        if len(w) >= 3 and w not in _COMMON:
            found.setdefault(stem(w), w)
    return found


def shared_words(query: str, content: str) -> SharedWords:
    """Which of ``query``'s own words ``content`` uses."""
    asked = own_words(query)
    return SharedWords(request=asked, shared=frozenset(asked.keys() & own_words(content).keys()))

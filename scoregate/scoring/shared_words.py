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

_WORD = re.compile(r"[a-z][a-z0-9'+-]*")

#: Words that say nothing about what a request is about: function words, and the words
#: requests use to ask for anything at all.
_COMMON = frozenset(
    """
    a about above after again against all also am an and any are aren't as at be because
    been before being below between both but by can can't cannot could couldn't did didn't
    do does doesn't doing don't down during each either else even ever every few for from
    further get gets getting got had hadn't has hasn't have haven't having he her here hers
    him his how i i'd i'll i'm i've if in into is isn't it it's its itself just let let's
    like lot lots may me might mine more most much must my myself no nor not now of off on
    once one only or other our ours out over own per quite rather really same she should
    shouldn't since so some such than that that's the their theirs them then there there's
    these they they're this those though through to too under until up upon us very was
    wasn't we we're we've were weren't what what's when where which while who whom whose
    why will with within without won't would wouldn't yes yet you you'd you'll you're
    you've your yours yourself
    anything anyone best better bit currently done easy give good great guess
    hello help hey hi idea ideas know looking make maybe need needs new please quick
    recommend recommendation recommendations right say simple something suggest
    suggestions sure tell thanks thank think thing things tip tips trying use want wanted
    wants way ways well whether work works
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

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


#: A verb that always asks for a piece of writing ("write a toast", "draft my reply").
_WRITE = r"write|re-?write|draft|compose|craft|pen|translate|reword|rephrase|summari[sz]e"
#: A verb that asks for a made thing when a made thing's name follows it ("put together a
#: packing list", "give me a caption"), not otherwise ("make sourdough", "plan ahead").
_MAKE = (
    r"create|make|generate|come\s+up\s+with|put\s+together|design|plan|outline|brainstorm"
    r"|prepare|produce|give\s+me|send\s+me|suggest|need|want|help\s+me\s+with|turn\s+\w+\s+into"
)
#: What such a request asks to have made: things whose good version names its own things
#: rather than the request's words (a toast names the couple, a plan names the places).
_MADE = (
    r"messages?|e-?mails?|texts?|notes?|letters?|posts?|captions?|toasts?|speech(?:es)?|poems?"
    r"|haikus?|limericks?|songs?|lyrics|story|stories|blurbs?|descriptions?|bio|profile"
    r"|plans?|schedules?|itinerar(?:y|ies)|timetables?|checklists?|lists?|agendas?|menus?"
    r"|recipes?|slogans?|taglines?|names?|quotes?|scripts?|announcements?|notifications?"
    r"|repl(?:y|ies)|responses?|invitations?|invites?|cards?|summar(?:y|ies)|outlines?"
    r"|templates?|headlines?|titles?|pitch(?:es)?|cover\s+letters?|ads?|adverts?|tweets?"
    r"|quiz(?:zes)?|questions|ideas|reminders?|memos?|reports?|proposals?|reviews?|signs?"
    r"|notices?|flyers?|posters?|routines?|workouts?|rotas?|budgets?|programmes?|programs?"
    r"|rubrics?|apolog(?:y|ies)|eulog(?:y|ies)|vows|jokes?|riddles?|prompts?|guides?"
    r"|cheat\s+sheets?|wording|copy|intro(?:duction)?s?|welcome|thank-?you|rhymes?|verses?"
    r"|activities|games?|exercises?|lesson|lessons|syllabus|handouts?|worksheets?|mottos?"
)
#: A verb whose object is the thing to make ("plan a trip", "organise my week").
_ARRANGE = r"(?:plan|organi[sz]e|map\s+out|lay\s+out)\s+(?:a|an|my|our|the|some|\d+)"
_ASKS_TO_MAKE = re.compile(
    rf"\b(?:{_WRITE})\b|\b{_ARRANGE}\b"
    rf"|\b(?:{_MAKE})\s+(?:[\w'-]+\s+){{0,5}}?(?:{_MADE})\b",
    re.IGNORECASE,
)


def asks_to_make(request: str) -> bool:
    """Whether ``request`` asks to have something written or made (a message, a toast, a
    plan, a list of ideas) rather than a question answered. A good made thing names its
    own things (the couple's names, the places to visit), not the request's words, so
    :func:`shared_words` says nothing about whether it is the one asked for."""
    return _ASKS_TO_MAKE.search(request.replace("\u2019", "'")) is not None

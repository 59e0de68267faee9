"""Form instructions read in fx25a: a name the answer must leave out ("Don't mention Acme
by name"), a range of bold spans ("bold 3-5 key terms"), poems counted in other words
("haiku x3", "a trio of haikus", "a couple of haikus"), "title not needed", and counted
names with marks in them ("Mention C++ twice") or in a clause of the thing asked for ("a
haiku that mentions Berlin exactly once"). Each reading, its check on a passing and a
failing answer, and the near misses that must not be read."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.constraints import Instruction
from scoregate.scoring.request_analysis import inferred_constraints
from scoregate.scoring.reward import evaluate_constraint

CFG = load_scoring_config().reward


def _read(query: str, check: str, unit: str | None = None) -> list[Instruction]:
    return [
        k
        for k in inferred_constraints(query)
        if isinstance(k, Instruction) and k.check == check and (unit is None or k.unit == unit)
    ]


def _passes(answer: str, k: Instruction) -> bool:
    return evaluate_constraint(answer, k, CFG).passed


# --- a name ruled out ----------------------------------------------------------------------

BANNED_NAMES = [
    ("Write a short press release about our new widget. Don't mention Acme by name.", ["Acme"]),
    ("Summarize the complaint without naming the client (Northwind).", ["Northwind"]),
    ("Draft an email to the team; do not name the supplier, Brightline.", ["Brightline"]),
    ("Write a product update. Never name Acme or Globex.", ["Acme", "Globex"]),
    ("Don't mention the client (Northwind Traders) by name.", ["Northwind Traders"]),
    ("Write a review of the delay, do NOT name the vendor, Brightline, anywhere.", ["Brightline"]),
]


@pytest.mark.parametrize(("query", "names"), BANNED_NAMES)
def test_a_name_ruled_out_is_read(query: str, names: list[str]) -> None:
    found = _read(query, "forbidden_words")
    assert [k.value for k in found] == [names], inferred_constraints(query)
    assert not _read(query, "keywords")


def test_a_name_ruled_out_is_checked() -> None:
    query = "Summarize the complaint without naming the client (Northwind)."
    (k,) = _read(query, "forbidden_words")
    assert _passes("The client reported late deliveries and asked for a refund.", k)
    assert not _passes("Northwind reported late deliveries and asked for a refund.", k)
    assert not _passes("The refund is due to Northwind's team.", k)


NAMES_NOT_RULED_OUT = [
    "Write a product blurb and mention Acme by name.",  # asks for it
    "Write a product blurb. Don't mention it.",
    "Write a product blurb. Don't mention it by name.",
    "I don't want to name names, but someone broke the build. Write a postmortem.",
    "Write a product blurb. Don't mention Acme.",  # a topic left aside, not its name
    "I don't mention Acme by name in my draft. Is that a problem?",
    "You don't need to mention Acme by name.",
    "Write the email. Don't mention Acme by name in the subject line.",  # a part only
    "Don't name Sarah as the culprit in the report.",
    "Should I avoid naming Acme in my blog?",
    "Don't mention the competitor, Apple is touchy about it.",
    "Write a review of the app without naming it.",
]


@pytest.mark.parametrize("query", NAMES_NOT_RULED_OUT)
def test_no_name_ruled_out(query: str) -> None:
    assert not _read(query, "forbidden_words"), inferred_constraints(query)


def test_mention_by_name_still_asks_for_it() -> None:
    (k,) = _read("Write a product blurb and mention Acme by name.", "keywords")
    assert k.value == ["Acme"]


# --- a range of bold spans ------------------------------------------------------------------

BOLD_RANGES = [
    ("Bold 3-5 key terms in your explanation of photosynthesis.", 3, 5),
    ("Explain photosynthesis; bold between 2 and 4 phrases.", 2, 4),
    ("Explain photosynthesis and bold two or three key words.", 2, 3),
    ("Explain photosynthesis. Bold 3 to 5 key terms.", 3, 5),
    ("Explain photosynthesis. Put 3-5 key terms in bold.", 3, 5),
    ("Explain photosynthesis. Put two or three key terms in bold.", 2, 3),
]


@pytest.mark.parametrize(("query", "low", "high"), BOLD_RANGES)
def test_a_bold_range_is_read(query: str, low: int, high: int) -> None:
    found = _read(query, "count", "bold_spans")
    assert [(k.relation, k.value) for k in found] == [("at_least", low), ("at_most", high)]


def test_a_bold_range_is_checked() -> None:
    ks = _read("Bold 3-5 key terms in your explanation of photosynthesis.", "count", "bold_spans")
    four = "**Chlorophyll** absorbs **light**; **glucose** is made from **carbon dioxide**."
    two = "**Chlorophyll** absorbs light; **glucose** is made from carbon dioxide."
    six = "**A** **B** **C** **D** **E** **F** take part in photosynthesis."
    assert all(_passes(four, k) for k in ks)
    assert not all(_passes(two, k) for k in ks)
    assert not all(_passes(six, k) for k in ks)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Bold 3 key terms.", [("at_least", 3)]),  # one number, as before
        ("Bold at most 4 key terms.", [("at_most", 4)]),
        ("Bold 2-3 key words in each paragraph.", []),  # a count of a part
        ("Bold 5-3 key terms.", []),  # no range
        ("Bold the 2-3 word phrases that matter most.", [("at_least", 1)]),  # each's length
        ("Bold the key terms from chapters 3-5.", [("at_least", 1)]),
        ("I bolded 3-5 key terms in my essay, is that too many?", []),
    ],
)
def test_bold_near_misses(query: str, expected: list[tuple[str, int]]) -> None:
    found = _read(query, "count", "bold_spans")
    assert [(k.relation, k.value) for k in found] == expected


@pytest.mark.parametrize(
    "query",
    [
        "Explain osmosis and bold 2-3 key words.",
        "Bold the 2-3 word phrases that matter most.",
    ],
)
def test_bolded_words_are_no_length_of_the_answer(query: str) -> None:
    assert not _read(query, "count", "words"), inferred_constraints(query)


def test_a_range_keeps_other_counts_once() -> None:
    ks = inferred_constraints("Explain photosynthesis in 3-5 sentences and bold 2-3 key terms.")
    counts = [(k.unit, k.relation, k.value) for k in ks if isinstance(k, Instruction)]
    assert counts == [
        ("sentences", "at_most", 5),
        ("bold_spans", "at_least", 2),
        ("bold_spans", "at_most", 3),
    ]


# --- poems counted in other words -----------------------------------------------------------

VERSE = [
    ("Write haiku x3 about autumn.", "exactly", 3),
    ("Haiku x 4 about autumn, please.", "exactly", 4),
    ("Write 3x haiku about autumn.", "exactly", 3),
    ("Write a trio of haikus about the sea.", "exactly", 3),
    ("Write a trio of short limericks about the sea.", "exactly", 3),
    ("Write a pair of limericks about cats.", "exactly", 2),
    ("Write 3 haikus about autumn.", "exactly", 3),
]


@pytest.mark.parametrize(("query", "rel", "n"), VERSE)
def test_verse_counts_are_read(query: str, rel: str, n: int) -> None:
    (k,) = _read(query, "count", "stanzas")
    assert (k.relation, k.value) == (rel, n)


def test_a_couple_of_haikus_is_two_or_three() -> None:
    ks = _read("Write a couple of haikus about rain.", "count", "stanzas")
    assert [(k.relation, k.value) for k in ks] == [("at_least", 2), ("at_most", 3)]
    haiku = "Soft rain on the roof\nthe gutters hum a low tune\nsleep comes slow and warm"
    assert all(_passes(f"{haiku}\n\n{haiku}", k) for k in ks)
    assert all(_passes(f"{haiku}\n\n{haiku}\n\n{haiku}", k) for k in ks)
    assert not all(_passes(haiku, k) for k in ks)


def test_haiku_x3_is_checked() -> None:
    (k,) = _read("Write haiku x3 about autumn.", "count", "stanzas")
    haiku = "Red leaves drift and fall\ncold wind hurries them along\nthe year exhales slow"
    assert _passes("\n\n".join([haiku] * 3), k)
    assert not _passes("\n\n".join([haiku] * 2), k)


@pytest.mark.parametrize(
    "query",
    [
        "Write a haiku about my BMW X3.",
        "Write a haiku about a 3x3 grid.",
        "Write haiku x3 and a limerick.",  # blocks of two kinds
        "Write haiku x3, then explain the imagery.",
        "Write a haiku about a trio of jazz musicians.",
        "I wrote a couple of haikus, can you give feedback?",
        "Write a couple of haikus separated by ******.",  # two responses, read apart
    ],
)
def test_verse_near_misses(query: str) -> None:
    assert not _read(query, "count", "stanzas"), inferred_constraints(query)


# --- title not needed ------------------------------------------------------------------------

NO_TITLE = [
    ("Write a short story about a lighthouse, title not needed.", "title not needed"),
    ("Write a short story. Title not needed.", "title not needed"),
    ("Write a short story (title not needed).", "title not needed"),
    ("Write a poem about rain; a title is not needed.", "a title is not needed"),
    ("Write a poem about rain. The title isn't necessary.", "the title isn't necessary"),
    ("Write a poem about rain — title not required.", "title not required"),
    ("Write a poem about rain, no need for a title.", "no need for a title"),
    ("Write a poem about rain. Skip the title.", "skip the title"),
    ("Write a poem about rain and leave off the title.", "leave off the title"),
]


@pytest.mark.parametrize(("query", "phrase"), NO_TITLE)
def test_title_not_needed_is_read(query: str, phrase: str) -> None:
    (k,) = _read(query, "title")
    assert (k.value, k.phrase) == ("none", phrase)


def test_title_not_needed_is_checked() -> None:
    (k,) = _read("Write a short story about a lighthouse, title not needed.", "title")
    story = "The keeper lit the lamp at dusk.\n\nShips passed safely all night."
    assert _passes(story, k)
    assert not _passes("# The Last Light\n\n" + story, k)


@pytest.mark.parametrize(
    "query",
    [
        "Is a title not needed for an abstract?",
        "My essay's title not needed changes, just fix the grammar.",
        "The job title not needed on the form, right?",
        "Write an essay; the title is not needed for the intro but add headings.",
    ],
)
def test_title_near_misses(query: str) -> None:
    assert not [k for k in _read(query, "title") if k.value == "none"]


# --- counted names with marks, and in a clause of the thing asked for -----------------------

COUNTED = [
    ("Write a paragraph about programming. Mention C++ twice.", "C++", "at_least", 2),
    ("Write about languages and say C# at least twice.", "C#", "at_least", 2),
    ("Write about backend dev; use Node.js three times.", "Node.js", "at_least", 3),
    ("Describe Microsoft frameworks and mention .NET at least 2 times.", ".NET", "at_least", 2),
    ("Write about web stacks and mention ASP.NET twice.", "ASP.NET", "at_least", 2),
    ("Write a haiku that mentions Berlin exactly once.", "Berlin", "exactly", 1),
    ("Could you write me a short poem that says Paris at least twice?", "Paris", "at_least", 2),
    ("Write a toast that references Acme exactly twice.", "Acme", "exactly", 2),
    ("I need a slogan that says Acme at least twice.", "Acme", "at_least", 2),
    ("Mention Paris at least 3 times.", "Paris", "at_least", 3),
]


@pytest.mark.parametrize(("query", "word", "rel", "n"), COUNTED)
def test_counted_names_are_read(query: str, word: str, rel: str, n: int) -> None:
    (k,) = _read(query, "word_frequency")
    assert (k.value, k.relation, k.count) == (word, rel, n)


def test_counted_names_with_marks_are_checked() -> None:
    (cpp,) = _read("Write a paragraph about programming. Mention C++ twice.", "word_frequency")
    assert _passes("C++ is fast. Many engines are written in C++.", cpp)
    assert not _passes("C++ is fast. Many engines are written in C.", cpp)
    query = "Describe Microsoft frameworks and mention .NET at least 2 times."
    (net,) = _read(query, "word_frequency")
    assert _passes(".NET runs on Linux now; .NET 8 is the current release.", net)
    assert not _passes(".NET runs on Linux now, and so does ASP.NET Core.", net)
    (node,) = _read("Write about backend dev; use Node.js three times.", "word_frequency")
    assert _passes("Node.js is popular. Node.js is async. I like Node.js.", node)
    assert not _passes("Node.js is popular. Node is async.", node)


def test_a_haiku_that_mentions_berlin_once_is_checked() -> None:
    (k,) = _read("Write a haiku that mentions Berlin exactly once.", "word_frequency")
    lines = "trams hum through the sleeping streets\ncoffee steams the glass"
    assert _passes(f"Grey dawn over Berlin\n{lines}", k)
    assert not _passes(f"Berlin wakes, Berlin yawns\n{lines}", k)
    assert not _passes(f"Grey dawn over town\n{lines}", k)


@pytest.mark.parametrize(
    "query",
    [
        "I wrote a poem that mentions Berlin twice, can you edit it?",
        "My essay mentions Berlin three times. Is that too many?",
        "The article uses Node.js three times. Summarise it.",
        "Write a story that mentions Pilates twice a week.",
        "Write a Python script that uses Redis twice.",  # a thing used, not a word
        "Write a meal plan that includes Quorn three times.",
        "I mention C++ twice in my resume.",
        "Should I mention C++ twice in my resume?",
        "Write a haiku that mentions Berlin once.",  # a bare "once" is not read
        "Describe Microsoft frameworks, .NET at least 2 times.",  # no verb
    ],
)
def test_counted_name_near_misses(query: str) -> None:
    assert not _read(query, "word_frequency"), inferred_constraints(query)

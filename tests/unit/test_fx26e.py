"""fx26e: what a review of fx26b found, each mended as a rule.

A. A range followed by a measure ("20-30 minute dinner recipes", "8-10 year old books") is a
   modifier of what is listed, not a count of list items.
B. Forms fx26b stopped reading: "about" right before a number is a hedge ("about 3
   sentences"); "aim for", "shoot for", "for two more paragraphs" set a target; words after
   a count the answer is asked to write say what to write ("write 2 paragraphs in my
   style"); "provide" / "I'd love" ask for a paragraph; an elision ("the '80s") opens no
   quotation.
C. split_asks: only an ask about the cause, nature or normality of the situation told
   ("what could it be", "is that bad?", "what do you think?") goes with it; an ask for what
   to do, where, when or how to tell stays a part of its own.
D. Older misreadings: "a 3 sentence summary" is three sentences, not one; a rule told about
   the asker's own work ("my instructor said the abstract should be one paragraph") or the
   asker's own favourites ("my top 3 movies are ...") asks nothing of the answer; "4-5 ideas
   max" is at most 5 only.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.request_analysis import analyze, split_asks
from tests.unit.test_fx26b import _items, _passes


def _counts(query: str) -> list[tuple[str | None, str, object]]:
    return sorted(
        (k.unit, k.relation, k.value) for k in analyze(query).instructions if k.check == "count"
    )


# --- A. a range before a measure ------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "Give me 20-30 minute dinner recipes for busy nights.",
        "Suggest 8-10 year old books about friendship.",
        "List 5-10 dollar gift ideas for coworkers.",
        "Suggest 2-3 hour hikes near Boulder.",
        "Give me 2-3 ingredient cocktail recipes.",
        "Give me 20 minute dinner recipes for busy nights.",
        "Recommend 3-5 mile trails near Denver.",
    ],
)
def test_a_range_before_a_measure_counts_no_items(query: str) -> None:
    assert _counts(query) == []
    assert _passes(_items(5), query)


def test_a_range_of_items_still_reads() -> None:
    assert _counts("Suggest 3-5 hikes near Boulder.") == [
        ("items", "at_least", 3),
        ("items", "at_most", 5),
    ]
    assert _counts("Give me 5 day trips from Paris.") == [("items", "exactly", 5)]


# --- B. forms read again --------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Write a bio, about 3 sentences.", ("sentences", "exactly", 3)),
        ("Summarize this in about 2 paragraphs. The council met.", ("paragraphs", "exactly", 2)),
        ("Keep it to about 3 sentences: why switch banks?", ("sentences", "exactly", 3)),
        ("Write about 3 paragraphs on the history of tea.", ("paragraphs", "exactly", 3)),
        ("Make it about 2 paragraphs long.", ("paragraphs", "exactly", 2)),
        ("Write a short bio for my website. Aim for 3-4 sentences.", ("sentences", "at_most", 4)),
        ("Shoot for about 2 paragraphs.", ("paragraphs", "exactly", 2)),
        (
            "Here is the first line of my story: The rain had not stopped. Can you continue it"
            " for two more paragraphs?",
            ("paragraphs", "exactly", 2),
        ),
        (
            "Write 2 paragraphs in my style about why I started baking.",
            ("paragraphs", "exactly", 2),
        ),
        ("Write me 2 paragraphs of a bedtime story about a dragon.", ("paragraphs", "exactly", 2)),
        ("Give me two sentences from the perspective of a cat.", ("sentences", "exactly", 2)),
        ("Write 3 sentences from the point of view of a tree.", ("sentences", "exactly", 3)),
        ("Please provide a paragraph describing our mission.", ("paragraphs", "exactly", 1)),
        ("I'd love a paragraph about the history of our town.", ("paragraphs", "exactly", 1)),
        (
            "My dad loves the '80s. Give me 5 songs for his party at my parents' place.",
            ("items", "exactly", 5),
        ),
    ],
)
def test_a_form_asked_of_the_answer_reads(query: str, expected: tuple[str, str, int]) -> None:
    assert _counts(query) == [expected]


@pytest.mark.parametrize(
    "query",
    [
        "Can you give feedback on the 3 paragraphs I wrote?",
        "Tell me about the 3 paragraphs in my essay.",
        "Her homework says 'write three paragraphs' and she is stuck. How can I help?",
        "Can you help me write a conclusion for a paragraph about bees?",
    ],
)
def test_the_askers_material_still_sets_no_form(query: str) -> None:
    assert _counts(query) == []


# --- C. split_asks --------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "Water is pooling under my dishwasher. What could it be? How do I fix it?",
        "There's a rash on my arm that's spreading. Is it serious? What should I do?",
        "My knee clicks when I squat. Is that bad? What should I do?",
        "The wifi keeps dropping every evening. Is it my router? What can I do?",
        "My phone battery drains fast since the update. Is it the update? How can I fix it?",
        "My car battery died twice. Is it the battery or the alternator? What should I do?",
        "I'm going to Tokyo in May. Where should I stay? What should I do there?",
        "Heading to Lisbon for 3 days. Where should I stay and what should I do?",
        "How long should I cook salmon at 400? How do I know when it's done?",
        "My car battery died twice. Is it the battery or the alternator? How do I tell?",
        "My son got a C in math. How do I talk to him about it calmly? What should I do next?",
    ],
)
def test_an_ask_for_what_to_do_stays_a_part(query: str) -> None:
    assert len(split_asks(query)) == 2


@pytest.mark.parametrize(
    "query",
    [
        "My dog has been limping since yesterday. What's going on? Any ideas?",
        "My code throws a null error on startup. What do you think?",
        "How do I reset my router, and why is that?",
        "My cat sneezes every morning after breakfast. Is that normal? Should I be worried?",
    ],
)
def test_an_ask_of_what_the_situation_is_goes_with_it(query: str) -> None:
    assert split_asks(query) == ()


def test_a_diagnosis_goes_with_the_situation_told() -> None:
    parts = split_asks("Water pools under my dishwasher. What could it be? How do I fix it?")
    assert parts == ("Water pools under my dishwasher. What could it be?", "How do I fix it?")


# --- D. older misreadings -------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Give me a 3 sentence summary of the plot of Frozen.", ("sentences", "exactly", 3)),
        ("Give me a two sentence summary of Hamlet.", ("sentences", "exactly", 2)),
        ("Write a 5 paragraph essay on the causes of WW1.", ("paragraphs", "exactly", 5)),
    ],
)
def test_the_article_before_a_count_is_no_count(query: str, expected: tuple[str, str, int]) -> None:
    assert _counts(query) == [expected]


@pytest.mark.parametrize(
    "query",
    [
        "My instructor said the abstract should be one paragraph. What should go in it?",
        "The assignment is to write a 500-word essay on climate change with 3 sources. How"
        " should I structure it?",
        "My top 3 favorite movies are Inception, Interstellar and The Prestige. Recommend"
        " something similar.",
        "I have to write a 5 paragraph essay about The Great Gatsby. Can you suggest a thesis?",
        "A 3 sentence summary is what my teacher wants. How do I write a good one?",
        "I wrote a 4 paragraph email to my landlord and it feels too long. How do I sound firm?",
    ],
)
def test_a_rule_told_of_the_askers_own_work_sets_no_form(query: str) -> None:
    assert _counts(query) == []


def test_the_work_asked_for_keeps_its_form() -> None:
    query = "I have to write a 5 paragraph essay about The Great Gatsby. Can you write it for me?"
    assert _counts(query) == [("paragraphs", "exactly", 5)]
    assert _counts("Give me your top 3 picks for sci-fi novels.") == [("items", "exactly", 3)]


def test_a_range_with_max_is_an_upper_bound_only() -> None:
    query = "What should I bring to a potluck? 4-5 ideas max, easy to transport."
    assert _counts(query) == [("items", "at_most", 5)]
    assert _passes(_items(3), query)
    assert not _passes(_items(7), query)

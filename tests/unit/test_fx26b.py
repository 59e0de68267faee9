"""fx26b: four misreadings of a request a fresh set showed, each mended as a rule.

1. A range of list items ("3 or 4 plants", "3 to 5", "3-5", "3–5", "a couple or three") is
   at least the low number and at most the high one, not exactly the first.
2. A bound after the count or alone in its clause ("8 items max", "5 tops", ", no more
   than 5") is at most that many of the list named before it.
3. A count or form named inside quoted material, or naming the asker's material ("for a
   paragraph about bees", "a paragraph she wrote"), asks nothing of the answer's form.
4. An ask with no content word of its own ("What could it be", "is that normal?", "how do
   I fix it?") refers back to the situation: no part of its own to cover.
"""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze, split_asks


def _counts(query: str) -> list[tuple[str | None, str, object]]:
    return [
        (k.unit, k.relation, k.value) for k in analyze(query).instructions if k.check == "count"
    ]


def _passes(answer: str, query: str) -> bool:
    """Whether ``answer`` passes every count the request implies."""
    found = [k for k in analyze(query).instructions if k.check == "count"]
    return all(check_instruction(answer, k)[0] is not False for k in found)


def _items(n: int) -> str:
    return "Here you go:\n\n" + "\n".join(f"- Pick number {i}, which suits it." for i in range(n))


# --- 1. a range of list items ---------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "lo", "hi"),
    [
        ("could you suggest 2 or 3 podcasts about medieval history?", 2, 3),
        ("I'd like two or three recipes for red lentils", 2, 3),
        ("list 4 to 6 houseplants that cope with a dark hallway", 4, 6),
        ("give me 3-5 snack ideas for a long train ride", 3, 5),
        ("name 5–7 board games for a family with teens", 5, 7),
        ("recommend a couple or three day trips from Lyon", 2, 3),
        ("want 4 or 5 books like The Martian, no romance", 4, 5),
        ("top 3 to 5 picks for a rainy weekend in Leeds", 3, 5),
        ("5 or 6 gift ideas for a dad who fishes", 5, 6),
        ("suggest a couple of podcasts about chess", 2, 3),
    ],
)
def test_a_range_of_items_is_read_as_at_least_and_at_most(query: str, lo: int, hi: int) -> None:
    assert _counts(query) == [("items", "at_least", lo), ("items", "at_most", hi)]


def test_every_way_of_writing_a_range_reads_the_same() -> None:
    readings = {
        tuple(_counts(f"give me {r} ideas for a rainy afternoon"))
        for r in ("3 or 4", "3 to 4", "3-4", "3–4", "3 - 4", "three or four")
    }
    assert readings == {(("items", "at_least", 3), ("items", "at_most", 4))}


def test_a_range_in_a_numbered_list_counts_numbered_items() -> None:
    assert _counts("a numbered list of 4-6 stretches for tight hips") == [
        ("numbered", "at_least", 4),
        ("numbered", "at_most", 6),
    ]


@pytest.mark.parametrize(("n", "passed"), [(2, False), (3, True), (4, True), (5, False)])
def test_an_answer_inside_the_range_passes(n: int, passed: bool) -> None:
    assert _passes(_items(n), "want 3 or 4 plants for a shady kitchen windowsill") is passed


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # a single count keeps its exact reading
        ("give me 3 ideas for a rainy afternoon", [("items", "exactly", 3)]),
        ("suggest 5 books about stoicism", [("items", "exactly", 5)]),
        # a range from one is no list count, as one alone is none
        ("what are the one or two key ideas I should remember?", []),
        # an age, not a count of items
        ("I need ideas for my 3-4 year old's birthday party", []),
        # the units keep the reading "2-3 sentences" had: at most the high end
        ("write 2-3 sentences about otters", [("sentences", "at_most", 3)]),
        ("write 3 or 4 sentences about otters", [("sentences", "at_most", 4)]),
        ("two or three paragraphs on the fall of Rome", [("paragraphs", "at_most", 3)]),
        ("sum up the plot in a sentence or two", [("sentences", "at_most", 2)]),
        ("explain the offside rule in a paragraph or two", [("paragraphs", "at_most", 2)]),
        # verse counted in blocks reads a range as a range
        ("write 2 or 3 haikus about fog", [("stanzas", "at_least", 2), ("stanzas", "at_most", 3)]),
    ],
)
def test_near_misses_of_a_range(query: str, expected: list[tuple[str, str, int]]) -> None:
    assert _counts(query) == expected


def test_each_item_to_one_or_two_sentences_is_a_limit_on_every_item() -> None:
    query = (
        "Give me exactly 4 numbered steps to bleed a radiator. Keep each step to one or two"
        " sentences."
    )
    assert ("item_sentences", "at_most", 2) in _counts(query)
    assert ("sentences", "exactly", 2) not in _counts(query)


# --- 2. a bound after the count, or alone in its clause --------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("packing list for a ski weekend? numbered list, 10 items max pls", ("numbered", 10)),
        ("5 ideas max for a cheap date night", ("items", 5)),
        ("just 4 tips tops on keeping basil alive", ("items", 4)),
        ("3 tips at most, I'm busy", ("items", 3)),
        ("tips for a first marathon, no more than 6", ("items", 6)),
        ("some podcast picks for a road trip, 5 tops", ("items", 5)),
        ("numbered steps for descaling a kettle, 7 max", ("numbered", 7)),
        ("max 8 tips for a tidy garage", ("items", 8)),
        ("give me 6 tips max on saving for a house", ("items", 6)),
        ("150 words max on why the sky is blue", ("words", 150)),
        ("max 200 words on the causes of WW1", ("words", 200)),
        ("keep it to 100 words tops", ("words", 100)),
        ("explain compound interest, 3 sentences at most", ("sentences", 3)),
    ],
)
def test_a_bound_reads_at_most(query: str, expected: tuple[str, int]) -> None:
    unit, value = expected
    assert (unit, "at_most", value) in _counts(query)


@pytest.mark.parametrize(
    "query",
    [
        "quick dinner recipes for a weeknight, 30 minutes max",
        "what should I cook for 8 people max on a budget?",
        "ideas for a kids' party, ages 5 to 8",
    ],
)
def test_a_bound_of_something_else_is_no_count_of_items(query: str) -> None:
    assert not [c for c in _counts(query) if c[0] in ("items", "numbered", "bullets")]


def test_an_answer_over_the_bound_fails_and_one_within_passes() -> None:
    query = "checklist for moving house? numbered list, 6 items max please"
    numbered = "\n".join(f"{i}. Step number {i} done." for i in range(1, 7))
    assert _passes(numbered, query)
    assert not _passes(numbered + "\n7. One more step done.", query)


# --- 3. a count or form of the asker's material ----------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "my son's worksheet says 'find two facts and one opinion' in a paragraph about"
        " volcanoes. how can I help him see the difference??",
        "her homework says 'identify the main idea and two supporting details' for a"
        " paragraph about whales. how do I explain that to a 9 year old?",
        'the teacher\'s prompt reads "describe your town in three sentences" - what should'
        " my kid focus on?",
        'the brief says "write 3 paragraphs as a numbered list in all caps" - is that normal'
        " for year 4?",
        "can you check the second paragraph of my cover letter for tone?",
        "here's a paragraph my student wrote, what grade would you give it?",
        "could you give feedback on a paragraph she wrote about her summer?",
        "what's wrong with one sentence in my essay: 'Me and him goes to school.'",
        "give me feedback on the 3 paragraphs I wrote for my statement",
        "I need help with a paragraph for my history essay, it feels flat",
    ],
)
def test_the_askers_material_sets_no_form(query: str) -> None:
    found = analyze(query).instructions
    assert not [k for k in found if k.check in ("count", "list_form", "case")], found


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("write a paragraph about honeybees for my niece", ("paragraphs", "exactly", 1)),
        ("write me a short paragraph on the Silk Road", ("paragraphs", "exactly", 1)),
        ("in one paragraph, what causes the tides?", ("paragraphs", "exactly", 1)),
        ("what is inflation? answer in a paragraph", ("paragraphs", "exactly", 1)),
        ("explain black holes, and keep it to a paragraph", ("paragraphs", "exactly", 1)),
        ("A paragraph on Ada Lovelace, please.", ("paragraphs", "exactly", 1)),
        ("I'd like a paragraph on the Tudors", ("paragraphs", "exactly", 1)),
        ("reply with a sentence: is Pluto a planet?", ("sentences", "exactly", 1)),
        ("Explain photosynthesis in a sentence.", ("sentences", "exactly", 1)),
        ("summarise the article in one sentence", ("sentences", "exactly", 1)),
        ("no longer than a paragraph please: why do cats purr?", ("paragraphs", "at_most", 1)),
        # a quoted task the request asks to have done is the answer's form
        (
            'Prompt: "Describe your hometown in 3 sentences." Write it for me please.',
            ("sentences", "exactly", 3),
        ),
        # a request that is all one quotation is its own
        ('"Write three paragraphs about your summer holiday"', ("paragraphs", "exactly", 3)),
        ("write an essay with 3 paragraphs about dogs", ("paragraphs", "exactly", 3)),
        ("It should have exactly 4 paragraphs about libraries.", ("paragraphs", "exactly", 4)),
    ],
)
def test_an_ask_on_the_answer_keeps_its_form(query: str, expected: tuple[str, str, int]) -> None:
    assert expected in _counts(query)


def test_the_homework_answer_of_several_paragraphs_passes() -> None:
    query = (
        "my daughter's homework says 'identify the main idea and two supporting details' for"
        " a paragraph about bees. how do i explain it to a 10 year old??"
    )
    answer = (
        "The main idea is what the whole paragraph is mostly about.\n\n"
        "Supporting details are the facts that show the main idea is true.\n\n"
        "Try asking her: if she had to say it in one sentence, what would it be?"
    )
    assert _passes(answer, query)


# --- 4. an ask that refers back to the situation ---------------------------------------


def test_an_ask_with_no_content_word_goes_with_the_situation() -> None:
    asks = split_asks(
        "My washing machine bangs loudly during the spin cycle. What could it be, and is it"
        " safe to keep using it?"
    )
    assert asks == (
        "My washing machine bangs loudly during the spin cycle. What could it be",
        "is it safe to keep using it?",
    )


def test_a_situation_told_in_short_sentences_is_read_back_to_enough_words() -> None:
    asks = split_asks(
        "The boiler keeps losing pressure. It started in May. What's going on, and should I"
        " call a Gas Safe engineer?"
    )
    assert asks[0] == "The boiler keeps losing pressure. It started in May. What's going on"
    assert asks[1] == "should I call a Gas Safe engineer?"


@pytest.mark.parametrize(
    "query",
    [
        # after a question of its own that it only rewords: one ask
        "Should I repot my fern now or wait until spring, and what would you do?",
        # nothing before it to refer to: left out
        "What should I do? My landlord is keeping my whole deposit.",
        "Is that normal? My cat sleeps 18 hours a day.",
    ],
)
def test_an_ask_that_refers_back_is_no_part_of_its_own(query: str) -> None:
    assert split_asks(query) == ()
    assert analyze(query).asks == ()


def test_an_ask_that_refers_back_is_kept_with_the_situation_beside_another_part() -> None:
    asks = split_asks(
        "My cat sneezes a lot after eating. Is that normal? Should I switch to a wet food?"
    )
    assert asks == (
        "My cat sneezes a lot after eating. Is that normal?",
        "Should I switch to a wet food?",
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "When's the best time to visit Kyoto, and what should I pack?",
            ("When's the best time to visit Kyoto", "what should I pack?"),
        ),
        (
            "How long do I boil eggs, and how do I peel them?",
            ("How long do I boil eggs", "how do I peel them?"),
        ),
        (
            "What does error 404 mean, and should I contact my host?",
            ("What does error 404 mean", "should I contact my host?"),
        ),
        (
            "My car squeals when I start it. Is it the serpentine belt, and is it safe to keep"
            " driving?",
            ("Is it the serpentine belt", "is it safe to keep driving?"),
        ),
    ],
)
def test_asks_with_words_of_their_own_stay_apart(query: str, expected: tuple[str, ...]) -> None:
    assert split_asks(query) == expected


def test_the_instructions_of_a_request_are_still_inferred_instructions() -> None:
    (k,) = [k for k in analyze("give me 3-5 ideas").instructions if k.relation == "at_least"]
    assert isinstance(k, Instruction) and k.inferred


@pytest.mark.parametrize(
    ("query", "parts"),
    [
        # a remedy asked after a cause or a diagnosis is a part of its own
        (
            "Why is my sourdough so dense, and what should I do about it?",
            ("Why is my sourdough so dense", "what should I do about it?"),
        ),
        (
            "My cat has started scratching the sofa. Why might she be doing this and how can I"
            " stop it?",
            (
                "My cat has started scratching the sofa. Why might she be doing this",
                "how can I stop it?",
            ),
        ),
        (
            "My radiator is cold at the top. Is that normal? What should I do?",
            ("My radiator is cold at the top. Is that normal?", "What should I do?"),
        ),
        (
            "Why does my laptop fan run constantly, and how do I fix it?",
            ("Why does my laptop fan run constantly", "how do I fix it?"),
        ),
        (
            "My dog licks his paws all evening. Why is that? And what should I do?",
            ("My dog licks his paws all evening. Why is that?", "what should I do?"),
        ),
        (
            "How can I tell if my dog is overweight, and how do I help him?",
            ("How can I tell if my dog is overweight", "how do I help him?"),
        ),
    ],
)
def test_a_remedy_after_a_cause_stays_its_own_part(query: str, parts: tuple[str, ...]) -> None:
    assert split_asks(query) == parts


@pytest.mark.parametrize(
    "query",
    [
        # the same decision asked twice, or a remedy after a situation only: one ask
        "Got a 10-hour layover in Doha. Worth leaving the airport? What would you do?",
        "My laptop fan is loud all the time. Any ideas? What should I do?",
    ],
)
def test_a_remedy_after_no_cause_joins_the_ask(query: str) -> None:
    assert split_asks(query) == ()

"""fx28c: what a reviewer's round of 252 cases found over-reaching in the fx28 rules.

1. A closing hedge hedges the list count only when no other number stands between them
   ("5 snacks under 200 calories, roughly" is still 5 snacks).
2. An act done with an appliance rules out the appliance only when every place named is one
   ("no cooking in the morning", "in the dorm" rule out cooking); only known acts take their
   place ("no herring in the salad", "no Riesling in the sangria" are the herring and the
   Riesling); a place of two words is named by its head ("no drilling in the bathroom
   tiles" is drilling in tiles, which "drill two holes into the tiles" does).
3. "not allowed to" inside a question of the rule ("Am I not allowed to use a VPN in
   China?") excludes nothing; where or when it holds ("in my flat", "at work", "on
   weekdays") and what it would be for ("for commuting") are no part of the thing; "alone"
   is ("rely on willpower alone" rules out only that).
4. "Exam results are out today" tells what is published; "the room on the ground floor" is
   a room told by where it is.
5. In answers, "a flight of stairs", "a beer flight", "a fruit fly", "data-driven" are no
   flying or driving; "creep in", "shows up", "filtering out the chicken bones" are uses.
6. A quoted rule after a colon (": ... and at most 5 items at a time") sets no count.
7. JSON of short strings in a ```json fence is read as JSON.
8. An email frame with stops in its names ("Hi Dr. Patel,", "J. Smith") or a sign-off of its
   own words ("Thank you for your understanding,", "Thanks, Anna") holds no sentence.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.counting import letter_body, split_sentences
from scoregate.scoring.fusion import short_json_strings
from scoregate.scoring.request_analysis import analyze
from tests.unit.test_fx26b import _counts


@pytest.mark.parametrize(
    "query",
    [
        "Give me 5 snacks under 200 calories, roughly.",
        "Suggest 5 recipes that take 20 minutes, or so.",
        "I need 5 ideas for a team lunch for twelve people, give or take.",
    ],
)
def test_a_hedge_of_another_number_leaves_the_count(query: str) -> None:
    assert _counts(query) == [("items", "exactly", 5)]


def test_a_rule_quoted_after_a_colon_sets_no_count() -> None:
    query = (
        "Draft a notice for the library: borrowers may keep books 3 weeks, and at most 5"
        " items at a time."
    )
    assert _counts(query) == []


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("No cooking in the morning, what can I prep the night before?", ["cooking"]),
        ("No cooking in the dorm, ideas?", ["cooking"]),
        ("No cooking in the microwave tonight, what else?", ["microwave"]),
        ("No herring in the salad please", ["herring"]),
        ("No Riesling in the sangria", ["riesling"]),
        ("No drilling in the bathroom tiles please", ["drilling in tiles"]),
        ("No smoking in the back garden please", ["smoking in garden"]),
        ("Am I not allowed to use a VPN in China?", []),
        ("When am I not allowed to turn right on red?", []),
        ("Not permitted to have pets in my flat, what can I do for company?", ["pets"]),
        ("we're not permitted to use Slack at work", ["slack"]),
        ("I'd rather not rely on my car for commuting", ["car"]),
        ("rather not rely on willpower alone", ["willpower alone"]),
        ("Exam results are out today, how do I cope?", []),
        ("No cooking on weeknights, how do I batch cook on Sunday?", ["cooking on weeknights"]),
        ("Dogs aren't allowed to eat grapes, right?", []),
        ("No drilling in the bathroom walls, we rent. Shelves?", ["drilling in walls"]),
        ("Smoking isn't allowed to happen inside, where should guests go?", []),
        (
            "How do I run postgres and my node app in docker? Not allowed to use docker compose"
            " for this, instructor wants plain docker commands.",
            ["docker compose"],
        ),
        ("I don't want to ask my parents for money. What options do I have?", []),
        ("We can't use the room on the ground floor for the party, ideas?", []),
    ],
)
def test_the_reviewers_exclusions(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


@pytest.mark.parametrize(
    ("answer", "term", "used"),
    [
        ("Climb the flight of stairs to the loft.", "flying", False),
        ("Order a beer flight.", "flying", False),
        ("We have a fruit fly problem.", "flights", False),
        ("Use a data-driven approach.", "driving", False),
        ("We swam in the lake.", "swimming", True),
        ("Let the garlic flavour creep in slowly.", "garlic", True),
        ("Tofu also shows up in most of my stir-fries; fry it until crisp.", "tofu", True),
        ("Strain the stock, filtering out the chicken bones.", "chicken", True),
        ("Filtering out anything sold by Amazon helps.", "amazon", False),
    ],
)
def test_the_reviewers_answers(answer: str, term: str, used: bool) -> None:
    assert mentions(answer, term)[1] is used


def test_json_in_a_fence() -> None:
    query = "Which veg can I sow in April? Reply in JSON as a list of strings."
    assert short_json_strings(query, '```json\n["beetroot", "carrots"]\n```', 10) == 2


@pytest.mark.parametrize(
    "email",
    [
        "Hi Dr. Patel,\n\nThe boiler is broken. Please send someone.\n\nThanks,\nAnna",
        "Dear team,\nThe build is red. Please fix.\n\nBest,\nDr. Jane Smith",
        "Hello,\nI need a refund. My order never came.\n\nWarmly,\nJ. Smith\nAcme Ltd.",
        "Hi Sam,\nI will be late. The train is cancelled.\n\nThank you for your patience,\nAnna",
        "Hi Sam,\nI will be late. The train is cancelled.\n\nThanks, Anna",
    ],
)
def test_the_frame_of_an_email_with_stops_in_its_names(email: str) -> None:
    assert len(split_sentences(letter_body(email))) == 2


def test_a_fraction_of_a_flights_is_no_flying() -> None:
    answer = "It takes longer than flying, and the carbon footprint is a fraction of a flight's."
    assert mentions(answer, "fly") == (True, False)


def test_an_act_in_a_place_of_two_words_is_met() -> None:
    (item,) = analyze("No drilling in the bathroom tiles, how do I hang a towel rail?").excluded
    assert mentions("Drill two holes into the tiles and use wall plugs.", item)[1]


def test_json_nested_past_the_parsers_depth_is_no_crash() -> None:
    query = "Which veg can I sow in April? Reply in JSON as a list of strings."
    assert short_json_strings(query, "[" * 100_000 + "]" * 100_000, 10) is None
    assert short_json_strings(query, '[[["beetroot", ["carrots"]]], {"k": "kale"}]', 10) == 3

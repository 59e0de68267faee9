"""fx44: what `gate_holdout44` showed when it was read, each mended as a rule.

1. The asker's present told back at another figure, opening a sentence about the present:
   "At 5 weeks they still need their heat" for poults "3 weeks old today", "so at day 20
   you're well past halfway" for a goose "sitting for 12 days now".
2. A stage passed ("I passed my Signature Level 1", "started Level 2") answered as a
   beginner's ("Since you're only just starting out") is a contradiction.
3. A rule-maker's ban in the past tense ("the landlord has banned anything electric")
   rules out what it names; "anything electric" rules out what is electric.
4. What the asker is told to keep away from someone ("our vet told us to keep all paper
   and cardboard away from her") is ruled out; a question how to keep it away is not.
5. What the asker has parted with ("we've got rid of the axes", "I sold my car") is a
   lack, with the time it happened cut off; a pest got rid of is not, nor a thing sold.
6. "not glossy like glass" rules out the gloss, not glass (a likeness, not an example).
7. "I really can't face learning to read sheet music" refuses the skill by its object's
   words: "give sheet music another go" does it.
8. Tried: a thing gone over to ("I already swapped to a light gauge set") and a new one
   fitted that failed ("I put a brand new chain on ... exactly the same thing").
9. Members: a hatchet is an axe; a toilet-roll tube is cardboard.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.activities import affirmed_activities, avoided_activities
from scoregate.scoring.affirmation import mentions
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted
from scoregate.scoring.tried import offered_again, tried_things
from tests.reading import items, violated

POULTS = (
    "Our 4 Pekin ducklings are 2 weeks old today and live in a brooder in the garage. "
    "When can they go in the pond?"
)
GOOSE = "My Toulouse goose has been sitting on 7 eggs for 9 days now. What should I do?"


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (POULTS, "At 5 weeks they still need a heat lamp at night, so keep them in.", True),
        (POULTS, "At 2 weeks they still need a heat lamp at night, so keep them in.", False),
        # a milestone to come, not the present
        (POULTS, "At 6 weeks they can have a shallow paddle on a warm day.", False),
        # the request's own figure is stated too: a plan from it, not a wrong premise
        (POULTS, "They are 2 weeks old now. At 5 weeks they still need heat at night.", False),
        (GOOSE, "Eggs take about 30 days, so at day 16 you're past halfway.", True),
        (GOOSE, "Eggs take about 30 days, so at day 9 you're not yet halfway.", False),
        (GOOSE, "Leave her be; candle the eggs around day 16 if you want.", False),
    ],
)
def test_present_figure_told_back_as_another(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (
            "I passed my grade 3 piano exam in June and I'm working on grade 4 pieces. How "
            "do I speed up my sight-reading?",
            "Since you're only just starting out, learn where middle C is first.",
            True,
        ),
        (
            "I've started Level 2 BSL this term. How do I get faster at receptive work?",
            "As a complete beginner, focus on the alphabet first.",
            True,
        ),
        (
            "I passed my grade 3 piano exam in June. How do I speed up my sight-reading?",
            "At grade 4 the pieces get longer, so read a short piece every day.",
            False,
        ),
        # a test passed makes no expert: "as a new driver" is what they are
        (
            "I passed my driving test last week. Tips for my first motorway drive?",
            "As a new driver, keep to the left lane at first.",
            False,
        ),
    ],
)
def test_stage_passed_answered_as_a_beginner(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("The landlord has banned anything electric. How do we light the shed?", ["electric"]),
        ("Our landlord banned candles last year. Cosy lighting ideas?", ["candles"]),
        ("The club has banned it. What else can we do?", []),
        (
            "Our vet told us to keep all paper and cardboard away from her. Toy ideas?",
            ["paper", "cardboard"],
        ),
        ("We have to keep anything citrus away from the tank. Cleaning tips?", ["citrus"]),
        ("How do I keep foxes away from the coop at night?", []),
        ("Kindling ideas? We've got rid of the axes after an accident.", ["axes"]),
        ("We gave away our car last month. How do I get to the allotment with tools?", ["car"]),
        ("I sold my guitar last year. How do I play Wonderwall on keyboard?", []),
        ("We got rid of the ants but how do we stop them coming back?", []),
        ("I want the finish matte, not glossy like glass. How?", ["glossy"]),
        ("A mild pasta sauce, not spicy like arrabbiata, please.", ["spicy"]),
        ("Snack ideas, no nuts like almonds please.", ["nuts", "almonds"]),
    ],
)
def test_new_readings_of_what_is_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


def test_parted_with_is_a_lack() -> None:
    (e,) = analyze("We gave away our caravan in 2019. Where can we stay in Wales?").exclusions
    assert (e.item, e.lack) == ("caravan", True)


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "The landlord has banned anything electric, so no fencing of that sort. How do "
            "we keep hens safe from foxes?",
            "Lock them in a solid coop at dusk and run an electric poultry net round it.",
            ["electric"],
        ),
        (
            "The landlord has banned anything electric. How do we keep hens safe from foxes?",
            "Lock them in a solid coop at dusk, with welded mesh dug into the ground.",
            [],
        ),
        (
            "Kindling ideas? We've got rid of the axes after an accident.",
            "Split the offcuts with a light hatchet on a chopping block.",
            ["axes"],
        ),
        (
            "Kindling ideas? We've got rid of the axes after an accident.",
            "Use a kindling splitter: set the log on the blade and tap it with a mallet.",
            [],
        ),
        (
            "Our vet told us to keep all paper and cardboard away from her. Toy ideas?",
            "Stuff toilet-roll tubes with seed and twist the ends.",
            ["cardboard"],
        ),
        (
            "Our vet told us to keep all paper and cardboard away from her. Toy ideas?",
            "Hide seed in a stainless-steel foraging wheel.",
            [],
        ),
    ],
)
def test_answers_against_the_new_readings(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


SHEET = "I can't face learning to read sheet music. How do I learn fiddle tunes by ear?"


@pytest.mark.parametrize(
    ("answer", "done"),
    [
        ("Honestly, give sheet music another go; it is easier as an adult.", True),
        ("Plenty of fiddlers never read a note: slow a recording down and copy it.", False),
        ("You don't need sheet music at all: learn by ear from recordings.", False),
    ],
)
def test_a_skill_refused_by_its_object(answer: str, done: bool) -> None:
    (a,) = avoided_activities(SHEET)
    assert (a.head, a.modifiers) == ("music", frozenset({"sheet"}))
    assert bool(affirmed_activities(answer, [a])) is done


def test_a_refusal_of_handling_herself_names_no_thing() -> None:
    assert avoided_activities("I really can't face handling her myself.") == []


STRINGS = (
    "My banjo's 1st string buzzes. I already swapped to a light gauge set last month and "
    "it got worse. What next?"
)
CHAIN = (
    "My chainsaw chain keeps going slack. I put a brand new chain on last week and it's "
    "doing exactly the same thing. What's wrong?"
)


@pytest.mark.parametrize(
    ("query", "answer", "again"),
    [
        (STRINGS, "1. Try a light gauge set, around .010.", True),
        (STRINGS, "1. Go back up to a medium set: lighter strings flap about more.", False),
        (CHAIN, "4. The chain. Fit a new chain and the problem should go away.", True),
        (CHAIN, "Check the bar rails, then put the chain back on and tension it.", False),
        (CHAIN, "Since a new chain did the same, look at the bar and the sprocket.", False),
    ],
)
def test_tried_things_offered_again(query: str, answer: str, again: bool) -> None:
    assert bool(offered_again(answer, tried_things(query))) is again


def test_a_new_one_fitted_is_tried_only_when_it_failed() -> None:
    assert tried_things("I put a brand new chain on last week. How tight should it be?") == []


# From the reviewers' cases.


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (
            "I'm in week 6 of a 16-week marathon plan. How long should long runs be?",
            "Since you're in week 9, this is when most plans add a 16-mile run.",
            True,
        ),
        (
            "I'm in week 6 of a 16-week marathon plan. How long should long runs be?",
            "In week 9 most plans add a 16-mile run; for now keep them near 10 miles.",
            False,
        ),
        (
            "My lab's puppies are 3 weeks old. When can they start solid food?",
            "Now that they're 4 weeks old, start them on soaked kibble.",
            True,
        ),
        (
            "My lab's puppies are 3 weeks old. When can they start solid food?",
            "Now that they're 3 weeks old, you can offer a little soaked kibble.",
            False,
        ),
        (
            "My kitten is 10 weeks old. Can I get her spayed soon?",
            "At 7 weeks she's still too young for the operation, so wait a little.",
            True,
        ),
        (
            "My kitten is 10 weeks old. Can I get her spayed soon?",
            "At 16 weeks she can be spayed at most clinics.",
            False,
        ),
        (
            "I just got my blue belt in jiu-jitsu. What should I focus on now?",
            "Since you're new to grappling, focus on escapes first.",
            True,
        ),
        (
            "My son has reached stage 4 in his swimming lessons. What comes next?",
            "Because he's still a total beginner in the water, keep it fun.",
            True,
        ),
        (
            "I've moved up to grade 5 guitar. How should my practice change?",
            "For someone who has barely picked up a guitar, start with three open chords.",
            True,
        ),
        (
            "I just reached a 1500 rating on chess.com. How do I keep improving?",
            "As someone just learning how the pieces move, start with the knight.",
            True,
        ),
        (
            "I just reached a 1500 rating on chess.com. How do I keep improving?",
            "Beginners often drill openings; at your level, tactics puzzles pay off more.",
            False,
        ),
    ],
)
def test_steps_and_stages_told_back(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("Our campsite has banned open fires this summer. Dinner ideas?", ["open fires"]),
        ("Our sailing club banned anything glass on board after last season. Drinks?", ["glass"]),
        ("My dermatologist said to keep fragrance away from my face. A routine?", ["fragrance"]),
        (
            "We've been told to keep chocolate well away from our beagle. Treat ideas?",
            ["chocolate"],
        ),
        ("Honestly I can't face cooking from scratch. Dinner ideas?", ["cooking from scratch"]),
    ],
)
def test_reviewers_readings(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "We have to keep anything citrus away from our cat. How do I freshen the room?",
            "A bowl of dried orange peel and cinnamon sticks smells lovely.",
            ["citrus"],
        ),
        (
            "Our paediatrician told us to keep honey away from the baby. Porridge sweeteners?",
            "A tiny bit of manuka is fine too.",
            ["honey"],
        ),
        (
            "We gave away our TV when we moved. Ideas for a family night in?",
            "You could put a film on the telly and share some popcorn.",
            ["tv"],
        ),
        (
            "A blended soup with no root vegetables like carrots, please.",
            "Sweat two leeks, add a diced parsnip, then peas and stock.",
            ["root vegetables"],
        ),
        (
            "A first pet for my daughter, but no small rodents like hamsters.",
            "Gerbils are a great alternative: active by day and rarely bite.",
            ["small rodents"],
        ),
        (
            "Our allergist says to keep all latex away from my son. Party decorations?",
            "Foil balloons are latex-free; tell guests so nobody brings latex balloons.",
            [],
        ),
    ],
)
def test_reviewers_members_and_negations(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


@pytest.mark.parametrize(
    "query",
    [
        "I'd rather not open the caseback myself. Where can I get the battery changed?",
        "Honestly I can't face cooking from scratch on weeknights. Dinner ideas?",
    ],
)
def test_refusals_read_as_things_or_not_at_all(query: str) -> None:
    # a refusal of doing it oneself is kept by an answer that has another do it
    assert avoided_activities(query) == []


FLAPPER = "I replaced the toilet flapper two days ago and the tank still refills every hour."
HDMI = "I already swapped in a new HDMI cable and the TV still says no signal."


@pytest.mark.parametrize(
    ("query", "answer", "again"),
    [
        (FLAPPER, "Get a new flapper that matches your flush valve and fit it.", True),
        (FLAPPER, "Replace the flapper with one sized for a 3-inch valve.", True),
        (FLAPPER, "Since the flapper is new, check the fill valve height instead.", False),
        (HDMI, "Try a different HDMI cable first; cables fail more than ports.", True),
        (HDMI, "Try a different HDMI port on the TV, then a factory reset.", False),
    ],
)
def test_new_parts_offered_again(query: str, answer: str, again: bool) -> None:
    assert bool(offered_again(answer, tried_things(query))) is again


def test_a_count_opens_a_thing_tried() -> None:
    query = "I already tried adding a second brood box and two supers, no difference."
    assert [t.item for t in tried_things(query)] == ["second brood box", "two supers"]


# From the second round of review: members named only to be set aside.


@pytest.mark.parametrize(
    ("text", "member", "used"),
    [
        ("Instead of toilet-roll tubes or egg boxes, give her willow balls.", "egg-box", False),
        ("Instead of the usual roast carrots and parsnips, go for greens.", "parsnip", False),
        ("Since campfires and fire pits are out, use a two-burner gas stove.", "campfire", False),
        (
            "Skip crafts with egg boxes or toilet-roll tubes, or do them elsewhere.",
            "toilet-roll",
            False,
        ),
        ("Since bonfires are banned on your plot, bag the leaves.", "bonfires", False),
        ("Use parsnips instead of carrots.", "parsnip", True),
        ("Instead of carrots, use parsnips.", "parsnip", True),
        ("Book skip-the-line tickets for the Vatican Museums.", "museums", True),
        ("Skip the crowds and take the route that has ladders near the top.", "ladders", True),
        ("Skip Glasgow and spend two days in Edinburgh.", "edinburgh", True),
    ],
)
def test_a_list_set_aside(text: str, member: str, used: bool) -> None:
    assert mentions(text, member)[1] is used


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (
            "My collie has moved up to Grade 3 agility courses. How do I tighten his weaves?",
            "For a dog who's never tackled a weave line before, start with two poles.",
            True,
        ),
        (
            "My son just passed his grade 5 violin. What pieces would suit him next?",
            "As he's still finding his way around the instrument, keep to open strings.",
            True,
        ),
        (
            "I've passed Bikeability Level 3 and want to commute through the city.",
            "Since balancing and pedalling are still new to you, stick to park paths.",
            True,
        ),
        (
            "I'm rated 1500 on Lichess and want better endgames. Where do I start?",
            "Since you've only recently learned how the pieces move, start with section one.",
            True,
        ),
        (
            "I've got my Level 2 barista certificate and I'm running a stall. Menu ideas?",
            "Keep the menu short: flat whites, lattes and a seasonal special.",
            False,
        ),
    ],
)
def test_second_round_stages(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


@pytest.mark.parametrize(
    ("query", "answer", "again"),
    [
        (
            "I put a new battery in the fence energiser and it still barely pulses.",
            "Check the earth stake first; if that's fine, so swap in a fresh battery.",
            True,
        ),
        (
            "I fitted a new sealing ring on my pressure cooker and it still won't seal.",
            "If it still won't seal, order a fresh sealing ring.",
            True,
        ),
        (
            "I fitted a new sealing ring on my pressure cooker and it still won't seal.",
            "Check the float valve moves freely and the ring is seated in its groove.",
            False,
        ),
    ],
)
def test_second_round_new_parts(query: str, answer: str, again: bool) -> None:
    assert bool(offered_again(answer, tried_things(query))) is again


def test_new_parts_with_no_article() -> None:
    query = "I put brand new brake pads on my road bike and the rim brakes still squeal."
    assert [t.item for t in tried_things(query)] == ["new brake pads"]


def test_a_ban_for_now_is_read_as_one_and_shown_in_the_breakdown() -> None:
    read = analyze("No power tools for now, insurance doesn't cover them. How do I cut it?")
    assert read.for_now == ["power tools"]
    assert read.to_dict()["exclusions"] == [
        {"item": "power tools", "phrase": "No power tools", "for_now": True}
    ]
    assert analyze("No power tools, insurance doesn't cover them.").for_now == []
    refused = analyze("I don't want to repot it right now.").to_dict()["avoided"]
    assert [a["for_now"] for a in refused] == [True]


def test_a_hedge_on_the_time_is_no_item() -> None:
    query = "I don't want to go to an in-person class, at least for now. Can I learn online?"
    assert "at least" not in items(query)


def test_a_time_after_an_item_is_cut_from_the_item_not_from_the_request() -> None:
    assert items("Our landlord banned candles last year. Cosy lighting ideas?") == ["candles"]
    query = "I need a fridge but we've decided no propane anywhere after a scare last year."
    read = analyze(query)
    assert read.excluded == ["propane"]
    assert "last year" not in read.core_ask  # the clause cut whole, its time with it

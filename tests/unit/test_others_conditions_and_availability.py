"""What the exclusion check misread in good answers to fresh requests (2026-12-01): a
thing that is someone else's, what may happen, what the answer repeats from the request,
what products of a kind are usually made of, "off the list"; and on the request side, a
spaced "free" that says when something is available, a one-letter "R-free", a list run on
into the next clause. Each with the use next to it that must still be caught."""

from __future__ import annotations

import pytest

from scoregate.scoring.exclusions import parse_exclusions
from scoregate.scoring.membership import check_members
from tests.unit.test_harms_comparisons_and_conditions import _flags


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "Where can I keep my motorbike over winter? No garage, no driveway.",
            "Look for covered parking nearby, or ask to use a friend's garage for the winter.",
        ),
        (
            "My fig tree is struggling indoors. No balcony and no garden, sadly.",
            "Give it the sunniest window. If it still declines, ask a friend with a garden to"
            " host it for the summer.",
        ),
        (
            "I don't own a drill. How do I hang a 5 kg mirror?",
            "Use adhesive strips rated for 6 kg, or borrow a drill from a neighbour for the"
            " anchors.",
        ),
        (
            "Any natural ways to ease a tension headache? No painkillers, I've taken too many.",
            "Since you mention taking painkillers often, see a doctor about rebound headaches.",
        ),
        (
            "Cow has a warm quarter but no fever. What can I do tonight?",
            "Strip the quarter every few hours. If she spikes a fever, call the vet at once.",
        ),
        (
            "How do I store an old lens so it doesn't get fungus?",
            "Keep it in a dry box. If you see fungus inside the elements, take it to a repair"
            " shop.",
        ),
        (
            "Kitchen cabinets for a chemically sensitive client: no particleboard.",
            "Build the boxes from solid wood. Ask the maker in writing, because standard"
            " flat-pack boxes are usually particleboard.",
        ),
        (
            "Container candles for a friend with a serious soy allergy?",
            "Coconut wax pours well. Read the ingredient list, because many coconut waxes are"
            " blended with soy.",
        ),
        (
            "Best compass for orienteering? No thumb compass, I keep dropping them.",
            "With thumb compasses off the list, a sport baseplate compass is the way to go.",
        ),
        (
            "Free ways to learn Spanish? No paid apps or subscriptions, I'm broke.",
            "Use the library's courses and podcasts. Nothing here needs a subscription.",
        ),
        (
            "Job hunting in cloud engineering, but I don't have a degree. How do I stand out?",
            "Lead with experience and skills, so the missing degree barely matters.",
        ),
        (
            "Rate limiter on managed Redis: no Lua scripts allowed. How?",
            "Since Lua is unavailable, use MULTI/EXEC with INCR and EXPIRE.",
        ),
        (
            "I don't own a drill. How do I hang a 5 kg mirror on plasterboard?",
            "Use self-drilling plasterboard anchors: screw them in by hand.",
        ),
        (
            "How do I store an old lens so it doesn't get fungus?",
            "Keep it in a dry cabinet with silica gel to prevent fungus.",
        ),
    ],
)
def test_a_thing_named_without_being_used_is_not_flagged(query: str, answer: str) -> None:
    assert _flags(query, answer) == []


@pytest.mark.parametrize(
    ("query", "answer", "flag"),
    [
        (
            "Where can I keep my motorbike over winter? No garage, no driveway.",
            "Rent a garage nearby: most councils let them from about £40 a month.",
            "garage",
        ),
        (
            "I don't own a drill. How do I hang a 5 kg mirror?",
            "Drill two holes with your drill and use wall plugs.",
            "drill",
        ),
        (
            "Any natural ways to ease a tension headache? No painkillers.",
            "Take two painkillers with water and rest in a dark room.",
            "painkillers",
        ),
        (
            "A pasta sauce without garlic, please.",
            "If it tastes flat, add two cloves of garlic with the onion.",
            "garlic",
        ),
        (
            "Kitchen cabinets for a chemically sensitive client: no particleboard.",
            "Use particleboard carcasses with a hardwood face frame.",
            "particleboard",
        ),
        (
            "Free ways to learn Spanish? No paid apps or subscriptions.",
            "Nothing beats a Babbel subscription for structure.",
            "subscriptions",
        ),
        (
            "I don't own a drill. How do I hang a 5 kg mirror on plasterboard?",
            "Drill a pilot hole with a cordless drill, then fit a self-drilling anchor.",
            "drill",
        ),
    ],
)
def test_a_use_beside_them_is_still_caught(query: str, answer: str, flag: str) -> None:
    assert flag in _flags(query, answer)


@pytest.mark.parametrize(
    "query",
    [
        "We land Friday at 7pm and fly out Sunday at 10am, so really just Saturday free. Ideas?",
        "Darts night at our pub. The landlord wants the board free by half ten. What format?",
        "2.1 Å data, R-work 0.19 and R-free 0.27. Is that gap a problem?",
    ],
)
def test_a_free_that_is_not_a_left_out_thing_excludes_nothing(query: str) -> None:
    assert parse_exclusions(query) == []


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("A sugar free dessert for my dad please", ["sugar"]),
        ("I need it sugar free for my dad.", ["sugar"]),
        ("I want a cat food that's grain free.", ["grain"]),
        ("A nut-free, egg-free cake?", ["nut", "egg"]),
    ],
)
def test_what_is_free_of_something_is_still_read(query: str, excluded: list[str]) -> None:
    assert parse_exclusions(query) == excluded


def test_a_list_ends_where_a_clause_of_its_own_begins() -> None:
    q = (
        "3-chair barbershop. I don't want to switch to appointments, walk-ins are our thing"
        " and the regulars like it. How do I handle the Saturday rush?"
    )
    assert parse_exclusions(q) == ["switch to appointments"]
    assert parse_exclusions("No nuts, eggs or dairy please") == ["nuts", "eggs", "dairy"]


def test_a_word_wider_than_the_class_is_no_member() -> None:
    import numpy as np

    # "drinks" as close to "alcohol" as a member could be: a heading over sparkling water
    near = {"alcohol", "drinks", "prosecco"}

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.0] if t in near else [0.0, 1.0] for t in texts])

    answer = "Drinks: sparkling water with lime, iced tea and a jug of squash."
    assert check_members(["alcohol"], answer, embed=embed, min_cosine=0.7).violated == []
    check = check_members(["alcohol"], answer + " Pour prosecco.", embed=embed, min_cosine=0.7)
    assert check.violated == [("alcohol", "prosecco")]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "Solid perfume for my sister, absolutely no citrus, she reacts to it in the sun.",
            "I've kept all the citrus oils out: lavender and cedar give it freshness.",
        ),
        (
            "Drop earrings for a customer with a nickel allergy: nickel-free only.",
            "Avoid cheap plated findings: the plating wears and there's often a nickel underlayer.",
        ),
        (
            "A short poem for my gran, I don't want rhyming.",
            "End on a repeated line, which the ear hears as a close, like a rhyme would.",
        ),
        (
            "Dry stone wall repair: no mortar or cement anywhere.",
            "The wall stands by the weight of the stones and their placement.",
        ),
        (
            "A GCSE teacher on jury service: I can't leave my class without their teacher.",
            "A brief supporting letter from your headteacher helps.",
        ),
    ],
)
def test_kept_out_often_held_compared_or_a_chance_ending_is_no_use(query: str, answer: str) -> None:
    assert _flags(query, answer) == []


@pytest.mark.parametrize(
    ("query", "answer", "flag"),
    [
        ("A snack without nuts please.", "Try a handful of walnuts.", "nuts"),
        ("Solid perfume, no citrus please.", "Keep the bergamot and citrus oils in.", "citrus"),
        ("Food parcel: no pork products.", "Tinned ham and beans.", "pork products"),
        ("Vegan boots: no animal products.", "Resole with leather.", "animal products"),
        ("Nothing milk-based please.", "Block with 5% skimmed milk in TBST.", "milk"),
    ],
)
def test_compounds_classes_and_bases_are_still_caught(query: str, answer: str, flag: str) -> None:
    assert flag in _flags(query, answer)


def test_a_place_after_not_even_is_where_the_exclusion_holds_not_a_thing() -> None:
    q = "Conservation officer says: no mortar or cement anywhere, not even on the copes. How?"
    assert parse_exclusions(q) == ["mortar", "cement"]
    assert parse_exclusions("I don't want to drive on the freeway.") == ["drive"]

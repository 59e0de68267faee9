"""An excluded name found in its compounds, and an excluded thing left aside by the answer."""

from __future__ import annotations

import pytest

from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze


def _violated(query: str, answer: str) -> list[str]:
    analysis = analyze(query)
    check = check_members(
        analysis.excluded,
        answer,
        embed=None,
        asked=analysis.asked,
        request=query,
        situations=analysis.situations,
    )
    return [item for item, _ in check.violated]


TOKYO = "4 days in Tokyo with two kids in April. Day trip ideas? No Disney, not our thing."
KIDS = "Party ideas for my son's 8th birthday? No Lego please, the house is full of it."


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (TOKYO, "Take the train to Tokyo DisneySea: it's nothing like the Paris park."),
        (TOKYO, "A day at Tokyo Disneyland is easy from the city."),
        (KIDS, "Book a day at Legoland with a few of his friends."),
        (KIDS, "A LegoWorld building party is a hit at that age."),
    ],
)
def test_a_ruled_out_name_is_found_in_its_compounds(query: str, answer: str) -> None:
    assert _violated(query, answer)


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (TOKYO, "Kamakura has an almost Disneyesque tidiness, but it is a real seaside town."),
        (TOKYO, "Leaving Disney aside, Kamakura and Yokohama are both an hour away."),
        (TOKYO, "Setting Disney to one side, try the Ghibli Museum and Kamakura's beach."),
        (KIDS, "Putting Lego aside, a climbing-wall party suits 8-year-olds."),
    ],
)
def test_a_name_left_aside_or_only_echoed_is_not_used(query: str, answer: str) -> None:
    assert not _violated(query, answer)


def test_set_aside_in_a_recipe_keeps_the_thing_for_later() -> None:
    query = "Dinner ideas with no mushrooms? My partner can't stand them."
    assert _violated(query, "Fry the onions, then set the mushrooms aside for the sauce.")
    assert not _violated(query, "Setting mushrooms aside, a leek and pea risotto works well.")


GAMES = "family games night ideas pls!! kids are 8 and 11. no Monopoly, it always ends in tears"
HIKE = "day hike near Chamonix with bad vertigo, so nothing with ladders or chains. ideas?"


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (GAMES, "Leaving Monopoly out, here are some quick ones:\n- Kingdomino\n- Sushi Go"),
        (HIKE, "Walk the Grand Balcon Sud. Skip the Lac Blanc approach, which has ladders."),
        (HIKE, "Avoid the Aiguillette path, which has chains on its last section."),
    ],
)
def test_a_thing_left_out_or_named_in_what_to_skip_is_not_used(query: str, answer: str) -> None:
    assert not _violated(query, answer)


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (GAMES, "Leaving Monopoly out of it would be a shame: Monopoly Deal plays fast."),
        (HIKE, "Skip the crowds and take the route that has ladders near the top."),
        (HIKE, "Do the Lac Blanc approach, which has ladders bolted to the rock."),
    ],
)
def test_a_thing_still_offered_is_used(query: str, answer: str) -> None:
    assert _violated(query, answer)


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("Barn wedding on 14th December, dress code 'smart'. I'm a guy. Suit or no suit??", []),
        ("Should I bake it with or without eggs?", []),
        ("ok to eat cheese when pregnant?? my sister says no cheese AT ALL. which are fine", []),
        ("Pond is 3,000 litres, small pump but no filter. Should I add a filter?", []),
        ("Pesto without pine nuts? Can I use walnuts instead of pine nuts?", ["pine nuts"]),
        ("Dinner idea, no mushrooms please. Are mushrooms in most risottos?", ["mushrooms"]),
    ],
)
def test_an_item_the_request_asks_about_is_not_ruled_out(query: str, excluded: list[str]) -> None:
    assert [e.item for e in analyze(query).exclusions] == excluded

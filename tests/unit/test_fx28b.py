"""fx28b: misreadings `gate_holdout28` showed after its one measure, each mended as a rule.

1. "not allowed to use X" rules X out when the asker (or no one named) is not allowed; a
   question of the rules ("when are you NOT allowed to castle?") and a subject that is
   someone else's ("kids aren't allowed ...") exclude no person.
2. "rather not rely on X" rules X out; what X would be for ("for power") is no part of it.
3. ", and no more than 6 steps" is a count; ", and max 2 games in a row" (a rule the asker
   quotes) is none.
4. The frame of an email (subject, greeting, sign-off and the name under it) holds no
   sentence of a count.
5. A cross-contact warning ("so nothing picks up crumbs from bread", "keep it away from
   bread", "equipment used for barley beers can cross-contaminate"), a product warning
   ("since lots of them contain mustard"), "filtering out any Amazon sellers" and "swearing
   often turns up in a second verse" use nothing.
6. "a flight" is flying, "we drove" driving: irregular forms of an act meet it.
7. JSON of short strings, asked for as JSON, is not held to cosine relevance (review at
   most, as a list of short items is).
"""

from __future__ import annotations

import json

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.counting import letter_body, split_sentences
from scoregate.scoring.fusion import short_json_strings
from scoregate.scoring.instruction_rules import infer_instructions
from scoregate.scoring.request_analysis import analyze


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        (
            "Not allowed to use docker compose for this, instructor wants plain docker.",
            ["docker compose"],
        ),
        ("Constraints: we're not allowed to use AWS (client contract forbids it).", ["aws"]),
        ("I am not allowed to eat gluten, what can I bake?", ["gluten"]),
        ("kids aren't allowed to have screens after 7, ideas?", ["screens"]),
        ("In chess, when are you NOT allowed to castle?", []),
        ("I'd really rather not rely on a petrol generator for power.", ["petrol generator"]),
    ],
)
def test_not_allowed_and_rely_on(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


def test_a_spelled_bound_after_and_is_a_count_a_quoted_rule_is_not() -> None:
    counts = [
        (k.unit, k.relation, k.value)
        for k in infer_instructions("answer all in lowercase pls, and no more than 6 steps")
        if k.check == "count"
    ]
    assert counts == [("items", "at_most", 6)]
    quoted = (
        "Write a short msg for our group chat about the new court rules: paddles go in the"
        " rack, and max 2 games in a row if people are waiting."
    )
    assert [k for k in infer_instructions(quoted) if k.check == "count"] == []


EMAIL = (
    "Subject: Bathroom ceiling leak - repair needed\n\nHi [Landlord's name],\n\nThere's been"
    " a leak in my bathroom ceiling for two weeks. I'm worried about mould. Could you arrange"
    " a repair this week? I can give access after 5pm.\n\nThanks,\n[Your name]"
)


def test_the_frame_of_an_email_is_no_sentence() -> None:
    assert len(split_sentences(EMAIL)) == 7
    assert len(split_sentences(letter_body(EMAIL))) == 4
    # a closing thanks in prose is a sentence as before
    assert letter_body("Great question. Thanks!") == "Great question. Thanks!"


@pytest.mark.parametrize(
    ("answer", "term"),
    [
        ("Use a clean board and tray so nothing picks up crumbs from bread.", "bread"),
        ("Keep it away from bread and crackers.", "crackers"),
        (
            "Clean everything, since equipment used for barley beers can cross-contaminate.",
            "barley",
        ),
        (
            "Also double-check any BBQ sauce you glaze with, since lots of them contain mustard.",
            "mustard",
        ),
        ("Bookfinder-style comparison sites, filtering out any Amazon sellers.", "amazon"),
        ("Swearing often turns up in a second verse or outro.", "swearing"),
    ],
)
def test_warnings_use_nothing(answer: str, term: str) -> None:
    assert mentions(answer, term) == (True, False)


@pytest.mark.parametrize(
    ("answer", "term"),
    [
        ("Toast the bread and serve.", "bread"),
        ("Add 1 tsp dry mustard powder.", "mustard"),
        ("Amazon Marketplace listings are often the cheapest.", "amazon"),
        ("Nothing beats bread with soup.", "bread"),
    ],
)
def test_uses_still_count(answer: str, term: str) -> None:
    assert mentions(answer, term)[1]


def test_json_of_short_strings_asked_for_as_json() -> None:
    query = (
        "Which veg can I sow outdoors in April? Reply in JSON as a list of strings and nothing"
        " else."
    )
    veg = json.dumps(["beetroot", "carrots", "lettuce", "radish"])
    assert short_json_strings(query, veg, 10) == 4
    assert short_json_strings(query, "beetroot, carrots, lettuce", 10) is None
    assert short_json_strings("Which veg can I sow outdoors in April?", veg, 10) is None
    long = json.dumps(
        ["a sentence of far more than ten words about sowing veg outdoors in April"] * 2
    )
    assert short_json_strings(query, long, 10) is None


@pytest.mark.parametrize(
    ("answer", "term", "used"),
    [
        ("Book a flight from Gatwick to Rome.", "flying", True),
        ("Take the sleeper train; no flights needed.", "fly", False),
        ("We drove there in 3 hours.", "driving", True),
        ("Skip the fruit flies.", "flights", False),
    ],
)
def test_irregular_forms_of_an_act_meet_the_act(answer: str, term: str, used: bool) -> None:
    assert mentions(answer, term)[1] is used

"""fx29: misreadings `gate_holdout29` showed after its one measure, each mended as a rule.

1. "no buzzwords - none of passionate, dynamic, team player, etc." rules out each word of
   the list ("etc" is no word); "none of my friends" and "none of this" list nothing.
2. What a cut-out exclusion leaves of its sentence is no ask: "Id rather not pay for an
   accountant if I can avoid it - is self assessment ..." is asked as "Is self assessment
   ...", not "Id if I can - is self assessment ...".
3. An exclusion's item ends before a time ("no lift next month": the lift), a clause after
   "so" ("I don't have Excel so don't suggest that": Excel), the asker's feeling ("another
   24 month deal, hated it") and "yet" ("no flip tricks yet"; not "not pushed yet", a
   state); "pay for", "locked into" and "another" are no part of it.
4. "non-wool options" and "lots of 'acrylic' yarns are actually blends with 20-30% wool in
   them" use no wool; a dash between two numbers is a range, no clause break.
5. "lift" the building's is not the verb: "try lifting a few in a shop", "you can lift it"
   and "lifting straps" use no lift; "a fishing rod" is no fish.
6. Retinol is a retinoid, merino is wool.
7. JSON with the keys the request names is data the cross-encoder cannot judge: held at
   review at least; a deep-nested JSON or YAML answer is invalid, not a crash.
8. "since you've got a decent-sized tank at around 120 litres" restates the request's own
   "30-litre tank" as another figure: the request's noun, then "of" or "at" and the figure.
"""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.affirmation import clause_tokens, mentions
from scoregate.scoring.fusion import fuse, keyed_json
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members, class_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted

CFG = load_scoring_config()


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        (
            "Rewrite my CV summary. Please no buzzwords — none of passionate, dynamic,"
            " team player, results-driven, etc.",
            ["buzzwords", "passionate", "dynamic", "team player", "results-driven"],
        ),
        ("None of my friends drink. Party ideas?", []),
        ("None of this works, what now?", []),
        ("Moving out of a flat with no lift next month. Tips for the sofa?", ["lift"]),
        (
            "no paid software and I don't have Excel so don't suggest that",
            ["paid software", "excel"],
        ),
        ("I want to avoid getting locked into another 24 month deal, hated it.", ["24 month deal"]),
        ("I'd rather not pay for an accountant if I can avoid it.", ["accountant"]),
        ("convert it without a for loop", ["for loop"]),
        ("quick q, what trick should i learn after ollie? no flip tricks yet", ["flip tricks"]),
        ("clients hate open-ended bills and honestly so do I.", ["open-ended bills"]),
    ],
)
def test_what_an_exclusion_names(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


def test_a_state_with_yet_is_kept_whole() -> None:
    # "not pushed yet" tells where the commit is: no "pushed" that an answer could break
    assert (
        "pushed" not in analyze("committed by accident, not pushed yet. how do i undo it?").excluded
    )


@pytest.mark.parametrize(
    ("query", "core"),
    [
        (
            "First year freelancing. Id rather not pay for an accountant if I can avoid it —"
            " is self assessment something I can do myself?",
            "First year freelancing. Is self assessment something I can do myself?",
        ),
        (
            "Two nights wild camping. I want to avoid carrying a stove and gas — what no-cook"
            " food would work?",
            "Two nights wild camping. What no-cook food would work?",
        ),
        # a changed sentence with words of the ask in every clause is kept as it is
        ("Soup ideas, no onions, for 4?", "Soup ideas for 4?"),
    ],
)
def test_a_stub_left_by_a_cut_exclusion_is_dropped(query: str, core: str) -> None:
    assert analyze(query).core_ask == core


@pytest.mark.parametrize(
    ("answer", "used"),
    [
        ("Plenty of good non-wool options for a chunky jumper.", False),
        ('Lots of "acrylic" yarns are actually blends with 20–30% wool in them.', False),
        ("Many brands are blended with wool.", False),
        ("Use a merino blend with wool in it.", True),
        ("My pick is a 20–30% wool blend.", True),
    ],
)
def test_wool_named_as_a_warning_or_negated(answer: str, used: bool) -> None:
    assert mentions(answer, "wool")[1] is used


def test_a_number_range_is_no_clause_break() -> None:
    assert clause_tokens("blends with 20–30% wool")[1] == [0, 0, 0, 0, 0]
    assert clause_tokens("bake – then add")[1] == [0, 1, 1]


@pytest.mark.parametrize(
    ("answer", "used"),
    [
        ("Use lifting straps and moving blankets.", False),
        ("Try lifting a few in a shop before you buy.", False),
        ("You can lift it with one hand.", False),
        ("Book the lift for the morning of your move.", True),
        ("Take the lift to the ground floor.", True),
    ],
)
def test_the_lift_is_the_noun(answer: str, used: bool) -> None:
    assert mentions(answer, "lift")[1] is used


def test_a_fishing_rod_is_no_fish() -> None:
    assert mentions("Pack a fishing rod and some bait.", "fish")[1] is False
    assert mentions("Grill the fish for dinner.", "fish")[1] is True


def test_retinol_is_a_retinoid_and_merino_is_wool() -> None:
    assert "retinol" in class_members("retinoids")
    assert "merino" in class_members("wool")
    check = check_members(["retinoids"], "A low-strength retinol serum twice a week.")
    assert [item for item, _ in check.violated] == ["retinoids"]


_TEA = (
    "Give me brewing guidance for sencha as JSON only, with the keys water_temp_c,"
    " grams_per_100ml and steep_seconds."
)


@pytest.mark.parametrize(
    ("answer", "keys"),
    [
        (
            '{"water_temp_c": 70, "grams_per_100ml": 3, "steep_seconds": 60}',
            ["water_temp_c", "grams_per_100ml", "steep_seconds"],
        ),
        (
            '```json\n[{"water_temp_c": 70, "grams_per_100ml": 3, "steep_seconds": 60}]\n```',
            ["water_temp_c", "grams_per_100ml", "steep_seconds"],
        ),
        ('{"water_temp_c": 70, "grams_per_100ml": 3}', None),  # a key missing
        ("Use water at 70C and steep for a minute.", None),  # no JSON
        (  # prose in a value: the models can read it
            '{"water_temp_c": 70, "grams_per_100ml": 3, "steep_seconds": "about a minute, then'
            ' pour it all out so the leaves do not stew and turn the second cup bitter"}',
            None,
        ),
    ],
)
def test_json_with_the_keys_asked_for(answer: str, keys: list[str] | None) -> None:
    assert keyed_json(_TEA, answer, 10) == keys


def test_no_keys_asked_means_no_keyed_json() -> None:
    assert keyed_json("Reply in JSON.", '{"a": 1}', 10) is None


@pytest.mark.parametrize(
    "query",
    [
        "Give me the settings as JSON only, with the keys a and b.",
        "Reply in YAML.",
        "Put the config in a JSON code block.",
    ],
)
def test_a_deep_nested_answer_is_invalid_not_a_crash(query: str) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    verdicts = [check_instruction(deep, k)[0] for k in analyze(query).instructions]
    assert verdicts and all(v is not True for v in verdicts)


def _fused_json(content: str, precision: float) -> tuple[str, float, list[str]]:
    request = ScoreRequest.model_validate({"query": _TEA, "content": content})
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.71),
        "precision": TrackScore(name="precision", score=precision),
    }
    r = fuse(request, tracks, CFG)
    return r.action, r.score, r.reasons


def test_json_with_the_asked_keys_is_held_at_review_not_sent_back() -> None:
    data = '{"water_temp_c": 70, "grams_per_100ml": 3, "steep_seconds": 60}'
    action, score, reasons = _fused_json(data, precision=0.1)
    assert action == "review" and score == CFG.actions.review
    assert any("JSON with the keys the request names" in r for r in reasons), reasons
    # the same model scores on prose are not lifted
    action, _, _ = _fused_json("Use water at 70C, 3 g per 100ml, steep 60 s.", precision=0.1)
    assert action != "review" and action != "accept"
    # and a high score is left as it is
    _, high, _ = _fused_json(data, precision=0.99)
    assert high > CFG.actions.review


_TANK = "Got a 30-litre tank that's been cycled for a month now. What fish could I stock it with?"


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (
            "Since you've got a decent-sized tank at around 120 litres, you have options.",
            "you've got a decent-sized tank at around 120 litres",
        ),
        (
            "Since you've got a tank of 120 litres, go for angelfish.",
            "you've got a tank of 120 litres",
        ),
        ("Since you have a tank of 30 litres, keep it to one betta.", None),  # the request's own
        ("Angelfish need a tank of at least 120 litres.", None),  # general, not the asker's
        ("If you had a tank of 120 litres, angelfish would work.", None),  # supposed
    ],
)
def test_the_requests_noun_then_another_figure_of_it(answer: str, said: str | None) -> None:
    found = contradicted(_TANK, answer)
    assert (found[0][0] if found else None) == said

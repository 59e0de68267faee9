"""Precision track with a fake cross-encoder, and the explicit exclusion check."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from scoregate.config.tracks import PrecisionConfig
from scoregate.scoring.precision import (
    check_exclusions,
    content_chunks,
    lift_short,
    mentions,
    parse_exclusions,
    precision_scores,
    stem,
    strip_exclusions,
)


class WhitespaceTokenizer:
    def __call__(self, text: str, **_: Any) -> dict[str, list[tuple[int, int]]]:
        return {"offset_mapping": [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]}


class FakeCrossEncoder:
    """Scores 0.9 when the content contains the keyword, else 0.1; records calls."""

    def __init__(self, keyword: str = "dog") -> None:
        self.tokenizer = WhitespaceTokenizer()
        self.keyword = keyword
        self.calls: list[list[tuple[str, str]]] = []

    def predict(self, sentences: list[tuple[str, str]], **_: Any) -> list[float]:
        self.calls.append(list(sentences))
        return [0.9 if self.keyword in c else 0.1 for _, c in sentences]


#: The fake scores stand for the model's own; the short-answer lift has its tests below.
CFG = PrecisionConfig(max_length=24, chunk_overlap=4, exclusion_penalty=0.5, short_answer_lift=0)


def test_a_lack_stated_is_not_penalised_like_an_exclusion() -> None:
    model = FakeCrossEncoder()
    query = "We won't have a car, only trains. Plan 3 days in Switzerland?"
    [t] = precision_scores(model, [(query, "Pick up a rental car in Zurich.")], CFG)
    assert t.details["violated"] == ["car"] and t.details["violated_lacks_only"] is True
    assert t.score == pytest.approx(t.details["model_score"])  # no penalty
    assert "uses car, which the request says is not available ('won't have a car')" in t.reasons


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("I do NOT want a picture of a dog", ["dog"]),
        ("Banana bread without nuts, please.", ["nuts"]),
        ("Factorial in Python; never use recursion.", ["recursion"]),
        ("Any gift other than chocolate", ["chocolate"]),
        ("Pasta with no onions or garlic", ["onions", "garlic"]),
        ("Suggest a sport that isn't tennis", ["tennis"]),
        ("Make it gluten-free", ["gluten"]),
        ("I'm allergic to shellfish.", ["shellfish"]),
        ("Play anything but jazz", ["jazz"]),
        ("I don't want to use external libraries", ["external libraries"]),
        ("Draw an animal, but not a cat.", ["cat"]),
        ("Keep my boss out of it", ["boss"]),
        ("I want a picture of a dog", []),
        ("No more than three items", []),
        ("What is the capital of France?", []),
        ("Is it safe to take ibuprofen without food?", []),
        ("Can you suggest a paella without shellfish?", ["shellfish"]),
        ("Fluffy pancakes without eggs - is that possible?", ["eggs"]),
        ("Cookies, but nothing with raisins.", ["raisins"]),
        ("A film for tonight. Not a horror film.", ["horror film"]),
        ("A laptop bag, not leather.", ["leather"]),
        ("Sorting in Go please - not Java.", ["java"]),
        ("Podcasts for a flight, nothing too long.", ["long"]),
        ("Dance music, nothing by Abba.", ["abba"]),
        ("A hike near Zurich, nothing spicy.", ["spicy"]),
        ("Workouts, nothing that needs weights.", ["weights"]),
        ("Cross Spain, never by bus.", ["bus"]),
        ("A salsa recipe, I hate onions.", ["onions"]),
        ("Thank the host, but don't bring up the wine.", ["wine"]),
        ("Not peanuts, I'm allergic.", ["peanuts"]),
        ("Do it now, not later.", ["later"]),
        ("I'm not sure what to cook.", []),
        ("Nothing else matters to me.", []),
        ("A cake, not too sweet.", []),
    ],
)
def test_parse_exclusions(query: str, expected: list[str]) -> None:
    assert parse_exclusions(query) == expected


@pytest.mark.parametrize(
    ("content", "seen", "affirmed"),
    [
        ("Here is a picture of a dog.", True, True),
        ("Here is a cat; no dogs anywhere.", True, False),
        ("A dog-free garden scene.", True, False),
        ("A quiet garden with roses.", False, False),
    ],
)
def test_mentions(content: str, seen: bool, affirmed: bool) -> None:
    assert mentions(content, "dog") == (seen, affirmed)


def test_hyponym_compound_counts_as_a_mention() -> None:
    assert mentions("Fold in chopped walnuts.", "nuts") == (True, True)


def test_multiword_term_needs_all_words() -> None:
    assert mentions("It keeps a local variable.", "global variables") == (False, False)
    assert mentions("It uses a global counter variable.", "global variables") == (True, True)


def test_stem_groups_word_forms() -> None:
    assert stem("recursion") == stem("recursively") == stem("recursive")
    assert stem("dogs") == stem("dog")


def test_check_exclusions_reasons() -> None:
    bad = check_exclusions("Cake without nuts", "Add the walnuts and bake.")
    assert bad.violated == ["nuts"]
    assert bad.reasons() == ["request excludes 'nuts' but the answer includes it"]
    ok = check_exclusions("Cake without nuts", "This cake is nut-free.")
    assert ok.violated == [] and ok.ruled_out == ["nuts"]


def test_free_as_a_price_is_no_negation_and_modifiers_may_stand_apart() -> None:
    q = "Ways to learn Spanish words without using any apps?"
    assert check_exclusions(q, "1. Anki, a free flashcard app: ten minutes a day.").violated
    assert not check_exclusions(q, "Label your fridge; stay free of apps for a month.").violated
    kit = "Repair kit for my commute? Skip the CO2 cartridges."
    assert check_exclusions(kit, "- two CO2 cartridges and a tyre lever").violated
    # the modifier in another clause, or far from the head, is another thing
    assert not check_exclusions(kit, "CO2 aside, pack two glue cartridges.").violated
    meat = "Dinner ideas, no red meat please."
    assert not check_exclusions(meat, "Stuffed red peppers with lean ground turkey meat.").violated
    assert check_exclusions(meat, "Sear the red meat, then rest it.").violated


def test_one_predict_call_and_scores_in_range() -> None:
    model = FakeCrossEncoder()
    pairs = [("show me a dog", "a dog"), ("show me a dog", "a cat")]
    out = precision_scores(model, pairs, CFG)
    assert len(model.calls) == 1
    assert [t.score for t in out] == pytest.approx([0.9, 0.1])
    assert all(t.name == "precision" for t in out)


def test_exclusion_penalty_applies_when_excluded_term_is_affirmed() -> None:
    model = FakeCrossEncoder()
    [t] = precision_scores(model, [("I do NOT want a dog", "Here is a dog")], CFG)
    assert t.score == pytest.approx(0.9 * 0.5)
    assert t.details["model_score"] == pytest.approx(0.9)
    assert t.details["violated"] == ["dog"]
    assert "uses dog, which the request excludes ('NOT want a dog')" in t.reasons


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Cookies with no chocolate, please.", "Cookies."),
        ("Dinner ideas please, but I can't eat gluten.", "Dinner ideas."),
        ("I'm allergic to shellfish. Can you suggest a paella?", "Can you suggest a paella?"),
        ("What's a salad dressing that doesn't use oil?", "What's a salad dressing?"),
        ("Give me a brownie recipe that's dairy-free.", "Give me a brownie recipe."),
        ("Family trip to Canada; we don't want long hikes.", "Family trip to Canada."),
        ("Binary search in Python without recursion.", "Binary search in Python."),
        ("I do NOT want a picture of a dog", ""),
        ("Is it safe to run without water?", "Is it safe to run without water?"),
        ("Write an email in Italian.", "Write an email in Italian."),
        ("Shoes for wide feet, not Adidas.", "Shoes for wide feet."),
        ("I don't want a hamster, I want a rabbit.", "I want a rabbit."),
        ("A gift for my aunt? No books, she has hundreds.", "A gift for my aunt?"),
        ("A bread recipe, I have no yeast.", "A bread recipe."),
        ("I'm after a jacket that isn't made with wool.", "I'm after a jacket."),
    ],
)
def test_strip_exclusions_keeps_what_the_request_asks_for(query: str, expected: str) -> None:
    assert strip_exclusions(query) == expected


class KeywordScorer(FakeCrossEncoder):
    """0.9 when the query asks for cookies and the content has them, 0.2 for any query
    that excludes something (the model's habit the second reading corrects)."""

    def predict(self, sentences: list[tuple[str, str]], **_: Any) -> list[float]:
        self.calls.append(list(sentences))
        return [0.2 if "no " in q else (0.9 if "cookies" in c else 0.1) for q, c in sentences]


def test_request_with_exclusion_is_also_scored_without_it() -> None:
    model = KeywordScorer()
    query = "Cookies with no chocolate, please."
    good, bad = precision_scores(
        model, [(query, "Oatmeal raisin cookies."), (query, "Chocolate chip cookies.")], CFG
    )
    assert len(model.calls) == 1 and len(model.calls[0]) == 4
    assert good.details["core_query"] == "Cookies." and good.details["core_score"] == 0.9
    assert good.score == pytest.approx((0.2 + 0.9) / 2)
    # The excluded term affirmed: the mean is penalised.
    assert bad.details["violated"] == ["chocolate"]
    assert bad.score == pytest.approx((0.2 + 0.9) / 2 * 0.5)
    assert good.score > 0.5 > bad.score


def test_second_reading_can_be_switched_off() -> None:
    cfg = CFG.model_copy(update={"score_without_exclusions": False})
    model = KeywordScorer()
    [t] = precision_scores(model, [("Cookies with no chocolate, please.", "Oat cookies.")], cfg)
    assert len(model.calls[0]) == 1 and "core_score" not in t.details
    assert t.score == pytest.approx(0.2)


def test_exclusion_check_can_be_switched_off() -> None:
    cfg = CFG.model_copy(update={"exclusion_check": False})
    [t] = precision_scores(FakeCrossEncoder(), [("I do NOT want a dog", "Here is a dog")], cfg)
    assert t.score == pytest.approx(0.9)
    assert "violated" not in t.details


def test_empty_content_scores_zero() -> None:
    model = FakeCrossEncoder()
    [t] = precision_scores(model, [("q", "")], CFG)
    assert t.score == 0.0 and "empty" in t.reasons[0]
    assert model.calls == []


def test_long_content_is_chunked_and_best_chunk_counts() -> None:
    model = FakeCrossEncoder()
    content = " ".join(["filler"] * 60) + " dog"
    chunks = content_chunks(model, "show me one", content, CFG)
    assert len(chunks) > 1 and "dog" in chunks[-1]
    assert all(len(c.split()) + 3 + 3 <= CFG.max_length for c in chunks)
    [t] = precision_scores(model, [("show me one", content)], CFG)
    assert t.score == pytest.approx(0.9)
    assert t.details["chunks"] == len(chunks)


def test_exclusion_matches_compounds_but_not_word_fragments():
    from scoregate.scoring.precision import check_exclusions

    assert check_exclusions("a recipe without nuts", "add walnuts and peanuts").violated
    clean = check_exclusions("a recipe without nuts", "simmer for 15 minutes, then serve")
    assert clean.excluded == ["nuts"] and clean.violated == []


def test_short_answer_lift_adds_logits_by_how_short_the_answer_is() -> None:
    cfg = PrecisionConfig(short_answer_lift=2.0, short_answer_words=40)
    # 10 words: 2.0 * (1 - 10/40) = 1.5 logits on 0.5 (logit 0) -> sigmoid(1.5)
    assert lift_short(0.5, 10, cfg) == pytest.approx(1 / (1 + math.exp(-1.5)))
    assert lift_short(0.5, 40, cfg) == 0.5 and lift_short(0.5, 90, cfg) == 0.5
    assert lift_short(0.9, 5, cfg) > lift_short(0.9, 20, cfg) > 0.9  # shorter, more lift
    assert lift_short(0.9, 5, PrecisionConfig(short_answer_lift=0)) == 0.9  # 0: off
    assert PrecisionConfig().short_answer_lift == 1.5  # the shipped default
    assert 0.0 < lift_short(0.0, 1, cfg) < 0.001 and lift_short(1.0, 1, cfg) <= 1.0


def test_short_answer_lift_in_the_track_names_the_raw_score() -> None:
    model = FakeCrossEncoder()
    cfg = PrecisionConfig(short_answer_lift=3.0, short_answer_words=40)
    short, long_ = "The dog is fine.", "The dog is fine. " * 12
    [s, lg] = precision_scores(model, [("Is my dog ok?", short), ("Is my dog ok?", long_)], cfg)
    assert s.details["raw_model_score"] == pytest.approx(0.9) and s.details["words"] == 4
    assert s.score == pytest.approx(lift_short(0.9, 4, cfg)) and s.score > 0.97
    assert "0.90 before the short-answer lift, 4 words" in s.reasons[0]
    assert lg.score == pytest.approx(0.9) and "raw_model_score" not in lg.details


def test_short_answer_lift_applies_to_both_readings_of_an_exclusion_request() -> None:
    model = FakeCrossEncoder()
    cfg = PrecisionConfig(short_answer_lift=2.0, short_answer_words=40)
    [t] = precision_scores(model, [("A dog name, no puns please.", "Call the dog Biscuit.")], cfg)
    lifted = lift_short(0.9, 4, cfg)
    assert t.details["core_score"] == pytest.approx(lifted, abs=1e-4)
    assert t.score == pytest.approx(lifted)

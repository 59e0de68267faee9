"""Misreadings found on the sweep's held-back requests (twelfth session): a dot inside a
name, "yes or no", places, questions about why or about what is ruled out, pasted
quotations, chores ruled out by how often, quoted words and swaps in the answer, short
negators the membership check did not see, and counts of what comes with the answer."""

from __future__ import annotations

import numpy as np
import pytest

from scoregate.scoring.affirmation import check_exclusions, stem
from scoregate.scoring.exclusions import parse_exclusions, strip_exclusions
from scoregate.scoring.membership import _affirmed_words, _same_family, check_members
from scoregate.scoring.request_analysis import inferred_constraints

GO = (
    "Go: count lines containing 'ERROR' in a log. Don't read the whole file into memory "
    "(no os.ReadFile / io.ReadAll) - it's 20 GB."
)


def test_a_dot_inside_a_name_ends_neither_the_item_nor_the_sentence() -> None:
    assert parse_exclusions(GO) == ["os.readfile", "io.readall"]
    assert parse_exclusions("A Node.js server without Express.js, please") == ["express.js"]
    assert check_exclusions(GO, "data, _ := os.ReadFile(path)\ncount it").violated == [
        "os.readfile"
    ]
    assert check_exclusions(GO, "f, _ := os.Open(path)\nsc := bufio.NewScanner(f)").violated == []
    assert parse_exclusions("no nuts. Cake ideas please") == ["nuts"]


def test_yes_or_no_is_a_choice_of_reply() -> None:
    assert parse_exclusions("Answer with yes or no first, then one sentence of why.") == []
    assert parse_exclusions("Answer yes or no: is it safe? No jargon please.") == ["jargon"]


def test_a_place_is_not_an_item() -> None:
    query = "NO key files anywhere. Not in the repo, not in CI secrets. How do I authenticate?"
    assert "repo" not in parse_exclusions(query)
    assert "in the repo" not in parse_exclusions(query)
    assert "java" in parse_exclusions("Write it in Python, not in Java.")


@pytest.mark.parametrize(
    "query",
    [
        "why does my python for loop skip elements when i remove items from the list?",
        "Why should I avoid palm oil?",
        "How come the app doesn't show notifications?",
        "We have a septic system. What can and can't go down our drains and toilet?",
    ],
)
def test_questions_about_why_or_about_what_is_ruled_out_exclude_nothing(query: str) -> None:
    assert parse_exclusions(query) == []
    assert strip_exclusions(query) == query.strip()


def test_a_question_with_a_real_exclusion_still_has_it() -> None:
    assert parse_exclusions("What can I cook that doesn't use the oven?") == ["oven"]


def test_a_quotation_pasted_on_its_own_line_is_material() -> None:
    query = (
        "Answer from the policy wording below, in one sentence.\n1. Is flood covered?\n\n"
        '"Key Facts. Covered: fire, flood, theft. Not covered: wear and tear, gradual '
        'damage, damage while the home is empty for 60 days."'
    )
    assert parse_exclusions(query) == []


def test_how_often_is_not_what() -> None:
    query = "I want a smartwatch but I'd rather not have to charge it every night"
    assert parse_exclusions(query) == []
    assert check_exclusions(query, "It lasts two weeks between charges.").violated == []
    assert parse_exclusions("I'd rather not cook. Ideas?") == ["cook"]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "air purifier for a bedroom, but no ionizers",
            "Pick a HEPA-only model. Check the spec sheet for words like 'ionizer' or "
            "'plasma' and avoid any with them.",
        ),
        (
            "school lunch ideas, nothing with nuts",
            "Hummus wraps; many bars say 'may contain nuts', which nut-free schools ban.",
        ),
        (
            "goat milk soap, but she's allergic to coconut",
            "Olive oil 16 oz, castor oil 2 oz (boosts lather, which coconut usually provides).",
        ),
        (
            "smoothie with no banana",
            "Frozen mango (gives the creaminess banana usually does) and yogurt.",
        ),
        ("vegan cake, instead of eggs?", "Use a flax egg or 60 g apple sauce per egg."),
    ],
)
def test_a_quoted_word_a_swap_and_a_unit_of_a_swap_are_no_uses(query: str, answer: str) -> None:
    assert check_exclusions(query, answer).violated == []


@pytest.mark.parametrize(
    ("query", "answer", "used"),
    [
        ("soap, allergic to coconut", "Melt 10 oz coconut oil with the lye.", ["coconut"]),
        ("deep clone, no lodash", 'import cloneDeep from "lodash/cloneDeep";', ["lodash"]),
        ("deep clone, no lodash", "lodash's cloneDeep handles dates.", ["lodash"]),
        ("a dip with no garlic", 'Stir in the "garlic" paste.', []),
        ("cake with no eggs", "Beat 2 eggs per cup of flour.", ["eggs"]),
    ],
)
def test_uses_are_still_uses(query: str, answer: str, used: list[str]) -> None:
    assert check_exclusions(query, answer).violated == used


def test_stem_drops_a_possessive() -> None:
    assert stem("garlic's") == stem("garlic")


def test_short_negators_rule_out_members() -> None:
    words = _affirmed_words("No red meat at all. Add the chicken.")
    assert "meat" not in words and "chicken" in words
    assert "milk" not in _affirmed_words("Read labels, since milk powder turns up everywhere.")
    assert "minced" not in _affirmed_words("Add 3 minced garlic cloves.")


def test_a_participle_is_no_member() -> None:
    assert check_members(["meat"], "Add 3 minced garlic cloves and the beans.").violated == []
    assert check_members(["meat"], "Brown the mince with the onion.").violated == [
        ("meat", "mince")
    ]


def test_a_word_of_the_items_family_is_the_item_not_a_member() -> None:
    assert _same_family(stem("grind"), "blade grinders")
    assert not _same_family(stem("burr"), "blade grinders")
    assert not _same_family(stem("airpods"), "airpods-style stems")  # a modifier, no head

    def embed(texts: list[str]) -> np.ndarray:  # "grind" as close to the item as can be
        near = {"blade grinders", "grind", "espresso"}
        return np.array([[1.0, 0.0] if t in near else [0.0, 1.0] for t in texts])

    answer = "A Timemore C3 hand grinder gives a very even grind for pour-over."
    assert check_members(["blade grinders"], answer, embed=embed, min_cosine=0.7).violated == []
    check = check_members(["blade grinders"], answer + " Or espresso.", embed=embed, min_cosine=0.7)
    assert check.violated == [("blade grinders", "espresso")]


@pytest.mark.parametrize(
    ("query", "counted"),
    [
        ("Give me the RAG status with a 2-sentence justification.", False),
        ("Give me the verdict with a one-sentence reason.", False),
        ("Answer with a one-sentence reply.", True),
        ("Explain it in 2 sentences.", True),
    ],
)
def test_a_count_of_what_comes_with_the_answer(query: str, counted: bool) -> None:
    sentences = [i for i in inferred_constraints(query) if i.unit == "sentences"]
    assert bool(sentences) == counted


UPPER = (
    "convert a list of strings to uppercase in python without a for loop or a list comprehension"
)


@pytest.mark.parametrize(
    ("answer", "used"),
    [
        ("```python\nupper_words = [w.upper() for w in words]\n```", ["list comprehension"]),
        (
            "```python\nupper_words = []\nfor w in words:\n    upper_words.append(w.upper())\n```",
            ["for loop"],
        ),
        ("```python\nupper_words = list(map(str.upper, words))\n```", []),
        ("No for loop needed: `list(map(str.upper, words))` does it.", []),
    ],
)
def test_code_constructs_ruled_out_are_found_as_written(answer: str, used: list[str]) -> None:
    items = parse_exclusions(UPPER)
    assert items == ["for loop", "list comprehension"]
    assert [item for item, _ in check_members(items, answer).violated] == used


def test_other_code_constructs() -> None:
    assert check_members(["for loop"], "for (let i = 0; i < n; i++) { sum += a[i]; }").violated
    assert check_members(["regex"], "import re\nclean = re.sub(r'\\s+', ' ', s)").violated
    assert check_members(["while loop"], "while (x > 0) {\n  x--;\n}").violated
    sort = "people.sort(key=lambda p: p['age'])"
    assert check_members(["lambda functions"], sort).violated
    assert not check_members(["lambda functions"], "people.sort(key=itemgetter('age'))").violated
    assert not check_members(["loops"], "Use map; for each item the function runs once.").violated


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (
            "Free alternatives to Photoshop? Nothing browser-based, my internet is flaky.",
            ["browser"],  # (the base alone: fx46)
        ),
        (
            "One condition: NO service account key files anywhere. How?",
            ["service account key files"],
        ),
        ("I'd rather not deal with hills at all right now", ["hills"]),
        ("Pancakes with no eggs, with oat milk", ["eggs"]),
        ("No cheese with my pasta", ["cheese"]),
    ],
)
def test_more_items_read_whole(query: str, items: list[str]) -> None:
    assert parse_exclusions(query) == items


def test_a_connector_left_where_an_exclusion_was_cut_goes_too() -> None:
    assert strip_exclusions("Pancakes with no eggs, with oat milk") == "Pancakes, with oat milk."

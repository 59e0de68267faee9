"""Request analysis, inferred instruction checks and excluded-class membership.

Cases written for these tests; none is taken from the dev sets.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.constraints import Instruction
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.counting import count_words, split_sentences
from scoregate.scoring.engine import pure_tracks
from scoregate.scoring.fusion import fuse
from scoregate.scoring.instruction_rules import infer_instructions
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.language import detect_language
from scoregate.scoring.membership import check_members, is_class
from scoregate.scoring.request_analysis import analyze

CFG = load_scoring_config()
ROOT = Path(__file__).resolve().parents[2]


def checks(query: str) -> set[tuple[object, ...]]:
    return {
        (k.check, k.unit, k.relation, k.value if not isinstance(k.value, list) else tuple(k.value))
        for k in infer_instructions(query)
    }


# --- analysis -----------------------------------------------------------------------------------


def test_core_ask_drops_the_exclusion_and_the_reason_sentence():
    a = analyze("Soup ideas for tonight without onions? My flatmate hates them.")
    assert a.excluded == ["onions"]
    assert a.exclusions[0].phrase == "without onions"
    assert a.core_ask == "Soup ideas for tonight?"


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("I'd rather not use the dryer - how do I get towels soft?", "dryer"),
        ("Weekend plans in Porto; I don't want to drive anywhere.", "drive"),
        ("Lunchbox ideas, he's allergic to sesame.", "sesame"),
        ("Breakfast for a vegan guest", "dairy"),
        ("Team dinner spot, not into sushi.", "sushi"),
        ("I don't want to drive in Iceland at all. How do I see the coast?", "drive"),
        ("My cat scratches the couch and I don't want to declaw her.", "declaw"),
        ("snack ideas for a playdate, nothing with peanuts pls", "peanuts"),
        ("Small pets for a kid? Not rodents though, my wife hates them.", "rodents"),
        ("Need a new phone case, I'm never buying OtterBox again. Ideas?", "otterbox"),
        ("I'm not ordering from DoorDash anymore, what other delivery apps are there?", "doordash"),
    ],
)
def test_exclusions_and_negated_preferences(query, item):
    assert item in analyze(query).excluded


def test_chat_tails_and_clauses_after_the_exclusion_are_not_items():
    assert analyze("Small pets for a kid? Not rodents though, my wife hates them.").excluded == [
        "rodents"
    ]
    assert analyze("Oven cleaning: no harsh chemicals, and I don't want to buy any.").excluded == [
        "harsh chemicals"
    ]


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        (
            "When's the best time to hike in Patagonia, and what should I pack?",
            ["When's the best time to hike in Patagonia", "what should I pack?"],
        ),
        (
            "Can you give me a pasta recipe? Also, how long does it keep in the fridge?",
            ["Can you give me a pasta recipe?", "how long does it keep in the fridge?"],
        ),
        (
            "Explain how vaccines work and list the common side effects.",
            ["Explain how vaccines work", "list the common side effects."],
        ),
        (
            "Could you send me a packing list for Iceland AND a rough budget for a week?",
            ["Could you send me a packing list for Iceland", "a rough budget for a week?"],
        ),
        (
            "I need a cheap tent for two, plus how to keep it dry in heavy rain.",
            ["I need a cheap tent for two", "how to keep it dry in heavy rain."],
        ),
        ("We need salt and pepper grinders. Which brand lasts longest?", []),
        ("I need a rug for my hallway, it gets muddy and is really narrow.", []),
        ("I'd like a vegetarian lasagna recipe and a wine to go with it", []),
        ("I don't buy much online. Is Costco worth it for two people?", []),
        ("How do I fix a leaky faucet? It drips all night.", []),
        ("I use a wheelchair. Which Paris sights are accessible?", []),
        # a sentence that only sets the form is no ask of its own
        ("My brake squeals. How do I fix it? Please give me numbered steps.", []),
        (
            "how long do i boil eggs for jammy yolks? and any tricks for peeling them",
            ["how long do i boil eggs for jammy yolks?", "any tricks for peeling them"],
        ),
        ("how does scoring work in Ticket to Ride? explain it in exactly three bullet points", []),
    ],
)
def test_the_separate_asks_of_a_multi_part_request(query, asks):
    assert list(analyze(query).asks) == asks


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        (
            "how do i descale a kettle and also how often should i do it",
            ["how do i descale a kettle", "how often should i do it"],
        ),
        (
            "Is 2.5 mg of melatonin too much for a 10 year old, and when should she take it?",
            ["Is 2.5 mg of melatonin too much for a 10 year old", "when should she take it?"],
        ),
        ("What does the `?` operator do in Rust?", []),
        ("How to take: one tablet a day, and who should not take it: children under 12.", []),
    ],
)
def test_questions_typed_without_a_question_mark_and_stops_inside_numbers(query, asks):
    assert list(analyze(query).asks) == asks


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("Dessert for a diabetic friend, no sugar of any kind.", ["sugar"]),
        ("Dinner ideas? My son can't have sesame.", ["sesame"]),
        ("I don't have a degree but 6 years in IT. How should I structure my CV?", ["degree"]),
        ("i dont want to eat pasta again this week, dinner ideas?", ["pasta"]),
        ("Not buying Dell again after the last one died. Laptop under $900?", ["dell"]),
        ("Wedding outfit, I dont want to rent a tux (always fits weird).", ["tux"]),
        ("learning guitar, dont want to use apps like Yousician. tips?", ["apps", "yousician"]),
        ("Home workout. No equipment, not even dumbbells.", ["equipment", "dumbbells"]),
        # the thing first, then ruled out
        ("More cardio? Running is a no-go for me, my knees.", ["running"]),
        ("Flying is out of the question. Paris to Rome?", ["flying"]),
        ("A car isn't an option for us. Best way to see the Highlands?", ["car"]),
        ("Dairy, soy and gluten are a no-go. Breakfast ideas?", ["dairy", "soy", "gluten"]),
        ("Love pasta, rice, potatoes, dairy is a no-go.", ["dairy"]),
        ("Trains are fine and flying is a no-go.", ["flying"]),
        ("Nothing is off the table.", []),
        ("My plan is out of date, help me update it", []),
        (
            "Iceland trip, we don't want to do the Golden Circle, feels like every bus does it.",
            ["do the golden circle"],
        ),
    ],
)
def test_more_ways_to_exclude(query, excluded):
    assert analyze(query).excluded == excluded


def test_a_warning_about_where_an_item_hides_is_not_a_use_of_it():
    answer = "Gluten hides in soy sauce and stock cubes (wheat flour, malt), so check labels."
    assert check_members(["gluten"], answer).violated == []
    assert check_members(["gluten"], "Thicken it with wheat flour.").violated == [
        ("gluten", "wheat")
    ]


def test_just_the_command_is_code_alone():
    (k,) = [
        i
        for i in infer_instructions("rsync command to mirror two folders, just the command pls")
        if i.value == "code_only"
    ]
    assert check_instruction("rsync -a --delete src/ dst/", k)[0] is True
    assert check_instruction("```\nrsync -a src/ dst/\n```", k)[0] is True
    explained = "rsync -a --delete src/ dst/\n\nThe -a flag keeps permissions and the times."
    assert check_instruction(explained, k) == (
        False,
        "explanation with the code; the request asks for the code alone",
    )


def test_a_title_line_above_the_answer():
    query = "Give me a title and then 4 bullet points on keeping basil alive indoors."
    (k,) = [i for i in infer_instructions(query) if i.check == "title"]
    assert k.value == "plain"
    assert check_instruction("Keeping Basil Alive\n- sun\n- water\n- pinch\n- pot", k)[0]
    assert check_instruction("- sun\n- water\n- pinch\n- pot", k) == (
        False,
        "no title line above the answer; the request asks for one",
    )
    for other in (
        "Give me a title for my essay on tides",
        "Plot sales over time in matplotlib with a title and rotated labels",
    ):
        assert not [i for i in infer_instructions(other) if i.check == "title"]
    angle = "Pros and cons, with a title at the top in double angle brackets like <<this>>."
    assert [i.value for i in infer_instructions(angle) if i.check == "title"] == [None]


def test_a_stated_habit_is_not_an_exclusion():
    assert analyze("I don't buy much online. Is Costco worth it for two people?").excluded == []


def test_a_question_about_a_condition_excludes_nothing():
    assert analyze("Can a cast iron pan go without seasoning for a week?").excluded == []


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("What can I give my dog to chew on that isn't rawhide?", ["rawhide"]),
        ("Activities in Colorado that aren't skiing?", ["skiing"]),
        ("What can I grow in a pot that's not a tomato?", ["tomato"]),
        ("I'm not a jewellery person. How do I dress up a black dress?", ["jewellery person"]),
        # a "to be" that states a fact excludes nothing
        ("This is not a good idea.", []),
        ("My English is not so good, please help me write a letter to my landlord.", []),
        ("Using the standard library only: pandas isn't installed on this box.", []),
        ("Why do cats purr? I've read that's not solid science.", []),
        ("I'm not a scientist. Explain this press release.", []),
    ],
)
def test_is_not_excludes_only_in_a_relative_clause(query, excluded):
    assert analyze(query).excluded == excluded


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("List exactly four board games for two players.", ("count", "items", "exactly", 4)),
        ("Explain DNS in under 40 words.", ("count", "words", "at_most", 40)),
        ("Describe a sunset in fewer than 3 sentences.", ("count", "sentences", "at_most", 2)),
        ("Summarise it in one sentence.", ("count", "sentences", "exactly", 1)),
        ("Steps to repot a fern as a numbered list.", ("list_form", None, "exactly", "numbered")),
        ("Return the three largest moons as JSON.", ("format", None, "exactly", "json")),
        ("write a tweet about rain, all lowercase", ("case", None, "exactly", "lowercase")),
        ("A short bio with no commas please", ("forbidden_chars", None, "exactly", ",")),
        (
            "Is tap water safe in Oslo? Answer yes or no first.",
            ("yes_no_first", None, "exactly", None),
        ),
        (
            "Note to my landlord. End it with 'Kind regards, Priya'.",
            ("ends_with", None, "exactly", "Kind regards, Priya"),
        ),
        ("Tell me about tapas, respond in Spanish.", ("language", None, "exactly", "es")),
        ("Give it a title wrapped in double angular brackets.", ("title", None, "exactly", None)),
        ("Answer in three sentences max.", ("count", "sentences", "at_most", 3)),
        ("A 2-3 sentence blurb for my mug shop.", ("count", "sentences", "at_most", 3)),
        ("Tips as a numbered list of exactly 5 items.", ("count", "numbered", "exactly", 5)),
        (
            "Email my landlord about the faucet. Please end it with exactly: Thanks, Priya",
            ("ends_with", None, "exactly", "Thanks, Priya"),
        ),
        (
            "A note. End it with exactly: Thanks, Priya. Keep it under 100 words.",
            ("ends_with", None, "exactly", "Thanks, Priya"),
        ),
        # the bound after the noun: "5 tips max" is at most 5, not exactly 5
        ("give me 5 tips max for a job interview", ("count", "items", "at_most", 5)),
        # a bound that belongs to the next words is not the list's
        ("Name 3 rivers at least 1000 km long.", ("count", "items", "exactly", 3)),
        ("suggest 4 gift ideas or fewer", ("count", "items", "at_most", 4)),
        ("name 3 Spanish rivers or more", ("count", "items", "at_least", 3)),
        ("How do I take a screenshot? Bullet points, 3 max.", ("count", "bullets", "at_most", 3)),
        ("Explain recursion. Sentences: 2 tops.", ("count", "sentences", "at_most", 2)),
        ("Stretches for my back. Exactly 4 steps, please.", ("count", "items", "exactly", 4)),
        (
            "An essay in 3 paragraphs; the second paragraph must begin with the word 'Yet'.",
            ("paragraph_first_word", None, "exactly", "Yet"),
        ),
        (
            "A riddle. Start your response with the exact words 'Riddle me this:'",
            ("starts_with", None, "exactly", "Riddle me this:"),
        ),
        (
            "Fix a flat tyre; start your answer with the words 'Here's how'.",
            ("starts_with", None, "exactly", "Here's how"),
        ),
        (
            "A story about a lost umbrella. End the story with the exact phrase 'Home at last.'",
            ("ends_with", None, "exactly", "Home at last."),
        ),
        (
            "A poem about the moon. Make everything lowercase.",
            ("case", None, "exactly", "lowercase"),
        ),
        (
            "A sign for my yard sale, entirely in English capital letters.",
            ("case", None, "exactly", "uppercase"),
        ),
        (
            "A haiku about frost - do not use a single comma anywhere.",
            ("forbidden_chars", None, "exactly", ","),
        ),
        (
            "A cover letter. Wrap the entire letter in double quotation marks.",
            ("quoted", None, "exactly", None),
        ),
        (
            "Houseplant tips. Highlight at least 3 key tips with markdown, like *this*.",
            ("count", "highlights", "at_least", 3),
        ),
        (
            "Compost guide. Split it into 3 sections, marking the start of each with SECTION X.",
            ("count", "sections", "exactly", 3),
        ),
        (
            "A road trip plan. Mark each day's section with Day X (Day 1 through Day 4).",
            ("count", "sections", "exactly", 4),
        ),
    ],
)
def test_instructions_inferred(query, expected):
    assert expected in checks(query)


@pytest.mark.parametrize(
    "query",
    [
        "How long should I boil 4 eggs?",
        "My 3 kids are bored, ideas for a rainy day?",
        "Keep it short, what is a VPN?",
        "Best French restaurants in Leeds?",
    ],
)
def test_nothing_checkable_is_not_inferred(query):
    assert infer_instructions(query) == []


@pytest.mark.parametrize(
    ("query", "check", "expected"),
    [
        (
            "Write a blurb. Use at least 4 words written entirely in capital letters.",
            "capital_words",
            ("at_least", 4),
        ),
        (
            "Words in all capital letters should appear fewer than 3 times.",
            "capital_words",
            ("at_most", 2),
        ),
        ("A story where the letter 'z' appears at least 5 times.", "letter_frequency", ("z", 5)),
        ("A limerick. Use the letter 'q' at least 4 times.", "letter_frequency", ("q", 4)),
        (
            "An essay on work. Avoid the words 'toxic' and 'addictive'.",
            "forbidden_words",
            ["toxic", "addictive"],
        ),
        (
            "Choose a piano. Answer with one of these options: 'Go digital.', 'Go acoustic.' "
            "Then mention the word 'budget'.",
            "answer_choice",
            ["Go digital.", "Go acoustic."],
        ),
    ],
)
def test_frequency_and_word_instructions(query, check, expected):
    [k] = [k for k in infer_instructions(query) if k.check == check]
    got = {
        "capital_words": lambda: (k.relation, k.count),
        "letter_frequency": lambda: (k.value, k.count),
    }.get(check, lambda: k.value)()
    assert got == expected


def test_repeat_the_request_and_two_responses():
    found = {
        k.check: k
        for k in infer_instructions(
            "Write a limerick about a sloth. Before anything else, repeat this request word for "
            "word without change, then answer. Give two different limericks separated by 6 "
            "asterisk symbols: ******."
        )
    }
    assert found["repeat_prompt"].value == "Write a limerick about a sloth."
    assert "two_responses" in found


@pytest.mark.parametrize(
    "query",
    [
        "Give me 5 ways to drink more water. Keep each one under 10 words.",
        "A Pros section and a Cons section, each with exactly 2 bullets.",
        "Is my watermelon ripe? A numbered list of 3 signs, then one sentence of advice.",
        "Summarize the causes of the war in a few sentences.",
        "The API we use allows at most 10 requests per second; write the loop.",
    ],
)
def test_counts_of_a_part_are_not_counts_of_the_answer(query):
    whole = [
        k
        for k in infer_instructions(query)
        if k.check in ("count", "word_frequency")
        and k.unit in ("words", "sentences", "bullets", None)
        and k.unit != "numbered"
    ]
    assert whole == []


@pytest.mark.parametrize(
    "query",
    [
        "Give me exactly 3 bullet points on saving money on groceries, followed by a"
        " one-sentence summary.",
        "List 3 tips, then a brief two-sentence summary.",
        "Three bullets plus a one-sentence conclusion, please.",
    ],
)
def test_a_sentence_count_after_then_or_followed_by_and_an_article_is_of_a_part(query):
    """Not "the whole answer is one sentence", which no answer with 3 bullets can be."""
    found = infer_instructions(query)
    assert [k for k in found if k.unit == "sentences"] == []
    assert [k.value for k in found if k.check == "count"] == [3]  # the list's count is kept


def test_a_sentence_count_of_the_whole_answer_is_kept():
    [k] = infer_instructions("Give me a one-sentence answer: is tap water safe in Lisbon?")
    assert (k.unit, k.value) == ("sentences", 1)


def test_an_exclusion_list_ends_where_the_form_begins():
    a = analyze("A quick pasta recipe without garlic, as a numbered list of 5 steps.")
    assert a.excluded == ["garlic"]
    assert ("count", "numbered", "exactly", 5) in checks(a.query)


def test_inferred_instructions_are_marked_and_soft():
    [k] = infer_instructions("Answer in exactly two sentences.")
    assert k.inferred and not k.hard and k.phrase == "exactly two sentences"


# --- checks -------------------------------------------------------------------------------------


def k(**kw) -> Instruction:
    return Instruction(inferred=True, **kw)


def test_counts_with_evidence_in_the_reason():
    five = "- a\n- b\n- c\n- d\n- e"
    ok, why = check_instruction(five, k(check="count", unit="items", value=3))
    assert ok is False and why == "5 list items; the request asks for exactly 3 list items"
    assert check_instruction(five, k(check="count", unit="bullets", value=5))[0] is True
    assert check_instruction("Just prose.", k(check="count", unit="items", value=3))[0] is None


def test_words_sentences_paragraphs():
    assert count_words("Don't stop - it's 5 o'clock.") == 8  # \w+ runs, as checkers count
    assert split_sentences("Dr. Lee came. He sat! Then? no") == [
        "Dr. Lee came.",
        "He sat!",
        "Then?",
        "no",
    ]
    text = "One para.\n\n***\n\nTwo para.\n\n***\n\nThree."
    assert check_instruction(text, k(check="count", unit="paragraphs", value=3, separator="***"))[0]


@pytest.mark.parametrize(
    ("content", "instruction", "passed"),
    [
        ("all quiet here", {"check": "case", "value": "lowercase"}, True),
        ("All quiet", {"check": "case", "value": "lowercase"}, False),
        ("LOUD AND CLEAR", {"check": "case", "value": "uppercase"}, True),
        ("a, b", {"check": "forbidden_chars", "value": ","}, False),
        ('{"a": 1}', {"check": "format", "value": "json"}, True),
        ("```json\n[1, 2]\n```", {"check": "format", "value": "json"}, True),
        ("not json", {"check": "format", "value": "json"}, False),
        ("Yes - it is safe.", {"check": "yes_no_first"}, True),
        ("It is safe, yes.", {"check": "yes_no_first"}, False),
        (
            "Thanks!\nKind regards, Priya",
            {"check": "ends_with", "value": "Kind regards, Priya"},
            True,
        ),
        ("<<Rain>>\nDrops fall.", {"check": "title"}, True),
        (
            "Can you come Tuesday?\n\nThanks in advance.",
            {"check": "ends_with", "value": "Thanks in advance"},
            True,
        ),
        # a hyphenated range is one word to a person, two to a tokenizer: either count passes
        (
            "Every 1-3 months; thicker 4-5 inch filters last 6-12 months.",
            {"check": "count", "unit": "words", "relation": "at_most", "value": 10},
            True,
        ),
        (
            "Every 1-3 months; thicker 4-5 inch filters last 6-12 months, or longer.",
            {"check": "count", "unit": "words", "relation": "at_most", "value": 10},
            False,
        ),
        # "start with either 'OLED' or 'Mini-LED'": the verdict first, both may follow
        (
            "Mini-LED. It gets brighter than OLED.",
            {
                "check": "answer_choice",
                "value": ["OLED", "Mini-LED"],
                "phrase": "start your answer with either 'oled' or 'mini-led'",
            },
            True,
        ),
        (
            "Buyer beware: wait for the sale.",  # "Buy" is a whole word or nothing
            {
                "check": "answer_choice",
                "value": ["Buy", "Wait"],
                "phrase": "start your answer with either 'buy' or 'wait'",
            },
            False,
        ),
        (
            "For a bright room, Mini-LED.",
            {
                "check": "answer_choice",
                "value": ["OLED", "Mini-LED"],
                "phrase": "start your answer with either 'oled' or 'mini-led'",
            },
            False,
        ),
        ("Done.\n\nP.S. Bring snacks.", {"check": "postscript", "value": "P.S."}, True),
        ('"All of it quoted."', {"check": "quoted"}, True),
        (
            "the river, the river and the river",
            {"check": "word_frequency", "value": "river", "count": 3, "relation": "at_least"},
            True,
        ),
        (
            "Las tapas son pequeñas porciones de comida que se comparten en el bar.",
            {"check": "language", "value": "es"},
            True,
        ),
        (
            "Tapas are small plates shared at the bar with friends.",
            {"check": "language", "value": "es"},
            False,
        ),
        (
            "Las tapas son pequeñas porciones de comida que se comparten en el bar con los "
            "amigos de toda la vida.\n\nThe best ones are found in the old town, where the bars "
            "are small and the plates are cheap and very good.",
            {"check": "language", "value": "es"},
            False,
        ),
    ],
)
def test_checks(content, instruction, passed):
    assert check_instruction(content, k(**instruction))[0] is passed


def test_language_detection():
    assert detect_language("Der Hund ist nicht im Garten und die Katze schläft.") == "de"
    assert detect_language("Это очень хороший вопрос о погоде.") == "ru"
    assert detect_language("ok") is None


def test_reward_track_marks_inferred_failures():
    req = ScoreRequest(
        query="Name exactly 3 rivers in Spain.", content="- Ebro\n- Tagus\n- Douro\n- Duero"
    )
    reward = pure_tracks(req, CFG)["reward"]
    [result] = reward.details["results"]
    assert result["inferred"] and not result["passed"]
    assert reward.details["inferred_failures"] == [
        "inferred from the request: 4 list items; the request asks for exactly 3 list items"
    ]


def _fused(query: str, content: str):
    req = ScoreRequest(query=query, content=content)
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.8),
        "precision": TrackScore(name="precision", score=0.99),
        **pure_tracks(req, CFG),
    }
    return fuse(req, tracks, CFG)


def test_an_answer_using_what_the_asker_lacks_goes_to_review_not_reject():
    query = "I don't have a drill. How do I hang a heavy mirror in a rented flat?"
    (e,) = analyze(query).exclusions
    assert (e.item, e.phrase, e.lack) == ("drill", "don't have a drill", True)
    (pref,) = analyze(
        "I'd rather not have to call a plumber. How do I fix a dripping tap?"
    ).exclusions
    assert pref.lack is False

    def fused(lacks_only: bool):
        req = ScoreRequest(query=query, content="Drill two holes and use wall plugs.")
        details = {"violated": ["drill"], "violated_lacks_only": lacks_only}
        tracks = {
            "semantic": TrackScore(name="semantic", score=0.8),
            "precision": TrackScore(name="precision", score=0.99, details=details),
        }
        return fuse(req, tracks, CFG)

    lack, ruled_out = fused(True), fused(False)
    assert lack.action == "review" and lack.score == CFG.actions.review
    assert "uses something the request says is not available" in " ".join(lack.reasons)
    assert ruled_out.score == CFG.precision.exclusion_cap and ruled_out.action == "iterate"


def test_a_failed_inferred_instruction_goes_to_review_below_answers_that_meet_it():
    query = "Name exactly 3 rivers in Spain, all lowercase."
    good = _fused(query, "- ebro\n- tagus\n- douro")
    one = _fused(query, "- ebro\n- tagus\n- douro\n- miño")
    two = _fused(query, "- Ebro\n- Tagus\n- Douro\n- Miño")
    assert good.action == "accept"
    assert one.score == CFG.reward.inferred_fail_cap == CFG.actions.review
    assert one.action == "review" and two.action == "iterate"
    assert good.score > one.score > two.score


def test_inference_is_off_with_one_key():
    cfg = CFG.model_copy(
        update={"reward": CFG.reward.model_copy(update={"infer_instructions": False})}
    )
    assert "reward" not in pure_tracks(ScoreRequest(query="in JSON", content="x"), cfg)


# --- membership ---------------------------------------------------------------------------------


def test_a_member_of_an_excluded_class_is_a_violation_with_plain_reasons():
    check = check_members(["meat"], "Brown the chicken thighs, then add the rice.")
    assert check.violated == [("meat", "chicken")]
    assert check.reasons({"meat": "no meat"}) == [
        "uses chicken (meat), which the request excludes ('no meat')"
    ]


@pytest.mark.parametrize(
    ("query", "answer", "member"),
    [
        (
            "Where should I park $20k for three years? Nothing in crypto please.",
            "Keep half in a savings account and put the rest in Bitcoin for growth.",
            "bitcoin",
        ),
        (
            "How can I pay off my credit card faster without touching my retirement accounts?",
            "Take a loan from your 401(k) and pay the card off in one go.",
            "401k",
        ),
    ],
)
def test_money_classes_people_exclude(query, answer, member):
    (item,) = analyze(query).excluded
    assert check_members([item], answer).violated == [(item, member)]
    kept = "Use the avalanche method and leave your 401(k), IRA and any crypto alone."
    assert check_members([item], kept).violated == []


def test_a_clause_about_someone_after_the_exclusion_is_not_an_item():
    query = "Fantasy series for a 12 year old, nothing in the Harry Potter universe, she's read it."
    assert analyze(query).excluded == ["harry potter universe"]


def test_negation_and_substitutes_in_the_answer_are_respected():
    assert check_members(["garlic"], "No garlic needed: lemon does the work.").violated == []
    assert check_members(["dairy"], "Use oat milk and vegan cheese.").violated == []
    assert check_members(["nuts"], "Blend almond milk with oats.").violated == [("nuts", "almonds")]


@pytest.mark.parametrize(
    ("item", "answer"),
    [
        ("rodents", "Non-rodent options that suit a 7-year-old: a betta fish or a gecko."),
        ("rawhide", "Some rawhide alternatives for a heavy chewer: bully sticks, antlers."),
        ("couponing", "Plan meals and buy store brands. None of these need a single coupon."),
        ("chicken", "Salmon treats (check the label for chicken fat) or sweet potato cubes."),
        ("dairy", "Oatmeal with peanut butter and banana, or eggs on toast."),
        ("chicken", "Chicken-free training treats: cubes of cheese."),
    ],
)
def test_answers_that_steer_around_an_excluded_item_do_not_use_it(item, answer):
    assert check_members([item], answer).violated == []


def test_an_excluded_item_used_outright_is_still_caught():
    assert check_members(["rawhide"], "Give him rawhide chews twice a week.").violated
    assert check_members(["dairy"], "Top it with butter and cheddar.").violated


def test_membership_by_embedding_when_no_list_knows_the_class():
    vectors = {"fizzy drinks": [1.0, 0.0], "lemonade": [0.96, 0.28], "water": [0.2, 0.98]}

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([vectors.get(t, [0.0, 1.0]) for t in texts])

    check = check_members(
        ["fizzy drinks"], "Serve lemonade and water.", embed=embed, min_cosine=0.9
    )
    assert check.violated == [("fizzy drinks", "lemonade")]
    assert (
        check_members(["fizzy drinks"], "Serve water.", embed=embed, min_cosine=0.9).violated == []
    )


def test_a_word_the_request_asks_for_is_never_a_member_of_what_it_excludes():
    # "the whole thing is alcohol-free, ideas for a signature mocktail?": one was asked for
    vectors = {"alcohol": [1.0, 0.0], "mocktail": [0.9, 0.44], "gin": [0.97, 0.24]}

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([vectors.get(t, [0.0, 1.0]) for t in texts])

    asked = "Ideas for a signature mocktail that still feels special?"
    mocktail = "A lavender lemonade makes a pretty signature mocktail."
    assert check_members(["alcohol"], mocktail, embed=embed, min_cosine=0.8).violated
    check = check_members(["alcohol"], mocktail, embed=embed, min_cosine=0.8, asked=asked)
    assert check.violated == []
    gin = "Add a splash of gin to the signature drink."
    assert check_members(["alcohol"], gin, embed=embed, min_cosine=0.8, asked=asked).violated == [
        ("alcohol", "gin")
    ]


def test_an_excluded_item_named_as_past_experience_or_as_scarce_is_not_used():
    game = "A co-op board game for 4? Anything other than Pandemic."
    assert not check_members(["pandemic"], "If you liked Pandemic, try Spirit Island.").violated
    assert check_members(["pandemic"], "Pandemic Legacy is the best next step.").violated
    assert analyze(game).excluded == ["pandemic"]
    assert not check_members(["traffic"], "Ride on a Sunday when traffic is light.").violated
    assert check_members(["running"], "Running is lower impact on grass.").violated
    assert check_members(["pandemic"], "If you liked Catan, Pandemic is the next pick.").violated
    assert not check_members(["running"], "Elliptical: a running-like motion.").violated
    # "on low" is a setting, not little of the slow cooker
    assert check_members(["slow cooker"], "Put it in the slow cooker on low for 8 hours.").violated


def test_embedding_membership_looks_for_members_of_classes_not_siblings_of_one_thing():
    # Siblings sit as close as members in embedding space: "blue" is not a kind of "green".
    vectors = {"green": [1.0, 0.0], "blue": [0.9, 0.44], "fizzy drinks": [0.0, 1.0]}
    vectors |= {"fragrance-free": [0.0, 1.0], "sodas": [0.1, 0.99]}

    def embed(texts: list[str]) -> np.ndarray:
        return np.array([vectors.get(t, [0.7, 0.7]) for t in texts])

    answer = "Red, blue and yellow."
    assert check_members(["green"], answer, embed=embed, min_cosine=0.8).violated == []
    assert check_members(["fizzy drinks"], "Sodas fizz.", embed=embed, min_cosine=0.8).violated
    # "X-free", "non-X", "X-less" say the thing is absent: never a member.
    free = "A fragrance-free moisturiser."
    assert check_members(["fizzy drinks"], free, embed=embed, min_cosine=0.8).violated == []
    assert [is_class(i) for i in ("green", "garlic", "meat", "nuts", "power tools", "glass")] == [
        False,
        False,
        True,
        True,
        True,
        False,
    ]


# --- the dev sets stay apart from the training data --------------------------------------------


def _queries(folder: Path, key: str) -> set[str]:
    out = set()
    for path in folder.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.add(" ".join(json.loads(line)[key].lower().split()))
    return out


def test_gate_dev_and_realistic_training_share_no_request():
    dev = _queries(ROOT / "benchmarks" / "data" / "gate_dev", "query")
    train = _queries(ROOT / "training" / "data" / "realistic", "query")
    assert len(dev) >= 400 and len(train) >= 600
    assert not dev & train


def test_the_fresh_gate_sets_are_apart_from_dev_training_and_each_other():
    dev = _queries(ROOT / "benchmarks" / "data" / "gate_dev", "query")
    train = _queries(ROOT / "training" / "data" / "realistic", "query")
    fresh = [
        _queries(ROOT / "benchmarks" / "data" / name, "query")
        for name in (
            "gate_holdout",
            "gate_holdout2",
            "gate_holdout3",
            "gate_holdout4",
            "gate_holdout5",
            "gate_holdout6",
            "gate_holdout7",
            "gate_holdout8",
            "gate_holdout9",
            "gate_holdout10",
            "gate_holdout11",
            "gate_holdout12",
            "gate_holdout13",
            "gate_holdout14",
            "gate_holdout15",
            "gate_holdout16",
            "gate_holdout17",
            "gate_holdout18",
            "gate_holdout19",
            "gate_holdout20",
            "gate_holdout21",
            "gate_holdout22",
            "gate_holdout23",
            "gate_holdout24",
            "gate_holdout25",
            "gate_holdout26",
            "gate_holdout27",
            "gate_holdout28",
            "gate_holdout29",
            "gate_holdout30",
            "gate_holdout31",
            "gate_holdout32",
            "gate_holdout33",
            "gate_holdout34",
            "gate_holdout35",
            "gate_holdout36",
            "gate_holdout37",
            "gate_holdout38",
            "gate_holdout39",
            "gate_holdout40",
            "gate_holdout41",
            "gate_holdout42",
            "gate_holdout43",
            "gate_holdout44",
            "gate_holdout45",
            "gate_holdout46",
            "gate_holdout47",
            "gate_holdout48",
            "gate_holdout49",
            "gate_holdout50",
            "gate_holdout51",
            "gate_holdout52",
        )
    ]
    assert [len(s) for s in fresh] == [
        *(60, 60, 80, 40, 120, 120, 80, 150, 150, 150, 120),
        *(
            120,
            120,
            81,
            75,
            87,
            86,
            87,
            83,
            73,
            78,
            60,
            56,
            60,
            67,
            52,
            55,
            67,
            58,
            53,
            56,
            59,
            62,
            73,
            74,
            65,
            70,
            61,
            61,
            67,
            70,
            71,
            67,
            68,
            68,
            65,
            64,
            71,
            67,
            68,
            68,
            74,
        ),
    ]
    # the set of answers that name what the request rules out (benchmarks/eval_exclusions.py)
    fresh.append(_queries(ROOT / "benchmarks" / "data" / "exclusion_mentions", "query"))
    assert len(fresh[-1]) == 179
    for i, a in enumerate(fresh):
        assert not a & dev and not a & train
        for b in fresh[i + 1 :]:
            assert not a & b


#: Word-set overlap (Jaccard) at which two requests count as one request reworded.
NEAR_COPY = 0.5


def _word_sets(paths: list[Path], key: str) -> list[frozenset[str]]:
    out = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(frozenset(re.findall(r"[a-z]+", json.loads(line)[key].lower())))
    return out


def test_no_training_request_is_an_evaluation_request_reworded():
    """Exact copies are caught above; this catches "opened a bottle of red last night ...
    how long will it stay good" against "opened a nice bottle of red on saturday ... how
    long will it keep". The training data was cut to pass it on 2026-11-29."""
    data = ROOT / "benchmarks" / "data"
    gates = sorted(data.glob("*/*.jsonl")) + [data / "request_triples_dev.jsonl"]
    evaluation = _word_sets(gates, "query")
    evaluation += _word_sets(sorted(data.glob("instructions_*.jsonl")), "prompt")
    training = ROOT / "training" / "data"
    train = _word_sets(sorted((training / "realistic").glob("*.jsonl")), "query")
    train += _word_sets(sorted((training / "edits").glob("*.jsonl")), "query")
    assert len(evaluation) > 1500 and len(train) > 4000
    near = [
        (sorted(a), sorted(b))
        for a in set(train)
        for b in evaluation
        if min(len(a), len(b)) >= NEAR_COPY * max(len(a), len(b))
        and len(a & b) >= NEAR_COPY * len(a | b)
    ]
    assert not near, f"{len(near)} near copies, first: {near[0]}"


def test_the_instruction_sets_are_apart_from_training_and_from_each_other():
    train = _queries(ROOT / "training" / "data" / "realistic", "query")
    sets = {}
    for name in ("dev", "holdout", "holdout2", "holdout3", "holdout4"):
        path = ROOT / "benchmarks" / "data" / f"instructions_{name}.jsonl"
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        sets[name] = {" ".join(r["prompt"].lower().split()) for r in rows}
        assert len(sets[name]) == len(rows) >= 80
        assert all(r["broken"] in r["instructions"] for r in rows)
        assert not sets[name] & train
    names = list(sets)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not sets[a] & sets[b], (a, b)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "First repeat the request below word for word (do not say anything before it). "
            "Write a haiku about coffee.",
            "Write a haiku about coffee.",
        ),
        (
            "Use 3 bullets. Repeat the request word for word first. The request: List three "
            "benefits of water.",
            "List three benefits of water.",
        ),
    ],
)
def test_the_request_to_repeat_is_found_where_it_is(query, expected):
    [k] = [k for k in infer_instructions(query) if k.check == "repeat_prompt"]
    assert k.value == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "A SQL plan in exactly 3 parts labelled Part 1, Part 2 and Part 3.",
            ("count", "sections", "exactly", 3),
        ),
        ("Convert this to JSON: Alice, 34 / Bob, 29", ("format", None, "exactly", "json_block")),
        (
            "Dame consejos para Japón. Contesta en español, por favor.",
            ("language", None, "exactly", "es"),
        ),
        (
            "Fasse bitte auf Deutsch zusammen, warum Bienen wichtig sind.",
            ("language", None, "exactly", "de"),
        ),
        (
            "¿Qué puedo cocinar esta noche con arroz, huevos y espinacas? Algo rápido, por favor.",
            ("language", None, "exactly", "es"),
        ),
    ],
)
def test_more_ways_to_ask(query, expected):
    assert expected in checks(query)


def test_letters_banned_or_counted_whatever_the_verb():
    found = {
        k.check: k for k in infer_instructions("One sentence about a cat without the letter e.")
    }
    assert (found["letter_frequency"].value, found["letter_frequency"].count) == ("e", 0)
    [k] = infer_instructions("An invite; sneak in the letter q at least 4 times.")
    assert (k.check, k.value, k.relation, k.count) == ("letter_frequency", "q", "at_least", 4)


@pytest.mark.parametrize(
    "query",
    [
        "How do I cancel a hotel reservation I made on Booking.com?",
        "Summarize this for me: Le gouvernement a annoncé hier une nouvelle réforme.",
        "Translate into English: Wie lange muss ich ein Ei kochen?",
    ],
)
def test_an_english_request_asks_for_no_language(query):
    assert [k for k in infer_instructions(query) if k.check == "language"] == []


def test_capital_words_are_not_the_answer_length_and_parts_are_not_items():
    found = checks("A notice. Use fewer than 3 words in all caps. Split it into exactly 2 parts.")
    assert not [c for c in found if c[0] == "count" and c[1] in ("words", "items")]


def test_a_title_line_is_not_a_sentence_and_a_list_line_has_a_language():
    two = k(check="count", unit="sentences", relation="exactly", value=2)
    assert check_instruction("<<Quiz Night>>\n\nCome along. Bring friends!", two)[0] is True
    spanish = k(check="language", value="es")
    answer = (
        "- Las plantas usan la luz del sol para producir su propio alimento en las hojas.\n"
        "- El agua y el dióxido de carbono se transforman en glucosa y en oxígeno puro.\n"
        "- The oxygen that plants release is the same oxygen that we breathe every day."
    )
    assert check_instruction(answer, spanish)[0] is False


def test_either_of_two_quoted_answers_is_a_choice():
    [k] = infer_instructions("Python or Go? Reply with either 'Python.' or 'Go.' and a reason.")
    assert (k.check, k.value) == ("answer_choice", ["Python.", "Go."])


@pytest.mark.parametrize(
    ("query", "check", "value"),
    [
        (
            'Return JSON. The description must not contain the words "delicious" or "tasty".',
            "forbidden_words",
            ["delicious", "tasty"],
        ),
        (
            'Under 60 words. Legal says we can\'t use "best" or "perfect" anywhere.',
            "forbidden_words",
            ["best", "perfect"],
        ),
        ("A toast. Don't use the word 'love' anywhere.", "forbidden_words", ["love"]),
        (
            "Study notes. Make sure the words chlorophyll and glucose both show up somewhere.",
            "keywords",
            ["chlorophyll", "glucose"],
        ),
        (
            "Explain compound interest, and use the word snowball somewhere.",
            "keywords",
            ["snowball"],
        ),
        (
            "Quiz bot: reply with exactly one of: (A), (B), (C), (D).",
            "answer_choice",
            ["(A)", "(B)", "(C)", "(D)"],
        ),
        (
            "First repeat the question exactly as written, then answer it. Question: Why is "
            "the sky "
            "blue? Make sure the answer uses the word 'light'.",
            "repeat_prompt",
            "Why is the sky blue?",
        ),
        (
            "First repeat the following request word for word, then answer (under 100 words): What "
            "is a debit card?",
            "repeat_prompt",
            "What is a debit card?",
        ),
    ],
)
def test_how_real_messages_ask(query, check, value):
    found = [k for k in infer_instructions(query) if k.check == check]
    assert [k.value for k in found] == [value]
    if check == "forbidden_words":
        assert not [k for k in infer_instructions(query) if k.check == "keywords"]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ('Rewrite this so "sustainable" appears at most once.', ("word_frequency", "at_most", 1)),
        (
            "Packing list. Put the essential items in ALL CAPS, I want at least 3 all-caps words.",
            ("capital_words", "at_least", 3),
        ),
        ("Yes or no? Give me a yes/no as the very first word.", ("yes_no_first", "exactly", None)),
        (
            "A welcome template with square-bracket placeholders, at least 3 of them.",
            ("count", "at_least", 3),
        ),
        (
            "Three tips; highlight the key phrase in each with markdown italics like *this*.",
            ("count", "at_least", 1),
        ),
    ],
)
def test_relations_read_from_real_messages(query, expected):
    got = {
        (k.check, k.relation, k.count if k.check != "count" else k.value)
        for k in infer_instructions(query)
    }
    assert expected in got
    assert ("case", "exactly", None) not in got  # "the essential items in ALL CAPS" is not all


def test_a_spanish_line_is_not_portuguese():
    spanish = k(check="language", value="es")
    answer = (
        "- Empieza escribiendo solo a una persona de confianza y cuéntale cómo te sientes hoy.\n"
        "- Sal a caminar veinte minutos cada mañana, aunque no tengas ganas de hacerlo.\n"
        "- Apunta tres cosas buenas del día antes de dormir, por pequeñas que parezcan."
    )
    assert check_instruction(answer, spanish)[0] is True


def test_a_limit_on_each_item_is_checked_on_every_item():
    [limit] = [
        k
        for k in infer_instructions("5 ways to drink more water. Keep each one under 10 words.")
        if k.unit == "item_words"
    ]
    assert (limit.relation, limit.value) == ("at_most", 10)
    long_one = "1. Keep a big bottle of water on your desk so it is always within reach.\n2. Sip."
    passed, why = check_instruction(long_one, limit)
    assert passed is False and "item 1 has 15 words" in why
    assert check_instruction("1. Keep a bottle close.\n2. Sip often.", limit)[0] is True


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "Prime check in Python. Just the code in a code block, no explanation.",
            ("format", None, "exactly", "code_only"),
        ),
        (
            "Kindle or Kobo? End your reply with a question about how I read.",
            ("ends_with", None, "exactly", "?"),
        ),
        ("Jump-start a car. Numbered, exactly 6 steps.", ("count", "numbered", "exactly", 6)),
    ],
)
def test_forms_of_the_whole_answer(query, expected):
    assert expected in checks(query)


def test_ending_with_a_question_needs_a_question_mark_at_the_end():
    ask = k(check="ends_with", value="?")
    assert check_instruction("Either is fine. Which do you read more often?", ask)[0] is True
    assert check_instruction("Which do you read more? Either way, enjoy it.", ask)[0] is False
    # a sign-off, hashtags or an emoji after the question
    assert check_instruction("Can you come this week?\n\nThanks,\nAna", ask)[0] is True
    assert check_instruction("What should we build next? 🚀 #launch", ask)[0] is True
    assert check_instruction("Which one suits you?\nHappy reading!", ask)[0] is False


@pytest.mark.parametrize(
    ("query", "names"),
    [
        (
            "Split it into two sections with the headings 'Autumn' and 'Spring'.",
            ["Autumn", "Spring"],
        ),
        (
            "Two sections with these headings and nothing else: SHOPPING and COOKING.",
            ["SHOPPING", "COOKING"],
        ),
        ("Please split into a Pros section and a Cons section.", ["Pros", "Cons"]),
        (
            "Grocery list, grouped under headings Produce, Protein, Pantry.",
            ["Produce", "Protein", "Pantry"],
        ),
        ('Use the headers "Ingredients" and "Method".', ["Ingredients", "Method"]),
        ("Use exactly 2 headings: '## What it is' and '## Example'.", ["What it is", "Example"]),
        (
            'Three sections titled exactly "Outcomes", "Challenges", "Learning".',
            ["Outcomes", "Challenges", "Learning"],
        ),
    ],
)
def test_named_headings(query, names):
    assert [k.value for k in infer_instructions(query) if k.check == "headings"] == [names]


@pytest.mark.parametrize(
    "query",
    [
        'My CSV has header columns named "price" and "qty". How do I multiply them?',
        "My cats are named 'Milo' and 'Luna'. Write a poem about them.",
        "Set these HTTP headers: Content-Type and Authorization.",
        "Compare the novels titled 'Dune' and 'Foundation'.",
        "The README has a Usage section and an Install section. Rewrite the intro only.",
    ],
)
def test_names_that_are_not_headings_of_the_answer(query):
    assert not [k for k in infer_instructions(query) if k.check == "headings"]


def test_each_named_heading_opens_a_line():
    want = k(check="headings", value=["Autumn", "Spring"])
    assert check_instruction("**Autumn**\n- clear beds\n\n## Spring:\n- sow peas", want)[0] is True
    assert check_instruction("Autumn: clear the beds.\nSpring: sow peas.", want)[0] is True
    ok, why = check_instruction("Autumn\n- clear beds\n\nWinter\n- order seeds", want)
    assert ok is False and "no heading 'Spring'" in why
    assert check_instruction("In autumn clear beds; in spring sow.", want)[0] is False
    for marked in (
        "__Autumn__\nx\n***Spring***",
        "- **Autumn:** x\n- **Spring:** y",
        "## 🍂 Autumn\nx\n## 🌱 Spring",
        "<h2>Autumn</h2>\n<h2>Spring</h2>",
    ):
        assert check_instruction(marked, want)[0] is True, marked


@pytest.mark.parametrize(
    ("query", "count"),
    [
        ("A kitten checklist. Use exactly 5 checkbox items like '- [ ] item'.", 5),
        ("I want to use two apps at once on my iPad. How?", None),  # not a list
        ("Do NOT include the two privileged items in the index.", None),
        ("Include at least 3 examples from real life.", None),  # prose, not list items
        ("Write a pancake recipe, using exactly 2 tips at the end.", None),
    ],
)
def test_a_stated_count_of_items_to_use(query, count):
    found = [k.value for k in infer_instructions(query) if k.check == "count"]
    assert found == ([count] if count else [])


def test_a_start_that_belongs_to_a_part_is_not_the_answers_start():
    q = "Number the steps and finish with a one-line summary starting with 'In short:'."
    assert not [k for k in infer_instructions(q) if k.check == "starts_with"]


def test_code_only_means_nothing_around_the_block():
    only = k(check="format", value="code_only")
    assert check_instruction("```python\nprint(1)\n```", only)[0] is True
    assert check_instruction("Here you go:\n```python\nprint(1)\n```", only)[0] is False


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "One line for a banner. The printer only does capital letters so write it in ALL CAPS.",
            ("case", None, "exactly", "uppercase"),
        ),
        ("Numbered steps please, and skip commas.", ("forbidden_chars", None, "exactly", ",")),
        (
            "How do I descale an espresso machine? Bullet points pls",
            ("list_form", None, "exactly", "bulleted"),
        ),
        ("cheap date ideas in Leeds, bullets please.", ("list_form", None, "exactly", "bulleted")),
        (
            "Important words in all capital letters, at least 4 of them.",
            ("capital_words", "at_least", 4),
        ),
    ],
)
def test_more_real_phrasings(query, expected):
    got = {(k.check, k.unit, k.relation, k.value) for k in infer_instructions(query)}
    got |= {(k.check, k.relation, k.count) for k in infer_instructions(query)}
    assert expected in got


@pytest.mark.parametrize(
    "query",
    [
        "What's the difference between bullet points and numbered lists in Markdown?",
        "Which bullet journal should I buy for next year?",
        "Is a bullet train from Tokyo to Kyoto worth the price?",
    ],
)
def test_bullets_talked_about_are_not_a_form(query):
    assert not [k for k in infer_instructions(query) if k.check == "list_form"]


def test_labels_after_a_colon_and_quoted_words_to_mention():
    [choice] = infer_instructions("Reply with exactly one of these labels: billing, bug, refund.")
    assert choice.value == ["billing", "bug", "refund"]
    assert check_instruction("billing", choice)[0] is True
    assert check_instruction("billing (possibly bug)", choice)[0] is False
    [kw] = infer_instructions('Two toasts. Both should mention "Edinburgh".')
    assert (kw.check, kw.value) == ("keywords", ["Edinburgh"])
    [echo] = infer_instructions("Echo the request below back verbatim.\n\nRequest: Why is it?")
    assert (echo.check, echo.value) == ("repeat_prompt", "Why is it?")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Where should I stay? Not an Airbnb — I want a proper hotel or a guesthouse.", ["airbnb"]),
        ("A smartphone for my mom, anything but an iPhone — she hates iOS.", ["iphone"]),
        ("I'm self-employed, so no employer takes taxes out of my pay. How much to set aside?", []),
        (
            "Please rewrite this so it sounds friendlier: 'RSVP by Friday or you won't get a"
            " seat.'",
            [],
        ),
        ("I really don't want to reinstall Windows. What else can I try?", ["reinstall windows"]),
        ("I don't want to eat meat this week.", ["meat"]),
    ],
)
def test_exclusions_end_where_the_clause_ends_and_quotes_exclude_nothing(query, expected):
    assert analyze(query).excluded == expected


def test_a_per_item_minimum_reads_the_shortest_item():
    at_least = k(check="count", unit="item_words", relation="at_least", value=5)
    answer = "- Keep a bottle of water within reach.\n- Sip often."
    passed, why = check_instruction(answer, at_least)
    assert passed is False and "item 2 has 2 words" in why
    exactly = k(check="count", unit="item_words", relation="exactly", value=2)
    assert check_instruction("- Sip often.\n- Drink more.", exactly)[0] is True
    assert check_instruction("- Sip often.\n- Drink a lot more.", exactly)[0] is False


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # when, not what: the item ends before a time
        ("We don't have an oven right now, only a stovetop. Cheap meals?", ["oven"]),
        ("im trying to avoid caffeine after lunch bc it wrecks my sleep", ["caffeine"]),
        ("I'd like to avoid supplements for now.", ["supplements"]),
        ("I don't have a computer, only my iPad. How do I update it?", ["computer"]),
        # what is excluded, not the words that name it
        (
            "Storage almost full. NOT paying for iCloud+, already have too many subscriptions.",
            ["icloud+"],
        ),
        ("A viewing checklist, please. Leave out anything about schools.", ["schools"]),
        # a clause that runs on past the excluded thing excludes nothing more
        (
            "I really don't want to eat the same meal five days in a row, by Wednesday I'm"
            " ordering takeout.",
            [],
        ),
    ],
)
def test_an_excluded_item_is_the_thing_not_the_clause_around_it(query, expected):
    assert analyze(query).excluded == expected


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        (
            "how much protein is in a cup of cooked lentils? and is it a complete protein or do"
            " i need to pair it with something",
            2,
        ),
        ("steak: how to tell medium-rare w/o a thermometer? and how long to rest it", 2),
        ("How do I descale a kettle? And is vinegar safe for it?", 2),
        ("How do I descale a kettle? And thanks for the help earlier.", 0),
    ],
)
def test_a_second_question_that_opens_with_and_is_an_ask(query, asks):
    assert len(analyze(query).asks) == asks


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # chat filler after the thing is not part of it
        ("planning a bbq for saturday, I don't eat pork btw. sides?", ["pork"]),
        ("no shellfish tbh, what goes with linguine?", ["shellfish"]),
        # "anything" after a verb or a name stands for what is ruled out
        ("I'd rather not glue anything, it's a rental. How do I hang the mirror?", ["glue"]),
        ("no Google anything, I'm degoogling. Which email provider?", ["google"]),
        ("no animal products in anything btw. Gift ideas?", ["animal products"]),
        # ... unless it leaves a gerund (what is taken) or a verb that names nothing
        ("I'm not keen on taking anything for the headache. What else helps?", ["taking anything"]),
        ("I'd rather not take anything for the headache. What else helps?", []),
        ("no nuts or anything, what snacks for the party?", ["nuts"]),
        # the ask after a comma is no excluded item; a list of things still is
        ("my son won't eat mushrooms, dinner ideas?", ["mushrooms"]),
        ("no onions, any tips?", ["onions"]),
        ("What can I cook without onions, garlic?", ["onions", "garlic"]),
        ("Can you make the cake with no eggs, butter or milk?", ["eggs", "butter", "milk"]),
    ],
)
def test_filler_and_asks_after_an_exclusion_are_not_excluded(query, expected):
    assert analyze(query).excluded == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("my stomach doesn't tolerate spicy food. Lunch ideas?", ["spicy food"]),
        ("I can't tolerate lactose. Breakfast ideas?", ["lactose"]),
        # a device that refuses something has a fault, not a preference
        ("The printer won't accept the new cartridge. How do I fix it?", []),
    ],
)
def test_what_a_person_does_not_tolerate_is_excluded(query, expected):
    assert analyze(query).excluded == expected


def test_outside_an_excluded_place_is_not_going_there():
    from scoregate.scoring.affirmation import check_exclusions

    query = "Anything but Florida this year. Ideas?"
    assert check_exclusions(query, "For a first trip outside Florida, try Tulum.").violated == []
    assert check_exclusions(query, "Somewhere outside of Florida: Tulum.").violated == []
    assert check_exclusions(query, "Go to Florida: the Keys are lovely.").violated == ["florida"]
    # "outside" negates only what it stands right before
    grill = "Grill outside: chicken thighs with a dry rub."
    assert check_exclusions("no chicken please, bbq ideas?", grill).violated == ["chicken"]
    wine = "Sit outside with a glass of wine."
    assert check_members(["alcohol"], wine).violated == [("alcohol", "wine")]


def test_done_beforehand_is_not_doing_it():
    from scoregate.scoring.affirmation import check_exclusions

    query = "I'd rather not solder anything. Can I build a weather station?"
    assert check_exclusions(query, "Buy a board with pre-soldered headers.").violated == []
    assert check_exclusions(query, "Solder the headers onto the board.").violated == ["solder"]
    # "pre-solder the wires" is still for the asker to do
    assert check_exclusions(query, "Pre-solder the wire ends.").violated == ["solder"]
    no_chicken = "Dinner ideas with no chicken?"
    assert check_exclusions(no_chicken, "Use pre-cooked chicken strips.").violated == ["chicken"]


NOTE = "A note to my neighbour about the parcel, 2 sentences max, sign off 'Thanks, Ola'."
ONE_PARAGRAPH = "A title in <<double angle brackets>>, one paragraph only, and a P.S. at the end."


@pytest.mark.parametrize(
    ("query", "content", "passes"),
    [
        # a sign-off line is no sentence
        (NOTE, "I have your parcel. Knock when you're home and I'll bring it.\nThanks, Ola", True),
        (NOTE, "I have your parcel. Knock when you're home.\nBest,\nOla", True),
        (NOTE, "I have your parcel. Knock when you're home.\n- Ola", True),
        (NOTE, "I have your parcel. It was on the step. Knock later.\nThanks, Ola", False),
        # ... but a sentence that opens with the same word is one
        ("Moving tips, 2 sentences max.", "Label boxes. Pack a kit.\nBest of luck!", False),
        ("Describe it, 2 sentences max.", "A co-op game. A city.\nThanks to that, it sold.", False),
        # a <<title>> line and a P.S. are not paragraphs of the body
        (ONE_PARAGRAPH, "<<Watering>>\n\nWater deeply twice a week.\n\nP.S. Mulch helps.", True),
        (ONE_PARAGRAPH, "<<Watering>>\n\nWater deeply twice a week.", True),
        ("One paragraph only, with a P.S.", "Water deeply twice a week.\n\nPS: mulch helps.", True),
        (ONE_PARAGRAPH, "<<Watering>>\n\nWater deeply.\n\nMulch it.\n\nP.S. Mornings.", False),
        # "Ps and Qs" opens an ordinary paragraph
        ("Write one paragraph about manners.", "Say please.\n\nPs and Qs matter at dinner.", False),
        # the lines of a script are its code, not the fences or a note under it
        (
            "A bash script that counts files per folder, 4 lines max please.",
            '```bash\nfor d in */; do\n  echo "$d $(ls "$d" | wc -l)"\ndone\n```\n\nRun it in'
            " the parent folder.",
            True,
        ),
        (
            "A bash script that counts files per folder, 4 lines max please.",
            '```bash\nset -e\ncd "${1:-.}"\nfor d in */; do\n  n=$(ls "$d" | wc -l)\n'
            '  echo "$d $n"\ndone\n```',
            False,
        ),
        # a poem's lines are all its lines, fence or not
        (
            "Write a poem about rain, 4 lines max.",
            "Rain on the roof,\nrain on the lane,\nrain in the drain,\nrain.\n```\nrain()\n```",
            False,
        ),
    ],
)
def test_counts_people_read_otherwise(query, content, passes):
    (k,) = [i for i in infer_instructions(query) if i.check == "count"]
    assert check_instruction(content, k)[0] is passes


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        (
            "How do I stop the sink gurgling, and if it's the vent, can I fix that myself?",
            ("How do I stop the sink gurgling", "if it's the vent, can I fix that myself?"),
        ),
        ("Can I repot it now, and if so how big a pot?", ()),
        ("Can I use bleach on grout, and if so, how much?", ()),  # "if so" asks nothing new
        ("How do I bleed the radiator if it's still hot?", ()),
    ],
)
def test_a_second_ask_behind_its_condition(query, asks):
    assert analyze(query).asks == asks

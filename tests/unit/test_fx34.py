"""fx34: misreadings `gate_holdout34` and `gate_holdout35` showed after their one measure,
each mended as a rule.

1. What a request rules out, said the ways people say it: "we're not allowed leaded solder
   on site", "please don't tell me to bump retraction up", "And not 'vraiment'", "the
   non-lucrative visa is out since you can't work on it", "rather not mess about with the
   hotel iron", "no alcohol references", "no pay rises".
2. What trails the thing is no part of it: "do the surgery myself", "memorise a script word
   for word", "fish in any form", "not keen on Starlink, partly the politics, partly the
   £75/month" (the reasons were read as things ruled out).
3. An offer described is no exclusion: "Service A gives 17.20 pesos per dollar with no
   fee"; and a decimal point ends no sentence.
4. Counts and forms asked the ways people ask: "give me five useful phrases", "Just give me
   5, numbered.", "just 3 steps please", "Keep it to exactly five points", "A table would be
   ideal."; an email's subject line is no paragraph of it.
5. In answers: "phonics screening" uses no screen; "non-lucrative visa" is one word, its
   "non" no negation; cornflour holds no gluten; dryer sheets are fabric softener, a
   diffuser is heat on hair, 63/37 tin-lead is leaded solder; inches written with their
   mark (2-1/2" deep) give a size.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.answer_types import expected_answers, gives
from scoregate.scoring.counting import other_count
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted


def _items(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions]


def _counts(query: str) -> list[tuple[str, object, str | None]]:
    return [
        (k.relation, k.value, k.unit) for k in analyze(query).instructions if k.check == "count"
    ]


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (
            "We're not allowed leaded solder on site. What solder should the kids use?",
            ["leaded solder"],
        ),
        ("We aren't allowed pets in the flat. What can we do?", ["pets"]),
        ("I'm not allowed out after 10. Ideas for the evening?", []),
        ("I'm not allowed in the kitchen after 9. Help?", []),
        (
            "Retraction is at 6.5 mm, so please don't tell me to bump retraction up. What else?",
            ["bump retraction up"],
        ),
        ("Help, I'm sick of salads. Please don't tell me to eat salad.", ["salad"]),
        (
            "I keep overusing 'très'. What can I use instead? And not 'vraiment' — my prof"
            " circles it.",
            ["vraiment"],
        ),
        (
            "I know the non-lucrative visa is out since you can't work on it — what are my"
            " options?",
            ["non-lucrative visa"],
        ),
        ("When the tide is out since we arrive late, where can we swim?", []),
        (
            "I'd rather not mess about with the hotel iron, I scorched a shirt. What can I do?",
            ["hotel iron"],
        ),
        ("Important: no alcohol references at all. Write the toast.", ["alcohol"]),
        (
            "No pay rises and no bonuses this year. How do I keep morale up?",
            ["pay rises", "bonuses"],
        ),
        # who does it stays part of it: "a vet can do the surgery" breaks nothing
        ("I'd rather not do the surgery myself. What are my options?", ["surgery myself"]),
        (
            "I don't want to memorise a script word for word. How should I prepare instead?",
            ["word for word"],
        ),
        ("My son doesn't eat honey in any form. Dessert ideas?", ["honey"]),
        (
            "I'm not keen on Starlink, partly the politics, partly the £75/month. What else?",
            ["starlink"],
        ),
        # the asker's plan, not a thing ruled out; the tools are a lack ("I've got no X")
        (
            "I don't want to do it myself, I've got no tools. What's the easiest way?",
            ["tools", "do it myself"],
        ),
        ("id rather not call a plumber, want to do it myself this weekend. how?", ["plumber"]),
        # a manner refused is what is refused: an answer may learn, translate, memorise
        ("I don't want to learn French by rote. How else?", ["by rote"]),
        ("I don't want to translate it line by line. Any tips?", ["line by line"]),
        ("Write a wedding speech without references to his ex.", ["ex"]),
        ("No mentions of his divorce, please. Write the toast.", ["divorce"]),
        ("The car is out because my wife needs it. How do I get to Gatwick by 6am?", ["car"]),
        ("I invited all my cousins. And not one of them replied. How do I cope?", []),
        ("I'm not allowed enough annual leave for a long trip. Where can I go?", []),
        ("I'm not allowed much time off, so where can I go for three days?", []),
        # a refusal that points back means what the asker tried before
        (
            "I've done textbooks and conjugation drills before and honestly I hate them and"
            " don't want to go back to that. How do I keep improving?",
            ["textbooks", "conjugation drills"],
        ),
        (
            "I've tried the keto diet before and I don't want to do that again. Ideas?",
            ["keto diet"],
        ),
        ("I don't want to do that again. Help?", []),
        # how a thing behaves, told: no refusal
        (
            "I keep getting big bubbles on top that won't go away, even after I tap the jug and"
            " swirl. What am I doing wrong?",
            [],
        ),
        ("The rash won't go away. What now?", []),
        ("I won't go to the party. Ideas for an excuse?", ["party"]),
        ("The secret is out because my sister told everyone. How do I handle dinner?", []),
        # staining beside a finish is a finish refused, not a mark to avoid
        (
            "I don't want to stain it or use any tinted finish. Can I speed up the darkening?",
            ["stain", "tinted finish"],
        ),
        ("I don't want to stain the carpet. How do I get wax off it?", []),
    ],
)
def test_what_is_ruled_out_the_ways_people_say_it(query: str, items: list[str]):
    assert _items(query) == items


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (
            "Service A gives 17.20 pesos per dollar with no fee. Service B gives 17.45 but takes"
            " a $5 fee. Which gets her more?",
            [],
        ),
        ("Which bank gives loans with no fee?", ["fee"]),
        (
            "One provider gives 1.2% cashback with no fee, the other gives 2% with a £5 fee."
            " Which wins?",
            [],
        ),
        ("I want a card that offers cashback with no annual fee.", ["annual fee"]),
    ],
)
def test_an_offer_described_is_no_exclusion(query: str, items: list[str]):
    assert _items(query) == items


def test_a_decimal_point_ends_no_sentence():
    query = "Service A gives 17.20 pesos per dollar with no fee. Which one?"
    assert "17.20 pesos" in analyze(query).core_ask


@pytest.mark.parametrize(
    ("query", "counts"),
    [
        (
            "Could you give me five useful phrases for dealing with him? Numbered, with the"
            " English next to each.",
            [("exactly", 5, "numbered")],
        ),
        (
            "What are good questions to ask when interviewing an office manager? Small firm,"
            " 14 people. Just give me 5, numbered.",
            [("exactly", 5, "numbered")],
        ),
        (
            "quick one: how do I apply wipe-on poly? just 3 steps please, I'm going to print it",
            [("exactly", 3, "items")],
        ),
        (
            "Write me a closing checklist for our coffee shop. Keep it to exactly five points.",
            [("exactly", 5, "items")],
        ),
        # the asker's own count, or a count of something else
        ("It's just 3 steps. Why does it fail?", []),
        ("I only have 3 tips left. What now?", []),
        ("Just give me 5 minutes of your time: what is a bond?", []),
    ],
)
def test_counts_asked_the_ways_people_ask(query: str, counts: list[tuple[str, object, str]]):
    assert _counts(query) == counts


@pytest.mark.parametrize(
    ("query", "table"),
    [
        ("Compare rent in Lisbon, Berlin and Madrid. A table would be ideal.", True),
        ("Compare the three plans for me. Table please.", True),
        ("We bought a table. A table would be ideal for the hall?", False),
    ],
)
def test_a_table_asked_in_a_sentence_of_its_own(query: str, table: bool):
    formats = [k.value for k in analyze(query).instructions if k.check == "format"]
    assert (formats == ["table"]) is table


def test_an_emails_subject_line_is_no_paragraph():
    email = (
        "Subject: Waiting list enquiry\n\nDear Secretary,\n\nFirst paragraph.\n\n"
        "Second paragraph.\n\nThird paragraph.\n\nBest wishes,\n[Your name]"
    )
    assert other_count(email, "paragraphs", None) == 3
    # without a greeting and a sign-off, the subject line alone goes
    assert other_count("Subject: Hi there\n\nOne.\n\nTwo.", "paragraphs", None) == 2


@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        ("Pick the Year 1 phonics screening pass rate and one reading measure.", "screen", False),
        ("Show the chart on a screen at the end of the table.", "screen", True),
        ("Screen the calls first, then reply to the urgent ones.", "screen", False),
        (
            "Non-lucrative visa as a stepping stone: the simplest one to get.",
            "non-lucrative visa",
            True,
        ),
        ("The digital nomad visa is the best fit for you.", "non-lucrative visa", False),
    ],
)
def test_answer_words_of_another_sense(answer: str, term: str, affirmed: bool):
    assert mentions(answer, term)[1] is affirmed


def test_a_non_dairy_milk_still_rules_dairy_out():
    assert mentions("Use a non-dairy milk such as oat.", "dairy")[1] is False


@pytest.mark.parametrize(
    ("items", "answer", "member"),
    [
        (["gluten"], "Thicken with 1 tsp cornflour mixed with water.", None),
        (["gluten"], "Thicken with a spoon of plain flour.", "flour"),
        (["fabric softener"], "Tumble dry with a couple of dryer sheets.", "dryer sheet"),
        (["fabric softener"], "Tumble dry with wool dryer balls.", None),
        (["heat"], "Give it a minute with a diffuser on the low setting.", "diffuser"),
        (["leaded solder"], "Solder: 63/37 tin-lead eutectic with a rosin core.", "tin-lead"),
        (["leaded solder"], "Solder: a lead-free tin-copper alloy such as SAC305.", None),
        (
            ["bleach"],
            "Soak it in a colour-safe oxygen stain remover for an hour.",
            "oxygen stain remover",
        ),
    ],
)
def test_members_by_another_name(items: list[str], answer: str, member: str | None):
    violated = check_members(items, answer).violated
    assert (violated[0][1] if violated else None) == member


@pytest.mark.parametrize(
    ("answer", "given"),
    [
        ('Mortise depth: in a 3-1/2" leg, 2-1/2" to 2-3/4" deep.', True),
        ("Cut the mortise about 1/16″ deeper than the tenon.", True),
        (
            'Write "5" on the label of every box, then stack them neatly in the corner of the'
            " garage before the van comes, so nothing gets lost on the day.",
            False,
        ),
    ],
)
def test_inches_by_their_mark_give_a_size(answer: str, given: bool):
    (asked,) = expected_answers("How deep should I cut the mortises?")
    assert asked.kind == "size"
    assert gives(asked.kind, answer) is given


def test_a_table_checked_in_the_answer():
    (k,) = analyze("Compare them. A table would be ideal.").instructions
    assert check_instruction("| City | Rent |\n|---|---|\n| Lisbon | 1,200 |", k)[0] is True
    assert check_instruction("**Lisbon**\n- Rent: 1,200", k)[0] is False


def _embed_near(texts: list[str]) -> np.ndarray:
    """ "religious", its opposite "secular" and its member "prayers" at one point, every other
    word apart: only the list of opposites keeps "secular" out."""
    near = {"religious", "secular", "prayers"}
    out = np.zeros((len(texts), len(texts) + 1))
    for i, t in enumerate(texts):
        out[i, 0 if t.lower() in near else i + 1] = 1.0
    return out


def test_an_opposite_is_no_member():
    check = check_members(
        ["religious"],
        "It is the standard, completely secular phrase.",
        embed=_embed_near,
        min_cosine=0.5,
    )
    assert not check.violated
    check = check_members(
        ["religious"],
        "You and your family are in my prayers.",
        embed=_embed_near,
        min_cosine=0.5,
    )
    assert check.violated


@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        ("Ask the waiter: Is there bonito or fish in the stock?", "fish", False),
        ("Ask them: does the broth contain fish?", "fish", False),
        ("Add the fish to the stock and simmer.", "fish", True),
        (
            "Is there a reason to add garlic in this recipe? Yes: add two cloves of garlic.",
            "garlic",
            True,
        ),
        ("Does it have to be chicken? Use chicken thighs.", "chicken", True),
    ],
)
def test_a_question_whether_it_is_in_there_is_a_check(answer: str, term: str, affirmed: bool):
    assert mentions(answer, term)[1] is affirmed


@pytest.mark.parametrize(
    ("query", "answer", "wrong"),
    [
        (
            "1,000-gallon tank, five people in the house. Last pumped May 2021. Overdue?",
            "The sizing table puts a 1,500-gallon tank with five people at about 3.3 years.",
            True,
        ),
        (
            "I talked to Sam about missing three client deadlines this quarter. Draft the"
            " follow-up.",
            "- This quarter, two client deadlines were missed: [A] and [B].",
            True,
        ),
        (
            "1,000-gallon tank, five people in the house. Overdue?",
            "A 1,000-gallon tank with five people lasts about 2 years; a 1,500-gallon tank would"
            " last 3.3.",
            False,
        ),
        (
            "My gauge came out at 24 stitches with 4mm needles. Go up a size?",
            "Try 4.5mm needles first.",
            False,
        ),
        (
            "1,000-gallon tank, five people in the house. Overdue?",
            "If you upgrade, a 1,500-gallon tank gives you more time.",
            False,
        ),
    ],
)
def test_a_count_of_a_named_thing_told_back_as_another(query: str, answer: str, wrong: bool):
    assert bool(contradicted(query, answer)) is wrong

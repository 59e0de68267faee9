"""fx31: misreadings `gate_holdout31` showed after its one measure, each mended as a rule.

1. "dairy- and nut-free" (a suspended hyphen) rules dairy out in an answer; coconut is no
   nut.
2. "no loans, federal or private, not even the 'good' kind" rules out loans: a later piece
   that only sorts the first ("federal", "the processed kind") is no item of its own.
3. "Nothing electronic though" rules out electronics, whose members now include a digital
   scale and a sonar; "anything acidic" has lemon and vinegar, "sports" has soccer and a
   playoff game.
4. "I don't want to drag her to small claims" rules out small claims ("bring my daughter to
   court" rules out no court: she comes along).
5. "Since you started on Tuesday" for "I took the first one Monday morning": the answer's
   premise on another weekday than the request names.
6. A JSON translation with the keys "english" and "spanish" is judged by its Spanish
   strings, not by the English ones the request asked to keep beside them.
7. "they drive me up the wall", said of an excluded thing, is no part of the ask; what
   harms the asker is ruled out ("garlic gives me heartburn", "wool drives me crazy"; not
   "coffee gives me energy", and only beside an exclusion of the same sentence: "my boss
   drives me crazy" is what the request is about).
"""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.affirmation import mentions
from scoregate.scoring.fusion import fuse
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.language import readable_text
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted

CFG = load_scoring_config()


@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        ("Ideas that travel well and are dairy- and nut-free: hummus, popcorn.", "dairy", False),
        ("These bars are egg-, dairy- and nut-free.", "egg", False),
        ("Popcorn popped in olive or coconut oil.", "nut", False),
        ("A handful of walnuts on top.", "nut", True),
        ("Add the dairy- it keeps the sauce smooth.", "dairy", True),
    ],
)
def test_a_suspended_hyphen_and_coconut(answer: str, term: str, affirmed: bool) -> None:
    assert mentions(answer, term)[1] is affirmed


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        (
            "How can I pay for my master's with zero debt — no loans, federal or private, not"
            " even the 'good' kind.",
            ["loans"],
        ),
        ("no red meat, pork or the processed kind", ["red meat", "pork"]),
        ("no onions, garlic or leeks please", ["onions", "garlic", "leeks"]),
        ("no cheap or flimsy ones", ["cheap", "flimsy ones"]),
        (
            "Gift ideas for my dad? He loves fishing. Nothing electronic though, he hates gadgets.",
            ["electronic"],
        ),
        (
            "my roommate stopped paying rent. I don't want to drag her to small claims, we're"
            " still friends. what can i do?",
            ["small claims"],
        ),
        ("I'd rather not go to court, what are my options?", ["court"]),
    ],
)
def test_what_an_exclusion_names(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


@pytest.mark.parametrize(
    ("item", "answer", "member"),
    [
        ("electronic", "A fish finder with a sonar unit that clips to his boat.", "sonar"),
        ("anything acidic", "Water, dish soap and a splash of fresh lemon juice.", "lemon"),
        ("sports", "The missed penalty kick in a playoff game.", "playoff"),
        ("electronic", "A fillet knife with a leather sheath.", None),
        ("anything acidic", "Warm water and mild dish soap; skip vinegar and lemon.", None),
    ],
)
def test_class_members(item: str, answer: str, member: str | None) -> None:
    violated = check_members([item], answer).violated
    assert (violated[0][1] if violated else None) == member


_DOSES = (
    "doctor gave me amoxicillin, 3 times a day for 7 days. I took the first one Monday"
    " morning at 8am. what day will my last dose be?"
)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ("Since you started on Tuesday, day 7 lands on Monday.", "since you started on tuesday"),
        ("Since you started Monday morning, Sunday is day 7.", None),
        ("Doses are spaced evenly; on Tuesday you will be on day 2.", None),
    ],
)
def test_a_weekday_restated(answer: str, said: str | None) -> None:
    found = contradicted(_DOSES, answer)
    assert (found[0][0] if found else None) == said


_TRANSLATE = (
    "translate these to spanish and give it back as JSON, a list of objects each with the keys"
    ' "english" and "spanish": 1) I have two brothers. 2) We are going to the beach tomorrow.'
    " 3) Where is the library?"
)
_PAIRS = (
    '[{"english": "I have two brothers.", "spanish": "Tengo dos hermanos."},'
    ' {"english": "We are going to the beach tomorrow.", "spanish": "Vamos a la playa mañana."},'
    ' {"english": "Where is the library?", "spanish": "¿Dónde está la biblioteca?"}]'
)


def test_a_json_translation_is_read_by_its_wanted_language() -> None:
    assert readable_text(_PAIRS, "es").startswith("Tengo dos hermanos.")
    assert "english" not in readable_text(_PAIRS)  # keys are no text
    assert readable_text("Tengo dos hermanos.", "es") == "Tengo dos hermanos."
    language = next(k for k in analyze(_TRANSLATE).instructions if k.check == "language")
    assert check_instruction(_PAIRS, language)[0] is True
    assert check_instruction(_PAIRS.replace("spanish", "french"), language)[0] is False


def test_a_json_translation_is_not_capped_as_untranslated() -> None:
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.8),
        "precision": TrackScore(name="precision", score=0.9),
    }
    result = fuse(ScoreRequest(query=_TRANSLATE, content=_PAIRS), tracks, CFG)
    assert not any("language of the text to translate" in r for r in result.reasons)


def test_a_reason_after_an_exclusion_is_no_ask() -> None:
    query = "need a show to binge. i cannot stand laugh tracks, they drive me up the wall."
    assert analyze(query).core_ask == "need a show to binge."


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("No onions, garlic gives me heartburn too. Quick weeknight pasta?", ["onions", "garlic"]),
        (
            "Need a warm hat but I don't like anything itchy, wool drives me crazy. Ideas?",
            ["anything itchy", "wool"],
        ),
        (
            "would prefer to avoid pills, painkillers always give me heartburn. tips?",
            ["pills", "painkillers"],
        ),
        ("coffee gives me energy but what else works at 3am?", []),
        ("I'd rather not use bleach, the smell makes me sick. Grout tips?", ["bleach"]),
    ],
)
def test_what_harms_the_asker_is_ruled_out(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


# A reviewer's round over the rules above: what they must leave alone.
@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("My boss drives me crazy. How do I handle him in meetings?", []),
        ("Chemo makes me so nauseous. What can I eat on treatment days?", []),
        ("Spicy food gives me heartburn but I love curry. How can I enjoy it?", []),
        ("Nothing works though. Any other ideas for sleep?", []),
        ("I had chest pains after the gym. Nothing serious though, right?", []),
        ("I don't want to bring my daughter to court. Childcare options?", []),
        ("I don't want to go to the police station alone. Can a friend come?", []),
        ("My budget is $300, so no phones over that. Best camera?", ["phones over that"]),
        (
            "No beaches or any touristy ones, where in New England?",
            ["beaches", "touristy ones"],
        ),
    ],
)
def test_what_the_new_rules_leave_alone(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


@pytest.mark.parametrize(
    ("item", "answer"),
    [
        ("anything acidic", "For lime buildup on marble use a pH-neutral stone cleaner."),
        ("sports", "Sit outside and listen for crickets after dark."),
        ("electronic", "A magazine subscription, print or digital."),
    ],
)
def test_members_in_other_senses(item: str, answer: str) -> None:
    assert not check_members([item], answer).violated


def test_a_weekday_worked_out_or_next_is_no_premise() -> None:
    late = "I took my pill 12 hours late on Monday night. What now?"
    assert contradicted(late, "Since you took it late, on Tuesday take the next one.") == []
    today = "It's Thursday today and I started the course yesterday. When does it end?"
    assert contradicted(today, "Since you started on Wednesday, it ends next Tuesday.") == []


def test_a_json_list_of_sentences_is_read_as_one_text() -> None:
    spanish = (
        '["El perro come en la cocina todos los días.",'
        ' "Mañana vamos a visitar a mis abuelos en el pueblo."]'
    )
    language = next(
        k
        for k in analyze(
            "Translate these to Spanish as a JSON array: The dog eats in the kitchen every"
            " day. Tomorrow we are going to visit my grandparents in the village."
        ).instructions
        if k.check == "language"
    )
    assert check_instruction(spanish, language)[0] is True


def test_a_suspended_hyphen_with_an_oxford_comma() -> None:
    assert mentions("These bars are egg-, dairy-, and nut-free.", "dairy")[1] is False

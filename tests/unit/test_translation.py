"""Requests to translate a text: the reading, the checks, and the relevance gate set aside
(``scoring.translation``; ``docs/decisions.md``, "Requests to translate a text")."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.constraints import Instruction
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.fusion import fuse
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.translation import translation_fault, translation_request


@pytest.mark.parametrize(
    ("query", "target", "source", "opening"),
    [
        ("Translate to English: '¿Dónde está la estación de tren más cercana?'", "en", "es", "¿Dó"),
        ("Translate into German: Please keep the door closed at all times.", "de", "en", "Ple"),
        (
            "Can you translate this into French for me? 'The meeting has been moved to"
            " Thursday at 3pm.'",
            "fr",
            "en",
            "The",
        ),
        (
            "can you put this into French for my landlord? Hi Mr. Lefebvre, the kitchen tap"
            " has been leaking since Sunday. Thanks, Dana",
            "fr",
            "en",
            "Hi ",
        ),
        (
            'what does this letter from my kids school in Munich say in english\n\n"Liebe'
            " Eltern, am Mittwoch findet unser Wandertag statt. Bitte geben Sie Ihrem Kind"
            ' ein Lunchpaket mit."',
            "en",
            "de",
            "Lie",
        ),
        (
            'My colleague left this in our team chat — English please?\n"Salut tout le monde,'
            ' je serai en congé du 21 au 25 octobre."',
            "en",
            "fr",
            "Sal",
        ),
        (
            "Translate the following into Italian, keep it formal — it's going to the head"
            " teacher of my daughter's school in Florence:\n\nDear Principal Rinaldi, I am"
            " writing to ask for permission for my daughter to be absent.",
            "it",
            "en",
            "Dea",
        ),
        (
            "Bonjour, le train est en retard et nous arriverons à la gare dans une heure.\n\nPlease"
            " translate this into"
            " English",
            "en",
            "fr",
            "Bon",
        ),
        (
            "our tennis club wants this notice in french for the board, can u translate:\n"
            "Courts can be booked up to 7 days in advance on the club app.",
            "fr",
            "en",
            "Cou",
        ),
    ],
)
def test_a_translation_asked_for_is_read(query, target, source, opening):
    t = translation_request(query)
    assert t is not None
    assert (t.target, t.source, t.text[:3]) == (target, source, opening)


@pytest.mark.parametrize(
    "query",
    [
        "Should I translate my CV into German before applying in Munich?",
        "Can you put this jargon into plain English: the party of the first part shall"
        " indemnify the party of the second part.",
        "Translate this recipe into metric: 2 cups flour, 1 stick butter.",
        "Translate this function from Python to JavaScript: def add(a, b): return a + b",
        "Write a poem in French about the sea.",
        "Can you translate this into French? It's for my landlord.",
        "Summarize this in English please: Der Zug fährt um acht Uhr ab und kommt um zehn an.",
        "Translate into English: Please keep the door closed at all times.",
        "How do you say 'thank you very much' in Japanese?",
        "How much does it cost to translate a 20-page contract into Spanish?",
    ],
)
def test_no_translation_is_read_where_none_is_asked_for(query):
    assert translation_request(query) is None


def test_the_text_to_translate_is_material_not_instructions():
    a = analyze(
        "Translate into Spanish: 'No pets allowed. Please reply within three days, in no"
        " more than two sentences, and don't use the lift.'"
    )
    assert a.excluded == []
    assert [(k.check, k.value if k.check != "translation" else "") for k in a.instructions] == [
        ("language", "es"),
        ("translation", ""),
    ]


TEXT = (
    "Estimado Sr. Whitfield, confirmamos su reserva en el Hotel Las Arenas del 14 al 18 de"
    " marzo. La habitación doble cuesta 135 euros por noche, desayuno incluido. El check-in es"
    " a partir de las 15:00."
)
GOOD = (
    "Dear Mr. Whitfield, we confirm your reservation at Hotel Las Arenas from March 14 to 18."
    " The double room costs 135 euros per night, breakfast included. Check-in is from 3:00 p.m."
)


@pytest.mark.parametrize(
    "answer",
    [
        GOOD,
        f"Here's the translation:\n\n{GOOD}",
        f"{GOOD}\n\n(Note: 'check-in a partir de' literally means 'check-in starting at'.)",
        GOOD.replace("3:00 p.m.", "15:00"),
        GOOD.replace("135 euros", "€135"),
    ],
)
def test_a_whole_translation_passes(answer):
    assert translation_fault(TEXT, answer) is None


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (GOOD.replace("135", "153"), "'135'"),
        (GOOD.replace("14 to 18", "14 to 16"), "'16'"),
        (GOOD.replace("3:00 p.m.", "4:00 p.m."), "'16:00'"),
        (
            "Dear Mr. Whitfield, we confirm your reservation at Hotel Las Arenas from March 14 to"
            " 18 for 135 euros.",
            "sentence",
        ),
        (GOOD + " " + GOOD.replace("Dear", "Yes, dear") + " " + GOOD, "adds nothing"),
    ],
)
def test_a_changed_or_partial_translation_fails(answer, says):
    fault = translation_fault(TEXT, answer)
    assert fault is not None and says in fault, fault


def test_most_names_left_out_is_another_text():
    text = "Hi Ana, thanks for sending the invoice. I will pay it by Friday. Best, Tom"
    assert (
        translation_fault(text, "Hola Ana, gracias por la factura. La pagaré el viernes. Tom")
        is None
    )
    assert (
        translation_fault(
            text, "Hola Marta, te escribo para confirmar la reserva del sábado. Un abrazo, Luis"
        )
        is not None
    )
    assert (
        translation_fault(
            text, "Hola Ana, gracias por enviar la factura. La pagaré el viernes. Saludos, Tom"
        )
        is None
    )


def test_a_price_is_no_time():
    assert (
        translation_fault(
            "El menú cuesta 12,50 € y abre a las 13:00.",
            "The set menu costs €12.50 and opens at 1 p.m.",
        )
        is None
    )


def test_the_check_is_a_constraint_a_caller_can_give():
    k = Instruction(check="translation", value=TEXT)
    assert check_instruction(GOOD, k)[0] is True
    assert check_instruction(GOOD.replace("135", "99"), k)[0] is False
    with pytest.raises(ValueError, match="needs value"):
        Instruction(check="translation")


def test_a_translation_note_in_english_is_not_held_to_the_language():
    (lang,) = [
        k
        for k in analyze("Translate into German: 'See you on Saturday.'").instructions
        if k.check == "language"
    ]
    answer = (
        "Wir sehen uns am Samstag.\n\n(Note: I used the informal form; for a client you"
        " would write 'Wir sehen uns am Samstag, ich freue mich auf das Treffen mit Ihnen.')"
    )
    assert check_instruction(answer, lang)[0] is True
    assert check_instruction("See you on Saturday, then, as we agreed last week.", lang)[0] is False


def test_a_terse_english_label_is_english():
    from scoregate.scoring.language import detect_language

    label = (
        "Paracetamol 500 mg. Take 1 tablet every 6 hours, no more than 4 tablets a day. Store"
        " below 25°C. Papadopoulou Pharmacy, tel. 2310 245 118."
    )
    assert detect_language(label) == "en"


def _fused(query: str, answer: str, semantic: float, precision: float, reward=None):
    tracks = {
        "semantic": TrackScore(name="semantic", score=semantic),
        "precision": TrackScore(name="precision", score=precision),
    }
    if reward is not None:
        tracks["reward"] = reward
    return fuse(ScoreRequest(query=query, content=answer), tracks, load_scoring_config())


def test_a_translation_into_english_is_unverified_not_off_topic():
    r = _fused(
        "Translate to English: '¿Dónde está la estación de tren más cercana?'",
        "Where is the nearest train station?",
        semantic=0.04,
        precision=0.9,
    )
    assert r.action == "review", (r.action, r.reasons)
    assert any("asks for a translation from Spanish into English" in x for x in r.reasons)


def test_an_english_text_answered_in_english_is_still_gated_on_relevance():
    r = _fused(
        "Translate into German: 'The heating in flat 4 has been broken since Monday.'",
        "The best way to learn German is a little every day, with a tandem partner.",
        semantic=0.02,
        precision=0.05,
    )
    assert r.action == "reject", (r.action, r.reasons)

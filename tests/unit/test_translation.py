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
        (GOOD.replace("135", "153"), "number 135"),
        (GOOD.replace("14 to 18", "14 to 16"), "gives 16 where the text to translate says 18"),
        (GOOD.replace("3:00 p.m.", "4:00 p.m."), "'4:00 p.m.' where the text to translate says"),
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
    from scoregate.scoring.reward import evaluate_reward

    query = "Translate into German: 'The heating in flat 4 has been broken since Monday.'"
    cfg = load_scoring_config()
    for answer, semantic, action in (
        (
            "The best way to learn German is a little every day, with a tandem partner.",
            0.02,
            "reject",
        ),
        ("The heating in flat 4 has been broken since Monday, sadly.", 0.95, "iterate"),
    ):
        reward = evaluate_reward(answer, list(analyze(query).instructions), cfg.reward)
        r = _fused(query, answer, semantic=semantic, precision=0.9, reward=reward)
        assert r.action == action, (answer, r.action, r.reasons)
    assert any("the language of the text to translate" in x for x in r.reasons), r.reasons


# Review 25 (R1): a user whose agents translate all day; each case failed before its mend.
@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Translate to English: Das Auto kostet 18.900 Euro.", "The car costs €18900."),
        (
            "Translate to English: Öffnungszeiten: Mo–Fr 8–18 Uhr, Sa 9–13 Uhr.",
            "Opening hours: Mon–Fri 8 am–6 pm, Sat 9 am–1 pm.",
        ),
        (
            "Translate these menu labels into German:\n- Save As\n- Print Preview\n- Export to"
            " PDF\n- Account Settings\n- Sign Out",
            "- Speichern unter\n- Druckvorschau\n- Als PDF exportieren\n- Kontoeinstellungen\n"
            "- Abmelden",
        ),
        (
            "Translate into French: The store closes at 5pm on weekdays and at 1pm on Saturdays.",
            "Le magasin ferme à 17 heures en semaine et à 13 heures le samedi.",
        ),
        (
            "Translate to English: Le dîner est servi à 21 heures sur la terrasse.",
            "Dinner is served at 9 p.m. on the terrace.",
        ),
        (
            "Translate to English: La tienda abre de 10 a 14 y de 17 a 21 horas.",
            "The shop is open from 10 am to 2 pm and from 5 pm to 9 pm.",
        ),
        (
            "Translate into German: The shop closes at noon on Saturdays and at 6 pm on weekdays.",
            "Das Geschäft schließt samstags um 12 Uhr und werktags um 18 Uhr.",
        ),
        (
            "Translate to German: The apartment is 75 m² and costs $1,850 per month.",
            "Die Wohnung ist 75 Quadratmeter groß und kostet 1850 Dollar im Monat.",
        ),
        (
            "Translate into Spanish: We have 10000 customers in 12 countries.",
            "Tenemos 10 000 clientes en 12 países.",
        ),
        (
            "Translate into Spanish: The 2023-24 season starts in September.",
            "La temporada 2023-2024 empieza en septiembre.",
        ),
        (
            "Translate into German: Please pay by July 1, 2025.",
            "Bitte zahlen Sie bis zum 01.07.2025.",
        ),
        (
            "Translate into Spanish: We ship to Germany, Greece, Switzerland and the Netherlands.",
            "Enviamos a Alemania, Grecia, Suiza y los Países Bajos.",
        ),
        (
            "Translate to English: Die Lieferung erfolgt am 12. März. Bitte bestätigen Sie den"
            " Termin bis zum 5. März.",
            "The delivery will take place on 12 March. Please confirm the appointment by 5 March.",
        ),
        (
            "Translate into Hindi: The train to Delhi departs from platform 4.",
            "दिल्ली जाने वाली ट्रेन प्लेटफॉर्म 4 से रवाना होती है।",
        ),
        (
            "Translate this to German 'Flight LH 456 departs at 10:30 from gate 12'",
            "Flug LH 456 startet um 10:30 von Gate 12",
        ),
        (
            "English please:\nEl pedido 5521 llegó roto. Quiero un reembolso de 89 euros.",
            "Order 5521 arrived broken. I want a refund of 89 euros.",
        ),
        (
            "Translate this into German:\n\nWe are delighted to welcome you to our team. Your"
            " first day is Monday and your manager, Julia, will meet you at reception.\n\nUse"
            " the formal Sie form, and keep it under 40 words.",
            "Wir freuen uns, Sie in unserem Team willkommen zu heißen. Ihr erster Tag ist Montag,"
            " und Ihre Vorgesetzte Julia empfängt Sie am Empfang.",
        ),
        (
            "Translate into Spanish: The course lasts twelve weeks and costs two hundred dollars.",
            "El curso dura 12 semanas y cuesta 200 dólares.",
        ),
        (
            "Translate into English: Die Strecke ist 20 km lang und dauert etwa 4 Stunden.",
            "The route is 20 km (about 12 miles) long and takes about 4 hours.",
        ),
    ],
)
def test_r1_a_faithful_translation_passes(query, answer):
    t = translation_request(query)
    assert t is not None, query
    assert translation_fault(t.text, answer) is None, (t.text, translation_fault(t.text, answer))


@pytest.mark.parametrize(
    ("query", "target"),
    [
        (
            "Is it possible to translate this into English? 'Il pleut depuis trois jours et la"
            " route du col est fermée.'",
            "en",
        ),
        ("Do you mind translating this into English: 'Il pleut depuis trois jours.'", "en"),
        (
            "When you get a chance, translate this into English: 'Il pleut depuis trois jours.'",
            "en",
        ),
        ("French to English: Il pleut depuis trois jours et la route du col est fermée.", "en"),
        ("EN → DE: The client call is moved to 4pm tomorrow, please update the invite.", "de"),
        ("In Spanish, please: We'll be there in ten minutes, the traffic is terrible.", "es"),
        ("Übersetze bitte ins Englische: Wir treffen uns morgen um 15 Uhr am Hauptbahnhof.", "en"),
        ("Traduce al inglés: Nos vemos mañana a las tres en la estación.", "en"),
        (
            "Translate into Czech: Please keep the door closed at all times, the cat must stay in.",
            "cs",
        ),
        ("Translate 'Note: all prices include VAT' into German.", "de"),
    ],
)
def test_r1_more_phrasings_are_read(query, target):
    t = translation_request(query)
    assert t is not None and t.target == target, t


@pytest.mark.parametrize(
    "query",
    [
        "Help me respond to this WhatsApp from my landlord. English please.\n\nHola, soy Marta."
        " El alquiler de octubre (950 €) todavía no ha llegado.",
        "Can you draft a reply? In English, please:\n\nHola, soy Marta. El alquiler de octubre"
        " todavía no ha llegado.",
        "My landlord sent this, should I be worried? I need the answer in English: Hola, soy"
        " Marta. El alquiler de octubre todavía no ha llegado.",
        "Can you check my Spanish translation? Original: 'I'll be late tomorrow because of the"
        " train strike.' Mine: 'Llegaré tarde mañana por la huelga de trenes.'",
        "Rate this German translation from 1 to 10: 'Wir freuen uns auf Ihren Besuch am 14. Mai.'",
        "Translate this regex into English: ^\\d{3}-\\d{4}$",
    ],
)
def test_r1_other_tasks_are_no_translation(query):
    assert translation_request(query) is None


@pytest.mark.parametrize(
    "query",
    [
        "Translate 'Thank you very much for your help yesterday' into German, French and Spanish.",
        "Translate into Spanish and show the original next to it: Our team will contact you"
        " within 48 hours.",
        "Translate into Chinese with pinyin: Excuse me, how much is this ticket to Shanghai?",
        "Translate this to Spanish and then tell me how formal it sounds: 'Hey, wanna grab"
        " lunch tomorrow?'",
    ],
)
def test_r1_a_request_for_more_than_the_translation_holds_no_form(query):
    t = translation_request(query)
    assert t is not None and t.extras
    assert [k.check for k in analyze(query).instructions] == []


def test_r1_an_inferred_translation_failure_alone_is_iterate_not_reject():
    from scoregate.scoring.reward import evaluate_reward

    query = "Translate to English: Das Auto kostet 18.900 Euro."
    cfg = load_scoring_config()
    reward = evaluate_reward(
        "The car costs €25,000.", list(analyze(query).instructions), cfg.reward
    )
    assert reward is not None and reward.score == 0.0
    r = _fused(query, "The car costs €25,000.", semantic=0.05, precision=0.9, reward=reward)
    assert r.action == "iterate", (r.action, r.reasons)


# Read off gate_holdout23 after its one fresh measure (docs/decisions.md)
@pytest.mark.parametrize(
    ("text", "answer"),
    [
        (
            "Rendez-vous jeudi à 18 h 30 au garage.",
            "See you on Thursday at 6:30 p.m. at the garage.",
        ),
        ("Appointment on Thursday at 8:30.", "Rendez-vous jeudi à 8 h 30."),
    ],
)
def test_a_time_written_the_french_way_is_the_same_time(text, answer):
    assert translation_fault(text, answer) is None


@pytest.mark.parametrize(
    "query",
    [
        'I got this WhatsApp message. What does it say?\n"Hola Daniel, soy Lucía, de Recursos'
        ' Humanos. Nos gustaría hacerte una entrevista el jueves."',
        "what's this in english? got it after my interview\n\nBeste Sara, bedankt voor het"
        " prettige gesprek van gisteren.",
    ],
)
def test_what_does_it_say_of_a_text_in_another_language_asks_for_english(query):
    t = translation_request(query)
    assert t is not None and t.target == "en", t
    assert translation_request("What does it say about the weather? It rains a lot here.") is None

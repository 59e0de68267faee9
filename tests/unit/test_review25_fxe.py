"""Review 25 (R1) findings 10 and 11 mended by fxe: each case failed before its mend.

10: the lead-ins, notes and closing offers an assistant writes around a translation in
another language fail an inferred language check. 11: Indic words split at their vowel
signs, Marathi never found, short Ukrainian, Persian and Marathi texts read as Russian,
Arabic and Hindi.
"""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.counting import count_words
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.language import clear_language, detect_language, part_in_other_language
from scoregate.scoring.request_analysis import analyze


def _language(query: str) -> Instruction:
    (k,) = [k for k in analyze(query).instructions if k.check == "language"]
    return k


T1 = (
    "Translate into Spanish: Our team will contact you within 48 hours to confirm the"
    " installation date. Please make sure someone over 18 is at home."
)
E1 = (
    "Our team will contact you within 48 hours to confirm the installation date. Please"
    " make sure someone over 18 is at home."
)
G1 = (
    "Nuestro equipo se pondrá en contacto con usted en un plazo de 48 horas para confirmar"
    " la fecha de instalación. Asegúrese de que haya alguien mayor de 18 años en casa."
)
USTED = 'I used the formal "usted" form because this is a message to customers.'
T2 = "Translate into French: Your order will arrive on Thursday. Thank you for your purchase."
G2 = "Votre commande arrivera jeudi. Merci de votre achat."
G2L = (
    "Votre commande arrivera jeudi entre 9 h et 12 h. Merci de votre achat et de votre"
    " confiance, et à bientôt dans notre magasin."
)
LONG_NOTE = (
    'I used the formal "vous" because this is a message to a customer, and "purchase"'
    ' is "achat" rather than "commande", which would repeat the first sentence.'
)


# 10: what is said around the translation, in English, is no part of it
@pytest.mark.parametrize(
    "answer",
    [
        G1 + '\n\nNotes:\n- I used the formal "usted" since this is a message to customers.'
        '\n- "Installation date" is "fecha de instalación".',
        "Sure! Here's a natural-sounding Spanish version of your message for customers:"
        f'\n\n"{G1}"\n\nLet me know if you\'d like a more informal version using "tú".',
        G1 + "\n\nA few notes on the translation: " + USTED + " I kept the numbers as digits.",
        G1 + "\n\n*" + USTED + "*",
        G1 + "\n\nTranslation notes:\n\n- " + USTED + "\n- The numbers stay as digits.",
        G1 + "\n\nExplanation: " + USTED + " The rest follows the English closely.",
        G1 + "\n\n---\nThis uses the formal register, which is standard for customer emails.",
        G1 + "\n\nLet me know if you want a more casual version for social media!",
        G1 + "\n\nIf you'd like, I can also write a version for a text message.",
    ],
)
def test_10_notes_lead_ins_and_offers_around_a_translation_pass(answer):
    assert check_instruction(answer, _language(T1))[0] is True


@pytest.mark.parametrize(
    "answer",
    [
        G1 + "\n\n**Note:** " + USTED + " It sounds more polite in Spain and Latin America.",
        G1 + "\n\nI hope this helps! Feel free to ask for another version.",
        "Here's the translation:\n" + G1 + "\n\nTranslator's note: " + USTED,
    ],
)
def test_10_what_passed_before_still_passes(answer):
    assert check_instruction(answer, _language(T1))[0] is True


@pytest.mark.parametrize("note", ["\n(Note: {})", "\nNote: {}", "\n*{}*"])
def test_10_a_note_after_a_single_line_break_is_no_part_of_the_text(note):
    assert check_instruction(G2L + note.format(LONG_NOTE), _language(T2))[0] is True
    # a text too short to tell its language is no longer judged by the note on it
    assert check_instruction(G2 + note.format(LONG_NOTE), _language(T2))[0] is None


@pytest.mark.parametrize(
    "answer",
    [
        # wholly in English, around it or not
        "Sure! Here's the Spanish version:\n\n" + E1 + "\n\nLet me know if you'd like changes.",
        "Here's the translation:\n\n" + E1 + "\n\nNote: I kept the numbers as digits.",
        E1 + "\n\n*I kept the numbers as digits.*",
        "Note: I can't translate this because the message is incomplete; please send all of"
        " it and I will translate it.",
        # half translated: the second paragraph is the text left in English
        "Nuestro equipo se pondrá en contacto con usted en un plazo de 48 horas para"
        " confirmar la fecha de instalación y el horario.\n\nPlease make sure someone over 18"
        " is at home on the day, and keep pets away from the work area while we install.",
        "Sure! Here it is:\n\nNuestro equipo se pondrá en contacto con usted en un plazo de 48"
        " horas para confirmar la fecha de instalación y el horario.\n\nPlease make sure"
        " someone over 18 is at home on the day, and keep pets away from the work area while"
        " we install.\n\nLet me know if you'd like any changes.",
    ],
)
def test_10_an_answer_in_the_wrong_language_still_fails(answer):
    assert check_instruction(answer, _language(T1))[0] is False


def test_10_a_lead_in_leaving_too_little_to_judge_is_not_stripped():
    # "Hola." alone tells no language: the answer is judged whole, as before
    verdict = check_instruction("Here's the translation:\n\nHola.", _language(T1))
    assert verdict[0] is not True


def test_10_a_rule_before_the_text_is_no_note_after_it():
    answer = "Sure, here it is:\n\n---\n\n" + G1
    assert check_instruction(answer, _language(T1))[0] is True
    # the text after the rule is the answer, and in English it fails
    assert check_instruction("Sure, here it is:\n\n---\n\n" + E1, _language(T1))[0] is False


def test_10_a_stated_language_rule_still_holds_all_of_the_answer():
    k = Instruction(check="language", value="es")
    answer = G1 + "\n\nLet me know if you want a more casual version for social media!"
    assert check_instruction(answer, k)[0] is False


# 11: Indic words are one word with their vowel signs
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("दिल्ली जाने वाली ट्रेन प्लेटफॉर्म 4 से रवाना होती है।", 10),
        ("தயவுசெய்து உங்கள் அடையாள அட்டையை நாளை காலை அலுவலகத்திற்கு கொண்டு வாருங்கள்.", 9),
        ("আমি আগামীকাল অফিসে যাব।", 4),
        ("از اینکه ما را به عروسی‌تان دعوت کردید متشکریم، حتماً می‌آییم.", 11),
        ("Don't stop - 3 more.", 5),
    ],
)
def test_11_words_keep_their_vowel_signs(text, words):
    assert count_words(text) == words


def test_11_a_hindi_translation_is_counted_by_its_words():
    # "... in at least 15 words": 10 words, not 22 (one for each vowel sign)
    k = Instruction(check="count", unit="words", relation="at_least", value=15)
    assert check_instruction("दिल्ली जाने वाली ट्रेन प्लेटफॉर्म 4 से रवाना होती है।", k)[0] is False


# 11: Marathi's own words are found after a vowel sign
def test_11_marathi_is_found():
    assert detect_language("मी उद्या शाळेत जाणार आहे आणि तू घरी राहणार नाही.") == "mr"
    assert detect_language("मैं कल स्कूल जाऊँगा और तुम घर पर रहोगे।") == "hi"
    # a word that only holds the letters is no Marathi word: "नाहीं" / "आहेत" aside
    assert detect_language("वह आहेरी गाँव से आया है और यहीं रहता है।") == "hi"


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "Translate into Ukrainian: The school will be closed on Friday because of the"
            " heating repairs.",
            "Школа буде зачинена в п'ятницю через ремонт опалення.",
        ),
        (
            "Translate into Persian: Thank you for inviting us to your wedding, we will"
            " definitely come.",
            "از اینکه ما را به عروسی‌تان دعوت کردید متشکریم، حتماً می‌آییم.",
        ),
        (
            "Translate into Marathi: The meeting will start at ten o'clock tomorrow morning in"
            " the main hall.",
            "बैठक उद्या सकाळी दहा वाजता मुख्य सभागृहात सुरू होईल आणि सर्वांनी वेळेवर यावे.",
        ),
    ],
)
def test_11_close_languages_pass(query, answer):
    assert check_instruction(answer, _language(query))[0] is True


# 11: a short text in a close language is too little to tell
@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Школа буде зачинена через ремонт опалення.", "uk"),  # reads as Russian
        ("ما فردا به خانه شما خواهيم آمد", "fa"),  # Arabic "ي": typed on an Arabic keyboard
        ("बैठक उद्या सकाळी दहा वाजता सुरू होईल.", "mr"),  # no Marathi word
        ("Я живу в Києві вже два роки.", "ru"),  # a Ukrainian name in Russian
    ],
)
def test_11_a_short_text_in_a_close_language_is_too_little(text, want):
    assert clear_language(text, want) is None


def test_11_a_close_language_part_of_a_long_answer_is_too_little():
    # the second paragraph has no "і", "ї", "є" or "ґ": it reads as Russian
    part = (
        "Школа буде зачинена в середу через ремонт опалення, тому батьки мають подбати про"
        " догляд за дитиною вдома."
    )
    answer = "Шановні батьки, звертаємо вашу увагу на зміни в розкладі.\n\n" + part
    assert part_in_other_language(answer, "uk") is None


@pytest.mark.parametrize(
    ("text", "want", "found"),
    [
        # Russian's own letters tell it from Ukrainian, however short
        ("Школа будет закрыта в пятницу из-за ремонта.", "uk", "ru"),
        # far languages stay told apart
        ("Школа будет закрыта в пятницу из-за ремонта.", "fa", "ru"),
        ("Ich habe das Paket nicht bekommen und warte auf eine Antwort.", "es", "de"),
    ],
)
def test_11_languages_not_close_still_fail(text, want, found):
    assert clear_language(text, want) == found


def test_11_a_long_russian_text_for_ukrainian_asked_still_fails():
    text = " ".join(["Школа буде зачинена через ремонт опалення."] * 6)
    assert clear_language(text, "uk") == "ru"

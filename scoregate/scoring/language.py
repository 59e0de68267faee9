"""Which language a text is written in: scripts first, then common function words.

Good enough to check "respond in Spanish" on an answer of a sentence or more; it
returns ``None`` when the text is too short to tell. Also: whether an answer is in a
language the English models cannot read (:func:`foreign_language`), and the first part of
an answer in another language than the one asked for. Pure and dependency-free.
"""

from __future__ import annotations

import re
from collections import Counter

from scoregate.scoring.counting import (
    LETTER_WORDS,
    MARKS,
    count_words,
    split_paragraphs,
    unfenced,
)
from scoregate.scoring.reward_json import json_strings, load_json

#: ISO 639-1 code -> English name, for the languages this module can tell apart.
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "es": "Spanish",
    "fr": "French",
    "de": "German",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "sv": "Swedish",
    "pl": "Polish",
    "tr": "Turkish",
    "id": "Indonesian",
    "ru": "Russian",
    "uk": "Ukrainian",
    "el": "Greek",
    "ar": "Arabic",
    "fa": "Persian",
    "he": "Hebrew",
    "hi": "Hindi",
    "bn": "Bengali",
    "ta": "Tamil",
    "te": "Telugu",
    "mr": "Marathi",
    "th": "Thai",
    "zh": "Chinese",
    "ja": "Japanese",
    "ko": "Korean",
    "vi": "Vietnamese",
    "sw": "Swahili",
    "fi": "Finnish",
}
#: Name (lower case) -> code, for reading "respond in Spanish".
LANGUAGE_CODES: dict[str, str] = {name.lower(): code for code, name in LANGUAGE_NAMES.items()}
LANGUAGE_CODES.update({"farsi": "fa", "mandarin": "zh", "brazilian portuguese": "pt"})
#: Languages as their speakers name them ("en español", "auf Deutsch").
ENDONYMS: dict[str, str] = {
    "español": "es",
    "espanol": "es",
    "castellano": "es",
    "français": "fr",
    "francais": "fr",
    "deutsch": "de",
    "italiano": "it",
    "português": "pt",
    "portugues": "pt",
    "nederlands": "nl",
    "svenska": "sv",
    "polsku": "pl",
    "türkçe": "tr",
    "bahasa indonesia": "id",
    "suomeksi": "fi",
    "kiswahili": "sw",
}
#: English as other languages name it, for "responde en inglés", "bitte auf Englisch",
#: "réponds en anglais", "rispondi in inglese", "responda em inglês".
ENGLISH_ELSEWHERE: dict[str, str] = {
    "inglés": "en",
    "ingles": "en",
    "anglais": "en",
    "englisch": "en",
    "inglese": "en",
    "inglês": "en",
}

_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        "the and of to is in that it for you with are this on be as have not"
        # (words no other language here uses: a terse English label, "Take 1 tablet every 6
        # hours, no more than 4 a day", is no Portuguese for its "a" and "no")
        " than every more your from or at were has can if please we our my they their which"
        " would should could there what when how".split()
    ),
    "es": frozenset("el la los las de que y en un una es por para con no se del al lo su".split()),
    "fr": frozenset(
        "le la les de des et en un une est que pour dans pas du au avec sur ce".split()
    ),
    "de": frozenset(
        "der die das und ist nicht ein eine zu den von mit sich auf für im dem"
        # (pronouns and "wie": "Guten Morgen, wie geht es dir?" is no Spanish for its "es")
        " es wie ich wir mir dir auch sind haben".split()
    ),
    "it": frozenset("il la di che e un una per non sono del della con gli le è al nel".split()),
    "pt": frozenset("o a os as de que e em um uma é para com não do da se por no na".split()),
    "nl": frozenset("de het een en van is dat niet op te zijn voor met je ik er".split()),
    "sv": frozenset("och att det som en är på för med den inte av till har jag".split()),
    "pl": frozenset("i w na nie że się to jest do z jak po co ale od".split()),
    "tr": frozenset("ve bir bu da de için ile çok ne ama olarak daha gibi".split()),
    "id": frozenset("dan yang di ini itu dengan untuk tidak dari ke ada akan".split()),
    "vi": frozenset("và của là có không những được cho các một này trong".split()),
    "sw": frozenset("na ya wa kwa ni katika la za hii kama".split()),
    "fi": frozenset("ja on ei se että oli kun mutta hän ovat".split()),
}
_SCRIPTS: tuple[tuple[str, str], ...] = (
    ("ru", r"[\u0400-\u04FF]"),
    ("el", r"[\u0370-\u03FF]"),
    ("he", r"[\u0590-\u05FF]"),
    ("ar", r"[\u0600-\u06FF]"),
    ("hi", r"[\u0900-\u097F]"),
    ("bn", r"[\u0980-\u09FF]"),
    ("ta", r"[\u0B80-\u0BFF]"),
    ("te", r"[\u0C00-\u0C7F]"),
    ("th", r"[\u0E00-\u0E7F]"),
    ("ko", r"[\uAC00-\uD7AF]"),
    ("ja", r"[\u3040-\u30FF]"),
    ("zh", r"[\u4E00-\u9FFF]"),
)
_SCRIPT_RES = tuple((code, re.compile(rx)) for code, rx in _SCRIPTS)
#: Languages told by their script, not by their words.
SCRIPT_LANGUAGES = frozenset(code for code, _ in _SCRIPTS) | {"uk", "fa", "mr"}
#: Words of letters, with their marks: a Hindi or Tamil word is one word, not one per
#: vowel sign.
_WORD = LETTER_WORDS
MIN_WORDS = 4
#: Marathi's own common words ("is", "and", "not"), whole words: a vowel sign ends them,
#: so no ``\b`` can.
_MARATHI = re.compile(rf"(?<![\w{MARKS}])(?:आहे|आणि|नाही)(?![\w{MARKS}])")
#: Ukrainian's apostrophe before a soft vowel ("п'ятницю", "м'ясо"), where Russian writes
#: "ъ" or nothing.
_UKRAINIAN_APOSTROPHE = re.compile(r"[бвгджзклмнпрстфхцчшщ]['’ʼ][яюєї]")
#: Letters Persian writes and Arabic does not: its own yeh and keheh ("ی", "ک") ...
_PERSIAN_LETTERS = re.compile("[\u06cc\u06a9]")
#: ... and Arabic's yeh, kaf, teh marbuta and alef maksura ("ي", "ك", "ة", "ى").
_ARABIC_LETTERS = re.compile("[\u064a\u0643\u0629\u0649]")
#: Languages one script shares and a short text may not tell apart: a Ukrainian line
#: without "і", "ї", "є" or "ґ" reads as Russian, a Persian one without "پ", "چ", "ژ" or
#: "گ" as Arabic, a Marathi one without its own words as Hindi.
CLOSE_LANGUAGES: frozenset[frozenset[str]] = frozenset(
    {frozenset({"uk", "ru"}), frozenset({"fa", "ar"}), frozenset({"mr", "hi"})}
)
#: Fewer words than this, and a close language found is too little to tell.
_CLOSE_WORDS = 30
#: Letters Russian writes and Ukrainian never does.
_RUSSIAN_ONLY = re.compile(r"[ыэъё]", re.IGNORECASE)
#: Fewer words than this, and one function word between two languages tells neither.
_SHORT_WORDS = 15


def detect_language(text: str) -> str | None:
    """The ISO 639-1 code of ``text``'s main language, or ``None`` when it cannot tell."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return None
    counts = Counter[str]()
    for code, rx in _SCRIPT_RES:
        counts[code] = len(rx.findall(text))
    code, n = counts.most_common(1)[0]
    if n >= 0.3 * len(letters):
        if code == "zh" and counts["ja"]:
            return "ja"  # kanji with kana is Japanese
        if code == "ru" and (
            re.search(r"[іїєґ]", text.lower()) or _UKRAINIAN_APOSTROPHE.search(text.lower())
        ):
            return "uk"
        if code == "ar" and (
            re.search(r"[پچژگ]", text)
            or len(_PERSIAN_LETTERS.findall(text)) > len(_ARABIC_LETTERS.findall(text))
        ):
            return "fa"
        if code == "hi" and _MARATHI.search(text):
            return "mr"
        return code
    words = [w.lower() for w in _WORD.findall(text)]
    if len(words) < MIN_WORDS:
        return None
    if sum(c.isupper() for c in letters) > 0.8 * len(letters):
        # in capitals, English "I" and Polish or Czech "i" ("and") look alike: one-letter
        # words no longer tell the language
        words = [w for w in words if len(w) > 1] or words
    hits = Counter({lang: sum(w in fw for w in words) for lang, fw in _FUNCTION_WORDS.items()})
    (best, score), *rest = hits.most_common()
    if score == 0:
        return None
    return best


def too_close(text: str, found: str, want: str, words: int) -> bool:
    """Whether ``text``, of ``words`` words, found in ``found`` when ``want`` is asked, is
    too short to tell the two apart ("Школа буде зачинена в п'ятницю" reads as Russian
    for Ukrainian asked); never so with a letter only ``found`` writes (Russian's "ы")."""
    if frozenset({found, want}) not in CLOSE_LANGUAGES or words >= _CLOSE_WORDS:
        return False
    return not (found == "ru" and _RUSSIAN_ONLY.search(text))


def clear_language(text: str, want: str) -> str | None:
    """``detect_language``, or ``None`` when a text of a sentence or so is found in another
    language than ``want`` by one function word or none ("Dear Boss, I would like to
    request vacation ...": "i" and "to" are Polish words too): too little to judge by."""
    found = detect_language(text)
    words = [w.lower() for w in _WORD.findall(text)]
    if found not in (None, want) and too_close(text, found, want, len(words)):
        return None
    if found in (None, want) or len(words) >= _SHORT_WORDS:
        return found
    if found not in _FUNCTION_WORDS or want not in _FUNCTION_WORDS:
        return found

    def hits(lang: str) -> int:
        return sum(w in _FUNCTION_WORDS[lang] for w in words)

    return None if hits(found) - hits(want) <= 1 else found


#: Common English words: a text with many of them is English, whatever names are in it.
ENGLISH_COMMON = frozenset(
    "a an the and or but of to in on at for with from by is are was were be been do does did"
    " how what why when where which who whom i my me you your we our us it its this that these"
    " can could should would will not no please need want help get make give tell".split()
)
#: A letter outside the Latin scripts (Cyrillic, Greek, Arabic, CJK, ...).
_NON_LATIN = re.compile(r"[^\W\d_\u0000-\u024F\u1E00-\u1EFF]")
#: The fewest words a text needs before it is called foreign (not English).
MIN_FOREIGN_WORDS = 12
#: The share of a language's function words a foreign text needs, and the most common
#: English words it may hold (and never more than half as many as its own).
MIN_FOREIGN_SHARE = 0.10
MAX_ENGLISH_SHARE = 0.10


#: An equation: a letter or number, an equals sign, a letter or number ("x = y + 1").
_EQUATION = re.compile(r"[\w)]\s*[=≠≤≥<>]\s*[\w(−-]")


def foreign_language(text: str) -> str | None:
    """The language of ``text`` when it is clearly not English, else ``None``.

    Stricter than :func:`detect_language`: a text in a Latin script needs
    ``MIN_FOREIGN_WORDS`` words, few common English words and many of its language's own
    function words, so that code, lists of names and short English lines stay English.

    >>> foreign_language("Feste Wanderschuhe mit gutem Profil und eine Regenjacke, denn das"
    ...                  " Wetter in den Bergen kann sich schnell ändern.")
    'de'
    >>> foreign_language("How do I return something I bought at IKEA last week?") is None
    True
    """
    words = [w.lower() for w in _WORD.findall(text)]
    if _EQUATION.search(text):  # "x = y + 1": its letters are variables, not Spanish "y"
        words = [w for w in words if len(w) > 1]
    english = sum(w in ENGLISH_COMMON for w in words)
    latin = _NON_LATIN.search(text) is None
    if latin and (len(words) < MIN_FOREIGN_WORDS or english > MAX_ENGLISH_SHARE * len(words)):
        return None  # most answers: English, decided in one pass over the words
    code = detect_language(text)
    if code is None or code == "en":
        return None
    if code in SCRIPT_LANGUAGES:
        return code
    if len(words) < MIN_FOREIGN_WORDS:
        return None
    own = sum(w in _FUNCTION_WORDS.get(code, ()) for w in words)
    if english > MAX_ENGLISH_SHARE * len(words) or own < 2 * english:
        return None
    return code if own >= MIN_FOREIGN_SHARE * len(words) else None


#: A paragraph (or a line of a list) this long in another language breaks "all of it
#: in French"; shorter ones may be names, titles or quotes.
_MIN_PART_WORDS = 12
_MIN_LINE_WORDS = 10
#: The share of common English words that makes a part English.
_ENGLISH_SHARE = 0.2


def _other_language(part: str, want: str) -> str | None:
    """The language of ``part`` when it is surely not ``want``: English (many common
    English words) or another script. Close languages (Spanish and Portuguese) are not
    told apart on one line."""
    words = [w.lower() for w in _WORD.findall(part)]
    if want != "en" and sum(w in ENGLISH_COMMON for w in words) >= _ENGLISH_SHARE * len(words):
        return "en"
    got = detect_language(part)
    if got is not None and got != want and too_close(part, got, want, len(words)):
        return None
    if got != want and (got in SCRIPT_LANGUAGES or want in SCRIPT_LANGUAGES):
        return got
    return None


def _language_parts(content: str) -> list[str]:
    """The paragraphs long enough to tell their language, and the long lines of lists."""
    parts: list[str] = []
    for paragraph in split_paragraphs(content):
        lines = [ln for ln in paragraph.splitlines() if ln.strip()]
        if len(lines) > 1:
            parts += [ln for ln in lines if count_words(ln) >= _MIN_LINE_WORDS]
        elif count_words(paragraph) >= _MIN_PART_WORDS:
            parts.append(paragraph)
    return parts


def part_in_other_language(content: str, want: str) -> tuple[str, str] | None:
    """The first paragraph (or long list line) of ``content`` surely not in ``want``, with
    its language; ``None`` when every part long enough to tell is in ``want``."""
    for part in _language_parts(content):
        if (other := _other_language(part, want)) is not None:
            return other, part
    return None


#: Keys whose strings are the text in the wanted language whatever it is.
_TARGET_KEYS = frozenset({"translation", "translated", "target"})
#: ... read alone when they hold at least this share of the JSON's words.
_OWN_SHARE = 0.3


def readable_text(content: str, want: str | None = None) -> str:
    """The text of ``content`` whose language a reader would judge: a JSON answer's
    strings as one paragraph, not its keys and brackets, and, when the JSON names the
    wanted language (or "translation", "target") as a key (``{"english": "I have two
    brothers.", "spanish": "Tengo dos hermanos."}``), only the strings under it if they
    hold at least ``_OWN_SHARE`` of its words; any other content as it is."""
    data = unfenced(content.strip())
    if not data.startswith(("{", "[")):
        return content
    value, error = load_json(data)
    if error is not None or not isinstance(value, (list, dict)):
        return content
    strings = json_strings(value)
    if want is not None:
        names = frozenset({want.lower(), LANGUAGE_NAMES.get(want, want).lower()}) | _TARGET_KEYS
        own = json_strings(value, names)
        # (the strings under the wanted language's key, when they are a good share of the
        # text, as pairs are: not a profile's "languages": {"french": "native"})
        if count_words(" ".join(own)) >= _OWN_SHARE * count_words(" ".join(strings)):
            strings = own
    # one paragraph: a misread line of a list of strings is no part in another language
    return " ".join(strings)

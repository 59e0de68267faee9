"""Requests to translate a text the request gives: the target language, the text, and the
text's language; and what a translation can be held to mechanically.

>>> t = translation_request("Translate to English: '¿Dónde está la estación de tren más cercana?'")
>>> (t.target, t.source, t.text)
('en', 'es', '¿Dónde está la estación de tren más cercana?')

A request is only read as one when it gives the text (quoted, after a colon or on the
lines after the ask) and the text is not already in the target language: "Should I
translate my CV into German?" gives none, "put this jargon into plain English" names no
language, and "reply to this in Spanish", "check my French translation" ask for something
else. The English models cannot compare a text with its translation when either is not
English, so ``fusion`` leans on the checks here instead (``docs/decisions.md``, "Requests to
translate a text"). The checks hold only what a good translation never changes: numbers of
three digits or more, a number or a time of day exchanged for another, the names of the
people it addresses or is signed by, about its length, its sentences.

Pure: text in, data out.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from scoregate.scoring.counting import split_paragraphs, split_sentences
from scoregate.scoring.language import (
    LANGUAGE_CODES,
    LANGUAGE_NAMES,
    SCRIPT_LANGUAGES,
    detect_language,
)
from scoregate.scoring.text import plural

#: Languages a request can name that the language module cannot tell apart: read as a
#: translation's target (so the English models are set aside), never checked for language.
UNTOLD_LANGUAGES: dict[str, str] = {
    "czech": "cs",
    "slovak": "sk",
    "romanian": "ro",
    "hungarian": "hu",
    "danish": "da",
    "norwegian": "no",
    "icelandic": "is",
    "croatian": "hr",
    "serbian": "sr",
    "slovenian": "sl",
    "bulgarian": "bg",
    "lithuanian": "lt",
    "latvian": "lv",
    "estonian": "et",
    "catalan": "ca",
    "tagalog": "tl",
    "filipino": "tl",
    "malay": "ms",
    "urdu": "ur",
    "punjabi": "pa",
    "cantonese": "zh",
    "welsh": "cy",
    "irish": "ga",
    "afrikaans": "af",
}
_NAMED = {**LANGUAGE_CODES, **UNTOLD_LANGUAGES}
_L = "|".join(sorted((re.escape(n) for n in _NAMED), key=len, reverse=True))
#: Two-letter codes in a label ("EN → DE:").
_CODES = frozenset([*LANGUAGE_NAMES, *UNTOLD_LANGUAGES.values()])
#: What the asker's text is called: "this", "my message", "the following", "the sign below"
#: (not "the answer", which is what the agent writes).
_THING = (
    r"(?:this|it|that|these|the\s+following"
    r"|(?!(?:my|the|your)\s+(?:answer|reply|response|explanation)\b)"
    r"(?:my|the|our|his|her|their)\s+[\w'-]+(?:\s+[\w'-]+)?)"
)
_QUOTE_SPAN = r"(?:\"[^\"\n]{2,400}\"|“[^”\n]{2,400}”|'[^'\n]{2,400}'(?!\w)|‘[^’\n]{2,400}’)"
#: The ways a request asks for a translation, each naming the target language ``lang``.
_ASKS = tuple(
    re.compile(rx, re.IGNORECASE)
    for rx in (
        # "translate this email to Spanish", "Translate to English:", "a translation into Dutch"
        rf"\btranslat(?:e|ing|ion)\b[^.?!\n:]{{0,60}}?\b(?:in|into|to)\s+(?P<lang>{_L})\b",
        # "Translate 'Note: all prices include VAT' into German"
        rf"\btranslat(?:e|ing)\s+{_QUOTE_SPAN}\s+(?:in|into|to)\s+(?P<lang>{_L})\b",
        # "put this into French", "turn my note into German", "rewrite it in Italian"
        rf"\b(?:put|turn|render|convert|rewrite|re-write)\s+{_THING}(?:\s+[\w'-]+){{0,3}}?"
        rf"\s+(?:in|into)\s+(?P<lang>{_L})\b",
        # "a French translation of", "the Spanish version of this"
        rf"\b(?P<lang>{_L})\s+(?:translation|version)\b",
        # "what does this say in English?", "what does this letter from my kid's school say
        # in English"
        rf"\bwhat\s+(?:does|do|would)\s+(?:this|it|that|these|the|my|our)\b[^.?!\n]{{0,60}}?"
        rf"\s(?:say|mean)\s+in\s+(?P<lang>{_L})\b",
        # "what's this in English?"
        rf"\bwhat(?:'s|\s+is)\s+(?:this|it|that)\s+in\s+(?P<lang>{_L})\b",
        # "What does it say?" of a text in another language, asked in English: into English
        r"\bwhat\s+(?:does|do)\s+(?:this|it|that|these)\b[^.?!\n]{0,40}?\s(?P<en>say|mean)\b"
        r"(?!\s+in\b)",
        # "how would I say this in German:", "how do I say the following in Dutch"
        rf"\bhow\s+(?:would|do|can|could|should|to)\s+(?:(?:i|you|we)\s+)?(?:say|write|put)\s+"
        rf"{_THING}\s+in\s+(?P<lang>{_L})\b",
        # "I need this in Spanish", "can I have it in Portuguese", "wants this notice in French"
        rf"\b(?:needs?|wants?|have|get)\s+{_THING}(?:\s+[\w'-]+){{0,3}}?\s+in\s+(?P<lang>{_L})\b",
        # a label: "French to English:", "EN → DE:"
        rf"(?:^|\n)[ \t]*(?:{_L}|[a-z]{{2}})[ \t]*(?:to|→|->|=>|>)[ \t]*(?P<lang>{_L}|[a-z]{{2}})"
        r"[ \t]*:",
        # the language alone as the ask: "... in our team chat — English please?", "In
        # Spanish, please: ..."
        rf"(?:^|[.?!:;—–\n][ \t]*|\s-\s+)(?:(?:in|into)\s+)?(?P<lang>{_L})[ \t]*,?[ \t]*"
        r"(?:please|pls|plz)?[ \t]*(?:[?!.]?(?=[ \t]*(?:\n|$))|:)",
        # asked in the request's own language, into English: "Übersetze bitte ins Englische:",
        # "Traduce al inglés:", "Переведи на английский:", "翻译成英文"
        r"\b(?:übersetze?n?|traduce|traduzca|traducir|traduis|traduisez|traduire|traduci|"
        r"traducete|traduza|traduzir|vertaal|översätt|oversæt|oversett|przetłumacz|переведи(?:те)?"
        r"|перевести|çevir|terjemahkan)\b[^.\n]{0,40}?(?P<en>ins\s+englische|auf\s+englisch"
        r"|al\s+ingl[ée]s|en\s+anglais|in\s+inglese|para\s+(?:o\s+)?ingl[êe]s|naar\s+het\s+engels"
        r"|till\s+engelska|til\s+engelsk|na\s+(?:język\s+)?angielski|на\s+английский"
        r"|ingilizceye|ke\s+(?:dalam\s+)?bahasa\s+inggris)",
        r"(?P<en>翻译成英文|翻译成英语|翻譯成英文|英語に翻訳|英訳|영어로\s*번역)",
    )
)
#: A question about translating, not a request for one: "Should I translate my CV into
#: German?", "how much does it cost to translate ...", "is it worth translating ..." (not
#: "do you mind translating", "is it possible to translate", "when you get a chance").
_ABOUT = re.compile(
    r"(?:^|[.!?\n]\s*)(?!do\s+(?:you|u)\s+mind|do\s+me\b|is\s+it\s+possible|are\s+(?:you|u)\s+able"
    r"|when\s+(?:you|u)\s+(?:get|have|find|can))"
    r"(?:should|do|does|did|is|are|was|why|when|where|which|who|how\s+much"
    r"|how\s+long|how\s+do\s+(?:i|you|we)\s+(?:get|find|hire|pay)|what(?:'s|\s+is)\s+the\s+best)"
    r"\b[^.!?\n]*$",
    re.IGNORECASE,
)
#: Another task on a text in another language: a reply to it, a review of a translation.
_OTHER_TASK = re.compile(
    r"(?<!\ba\s)(?<!\bthe\s)(?<!\bmy\s)(?<!\bits\s)(?<!\bour\s)(?<!\bhis\s)(?<!\bher\s)"
    r"\b(?:repl(?:y|ies|ying)|respond(?:ing)?|draft(?:ing)?\s+(?:a|an|my)\s+(?:reply|response"
    r"|answer)|answer(?:ing)?\s+(?:this|it|her|him|them)\b|check(?:ing)?\s+(?:my|this|the)\b"
    r"[^.?!\n]{0,30}\btranslation|rate\b|rating\b|review(?:ing)?\b|proofread|correct(?:ing)?\s+"
    r"(?:my|this|the)|evaluate|grade\b|is\s+(?:this|my|the)\s+translation|my\s+(?:[\w-]+\s+)?"
    r"translation)",
    re.IGNORECASE,
)
#: The request asks for more than the translation: notes, a transliteration, the original
#: beside it, an opinion of it (the answer then holds more than the target language).
_EXTRAS = re.compile(
    r"\b(?:explain\w*|explanation|transliterat\w*|pinyin|romaji|romani[sz]ation|pronunciation"
    r"|phonetic\w*|side\s+by\s+side|next\s+to\s+(?:it|each)|alongside|(?:show|keep|include)\s+"
    r"(?:me\s+)?the\s+original|the\s+original\s+(?:too|as\s+well|above|below)|both\s+(?:versions"
    r"|languages)|(?:then|and)\s+tell\s+me|notes?\s+on|comment\s+on|how\s+formal|literal"
    r"(?:ly)?\s+and|word[- ]for[- ]word\s+and|two\s+versions|a\s+few\s+options|options?\s+for)",
    re.IGNORECASE,
)
#: A quoted span: straight or curly, double or single quotes, guillemets, German quotes.
_QUOTED = re.compile(
    r"\"(?P<a>[^\"\n]{3,})\"|“(?P<b>[^”\n]{3,})”|„(?P<c>[^“”\n]{3,})[“”]|«\s*(?P<d>[^»\n]{3,}?)\s*»"
    r"|‘(?P<e>[^’\n]{3,}?)’(?!\w)|(?<!\w)'(?P<f>[^'\n]{3,}?)'(?!\w)"
)
#: Where the ask ends and the text begins: a colon (not a time's: "10:30") or a line break.
_TEXT_START = re.compile(r"(?<!\d):(?!\d)[ \t]*\n?|\n")
#: A message's opening: "Hi Mr. Lefebvre, ...", "Dear all", "Hello Ana".
_GREETING = re.compile(r"^(?:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening))\b", re.I)
#: Where the ask's sentence ends ("what does this say in English? Ich komme ...").
_SENTENCE_AFTER = re.compile(r"^[^.?!\n]{0,60}?[.?!]+\s+")
#: A last paragraph that speaks to the translator, not part of the text: "Use the formal
#: Sie form, and keep it under 40 words."
_TO_TRANSLATOR = re.compile(
    r"^(?:please\s+)?(?:use|keep|make|don't|do\s+not|write|add|avoid|it\s+should|it's\s+for"
    r"|it\s+is\s+for|this\s+is\s+for|the\s+tone|tone|formal|informal|no\s+more\s+than|under\s+\d"
    r"|max(?:imum)?\s+\d)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_SPACES = re.compile(r"\s+")
_NON_ASCII_LETTER = re.compile(r"[^\W\d_a-zA-Z]")


@dataclass(frozen=True)
class Translation:
    """A request to translate ``text`` (in ``source``, ``None`` when too short to tell)
    into ``target`` (an ISO 639-1 code); ``phrase`` is the request's words that asked.
    ``extras``: it asks for more than the translation (several languages, notes, a
    transliteration, the original beside it), so the answer is not held to the target
    language nor to the text's length."""

    target: str
    phrase: str
    text: str
    source: str | None
    extras: bool = False

    @property
    def unread(self) -> bool:
        """Whether the English models cannot compare the answer with the text: the text or
        the target is not English."""
        return self.target != "en" or self.source != "en"

    @property
    def told(self) -> bool:
        """Whether the target is a language the language check can tell."""
        return self.target in LANGUAGE_NAMES


def _unquote(text: str) -> str:
    s = text.strip()
    for a, b in (('"', '"'), ("“", "”"), ("'", "'"), ("‘", "’"), ("«", "»"), ("„", "“")):
        if len(s) > 2 and s.startswith(a) and s.endswith(b):
            return s[1:-1].strip()
    return s


def _span(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g is not None).strip()


def _quoted_text(query: str) -> str | None:
    """The longest quoted span of three words or more."""
    spans = [_span(m) for m in _QUOTED.finditer(query)]
    spans = [s for s in spans if len(_WORD.findall(s)) >= 3]
    return max(spans, key=len) if spans else None


def _foreign(text: str) -> bool:
    """Whether ``text`` reads as not English: a language told, or letters outside ASCII."""
    found = detect_language(text)
    if found is not None:
        return found != "en"
    return bool(_NON_ASCII_LETTER.search(text))


def _text_of(query: str, m: re.Match[str]) -> str | None:
    """The text the request gives to translate, read around the ask ``m``."""
    inside = _QUOTED.search(m.group(0))
    if inside is not None:  # "Translate 'Doors open at 7' into German"
        return _span(inside)
    rest = query[m.end() :]
    right = _QUOTED.match(rest.lstrip(" \t:?,-—–"))
    if right is not None and len(_WORD.findall(_span(right))) >= 2:
        return _span(right)  # "translate this to German 'Flight LH 456 departs at 10:30'"
    start = _TEXT_START.search(rest[:200])
    at = 0 if m.group(0).rstrip().endswith(":") else (start.end() if start else None)
    if at is not None and len(_WORD.findall(rest[at:])) >= 1:
        return _unquote(rest[at:])
    quoted = _quoted_text(query)
    if quoted is not None:
        return quoted
    before = query[: m.start()]
    if "\n" in before:  # "<the text>\n\nPlease translate this into English"
        head = before.rsplit("\n", 1)[0].strip()
        if len(_WORD.findall(head)) >= 2:
            return _unquote(head)
    sentence = _SENTENCE_AFTER.match(rest)
    if sentence is not None:  # "what does this say in English? Ich komme morgen."
        tail = rest[sentence.end() :].strip()
        if len(_WORD.findall(tail)) >= 2 and (_foreign(tail) or _GREETING.match(tail)):
            return _unquote(tail)
    return None


def _trimmed(text: str, foreign: bool) -> str:
    """``text`` less closing paragraphs that speak to the translator ("Use the formal Sie
    form."), or, after a text in another language, a closing paragraph in English."""
    parts = re.split(r"\n[ \t]*\n", text.strip())
    while len(parts) > 1:
        last = parts[-1].strip()
        if _TO_TRANSLATOR.match(last) or (foreign and detect_language(last) == "en"):
            parts.pop()
        else:
            break
    return "\n\n".join(parts)


def _target(m: re.Match[str]) -> str | None:
    if m.groupdict().get("en"):
        return "en"
    name = _SPACES.sub(" ", m.group("lang").lower())
    if name in _NAMED:
        return _NAMED[name]
    return name if name in _CODES else None


#: Several languages to translate into: "into German, French and Spanish".
_SEVERAL = re.compile(
    rf"\b(?:in|into|to)\s+(?:{_L})(?:\s*,\s*(?:{_L}))*,?\s+(?:and|&)\s+(?:{_L})\b", re.IGNORECASE
)


@lru_cache(maxsize=1024)
def translation_request(query: str) -> Translation | None:
    """The translation ``query`` asks for, or ``None`` when it asks for none, gives no text,
    gives one already in the target language, or asks for another task on the text."""
    for rx in _ASKS:
        for m in rx.finditer(query):
            if _ABOUT.search(query[: m.start()]):
                continue
            target = _target(m)
            text = _text_of(query, m)
            if target is None or not text:
                continue
            text = _trimmed(text, _foreign(text))
            ask = without_text(query, text)
            if _OTHER_TASK.search(ask):
                return None
            source = detect_language(text)
            if source is None and _foreign(text):
                source = "xx"  # not English, too short to say which
            elif source is None and target != "en":
                source = "en"
            if source == target or (target == "en" and source is None):
                continue
            extras = bool(_EXTRAS.search(ask) or _SEVERAL.search(ask))
            return Translation(
                target=target, phrase=m.group(0).strip(), text=text, source=source, extras=extras
            )
    return None


def without_text(query: str, text: str) -> str:
    """``query`` with ``text`` (the text to translate) left out: what the request itself
    asks (the text's own "no pets" or "reply in three lines" are the text, not rules)."""
    at = query.rfind(text)
    if at < 0:
        return query
    return (query[:at] + " " + query[at + len(text) :]).strip()


# --- the checks ---------------------------------------------------------------------------

#: A number whose digits are grouped by a space, a dot, a comma or an apostrophe in threes
#: ("1,850", "10 000", "45.600"): one value; any other run of digits is one too.
_VALUE = re.compile(r"\d{1,3}(?:[  \u202f.,'’]\d{3})+(?![\d])|\d+")
#: The fewest digits of a number a translation must keep, whatever else it changes: a
#: price, a year, a phone or reference number (smaller ones are often written out: "10
#: giorni", "ten days"; "the 21st century", "XXIe siècle").
MIN_KEPT_DIGITS = 3
#: The smallest number compared when one is exchanged for another ("18 March" -> "16
#: March"): below it, too many numbers are written out.
MIN_COMPARED = 10

#: A time of day: "15:00", "15.00", "15h00", "3 pm", "3:00 p.m.", "15 Uhr", "17 heures",
#: "kl. 17", "alle ore 17", "8-18 Uhr" (both ends).
_CLOCK = re.compile(
    r"(?P<pre>\b(?:kl\.?|ore|alle|dalle|a\s+las|o\s+godzinie|pukul|saat)\s+)?"
    r"(?<![\d.,])(?P<h>\d{1,2})(?:(?:[:.h]|\s?h\s)(?P<m>\d{2}))?(?![\d.,]\d)"
    r"(?:\s*(?P<half>a\.?\s?m\b\.?|p\.?\s?m\b\.?)|\s*(?P<unit>h\b|hrs?\b|uhr\b|o'clock|heures?\b"
    r"|horas?\b|uur\b))?",
    re.IGNORECASE,
)
#: The first number of a range whose unit comes after the second: "8–18 Uhr", "de 10 a 14 h".
_RANGE_END = re.compile(
    r"\s*(?:[–-]|to|a|bis|à|till|al|alle)\s*\d{1,2}(?:[:.h]\d{2})?\s*(?:uhr|h\b|hrs?\b|horas|heures"
    r"|uur|a\.?\s?m|p\.?\s?m)",
    re.IGNORECASE,
)
#: Noon and midnight in words.
_NOON = re.compile(
    r"\b(?:noon|midday|mittags?|midi|mediod[ií]a|mezzogiorno|meio-dia|middag)\b", re.I
)
_MIDNIGHT = re.compile(
    r"\b(?:midnight|mitternacht|minuit|medianoche|mezzanotte|meia-noite)\b", re.I
)
#: A currency next to a number: "€12.50", "12.50 €", "12.50 EUR" (a price, not a time).
_MONEY_NEAR = re.compile(r"[€$£¥₺₹]")
_MONEY_AFTER = re.compile(r"\s?(?:[€$£¥₺₹]|kr\b|zł|eur\b|usd\b|gbp\b|tl\b|euros?\b)", re.I)


def _times(text: str) -> tuple[dict[int, str], str]:
    """The times of day ``text`` names, as minutes after midnight with the words that said
    them (a time under 13:00 with no a.m. or p.m. both ways), and ``text`` without them."""
    found: dict[int, str] = {}

    def add(minute: int, said: str) -> None:
        found.setdefault(minute % 1440, said.strip())

    def take(m: re.Match[str]) -> str:
        hour, minute, half = int(m.group("h")), int(m.group("m") or 0), m.group("half")
        clock = bool(m.group("m") or half or m.group("unit") or m.group("pre"))
        clock = clock or bool(_RANGE_END.match(m.string, m.end()))
        price = _MONEY_NEAR.search(m.string, max(0, m.start() - 2), m.start()) or (
            _MONEY_AFTER.match(m.string, m.end())
        )
        if not clock or hour > 24 or minute > 59 or price:
            return m.group(0)
        if half:
            add((hour % 12 + (12 if half.lower().startswith("p") else 0)) * 60 + minute, m[0])
        else:
            add(hour * 60 + minute, m.group(0))
            if hour < 13:
                add((hour + 12) * 60 + minute, m.group(0))
        return " "

    rest = _CLOCK.sub(take, text)
    for rx, minute in ((_NOON, 720), (_MIDNIGHT, 0)):
        for m in rx.finditer(rest):
            add(minute, m.group(0))
    return found, rest


def _values(text: str) -> list[int]:
    return [int(re.sub(r"\D", "", m.group(0))) for m in _VALUE.finditer(text)]


def _number_fault(text: str, body: str) -> str | None:
    """A number of the text the translation leaves out or exchanges for another, or a time
    of day it exchanges for another, in plain words; ``None`` when it keeps them."""
    had_times, text_rest = _times(text)
    has_times, body_rest = _times(body)
    hours = {m // 60 for m in has_times} | {m // 60 for m in had_times}
    had, has = _values(text_rest), _values(body_rest)
    digits = re.sub(r"\D", "", body)
    for value in had:
        if value not in has and len(str(value)) >= MIN_KEPT_DIGITS and str(value) not in digits:
            return f"leaves out or changes the number {value} of the text to translate"
    missing = [v for v in had if v >= MIN_COMPARED and v not in has and v not in hours]
    new = [
        v
        for v in has
        if v >= MIN_COMPARED
        and v not in had
        and v not in hours
        and not any(str(v).endswith(str(old)) for old in missing)  # "2023-24" -> "2023-2024"
    ]
    if missing and new:
        return f"gives {new[0]} where the text to translate says {missing[0]}"

    def near(minute: int, pool: dict[int, str]) -> bool:
        return minute in pool or (minute + 720) % 1440 in pool

    lost = [said for minute, said in had_times.items() if not near(minute, has_times)]
    added = [said for minute, said in has_times.items() if not near(minute, had_times)]
    if lost and added:
        return f"gives the time '{added[0]}' where the text to translate says '{lost[0]}'"
    return None


#: Words before a person's name: titles and greetings in the languages read here.
_BEFORE_NAME = re.compile(
    r"\b(?:mr|mrs|ms|miss|dr|prof|herr|frau|sr|sra|srta|señora?|señorita|don|doña|m|mme|mlle"
    r"|monsieur|madame|sig|sig\.ra|signora?|dott|pan|pani|mevrouw|meneer|dhr|mevr"
    r"|dear|hi|hello|hey|hola|querid[oa]|estimad[oa]|hallo|cher|chère|bonjour|caro|cara|gentile"
    r"|ciao|olá|oi|prezad[oa]|beste|hoi|hej|kära|drog[ia]|szanown[ya]|sayın|merhaba|halo)\.?"
    r"\s+(?P<name>[A-ZÀ-ÖØ-Þ][\w'-]+(?:\s+[A-ZÀ-ÖØ-Þ][\w'-]+)?)",
)
#: A sign-off and the name after it, at the end of the text: "Best, Tom", "Saludos,\nLuis".
_SIGNED = re.compile(
    r"(?:best|thanks|thank\s+you|cheers|regards|kind\s+regards|best\s+regards|love|saludos"
    r"|un\s+saludo|gracias|grüße|gruß|viele\s+grüße|freundlichen\s+grüßen|cordialement|merci"
    r"|bisous|cordiali\s+saluti|saluti|grazie|abraços|obrigad[oa]|groeten|vriendelijke\s+groet"
    r"|hälsningar|mvh|pozdrawiam|selamlar)[,.!]?\s+(?P<name>[A-ZÀ-ÖØ-Þ][\w'-]+"
    r"(?:\s+[A-ZÀ-ÖØ-Þ][\w'-]+)?)[.!]?\s*$",
    re.IGNORECASE,
)
#: Whom a message is addressed to that no translation keeps: "Dear Parents", "Hi all".
_ADDRESSEES = frozenset(
    "all everyone team sir madam madam ladies gentlemen parents colleagues neighbours neighbors"
    " customers members guests residents friends eltern kollegen kolleginnen nachbarn kunden"
    " mitglieder señores padres vecinos clientes socios amigos familias voisins clients membres"
    " collègues amis genitori colleghi vicini soci clienti pais vizinhos ouders buren leden"
    " klanten föräldrar grannar medlemmar rodzice sąsiedzi państwo zusammen".split()
)


def _fold(text: str) -> str:
    """Lower case, accents off: "Zürich" and "zurich" match."""
    norm = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in norm if not unicodedata.combining(c))


def person_names(text: str) -> list[str]:
    """The names of the people a text addresses or is signed by ("Hi Ana", "Dear Mr
    Rossi", "Best, Tom"): a translation keeps them."""
    names: list[str] = []
    found = [*_BEFORE_NAME.finditer(text)]
    if (signed := _SIGNED.search(text.strip())) is not None:
        found.append(signed)
    for m in found:
        name = m.group("name")
        words = [w for w in name.split() if _fold(w) not in _ADDRESSEES]
        if not words or _BEFORE_NAME.match(name):
            continue
        name = " ".join(words)
        if name not in names:
            names.append(name)
    return names


def _kept(name: str, words: set[str]) -> bool:
    """A name is kept when any of its words is, by its first four letters (declined forms
    pass: "Ania", "Anię")."""
    stems = [k[:4] if len(k) > 5 else k for k in _fold(name).split()]
    return any(w.startswith(stem) for stem in stems for w in words)


#: The words of a translation against its text's: outside this range, part is missing or
#: added. Only between space-separated scripts (Chinese, Japanese and Thai are not).
LENGTH_RATIO = (0.4, 2.5)
#: Sentences fewer than the text, with under this share of its words: sentences dropped
#: (one sentence fewer needs the lower share: a translation may join two).
DROPPED_RATIO = {1: 0.75, 2: 0.9}
#: The fewest words of a text whose length is compared.
MIN_TEXT_WORDS = 8
_UNSPACED = frozenset({"zh", "ja", "th", "ko"})
#: A paragraph set apart as a note on the answer ("(Note: I used the formal 'Sie' ...)",
#: "Translator's note: ..."), or wholly in brackets.
NOTE = re.compile(
    r"^\s*(?:[(\[*_\s]*(?:translator'?s\s+note|notes?|n\.\s?b\.|nota|anm\.|remarque)\b"
    r"|\((?s:.*)\)\s*$)",
    re.IGNORECASE,
)
#: A lead-in before the translation: "Here's the translation:", "In English:".
_LEAD_IN = re.compile(r"\A[^\n]{0,120}:[ \t]*\n")


def length_words(text: str) -> int:
    """Words separated by spaces that hold a letter or a digit (a word of an Indic script
    with its vowel signs is one)."""
    return sum(1 for w in text.split() if any(c.isalnum() for c in w))


def without_notes(content: str) -> str:
    """``content`` less the paragraphs set apart as notes (``NOTE``), when anything else is
    left."""
    kept = [p for p in split_paragraphs(content) if not NOTE.match(p)]
    return "\n\n".join(kept) if kept else content


def _body(content: str) -> str:
    """A translation less its lead-in line and its notes."""
    body = without_notes(content)
    return _LEAD_IN.sub("", body, count=1) if len(body.splitlines()) > 1 else body


def translation_fault(text: str, content: str) -> str | None:
    """What keeps ``content`` from being a whole translation of ``text``, in plain words, or
    ``None``: a number of three digits or more of the text left out, a number or a time
    exchanged for another, the names of the people it addresses or is signed by left out,
    a length far from the text's, or sentences dropped."""
    body = _body(content)
    fault = _number_fault(text, body)
    if fault is not None:
        return fault
    # a name is written in the answer's own script there ("Анна"): not compared
    names = person_names(text) if detect_language(body) not in SCRIPT_LANGUAGES else []
    words = set(_WORD.findall(_fold(body)))
    gone = [n for n in names if not _kept(n, words)]
    if names and 2 * len(gone) > len(names):
        listed = ", ".join(repr(n) for n in gone[:4])
        return f"leaves out {listed}, whom the text to translate names; a translation keeps them"
    spaced = {detect_language(text), detect_language(body)}.isdisjoint(_UNSPACED)
    want = length_words(text)
    if not spaced or want < MIN_TEXT_WORDS:
        return None
    n = length_words(body)
    low, high = LENGTH_RATIO
    if n > high * want:
        return f"{n} words for a text of {want}: a translation adds nothing the text does not say"
    if n < low * want:
        return f"{n} words for a text of {want}: a translation of all of it is about as long"
    had, has = len(split_sentences(text)), len(split_sentences(body))
    fewer = min(had - has, 2)
    if fewer >= 1 and n < DROPPED_RATIO[fewer] * want:
        return (
            f"{plural(has, 'sentence')} for a text of {had} ({n} words for {want}): a"
            " translation of all of it keeps every sentence"
        )
    return None

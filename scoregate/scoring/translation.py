"""Requests to translate a text the request gives: the target language, the text, and the
text's language; and what a translation can be held to mechanically.

>>> t = translation_request("Translate to English: '¿Dónde está la estación de tren más cercana?'")
>>> (t.target, t.source, t.text)
('en', 'es', '¿Dónde está la estación de tren más cercana?')

A request is only read as one when it gives the text (quoted, after a colon or on the
lines after the ask) and the text is not already in the target language: "Should I
translate my CV into German?" gives none, and "put this jargon into plain English" names no
language. The English models cannot compare a text with its translation when either is not
English, so ``fusion`` leans on the checks here instead (``docs/decisions.md``, "Requests to
translate a text").

Pure: text in, data out.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from scoregate.scoring.counting import split_paragraphs, split_sentences
from scoregate.scoring.language import (
    ENGLISH_COMMON,
    LANGUAGE_CODES,
    SCRIPT_LANGUAGES,
    detect_language,
)
from scoregate.scoring.phrasing import LANGUAGE_ALTERNATIVES
from scoregate.scoring.text import plural

_L = LANGUAGE_ALTERNATIVES
#: What the asker's text is called: "this", "my message", "the following", "the sign below".
_THING = (
    r"(?:this|it|that|these|the\s+following"
    r"|(?:my|the|our|his|her|their)\s+[\w'-]+(?:\s+[\w'-]+)?)"
)
#: The ways a request asks for a translation, each naming the target language ``lang``.
_ASKS = tuple(
    re.compile(rx, re.IGNORECASE)
    for rx in (
        # "translate this email to Spanish", "Translate to English:", "a translation into Dutch"
        rf"\btranslat(?:e|ing|ion)\b[^.?!\n:]{{0,60}}?\b(?:in|into|to)\s+(?P<lang>{_L})\b",
        # "put this into French", "turn my note into German", "rewrite it in Italian"
        rf"\b(?:put|turn|render|convert|rewrite|re-write)\s+{_THING}(?:\s+[\w'-]+){{0,3}}?"
        rf"\s+(?:in|into)\s+(?P<lang>{_L})\b",
        # "a French translation of", "the Spanish version of this"
        rf"\b(?P<lang>{_L})\s+(?:translation|version)\b",
        # "what does this say in English?", "what does this letter from my kid's school say
        # in English"
        rf"\bwhat\s+(?:does|do|would)\s+(?:this|it|that|these|the|my|our)\b[^.?!\n]{{0,60}}?"
        rf"\s(?:say|mean)\s+in\s+(?P<lang>{_L})\b",
        # "how would I say this in German:", "how do I say the following in Dutch"
        rf"\bhow\s+(?:would|do|can|could|should|to)\s+(?:(?:i|you|we)\s+)?(?:say|write|put)\s+"
        rf"{_THING}\s+in\s+(?P<lang>{_L})\b",
        # "I need this in Spanish", "can I have it in Portuguese", "wants this notice in French"
        rf"\b(?:needs?|wants?|have|get)\s+{_THING}(?:\s+[\w'-]+){{0,3}}?\s+in\s+(?P<lang>{_L})\b",
        # the language alone as the ask: "... in our team chat — English please?"
        rf"(?:^|[.?!:;—–\n]\s*|\s-\s+)(?:(?:in|into)\s+)?(?P<lang>{_L})\s*,?\s*(?:please|pls|plz)?"
        r"\s*[?!.:]?[ \t]*(?:$|\n)",
    )
)
#: A question about translating, not a request for one: "Should I translate my CV into
#: German?", "how much does it cost to translate ...", "is it worth translating ...".
_ABOUT = re.compile(
    r"(?:^|[.!?\n]\s*)(?:should|do|does|did|is|are|was|why|when|where|which|who|how\s+much"
    r"|how\s+long|how\s+do\s+(?:i|you|we)\s+(?:get|find|hire|pay)|what(?:'s|\s+is)\s+the\s+best)"
    r"\b[^.!?\n]*$",
    re.IGNORECASE,
)
#: A quoted span: straight or curly, double or single quotes, guillemets, German quotes.
_QUOTED = re.compile(
    r"\"(?P<a>[^\"\n]{3,})\"|“(?P<b>[^”\n]{3,})”|„(?P<c>[^“”\n]{3,})[“”]|«\s*(?P<d>[^»\n]{3,}?)\s*»"
    r"|‘(?P<e>[^’\n]{3,}?)’(?!\w)|(?<!\w)'(?P<f>[^'\n]{3,}?)'(?!\w)"
)
#: Where the ask ends and the text begins: a colon or a line break, soon after the ask.
_TEXT_AFTER = re.compile(r"^[^:\n]{0,200}?(?::[ \t]*\n?|\n)", re.IGNORECASE)
#: A message's opening: "Hi Mr. Lefebvre, ...", "Dear all", "Hello Ana".
_GREETING = re.compile(r"^(?:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening))\b", re.I)
#: Where the ask's sentence ends ("what does this say in English? Ich komme ...").
_SENTENCE_AFTER = re.compile(r"^[^.?!\n]{0,60}?[.?!]+\s+")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Translation:
    """A request to translate ``text`` (in ``source``, ``None`` when too short to tell)
    into ``target`` (an ISO 639-1 code); ``phrase`` is the request's words that asked."""

    target: str
    phrase: str
    text: str
    source: str | None

    @property
    def unread(self) -> bool:
        """Whether the English models cannot compare the answer with the text: the text or
        the target is not English."""
        return self.target != "en" or self.source != "en"


def _unquote(text: str) -> str:
    s = text.strip()
    for a, b in (('"', '"'), ("“", "”"), ("'", "'"), ("‘", "’"), ("«", "»"), ("„", "“")):
        if len(s) > 2 and s.startswith(a) and s.endswith(b):
            return s[1:-1].strip()
    return s


def _quoted_text(query: str) -> str | None:
    """The longest quoted span of three words or more."""
    spans = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(query)]
    spans = [s.strip() for s in spans if len(_WORD.findall(s)) >= 3]
    return max(spans, key=len) if spans else None


def _foreign(text: str) -> bool:
    """Whether ``text`` reads as not English: a language told, or no common English word."""
    found = detect_language(text)
    if found is not None:
        return found != "en"
    words = [w.lower() for w in _WORD.findall(text)]
    return bool(words) and not any(w in ENGLISH_COMMON for w in words)


def _text_of(query: str, m: re.Match[str]) -> str | None:
    """The text the request gives to translate, read around the ask ``m``."""
    rest = query[m.end() :]
    after = _TEXT_AFTER.match(rest)
    if after is not None and len(_WORD.findall(rest[after.end() :])) >= 1:
        return _unquote(rest[after.end() :])
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


@lru_cache(maxsize=1024)
def translation_request(query: str) -> Translation | None:
    """The translation ``query`` asks for, or ``None`` when it asks for none, gives no text,
    or gives one already in the target language."""
    for rx in _ASKS:
        for m in rx.finditer(query):
            if _ABOUT.search(query[: m.start()]):
                continue
            target = LANGUAGE_CODES.get(_SPACES.sub(" ", m.group("lang").lower()))
            text = _text_of(query, m)
            if target is None or not text:
                continue
            source = detect_language(text)
            if source is None and _foreign(text):
                source = "xx"  # not English, too short to say which
            elif source is None and target != "en":
                source = "en"
            if source == target or (target == "en" and source is None):
                continue
            return Translation(target=target, phrase=m.group(0), text=text, source=source)
    return None


def without_text(query: str, t: Translation) -> str:
    """``query`` with the text to translate left out: what the request itself asks (the
    text's own "no pets" or "reply in three lines" are the text, not instructions)."""
    at = query.rfind(t.text)
    if at < 0:
        return query
    return (query[:at] + " " + query[at + len(t.text) :]).strip()


#: Words that are capitalised in English but translated (days, months), and the pronoun.
_TRANSLATED = frozenset(
    "i monday tuesday wednesday thursday friday saturday sunday january february march april"
    " may june july august september october november december mr mrs ms dr st sr sra srta"
    " herr frau mme mlle sig".split()
) | frozenset(LANGUAGE_CODES)
#: A time, which translations rewrite ("15:00" -> "3:00 p.m.", "3pm" -> "15 Uhr").
_TIME = re.compile(
    r"\b\d{1,2}(?:[:.h]\d{2}\b|\s*(?:a\.?m\.?|p\.?m\.?|h\b|uhr\b|o'clock))", re.IGNORECASE
)
#: A number, its digits grouped by spaces, commas, dots or dashes ("+43 664 218 5530",
#: "1,240"); a slash parts two ("143/256/70981").
_NUMBER = re.compile(r"\d(?:[\d.,\- ]*\d)?")
#: The smallest number held: smaller ones are often written out ("10 giorni": "ten days").
MIN_HELD_NUMBER = 21
_CAPITALISED = re.compile(r"\b[^\W\d_][\w'-]*", re.UNICODE)
#: What ends a sentence or opens a text, after which a capital says nothing.
_OPENS = frozenset(".!?:;\n\"'“‘«„¿¡(-–—*•")
#: Words of address some languages capitalise (Polish "Pan", "Pani"): no names.
_ADDRESS = frozenset(
    "pan pani pana panie panu panią państwo państwa sie ihr ihnen ihre usted sir madam madame"
    " miss ladies gentlemen".split()
)


def _names(text: str) -> list[str]:
    """Runs of capitalised words inside a sentence (not its first word): names, as a rule
    ("Ana", "Peter Hoffmann", "Szkoła Podstawowa")."""
    runs: list[list[str]] = []
    end = -1
    for m in _CAPITALISED.finditer(text):
        word = m.group(0).strip("'-")
        if len(word) < 2 or not word[0].isupper() or word.isupper():
            continue
        if _fold(word) in _TRANSLATED or _fold(word) in _ADDRESS:
            continue
        gap = text[end : m.start()]
        if runs and end >= 0 and gap.strip() == "":
            runs[-1].append(word)  # "Peter Hoffmann": one name
        else:
            before = text[: m.start()].rstrip(" \t")
            if not before or before[-1] in _OPENS or before[-1].isdigit():
                end = -1
                continue
            runs.append([word])
        end = m.end()
    return [" ".join(r) for r in runs]


def _fold(text: str) -> str:
    """Lower case, accents off: "Zürich" and "zurich" match."""
    norm = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in norm if not unicodedata.combining(c))


def kept_terms(text: str, target: str | None = None) -> list[str]:
    """The numbers of ``text`` (from ``MIN_HELD_NUMBER``; times left out) and, for a text
    not in German into a Latin-script language, its names (runs of capitalised words
    inside a sentence; days and months left out): what a translation keeps as they are."""
    terms: list[str] = []
    for part in _TIME.sub(" ", text).split("/"):
        for m in _NUMBER.finditer(part):
            digits = re.sub(r"\D", "", m.group(0))
            if int(digits) >= MIN_HELD_NUMBER and digits not in terms:
                terms.append(digits)
    source = detect_language(text)
    if source != "de" and target not in SCRIPT_LANGUAGES and source not in SCRIPT_LANGUAGES:
        terms += [name for name in dict.fromkeys(_names(text)) if name not in terms]
    return terms


def missing_terms(content: str, terms: list[str]) -> list[str]:
    """The ``terms`` that ``content`` does not hold: a number by its digits ("1,250" and
    "1.250" alike), a name by any of its words, each by its first four letters or all of
    it (declined and translated forms of the rest pass)."""
    digits = re.sub(r"\D", "", content)
    words = set(_WORD.findall(_fold(content)))
    missing: list[str] = []
    for term in terms:
        if term.isdigit():
            if term not in digits:
                missing.append(term)
            continue
        stems = [k[:4] if len(k) > 5 else k for k in _fold(term).split()]
        if not any(w.startswith(stem) for stem in stems for w in words):
            missing.append(term)
    return missing


#: The words of a translation against its text's: outside this range, part is missing or
#: added. Only between space-separated scripts (Chinese, Japanese and Thai are not).
LENGTH_RATIO = (0.4, 2.5)
#: One sentence fewer than the text and under this share of its words: a sentence dropped.
DROPPED_RATIO = 0.75
#: The fewest words of a text whose length is compared.
MIN_TEXT_WORDS = 8
_UNSPACED = frozenset({"zh", "ja", "th", "ko"})
#: A paragraph set apart as a note on the answer ("(Note: I used the formal 'Sie' ...)",
#: "Translator's note: ..."), or wholly in brackets.
NOTE = re.compile(
    r"^\s*(?:[(\[*_\s]*(?:translator'?s\s+note|note|n\.\s?b\.|nota|anm\.|remarque)\b"
    r"|\((?s:.*)\)\s*$)",
    re.IGNORECASE,
)
#: A lead-in before the translation: "Here's the translation:", "In English:".
_LEAD_IN = re.compile(r"\A[^\n]{0,80}:[ \t]*\n")


def length_words(text: str) -> int:
    return len(_WORD.findall(text)) + len(_NUMBER.findall(text))


def _body(content: str) -> str:
    """A translation less its lead-in line and its notes."""
    kept = [p for p in split_paragraphs(content) if not NOTE.match(p)]
    body = "\n\n".join(kept) if kept else content
    return _LEAD_IN.sub("", body, count=1) if len(body.splitlines()) > 1 else body


#: A time of day: "15:00", "15.00", "15h00", "3 pm", "3:00 p.m.", "15 Uhr", "7h".
_CLOCK = re.compile(
    r"(?<![\d.,])(?P<h>\d{1,2})(?:(?:[:.h])(?P<m>\d{2}))?(?![\d.,]\d)"
    r"(?:\s*(?P<half>a\.?\s?m\b\.?|p\.?\s?m\b\.?)|\s*(?:h\b|uhr\b|o'clock))?",
    re.IGNORECASE,
)


#: A currency next to a number: "€12.50", "12.50 €", "12.50 EUR" (a price, not a time).
_MONEY_NEAR = re.compile(r"[€$£¥₺₹]")
_MONEY_AFTER = re.compile(r"\s?(?:[€$£¥₺₹]|kr\b|zł|eur\b|usd\b|gbp\b|tl\b|euros?\b)", re.I)


def _times(text: str) -> tuple[set[int], str]:
    """The times of day ``text`` names, as minutes after midnight (a time under 13:00 with
    no a.m. or p.m. both ways), and ``text`` with them taken out."""
    found: set[int] = set()

    def take(m: re.Match[str]) -> str:
        hour, minute, half = int(m.group("h")), int(m.group("m") or 0), m.group("half")
        clock = m.group("m") is not None or m.group(0)[len(m.group("h")) :].strip() != ""
        price = _MONEY_NEAR.search(m.string, max(0, m.start() - 2), m.start()) or (
            _MONEY_AFTER.match(m.string, m.end())
        )
        if not clock or hour > 24 or minute > 59 or price:
            return m.group(0)
        if half:
            pm = half.lower().startswith("p")
            found.add((hour % 12 + (12 if pm else 0)) * 60 + minute)
        else:
            found.add(hour * 60 + minute)
            if hour < 13:
                found.add(((hour + 12) % 24) * 60 + minute)
        return " "

    return found, _CLOCK.sub(take, text)


def _digit_runs(text: str) -> set[int]:
    return {int(d) for d in re.findall(r"\d+", text)}


def _new_number(text: str, body: str) -> str | None:
    """A number or a time of day the translation gives that the text does not: a date, an
    amount or a time changed ("18 March" -> "16 March")."""
    had_times, _ = _times(text)
    has_times, body_rest = _times(body)
    if had_times:
        for minute in sorted(has_times):
            if not {minute, (minute + 720) % 1440} & had_times:
                return f"{minute // 60:02d}:{minute % 60:02d}"
    had = _digit_runs(text)
    for m in re.finditer(r"\d+", body_rest):
        if int(m.group(0)) >= 10 and int(m.group(0)) not in had:
            return m.group(0)
    return None


def translation_fault(text: str, content: str) -> str | None:
    """What keeps ``content`` from being a whole translation of ``text``, in plain words, or
    ``None``: a number of the text left out or changed, most of its names left out, a
    length far from the text's, or sentences dropped."""
    body = _body(content)
    terms = kept_terms(text, detect_language(body))
    missing = missing_terms(body, terms)
    numbers = [t for t in missing if t.isdigit()]
    if numbers:
        return f"leaves out or changes the number {numbers[0]!r} of the text to translate"
    if (new := _new_number(text, body)) is not None:
        return f"gives {new!r}, which the text to translate does not say: a number changed?"
    names = [t for t in terms if not t.isdigit()]
    gone = [t for t in missing if not t.isdigit()]
    if len(names) >= 2 and 2 * len(gone) > len(names):
        listed = ", ".join(repr(t) for t in gone[:4]) + (" ..." if len(gone) > 4 else "")
        return f"leaves out {listed} of the text to translate; a translation keeps its names"
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
    if had - has >= 2 or (had - has == 1 and n < DROPPED_RATIO * want):
        return (
            f"{plural(has, 'sentence')} for a text of {had} ({n} words for {want}): a"
            " translation of all of it keeps every sentence"
        )
    return None

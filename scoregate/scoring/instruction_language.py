"""The instruction rule about the answer's language: "respond in Spanish", "en español",
"auf Deutsch", and a request written in another language, which asks for an answer in it.

>>> [(k.check, k.value) for k in language_rule("Tell me about tapas, respond in Spanish.",
...                                             "tell me about tapas, respond in spanish.")]
[('language', 'es')]

Pure: text in, constraints out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.language import (
    ENDONYMS,
    ENGLISH_COMMON,
    ENGLISH_ELSEWHERE,
    LANGUAGE_CODES,
    LANGUAGE_NAMES,
    detect_language,
)
from scoregate.scoring.phrasing import LANGUAGE_ALTERNATIVES as _LANG_NAMES
from scoregate.scoring.phrasing import SAYING_IN, make


def language_rule(q: str, low: str) -> Iterator[Instruction]:
    low = SAYING_IN.sub(" ", low)  # "how do you say 'thank you' in French?" asks for a phrase
    m = re.search(
        rf"\b(?:respond|reply|answer|write|written|response|output|text|translate\w*|explain|say|tell|"
        rf"email|message|it|everything|entirely|only|language|must\s+be|should\s+be)\b[^.\n]{{0,40}}?\bin\s+(?P<lang>{_LANG_NAMES})\b"
        rf"(?!\s+(?:cuisine|food|restaurant|style|history|culture|class|lessons?|course|wines?|words?|phrases?|names?))",
        low,
    )
    if m is None:
        m = re.search(
            rf"\b(?:in|into)\s+(?P<lang>{_LANG_NAMES})\s*(?:please|only|language|,|\.|!|$)", low
        )
    if m is None:
        m = _own_name_asked(low)
    if m:
        lang = m.group("lang")
        code = LANGUAGE_CODES.get(lang) or ENDONYMS.get(lang) or ENGLISH_ELSEWHERE[lang]
        if (
            code == "en"
            and not re.search(r"\b(?:entire|only|language|no\s+other)\b", low)
            and not _asked_elsewhere(q, m)
        ):
            return  # "in English" in an English request asks for nothing checkable
        yield make("language", m.group(0), value=code)
    elif (own := _written_in(q, low)) is not None:
        yield make("language", f"the request is written in {LANGUAGE_NAMES[own]}", value=own)


#: "en español", "auf Deutsch", "em português": a language named in its own tongue.
_ENDONYM_ALT = "|".join(sorted([*ENDONYMS, *ENGLISH_ELSEWHERE], key=len, reverse=True))
_IN_OWN_NAME = re.compile(rf"\b(?:en|auf|in|em|på|op|na|w)\s+(?P<lang>{_ENDONYM_ALT})\b")
#: A verb that asks for the answer, before it ("responde en inglés", "fasse bitte auf Deutsch
#: zusammen", "écris-moi en anglais") or after it ("bitte auf Englisch antworten"); not "se
#: escribe" ("¿cómo se escribe 'necesario' en inglés?" asks how a word is spelt).
_ASK_VERB = (
    r"(?:respond|contest|escrib|escríb|redact|expli|expliq|dime|dame|habl|traduc|répond|repond"
    r"|écri|ecri|parl|antwort|beantwort|schreib|erklär|erklar|fass|übersetz|rispond|scriv"
    r"|spieg|respost|escrev|fal[ae])\w*"
)
_VERB_BEFORE = re.compile(rf"(?<!\bse\s)\b{_ASK_VERB}\b[^.!?¿¡\n]{{0,30}}$")
_VERB_AFTER = re.compile(rf"^\s*(?:bitte\s+)?(?:zu\s+)?{_ASK_VERB}\b")
#: The name standing alone: "¿...? En inglés, por favor.", "Receta de paella, en español.",
#: "En français évidemment, et moins de 80 mots."
_ALONE_BEFORE = re.compile(r"(?:^|[.,;:!?¿¡]\s*|\bpor\s+favor\s+|\bbitte\s+)$")
_ALONE_AFTER = re.compile(
    r"^(?:\s+\w+)?\s*(?:,?\s*(?:por\s+favor|s'il\s+(?:te|vous)\s+pla[iî]t|bitte|per\s+favore|please|pls))?"
    r"\s*(?:[.,;:!?]|$)"
)
#: A question about a word ("¿cómo se dice 'gato' en inglés?", "le mot en anglais pour...",
#: "wie sagt man ... auf Englisch?"): it asks for a word, in the asker's language.
_WORD_ASKED = re.compile(
    r"\b(?:c[oó]mo\s+se\s+(?:dice|escribe|pronuncia|llama|traduce)|qu[eé]\s+significa"
    r"|comment\s+(?:dit-on|dire|on\s+dit|s'écrit|se\s+dit|écrire)|(?:le|un|quel)\s+mot"
    r"|la\s+palabra|das\s+wort|wie\s+(?:sagt|heißt|heisst|schreibt|spricht)|come\s+si\s+dice"
    r"|como\s+se\s+diz)\b[^.!?\n]*$"
)


#: The most "en inglés" a request is read for (a pasted text may hold thousands).
_MAX_NAMES_READ = 20


def _own_name_asked(low: str) -> re.Match[str] | None:
    """The first "en inglés" / "auf Englisch" that asks for the answer in that language: a
    verb that asks stands by it, or it stands alone; "una reunión en inglés", "ein Kurs auf
    Englisch" and "¿cómo se dice 'gato' en inglés?" only mention it."""
    for n, m in enumerate(_IN_OWN_NAME.finditer(low)):
        if n >= _MAX_NAMES_READ:
            break
        # what stands near it is what speaks (the patterns read no farther)
        before, after = low[max(0, m.start() - 120) : m.start()], low[m.end() : m.end() + 80]
        verb = _VERB_BEFORE.search(before)
        word = _WORD_ASKED.search(before)
        # the nearer one speaks: "qué significa esta cláusula ... quiero explicársela en
        # español" asks for Spanish; "dime cómo se dice 'gato' en inglés" asks for a word
        if word is not None and (verb is None or word.start() > verb.start()):
            continue
        if (
            verb is not None
            or _VERB_AFTER.match(after)
            or (_ALONE_BEFORE.search(before) and _ALONE_AFTER.match(after))
        ):
            return m
    return None


_MIN_OWN_WORDS = 6


def _asked_elsewhere(q: str, m: re.Match[str]) -> bool:
    """Whether a request that asks for English is written in another language ("Answer in
    English: ¿qué significa 'estar en las nubes'?", "Bitte auf Englisch antworten: ..."):
    then an answer in that language breaks it, which is worth checking. The words that ask
    are left out before the rest is read."""
    rest = q[: m.start()] + " " + q[m.end() :]
    if len(re.findall(r"[^\W\d_]+", rest)) < 4:
        return False
    written = detect_language(rest)
    return written is not None and written != "en"


def _written_in(q: str, low: str) -> str | None:
    """The language a request is written in, when it is not English and both its first
    and last sentences say so (pasted material in another language sits in between);
    ``None`` when the request names English (in any tongue: "una reunión en inglés") or asks
    for a translation."""
    if re.search(rf"\b(?:english|{'|'.join(ENGLISH_ELSEWHERE)})\b|\btrans(?:lat|cri)", low):
        return None
    words = re.findall(r"[^\W\d_]+", low)
    if len(words) < _MIN_OWN_WORDS or sum(w in ENGLISH_COMMON for w in words) >= 0.1 * len(words):
        return None  # short, or English with foreign names in it
    sentences = [s for s in re.findall(r"[^.!?\n]+[.!?]*", q) if len(s.split()) >= 4]
    if not sentences:
        return None
    head = sentences[0].split(":")[0]  # "Summarize this: <pasted text>": the ask is the head
    first = detect_language(head) if len(head.split()) >= 4 else None
    last = detect_language(sentences[-1]) if len(sentences) > 1 else first
    return first if first is not None and first == last and first != "en" else None

"""How the instruction checks count an answer, so their verdicts are predictable.

* words: runs of letters and digits, with the marks on them (``don't`` is two, as
  instruction-following checkers count them; "दिल्ली" is one, its vowel signs included);
  characters of an item: its text without the marker and the emphasis or quotes around it;
  sentences: text ended by ``.``, ``!`` or ``?`` followed by a space or the end, outside
  common abbreviations and initialisms ("the U.S. CPI", "5 p.m. on Friday"; one ends a
  sentence when "It", "The", "In" or the like follows) and a ``P.S.``; list lines and
  paragraphs end one too; a line holding only a ``<<title>>`` is not a sentence;
* paragraphs: blocks separated by the stated separator (``***``), else by blank lines; a
  block that is only a Markdown heading (``## Tea``) is none;
* bullets: lines opening with ``*``, ``-``, ``+``, ``•`` or a checkbox (``☐``); numbered:
  lines opening with ``1.`` / ``1)``; items: both, else the parts of a list written
  without markers that is the whole answer ("Max, Bella, Luna." or one short name a line,
  after a lead-in ending in ``:``), else not countable; items nested under
  another (indented more than the list's least indented ones) are not counted; lines: non-blank
  lines; code lines: non-blank lines inside code fences (all lines when there are none),
  read for a request about code ("keep the script to 10 lines");
* a second reading where people count otherwise (:func:`other_count`): words split at
  spaces only ("1-3" is one), sentences without a closing sign-off line ("Kind regards,
  Priya"), paragraphs without a ``<<title>>`` line or a postscript;
* highlights: ``*text*`` or ``**text**`` spans; bold spans: ``**text**``, ``__text__``,
  ``<b>text</b>`` or ``<strong>text</strong>`` outside code (italics are not bold);
  placeholders: ``[text]`` spans;
* headings: Markdown heading lines (``## Setup``) and lines that are only a bold label
  (``**Setup:**``), code fences aside; stanzas (a haiku, a limerick, a stanza): blocks of
  two or more lines of verse, set apart by blank lines, rules, titles or numbers.

>>> count_words("Don't stop - 3 more.")
5
>>> split_sentences("Dr. Lee came. She left!")
['Dr. Lee came.', 'She left!']

Pure: text in, numbers out.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable


def _mark_ranges() -> str:
    """The combining marks of the Basic Multilingual Plane (categories Mn, Mc, Me) as the
    ranges of a character class, with the zero-width joiners, which join letters too."""
    spans: list[tuple[int, int]] = []
    for code in range(0x10000):
        if unicodedata.category(chr(code)).startswith("M"):
            if spans and spans[-1][1] == code - 1:
                spans[-1] = (spans[-1][0], code)
            else:
                spans.append((code, code))
    return "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in spans) + "\\u200c\\u200d"


#: Combining marks: the vowel signs of Devanagari, Bengali or Tamil (``ि``, ``ा``, ``ு``),
#: Arabic and Hebrew vowel points, accents written apart. Not ``\\w``, yet part of a word:
#: "दिल्ली" is one word, not three.
MARKS = _mark_ranges()
#: A word: letters and digits, and the marks on them.
WORDS = re.compile(rf"\w[\w{MARKS}]*", re.UNICODE)
#: A word of letters only (no digits), and the marks on them.
LETTER_WORDS = re.compile(rf"[^\W\d_](?:[^\W\d_]|[{MARKS}])*", re.UNICODE)
_ABBREV = re.compile(
    r"\b(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|approx|no|fig|inc|ltd|co)\.$", re.IGNORECASE
)
_SENT_END = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)")
#: An initialism closing a piece: "U.S.", "U.K.", "a.m.", "Ph.D.".
_INITIALISM = re.compile(r"(?:^|[\s(])(?:[A-Za-z]{1,2}\.){2,}$")
#: A postscript marker, which opens the sentence after it rather than ending one.
_POSTSCRIPT_END = re.compile(r"(?:^|\s)\**(?i:p\.\s?(?:p\.\s?)?s\.)$")
#: Words that open a sentence after an initialism ("... in the U.S. It grew."): any other
#: word after one ("the U.S. CPI", "the U.S. economy", "5 p.m. on Friday") goes on.
_OPENERS = frozenset(
    "a an the it its this that these those there they he she we i you his her our their my"
    " but and so yet however in on at by for from after before when while if as since then"
    " many most some all each every one two three today now also still please thanks thank"
    " let note see i".split()
)
BULLET = re.compile(r"^\s*(?:[*+•‣◦☐☑☒□▢✓✔-])\s+\S", re.MULTILINE)
NUMBERED = re.compile(r"^\s*(?:\d{1,3}|[a-z])[.)]\s+\S", re.MULTILINE)
HIGHLIGHT = re.compile(r"\*\*[^\n*]+\*\*|(?<!\*)\*[^\n*]+\*(?!\*)")
#: Bold as Markdown and HTML write it: ``**term**``, ``__term__``, ``<b>term</b>``,
#: ``<strong>term</strong>`` (``***term***`` is bold too; ``__init__``, a dunder name, and
#: ``2**10``, a power, are none).
#: Python's special names, which ``__init__`` writes and no bold does.
_DUNDER = (
    r"(?:init|main|name|str|repr|eq|ne|lt|gt|le|ge|call|len|dict|file|all|getitem|setitem"
    r"|enter|exit|new|del|slots|class|doc|version|iter|next|hash|post_init|add|contains"
    r"|getattr|setattr|bool|future|builtins|module|qualname)"
)
BOLD = re.compile(
    # (not a power: "2**10", "x**2 + y**2": no word or bracket just outside a marker)
    r"(?<![\w)\]])\*\*(?![\s*])[^\n]*?[^\s*]\*\*(?![\w(])|(?<![\w)\]])\*\*[^\s*]\*\*(?![\w(])"
    rf"|(?<![\w_])__(?![\s_]|{_DUNDER}__(?![\w_]))[^\n]*?[^\s_]__(?![\w_])"
    r"|(?<![\w_])__[^\s_]__(?![\w_])"
    r"|<(b|strong)\b[^<>\n]*>(?=[^<]*\w)[^<]*?</\1>",
    re.IGNORECASE,
)
#: A line that opens or closes a fenced code block: "```python", "~~~", "```", "````".
_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})([^\n]*)$", re.MULTILINE)
#: Inline code, where ``**`` and ``__`` are no bold either: ``x**2``.
_INLINE_CODE = re.compile(r"`[^`\n]+`")


def code_fences(
    text: str, markers: tuple[str, ...] = ("```", "~~~")
) -> list[tuple[int, int, int, int]]:
    """The fenced code blocks of ``text`` opened by one of ``markers``, in one pass: (start
    of the opening line, start of the body, end of the body, end of the closing line). As
    CommonMark has it, a block closes at the next line that is a run of its marker's
    character at least as long as the opening run, alone ("```", or "````" after "```");
    one never closed runs to the end of the text, where its body ends too. A line of
    backticks whose text holds a backtick is inline code, no fence: "```npm install```".

    >>> code_fences("Run:\\n```sh\\nls\\n```\\nDone.")
    [(5, 11, 14, 17)]
    >>> code_fences("Run:\\n```sh\\nls **x**")
    [(5, 11, 19, 19)]
    >>> code_fences("````md\\n```\\nx\\n```\\n````\\nDone.")
    [(0, 7, 17, 21)]
    """
    chars = {marker[0] for marker in markers}
    blocks: list[tuple[int, int, int, int]] = []
    opened: tuple[int, int, str] | None = None
    for m in _FENCE_LINE.finditer(text):
        run, rest = m.group(1), m.group(2)
        if run[0] not in chars:
            continue
        if opened is None:
            if run[0] != "`" or "`" not in rest:
                opened = (m.start(), min(m.end() + 1, len(text)), run)
        elif run[0] == opened[2][0] and len(run) >= len(opened[2]) and not rest.strip(" \t\r"):
            blocks.append((opened[0], opened[1], max(opened[1], m.start()), m.end()))
            opened = None
    if opened is not None:
        blocks.append((opened[0], opened[1], len(text), len(text)))
    return blocks


def without_code_fences(
    text: str, markers: tuple[str, ...] = ("```", "~~~"), fill: str = ""
) -> str:
    """``text`` with each fenced code block (see :func:`code_fences`) put as ``fill``."""
    parts: list[str] = []
    at = 0
    for start, _, _, end in code_fences(text, markers):
        parts += [text[at:start], fill]
        at = end
    parts.append(text[at:])
    return "".join(parts)


def count_bold(text: str) -> int:
    """The bold spans of ``text`` outside code."""
    return len(bold_spans(text))


def bold_spans(text: str) -> list[str]:
    """The bold spans of ``text`` outside code (fenced blocks, an unclosed one to the end,
    and inline spans), as written: ``**term**``."""
    prose = _INLINE_CODE.sub(" ", without_code_fences(text, fill=" "))
    return [m.group(0) for m in BOLD.finditer(prose)]


PLACEHOLDER = re.compile(r"\[[^\[\]\n]{1,80}\]")
FENCE = re.compile(r"^\s*```[\w+-]*\s*\n(.*?)\n\s*```\s*$", re.DOTALL)


#: A line that holds only a ``<<title>>``.
TITLE_LINE = re.compile(r"^[ \t]*<<[^<>\n]+>>[ \t]*$", re.MULTILINE)


def count_words(text: str) -> int:
    """Runs of letters and digits, with the marks on them."""
    return len(WORDS.findall(text))


def _sentence_blocks(text: str) -> list[str]:
    """The paragraphs and list items of ``text``; a line of text right under an item (not
    indented, not opening in lower case: "Go in spring.") is a block of its own."""
    blocks: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[*+•-]|\d+[.)])\s)", text):
        if is_item(block):
            blocks += re.split(r"\n(?=[^\sa-z])", block, maxsplit=1)
        else:
            blocks.append(block)
    return blocks


def split_sentences(text: str) -> list[str]:
    """Sentences: ended by ``.``/``!``/``?`` and a space or the end; list lines and
    paragraphs also end a sentence; common abbreviations and a ``P.S.`` do not, nor an
    initialism ("U.S.", "p.m.") unless a word that opens sentences follows it ("the U.S.
    CPI" goes on, "in the U.S. It grew" ends). List items without a stop under a lead-in
    ending in ``:`` are fragments of its sentence ("Highlights:\n- the Colosseum\n- the
    Pantheon" is one)."""
    out: list[str] = []
    lead_open = False  # the last sentence is a lead-in whose list it goes on with
    for block in _sentence_blocks(text):
        fragment = is_item(block) and not _SENT_END.search(block) and WORDS.search(block)
        if fragment and out and (lead_open or out[-1].endswith(":")):
            out[-1] = f"{out[-1]} {block.strip()}"
            lead_open = True
            continue
        lead_open = False
        start = 0
        for m in _SENT_END.finditer(block):
            piece = block[start : m.end()]
            if _ABBREV.search(piece.rstrip("\"'”’)] ")):
                continue
            if _POSTSCRIPT_END.search(piece.rstrip()):
                continue  # "P.S." opens the sentence after it
            if _INITIALISM.search(piece.rstrip()) and not _opens_sentence(block[m.end() :]):
                continue  # "the U.S. CPI", "at 5 p.m. on Friday"
            if piece.strip():
                out.append(piece.strip())
            start = m.end()
        tail = block[start:].strip()
        if WORDS.search(tail):
            out.append(tail)
    return [s for s in out if WORDS.search(s)]


def _opens_sentence(rest: str) -> bool:
    """Whether the text after an initialism opens a new sentence: it ends the text, or its
    first word is capitalised and one that opens sentences ("It", "The", "In")."""
    m = re.match(r"\s*([\"'“‘(]?)(\w+)", rest)
    if not m:
        return True
    word = m.group(2)
    if not word[:1].isupper():
        return False
    quoted = bool(m.group(1))  # 'the U.S. "Fine," he said': a quote opens one
    return quoted or (word.lower() in _OPENERS and (word == "I" or not word.isupper()))


def sentence_end(text: str, start: int) -> int:
    """Where the sentence running at ``start`` ends (after its stop), brackets skipped."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth = max(depth - 1, 0)
        elif depth == 0 and c in ".!?" and (i + 1 == len(text) or text[i + 1].isspace()):
            return i + 1
    return len(text)


def split_paragraphs(text: str, separator: str | None = None) -> list[str]:
    """Paragraphs: split on ``separator`` (e.g. ``***``) when given, else on blank lines."""
    if separator and separator.strip():
        parts = re.split(r"\s*" + re.escape(separator.strip()) + r"\s*", text.strip())
    else:
        parts = re.split(r"\n\s*\n", text.strip())
    return [p.strip() for p in parts]


def unfenced(text: str) -> str:
    m = FENCE.match(text)
    return m.group(1) if m else text.strip()


#: The marker that opens a list item: "- ", "* ", "1. ", "a) ".
ITEM_MARKER = re.compile(r"^\s*(?:[*+•‣◦☐☑☒□▢✓✔-]|\d{1,3}[.)]|[a-z][.)])\s+")


def is_item(line: str) -> bool:
    """Whether ``line`` is a bulleted or numbered list item."""
    return bool(BULLET.match(line) or NUMBERED.match(line))


def list_items(content: str) -> list[str]:
    """The text of each bulleted or numbered line, in order, its marker cut off."""
    return [ITEM_MARKER.sub("", ln) for ln in content.splitlines() if is_item(ln)]


def item_word_counts(content: str) -> list[int]:
    """The words of each bulleted or numbered item, in order (their markers not counted)."""
    return [count_words(item) for item in list_items(content)]


#: Emphasis marks and quotes around an item, not counted as its characters.
_ITEM_WRAP = re.compile(r"^[\s*_`\"'“‘]+|[\s*_`\"'”’]+$")
#: An item that opens with its text in bold or quotes, then says more about it:
#: '**Rise and shine** – playful, morning-themed'.
_ITEM_NAMED = re.compile(r"^\s*(?:\*\*([^*\n]+)\*\*|[\"“]([^\"”\n]+)[\"”])\s*[–—:(-]")
#: Words of a line that is a sentence about the list, not one of its items.
_PROSE_WORDS = 8


def item_character_counts(content: str) -> list[int]:
    """The characters of each item, its marker and wrapping emphasis or quotes not counted,
    only its bold or quoted text when a comment follows it: the bulleted or numbered lines
    when there are two or more, else the lines that are neither a lead-in ("Here are
    five:") nor a sentence about them, when there are two or more ("five taglines, each
    under 40 characters", one per line)."""
    lines = content.splitlines()
    items = list_items(content)
    if len(items) < 2:
        items = [
            ln
            for ln in lines
            if WORDS.search(ln)
            and not ln.rstrip().endswith(":")
            and not (count_words(ln) >= _PROSE_WORDS and ln.rstrip().endswith((".", "!")))
        ]
    sizes = []
    for item in items:
        named = _ITEM_NAMED.match(item)
        text = (named.group(1) or named.group(2)) if named else _ITEM_WRAP.sub("", item)
        sizes.append(len(text.strip()))
    return sizes if len(sizes) >= 2 else []


def item_sentence_counts(content: str) -> list[int]:
    """The sentences of each item: the bulleted or numbered lines when there are two or
    more, else the paragraphs, else the lines ("one sentence each": each reason, answer or
    step, however the answer sets them apart)."""
    lines = content.splitlines()
    items = list_items(content)
    if len(items) < 2:
        items = [p for p in re.split(r"\n\s*\n", content) if WORDS.search(p)]
    if len(items) < 2:
        items = [ln for ln in lines if WORDS.search(ln)]
    return [len(split_sentences(i)) for i in items] if len(items) >= 2 else []


def section_item_counts(content: str) -> list[int]:
    """The list items under each heading, in order: a line of text that is no item and not
    indented opens a section ("Pros", "**Day 1**", "### Cons:"); sections without items
    (an intro, a closing line) are left out. Empty when no section has items."""
    counts: list[int] = []
    current: int | None = None
    for line in content.splitlines():
        if is_item(line):
            current = (current or 0) + 1
        elif line.strip() and not line[:1].isspace():
            if current:
                counts.append(current)
            current = 0
    if current:
        counts.append(current)
    return counts


#: A closing line that signs a message off: "Kind regards, Priya", "Thanks,\nSam", "- Jo";
#: the phrase alone or with a capitalised name after it ("Best of luck!" is a sentence).
_NAME = r"[A-Z][\w.'-]*(?:[ \t]+[A-Z][\w.'-]*){0,2}"
SIGN_OFF = re.compile(
    r"\n[ \t]*(?:(?i:(?:kind|warm|best|many)\s+(?:regards|wishes|thanks)|regards|best|thanks"
    r"|thank\s+you|cheers|sincerely|yours(?:\s+(?:truly|sincerely))?|love|take\s+care"
    rf"|all\s+the\s+best)[ \t]*[,!.]?(?:[ \t]*\n?[ \t]*{_NAME})?|[-–—][ \t]*{_NAME})[ \t]*$"
)
#: A postscript paragraph: "P.S. ...", "P. S.:", "P.P.S.", "PS: ..." (not "Ps and Qs").
POSTSCRIPT = re.compile(r"^[ \t]*\**(?:(?i:p\.[ \t]?(?:p\.[ \t]?)?s\.)|P?PS[ \t]*[:.-])")


def other_count(content: str, unit: str, separator: str | None) -> int | None:
    """The count by a second convention people use, where it differs from
    :func:`count_units`'s (``None`` where there is none): a hyphenated range is one word,
    a sign-off line is no sentence, a title line, a postscript or a letter's greeting and
    sign-off no paragraph. (The lines
    of a script are counted as ``code_lines`` by :func:`count_units`.)

    >>> other_count("Hi, the engineer comes Thursday.\\nKind regards, Priya", "sentences", None)
    1
    """
    if unit == "words":
        return sum(1 for w in content.split() if WORDS.search(w))
    if unit == "sentences":
        signed = SIGN_OFF.search(content)
        return count_units(content[: signed.start()], unit, separator) if signed else None
    if unit == "paragraphs":
        parts = [
            p
            for p in split_paragraphs(TITLE_LINE.sub("", content), separator)
            if p and not _HEADING_ONLY.match(p)
        ]
        body = [p for p in parts if not POSTSCRIPT.match(p)]
        if len(body) > 1 and _SUBJECT_PARAGRAPH.match(body[0]):
            body = body[1:]  # "Subject: Waiting list enquiry": an email's subject, no paragraph
        if len(body) > 1 and _SALUTATION.match(body[0]):
            body = body[1:]  # "Dear Keith,": a letter's greeting is no paragraph of it
        if len(body) > 1 and _is_valediction(body[-1]):
            body = body[:-1]  # "With warm wishes,\nThe Hendersons": nor is its sign-off
        return len(body) if body else None
    if unit == "verse_lines":
        # every line but a lead-in ("Here's a 6-line poem:") and a title: a line set apart
        # at the poem's end ("And then, silence.") is still one of its lines
        poem = _LEAD_IN.sub("", content.strip(), count=1)
        untitled = other_count(poem, "lines", separator)
        return count_units(poem, "lines", separator) if untitled is None else untitled
    if unit == "lines":  # a poem's title is no line of it
        lines = [ln.strip() for ln in content.strip().splitlines()]
        kept = [ln for ln in lines if ln]
        if len(kept) > 1 and (
            _TITLE_ON_TOP.match(kept[0])
            or (len(lines) > 2 and not lines[1] and _SHORT_LINE.match(kept[0]))
        ):
            return len(kept) - 1
    return None


#: An email's subject on a line of its own: "Subject: Waiting list enquiry", "**Subject:** ...".
_SUBJECT_PARAGRAPH = re.compile(r"^[*_]*subject(?:\s+line)?\s*:[*_]*[ \t]*[^\n]*$", re.IGNORECASE)
#: A letter's greeting on a line of its own: "Dear Keith,", "Hi Dan,", "To the committee:".
_SALUTATION = re.compile(
    r"^(?:dear\b[^\n]{0,60}|(?:hi|hello|hey|to|good\s+(?:morning|afternoon|evening)|greetings)"
    r"\b[^\n]{0,40}[,:!])$",
    re.IGNORECASE,
)
#: Words of a letter's closing paragraph: "With warm wishes,\nThe Hendersons".
_VALEDICTION_WORDS = 10


def _is_valediction(paragraph: str) -> bool:
    """A closing paragraph: a sign-off ("Kind regards, Priya") or a short line ending in a
    comma with at most a name under it."""
    lines = paragraph.splitlines()
    if len(lines) > 3 or count_words(paragraph) > _VALEDICTION_WORDS:
        return False
    return bool(SIGN_OFF.match("\n" + paragraph)) or lines[0].rstrip().endswith(",")


#: A first line that leads in to what follows: "Here's a 6-line poem about autumn:".
_LEAD_IN = re.compile(r"\A[^\n]*:[*_]*[ \t]*(?:\n|\Z)")
#: A first line that is a title: a heading, bold, <<marked>> or "Title: ...".
_TITLE_ON_TOP = re.compile(r"^(?:#{1,6}\s.+|\*\*[^*]+\*\*|__[^_]+__|<<.+>>|title\s*:.+)$", re.I)
#: ... or a short line without end punctuation, set apart by a blank line.
_SHORT_LINE = re.compile(r"^[^.!?,;:\n]{1,50}$")


#: A paragraph that is only a Markdown heading ("## Tea"): no paragraph of the text.
_HEADING_ONLY = re.compile(r"^(?:[ \t]*#{1,6}[ \t]+\S[^\n]*(?:\n|$))+$")


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _top_level(content: str, *patterns: re.Pattern[str]) -> list[str]:
    """The list lines ``patterns`` match that are not nested under another item: those
    indented least ("- Tea\n  - green\n  - black" has one at the top)."""
    lines = [ln for ln in content.splitlines() if any(p.match(ln) for p in patterns)]
    if not lines:
        return []
    least = min(_indent(ln) for ln in lines)
    return [ln for ln in lines if _indent(ln) == least]


#: Words of an item of a list written without markers ("Max, Bella, Luna").
_INLINE_ITEM_WORDS = 4
_LEAD_IN = re.compile(r"^[^\n:]{0,120}:\s*")
#: Words that make a part a clause of a sentence, not an item: "Dogs are loyal, friendly,
#: and fun to be with" is prose.
_CLAUSE_WORDS = re.compile(
    r"\b(?:i|you|we|they|he|she|it|is|are|was|were|be|been|am|have|has|had|can|could|will"
    r"|would|should|may|might|must|do|does|did|like|love|to|my|your|this|that|these|those"
    r"|there|here|if|because|so|very|also|not)\b",
    re.IGNORECASE,
)


def inline_items(content: str) -> list[str]:
    """The items of a list written without markers, when that list is the whole answer
    (after a lead-in ending in ``:``): three or more short parts split by commas on one
    line ("Max, Bella, Luna and Daisy."), or two or more short lines ("Max\nBella"), each
    of at most four words. Empty for anything else: prose is not read as a list."""
    text = _LEAD_IN.sub("", content.strip(), count=1).strip()
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if len(lines) == 1:
        parts = [p.strip() for p in re.split(r",|;", lines[0].rstrip(".").strip())]
        if parts and re.search(r"\s(?:and|or)\s", parts[-1]) and len(parts) >= 2:
            parts[-1:] = re.split(r"\s(?:and|or)\s", parts[-1], maxsplit=1)
        parts = [re.sub(r"^(?:and|or)\s+", "", p).strip() for p in parts]
        if len(parts) < 3:
            return []
    else:
        parts = lines
    if any(
        not WORDS.search(p)
        or count_words(p) > _INLINE_ITEM_WORDS
        or _CLAUSE_WORDS.search(p)
        or re.search(r"[.!?:]\s|[!?:]$", p)
        for p in parts
    ):
        return []
    return parts


#: A Markdown heading: "## Setup" (at most three spaces before the marks, a space after).
_MARKDOWN_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+\S")
#: A line that is only bold, as a heading: "**Setup**", "**Setup:**", "**Setup**:", "__Usage__".
_BOLD_LINE = re.compile(r"^[ \t]*(?:\*\*(?P<a>[^*\n]+?)\*\*|__(?P<b>[^_\n]+?)__)[ \t]*:?[ \t]*$")
#: The most words a bold line used as a heading has ("**Step 1: Open the settings**").
HEADING_WORDS = 10


def bold_heading(line: str) -> bool:
    """Whether ``line`` is only bold text used as a heading or label ("**Setup:**"), not a
    sentence set in bold ("**Back up your files first.**", "**Hi Sam,**")."""
    m = _BOLD_LINE.match(line)
    if m is None:
        return False
    text = (m.group("a") or m.group("b") or "").strip().rstrip(":").strip()
    return (
        bool(WORDS.search(text))
        and not text.endswith((".", "!", "?", ",", ";"))
        and (count_words(text) <= HEADING_WORDS)
    )


def heading_lines(content: str) -> list[str]:
    """The lines of ``content`` that are headings, code fences aside: Markdown headings
    (``## Setup``) and lines that are only a bold label (``**Setup:**``); not a list item
    that opens with a bold term ("- **Setup:** run the installer"), nor a sentence in
    bold."""
    text = without_code_fences(content, ("```",))
    return [
        ln.strip() for ln in text.splitlines() if _MARKDOWN_HEADING.match(ln) or bold_heading(ln)
    ]


def _fenced_lines(content: str) -> int:
    """The lines with text inside the answer's ``` blocks."""
    return sum(
        1
        for _, start, end, _ in code_fences(content, ("```",))
        for ln in content[start:end].splitlines()
        if ln.strip()
    )


def bold_terms(content: str) -> list[str]:
    """The bold spans of ``content`` outside its headings: the terms set in bold, not a
    line that is only a bold label over a section ("**Overview**", which
    :func:`heading_lines` counts as a heading) nor bold in a Markdown heading."""
    lines = ["" if heading_lines(ln) else ln for ln in content.splitlines()]
    return bold_spans("\n".join(lines))


#: A line that sets verse apart rather than being verse: a line with no letter or digit
#: ("***", "---", "~"), a ``<<title>>``, a heading, a number or label alone ("1.", "II",
#: "Haiku 2:"). (A line of verse may end in ":"; a lead-in that does, "Here are three:",
#: is a block of one line, or one more line of the first poem's block.)
_VERSE_BREAK = re.compile(
    r"^[ \t]*(?:[^\w\n]*|<<[^<>\n]*>>|#{1,6}[ \t].*|\(?\d{1,2}[.):]?\)?|[IVXivx]{1,5}[.)]?"
    r"|(?i:haiku|limerick|stanza|verse|poem|quatrain|tanka|part|no\.?)"
    r"[ \t]*#?[ \t]*\w{0,6}[ \t]*[:.)]?)[ \t]*$"
)
#: A numbered line of verse, which opens a new poem: "1. An old silent pond".
_NUMBERED_VERSE = re.compile(r"^[ \t]*\d{1,2}[.)][ \t]+\S")
#: Words a line of verse has at most on average: a longer block is prose.
VERSE_LINE_WORDS = 16


#: A list item, which is no line of verse: "- The first uses a crow as the kigo."
_LIST_LINE = re.compile(r"^[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]+\S")
#: An attribution under an epigraph: "— Iris Murdoch", "-- Basho".
_ATTRIBUTION = re.compile(
    r"^[ \t]*(?:—|–|--)[ \t]*[A-Z][\w.'-]*(?:[ \t]+[A-Z][\w.'-]*){0,3}[ \t]*$"
)
#: A poem on one line, its lines split by slashes: "Snow on the branches / the crow ..."
#: (two slashes at least: a poem of three lines).
_SLASHED_POEM = re.compile(r"\S[ \t]+/[ \t]+\S")


def _not_verse(block: list[str]) -> bool:
    """Whether a block of lines is no poem: a lead-in ("Sure!" / "Here are three:"), a
    list of notes ("Notes:" and bullets), an epigraph with its attribution."""
    if block[-1].rstrip().endswith(":"):
        return True
    if all(_LIST_LINE.match(ln) for ln in block[1:]) and (
        _LIST_LINE.match(block[0]) or block[0].rstrip().endswith(":")
    ):
        return True
    return _ATTRIBUTION.match(block[-1]) is not None


def _slashed_poems(block: list[str]) -> list[int] | None:
    """A block whose every line is a poem with slashes between its lines: each line's
    count of lines ("- a / b / c" is a poem of three lines)."""
    if all(len(_SLASHED_POEM.findall(ln)) >= 2 for ln in block):
        return [len(_SLASHED_POEM.findall(ln)) + 1 for ln in block]
    return None


def verse_blocks(content: str) -> list[int]:
    """The lines of each block of verse of ``content``: blocks of two or more lines set
    apart by blank lines, rules ("***", "******"), titles (``<<Rain>>``, ``**Rain**``,
    ``## Rain``), numbers or labels on their own line ("1.", "Haiku 2:") or a numbered
    first line ("1. An old silent pond"); a one-line block (an intro, a closing sentence)
    is none, nor a block of prose (lines of more than 16 words on average), a lead-in
    ending in ":", a list of notes or an epigraph's attribution ("— Iris Murdoch"); a
    line with slashes between its lines ("a / b / c") is a poem of its own."""
    return [len(b) for b in verse_block_lines(content)]


def verse_block_lines(content: str) -> list[list[str]]:
    """The lines of each block of verse ``verse_blocks`` counts (a line with slashes, a
    poem of its own, split at them)."""
    blocks: list[list[str]] = [[]]
    for line in content.splitlines():
        if not line.strip() or _VERSE_BREAK.match(line) or bold_heading(line):
            blocks.append([])
            continue
        if _NUMBERED_VERSE.match(line):
            blocks.append([])
        blocks[-1].append(line)
    kept: list[list[str]] = []
    for b in blocks:
        if b and _slashed_poems(b) is not None:
            kept += [re.split(r"[ \t]+/[ \t]+", ln) for ln in b]
        elif len(b) >= 2 and not _not_verse(b):
            if sum(count_words(ln) for ln in b) / len(b) <= VERSE_LINE_WORDS:
                kept.append(b)
    return kept


#: A line that ends a sentence the way prose does: "Let me know if you'd like more!".
_SENTENCE_END = re.compile(r"[.!?][\"')\]*_]*[ \t]*$")


def verse_openings(content: str) -> list[str]:
    """The first words of each block ``verse_blocks`` counts, for a reason."""
    return [" ".join(b[0].split()[:4]) for b in verse_block_lines(content)]


def prose_edges(content: str) -> int:
    """How many of the first and last blocks ``verse_blocks`` counts read as prose, every
    line a sentence ("Let me know if you'd like more!\nHappy writing!"): an intro or a
    closing note, most likely, rather than a poem."""
    kept = verse_block_lines(content)
    ends = [kept[0], kept[-1]] if len(kept) >= 2 else kept[:1]
    return sum(all(_SENTENCE_END.search(ln) for ln in b) for b in ends)


#: The frame of an email or a letter, each on a line of its own: the subject line, the
#: greeting ("Hi [Landlord's name],", "Dear Ms Patel,") and the sign-off ("Thanks,", "Kind
#: regards,") with the name under it.
_SUBJECT_LINE = re.compile(r"^\s*subject\s*:.*$", re.IGNORECASE | re.MULTILINE)
_GREETING_LINE = re.compile(
    r"^\s*(?:hi|hello|hey|dear|good\s+(?:morning|afternoon|evening))\b[^!?\n]{0,60},\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_SIGN_OFF = re.compile(
    r"^\s*(?:thanks|thank\s+you|many\s+thanks|thanks\s+again|cheers|best|best\s+wishes|warmly"
    r"|warm\s+wishes|(?:kind|warm|best|many)\s+regards|regards|sincerely|respectfully"
    r"|yours(?:\s+(?:sincerely|faithfully|truly))?|all\s+the\s+best|take\s+care)"
    # "Thank you for your understanding,", "Thanks, Anna"
    # (not "Best of luck!", "Thanks to that, it sold.": a sentence of the text)
    r"(?:\s+for\s+[^\n.!?]{1,50})?[ \t]*(?:[,!.](?:[ \t]+(?-i:[A-Z\[])[^\n.!?]{0,40})?)?[ \t]*"
    r"(?:\n[^\n!?]{1,60}){0,3}\s*\Z",
    re.IGNORECASE | re.MULTILINE,
)


def letter_body(text: str) -> str:
    """``text`` less the frame of an email or letter, when it has a greeting or a sign-off
    line: what a count of its sentences counts."""
    if not (_GREETING_LINE.search(text) or _SIGN_OFF.search(text)):
        return text
    return _SIGN_OFF.sub("", _GREETING_LINE.sub("", _SUBJECT_LINE.sub("", text)))


#: Units counted by one pattern or measure, whatever the separator.
_SIMPLE_UNITS: dict[str, Callable[[str], int]] = {
    "words": count_words,
    # a <<title>> and the frame of an email (subject, greeting, sign-off) are no sentences
    "sentences": lambda c: len(split_sentences(letter_body(TITLE_LINE.sub("", c)))),
    "bullets": lambda c: len(_top_level(c, BULLET)),
    "numbered": lambda c: len(_top_level(c, NUMBERED)),
    "lines": lambda c: len([ln for ln in c.splitlines() if ln.strip()]),
    "highlights": lambda c: len(HIGHLIGHT.findall(c)),
    "bold_spans": count_bold,
    "placeholders": lambda c: len(PLACEHOLDER.findall(c)),
    "characters": lambda c: len(c.strip()),
    "headings": lambda c: len(heading_lines(c)),
}


def _json_items(content: str) -> int | None:
    """The elements of a JSON array that is the whole answer (in a code fence or not):
    "a list of exactly 3 objects" asked as JSON is counted by its objects."""
    body = unfenced(content).strip()
    if not body.startswith("["):
        return None
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return len(value) if isinstance(value, list) else None


def count_units(content: str, unit: str, separator: str | None) -> int | None:
    if unit in _SIMPLE_UNITS:
        return _SIMPLE_UNITS[unit](content)
    if unit == "paragraphs":
        parts = split_paragraphs(content, separator)
        return len([p for p in parts if p and not _HEADING_ONLY.match(p)])
    if unit == "items":
        listed = len(_top_level(content, BULLET, NUMBERED)) or len(inline_items(content))
        return listed or _json_items(content)
    if unit == "code_lines":  # "keep the script to 10 lines": the code in its fences
        return _fenced_lines(content) or count_units(content, "lines", separator)
    if unit == "verse_lines":  # "a 6-line poem": the lines of its verse, not a lead-in
        # (and the lines of a code block, which are no prose beside it either)
        verse = sum(verse_blocks(without_code_fences(content, ("```",), fill="\n\n")))
        return verse + _fenced_lines(content) or count_units(content, "lines", separator)
    if unit == "sections":
        return None  # counted by marker in _count
    if unit == "stanzas":  # "3 haikus", "a poem with four stanzas": blocks of verse
        return len(verse_blocks(content)) or None
    raise ValueError(f"unknown unit {unit!r}")

"""Checkable instructions about an answer's form: how each is checked.

An :class:`~scoregate.schemas.constraints.Instruction` constraint names one check
(counts of words, sentences, paragraphs, bullets or items; list form; JSON / YAML /
code block / table; case; banned characters; required, banned or counted words;
letters; markers such as a ``<<title>>``, a ``P.S.``, highlights and placeholders;
first and last words; the response language; ...). :func:`check_instruction` returns
``(passed, detail)`` with the evidence in plain words ("5 items; the request asks for
exactly 3"), or ``(None, why)`` when the instruction cannot be judged on this answer
(a request for "5 ideas" answered in prose has no list to count).

How words, sentences, paragraphs, bullets and the rest are counted:
:mod:`scoregate.scoring.counting`.

Pure: text in, verdicts out; nothing here reads settings or does I/O.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable
from typing import Any

import yaml

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.affirmation import stem
from scoregate.scoring.answer_types import MONEY
from scoregate.scoring.counting import (
    BULLET,
    FENCE,
    ITEM_MARKER,
    LETTER_WORDS,
    NUMBERED,
    WORDS,
    bold_heading,
    bold_spans,
    bold_terms,
    count_units,
    count_words,
    heading_lines,
    is_item,
    item_character_counts,
    item_sentence_counts,
    item_word_counts,
    list_items,
    other_count,
    prose_edges,
    section_item_counts,
    split_paragraphs,
    unfenced,
    verse_openings,
)
from scoregate.scoring.dependencies import third_party
from scoregate.scoring.rhyme import check_rhyme
from scoregate.scoring.text import fenced_blocks, plural
from scoregate.scoring.translation import translation_fault, without_notes

Verdict = tuple[bool | None, str]

_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$", re.MULTILINE)
_LEAD = re.compile(r"^[\s\"'“‘*_#>`(\[]+")


def _compare(n: int, relation: str, want: int) -> bool:
    if relation == "at_least":
        return n >= want
    if relation == "at_most":
        return n <= want
    return n == want


_RELATION_WORDS = {"exactly": "exactly", "at_least": "at least", "at_most": "at most"}


def _asks(k: Instruction) -> str:
    """How the instruction reads in a reason: "the request asks for" or "required"."""
    return "the request asks for" if k.inferred else "required:"


def _amount(relation: str, n: int, noun: str) -> str:
    """How a limit reads: "exactly 3 sentences", "at most 6 words per list item", and
    "none" for at most 0 ("without the letter e")."""
    if relation == "at_most" and n == 0:
        return "none"
    if " per " in noun:  # "6 words per list item", not "6 word per list items"
        head, _, tail = noun.partition(" per ")
        return f"{_RELATION_WORDS[relation]} {plural(n, head)} per {tail}"
    return f"{_RELATION_WORDS[relation]} {plural(n, noun)}"


_UNIT_NOUN = {
    "words": "word",
    "sentences": "sentence",
    "paragraphs": "paragraph",
    "bullets": "bullet point",
    "numbered": "numbered item",
    "items": "list item",
    "lines": "line",
    "code_lines": "code line",
    "verse_lines": "line",
    "sections": "section",
    "highlights": "highlighted section",
    "bold_spans": "bold span",
    "placeholders": "placeholder",
    "item_words": "word per list item",
    "item_sentences": "sentence per item",
    "section_items": "list item per section",
    "characters": "character",
    "item_characters": "character per item",
    "headings": "heading",
    "stanzas": "stanza",
}


def _count(content: str, k: Instruction) -> Verdict:
    assert k.unit is not None and isinstance(k.value, int)
    if k.unit in _PARTS:
        return _per_item(content, k)
    if k.unit == "headings":
        return _headings_count(content, k)
    if k.unit == "stanzas":
        return _stanzas(content, k)
    if k.unit == "sections":
        marker = (k.separator or "SECTION").strip()
        n: int | None = len(re.findall(rf"(?m)^\W*{re.escape(marker)}\s+\w+", content))
    else:
        n = count_units(content, k.unit, k.separator)
        other = other_count(content, k.unit, k.separator)
        if k.unit == "characters" and other is None:
            other = count_units(_text_given(content), k.unit, k.separator)
        if k.unit == "bold_spans" and k.value > 0:
            # "bold 3-5 key terms": a bold label on its own line is a heading, not a term
            other = len(bold_terms(content))
        if n is not None and other is not None:
            # two ways people count ("1-3 months" is one word or two; a sign-off line is
            # a sentence or not): a limit is met if either count meets it
            n = _lenient(n, other, k.relation, k.value)
    noun = _UNIT_NOUN[k.unit]
    if n is None:
        return None, f"no list to count {noun}s in"
    want = _amount(k.relation, k.value, noun)
    have = "no bold text" if k.unit == "bold_spans" and n == 0 else plural(n, noun)
    if _compare(n, k.relation, k.value):
        return True, f"{have} ({want})"
    if k.unit == "bold_spans" and n > k.value:  # "1 bold span ('**DNS**')": the ones too many
        spans = bold_spans(content) if n > len(bold_terms(content)) else bold_terms(content)
        have += " (" + ", ".join(repr(b[:40]) for b in spans[:3]) + (", ..." if n > 3 else "") + ")"
    return False, f"{have}; {_asks(k)} {want}"


#: A line after the text asked for that tells its count: "(67 characters, so you have a
#: little room left)", "*Character count: 74*", "That's 58 characters."
_COUNT_REMARK = re.compile(
    r"^[ \t]*[(\[*_]*[ \t]*(?:(?:character\s+count|length)\W{0,4}\d+"
    r"|(?:(?:that's|that\s+is|it's|this\s+is|at)\b)?[^\n\d]{0,12}\d+\s*(?:characters?|chars?)\b)"
    r"[^\n]*$",
    re.IGNORECASE,
)
#: The most words of an assistant's lead-in before the text asked for.
_LEAD_WORDS = 10


def _text_given(content: str) -> str:
    """The short text an answer gives (a title, a tweet) less a lead-in opening it ("Here's
    a title:") and the lines after it that tell its count; the answer itself when nothing
    or everything would go."""
    paragraphs = [p for p in re.split(r"\n\s*\n", content.strip()) if p.strip()]
    first = paragraphs[0].strip() if paragraphs else ""
    if (  # a lead-in is a paragraph of its own: "Here's a title:" and a blank line
        len(paragraphs) > 1
        and "\n" not in first
        and _LEAD_OPENING.match(first)
        and first.rstrip(" *_").endswith(":")
        and len(first.split()) <= _LEAD_WORDS
    ):
        paragraphs = paragraphs[1:]
    lines = [ln for p in paragraphs for ln in p.splitlines() if ln.strip()]
    while (
        len(lines) > 1
        and _COUNT_REMARK.match(lines[-1])
        and len(lines[-1]) < max(len(ln) for ln in lines[:-1]) + 40
    ):
        lines = lines[:-1]
    return "\n".join(lines) if lines else content


def _headings_count(content: str, k: Instruction) -> Verdict:
    """Headings counted and named: "2 headings ('## Setup', '## Usage'); the request asks
    for none"."""
    assert isinstance(k.value, int)
    found = heading_lines(content)
    want = _amount(k.relation, k.value, "heading")
    have = plural(len(found), "heading") if found else "no headings"
    if found:
        shown = ", ".join(repr(h[:40]) for h in found[:3]) + (", ..." if len(found) > 3 else "")
        have = f"{have} ({shown})"
    if _compare(len(found), k.relation, k.value):
        return True, have if want == "none" else f"{have} ({want})"
    return False, f"{have}; {_asks(k)} {want}"


#: The kinds of verse a count of stanzas may name ("3 haikus"), for its reason.
_VERSE_NOUN = re.compile(r"\b(haiku|limerick|quatrain|tanka|stanza)s?\b", re.IGNORECASE)


def _verse_noun(k: Instruction) -> str:
    """What a count of stanzas counts, as the request names it: "haiku" for "3 haikus"."""
    named = _VERSE_NOUN.search(k.phrase or "")
    return named.group(1).lower() if named else "stanza"


def _stanzas(content: str, k: Instruction) -> Verdict:
    """Poems or stanzas counted as blocks of two or more lines: "4 haikus (blocks of 2 or
    more lines: 'Sure! Here are…', …); the request asks for exactly 3"; ``None`` when no
    block has two lines. A first or last block that reads as prose (every line a sentence:
    "Let me know if you'd like more!") is left out when that meets the count."""
    assert isinstance(k.value, int)
    noun = _verse_noun(k)
    n = count_units(content, "stanzas", None)
    if n is None:
        return None, f"no block of 2 or more lines to count as a {noun}"
    want = _amount(k.relation, k.value, noun)
    if _compare(n, k.relation, k.value):
        return True, f"{plural(n, noun)}, as asked ({want})"
    edges = prose_edges(content)
    if edges and any(_compare(n - d, k.relation, k.value) for d in range(1, edges + 1)):
        return True, f"{want}, with an intro or closing note in prose beside them"
    opened = ", ".join(f"'{w}…'" for w in verse_openings(content)[:6])
    have = f"{plural(n, noun)} (blocks of 2 or more lines: {opened})"
    return False, f"{have}; {_asks(k)} {_RELATION_WORDS[k.relation]} {k.value}"


def _lenient(a: int, b: int, relation: str, want: int) -> int:
    """Of two counts by two conventions, the one that meets ``relation want``, if any."""
    if relation == "at_most":
        return min(a, b)
    if relation == "at_least":
        return max(a, b)
    return b if b == want else a


#: What a limit on every part counts, in what, and how the parts are named.
_PARTS: dict[str, tuple[Callable[[str], list[int]], str, str]] = {
    "item_words": (item_word_counts, "word", "item"),
    "item_sentences": (item_sentence_counts, "sentence", "item"),
    "section_items": (section_item_counts, "list item", "section"),
    "item_characters": (item_character_counts, "character", "item"),
}


def _per_item(content: str, k: Instruction) -> Verdict:
    """A limit on every part: words per list item, sentences per item, or list items per
    section ("a Pros section and a Cons section, each with exactly 2 bullets")."""
    assert isinstance(k.value, int) and k.unit is not None
    counter, noun, part = _PARTS[k.unit]
    sizes = counter(content)
    if not sizes:
        return None, f"no {part}s to count {noun}s in"
    if k.relation == "at_most":
        worst = max(sizes)
    elif k.relation == "at_least":
        worst = min(sizes)
    else:
        worst = next((n for n in sizes if n != k.value), k.value)
    want = _amount(k.relation, k.value, f"{noun} per {part}")
    if _compare(worst, k.relation, k.value):
        return True, f"every {part} within {_amount(k.relation, k.value, noun)}"
    which = sizes.index(worst) + 1
    return False, f"{part} {which} has {plural(worst, noun)}; {_asks(k)} {want}"


def _list_form(content: str, k: Instruction) -> Verdict:
    numbered, bullets = len(NUMBERED.findall(content)), len(BULLET.findall(content))
    if k.value == "numbered":
        if numbered >= 2:
            return True, f"a numbered list of {numbered} items"
        what = "a bulleted list" if bullets else "no list"
        return False, f"{what}; {_asks(k)} a numbered list"
    if bullets + numbered >= 2:
        if not numbered:
            return True, f"a bulleted list of {plural(bullets, 'item')}"
        return True, f"a list of {bullets + numbered} items"
    return False, f"no bulleted list; {_asks(k)} bullet points"


def _json(content: str, k: Instruction) -> Verdict:
    try:
        json.loads(unfenced(content))
    except (ValueError, RecursionError) as exc:  # nested past the parser's depth: not JSON
        return False, f"not valid JSON ({exc.args[0][:80]}); {_asks(k)} JSON"
    return True, "valid JSON"


def _yaml(content: str, k: Instruction) -> Verdict:
    try:
        data = yaml.safe_load(unfenced(content))
    except (yaml.YAMLError, RecursionError):  # nested past the loader's depth: not read
        return False, f"not valid YAML; {_asks(k)} YAML"
    if isinstance(data, dict | list):
        return True, "valid YAML"
    return False, f"plain text, not a YAML mapping or list; {_asks(k)} YAML"


def _fenced_parts(content: str, other: str = "") -> list[str]:
    """Where data may sit in an answer, fenced: each fenced block, less those labelled
    ``other`` (a ```json block is valid YAML, but it is the JSON given instead of YAML)."""
    return [
        b.body
        for b in fenced_blocks(content)
        if not other or (b.info.split() or [""])[0].lower() != other
    ]


#: The most parts of an answer tried as data, and the longest one tried past the whole
#: answer: a pathological answer (thousands of "{" lines) is read in bounded time.
_MAX_DATA_PARTS = 40
_MAX_PART_CHARS = 100_000


def _plain_parts(content: str) -> list[str]:
    """Where data may sit in an answer, unfenced: the whole of it, and each run of lines
    from a "key:" line (or a "{" / "[" line) to each of the next three blank lines or to
    the end, at most ``_MAX_DATA_PARTS`` parts in all."""
    parts = [unfenced(content)]
    lines = content.splitlines()
    blanks = [j for j, line in enumerate(lines) if not line.strip()]
    for i, line in enumerate(lines):
        if len(parts) >= _MAX_DATA_PARTS:
            break
        if _DATA_START.match(line):
            ends = blanks[bisect.bisect_right(blanks, i) :][:3] + [len(lines)]
            parts += ["\n".join(lines[i:j]) for j in ends]
    return [parts[0], *(p for p in parts[1:_MAX_DATA_PARTS] if len(p) <= _MAX_PART_CHARS)]


#: A line data may start at: "name: CI", "services:", "{", "[".
_DATA_START = re.compile(r"^(?:[\w.\"'-]+:(?:\s|$)|\s*[\[{]\s*$)")


def _holds(content: str, load: Callable[[str], Any], plain: Callable[[Any], bool] = bool) -> bool:
    """Whether some part of ``content`` (fenced or plain) loads as a mapping or a list; one
    outside a fenced block must also pass ``plain``."""
    fenced = _fenced_parts(content, "json" if load is yaml.safe_load else "")
    plains = _plain_parts(content) if fenced or not fenced_blocks(content) else []
    for part in [*fenced, *plains]:
        try:
            data = load(part)
        except (ValueError, yaml.YAMLError, RecursionError):
            continue
        if isinstance(data, dict | list) and data and (part in fenced or plain(data)):
            return True
    return False


#: A YAML key as configs write it: "runs-on", "image", "spring.datasource.url".
_YAML_KEY = re.compile(r"^[\w.$/-]+$")


def _yaml_shaped(data: Any) -> bool:
    """Whether YAML loaded from prose is data, not prose: a mapping whose keys are key-like
    and that has two keys or a nested value, or a list of such mappings or of single
    words. "Note: you need to set the image" and a bulleted list of sentences are prose."""
    if isinstance(data, dict):
        if not all(isinstance(key, str | int) and _YAML_KEY.match(str(key)) for key in data):
            return False
        return len(data) >= 2 or any(_yaml_shaped(v) for v in data.values())
    if isinstance(data, list):
        return all(
            _yaml_shaped(v) if isinstance(v, dict | list) else " " not in str(v) for v in data
        )
    return False


def _yaml_block(content: str, k: Instruction) -> Verdict:
    if _holds(content, yaml.safe_load, _yaml_shaped):
        return True, "holds YAML"
    return False, f"no YAML mapping or list in it; {_asks(k)} YAML"


def _json_block(content: str, k: Instruction) -> Verdict:
    if _holds(content, json.loads):
        return True, "holds JSON"
    for body in _fenced_parts(content):
        if body.lstrip().startswith(("{", "[")):  # JSON meant, but broken: say where
            try:
                json.loads(body)
            except (ValueError, RecursionError) as exc:
                why = str(exc.args[0])[:80]
                return False, f"the JSON block is not valid JSON ({why}); {_asks(k)} JSON"
    return False, f"no JSON object or array in it; {_asks(k)} JSON"


#: An indented code block: four spaces or a tab after a blank line or at the start (in
#: Markdown an indented line right under a line of text, such as a function's body under its
#: "def", continues that paragraph and renders as no code block).
_INDENTED_BLOCK = re.compile(r"(?:\A|\n[ \t]*\n)(?: {4}|\t)\S")


def _code_block(content: str, k: Instruction) -> Verdict:
    if "```" in content or "~~~" in content or _INDENTED_BLOCK.search(content):
        return True, "has a code block"
    return False, f"no code block; {_asks(k)} a code block"


def _table(content: str, k: Instruction) -> Verdict:
    if _TABLE_RULE.search(content) or content.count("\t") >= 4:
        return True, "has a table"
    return False, f"no table; {_asks(k)} a table"


def _table_only(content: str, k: Instruction) -> Verdict:
    """A table alone: every line of the answer is a row of it ("just the table, nothing
    else"); a fence around it is allowed."""
    lines = [ln.strip() for ln in unfenced(content).strip().splitlines() if ln.strip()]
    if not _TABLE_RULE.search(content):
        return False, f"no table; {_asks(k)} a table alone"
    outside = [ln for ln in lines if "|" not in ln]
    if not outside:
        return True, "only a table"
    return False, f"{plural(len(outside), 'line')} outside the table; {_asks(k)} the table alone"


#: A short line heading a group of the list's items: "Clothing:", "**Hardware**", "## Food",
#: "Pack (20-30 L)"; not an opening or closing remark ("Here you go:", "Enjoy!", "Tip: ...").
_NOT_A_HEAD = re.compile(
    r"(?:here|here's|these|this|below|sure|ok|okay|great|of|you|you'll|i|i've|tip|note|hope"
    r"|enjoy|good|happy)\b",
    re.IGNORECASE,
)


def _group_head(line: str) -> bool:
    text = line.strip().strip("#* ").removesuffix(":").strip("* ")
    return (
        0 < len(text.split()) <= 5
        and ":" not in text
        and not text.endswith((".", "!", "?"))
        and not _NOT_A_HEAD.match(text)
    )


def _list_only(content: str, k: Instruction) -> Verdict:
    """A list alone: every line of the answer is an item of it, an item's indented
    continuation or a short heading of a group of items ("Numbered list of what I need ...
    nothing else, no intro")."""
    lines = [ln for ln in unfenced(content).strip().splitlines() if ln.strip()]
    items = [ln for ln in lines if ITEM_MARKER.match(ln)]
    if not items:
        return False, f"no list; {_asks(k)} a list alone"
    outside = [
        ln
        for ln in lines
        if not ITEM_MARKER.match(ln) and not ln[:1].isspace() and not _group_head(ln)
    ]
    if not outside:
        return True, "only a list"
    return False, f"{plural(len(outside), 'line')} outside the list; {_asks(k)} the list alone"


def _format(content: str, k: Instruction) -> Verdict:
    check = _FORMAT_CHECKS.get(str(k.value))
    if check is None:
        raise ValueError(f"unknown format {k.value!r}")
    return check(content, k)


def _comma_separated(content: str, k: Instruction) -> Verdict:
    """One line of items split by commas, not a list of lines."""
    lines = [ln for ln in unfenced(content).strip().splitlines() if ln.strip()]
    if len(lines) == 1 and "," in lines[0] and not ITEM_MARKER.match(lines[0]):
        return True, "one comma-separated line"
    what = plural(len(lines), "line") if len(lines) > 1 else "no commas"
    return False, f"{what}; {_asks(k)} a comma-separated line"


def _blockquote(content: str, k: Instruction) -> Verdict:
    """Every line of text quoted with ">" (markdown's blockquote)."""
    lines = [ln.strip() for ln in content.splitlines() if ln.strip()]
    outside = [ln for ln in lines if not ln.startswith(">")]
    if lines and not outside:
        return True, "in a blockquote"
    return False, f"{plural(len(outside), 'line')} outside a blockquote; {_asks(k)} a blockquote"


#: A line of prose: five words or more ending as a sentence ends (comments aside).
_PROSE_LINE = re.compile(
    r"(?m)^(?!\s*(?:#|//|--|/\*))[^\n]*?(?:\b\w+\b[^\w\n]+){4,}\w+[.!?:][ \t]*$"
)


def _code_only(content: str, k: Instruction) -> Verdict:
    """A code block alone, or bare code with no line of prose ("just the command")."""
    if FENCE.match(content.strip()):
        return True, "only a code block"
    if "```" not in content and not _PROSE_LINE.search(content):
        return True, "only code"
    what = "text around the code block" if "```" in content else "explanation with the code"
    return False, f"{what}; {_asks(k)} the code alone"


#: Comments by the fence's language; any of the common ones where it names none.
_COMMENT_MARKERS = {
    r"(?:^|\s)#": "python py bash sh shell zsh yaml yml ruby rb r toml",
    r"(?:^|\s)//|/\*": "js javascript ts typescript java c cpp c++ go rust rs",
    r"(?:^|\s)--": "sql lua haskell hs plsql postgres mysql",
    r"(?:^|\s)'": "vba vb vbnet basic",
    r"(?:^|\s)%": "matlab latex tex erlang",
}
_COMMENT_BY_LANGUAGE = {
    language: re.compile(rx)
    for rx, languages in _COMMENT_MARKERS.items()
    for language in languages.split()
}
_ANY_COMMENT = re.compile(r"(?:^|\s)(?:#|//|--|/\*|<!--)|(?:^|\s)'\s")
#: Lines of code that carry nothing to comment: a closing bracket, a blank.
_BARE_LINE = re.compile(r"^[\s{}()\[\];,]*$")


def _commented(content: str, k: Instruction) -> Verdict:
    """Every line of the answer's main code block has a comment ("put a comment on every
    line"); a line of closing brackets may go without."""
    blocks = fenced_blocks(content)
    if blocks:
        block = max(blocks, key=lambda b: len(b.body))
        language = block.info.split()[0].lower() if block.info else ""
        lines, comment = block.body.splitlines(), _COMMENT_BY_LANGUAGE.get(language, _ANY_COMMENT)
    else:
        lines, comment = content.splitlines(), _ANY_COMMENT
    code = [ln for ln in lines if not _BARE_LINE.match(ln)]
    if not code:
        return None, "no code"
    bare = [i for i, ln in enumerate(code, 1) if not comment.search(ln)]
    if not bare:
        return True, f"a comment on every one of {plural(len(code), 'code line')}"
    return False, (
        f"{plural(len(bare), 'code line')} of {len(code)} without a comment (line {bare[0]});"
        f" {_asks(k)} a comment on every line"
    )


_FORMAT_CHECKS: dict[str, Callable[[str, Instruction], Verdict]] = {
    "json": _json,
    "yaml": _yaml,
    "yaml_block": _yaml_block,
    "json_block": _json_block,
    "code_only": _code_only,
    "code_block": _code_block,
    "blockquote": _blockquote,
    "comma_separated": _comma_separated,
    "table": _table,
    "table_only": _table_only,
    "list_only": _list_only,
    "commented": _commented,
}


def _case(content: str, k: Instruction) -> Verdict:
    letters = [c for c in content if c.isalpha()]
    if k.value == "lowercase":
        upper = [c for c in letters if c.isupper()]
        if not upper:
            return True, "all lowercase"
        return False, f"{plural(len(upper), 'capital letter')}; {_asks(k)} all lowercase"
    lower = [c for c in letters if c.islower()]
    if not lower:
        return True, "all capitals"
    return False, f"{plural(len(lower), 'lowercase letter')}; {_asks(k)} all capitals"


_CHAR_NAMES = {
    ",": "comma",
    "!": "exclamation mark",
    "?": "question mark",
    ";": "semicolon",
    ".": "full stop",
}
#: A point inside a number or a name ("2.5 kg", "example.com"), no full stop.
_INNER_POINT = re.compile(r"(?<=\w)\.(?=\w)")


def _forbidden_chars(content: str, k: Instruction) -> Verdict:
    chars = str(k.value)
    text = _INNER_POINT.sub("", content) if "." in chars else content
    found = {c: text.count(c) for c in chars if c in text}
    if not found:
        return True, f"no {', '.join(repr(c) for c in chars)}"
    c, n = next(iter(found.items()))
    name = _CHAR_NAMES.get(c, repr(c))
    return False, f"{plural(n, name)}; {_asks(k)} none"


def _word_pattern(word: str) -> str:
    """``word`` as a whole word; one that ends in a mark ("C++", "C#") may have a number
    after it ("C++11", "C#10": a version of it)."""
    end = r"(?!\w)" if re.match(r"\w", word[-1:]) else r"(?![^\W\d])"
    return rf"(?<!\w){re.escape(word)}{end}"


def _word_count(content: str, word: str) -> int:
    return len(re.findall(_word_pattern(word), content, re.IGNORECASE))


#: A name ruled out, as the request reads it: "Don't mention Target by name", "without
#: naming the client (Northwind)".
_NAME_BANNED = re.compile(
    r"^(?:do\s+not|don't|dont|never|without|avoid|refrain\s+from)\s+(?:nam(?:e|ing)\b"
    r"|(?:mention|refer|call)\w*\b[^\"“]*\bby\s+name\b)",
    re.IGNORECASE,
)


def _name_count(content: str, name: str) -> int:
    """How often the answer gives ``name`` as a name: as the request capitalises it, or in
    capitals ("Target", "TARGET", "Target's"; not "our target": a word, not the store)."""
    forms = {name, name.upper()}
    pattern = "|".join(_word_pattern(f) for f in sorted(forms, key=len, reverse=True))
    return len(re.findall(pattern, content))


def _words_of(k: Instruction) -> list[str]:
    return [k.value] if isinstance(k.value, str) else list(k.value or [])  # type: ignore[arg-type]


def _keywords(content: str, k: Instruction) -> Verdict:
    missing = [w for w in _words_of(k) if not _word_count(content, w)]
    if not missing:
        return True, f"uses {', '.join(repr(w) for w in _words_of(k))}"
    return False, f"does not use {', '.join(repr(w) for w in missing)}; {_asks(k)} it"


def _forbidden_words(content: str, k: Instruction) -> Verdict:
    named = k.inferred and _NAME_BANNED.match(k.phrase or "") is not None
    count = _name_count if named else _word_count  # a name given in capitals is a name
    used = [w for w in _words_of(k) if count(content, w)]
    if not used:
        return True, f"avoids {', '.join(repr(w) for w in _words_of(k))}"
    return False, f"uses {', '.join(repr(w) for w in used)}, which the request rules out"


def _frequency(n: int, what: str, k: Instruction) -> Verdict:
    assert k.count is not None
    want = _amount(k.relation, k.count, "time")
    if _compare(n, k.relation, k.count):
        return True, f"{what} appears {plural(n, 'time')} ({want})"
    return False, f"{what} appears {plural(n, 'time')}; {_asks(k)} {want}"


def _word_frequency(content: str, k: Instruction) -> Verdict:
    return _frequency(_word_count(content, str(k.value)), repr(k.value), k)


def _letter_frequency(content: str, k: Instruction) -> Verdict:
    letter = str(k.value).lower()
    return _frequency(content.lower().count(letter), f"the letter {letter!r}", k)


def _capital_words(content: str, k: Instruction) -> Verdict:
    caps = [w for w in LETTER_WORDS.findall(content) if len(w) > 1 and w.isupper()]
    return _frequency(len(caps), "a word in capitals", k)


#: A single quote that closes and one that opens again inside an answer: "'Paris' is the
#: capital of 'France'" is two quoted words, not one quoted answer ("'It's here'" and
#: "'The students' books'" close nothing: no quote opens after them).
_CLOSED_AND_REOPENED = re.compile(r"[^\s'‘][’'][\s,;:.!?)]+(?:[^\n]{0,200}?[\s(])?[‘'][^\s'’]")
#: What a reply of one short thing names: "reply with the slogan in single quotes".
_QUOTED_THING = re.compile(
    r"\b(slogan|tagline|motto|name|catchphrase|title|headline|one-liner|word|phrase|nickname"
    r"|hashtag|subject\s+line)\b"
)


def _single_quotes_asked(k: Instruction) -> str:
    """What a single-quote instruction asks, as its phrase says: "a reply of only the
    slogan, in single quotes" for "reply with the slogan in single quotes", else "the
    whole answer in single quotes"."""
    thing = _QUOTED_THING.search((k.phrase or "").lower())
    if thing is None:
        return f"{_asks(k)} the whole answer in single quotes"
    return f"{_asks(k)} a reply of only the {thing.group(1)}, in single quotes"


def _quoted(content: str, k: Instruction) -> Verdict:
    """The whole answer in double quotes, or in single quotes (``value`` ``single``: ' '
    or ‘ ’, a closing full stop after them aside; one pair, not two quoted words)."""
    s = content.strip()
    double = len(s) > 1 and s[0] in '"“' and s[-1] in '"”'
    if k.value != "single":
        if double:
            return True, "wrapped in double quotes"
        return False, f"not wrapped in double quotes; {_asks(k)} it"
    inner = s[:-1] if s[-1:] in ".!" else s  # "'Brew joy daily'." ends its sentence
    if len(inner) > 1 and inner[0] in "'‘" and inner[-1] in "'’":
        if _CLOSED_AND_REOPENED.search(inner[1:-1]):
            return False, f"quoted parts, not one quoted answer; {_single_quotes_asked(k)}"
        return True, "wrapped in single quotes"
    if double:
        return False, f"wrapped in double quotes; {_asks(k)} single quotes"
    return False, f"not wrapped in single quotes; {_single_quotes_asked(k)}"


#: A title line: short, not a list item, not a sentence, with the answer below it.
_TITLE_LINE = re.compile(r"^(?![-*•]\s|\d+[.)]\s)(?:#{1,6}\s+)?\S[^\n]{0,100}?(?<![.,;])$")


#: A first line in "Title: ..." form (not "Subject: ...", an email's subject line).
_TITLE_LABEL = re.compile(r"^[*_#\s]*title[*_\s]*:", re.IGNORECASE)
#: An email's subject line, which is no title: "Subject: ...", "**Subject: ...**".
_SUBJECT_LINE = re.compile(r"^[*_\s]*(?:subject|re)\s*:", re.IGNORECASE)
#: A first line that is a ``<<title>>`` or a Markdown heading.
_TITLE_MARKED = re.compile(r"^(?:<<[^<>\n]+>>|#{1,6}\s+\S)")


#: A short first line set apart in italics, HTML bold or capitals: "*The Fox*",
#: "<b>The Fox</b>", "THE FOX", "Untitled".
_TITLE_STYLED = re.compile(
    r"^(?:\*[^*\n]+\*|_[^_\n]+_|<(?:b|strong|i|em)>[^<\n]+</(?:b|strong|i|em)>"
    r"|[A-Z][A-Z0-9 '’&-]{2,}[A-Z0-9]|(?i:untitled))$"
)
#: A first line in Title Case, short and unpunctuated: "The Fox", "Winter at Dawn".
_TITLE_CASED = re.compile(r"^[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|[a-z]{1,3}))*$")


def _title_above_verse(content: str) -> str | None:
    """A short first line alone above a blank line and a body of two lines or more: its
    text, whether it is a title (``"styled"``: italics, HTML bold, capitals) or may be one
    (``"cased"``: Title Case); ``None`` otherwise."""
    text = content.strip()
    head, sep, body = text.partition("\n")
    if not sep or body.split("\n", 1)[0].strip() or len(head.split()) > 6:
        return None
    head = head.strip()
    if head[-1:] in ".,;:!?" or re.fullmatch(r"[IVXLC]+", head) or not body.strip():
        return None  # a sentence, a stanza's number ("II")
    if _TITLE_STYLED.match(head):
        return "styled"
    lines = [ln for ln in body.splitlines() if ln.strip()]
    return "cased" if len(lines) >= 2 and _TITLE_CASED.match(head) else None


def _heading_level(line: str) -> int:
    """A heading's level: 1 to 6 for "#" to "######", 7 for a line only in bold."""
    marks = len(line) - len(line.lstrip("#"))
    return marks if 0 < marks <= 6 else 7


def _first_of_sections(content: str, first: str) -> bool:
    """Whether the heading ``first`` opens the first of the answer's sections, not a title
    over them: text follows it, and a later heading is of its kind and level or higher
    ("## Set up a workspace ... ## Keep regular hours"; not "# Guide" over "## Setup")."""
    lines = [ln.strip() for ln in content.splitlines() if ln.strip()]
    if len(lines) < 3 or heading_lines(lines[1]):
        return False  # a heading alone, or one straight above the next
    level = _heading_level(first)
    later = [_heading_level(h) for h in heading_lines(content)[1:]]
    return any(lv <= level and (lv == 7) == (level == 7) for lv in later)


def _no_title(content: str, k: Instruction) -> Verdict:
    """The first line is no title: not a ``<<title>>``, a Markdown heading, a line only in
    bold ("**Spring Hike**") or "Title: ..." (a short first sentence, a greeting, an email's
    "Subject: ..." line or the heading of the first of several sections is none)."""
    first = next((ln.strip() for ln in content.splitlines() if ln.strip()), "")
    if not first:
        return None, "no text"
    bold = bold_heading(first) and not _SUBJECT_LINE.match(first)
    if (bold or re.match(r"#{1,6}\s", first)) and _first_of_sections(content, first):
        return True, f"no title line at the start (the first section's heading, {first[:60]!r})"
    if _TITLE_MARKED.match(first) or _TITLE_LABEL.match(first) or bold:
        return False, f"starts with a title ({first[:60]!r}); {_asks(k)} none"
    above = _title_above_verse(content)
    if above == "styled":
        return False, f"starts with a title line ({first[:60]!r}); {_asks(k)} none"
    if above == "cased":
        return None, f"the first line ({first[:60]!r}) may be a title"
    return True, "no title line at the start"


def _title(content: str, k: Instruction) -> Verdict:
    if k.value == "none":
        return _no_title(content, k)
    if k.value == "plain":
        lines = [line.strip() for line in content.strip().splitlines() if line.strip()]
        first = lines[0] if lines else ""
        if len(lines) > 1 and len(first.split()) <= 14 and _TITLE_LINE.match(first):
            return True, f"title {first.strip('#* ')[:60]!r}"
        return False, f"no title line above the answer; {_asks(k)} one"
    m = re.search(r"<<([^<>\n]+)>>", content)
    if m:
        return True, f"title <<{m.group(1)[:60]}>>"
    return False, f"no title in <<double angular brackets>>; {_asks(k)} one"


def _postscript(content: str, k: Instruction) -> Verdict:
    marker = str(k.value or "P.S.")
    pat = r"p\.\s?p\.\s?s" if marker.lower().replace(" ", "").startswith("p.p.s") else r"p\.\s?s\."
    if re.search(rf"(?im)^\W*{pat}", content) or re.search(rf"(?i)\s{pat}\s", content):
        return True, f"has a postscript ({marker})"
    return False, f"no postscript; {_asks(k)} one starting with {marker}"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _starts_with(content: str, k: Instruction) -> Verdict:
    want = _norm(str(k.value)).rstrip(".,!:")
    shown = _LEAD.sub("", content).split()
    have = _norm(" ".join(shown))
    if have.startswith(want):
        return True, f"starts with {k.value!r}"
    first = " ".join(shown[:6])  # quoted as written, not lower-cased
    return False, f"starts {first!r}; {_asks(k)} a start with {k.value!r}"


#: Closing lines after the end that counts: "Thanks,", "Ana", "— Sam", "#launch", "🚀".
_SIGN_OFF = re.compile(
    r"^(?:[\W_]+|#\w+(?:\s+#\w+)*|[^?\n]{1,30},|[-–—]\s*\w[\w .'-]{0,30}|[A-Z]\w*!"
    r"|[A-Z][\w'-]*\.?(?:\s+[A-Z][\w'-]*\.?){0,3})$"
)


def _question_end(content: str) -> str:
    """The end of ``content`` for "end with a question": past a sign-off, hashtags and
    emoji, up to three closing lines of at most four words each."""
    lines = [line.strip() for line in content.strip().splitlines() if line.strip()]
    for _ in range(3):
        if len(lines) < 2 or lines[-1].endswith("?") or len(lines[-1].split()) > 4:
            break
        if not _SIGN_OFF.match(lines[-1]):
            break
        lines.pop()
    last = lines[-1] if lines else ""
    return re.sub(r"(?:\s*(?:#\w+|[^\w\s?.!\"'“”)]))+$", "", last)


def _ends_with(content: str, k: Instruction) -> Verdict:
    want = _norm(str(k.value)).strip("\"'“”")
    if want == "?":
        content = _question_end(content)
    shown = content.strip().rstrip("\"'“”*_ ").split()
    have = _norm(" ".join(shown))
    bare = want.rstrip(".!?")  # "...know." ends "...know"; a bare "?" must end the answer
    # "end it with exactly: Thanks in advance." ends "...thanks in advance." either way
    if have.endswith(want) or (bare and have.rstrip(".!").endswith(bare)):
        return True, f"ends with {k.value!r}"
    last = " ".join(shown[-6:])  # quoted as written, not lower-cased
    return False, f"ends {last!r}; {_asks(k)} an ending with {k.value!r}"


_YES_NO_FIRST = re.compile(r"^(?:my answer is\s+)?(yes|no|yep|nope|yeah|nah)\b", re.IGNORECASE)


def _yes_no_first(content: str, k: Instruction) -> Verdict:
    have = _LEAD.sub("", content.strip())
    m = _YES_NO_FIRST.match(have)
    if m:
        return True, f"opens with {m.group(1)!r}"
    first = " ".join(have.split()[:5])
    return False, f"opens {first!r}; {_asks(k)} yes or no first"


def _answer_choice(content: str, k: Instruction) -> Verdict:
    options = _words_of(k)
    have = _norm(content)
    if re.match(r"(?:start|begin|open)", (k.phrase or "").lower()):
        # "start your answer with either 'OLED' or 'Mini-LED'": the verdict opens the
        # answer; the comparison after it may name both
        shown = _LEAD.sub("", content).split()
        lead = _norm(" ".join(shown))
        for o in options:
            want = _norm(o).rstrip(".")
            if want and re.match(rf"{re.escape(want)}(?!\w)", lead):
                return True, f"starts with {o!r}"
        first = " ".join(shown[:6])
        named = " or ".join(repr(o) for o in options)
        return False, f"starts {first!r}; {_asks(k)} a start with {named}"
    chosen = [
        o for o in options if re.search(rf"(?<!\w){re.escape(_norm(o).rstrip('.'))}(?!\w)", have)
    ]
    if len(chosen) > 1:
        return False, f"gives {' and '.join(repr(o) for o in chosen[:3])}; {_asks(k)} one option"
    if chosen:
        return True, f"answers {chosen[0]!r}"
    return False, f"none of the options {', '.join(repr(o) for o in options)} given"


def _repeat_prompt(content: str, k: Instruction) -> Verdict:
    want = _norm(str(k.value))
    if _norm(content).startswith(want):
        return True, "repeats the request first"
    return False, f"does not open by repeating the request word for word; {_asks(k)} it"


def _two_responses(content: str, k: Instruction) -> Verdict:
    parts = [p.strip() for p in re.split(r"\*{6}", content)]
    if len(parts) == 2 and all(parts) and parts[0] != parts[1]:
        return True, "two responses separated by ******"
    return (
        False,
        f"{plural(len([p for p in parts if p]), 'response')}; {_asks(k)} two, split by ******",
    )


def _paragraph_first_word(content: str, k: Instruction) -> Verdict:
    assert k.index is not None
    parts = [p for p in split_paragraphs(content, k.separator) if p]
    if len(parts) < k.index:
        return False, f"{plural(len(parts), 'paragraph')}; paragraph {k.index} is missing"
    words = WORDS.findall(parts[k.index - 1])
    first = words[0] if words else ""
    if first.lower() == str(k.value).lower():
        return True, f"paragraph {k.index} starts with {k.value!r}"
    return False, f"paragraph {k.index} starts with {first!r}; {_asks(k)} {k.value!r}"


#: What may stand before a heading on its line: markdown marks, a bullet, a number, an
#: emoji or an HTML tag.
_HEADING_LEAD = re.compile(r"^(?:<[^<>\n]{1,20}>|[\s#>*_\-•·|=]|\d{1,2}[.)]|[^\w\s])*")
_HEADING_TAIL = re.compile(r"^[\s*_#]*(?:$|[:\-–—(]|<|[^\w\s])")
#: A line this short that opens with the name is a heading ("Pros of remote work").
HEADING_MAX_WORDS = 8


def _is_heading(line: str, name: str) -> bool:
    text = _HEADING_LEAD.sub("", line.strip()[:300])
    if not text.lower().startswith(name.lower()):
        return False
    rest = text[len(name) :]
    if rest[:1].isalnum():
        return False  # "Prosecco" is not the heading "Pros"
    return bool(_HEADING_TAIL.match(rest)) or len(text.split()) <= HEADING_MAX_WORDS


def _headings(content: str, k: Instruction) -> Verdict:
    """Each named heading opens a line of its own (``## Spring``, ``**Spring**``,
    ``Spring:``, ``- **Spring:** ...``), in any case."""
    names = _words_of(k)
    lines = content.splitlines()
    missing = [n for n in names if not any(_is_heading(line, n) for line in lines)]
    wanted = ", ".join(repr(n) for n in names)
    if not missing:
        return True, f"headings {wanted}"
    gone = ", ".join(repr(n) for n in missing)
    return False, f"no heading {gone}; {_asks(k)} the headings {wanted}"


#: A line that opens a note on the answer: "Note:", "**Notes:**", "(Note: ...", "Translation
#: notes:", "A few notes on the translation:", "Explanation:", "Translator's note -".
_NOTE_LINE = re.compile(
    r"^[ \t]*(?:[(\[][ \t]*)?[*_]*[ \t]*"
    r"(?:(?:translator['’]?s['’]?|translation|a\s+few|some|quick|short|cultural|usage|style)\s+)?"
    r"(?:notes?|explanations?|remarks?)\b(?:[ \t]+(?:on|about)\b[^:\n]{0,60})?"
    r"[*_]*(?:[ \t]*[:：]|[ \t]+[—–-])",
    re.IGNORECASE,
)
#: A rule line that sets the end of an answer apart: "---", "***", "___".
_RULE_LINE = re.compile(r"^[ \t]*(?:-[ \t]*){3,}$|^[ \t]*(?:\*[ \t]*){3,}$|^[ \t]*(?:_[ \t]*){3,}$")
#: A whole line in italics ("*I used the formal usted ...*") or in brackets.
_ASIDE_LINE = re.compile(
    r"^[ \t]*(?:\*(?![*\s])[^*\n]*[^*\s]\*|_(?![_\s])[^_\n]*[^_\s]_|\([^\n]*\)|\[[^\n]*\])[ \t]*$"
)
#: A closing offer: "Let me know if you'd like ...", "I hope this helps", "Feel free to ...",
#: "If you'd like, I can ...", "Would you like ...".
_CLOSING = re.compile(
    r"^[ \t*_]*(?:let\s+me\s+know\b|(?:i\s+)?hope\s+(?:this|that|it)\s+helps"
    r"|feel\s+free\b|would\s+you\s+like\b|do\s+you\s+want\b|want\s+me\s+to\b|shall\s+i\b"
    r"|i\s+can\s+also\b|i(?:'d|\s+would)\s+be\s+happy\b|happy\s+to\s+help\b"
    r"|if\s+you(?:'d|\s+would)?\s+(?:like|want|prefer|need)\b[^.\n]{0,80}?\bI(?:'d|'ll|\s+can|\s+could"
    r"|\s+would|\s+will)\b)",
    re.IGNORECASE,
)
#: A lead-in before the answer proper: "Sure! Here's the Spanish version:", "Of course.".
_LEAD_OPENING = re.compile(
    r"^[ \t*_]*(?:sure|here|of\s+course|certainly|absolutely|okay|ok|gladly|no\s+problem|below)\b",
    re.IGNORECASE,
)
#: The most words of a lead-in, and of a closing offer or a remark after a rule.
_LEAD_IN_WORDS = 30
_CLOSING_WORDS = 50
#: The fewest words an answer less its asides needs to be judged alone (then its language
#: may be too little to tell); with fewer, the whole answer is judged.
_JUDGED_WORDS = 6


def _is_lead_in(text: str) -> bool:
    return 0 < count_words(text) <= _LEAD_IN_WORDS and bool(
        text.rstrip().rstrip("*_").endswith((":", "：")) or _LEAD_OPENING.match(text)
    )


def _without_asides(content: str) -> str:
    """``content`` less what an assistant says around an answer in another language: a
    lead-in ("Sure! Here's the Spanish version:"), notes ("Notes:", "(Note: ...)", a line in
    italics, what follows a closing ``---``) and a closing offer ("Let me know if ...")."""
    lines = content.strip().splitlines()
    rules = [i for i, line in enumerate(lines) if _RULE_LINE.match(line)]
    if rules:
        before, after = "\n".join(lines[: rules[-1]]), "\n".join(lines[rules[-1] + 1 :])
        if count_words(after) <= min(_CLOSING_WORDS, count_words(before) - 1):
            lines = lines[: rules[-1]]
    for i, line in enumerate(lines):
        if i and _NOTE_LINE.match(line) and count_words("\n".join(lines[:i])):
            lines = lines[:i]
            break
    lines = [line for line in lines if not _ASIDE_LINE.match(line)]
    paragraphs = [p for p in re.split(r"\n\s*\n", "\n".join(lines)) if p.strip()]
    while len(paragraphs) > 1:
        last = paragraphs[-1].splitlines()
        if not (_CLOSING.match(last[-1]) and count_words(last[-1]) <= _CLOSING_WORDS):
            break
        paragraphs[-1] = "\n".join(last[:-1])
        paragraphs = [p for p in paragraphs if p.strip()]
    if len(paragraphs) > 1 and _is_lead_in(paragraphs[0]):
        paragraphs = paragraphs[1:]
    elif paragraphs and len(first := paragraphs[0].splitlines()) > 1 and _is_lead_in(first[0]):
        paragraphs[0] = "\n".join(first[1:])
    return "\n\n".join(paragraphs)


def _language(content: str, k: Instruction) -> Verdict:
    from scoregate.scoring.language import (
        LANGUAGE_NAMES,
        clear_language,
        part_in_other_language,
        readable_text,
    )

    want = str(k.value)
    content = without_notes(readable_text(content, want))
    if k.inferred:
        # a language read from the request, not stated as a rule: what the answer says
        # around its text in another language breaks nothing, while its text still tells
        lean = _without_asides(content)
        if lean != content and (
            clear_language(lean, want) is not None or count_words(lean) >= _JUDGED_WORDS
        ):
            content = lean
    got = clear_language(content, want)
    name = LANGUAGE_NAMES.get(want, want)
    if got is None:
        return None, "too little text to tell its language"
    if got == want:
        if found := part_in_other_language(content, want):
            other, part = found
            opening = " ".join(part.split()[:6])
            other_name = LANGUAGE_NAMES.get(other, other)
            return False, f"'{opening} ...' is in {other_name}; {_asks(k)} all of it in {name}"
        return True, f"written in {name}"
    return False, f"written in {LANGUAGE_NAMES.get(got, got)}; {_asks(k)} {name}"


#: An answer asked for alone ("just the number") is a line of at most this many words...
BARE_ANSWER_WORDS = 15
#: ... and a list of them ("just the names") has no line or item longer than this.
BARE_ITEM_WORDS = 6


def _spaced_words(text: str) -> int:
    """Words split at spaces that hold a letter or digit: a dash or ``**`` is none."""
    return sum(1 for w in text.split() if WORDS.search(w))


def _bare_answer(content: str, k: Instruction) -> Verdict:
    """Only what was asked for: one line of a few words ("6 mm", "Purls of Wisdom"), or,
    for several ("just the names"), items of a few words each, with no sentence around."""
    lines = [ln for ln in content.strip().splitlines() if ln.strip()]
    words = _spaced_words(content)
    if str(k.value).endswith("s"):  # several: one per line, or one line split by commas
        items = [ITEM_MARKER.sub("", p) for ln in lines for p in ln.split(",")]
        longest = max((_spaced_words(i) for i in items), default=0)
        if longest <= BARE_ITEM_WORDS and not any(ln.rstrip().endswith(":") for ln in lines):
            return True, f"{plural(len(items), 'item')} of at most {plural(longest, 'word')}"
        return False, f"a part of {plural(longest, 'word')}; {_asks(k)} '{k.value}', nothing else"
    if len(lines) <= 1 and words <= BARE_ANSWER_WORDS:
        return True, f"{plural(words, 'word')} on one line"
    said = plural(len(lines), "line") if len(lines) > 1 else plural(words, "word")
    return False, f"{said}; {_asks(k)} '{k.value}', nothing around it"


def _objects(data: Any, depth: int = 0) -> list[dict[str, Any]]:
    """The JSON objects that hold the records: each object of the top list, or the records
    a one-key top object wraps ({"groceries": [...]}), else the top object itself."""
    if isinstance(data, list):
        return [x for x in data if isinstance(x, dict)]
    if not isinstance(data, dict):
        return []
    if depth == 0 and len(data) == 1:
        wrapped = _objects(next(iter(data.values())), 1)
        if wrapped:
            return wrapped
    return [data]


def _json_keys(content: str, k: Instruction) -> Verdict:
    """Every record of the JSON answer has the keys the request names."""
    want = [str(key) for key in k.value] if isinstance(k.value, list) else []
    try:
        data = json.loads(unfenced(content))
    except (ValueError, RecursionError):
        return None, "not valid JSON, so its keys cannot be read"
    records = _objects(data)
    if not records:
        return False, f"no JSON object; {_asks(k)} keys {', '.join(want)}"
    if all(key in r for r in records for key in want):
        return True, f"has the keys {', '.join(want)}"
    missing = next(key for r in records for key in want if key not in r)
    return False, f"no key '{missing}'; {_asks(k)} the keys {', '.join(want)}"


def _json_array(content: str, k: Instruction) -> Verdict:
    """Every record of the JSON answer holds, under the key the request names, an array of
    the size it asks for ('"tips" (array of exactly 3 short strings)')."""
    key, n = str(k.value), k.count if k.count is not None else 0
    try:
        data = json.loads(unfenced(content))
    except (ValueError, RecursionError):
        return None, "not valid JSON, so its arrays cannot be read"
    arrays = [r[key] for r in _objects(data) if isinstance(r.get(key), list)]
    if not arrays:
        return None, f"no array under '{key}' to count"
    sizes = [len(a) for a in arrays]
    said = " and ".join(str(size) for size in dict.fromkeys(sizes))
    want = _amount(k.relation, n, "item")
    if all(_compare(size, k.relation, n) for size in sizes):
        return True, f"'{key}' holds {said} items, as asked ({want})"
    return False, f"'{key}' holds {said} items; {_asks(k)} {want}"


#: Header words that name a column by another word: "Cost (USD)" is the price column.
_COLUMN_SYNONYMS = {
    "price": ("cost", "usd", "gbp", "eur", "rrp"),
    "cost": ("price", "usd", "gbp", "eur"),
    "quantity": ("qty", "amount"),
    "amount": ("qty", "quantity", "total"),
    "date": ("day", "when"),
    "time": ("when", "hour"),
    "owner": ("who", "assignee", "person"),
    "weight": ("kg", "lbs", "mass"),
    "distance": ("km", "miles", "length"),
    "duration": ("time", "length", "mins", "minutes", "hours"),
    "often": ("frequency",),
    "notes": ("comments", "remarks", "details"),
    # "Use" is met by "What it's for", "Purpose"
    "use": ("for", "purpose", "used", "job"),
    "check": ("inspect", "test", "look"),
    "pound": ("lb", "lbs"),
    "hotel": ("lodging", "accommodation", "stay"),
    "percentage": ("pct",),
}
#: Words of a column's name that name nothing to look for in a header.
_COLUMN_FILLER = frozenset(
    "the a an of for and per to how what who which its it is your my you d i we".split()
)


def _table_columns(content: str, k: Instruction) -> Verdict:
    """The answer's table has a column for each name the request gives: a word of the name
    in a header cell ("battery life" is met by "Battery (hrs)")."""
    want = [str(c) for c in k.value] if isinstance(k.value, list) else []
    lines = content.splitlines()
    rule = _TABLE_RULE.search(content)
    if rule is None:
        return None, "no table, so its columns cannot be read"
    at = content[: rule.start()].count("\n")
    header = lines[at - 1] if at >= 1 else ""
    cells = {stem(w) for w in re.findall(r"[a-z0-9]+", header.lower())}

    def named(word: str) -> bool:
        """A header word is the word, its synonym, or cut short of it ("Temp", "Min")."""
        forms = {stem(v) for v in (word, *_COLUMN_SYNONYMS.get(word, ()))}
        return bool(forms & cells) or any(len(c) >= 3 and word.startswith(c) for c in cells)

    missing = [
        name
        for name in want
        if not any(
            named(w) for w in re.findall(r"[a-z0-9]+", name.lower()) if w not in _COLUMN_FILLER
        )
    ]
    if not missing:
        return True, f"has the columns {', '.join(want)}"
    return False, f"no '{missing[0]}' column; {_asks(k)} the columns {', '.join(want)}"


#: How an element the request names shows in an answer.
_ELEMENT_FORMS = {
    "complexity": re.compile(
        r"\b[Oo]\([^)\n]{1,20}\)|[Θθ]\(|\bcomplexity\b"
        r"|\b(?:linear|constant|logarithmic|quadratic)(?:[- ]time)?\b",
        re.IGNORECASE,
    ),
    "price": MONEY,
}


def _first_list_items(content: str) -> list[str]:
    """The items of the answer's first list, each with the lines that carry it on (an
    indented "Price: about $130", a sub-bullet), up to the first line that is neither."""
    items: list[str] = []
    for line in content.splitlines():
        if is_item(line) and not line[:1].isspace():
            items.append(line)
        elif items and line.strip() and line[:1].isspace():
            items[-1] += "\n" + line
        elif items and line.strip():
            break  # the list is over ("Notes:", a closing paragraph)
    return items


def _mentions(content: str, k: Instruction) -> Verdict:
    """An element the answer must give, by its form: a complexity ("O(n)"), a price
    ("$45"); "the price of each": in every item of the answer's first list."""
    value = str(k.value)
    form = _ELEMENT_FORMS[value.split()[0]]
    noun = "a complexity" if value == "complexity" else "a price"
    if value == "price of each":
        items = _first_list_items(content)
        if len(items) >= 2:
            bare = [i for i, item in enumerate(items, 1) if not form.search(item)]
            if not bare:
                return True, f"{noun} in every item"
            return False, f"item {bare[0]} gives no price; {_asks(k)} the price of each"
    if form.search(content):
        return True, f"gives {noun}"
    return False, f"gives no {noun.removeprefix('a ')}; {_asks(k)} {value}"


#: A line that only rules off: "---", "***", "___".
_RULE_LINE = re.compile(r"^\s*(?:[-*_]\s*){3,}$")


def _closing_line(content: str, k: Instruction) -> Verdict:
    """The last line (a rule under it aside) opens with the words asked for ("TL;DR:",
    "Bottom line:"), its list marker and emphasis aside, as whole words."""
    lines = [ln for ln in content.strip().splitlines() if ln.strip() and not _RULE_LINE.match(ln)]
    if not lines:
        return None, "no text"
    last = _LEAD.sub("", ITEM_MARKER.sub("", lines[-1])).lower()
    want = str(k.value).lower().rstrip(":")
    if re.match(rf"{re.escape(want)}(?!\w)", last):
        return True, f"last line opens with {k.value!r}"
    opens = lines[-1].strip()[:30]
    return False, f"last line opens {opens!r}; {_asks(k)} a last line opening with {k.value!r}"


def _line_template(content: str, k: Instruction) -> Verdict:
    """Every line written in the template's form has as many parts, split by the
    template's own separator, as the template ("Codenames – 4-8 – 15 min" for "Game –
    players – time"); the list's items when the answer is a list, else every line with
    the separator but a lead-in ("Here you go – eight games:")."""
    template = str(k.value)
    sep = re.search(r"\s([–—|-])\s", template)
    if sep is None:
        return None, "no separator in the template"
    parts = re.compile(rf"\s+{re.escape(sep.group(1))}\s+")
    want = len(parts.split(template))
    items = list_items(content)
    if len(items) < 2:
        items = [ITEM_MARKER.sub("", ln) for ln in content.splitlines()]
    lines = [ln.strip() for ln in items if parts.search(ln) and not ln.strip().endswith(":")]
    if not lines:
        return False, f"no line in the form {template!r}; {_asks(k)} it"
    for i, line in enumerate(lines, 1):
        n = len(parts.split(line))
        if n != want:
            return False, f"line {i} has {n} parts ({line[:40]!r}); {_asks(k)} {want}: {template!r}"
    return True, f"{plural(len(lines), 'line')} in the form {template!r}"


def _stdlib_only(content: str, k: Instruction) -> Verdict:
    """The answer's code imports and installs nothing outside the standard library."""
    found = third_party(content)
    if found:
        what = ", ".join(found[:3]) + (" ..." if len(found) > 3 else "")
        return False, f"uses {what}; {_asks(k)} the standard library only"
    if not fenced_blocks(content):
        return None, "no code"
    return True, "standard library only"


def _translation(content: str, k: Instruction) -> Verdict:
    """The answer translates all of the text ``value``: every number kept, most names kept,
    about its length, no sentence dropped (``translation.translation_fault``)."""
    fault = translation_fault(str(k.value), content)
    if fault is not None:
        return False, fault
    return True, "keeps the text's numbers, names and sentences"


_CHECKS: dict[str, Callable[[str, Instruction], Verdict]] = {
    "count": _count,
    "list_form": _list_form,
    "format": _format,
    "case": _case,
    "forbidden_chars": _forbidden_chars,
    "keywords": _keywords,
    "forbidden_words": _forbidden_words,
    "word_frequency": _word_frequency,
    "letter_frequency": _letter_frequency,
    "capital_words": _capital_words,
    "quoted": _quoted,
    "title": _title,
    "postscript": _postscript,
    "starts_with": _starts_with,
    "ends_with": _ends_with,
    "yes_no_first": _yes_no_first,
    "answer_choice": _answer_choice,
    "language": _language,
    "repeat_prompt": _repeat_prompt,
    "two_responses": _two_responses,
    "paragraph_first_word": _paragraph_first_word,
    "headings": _headings,
    "json_keys": _json_keys,
    "json_array": _json_array,
    "table_columns": _table_columns,
    "bare_answer": _bare_answer,
    "mentions": _mentions,
    "closing_line": _closing_line,
    "line_template": _line_template,
    "stdlib_only": _stdlib_only,
    "translation": _translation,
    "rhyme": check_rhyme,
}


#: Counts a pair of quotes around the whole answer would hide a list's first marker from:
#: "'- Red\n- Yellow\n- Blue'" is a list of three (characters count the quotes).
_UNQUOTED_COUNTS = frozenset({"list_form", "count"})
_KEPT_QUOTES = frozenset({"characters", "item_characters"})
_QUOTE_PAIRS = {"'": "'", "‘": "’", '"': '"', "“": "”"}


def _inside_quotes(content: str, k: Instruction) -> str:
    """``content`` without a pair of quotes around all of it, for a list's or a count's
    check ("wrap the whole answer in single quotes" and "as a bulleted list")."""
    if k.check not in _UNQUOTED_COUNTS or k.unit in _KEPT_QUOTES:
        return content
    s = content.strip()
    if "\n" in s and len(s) > 2 and _QUOTE_PAIRS.get(s[0]) == s[-1]:
        return s[1:-1]
    return content


def check_instruction(content: str, k: Instruction) -> Verdict:
    """``(passed, detail)``; ``passed`` is ``None`` when the answer gives nothing to judge."""
    return _CHECKS[k.check](_inside_quotes(content, k), k)


def describe(k: Instruction) -> str:
    """A short label: "exactly 3 bullet points", "all lowercase", "ends with 'Cheers'"."""
    if k.check == "count" and k.unit is not None and isinstance(k.value, int):
        noun = _verse_noun(k) if k.unit == "stanzas" else _UNIT_NOUN[k.unit]
        amount = _amount(k.relation, k.value, noun)
        return f"no {noun}s" if amount == "none" else amount
    value: Any = k.value
    if k.check == "quoted" and value == "single":
        return "quoted in single quotes"
    if k.check in ("word_frequency", "letter_frequency", "capital_words"):
        what = f"{value!r}" if value else "capital words"
        if k.relation == "at_most" and k.count == 0:
            return f"no {what}"
        return f"{what} {_amount(k.relation, k.count or 0, 'time')}"
    if k.check == "title" and value == "none":
        return "no title"
    if k.check == "rhyme":
        return "no rhymes" if value == "none" else "rhyming"
    if isinstance(value, list):
        value = ", ".join(value)
    return f"{k.check.replace('_', ' ')} {value}" if value else k.check.replace("_", " ")

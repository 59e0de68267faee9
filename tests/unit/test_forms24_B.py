"""Form instructions read in the twenty-fourth session (B): no headings, no title, and a
count of poems or stanzas ("write 3 haikus"); each phrasing read, the near misses not
read, answers that pass and fail, and the reasons."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.counting import heading_lines, verse_blocks
from scoregate.scoring.instruction_rules import infer_instructions
from scoregate.scoring.instructions import check_instruction, describe
from scoregate.scoring.request_analysis import analyze


def _only(query: str, check: str, unit: str | None = None) -> Instruction:
    found = [
        k
        for k in infer_instructions(query)
        if k.check == check and (unit is None or k.unit == unit)
    ]
    assert len(found) == 1, (query, infer_instructions(query))
    return found[0]


def _none(query: str, check: str, unit: str | None = None) -> None:
    found = [
        k
        for k in infer_instructions(query)
        if k.check == check and (unit is None or k.unit == unit)
    ]
    assert not found, (query, found)


# --- no headings -------------------------------------------------------------------------

NO_HEADINGS = [
    ("Explain how DNS works. Don't use any headings.", "don't use any headings"),
    ("Explain DNS, no headers please.", "no headers"),
    ("Explain DNS without section headings.", "without section headings"),
    ("Explain DNS. Skip the headings.", "skip the headings"),
    ("Explain DNS. No markdown headings.", "no markdown headings"),
    ("Write it as plain prose: no lists, no headings.", "no headings"),
    ("Explain DNS. I don't want headings.", "don't want headings"),
    (
        "Keep it to one short paragraph with no bullet points or headings.",
        "no bullet points or headings",
    ),
]


@pytest.mark.parametrize(("query", "phrase"), NO_HEADINGS)
def test_no_headings_is_read(query: str, phrase: str) -> None:
    k = _only(query, "count", "headings")
    assert (k.relation, k.value, k.phrase) == ("at_most", 0, phrase)
    assert describe(k) == "no headings"


@pytest.mark.parametrize(
    "query",
    [
        "Add headings to this text.",
        "My blog post has no headings, can you add some?",  # the asker's own text
        "How do I print a CSV without headers in pandas?",  # a CSV's header row
        "Send a GET request without headers using curl.",  # HTTP headers
        "Export the sheet with no header row.",
        "Write a cover letter with no headers or footers.",  # a page's headers
        "Explain DNS with no headings except the title.",  # some are allowed
        "Write a poem, no header.",  # a header, singular: a letterhead, a page header
        "What's the difference between headings and headers in Word?",
        "No jargon, headings are fine.",
        "No more than 3 headings.",  # a count, not none
    ],
)
def test_no_headings_near_misses_are_not_read(query: str) -> None:
    _none(query, "count", "headings")


def test_no_headings_is_an_instruction_not_an_exclusion() -> None:
    a = analyze("Explain how DNS works. Don't use any headings.")
    assert [k.unit for k in a.instructions] == ["headings"]
    assert not a.exclusions
    # where it is not read, it stays the excluded form item it was
    csv = analyze("Export the CSV without headers.")
    assert [e.item for e in csv.exclusions] == ["headers"]


def test_no_headings_fails_with_the_headings_named() -> None:
    k = _only("Explain DNS. Don't use any headings.", "count", "headings")
    answer = "## Setup\nInstall it.\n\n## Usage\nRun it."
    assert check_instruction(answer, k) == (
        False,
        "2 headings ('## Setup', '## Usage'); the request asks for none",
    )
    bold = "**How it works**\n\nDNS maps names to addresses."
    assert check_instruction(bold, k) == (
        False,
        "1 heading ('**How it works**'); the request asks for none",
    )
    assert check_instruction("**Setup:**\nRun it.", k)[0] is False


@pytest.mark.parametrize(
    "answer",
    [
        "DNS maps names to addresses. Your resolver asks the root, then the TLD servers.",
        # a list item that opens with a bold term is no heading
        "DNS has parts:\n\n- **Resolver:** asks for you\n- **Root:** knows the TLDs",
        # nor a line with a bold label and text after it, nor a sentence in bold
        "**Note:** it caches answers.\n\n**Back up your zone file first.**",
        # nor a comment in code
        "Try this:\n```bash\n# query the root\ndig . NS\n```",
        "#hashtag is no heading",
    ],
)
def test_no_headings_passes_an_answer_without_headings(answer: str) -> None:
    k = _only("Explain DNS. Don't use any headings.", "count", "headings")
    assert check_instruction(answer, k) == (True, "no headings")


def test_heading_lines() -> None:
    text = "# A\ntext\n   ### B\n**C:**\n__D__\n- **E:** more\n**F.**\n```\n# code\n```"
    assert heading_lines(text) == ["# A", "### B", "**C:**", "__D__"]


# --- no title ----------------------------------------------------------------------------

NO_TITLE = [
    ("Write a short story about a fox without a title.", "without a title"),
    ("Write a poem about rain, no title.", "no title"),
    ("Write a poem about rain. Skip the title.", "skip the title"),
    ("Write a poem about rain and don't give it a title.", "don't give it a title"),
    ("Write a poem about rain and don't put a title on it.", "don't put a title on it"),
    ("Write a poem about rain. Do not include a title.", "do not include a title"),
    ("Write a poem about rain, don't title it.", "don't title it"),
    ("Write a poem, no title please.", "no title"),
    ("Write a poem, no title - just the verses.", "no title"),
]


@pytest.mark.parametrize(("query", "phrase"), NO_TITLE)
def test_no_title_is_read(query: str, phrase: str) -> None:
    k = _only(query, "title")
    assert (k.value, k.phrase) == ("none", phrase)
    assert describe(k) == "no title"
    assert not analyze(query).exclusions  # an instruction now, not an excluded word


@pytest.mark.parametrize(
    "query",
    [
        "Suggest a title for my essay.",
        "What's the title of that song?",
        "Format the heading in title case, no title case for the body.",
        "Write a story about a boxer, no title fight scenes.",
        "Write about a house sale without a title deed.",
        "Write a story about a book with no title.",  # the title is the story's
        "Write a story about a king without a title.",
        "The song has no title, can you write lyrics for it?",
        "Write a short note to John Smith, sign it Priya, no title.",  # an honorific
        "Give me a title and then 5 bullet points on composting.",  # asks for one
        "Write headings with no title-case words.",
        "Why does my html page show no title in the browser tab?",  # a page's <title>
        "Why does my poem have no title?",  # the asker's own
    ],
)
def test_no_title_near_misses_are_not_read(query: str) -> None:
    assert not [k for k in infer_instructions(query) if k.check == "title" and k.value == "none"]


@pytest.mark.parametrize(
    ("answer", "first"),
    [
        ("# Spring Hike\n\nWe climbed at dawn.", "# Spring Hike"),
        ("<<Rain>>\n\nRain on the roof", "<<Rain>>"),
        ("**Rain**\nRain on the roof", "**Rain**"),
        ("Title: Rain\n\nRain on the roof", "Title: Rain"),
    ],
)
def test_no_title_fails_an_answer_with_a_title(answer: str, first: str) -> None:
    k = _only("Write a poem about rain, no title.", "title")
    assert check_instruction(answer, k) == (
        False,
        f"starts with a title ({first!r}); the request asks for none",
    )


@pytest.mark.parametrize(
    "answer",
    [
        "Rain on the roof\nsoft and slow",  # a short first line is no title
        "Hi Sam,\n\nThe meeting moved to Thursday.",  # a greeting
        "Subject: Thursday's meeting\n\nHi Sam,\n\nIt moved.",  # an email's subject line
        "**Subject: Thursday**\n\nHi Sam,",
        "**Back up first.** Then run the update.",
    ],
)
def test_no_title_passes_an_answer_without_one(answer: str) -> None:
    k = _only("Write an email to Sam, no title.", "title")
    assert check_instruction(answer, k) == (True, "no title line at the start")


def test_no_title_cannot_judge_an_empty_answer() -> None:
    k = _only("Write a poem, no title.", "title")
    assert check_instruction("  \n", k)[0] is None


# --- a count of poems or stanzas ---------------------------------------------------------

VERSE = [
    ("Write 3 haikus about rain.", "exactly", 3, "haiku"),
    ("Write 3 haiku about rain.", "exactly", 3, "haiku"),
    ("Write two limericks about my cat.", "exactly", 2, "limerick"),
    ("Write a poem with four stanzas about autumn.", "exactly", 4, "stanza"),
    ("Write a 4-stanza poem about the sea.", "exactly", 4, "stanza"),
    ("Write 3 quatrains about winter.", "exactly", 3, "quatrain"),
    ("Can you write me 3 haikus about rain?", "exactly", 3, "haiku"),
    ("Write at least 4 limericks.", "at_least", 4, "limerick"),
    ("The poem should have 3 stanzas.", "exactly", 3, "stanza"),
    ("3 haikus about autumn please", "exactly", 3, "haiku"),
]


@pytest.mark.parametrize(("query", "relation", "value", "noun"), VERSE)
def test_a_count_of_poems_or_stanzas_is_read(
    query: str, relation: str, value: int, noun: str
) -> None:
    k = _only(query, "count", "stanzas")
    assert (k.relation, k.value) == (relation, value)
    assert describe(k).endswith(f"{value} {noun}s")
    # not a count of list items too
    assert not [i for i in infer_instructions(query) if i.unit in ("items", "numbered")]


@pytest.mark.parametrize(
    "query",
    [
        "Write a haiku about rain.",  # one: the norm, not worth the risk
        "Give me 5 short verses about the sea.",  # verses: a song's, or poems of stanzas
        "Write a song with 3 verses and a chorus.",
        "Write 3 poems about the sea.",  # a poem may have stanzas of its own
        "Write 2 sonnets about love.",
        "Write 3 haikus and 2 limericks.",  # two kinds
        "Write 3 haikus and a limerick.",
        "Write a poem with 4 stanzas and a refrain.",
        "Write 3 haikus for each season.",  # per season
        "I have 3 haikus, which is best?",  # the asker's own
        "Rate these 3 haikus I wrote.",
        "Here are 2 limericks I wrote; which rhymes better?",
        "Give me 5 limerick ideas.",  # ideas: a list of 5
        "List 3 haiku poets.",
        # two_responses reads it
        "Give two different limericks, separated by 6 asterisk symbols (******).",
    ],
)
def test_a_count_of_poems_near_misses_are_not_read(query: str) -> None:
    _none(query, "count", "stanzas")


def test_limerick_ideas_are_still_a_list_of_five() -> None:
    k = _only("Give me 5 limerick ideas.", "count", "items")
    assert (k.relation, k.value) == ("exactly", 5)


HAIKU = ("Soft rain on the roof", "whispers to the sleeping town", "puddles hold the sky")


def _haikus(n: int, sep: str = "\n\n", head: str = "") -> str:
    return sep.join(head.format(i=i + 1) + "\n".join(HAIKU) for i in range(n))


@pytest.mark.parametrize(
    "answer",
    [
        _haikus(3),
        "Here are three haikus about rain:\n\n" + _haikus(3) + "\n\nHope you enjoy them!",
        _haikus(3, head="{i}.\n"),  # a number on its own line
        _haikus(3, sep="\n", head="**Haiku {i}**\n"),  # titled, no blank line between
        _haikus(3, head="<<Rain {i}>>\n"),
        _haikus(3, sep="\n***\n"),
        "\n".join(f"{i}. {HAIKU[0]}\n{HAIKU[1]}\n{HAIKU[2]}" for i in (1, 2, 3)),  # numbered
        _haikus(3, head="Haiku {i}:\n"),
    ],
)
def test_three_haikus_pass_in_each_shape(answer: str) -> None:
    k = _only("Write 3 haikus about rain.", "count", "stanzas")
    assert check_instruction(answer, k) == (
        True,
        "3 haikus, as asked (exactly 3 haikus)",
    )


def test_two_haikus_fail_with_the_reason() -> None:
    k = _only("Write 3 haikus about rain.", "count", "stanzas")
    assert check_instruction(_haikus(2, head="{i}.\n"), k) == (
        False,
        "2 haikus (blocks of 2 or more lines: 'Soft rain on the…', 'Soft rain on the…');"
        " the request asks for exactly 3",
    )
    assert check_instruction(_haikus(4), k)[0] is False


def test_haikus_on_one_line_each_are_a_poem_each() -> None:
    k = _only("Write 3 haikus about rain.", "count", "stanzas")
    answer = "\n\n".join(" / ".join(HAIKU) for _ in range(3))
    assert check_instruction(answer, k) == (True, "3 haikus, as asked (exactly 3 haikus)")
    assert check_instruction("Rain, rain.", k) == (
        None,
        "no block of 2 or more lines to count as a haiku",
    )


def test_a_poem_of_four_stanzas() -> None:
    k = _only("Write a poem with four stanzas about autumn.", "count", "stanzas")
    stanza = "Leaves let go of light\nand drift to the waiting ground\nthe year exhales slow"
    poem = "**Autumn**\n\n" + "\n\n".join([stanza] * 4)
    assert check_instruction(poem, k)[0] is True
    assert check_instruction("\n\n".join([stanza] * 3), k) == (
        False,
        "3 stanzas (blocks of 2 or more lines: 'Leaves let go of…', 'Leaves let go of…',"
        " 'Leaves let go of…'); the request asks for exactly 4",
    )


def test_verse_blocks_leave_out_prose() -> None:
    prose = (
        "This is a long paragraph of prose that explains how the poems were written and why"
        " they are about rain.\nAnd a second long line of prose that keeps on going and on"
        " for many more words than a line of verse has."
    )
    assert verse_blocks(prose + "\n\n" + _haikus(2)) == [3, 3]


def test_a_user_given_stanza_count_reads_stanzas() -> None:
    k = Instruction(check="count", unit="stanzas", relation="at_least", value=2)
    assert describe(k) == "at least 2 stanzas"
    assert check_instruction(_haikus(2), k)[0] is True
    headings = Instruction(check="count", unit="headings", relation="exactly", value=2)
    assert check_instruction("# A\ntext\n\n# B\ntext", headings) == (
        True,
        "2 headings ('# A', '# B') (exactly 2 headings)",
    )

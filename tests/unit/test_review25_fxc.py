"""Review 25, R2, mended in fx25c: a name ruled out is matched as a name ("our target" is
no mention of Target), a ban of a part after a comma ("the supplier, Brightline, in the
subject line") and bans the request only tells of ("characters never name Voldemort") are
not read, a program's output is no count of the answer's words ("a script that says Hello
three times"), bold section labels are no bold key terms, the first of several section
headings is no title, "C++11" is a mention of C++; and the phrasings that were missed:
"our client Northwind by name", "refrain from mentioning", "my roommate (Tom)", "the
sender, John Smith", "bold only 3-5 key terms", a bold request after a question, "haiku
x3, no title", "3 x haiku", "a couple haikus", "no need to add a title"; "a trio of haiku
masters" is no count of poems."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.constraints import Instruction
from scoregate.scoring.request_analysis import inferred_constraints
from scoregate.scoring.reward import evaluate_constraint

CFG = load_scoring_config().reward


def _read(query: str, check: str, unit: str | None = None) -> list[Instruction]:
    return [
        k
        for k in inferred_constraints(query)
        if isinstance(k, Instruction) and k.check == check and (unit is None or k.unit == unit)
    ]


def _passes(answer: str, k: Instruction) -> bool | None:
    return evaluate_constraint(answer, k, CFG).passed


def _all_pass(answer: str, found: list[Instruction]) -> bool:
    return all(_passes(answer, k) for k in found)


# --- 1. a name ruled out is matched as the request writes it --------------------------------

NAME_AND_WORD = [
    (
        "Write a short ad for our store's summer sale. Don't mention Target by name.",
        "Summer savings are here! Our target: your lowest prices of the year.",
        ["Shop smarter than at Target.", "Skip TARGET this year.", "Forget Target's prices."],
    ),
    (
        "Write an ad for our phone. Don't mention Apple by name.",
        "Sweeter than apple pie, faster than any rival.",
        ["Faster than Apple's best."],
    ),
    (
        "Write a poem for my friend. Don't mention Mark by name; he hates that.",
        "Let me mark this day, friend: you shine.",
        ["Dear Mark, you shine."],
    ),
]


@pytest.mark.parametrize(("query", "good", "bad"), NAME_AND_WORD)
def test_a_name_ruled_out_is_matched_as_a_name(query: str, good: str, bad: list[str]) -> None:
    (k,) = _read(query, "forbidden_words")
    assert _passes(good, k)
    for answer in bad:
        assert not _passes(answer, k), answer


def test_words_ruled_out_still_match_in_any_case() -> None:
    (k,) = _read('Write a review. Don\'t use the word "Delicious".', "forbidden_words")
    assert not _passes("The soup was delicious.", k)


# --- 2. a ban of one part, after a role and a comma ------------------------------------------

PART_BANS = [
    "Draft a short announcement email to staff about our new packaging supplier. "
    "Do not name the supplier, Brightline, in the subject line.",
    "Write the update. Don't name the vendor, Brightline, in the headline.",
    "Write the report. Do not name the contractor, Brightline, as the culprit.",
    "Write the story and don't name the client, Northwind, until the last paragraph.",
]


@pytest.mark.parametrize("query", PART_BANS)
def test_a_ban_of_one_part_is_not_read(query: str) -> None:
    assert not _read(query, "forbidden_words"), inferred_constraints(query)


def test_the_part_ban_answer_passes() -> None:
    query = PART_BANS[0]
    answer = (
        "Subject: New packaging supplier from next month\n\nHi all,\n\nFrom 1 March our "
        "packaging will come from Brightline. Please send any questions to operations.\n\n"
        "Thanks,\nMaya"
    )
    assert all(_passes(answer, k) for k in _read(query, "forbidden_words"))


@pytest.mark.parametrize(
    "query",
    [
        "Write the update; do not name the vendor, Brightline, in the email.",
        "Write the update; do not name the vendor, Brightline, in any way.",
        "Write the update; do not name the vendor, Brightline, anywhere.",
    ],
)
def test_a_ban_on_the_whole_answer_after_a_comma_is_read(query: str) -> None:
    assert [k.value for k in _read(query, "forbidden_words")] == [["Brightline"]]


# --- 3. bans the request tells of ------------------------------------------------------------

TOLD_BANS = [
    "Explain why Harry Potter characters never name Voldemort.",
    "Apple's ads avoid naming Samsung. Write a short analysis of that strategy.",
    "Politicians often avoid mentioning Brexit by name. Explain why.",
    "Journalists often avoid naming Acme. Explain why in a paragraph.",
    "Politicians and journalists never name Acme. Why?",
    "Why do some reporters refrain from naming Acme?",
    "Many journalists refrain from mentioning Acme by name. Explain why.",
]


@pytest.mark.parametrize("query", TOLD_BANS)
def test_a_ban_told_of_is_not_read(query: str) -> None:
    assert not _read(query, "forbidden_words"), inferred_constraints(query)


ASKED_BANS = [
    ("Write a blurb and don't mention Acme by name.", ["Acme"]),
    ("Write a blurb, and please never name Acme.", ["Acme"]),
    ("IMPORTANT: do not mention Acme by name.", ["Acme"]),
    ("Write a blurb. Obviously don't mention Acme by name.", ["Acme"]),
    ("Write a blurb. Try to avoid naming Acme.", ["Acme"]),
    ("Write the ad.\n- Don't mention Acme by name\n- Keep it short", ["Acme"]),
    ("Write the ad.\n1. Don't mention Acme by name\n2. Keep it short", ["Acme"]),
    ("My boss said don't mention Acme by name. Write the post.", ["Acme"]),
    ("You can mention Acme, just don't mention Globex by name.", ["Globex"]),
    ("Write a case study. Please avoid naming Initech.", ["Initech"]),
]


@pytest.mark.parametrize(("query", "names"), ASKED_BANS)
def test_a_ban_asked_for_is_still_read(query: str, names: list[str]) -> None:
    assert [k.value for k in _read(query, "forbidden_words")] == [names]


# --- the ways of banning a name that were missed ---------------------------------------------

MISSED_BANS = [
    (
        "Write a short case study about our rollout. Don't mention our client Northwind by name.",
        ["Northwind"],
        "Northwind cut costs by 20%.",
    ),
    ("Write a blurb. Refrain from mentioning Acme by name.", ["Acme"], "Acme is great."),
    (
        "Write a complaint to my landlord without naming my roommate (Tom).",
        ["Tom"],
        "Tom is loud.",
    ),
    (
        "Summarize the email but don't name the sender, John Smith, anywhere.",
        ["John Smith"],
        "John Smith wrote that the order is late.",
    ),
]


@pytest.mark.parametrize(("query", "names", "bad"), MISSED_BANS)
def test_more_ways_of_banning_a_name(query: str, names: list[str], bad: str) -> None:
    (k,) = _read(query, "forbidden_words")
    assert k.value == names
    assert not _passes(bad, k)
    assert _passes("The client cut costs by 20%.", k)


@pytest.mark.parametrize(
    "query",
    [
        "Help me pick a name for my startup. Don't name the company Acme.",  # what to call it
        "Don't mention our client Northwind.",  # a topic left aside
        "Write a case study about our client Northwind.",
    ],
)
def test_a_role_and_a_name_without_a_ban_on_the_name(query: str) -> None:
    assert not _read(query, "forbidden_words"), inferred_constraints(query)


# --- 4. what a program says ------------------------------------------------------------------

PROGRAM_OUTPUT = [
    "Write a Python script that says Hello three times.",
    "Write a program that says Hello World twice.",
    "Write a Bash script that says Done twice.",
    "Write a bash script that will say Done twice.",
    "Write a script to say Hello three times.",
    "Make a bot which says Hi twice.",
    "Write a joke about a cat that says Meow twice.",
    "Write a short story with a parrot who says Hello three times.",
]


@pytest.mark.parametrize("query", PROGRAM_OUTPUT)
def test_a_programs_output_is_no_word_count(query: str) -> None:
    assert not _read(query, "word_frequency"), inferred_constraints(query)


def test_the_program_answer_passes() -> None:
    query = "Write a Python script that says Hello three times."
    answer = '```python\nfor _ in range(3):\n    print("Hello")\n```\n\nThis loops three times.'
    assert _all_pass(answer, [k for k in inferred_constraints(query) if isinstance(k, Instruction)])


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ("Write a tweet that mentions Nike exactly once.", "Nike"),
        ("Write a poem for my mom that mentions Paris twice.", "Paris"),
        ("Write a haiku about Berlin that mentions Berlin exactly once.", "Berlin"),
        ("Write a poem about my dog that mentions Rex twice.", "Rex"),
        ("Write a toast for the class that mentions Sam twice.", "Sam"),
        ("Write an ad and say Lumio twice.", "Lumio"),
    ],
)
def test_counted_words_in_the_answer_are_still_read(query: str, word: str) -> None:
    assert [k.value for k in _read(query, "word_frequency")] == [word]


# --- 6. bold section labels are no bold key terms --------------------------------------------

STUDY_GUIDE = (
    "**Overview**\n\nPlants capture **light energy** with **chlorophyll** and store it as "
    "**glucose**.\n\n**The two stages**\n\nThe light reactions make ATP; the Calvin cycle "
    "fixes carbon dioxide.\n\n**Why it matters**\n\nPhotosynthesis supplies the oxygen we breathe."
)


def test_bold_labels_are_not_counted_against_a_bold_range() -> None:
    found = _read("Write a short study guide on photosynthesis. Bold 3-5 key terms.", "count")
    assert sorted((k.relation, k.value) for k in found) == [("at_least", 3), ("at_most", 5)]
    assert _all_pass(STUDY_GUIDE, found)
    markdown = STUDY_GUIDE.replace("**Overview**", "## **Overview**")
    assert _all_pass(markdown, found)


def test_too_many_bold_terms_still_fail_the_range() -> None:
    found = _read("Write a short study guide on photosynthesis. Bold 3-5 key terms.", "count")
    (most,) = [k for k in found if k.relation == "at_most"]
    answer = STUDY_GUIDE.replace("ATP", "**ATP**").replace("carbon dioxide", "**carbon dioxide**")
    answer = answer.replace("oxygen", "**oxygen**")
    result = evaluate_constraint(answer, most, CFG)
    assert not result.passed
    assert "6 bold spans" in result.reason and "Overview" not in result.reason


def test_bold_exactly_counts_terms_or_all_spans() -> None:
    (k,) = _read("Explain photosynthesis. Bold exactly 3 key terms.", "count", "bold_spans")
    assert _passes(STUDY_GUIDE, k)


def test_no_bold_still_fails_on_a_bold_label() -> None:
    (k,) = _read("Explain photosynthesis. No bold.", "count", "bold_spans")
    assert not _passes("**Overview**\n\nPlants make sugar from light.", k)


# --- 7. the first of several section headings is no title ------------------------------------

BLOG = (
    "## Set up a real workspace\n\nA dedicated desk tells your brain it's time to work.\n\n"
    "## Keep regular hours\n\nStart and stop at the same time each day.\n\n"
    "## Take real breaks\n\nStep away from the screen for lunch."
)


@pytest.mark.parametrize(
    "query",
    [
        "Write a short blog post about working from home with section headings; title not needed.",
        "Write a short blog post about working from home; title not needed, but use headings.",
    ],
)
def test_section_headings_are_no_title(query: str) -> None:
    (k,) = _read(query, "title")
    assert _passes(BLOG, k)
    bold = "**Workspace**\n\nA desk helps.\n\n**Hours**\n\nKeep them regular."
    assert _passes(bold, k)


@pytest.mark.parametrize(
    "answer",
    [
        "# Working from home\n\n" + BLOG,  # a higher heading above the sections
        "## Working from home\n\n" + BLOG,  # a heading straight above the next one
        "## Working from home\n\nA dedicated desk tells your brain it's time to work.",
        "**Working from home**\n\n" + BLOG,  # bold above Markdown headings
    ],
)
def test_a_title_over_sections_still_fails(answer: str) -> None:
    (k,) = _read("Write a short blog post about working from home; title not needed.", "title")
    assert not _passes(answer, k)


def test_bold_section_labels_are_no_title() -> None:
    (k,) = _read("Write a short blog post about working from home. No title.", "title")
    answer = "**Workspace**\n\nA desk helps.\n\n**Hours**\n\nKeep them regular."
    assert _passes(answer, k)


# --- 10. a name with a mark and a version after it -------------------------------------------


def test_a_version_after_a_name_with_marks_counts() -> None:
    (k,) = _read("Write about programming languages. Mention C++ twice.", "word_frequency")
    assert _passes("C++11 added lambdas. Modern C++ is nicer.", k)
    assert not _passes("C++ is fast. Cplusplus is not a word.", k)
    (k,) = _read("Write about .NET languages. Mention C# twice.", "word_frequency")
    assert _passes("C#10 added records. C# is popular.", k)
    assert not _passes("C#x is no language. C# is popular.", k)


# --- bold ranges -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "low", "high"),
    [
        ("Explain photosynthesis. Bold only 3-5 key terms.", 3, 5),
        ("Explain photosynthesis. Bold about 3-5 important terms.", 3, 5),
        ("What is photosynthesis? Bold 3-5 key terms.", 3, 5),
        ("How do I create a Python virtual environment? Bold 3-5 key terms.", 3, 5),
        ("Why is the sky blue? Bold two or three key words.", 2, 3),
    ],
)
def test_bold_ranges_in_more_phrasings(query: str, low: int, high: int) -> None:
    found = _read(query, "count", "bold_spans")
    assert sorted((k.relation, k.value) for k in found) == [("at_least", low), ("at_most", high)]


def test_a_bold_request_after_a_question() -> None:
    (k,) = _read("What is photosynthesis? Bold the key terms.", "count", "bold_spans")
    assert (k.relation, k.value) == ("at_least", 1)


@pytest.mark.parametrize(
    "query",
    [
        "Should I bold 3-5 key terms?",
        "Why do people bold 3-5 key terms in essays?",
        "Why does the key term show bold?",
        "How do I make it bold? I tried everything.",
    ],
)
def test_a_question_about_bold_asks_none(query: str) -> None:
    assert not _read(query, "count", "bold_spans"), inferred_constraints(query)


# --- counted poems ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "counts"),
    [
        ("Write haiku x3, title not needed.", [("exactly", 3)]),
        ("Write haiku x3, no title.", [("exactly", 3)]),
        ("Write haiku x3, each about a season.", [("exactly", 3)]),
        ("Write 3 x haiku about winter", [("exactly", 3)]),
        ("Write a couple haikus about rain.", [("at_least", 2), ("at_most", 3)]),
        ("Write a trio of haiku about spring.", [("exactly", 3)]),
        ("Write 3 haiku about the sea.", [("exactly", 3)]),
    ],
)
def test_counted_poems_in_more_phrasings(query: str, counts: list[tuple[str, int]]) -> None:
    found = _read(query, "count", "stanzas")
    assert sorted((k.relation, k.value) for k in found) == counts


@pytest.mark.parametrize(
    "query",
    [
        "Give me a trio of haiku prompts.",
        "Name a trio of haiku masters and what they're known for.",
        "Share a couple of haiku writing tips.",
        "Write haiku x3,000 times in a loop.",
    ],
)
def test_things_about_haiku_are_no_count_of_poems(query: str) -> None:
    assert not _read(query, "count", "stanzas"), inferred_constraints(query)


# --- no need to add a title ------------------------------------------------------------------


def test_no_need_to_add_a_title() -> None:
    (k,) = _read("Write a short story about a lighthouse. No need to add a title.", "title")
    assert k.value == "none"
    assert not _passes("# The Keeper\n\nThe lamp burned all night.", k)
    assert not _read("There's no need to add a title deed here. Write a story.", "title")

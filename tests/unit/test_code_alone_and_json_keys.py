"""Instructions the held-back requests gave and the gate did not read (twelfth session):
code asked for alone ("just the SQL", "formula only"), the keys of a JSON answer, a bare
"Lowercase,", "top 3 causes", "a checklist of 10 items", the lines of verse, a template's
labels, an answer asked for alone ("just the number"), a blockquote, a "6-word story", list
items under each heading and a comma-separated line."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import inferred_constraints


def _inferred(query: str, check: str) -> list[Instruction]:
    return [k for k in inferred_constraints(query) if k.check == check]


@pytest.mark.parametrize(
    "query",
    [
        "Give me a regex that matches a 5-digit US ZIP code. Reply with only the regex.",
        "Postgres: each customer's total for 2024, highest first. Just the SQL, no explanation.",
        "A Google Sheets formula that sums column B where column A says Groceries. Formula only.",
        "Create a Postgres table for blog posts. Give the DDL and nothing else.",
        "TypeScript interface for a User with an optional nickname. Just the interface.",
    ],
)
def test_code_asked_for_alone(query: str) -> None:
    (k,) = _inferred(query, "format")
    assert k.value == "code_only"
    assert check_instruction("```sql\nSELECT 1;\n```", k)[0] is True
    prose = "Here's a query that should work well for this.\n```sql\nSELECT 1;\n```"
    assert check_instruction(prose, k)[0] is False


@pytest.mark.parametrize(
    "query",
    [
        "Only the SQL part is slow, why?",
        "Just the code changes I need to review, explained line by line.",
        "Is a formula only way to do this in Sheets?",
    ],
)
def test_code_named_but_not_asked_for_alone(query: str) -> None:
    assert _inferred(query, "format") == []


PIZZA = 'Grocery list for homemade pizza. Return it as JSON with keys "item" and "quantity".'
CAMPING = (
    "Packing list for a weekend camping trip. Give it to me as JSON: one object with keys "
    '"clothing", "gear", "food", each an array of strings.'
)
LETTER = (
    "Extract the candidate's details from this cover letter as JSON with keys name, "
    "current_role, years_experience, notice_period. Use null if something isn't stated."
)


@pytest.mark.parametrize(
    ("query", "keys"),
    [
        (PIZZA, ["item", "quantity"]),
        (CAMPING, ["clothing", "gear", "food"]),
        (LETTER, ["name", "current_role", "years_experience", "notice_period"]),
    ],
)
def test_the_keys_a_json_answer_must_have(query: str, keys: list[str]) -> None:
    (k,) = _inferred(query, "json_keys")
    assert k.value == keys and k.inferred


@pytest.mark.parametrize(
    ("query", "answer", "passed"),
    [
        (PIZZA, '[{"item": "flour", "quantity": "500 g"}, {"item": "basil", "quantity": 1}]', True),
        (PIZZA, '```json\n{"groceries": [{"item": "flour", "quantity": "500 g"}]}\n```', True),
        (PIZZA, '{"flour": "500 g", "yeast": "7 g"}', False),
        (PIZZA, '[{"item": "flour", "quantity": "500 g"}, {"item": "basil"}]', False),
        (CAMPING, '{"clothing": ["fleece"], "gear": ["tent"], "food": ["oats"]}', True),
        (CAMPING, '{"clothing": ["fleece"], "gear": ["tent", "stove"]}', False),
        (PIZZA, "flour, yeast, basil", None),  # not JSON: the json format check says so
    ],
)
def test_json_keys_checked(query: str, answer: str, passed: bool | None) -> None:
    (k,) = _inferred(query, "json_keys")
    verdict, detail = check_instruction(answer, k)
    assert verdict is passed, detail
    if passed is False:
        assert "no key" in detail


def test_json_without_named_keys_infers_none() -> None:
    assert _inferred("Return the list as JSON, please.", "json_keys") == []
    assert _inferred("Give me JSON with keys for each day of the week", "json_keys") == []


def test_a_bare_lowercase_fragment() -> None:
    (k,) = _inferred("Three words for a capsule wardrobe. Lowercase, comma separated.", "case")
    assert k.value == "lowercase"
    assert check_instruction("Minimal, Versatile, Timeless", k)[0] is False
    assert _inferred("Is Lowercase the right name for the style?", "case") == []


@pytest.mark.parametrize(
    ("query", "n"),
    [
        ("car won't start, just clicking. top 3 likely causes, short list", 3),
        ("List the supplies for a new kitten. Keep it to a checklist of 10 items.", 10),
    ],
)
def test_top_n_and_a_checklist_of_n(query: str, n: int) -> None:
    counts = [k for k in _inferred(query, "count") if k.unit == "items"]
    assert [k.value for k in counts] == [n]
    six = "\n".join(f"{i}. cause" for i in range(1, 7))
    assert check_instruction(six, counts[0])[0] is False


def test_top_percent_is_no_count() -> None:
    assert _inferred("I'm in the top 10 percent of earners; what should I do?", "count") == []


POEM = "poem about morning coffee, 6 lines, no line longer than 5 words"


def test_the_lines_of_verse_are_counted_exactly() -> None:
    counts = [k for k in _inferred(POEM, "count") if k.unit == "verse_lines"]
    assert [(k.relation, k.value) for k in counts] == [("exactly", 6)]
    assert _inferred("Write an email of 10 lines to my landlord", "count") == []
    (k,) = counts
    six = "Kettle clicks,\nbeans crack open,\nsteam curls,\nfirst sip,\neyes close,\nday waits."
    assert check_instruction(six, k)[0] is True
    assert check_instruction("**Morning Brew**\n\n" + six, k)[0] is True  # a title is no line
    assert check_instruction("Morning Brew\n\n" + six, k)[0] is True
    assert check_instruction(six + "\nand the mug is warm.", k)[0] is False
    assert check_instruction("Kettle clicks,\nbeans crack,\nsteam curls,\nsip.", k)[0] is False


@pytest.mark.parametrize(
    ("query", "labels"),
    [
        (
            "Write my status update in exactly this 3-line format:\nDone: ...\nDoing: ...\n"
            "Blocked: ...\n\nContext: finished the API migration, writing tests now.",
            ["Done", "Doing", "Blocked"],
        ),
        (
            "Weather vs climate? Answer in exactly this format:\nWeather: <one sentence>\n"
            "Climate: <one sentence>",
            ["Weather", "Climate"],
        ),
        ("Use this format:\n- **Name:** [name]\n- **Why:** [reason]", ["Name", "Why"]),
        (
            "Turn these notes into meeting minutes formatted as Attendees / Decisions / Action "
            "Items (owner in brackets).\n\nNotes: Jo, Raj, Kim attended.",
            ["Attendees", "Decisions", "Action Items"],
        ),
    ],
)
def test_a_template_given_line_by_line_names_its_labels(query: str, labels: list[str]) -> None:
    (k,) = _inferred(query, "headings")
    assert k.value == labels
    filled = "\n".join(f"**{label}:** something" for label in labels)
    assert check_instruction(filled, k)[0] is True
    assert check_instruction("\n".join(f"{lb}: x" for lb in labels[:-1]), k)[0] is False
    assert check_instruction("A paragraph of prose that follows no template.", k)[0] is False


def test_lowercase_labels_of_data_are_no_template() -> None:
    assert _inferred("My data format:\nid: 1\nname: x\n\nWhat is wrong?", "headings") == []


@pytest.mark.parametrize(
    ("query", "short", "long"),
    [
        ("What size drill bit for a 6mm wall plug? Just the number.", "6 mm", None),
        (
            "Just the subject line for an email inviting the team to a farewell lunch.",
            "Subject: Farewell lunch for Marco, Friday 12:30",
            "Subject: Farewell lunch\n\nHi team, Marco's last day is Friday.",
        ),
        (
            "Suggest a name for my knitting blog. Just one name, nothing else.",
            "Purls of Wisdom",
            "1. Purls of Wisdom\n2. Knit Happens\n3. Stitch & Sip",
        ),
        ("Name one climbing plant for a fence. One word answer.", "Clematis", None),
        ("How long for a jammy egg? answer as 'X minutes' and nothing else", "6 minutes", None),
    ],
)
def test_an_answer_asked_for_alone(query: str, short: str, long: str | None) -> None:
    (k,) = _inferred(query, "bare_answer")
    assert check_instruction(short, k)[0] is True
    wordy = (
        "For a 6 mm plug you'd normally use a 6 mm masonry bit, but in soft or crumbly "
        "plaster some people drop down to 5.5 mm for a tighter fit."
    )
    verdict, detail = check_instruction(long or wordy, k)
    assert verdict is False and "nothing around it" in detail


@pytest.mark.parametrize(
    "query",
    [
        "I need just the name of the file and why it fails",
        "Give me the total, then just the number on its own line",
        "Only the number of users matters here, how do I count them?",
        "I don't want you to just give me the answer. Help me solve 3x + 7 = 22 myself.",
        "Don't give me just the number, explain how you got it.",
    ],
)
def test_no_bare_answer_asked(query: str) -> None:
    assert _inferred(query, "bare_answer") == []


def test_a_blockquote() -> None:
    query = "2-line motivational couplet for a runner on race day, in a markdown blockquote"
    (k,) = _inferred(query, "format")
    assert k.value == "blockquote"
    assert check_instruction("> The miles you trained\n> now trust them", k)[0] is True
    assert check_instruction("The miles you trained\nnow trust them", k)[0] is False


@pytest.mark.parametrize(
    ("query", "n"),
    [("6-word story about moving to a new city", 6), ("Give me a 5-word summary of it", 5)],
)
def test_a_short_hyphenated_word_count_is_exact(query: str, n: int) -> None:
    counts = [(k.relation, k.value) for k in _inferred(query, "count") if k.unit == "words"]
    assert counts == [("exactly", n)]


def test_a_word_count_of_a_later_part_is_not_the_answers() -> None:
    query = "one-sentence pitch for a dog-walking app, then on a new line a 3-word slogan"
    assert [k for k in _inferred(query, "count") if k.unit == "words"] == []
    assert _inferred("Write a 300-word essay on tides", "count") == []


PROS_CONS = (
    "Pros and cons of paying off my car loan early? Please split into a Pros section and a "
    "Cons section, each with exactly 2 bullets."
)


@pytest.mark.parametrize(
    ("query", "relation", "n"),
    [
        (PROS_CONS, "exactly", 2),
        (
            "3-day Rome itinerary, headings Day 1, Day 2, Day 3, at most 3 bullets under each.",
            "at_most",
            3,
        ),
    ],
)
def test_list_items_under_each_heading(query: str, relation: str, n: int) -> None:
    (k,) = [k for k in _inferred(query, "count") if k.unit == "section_items"]
    assert (k.relation, k.value) == (relation, n)


@pytest.mark.parametrize(
    ("answer", "passed"),
    [
        ("Pros\n- a\n- b\n\nCons\n- c\n- d", True),
        ("Here you go:\n\n### Pros\n- a\n- b\n### Cons:\n- c\n- d\n\nHope it helps.", True),
        ("**Pros**\n- a\n- b\n- e\n\n**Cons**\n- c\n- d", False),
        ("Paying it off early saves interest but costs you liquidity.", None),
    ],
)
def test_list_items_counted_per_section(answer: str, passed: bool | None) -> None:
    (k,) = [k for k in _inferred(PROS_CONS, "count") if k.unit == "section_items"]
    verdict, detail = check_instruction(answer, k)
    assert verdict is passed, detail
    if passed is False:
        assert detail.startswith("section 1 has 3 list items")


def test_comma_separated() -> None:
    query = "first 10 elements of the periodic table, symbols only, comma-separated"
    (k,) = _inferred(query, "format")
    assert k.value == "comma_separated"
    assert check_instruction("H, He, Li, Be, B, C, N, O, F, Ne", k)[0] is True
    assert check_instruction("```\nH, He, Li\n```", k)[0] is True
    assert check_instruction("1. H\n2. He\n3. Li", k)[0] is False
    assert check_instruction("H He Li Be", k)[0] is False
    assert _inferred("Export the table as a comma-separated values file", "format") == []


@pytest.mark.parametrize(
    ("query", "relation", "n"),
    [
        ("Write the App Store short description.\nRules:\n1. max 170 characters", "at_most", 170),
        ("Write a 280-character tweet about our launch", "at_most", 280),
        ("Write a tweet (under 280 chars) about it", "at_most", 280),
    ],
)
def test_the_characters_of_a_text_the_answer_is(query: str, relation: str, n: int) -> None:
    (k,) = [k for k in _inferred(query, "count") if k.unit == "characters"]
    assert (k.relation, k.value) == (relation, n)
    assert check_instruction("x" * n, k)[0] is True
    assert check_instruction("x" * (n + 1), k)[0] is False


@pytest.mark.parametrize(
    "query",
    [
        "Give me a password of 16 characters",
        "Create a Postgres table: title (required, max 200 chars), body.",
        "Commit message: subject line under 50 characters, then a blank line and a short body",
        "Product listing: give me a title under 80 characters and 5 bullet points.",
    ],
)
def test_characters_of_something_else_are_not_the_answers(query: str) -> None:
    assert [k for k in _inferred(query, "count") if k.unit == "characters"] == []


def test_yes_or_no_then_one_sentence_is_two_at_most() -> None:
    query = "Yes or no first, then one sentence: can I grow tomatoes on a north-facing balcony?"
    (k,) = [k for k in _inferred(query, "count") if k.unit == "sentences"]
    assert (k.relation, k.value) == ("at_most", 2)
    assert check_instruction("No. North-facing balconies get too little sun.", k)[0] is True
    long = "No. They get little direct sun. Tomatoes need a lot of sun. Try lettuce."
    assert check_instruction(long, k)[0] is False
    why = "Answer yes or no, then explain in 2 sentences why."
    assert [(k.relation, k.value) for k in _inferred(why, "count")] == [("at_most", 3)]


@pytest.mark.parametrize(
    ("answer", "passed"),
    [
        ("Tense, darkly funny, devastating", True),
        ("tense\nfunny\ndevastating", True),
        ("Parasite is a tense, darkly funny and ultimately devastating film about class.", False),
        ("Here are three words that fit:\n- tense\n- funny\n- devastating", False),
    ],
)
def test_several_asked_for_alone(answer: str, passed: bool) -> None:
    query = "Three words to describe the film Parasite. Just the three words."
    (k,) = _inferred(query, "bare_answer")
    assert check_instruction(answer, k)[0] is passed

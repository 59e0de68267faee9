"""More of what realistic requests say, read (thirteenth session): an element the answer
must give ("mention the time complexity", "the approximate price of each"), a number or a
name it must carry ("include the reference number BW-55217", "sign it from the
Hendersons"), how its last line opens ("end with a one-line summary starting with TL;DR"),
a count the request opens with ("3 mocktail ideas ..."), checkbox items; and exclusions:
"zero soldering", "Can't use lookbehind, this runs in ...", a regex group written out."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.counting import count_units
from scoregate.scoring.exclusions import exclusion_matches, parse_exclusions
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import inferred_constraints


def _only(query: str, check: str) -> Instruction:
    (k,) = [k for k in inferred_constraints(query) if k.check == check]
    return k


def test_a_complexity_asked_for_is_given_in_any_form() -> None:
    k = _only("Dedupe a Vec<u64> in Rust. Please mention the time complexity.", "mentions")
    assert check_instruction("Use a HashSet; this is O(n) overall.", k)[0] is True
    assert check_instruction("It runs in linear time.", k)[0] is True
    ok, why = check_instruction("Use a HashSet and retain.", k)
    assert ok is False and "complexity" in why


def test_the_price_of_each() -> None:
    k = _only("list 3 pinpointers and mention the approximate price of each", "mentions")
    assert k.value == "price of each"
    priced = "1. Garrett Pro-Pointer, about $130\n2. Nokta, ~$90\n3. Minelab, 150 dollars"
    assert check_instruction(priced, k)[0] is True
    one_missing = "1. Garrett Pro-Pointer, about $130\n2. Nokta, great value\n3. Minelab, $150"
    ok, why = check_instruction(one_missing, k)
    assert ok is False and why.startswith("item 2 gives no price")
    assert _only("What should I budget? Mention a rough cost.", "mentions").value == "price"


def test_a_negated_element_is_not_asked_for() -> None:
    assert [k for k in inferred_constraints("Don't mention prices.") if k.check == "mentions"] == []


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ("Email the letting agent. Include the reference number BW-55217 please.", "BW-55217"),
        ("Reply to the shop and quote my order number: 4471-XZ.", "4471-XZ"),
        ("Write a sympathy note to Keith and sign it from the Hendersons.", "Hendersons"),
        ("A complaint letter to the council, addressed to Ms Patel.", "Patel"),
    ],
)
def test_a_number_or_name_the_letter_must_carry(query: str, word: str) -> None:
    k = _only(query, "keywords")
    assert k.value == [word]
    assert check_instruction(f"Dear all, ... {word} ... Thanks.", k)[0] is True
    assert check_instruction("Dear all, ... Thanks.", k)[0] is False


def test_a_reference_number_the_request_does_not_give_is_not_checked() -> None:
    query = "Write to the bank and include the reference number they gave me."
    assert [k for k in inferred_constraints(query) if k.check == "keywords"] == []


def test_how_the_last_line_opens() -> None:
    k = _only(
        "Explain DMARC alignment. End with a one-line summary starting with TL;DR.", "closing_line"
    )
    assert k.value == "TL;DR"
    assert check_instruction("SPF aligns when...\n\n**TL;DR:** the domains must match.", k)[0]
    ok, why = check_instruction("TL;DR up top.\n\nThe domains must match.", k)
    assert ok is False and "last line" in why
    quoted = _only("Finish with a one-line summary starting with 'In short:'", "closing_line")
    assert quoted.value == "In short:"


@pytest.mark.parametrize(
    ("query", "n"),
    [("3 mocktail ideas with ginger beer. numbered list", 3), ("5 tips for sleeping better", 5)],
)
def test_a_count_the_request_opens_with(query: str, n: int) -> None:
    counts = [k for k in inferred_constraints(query) if k.check == "count"]
    assert [k.value for k in counts] == [n]


@pytest.mark.parametrize(
    "query",
    [
        "2 questions: how do I clean OO track, and why does my loco stall?",
        "3 options I'm weighing: a tent, a van or a cabin. Which is best?",
    ],
)
def test_the_askers_own_count_is_none(query: str) -> None:
    assert [k for k in inferred_constraints(query) if k.check == "count"] == []


def test_checkbox_items_are_counted() -> None:
    checklist = "☐ Confirm the dates\n☐ Tell payroll\n☐ Write the handover"
    assert count_units(checklist, "items", None) == 3


def test_zero_of_an_activity_or_a_class_excludes_it() -> None:
    assert ("soldering", "zero soldering") in exclusion_matches("Catch: zero soldering.")
    items = parse_exclusions("Hand tools only: I have zero power tools.")
    assert "power tools" in items
    assert check_members(items, "Refine it with a Dremel.").violated == [("power tools", "dremel")]
    for query in ("zero budget, sorry", "we have zero experience", "aiming for zero waste"):
        assert exclusion_matches(query) == []


def test_a_statement_opening_with_cant_is_no_question() -> None:
    query = "Can't use lookbehind, this runs in an old WebView where (?<=...) is a syntax error."
    assert exclusion_matches(query) == [("lookbehind", "n't use lookbehind")]
    assert exclusion_matches("Can't I use lookbehind here?") == []


def test_a_regex_group_is_found_as_written() -> None:
    answer = "Use `/(?<=\\$)[\\d,.]+/` to grab the amount."
    assert check_members(["lookbehind"], answer).violated == [("lookbehind", "(?<=")]
    assert check_members(["lookahead"], "Use `/\\d+(?= USD)/`.").violated == [("lookahead", "(?=")]
    assert check_members(["lookbehind"], "Match `\\$([\\d,.]+)` and take group 1.").violated == []


def test_emphasis_after_an_exclusion_is_no_item() -> None:
    query = "Requirement: no port forwarding on my router, full stop. Options?"
    assert "full stop" not in parse_exclusions(query)


def test_a_line_template_is_checked_part_by_part() -> None:
    query = "List 8 party games, one line per game, formatted exactly as: Game – players – time."
    k = _only(query, "line_template")
    assert k.value == "Game – players – time"
    assert check_instruction("Codenames – 4-8 – 15 min\nSkull – 3-6 – 30 min", k)[0] is True
    ok, why = check_instruction("Codenames – 4-8 – 15 min – team spy clues", k)
    assert ok is False and why.startswith("line 1 has 4 parts")
    assert check_instruction("Codenames is great for 4-8 players.", k)[0] is False
    bars = _only("List the tasks, each line formatted as task | owner | due date", "line_template")
    assert check_instruction("- Fix bug | Ana | Fri\n- Ship | Bo | Mon", bars)[0] is True


def test_a_comment_on_every_line() -> None:
    k = _only("Write a VBA macro. Please put a comment on every line so I can follow.", "format")
    assert k.value == "commented"
    commented = "```vba\nSub A()   ' start\n    Dim r As Long   ' a counter\nEnd Sub   ' end\n```"
    assert check_instruction(commented, k)[0] is True
    braces = "```js\nfunction f() { // start\n  return 1; // one\n}\n```"
    assert check_instruction(braces, k)[0] is True  # a closing brace alone needs none
    sparse = "```vba\nSub A()\n    ' a counter\n    Dim r As Long\nEnd Sub\n```"
    ok, why = check_instruction(sparse, k)
    assert ok is False and "without a comment" in why


# --- from the review of the change ---------------------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [
        "1. **Garrett**\n   Price: about $130\n2. **Nokta**\n   Price: ~$90",
        "1. Garrett, 130 €\n2. Nokta, CHF 90\n3. Minelab, 13,000 yen\n\nNotes:\n- waterproof",
        "1. Garrett\n   - Pros: loud\n   - About $130\n2. Nokta, $90",
    ],
)
def test_the_price_of_each_item_with_its_continuation_lines(answer: str) -> None:
    k = _only("list 3 pinpointers and mention the approximate price of each", "mentions")
    assert check_instruction(answer, k)[0] is True


def test_mentions_takes_only_what_it_can_find() -> None:
    Instruction(check="mentions", value="price of each")
    with pytest.raises(ValueError, match="one of 'complexity', 'price', 'price of each'"):
        Instruction(check="mentions", value="time complexity")


@pytest.mark.parametrize(
    "query",
    [
        "Write to the council and include my account number. My flat is 3B-12.",
        "Include the ticket number, which I'll add later. We run COVID-19 tests.",
    ],
)
def test_a_code_elsewhere_is_no_reference_number(query: str) -> None:
    assert [k for k in inferred_constraints(query) if k.check == "keywords"] == []


def test_a_reference_given_earlier_by_name() -> None:
    query = "My reference is BW-55217. Write the email and mention the reference number."
    assert _only(query, "keywords").value == ["BW-55217"]


def test_the_closing_line_reads_the_words_asked_for() -> None:
    assert _only("End with a line starting with the word Verdict", "closing_line").value == (
        "Verdict"
    )
    assert [k for k in inferred_constraints("end with a sentence starting with a verb")
            if k.check == "closing_line"] == []  # fmt: skip
    k = _only("Explain it. End with a one-line summary starting with TL;DR.", "closing_line")
    assert check_instruction("Body.\n\n- TL;DR: match the domains\n\n---", k)[0] is True
    assert check_instruction("Body.\nTL;DRs are fun", k)[0] is False
    both = "Explain it, end with a one-line summary starting with TL;DR, and sign off with 'Cheers'"
    assert {k.check for k in inferred_constraints(both)} >= {"closing_line", "ends_with"}


def test_a_template_split_by_its_own_separator() -> None:
    k = _only("List 8 games, formatted exactly as: Game – players – time.", "line_template")
    lead_in = "Here you go – eight great games:\nCodenames – 4-8 – 15 min\nSkull – 3-6 – 30 min"
    assert check_instruction(lead_in, k)[0] is True
    assert check_instruction("Codenames – 4 - 8 – 15 min\nSkull – 3-6 – 30 min", k)[0] is True
    assert [k for k in inferred_constraints("Written as a pros - cons list please")
            if k.check == "line_template"] == []  # fmt: skip


@pytest.mark.parametrize(
    "query",
    [
        "Don't put a comment on every line, just the tricky ones.",
        "Add a comment for each line item.",
    ],
)
def test_no_comment_on_every_line_asked(query: str) -> None:
    assert [k for k in inferred_constraints(query) if k.check == "format"] == []


def test_comments_by_the_code_language() -> None:
    k = _only("Write the script and put a comment on every line.", "format")
    js = "```js\nconst s = 'it';  // a string\nlet n = b % c;\n```"
    ok, why = check_instruction(js, k)
    assert ok is False and "line 2" in why  # "%" is no comment in JavaScript
    run = "```python\nx = 1  # one\n```\n\nRun it:\n\n```\npython x.py\n```"
    assert check_instruction(run, k)[0] is True  # the main block is the one read


@pytest.mark.parametrize(
    "answer",
    [
        "1. **Rise and shine** – playful, morning-themed\n2. **Warm loaves** – cosy",
        "Rise and shine\nWarm loaves\nAll of these would look lovely painted on the shop window.",
    ],
)
def test_item_characters_count_the_items_only(answer: str) -> None:
    (k,) = [
        k
        for k in inferred_constraints("give me 2 taglines, each under 20 characters")
        if k.unit == "item_characters"
    ]
    assert check_instruction(answer, k)[0] is True


@pytest.mark.parametrize(
    "query",
    [
        "I have zero cooking skills, easy dinners?",
        "Zero sugar drinks please",
        "zero downtime during deploy, how?",
        "Use their free plan",
        "a free app is fine",
    ],
)
def test_no_zero_or_free_item(query: str) -> None:
    assert exclusion_matches(query) == []


@pytest.mark.parametrize(
    "query",
    [
        "5 questions about my visa: can I work?",
        "3 steps to reset my router failed, what now?",
        "3 tips that worked for me",
        "2 recipes for dinner tonight and 1 dessert",
    ],
)
def test_an_opening_count_of_the_askers_own(query: str) -> None:
    assert [k for k in inferred_constraints(query) if k.check == "count"] == []


def test_emphasis_is_no_item_and_a_wifi_router_no_power_tool() -> None:
    assert parse_exclusions("No nuts, end of story.") == ["nuts"]
    assert check_members(["power tools"], "Set your wifi router on the shelf.").violated == []


def test_a_quoted_letter_is_counted_as_a_letter_not_a_word() -> None:
    query = "Write a limerick, and make sure the letter 'k' appears at least 6 times."
    checks = {k.check for k in inferred_constraints(query)}
    assert "letter_frequency" in checks and "word_frequency" not in checks
    word = "Use 'sustainable' at most once."
    assert _only(word, "word_frequency").value == "sustainable"


def test_the_request_below_is_the_block_under_the_instructions() -> None:
    query = (
        "First repeat the request below word for word, then give your answer. Do not say"
        " anything before repeating it.\n\nWrite a haiku about coffee on a rainy Monday."
    )
    k = _only(query, "repeat_prompt")
    assert k.value == "Write a haiku about coffee on a rainy Monday."


def test_caps_for_quoted_markers_only() -> None:
    query = 'Three sections, each starting with "SECTION 1", "SECTION 2", "SECTION 3" (in caps).'
    assert [k for k in inferred_constraints(query) if k.check == "case"] == []
    assert _only("Write the whole reply in caps.", "case").value == "uppercase"


def test_an_apostrophe_is_no_quotation_to_count() -> None:
    query = (
        "Write a short children's story about a dragon. Give it a title like <<title>>, and"
        " make sure the letter 'z' appears at least 5 times in your response."
    )
    assert [k for k in inferred_constraints(query) if k.check == "word_frequency"] == []


def test_english_in_capitals_is_english() -> None:
    from scoregate.scoring.language import detect_language

    riddle = "I GROW SHORTER THE LONGER I LIVE. I CRY WAX TEARS BUT FEEL NO SADNESS. WHAT AM I?"
    assert detect_language(riddle) == "en"
    assert detect_language("KOT I PIES SĄ W DOMU, A DZIECI SIĘ BAWIĄ I ŚMIEJĄ SIĘ GŁOŚNO.") == "pl"

"""Review 24 (R2): bold, no headings, no title and verse counts read from the request."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.instruction_rules import infer_instructions
from scoregate.scoring.instructions import check_instruction


def _units(query: str) -> set[str | None]:
    return {k.unit for k in infer_instructions(query) if k.check == "count"}


def _checks(query: str) -> set[str]:
    return {k.check if k.check != "count" else f"count:{k.unit}" for k in infer_instructions(query)}


def _haikus(n: int) -> Instruction:
    return Instruction(
        check="count",
        unit="stanzas",
        value=n,
        relation="exactly",
        inferred=True,
        phrase=f"{n} haikus",
    )


HAIKUS = [
    "Snow on the branches\nthe crow shifts its black shoulders\nsilence falls again",
    "Frozen pond at dawn\na child's boot tests the surface\nthe ice answers back",
    "Long night by the fire\nthe kettle hums to itself\nwind knocks, no one comes",
]
THREE = "\n\n".join(HAIKUS)


# finding 1: "bold" as an adjective is no request for bold text


@pytest.mark.parametrize(
    "query",
    [
        "Write a LinkedIn post with bold statements about remote work.",
        "Write a poem with bold imagery about the sea.",
        "Write a manifesto with bold, provocative statements.",
        "Write with bold confidence about our product.",
        "Present the results with bold visuals.",
        "Write my bio as bold and punchy as possible.",
        "Write a speech as bold as MLK's.",
        "Please write this using bold language.",
        "Make the ideas bold and fresh.",
        "Make your points bold and concise.",
        "Make your answer bold and brave - tell me what you really think of my plan.",
    ],
)
def test_bold_as_an_adjective_reads_no_bold(query: str) -> None:
    assert "bold_spans" not in _units(query)


@pytest.mark.parametrize(
    "query",
    [
        "Highlight the key terms in bold.",
        "Write the answer with bold text for the key terms.",
        "Make the key terms bold and italic.",
        "Make the key terms bold and keep it short.",
        "Write it with the key terms as bold, please.",
    ],
)
def test_bold_as_a_form_is_still_read(query: str) -> None:
    assert "bold_spans" in _units(query)


# finding 2: the user's own text described as having no headings


@pytest.mark.parametrize(
    "query",
    [
        "Rewrite my notes into a report. Right now they have no headings and it's a mess.",
        "This draft has no headers - please add H2 headers for each section:\n\nParagraph one.",
        "The doc currently has no section headings. Suggest headings for it.",
        "Write a README. Without headings it's hard to navigate, so use them.",
        "I wrote the post without headings and Google ranks it poorly. What headings to add?",
        "Convert this wall of text (no headings, no paragraphs) into a doc with headings.",
        "The page has no headings; is that bad for SEO?",
        "Skip the headings for the intro, but use them for the rest.",
    ],
)
def test_described_text_without_headings_reads_no_rule(query: str) -> None:
    assert "headings" not in _units(query)


@pytest.mark.parametrize(
    "query",
    [
        "Don't use any headings.",
        "Write an essay that has no headings.",
        "Write a cover letter with no headings.",
        "Don't use headings, just use plain paragraphs.",
        "Write it with no bullet points or headings.",
    ],
)
def test_no_headings_still_read(query: str) -> None:
    assert "headings" in _units(query)


# finding 3: headings named as examples of what not to use


def test_headings_like_named_ones_read_neither_rule() -> None:
    query = (
        "Don't use headings like 'Introduction' or 'Conclusion'; use descriptive ones instead."
        " Write a short report on bees."
    )
    assert _checks(query) & {"headings", "count:headings"} == set()
    assert "headings" in _checks("Write two sections with the headings 'Autumn' and 'Spring'.")


# finding 6: verse that is part of a larger answer


@pytest.mark.parametrize(
    "query",
    [
        "Write 2 haikus, then explain the imagery in each.",
        "Write a blog post about haiku with 2 haikus as examples.",
        "Write a lesson plan in which students write 3 haikus.",
        "How many stanzas does a villanelle have? It's 19 lines in 6 stanzas.",
    ],
)
def test_verse_among_prose_reads_no_count(query: str) -> None:
    assert "stanzas" not in _units(query)


def test_a_bulleted_note_under_the_verse_is_no_poem() -> None:
    answer = (
        "\n\n".join(HAIKUS[:2])
        + "\n\n**Imagery:**\n- Haiku 1: the crow's black against white snow.\n"
        "- Haiku 2: the sound of ice as a reply."
    )
    assert check_instruction(answer, _haikus(2))[0] is True


# finding 7: an intro, an outro, notes or an epigraph is no extra poem


@pytest.mark.parametrize(
    ("n", "answer"),
    [
        (3, "Sure!\nHere are three winter haikus:\n\n" + THREE),
        (3, THREE + "\n\nLet me know if you'd like more!\nHappy writing!"),
        (3, THREE + "\n\nNotes:\n- The first uses a crow as the kigo.\n- The second is about ice."),
        (4, '*"The sea, the sea"*\n— Iris Murdoch\n\n' + THREE + "\n\n" + HAIKUS[0]),
    ],
)
def test_intro_outro_notes_and_epigraph_are_no_poems(n: int, answer: str) -> None:
    assert check_instruction(answer, _haikus(n))[0] is True


def test_a_fourth_haiku_still_fails() -> None:
    assert check_instruction(THREE + "\n\n" + HAIKUS[0], _haikus(3))[0] is False


# finding 8: bulleted one-line haikus with slashes


def test_bulleted_slashed_haikus_are_a_poem_each() -> None:
    answer = "\n".join("- " + h.replace("\n", " / ") for h in HAIKUS)
    assert check_instruction(answer, _haikus(3))[0] is True


# finding 14: the reason quotes the blocks counted


def test_verse_count_reason_names_the_blocks() -> None:
    ok, reason = check_instruction(THREE + "\n\n" + HAIKUS[1], _haikus(3))
    assert ok is False
    assert "'Snow on the branches…'" in reason and "'Frozen pond at dawn…'" in reason
    assert check_instruction(THREE, _haikus(3)) == (True, "3 haikus, as asked (exactly 3 haikus)")


# finding 4: a topic word such as "cell" or "Python" does not drop the bold reading


@pytest.mark.parametrize(
    "query",
    [
        "Explain cell division for my biology class and bold the key terms.",
        "Explain the columns of the periodic table; bold the key terms.",
        "Explain how Python decorators work. Bold the key terms.",
        "No bold please. Explain exponents in Python.",
        "Don't use bold. Write a Python function to add two numbers.",
    ],
)
def test_a_topic_word_keeps_the_bold_reading(query: str) -> None:
    assert "bold_spans" in _units(query)


@pytest.mark.parametrize(
    "query",
    [
        "Write a Python script that prints the total in bold.",
        "Make the totals bold in Excel.",
        "Make the header cells bold.",
        "Write a function that returns the key terms in bold.",
    ],
)
def test_bold_in_a_program_or_file_is_still_not_read(query: str) -> None:
    assert "bold_spans" not in _units(query)


# finding 5: a styled title line under "without a title"


def test_styled_title_lines_fail_and_a_plain_one_is_unsure() -> None:
    k = Instruction(check="title", value="none", inferred=True)
    body = "\n\nA fox ran through the snow\nits tail a red flame\nand the hens slept on"
    for head in ("*The Fox*", "THE FOX", "<b>The Fox</b>", "Untitled"):
        assert check_instruction(head + body, k)[0] is False, head
    assert check_instruction("The Fox" + body, k)[0] is None
    assert check_instruction(body.strip(), k)[0] is True
    assert check_instruction("OK\n\nsure" + body, k)[0] is not False


# finding 9: "bold no more than 3 words" is no limit on the answer's words


@pytest.mark.parametrize(
    ("query", "relation", "n"),
    [("Bold no more than 3 words.", "at_most", 3), ("Bold exactly 2 words.", "exactly", 2)],
)
def test_a_count_of_bold_words_is_no_word_limit(query: str, relation: str, n: int) -> None:
    ks = [k for k in infer_instructions(query) if k.check == "count"]
    assert [(k.unit, k.relation, k.value) for k in ks] == [("bold_spans", relation, n)]


# finding 10: more ways to rule bold out


@pytest.mark.parametrize(
    "query",
    [
        "Write a cover letter for a barista job. Please no headings or bold.",
        "Please don't use any bold text in the answer.",
        "Skip the bold.",
        "Don't make anything bold.",
        "Stop using bold.",
        "Please refrain from bold formatting.",
        "Do not use markdown formatting like bold or headers.",
    ],
)
def test_no_bold_phrasings(query: str) -> None:
    ks = [k for k in infer_instructions(query) if k.unit == "bold_spans"]
    assert [(k.relation, k.value) for k in ks] == [("at_most", 0)]


@pytest.mark.parametrize(
    "query", ["Write an ad with no bold claims.", "Avoid bold, risky moves in the plan."]
)
def test_bold_claims_ruled_out_are_no_bold_rule(query: str) -> None:
    assert "bold_spans" not in _units(query)


# finding 12: "bold 2 key terms only"


def test_bold_n_terms_only_is_at_most() -> None:
    ks = [k for k in infer_instructions("Bold 2 key terms only.") if k.unit == "bold_spans"]
    assert [(k.relation, k.value) for k in ks] == [("at_most", 2)]


# finding 13: powers and dunder names are no bold


def test_powers_and_dunder_names_are_no_bold() -> None:
    k = Instruction(check="count", unit="bold_spans", value=0, relation="at_most", inferred=True)
    assert check_instruction("2**10 = 1024 and 3**4 = 81.", k)[0] is True
    assert check_instruction("Call __init__ and __main__ methods.", k)[0] is True
    assert check_instruction("**DNS** is the internet's phone book.", k)[0] is False


# finding 11: more ways to ask for bold


@pytest.mark.parametrize(
    "query",
    [
        "The key terms should be in bold.",
        "Key terms must be bold.",
        "I'd like the key terms to be bolded.",
        "Explain it simply, bolding the key terms.",
        "explain recursion & bold the key words",
        "Please bold the most important sentence.",
        "Write the answer so that important terms appear in bold.",
    ],
)
def test_more_bold_phrasings(query: str) -> None:
    assert "bold_spans" in _units(query)


@pytest.mark.parametrize(
    "query", ["Your ideas should be bold and original.", "Write a pitch. The ideas must be bold."]
)
def test_ideas_that_should_be_bold_read_no_bold(query: str) -> None:
    assert "bold_spans" not in _units(query)


# finding 15: more and fewer title readings; a count of stanzas after "and"


@pytest.mark.parametrize(
    "query",
    ["Write 3 haikus, no titles.", "Just the poem, untitled.", "Leave the title off."],
)
def test_more_no_title_phrasings(query: str) -> None:
    assert "title" in _checks(query)


def test_a_title_invited_is_not_ruled_out() -> None:
    query = "Write a short poem about a fox. Title it however you like but don't title the stanzas."
    assert "title" not in _checks(query)


def test_stanzas_after_and_are_counted() -> None:
    assert "stanzas" in _units("Write a poem with no title and three stanzas.")
    assert "stanzas" not in _units("Write 3 haikus and 2 limericks.")


# finding 16: more ways to rule headings out


@pytest.mark.parametrize(
    "query",
    [
        "Don't format it with headings.",
        "Don't break it into sections with headers.",
        "Remove the headings.",
        "Headings are not needed.",
        "no H2s please",
        "Don't use # headers.",
    ],
)
def test_more_no_headings_phrasings(query: str) -> None:
    assert "headings" in _units(query)


def test_headings_needed_is_no_rule_against_them() -> None:
    assert "headings" not in _units("Headings are needed.")


def test_a_bold_fail_quotes_the_spans() -> None:
    k = Instruction(check="count", unit="bold_spans", value=0, relation="at_most", inferred=True)
    assert check_instruction("**DNS** is the internet's phone book.", k) == (
        False,
        "1 bold span ('**DNS**'); the request asks for none",
    )

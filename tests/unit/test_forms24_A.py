"""Form instructions users write that were not read (twenty-fourth session, readings A): a
counted word given bare ("Mention Paris at least 3 times"), key terms in bold ("highlight
the key terms in bold", and "no bold" as none), and the whole answer in single quotes
("wrap the whole answer in single quotes"). Each reading is soft: the near misses that
may mean something else are not read."""

from __future__ import annotations

import pytest

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.counting import count_bold
from scoregate.scoring.instructions import check_instruction, describe
from scoregate.scoring.request_analysis import inferred_constraints


def _of(query: str, check: str) -> list[Instruction]:
    return [k for k in inferred_constraints(query) if k.check == check]


def _only(query: str, check: str) -> Instruction:
    (k,) = _of(query, check)
    return k


def _bold(query: str) -> list[Instruction]:
    return [k for k in inferred_constraints(query) if k.unit == "bold_spans"]


# --- a counted word given bare -------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "word", "relation", "count"),
    [
        ("Write a travel blurb. Mention Paris at least 3 times.", "Paris", "at_least", 3),
        ("Write a jingle and make sure you say Acme twice.", "Acme", "at_least", 2),
        (
            "Write a LinkedIn post and use the word synergy no more than once.",
            "synergy",
            "at_most",
            1,
        ),
        ("Write an ad and repeat the brand name Lumio three times.", "Lumio", "at_least", 3),
        ("Write a short poem and include Nimbus at least twice.", "Nimbus", "at_least", 2),
        ("A city guide. Mention New York at least twice.", "New York", "at_least", 2),
        ("Pitch the tool and use the term ROI at least twice.", "ROI", "at_least", 2),
        (
            "Write a product blurb. Make sure Lumio appears at least 3 times.",
            "Lumio",
            "at_least",
            3,
        ),
        ("Write an intro. Don't mention Acme more than twice.", "Acme", "at_most", 2),
        ("Write a product blurb. Lumio should appear at least 3 times.", "Lumio", "at_least", 3),
        ("Write an ad. The brand name Lumio must come up twice.", "Lumio", "at_least", 2),
        ("Write a tagline. Don't use the word synergy more than once.", "synergy", "at_most", 1),
        ('Write a tagline. Don\'t use the word "synergy" more than once.', "synergy", "at_most", 1),
    ],
)
def test_a_counted_word_given_bare_is_read(
    query: str, word: str, relation: str, count: int
) -> None:
    k = _only(query, "word_frequency")
    assert (k.value, k.relation, k.count) == (word, relation, count)
    assert _of(query, "forbidden_words") == []  # "don't use ... more than once" is a count


@pytest.mark.parametrize(
    "query",
    [
        "Write a story about our city and mention it twice.",
        "Say the city's name three times.",
        "Write a song for my band and repeat the chorus twice.",
        "Email my team and mention the deadline at least twice.",
        "Explain recursion and include 3 examples.",
        "Build me a weekly schedule and include Pilates at least 2 times a week.",
        "Plan my month; include Yoga twice a week and Running three times per week.",
        "I mention Paris three times in my essay, is that too much?",
        "Write a blurb and mention Paris once.",
        "Please don't say Acme three times.",
        "Make the intro say Acme 3 times faster.",
        "Here's my leg day. Repeat Circuit A three times, then stretch. Any tweaks?",
        "My draft: Paris appears three times. Can you trim it?",
        'Every object needs an "owner" field, so the word owner will appear at least 3 times.',
    ],
)
def test_what_may_not_be_a_counted_word_is_not_read(query: str) -> None:
    assert _of(query, "word_frequency") == []


def test_the_name_is_counted_as_a_whole_word_in_any_case() -> None:
    k = _only("Write a travel blurb. Mention Paris at least 3 times.", "word_frequency")
    good = "Paris in spring! PARIS at night, and paris's cafés. A Parisian would agree."
    assert check_instruction(good, k) == (True, "'Paris' appears 3 times (at least 3 times)")
    ok, why = check_instruction("Paris is lovely. Parisians agree.", k)
    assert ok is False
    assert why == "'Paris' appears 1 time; the request asks for at least 3 times"
    at_most = _only("Write a post and use the word synergy no more than once.", "word_frequency")
    assert check_instruction("Synergy matters. Synergy wins.", at_most)[0] is False
    assert check_instruction("Teams that share win.", at_most)[0] is True


# --- bold ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "relation", "value"),
    [
        ("Explain photosynthesis and highlight the key terms in bold.", "at_least", 1),
        ("Summarise this article and put the important words in bold.", "at_least", 1),
        ("Write study notes on the French Revolution and bold the key points.", "at_least", 1),
        ("Explain TCP vs UDP. Use bold for the main terms.", "at_least", 1),
        ("Give me a pancake recipe and make the ingredients bold.", "at_least", 1),
        ("Explain how DNS works and bold at least 3 key terms.", "at_least", 3),
        ("Highlight at least 3 key terms in bold.", "at_least", 3),
        ("Write the newsletter and highlight 2 sections in **bold**.", "at_least", 2),
        ("Give me 5 tips with the key terms bolded.", "at_least", 1),
        ("Define APR vs APY. Use a bolded term at the start of each definition.", "at_least", 1),
        ("Don't forget to put the key terms in bold.", "at_least", 1),
        ("Explain inflation. No bold, please.", "at_most", 0),
        ("Write the email in plain text and don't bold anything.", "at_most", 0),
        ("Keep it simple: no bold or italics.", "at_most", 0),
        ("Summarise it without bold formatting.", "at_most", 0),
        ("Don't put the key terms in bold.", "at_most", 0),
        ("Can you explain osmosis and put the key terms in bold?", "at_least", 1),
        ("Write a pancake recipe. Ingredients in bold please.", "at_least", 1),
    ],
)
def test_bold_is_read(query: str, relation: str, value: int) -> None:
    (k,) = _bold(query)
    assert (k.check, k.relation, k.value) == ("count", relation, value)


@pytest.mark.parametrize(
    "query",
    [
        "How do I put text in bold in Google Docs?",
        "How can you bold the key terms in Word?",
        "I've put the key terms in bold below, can you check my definitions?",
        "Make the logo colours bold and bright.",
        "Give me bold flavour ideas for a curry.",
        "Bold ideas for a startup?",
        "Should I write the names in bold letters on the jar labels?",
        "Put the headings in bold.",
        "Write a pitch with no bold claims.",
        "Use bold colours for the poster.",
        "Nothing too bold, just a friendly note to my landlord.",
        "Why is my text showing in bold in Slack?",
        "Should I put the key terms in bold?",
        "Write a Python script that prints the total in bold.",
        "Make the totals bold in Excel.",
        "Format the answer with bold headings.",
        "Names in bold are the hosts. Who should I seat first?",
        "Here are my notes. Words in bold are new vocab. Make me a quiz.",
    ],
)
def test_what_is_not_bold_text_is_not_read(query: str) -> None:
    assert _bold(query) == []


def test_bold_is_its_own_unit_and_italics_are_not_bold() -> None:
    k = _bold("Explain photosynthesis and highlight the key terms in bold.")[0]
    ok, why = check_instruction("Plants use *chlorophyll* to make *glucose*.", k)
    assert ok is False
    assert why == "no bold text; the request asks for at least 1 bold span"
    assert check_instruction("Plants use **chlorophyll** to make __glucose__.", k) == (
        True,
        "2 bold spans (at least 1 bold span)",
    )
    three = _bold("Highlight at least 3 key terms in bold.")[0]
    ok, why = check_instruction("**TCP** and **UDP** are protocols.", three)
    assert (ok, why) == (False, "2 bold spans; the request asks for at least 3 bold spans")
    none = _bold("Explain inflation. No bold, please.")[0]
    assert describe(none) == "no bold spans"
    assert check_instruction("Prices rise over time.", none)[0] is True
    ok, why = check_instruction("Prices **rise** over time.", none)
    assert (ok, why) == (False, "1 bold span ('**rise**'); the request asks for none")


def test_bold_is_counted_outside_code() -> None:
    assert count_bold("**a**, ***b***, __c__, <b>d</b> and <strong>e f</strong>") == 5
    assert count_bold("`__init__` and:\n```\n**x**\n```\n") == 0
    assert count_bold("* a list\n* of items, *italics* and ** spaced **\n****") == 0


# --- single quotes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "Write a motto for our team. Wrap the whole answer in single quotes.",
        "Write a slogan for my bakery. Reply with the slogan in single quotes.",
        "Put your response in single quotation marks.",
        "Write a tagline for a gym and give it to me in single quotes.",
        "Your entire response should be wrapped in single quotes.",
        "Suggest a name for my cat. Answer in single quotes.",
        "Name my cat. Reply with just the name, in single quotes.",
    ],
)
def test_the_whole_answer_in_single_quotes_is_read(query: str) -> None:
    k = _only(query, "quoted")
    assert k.value == "single"
    assert describe(k) == "quoted in single quotes"


@pytest.mark.parametrize(
    "query",
    [
        "How do I run this? Put the command in single quotes.",
        "Write a review and quote the title in single quotes.",
        "Can you write my ESLint config in YAML? I want single quotes and semicolons.",
        "Give me a slogan in single quotes.",
        "Here's my bash variable, can you wrap it in single quotes?",
        "Don't wrap your answer in single quotes.",
        "Solve for x and put the answer in single quotes.",
        "Make it a Python list and put everything in single quotes.",
        "Answer in single quotes, not double, for the JS strings.",
    ],
)
def test_single_quotes_around_a_part_are_not_read(query: str) -> None:
    assert _of(query, "quoted") == []


def test_single_quotes_are_checked_around_the_whole_answer() -> None:
    k = _only("Write a slogan for my bakery. Reply with the slogan in single quotes.", "quoted")
    assert check_instruction("  'Fresh from our oven to you'\n", k) == (
        True,
        "wrapped in single quotes",
    )
    assert check_instruction("‘Fresh from our oven to you’", k)[0] is True
    assert check_instruction("'Fresh from our oven to you'.", k)[0] is True
    ok, why = check_instruction('"Fresh from our oven to you"', k)
    assert (ok, why) == (False, "wrapped in double quotes; the request asks for single quotes")
    ok, why = check_instruction("Here's one: 'Fresh from our oven to you'", k)
    assert ok is False
    assert why == (
        "not wrapped in single quotes; the request asks for a reply of only the slogan, in "
        "single quotes"
    )
    double = _only("Wrap your entire response in double quotation marks.", "quoted")
    assert check_instruction('"Hi"', double) == (True, "wrapped in double quotes")
    assert check_instruction("'Hi'", double)[0] is False

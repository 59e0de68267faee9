"""Phrasings read after the first fresh set of form instructions showed them missed: a count
after the list's form, a counted quoted phrase, "use the term X", "mention X by name", an
ending given after "exactly this phrase:", and "no lists"."""

from __future__ import annotations

import pytest

from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze


def _read(query: str) -> list[tuple[object, ...]]:
    return [(k.check, k.unit, k.relation, k.value, k.count) for k in analyze(query).instructions]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "How do I hang wallpaper straight? As numbered steps, exactly six of them.",
            ("count", "numbered", "exactly", 6, None),
        ),
        (
            "give me subject lines for the claim email, numbered, exactly three so I can pick one",
            ("count", "numbered", "exactly", 3, None),
        ),
        (
            "Tips for a first 10k in bullet points, no more than 4.",
            ("count", "bullets", "at_most", 4, None),
        ),
        (
            'Describe my fly pack. Use the phrase "size 14" at least twice, it helps search.',
            ("word_frequency", None, "at_least", "size 14", 2),
        ),
        (
            "Why is a tertiary carbocation stabler? Make sure you use the term hyperconjugation",
            ("keywords", None, "exactly", ["hyperconjugation"], None),
        ),
        (
            "How do I borrow e-books on a Kindle? Please mention the Libby app by name.",
            ("keywords", None, "exactly", ["Libby"], None),
        ),
        (
            "My self-review opener. Make it end with exactly this phrase: I'm ready for more.",
            ("ends_with", None, "exactly", "I'm ready for more", None),
        ),
        (
            "Finish your response with this exact phrase: Is there anything else I can help with?",
            ("ends_with", None, "exactly", "Is there anything else I can help with?", None),
        ),
    ],
)
def test_each_phrasing_is_read(query, expected):
    assert expected in _read(query)


def test_no_lists_rules_out_both_list_forms():
    got = _read("What can I change in our retros? Write it as normal prose, no lists or bullets.")
    assert ("count", "bullets", "at_most", 0, None) in got
    assert ("count", "numbered", "at_most", 0, None) in got


@pytest.mark.parametrize(
    "query",
    [
        "Give me the steps, numbered, exactly 3 words each.",  # a count of a part
        "What does the term amortization mean?",  # a question about the term
        "My boss never mentions me by name.",  # no name to give
        "Don't mention Acme by name.",
        "I have no shopping lists this week, what should I buy?",
    ],
)
def test_near_misses_are_not_read(query):
    got = _read(query)
    assert not any(c in ("keywords", "ends_with", "word_frequency") for c, *_ in got), got
    assert not any(c == "count" and r == "exactly" for c, _, r, *_ in got), got
    assert ("count", "bullets", "at_most", 0, None) not in got


def test_the_checks_name_their_evidence():
    (k,) = analyze("Kindle e-books in the UK? Please mention the Libby app by name.").instructions
    assert check_instruction("Use Libby: sign in with your library card.", k)[0] is True
    assert check_instruction("Use your library's app and send to Kindle.", k) == (
        False,
        "does not use 'Libby'; the request asks for it",
    )
    (k,) = analyze("Make it end with exactly this phrase: I'm ready for more.").instructions
    assert check_instruction("I led the billing migration. I'm ready for more.", k)[0] is True
    passed, why = check_instruction("I led the billing migration and want more.", k)
    assert passed is False and "I'm ready for more" in why


def test_a_negation_in_the_sentence_before_does_not_turn_bold_around():
    query = (
        "Give me 3 closing lines to end my mum's eulogy without falling apart. Bold the key"
        " phrase in each one so I can spot it on the page."
    )
    got = [(k.unit, k.relation, k.value) for k in analyze(query).instructions]
    assert ("bold_spans", "at_least", 1) in got, got


@pytest.mark.parametrize(
    "query",
    ["use the term " + "a" * 300, "mention the A" + "b" * 250 + " app by name"],
)
def test_an_overlong_term_or_name_is_not_read_and_does_not_raise(query):
    assert not any(k.check == "keywords" for k in analyze(query).instructions)


def test_the_parts_tried_as_data_are_bounded():
    from scoregate.scoring.instructions import _MAX_DATA_PARTS, _plain_parts

    assert len(_plain_parts("\n\n".join("{" for _ in range(2000)))) <= _MAX_DATA_PARTS
    # a YAML run with blank lines inside, then prose, is still tried whole
    answer = "Here:\nname: CI\n\non: push\njobs:\n  t: 1\n\nThat's it."
    assert "name: CI\n\non: push\njobs:\n  t: 1" in _plain_parts(answer)


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("The distance is sqrt(x**2 + y**2).", []),
        ("Compute a**b where b = c**d", []),
        ("The **key** term and **another**.", ["**key**", "**another**"]),
    ],
)
def test_a_power_is_no_bold(text, spans):
    from scoregate.scoring.counting import bold_spans

    assert bold_spans(text) == spans

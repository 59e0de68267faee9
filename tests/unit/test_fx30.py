"""fx30: misreadings `gate_holdout30` showed after its one measure, each mended as a rule.

1. "not looking to buy a new phone" and "not looking for a gym membership" rule out what
   the asker is not shopping for ("not looking to spend more than 50" is a budget, and
   "Not looking good" or "not looking forward to" rule out nothing).
2. "No more hostels" rules out hostels ("no more than 50 words", "no more money than that",
   "no more, no less" are limits).
3. A reason after an exclusion ("the hills and parking stress me out", "it makes me
   obsessive") is no excluded item and no part of the ask.
4. A spaced "free" that leaves nothing out ("a free way to back up", "when everything else
   is free") stays in the ask when another clause of the sentence is cut.
5. Dorms are what a hostel offers; "costs a fraction of a new phone" buys no new phone.
6. "Assuming your dates are in column A" for "my dates are in column C": a formula built on
   a sheet the asker does not have.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted


@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        (
            "my phone dies by 3pm now. not looking to buy a new phone, it works fine"
            " otherwise. what can I do?",
            ["new phone"],
        ),
        ("Not looking for a gym membership, home workout ideas?", ["gym membership"]),
        ("not looking to spend more than 50 on a kettle, which one?", []),
        ("Not looking good - my tomato leaves are yellow, why?", []),
        ("Not looking forward to the exam, any tips?", []),
        ("No more hostels, I hated them. Where should I stay in Lisbon?", ["hostels"]),
        ("no more sedating medication of any kind, what else helps?", ["sedating medication"]),
        ("Keep it to no more than 50 words please.", []),
        ("I can spend no more money than that, what fits?", []),
        ("Exactly 5 tips, no more, no less.", []),
        (
            "I'd really rather not rent a car or drive there, the hills and parking stress me"
            " out. How do we get to Sintra?",
            ["car", "drive there"],
        ),
    ],
)
def test_what_an_exclusion_names(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


@pytest.mark.parametrize(
    ("query", "core"),
    [
        (
            "Moldy grout in my shower. I'd rather not use bleach, the smell makes me feel"
            " sick. How do I clean it?",
            "Moldy grout in my shower. How do I clean it?",
        ),
        (
            "Trying to lose about 10 pounds. Please don't suggest counting calories, it makes"
            " me obsessive.",
            "Trying to lose about 10 pounds.",
        ),
        (
            "Is there a free way to back up my photos? I'd rather not pay.",
            "Is there a free way to back up my photos?",
        ),
        (
            "Is there any way to file my taxes online for free, other than TurboTax?",
            "Is there any way to file my taxes online for free?",
        ),
        # an "X-free" still leaves X out of the ask
        ("Dairy free dessert ideas? Also no nuts.", "dessert ideas?"),
    ],
)
def test_what_is_asked_once_exclusions_are_cut(query: str, core: str) -> None:
    assert analyze(query).core_ask == core


@pytest.mark.parametrize(
    ("answer", "used"),
    [
        ("The big social spots have 6-bed dorms for a fraction of a hotel.", True),
        ("Book a private room in a budget hotel; no dorms, no bunk beds.", False),
        ("A pod-style private room hotel near Sloterdijk is good value.", False),
    ],
)
def test_a_dorm_is_a_hostel_bed(answer: str, used: bool) -> None:
    assert bool(check_members(["hostel"], answer).violated) is used


@pytest.mark.parametrize(
    ("answer", "affirmed"),
    [
        ("A battery swap usually costs a fraction of a new phone.", False),
        ("A new phone is really the fix.", True),
    ],
)
def test_a_price_told_against_an_item_uses_none(answer: str, affirmed: bool) -> None:
    assert mentions(answer, "new phone")[1] is affirmed


_SHEET = (
    "In Google Sheets my dates are in column C (C2:C500) and the amounts are in column F."
    " How do I sum the amounts just for March 2024?"
)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        (
            "Assuming your dates are in column A and the amounts in column B, this will do"
            ' it: =SUMIFS(B2:B500, A2:A500, ">="&DATE(2024,3,1))',
            "dates are in column a",
        ),
        # the request's own columns used: an aside about another layout is no premise
        (
            '=SUMIFS(F2:F500, C2:C500, ">="&DATE(2024,3,1)). If your dates were in column A'
            " instead, change C to A.",
            None,
        ),
        ("Use SUMIFS over column F with the dates in column C as the criteria range.", None),
        ('Put the month next to each date in column D with =TEXT(C2,"mmmm").', None),
    ],
)
def test_a_sheet_laid_out_otherwise(answer: str, said: str | None) -> None:
    found = contradicted(_SHEET, answer)
    assert (found[0][0] if found else None) == said


_PHOTOS = (
    "bash script help: all the files end in .JPEG (uppercase, with the E). want to rename"
    " them to include the date prefix like 2024-05-01_IMG_0001.JPEG"
)


@pytest.mark.parametrize(
    ("query", "answer", "said"),
    [
        (_PHOTOS, 'for f in *.jpg; do mv -n -- "$f" "$(date -r "$f" +%F)_$f"; done', "*.jpg"),
        (_PHOTOS, 'for f in *.JPEG; do mv -n -- "$f" "$(date -r "$f" +%F)_$f"; done', None),
        # the request's own extension globbed beside the new one: a conversion
        (
            "convert my .heic photos to jpg",
            'for f in *.heic; do magick "$f" "${f%.heic}.jpg"; done',
            None,
        ),
        # "Node.js", "e.g." name no files
        ("I use Node.js, e.g. for scripts. List the text files?", "ls *.txt", None),
    ],
)
def test_a_glob_of_another_extension(query: str, answer: str, said: str | None) -> None:
    found = contradicted(query, answer)
    assert (found[0][0] if found else None) == said


def test_an_extensions_case_counts_only_where_the_request_says_so() -> None:
    movies = "I have .MOV files from my iPhone, batch convert them to mp4 with ffmpeg"
    loop = 'for f in *.mov; do ffmpeg -i "$f" "${f%.mov}.mp4"; done'
    assert contradicted(movies, loop) == []
    assert contradicted(movies + " (uppercase extension)", loop)[0][0] == "*.mov"
    assert contradicted("my notes are .md files; count the words in all", "wc -w *.txt")


# A reviewer's round over the rules above: what they must leave alone.
@pytest.mark.parametrize(
    ("query", "excluded"),
    [
        ("My son (24) is not looking for a job at all. How do I talk to him?", []),
        ("Landlord says he's not looking to rent to students anymore. Is that legal?", []),
        ("How do I tell a recruiter politely that I'm not looking for a new role right now?", []),
        ("There are no more tickets for the Saturday show. Anything similar nearby?", []),
        ("My phone has no more battery by lunch, what's draining it?", []),
        ("No more ideas for dinner, help me plan 5 weeknight meals.", []),
        ("No more of those crappy hostels please, somewhere in Berlin?", ["crappy hostels"]),
        ("No more cable TV for us. Which streaming service has live sports?", ["cable tv"]),
    ],
)
def test_what_the_new_cues_leave_alone(query: str, excluded: list[str]) -> None:
    assert analyze(query).excluded == excluded


@pytest.mark.parametrize(
    ("query", "core"),
    [
        ("No coffee, what gives me energy at 3am?", "what gives me energy at 3am?"),
        (
            "I'm not looking for a relationship right now, just want to meet new people. Apps?",
            "just want to meet new people. Apps?",
        ),
    ],
)
def test_a_question_or_a_wish_after_an_exclusion_is_asked(query: str, core: str) -> None:
    assert analyze(query).core_ask == core


@pytest.mark.parametrize(
    ("answer", "term"),
    [
        ("Replace a fraction of the flour with ground almonds.", "almonds"),
        ("Put a small fraction of your portfolio into Bitcoin.", "bitcoin"),
    ],
)
def test_a_fraction_used_is_a_use(answer: str, term: str) -> None:
    assert mentions(answer, term)[1] is True


def test_an_answers_output_column_is_no_premise() -> None:
    query = "My phone numbers are in column A with spaces and dashes. How do I clean them?"
    answer = 'Put =REGEXREPLACE(A2, "[^0-9]", "") in B2; the clean numbers in column B.'
    assert contradicted(query, answer) == []


def test_a_dormitory_town_is_no_hostel() -> None:
    assert not check_members(["hostel"], "Almada is a quiet dormitory suburb.").violated

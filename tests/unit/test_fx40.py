"""fx40: what `gate_holdout40` showed when it was read, each mended as a rule.

1. A table asked for with a verb is a format instruction: "can you make a table comparing
   healing times and prices" fails an answer that gives the comparison as a bulleted list.
   A question about making a table in a tool ("how do I create a table showing sales in
   Word?"), someone else's table (a script's, the asker's own task), a table left to the
   answer ("a bulleted list is totally fine"), a database's table, a table of contents, a
   pivot table or a table of furniture is not read.
2. An activity the asker would rather avoid, with a preposition before its head ("I'd
   rather not pour it over ice"), is found however long the answer's own object is
   ("Pour the hot concentrated tea straight over the ice").
"""

from __future__ import annotations

import pytest

from scoregate.scoring.activities import affirmed_activities, avoided_activities
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze

TABLE_ASK = (
    "can you make a table comparing rough healing times and typical price ranges (US) for"
    " lobe, helix, nostril, septum and daith piercings"
)
AS_TABLE = """| Piercing | Healing time | Price (US) |
|---|---|---|
| Lobe | 6-8 weeks | $30-$60 |
| Helix | 6-12 months | $40-$80 |
| Daith | 9-12 months | $50-$90 |

Prices vary by city and studio."""
AS_BULLETS = """Here's a rough comparison:

- **Lobe:** heals in about 6-8 weeks; usually $30-$60.
- **Helix:** heals in about 6-12 months; usually $40-$80.
- **Daith:** heals in about 9-12 months; usually $50-$90.

Prices vary by city and studio."""


def formats(query: str) -> list[str]:
    return [str(i.value) for i in analyze(query).instructions if i.check == "format"]


@pytest.mark.parametrize(
    "query",
    [
        TABLE_ASK,
        "Could you put together a little table for me: four things to see with binoculars",
        "I'd like you to make a table comparing the three phone plans",
        "Please create a simple table showing the dose by weight",
        "give me a quick table listing each bus and its last stop",
        "Can you draw up a table with columns for price, range and weight?",
        "I need a table comparing the two leases side by side",
        "Can you make a table of the results?",
        "whip up a table comparing the three gyms near me",
    ],
)
def test_a_table_asked_for_with_a_verb_is_read(query):
    assert formats(query) == ["table"]


@pytest.mark.parametrize(
    "query",
    [
        "How do I create a table showing sales by month in Word?",
        "how to make a table with columns in google docs",
        "Can you create a table of contents for my thesis?",
        "Need to build a pivot table summarizing our sales by region",
        "how do I make a pivot table refresh automatically?",
        "I want to make a table for my patio out of old pallets",
        "we make a table showing the rota every week, how do I share it?",
        # someone else's table: code that makes one, or the asker's own task
        "Write me a Postgres migration that will create a table showing each customer's orders",
        "Write a Python script that will create a table showing word frequencies in a file",
        "My manager asked me to make a table comparing three CRM vendors. What columns?",
        "My teacher wants us to create a table showing the causes of WWI. Explain MAIN?",
        # a table left to the answer, or asked for as another format
        "Can you make a table comparing Notion and Obsidian? A bulleted list is totally fine.",
        "Can you make a table comparing the two job offers? A table or a list, whatever's clearer.",
        "Give me a quick table listing the US time zones and their offsets, as CSV please.",
        "I need a table of contents for my 40-page report, can you suggest headings?",
        # a database's table
        "create a table with columns id, email, created_at in postgres. id should auto increment",
        "create a table showing total per customer, my query SELECT customer FROM sales fails",
        "create a table with columns for name, email and signup date in my sqlite db",
    ],
)
def test_a_table_named_otherwise_is_not_read(query):
    assert formats(query) == []


def test_the_table_asked_for_fails_a_list_and_passes_a_table():
    (k,) = [i for i in analyze(TABLE_ASK).instructions if i.check == "format"]
    assert k.inferred
    ok, why = check_instruction(AS_TABLE, k)
    assert ok, why
    ok, why = check_instruction(AS_BULLETS, k)
    assert not ok and "no table" in why


ICE = (
    "whats the fastest way to chill down a pot of hot brewed tea for iced tea? i'd rather not"
    " pour it over ice, it always tastes watery to me"
)


def test_an_avoided_activity_is_found_past_a_long_object():
    acts = avoided_activities(ICE)
    assert [(a.verb, a.head, a.via) for a in acts] == [("pour", "ice", "over")]
    answer = "Brew it double strength, then pour the hot concentrated tea straight over the ice."
    ((_, words),) = affirmed_activities(answer, acts)
    assert words == "pour the hot concentrated tea straight over the ice"


@pytest.mark.parametrize(
    "answer",
    [
        # the verb within twelve words of the head, another preposition before it: as
        # before, too far
        "Pour the hot tea into a metal tray set on ice.",
        "Set the pot in a sink of ice water and stir; never pour the tea over the ice itself.",
        "Tea ice cubes chill it without watering it down.",
    ],
)
def test_other_answers_do_not_pour_it_over_ice(answer):
    assert affirmed_activities(answer, avoided_activities(ICE)) == []

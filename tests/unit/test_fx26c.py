"""The request's own figure restated as another figure (``scoring.restated``): "a 25 litre
tank" answered "since you have a 100 litre tank" or "a 60 litre tank like yours", "exam in
6 weeks" answered "since you've got about ten weeks". Narrow on purpose: only a figure given
as the asker's own premise is read (a cause, "your <n> <unit>", "a <n> <unit> <noun> like
yours"); ranges, steps of a plan, comparisons, conditions, questions, the future and a
figure worked out from the request's (a split, a remainder) are not restatements.

Narrowed by fx26d: "A 100 litre tank gives you plenty of room" (gate_holdout24 p3-007) and
"You've got sixteen weeks, which is a comfortable build" are no longer read (a bare "a <n>
<unit> <noun>" and a bare "you've got <n>"), and are not asserted either way."""

from __future__ import annotations

import time

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.fusion import fuse
from scoregate.scoring.restated import contradicted

CFG = load_scoring_config()

TANK = (
    "just set up a 25 litre tank, heated, planted, been cycling 5 weeks and readings look"
    " good now. what fish can actually go in it? dont want anything that'll be cramped"
)
EXAM = (
    "I've got my Goethe B1 German exam in 6 weeks. Reading and listening are fine, writing"
    " is my weak spot. Can you give me a week-by-week plan for writing?"
)
SIX_WEEK_PLAN = (
    "**Week 1 - Know the tasks.** Read the model papers.\n"
    "**Week 2 - Phrase banks.** Build a sheet of set phrases.\n"
    "**Weeks 3-4 - Timed practice.** You have 2 weeks to get fast.\n"
    "**Week 5 - Fix your errors.** List your repeat mistakes.\n"
    "**Week 6 - Mock and rest.** One full mock, then light review."
)


@pytest.mark.parametrize(
    ("query", "answer", "found"),
    [
        (
            TANK,
            "Since you have a 100 litre tank, there's room for a proper community set-up.",
            ("you have a 100 litre tank", "25 litre tank"),
        ),
        (
            "just set up a 25 litre tank. what fish?",
            "A 60 litre tank like yours suits a pair of dwarf gouramis.",
            ("a 60 litre tank like yours", "25 litre tank"),
        ),
        (
            EXAM,
            "Since you've got about ten weeks, here's a steady plan:\n\n**Weeks 1-2** tasks."
            "\n**Weeks 5-6** connectors.\n**Week 10** a mock and rest.",
            ("you've got about ten weeks", "6 weeks"),
        ),
        # budgets
        (
            "My budget is £600 for a sofa that seats four. Where should I look?",
            "With your £900 budget you can go to a mid-range shop like DFS.",
            ("your £900 budget", "£600"),
        ),
        (
            "I have £10,000 in savings and no debt. Where should I keep an emergency fund?",
            "Since you have £25,000 in savings, keep three months of costs in an easy-access"
            " account.",
            ("you have £25,000", "£10,000"),
        ),
        # ages
        (
            "My 7 year old son hates reading. How do I get him into books?",
            "Your 9-year-old is at an age where comics and graphic novels are a good way in.",
            ("your 9-year-old", "7 year old"),
        ),
        (
            "I'm 45 years old and just started running. How often should I run?",
            "Since you're 65 years old, three gentle runs a week with rest days between is plenty.",
            ("you're 65 years old", "45 years old"),
        ),
        # sizes
        (
            "We rent a 2 bed flat in Leeds. How much should we budget for energy bills?",
            "For your 3 bed flat in Leeds, budget around £150 a month.",
            ("your 3 bed flat", "2 bed flat"),
        ),
        (
            "My 30 kg dog is always hungry. How much should he eat a day?",
            "Your 10 kg dog needs about 300 grams of food a day, split into two meals.",
            ("your 10 kg dog", "30 kg dog"),
        ),
        (
            "We just bought a 3 bedroom house with a small garden. Which boiler size?",
            "For your 5-bed house a 35kW combi boiler is the usual pick.",
            ("your 5-bed house", "3 bedroom house"),
        ),
        # durations
        (
            "My first marathon is in twelve weeks and I've only run a half. Training plan?",
            "As you've got sixteen weeks, it is a comfortable build from half to full.",
            ("you've got sixteen weeks", "twelve weeks"),
        ),
        (
            "I'm 30 weeks pregnant. When should I pack my hospital bag?",
            "As you're 28 weeks along, start gathering things this week.",
            ("you're 28 weeks along", "30 weeks pregnant"),
        ),
        (
            "We're in Rome for 5 days. How should we split our time?",
            "Given you have 3 days in Rome, focus on the Vatican and the Colosseum.",
            ("you have 3 days", "5 days"),
        ),
        (
            "We have 3 days in Rome in May. What should we see?",
            "With your 5 days in Rome, give one whole day to the Vatican.",
            ("your 5 days", "3 days"),
        ),
        (
            "I have a 25 year mortgage at 4.5%. Should I overpay or save?",
            "On your 30-year mortgage the interest adds up, so overpaying early saves most.",
            ("your 30-year mortgage", "25 year mortgage"),
        ),
        # counts of people
        (
            "Hosting 40 guests for a garden BBQ. How much meat do I need?",
            "For your 25 guests, allow about 200g of meat per person.",
            ("your 25 guests", "40 guests"),
        ),
        (
            "I teach a class of 30 students. Ideas for a first-day icebreaker?",
            "With your 12 students, a name game in a circle works well.",
            ("your 12 students", "30 students"),
        ),
        (
            "I have 3 kids and a tiny car. Which seats fit three across?",
            "With your 2 kids, any two high-back boosters will fit.",
            ("your 2 kids", "3 kids"),
        ),
    ],
)
def test_a_figure_restated_as_another(query, answer, found):
    assert contradicted(query, answer) == [found]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # the plan of the request's own length: its steps end at the figure
        (EXAM, SIX_WEEK_PLAN),
        (EXAM, "In 2 weeks' time you'll have your phrase bank; by week 6, full mocks."),
        (EXAM, "Here's your 4-week plan, leaving the last 2 weeks for mocks."),
        (EXAM, "If you only have 3 weeks, cut the phrase bank short."),
        (EXAM, "Do you have 8 weeks? Then add a second round of mocks."),
        (EXAM, "You have 2 weeks left after the drills, so book a mock."),
        (EXAM, "You've got about 42 days, so here's a steady plan."),
        (EXAM, "Since you've got 6 weeks, here's a steady plan."),
        (EXAM, "Most people need 8 to 10 weeks, but your six weeks are enough if focused."),
        # comparisons, conditions, the request's own figure stated
        (TANK, "Unlike a 100 litre tank, your 25 litre one can't hold a community set-up."),
        (TANK, "A 60 litre tank would be more stable, but in 25 litres stick to a betta."),
        (TANK, "If you upgrade to a 60 litre tank later, you could add a shoal of tetras."),
        (TANK, "Your 25l tank suits a single betta. A 100 litre tank gives you more room."),
        (TANK, "A 5-week-old tank is still young, so add fish slowly."),
        # budgets
        (
            "My budget is £600 for a sofa. Where should I look?",
            "Your £600 budget rules out a £900 sofa, so try outlet stores.",
        ),
        (
            "I can spend up to £600 on a sofa. Where should I look?",
            "With your £500 budget, try outlet stores.",
        ),
        # ages
        (
            "My 7 year old wants a phone. Is it too early?",
            "Most experts suggest waiting; a 12-year-old is usually ready for a basic phone.",
        ),
        (
            "My 7 year old wants a phone. Is it too early?",
            "By the time your 12-year-old asks for social media, have the rules in place.",
        ),
        # counts of people
        (
            "Hosting 40 guests for a BBQ. How much meat?",
            "Tables of 8 guests each work well; allow 200g of meat per person.",
        ),
        (
            "Hosting between 20 and 30 guests for a BBQ. How much meat?",
            "For your 25 guests, allow 200g of meat per person.",
        ),
        (
            "Hosting over 40 guests for a BBQ. How much meat?",
            "For your 50 guests, allow 200g of meat per person.",
        ),
        (
            "My recipe serves 4 people and I need it for 10 people. How do I scale it?",
            "For your 10 people, multiply everything by 2.5.",
        ),
        (
            "I have 3 kids and 2 dogs. Which car has room for everyone?",
            "With your 2 kids and the dogs, a large estate car will do.",
        ),
        # sizes
        (
            "We're moving from a 2 bed flat to a 3 bed house. How much will bills go up?",
            "Your 3 bed house will use about a third more energy than the flat.",
        ),
        (
            "We rent a 2 bed flat in Leeds. How much for energy bills?",
            "A 3 bed flat would cost about a third more; for yours, budget £120 a month.",
        ),
        (
            "Should I get a 60 litre tank for 5 goldfish?",
            "A 200 litre tank is the minimum for 5 goldfish.",
        ),
        # durations and steps
        (
            "I can train 4 sessions a week. Plan for a 10k?",
            "Week 2: you have 3 sessions, one of them a long run.",
        ),
        (
            "I'm 34 weeks pregnant. What should I pack for hospital?",
            "At 34 weeks it's a good time to pack; by 36 weeks have the bag by the door.",
        ),
        (
            "We have six days in Rome. What should we see?",
            "With your 6 days, give one whole day to the Vatican.",
        ),
        (
            "I've got 30 minutes to cook dinner for two. Ideas?",
            "You have 10 minutes of prep and 20 minutes in the oven for this traybake.",
        ),
        (EXAM, "You've got 2 weeks to build vocabulary, then the rest for timed writing."),
        # another unit, another noun
        (
            "just set up a 25 litre tank. what fish?",
            "Your 25 litre tank fits about 8 ember tetras; a 10 litre water change a week.",
        ),
        # dropped with fx26d: a bare "a <n> <unit> <noun>" may be a general figure, and a
        # bare "you have / you've got <n>" a derived one (the time left, a share)
        (
            "We rent a 2 bed flat in Leeds. How much should we budget for energy bills?",
            "A 3 bed flat in Leeds will use around 3,000 kWh a year, so budget £150 a month.",
        ),
        (
            "We have a 12-hour layover in Doha. Can we leave the airport?",
            "Yes. The transit tour needs a 5-hour layover, so you qualify easily.",
        ),
        (
            "I'm 30 weeks pregnant. When should I pack my hospital bag?",
            "Good timing: you have about 10 weeks, so there's no rush.",
        ),
        # a premise's verb for a state: "you have 6 weeks" is the time left, not the weeks
        (
            "I'm 30 weeks pregnant. When should I pack my hospital bag?",
            "Given you have about 6 weeks, there's no rush.",
        ),
        # the future: "will", "next spring", "by then"
        (
            "My 3-year-old still uses a balance bike. When can she move to pedals?",
            "Next spring your 4-year-old will probably be ready for a 14 inch pedal bike.",
        ),
        (
            "My 3-year-old won't sleep in her own bed. What can I do?",
            "By then your 4-year-old can have a big-girl bed as a reward.",
        ),
        # a split, a remainder, a sum
        (
            "We have a £600 budget for a week in Lisbon. Is that enough?",
            "Since you've got roughly £85/day, a guesthouse and cheap lunches fit.",
        ),
        (
            "I have £10,000 in savings. Should I invest it?",
            "Keep £3,000 aside. That means your £7,000 can go into an index fund.",
        ),
        (
            "I have 45 minutes to make dinner after work. Any ideas?",
            "Since you have 35 minutes left for the oven, try a traybake.",
        ),
        (
            "I have 6 weeks off between jobs. What should I do?",
            "Since you've got 4 weeks after the move, book one long trip.",
        ),
    ],
)
def test_what_is_not_a_figure_restated(query, answer):
    assert contradicted(query, answer) == []


def _fused(query: str, answer: str, cfg=CFG):
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.9),
        "precision": TrackScore(name="precision", score=0.99),
    }
    return fuse(ScoreRequest(query=query, content=answer), tracks, cfg)


def test_the_figure_caps_the_answer_with_both_named_and_the_key_turns_it_off():
    answer = "Since you've got about ten weeks, here's a steady plan: phrase banks first."
    r = _fused(EXAM, answer)
    assert r.score == CFG.fusion.missed_ask_cap < CFG.actions.accept
    assert any("'you've got about ten weeks'" in x and "'6 weeks'" in x for x in r.reasons)
    off = CFG.model_copy(
        update={"fusion": CFG.fusion.model_copy(update={"restated_fact_check": False})}
    )
    assert not any("ten weeks" in x for x in _fused(EXAM, answer, off).reasons)


@pytest.mark.parametrize(
    "answer",
    ["if a 1 litre tank " * 5000, "if a 1 litre tank. " * 5000, "1-" * 25000, "9" * 50000],
)
def test_a_long_answer_is_read_in_linear_time(answer):
    # reading each figure's sentence from the start took 15 s here on 90,000 characters
    start = time.perf_counter()
    assert contradicted("My 25 litre tank has been cycling 5 weeks. Fish?", answer) == []
    assert time.perf_counter() - start < 3

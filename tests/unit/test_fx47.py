"""fx47: what `gate_holdout47` showed when it was read, each mended as a rule.

1. Refusals: "I'm not going tubeless" rules out tubeless, "don't want to mess about with
   sealant" the sealant, "Took the heel brake off ... How do I stop without it?" the heel
   brake; "We're not going vegan" is no vegan diet to keep.
2. In the answer, "a multi-effects unit with amp models" is no amp.
3. Forms: "exactly 5 valid two-letter words" asks for a list of five (not two words); a JSON list of
   "exactly 3 objects" is counted by its objects; "whats" opens a second ask.
4. A credential held ("Got my A licence last month") offered again ("pass your A licence
   check").
5. The asker's facts told back the other way: going solo and "your passenger"; "next
   Saturday's gig" and "With a month or so to go"; "starting 9am" and "your early afternoon
   start".
6. A plan against the asker's time: a step left overnight for "I only have about 2 hours";
   a budget's "Skip the budget brands and get a premium gi at $180-200".
"""

from __future__ import annotations

import pytest

from scoregate.scoring.budget import over_budget
from scoregate.scoring.counting import count_units
from scoregate.scoring.request_analysis import analyze, split_asks
from scoregate.scoring.restated import contradicted
from scoregate.scoring.timebox import over_time
from scoregate.scoring.tried import offered_again, tried_things
from tests.reading import items, violated

TUBES = (
    "Running normal clinchers with inner tubes on my cross bike and I'm not going tubeless - "
    "don't want to mess about with sealant. What pressure should I run for muddy races?"
)
BRAKE = (
    "Took the heel brake off my inline skates because it kept catching when I do crossovers."
    " How do I stop without it? I mostly skate on bike paths."
)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (TUBES, ["sealant", "tubeless"]),
        ("Not going tubeless. What pressure?", ["tubeless"]),
        ("I don't want to play around with settings. Which app?", ["play"]),
        ("I'd rather not fiddle with drivers. Which printer?", ["drivers"]),
        # not a way refused: a place, a time, a manner
        ("I'm not going back to the gym. How do I stay fit?", []),
        ("I'm not going anywhere near it. What pressure?", []),
        ("I'm not going out tonight. What should I cook?", []),
        ("I am not going crazy on price. Which one?", []),
        # a part taken off, then done without
        (BRAKE, ["heel brake"]),
        (
            "I removed the stabilisers from her bike. How does she balance without them?",
            ["stabilisers"],
        ),
        ("I took the lid off. How do I cook it?", []),
        ("I took the lid off. How do I cook it without a timer?", ["timer"]),
    ],
)
def test_what_is_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("We're not going vegan, but what can we cook tonight?", ["vegan"]),
        ("We've never gone keto. What should we eat?", []),
        ("We're going vegan. What can we cook?", ["meat", "seafood", "dairy"]),
    ],
)
def test_a_diet_refused_is_no_diet_to_keep(query: str, want: list[str]) -> None:
    assert items(query)[: len(want)] == want
    if not want:
        assert items(query) == []


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            TUBES,
            "For proper mud, the real answer is to convert to tubeless with sealant.",
            ["sealant", "tubeless"],
        ),
        (TUBES, "With tubes you can't go as low as tubeless riders. Try 30 psi.", []),
        (
            BRAKE,
            "Refit the heel brake before you set off and use a heel-brake stop.",
            ["heel brake"],
        ),
        (BRAKE, "Here are the ways to stop without a heel brake: a T-stop, a plough.", []),
        (
            "how do i practise bass silently at night? I've got a laptop but no amp, and I'm"
            " not buying one.",
            "A bass multi-effects unit with a headphone output has amp models built in.",
            [],
        ),
        (
            "No amp, and I'm not buying one. How do I practise silently?",
            "Use an amp simulator plugin on the laptop.",
            [],
        ),
        (
            "No amp, and I'm not buying one. How do I practise silently?",
            "Get a compact practice amp with a headphone socket.",
            ["amp"],
        ),
    ],
)
def test_what_the_answer_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


def counts(query: str) -> list[tuple[str | None, object]]:
    return [(i.unit, i.value) for i in analyze(query).instructions if i.check == "count"]


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("give me exactly 5 valid two-letter words that use J, Q, X or Z.", [("items", 5)]),
        ("List 5 four-letter words with Q.", [("items", 5)]),
        ("Name 4 three-syllable words for a poem.", [("items", 4)]),
        ("What are some two-letter words with Q?", []),
        ("Write a 3 sentence summary of this.", [("sentences", 3)]),
    ],
)
def test_a_length_of_each_word_is_no_count(query: str, want: list[tuple[str, int]]) -> None:
    # (a number of words each of a length is a list of them, counted by its items)
    assert counts(query) == want


def test_a_json_list_is_counted_by_its_elements() -> None:
    four = '[{"food": "a"}, {"food": "b"}, {"food": "c"}, {"food": "d"}]'
    assert count_units(four, "items", None) == 4
    assert count_units("```json\n[1, 2, 3]\n```", "items", None) == 3
    assert count_units('{"food": "a"}', "items", None) is None
    assert count_units("[not json", "items", None) is None
    # a markdown list still counts as one
    assert count_units("- a\n- b", "items", None) == 2


def test_an_ask_typed_without_its_apostrophe_is_an_ask_of_its_own() -> None:
    query = (
        "just got quad skates. what wheels should I swap to, and whats the easiest way for a"
        " beginner to stop?"
    )
    assert split_asks(query) == (
        "what wheels should I swap to",
        "whats the easiest way for a beginner to stop?",
    )


SKYDIVE = (
    "Got my A licence last month, I'm on 28 jumps now. I want to start jumping with other"
    " people. What's the next step?"
)


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            SKYDIVE,
            "The first thing is to finish your AFF levels and pass your A licence check.",
            "pass your A licence",
        ),
        (SKYDIVE, "With your A licence done, book coached jumps. Get your B licence later.", None),
        (
            "I passed my theory test last week. What should I do next?",
            "Next, book and pass your practical test.",
            None,
        ),
        (
            "I passed my theory test last week. What should I do next?",
            "First, pass your theory test.",
            "pass your theory test",
        ),
    ],
)
def test_a_credential_held_offered_again(query: str, answer: str, want: str | None) -> None:
    again = offered_again(answer, tried_things(query))
    assert [words for _, words in again] == ([want] if want else [])


@pytest.mark.parametrize(
    "query",
    [
        "I got my licence suspended. How do I get it back?",
        "I got my test results today. What do they mean?",
    ],
)
def test_a_credential_lost_is_none_held(query: str) -> None:
    assert [t for t in tried_things(query) if t.act == "earn"] == []


SOLO = (
    "My usual chase partner dropped out so I'm going solo for a week on the Plains. Tips for"
    " doing it safely on my own?"
)
GIG = (
    "I've been asked to cover lead at next Saturday's gig. Should I switch to a shallower"
    " mouthpiece just for this?"
)
RACE = "third cx race on sunday, 40 min race starting 9am. what should I eat beforehand?"


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (SOLO, "- Let your passenger run radar and call out the storm's motion.", "your passenger"),
        (SOLO, "- If you can find a passenger, let your passenger run radar.", None),
        (SOLO, "Since your chase partner dropped out, check in with someone at home.", None),
        (SOLO, "Share your location with your partner at home.", None),
        (GIG, "With a month or so to go before the gig, you've time to settle in.", "with a month"),
        (GIG, "I wouldn't, not with less than a week to go.", None),
        (GIG, "If you had a month or so to go, I'd try it.", None),
        (RACE, "Eat about 3 hours before your early afternoon start.", "your early afternoon"),
        (RACE, "Eat about 3 hours before your morning start.", None),
        ("Kick-off is at 7:30pm. What should I eat?", "Eat by 4pm before your evening game.", None),
    ],
)
def test_a_fact_told_back_the_other_way(query: str, answer: str, want: str | None) -> None:
    found = contradicted(query, answer)
    if want is None:
        assert found == []
    else:
        assert found and found[0][0].startswith(want)


BAGELS = (
    "Can I make decent bagels from scratch on Sunday morning if I only have about 2 hours"
    " from start to eating?"
)


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("Shape, cover the tray and refrigerate the bagels overnight before boiling.", True),
        ("Shape and rest 20 minutes or overnight.", False),
        ("Next time, an overnight cold retard improves flavour.", False),
        ("No overnight rest is needed: shape, rest 15 minutes, boil.", False),
        ("Make the dough the night before and leave it overnight in the fridge.", False),
    ],
)
def test_a_step_left_overnight_in_a_short_sitting(answer: str, flagged: bool) -> None:
    assert (over_time(BAGELS, answer) is not None) is flagged


def test_a_step_left_overnight_under_a_daily_limit_is_not_read() -> None:
    query = "I only have 30 minutes a day to cook. Any tips?"
    assert over_time(query, "Marinate the chicken overnight.") is None


GI = "Starting BJJ next month. My budget is around $80 total. What gi should I get?"


@pytest.mark.parametrize(
    ("answer", "flagged"),
    [
        ("Skip the budget brands and get a premium gi like a Shoyoroll at around $180-200.", True),
        ("Skip the $180 premium gis and get a basic one.", False),
        ("A $180 Shoyoroll is one to avoid.", False),
        ("Avoid the cheap ones; get a $150 gi.", True),
    ],
)
def test_a_turn_after_steering_away_offers_the_amount(answer: str, flagged: bool) -> None:
    assert (over_budget(GI, answer) is not None) is flagged


SIDE = (
    "Our Cotswold morris side is down to 5 dancers this season after one moved away. Which"
    " dances can we still put out at the May Day dance-out?"
)


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("- Set dances: with your full set of six you can put out your usual dances.", True),
        ("With five you can still give a show; borrow a dancer for your six-person dances.", False),
        ("With your full set of five, lead with jigs.", False),
    ],
)
def test_a_group_down_to_a_size_told_at_another(answer: str, want: bool) -> None:
    assert bool(contradicted(SIDE, answer)) is want


ROLLS = (
    "Me and 2 mates want to paddle out to an island about 4 km offshore next Saturday. All"
    " three of us have solid rolls and have done plenty of open crossings. What should we"
    " sort out beforehand?"
)


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (ROLLS, "- Rescues: as your rolls aren't reliable yet, practise assisted rescues.", True),
        (ROLLS, "Your shaky rolls need work before the crossing.", True),
        (ROLLS, "- Even with solid rolls, practise rescues together.", False),
        (ROLLS, "Your paddling fitness isn't there yet, so train first.", False),
        ("I have a good job. Which car should I buy?", "Your job isn't strong enough.", False),
    ],
)
def test_a_sound_skill_told_as_unsound(query: str, answer: str, want: bool) -> None:
    assert bool(contradicted(query, answer)) is want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        # round 1 of review: more forms of a day's part, time left and a companion
        (
            "Sportive starting 7am on Saturday. How should I plan breakfast?",
            "- **Breakfast:** since yours is a mid-afternoon start, have a relaxed brunch.",
            True,
        ),
        (
            "Parkrun starts at 9am. What should I eat?",
            "For an evening race like yours, lunch.",
            True,
        ),
        (
            "Kick-off for my son's match is 2:30pm Sunday.",
            "Because it's a morning match, eat early.",
            True,
        ),
        ("Match kicks off at 6pm on Saturday.", "For a morning match, porridge.", True),
        (
            "Match kicks off at 6pm.",
            "For a morning match, porridge. For an evening match, pasta.",
            False,
        ),
        ("Parkrun starts at 9am. Any advice?", "Don't fuel like it's an afternoon race.", False),
        ("My first half marathon is this Sunday.", "With six weeks still to go, build up.", True),
        ("Dog show is next Saturday.", "Over the next couple of months, practise the stack.", True),
        ("Dog show is next Saturday.", "Over the next few weeks after the show, rest her.", False),
        ("We fly to Lisbon on Friday.", "Since the trip is still a few weeks off, relax.", True),
        (
            "Interview tomorrow. How do I prepare?",
            "You've got a good couple of months to prepare.",
            True,
        ),
        (
            "Doing the South West Coast Path solo for five days. How should I split the kit?",
            "Have your walking partner carry the tent.",
            True,
        ),
        (
            "I'm learning the guitar solo from Hotel California. Tips?",
            "Your teammate can help.",
            False,
        ),
    ],
)
def test_more_forms_told_back(query: str, answer: str, want: bool) -> None:
    assert bool(contradicted(query, answer)) is want


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (
            "I've got about 3 hours before friends arrive. Pizza dough plan please?",
            "Cover and let it cold-prove in the fridge overnight for the best flavour.",
            True,
        ),
        (
            "I've got about 3 hours before friends come round. A tikka recipe?",
            "Coat the chicken and leave it in the fridge until the next morning.",
            True,
        ),
        ("I've got about 3 hours before friends arrive. Plan?", "Prove it for an hour.", False),
    ],
)
def test_a_night_is_past_a_deadline_too(query: str, answer: str, flagged: bool) -> None:
    assert (over_time(query, answer) is not None) is flagged


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        ("I've got about £200 for a running watch. Which one?", "Forerunner 265 - £349.", True),
        ("Trying to keep it around €50. A present for dad?", "Felco No. 2 secateurs, €75.", True),
        ("I've got about 200 photos for a slideshow. Which app?", "Canva Pro is £99.", False),
    ],
)
def test_more_budgets_read(query: str, answer: str, flagged: bool) -> None:
    assert (over_budget(query, answer) is not None) is flagged


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "Got my Level 2 food hygiene certificate last month. What else do I need to sell"
            " cakes from home?",
            "- Obtain a Level 2 Food Hygiene certificate - councils expect one.",
            ["level 2 food hygiene certificate"],
        ),
        (
            "My partner and I both got our Level 2 food hygiene certificates last year. What"
            " do we need to sort?",
            "2. Make sure you both obtain a Level 2 Food Hygiene certificate first.",
            ["level 2 food hygiene certificates"],
        ),
    ],
)
def test_a_credential_named_in_full_offered_again(query: str, answer: str, want: list[str]) -> None:
    assert [t.item for t, _ in offered_again(answer, tried_things(query))] == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "No telescope and we're not buying one. Can my kids see Saturn's rings?",
            "Astronomy society members set up their own telescopes on open nights.",
            [],
        ),
        (
            "Took the doors off our kitchen wall cabinets. How do we stop grease without them?",
            "Plenty of people give up and rehang the doors, but a weekly wipe avoids that.",
            [],
        ),
        (
            "No sewing machine and I'm not buying one. How do I hem curtains?",
            "A small, even backstitch looks almost like sewing-machine stitching.",
            [],
        ),
        (
            "No dishwasher and I'm not installing one. Washing-up tips?",
            "Get a countertop dishwasher - models like the Comfee need no plumbing.",
            ["dishwasher"],
        ),
        (
            "We're not going electric for the new lawnmower. What should I get?",
            "**Best pick:** a 40V cordless mower like the EGO.",
            ["electric"],
        ),
        (
            "Took the crate out of the lounge. How do I stop him chewing when we're out"
            " without it?",
            "Set the crate back up for now and pop him in it when you leave.",
            ["crate"],
        ),
    ],
)
def test_round_one_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        # round 2 of review
        (
            "I don't want to use a pressure washer as it'll blast the sand out of the joints."
            " What else works?",
            "The quickest fix is to hire a pressure washer for an afternoon.",
            ["pressure washer"],
        ),
        (
            "We're not going gas for the new barbecue, charcoal only. What kettle grill?",
            "Since you've ruled out gas, a 57cm kettle is the sweet spot.",
            [],
        ),
        (
            "We're not going gas for the new barbecue. What's a good charcoal one?",
            "A kamado holds heat so well it feels almost like cooking on gas.",
            [],
        ),
        (
            "We're not going gas for the new barbecue. What's a good charcoal one?",
            "The vents give you close to the easy control you'd have on a gas grill.",
            [],
        ),
        (
            "We're not going vinyl for the kitchen floor. What's durable for a big dog?",
            "Since vinyl's off the table, porcelain tile is the toughest option.",
            [],
        ),
        (
            "We're not going vinyl for the kitchen floor. What's durable for a big dog?",
            "Avoid laminate too - it has the same seam-swelling problem you saw with vinyl.",
            [],
        ),
        (
            "I don't want a dog walker - how do I handle my spaniel's midday break myself?",
            "Plenty of your neighbours probably pay dog walkers, but a routine works.",
            [],
        ),
    ],
)
def test_round_two_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "Got my PADI Open Water certification in May! Planning a Red Sea trip.",
            "- **Certification:** earn your PADI Open Water before you travel.",
            True,
        ),
        (
            "My partner and I both passed our Emergency First Aid at Work course last month.",
            "1. Make sure you both complete an Emergency First Aid at Work qualification.",
            True,
        ),
        (
            "My husband and I both have our PADI Open Water certification. Tips for Hurghada?",
            "1. **Certification:** Make sure you both earn your PADI Open Water first.",
            True,
        ),
        (
            "We've both got our First Aid at Work certificates. What paperwork for our B&B?",
            "- **First aid:** make sure you each earn a First Aid at Work certificate.",
            True,
        ),
        ("I have my driving test next week. Any tips?", "Pass your driving test first.", False),
    ],
)
def test_round_two_credentials(query: str, answer: str, want: bool) -> None:
    assert bool(offered_again(answer, tried_things(query))) is want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "Tee time is 7:40am for my club's medal round tomorrow. What should I eat?",
            "For an afternoon round like yours, have a proper lunch around 11.",
            True,
        ),
        (
            "My son's swimming gala starts at 6:30pm on Friday. What should he eat?",
            "Because it's a morning gala, keep breakfast light.",
            True,
        ),
        (
            "I'm running my first 10K tomorrow. What should I eat tonight?",
            "After the race, over the next few weeks ease back in with easy runs.",
            False,
        ),
        (
            "I've got solid sight-reading and just joined an orchestra. How do I prepare?",
            "Because your sight-reading is still shaky, learn the passages by ear.",
            True,
        ),
        (
            "Both my kids have a reliable front crawl now. What's a good next goal?",
            "As their front crawl still isn't consistent, spend more weeks on kick drills.",
            True,
        ),
        (
            "Our pub quiz team is down to 3 since two people moved away. Tactics?",
            "With your full team of five, split the rounds by category.",
            True,
        ),
        ("Our pub quiz team is down to 3. Tactics?", "With three of you, split the rounds.", False),
    ],
)
def test_round_two_told_back(query: str, answer: str, want: bool) -> None:
    assert bool(contradicted(query, answer)) is want


def test_round_two_forms() -> None:
    assert counts("For my kid's spelling game, give me exactly 6 one-syllable fruit words.") == [
        ("items", 6)
    ]
    query = "Around €40 for my nephew's 8th birthday present, he loves building things. Ideas?"
    answer = "Skip the cheap plastic sets and get the LEGO Technic truck at €90."
    assert over_budget(query, answer) is not None
    assert over_time(
        "I want to bake a loaf for tonight, I've got roughly 5 hours from now. Recipe?",
        "Shape it and put the dough in the fridge overnight for a slow rise.",
    )


@pytest.mark.parametrize(
    "query",
    [
        "I'm not going solo this time, my brother's coming. Tips for the Plains?",
        "I don't want to go alone on the ridge. Tips?",
    ],
)
def test_going_alone_refused_is_no_outing_alone(query: str) -> None:
    assert contradicted(query, "- Let your passenger run radar.") == []


@pytest.mark.parametrize(
    "query",
    [
        "I've got my Goethe B1 German exam in June. How should I revise?",
        "Got my ticket for the festival! What should I pack?",
        "I've got my driving test on Friday. Any tips?",
    ],
)
def test_a_test_to_come_or_a_ticket_is_no_credential(query: str) -> None:
    assert [t for t in tried_things(query) if t.act == "earn"] == []


def test_weeks_away_from_a_day_named_are_weeks_away() -> None:
    query = "My marathon is 6 weeks from this Saturday. Can you lay out my long runs?"
    assert contradicted(query, "With six weeks to go and a 12-mile longest run, build up.") == []

"""fx45: what `gate_holdout45` showed when it was read, each mended as a rule.

1. "we've got no gym and no equipment whatsoever" is a lack of each ("they got no reply"
   is still what happened); "avoid chainsaws altogether" rules out chainsaws.
2. Members: training kit is equipment (a resistance band), JustGiving is crowdfunding,
   stakes are playing for money.
3. A thing already known ("I already know full OLL and full PLL") is offered again by
   "Finish learning full OLL", not by "Polish your full OLL".
4. The asker's party ("it's just me and my wife") answered for another ("With four
   players, each draws 5 tiles").
5. The asker's sessions a week told with their limit ("once a week ... and that's it")
   planned as more ("three sessions a week").
6. Full function of a body part ("full trunk and hip function") answered as weak ("Since
   your trunk control is limited").
"""

from __future__ import annotations

import pytest

from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted
from scoregate.scoring.tried import offered_again, tried_things
from tests.reading import items, violated

LAND = (
    "Dragon boat season starts in 8 weeks. We want to train twice a week but we've got no "
    "gym and no equipment whatsoever, just a park. What should the sessions look like?"
)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (LAND, ["gym", "equipment"]),
        ("I've got no oven. What can I cook for six?", ["oven"]),
        ("We've got no car, how do we get to the airport at 5am?", ["car"]),
        # what happened, not a lack
        ("I got no reply from the landlord. What now?", []),
        ("They got no refund after the flight was cancelled. Can they claim?", []),
        (
            "We're trying to avoid chainsaws altogether. What kit do we need for hazel?",
            ["chainsaws"],
        ),
    ],
)
def test_lacks_and_refusals_read(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (LAND, "6. Resistance-band rows, with the band looped round a tree.", ["equipment"]),
        (LAND, "Bring a jump rope for the warm-up.", ["equipment"]),
        (LAND, "6. Superman holds for the lower back. No dumbbells needed.", []),
        (
            "We need £3,000 for a junior chair and we're trying to avoid online crowdfunding. "
            "Ideas?",
            "- A JustGiving or GoFundMe page shared on the club's WhatsApp groups.",
            ["online crowdfunding"],
        ),
        (
            "We need £3,000 for a junior chair and we're trying to avoid online crowdfunding. "
            "Ideas?",
            "- A sponsored push-a-thon, with pledges collected on paper forms.",
            [],
        ),
        (
            "We love backgammon but no playing for money, not even pennies. How do we make "
            "the cube matter?",
            "- Blackjack with a 20p buy-in per round keeps everyone invested.",
            ["for money"],
        ),
        # stakes as what is at stake, not money
        (
            "We love backgammon but no playing for money, not even pennies. How do we make "
            "the cube matter?",
            "Keep the stakes about bragging rights: the loser makes the tea.",
            [],
        ),
        (
            "We love backgammon but no playing for money, not even pennies. How do we make "
            "the cube matter?",
            "Play to 7 points and keep a running match score in a notebook.",
            [],
        ),
    ],
)
def test_members_of_what_is_ruled_out(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


CUBER = (
    "I average about 18 seconds on 3x3 using CFOP. I already know full OLL and full PLL and "
    "ive been stuck for months. What should I focus on to break sub-15?"
)


@pytest.mark.parametrize(
    ("query", "answer", "again"),
    [
        (CUBER, "Finish learning full OLL and full PLL: two-look costs you seconds.", True),
        (CUBER, "1. Learn full PLL properly before anything else.", True),
        (CUBER, "Polish your full OLL and PLL execution and drill the slow cases.", False),
        (CUBER, "Since you already know full PLL, work on recognition.", False),
        (CUBER, "You could learn ZBLL later, but F2L is where the time goes.", False),
        (
            "I already know Python and want to learn Rust. Where do I start?",
            "Start with the Rust book, chapters 1 to 8.",
            False,
        ),
    ],
)
def test_a_thing_already_known_offered_again(query: str, answer: str, again: bool) -> None:
    assert bool(offered_again(answer, tried_things(query))) is again


def test_what_is_known_ends_at_a_wish() -> None:
    known = tried_things("I already know Python and want to learn Rust. Where do I start?")
    assert [t.item for t in known] == ["python"]
    assert tried_things("I already know how to solder. Which iron should I buy?") == []


DOMINOES = (
    "It's just me and my wife tonight, playing the Draw game with a double-six set. How "
    "many tiles should each of us take?"
)


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (DOMINOES, "With four players, each draws 5 tiles and partners sit opposite.", True),
        (DOMINOES, "With two of you, each draws 7 tiles, leaving 14 in the boneyard.", False),
        # both sizes told: a note on the variant, not a wrong premise
        (DOMINOES, "Each of you draws 7. With four players, it would be 5 each.", False),
        (DOMINOES, "Each of you draws 7 tiles; the rest stay face down.", False),
        (
            "There are four of us going camping. What should we pack?",
            "For six people, bring three tents.",
            True,
        ),
        (
            "There are four of us going camping. What should we pack?",
            "For four people, two 2-person tents or one 4-person tent.",
            False,
        ),
    ],
)
def test_the_asker_party_told_back(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


HALL = (
    "I coach a wheelchair basketball team. We get the hall once a week for 90 minutes and "
    "that's it, no other sessions possible. How should I split the time?"
)


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (HALL, "Split it across three sessions a week so the habits get repeated.", True),
        (HALL, "For one 90-minute session a week: warm-up, drills, scrimmage.", False),
        (HALL, "If you can ever get a second slot, two sessions a week would help.", False),
        ("I can only train twice a week. Plan?", "Do three sessions a week: M, W, F.", True),
        # no limit told: more is advice
        ("I train twice a week. Plan?", "Do three sessions a week if you can.", False),
        (
            "I can get to the gym Mon/Wed/Fri. I don't want a split where each muscle only "
            "gets hit once a week. A beginner programme?",
            "Here's a full-body plan that trains everything three times a week.",
            False,
        ),
    ],
)
def test_weekly_sessions_with_a_limit(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


TRUNK = (
    "I'm a below-knee amputee with full trunk and hip function, new to wheelchair "
    "basketball. How can I use my trunk better for rebounding?"
)


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (TRUNK, "Since your trunk control is limited, keep your back on the backrest.", True),
        (TRUNK, "Full trunk and hip function is a real advantage: lean and reach.", False),
        (
            TRUNK,
            "Players whose trunk control is limited use a high strap; you won't need one.",
            False,
        ),
        (
            "I have good core strength but weak hips. Exercises?",
            "Since your hips are weak, start with clamshells.",
            False,
        ),
    ],
)
def test_full_function_taken_as_weak(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (
            "I can only get to the climbing wall twice a week, Tuesday and Friday evenings. "
            "Training plan to get from V3 to V5?",
            "- Tuesday: limit bouldering\n- Thursday: technique at the wall\n- Friday: 4x4s",
            True,
        ),
        (
            "I can only get to the climbing wall twice a week, Tuesday and Friday evenings. "
            "Training plan to get from V3 to V5?",
            "- Tuesday: limit bouldering\n- Wednesday: rest\n- Friday: 4x4s\n"
            "- Sunday: antagonist push-ups at home",
            False,
        ),
        (
            "Our novice crew only gets the boats on Saturday mornings. Regatta in 10 weeks, "
            "what should we focus on?",
            "On Saturday mornings do pause drills, and add a Wednesday evening water session.",
            True,
        ),
        # a day told of another event, not of a session
        (
            "The landlord only hands over the keys on Monday at 8am. A Friday-to-Tuesday "
            "moving timeline?",
            "Friday: pack. Saturday: load. Monday: collect the keys. Tuesday: IT setup.",
            False,
        ),
        (
            "My supervisor can only meet once a week. How should I use our meetings?",
            "Book a Monday meeting to set targets and a Friday meeting to review drafts.",
            True,
        ),
        (
            "Work means I can train twice a week, no more. Am I wasting my time at BJJ?",
            "People training five or six times a week progress faster, but twice a week for "
            "years still earns belts.",
            False,
        ),
        (
            "my exchange partner and I can only meet once a week over video. How can we make "
            "it more useful?",
            "Instead of one hour, meet twice a week for 30 minutes each.",
            True,
        ),
    ],
)
def test_weekly_limit_against_planned_weekdays(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (
            "There are three of us sharing a house. A fair chore rota?",
            "With four housemates, rotate four zones weekly.",
            True,
        ),
        (
            "there are four of us including me as DM. What level should we start at?",
            "With three players and you behind the screen, start at level 3.",
            False,
        ),
        (
            "Road trip, there's 5 of us, fuel was £180 and the Airbnb £600. Who owes what?",
            "Total £780. Split between four, that's £195 each.",
            True,
        ),
        (
            "me and my boyfriend want a party game for a night in",
            "Codenames Duet is made for two. With four players, the classic version is better.",
            False,
        ),
        (
            "Got golfer's elbow. Shoulder mobility is normal. How do I adapt my swing?",
            "Given your restricted shoulder range, keep your backswing short.",
            True,
        ),
        (
            "Broke my ankles; hips and trunk are totally fine. How do I walk normally again?",
            "Because your trunk stability is compromised, use a walker at first.",
            True,
        ),
        (
            "Below-knee amputee, full hip function both sides. Road bike tips?",
            "With the hip weakness, use lower gears at first.",
            True,
        ),
    ],
)
def test_reviewers_parties_and_bodies(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


@pytest.mark.parametrize(
    ("query", "answer", "again"),
    [
        (
            "I already know the git basics - commit, branch, merge. What next for team work?",
            "Start by learning the git basics properly, then interactive rebase.",
            True,
        ),
        (
            "I already know my major scales in all 12 keys. Jazz improvising tips?",
            "Step 1: Finish learning your major scales in all 12 keys.",
            True,
        ),
        (
            "I'm fluent in SQL already. What's the roadmap into data engineering?",
            "1. Learn SQL: joins, window functions and CTEs.",
            True,
        ),
        (
            "i already know all the open chords. how do I get better at songs?",
            "- Memorise the open chords until you can play each without looking.",
            True,
        ),
        (
            "I already know BFS and DFS. What graph topics come next?",
            "Since you know BFS and DFS, learn Dijkstra and topological sort next.",
            False,
        ),
    ],
)
def test_reviewers_known_things(query: str, answer: str, again: bool) -> None:
    assert bool(offered_again(answer, tried_things(query))) is again


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "I've got no childcare and can't afford any. How do I find time to study?",
            "- Book a childminder for one morning a week before deadlines.",
            ["childcare"],
        ),
        (
            "No alcohol whatsoever at our nikah reception. A dessert table for 120?",
            "- Tiramisu glasses, with a splash of sherry in the coffee",
            ["alcohol"],
        ),
        # a fortified wine named as what the classic recipe has is left to the model:
        # "Classic recipes add a splash of Marsala, but you can leave it out"
        (
            "No alcohol in the tiramisu please, my nan doesn't drink.",
            "Classic recipes add a splash of Marsala, but you can leave it out completely.",
            [],
        ),
    ],
)
def test_reviewers_members(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (
            "party of 5 going to Center Parcs for a long weekend. which lodge should we book?",
            "The 2-bedroom Woodland Lodge is ideal for a family of four.",
            True,
        ),
        (
            "My fiancée and I are moving to Berlin. How big a flat should we look for?",
            "For three people, aim for a 3-room flat of around 80m².",
            True,
        ),
        (
            "five of us play poker every other week. how many chips each from 300?",
            "With 6 players, give each person 50 chips.",
            True,
        ),
        (
            "five of us play poker every other week. how many chips each from 300?",
            "With five players, 60 chips each works well.",
            False,
        ),
        (
            "Our cricket seconds get the nets once a week, Thursday evening, that's all. "
            "How should we plan pre-season?",
            "From April, aim for three net sessions a week before the first game.",
            True,
        ),
        (
            "I only get one physio session a week for my knee. Anything to speed it up?",
            "It's worth booking a second session each week for the first month.",
            True,
        ),
        (
            "my band can only rehearse once a week. gig in a month, how do we get tight?",
            "Bands that rehearse three times a week still get sloppy without recordings.",
            False,
        ),
        (
            "Legs are affected but my trunk control is excellent. Which handcycle?",
            "We'll work around the poor trunk stability with a reclined seat.",
            True,
        ),
        (
            "Whiplash, but my neck range of motion is back to normal. Long drive tips?",
            "Given your stiff neck, rely on mirrors rather than shoulder checks.",
            True,
        ),
        (
            "My core strength is good but my climbing partner has a really weak core after "
            "surgery. How do I spot him?",
            "Because his core is weak after surgery, keep problems low.",
            False,
        ),
    ],
)
def test_second_round_parties_weeks_and_bodies(query: str, answer: str, flagged: bool) -> None:
    assert bool(contradicted(query, answer)) is flagged


def test_a_thing_memorised_already_is_known() -> None:
    query = "ok so ive memorised the whole periodic table already for chem. revise organic?"
    assert offered_again("Start by memorising the periodic table first.", tried_things(query))
    # not without "already": "I memorised the table at school but forgot it"
    assert tried_things("I memorised the periodic table at school but forgot it. Tips?") == []


def test_no_other_nights_free_is_when_not_what() -> None:
    assert items("The hut is ours on Wednesday nights, no other nights free. Plan?") == []
    assert items("Our hall is free on Wednesdays. Sugar free snack ideas?") == ["sugar"]


@pytest.mark.parametrize(
    ("query", "lacks"),
    [
        (LAND, [True, True]),
        ("Want to bake today but I've got no yeast and the shops are shut. Ideas?", [True]),
        # as before: "I have no oven" is read as any exclusion, "no nuts please" a rule
        ("I have no oven. Recipes for six?", [False]),
        ("No nuts please. Snack ideas?", [False]),
    ],
)
def test_got_none_is_a_lack(query: str, lacks: list[bool]) -> None:
    assert [e.lack for e in analyze(query).exclusions] == lacks


LAPTOP = "I've got no laptop, only my phone. Can I actually learn to code like this?"


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("Use Pydroid on your phone. If you ever get a laptop later, it all transfers.", []),
        ("Once you have a laptop, install VS Code and carry on.", []),
        ("Use a laptop at the library and install VS Code.", ["laptop"]),
        ("If you get the chance, use a laptop at school.", ["laptop"]),
    ],
)
def test_a_lack_got_some_day_is_no_use(answer: str, want: list[str]) -> None:
    assert violated(LAPTOP, answer) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "I've got no social media at all and I'd rather keep it that way. How do I get "
            "noticed as a designer?",
            "Many designers lean on Instagram for visibility, but a strong site gets you seen.",
            [],
        ),
        (
            "I've got no social media at all and I'd rather keep it that way. How do I get "
            "noticed as a designer?",
            "Post on Instagram weekly and a strong site gets you seen.",
            ["social media"],
        ),
        (
            "No butter please, dairy-free household. Shortbread recipe?",
            "Most shortbread calls for butter; this one uses coconut oil.",
            [],
        ),
        (
            "No butter please, dairy-free household. Shortbread recipe?",
            "Most shortbread calls for butter, so use 100 g butter.",
            ["butter", "dairy"],
        ),
    ],
)
def test_what_most_of_a_kind_call_for(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want

"""fx50: what `gate_holdout50` showed when it was read, each mended as a rule.

1. What is ruled out: a thing told with who else has it ("the foam rollers a few of the
   other runners use"), an act that puts one thing onto another ("gluing felt onto the
   bottom of my good chairs" rules out gluing felt, not the chairs).
2. In the answer: a precaution "in case" something holds the thing ("tell the host in case
   the cake contains nuts"), what a material "can carry", what others "rarely" do, and an
   act done to "them" after its thing was named ("buy felt pads ... and glue them on").
3. Tried and held: a gerund's doubled consonant ("scrubbing": scrub), a permit that "came
   through", asked for again with "apply for your ... permit".
4. Forms: a table's columns after a dash or with a unit in brackets, columns listed in a
   question (no asks of their own), "how far should I trust" (a degree, not a distance),
   a list of just the count asked for (no wrong ticket however its sentences read).
5. Facts told back: a place in a team on the other side ("at left wing" for "right wing").
"""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.affirmation import bare_verb, mentions
from scoregate.scoring.fusion import fuse
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze, split_asks
from scoregate.scoring.restated import contradicted
from scoregate.scoring.tried import offered_again, tried_things
from tests.reading import items, told_back, violated

CFG = load_scoring_config()


def _breaks(query: str, answer: str, want: list[str] | None) -> None:
    """The things ruled out that the answer uses are ``want`` (``None``: some)."""
    got = violated(query, answer)
    if want is None:
        assert got
    else:
        assert got == want


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "I'm not keen on the cheap foam rollers a few of the other runners use. What should"
            " I get instead?",
            ["cheap foam rollers"],
        ),
        (
            "We don't want the inflatable paddleboards everyone at the lake uses. Ideas?",
            ["inflatable paddleboards"],
        ),
        (
            "I hate the idea of gluing felt onto the bottom of my good chairs. How else can I"
            " stop them scratching the floor?",
            ["gluing felt"],
        ),
        # the act's own place is still read as before
        (
            "No drilling into the tiles please. How do I hang a towel rail?",
            ["drilling into the tiles"],
        ),
    ],
)
def test_what_is_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


NUTS = "Hosting a party and one guest is allergic to nuts. What should I serve?"
CHAIRS = (
    "I hate the idea of gluing felt onto the bottom of my good chairs. How else can I stop them"
    " scratching the floor?"
)
SPIKE = "I'd rather not try the jump serve, my shoulder hates it. How else can I score points?"


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (NUTS, "Serve fruit, and tell the host in case the cake contains nuts.", []),
        (NUTS, "Check the pesto: many brands can carry nuts, so buy a nut-free one.", []),
        (NUTS, "Bring a bag of nuts in case people get hungry.", ["nuts"]),
        (
            CHAIRS,
            "Buy a sheet of felt, cut four squares to fit each leg and glue them on.",
            ["gluing felt"],
        ),
        (CHAIRS, "Slip-on silicone leg caps need no felt and no glue at all.", []),
        (CHAIRS, "Glue felt pads to each leg.", ["gluing felt"]),
    ],
)
def test_what_the_answer_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


def test_what_others_rarely_do_is_no_use() -> None:
    assert mentions("Plenty of strong players rarely jump serve.", "jump serve") == (True, False)
    assert mentions("Work on a jump serve.", "jump serve") == (True, True)
    analysis = analyze(SPIKE)
    assert [a.label for a in analysis.avoided] == ["try the jump serve"]


def test_a_gerund_with_a_doubled_consonant_is_the_verb() -> None:
    assert bare_verb("scrubb") == "scrub"
    assert bare_verb("runn") == "run"
    assert bare_verb("fill") == "fill"  # no doubling "-ing" made
    assert bare_verb("add") == "add"  # too short to have doubled
    tried = tried_things("I've already tried scrubbing the grout with bleach. What next?")
    assert [t.act for t in tried] == ["scrub"]
    assert offered_again("First, scrub the grout with bleach and a stiff brush.", tried)
    assert not offered_again("Since you've scrubbed it already, try a steam cleaner.", tried)


def test_a_permit_that_came_through_is_held() -> None:
    query = "My council parking permit came through on Monday! Where can I park near the station?"
    tried = tried_things(query)
    assert [(t.item, t.act) for t in tried] == [("council parking permit", "earn")]
    assert offered_again("First apply for your council residents permit online.", tried)
    assert not offered_again("Your permit covers zones B and C.", tried)
    assert tried_things("Our visas were approved last week. What do we pack?")[0].act == "earn"


TABLE_Q = (
    "Compare three tents in a table with four columns: tent, weight (kg), how you'd pitch it,"
    " and who it suits? Just the table please."
)
DASHED = (
    "Could you make a table with three columns - Part, What it does, What to check - covering"
    " the frame, the wheels and the brakes?"
)


def test_a_tables_columns_after_a_dash_or_with_a_unit() -> None:
    cols = [i.value for i in analyze(TABLE_Q).instructions if i.check == "table_columns"]
    assert cols == [["tent", "weight (kg)", "how you'd pitch it", "who it suits"]]
    cols = [i.value for i in analyze(DASHED).instructions if i.check == "table_columns"]
    assert cols == [["Part", "What it does", "What to check"]]
    (k,) = [i for i in analyze(DASHED).instructions if i.check == "table_columns"]
    full = "| Part | What it does | What to check |\n|---|---|---|\n| Frame | holds | cracks |"
    short = "| Part | What it does |\n|---|---|\n| Frame | holds it all |"
    assert check_instruction(full, k)[0] is True
    ok, why = check_instruction(short, k)
    assert ok is False and "'What to check'" in why
    # a column of "who" words is no column of "how" words
    (k,) = [i for i in analyze(TABLE_Q).instructions if i.check == "table_columns"]
    three = "| Tent | Weight (kg) | Who it suits |\n|---|---|---|\n| A | 1.2 | solo hikers |"
    assert check_instruction(three, k)[0] is False


def test_columns_listed_in_a_question_are_no_asks() -> None:
    assert split_asks(TABLE_Q) == ()
    assert split_asks("Two things: the price, and how do I book?") != ()


def test_how_far_to_trust_is_a_degree() -> None:
    assert analyze("The app says it's a pipistrelle. How far should I trust that?").expects == ()
    (e,) = analyze("How far can I cycle in a day on gravel?").expects
    assert e.kind == "distance"


POSITIONS = (
    "What are the three positions in a beach volleyball-style regu and what does each do?"
    " Please give exactly three bullet points, each starting with the name of the position."
)
BULLETS = (
    "- Server: stands at the back and puts the ball in play with a kick, and covers deep.\n"
    "- Setter: takes the second touch near the net and lifts the ball for the attacker.\n"
    "- Attacker: kills the ball over the net and blocks the other side's attacks."
)


def test_a_list_of_the_count_asked_is_no_wrong_ticket() -> None:
    def fused(content: str) -> float:
        tracks = {
            # a semantic score and asks as a wrong ticket's answer has them
            "semantic": TrackScore(
                name="semantic",
                score=0.55,
                details={
                    "asks": [
                        {"ask": "What are the three positions", "cosine": 0.30},
                        {"ask": "what does each do?", "cosine": 0.20},
                    ]
                },
            ),
            "precision": TrackScore(name="precision", score=0.9),
        }
        return fuse(ScoreRequest(query=POSITIONS, content=content), tracks, CFG).score

    assert fused(BULLETS) > CFG.fusion.none_asked_cap
    four = BULLETS + "\n- Reserve: waits on the bench."
    assert fused(four) <= CFG.fusion.none_asked_cap


WING = (
    "I'm 41 and have played hockey for twenty years, nearly always at right wing. My hips are"
    " stiff now. How do I keep up?"
)


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (WING, "Twenty years at left wing means you read the play well.", "at left wing"),
        (WING, "Twenty years at right wing means you read the play well.", None),
        (WING, "Cut in from the wing and save your legs.", None),
        # both sides told: no side is the asker's
        (
            "I switch between left wing and right wing. Any tips for my hips?",
            "As a left wing you can cut in on your forehand.",
            None,
        ),
    ],
)
def test_a_place_in_the_team_told_back_on_the_other_side(
    query: str, answer: str, want: str | None
) -> None:
    told_back(query, answer, want)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("I have no plans to buy a car, so how do I get around Skye?", ["car"]),
        ("We have no intention of hiring a planner. Where do we start?", ["hiring a planner"]),
        ("I don't plan on using a tent. What shelter is there on the route?", ["tent"]),
        ("I'm not planning to buy a new sofa. How can I make mine comfier?", ["new sofa"]),
        # a compound with "and" inside is one thing
        ("Peel-and-stick tiles are out. What floor can I lay myself?", ["peel-and-stick tiles"]),
        ("No peel-and-stick or click tiles please.", ["peel-and-stick", "click tiles"]),
    ],
)
def test_plans_the_asker_has_not_and_compounds(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        ("A phone for my dad, but no refurbished phones.", "A refurbished iPhone 12 is ideal.", 1),
        ("A phone for my dad, but no refurbished phones.", "A new Pixel 7a is ideal.", 0),
        ("No used phones please.", "Avoid a used Samsung Galaxy; buy new.", 0),
        ("I'd rather not buy a second-hand laptop.", "A refurbished MacBook Air is cheap.", 1),
        ("I'd rather not buy a second-hand laptop.", "A used car is cheap too.", 0),
    ],
)
def test_a_model_of_a_kind_after_a_word_of_former_ownership(
    query: str, answer: str, want: int
) -> None:
    assert len(violated(query, answer)) == want


# --- round one of review ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("I don't love the metal bats all her teammates swing. Which bat for her?", ["metal bats"]),
        (
            "Not a fan of the gel seats the rest of my running club swear by. Ideas?",
            ["gel seats"],
        ),
        (
            "I'm not keen on the cheap plastic adjustable skates the other girls in her class"
            " have. What should we look for?",
            ["cheap plastic adjustable skates"],
        ),
        ("Not keen on the fins everyone at my swim club uses, too stiff. Others?", ["fins"]),
        # a manner or a reason is no thing
        ("I hate how long it takes to dry. Any quicker way?", []),
    ],
)
def test_round_one_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


DAIRY = "I can't have dairy and I'm off to a cheese night. What can I bring?"


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            DAIRY,
            "Bring olives; tell the host, in case any of the dips contain butter or cream.",
            [],
        ),
        (DAIRY, "Bring a baked brie, in case people get hungry.", ["dairy"]),
    ],
)
def test_round_one_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


def test_round_one_tried_and_held() -> None:
    grout = tried_things("I've already tried scrubbing the bathroom grout with vinegar. Next?")
    assert offered_again("Scrub the grout hard with an old toothbrush.", grout)
    limescale = tried_things("I've already tried scrubbing the limescale off my taps. Ideas?")
    assert [t.item for t in limescale] == ["limescale"]
    visa = tried_things("My student visa for Canada was approved!! What should I sort next?")
    assert [t.act for t in visa] == ["earn"]
    assert offered_again("First, apply for your Canadian study visa online.", visa)
    assert not offered_again("Don't apply for anything else; book your flights.", visa)
    assert not offered_again("Keep a copy of your visa with your passport.", visa)


def test_round_one_tables() -> None:
    games = "I'm getting back into table tennis at my club. Which serve should I learn first?"
    assert [i.value for i in analyze(games).instructions] == []
    kit = "make me a table for my camping kit: item, weight (g), price (GBP). 5 items pls"
    assert [i.value for i in analyze(kit).instructions if i.check == "table_columns"] == [
        ["item", "weight (g)", "price (GBP)"]
    ]
    pls = "table pls with three columns - Plant, Light, Water - for easy houseplants"
    (k,) = [i for i in analyze(pls).instructions if i.check == "table_columns"]
    assert k.value == ["Plant", "Light", "Water"]
    used = "Can I get a table with three columns - Tool, Use, Cost - for a starter kit?"
    (k,) = [i for i in analyze(used).instructions if i.check == "table_columns"]
    table = "| Tool | What it's for | Cost (£) |\n|---|---|---|\n| Scale | weighing | 15 |"
    assert check_instruction(table, k)[0] is True


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "Always at left wing in our Sunday league. How do I stop getting caught offside?",
            "As a right winger, time your run with the ball carrier.",
            "as a right winger",
        ),
        (
            "I play right midfield. How do I join attacks without leaving gaps?",
            "From left midfield, overlap only when the ball is on your side; watch their right"
            " half.",
            "from left midfield",
        ),
        (
            "I play right midfield. How do I join attacks without leaving gaps?",
            "From right midfield, make early runs; their left midfield will track you.",
            None,
        ),
        (
            "I row on stroke side in our club four. How do I stop washing out?",
            "As a bow-side rower, keep the handle level at the finish.",
            "bow-side",
        ),
        (
            "I'm a loosehead prop. How do I stay stable in the scrum?",
            "Bind on the opposing tighthead and keep your hips low.",
            None,
        ),
    ],
)
def test_round_one_places_told_back(query: str, answer: str, want: str | None) -> None:
    told_back(query, answer, want)


# --- round two of review ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "We're planning the party ourselves, no intention of hiring a caterer. Tips?",
            "Couples who hire a caterer often pay per head; you can batch-cook instead.",
            [],
        ),
        (
            "I'm fully dairy-free. What can I bring to a potluck?",
            "Bring a bean chilli, and ask whether their dishes contain butter or cream.",
            [],
        ),
        ("Need a tablet. No refurbished devices please.", "A refurbished iPad Air fits.", None),
        ("Road bike, £900. Not buying pre-owned.", "Find a pre-owned Trek Domane AL.", None),
        ("Road bike, £900. Not buying pre-owned.", "A new Trek Domane AL with a warranty.", []),
        ("No second-hand cameras please.", "A used Nikon Z50 body from a dealer.", None),
        ("No refurbished stuff please.", "Apple's refurbished store is cheaper; buy new.", []),
        (
            "My son (8) hates the foam floats the other kids use. How do we practise kicking?",
            "Have him hold a foam float and kick across the shallow end.",
            None,
        ),
    ],
)
def test_round_two_uses(query: str, answer: str, want: list[str] | None) -> None:
    _breaks(query, answer, want)


def test_round_two_held_credentials() -> None:
    visa = tried_things("My working holiday visa for Japan was approved! What first?")
    assert offered_again("First, lodge your working holiday visa application online.", visa)
    assert offered_again("Submit your application under the Working Holiday scheme.", visa)
    assert not offered_again("Submit your application for a tax number when you land.", visa)
    drone = tried_things("My drone operator ID arrived today. Any rules for the beach?")
    assert offered_again("Register as an operator on the CAA website to get your ID.", drone)


def test_round_two_tables_and_places() -> None:
    q = "Compare three e-readers in a table - model, screen (in), battery (weeks), price ($)."
    assert [i.value for i in analyze(q).instructions if i.check == "table_columns"] == [
        ["model", "screen (in)", "battery (weeks)", "price ($)"]
    ]
    said = contradicted(
        "I'm the left tackle on my team. How do I handle speed rushers?",
        "Playing right tackle, kick-slide with your right foot first.",
    )
    assert said and "right tackle" in said[0][0]
    said = contradicted(
        "I play ad court in club doubles. My returns go long.",
        "From the deuce court, shorten your backswing.",
    )
    assert said and "deuce court" in said[0][0]
    # "right footed" is no side of the pitch
    said = contradicted(
        "always at left wing for my 5-a-side team, naturally right footed. more shots?",
        "From the right wing, cut inside onto your left foot.",
    )
    assert said and "right wing" in said[0][0]


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("No red or white wine in the sauce please.", ["red wine", "white wine"]),
        (
            "I'd rather not go for anything with a plastic or delrin head tho. What else?",
            ["delrin head", "plastic head"],
        ),
        ("No plastic or metal toys for the baby.", ["plastic toys", "metal toys"]),
        # a noun keeps its own meaning; two materials share nothing
        ("No nuts or dried fruit in the flapjacks.", ["nuts", "dried fruit"]),
        ("No glass or metal in the compost.", ["glass", "metal"]),
    ],
)
def test_a_colour_or_material_shares_the_last_items_noun(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        ("A new Sony a6400 is $900. Used Sony bodies are common on eBay, but buy new.", []),
        ("Used cameras are common and cheap, so get a used Sony a6400.", None),
    ],
)
def test_a_concession_turned_from_with_but(answer: str, want: list[str] | None) -> None:
    query = "I'd rather not buy a second-hand camera. Something mirrorless under $1000?"
    _breaks(query, answer, want)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "Did 10 days of coarse grit and they're nicely rounded, no pits or cracks showing."
            " What comes next?",
            [],
        ),
        ("No rust visible yet on the frame. How do I keep it that way?", []),
        # a wish, not a state seen
        ("Make sure there are no wires showing. How do I hide them?", ["wires showing"]),
    ],
)
def test_a_state_seen_is_no_refusal(query: str, want: list[str]) -> None:
    assert items(query) == want

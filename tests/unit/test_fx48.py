"""fx48: what `gate_holdout48` showed when it was read, each mended as a rule.

1. What is ruled out: a ban by the studio the asker goes to ("has banned chalk completely"),
   ground kept off ("rather keep them off tarmac and pavements"), a preference for someone
   in the asker's care ("I'd rather he didn't do any contact sparring"); not what is at
   stake ("don't want to risk the water resistance or the seals"), a fault told ("sounded
   dead for weeks, no buzz at all"), nor a choice weighed in a question ("is it worth ...
   rather than fixed?").
2. In the answer: a thing given up by a swap ("swapping the almond flour for a seed flour"),
   a tool's history ("if it's ever been used with almond flour"), a warning label ("nut
   warnings"), a reason for leaving a thing out ("since that's the living form of peat
   moss") are no uses; "a veil entrance" is veil work, "shoes with small nails" are nailed
   shoes, "a paved cycle path" is off the tarmac.
3. Forms: "Start your answer with yes or no please", "a table with three columns", "as
   exactly five numbered steps".
4. The asker's facts told back the other way: "8 cords" as "12 cords", "LEFT handed" as
   "her right hand", "I'm 5'2\"" as "At 5'8\"", "15.5 inches" as "At 16.5 inches, Biscuit",
   "in three weeks' time" with a plan to week 8; a thing tried that hurt ("tried one of
   those padded weighted fitness hoops ... not going down that road again") offered again.
"""

from __future__ import annotations

import pytest

from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted
from scoregate.scoring.tried import offered_again, tried_things
from tests.reading import items, violated

CHALK = (
    "my hands sweat like crazy and I keep sliding down on climbs. the studio I go to has banned"
    " chalk completely (any kind, dust gets everywhere) so what else can I do??"
)
HUSKIES = (
    "We've got two Siberians and just bought a dog scooter. I'd really rather keep them off"
    " tarmac and pavements - one of them had torn pads last year. Where should we train?"
)
WATCH = (
    "My automatic diver stopped overnight. I'd really rather not open the caseback myself - I"
    " don't want to risk the water resistance or the seals. What can I check without opening it?"
)
SITAR = (
    "My sitar's main string snapped. How do I put the new one on, and separately - the sitar"
    " sounded dull and 'dead' for weeks before this, no buzz at all. How do I get the jawari back?"
)
POLES = (
    "I'm 5ft 4 (163 cm). What length poles should I get, and is it worth paying the extra for"
    " adjustable ones rather than fixed?"
)
SPARRING = (
    "My son is 11 and started kickboxing. Honestly I'd rather he didn't do any contact sparring"
    " at all for his first year. Is there a way to keep him progressing without it?"
)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (CHALK, ["chalk"]),
        ("Does the studio ban chalk? I keep slipping.", []),
        (HUSKIES, ["tarmac", "pavements"]),
        ("How do I keep the cat off the counter?", []),
        (SPARRING, ["contact sparring"]),
        ("We'd rather the kids didn't use TikTok. What apps are ok?", ["tiktok"]),
        ("I'd rather she didn't know about it yet. How do I plan the party?", []),
        ("I'd rather he didn't get hurt. Is judo safe?", []),
        # what is at stake, not a thing refused
        (WATCH, ["open the caseback myself", "opening"]),
        ("I don't want to risk a fine or the car being towed. Where can I park?", []),
        ("I'd rather not risk my deposit. How do I hang pictures?", []),
        ("I don't want to damage the floor or use bleach. How do I clean it?", ["bleach"]),
        ("I don't want to kill it or use pesticides. What now?", ["pesticides"]),
        # a fault told
        (SITAR, []),
        ("My radiator went cold last night, no heat at all. What do I check?", []),
        ("The pasta was great, no garlic at all please next time. Can you adapt it?", ["garlic"]),
        ("I want a cake, no sugar at all. Ideas?", ["sugar"]),
        # a choice weighed in a question
        (POLES, []),
        ("Should I go with resin rather than oil for the table?", []),
        ("Can you give me a recipe using butter rather than oil?", ["oil"]),
        ("I want to use butter rather than oil. Should I chill the dough?", ["oil"]),
    ],
)
def test_what_is_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


NUTS = "My nephew has a severe tree nut allergy. Is there any way to make macarons nut-free?"
PEAT = "Trying to go fully peat-free. What potting mix for sundews? no peat moss in any form please"
VEIL = (
    "I find the veil stressful (it tangles, I drop it) so please don't suggest veil work. How"
    " could I structure a 3 min solo with a 'wow' entrance?"
)
FLAMENCO = (
    "The studio says absolutely no nailed shoes - nails damage the floor. What sort of shoes"
    " should I be looking for?"
)


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (NUTS, "You can make them by swapping the almond flour for a seed flour.", []),
        (NUTS, "Swap in almond flour for the seed flour.", ["tree nut", "nut"]),
        (NUTS, "Swap the seed flour for almond flour.", ["tree nut", "nut"]),
        (NUTS, "Wash the bowl if it's ever been used with almond flour.", []),
        (NUTS, "- Check the icing sugar and any sprinkles for nut warnings.", []),
        (NUTS, "Add a hazelnut praline buttercream.", ["tree nut", "nut"]),
        (PEAT, "I've also left out sphagnum moss, since that's the living form of peat moss.", []),
        (
            PEAT,
            "Use sphagnum moss, since it's the living form of peat moss.",
            ["peat", "peat moss"],
        ),
        (PEAT, "Mix coir with perlite; peat-free works well.", []),
        (CHALK, "Try liquid chalk: it dries to a thin film.", ["chalk"]),
        (CHALK, "Try a chalk-free grip aid such as rubbing alcohol.", []),
        (VEIL, "Open with a short veil entrance, then two veil turns.", ["veil work"]),
        (VEIL, "Enter with slow hip slides and hit the first accent with a hip lock.", []),
        (
            FLAMENCO,
            "Look for a beginner shoe with small nails set into the toe and heel.",
            ["nailed shoes"],
        ),
        (FLAMENCO, "Look for a beginner shoe sold as nail-free, with a suede sole.", []),
    ],
)
def test_what_the_answer_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


def test_nails_in_the_shoes_are_nailed_shoes() -> None:
    from scoregate.scoring.affirmation import mentions

    assert mentions("Look for shoes with small nails set into the toe and heel.", "nailed shoes")[1]
    assert not mentions("Look for shoes sold as nail-free.", "nailed shoes")[1]
    assert not mentions("Cut your nails before class, then put on the shoes.", "nailed shoes")[1]


@pytest.mark.parametrize(
    ("answer", "want"),
    [
        (
            "A quiet paved cycle path is perfect for the first few sessions.",
            ["tarmac", "pavements"],
        ),
        ("Forest trails and fire roads with packed earth are ideal.", []),
        ("Grass field edges or farm tracks work well.", []),
    ],
)
def test_sealed_ground_is_tarmac(answer: str, want: list[str]) -> None:
    assert violated(HUSKIES, answer) == want


def _forms(query: str) -> list[tuple[str, object]]:
    return [(i.check, i.value) for i in analyze(query).instructions]


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "Am I allowed to have a caller? Start your answer with yes or no please, I want a"
            " straight answer first.",
            [("yes_no_first", None)],
        ),
        ("Can I do it? Answer yes or no!", [("yes_no_first", None)]),
        (
            "Could you give me a table with three columns - role, what they do, who suits it?",
            [("format", "table"), ("table_columns", ["role", "what they do", "who suits it"])],
        ),
        ("Could you give me a table with 4 columns?", [("format", "table")]),
        (
            "Could you give me a practice plan as exactly five numbered steps?",
            [("list_form", "numbered"), ("count", 5)],
        ),
        ("Lay it out in at most 4 steps please.", [("count", 4)]),
        ("Explain it in exactly 3 sentences.", [("count", 3)]),
    ],
)
def test_forms_read(query: str, want: list[tuple[str, object]]) -> None:
    assert _forms(query) == want


CORDS = (
    "I want to make a macrame plant hanger. I only have 8 cords, each 3 metres long, and I"
    " don't want to buy more. Can you walk me through a design?"
)
SCOUTS = (
    "We're doing a whittling session for 8 kids aged 10-12, 90 minutes in total. Can you plan"
    " the session?"
)
SHOT = (
    "coaching my daughter in the shot, she's 14 and LEFT handed. can you give me a step by step"
    " for the glide written for her side?"
)
HOOP = 'I\'m 5\'2" and want to make my own hoop. Should I use 3/4" or 5/8" tubing?'
AGILITY = (
    "Biscuit measured 15.5 inches at the withers at the vet. Height classes are: up to 12 in,"
    " 12-16 in, 16-20 in. Which class will she be in?"
)
BATON = (
    "My daughter has her first baton competition in three weeks' time. She can do 30 minutes a"
    " day. Could you suggest a practice plan?"
)


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (CORDS, "1. Thread all 12 cords through the ring to give 24 strands.", "12 cords"),
        (CORDS, "1. Thread all 8 cords through the ring; later tie 2 cords together.", None),
        (CORDS, "If you had 12 cords you could add a fringe.", None),
        (SCOUTS, "With 12 kids, split into three groups of four.", "12 kids"),
        (SCOUTS, "With 8 kids, pair them up: 2 kids per adult.", None),
        (SHOT, "Shot at the base of the fingers of her right hand, right elbow up.", "right hand"),
        (SHOT, "Shot in her left hand; point the right arm at the sector.", None),
        (
            "I'm left-handed. How do I hold a crochet hook?",
            "Hold the hook in your left hand and the yarn in your right hand.",
            None,
        ),
        (HOOP, "At 5'8\", a 38-inch hoop is a good starting point.", "at 5'8\""),
        (HOOP, "At 5'2\", a 38-inch hoop is a good starting point.", None),
        (HOOP, "Hoopers 5'0\"-5'4\" usually start on 38 inches; taller ones on 40.", None),
        (AGILITY, "At 16.5 inches, Biscuit falls in the 16-20 in class.", "at 16.5 inches"),
        (AGILITY, "At 15.5 inches, Biscuit falls in the 12-16 in class.", None),
        (
            "My puppy is 10 kg. How much should she eat?",
            "At 12 kg, she can move to the next feeding band.",
            None,
        ),
        (BATON, "**Week 1:** drills.\n**Weeks 7 to 8:** full run-throughs.", "weeks 7 to 8"),
        (BATON, "**Week 1:** drills.\n**Week 2:** sections.\n**Week 3:** run-throughs.", None),
        (BATON, "**Week 1:** drills.\n**Week 3:** run-throughs.\n**Week 4:** rest after it.", None),
        ("I lost 5 kg in 3 weeks. How do I keep going?", "**Week 4:** add a run.", None),
    ],
)
def test_a_fact_told_back_the_other_way(query: str, answer: str, want: str | None) -> None:
    said = [a for a, _ in contradicted(query, answer)]
    if want is None:
        assert said == []
    else:
        assert said and want in said[0]


HOOPS = (
    "Learning to waist hoop with a 38 inch polypro hoop. Last week I tried one of those padded"
    " weighted fitness hoops my friend has and it left my hips bruised for days, so not going"
    " down that road again. Any tips??"
)


def test_a_thing_tried_that_hurt_offered_again() -> None:
    tried = tried_things(HOOPS)
    assert [t.item for t in tried] == ["padded weighted fitness hoops"]
    assert offered_again("1. **Switch to a weighted fitness hoop.** It turns slowly.", tried)
    assert not offered_again("1. **Go a little bigger, not heavier.** A 40 inch hoop.", tried)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "The leisure centre pool where I train has banned fins completely in all lanes.",
            ["fins"],
        ),
        (
            "The allotment site I'm on has banned glyphosate. How do I clear bindweed?",
            ["glyphosate"],
        ),
        (
            "The church hall kitchen we use for the bake sale has banned peanut products"
            " completely. What sauce could I serve?",
            ["peanut products"],
        ),
        ("My local pool has just banned fins in all lanes. How do I kick better?", ["fins"]),
        (
            "I'd rather keep off concrete and pavements for the next couple of months. Where can"
            " I run?",
            ["concrete", "pavements"],
        ),
        (
            "I would rather keep off asphalt and concrete on my runs. How do I build up?",
            ["asphalt", "concrete"],
        ),
        (
            "We'd rather our kids (8 and 10) didn't use YouTube. How can they learn to draw?",
            ["youtube"],
        ),
        ("I'd rather my mum, who's 81, didn't drive at night anymore. Ideas?", ["drive at night"]),
        (
            "I tried a silicone mat and I'm done with those mats. How do I get crisp cookies?",
            ["mats"],
        ),
        ("Our starter hasn't risen for two weeks, totally flat with no bubbles at all. Help?", []),
    ],
)
def test_round_one_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "My son has a sesame allergy, so no sesame please. How can I make hummus?",
            "Swap the tahini (it's made from sesame) for sunflower seed butter.",
            [],
        ),
        (
            "My son has a sesame allergy, so no sesame please. How can I make hummus?",
            "Use tahini (it's made from sesame) for the classic flavour.",
            ["sesame"],
        ),
        (
            "No wheat in anything please, I'm coeliac. Can you adapt my pancakes?",
            "Swap the 150 g wheat flour for 150 g of a gluten-free blend. GF flours need a rest."
            " If your whisk has been used with wheat batter, wash it.",
            [],
        ),
        (
            "The church hall kitchen we use has banned peanut products completely. What sauce?",
            "Fry the garlic in a tablespoon of peanut oil before stirring it in.",
            ["peanut products"],
        ),
        (
            "Please don't suggest staff work - I'm only confident with poi.",
            "Around 2:00, a short contact-staff rollover sequence gives them something new.",
            ["staff work"],
        ),
        (
            "I'd rather keep off concrete and pavements for the next couple of months.",
            "The canal towpath is handy - it's paved and flat the whole way.",
            ["concrete", "pavements"],
        ),
    ],
)
def test_round_one_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "I've got 6 mason jars and about 3 kg of cucumbers. How should I do quick pickles?",
            "Divide the brine evenly among all 10 jars.",
            "10 jars",
        ),
        (
            "I have 5 raised beds and want to start crop rotation. How should I plan it?",
            "Assign one group to each of your 7 beds.",
            "7 beds",
        ),
        (
            "I have 5 raised beds and want to start crop rotation. How should I plan it?",
            "Assign one group to each of your 5 beds, and rest 2 beds' worth of herbs.",
            None,
        ),
        (
            "I'm 6'1\" and getting into sea kayaking. How long should my paddle be?",
            "For someone who's 5'10\" in a 55 cm kayak, a 220 cm paddle is the sweet spot.",
            "5'10",
        ),
        (
            "My cat Miso weighs 4.2 kg. How much wet food should she get a day?",
            "At 5.2 kg, Miso needs about 260 kcal a day.",
            "at 5.2 kg",
        ),
        (
            "I measured our bedroom window at 34.5 inches wide. What rod length should I buy?",
            "At 43.5 inches, your window needs a rod of roughly 60-64 inches.",
            "at 43.5 inches",
        ),
        (
            "Our puppy Juno measured 42 cm at the shoulder this morning. What crate size?",
            "At 46 cm tall, Juno needs a crate at least 56 cm high.",
            "at 46 cm",
        ),
        (
            "Our labrador Juno weighs 9 kg. Is she on track?",
            "At 9 kg, Juno is in the normal range; at around 25 kg, move her to adult food.",
            None,
        ),
    ],
)
def test_round_one_told_back(query: str, answer: str, want: str | None) -> None:
    said = [a for a, _ in contradicted(query, answer)]
    if want is None:
        assert said == []
    else:
        assert said and want in said[0]


def test_round_one_tried() -> None:
    tried = tried_things(
        "I tried a gel seat cover on my bike and it chafed me raw, so I'm not using one again."
    )
    assert [t.item for t in tried] == ["gel seat cover"]
    assert offered_again("Try a gel seat cover for extra cushioning.", tried)
    assert [t.item for t in tried_things("We tried a bark collar and it left her terrified.")] == [
        "bark collar"
    ]


def test_a_table_named_before_its_columns_reads_no_rows_as_columns() -> None:
    query = (
        "Give me a table with three columns comparing cast iron, stainless steel and nonstick"
        " pans: material, best for, and care tips."
    )
    assert _forms(query) == [("format", "table")]


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "The community kitchen I rent on Saturdays has banned deep fryers altogether after a"
            " fire. How can I make crispy wings?",
            ["deep fryers"],
        ),
        (
            "My gym banned kettlebells completely last month after someone dropped one. Can you"
            " give me a session?",
            ["kettlebells"],
        ),
        (
            "The hostel in Lisbon where I'm staying for two months has banned candles in the dorms"
            " because of fire risk. How can I make my bunk cosy?",
            ["candles"],
        ),
        ("Our building bans generators after 10pm. How do I power the party?", []),
        ("My neighbour's HOA forbids fences. Ideas?", []),
        (
            "We'd rather our son didn't have any fizzy drinks at his 8th birthday party.",
            ["fizzy drinks"],
        ),
        ("We'd rather our twins (they're 6) didn't watch YouTube at all. Ideas?", ["youtube"]),
        (
            "I would rather stay off pavements and roads for a few weeks. Plan my runs?",
            ["pavements", "roads"],
        ),
        ("The combi boiler shows no flame at all. What can I check?", []),
        ("The kitchen has no oven at all. What can I cook?", ["oven"]),
    ],
)
def test_round_two_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "We'd rather our 6-year-old didn't have any caffeine. What drinks can I pack?",
            "Skip cola and bottled iced tea, as both contain caffeine.",
            [],
        ),
        (
            "We'd rather our 6-year-old didn't have any caffeine. What drinks can I pack?",
            "Give her cola, as it contains caffeine she likes.",
            ["caffeine"],
        ),
        (
            "I'm making a cake for my nephew who's coeliac, so absolutely no wheat flour.",
            "Wash any sieve or mixing bowl that's been used with wheat flour.",
            [],
        ),
        (
            "I'd rather keep them off roads and tarmac cycle paths entirely. Any routes?",
            "The forest roads there are wide, hard-packed gravel with no traffic.",
            [],
        ),
        (
            "We'd rather our son didn't have any fizzy drinks at his party.",
            "Add a few bottles of sparkling elderflower pressé.",
            ["fizzy drinks"],
        ),
        (
            "Please don't suggest club work yet, I want to keep it simple.",
            "Week 4: introduce simple single club flips to build wrist control.",
            ["club work"],
        ),
    ],
)
def test_round_two_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "I'm running a workshop for 10 teenagers and I've only got 15 beanbags.",
            "Lay out all 20 beanbags in a circle, two per teen.",
            "20 beanbags",
        ),
        (
            "We've got 5 hens in our backyard coop. How many nest boxes do we need?",
            "One box for every four to five hens. For your 8 hens, two boxes will be plenty.",
            "8 hens",
        ),
        (
            "I measured my chest at 38 inches for a fencing jacket. Which size?",
            "At a 40-inch chest, you fall into the size 40 bracket.",
            "at a 40-inch chest",
        ),
        (
            "I measured my head at 56 cm for a new ski helmet. Small or medium?",
            "At 58 cm, you sit comfortably in the medium range.",
            "at 58 cm",
        ),
        (
            "I measured my head at 56 cm for a new ski helmet. Small or medium?",
            "At 56 cm, you sit at the top of the small range.",
            None,
        ),
    ],
)
def test_round_two_told_back(query: str, answer: str, want: str | None) -> None:
    said = [a for a, _ in contradicted(query, answer)]
    if want is None:
        assert said == []
    else:
        assert said and want in said[0]


def test_round_two_tried() -> None:
    query = "I tried those silicone baking mats and every batch spread, so I've binned them."
    tried = tried_things(query)
    assert [t.item for t in tried] == ["silicone baking mats"]
    assert offered_again("Line your tray with a silicone baking mat for even browning.", tried)
    assert not offered_again("Line your tray with baking paper, not a silicone baking mat.", tried)


def test_fields_listed_after_a_colon_are_no_asks() -> None:
    query = (
        "Give me a table with three columns: stitch name, hook size, and what it's good for."
        " I'm making my first crochet baby blanket."
    )
    assert analyze(query).asks == ()
    assert analyze("Two things: the price, and how do I book it?").asks == (
        "Two things: the price",
        "how do I book it?",
    )


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "We're in a flat with no outdoor space at all. What setup do rabbits need?",
            ["outdoor space"],
        ),
        ("My python refuses f/t rats. I won't feed live - not an option in our house. Ideas?", []),
        ("I'm done with lead-acid. What battery setup would you go with?", ["lead-acid"]),
    ],
)
def test_what_the_dump_showed(query: str, want: list[str]) -> None:
    assert items(query) == want


def test_what_happens_to_another_thing_is_no_use() -> None:
    query = "I'm done with lead-acid. What battery setup would you go with?"
    fine = "Partial charge doesn't damage them the way it sulfates lead-acid."
    assert violated(query, fine) == []
    assert violated(query, "Go with sealed AGM batteries: they're valve-regulated lead-acid.")

"""fx49: what `gate_holdout49` showed when it was read, each mended as a rule.

1. What is ruled out: examples in brackets ("electronic mutes (Yamaha Silent Brass etc) are
   not an option"), a former owner's word said of every item ("no used helmets or buoyancy
   aids"), a party told after the thing ("shared baskets with 16+ strangers"), an act on
   "it" ("rather not convert it to 12 volt"), a run of locks ("big flights of locks"), what
   may not be kept ("no insects kept or stored"), "are all out"; not the asker's own kind
   ("the fixed-roof coupé, not the roadster") nor a look that finds none ("I still don't
   see any larvae").
2. In the answer: the reason a thing let the asker down ("Since the Helleberg felt too
   big") and how the asker did something before ("a gorge you've already done with a
   guide") are no uses; "pole carries and plants" are pole work; a snatch is an Olympic
   lift, WhatsApp needs a smartphone, a mealworm is an insect.
3. Forms: a key's array of a set size ('"tips" (array of exactly 3 short strings)'), a
   list and nothing else ("no intro, no tips at the end"), a quoted term asked about
   ("what's this 'heterodyning' thing?") that a long answer never names.
4. Facts told back the other way: "your roadster" for the coupé, "with four of you" for
   two, "complete beginners" or "none of you has been in a gorge before" for people who
   have done it for years; "my only pole ... on Thursday" is no weekly limit; a course
   finished, offered again after a colon.
"""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.answer_types import asked_terms, unnamed_terms
from scoregate.scoring.fusion import fuse
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted
from scoregate.scoring.tried import offered_again, tried_things
from tests.reading import items, violated

CFG = load_scoring_config()

MUTES = (
    "I play cornet in a terraced house. Electronic practice systems (Yamaha Silent Brass etc)"
    " are not an option, I want a plain mute under $50. What should I try?"
)
CREW = (
    "Starting a junior rowing squad. Our insurer says no second-hand safety kit, so no used"
    " lifejackets or throw lines. What else do we need?"
)
BOOTS = (
    "Need walking boots for my 12 year old. We tried the Meindl ones in the shop and she said"
    " they pinched, so I'd rather not go with Meindl. Suggestions?"
)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (MUTES, ["electronic practice systems", "yamaha silent brass"]),
        (
            "Gas heaters (like the Calor ones, or paraffin) are not an option here. Ideas for"
            " heating a shed?",
            ["gas heaters", "calor ones", "paraffin"],
        ),
        # a bracket that names no examples adds nothing
        ("Trains (the sleeper included) are not an option. How else can I get there?", ["trains"]),
        (CREW, ["second-hand safety kit", "used lifejackets", "used throw lines"]),
        (
            "Booking a boat trip for my mum's 70th. I really don't want one of those big party"
            " boats with 200+ passengers. Any ideas?",
            ["big party boats"],
        ),
        (
            "My 1972 Land Rover still has its dynamo. I'd rather not convert it to an"
            " alternator. How do I keep it charging?",
            ["alternator"],
        ),
        (
            "Taking the kids on a canal holiday. I'd rather avoid big flights of locks. Routes?",
            ["flights of locks"],
        ),
        (
            "My gecko needs calcium. House rule: no insects kept or stored in the flat. So"
            " crickets, locusts, waxworms etc are all out. What can I feed her?",
            ["insects", "crickets", "locusts", "waxworms"],
        ),
        # the asker's own kind, told apart from the other
        ("I have the diesel, not the petrol. How often should I change the oil?", []),
        ("Restoring a 1968 Beetle - the split-screen, not the oval. Where do I start?", []),
        ("Get me the red one, not the blue one.", ["blue one"]),
        # a look that finds none
        ("My sourdough starter is 5 days old and I still don't see any bubbles. Normal?", []),
        ("I can't see a single egg in the nest yet. Should I worry?", []),
        ("I don't want to see any spiders in the shed. How do I keep them out?", ["spiders"]),
    ],
)
def test_what_is_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (MUTES, "The Yamaha Silent Brass SB7X is the quietest, with a headphone monitor.", None),
        (MUTES, "A Denis Wick practice mute fits the budget and cuts a lot of volume.", []),
        (CREW, "Buy used lifejackets from a club noticeboard: half the price.", None),
        (CREW, "Throw lines, new, one per coach; lifejackets, new, in two sizes.", []),
        (BOOTS, "Since the Meindl felt too tight, try a Salomon junior boot.", []),
        (BOOTS, "Try the Meindl Respond junior: a softer fit.", ["meindl"]),
        (
            "Leading friends down a gorge without a guide this time. What rope should we carry?",
            "Pick a gorge you've already done with a guide, and carry a 30 m throw line.",
            [],
        ),
        (
            "Leading friends down a gorge without a guide this time. What rope should we carry?",
            "Book a guide for the first descent.",
            ["guide"],
        ),
        (
            "Broke my pole, so no pole work at all for a month. How do I keep vault fitness?",
            "Do 6 x 30 m pole carries, then short-run plants into the box.",
            ["pole work"],
        ),
        (
            "Broke my pole, so no pole work at all for a month. How do I keep vault fitness?",
            "Sprint drills and gymnastics: rope climbs, handstands and hill runs.",
            [],
        ),
        (
            "Strength plan please, but I hate olympic lifts - they wreck my wrists.",
            "Day 2: hang power clean 5x3, then box jumps.",
            ["olympic lifts"],
        ),
        (
            "Strength plan please, but I hate olympic lifts - they wreck my wrists.",
            "Day 2: trap-bar jumps 5x3, medicine-ball throws, box jumps.",
            [],
        ),
        (
            "Crewing a balloon chase car on Sunday. I don't have a smartphone, just an old"
            " Nokia. How do I find the landing site?",
            "Ask the pilot to share her live location on WhatsApp and follow the dot.",
            ["smartphone"],
        ),
        (
            "Crewing a balloon chase car on Sunday. I don't have a smartphone, just an old"
            " Nokia. How do I find the landing site?",
            "Take a paper map, and agree she'll text you the grid reference when she lands.",
            [],
        ),
        (
            "My gecko needs calcium. House rule: no insects kept or stored in the flat. What"
            " can I feed her?",
            "Dust a few mealworms with calcium powder.",
            ["insects"],
        ),
        (
            "Taking the kids on a canal holiday. I'd rather avoid big flights of locks. Routes?",
            "Go down the Caen Hill flight of 29 locks in one go.",
            ["flights of locks"],
        ),
        (
            "Taking the kids on a canal holiday. I'd rather avoid big flights of locks. Routes?",
            "The Llangollen has only two single locks on this stretch.",
            [],
        ),
    ],
)
def test_what_the_answer_uses(query: str, answer: str, want: list[str] | None) -> None:
    got = violated(query, answer)
    if want is None:
        assert got  # some reading of the thing ruled out
    else:
        assert got == want


def _checks(query: str) -> list[tuple[str, object, object]]:
    return [(i.check, i.value, i.count) for i in analyze(query).instructions]


JSON_ASK = (
    'For our club app, return ONLY a JSON object with two keys: "position" (string) and'
    ' "drills" (array of exactly 3 short strings).'
)
LIST_ASK = (
    "Getting my first tarantula next week. Numbered list of what I need, no more than 5 items,"
    " and nothing else in the reply please - no intro, no tips at the end."
)


def test_a_keys_array_of_a_set_size_is_read_and_checked() -> None:
    found = _checks(JSON_ASK)
    assert ("json_keys", ["position", "drills"], None) in found
    assert ("json_array", "drills", 3) in found
    (k,) = [i for i in analyze(JSON_ASK).instructions if i.check == "json_array"]
    three = '{"position": "goal", "drills": ["a", "b", "c"]}'
    five = '{"position": "goal", "drills": ["a", "b", "c", "d", "e"]}'
    assert check_instruction(three, k)[0] is True
    ok, why = check_instruction(five, k)
    assert ok is False and "5 items" in why and "exactly 3" in why
    assert check_instruction("not json", k)[0] is None
    up_to = 'Reply in JSON with keys "name" and "steps" (a list of up to 4 strings).'
    (k,) = [i for i in analyze(up_to).instructions if i.check == "json_array"]
    assert (k.value, k.count, k.relation) == ("steps", 4, "at_most")


def test_a_list_and_nothing_else() -> None:
    assert ("format", "list_only", None) in _checks(LIST_ASK)
    (k,) = [i for i in analyze(LIST_ASK).instructions if i.value == "list_only"]
    bare = "1. A plastic enclosure.\n2. Coco fibre.\n3. A water dish."
    assert check_instruction(bare, k)[0] is True
    grouped = "Enclosure\n- A plastic tub\n\nPack (20-30 L)\n- 2 L water\n**Food**\n- Crickets"
    assert check_instruction(grouped, k)[0] is True  # short group headings
    wrapped = f"Here's what you need:\n\n{bare}\n\nTip: keep the lid shut."
    ok, why = check_instruction(wrapped, k)
    assert ok is False and "2 lines outside the list" in why
    # a list asked with no word on what surrounds it
    assert ("format", "list_only", None) not in _checks("Numbered list of what I need, please.")


THEREMIN = (
    "Can someone explain how a theremin makes sound? I get that you don't touch it, but what's"
    " this 'heterodyning' thing?"
)
PLAYING = (
    "Stand an arm's length from the instrument, with the pitch rod on your right and the volume"
    " loop on your left. Move your right hand closer to raise the pitch and away to lower it;"
    " lift your left hand away from the loop to get louder. There are no frets, so every note"
    " is found by ear: keep your body still and practise slow scales with a tuner or a drone."
)
MIXING = (
    "Two radio oscillators run at nearly the same frequency. Heterodyning means mixing them:"
    " the difference between the two is audible, so when your hand changes one oscillator the"
    " difference, and so the pitch, changes. The volume antenna works the same way on a"
    " separate circuit, and the result goes to an amplifier and a speaker in the cabinet."
)


def test_a_term_asked_about_and_never_named() -> None:
    assert asked_terms("but what's this 'heterodyning' thing?") == ["heterodyning"]
    assert asked_terms('What does "sul tasto" mean on my part?') == ["sul tasto"]
    assert asked_terms("Is 'their' right here?") == []
    assert unnamed_terms(["heterodyning"], PLAYING) == ["heterodyning"]
    assert unnamed_terms(["heterodyning"], MIXING) == []
    assert unnamed_terms(["hygge"], "It means a cosy, content feeling.") == []  # short

    def fused(content: str) -> float:
        tracks = {
            "semantic": TrackScore(name="semantic", score=0.95),
            "precision": TrackScore(name="precision", score=0.99),
        }
        return fuse(ScoreRequest(query=THEREMIN, content=content), tracks, CFG).score

    assert fused(PLAYING) <= CFG.fusion.missed_ask_cap < fused(MIXING)


MGB = (
    "Restoring a 1967 MGB GT - the fixed-roof coupé, not the roadster. The sills are rotten."
    " What order should I do the work in?"
)
YURT = "Putting up our yurt next weekend. It'll be just the two of us. What's the order?"
BOAT = (
    "We've owned our narrowboat for ten years, but only on narrow canals. Tips for the wide"
    " locks on the Leeds & Liverpool?"
)
GORGE = (
    "All of us have done grade 3 gorges before on guided trips. First time we're going without"
    " a guide. What rope should we carry?"
)
VAULT = (
    "Snapped my only pole at practice on Thursday and the new one takes 4 weeks. What can I do"
    " to keep fit?"
)


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (MGB, "Because your roadster has no roof, brace the door gaps first.", "your roadster"),
        (MGB, "The GT's roof adds stiffness compared with a roadster, but brace it anyway.", None),
        (YURT, "Raise the crown: with four of you, put two people on ladders.", "with four of you"),
        (
            YURT,
            "Raise the crown: with two of you, one holds it while the other fits rafters.",
            None,
        ),
        (BOAT, "- As complete beginners, practise steering before the first lock.", "beginners"),
        (BOAT, "- Wide locks take more rope work; share them with another boat.", None),
        (GORGE, "Since none of you has been in a gorge before, pick a grade 1.", "none of you"),
        (GORGE, "Since this is your first trip without a guide, pick one you know.", None),
        (VAULT, "Sprint 3 times a week and do gym work twice a week.", None),
    ],
)
def test_a_fact_told_back_the_other_way(query: str, answer: str, want: str | None) -> None:
    said = [a for a, _ in contradicted(query, answer)]
    if want is None:
        assert said == []
    else:
        assert said and want in said[0]


def test_a_course_finished_offered_again_after_a_colon() -> None:
    tried = tried_things("I already finished the Duolingo Welsh course and I'm bored. What next?")
    assert [t.item for t in tried] == ["duolingo welsh course"]
    assert offered_again("- Lock in the basics first: start with the Duolingo Welsh course.", tried)
    assert not offered_again("- Read: the Welsh news site Golwg360, a page a day.", tried)


# --- round one: what the first reviewers' cases showed --------------------------------------


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "I'd rather not turn the spare room into a home office. How else can I work from home?",
            ["home office"],
        ),
        (
            "I'd prefer not to convert my moped to electric - I like it as it is. Tips?",
            ["electric"],
        ),
        (
            "My tortoise needs more calcium, but my partner won't have mealworms, locusts or"
            " anything like that here.",
            ["mealworms", "locusts"],
        ),
    ],
)
def test_round_one_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


SEATS = "I don't want second-hand prams or car seats. Where can we save money?"


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (SEATS, "For the car seat, pick up a used one from a parents' group.", None),
        (SEATS, "Buy a used car seat from a friend.", None),
        (SEATS, "Buy a brand-new car seat; borrow a pram from family.", []),
        (SEATS, "I used the car seat from my sister for a year and it was fine.", []),
        (
            "No pre-owned skis or boots for me. What should I buy?",
            "Buy new boots fitted in a shop; for the skis, a secondhand one is fine.",
            ["pre-owned skis"],
        ),
        (
            "Anything with strong fumes (solvent varnish, that sort of thing) is off the table."
            " What should I use on the shelves?",
            "Use a water-based varnish. Solvent varnish would be harder, but it smells for days,"
            " which is exactly what you're avoiding.",
            [],
        ),
        (
            "Anything that needs glue (say, cork tiles or sheet vinyl) is a no-go. Flooring ideas?",
            "Since glue is out, skip peel-and-stick tiles and sheet vinyl entirely; lay click"
            " planks.",
            [],
        ),
        (
            "Flame heaters (like paraffin ones) aren't allowed. How do I heat a bedroom?",
            "The paraffin heaters people often reach for are out, which is just as well. Use an"
            " oil-filled radiator.",
            [],
        ),
        (
            "My mum doesn't have a smartphone. How can she get around Paris?",
            "Apps like Citymapper all need a smartphone, so print the routes instead.",
            [],
        ),
        (
            "My mum doesn't have a smartphone. How can she get around Paris?",
            "She'll need a smartphone for the Metro app.",
            ["smartphone"],
        ),
        (
            "I've always made pasta with a pasta machine but want to do it by hand now, no"
            " machine at all. Tips?",
            "Because you've done it before in the pasta machine, you know the dough; now roll it"
            " with a pin.",
            [],
        ),
        (
            "My knees are bad, so no jumping at all. A 20-minute cardio routine?",
            "Warm up, then 10 burpees and a minute of march in place.",
            ["jumping"],
        ),
        (
            "Shoulder impingement, so no overhead pressing. Upper-body routine?",
            "Seated dumbbell shoulder press 3x10, then rows.",
            ["overhead pressing"],
        ),
    ],
)
def test_round_one_uses(query: str, answer: str, want: list[str] | None) -> None:
    got = violated(query, answer)
    if want is None:
        assert got
    else:
        assert got == want


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            'A JSON object for a week of workouts with "days" (array of exactly 4 strings) and'
            ' "note" (a string).',
            [("format", "json", None), ("json_array", "days", 4)],
        ),
        ('Return only JSON: "city" (string) and "walks" (array of exactly 3 strings).', None),
        ("Steps to bleed a radiator. Only the steps, nothing before or after them.", "list"),
        ("Just a list of what to pack. Nothing else - no intro.", "list"),
        ("Ingredients for flapjacks. Bullet points only - no chat before or after.", "list"),
        ("I tried everything and nothing else works. Can you list some ideas?", []),
    ],
)
def test_round_one_forms(query: str, want: object) -> None:
    found = _checks(query)
    if want == "list":
        assert ("format", "list_only", None) in found
    elif want is None:
        assert ("json_array", "walks", 3) in found
    else:
        assert [f for f in found if f[0] in ("json_array", "format")] == want


def test_round_one_term_asked_with_a_word_between() -> None:
    asked = (
        "My coach keeps saying my squat needs more 'bracing'. What does 'bracing' actually mean?"
    )
    assert asked_terms(asked) == ["bracing"]


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "How do I descale my iron? It's the steam one, not the cordless one.",
            "Fill your cordless iron with vinegar and water.",
            "your cordless iron",
        ),
        (
            "It'll just be me and my partner for dinner. How big a chicken?",
            "For four of you, a 2 kg bird is plenty.",
            "for four of you",
        ),
        (
            "It's just me and my partner tonight. Can you halve this curry?",
            "Sure - for your family of five, keep it as it is.",
            "for your family of five",
        ),
        (
            "Me and my brother, nobody else, are going to Porto. Where should we stay?",
            "With four of you, rent a flat.",
            "with four of you",
        ),
        (
            "Me and my brother, plus the kids, are going to Porto. Where should we stay?",
            "With four of you, rent a flat.",
            None,
        ),
        (
            "We've both run several marathons. We're eyeing a 50k trail race. How to train?",
            "Since neither of you has run far yet, start with a couch-to-5k plan.",
            "neither of you",
        ),
        (
            "I've knitted every week for about ten years. Where do I start with lace?",
            "As a complete newcomer to knitting, start with a scarf.",
            "newcomer",
        ),
    ],
)
def test_round_one_told_back(query: str, answer: str, want: str | None) -> None:
    said = [a for a, _ in contradicted(query, answer)]
    if want is None:
        assert said == []
    else:
        assert said and want in said[0]


def test_round_one_programme_finished_offered_again() -> None:
    tried = tried_things("I've just finished the Couch to 5K programme. What next?")
    assert [t.item for t in tried] == ["couch to 5k programme"]
    assert offered_again("The best step: start Couch to 5K again from week one.", tried)
    assert not offered_again("Try a parkrun each Saturday and one long run a week.", tried)


# --- round two: what the second reviewers' cases showed -------------------------------------


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (
            "Party snacks for my son? Nothing deep-fried (e.g. doughnuts, crisps) - his class"
            " has a healthy-eating pledge.",
            ["deep-fried", "doughnuts", "crisps"],
        ),
        (
            "Allotment rules say no glyphosate products (Roundup and similar). What can I do?",
            ["glyphosate products", "roundup"],
        ),
        (
            "I'm pregnant, so soft cheeses (brie, camembert, that kind of thing) are off the"
            " menu. Cheese board ideas?",
            ["soft cheeses", "brie", "camembert"],
        ),
        (
            "How do I descale my iron? It's the steam generator one with the separate base, not"
            " a normal handheld iron.",
            [],
        ),
        ("Three weeks on and there's still no sign of any seedlings. Should I resow?", []),
        ("Our garage is a mess, but I'm not looking to make it into a home office.", []),
        ("We'd rather not make the loft into a bedroom. Storage ideas?", ["bedroom"]),
    ],
)
def test_round_two_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "Nothing harsh (bleach sprays, ammonia cleaners) because of my asthma. Mould?",
            "Bleach sprays are the very things you're steering clear of, so use vinegar.",
            [],
        ),
        (
            "No second-hand tent or sleeping bag please. Budget £250?",
            "For the tent, a new Vango; for warmth, a pre-loved three-season down sleeping bag.",
            ["second-hand sleeping bag"],
        ),
        (
            "No used laptops, new only. Budget £600?",
            "You'll see used versions of it cheaper in the same listings; I've left those out."
            " A new IdeaPad is about £550.",
            [],
        ),
        (
            "Grandad won't get a smartphone. How can we send him photos?",
            "Apps like WhatsApp need a smartphone, so leave those aside. Use a photo frame.",
            [],
        ),
        (
            "We don't want any creepy-crawlies kept in the flat. What should the hedgehog eat?",
            "Keep a tub of mealworms in the fridge.",
            ["creepy-crawlies"],
        ),
    ],
)
def test_round_two_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (
            "It's the fan oven in our kitchen, not the conventional one at my mum's. Why do my"
            " cakes dome?",
            "With your conventional oven, the heat is strongest at the top.",
            "your conventional oven",
        ),
        (
            "My Bosch shows E15. It's the fully integrated one, not the freestanding model.",
            "On your freestanding Bosch, tip it back to drain the tray.",
            "your freestanding bosch",
        ),
        (
            "My flatmate and I, no one else, are going glamping. Food ideas?",
            "For a group of four, a cool box and a two-burner stove will do.",
            "for a group of four",
        ),
    ],
)
def test_round_two_told_back(query: str, answer: str, want: str) -> None:
    said = [a for a, _ in contradicted(query, answer)]
    assert said and want in said[0]


def test_round_two_forms_and_terms() -> None:
    ask = 'Return JSON only with keys "title" and "tips". Oh, and "tips" should be a list of 4.'
    assert ("json_array", "tips", 4) in _checks(ask)
    more = "JSON with keys 'mon' and 'tue', each a string, and a 'snacks' key too, an array of 3."
    assert ("json_array", "snacks", 3) in _checks(more)
    long_answer = " ".join(["Dividends are paid to shareholders out of profits."] * 8)
    assert unnamed_terms(["ex-dividend date"], long_answer) == ["ex-dividend date"]


def test_round_two_a_class_finished_begun_again() -> None:
    tried = tried_things("I finished Headspace's Basics course last month. What next?")
    assert [t.item for t in tried] == ["headspace's basics course"]
    assert offered_again("A good way is to begin the Headspace's Basics course again.", tried)
    tried = tried_things("I completed the eight-week wheel-throwing class in spring. Next?")
    assert offered_again(
        "The best thing you can do is sign up for the wheel-throwing class.", tried
    )


def test_a_singular_names_kinds_are_no_class_to_search_by_embedding() -> None:
    from scoregate.scoring.membership import class_members, is_class

    for name in ("smartphone", "jumping", "overhead pressing", "olympic lifting"):
        assert class_members(name) and not is_class(name)
    assert is_class("olympic lifts") and is_class("insects")

"""fx36: misreadings `gate_holdout36` showed after its one measure, each mended as a rule.

1. What a request rules out, said the ways people say it: "I need to stay completely off it"
   after "Caffeine makes my heart race" (the pronoun points back to the harm's subject),
   "Tiger nuts are banned there, and so are all other nuts", "H.265/HEVC files won't open on
   it"; "H.265" ends no sentence.
2. In answers, a thing cleared out is no use of it: "get rid of the lead sinkers", "swap any
   old lead sinkers out of your boxes", "throw out your lead weights" (but "throw a lead jig
   out past the weeds" is a cast); nor is a check to make: "find out whether it contains
   caffeine", "check every flavour you buy: several brands put caffeine in ...".
3. Members by another name: a speedlight is a flash, an outboard an engine, cuprous
   thiocyanate copper, a caffeinated gel caffeine; a "lead mushroom-head jig" is lead.
4. "keep them lowercase" is read for no case of the whole answer: its "them" is as often some
   words ("SQL keywords ..., but keep them lowercase") as the answer.
5. "Could you give me the fields it should have as JSON?" is met by a JSON block with a note
   after it ("Wrap your entire output as JSON" and "... as JSON. Nothing else." still ask
   for JSON alone).
6. A figure worked from another than the asker's: "150 Mbps" answered "At 100 Mbps that's
   12.5 MB per second"; "a 24ft Sea Ray" answered "1/2" for a boat around 34 ft".
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted


def _items(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions]


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (
            "Caffeine makes my heart race and wrecks my stomach, so I need to stay completely"
            " off it on race day. What fuelling plan?",
            ["caffeine"],
        ),
        ("Energy gels make me gag so I don't want to use them. What else?", ["energy gels"]),
        (
            "We want to stay off chemical treatments. What can we do about red mite?",
            ["chemical treatments"],
        ),
        # a request pointing back to an allergy, no harm opening the sentence
        (
            "my son is allergic to eggs. can you give me a pancake recipe that works without them?",
            ["eggs"],
        ),
        (
            "Tiger nuts are banned there, and so are all other nuts. Bait ideas?",
            ["tiger nuts", "nuts"],
        ),
        (
            "Peanuts are banned at my son's school, and so are all other tree nuts. Lunch ideas?",
            ["peanuts", "tree nuts"],
        ),
        (
            "They play it on an old PC, and they've told me H.265/HEVC files won't open on it.",
            ["h.265", "hevc"],
        ),
        ("The videos won't play on my TV. Why?", ["on my tv"]),
        (
            "I'd rather not do one of those five-day liveaboard courses cooped up with strangers."
            " What are my options?",
            [],
        ),
        ("I'd rather not end up stuck in a room with strangers. Any escape room tips?", []),
        # what reviewers showed the new readings must leave alone
        ("I want to keep off the weight I lost. Meal ideas?", []),
        ("I need to stay off my feet for a week. Things to do at home?", []),
        ("I'm not trying to stay off carbs, just eat fewer. Breakfast ideas?", []),
        (
            "Screens give my son headaches, but with homework we can't avoid them. Tips?",
            [],
        ),
        ("MP3 files won't play on my car stereo until I format the stick. Why?", []),
        (
            "Please no tuna packed in oil, water-packed is fine. Lunch ideas?",
            ["tuna packed in oil"],
        ),
    ],
)
def test_what_the_request_rules_out(query: str, items: list[str]) -> None:
    assert _items(query) == items


@pytest.mark.parametrize(
    ("query", "term"),
    [
        ("We avoid pork at home, but chicken is fine and so is beef. BBQ menu?", "beef"),
        ("No onions please, though garlic is fine and so are leeks.", "leeks"),
        ("My GoPro videos won't play on my laptop. How do I fix this?", "gopro"),
        ("YouTube videos won't play on my smart TV. Any ideas?", "youtube"),
        ("DOCX files won't open on my tablet. Which free app can open them?", "docx"),
        ("The new Pixel is out now, and so is the iPhone. Which has the better camera?", "iphone"),
        ("Sunscreen makes my eyes sting, so which one should I use that won't do it?", "sunscreen"),
        ("Running makes me feel amazing, so I don't want to stay off it. Rest days?", "running"),
    ],
)
def test_not_ruled_out(query: str, term: str) -> None:
    assert term not in _items(query)


@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        (
            "Swap any old lead sinkers and jigs out of your boxes so they don't creep back in.",
            "lead",
            False,
        ),
        ("Get rid of the old lead sinkers.", "lead", False),
        ("Throw out your lead sinkers.", "lead", False),
        ("Clear the old lead sinkers out of your boxes.", "lead", False),
        ("Throw a lead jig out past the weed line.", "lead", True),
        ("Throw the lead jig out and let it sink.", "lead", True),
        ("Use lead sinkers and throw out the old line.", "lead", True),
        ("Take the chicken out of the fridge.", "chicken", True),
        (
            "Find out which gel is handed out on the course and whether it contains caffeine;"
            " if in doubt, carry your own.",
            "caffeine",
            False,
        ),
        (
            "Check every flavour you buy: several brands put caffeine in cola flavours.",
            "caffeine",
            False,
        ),
        ("Check every flavour and add caffeine gels late.", "caffeine", True),
        # the means of a clearing, or what comes after it, is a use
        ("To get rid of limescale use white vinegar and a cloth.", "vinegar", True),
        ("Get rid of aphids with neem oil sprayed weekly.", "neem oil", True),
        ("Swap out the oil for butter.", "butter", True),
        ("Throw out a lead sinker rig past the weed line.", "lead", True),
        ("Wipe on clear epoxy and keep pets away until it cures.", "epoxy", True),
        ("Check if the dough has doubled and then brush it with melted butter.", "butter", True),
        ("Ask whether they have a kids' menu and order the chicken nuggets.", "chicken", True),
        ("Check any bolts you buy: stainless steel is best near the sea.", "stainless steel", True),
        ("Throw the popper well away from the boat, then give it a twitch.", "popper", True),
        ("Throw some chum out of the bucket every few minutes.", "chum", True),
        ("Bin liners work well as a cheap drop cloth.", "bin liners", True),
        (
            "Check if the bait shop has live shrimp; if they do, hook one through the tail.",
            "shrimp",
            True,
        ),
        (
            "Check each bottle you buy: some brands of soy sauce contain wheat, so use tamari and"
            " a splash of fish sauce instead.",
            "fish sauce",
            True,
        ),
        ("Get rid of the old plastic containers and switch to glass.", "plastic containers", False),
        ("Bin the fabric softener: it coats the fibres.", "fabric softener", False),
        ("Swap out the kit lens for a 50mm prime.", "kit lens", False),
    ],
)
def test_cleared_out_or_checked_is_no_use(answer: str, term: str, affirmed: bool) -> None:
    assert mentions(answer, term)[1] is affirmed


@pytest.mark.parametrize(
    ("item", "answer", "member"),
    [
        (
            "flash",
            "For darker corners, bounce a single small speedlight off the ceiling.",
            "speedlight",
        ),
        ("engine", "Drop the outboard motor and give a short burst astern.", "outboard motor"),
        # a direction, an electric motor, stage lights: none of them an engine or a flash
        ("engine", "Hike outboard and ease the main when the gust hits.", None),
        ("engine", "The autopilot's drive motor only draws about 2 amps.", None),
        ("flash", "Stage strobes will freeze the dancers.", None),
        ("oysters", "Try king oyster mushroom-based 'scallops' seared in oil.", None),
        ("copper", "It uses cuprous thiocyanate, so it won't set up a galvanic cell.", "cuprous"),
        ("caffeine", "For the last two gels, swap to a caffeinated version.", "caffeinated"),
        ("lead", "- A 1/10 oz lead mushroom-head jig is the standard.", "lead"),
        ("copper", "Choose a copper-free antifouling that is safe for aluminium.", None),
    ],
)
def test_members_by_another_name(item: str, answer: str, member: str | None) -> None:
    violated = check_members([item], answer).violated
    assert violated == ([] if member is None else [(item, member)])


@pytest.mark.parametrize(
    "query",
    [
        "Should I keep them lowercase, or is CamelCase OK for my variable names?",
        "I usually keep them lowercase but my boss wants Title Case. Write 5 headlines.",
        # "them" is some words, not the answer
        "I know SQL keywords are usually uppercase, but keep them lowercase please. Write a query.",
        "The blend names are lowercase on the packs, so keep them lowercase when you mention them.",
    ],
)
def test_a_case_told_or_asked_about_is_no_instruction(query: str) -> None:
    assert [k for k in analyze(query).instructions if k.check == "case"] == []


@pytest.mark.parametrize(
    ("query", "answer", "said"),
    [
        (
            "I'm recording a 45-minute keynote in 4K at 150 Mbps. Is my 64GB card enough?",
            "At 100 Mbps that's 12.5 MB per second, so 45 minutes comes to about 33.8 GB.",
            ("at 100 mbps that's", "150 mbps"),
        ),
        (
            "I'm recording a 45-minute keynote in 4K at 150 Mbps. Is my 64GB card enough?",
            "At 150 Mbps that's 18.75 MB per second. At 100 Mbps you'd fit more, but keep 150.",
            None,
        ),
        (
            "Just bought a 24ft Sea Ray. What size dock lines do I need?",
            'A common rule is 1/8" of line per 9 ft of boat, so 1/2" for a boat around 34 ft.',
            ("for a boat around 34 ft", "24ft sea"),
        ),
        (
            "Just bought a 24ft Sea Ray. What size dock lines do I need?",
            'For a 24 ft boat, 3/8" lines; for a boat around 34 ft you\'d step up to 1/2".',
            None,
        ),
    ],
)
def test_a_figure_worked_from_another(
    query: str, answer: str, said: tuple[str, str] | None
) -> None:
    found = contradicted(query, answer)
    assert found == ([] if said is None else [said])


@pytest.mark.parametrize(
    ("query", "value"),
    [
        (
            "Could you give me the fields it should have as JSON? Name, type, required.",
            "json_block",
        ),
        ("Give me a list of 5 fruits as JSON. Nothing else.", "json"),
        ("List three colours. Your entire output should be formatted as JSON.", "json"),
    ],
)
def test_json_given_in_an_ask(query: str, value: str) -> None:
    formats = [k.value for k in analyze(query).instructions if k.check == "format"]
    assert formats == [value]

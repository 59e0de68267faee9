"""fx39: what `gate_holdout39` showed when it was read, each mended as a rule.

1. A rhyme asked for or ruled out is an instruction the answer's verse is checked
   against: "No rhymes please, the teacher wants free verse" fails a poem whose closing
   lines rhyme (cold / gold / cold); "a short rhyme for the invitation" fails prose. A
   permission rules nothing ("it doesn't have to rhyme"), nor does a question about rhyme
   ("what's the rhyme scheme of a villanelle?").
2. What the asker has already tried is not to be offered again: "I already tried offering
   waxworms to tempt him" and an answer whose advice is "Try a waxworm or two as an
   appetite starter"; "I already restarted the router" and "1. Restart your router".
   Telling why it failed, or ruling it out, is no offer, and a thing the request's own
   question asks about is not read ("Should I try waxworms again?").
3. A spaced "free" before a name of its own rules nothing out: "the teacher wants free
   verse" ruled out "wants", "plus free guided tours" "plus".
"""

from __future__ import annotations

import pytest

from scoregate.config.tracks import PrecisionConfig
from scoregate.scoring.instructions import check_instruction, describe
from scoregate.scoring.precision import _pair_score, _Slots
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.rhyme import rhyme_key, rhyme_pairs, rhymes
from scoregate.scoring.tried import offered_again, tried_things

AUTUMN = (
    "Can you write me a short poem about autumn for my kid's class newsletter? No rhymes please."
)
FREE_VERSE = """October leans on the schoolyard fence,
counting the maple leaves as they let go —
one red, one copper, one the color of a fox.
Puddles hold pieces of the sky.
We walk home with our pockets full
of acorns, of cold air,
and the light goes early."""
RHYMED_END = """October leans on the schoolyard fence,
counting the maple leaves as they let go —
one red, one copper, one the color of a fox.
We walk home with our pockets full
of acorns, of wood smoke, of cold,
and the light slips away, soft and gold,
tucking the town in against the cold."""
INVITE = """big bubbles, blue bubbles, bubbles in the air,
bring your biggest giggles, there'll be bubbles everywhere!
ben is turning six, so come and celebrate,
saturday at two, we'll blow bubbles till it's late!"""


def _rhyme(query: str) -> list[tuple[object, str]]:
    return [(k.value, k.phrase) for k in analyze(query).instructions if k.check == "rhyme"]


@pytest.mark.parametrize(
    ("word", "key"),
    [
        ("cold", "old"),
        ("stake", "ake"),
        ("use", "use"),
        ("walked", "alked"),
        ("sky", "ai"),
        ("blue", "oo"),
        ("floor", "ore"),
        ("rough", None),  # spelt like "though", said apart
        ("said", None),  # spelt like "paid"
    ],
)
def test_rhyme_key(word: str, key: str | None) -> None:
    assert rhyme_key(word) == key


@pytest.mark.parametrize(
    ("a", "b", "rhyme"),
    [
        ("cold", "gold", True),
        ("cake", "lake", True),
        ("floor", "more", True),
        ("goodbye", "cry", True),
        ("high", "eye", True),
        ("night", "kite", True),
        ("sly", "hi", True),
        ("cold", "cold", False),  # the same word repeated
        ("running", "jumping", False),  # a suffix shared, no rhyme
        ("walked", "jumped", False),
        ("fence", "fox", False),
        ("rough", "though", False),
        ("paid", "said", False),
        ("come", "home", False),
    ],
)
def test_rhymes(a: str, b: str, rhyme: bool) -> None:
    assert rhymes(a, b) is rhyme


def test_rhyme_pairs_reads_nearby_line_ends() -> None:
    lines, rhyming, pairs = rhyme_pairs(RHYMED_END)
    assert (lines, rhyming) == (7, 3)
    assert ("cold", "gold") in pairs


@pytest.mark.parametrize(
    ("query", "value"),
    [
        (AUTUMN, "none"),
        ("Write a free verse poem about rain", "none"),
        ("a haiku, no rhyming please", "none"),
        ("write a poem for the retirement card, don't make it rhyme", "none"),
        ("i dont want it to rhyme, just write the song's second verse", "none"),
        ("write a rhyming poem for my dad's retirement card", "required"),
        ("write a birthday poem that rhymes", "required"),
        ("write a short rhyme for the party invitation", "required"),
        ("write lyrics for a jingle, they should rhyme", "required"),
        ("Write a short poem for his card. He hates rhyming poems.", "none"),
        ("a poem about grief, non-rhyming please", "none"),
        ("No rhymes please, my teacher marks down rhyming poems. A poem about home?", "none"),
        (
            "I assumed it had to be free verse, but the sheet says it must rhyme. 8 lines?",
            "required",
        ),
        ("write 10 lines of blank verse about spring", "none"),
        (
            "That's a nice message, but can you make it rhyme this time? It's for a card.",
            "required",
        ),
        ("I need a few lines for a sympathy card. No rhymes please.", "none"),
        (
            "For the newsletter: a short poem about tomatoes, rhyming couplets if you can.",
            "required",
        ),
    ],
)
def test_rhyme_asked_or_ruled_out(query: str, value: str) -> None:
    assert [v for v, _ in _rhyme(query)] == [value]


@pytest.mark.parametrize(
    "query",
    [
        "Write a poem for my mum's 60th. It doesn't have to rhyme.",
        "my chorus doesn't rhyme, how can I fix it?",
        "what's the rhyme scheme of a villanelle?",
        "Music for a children's party, but no nursery rhymes.",
        "give me a word that rhymes with orange for my song",
        "Poems for a toddler rhyme time at the library, no rhymes about death though.",
        # the asker's own song asked about, not verse to write
        "im writing a song, got verse 1 done. i dont want it to rhyme, perfect rhymes sound"
        " like a nursery rhyme to me. how do i make lines hang together?",
        "I'm tired of cheesy cards. Why are so many cards written in rhyme anyway?",
    ],
)
def test_no_rhyme_instruction(query: str) -> None:
    assert _rhyme(query) == []


@pytest.mark.parametrize(
    ("query", "content", "passed"),
    [
        (AUTUMN, FREE_VERSE, True),
        (AUTUMN, RHYMED_END, False),
        ("write a short rhyme for the party invitation", INVITE, True),
        (
            "write a short rhyme for the party invitation",
            "Join us on Saturday at two for bubbles, cake and games in the garden.",
            False,
        ),
        # verse with no rhyme read: left open, since rhymes spelt apart are not read
        ("write a rhyming poem for the card", FREE_VERSE, None),
        (
            "write a rhyming poem for the card",
            "At dawn you cast your line right through\nand told a joke the fish all knew.",
            None,
        ),
    ],
)
def test_rhyme_check(query: str, content: str, passed: bool | None) -> None:
    (k,) = [k for k in analyze(query).instructions if k.check == "rhyme"]
    assert check_instruction(content, k)[0] is passed


def test_rhyme_described() -> None:
    (k,) = [k for k in analyze(AUTUMN).instructions if k.check == "rhyme"]
    assert describe(k) == "no rhymes"


GECKO = (
    "My leopard gecko has barely eaten for 3 weeks. I already tried offering waxworms to "
    "tempt him and he ignored them. Should I be worried?"
)
WICKS = (
    "Making coconut wax candles. I already tried wooden wicks and they kept drowning, so "
    "I'm done with those. What wick should I use?"
)


ROUTER = "My wifi keeps dropping. I already restarted the router and ran sfc /scannow."


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (GECKO, ["waxworms"]),
        (WICKS, ["wooden wicks"]),
        ("I've tried melatonin but it didn't help. Any other ideas?", ["melatonin"]),
        (
            "I have already tried a heat mat, a new thermostat and a different basking bulb.",
            ["heat mat", "new thermostat", "different basking bulb"],
        ),
        ("I've tried melatonin and it helps a bit, what else can I do?", []),  # no failure
        ("I already tried restarting the router, didn't help.", ["router"]),  # an act's object
        ("I already restarted the router and the laptop, twice.", ["router", "laptop"]),
        ("I already ran sfc /scannow, it still crashes.", ["sfc"]),
        ("Our door squeaks. Already tried WD-40 on the hinges.", ["wd-40"]),
        ("I've already deleted node_modules and reinstalled.", ["node_modules"]),
        ("We already decided on a venue. Which caterer?", []),  # no attempt
        ("I already tried waxworms. Should I try waxworms again?", []),  # what is asked
        ("I already cleaned the filter, now how do I clean the drum?", ["filter"]),
        (
            "I already added a second brood box, and I've been knocking down cells.",
            ["second brood box"],
        ),
        ("We've tried everything, nothing works.", []),
        ("I already tried that.", []),
    ],
)
def test_tried_things(query: str, items: list[str]) -> None:
    assert [t.item for t in tried_things(query)] == items


@pytest.mark.parametrize(
    ("query", "answer", "again"),
    [
        (GECKO, "- Try a waxworm or two as an appetite starter.", "Try a waxworm"),
        (GECKO, "If he still refuses, you could offer a waxworm as a treat.", "offer a waxworm"),
        (WICKS, "Go up a size in wooden wick.", "Go up a size in wooden wick"),
        (GECKO, "Since he ignored the waxworms, offer dubia instead.", None),
        (GECKO, "Waxworms are fatty, so it's good you only tried them once.", None),
        (GECKO, "Don't offer waxworms again; they're junk food.", None),
        (GECKO, "Skip waxworms and try hornworms.", None),
        (WICKS, "Wooden wicks often drown in coconut wax; switch to a cotton CD wick.", None),
        (WICKS, "Use a cotton wick rather than wooden wicks.", None),
        (ROUTER, "1. Restart your router and modem.", "Restart your router"),
        (ROUTER, "Reboot the router once more.", "Reboot the router"),  # one act, two verbs
        (
            WICKS,
            "Go up one size from what you used, and try a booster wooden wick.",
            "try a booster wooden wick",
        ),
        (
            "I already ran GRANT SELECT ON sales.orders TO reporting.",
            "Also run `ALTER DEFAULT PRIVILEGES IN SCHEMA sales GRANT SELECT ON TABLES`.",
            None,  # another command that holds the words
        ),
        (ROUTER, "First, run sfc /scannow from an admin prompt.", "run sfc"),
        (ROUTER, "Since restarting the router didn't help, change the Wi-Fi channel.", None),
        (ROUTER, "Restarting the router often clears it, but not here.", None),
        (ROUTER, "You restarted the router already, so look at the laptop's driver.", None),
        (ROUTER, "Don't restart the router again; check the DHCP lease.", None),
    ],
)
def test_offered_again(query: str, answer: str, again: str | None) -> None:
    found = offered_again(answer, analyze(query).tried)
    assert (found[0][1] if found else None) == again


def test_tried_in_the_breakdown() -> None:
    assert analyze(GECKO).to_dict()["tried"] == [
        {"item": "waxworms", "phrase": "I already tried offering waxworms"}
    ]


def test_the_precision_track_reports_a_tried_thing_offered_again() -> None:
    answer = "Probably not. Try a waxworm or two as an appetite starter, then dubia."
    cfg = PrecisionConfig()
    track = _pair_score((GECKO, answer), [0.9], _Slots(full=slice(0, 1)), cfg, 1.0)
    assert track.details["violated"] == ["waxworms"]
    (said,) = track.details["violations"]
    assert said == (
        "suggests 'Try a waxworm' again, which the request has already tried"
        " ('I already tried offering waxworms')"
    )
    assert said in track.reasons
    assert track.score == pytest.approx(
        track.details["model_score"] * cfg.exclusion_penalty, abs=1e-3
    )
    kept = "Probably not. Since he ignored the waxworms, offer dubia every few days."
    track = _pair_score((GECKO, kept), [0.9], _Slots(full=slice(0, 1)), cfg, 1.0)
    assert track.details["violated"] == []


@pytest.mark.parametrize(
    "query",
    [
        "Can you write me a short poem about autumn? The teacher wants free verse.",
        "Should I switch couriers? I'm thinking of offering free shipping over 30 pounds.",
        "The museum is doing free entry on Sundays, plus free guided tours at 11.",
        "Which gym has the best free weights area?",
    ],
)
def test_free_before_a_name_of_its_own_rules_nothing_out(query: str) -> None:
    assert analyze(query).excluded == []


@pytest.mark.parametrize(
    ("query", "item"),
    [("A gluten free pasta bake, please.", "gluten"), ("Any sugar-free desserts?", "sugar")],
)
def test_free_of_a_thing_still_rules_it_out(query: str, item: str) -> None:
    assert item in analyze(query).excluded

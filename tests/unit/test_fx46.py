"""fx46: what `gate_holdout46` showed when it was read, each mended as a rule.

1. "so nothing metal on this one please" rules out metal; "no fruit, dried or fresh" rules
   out fruit (not "dried" and "fresh" as things of their own).
2. Members: brass and stainless steel are metal, a raisin and an apple are fruit, Anki and
   Memrise are apps.
3. Things gone through, offered again: "We've already done the split cage thing" by
   "**Start with a split cage:**", "I've finished the Duolingo Gaelic course" by "Start
   with Duolingo's Gaelic course".
4. The asker's facts told back the other way: the limb's side ("my left knee" and "your
   right leg"), the sex of a group ("both girls" and "the dominant male"), the model ("a
   Corsair RM750" and "your RM650"), a figure told as the asker's ("At 24 lands you're on
   the heavy side" for "20 lands", "your 5mm ones" for "3mm strips").
"""

from __future__ import annotations

import pytest

from scoregate.scoring.restated import contradicted
from scoregate.scoring.tried import offered_again, tried_things
from tests.reading import items, violated

SHELF = (
    "Making a macrame hanging shelf for our bathroom. It gets really steamy and I've had "
    "rust marks off fittings before, so nothing metal on this one please. What should I "
    "hang it from?"
)
TREATS = (
    "What treats can I give my chinchilla? Vet says she's a bit overweight, so no fruit, "
    "dried or fresh. I'd like something she still gets excited about."
)
GREEK = (
    "Could you suggest some resources for teaching myself Greek? Nothing app-based please, "
    "I'm on screens all day for work."
)


@pytest.mark.parametrize(
    ("query", "want"),
    [
        (SHELF, ["metal"]),
        ("I want nothing plastic in it. Which lunchbox?", ["plastic"]),
        ("No screws for this one. How do I join the boards?", ["screws"]),
        (TREATS, ["fruit"]),
        ("No loans, federal or private. How do I pay for college?", ["loans"]),
        # (a list whose first item is a state too keeps each)
        ("no smoked, raw or cured fish please", ["smoked", "raw", "cured fish"]),
        # what happened or what is wrong, not what is ruled out
        ("There is nothing wrong in it. Why does it leak?", []),
        ("I have nothing planned for this. Any ideas for Saturday?", []),
    ],
)
def test_what_is_ruled_out(query: str, want: list[str]) -> None:
    assert items(query) == want


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        (SHELF, "Fold the cords over a solid brass ring.", ["metal"]),
        (SHELF, "Hang it from a stainless-steel ceiling hook.", ["metal"]),
        (SHELF, "Fold the cords over a wooden ring and hang it from a nylon hook.", []),
        (TREATS, "- **A single raisin or a sliver of dried apple** as a special reward", ["fruit"]),
        (TREATS, "- **Dried rose petals**\n- **Chamomile flowers**\n- Orchard grass hay", []),
        (GREEK, "Flashcards: set up Anki or Memrise on your phone.", ["app"]),
        (GREEK, "Flashcards: index cards kept in a box, reviewed a few times a week.", []),
    ],
)
def test_members_of_what_is_ruled_out(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want


DEGUS = (
    "Trying to introduce a new degu to my two girls. We've already done the split cage thing "
    "for two weeks and they sniff through the bars fine now. What's the next step?"
)
GAELIC = (
    "I've finished the Duolingo Scottish Gaelic course twice now (all of it) but I freeze "
    "in real conversation. What should I do next?"
)


def test_a_thing_named_loosely_is_the_thing() -> None:
    assert [t.item for t in tried_things(DEGUS)] == ["split cage"]


@pytest.mark.parametrize(
    ("query", "answer", "offered"),
    [
        (DEGUS, "1. **Start with a split cage:** put the new degu in one half.", True),
        (DEGUS, "- Try a split cage for a fortnight first.", True),
        (DEGUS, "Two weeks in the split cage is a good sign: move to neutral ground.", False),
        (GAELIC, "1. Start with Duolingo's Scottish Gaelic course from the beginning.", True),
        (GAELIC, "You've got a solid base from the Duolingo course, so find a Gaelic cafe.", False),
        # a draft is no course: finishing it is not trying it
        ("I've finished the first draft. How do I edit it?", "Start with the first draft.", False),
    ],
)
def test_what_was_gone_through_offered_again(query: str, answer: str, offered: bool) -> None:
    assert bool(offered_again(answer, tried_things(query))) is offered


KNEE = (
    "I'm 52 and going back to karate. I had a meniscus repair on my left knee two years ago; "
    "it's fine day to day but I'm wary of deep stances. Any advice?"
)
SISTERS = (
    "I have two chinchillas, both girls, sisters, 4 years old. Lately one keeps chasing the "
    "other away from the food bowl. What should I do?"
)
PSU = (
    "I've got a Corsair RM750 (750W), an i5-13600K, and I'm swapping my GTX 1070 for an RTX "
    "4070. Do I need a new PSU?"
)
DECK = (
    "My mono-red aggro deck keeps flooding out around turn 5. I've already dropped to 20 "
    "lands and nothing costs more than 3. What else can I do?"
)
STRIPS = "I'm using a slotted tool with 3mm strips and every coil has a crimp. Can I avoid it?"


@pytest.mark.parametrize(
    ("query", "answer", "said"),
    [
        (KNEE, "Avoid forcing deep twisting pivots on your right leg.", "your right leg"),
        (KNEE, "Avoid deep pivots on your left knee.", None),
        # the sound limb, or both sides told
        (KNEE, "Lead with your right leg, the good one.", None),
        (KNEE, "Protect your left knee; your right knee takes the load.", None),
        (SISTERS, "Consider neutering the dominant male.", "the dominant male"),
        (SISTERS, "Unlike males, females rarely fight over food; give the girls two bowls.", None),
        (
            "My two boys and my daughter fight over the console",
            "Tell the girls to take turns.",
            None,
        ),
        (PSU, "That is exactly what your RM650 provides.", "your rm650"),
        (PSU, "Your RM750 is plenty, and your RTX 4070 draws about 200W.", None),
        (DECK, "At 24 lands you're on the heavy side, so trim to 21 or 22.", "at 24 lands you're"),
        (DECK, "At 17 lands you're risking screw.", None),
        (DECK, "At 20 lands you're already lean.", None),
        (STRIPS, "A fine-slot tool is made for narrow strips like your 5mm ones.", "your 5mm ones"),
        (STRIPS, "A fine-slot tool is made for narrow strips like your 3mm ones.", None),
    ],
)
def test_facts_told_back_the_other_way(query: str, answer: str, said: str | None) -> None:
    found = contradicted(query, answer)
    assert [f[0] for f in found] == ([said] if said else [])


# --- the reviewers' rounds: what the readings must leave alone, and more of what they catch


@pytest.mark.parametrize(
    ("query", "answer", "said"),
    [
        # the sound limb, a warning, the asker's limb told by its state
        (KNEE, "Carry the bags in your right hand and keep the sore leg for light things.", None),
        (
            "My left eye has been twitching for three days. Should I be worried?",
            "It's usually harmless. If your right eye starts twitching as well, see your GP.",
            None,
        ),
        (
            "I broke my left ankle six weeks ago. How do I manage stairs?",
            "Up with the good leg first, down with the healing one. Keep your right foot doing"
            " most of the work.",
            None,
        ),
        (
            "I stubbed my right big toe last night and now it's swollen.",
            "Buddy-tape your left big toe to the toe next to it.",
            "your left big toe",
        ),
        # the other sex in general, in a list of both, or another animal or person
        (
            "We've got three hens, all girls, no cockerel, and one has started crowing.",
            "She isn't turning into a male: the dominant hen sometimes takes over the male's role.",
            None,
        ),
        (
            "Our two guinea pigs are both boars and keep rumbling. Should we separate them?",
            "Pet shops sometimes suggest adding a sow, but the female would give them more to"
            " fight over.",
            None,
        ),
        (
            "My two sons, 8 and 11, want phones. How do I handle this?",
            "You may find fewer of the girls and boys in their classes have phones than you think.",
            None,
        ),
        (
            "Both my cats are female and spayed, but one has started spraying.",
            "A neighbourhood tomcat is a common trigger: the male outside the door sets it off.",
            None,
        ),
        ("My two girls want a treat.", "Get more bang for your buck with a cinema trip.", None),
        (
            "I have two guinea pigs, both sows, and they squabble over the hay rack.",
            "Add a second hay rack so the dominant boar can't guard the only one.",
            "the dominant boar",
        ),
        (
            "My two teenage daughters both want the bigger bedroom.",
            "Give your older son the bigger room now and swap after a year.",
            "your older son",
        ),
        # models: a line named by a capitalised word, a code with a prefix, one digit
        (
            "My Garmin Edge 530 won't pair since the update.",
            "Restart your Edge 830 by holding the power button.",
            "your edge 830",
        ),
        (
            "My Brother HL-L2350DW keeps saying Replace Toner.",
            "On your HL-L2370DW, open the front cover and hold OK.",
            "your hl-l2370dw",
        ),
        (
            "My Roomba i3 keeps showing 'clean brushes'.",
            "Flip your Roomba i7 over and wipe the sensors.",
            "your roomba i7",
        ),
        ("I'm in Year 10 and dread maths.", "Your Year 11 exams will build on this.", None),
        # a tax form or a vitamin is no model line
        ("I just got my W-2 from work.", "Then update your W-4 with HR.", None),
        ("My B12 is low.", "Your B6 levels matter too.", None),
        (
            "My Instant Pot Duo 60 keeps giving a burn warning.",
            "Your Duo 60 needs a cup of thin liquid; the Duo 80 needs more.",
            None,
        ),
        # figures: any state after "you're", not one advised before it nor a risk
        (
            "I've been running my gravel tyres at 60 psi and the ride is harsh.",
            "At 80 psi you're running them far too hard for gravel.",
            "at 80 psi you're",
        ),
        (
            "My mower is set to cut at 25mm and the lawn gets scalped.",
            "Raise it to around 40mm. At 40mm you're clear of the high spots.",
            None,
        ),
        (
            "I'm knitting a jumper with 4mm needles and the fabric is stiff.",
            "Your 3.5mm needles are too small for a jumper, so go up to 4.5mm or even 5mm.",
            "your 3.5mm needles",
        ),
        (
            "I give my tomatoes 5 litres of water a day and the leaves are yellow.",
            "At 10 litres a day you're almost certainly drowning the roots.",
            "at 10 litres a day you're",
        ),
    ],
)
def test_what_the_reviewers_found(query: str, answer: str, said: str | None) -> None:
    assert [f[0] for f in contradicted(query, answer)] == ([said] if said else [])


RADIATORS = (
    "I've bled all the radiators twice this week and the upstairs ones are still cold at the "
    "top. What next?"
)
WATERCOLOUR = (
    "I've completed the 8-week beginner watercolour course at our community centre. Where "
    "should I go from here?"
)


@pytest.mark.parametrize(
    ("query", "answer", "offered"),
    [
        (RADIATORS, "The first thing to do is bleed the upstairs radiators.", True),
        (RADIATORS, "Since bleeding the radiators didn't help, check the pump.", False),
        (
            WATERCOLOUR,
            "The best place to begin is to enrol in a beginner watercolour course.",
            True,
        ),
        (WATERCOLOUR, "Now that the beginner course is behind you, paint small landscapes.", False),
        # an act told with no failure is no attempt
        ("I've bled all the radiators. Which paint should I use?", "Bleed the radiators.", False),
    ],
)
def test_acts_and_courses_offered_again(query: str, answer: str, offered: bool) -> None:
    assert bool(offered_again(answer, tried_things(query))) is offered


@pytest.mark.parametrize(
    ("query", "answer", "want"),
    [
        # what kits, recipes and shop-bought products of a kind have is a general remark
        (SHELF, "Most raised-bed kits in garden centres come with galvanised steel brackets.", []),
        (
            TREATS,
            "Most shop-bought trail mixes are loaded with raisins and dried apricots, so check.",
            [],
        ),
        (TREATS, "Most recipes scatter sultanas between the layers, but skip them.", []),
        (GREEK, "Paper flashcards in a Leitner box: it's basically what Anki does by hand.", []),
        (GREEK, "It's the same spaced-repetition idea that Anki and Quizlet automate.", []),
        (GREEK, "Plenty of plans online are built around Duolingo or Memrise streaks.", []),
        # a new clause after "and" is a use again
        (
            "No almonds please.",
            "Most granola bars contain oats and add almonds on top.",
            ["almonds"],
        ),
        (
            "Nothing app-based in it please, I'm on my phone enough.",
            "Review with Quizlet every evening.",
            ["app"],
        ),
    ],
)
def test_general_remarks_and_uses(query: str, answer: str, want: list[str]) -> None:
    assert violated(query, answer) == want

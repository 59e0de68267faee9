"""Words an answer names without doing what the request rules out: a harm the request
wants to avoid and the answer warns of, a comparison, a condition named by the item, an
item replaced or set aside. And the uses next to them that must still be caught."""

from __future__ import annotations

import pytest

from scoregate.scoring.activities import affirmed_activities
from scoregate.scoring.affirmation import check_exclusions
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze


def _flags(query: str, answer: str) -> list[str]:
    a = analyze(query)
    check = check_members(a.excluded, answer, asked=a.asked)
    return [i for i, _ in check.violated] + [
        x.label for x, _ in affirmed_activities(answer, a.avoided)
    ]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "I really don't want to kill it, how do I care for my bonsai?",
            "Soggy roots kill junipers, so water only when the top of the soil dries.",
        ),
        (
            "How do I clean the oven without damaging the enamel?",
            "Steel wool will damage the enamel, so use a soft sponge and a baking soda paste.",
        ),
        (
            "Tips to remove a stripped screw? I don't want to break my drill bit.",
            "Go slowly, or you'll break the drill bit. A rubber band adds grip.",
        ),
        (
            "How do I tell her? I don't want to hurt her feelings.",
            "Blunt wording can hurt her feelings, so start with what you value in her.",
        ),
        (
            "How do I wash a wool jumper? I don't want to shrink it.",
            "Hot water will shrink it, so use cold water and a wool detergent.",
        ),
        (
            "How do I move my photos to a new laptop without losing any?",
            "Copy them first: deleting before the copy ends is how people lose photos.",
        ),
    ],
)
def test_a_harm_to_avoid_is_no_excluded_item(query: str, answer: str) -> None:
    assert analyze(query).excluded == []
    assert _flags(query, answer) == []


@pytest.mark.parametrize(
    ("query", "item"),
    [
        # a thing or an activity, not a harm
        ("I want to work four hours straight, no breaks.", "breaks"),
        ("I don't want to kill the mice, just get them out of the shed.", "kill the mice"),
        ("A video game with no killing for my 8-year-old?", "killing"),
        ("No breaking changes please, it's a public API.", "breaking changes"),
        ("I don't want to lose weight, just build muscle.", "lose weight"),
        ("I don't want to repot it, what else can I do?", "repot"),
    ],
)
def test_things_and_activities_with_the_same_words_stay(query: str, item: str) -> None:
    assert item in analyze(query).excluded


def test_breaking_up_is_something_one_does() -> None:
    a = analyze("I don't want to break up with him, how do we fix this?")
    assert a.excluded or a.avoided


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # a comparison says what something else is like
        (
            "Warm jacket ideas? I'd prefer not to buy down.",
            "The Thermoball packs small and feels like down.",
        ),
        (
            "Easy paints for a beginner? Rather not deal with oils.",
            "Acrylics dry fast and behave a lot like oils.",
        ),
        (
            "Elegant shoes for a wedding, I don't like wearing heels.",
            "Pointed flats lengthen the leg the way a heel does.",
        ),
        (
            "Smart outfit for the gala, NO ties.",
            "A pocket square adds polish where the tie would be.",
        ),
        # a condition named by the item
        (
            "Quick dinner, no dairy please.",
            "Olive oil does the work here, so it's safe for a milk allergy.",
        ),
        (
            "Party food, nothing with nuts.",
            "One guest has a tree-nut and peanut allergy, so label every dish.",
        ),
        # set aside or replaced
        (
            "Plan me a week in Scotland, leave out Edinburgh.",
            "A week-long loop skipping Edinburgh: start in Glasgow.",
        ),
        (
            "Design books please, nothing about fashion.",
            "Here are design books that steer clear of fashion.",
        ),
        (
            "Pets for a small flat? Avoid anything that needs a big cage or tank.",
            "If cages and tanks are out, that leaves a few options.",
        ),
        (
            "Garden plan, I hate cabbage.",
            "Sow spinach and chard now, nothing from the cabbage family.",
        ),
        (
            "Aquaponics, but not with fish.",
            "Plant-based nutrients replacing fish waste feed the beds.",
        ),
        (
            "Lunches for a nut-free school, no nut products.",
            "Sunflower seed butter is a good alternative to peanut butter.",
        ),
    ],
)
def test_named_but_not_used(query: str, answer: str) -> None:
    assert analyze(query).excluded
    assert _flags(query, answer) == []


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # an example after "like" is a use
        ("Pasta sauce, no meat.", "Add a spice like chorizo for depth."),
        ("Quick dinner, no dairy please.", "Top it with a cheese like feta."),
        # a use outside the comparison, the condition or the setting aside
        (
            "Warm jacket ideas? I'd prefer not to buy down.",
            "It feels like down. The warmest pick is still a down parka.",
        ),
        (
            "Party food, nothing with nuts.",
            "For the nut allergy, label dishes; serve walnuts on the side.",
        ),
        (
            "Plan me a week in Scotland, leave out Edinburgh.",
            "Skip Glasgow and spend two days in Edinburgh.",
        ),
        # "out of" is a place; "nothing beats" praises
        ("Dinner ideas, no chicken.", "Once the chicken is out of the oven, rest it."),
        ("Dinner ideas, no bacon.", "Nothing beats bacon with eggs."),
        # "replace X with Y": Y is used
        ("Baking ideas, no butter.", "Replacing the oil with butter makes it richer."),
    ],
)
def test_uses_next_to_them_are_still_caught(query: str, answer: str) -> None:
    assert _flags(query, answer)


def test_the_doctest_example_still_holds() -> None:
    assert check_exclusions("Cake without nuts", "Add the walnuts and bake.").violated == ["nuts"]


@pytest.mark.parametrize(
    ("query", "not_excluded", "excluded"),
    [
        # the list turns to what the asker has
        (
            "How do I stretch the paper? I don't have gummed tape, just masking tape, staples"
            " and a wooden board.",
            "staples",
            "gummed tape",
        ),
        # what happened, not a preference
        (
            "Tell Marcus he didn't get the Analytics Manager role, kindly.",
            "analytics manager role",
            None,
        ),
        ("We did not go to Paris last year, where else in France?", "paris", None),
        # particles and adverbs a cue runs into
        ("I don't have time for a long workout, no gym either.", "time", "gym"),
        # a statistic the request quotes
        ("Summarise: readmissions were similar (not significant, p=0.81).", "p=0", None),
        # a pasted code block is code
        (
            "I'd rather not change its signature.\n\n```python\nif x not in dups:\n    pass\n```",
            "dups",
            "change its signature",
        ),
    ],
)
def test_what_the_request_does_not_rule_out(
    query: str, not_excluded: str, excluded: str | None
) -> None:
    items = analyze(query).excluded
    assert not_excluded not in items
    if excluded is not None:
        assert excluded in items


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("I didn't like the ending, any other films?", "ending"),
        ("I did not want garlic in it last time, so none please.", "garlic"),
        ("Refactor this without shell=True, please.", "shell=true"),
    ],
)
def test_preferences_next_to_them_stay(query: str, item: str) -> None:
    assert item in analyze(query).excluded


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "Burger toppings, I'm lactose intolerant.",
            "Check your buns: brioche often contains milk.",
        ),
        ("Sandwich ideas, no eggs.", "Some enriched breads contain egg, so pick a plain loaf."),
        ("Food for my cat, we're a vegan house.", "Cats need B12, which normally comes from meat."),
        (
            "Pond cleaning, not keen on adding chlorine.",
            "The frogs will appreciate the lack of chlorine.",
        ),
        (
            "Stock for the gravy, no dairy.",
            "Milk powder sneaks into some stock cubes, so read them.",
        ),
    ],
)
def test_warnings_and_lacks_in_the_answer(query: str, answer: str) -> None:
    assert _flags(query, answer) == []


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Burger toppings, I'm lactose intolerant.", "This recipe contains milk and butter."),
        (
            "Crib mattress. Our crib is a standard full-size one, not a mini.",
            "Buy one labeled specifically for mini cribs.",
        ),
    ],
)
def test_uses_beside_warnings_are_still_caught(query: str, answer: str) -> None:
    assert _flags(query, answer)


def test_a_negated_modifier_does_not_do_the_activity() -> None:
    query = "I don't want to use peat-based compost. What should I start my seeds in?"
    assert _flags(query, "A bagged peat-free seed compost based on coir works well.") == []
    assert _flags(query, "Use a peat-based seed compost from any garden centre.")


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("Legal says we cannot mention pricing anywhere in partner emails.", "pricing"),
        ("Vet told us no rawhide after he had a blockage scare.", "rawhide"),
        ("Building a FAQ page. No JS possible at all.", "js"),
        (
            "My consultant said to stay away from pseudoephedrine. What can I take?",
            "pseudoephedrine",
        ),
        (
            "Assisted living is completely off the table for her. How can she stay home?",
            "assisted living",
        ),
        ("Our proxy: PUT and DELETE are blocked. How do we design the routes?", "delete"),
        ("egg allergy kid (we carry an epipen). chocolate cake recipe pls", "egg"),
        ("My son has a severe peanut allergy, snack ideas?", "peanut"),
        ("London to Rome in October. I don't fly (long story). Train?", "flying"),
        ("Captions please. Brand guidelines: no emojis, no hashtags.", "emojis"),
    ],
)
def test_more_ways_people_rule_things_out(query: str, item: str) -> None:
    assert item in analyze(query).excluded


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("I'm really not keen on driving after dark, how do I plan a 10-hour drive?", "driving"),
        ("Food allergies in class, what snacks can I send?", "food"),
        ("I don't drive to work, how do I plan my commute?", "driving"),
        ("No coffee before my run, what should I eat?", "coffee"),
        ("She doesn't drive, what's the easiest way to the airport?", "driving"),
        ("What's the best allergy medicine for kids?", "best"),
        ("I have pet allergies, which dog breeds suit me?", "pet"),
        ("How do I get my dog to stay away from the couch?", "couch"),
        ("My drain is blocked, how do I fix it?", "drain"),
        ("My doctor isn't available this week, what can I take?", "doctor"),
        ("I don't want to kill it, how do I care for my bonsai?", "kill"),
    ],
)
def test_not_more_than_they_rule_out(query: str, item: str) -> None:
    assert item not in analyze(query).excluded


@pytest.mark.parametrize(
    ("query", "item", "phrase"),
    [
        ("Excel 2016 at work (no 365, so XLOOKUP isn't available). Formula?", "xlookup", True),
        ("Don't own a soldering iron. How do I join the wires?", "soldering iron", True),
        ("My son has a severe peanut allergy, snack ideas?", "peanut", False),
    ],
)
def test_lacks_and_phrases(query: str, item: str, phrase: bool) -> None:
    found = {e.item: e for e in analyze(query).exclusions}
    assert found[item].lack is phrase
    assert item.split()[0] in found[item].phrase.lower()


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        ("Captions please, no emojis.", "Creamy and dreamy ☕✨ Our latte is here!", True),
        ("Captions please, no emojis.", "Creamy and dreamy. Our latte is here!", False),
        ("Snacks for my son, he has a nut allergy.", "Pack a handful of walnuts.", True),
        (
            "Halal dinner for colleagues, a cassoulet?",
            "Use beef sausages and lamb in place of pork.",
            False,
        ),
        ("Halal dinner for colleagues, a cassoulet?", "Brown the pork sausages first.", True),
        (
            "Hang a mirror? I don't own any power tools.",
            "Make pilot holes with a hand-cranked drill.",
            False,
        ),
        (
            "Hang a mirror? I don't own any power tools.",
            "Make pilot holes with a cordless drill.",
            True,
        ),
        (
            "Gluten allergy, snack ideas?",
            "Many bars contain wheat fillers, so pick certified ones.",
            False,
        ),
        (
            "No hostels please, where to stay?",
            "Lisbon has plenty of options beyond hostels.",
            False,
        ),
        (
            "Tote bag, I have no sewing machine.",
            "Backstitch mimics the stitch a sewing machine makes.",
            False,
        ),
        ("Chocolate cake without eggs?", "It dates from rationing, when eggs were scarce.", False),
        (
            "Cassoulet, but halal?",
            "Cassoulet traditionally relies on pork sausage, pork belly and duck.",
            False,
        ),
        (
            "Hang a mirror, I don't own a drill.",
            "Toggle bolts would normally need a drill, so use hooks.",
            False,
        ),
        (
            "Creamy soup, no dairy.",
            "The coconut gives the creaminess that cream normally would.",
            False,
        ),
        ("Creamy soup, no dairy.", "It normally uses cream, so stir in cream at the end.", True),
    ],
)
def test_answers_that_name_or_use(query: str, answer: str, flagged: bool) -> None:
    assert bool(_flags(query, answer)) is flagged


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("I don't want to take on a new loan. How do I pay the cards off?", "new loan"),
        ("I'd rather not take out a loan for the repair.", "loan"),
        ("I really don't want to take on any debt for it.", "debt"),
    ],
)
def test_the_object_of_a_phrasal_verb(query: str, item: str) -> None:
    assert item in analyze(query).excluded


def test_debt_has_members() -> None:
    query = "I really don't want to take on any debt for it. How should I handle it?"
    assert _flags(query, "Or take out a small personal loan from a credit union.")
    assert _flags(query, "Save $1,500 a month and pay the shop in cash.") == []


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        # a use in the same sentence as a warning, a likeness or a norm
        ("Beans, no pork.", "Sear some bacon, though some store-bought beans contain sugar."),
        ("Granola ideas, no nuts.", "Most store granolas contain nuts, so add almonds for crunch."),
        ("Beans, no pork.", "Sneak in some bacon for a smoky note."),
        ("Soup ideas, no meat.", "If your soup lacks depth, add some bacon."),
        ("Pasta, no garlic please.", "Beyond the basics, add garlic and chili flakes."),
        ("Pasta, no garlic please.", "For a similar effect, use garlic powder."),
        ("Cassoulet, no pork.", "Cassoulet traditionally uses pork, and I'd keep the pork belly."),
        ("Cassoulet, no pork.", "I usually use pork shoulder for this and it's always a hit."),
        ("Cassoulet, no pork.", "It typically includes pork sausage, which I'd brown first."),
        (
            "Pasta, no garlic please.",
            "Sounds like garlic would work great here, so add two cloves.",
        ),
        ("Quick dinner, no pork.", "The best alternative is pork tenderloin, lean and quick."),
        ("Dinner, no chicken.", "Once the chicken is out, rest it under foil for 10 minutes."),
        # a class's substitutes are its own: beef is no pork, but it is a burger
        ("BBQ ideas, no burgers this time.", "Grill some juicy beef burgers."),
        ("Vegetarian, no meat.", "Try the halal chicken shawarma."),
        ("Captions, no emojis.", "Fresh oat latte, now pouring ✨"),
    ],
)
def test_uses_the_new_readings_leave_caught(query: str, answer: str) -> None:
    assert _flags(query, answer)


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Move across town cheaply, I don't want any debt.", "Borrow a friend's truck."),
        ("Packing list, no emojis please.", "☐ Passport ☐ Charger, rated ★★★★☆ by readers."),
        ("How do I undo my last commit without losing my changes?", "A hard reset loses them."),
    ],
)
def test_nor_do_they_flag(query: str, answer: str) -> None:
    assert _flags(query, answer) == []


def test_an_unclosed_fence_hides_nothing() -> None:
    query = "```python\nimport numpy as np\nNo numpy please, rewrite without it."
    assert "numpy" in analyze(query).excluded


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        ("Bike commute, no backpack.", "Unlike a backpack, these leave your back open.", False),
        (
            "Bike commute, no backpack.",
            "Unlike panniers, a backpack is easy; take a backpack.",
            True,
        ),
        (
            "Spanish, don't suggest Duolingo.",
            "It feels very different from Duolingo's format.",
            False,
        ),
        ("Lisbon, no walking tours.", "Tuk-tuks: an easy alternative to the walking tours.", False),
        ("Trailing plant, anything but pothos.", "Arrowhead vine trails much like pothos.", False),
        ("Scarf, nothing with wool.", "Many acrylic yarns quietly contain wool, so check.", False),
        ("Vegan pastry, no dairy.", "Use vegan block butter and oat milk.", False),
        ("Dinner, no dairy.", "Serve with rice and butter.", True),
    ],
)
def test_contrasts_and_loose_substitutes(query: str, answer: str, flagged: bool) -> None:
    assert bool(_flags(query, answer)) is flagged


def test_unlike_other_ones_is_one_of_them() -> None:
    query = "I hate budgeting apps. A simpler way to control spending?"
    assert _flags(query, "Give YNAB a try, it's different from other budgeting apps.")
    assert _flags(query, "Unlike other budgeting apps, YNAB is simple.")


@pytest.mark.parametrize(
    ("query", "item", "lack"),
    [
        ("Recursion is not allowed in this assignment.", "recursion", False),
        ("For loops are not allowed, use numpy.", "for loops", False),
        ("Cars are banned in the old town. How do we get around?", "cars", False),
        ("Our proxy: PUT, PATCH and DELETE are blocked.", "patch", True),
        ("My son has a cashew allergy, snack ideas?", "cashew", False),
        ("Baby has a milk protein allergy, what formula?", "milk", False),
        ("My doctor says I should stay away from ibuprofen.", "ibuprofen", False),
        ("I was told to stay away from NSAIDs.", "nsaids", False),
        ("I don't want to take on debt for the wedding.", "debt", False),
    ],
)
def test_rules_lacks_and_allergens_after_the_second_review(
    query: str, item: str, lack: bool
) -> None:
    found = {e.item: e.lack for e in analyze(query).exclusions}
    assert found[item] is lack


@pytest.mark.parametrize(
    ("query", "answer", "flagged"),
    [
        (
            "I don't want to break the drill bit.",
            "Go slowly, or you'll break the drill bit.",
            False,
        ),
        ("Clean my glasses without scratching?", "Paper towels can cause scratching.", False),
        ("No pork please.", "Pork is out, so here's a lamb and duck version.", False),
        ("No pork please.", "Pork is off the table, so I used lamb shoulder.", False),
        ("No chicken.", "As soon as the chicken is out, rest it.", True),
        ("No pork.", "It typically includes pork sausage which I'd brown first.", True),
        ("No pork.", "I'd normally use pork shoulder here.", True),
        ("No cream.", "This sauce's lack of heavy cream keeps it light.", False),
        ("No chicken.", "Jackfruit has a similar texture to pulled chicken.", False),
        ("No nuts.", "Most granolas contain oats so toss in some almonds.", True),
        ("No dairy.", "Watch out: some stock cubes sneak in milk powder.", False),
        ("No emojis.", "Sunny day ☀️ ahead.", True),
        ("No emojis.", "Go 🇺🇸", True),
        ("No pork.", "Try halal sausages with mash.", False),
    ],
)
def test_readings_after_the_second_review(query: str, answer: str, flagged: bool) -> None:
    assert bool(_flags(query, answer)) is flagged

"""fx32: misreadings `gate_holdout32` showed after its one measure, each mended as a rule.

1. A remark after an excluded thing ends it and is no part of the ask: "no flash allowed",
   "a mitre saw just for one job", "an e-bike, before anyone suggests it", "Amazon, the
   fees and the whole vibe aren't for me", "no social deduction games, half the group
   hates lying".
2. A wish of an earlier clause wishes nothing later: "I need to arrive not drenched, and
   there's no shower at work" tells a lack of the workplace.
3. An outcome told is no exclusion: "just rapid clicking, no crank at all", "emailed
   twice, nothing, no reply, no credit", "no change in pay".
4. A way of raising something refused: "I don't want to bring it up face to face" rules
   out meeting in person; "no social deduction games" rules out Avalon and Werewolf.
5. In an answer, "avoid anything with almond flour, marzipan, praline or nut spreads"
   uses no nut, nor does "clean the tins well if you ever bake with nuts"; "a gift that
   has nothing to do with drinking" names no drink.
6. "What tools do I need? Give me exactly 5, numbered." asks for five items; "pull the
   line items out of this into JSON" takes a JSON block with a note after it (not when the
   request wants the data alone: "nothing else", "so I can parse them").
7. "14 miles a day" for "I commute 14 miles each way" halves the asker's distance; "your
   November 18 wedding" for "married October 18" moves the asker's date; "£1,440 × 0.20" for
   "£1,440 INCLUDES 20% VAT" takes the sum as one before its tax.
8. "I'm a sole trader (not a limited company)", "we're a charity, not a business": who the
   asker is, not a thing ruled out.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze
from scoregate.scoring.restated import contradicted


def _items(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions]


@pytest.mark.parametrize(
    ("query", "items", "gone"),
    [
        (
            "Want sharp shots indoors at the party, no flash allowed. Settings?",
            ["flash"],
            "allowed",
        ),
        (
            "All lowercase; no capital letters are allowed. Write the poem.",
            ["capital letters"],
            "are allowed",
        ),
        (
            "I don't want to buy a mitre saw just for one job. How should I cut the corners?",
            ["mitre saw"],
            "one job",
        ),
        (
            "Not interested in an e-bike, before anyone suggests it. Any tips?",
            ["e-bike"],
            "suggests",
        ),
        (
            "I want to grow but I'm not interested in Amazon, the fees and the whole vibe"
            " aren't for me. Where else should I sell?",
            ["amazon"],
            "vibe",
        ),
        (
            "please no social deduction or hidden traitor games, half the group hates lying"
            " to their friends lol. what should we play",
            ["social deduction", "hidden traitor games"],
            "lying",
        ),
        (
            "Pizza night! They won't eat mushrooms, really dislike them. Topping ideas?",
            ["mushrooms"],
            "dislike",
        ),
    ],
)
def test_a_remark_ends_the_item_and_leaves_the_ask(query: str, items: list[str], gone: str):
    a = analyze(query)
    assert [e.item for e in a.exclusions] == items
    assert gone not in a.core_ask


@pytest.mark.parametrize(
    ("query", "items"),
    [
        ("no onions, my wife hates them. dinner ideas?", ["onions"]),
        ("I don't want much sugar. Ideas?", ["much sugar"]),
        ("I don't want to drink alcohol much. Ideas?", ["alcohol"]),
        ("No dogs, the landlord is strict. Which flats?", ["dogs"]),
    ],
)
def test_items_read_as_before(query: str, items: list[str]):
    assert _items(query) == items


@pytest.mark.parametrize(
    ("query", "situation"),
    [
        (
            "I want to cycle it but need to arrive not drenched in sweat, and there's no"
            " shower at work. Any tips?",
            True,
        ),
        ("Make sure there's no garlic in it. Recipe?", False),
        ("I need a flat where there's no carpet. Tips?", False),
    ],
)
def test_a_wish_reaches_its_own_clause_only(query: str, situation: bool):
    (e,) = analyze(query).exclusions
    assert e.situation is situation


@pytest.mark.parametrize(
    ("query", "items"),
    [
        (
            "Press the starter and just get rapid clicking from under the seat, no crank at"
            " all. What next?",
            [],
        ),
        ("I've emailed them twice — nothing, no reply, no credit. What now?", []),
        ("Since January I've managed 2 juniors with no change in pay. How do I ask?", []),
        ("Tried it for a week, no difference. What now?", []),
        ("Sent the quote 9 days ago, no reply. I'd rather no emojis. Draft?", ["emojis"]),
        ("No onions, no garlic please. Recipe?", ["onions", "garlic"]),
    ],
)
def test_an_outcome_told_is_no_exclusion(query: str, items: list[str]):
    assert _items(query) == items


@pytest.mark.parametrize(
    ("query", "item"),
    [
        (
            "Lent a friend $400. I don't want to bring it up face to face, I know it'd feel"
            " awkward. How do I handle this?",
            "face to face",
        ),
        ("I'd rather not do it face to face, I get flustered. How do I tell him?", "face to face"),
    ],
)
def test_a_way_of_raising_it_refused(query: str, item: str):
    assert item in _items(query)


def test_a_call_is_no_way_read():
    """ "the HP Smart app on your phone" is no call: the phone is not read as a way."""
    query = "I'd rather not call HP support on the phone, what can I try myself?"
    assert "on the phone" not in _items(query)


@pytest.mark.parametrize(
    ("items", "answer", "member"),
    [
        (["face to face"], "Bring it up in person, casually, over a walk.", "in person"),
        (["face to face"], "Text is a perfectly good way to do this.", None),
        (["social deduction"], "Try The Resistance: Avalon, perfect for 6.", "avalon"),
        (["hidden traitor games"], "One Night Ultimate Werewolf is quick.", "werewolf"),
        (["social deduction"], "Codenames and Just One: nobody lies.", None),
    ],
)
def test_ways_and_games_have_members(items: list[str], answer: str, member: str | None):
    violated = check_members(items, answer).violated
    assert bool(violated) is (member is not None)
    assert all(m in (member, item) for item, m in violated)


@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        ("Avoid anything with almond flour, marzipan, praline or nut spreads.", "nut", False),
        ("Without any cream, butter, milk or soft cheese.", "cheese", False),
        ("No dairy here, just olive oil, garlic, lemon or salt.", "salt", True),
        ("Skip anything with almond flour, then add toasted nut clusters on top.", "nut", True),
        ("Clean the tins well if you ever bake with nuts at home.", "nuts", False),
        ("If you ever want crunch, add walnuts.", "walnuts", True),
    ],
)
def test_a_negation_down_a_list_and_a_case(answer: str, term: str, affirmed: bool):
    assert mentions(answer, term)[1] is affirmed


def _embed(words: list[str]) -> np.ndarray:
    """One direction per word, with "drinking" the same as "alcohol"."""
    names = sorted({"alcohol" if w == "drinking" else w for w in words})
    out = np.zeros((len(words), len(names)))
    for i, w in enumerate(words):
        out[i, names.index("alcohol" if w == "drinking" else w)] = 1.0
    return out


@pytest.mark.parametrize(
    ("answer", "violated"),
    [
        ("A gift that has nothing to do with drinking is the safest bet.", []),
        ("Plan a night of drinking with her friends.", [("alcohol", "drinking")]),
    ],
)
def test_nothing_to_do_with_names_no_member(answer: str, violated: list[tuple[str, str]]):
    check = check_members(["alcohol"], answer, embed=_embed, min_cosine=0.9)
    assert check.violated == violated


@pytest.mark.parametrize(
    ("query", "value"),
    [
        ("Just starting to bake. What tools do I actually need? Give me exactly 5, numbered.", 5),
        ("what foods commonly trigger migraines? just list exactly 6, one per line", 6),
        ("Any gift ideas for my mum? Give me exactly 4 please.", 4),
        ("What is 2+3? Give me exactly 5.", None),
        ("I gave exactly 5. What now?", None),
    ],
)
def test_a_count_whose_noun_the_question_gives(query: str, value: int | None):
    counts = [i.value for i in analyze(query).instructions if i.check == "count"]
    assert counts == ([] if value is None else [value])


@pytest.mark.parametrize(
    ("answer", "wrong"),
    [
        ("At 56 miles a week (14 miles a day, four days a week), replace it yearly.", True),
        ("That's 28 miles a day, 112 a week: a chain every 3-6 months.", False),
        ("14 miles each way is 28 miles a day.", False),
    ],
)
def test_one_leg_as_the_whole_day(answer: str, wrong: bool):
    query = "I commute 14 miles each way, 4 days a week. How often should I replace the chain?"
    assert bool(contradicted(query, answer)) is wrong


@pytest.mark.parametrize(
    ("query", "items"),
    [
        ("I'm a sole trader (not a limited company). How do I take money out?", []),
        ("We're a charity, not a business. What insurance do we need?", []),
        ("I'm vegetarian, not vegan. Recipes?", ["meat", "seafood"]),
        ("I use Google Sheets (not Excel). How do I split addresses?", ["excel"]),
        ("I'm cooking for 4 (not a fan of fish). Dinner ideas?", ["fish"]),
        ("I want a quiet hotel, not a party hostel.", ["party hostel"]),
    ],
)
def test_who_the_asker_is_is_no_exclusion(query: str, items: list[str]):
    assert _items(query) == items


@pytest.mark.parametrize(
    ("query", "value"),
    [
        ("Pull the line items out of this into JSON: flyers x2 £38", "json_block"),
        ("Convert this list to JSON: apples 3, pears 2", "json_block"),
        ("Convert this list to JSON, nothing else: apples 3", "json"),
        ("Turn my notes into JSON so I can parse them: a, b", "json"),
        ("Return the result as JSON.", "json"),
    ],
)
def test_data_converted_may_carry_a_note(query: str, value: str):
    (k,) = [i for i in analyze(query).instructions if i.check == "format"]
    assert k.value == value


def test_a_json_block_with_a_note_holds_the_json():
    query = "Pull the line items out of this into JSON: flyers x2 £38"
    (k,) = [i for i in analyze(query).instructions if i.check == "format"]
    answer = '```json\n[{"item": "flyers", "qty": 2}]\n```\nI assumed the price is per pack.'
    assert check_instruction(answer, k)[0] is True
    assert check_instruction("| Item | Qty |\n|---|---|\n| flyers | 2 |", k)[0] is False


@pytest.mark.parametrize(
    ("answer", "wrong"),
    [
        ("Here's a timeline for your **November 18** wedding: save-the-dates in March.", True),
        ("Here's a timeline for your October 18 wedding: save-the-dates in March.", False),
        ("Your November 18 party... sorry, your October 18 wedding: send in March.", False),
        ("Send invitations by August 18, eight weeks before.", False),
        ("Your 18 guests from abroad need the most notice.", False),
    ],
)
def test_the_askers_date_with_another_month(answer: str, wrong: bool):
    query = "We're getting married October 18 in Asheville. When should invitations go out?"
    assert bool(contradicted(query, answer)) is wrong


@pytest.mark.parametrize(
    ("answer", "wrong"),
    [
        ("VAT: £1,440 × 0.20 = £288, so the total is £1,728.", True),
        ("So your net amount is £1,440 and the VAT is £288.", True),
        ("Net: £1,440 ÷ 1.2 = £1,200; VAT: £240.", False),
        ("The VAT in a 20%-inclusive price is 1/6 of £1,440: £240.", False),
    ],
)
def test_a_sum_with_its_tax_taken_as_one_before_it(answer: str, wrong: bool):
    query = "My invoice came to £1,440 and that figure INCLUDES 20% VAT. How much is the VAT?"
    assert bool(contradicted(query, answer)) is wrong


#: A reviewer's cases, each read wrong by a first draft of the rules above.
@pytest.mark.parametrize(
    ("query", "items"),
    [
        ("I don't want anything with too much sugar in it.", ["too much sugar"]),
        ("Draft a reply, no emojis please.", ["emojis"]),
        ("I need a loading screen design, no progress bar, just a spinner.", ["progress bar"]),
        ("Write the landing page copy, no success stories.", ["success stories"]),
        ("Write a README, keep it short, no change log section", ["change log section"]),
        ("I'm in London, not a fan of chains.", ["chains"]),
        ("I'm 34, not keen on clubs anymore. Ideas for a birthday?", ["clubs"]),
        ("We're vegetarian, not into tofu though. Dinner ideas?", ["tofu", "meat", "seafood"]),
        ("we are a small team, not using Jira, what's a lightweight alternative?", ["jira"]),
        ("I'd rather not do it face to face, my manager is intimidating.", ["face to face"]),
        ("No strippers, most of us can't stand that stuff.", ["strippers"]),
    ],
)
def test_a_reviewers_requests(query: str, items: list[str]):
    assert sorted(_items(query)) == sorted(items)


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("No Catan, before anyone suggests it, what are good games for 4?", "good games for 4"),
        (
            "We've done Disney twice so no Disney, just for adults this time, what other"
            " Orlando parks are worth it?",
            "Orlando parks",
        ),
    ],
)
def test_a_remark_leaves_the_question_after_it(query: str, kept: str):
    assert kept in analyze(query).core_ask


@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        ("Avoid processed stuff - just salmon, eggs, spinach and sweet potato.", "potato", True),
        ("No nuts here: oats, honey, coconut, cranberries and pumpkin seeds.", "seeds", True),
        (
            "Without a doubt, chicken, rice, broccoli and soy sauce is the easiest combo.",
            "soy",
            True,
        ),
        ("If you ever want it crunchier add chopped walnuts on top.", "walnuts", True),
        ("Skip the walnuts, add pecans, maple syrup and a pinch of salt.", "pecans", True),
        ("No problem, oats, bananas, peanut butter and honey make a great base.", "peanut", True),
        ("A classic martini has nothing in it but gin and vermouth.", "gin", True),
    ],
)
def test_a_reviewers_answers(answer: str, term: str, affirmed: bool):
    assert mentions(answer, term)[1] is affirmed


@pytest.mark.parametrize(
    ("items", "answer"),
    [
        (["hidden traitor games"], "Since your group hates betrayal, stick to co-op games."),
        (["social deduction games"], "If you meet resistance from the group, try Codenames."),
        (["alcohol"], "Nothing with rum, but a virgin mojito with mint and lime works great."),
    ],
)
def test_no_member_in_a_common_word(items: list[str], answer: str):
    assert not check_members(items, answer).violated


@pytest.mark.parametrize(
    "query",
    [
        "What monitors do you recommend for photo editing? I need at least 27.",
        "Which wines pair with lamb? Budget-wise I want at most 20.",
        "What size boxes do I need for moving? I need at least 40.",
    ],
)
def test_a_number_of_something_else_is_no_count(query: str):
    assert not [i for i in analyze(query).instructions if i.check == "count"]


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "I walk 30 minutes each way to work. Is that enough exercise?",
            "The guideline is 30 minutes a day of moderate activity, so your commute covers it"
            " twice over.",
        ),
        (
            "I cycle 10 miles each way. What should I eat for breakfast?",
            "Most people riding 10 miles a day just need a normal breakfast; you're doing double.",
        ),
        (
            "It's 20 miles either way round the lake. Which route is prettier?",
            "Both routes are 20 miles in total, so pick the east shore.",
        ),
    ],
)
def test_a_day_said_of_people_at_large_is_no_leg(query: str, answer: str):
    assert not contradicted(query, answer)


@pytest.mark.parametrize(
    ("query", "value"),
    [
        ("Convert this to JSON. Don't say anything else.", "json"),
        ("Convert this to JSON, just JSON please", "json"),
        ("convert to json pls, i'll feed it straight to my API", "json"),
        ("Convert this to JSON so I can paste it into Postman", "json"),
        ("I only have the data as a CSV. Convert it to JSON: a,b", "json_block"),
        ("Turn this into JSON, wrap it in a code block and tell me what you changed", "json_block"),
        ("Convert the entire table below to JSON: a | b", "json_block"),
    ],
)
def test_data_alone_is_said_of_the_answer(query: str, value: str):
    k = next(i for i in analyze(query).instructions if i.check == "format")
    assert k.value == value


#: From reading `gate_holdout33` after its one measure (unread before: the same figures on
#: 0.2.10 and on the rules above).
@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        ("Import your Chrome bookmarks, then uninstall Chrome afterwards.", "chrome", False),
        ("Keep Chrome but turn on Memory Saver.", "chrome", True),
        (
            "No marzipan, Nutella or other chocolate spreads with hazelnuts, praline, ground"
            " almonds, or almond or other nut extracts.",
            "nut",
            False,
        ),
        ("No walnuts, cashews, ground almonds or pecans.", "almonds", False),
    ],
)
def test_a_browser_left_and_a_long_list_ruled_out(answer: str, term: str, affirmed: bool):
    assert mentions(answer, term)[1] is affirmed


@pytest.mark.parametrize(
    ("query", "situation"),
    [
        ("our house is all electric, no gas whatsoever. how do we keep warm?", True),
        ("The cabin is off-grid, no power. What food should we bring?", True),
        ("the recipe is for a party, no nuts please. ideas?", False),
        ("the kids are fussy, no onions please. ideas?", False),
    ],
)
def test_a_place_described_then_its_lack(query: str, situation: bool):
    (e,) = analyze(query).exclusions
    assert e.situation is situation


@pytest.mark.parametrize(
    ("items", "answer", "violated"),
    [
        (["fibreglass"], "Glass wool rolls made with plant-based binders are softer.", True),
        (["fibreglass"], "Sheep's wool rolls and PIR foam boards are skin-friendly.", False),
        (["quotes"], '"We shape our tools," said McLuhan, and it has never felt truer.', True),
        (["quotes"], "It's 11:47 on a school night, and a teenager is still scrolling.", False),
    ],
)
def test_glass_wool_and_an_opening_quotation(items: list[str], answer: str, violated: bool):
    assert bool(check_members(items, answer).violated) is violated


@pytest.mark.parametrize(
    ("answer", "wrong"),
    [
        ("Try moving your Saturday morning sessions to a weekday evening.", True),
        ("Add a monthly Saturday session rather than moving Thursday.", False),
        ("Your Thursday sessions suit retirees; add a weekend one.", False),
    ],
)
def test_the_askers_weekday_told_back_as_another(answer: str, wrong: bool):
    query = "Our work sessions are Thursday evenings 6-8pm but only 3 people turn up. Ideas?"
    assert bool(contradicted(query, answer)) is wrong


#: A second reviewer's cases, each read wrong by a first draft of the rules above.
@pytest.mark.parametrize(
    ("answer", "term", "affirmed"),
    [
        ("Do not, under any circumstances, use bleach on marble.", "bleach", False),
        ("I wouldn't, personally, add garlic to this.", "garlic", False),
        ("Avoid alcohol entirely, so gin, rum and wine are all off the table.", "rum", False),
        ("No dairy, so use olive oil and a pinch of salt.", "salt", True),
        ("Here's a standard-library version, no pandas needed:", "pandas", False),
        ("No tripod needed, just steady bracing.", "tripod", False),
        ("If you ever have leftover chicken, shred it into the soup.", "chicken", True),
        ("Uninstall Norton and then use Windows Defender.", "defender", True),
        ("Move them to iCloud Photos and switch the phone off.", "icloud", True),
        (
            "Without a car, buses, trams or the occasional taxi will get you everywhere.",
            "taxi",
            True,
        ),
    ],
)
def test_a_second_reviewers_answers(answer: str, term: str, affirmed: bool):
    assert mentions(answer, term)[1] is affirmed


@pytest.mark.parametrize(
    ("query", "situation"),
    [
        ("Our house is vegetarian, no meat please. Dinner ideas?", False),
        ("My dorm is strict, no candles. How do I make it cosy?", False),
        ("Our flat is a rental, no pets allowed. Any ideas?", False),
    ],
)
def test_a_house_rule_is_no_lack(query: str, situation: bool):
    e = analyze(query).exclusions[0]
    assert e.situation is situation


@pytest.mark.parametrize(
    ("query", "answer", "wrong"),
    [
        (
            "My bonus pays out March 15. When should I file?",
            "Aim for a month before your April 15 filing deadline.",
            False,
        ),
        (
            "My invoice came to £1,440 and that figure INCLUDES 20% VAT. What's the VAT?",
            "Net = £1,440 × 0.8333 = £1,200, so the VAT is £240.",
            False,
        ),
        (
            "The bill was $86 including tax. How much do I tip?",
            "$86 × 0.20 = $17.20 for a 20% tip.",
            False,
        ),
        (
            "My invoice came to £1,440 and that figure INCLUDES 20% VAT. What's the VAT?",
            "£1,440 plus £50 delivery is £1,490.",
            False,
        ),
        (
            "It's 3 hours each way, Friday to Sunday. Worth it?",
            "That's 6 hours of driving in all; split across Friday and Sunday it's 3 hours per"
            " day.",
            False,
        ),
        (
            "My commute is 30 minutes each way by bus. What can I do with it?",
            "At 30 minutes a day you can read about 20 books a year.",
            True,
        ),
        (
            "Our sessions are Thursday evenings. How do I get people to come?",
            "Use your Saturday morning for a rest, and keep Thursday light.",
            False,
        ),
        (
            "Our sessions are on Thursdays. How do I get people to come?",
            "Try moving your Saturday sessions to an evening.",
            True,
        ),
    ],
)
def test_a_second_reviewers_facts(query: str, answer: str, wrong: bool):
    assert bool(contradicted(query, answer)) is wrong

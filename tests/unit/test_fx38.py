"""fx38: misreadings `gate_holdout38` showed when it was read, each mended as a rule.

1. The asker's own refusal, "I refuse to ...", rules out what follows as "won't" does
   ("I refuse to use Chrome"); someone else's refusal is a fact to work with ("my son
   refuses to wear a helmet", "they refuse to give us a refund"), and so is a refusal
   under "if" ("what happens if I refuse to take a breathalyzer?").
2. Money withheld from a company names the company: "won't give Amazon any more money"
   rules out Amazon, not the money; not a person or a party the answer may have to name
   ("my brother", "the casino", "the IRS").
3. Being on a site or app refused rules out the site ("don't want to be on any social
   reading site"); being on a diet, on medication or on the board is left as it was read.
4. A request that asks how to leave, cancel or be paid back ("How do I cancel Prime?"), or
   what to do with the thing itself ("How do I uninstall Chrome?", "How does Starling
   compare to Monzo?"), does not rule that thing out: the answer must name it to help.
   In the answer, "cancel your Spotify plan" is no use of Spotify.
5. (Withdrawn after review: "rather not learn to X" as a refusal of X, which often asks
   the assistant to do X; "join a club or the AMA" read as joining each; an act in the
   answer handed to someone else, "have a family member type it up", as kept; a carrier,
   shop or place sworn off, "I won't fly Ryanair again", whose brand an answer often has
   to name, or reads in another sense, "a target budget".)
6. (Built and withdrawn after review: a choice the request asks for, "Should I repot it
   now or wait until spring?", of which the answer names neither side, capped at review;
   good answers name a side by synonym, brand or acronym too often: "87 octane" for
   "regular", "equities" for "stocks".)
7. (Built and withdrawn after review: a company's own brands as the company refused,
   "Kindle" for "Amazon"; answers name the brand to steer away from it, "the Kindle is
   Amazon's, so skip it", or in another sense, "an audible hum", "Bing Crosby".)
8. In the answer, "X is free" is a price, not an absence: "Zoom is free for meetings up
   to 40 minutes" uses Zoom ("nut free", "dairy-free" still rule the thing out).
"""

from __future__ import annotations

import pytest

from scoregate.scoring.affirmation import check_exclusions, mentions
from scoregate.scoring.request_analysis import analyze


def _items(query: str) -> list[str]:
    return [e.item for e in analyze(query).exclusions]


@pytest.mark.parametrize(
    ("query", "item"),
    [
        ("I refuse to use Chrome on my laptop. Which browser should I switch to?", "chrome"),
        ("We absolutely refuse to take another loan. How do we cover the shortfall?", "loan"),
        ("i refuse to give amazon any more money. which e-reader then?", "amazon"),
        ("I won't give Ticketmaster my money, how else can I get gig tickets?", "ticketmaster"),
        ("I'd rather not give Comcast another penny, what other internet is there?", "comcast"),
        ("I won't give Best Buy any more money. Where else for a TV?", "best buy"),
        (
            "I don't want to give Ticketmaster any more of my money. Other ways to get seats?",
            "ticketmaster",
        ),
        (
            "I don't want to be on any social reading site. How else can I log books?",
            "social reading site",
        ),
        (
            "I don't want to be on social media. How do I get customers for my bakery?",
            "social media",
        ),
        ("I'd rather not be on any dating apps. How do I meet people?", "dating apps"),
        ("We won't do another cruise, ideas for a family trip in July?", "cruise"),
        ("Avoid Meta now. How do I move my family group chat?", "meta"),
        ("I refuse to use Venmo after getting scammed. How do I pay my roommate?", "venmo"),
        ("I won't use iTunes since the last update broke my library. What else?", "itunes"),
    ],
)
def test_refusals_name_the_thing(query: str, item: str) -> None:
    assert item in _items(query)


@pytest.mark.parametrize(
    ("query", "not_item"),
    [
        ("my son refuses to wear a helmet, how do I convince him?", "helmet"),
        ("They refuse to give us a refund for the cancelled flight, what now?", "refund"),
        ("The shop refused to take it back. Can I charge it back?", "it back"),
        ("What happens if I refuse to take a breathalyzer test in Ohio?", "breathalyzer test"),
        ("My husband says I refuse to use TikTok, but I just don't get it.", "tiktok"),
        ("We don't want to give them our business anymore. Who else does gutters?", "give"),
        ("I refuse to give my brother any more money. How do I tell him?", "brother"),
        ("I'd rather not give the casino another cent. How do I ban myself?", "casino"),
        ("I won't give the IRS any more money this year. How do I cut my bill?", "irs"),
        ("I won't give Mom any more money. How do I say so?", "mom"),
        ("I'd rather not be on the phone for hours. How do I cancel my gym?", "phone"),
        ("I don't want to be on a diet, just to eat better.", "diet"),
        ("I'd rather not be on medication long term. What else helps?", "medication"),
        ("I don't want to be on the board anymore. How do I resign?", "board"),
        ("I need to pay for an accountant this year, can I deduct it?", "for an accountant"),
        ("We won't do another cruise, ideas for a family trip in July?", "ideas"),
        ("Avoid Meta now. How do I move my family group chat?", "meta now"),
        ("I refuse to use Venmo after getting scammed.", "venmo after getting scammed"),
        # a time keeps its scope: "after midnight", "after eating dinner" are when
        ("No caffeine after eating dinner, what can I drink?", "caffeine"),
        ("I used to say I refuse to eat sushi, but now I love it. Sushi in Leeds?", "sushi"),
        ("It's not that I refuse to use Excel, I just prefer Sheets. A budget tracker?", "excel"),
        # the ask is to leave the thing, or to deal with it: the answer must name it
        ("I won't use Chrome anymore. How do I uninstall Chrome?", "chrome"),
        ("I'm never using Shein again. How do I delete my Shein account?", "shein"),
        ("I won't bank with Monzo again. How does Starling compare to Monzo?", "monzo"),
        ("I won't give Amazon any more money. How do I cancel Prime first?", "amazon"),
        ("No more Spotify for me. How can I cancel my Premium plan?", "spotify"),
        # withdrawn: a carrier, shop or place sworn off ("won't fly Ryanair again") named a
        # brand the answer had to name to help, or a word in another sense ("Target")
        ("I won't fly Ryanair again. How else can I get to Dublin?", "ryanair"),
        ("I won't shop at Target. What's a sensible target budget for school clothes?", "target"),
        # withdrawn: "learn to X" often asks the assistant to do X
        ("I'd rather not learn to code. Can you write me a script that renames photos?", "code"),
        # withdrawn: "join the AMA" would miss "get an AMA membership"
        ("I'd rather not join a club or the AMA. Can I fly my plane alone?", "join the ama"),
    ],
)
def test_no_thing_misread(query: str, not_item: str) -> None:
    assert not_item not in _items(query)


@pytest.mark.parametrize(
    ("sentence", "term"),
    [
        # withdrawn: who else does an act does not keep a ban that is for everyone
        ("Let your son drive in the snow on the back roads.", "drive"),
        ("Have your partner smoke in the car with the windows down.", "smoke"),
        ("Have a friend cook with you so it's less work.", "cook"),
        (
            "The StoryGraph is a social reading site, but you can keep it private.",
            "social reading site",
        ),
    ],
)
def test_uses_stay_uses(sentence: str, term: str) -> None:
    assert mentions(sentence, term) == (True, True)


def test_an_answer_cancelling_the_thing_does_not_use_it() -> None:
    assert mentions("Cancel your Spotify Premium plan from the account page.", "spotify") == (
        True,
        False,
    )
    assert mentions("Spotify Premium is the best pick for offline listening.", "spotify") == (
        True,
        True,
    )


def test_a_social_site_refused_is_checked_in_the_answer() -> None:
    query = "All my friends are on Goodreads. I don't want to be on any social reading site."
    private = "Keep a paper reading journal, or a spreadsheet with title, author and notes."
    social = "Try The StoryGraph. It's a social reading site, but you can set it to private."
    assert check_exclusions(query, private).violated == []
    assert check_exclusions(query, social).violated == ["social reading site"]


# 8. "X is free" is a price, not an absence ("garlic free", "nut-free" still are).


@pytest.mark.parametrize(
    ("sentence", "term", "affirmed"),
    [
        ("Zoom is free for meetings up to 40 minutes.", "zoom", True),
        ("Skype is free for video calls with family.", "skype", True),
        ("WhatsApp is free and encrypted.", "whatsapp", True),
        ("This pesto is nut free.", "nut", False),
        ("Keep the whole meal gluten free.", "gluten", False),
        ("The cake is dairy-free.", "dairy", False),
    ],
)
def test_free_after_is_a_price(sentence: str, term: str, affirmed: bool) -> None:
    assert mentions(sentence, term) == (True, affirmed)

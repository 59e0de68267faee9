"""Does an answer affirm something the request excludes, or a member of an excluded class?

"No meat" is broken by chicken thighs as much as by "meat". Membership comes from two
sources: built-in lists for the classes people exclude most (meat, dairy, nuts,
alcohol, screens, social media, highways...), and, when an embedding function is given,
any word of the answer whose embedding is close to the excluded class
(``precision.member_min_cosine``). Negation in the answer is respected ("no garlic
needed", "skip the bacon"), and so are substitutes ("oat milk", "vegan cheese").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoregate.scoring.affirmation import (
    LATER,
    NEGATORS,
    NOTHING_BUT,
    NOTHING_OF,
    WARNINGS,
    affirmed_word,
    mentions,
    negated_after,
    stem,
    unwarned,
)
from scoregate.scoring.exclusions import ALLERGENS

Embed = Callable[[list[str]], Any]

#: Burgers, meat unless the answer says they are something else (``_meatless_burgers``).
_BURGERS = "burger cheeseburger hamburger"
_MEAT = (
    "beef chicken pork lamb bacon ham sausage sausages turkey veal steak mince duck prosciutto"
    f" salami pepperoni chorizo meatballs brisket ribs venison pancetta {_BURGERS}"
)
_FISH = "salmon tuna cod trout tilapia sardines anchovies mackerel halibut haddock fish"
_SHELLFISH = "shrimp prawns crab lobster mussels clams oysters scallops squid calamari octopus"
_DAIRY = (
    "milk cheese butter cream yogurt yoghurt ghee parmesan mozzarella cheddar feta ricotta"
    " whey buttermilk kefir brie gouda halloumi mascarpone"
)
_NUTS = "almonds almond walnuts peanuts peanut cashews pecans hazelnuts pistachios macadamia"
#: Wines by their grape or their name: a Pinot Noir is a red wine.
_RED_WINE = (
    "merlot malbec shiraz syrah zinfandel tempranillo rioja chianti"
    " sangiovese beaujolais gamay barolo nebbiolo primitivo carmenere carménère"
    " valpolicella amarone"
)
_WHITE_WINE = (
    "chardonnay riesling albarino albariño viognier sancerre chablis muscadet gewurztraminer"
    " gewürztraminer vermentino verdejo"
)
#: ... and by two words: "pinot noir", "sauvignon blanc".
_RED_WINE_2 = ("pinot noir", "cabernet sauvignon", "cabernet franc", "côtes du rhône")
_WHITE_WINE_2 = (
    "sauvignon blanc",
    "pinot grigio",
    "pinot gris",
    "chenin blanc",
    "grüner veltliner",
)
_ALCOHOL = (
    "wine beer vodka rum gin whiskey whisky tequila champagne prosecco cocktail cocktails sake"
    f" cider brandy liquor bourbon mimosa margarita sangria cava sherry {_RED_WINE} {_WHITE_WINE}"
)
_SCREENS = "tv television tablet ipad phone smartphone netflix youtube videogames"
_FRUIT = (
    "apple apples banana bananas raisin raisins sultana sultanas currants grape grapes"
    " strawberry strawberries blueberry blueberries raspberry raspberries cranberry"
    " cranberries mango mangoes pear pears peach peaches apricot apricots pineapple papaya"
    " cherry cherries plum plums prune prunes melon watermelon kiwi goji fig figs"
)
_METAL = (
    "brass steel stainless stainless-steel iron wrought-iron copper aluminium aluminum bronze"
    " pewter galvanised galvanized zinc"
)
#: What runs on electricity: "we're not going electric for the mower" rules out a cordless,
#: battery or plug-in one.
_ELECTRIC = "cordless battery battery-powered plug-in corded mains-powered rechargeable 40v 36v 18v"
_APPS = "anki memrise duolingo quizlet babbel busuu clozemaster lingq pimsleur"
#: Games where players lie about a hidden role.
_DEDUCTION = "werewolf werewolves mafia avalon spyfall hitler clocktower"
_SOCIAL = "instagram tiktok facebook twitter snapchat pinterest reddit linkedin"
#: Sealed ground: "I'd rather keep them off tarmac and pavements" rules out "a paved cycle
#: path".
_PAVED = "paved asphalt tarmac tarmacked concrete pavement pavements sidewalk sidewalks blacktop"
#: The names of sealed ground a request keeps off, whose members are ``_PAVED``.
_SEALED = ("tarmac", "asphalt", "pavement", "pavements", "sidewalks")
#: Open ground, which an embedding puts near sealed ground as its opposite ("fire roads
#: with packed earth", "forest trails" under "off tarmac").
_OPEN_GROUND = (
    "trail trails track tracks grass grassy gravel dirt earth sand sandy mud woodland forest"
    " field fields unpaved off-road towpath towpaths bridleway bridleways road roads"
)
#: Excluded class (as the request names it) -> members.
CLASS_MEMBERS: dict[str, tuple[str, ...]] = {
    name: tuple(members.split())
    for name, members in {
        "meat": _MEAT,
        "animal products": f"{_MEAT} {_FISH} {_SHELLFISH} {_DAIRY} egg eggs honey gelatin gelatine"
        " leather suede wool silk lard",
        "milk": _DAIRY,
        "red meat": f"beef pork lamb steak veal venison mince {_BURGERS}",
        "poultry": "chicken turkey duck",
        "pork": "bacon ham sausage prosciutto pancetta chorizo salami pepperoni",
        "fish": _FISH,
        "seafood": f"{_FISH} {_SHELLFISH}",
        "shellfish": _SHELLFISH,
        "dairy": _DAIRY,
        "lactose": _DAIRY,
        "cheese": "parmesan mozzarella cheddar feta ricotta brie gouda halloumi",
        "nuts": _NUTS,
        "tree nuts": _NUTS,
        "gluten": "wheat flour bread pasta barley rye couscous seitan breadcrumbs",
        "wheat": "flour bread pasta couscous",
        "eggs": "egg eggs mayonnaise meringue",
        "gelatin": "gelatin gelatine",
        # the onion family, by its members' names
        "alliums": "onion onions garlic shallot shallots leek leeks chives scallion scallions",
        "alcohol": _ALCOHOL,
        "booze": _ALCOHOL,
        "drinking": _ALCOHOL,
        "caffeine": "coffee espresso cola matcha latte cappuccino caffeinated",
        "screens": _SCREENS,
        "screen time": _SCREENS,
        "social media": _SOCIAL,
        "power tools": "drill jigsaw sander grinder dremel chainsaw nailer bandsaw",
        "electronics": "tablet phone smartphone laptop headphones earbuds smartwatch console"
        " gadget gadgets electronic wireless bluetooth sonar rechargeable usb",
        "highways": "interstate motorway freeway highway turnpike expressway",
        "motorways": "motorway interstate freeway highway",
        "tolls": "toll turnpike",
        "flying": "flight flights fly airport airline plane",
        "planes": "flight flights fly airport airline plane",
        "driving": "drive car rental",
        "spicy food": "chili chilli jalapeno jalapeño cayenne sriracha habanero",
        "spice": "chili chilli jalapeno jalapeño cayenne sriracha habanero",
        "chemicals": "bleach ammonia",
        "harsh chemicals": "bleach ammonia",
        "sugar": "syrup candy honey",
        # "a workout without any equipment"
        "equipment": "dumbbell dumbbells kettlebell kettlebells barbell barbells treadmill rower"
        " resistance-band resistance-bands",
        "crypto": "bitcoin ethereum dogecoin solana nft nfts cryptocurrency",
        "cryptocurrency": "bitcoin ethereum dogecoin solana nft nfts crypto",
        "retirement accounts": "ira iras 401k 403b roth pension",
        "debt": "loan loans financing overdraft",
        "loans": "loan financing overdraft",
        "retirement savings": "ira iras 401k 403b roth pension",
        "retinoids": "retinol retinal retinoid tretinoin adapalene isotretinoin tazarotene"
        " retin-a differin",
        "wool": "merino cashmere alpaca mohair angora lambswool",
        "hostels": "dorm dorms",
        "axes": "axe hatchet hatchets tomahawk",
        "axe": "hatchet hatchets tomahawk",
        "cardboard": "carton cartons toilet-roll kitchen-roll egg-box egg-boxes shoebox",
        "citrus": "orange oranges lemon lemons lime limes grapefruit clementine clementines"
        " satsuma satsumas mandarin mandarins tangerine tangerines bergamot",
        "honey": "manuka",
        "fruit": _FRUIT,
        "fruits": _FRUIT,
        "electric": _ELECTRIC,
        "metal": _METAL,
        "metals": _METAL,
        # "nothing app-based": the apps by name
        "app": _APPS,
        "apps": _APPS,
        "fragrance": "scented perfume perfumed fragranced",
        "open fires": "campfire campfires bonfire bonfires firepit fire-pit",
        "tv": "telly television",
        "root vegetables": "carrot carrots parsnip parsnips beetroot beets turnip turnips swede"
        " celeriac radish radishes",
        "rodents": "hamster hamsters gerbil gerbils mouse mice rat rats chinchilla chinchillas"
        " degu degus",
        "small rodents": "hamster hamsters gerbil gerbils mouse mice rat rats degu degus",
        "acidic": "vinegar lemon lemons citric citrus",
        # "no playing for money, it's a strict rule": "blackjack with a 20p buy-in" (not
        # "stakes": "keep the stakes about bragging rights")
        "for money": "buy-in buy-ins wager wagers betting",
        # "I've got no childcare and can't afford any": "book a childminder"
        "childcare": "childminder childminders nanny babysitter babysitters creche crèche",
        # the platforms by name: "a JustGiving or GoFundMe page"
        "crowdfunding": "justgiving gofundme kickstarter indiegogo crowdfunder",
        "sports": "soccer football basketball baseball softball hockey rugby volleyball"
        " lacrosse playoff playoffs varsity",
        "social deduction": _DEDUCTION,
        "social deduction games": _DEDUCTION,
        "hidden traitor games": _DEDUCTION,
        "hidden role games": _DEDUCTION,
        "candles": "tealight tealights tea-light tea-lights votive votives",
        "fizzy drinks": "soda sodas cola colas lemonade sparkling pop fizz coke pepsi sprite",
        **dict.fromkeys((*_SEALED, "concrete"), _PAVED),
    }.items()
}

#: A generic head after the class that names no more than the class: "pork products",
#: "dairy-based foods", "meat items".
_GENERIC_HEAD = re.compile(
    r"(?:[\s-]+(?:products?|items?|based|derived|derivatives?|ingredients?|foods?|stuff))+$"
)


#: Devices named by a feature, whose every thing with the feature is one: "no GPS
#: devices" rules out "a GPS sports watch" (not "a non-GPS watch").
_FEATURE_DEVICES = re.compile(
    r"^(?P<f>gps|bluetooth|wi-?fi|usb|cellular|satellite)[\s-]+(?:enabled\s+)?"
    r"(?:devices?|gadgets?|units?|gear|equipment|tech|electronics)$"
)


#: Things, not classes, that have a member by another name: "no beef" rules out a burger.
#: (Not classes: no word is looked for by embedding as a member of "beef", which would
#: find pork and lamb.)
THING_MEMBERS: dict[str, tuple[str, ...]] = {
    "beef": tuple(_BURGERS.split()),
    # a way of raising something: "don't want to bring it up face to face"
    "face to face": ("in person", "in-person", "face-to-face"),
    "in person": ("face to face", "face-to-face", "in-person"),
    # glass wool is fibreglass by another name
    "fibreglass": ("glass wool", "glass-wool", "glass fibre", "glass fiber"),
    # a dryer sheet is fabric softener on a sheet
    "fabric softener": ("dryer sheet", "dryer sheets", "fabric conditioner", "softener sheets"),
    # heat on hair: the tools that style with it
    "heat": (
        "hair dryer",
        "hairdryer",
        "blow-dry",
        "blow dry",
        "blow-dryer",
        "diffuser",
        "straighteners",
        "flat iron",
        "curling iron",
        "curling wand",
        "curling tongs",
        "hot rollers",
        "heated rollers",
        "hot brush",
    ),
    # tin-lead solder by its alloy
    "leaded solder": (
        "tin-lead",
        "tin/lead",
        "63/37 solder",
        "60/40 solder",
        "lead-based solder",
    ),
    # the oxygen bleaches by what their tubs say
    "bleach": (
        "oxygen bleach",
        "oxygen-based bleach",
        "oxygen stain remover",
        "sodium percarbonate",
        "oxiclean",
        "oxi action",
    ),
    # a flash by its makers' names for it
    "flash": ("speedlight", "speedlights", "speedlite", "speedlites", "flashgun", "flashguns"),
    # a boat's engine by where it sits (not "hike outboard", a direction)
    "engine": ("outboard motor", "outboard engine", "inboard engine"),
    # the copper of antifouling by its chemists' names
    "copper": ("cuprous", "cupric"),
    # a scallion is a young onion by another name
    "onion": ("scallion", "scallions"),
}
# ("no equipment whatsoever, just a park and our own bodyweight": "resistance band rows")
CLASS_MEMBERS["equipment"] += (
    "resistance band",
    "resistance bands",
    "medicine ball",
    "skipping rope",
    "jump rope",
    "pull-up bar",
)
CLASS_MEMBERS["online crowdfunding"] = CLASS_MEMBERS["crowdfunding"]
# the Olympic lifts by their variations ("hang power clean", "power snatch", "clean pull")
CLASS_MEMBERS["olympic lifts"] = (
    *"snatch snatches".split(),
    *(f"{a} {b}" for a in ("power", "hang", "squat") for b in ("clean", "cleans")),
    *"clean pull;clean pulls;clean and jerk;push jerk;split jerk".split(";"),
)
# (a singular name is one thing's kinds, ``THING_MEMBERS``: no class to look for by embedding)
THING_MEMBERS["olympic lifting"] = CLASS_MEMBERS["olympic lifts"]
# feeder insects by name ("no insects kept or stored in the flat": "freeze-dried mealworms")
CLASS_MEMBERS["insects"] = (
    *"cricket crickets mealworm mealworms waxworm waxworms superworm superworms locust"
    " locusts roach roaches dubia silkworm silkworms bsfl".split(),
    *"fruit fly;fruit flies;black soldier fly".split(";"),
)
for _name in ("bugs", "live insects", "feeder insects", "creepy-crawlies"):
    CLASS_MEMBERS[_name] = CLASS_MEMBERS["insects"]
THING_MEMBERS["live food"] = CLASS_MEMBERS["insects"]
# what has a jump in it ("no jumping for now": "burpees", "box jumps", "skipping")
THING_MEMBERS["jumping"] = (
    *"burpees burpee skipping plyometrics plyos".split(),
    *"jumping jacks;star jumps;box jumps;tuck jumps;jump squats;squat jumps;jump rope".split(";"),
    *"skater hops;split jumps;jump lunges;broad jumps".split(";"),
)
CLASS_MEMBERS["jumping exercises"] = THING_MEMBERS["jumping"]
CLASS_MEMBERS["jumps"] = THING_MEMBERS["jumping"]
# pressing overhead by its lifts ("military press", "push press", "shoulder press")
THING_MEMBERS["overhead pressing"] = tuple(
    "overhead press;shoulder press;military press;push press;arnold press;handstand push-ups"
    ";pike push-ups;landmine press".split(";")
)
CLASS_MEMBERS["overhead presses"] = THING_MEMBERS["overhead pressing"]
# what needs a smartphone ("follow the dot on your phone's map", "share your live location
# on WhatsApp")
THING_MEMBERS["smartphone"] = (
    "whatsapp",
    "live location",
)
THING_MEMBERS["onions"] = THING_MEMBERS["onion"]
THING_MEMBERS["fiberglass"] = THING_MEMBERS["fibreglass"]
# wines by their grape or their name, a thing's members (no embedding search: a white wine
# sits as near "red wine" as a Merlot does)
THING_MEMBERS["red wine"] = (*_RED_WINE.split(), *_RED_WINE_2)
THING_MEMBERS["white wine"] = (*_WHITE_WINE.split(), *_WHITE_WINE_2)
for _name in ("alcohol", "booze", "drinking"):
    CLASS_MEMBERS[_name] = (*CLASS_MEMBERS[_name], *_RED_WINE_2, *_WHITE_WINE_2)
THING_MEMBERS["wine"] = (
    *THING_MEMBERS["red wine"],
    *THING_MEMBERS["white wine"],
    *"prosecco champagne cava sherry".split(),
)
# shop-bought yeast by the names on its packets ("commercial yeast is out": a sourdough
# baker's rule)
THING_MEMBERS["commercial yeast"] = tuple(
    f"{kind} yeast"
    for kind in (
        "instant",
        "dried",
        "dry",
        "active dry",
        "fast-action",
        "fast action",
        "easy-bake",
        "easy bake",
        "quick-rise",
        "rapid-rise",
        "bread machine",
        "fresh",
        "baker's",
        "bakers",
        "cake",
    )
)
THING_MEMBERS["store-bought yeast"] = THING_MEMBERS["commercial yeast"]
# a fee to take part by its other names: "no entry fee" is broken by "£20 per team entry"
THING_MEMBERS["entry fee"] = (
    "entry charge",
    "entrance fee",
    "registration fee",
    "sign-up fee",
    "per team entry",
    "per player entry",
    "per person entry",
    "per runner entry",
    "team entry of",
)


#: A sentence on getting the thing one day: "If you ever get a laptop later, ...", "Once you
#: can afford a car, ..." (not "If you get the chance, use a car": a use now).
_GOT_ONE_DAY = re.compile(
    r"(?:^|(?<=[.!?\n;]))[ \t]*(?:if|once|when)\s+you\s+(?:ever\s+|later\s+|eventually\s+"
    r"|one\s+day\s+|do\s+)?(?:get|buy|have|own|can\s+(?:get|afford)|pick\s+up|upgrade\s+to)"
    r"\s+(?:a|an|one|your\s+own)\b[^.!?;\n]*[.!?;]?",
    re.IGNORECASE | re.MULTILINE,
)
#: Where a class is kept out, after it: "no alcohol on the premises" is alcohol's.
_WHERE = re.compile(
    r"\s+(?:on|in|at|inside)\s+(?:the|my|our|your|his|her|their|this|that)\s+[a-z]+$"
)
#: "anything acidic", "something electronic": the class is the word after it.
_ANY_THING = re.compile(r"^(?:anything|something|any)\s+")


def class_members(item: str) -> tuple[str, ...]:
    """The listed members of an excluded class, read through a generic head ("pork
    products" has the members of "pork"), or of a thing (``THING_MEMBERS``); none when no
    list knows the class."""
    names = (item, _GENERIC_HEAD.sub("", item), _ANY_THING.sub("", item), _WHERE.sub("", item))
    for name in dict.fromkeys(names):
        members = CLASS_MEMBERS.get(name, ()) or CLASS_MEMBERS.get(f"{name}s", ())
        if members:
            return members
    return THING_MEMBERS.get(item, ())


#: A word before a member that makes it a substitute, not a member ("oat milk").
_SUBSTITUTE = (
    r"vegan|vegetarian|plant|plant-based|meatless|meat-free|dairy-free|non-dairy|nondairy|oat"
    r"|soy|soya|coconut|rice|fake|faux|mock|imitation|substitute|veggie|gluten-free"
    r"|alcohol-free|non-alcoholic|de-?alcoholi[sz]ed|decaf|decaffeinated|egg-free|nut-free"
    r"|sugar-free|lactose-free|cashew|gf|df"
    # Not the dairy kind: "peanut butter", "cocoa butter", "coconut cream".
    r"|peanut|almond|nut|seed|sunflower|apple|cocoa|shea|flax|chia|linseed|aquafaba"
)
#: A word after a member that makes it no member: "egg replacer", "milk alternative",
#: "egg-free", "oyster mushrooms", "crab apple", "fish-shaped", "mussel-shell pasta",
#: "butter-flavored oil", "cream of tartar", "sugar snap peas", "red wine vinegar".
_NOT_MEMBER_AFTER = (
    r"replacers?|replacements?|substitutes?|alternatives?|free|less|mushrooms?(?!-head)|apples?"
    # (a "lead mushroom-head jig" is lead)
    r"|shaped|shells?|flavou?red|of\s+tartar"
    # "sugar snap peas", "red wine vinegar"
    r"|snaps?|vinegars?"
    # "sparkling cider (non-alcoholic)"
    r"|\(\s*(?:non-alcoholic|alcohol-free|dairy-free|meat-free|vegan)"
    # a colour or a place named for it: "Merlot-coloured paint", "the Rioja region"
    r"|colou?red|colou?r|region|hills|valley|grape\s+juice"
)
#: A swap that rules the first thing out: "swap the eggs for flax eggs", "replace the butter
#: with coconut oil and the milk with soy milk", "the milk for oat milk" after a swap.
_SWAP = re.compile(
    r"\b(?:swap|switch|replace|exchange|trade)\s+(?:out\s+)?[^.!?\n]*", re.IGNORECASE
)
_SWAPPED = re.compile(
    # a further swap in the same sentence takes an article: "and the milk with soy milk",
    # not "and serve chicken with rice"
    r"((?:(?:,\s*(?:and\s+)?|\band\s+)(?:the|your|any|all|\d+)\s+"
    r"|\b(?:swap|switch|replace|exchange|trade)\s+(?:out\s+)?(?:(?:the|your|any|all|\d+)\s+)*))"
    # (a pronoun is left for the back-reference it makes: "almonds, so swap them for seeds")
    r"(?!(?:them|it|those|these)\b)([a-z][\w-]*(?:\s+[a-z][\w-]*)?)(?=\s+(?:for|with)\b)",
    re.IGNORECASE,
)


def _unswapped(text: str) -> str:
    """``text`` less what a swap takes out: "swap the 2 eggs for 2 flax eggs" uses no eggs."""
    return _SWAP.sub(lambda m: _SWAPPED.sub(r"\1 ", m.group(0)), text)


_WORD = re.compile(r"[a-z][a-z'-]{2,}")
_COMMON = frozenset(
    "the and for with that this you your are was were from have has had not but all can will"
    " into then than them they their there here what when which while about also just more"
    " some any each other such only very like make made use used using add adding one two"
    " three four five minutes minute hour hours day days time well good great best".split()
)


@dataclass
class MemberCheck:
    """Excluded items the answer affirms (with the member it used) and those it rules out."""

    violated: list[tuple[str, str]] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)

    def violations(self, phrases: dict[str, str], lacks: Collection[str] = ()) -> list[str]:
        """One plain reason per excluded item used, naming the member and the request's words
        (``lacks``: items the asker says they do not have)."""
        out = []
        # one word of the answer is said once: "honey" under both "no animal products" and
        # "vegan", under an item the request excludes before one the asker only lacks
        told: set[str] = set()
        for item, member in sorted(self.violated, key=lambda v: v[0] in lacks):
            if member.lower() in told:
                continue
            told.add(member.lower())
            said = f" ('{phrases[item]}')" if item in phrases else ""
            what = member if member == item else f"{member} ({item})"
            why = "the request says is not available" if item in lacks else "the request excludes"
            out.append(f"uses {what}, which {why}{said}")
        return out

    def reasons(self, phrases: dict[str, str], lacks: Collection[str] = ()) -> list[str]:
        """The violations, then the excluded items the answer rules out."""
        ruled_out = [f"rules out {item}, as the request asks" for item in self.ruled_out]
        return self.violations(phrases, lacks) + ruled_out


#: Words before "road" that make it open ground ("forest roads", "gravel roads").
_UNSEALED = "forest|fire|gravel|dirt|farm|unpaved|unsealed|green|logging|estate|service"
#: Teas of no tea plant: "herbal tea", "rooibos tea", "barley tea".
_HERBAL = (
    "herbal|rooibos|redbush|fruit|peppermint|chamomile|mint|ginger|lemon|turmeric|hibiscus"
    "|barley|buckwheat|caffeine-free"
)
#: Substitutes for one excluded class only: "beef bacon" and "turkey sausages" are no pork
#: (but "beef tacos" still break "no tacos").
_CLASS_SUBSTITUTES = {
    "pork": "beef|turkey|halal",
    # flours of no grain with gluten: "cornflour", "rice flour", "buckwheat flour"
    "gluten": "corn|buckwheat|chickpea|gram|tapioca|potato|sorghum|teff|millet|arrowroot|cassava",
    # a diffuser that scents a room is no heat on hair
    "heat": "reed|aroma|oil|scent|ultrasonic|essential|fragrance|plug-in|room",
    # soft drinks named for a beer: "ginger beer", "root beer"
    "alcohol": "ginger|root|birch|la",  # ("La Rioja": the place)
    # teas of no tea plant: "herbal tea", "rooibos tea"
    "caffeine": _HERBAL,
    "tea": _HERBAL,
    # a sweet potato is no potato
    "potatoes": "sweet",
    "potato": "sweet",
    # what goes on skin: "moisturising cream", "body butter"
    "dairy": "moisturi[sz]ing|face|hand|body|eye|barrier|nappy|diaper|shaving|sun|night|day"
    "|hydrocortisone|steroid",
    # roads and tracks of open ground: "the forest roads there are hard-packed gravel"
    "roads": _UNSEALED,
    "road": _UNSEALED,
}


def _class_of(item: str) -> str:
    """``item``, or the class with substitutes of its own it is a member of ("beer" of
    "alcohol", whose "ginger beer" is no beer), where ``item`` has none of its own."""
    if item in _CLASS_SUBSTITUTES:
        return item
    return next((c for c in _CLASS_SUBSTITUTES if item in CLASS_MEMBERS.get(c, ())), item)


def _strip_substitutes(content: str, members: Sequence[str], item: str = "") -> str:
    if not members:
        return content
    item = _WHERE.sub("", item)  # "alcohol on the premises": alcohol
    cls = _class_of(item)  # "beer": alcohol's substitutes ("ginger beer")
    alt = "|".join(re.escape(m) for m in sorted(members, key=len, reverse=True))
    # "oyster mushrooms"; a "sweet potato" is of "potatoes"
    forms = {f for m in members for f in (m, m.removesuffix("s"))}
    either = "|".join(re.escape(m) for m in sorted(forms, key=len, reverse=True))
    singular = {*members, *(m[:-2] for m in members if m.endswith("oes"))}
    named = "|".join(re.escape(m) for m in sorted(singular, key=len, reverse=True))
    subs = f"{_SUBSTITUTE}|{_CLASS_SUBSTITUTES[cls]}" if cls in _CLASS_SUBSTITUTES else _SUBSTITUTE
    # "gluten-free flour", "pork-free sausages": free of the item, so no member of it
    subs = f"{subs}|{_item_free(item)}" if _item_free(item) else subs
    # ("soy sausages": the plural of a member too)
    # ("vegan block butter": one word may stand between, not a conjunction)
    between = r"(?:(?!(?:and|or|with|plus|then)\b)[a-z]+\s+)?"
    if cls in _CLASS_SUBSTITUTES:  # "cornflour": the substitute joined to the member
        content = re.sub(
            rf"\b({_CLASS_SUBSTITUTES[cls]})(?:{alt})\b", r"\1", content, flags=re.IGNORECASE
        )
    # the substitutes first: "dairy-free milk" is no milk before "dairy-free" goes
    swapped = re.compile(rf"\b({subs})[\s-]+{between}(?:{named})(?:e?s)?\b", re.IGNORECASE)
    content = _unswapped(content)
    content = _named_again(content, subs, named, item)
    content = swapped.sub(r"\1", content)
    return re.sub(
        rf"\b(?:{either})(?:e?s)?[\s-]+(?:{_NOT_MEMBER_AFTER})\b", " ", content, flags=re.IGNORECASE
    )


#: Words that may stand between a substitute and the member it stands for: "oat barista milk".
_SUBSTITUTE_KIND = (
    r"(?:(?:barista|block|unsweetened|sweetened|organic|baking|cooking|drinking|salted"
    r"|unsalted|softened|melted)\s+)?"
)
#: What names a member as the thing itself, not the substitute again: "cow's milk", "whole
#: milk".
_THE_THING_ITSELF = (
    r"(?<!['’]s\s)(?<!dairy\s)(?<!whole\s)(?<!regular\s)(?<!skimmed\s)(?<!full-fat\s)"
)


def _named_again(content: str, subs: str, named: str, item: str) -> str:
    """``content`` less a member named again, bare or with "the", after it was named with a
    substitute right before it: "oat barista milk ... Use the milk cold", "vegan butter ...
    so the butter firms up" (not a blend, "a coconut-soy blend", nor the item after its own
    "-free": "soy-free ... the soy" is soy)."""
    direct = re.compile(rf"\b({subs})\s+{_SUBSTITUTE_KIND}({named})(?:e?s)?\b", re.IGNORECASE)
    firsts: dict[str, int] = {}
    for m in direct.finditer(content):
        if not (m.group(1).lower().endswith("free") and stem(m.group(2)) == stem(item)):
            firsts.setdefault(m.group(2).lower(), m.end())
    if not firsts:
        return content
    back = "|".join(re.escape(m) for m in sorted(firsts, key=len, reverse=True))
    again = re.compile(
        rf"\b{_THE_THING_ITSELF}(?:(?:the|your)\s+)?({back})(?:e?s)?\b(?!['’])", re.IGNORECASE
    )
    return again.sub(
        lambda m: " " if m.start() >= firsts[m.group(1).lower()] else m.group(0), content
    )


def _compound_named(content: str, item: str) -> str:
    """``content`` with a name joined to what follows it set apart, so that a ruled-out name
    is found in its compounds: "DisneySea" and "Disneyland" are Disney, "Legoland" is Lego
    (a capital right after the name, or "land" / "world"; "Disneyesque" is left whole)."""
    if " " in item or len(item) < 3:
        return content
    return re.sub(rf"\b((?i:{re.escape(item)}))(?=[A-Z][a-z]|(?i:land|world)\b)", r"\1 ", content)


def _item_free(item: str) -> str:
    """A pattern for "ITEM-free" ("gluten-free", "pork-free", "nut-free" for "nuts"), or ""."""
    words = item.split()
    if not words:
        return ""
    last = re.escape(words[-1].removesuffix("s"))
    return (
        rf"(?:{' '.join(map(re.escape, words[:-1]))}[\s-])?{last}(?:e?s)?-free"
        if words[:-1]
        else rf"{last}(?:e?s)?-free"
    )


def _unparticipled(text: str, member: str) -> str:
    """``text`` less the member's participle: "3 minced garlic cloves" uses no mince,
    "scalloped potatoes" no scallops."""
    if member.endswith("ed"):
        return text
    for base in dict.fromkeys((member, member.removesuffix("s"))):
        text = re.sub(rf"\b{re.escape(base.removesuffix('e'))}ed\b", " ", text, flags=re.IGNORECASE)
    return text


#: An excluded class that runs on power: "no power tools", "nothing electric".
_POWERED = re.compile(
    r"\b(?:power(?:ed)?|electric(?:al)?|motori[sz]ed|battery|corded|cordless|gas|petrol)\b"
)
#: A tool said to run by hand: "a hand drill", "a manual grinder", "a push mower".
_BY_HAND = re.compile(
    r"\b(?:hand-[a-z]+ed|hand|manual|push|non-?electric)[\s-]+[a-z][\w-]*",
    re.IGNORECASE,
)


def _unpowered(text: str, item: str) -> str:
    """``text`` less the tools it says run by hand, when ``item`` is a powered class: a
    hand drill is no power tool."""
    return _BY_HAND.sub(" hand tool", text) if _POWERED.search(item) else text


#: Every word, short ones too: "no" and "not" must be seen to negate what follows.
_ANY_WORD = re.compile(r"[a-z][a-z'-]*")


def _nothing_of(tokens: list[str], i: int) -> bool:
    """ "a gift that has nothing to do with drinking", "nothing with gluten": none of it."""
    return any(
        tokens[k] == "nothing"
        and tokens[k + 1] in NOTHING_OF
        and NOTHING_BUT.isdisjoint(tokens[k + 1 : i])
        for k in range(max(0, i - 4), i)
    )


def _affirmed_words(content: str) -> list[str]:
    """Distinct content words of the answer that no nearby negation rules out: not in a
    warning ("read labels, since milk powder turns up in surprising places"), not a
    participle ("minced", "ground"), not the unit of a swap ("a flax egg per egg")."""
    out: dict[str, None] = {}
    for sentence in re.split(r"[.!?;\n]+", content.lower()):
        tokens = _ANY_WORD.findall(sentence)
        if not WARNINGS.isdisjoint(tokens):
            continue
        tokens = _ANY_WORD.findall(unwarned(sentence))
        for i, tok in enumerate(tokens):
            before = tokens[max(0, i - 4) : i]
            if (
                len(tok) < 3
                or tok in _COMMON
                or tok.endswith("ed")
                or tokens[i - 1 : i] == ["per"]
                or any(t in NEGATORS or t.endswith("n't") for t in before)
                or _nothing_of(tokens, i)
                or negated_after(tokens, i)
            ):
                continue
            out[tok] = None
    return list(out)


#: Singular words that name a class of things people exclude (plurals are read as classes).
_MASS_CLASSES = frozenset(
    "meat dairy seafood fish poultry alcohol booze caffeine gluten sugar spice candy produce"
    " fruit grain junk food fast food fried food processed food".split()
)


def is_class(item: str) -> bool:
    """Whether an excluded item names a class ("meat", "nuts", "power tools") rather than one
    thing ("green", "garlic", "a drill"): only a class has members to look for by embedding.

    Embeddings place siblings as close as members (green and blue, carpet and rugs): on the
    training set's realistic requests, looking for members of single things flagged 15% of
    faithful answers and as few violating ones, so single things are matched by name only.
    """
    words = item.split()
    last = words[-1]
    plural = last.endswith("s") and not last.endswith("ss") and len(words) <= 2
    return item in CLASS_MEMBERS or item in _MASS_CLASSES or last in _MASS_CLASSES or plural


#: Words that name a whole kind of thing, wider than any class a request rules out: a
#: "Drinks" heading over sparkling water is no member of "alcohol", nor "snacks" of "nuts".
#: Embeddings place them close to the classes they contain, so they are never members.
_WIDER = frozenset(
    "drink drinks beverage beverages food foods snack snacks meal meals dish dishes ingredient"
    " ingredients product products item items option options side sides dessert desserts"
    " main mains menu menus recipe recipes treat treats tool tools material materials"
    " equipment supplies device devices".split()
)


def _not_a_use(word: str) -> bool:
    """'fragrance-free', 'non-dairy', 'meatless' say the thing is absent; 'drinks' names
    more than any excluded class (``_WIDER``)."""
    return word.endswith(("-free", "less")) or word.startswith("non-") or word in _WIDER


def _same_family(word_stem: str, item: str) -> bool:
    """ "grind" and "grinders", "bake" and "bakery", "boats" and "motorboats": one word family
    with the item's head noun, so the word is the item itself (judged by name, negation and
    modifiers included) or names more than it, not one of its members. A modifier is no
    head: "AirPods" is a member of "AirPods-style stems"."""
    stems = [stem(w) for w in item.split()]
    head = stems[-1]
    # (also the head's own last part, which names more than the item: "boats" of
    # "motorboats" is no member of it)
    return word_stem in stems or (
        min(len(word_stem), len(head)) >= 4
        and (head.startswith(word_stem) or head.endswith(word_stem))
    )


_IRRELIGIOUS = "secular non-religious nonreligious irreligious atheist atheists agnostic humanist"
#: Words an embedding puts near a class as its opposite, never members of it.
_OPPOSITES: dict[str, frozenset[str]] = {
    k: frozenset(v.split())
    for k, v in {
        "religious": _IRRELIGIOUS,
        "religion": _IRRELIGIOUS,
        "alcohol": "sober sobriety teetotal teetotaller non-alcoholic alcohol-free",
        "caffeine": "decaf decaffeinated caffeine-free",
        **dict.fromkeys(_SEALED, _OPEN_GROUND),
    }.items()
}


def _embedding_members(
    items: list[str], content: str, embed: Embed, min_cosine: float, asked: str = ""
) -> dict[str, str]:
    """For each excluded class, the first affirmed answer word whose embedding is close.

    A word the request itself uses for what it wants ("a signature drink" when the whole
    thing is alcohol-free) is what was asked for, not a member of the excluded class."""
    items = [i for i in items if is_class(i)]
    wanted = {stem(w) for w in _WORD.findall(asked.lower())}
    words = [
        w
        for w in _affirmed_words(content)
        if len(w) >= 4
        and not _not_a_use(w)
        # "swimsuit-only" when the request wants "just a swimsuit"
        and wanted.isdisjoint(stem(p) for p in (w, *w.split("-")))
    ][:300]
    if not words or not items:
        return {}
    vecs = embed(items + words)
    item_vecs, word_vecs = vecs[: len(items)], vecs[len(items) :]
    sims = item_vecs @ word_vecs.T
    found: dict[str, str] = {}
    for i, item in enumerate(items):
        for j in sims[i].argsort()[::-1][:3]:
            word = words[int(j)]
            if float(sims[i][j]) < min_cosine:
                break
            if _same_family(stem(word), item):
                continue  # the item itself, already judged with negation in mind
            if word.lower() in _OPPOSITES.get(item, ()):
                continue  # "completely secular" is near "religious" as its opposite
            if not mentions(content, word)[1]:
                continue  # named only as others' ("Lots of foragers are out for fungi")
            found[item] = word
            break
    return found


_FOR_LOOP = (
    r"^[ \t]*for\s*\(|^[ \t]*for\s+[^\n:]+?\s+in\s+[^\n]+:[ \t]*$"
    r"|^[ \t]*for\s+[\w, ]+:?=\s*range\b"
)
_WHILE_LOOP = r"^[ \t]*while\s*\(|^[ \t]*while\s+[^\n]+:[ \t]*$"
#: Emoji: what "no emojis" rules out (pictographs, flags, and symbols shown as emoji or
#: followed by the emoji selector U+FE0F; not a checkbox or a star rating).
_EMOJI = (
    "[\U0001f300-\U0001faff\u2614\u2615\u26a1\u26bd\u26be\u26c4\u26c5\u26d4\u26ea\u26f2-\u26fa"
    "\u26fd\u2705\u270a\u270b\u2728\u274c\u274e\u2753-\u2755\u2757\u2764\u2795-\u2797\u27b0"
    "\u27bf\u2b50\u2b55\u231a\u231b\u23e9-\u23f3\u23f8-\u23fa]"
    "|[\u2190-\u21ff\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff]\ufe0f|[\U0001f1e6-\U0001f1ff]{2}"
)
#: What a request rules out that an answer writes rather than names: emoji, and code
#: constructs ("without a for loop or a list comprehension").
CODE_FORMS: dict[str, re.Pattern[str]] = {
    name: re.compile(rx, re.MULTILINE)
    for names, rx in (
        (("emoji", "emojis", "emoticons"), _EMOJI),
        (("for loop", "for loops", "for-loop", "for-loops"), _FOR_LOOP),
        (("while loop", "while loops"), _WHILE_LOOP),
        (("loop", "loops", "explicit loops", "a loop"), f"{_FOR_LOOP}|{_WHILE_LOOP}"),
        (
            ("list comprehension", "list comprehensions", "comprehension", "comprehensions"),
            r"\[[^\]\n]*\bfor\s+[^\]\n]*\bin\b[^\]\n]*\]",
        ),
        (
            ("lambda", "lambdas", "lambda function", "lambda functions", "lambda expressions"),
            r"\blambda\b[^:\n]*:",
        ),
        (
            ("lookbehind", "lookbehinds", "look-behind", "look-behinds", "lookbehind assertions"),
            r"\(\?<[=!]",
        ),
        (("lookahead", "lookaheads", "look-ahead", "look-aheads"), r"\(\?[=!]"),
        # "No quotes. My teacher docks marks if you open with a quotation": a paragraph that
        # opens with one
        (
            ("quotes", "quotations", "quotation", "a quote", "quote"),
            # (a clause: punctuation before the closing mark or six words; not a title,
            # "The Road Not Taken")
            r"(?:\A|\n)[ \t>*_]*[\"“](?:[^\"”\n]{10,400}?[,.!?…]|(?:[^\"”\n\s]+\s+){5,}[^\"”\n]*?)"
            r"[\"”]",
        ),
        (
            ("regex", "regexes", "regular expression", "regular expressions", "re module"),
            r"\bre\.(?:compile|match|search|sub|subn|findall|finditer|fullmatch|split)\("
            r"|\bnew\s+RegExp\(|\bregexp\.(?:MustCompile|Compile)\(",
        ),
    )
    for name in names
}


#: A burger, or a patty the answer shapes into one ("form the mixture into 4 patties").
_BURGER_WORD = re.compile(r"\b(?:(?:cheese|ham)?burgers?|patty|patties)\b", re.IGNORECASE)
#: Foods that are no meat, which make a burger named by them no meat: "a black bean
#: burger", "paneer burgers", "Quorn burgers" (vegetables, legumes, grains, nuts, the
#: cheeses made into patties, the meat-free brands), and fish ("salmon burgers" for a
#: pescatarian; "no seafood" rules the fish out by name).
_NOT_MEAT_FOODS = frozenset(
    """
    veggie veg vegetable vegetarian vegan plant plant-based meatless meat-free meat-less garden
    bean lentil chickpea garbanzo dal dhal daal edamame pea soy soya soybean tofu tempeh seitan
    mushroom portobello portabello portobella portabella shiitake jackfruit falafel
    potato aloo tikki beet beetroot cauliflower eggplant aubergine zucchini courgette carrot
    spinach kale corn sweetcorn broccoli pumpkin squash butternut parsnip
    quinoa rice oat bulgur barley millet farro freekeh couscous
    nut walnut cashew almond pecan peanut hazelnut pistachio seed sunflower
    halloumi haloumi paneer feta
    beyond impossible quorn boca morningstar gardein lightlife tofurky gardenburger
    fish salmon tuna cod trout tilapia haddock halibut mackerel sardine shrimp prawn crab
    lobster scallop
    """.split()
)
#: ... and, for "no red meat" or "no beef", poultry ("turkey burgers"); for "no beef", pork
#: and lamb too ("lamb burgers"). Under "no meat" they are meat, and named as members.
_NOT_RED = frozenset({"turkey", "chicken", "duck"})
_BURGER_NOT_MEAT = {
    "red meat": _NOT_MEAT_FOODS | _NOT_RED,
    "beef": _NOT_MEAT_FOODS | _NOT_RED | {"pork", "lamb", "bison"},
}
#: Words that make a burger a meat one: its meat, or the plain kind ("a classic burger",
#: "smash burgers", "a plain burger for the kids", "cheese burgers").
_MEAT_BURGER = frozenset(
    f"{_MEAT} meat bison elk wagyu angus kobe sirloin chuck ground classic smash smashed plain"
    " regular traditional ordinary normal real cheese".split()
)
#: Words that may stand between a burger and its kind: "black bean BBQ burgers",
#: "zucchini fritter burgers", "crab cake burgers".
_BURGER_NEUTRAL = frozenset(
    """
    crispy crunchy spicy spiced smoky smoked grilled homemade home-made mini little big thick
    hearty healthy easy simple quick tasty delicious juicy fritter fritters cake cakes patty
    tandoori bbq barbecue barbecued curried cajun jerk teriyaki thai indian mexican greek
    mediterranean southwestern herby herbed seasoned stuffed loaded gourmet chunky golden baked
    fried pan-fried air-fried fresh sweet style
    """.split()
)
#: A word in a sentence that names what a patty is shaped from ("Mash the chickpeas and
#: form 4 patties"), or what a burger labelled so is ("Burgers: black bean patties"); not a
#: side of "baked beans" or "green beans".
_MEATLESS = (
    r"veggie|veg|vegetables?|vegetarian|vegan|plant|plant-based|meatless|meat-free|meat-less"
    r"|(?<!baked\s)(?<!green\s)(?<!refried\s)(?<!string\s)(?<!runner\s)beans?"
    r"|lentils?|chickpeas?|garbanzos?|mushrooms?|portobell[oa]s?|portabell[oa]s?|tofu|tempeh"
    r"|halloumi|paneer|quinoa|falafel|beyond|impossible|seitan|soy|jackfruit|quorn"
    r"|fish|salmon|tuna|cod|shrimp|prawns?|crab"
)
_BURGER_MEATLESS = {
    "red meat": re.compile(r"\b(?:" + _MEATLESS + r"|turkey|chicken|duck)\b", re.IGNORECASE),
    "beef": re.compile(
        r"\b(?:" + _MEATLESS + r"|turkey|chicken|duck|pork|lamb|bison)\b", re.IGNORECASE
    ),
}
_ANY_MEATLESS = re.compile(rf"\b(?:{_MEATLESS})\b", re.IGNORECASE)
#: What a burger is made of, said after it: "burgers made with ground turkey and herbs",
#: "patties made from lentils" (up to what is done with them: "... topped with mushrooms").
_MADE_OF = re.compile(
    r"\s*,?\s*(?:(?:that|which)\s+(?:are|is)\s+|(?:are|is)\s+)?(?:made|formed|shaped|built)\s+"
    r"(?:with|from|of|out\s+of|using)\s+((?:(?!(?:topped|served|then|on|in|for|and\s+"
    r"(?:topped|served|grilled|then))\b)[^.,;:!?\n])*)",
    re.IGNORECASE,
)
#: A burger that labels what follows: "Burgers: black bean patties", "## Burgers",
#: "Burgers — use ground turkey", "**Burgers**:".
_LABEL_AFTER = re.compile(r"[*_]*\s*(?:[:!\u2014\u2013]|\s-\s|\s*\n)")


#: Words that hold a burger up for comparison rather than serve it: "as juicy as a regular
#: burger", "even fans of a classic smash burger", "a take on the classic cheeseburger".
_COMPARED = re.compile(
    r"\b(?:as\s+[\w-]+\s+as|than|fans?\s+of|lovers?\s+of|compared\s+(?:to|with)|similar\s+to"
    r"|reminiscent\s+of|rival(?:s|ling)?|mimics?|version\s+of|alternatives?\s+to"
    r"|substitutes?\s+for|takes?\s+on|reminds?\s+(?:you\s+|me\s+)?of)"
    r"\s+(?:(?:a|an|the|your|any|other|most|real|good)\s+)*(?:[\w'-]+\s+){0,3}$",
    re.IGNORECASE,
)


def _food_word(word: str, words: frozenset[str]) -> bool:
    """Whether ``word`` or its singular is one of ``words``: "lentils", "potatoes"."""
    return any(w in words for w in (word, word.removesuffix("s"), word.removesuffix("es")))


def _burger_kind(before: str, after: str, not_meat: frozenset[str]) -> str | None:
    """ "other" when the words just before a burger, or what it is made of after it, name
    a food that is no member (``not_meat``); "meat" when they name meat or the plain kind;
    ``None`` for a burger named by nothing ("the burgers", "grill burgers")."""
    made = _MADE_OF.match(after)
    if made:
        words = re.findall(r"[a-z][\w'-]*", made.group(1).lower())
        if any(_food_word(w, not_meat) for w in words):
            return "other"
        if any(_food_word(w, _MEAT_BURGER) for w in words):
            return "meat"
    tokens = re.findall(r"[\w'&-]+|[^\w\s]", re.sub(r"[*_]", "", before.lower()))[-6:]
    known = not_meat | _MEAT_BURGER | _BURGER_NEUTRAL
    run: list[str] = []
    for token in reversed(tokens):
        parts = [token] if _food_word(token, known) else token.split("-")[::-1]
        for part in parts:
            if not _food_word(part, known):
                # a word of another kind ends the burger's name: "grill", "some", "and", ","
                break
            run.append(part)
        else:
            continue
        break
    for i, word in enumerate(run):
        if word == "meat" and run[i + 1 : i + 2] == ["beyond"]:  # "Beyond Meat burgers"
            run[i] = "beyond"
    if any(_food_word(w, not_meat) for w in run):
        return "other"
    if any(_food_word(w, _MEAT_BURGER) for w in run):
        return "meat"
    return None


def _meatless_burgers(content: str, item: str, request: str) -> str:
    """``content`` less its burgers that are no member of ``item``: a burger named by a
    food that is no meat ("Try black bean burgers", "paneer burgers", "turkey burgers"
    under "no red meat", "burgers made from lentils"); a burger named by nothing that
    refers back to one ("... then grill the burgers"), or to a patty shaped from such a
    food ("Mash the chickpeas and form 4 patties"), or that labels one ("Burgers: black
    bean patties"); and a burger named by nothing when the request names burgers
    ("burger night ideas, no red meat"), whose kind the answer may name by other words.
    A cheeseburger, a hamburger, a classic, smash or beef burger stays one; a burger bun or
    burger sauce is no burger."""
    content = _BURGER_THING.sub(" ", content)
    not_meat = _BURGER_NOT_MEAT.get(item, _NOT_MEAT_FOODS)
    meatless = _BURGER_MEATLESS.get(item, _ANY_MEATLESS)
    seen = bool(_BURGER_WORD.search(_BURGER_THING.sub(" ", request)))
    out, last = [], 0
    for m in _BURGER_WORD.finditer(content):
        word = m.group(0).lower()
        line_start = content.rfind("\n", 0, m.start()) + 1
        before, after = content[line_start : m.start()], content[m.end() :]
        kind = _burger_kind(before, after, not_meat)
        if kind is None and word.startswith(("cheese", "ham")):
            kind = "meat"
        if kind is None:
            sentence = re.split(r"[.!?;]", before)[-1]
            if word.startswith("patt") and meatless.search(sentence):
                kind = "other"  # a patty shaped from what its sentence names
            elif seen:
                kind = "same"
            elif _LABEL_AFTER.match(after) or before.lstrip().startswith("#"):
                # the label's words: up to the end of the next sentence
                rest = after.lstrip(" *_:!-\u2014\u2013\n\t")
                kind = "other" if meatless.search(re.split(r"[.!?\n]", rest)[0]) else None
        if kind in ("other", "same"):
            seen = True
        elif not _COMPARED.search(re.split(r"[.!?;,:]", before)[-1]):
            continue
        out.append(content[last : m.start()] + " ")
        last = m.end()
    return "".join(out) + content[last:]


#: A thing named after burgers that is none: "a burger bun", "burger sauce", "burger-style".
_BURGER_THING = re.compile(
    r"\b(?:cheese|ham)?burgers?[\s-]+(?:buns?|rolls?|sauces?|seasonings?|spices?|toppings?|relish|press"
    r"|presses|king|style|like|shaped|flavou?red|bars?|joints?|restaurants?|chains?)\b",
    re.IGNORECASE,
)


#: US retirement plans named by their tax-code section: "401(k)", "403(b)".
_PLAN_NAME = re.compile(r"\b(401|403|457)\s*\(\s*([kb])\s*\)", re.IGNORECASE)


#: The dish a diet word names: "vegan lemon meringue pie", "vegetarian burger ideas".
_DISH = re.compile(
    r"\b(?:vegan|vegetarian|plant-based|meatless)\s+"
    # the dish's own words, up to a word that starts something else: "a vegan dish for
    # cheese lovers" names no cheese dish
    r"((?:(?!(?:for|with|and|or|but|so|to|that|who|which|in|on|at|from|by|of|without|than)\b)"
    r"[\w-]+\s+){0,3}(?!(?:for|with|and|or|but|so|to|that|who|which|in|on|at|from|by|of"
    r"|without|than)\b)[\w-]+)"
)


#: A kind named by a compound before the head the request asks about: "not a fan of
#: grommet-top curtains ... what curtain heading styles?" (the answer's "grommet top" is it).
_KIND_COMPOUND = re.compile(
    r"(?!(?:all|any|non|one|two|half|over|under|out|off|self|well|full|high|low)-)"
    r"([a-z]{3,})-([a-z]{3,})\s+([a-z]{3,})"
)


def _kind_named(item: str, asked: str) -> tuple[str, ...]:
    """The compound of a kind excluded (``_KIND_COMPOUND``) as a name of its own, when the
    head is what the request asks about."""
    m = _KIND_COMPOUND.fullmatch(item)
    if m is None or stem(m.group(3)) not in {stem(w) for w in _WORD.findall(asked.lower())}:
        return ()
    return (f"{m.group(1)} {m.group(2)}",)


#: An act ruled out at home ("rather not do C-41 at home", "no facials at home"): its thing.
_AT_HOME = re.compile(
    r"^(?:do\s+|doing\s+|make\s+|making\s+)?(?P<x>[\w-]+(?:\s+[\w-]+)?)\s+at\s+home$"
)


def _at_home(item: str, content: str) -> str | None:
    """The answer's words that bring an act ruled out at home home anyway: "a home C-41
    kit", "an at-home facial" (not "C-41 at a lab")."""
    m = _AT_HOME.match(item)
    if m is None:
        return None
    x = re.escape(m.group("x"))
    found = re.search(
        rf"(?<![\w-])(?<!no\s)(?<!not\s)(?:at-)?home(?:[\s-]+[\w-]+)?\s+{x}(?![\w-])",
        content,
        re.IGNORECASE,
    )
    return None if found is None else found.group(0)


def _asked_compounds(text: str, members: Sequence[str], request: str) -> str:
    """``text`` less the request's own words that end in a member: "a gluten free flour swap
    for my grandma's shortbread" asks for shortbread, whose "bread" is no member."""
    own = {
        w
        for w in _WORD.findall(request.lower())
        for m in members
        if " " not in m and len(w) > len(m) + 2 and w.endswith(m)
    }
    if not own:
        return text
    alt = "|".join(re.escape(w) for w in sorted(own, key=len, reverse=True))
    return re.sub(rf"\b(?:{alt})s?\b", " ", text, flags=re.IGNORECASE)


def _later_dropped(text: str, item: str, for_now: Collection[str], lacks: Collection[str]) -> str:
    """``text`` less what it puts off: for an item ruled out for now, its later times ("Once
    it has finished flowering, repot it"); for a thing the asker lacks, getting one some day
    ("If you ever get a laptop later, it all transfers")."""
    if item in for_now:
        text = LATER.sub(" ", text)
    if item in lacks:
        text = _GOT_ONE_DAY.sub(" ", text)
    return text


def check_members(
    items: list[str],
    content: str,
    *,
    embed: Embed | None = None,
    min_cosine: float = 1.0,
    asked: str = "",
    request: str = "",
    situations: Collection[str] = (),
    for_now: Collection[str] = (),
    lacks: Collection[str] = (),
) -> MemberCheck:
    """Which excluded ``items`` the answer affirms, by name, by list, or by embedding
    (``asked``: the asking sentences of the request less its exclusions; their words are
    never members; ``request``: the request as written, whose burgers are what it asks
    for; ``situations``: the items that are a thing's own lack, which the answer may
    propose to add, ``RequestAnalysis.situations``; ``for_now``: the items ruled out only for
    now, which the answer may put off to a later time, ``RequestAnalysis.for_now``; ``lacks``:
    the things the asker says they lack, which the answer may have them get one day: "If you
    ever get a laptop later, ...")."""
    check = MemberCheck()
    content = _PLAN_NAME.sub(r"\1\2", content)  # "401(k)" is the member "401k"
    left: list[str] = []
    named = {stem(w) for dish in _DISH.findall(asked.lower()) for w in _WORD.findall(dish)}
    for item in items:
        form = CODE_FORMS.get(item)
        if form is not None and (found := form.search(content)):
            check.violated.append((item, found.group(0).strip()[:40]))
            continue
        at_home = _at_home(item, content)
        if at_home is not None:  # "rather not do C-41 at home": "a home C-41 kit"
            check.violated.append((item, at_home))
            continue
        members = class_members(item) or _kind_named(item, asked)
        text = _compound_named(content, item)
        if "burger" in members:  # before the substitutes go: "veggie burgers ... the burgers"
            text = _meatless_burgers(text, item, f"{asked} {request}")
        text = _unpowered(_strip_substitutes(text, (item, *members), item), item)
        text = _later_dropped(text, item, for_now, lacks)
        lacking = item in situations  # "there's no heater in it": "buy a heater" adds one
        # "peanut products": any peanut ("fry the garlic in peanut oil")
        bare = _GENERIC_HEAD.sub("", item)
        kind = bare if bare in ALLERGENS else item
        # "no GPS devices": a thing with the feature ("a GPS sports watch")
        feature = _FEATURE_DEVICES.match(item)
        kind = feature.group("f") if feature else kind
        seen, affirmed = mentions(text, kind, situation=lacking)
        if affirmed:  # with the answer's word: "walnuts" for "nut"
            check.violated.append((item, affirmed_word(text, kind, situation=lacking) or item))
            continue
        # a member the request names is its dish, not a member: "vegan lemon meringue pie"
        members = tuple(m for m in members if stem(m) not in named)
        text = _asked_compounds(text, members, request)
        member = next(
            (m for m in members if mentions(_unparticipled(text, m), m, situation=lacking)[1]),
            None,
        )
        if member is not None:
            check.violated.append((item, member))
        elif seen:
            check.ruled_out.append(item)
        else:
            left.append(item)
    if embed is not None and min_cosine < 1.0 and left:
        frees = "|".join(f for item in left if (f := _item_free(item)))
        subs = f"{_SUBSTITUTE}|{frees}" if frees else _SUBSTITUTE
        # ("grain-free granola" under "no grains": free of it, no member)
        text = re.sub(rf"\b({subs})[\s-]+[\w-]+", r"\1", content, flags=re.IGNORECASE)
        # the items that read the same text go together: a hand drill is no power tool
        by_text: dict[str, list[str]] = {text: []}
        for item in left:
            by_text.setdefault(_unpowered(text, item), []).append(item)
        for seen_as, group in by_text.items():
            check.violated += _embedding_members(group, seen_as, embed, min_cosine, asked).items()
    return check

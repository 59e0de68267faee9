"""Whether an answer affirms what the request excludes: "Here are cookies made with
chocolate chips" affirms ``chocolate``; "no chocolate needed" rules it out. Negation in
the answer is respected within a few words ("not", "without", "skip", "instead of" ...).

>>> check_exclusions("Cake without nuts", "Add the walnuts and bake.").violated
['nuts']
>>> check_exclusions("Cake without nuts", "This cake is nut-free.").violated
[]

Pure text; the class-membership check by embeddings lives in
:mod:`scoregate.scoring.membership`, the request side in :mod:`scoregate.scoring.exclusions`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from scoregate.scoring.exclusions import ALLERGY_NOUNS, FORMER_OWNER, parse_exclusions

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
#: Sentence breaks of the (lower-cased) answer; a dot inside a name ("os.readfile") is none.
_SENTENCE = re.compile(r"(?:[!?;\n]|\.(?![a-z_]))+")
#: (a dash between two numbers is a range, no clause break: "20–30% wool")
_CLAUSE = re.compile(r"(?:[,:()—]|(?<!\d)–|–(?!\d))+")
#: (and a look or a feel of it: "a cashmere-feel finish", "leather-look", "wood-effect")
_LIKENESS = re.compile(r"\b[a-z]+-(?:like|esque|feel|look|effect|style)\b")
#: A short quotation in the answer mentions words rather than using them: "check the spec
#: sheet for words like 'ionizer'", "many labels say 'may contain nuts'".
#: Not a string in code ("from 'lodash'", "require('lodash/clone')"): that is a use.
_QUOTED = re.compile(
    r"(?<![\w'’(=])(?<!from\s)(?<!import\s)['‘\"“][^'‘’\"“”\n/\\.=(){}<>;:]{1,60}['’\"”](?![\w'’])"
)
#: The rest of a clause that tells what is normally used, up to where advice follows.
_ADVICE = r"(?:so|but|then|instead|here|use|try|swap|which|and)\b"
_NORM_REST = (
    # (not when the clause goes on to use it: "..., which I'd brown first")
    r"(?![^.;:!?\n]*\bwhich\s+(?:i|i'd|i'll|you|you'd|you'll|we|we'd)\b)"
    rf"(?:[^.;:!?\n,]|,(?!\s*{_ADVICE}))"
    rf"{{1,100}}?(?=[.;:!?\n]|,\s*{_ADVICE}|\s(?:and|but|so|which)\s|$)"
)
#: "I'd normally use", "I would usually", "we also typically": the writer's own habit, a
#: recommendation (read as "i normally", which the norm pattern leaves alone).
_FIRST_PERSON_NORM = re.compile(
    r"\b(?:i|we|you)(?:'d|\s+would)?(?:\s+(?:also|still|just|really|generally))?\s+"
    r"(normally|usually|typically|traditionally)\b"
)
#: What an item would otherwise do, said of its replacement: "castor oil (boosts lather,
#: which coconut usually provides)".
_COUNTERFACTUAL = re.compile(
    r"(?<![\w-])[\w-]+(?:\s+[\w-]+)?\s+(?:usually|normally|typically|traditionally|would\s+otherwise)"
    r"\s+(?:does|do|provides?|gives?|adds?|brings?|offers?|supplies|supply|contributes?"
    r")\b"
    # what a dish or a tool would need or use, told to explain a swap: "cassoulet
    # traditionally relies on pork", "toggle bolts would normally need a drill", "the
    # creaminess that cream normally would (give)"
    r"|(?<!\bi\s)(?<!\bwe\s)(?<!\byou\s)"  # ("I usually use pork shoulder" recommends it)
    r"\b(?:traditionally|normally|typically|classically|conventionally|usually)\s+"
    r"(?:relies?\s+on|uses?|calls?\s+for|contains?|includes?|needs?|requires?|comes?\s+with"
    r"|is\s+made\s+with|are\s+made\s+with)"
    + _NORM_REST
    + r"|\bwould\s+(?:normally|usually|otherwise|typically)\s+(?:need|use|require|call\s+for)"
    + _NORM_REST
    + r"|(?<![\w-])[\w-]+\s+(?:normally|usually|typically)\s+would\b"
    # "the tang Merlot would have added", "the edge that Sangiovese would give"
    r"|(?<![\w-])[\w-]+\s+would\s+have\s+(?:added|given|brought|provided|lent)\b"
    r"|\b(?:that|which)\s+[\w-]+\s+would\s+(?:add|give|bring|provide|lend)\b"
    # "vitamins which normally come from meat": where something else gets it
    r"|\b(?:usually|normally|typically|traditionally|naturally)\s+comes?\s+from"
    r"(?:\s+[\w-]+){1,3}"
)
#: Why a thing is refused, told by what it is: "skip anything with a loop chain, since
#: that's still a cord loop" (the cord named is the reason, no use).
_REFUSAL = (
    r"(?<!n't\s)(?<!not\s)(?<!never\s)"  # (not "don't skip the topping, since ...")
    r"\b(?:skip|avoid|don't\s+(?:use|buy|get|choose)|steer\s+clear\s+of|pass\s+on"
    # "I've also left out sphagnum moss, since that's the living form of peat moss"
    r"|(?:left|leave|leaving)\s+out)\b"
)
#: The refusal and the word that opens its reason: "skip anything with a loop chain, since".
_WHY = rf"{_REFUSAL}[^.;:!?\n]*?,?\s+(?:since|because|as)\s+"
_WHY_REFUSED = re.compile(
    rf"({_WHY}(?:that|it|this|those|these|they)"
    r"(?:'s|'re|\s+is|\s+are)\s+)"
    # (a short noun phrase that closes the clause: not "because they're pricey and a corded
    # blind does the job", "as it's overpriced - head to the satay stalls")
    r"((?:(?:still|also|just|basically|technically|effectively)\s+)?(?:a|an|the)\s+"
    r"[\w-]+(?:\s+[\w-]+){0,2}(?:\s+of\s+[\w-]+(?:\s+[\w-]+)?)?)"
    r"(?=\s*[.;:!?,)\n]|\s*$)(?!\s*,?\s*(?:which|that)\b)"
)
#: What a thing given up is made of, told in brackets: "Swap the tahini (it's made from
#: sesame) for sunflower seed butter" (the sesame is why, not a use).
_MADE_OF_ASIDE = re.compile(
    r"(\b(?:swap|swapping|replace|replacing|skip|skipping|avoid|avoiding|leave\s+out|drop"
    r"|dropping|ditch|ditching)\s+(?:the\s+|your\s+|any\s+)?[\w-]+(?:\s+[\w-]+)?\s*)"
    r"\((?:it's|it\s+is|they're|they\s+are|which\s+is|that's)\s+(?:made|based)\s+"
    r"(?:from|with|of|on)\s+[^)\n]{1,40}\)"
)
#: Why things are refused, told by what they hold: "Skip cola and bottled iced tea, as both
#: contain caffeine" (the caffeine is the reason, no use).
_WHY_REFUSED_HOLDS = re.compile(
    rf"({_WHY}(?:both|they|it|these|those|all|each)"
    r"(?:\s+(?:both|all))?\s+(?:contains?|has|have|uses?|includes?)\s+)"
    r"((?:some|a\s+lot\s+of|lots\s+of|hidden|added)?\s*[\w-]+(?:\s+[\w-]+)?)(?=\s*[.;:!?,)\n]|\s*$)"
)
#: What a product refused usually holds: "skip canned chipotles in adobo; the sauce usually
#: contains garlic and onion" (the list, to its end, is a warning).
_HELD_BY_REFUSED = re.compile(
    # (the product refused, told again: "the sauce", "it"; not "don't buy stock cubes;
    # homemade stock usually has onion", a product recommended)
    rf"({_REFUSAL}[^.!?\n]*?\b(?:it|they|this|that|these|those|the\s+[\w-]+)\s+"
    r"(?:usually|often|normally|typically|generally)\s+"
    r"(?:contains?|includes?|has|have)\s+)([^.;:!?\n)]*)"
)
#: A comparison names the item to say what something else is like: "adds polish where the
#: tie would be", "lengthens the leg the way a heel does".
_COMPARISON = re.compile(
    # (with where: "it won't brown the way it would in an oven")
    r"\bthe\s+way\s+(?:a\s+|an\s+|the\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:does|do|did|would|used\s+to)\b"
    r"(?:\s+(?:in|on|with)\s+(?:a|an|the)\s+[\w-]+)?"
    # what happens to another thing, said to deny it of this one: "sitting at partial charge
    # doesn't damage them the way it sulfates lead-acid"
    r"|(?<=n't\s)[^.;:!?\n]{0,60}?\bthe\s+way\s+(?:it|they|that|this)\s+[a-z]+\s+"
    r"(?:the\s+|a\s+|an\s+|your\s+)?[\w-]+(?:\s+[\w-]+)?"
    # "it's basically what Anki does by hand", "the same spaced-repetition idea that Anki and
    # Quizlet automate": a tool named to say what the advice is like
    r"|\bwhat\s+[\w-]+(?:\s+(?:and|or)\s+[\w-]+)?\s+(?:does|do|did)\b"
    r"|\bthe\s+same\s+(?:[\w-]+\s+){0,2}?(?:idea|principle|method|system|approach|trick|logic)"
    r"\s+(?:that\s+|as\s+)?[\w-]+(?:\s+(?:and|or)\s+[\w-]+)?\s+(?:uses?|automates?|does|do"
    r"|(?:is|are)\s+built\s+on|relies\s+on|rely\s+on)\b"
    # "the covered pot acts like a mini oven": what it is like, not the thing
    r"|\b(?:acts?|acting|works?|behaves?)\s+(?:like|as)\s+(?:a|an)\s+(?:mini\s+|makeshift\s+|small\s+)?[\w-]+"
    r"|\bwhere\s+(?:a|an|the|your)\s+[\w-]+\s+would\s+(?:be|go|sit|normally\s+be)\b"
    # "as a resolution, like a rhyme would give you"
    + r"|\blike\s+(?:a|an|the)\s+[\w-]+\s+(?:would|does|did)\b"
    # "it looks almost like sewing-machine stitching", "the same pace and splits a GPS watch
    # would": what the advice is like
    # (not "sounds like garlic would work": a view, whose thing is used)
    r"|\b(?:looks?|feels?|tastes?)\s+(?:almost\s+|just\s+|nearly\s+|a\s+bit\s+"
    r"|much\s+)?like\s+(?:a\s+|an\s+)?[\w-]+"
    r"(?!\s+(?:would|will|could|is|are|might|should|can|works?)\b)(?:\s+[\w-]+){0,2}"
    # "the easy control you'd have on a gas grill": another thing's, supposed
    r"|\byou(?:'d|\s+would)\s+(?:have|get|need)\s+(?:on|with|from|in)\s+(?:a|an)\s+[\w-]+(?:\s+[\w-]+)?"
    r"|\bthe\s+same\s+[^.;,\n]{0,40}?\b(?:a|an)\s+[\w-]+(?:\s+[\w-]+)?\s+would\b"
    # "the carbon footprint is a fraction of a flight's": a measure of the other thing
    r"|\b(?:a\s+)?fraction\s+of\s+(?:a|an|the)\s+[\w-]+['’]s(?!\w)"
    # a price told against it: "costs a fraction of a new phone", "for a fraction of the
    # price of a gym membership" (not "swap a fraction of the flour": an amount used)
    r"|\b(?:costs?|costing|for|at)\s+(?:only\s+|just\s+)?(?:a\s+)?(?:small\s+)?fraction\s+of"
    r"\s+(?:the\s+(?:price|cost)\s+of\s+)?(?:a|an|the)\s+(?:new\s+)?[\w-]+(?:\s+[\w-]+)?"
    # "towels work just as well as blocking mats" (not "butter as well as oil": both used)
    r"|\b(?:just|every\s+bit)\s+as\s+(?:well|good|effective|effectively)\s+as\s+(?:a\s+|an\s+"
    r"|the\s+)?[\w-]+(?:\s+[\w-]+)?|\bas\s+(?:good|effective)\s+as\s+(?:a\s+|an\s+|the\s+)?"
    r"[\w-]+(?:\s+[\w-]+)?"
)
#: A thing that stands in for another: "use your oven as a proofing box" (the oven is used,
#: no proofing box).
_USED_AS = re.compile(
    r"(\b(?:use|using|used|turn|turning)\s+(?:your|the|a|an|my|some)\s+[\w-]+(?:\s+[\w-]+)?\s+)"
    r"(?:as|into)\s+(?:a|an|your)\s+(?:makeshift\s+|diy\s+|improvised\s+|temporary\s+)?"
    r"[\w-]+(?:\s+[\w-]+)?"
)
#: What a product may hold, told as a warning: "brioche often contains milk", "some
#: enriched breads contain egg" (but "this recipe contains butter" is a use). It rules out
#: what follows it in its own clause ("most granolas contain nuts, so add almonds" still
#: adds almonds).
_MAY_CONTAIN = re.compile(
    r"\b(?:often|may|might|can|could|sometimes|usually|commonly|frequently|quietly|secretly)"
    r"\s+(?:contains?|carry|carries)\b"
    # "shop-bought mixes, which almost always include almonds"
    r"|\b(?:almost|nearly)\s+always\s+(?:(?:include|contain)s?|has|have)\b"
    # what some products contain, told as a sentence of its own: "Some sprinkles,
    # ready-made decorations and meringue powder contain egg" (the products too)
    r"|(?:^|(?<=[.!?\n]))\s*(?:[-*•]\s*)?(?:some|many|most|certain|lots\s+of|a\s+lot\s+of"
    r"|plenty\s+of)\s+[^.!?\n;:]{1,80}?\b(?:contains?|includes?)\b"
    r"|\bthere(?:'s|\s+is|\s+are)\s+(?:often|usually|sometimes|commonly)\b"
    # ("some crackers have sesame on them")
    r"|(?<=\bsome\s)(?:[\w-]+\s+){0,3}?(?:contain|use|add|include|have)\b"
    # what many things of a kind have built in: "many outdoor watches, like the Garmin
    # Instinct range, have GPS built in"
    r"|(?<=\b(?:many|most)\s)[^.!?\n;:]{1,70}?\bhave(?=\s+[\w-]+(?:\s+[\w-]+)?\s+built[\s-]in\b)"
    r"|(?:(?<=\b(?:many|most)\s)"
    # "since lots of them contain mustard", "a lot of brands add gelatine", "lots of
    # 'acrylic' yarns are actually blends with wool in them"
    r"|(?<=\blots\sof\s)|(?<=\ba\slot\sof\s)|(?<=\bplenty\sof\s))\s*(?:[\w-]+\s+){0,3}?"
    r"(?:contain|use|add|include|are\s+built\s+(?:around|on)|are\s+based\s+on"
    # what others do: "Plenty of people give up and rehang the doors", "Plenty of your
    # neighbours probably pay dog walkers"
    r"|(?:people|neighbou?rs|owners|parents|families|folk|others)\s+(?:just\s+|simply\s+"
    r"|end\s+up\s+|eventually\s+|probably\s+|often\s+|usually\s+)?"
    r"(?:give\s+up\s+and\s+)?[a-z]+\b"
    # what most of a kind call for or lean on: "Most shortbread calls for butter", "Many
    # designers lean on Instagram"
    r"|calls?\s+for|lean\s+on|rely\s+on|come\s+with"
    # "Most tea loaf recipes soak sultanas ...", "Most raised-bed kits in garden centres come
    # with steel brackets", "Most shop-bought bars are packed with raisins": what recipes,
    # kits or products of a kind do or hold
    r"|(?:[\w-]+\s+){0,2}?(?:recipes|kits|versions|brands|products|sets|bars|mixes|packs|bags)"
    r"(?:\s+(?:in|at|from|on)\s+(?:[\w-]+\s+){0,2}?[\w-]+|\s+online)?\s+(?:soak|scatter|sprinkle"
    r"|use|add|have|stir\s+in|fold\s+in|throw\s+in|ship\s+with|top\s+with|come\s+with"
    r"|are\s+(?:packed|loaded|made|full|stuffed)\s+(?:with|of))"
    r"|are\s+blended\s+with|are\s+(?:actually|often|really|secretly|usually)\s+blends\s+with)\b"
    # what products of a kind usually are: "flat-pack boxes are usually particleboard"
    r"|\bare\s+(?:usually|often|typically|commonly)(?=\s+(?!made\b|used\b|served\b)[\w-]+\b)"
    # where a product is made, told as a cross-contact warning: "made in facilities that
    # also process nuts", "a factory that handles peanuts", "shared equipment with
    # sesame", "cross-contact with tree nuts" (but "a factory that makes peanut butter"
    # tells what the factory makes, unless it "also" does)
    r"|\b(?:facilit(?:y|ies)|factor(?:y|ies)|plants?|kitchens?|baker(?:y|ies))\s+"
    r"(?:(?:that|which|where\s+they)\s+)?(?:process(?:es|ed|ing)?|handl(?:es?|ed|ing)"
    r"|also\s+(?:processes|(?:process|handle|pack|package|produce|manufacture|make|use)[sd]?))\b"
    r"|\bshared\s+(?:equipment|(?:production\s+)?lines?|facilit(?:y|ies)|fryers?)\s+with\b"
    r"|\bmade\s+(?:alongside|near|next\s+to|close\s+to)\b"
    r"|\bcross-?(?:contact|contamination)\s+(?:with|from)\b"
    # what a tool once met: "wash the bowl if it's ever been used with almond flour"
    r"|\b(?:(?:ever|previously|once|before)\s+(?:been\s+)?|(?:has|have|had|'s|'ve)\s+been\s+)"
    r"(?:used|touched|handled)\s+(?:with|for|on)\b"
)
#: Words that negate what follows them (also read by ``membership``).
NEGATORS = frozenset(
    {
        "no",
        "nobody",
        "not",
        "without",
        "never",
        # "plenty of good players rarely roll spike": what others seldom do
        "rarely",
        "seldom",
        "avoid",
        "avoids",
        "avoided",
        "avoiding",
        "skip",
        "skips",
        "skipping",
        "skipped",
        "omits",
        "omitting",
        "excludes",
        "instead",
        "except",
        "excluding",
        "excluded",
        "nor",
        "zero",
        "free",
        "left",
        "leave",
        "omit",
        "omitted",
        "remove",
        "removed",
        "removes",
        # "disable notifications", "mute the group chat"
        "disable",
        "disabled",
        "disables",
        "disabling",
        "mute",
        "muted",
        "than",
        "none",
        "neither",
        "but",
        # "non-rodent options", "Non-medication ideas" ("non" is its own word here).
        "non",
        # Warnings about an excluded item are not uses of it: "check the label for
        # chicken fat", "hidden gluten", "traces of peanuts".
        "hidden",
        "label",
        "labels",
        "traces",
        "trace",
        # a lack or a harm kept away: "the missing degree", "to prevent fungus"
        "missing",
        "prevent",
        "prevents",
        "preventing",
    }
)
#: Words that make a whole sentence a warning about the item, not a use of it: "chicken
#: hides in a lot of foods (chicken fat, chicken broth), so read the label".
#: ("equipment that's been used for barley beers can cross-contaminate")
WARNINGS = frozenset(
    {"hides", "hide", "hidden", "lurks", "sneaks", "traces", "labels"}
    | {f"{cross}contaminat{end}" for cross in ("", "cross-") for end in ("e", "es", "ed", "ion")}
)
#: ... and so does telling the reader to read what a product contains: "check the label,
#: since many beef treats also contain chicken fat", "check the ingredient list for
#: 'fragrance'".
CHECK_CONTENTS = re.compile(
    r"\b(?:check|checking|read|reading|scan|scanning|look\s+at)\s+"
    r"(?:the\s+|each\s+|every\s+|its\s+|their\s+|your\s+)?"
    r"(?:labels?|ingredients?(?:\s+lists?)?|packaging|package|packet|box|small\s+print"
    r"|inci\s+list)\b"
    # "check every flavour you buy: several brands put caffeine in ...": a check, then why
    r"|\bcheck\s+(?:every|each|any|all(?:\s+the)?)\s+[a-z-]+(?:\s+you\s+(?:buy|use|get|pick))?"
    r"(?=\s*:\s*(?:some|several|many|lots\s+of|a\s+lot\s+of|most|plenty\s+of)\s+(?:of\s+them"
    r"|brands?|makers?|manufacturers?|products?|flavou?rs?|versions?|kinds?|types?|varieties)\b)"
)
#: ... or telling the reader to look out for the item: "check any bottled sauces for
#: peanuts", "check your oil and any sauces for peanuts", "watch out for hidden dairy",
#: "be careful with store-bought stock" (not "check the oven and add peanuts for crunch":
#: no instruction between the check and its "for").
_NOT_BETWEEN = (
    r"(?!(?:and|then|but|or|add|use|serve|top|sprinkle|put|stir|cook|fry|bake|toss|mix)\b)"
)
LOOK_OUT = re.compile(
    r"\b(?:(?:double-)?check(?:ing)?|scan(?:ning)?)\s+"
    rf"(?:(?:and\s+(?=(?:any|all|the|your|every|each)\b))?{_NOT_BETWEEN}[\w'-]+\s+){{0,6}}?for\b"
    r"|\b(?:watch|look|keep\s+an\s+eye)\s+out\s+for\b|\bwatch\s+for\b|\bbeware\s+of\b"
    r"|\bbe\s+(?:careful|wary|cautious)\s+(?:of|with|about)\b"
)
#: Where that telling ends: where an instruction follows it ("check the package for cook
#: time and add the chicken", "read the label, then add ..."), or at a semicolon or a
#: bracket; it goes on past a comma or a colon that says why or what ("check the label,
#: since ...", "read the ingredients: some list chicken extract").
_TELLING_END = re.compile(
    r"[;!?()]|\bthen\b"
    r"|(?:\b(?:and|but|or|so)\s+|,\s*(?:so\s+)?)(?=(?:add|use|cook|roast|bake|stir|mix|put|serve|try|buy|get"
    r"|make|fry|boil|pour|top|season|place|heat|choose|swap|toss|grill|sprinkle|fold|whisk"
    r"|blend|drop|set|leave|keep|store|apply|wear|take|pack|bring|fill|rub|wash)\b)"
)


#: A heading that labels checks for the item ("gluten checks: ...", "nut watch-outs:"): the
#: item named there is what to check for, no use of it.
_CHECK_HEADING = re.compile(
    r"^\s*(?:[\w'-]+\s+){0,3}?(?:checks?|watch-?outs?|warnings?|cautions?|alerts?|safety)\s*:"
)
#: What a product contains, then the advice to do without it: "regular worcestershire sauce
#: contains anchovies, so skip it or buy a vegetarian version", "many gift baskets include
#: wine, so check the contents" (the anchovies, the wine are a warning).
_CONTAINS_SO = re.compile(
    r"\b(?:contains?|containing|includes?|has|have|is\s+made\s+with|are\s+made\s+with"
    r"|xmaycontainx)\s+"
    # the advice is about the product named: "so skip it", "so don't use it" (not "has
    # butter, so don't use margarine either": a use)
    r"[^.;:!?]{1,80}?,?\s+so\s+(?:(?:you\s+)?(?:(?:skip|avoid|leave|swap|replace|drop|omit)"
    r"|(?:don't|do\s+not|never)\s+use)\s+(?:it|them|that|those|this|these)\b"
    r"|check\s+(?:the\s+)?(?:contents|labels?|ingredients|box|packet)\b"
    r"|(?:use|buy|get|choose|pick|look\s+for)\s+(?:a|an)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:one|version|brand)\b)"
)


def unwarned(sentence: str) -> str:
    """A (lower-cased) sentence less each clause that tells the reader what to look for on
    a label or to look out for ("check the label for chicken fat", "check any bottled sauces
    for peanuts"): what it names is no use of it. What comes before or after that clause
    still counts ("roast the chicken, then read the label"; "check the package for cook
    time and add the chicken")."""
    kept: list[str] = []
    heading = _CHECK_HEADING.match(sentence)
    pos = heading.end() if heading else 0
    if (so := _CONTAINS_SO.search(sentence, pos)) is not None:
        sentence = sentence[: so.start()] + " " * (so.end() - so.start()) + sentence[so.end() :]
    while True:
        found = [
            m for m in (CHECK_CONTENTS.search(sentence, pos), LOOK_OUT.search(sentence, pos)) if m
        ]
        if not found:
            break
        m = min(found, key=lambda x: x.start())
        end = _TELLING_END.search(sentence, m.end())
        stop = end.start() if end else len(sentence)
        kept.append(sentence[pos : m.start()] + " , ")
        pos = max(stop, m.end())
    return "".join(kept) + sentence[pos:]


_AFTER_NEGATORS = frozenset(
    {
        "free",
        "not",
        "excluded",
        "omitted",
        "removed",
        "removal",
        "alternative",
        "alternatives",
        "substitute",
        "substitutes",
        "less",
        # what was tried and did not work: "since confiscation backfired"
        "backfired",
        "backfires",
        "failed",
        # "since Lua is unavailable"
        "unavailable",
        # "your 401(k) and IRA stay untouched"
        "untouched",
        # "since bonfires are banned on your plot"
        "banned",
        "forbidden",
        "prohibited",
    }
)
#: "when traffic is light": little of it (but "on low for 8 hours" is a setting).
_LITTLE = frozenset(
    {"light", "lighter", "low", "lower", "quiet", "quieter", "minimal", "scarce", "rationed"}
)
_COPULAS = frozenset({"is", "are", "was", "were", "stays", "remains", "gets"})
_PAST_LIKES = frozenset({"liked", "enjoyed", "loved"})
#: Past participles without "-ed": "pre-made", "pre-built", "pre-cut".
_DONE = frozenset({"made", "built", "cut", "done", "set", "sewn", "grown"})
_WHEN = frozenset({"when", "while", "if", "once"})
_SUFFIXES = ("ly", "ions", "ion", "ive", "ing", "ed", "es", "s", "e")
_FILLER = frozenset({"a", "an", "the", "of", "by", "to", "for", "in", "on", "with", "my"})
NEGATION_WINDOW = 6


#: Plurals no suffix rule undoes, read as their singular: "no cacti" rules out a Christmas
#: cactus, "no mice" a mouse, "no leaves" a leaf ("potatoes", "tomatoes" stem as they are).
#: Not "people", "men", "women": in an answer they are people in general ("most people",
#: "men and women"), and an item named by a person word ("that person", "a morning
#: person") is who someone is, not a thing an answer uses.
IRREGULAR_PLURALS = {
    "cacti": "cactus",
    "fungi": "fungus",
    "octopi": "octopus",
    "nuclei": "nucleus",
    "larvae": "larva",
    "mice": "mouse",
    "lice": "louse",
    "geese": "goose",
    "teeth": "tooth",
    "feet": "foot",
    "leaves": "leaf",
    "knives": "knife",
    "loaves": "loaf",
    "halves": "half",
    "wolves": "wolf",
    "shelves": "shelf",
    "hooves": "hoof",
    "scarves": "scarf",
    "thieves": "thief",
    "children": "child",
}


#: Irregular forms of the acts a request most often rules out, read as the verb: "don't
#: want to fly" and "book a flight", "rather not drive" and "we drove" meet.
_ACT_FORMS = {
    **dict.fromkeys(("flight", "flights", "flew", "flown"), "fly"),
    "drove": "drive",  # (not "driven": "data-driven")
    **dict.fromkeys(("rode", "ridden"), "ride"),
    **dict.fromkeys(("swam", "swum", "swimming"), "swim"),
    **dict.fromkeys(("ate", "eaten"), "eat"),
    **dict.fromkeys(("drank", "drunk"), "drink"),
}


#: British spellings and their American twins, by family: each family's forms are made in
#: parallel ("colour", "colours", "coloured", "colourful" and "color", "colors", "colored",
#: "colorful"), so that every form of a word meets its twin and no other word. A listed
#: family only: a rule by ending would join words that only look alike ("surprise" is no
#: "-ize" verb, and would meet "prize"). Not where the British word has a sense its twin
#: lacks in use: "programme" (a course, a show), "mould" (a tin, a trim, to shape),
#: "savoury" (not sweet; "savory" is also a herb), "metre" (a meter is also a device).
_OUR_WORDS = (
    "colour flavour favour behaviour neighbour honour humour labour harbour odour vapour"
    " rumour armour tumour vigour parlour glamour endeavour splendour"
)
_OUR_ENDS = "s ed ing ings ful fully less able ably er ers ite ites y ies hood hoods"
_ISE_WORDS = (
    "organis realis recognis apologis prioritis minimis maximis optimis customis categoris"
    " summaris memoris emphasis criticis specialis standardis sanitis moisturis personalis"
    " finalis utilis visualis authoris computeris energis fertilis sterilis stabilis neutralis"
    " caramelis tenderis pressuris winteris harmonis modernis socialis vaporis familiaris"
    " capitalis characteris digitalis normalis localis itemis italicis synchronis"
)
_YSE_WORDS = "analys paralys catalys"
#: (not "metre": a unit, and "meter" is also a device: "no meters" is no "few centimetres")
_TRE_WORDS = "centre litre theatre fibre calibre lustre"
_LL_WORDS = "travel cancel label model fuel level signal total channel tunnel jewel marvel"
_WORD_TWINS = {
    "grey": "gray",
    "aluminium": "aluminum",
    "yoghurt": "yogurt",
    "jewellery": "jewelry",
    "pyjama": "pajama",
    "doughnut": "donut",
    "coeliac": "celiac",
    "defence": "defense",
    "licence": "license",
    "practise": "practice",
    "catalogue": "catalog",
    "dialogue": "dialog",
    "analogue": "analog",
    "cosy": "cozy",
    "manoeuvre": "maneuver",
    "anaemia": "anemia",
    "diarrhoea": "diarrhea",
    "oestrogen": "estrogen",
    "plough": "plow",
    "sceptical": "skeptical",
}


def _twin_forms() -> dict[str, str]:
    """Every listed British form with its American twin."""
    twins: dict[str, str] = {}
    for word in _OUR_WORDS.split():
        us = word[:-3] + "or"
        for end in ("", *_OUR_ENDS.split()):
            twins[word + end] = us + end
    for root in _ISE_WORDS.split():
        for end in ("e", "es", "ed", "ing", "er", "ers", "ation", "ations"):
            twins[root + end] = root[:-1] + "z" + end
    for root in _YSE_WORDS.split():
        for end in ("e", "es", "ed", "ing", "er", "ers"):
            twins[root + end] = root[:-1] + "z" + end
    for word in _TRE_WORDS.split():
        us = word[:-2] + "er"
        for uk_end, us_end in (("", ""), ("s", "s"), ("d", "ed"), ("ing", "ing")):
            uk = word + uk_end if uk_end != "ing" else word[:-1] + "ing"
            twins[uk] = us + us_end
    for word in _LL_WORDS.split():
        for end in ("ed", "ing", "er", "ers"):
            twins[word + "l" + end] = word + end
    for uk, us in _WORD_TWINS.items():
        twins.update(_listed_forms(uk, us))
    return twins


def _listed_forms(uk: str, us: str) -> dict[str, str]:
    """A listed word's forms with their twins: "practise", "practises", "practised",
    "practising" and "practice", "practices", "practiced", "practicing"."""
    forms = {uk: us, uk + "s": us + "s"}
    uk_trunk = uk[:-1] if uk.endswith("e") else uk
    us_trunk = us[:-1] if us.endswith("e") else us
    for end in ("ed", "ing", "y"):
        forms.setdefault(uk_trunk + end, us_trunk + end)
    return forms


_TWINS = _twin_forms()


def stem(word: str) -> str:
    """A crude stem: strip up to three common suffixes, keeping at least three letters (an
    irregular plural is read as its singular first: "cacti" and "cactus" stem alike; a
    British spelling as the American one: "colour" and "color")."""
    w = word.lower().removesuffix("'s")  # "lodash's cloneDeep", "garlic's bite"
    w = IRREGULAR_PLURALS.get(w, w)
    w = _TWINS.get(w, w)
    w = _ACT_FORMS.get(w, w)  # "a flight" is flying, "we drove" driving
    # "berries" and "berry", "cherries" and "cherry", "ferries" and "ferry" stem alike (after
    # r, l, n, t only: "agencies" stems as before, and is no "agency margin")
    if len(w) > 5 and w.endswith("ies") and w[-4] in "rlnt":
        w = w[:-3] + "y"
    for _ in range(3):
        for suffix in _SUFFIXES:
            if w.endswith(suffix) and len(w) - len(suffix) >= 3:
                w = w[: -len(suffix)]
                break
    return w


#: A compound ("walnut" for "nut") needs a real word before the term, not "mi" in "minute".
MIN_COMPOUND_PREFIX = 3
#: ... and a short head: "peanut" has a nut, "buttermilk" milk, but a longer word at the end
#: of another is mostly chance ("placement" is no cement, "headteacher" no teacher,
#: "bodyweight" no weights).
MIN_COMPOUND_HEAD = 3
MAX_COMPOUND_HEAD = 5


#: Words that name no item, though an item's crude stem may equal theirs ("note" and "not"):
#: never a mention ("can" stays: "a can of chickpeas" is one).
_NEVER_ITEMS = frozenset({"not", "cannot", "nor"})
#: Words that end as a term does by chance, no compound of it: "virgin" holds no gin.
_NO_COMPOUNDS = frozenset(
    "virgin virgins origin origins margin margins plugin plugins login logins".split()
)


def _matches(token: str, term_stem: str) -> bool:
    if token.lower() in _NEVER_ITEMS:
        return False
    s = stem(token)
    if s == term_stem:
        return True
    return (
        MIN_COMPOUND_HEAD <= len(term_stem) <= MAX_COMPOUND_HEAD
        and s.endswith(term_stem)
        and len(s) - len(term_stem) >= MIN_COMPOUND_PREFIX
        and token.lower() not in _NO_COMPOUNDS
    )


def _negator_at(tokens: list[str], clauses: list[int], j: int, i: int) -> bool:
    t = tokens[j]
    if t == "pre":  # "pre-soldered pins": done already ("pre-drill the holes" is to do)
        return j == i - 1 and (tokens[i].endswith("ed") or tokens[i] in _DONE)
    if t == "outside":  # "a trip outside Colorado" (but "sit outside with a glass of wine")
        near = j == i - 1 or (j == i - 2 and tokens[i - 1] == "of")
        return near and clauses[j] == clauses[i]
    if t == "out" and tokens[j - 1 : j] in (["ruled"], ["rule"], ["ruling"]):
        return j >= i - 3 and clauses[j] == clauses[i]  # "since you've ruled out gas"
    if t == "per":  # "60 g apple sauce per egg": the unit of a swap, not a use
        return j == i - 1
    if t == "self":  # "self-drilling anchors" need no drill
        return j == i - 1
    if t == "free":  # "free of nuts" negates; "a free flashcard app" is a price
        return tokens[j + 1 : j + 2] in (["of"], ["from"])
    if t == "ever":  # "clean the tins well if you ever bake with nuts": a case named after a
        # precaution (not "if you ever want crunch, add walnuts", nor "If you ever have
        # leftover chicken, shred it into the soup": advice)
        return (
            tokens[max(0, j - 2) : j] in (["if", "you"], ["case", "you"])
            and clauses[j] == clauses[i]
            and j >= 3
            and tokens[0] in _PRECAUTIONS
        )
    if t in _REMOVALS:  # "uninstall Chrome" (not "uninstall Norton and use Windows Defender")
        return j >= i - 3 and clauses[j] == clauses[i] and _JOINS.isdisjoint(tokens[j + 1 : i])
    if t in _PAST_LIKES:  # "if you liked Pandemic" (but "If you liked Catan, Pandemic ...")
        return j > 0 and tokens[j - 1] in ("you", "you've", "you'd") and clauses[j] == clauses[i]
    setting_aside = _sets_aside(tokens, clauses, j, i)
    if setting_aside is not None:
        return setting_aside
    return _plain_negation(tokens, clauses, j, i)


#: What a thing holds or is made of, after "in case": "in case the spare kit contains latex".
_CASE_HOLDS = frozenset("contains contain has have includes include uses use is are".split())


#: What a thing is made of, after "whether" or "if": "ask whether their dishes contain butter".
_MADE_OF = frozenset("contains contain includes include".split())
#: The most words between what holds the term and the term: "contain butter or cream".
_HELD_GAP = 4
#: How far back "in case" may open the clause: "in case any of the dips or bakes contain
#: butter".
_CASE_REACH = 14


#: People whose habits an answer may tell of: "Couples who hire a planner usually get a
#: day-of coordinator" (what they do, no advice).
_OTHER_PEOPLE = frozenset(
    "people couples parents families folk others players runners riders owners beginners"
    " those anyone many most some".split()
)


#: Other people's recipes and guides, which say what they use: "many modern recipes call
#: for ...", "most guides use ..." (with a word of ``_OTHER_PEOPLE`` before them).
_SOURCES = frozenset("recipes guides methods versions tutorials kits books videos".split())
_SOURCE_SAYS = frozenset("call use add include suggest need want say tell".split())
#: ... told as others': "many", "most", "other", "modern", "quicker", "you'll see".
_OTHERS_OF_A_KIND = _OTHER_PEOPLE | frozenset(
    "other modern quick quicker faster standard typical commercial see".split()
)


def _what_others_do(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether the term ``i`` is done or had by others the clause names: "Couples who hire a
    planner ...", "people who use a gel saddle ...", "Many modern recipes call for ...", or
    set against with "unlike" up to ten words back in its clause ("unlike a backpack,
    these ...", "Unlike quick recipes that use ..."; not "Unlike other budgeting apps,
    YNAB ...": still one of them)."""
    for j in range(i - 1, max(-1, i - 11), -1):
        if clauses[j] != clauses[i]:
            return False
        if tokens[j] == "unlike":  # "Unlike quick recipes that use a pinch of dried yeast,
            # this ..." (but "Unlike other budgeting apps, YNAB ..." is still one of them)
            return "other" not in tokens[j + 1 : i]
        if tokens[j] == "who" and tokens[j - 1] in _OTHER_PEOPLE and j >= i - 5:
            return True
        # "Many modern recipes call for a sachet of fast-action yeast", "You'll see quicker
        # recipes that use dried yeast"
        if tokens[j] in _SOURCE_SAYS and j > 0:
            k = j - 2 if tokens[j - 1] in ("that", "which") else j - 1
            if k >= 0 and tokens[k] in _SOURCES:
                return not _OTHERS_OF_A_KIND.isdisjoint(tokens[max(0, k - 3) : k])
    return False


#: What a concession says of a thing before "but" turns from it: "Used Fuji bodies are common
#: on eBay, but buying new gets you the warranty".
_CONCEDED = frozenset(
    "common plentiful everywhere cheap cheaper tempting popular available easy".split()
)


def _conceded(tokens: list[str], i: int) -> bool:
    """Whether the term ``i`` is the subject of a concession that the sentence turns from
    with "but": "X are common / cheaper / tempting ..., but ..."."""
    ahead = tokens[i + 1 : i + 9]
    if "but" not in ahead:
        return False
    said = ahead[: ahead.index("but")]
    return any(
        w in ("is", "are") and said[k + 1 : k + 2] and said[k + 1] in _CONCEDED
        for k, w in enumerate(said)
    )


def _in_case_it_holds(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether the term ``i`` is what some thing may hold, in a clause "in case" opens: a
    precaution, no use ("tell the coach in case anyone's spare kit contains latex"; not
    "in case you want to use latex")."""
    for j in range(i - 1, max(0, i - _CASE_REACH), -1):
        if clauses[j] != clauses[i]:
            return False
        # (also "ask whether their dishes contain butter": what a thing is made of, not
        # whether it is there to use, "check if the bait shop has live shrimp")
        if tokens[j] == "case" and tokens[j - 1] == "in":
            holds = _CASE_HOLDS
        elif tokens[j] in ("whether", "if"):
            holds = _MADE_OF
        else:
            continue
        between = tokens[j + 1 : i]
        at = max((k for k, w in enumerate(between) if w in holds), default=None)
        # (the term just after what holds it: not "if the dough has doubled and then brush
        # it with melted butter")
        return between[0] != "you" and at is not None and len(between) - at <= _HELD_GAP
    return False


def _plain_negation(tokens: list[str], clauses: list[int], j: int, i: int) -> bool:
    """Whether the negation word at ``j`` ("no", "avoid", "don't", ...) rules out ``i``."""
    t = tokens[j]
    if not (t in NEGATORS or t.endswith("n't")):
        return False
    if t in ("but", "except") and any(
        tokens[k] == "nothing" and clauses[k] == clauses[j] for k in range(max(0, j - 8), j)
    ):
        return False  # "a martini has nothing in it but gin and vermouth": only them
    idiom = tokens[j + 2 : j + 3] if tokens[j + 1 : j + 2] == ["a"] else tokens[j + 1 : j + 2]
    if t in ("no", "without") and idiom and idiom[0] in _NO_IDIOMS:
        return False  # "No problem, oats, bananas and peanut butter make a great base"
    return not _turned(tokens, clauses, j, i)


def _turned(tokens: list[str], clauses: list[int], j: int, i: int) -> bool:
    """Whether a later clause between a negation at ``j`` and the term at ``i`` opens by
    turning to what is used: "skip the walnuts, add pecans" (the negation's clause has its
    object; not "Do not, under any circumstances, use bleach", where "use" is what is
    negated, nor "avoid sugar, so honey is out too")."""
    if not any(clauses[k] == clauses[j] for k in range(j + 1, i)):
        return False  # "don't," / "never, ever": the verb comes later
    for k in range(j + 1, i):
        if clauses[k] == clauses[j] or clauses[k - 1] == clauses[k]:
            continue  # only a word that opens its clause turns
        if _turns_at(tokens, k):
            return True
    return False


def _turns_at(tokens: list[str], k: int) -> bool:
    """Whether the word at ``k`` turns to what is used: "just olive oil", "add pecans", "so
    use oil" (not "just as importantly", "so honey is out too")."""
    t, after = tokens[k], tokens[k + 1 : k + 3]
    if t in _TURN_OPENERS:
        return not (t in ("just", "only") and after[:1] in _NOT_TURNING)
    if t == "so" and _STILL_OUT.isdisjoint(tokens[k + 1 :]):
        return True  # "No gluten, so rice, potatoes or quinoa" (not "..., so gin and rum are off")
    return t in _TURN_IF_ADVISED and not _ADVISE.isdisjoint(after)


#: Words that may open a later item of a list: "wool, merino or other animal fibres".
_LIST_OPENERS = frozenset("or and other".split())


def _listed_after(tokens: list[str], clauses: list[int], j: int, i: int) -> bool:
    """Whether token ``i`` is a later item of a short list that starts right after ``j``,
    in a later clause: "quietly contain wool, merino or other animal fibres" (items of a
    word or two; not "some breads contain milk, add butter": a clause of its own)."""
    if j < i - 6 or clauses[i] - clauses[j] > 3:
        return False
    own = [tokens[k] for k in range(j + 1, i) if clauses[k] == clauses[i]]
    if own and (len(own) > 3 or own[-1] not in _LIST_OPENERS):
        return False  # "..., cream or butter" is listed; "..., add butter" is not
    return all(
        sum(1 for k in range(j + 1, i) if clauses[k] == c) <= 2
        for c in range(clauses[j], clauses[i])
    )


def _held_by_warning(tokens: list[str], clauses: list[int], j: int, i: int) -> bool:
    """Whether token ``i`` is what a product may contain, told at ``j``: in its clause, near
    and before any "so", "and", "but", or an item of the short list after it."""
    if clauses[j] != clauses[i]:
        return _listed_after(tokens, clauses, j, i)
    between = tokens[j + 1 : i]  # ("has raisins or dried apricot": the list's next item)
    # (past a measure: "many modern recipes call for a sachet of fast-action yeast"; ``j``
    # is within ``NEGATION_WINDOW`` of ``i`` already)
    measure = "of" in between[1:4]
    near = j >= i - 3 or measure or (j >= i - 5 and ("or" in between or _listed_with_and(between)))
    return near and not {"so", "but"} & set(between)


#: Verbs that open a new clause after "and" ("many bars contain wheat and add butter").
_AND_THEN = frozenset("add use stir mix try make keep swap put serve top bake cook".split())


def _listed_with_and(between: list[str]) -> bool:
    """Whether the words between a warning and an item list it after an "and" ("loaded
    with raisins and dried apricots"), not a new clause ("contain wheat and add butter")."""
    if "and" not in between:
        return False
    at = between.index("and")
    rest = between[at + 1 :]
    return at <= 2 and len(rest) <= 1 and not _AND_THEN & set(rest)


def _sets_aside(tokens: list[str], clauses: list[int], j: int, i: int) -> bool | None:
    """Whether the word at ``j`` names token ``i`` without using it (a lack, a likeness, a
    swap, a warning), or ``None`` when it is no such word."""
    t = tokens[j]
    if "other" in tokens[j + 1 : i]:  # "different from other apps": still one of them
        return False if t in _NEAR or t == "different" else None
    if t in _NEAR:  # "the lack of chlorine", "mimics the stitch a sewing machine makes"
        return j >= i - _NEAR[t] and clauses[j] == clauses[i]
    if t == _MAY_HOLD:  # "many bars contain wheat" (not past the clause or "so", "and")
        return _held_by_warning(tokens, clauses, j, i)
    if t in ("similar", "alternative", "alternatives"):  # "similar (texture) to chicken", "an
        return "to" in tokens[j + 1 : j + 3] and j >= i - 5  # alternative to nuts" (not "the
        # best alternative is")
    if t == "different":  # "very different from Duolingo's format"
        return tokens[j + 1] in ("from", "to", "than") and j >= i - 4
    if t in ("nothing", "away"):
        return _kept_from(tokens, clauses, j, i)
    if t in _FILTER:  # "comparison sites, filtering out any Amazon sellers" (not "filtering
        # out the chicken bones": a use)
        return (
            tokens[j + 1 : j + 2] == ["out"]
            and tokens[j + 2 : j + 3] in (["any"], ["anything"], ["all"], ["every"])
            and j >= i - 6
            and clauses[j] == clauses[i]
        )
    if t == "clear":  # "steer clear of fashion" (but "clear the bacon fat away")
        return j > 0 and tokens[j - 1] in _STEER
    if t == "like" or (t == "close" and tokens[j + 1 : j + 2] == ["to"]):
        # what something else is like: "feels like down", "looks very close to sashiko
        # thread" (not "a spice like chili")
        return j >= i - (2 if t == "like" else 3) and _compares(tokens, j)
    if t == "place":  # "lamb in place of the pork"
        return j > 0 and tokens[j - 1] == "in" and tokens[j + 1] == "of"
    if t in _REPLACING or t in _SWAPPING:
        return _swapped_away(tokens, clauses, j, i)
    return _other_than(tokens, clauses, j, i)


def _swapped_away(tokens: list[str], clauses: list[int], j: int, i: int) -> bool:
    """Whether the verb at ``j`` gives token ``i`` up: "plant nutrients replacing fish
    waste", "swapping the almond flour for a seed flour" (not "swap in almond flour")."""
    if clauses[j] != clauses[i]:
        return False
    if tokens[j] in _REPLACING:
        return j >= i - 3 and "with" not in tokens[j:i]
    return (
        j >= i - 5  # "Swap the 150 g wheat flour for ..."
        and _SWAP_PARTICLES.isdisjoint(tokens[j + 1 : i])
        # (past where it is: "Swap any almond extract in old recipes for vanilla")
        and any(
            w in ("for", "out") and clauses[k] == clauses[i]
            for k, w in enumerate(tokens[i + 1 : i + 6], i + 1)
        )
    )


#: Verbs that give a thing up for another: "swap the almond flour for a seed flour", "switch
#: the lead weights out" ("substitute X for Y" uses X, so it is not here).
_SWAPPING = frozenset("swap swaps swapping swapped switch switching switched".split())
_SWAP_PARTICLES = frozenset("in for with to into".split())


def _kept_from(tokens: list[str], clauses: list[int], j: int, i: int) -> bool:
    """ "nothing from the cabbage family" (but "nothing beats bacon"); a cross-contact
    warning: "so nothing picks up crumbs from bread", "keep it away from bread"."""
    if tokens[j] == "away":
        return tokens[j + 1 : j + 2] == ["from"] and j >= i - 4 and clauses[j] == clauses[i]
    if tokens[j + 1] in _NOTHING_TOUCHES:
        return j >= i - 6 and clauses[j] == clauses[i]
    # (not "nothing in it but gin and vermouth": what it holds)
    return tokens[j + 1] in NOTHING_OF and NOTHING_BUT.isdisjoint(tokens[j + 1 : i])


#: "besides", "aside from", "apart from": other than what follows (read only after a
#: condition: "allergies besides nuts"; "serve crackers besides the nuts" adds them).
_BESIDES = frozenset({"besides", "aside", "apart"})
#: A change away from what follows "from": "a change from the usual chocolate mousse", "a
#: break from chocolate desserts", "a shift away from heavy cakes".
_CHANGES = frozenset(
    "change changes break departure switch shift respite rest relief move step".split()
)
#: Where what the change goes to begins: "a switch from vanilla to chocolate" uses chocolate.
_CHANGE_TO = frozenset({"to", "into", "for", "with", "so", "and", "but", "then"})


def _besides_a_condition(tokens: list[str], clauses: list[int], j: int, i: int) -> bool:
    if tokens[j] != "besides" and tokens[j + 1 : j + 2] != ["from"]:
        return False
    return (
        j > 0
        and tokens[j - 1] in _CONDITIONS
        and clauses[j - 1] == clauses[j] == clauses[i]
        and j >= i - 4
    )


def _a_change_from(tokens: list[str], clauses: list[int], j: int, i: int) -> bool | None:
    k = j - 1
    if k > 0 and tokens[k] == "away":  # "a shift away from"
        k -= 1
    if k < 0 or tokens[k] not in _CHANGES or clauses[k] != clauses[j]:
        return None
    return j >= i - 4 and clauses[j] == clauses[i] and _CHANGE_TO.isdisjoint(tokens[j + 1 : i])


def _other_than(tokens: list[str], clauses: list[int], j: int, i: int) -> bool | None:
    """Whether the word at ``j`` sets token ``i`` apart from what the answer offers ("allergies
    besides nuts", "a change from the usual chocolate mousse"), or someone else's (below)."""
    if tokens[j] in _BESIDES:
        return _besides_a_condition(tokens, clauses, j, i)
    if tokens[j] == "from":
        return _a_change_from(tokens, clauses, j, i)
    return _not_the_answers(tokens, clauses, j, i)


def _not_the_answers(tokens: list[str], clauses: list[int], j: int, i: int) -> bool | None:
    """Whether the word at ``j`` makes token ``i`` someone else's, what may happen or what
    the request said, not what the answer does; ``None`` when it is no such word."""
    t = tokens[j]
    if clauses[j] != clauses[i]:
        return None
    if t in _OTHERS_OWN or t in _BORROW:  # "a friend's garage", "borrow a drill"
        return j >= i - 3
    if t == "with" and j > 0 and tokens[j - 1] in _OTHERS:  # "ask a friend with a garden"
        return j >= i - 3
    if (
        t == "own"
        and tokens[j - 1 : j] == ["their"]
        and _GROUPS.intersection(tokens[max(0, j - 7) : j])
    ):
        return j >= i - 3  # "members set up their own telescopes"
    if t in _SAID and j > 0 and tokens[j - 1] in _YOU:  # "since you mention painkillers"
        return j >= i - 4
    if t in _IF and (tokens[j + 1] in _HAPPENS or tokens[j + 1 : j + 3] in _YOU_SEE):
        return j >= i - 6  # "if she spikes a fever", "if you see fungus inside"
    return None


#: Who else may have what the request's writer has not, or is not to use: "a friend's
#: garage", "a neighbouring lab with a -80 freezer" (read only within the item's clause).
_OTHERS = frozenset(
    "friend friends neighbour neighbours neighbor neighbors someone somebody colleague"
    " colleagues relative relatives family lab labs facility facilities library libraries"
    " club shop shops".split()
)
_OTHERS_OWN = frozenset(f"{w}'s" for w in _OTHERS)
#: Other people whose "own" things are theirs: "members set up their own telescopes".
_GROUPS = frozenset(
    "members owners volunteers staff others people society club observers enthusiasts"
    " players locals hosts".split()
)
_BORROW = frozenset({"borrow", "borrowing", "borrowed", "borrows"})
#: What the answer repeats from the request, or what the asker met: "since you mention
#: taking painkillers", "the same seam-swelling problem you saw with vinyl".
_SAID = frozenset("mention mentioned mentions said say describe described saw experienced".split())
_YOU = frozenset({"you", "you've", "you'd"})
#: What may happen, not what the answer does: "if she spikes a fever, call the vet".
_IF = frozenset({"if", "unless"})
_HAPPENS = frozenset("she he it they there she's he's it's they're there's".split())
_YOU_SEE = (["you", "see"], ["you", "notice"], ["you", "spot"], ["you", "find"], ["you", "hear"])


#: Words that rule out only what is close after them in their clause: "the lack of
#: chlorine", "options beyond hostels", "mimics the stitch a sewing machine makes" (but
#: "if your soup lacks depth, add some bacon" adds bacon).
_NEAR = {
    "lack": 3,
    "lacks": 3,
    "lacking": 3,
    "beyond": 3,
    "mimics": 6,
    "mimic": 6,
    "imitates": 6,
    "resembles": 6,
    "replicates": 6,
}
#: What ``_MAY_CONTAIN`` is read as.
_MAY_HOLD = "xmaycontainx"
#: "nothing from", "nothing with", "nothing to drill": none of what follows.
#: After "nothing ...", what there is all the same: "nothing in it but gin".
NOTHING_BUT = frozenset({"but", "except", "besides", "apart"})
NOTHING_OF = frozenset(
    {"from", "with", "of", "containing", "to", "in", "that", "made", "here", "needs", "requires"}
)
_FILTER = frozenset("filter filters filtering filtered screen screens screening".split())
#: What nothing does to the item in a cross-contact warning: "so nothing picks up crumbs from
#: bread", "make sure nothing touches the peanuts".
_NOTHING_TOUCHES = frozenset("picks pick touches touch contacts absorbs catches brushes".split())
_STEER = frozenset({"steer", "steers", "steering", "steered"})
#: Verbs of likeness before "like": "behaves a lot like oils", "feels like down".
_LIKENESS_VERBS = frozenset(
    "feel feels felt taste tastes tasted smell smells behave behaves behaved act acts handle"
    " handles perform performs look looks looked".split()
)
#: Words that make "like" a comparison whatever comes before: "much like pothos".
_AS_MUCH = frozenset({"much", "lot", "exactly", "just"})
_DEGREE = frozenset({"a", "lot", "bit", "little", "much", "just", "exactly", "more", "very"})
_REPLACING = frozenset({"replacing", "replaces", "replace", "replaced"})


def _compares(tokens: list[str], j: int) -> bool:
    if j > 0 and tokens[j - 1] in _AS_MUCH:  # "trail much like pothos", "just like butter"
        return True
    k = j - 1
    while k >= 0 and tokens[k] in _DEGREE and j - k <= 3:
        k -= 1
    return k >= 0 and tokens[k] in _LIKENESS_VERBS


#: A condition named by the item: "safe for a milk allergy", "a tree-nut and peanut allergy"
#: (what the reader must avoid, not a use).
_CONDITIONS = frozenset({*ALLERGY_NOUNS, "sensitivity"})


def _condition_after(tokens: list[str], clauses: list[int], i: int) -> bool:
    after = tokens[i + 1 : i + 4]
    if after[:1] and after[0] in _CONDITIONS:
        return True
    # "tree-nut and peanut allergy": one more item of the same list in between
    return (
        len(after) == 3
        and after[0] in ("and", "or")
        and after[2] in _CONDITIONS
        and clauses[i] == clauses[i + 3]
    )


_GIVEN = frozenset({"if", "since", "because", "given", "with"})
_OFF_LIMITS = (["the", "table"], ["the", "list"], ["the", "menu"], ["the", "cards"])


#: What sets aside a list to its clause's end: "Instead of the usual roast carrots and
#: parsnips, go for ...", "Skip crafts with egg boxes or toilet-roll tubes".
_SET_ASIDE_OPENERS = (["instead", "of"], ["rather", "than"], ["in", "place", "of"])
#: Words after which "skip" or "avoid" still opens its clause: "and skip the ...".
_THEN = frozenset("and or just also then so but please".split())
#: Words after a skip that open another act or a reason: "skip the crowds and take the
#: route that has ladders", "avoid the motorised shades because ... a corded roller does
#: fine".
_NEW_ACT = frozenset(
    "take use go try add get make buy book visit pick choose head walk drive do have put that"
    " spend stay see eat stick"
    " which who where because since so but though although if when while does".split()
)
#: How far back in its clause such an opening may stand.
SET_ASIDE_REACH = 10


def _set_aside_list(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether token ``i`` stands in a list set aside by "instead of", "rather than",
    "skip" or "avoid" earlier in its clause, with no turn to a use between ("instead of
    carrots, use parsnips" turns at the comma)."""
    for j in range(i - 1, max(-1, i - SET_ASIDE_REACH), -1):
        if clauses[j] != clauses[i] or tokens[j] in _TURN_OPENERS:
            return False
        opens = j == 0 or clauses[j - 1] != clauses[j] or tokens[j - 1] in _THEN
        # (only a thing that holds the list: "Skip crafts with egg boxes or toilet-roll
        # tubes"; not "Skip Glasgow and spend two days in Edinburgh", nor "Skip the crowds
        # and take the route that has ladders")
        between = tokens[j + 1 : i]
        plain = _NEW_ACT.isdisjoint(between) and not _HOLDING.isdisjoint(between)
        # ("skip peel-and-stick tiles and sheet vinyl entirely": the list sealed by its end)
        sealed = tokens[i + 1 : i + 2] != [] and tokens[i + 1] in _ON_PURPOSE
        if (tokens[j] in ("skip", "avoid") and opens and (plain or sealed)) or any(
            tokens[j - len(o) + 1 : j + 1] == o for o in _SET_ASIDE_OPENERS
        ):
            return True  # (a verb opening its clause: not "book skip-the-line tickets")
    return False


#: What opens the verdict after a list: a copula, "all" or "both" ("caterers, food trucks
#: and the pub buffet all off the table"), or "off" itself.
_ALL_OF_THEM = frozenset({"all", "both"})
_VERDICT_OPENS = _COPULAS | _ALL_OF_THEM | {"off"}


def _ruled_out_after(tokens: list[str], i: int, first: int | None = None) -> bool:
    """ "if cages and tanks are out", "since holes are off the table" (but "once the
    chicken is out of the oven"); a list's first item is read by its last ("since
    campfires and fire pits are out": ``first`` is where the list opens)."""
    if first is None and tokens[i + 2 : i + 3] in (["and"], ["or"]) and i + 1 < len(tokens):
        if tokens[i + 1] not in _VERDICT_OPENS:  # "wool, alpaca and mohair all off the table"
            return _ruled_out_after(tokens, i + 1)
    if tokens[i + 1 : i + 2] in (["and"], ["or"]) and first is None:
        # (to the copula, or to the "all" or "off" of "X and Y all off the table")
        last = next(
            (k for k in range(i + 2, min(len(tokens), i + 6)) if tokens[k] in _VERDICT_OPENS), 0
        )
        return last > i + 2 and _ruled_out_after(tokens, last - 1, i)
    after = [t for t in tokens[i + 1 : i + 6] if t not in _ALL_OF_THEM][:4]
    i = i if first is None else first
    if after[:1] == ["off"]:  # "with thumb compasses off the list"
        return after[1:3] in _OFF_LIMITS or after[1:2] == ["limits"]
    if len(after) < 2 or after[0] not in _COPULAS:
        return False
    if after[1] == "off":
        return after[2:4] in _OFF_LIMITS or after[2:3] == ["limits"]
    # "if cages and tanks are out", "pork is out, so ..." (but "once the chicken is out,
    # rest it" is a step, and "out of the oven" a place)
    given = not _GIVEN.isdisjoint(tokens[max(0, i - 4) : i]) or after[2:3] in ([], ["so"])
    return after[1] == "out" and after[2:3] != ["of"] and given


#: Words beside "left out" that say it was set aside on purpose: "Hanon left out entirely",
#: "deliberately left out" (not "here", which in a recipe is "at this step").
_ON_PURPOSE = frozenset("entirely completely altogether deliberately intentionally".split())
#: What may follow a "left out" on purpose and make it a place or a while: "deliberately
#: left out on the counter", "left out completely until serving", "left out of the fridge".
_LEFT_SOMEWHERE_AFTER = frozenset("of on in at overnight until till to for so".split())
#: What turns it back to a use later in the sentence: "..., but I've added them".
_TURNS_BACK = frozenset("but though although however yet added add".split())


def _left_out(tokens: list[str], i: int) -> bool:
    """ "with Yamaha left out as you asked", "Hanon is left out entirely", "the nuts are
    deliberately left out": set aside on purpose. Not a bare "left out", which in a recipe
    or a guide is as often left on the counter or skipped by others ("make sure the butter
    is left out, then cream it", "in most guides Hanon is left out, but ..."), nor one
    with a place or a while after it, nor one a later "but" takes back."""
    k = i + 1
    while tokens[k : k + 1] and tokens[k] in _COPULAS | {"has", "have", "been"}:
        k += 1
    purpose = tokens[k : k + 1] != [] and tokens[k] in _ON_PURPOSE  # "deliberately left out"
    k += int(purpose)
    if tokens[k : k + 2] != ["left", "out"] or not _TURNS_BACK.isdisjoint(tokens[k + 2 :]):
        return False
    rest = tokens[k + 2 :]
    if rest[:1] and rest[0] in _ON_PURPOSE:  # "left out entirely"
        purpose, rest = True, rest[1:]
    if rest[:1] and rest[0] in _LEFT_SOMEWHERE_AFTER:
        return False  # "left out on the counter", "left out until serving"
    # "as you asked", "as you requested", "as requested"
    as_asked = (
        rest[:1] == ["as"]
        and rest[1:2] in (["you"], ["requested"])
        and rest[2:3] in ([], ["asked"], ["requested"])
    )
    return purpose or as_asked


_KEEP = frozenset({"keep", "keeps", "kept", "keeping"})
#: Where "keep X out of ..." keeps X away ("keep the phone out of the bedroom", "keeping
#: the phone out of it entirely"), not a place it is taken from ("out of the fridge").
_AWAY_FROM = frozenset(
    "it them this reach sight bed bedroom bedrooms room rooms house home kitchen way picture"
    " loop nursery office car".split()
)
#: Verbs that put a thing somewhere: "charge your phone in another room overnight".
_PUT = _KEEP | frozenset(
    "put puts putting leave leaves leaving charge charging store storing stash park".split()
)
#: Where a thing put is away from the asker: "in another room", "outside the bedroom", "in
#: a drawer" (not "on the table", "by the bed": at hand).
_AWAY_PLACES = (
    ("in", "another", "room"),
    ("in", "a", "different", "room"),
    ("in", "the", "other", "room"),
    ("in", "a", "drawer"),
    ("in", "another", "part"),
    ("outside", "the", "bedroom"),
    ("outside", "your", "bedroom"),
    ("outside", "the", "room"),
    ("out", "of", "sight"),
    ("out", "of", "reach"),
)


def _verb_before(
    tokens: list[str], clauses: list[int], i: int, verbs: frozenset[str], reach: int
) -> bool:
    """Whether one of ``verbs`` stands in token ``i``'s clause, within ``reach`` words
    before it."""
    lo = max(0, i - reach)
    return any(t in verbs and clauses[k] == clauses[i] for k, t in enumerate(tokens[lo:i], lo))


def _kept_out(tokens: list[str], clauses: list[int], i: int) -> bool:
    """ "I've kept all the citrus oils out", "keep the dog out", "keep the phone out of the
    bedroom": kept away, not used (but "keep the chicken out of the fridge" is a place)."""
    after = tokens[i + 1 : i + 6]  # "out" right after the item or one word later
    if "out" not in after[:2]:
        return False
    rest = after[after.index("out") + 1 :]
    place = rest[2:3] if rest[1:2] in (["the"], ["your"], ["my"]) else rest[1:2]
    if rest[:1] == ["of"] and not (place and place[0] in _AWAY_FROM):
        return False
    return _verb_before(tokens, clauses, i, _KEEP, 4)


def _kept_off(tokens: list[str], clauses: list[int], i: int) -> bool:
    """ "Keep the TV and tablets off from dinner onward": kept switched off, not used (not
    "turn the oven off after 20 minutes": it was on)."""
    after = tokens[i + 1 : i + 4]
    if "off" not in after or (after[0] != "off" and after[0] not in ("and", "or", "&")):
        return False
    return _verb_before(tokens, clauses, i, _KEEP, 4)


def _put_away(tokens: list[str], clauses: list[int], i: int) -> bool:
    """ "charge your phone in another room overnight", "leave the phone in a drawer": put
    away from the asker, not used (the verb within three words before the item, the place
    right after it)."""
    after = tuple(tokens[i + 1 : i + 5])
    if not any(after[: len(p)] == p for p in _AWAY_PLACES):
        return False
    return _verb_before(tokens, clauses, i, _PUT, 3)


def negated_after(tokens: list[str], i: int) -> bool:
    """Whether a word just after token ``i`` rules it out ("garlic-free", "garlic isn't",
    "IRA stays untouched"), or "untouched" past a second item ("your 401(k) and IRA stay
    untouched")."""
    after = tokens[i + 1 : i + 3]
    if tokens[i + 1 : i + 5] in (["off", "the", "table"], ["is", "off", "the", "table"]):
        return True  # "Since vinyl's off the table"
    if after[:1] in (["is"], ["are"], ["was"], ["were"]) and after[1:] == ["free"]:
        return False  # "Skype is free for video calls": a price, not an absence
    return (
        any(t in _AFTER_NEGATORS or t.endswith("n't") for t in after)
        or "untouched" in tokens[i + 1 : i + 5]
        or after[:1] in (["warning"], ["warnings"])  # "check the sprinkles for nut warnings"
        or (
            bool(after)
            and after[0] in _LIKENESS_HEADS
            # "dishwasher models like the Comfee", "amp models are": kinds of it, not likenesses
            and not (after[0].startswith("model") and after[1:2] and after[1] in _KINDS_AFTER)
        )
    )


#: Words after "models" that make them kinds of the thing: "models like the Comfee".
_KINDS_AFTER = frozenset("like such from include including are is that which by with".split())
#: Nouns after an item that make it a likeness of the thing: "a multi-effects unit with amp
#: models" or "an amp simulator" is no amp.
_LIKENESS_HEADS = frozenset(
    "model models modelling modeling modeler modeller sim sims simulator simulators simulation"
    " emulator emulators emulation emulations".split()
)


#: How far after an item a word may set it aside by a back-reference ("toasted almonds:
#: leave those out").
BACKREF_WINDOW = 8
_BACK_PLURAL = frozenset({"them", "those", "these"})
_BACK_SINGULAR = frozenset({"it"})
_LEAVE_VERBS = frozenset({"leave", "leaving", "left", "keep", "keeping", "kept"})
_DROP_VERBS = frozenset(
    "skip skipping skipped omit omitting omitted ditch ditching ditched forgo nix drop dropped"
    " dropping".split()
)
#: Words before the verb that make the back-reference a use: "don't skip it", "don't
#: leave them out".
_NOT_BEFORE = frozenset("don't dont never not won't didn't mustn't shouldn't".split())
#: Words after a back-reference that open a clause of their own: "without those the yolks
#: still make it creamy" ("those" is a pronoun there, not "those steps").
_NEW_CLAUSE = frozenset("the a an you your we i they this".split())
_SWAP_VERBS = frozenset(
    "swap swapping switch switching replace replacing substitute substituting sub subbing"
    " trade trading exchange".split()
)
#: Words after "leave them out" that make it a step, not a setting aside: "leave them out
#: overnight", "leave it out on the counter", "leave them out to cool".
_LEFT_SOMEWHERE = frozenset(
    "of on in at to overnight until till for onto under uncovered somewhere".split()
)
#: Words that may follow a back-reference that sets aside ("skip them if ...", "omit it
#: entirely"); any other word after it makes the pronoun a determiner ("skip those steps").
_AFTER_BACKREF = frozenset(
    "if and or for with entirely completely altogether instead out off when unless to but so"
    " too as from though here there next then".split()
)


def _plural(token: str) -> bool:
    return token in IRREGULAR_PLURALS or (token.endswith("s") and not token.endswith("ss"))


def _set_aside_after(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether a back-reference soon after token ``i`` in its sentence sets it aside:
    "toasted almonds: leave those out completely", "skip them", "omit it", "swap them for
    pumpkin seeds", "instead of those, ..." (the pronoun agreeing with the item: "them" for
    "almonds", "it" for "garlic"; not "leave them out overnight", "skip those steps")."""
    fit = _BACK_PLURAL if _plural(tokens[i]) else _BACK_SINGULAR
    if tokens[i - 1 : i] == ["and"] and i > 1:
        fit = fit | _BACK_PLURAL  # "pecorino and parmesan, but leave those out": a list
    end = min(len(tokens), i + 1 + BACKREF_WINDOW)
    for k in range(i + 1, end):
        if k + 1 >= len(tokens) or tokens[k + 1] not in fit or tokens[k - 1] in _NOT_BEFORE:
            continue
        t, p = tokens[k], k + 1
        after = tokens[p + 1 : p + 2]
        ends = (
            not after
            or clauses[p + 1] != clauses[p]
            or after[0] in _AFTER_BACKREF
            or after[0] in _NEW_CLAUSE
        )
        if t in _LEAVE_VERBS:
            # ("... all count, so leave them packed away")
            stowed = p + 1 < len(tokens) and tokens[p + 1] in _STOWED
            out = tokens[p + 1 : p + 2] in (["out"], ["off"]) or (
                stowed and tokens[p + 2 : p + 3] == ["away"]
            )
            if out and tokens[p + 2 : p + 3] and tokens[p + 2] in _LEFT_SOMEWHERE:
                continue
            if out:
                return True
        elif t in _DROP_VERBS or t in ("without", "minus"):
            if ends:
                return True
        elif t in _SWAP_VERBS:
            if after and after[0] in ("for", "with", "out"):
                return True
        elif t == "of" and tokens[k - 1] == "instead" and ends:
            return True
    return _ruled_out_by_reader(tokens, i)


#: "Leaving Disney aside", "setting the theme parks to one side" (not "set the bacon
#: aside", a step of a recipe that keeps it for later).
_ASIDE_VERBS = frozenset("leaving setting putting".split())


def _left_aside(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether token ``i`` is left aside in its clause: a verb of leaving before it (at most
    three words back) and "aside" or "to one side" right after it, or "leaving X out" ending
    its clause ("Leaving Monopoly out, here are ..."); or named in what the answer says to
    skip ("Skip the Lac Blanc approach, which has ladders")."""
    after = tokens[i + 1 : i + 4]
    out = after[:1] == ["out"] and (i + 2 >= len(tokens) or clauses[i + 2] != clauses[i])
    if after[:1] == ["aside"] or after == ["to", "one", "side"] or out:
        verbs = _ASIDE_VERBS if not out else {"leaving"}
        if any(tokens[k] in verbs and clauses[k] == clauses[i] for k in range(max(0, i - 3), i)):
            return True
    return _in_what_is_skipped(tokens, i)


#: What the answer tells the reader to skip, at the head of its sentence.
_SKIP_OPENERS = frozenset({"skip", "avoid"})
#: "which has ladders", "that involves a scramble": what the skipped thing holds.
_HOLDS = frozenset(
    "has have involves involve includes include uses use needs need requires require".split()
)


def _in_what_is_skipped(tokens: list[str], i: int) -> bool:
    """ "Skip the Lac Blanc approach, which has ladders": token ``i`` is what makes the
    skipped thing unsuitable, named in a "which has" clause of a sentence that opens with
    skip or avoid."""
    if not tokens or tokens[0] not in _SKIP_OPENERS or i > 24:
        return False
    return any(
        tokens[k] in ("which", "that")
        and tokens[k + 1] in _HOLDS
        and _ANOTHER_STEP.isdisjoint(tokens[1:k])  # not "skip the crowds and take the ..."
        for k in range(max(1, i - 4), i - 1)
    )


_ANOTHER_STEP = frozenset("and then but instead so or try take do go use".split())


#: How far into the next sentence a back-reference may open: "... uses pine nuts. Skip
#: them and ...", "... scatter olives on top; I'd leave them off".
BACKREF_OPENING = 4


def _set_aside_next(tokens: list[str], clauses: list[int], i: int, following: str) -> bool:
    """Whether the sentence after token ``i``'s sets it aside as it opens: "Classic pesto
    uses pine nuts. Skip them and use sunflower seeds" (see ``_set_aside_after``)."""
    more, more_clauses = clause_tokens(following)
    verbs = _LEAVE_VERBS | _DROP_VERBS | _SWAP_VERBS
    at = next((k for k, t in enumerate(more[:BACKREF_OPENING]) if t in verbs), None)
    if at is None or more[at + 2 : at + 3] == ["if"]:
        return False  # "Top with toasted almonds; skip them if you like": still a topping
    base = clauses[-1] + 1
    return _set_aside_after(tokens + more, clauses + [c + base for c in more_clauses], i)


#: What the reader ruled out, said right after it: "another Brava, which you've ruled out",
#: "the hob, which you said you can't use".
_READER = frozenset({"you", "you've", "you'd", "you're"})
_READER_REFUSES = frozenset(
    "ruled rule excluded exclude don't dont can't cant won't wont didn't avoid avoiding".split()
)
#: ... or said so: "which you said is out" (not "which you said you loved").
_READER_SAID = frozenset({"said", "mentioned", "told"})
_SAID_OUT = frozenset({"out", "no", "not", "avoid", "excluded", "off"})


def _ruled_out_by_reader(tokens: list[str], i: int) -> bool:
    """ "another Brava, which you've ruled out": the reader's own exclusion, named."""
    after = tokens[i + 1 : i + 8]
    for k, t in enumerate(after[:2]):
        if t in ("which", "that") and after[k + 1 : k + 2] and after[k + 1] in _READER:
            nxt = after[k + 2 : k + 3]
            if nxt and nxt[0] in _READER_SAID:
                return any(w in _SAID_OUT or w.endswith("n't") for w in after[k + 3 : k + 6])
            return bool(nxt) and nxt[0] in _READER_REFUSES
    return False


def is_negated(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether a negation near token ``i`` rules it out ("no garlic", "garlic-free")."""
    after = tokens[i + 1 : i + 3]
    # "when traffic is light" (but "running is lower impact" is not little of it)
    little = (
        len(after) == 2
        and after[0] in _COPULAS
        and after[1] in _LITTLE
        and not _WHEN.isdisjoint(tokens[max(0, i - 2) : i])
    )
    return (
        little
        or any(_negator_at(tokens, clauses, j, i) for j in range(max(0, i - NEGATION_WINDOW), i))
        or negated_after(tokens, i)
        or _condition_after(tokens, clauses, i)
        or _ruled_out_after(tokens, i)
        or _set_aside_list(tokens, clauses, i)
        or _kept_out(tokens, clauses, i)
        or _kept_off(tokens, clauses, i)
        or _put_away(tokens, clauses, i)
        or _left_out(tokens, i)
        or _set_aside_after(tokens, clauses, i)
        or _left_aside(tokens, clauses, i)
        or _avoided_list(tokens, clauses, i)
        or _moved_out(tokens, i)
        or _thrown_out(tokens, clauses, i)
        or _since_it_failed(tokens, i)
        or _out_at_clause_end(tokens, clauses, i)
        or _what_things_need(tokens, i)
        or _done_before(tokens, clauses, i)
        or _in_case_it_holds(tokens, clauses, i)
        or _what_others_do(tokens, clauses, i)
        or _conceded(tokens, i)
        or _ruled_out_along(tokens, clauses, i)
        or _measured(tokens, clauses, i)
        or _STAYS_HOME.match(" ".join(tokens[i + 1 : i + 12])) is not None
        or _stowed(tokens, clauses, i)
    )


#: What puts a thing away unused: "keep the drone packed away in the van", "a toy that's
#: stashed outside the training area", "those are the Wi-Fi versions you want to avoid".
_STOWED = frozenset("packed stowed stashed locked tucked".split())
_STOWED_AFTER = re.compile(
    rf"^(?:[\w'-]+\s+){{0,3}}?(?:(?:{'|'.join(sorted(_STOWED))}|put)\s+away"
    r"|(?:that's|that\s+is|which\s+is)\s+(?:stashed|stowed|packed|kept|left)\s+(?:outside|away"
    r"|in\s+the\s+car|at\s+the)"
    r"|(?:you|you'll|you'd)\s+(?:want|need|should|ought)\s+(?:to\s+)?avoid)\b"
)


def _stowed(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether the thing at ``i`` is put away or avoided in the words after it, in its
    clause: "keep the drone packed away", "a toy that's stashed outside the training
    area", "the Wi-Fi versions you want to avoid"."""
    end = i + 1
    while end < len(tokens) and end < i + 8 and clauses[end] == clauses[i]:
        end += 1
    return _STOWED_AFTER.match(" ".join(tokens[i + 1 : end])) is not None


#: A thing (or a list) told to stay behind: "GPS watches and phone map apps should stay at
#: home", "the cool box can be left behind".
_STAYS_HOME = re.compile(
    r"^(?:[\w'-]+\s+){0,6}?(?:should|must|can|need\s+to|needs\s+to|has\s+to|have\s+to)\s+"
    r"(?:stay|be\s+left|remain)\s+(?:at\s+home|behind|home|in\s+the\s+car)\b"
)


#: What adds a thing to a list ruled out just before: "alpaca and mohair are off the table
#: along with wool".
_ALONG_WITH = (["along", "with"], ["together", "with"], ["as", "well", "as"])
_RULED_OUT_WORDS = (["off", "the", "table"], ["off", "limits"], ["ruled", "out"], ["are", "out"])


def _ruled_out_along(tokens: list[str], clauses: list[int], i: int) -> bool:
    """A thing added to a list ruled out just before it: "since alpaca and mohair are off
    the table along with wool"."""
    joined = next((w for w in _ALONG_WITH if tokens[max(0, i - len(w)) : i] == w), None)
    if joined is None:
        return False
    k = i - len(joined)
    before = tokens[max(0, k - 3) : k]
    return any(before[-len(w) :] == w for w in _RULED_OUT_WORDS) and clauses[k - 1] == clauses[i]


#: A reading taken of a thing, no use of it: "test ammonia, nitrite and nitrate", "any
#: ammonia or nitrite above zero", "ammonia levels".
_TEST_VERBS = frozenset(
    "test tests testing tested measure measures measuring monitor monitoring".split()
)
_READING_AFTER = frozenset("level levels reading readings ppm".split())
_NOT_A_LIST = frozenset(
    "then add adding use using dose dosing apply pour put to before after until so but if".split()
)


def _measured(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether the thing at ``i`` is measured, not used: a test verb before it in its
    clause (through a list: "test ammonia, nitrite and nitrate"), or a reading after it
    ("ammonia levels", "any ammonia or nitrite above zero")."""
    for k in range(i - 1, max(-1, i - 7), -1):
        if tokens[k] in _TEST_VERBS:
            return True
        if tokens[k] in _NOT_A_LIST or clauses[i] - clauses[k] > 2:
            break  # "test the water, then add bleach": the bleach is used
    k = i + 2 if tokens[i + 1 : i + 2] in (["or"], ["and"]) else i
    after = tokens[k + 1 : k + 3]
    if after[:1] and after[0] in _READING_AFTER:
        return True
    return after in (["above", "zero"], ["above", "0"])


_NEEDS = frozenset("need needs require requires".split())
#: Who needs a thing when the answer tells it as a use: "you'll need a smartphone".
_NEEDERS = frozenset(
    "you you'll you'd i we he she they he'll she'll they'll will would 'll also still just only"
    " then".split()
)


def _what_things_need(tokens: list[str], i: int) -> bool:
    """ "the navigation apps ... all need a smartphone": what other things require, a
    reason they are out (not "you'll need a smartphone", "he needs a smartphone")."""
    k = i - 2 if tokens[i - 1 : i] in (["a"], ["an"]) else i - 1
    if k > 0 and tokens[k] in _NEEDS and tokens[k - 1] not in _NEEDERS:
        return True
    # a reason what others need: "skip basil and succulents, as they need several hours of
    # direct sun" (not "as you need ...")
    for n in range(max(2, i - 6), i):
        if tokens[n] in ("need", "needs") and tokens[n - 2] in _BECAUSE:
            return tokens[n - 1] in ("they", "these", "those", "it")
    return False


_STEP_TIME = frozenset({"once", "when", "after", "until", "till", "soon", "while"})


def _out_at_clause_end(tokens: list[str], clauses: list[int], i: int) -> bool:
    """ "the kerosene and bottled-gas heaters people often reach for are out, which ...":
    the item ruled out by a copula and "out" that close its clause, past a relative clause
    (not "are out of the oven")."""
    if tokens[i + 1 : i + 2] and tokens[i + 1] in _COPULAS:
        return False  # "the chicken is out": ``_ruled_out_after``'s
    if not _STEP_TIME.isdisjoint(tokens[max(0, i - 5) : i]):
        return False  # "once the loaves you baked are out, cool them"
    for k in range(i + 1, min(len(tokens) - 1, i + 8)):
        if clauses[k] != clauses[i]:
            return False
        if tokens[k] in _COPULAS:
            close = k + 2 >= len(tokens) or clauses[k + 2] != clauses[i]
            return tokens[k + 1] == "out" and close
    return False


_YOU_HAVE = frozenset({"you've", "you'd"})
_DONE_WITH = frozenset({"with", "in", "on", "using", "by"})
_PAST_DONE = frozenset("done been had seen gone run ridden taken made walked climbed".split())


def _done_before(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether the item is how the asker did something before: "a gorge you've already
    done with a guide", "you've done it before in the bread machine" (past, no use)."""
    for k in range(max(0, i - 7), i - 1):
        if tokens[k] not in _YOU_HAVE or clauses[k] != clauses[i]:
            continue
        rest = tokens[k + 1 : i]
        rest = rest[1:] if rest[:1] in (["already"], ["previously"], ["before"]) else rest
        verb = rest[:1]
        if verb and (verb[0] in _PAST_DONE or verb[0].endswith("ed")):
            return not _DONE_WITH.isdisjoint(rest[1:5])
    return False


#: How a thing the asker met let them down: "since the Helleberg felt too big", "as the
#: drops didn't help" (the reason, no use).
_LET_DOWN = frozenset("felt seemed proved didn't hurt failed irritated bothered".split())
_BECAUSE = frozenset({"since", "because", "as", "given"})
_THE_ONE_MET = frozenset({"the", "your", "that", "those", "her", "his", "their"})


def _since_it_failed(tokens: list[str], i: int) -> bool:
    """Whether the item is told as what let the asker down, in a reason: "Since the
    Helleberg felt too big, try ..." (not "Because the Helleberg is classic, buy one")."""
    k = i - 1
    while k > 0 and tokens[k] not in _BECAUSE and i - k <= 3:
        k -= 1
    if k < 0 or tokens[k] not in _BECAUSE or tokens[k + 1] not in _THE_ONE_MET:
        return False
    return not _LET_DOWN.isdisjoint(tokens[i + 1 : i + 4])


#: Removals, read over the noun phrase after them: "uninstall Chrome", "ditch the fluid".
_REMOVALS = frozenset(
    "uninstall uninstalled uninstalling ditch ditched ditching cancel cancels cancelled"
    " canceled cancelling canceling unsubscribe unsubscribed unsubscribing".split()
)
#: What may stand between a clearing verb and the thing cleared: "get rid of any old lead
#: sinkers" (not "get rid of aphids with neem oil", where the oil is the means).
_CLEARED_GAP = frozenset(
    "the a an any all old your those these some remaining leftover existing spare used stale"
    " extra opened unused".split()
)
#: Verbs that clear a thing out: "swap out / clear out / bin X", "throw away X", "swap / throw
#: / bin X ... away" or "... out of your box".
_OUT_FIRST = frozenset("swap swapping clear clearing bin binning".split())
_AWAY_FIRST = frozenset("throw throwing bin binning".split())
_OUT_AFTER = frozenset("swap swapping bin binning".split())
#: A clearing said not to be done: "don't throw away the pasta water", "instead of throwing
#: out stale bread".
_KEPT_BACK = frozenset("don't dont not never without".split())


def _gap(tokens: list[str], a: int, b: int) -> bool:
    """Whether only determiners and a few adjectives stand between ``a`` and ``b``, and one
    word of the thing's own name right before it ("the plastic containers")."""
    between = tokens[a:b]
    if between and between[-1] not in _CLEARED_GAP and between[-1] not in _JOINS:
        between = between[:-1]
    return len(between) <= 3 and _CLEARED_GAP.issuperset(between)


def _particle_first(tokens: list[str], k: int, i: int, opens: bool) -> bool:
    """Whether the verb at ``k`` clears out the term at ``i`` with its particle or object
    right after it: "get rid of the lead", "swap out any lead jigs", "throw away / throw out
    your lead sinkers" (not "throw out a lead rig", a cast), "Bin the old split shot"."""
    t, nxt = tokens[k], tokens[k + 1 : k + 2]
    # (a determiner after it: "Bin liners work well" names a bag)
    if (
        t in ("bin", "binning")
        and opens
        and nxt
        and nxt[0] in _CLEARED_GAP
        and _gap(tokens, k + 1, i)
    ):
        return True
    cast = tokens[k + 2 : k + 3] in (["a"], ["an"])
    return (
        (t == "rid" and nxt == ["of"])
        or (t in _OUT_FIRST and nxt == ["out"])
        or (t in _AWAY_FIRST and nxt == ["away"])
        or (t in ("throw", "throwing") and nxt == ["out"] and not cast)
    ) and _gap(tokens, k + 2, i)


def _thrown_out(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether the term at ``i`` is cleared out ("throw away your lead sinkers", "swap the
    lead jigs out of your box", "get rid of the lead", "Bin the old split shot"), not used
    ("throw out a lead rig past the weeds" and "throw the jig out" are casts)."""
    for k in range(max(0, i - 6), i):
        t = tokens[k]
        if clauses[k] != clauses[i] or not _KEPT_BACK.isdisjoint(tokens[max(0, k - 2) : k]):
            continue
        if tokens[k - 2 : k] == ["instead", "of"]:
            continue
        opens = k == 0 or tokens[k - 1] in _JOINS or clauses[k - 1] != clauses[k]
        if _particle_first(tokens, k, i, opens):
            return True
        # "Clear the old sinkers out of your box" (but "wipe on clear epoxy" clears nothing)
        if (t in _OUT_AFTER or (t in ("clear", "clearing") and opens)) and _gap(tokens, k + 1, i):
            # ("out of" a place: "throw a lead jig out past the weeds" is a cast)
            after = tokens[i + 1 : i + 7]
            return any(
                clauses[i + 1 + n] == clauses[i]
                and (w == "away" or (w == "out" and after[n + 1 : n + 2] == ["of"]))
                for n, w in enumerate(after[:5])
                if "then" not in after[:n]
            )
    return False


_JOINS = frozenset("and then or plus".split())
#: What leaves one product for another: "import your Chrome bookmarks", "export your
#: LastPass vault", "transfer your WhatsApp chats".
_MIGRATE_VERBS = frozenset(
    "import imports importing imported export exports exporting exported transfer transfers"
    " transferring migrate migrating move moving bring".split()
)
_DATA_NOUNS = frozenset(
    "bookmarks passwords password history data settings profile extensions contacts vault"
    " chats messages playlists library files photos notes".split()
)


def _moved_out(tokens: list[str], i: int) -> bool:
    """Whether the term at ``i`` names where the asker's data comes from, moved away: "import
    your Chrome bookmarks and passwords" (not "keep Chrome and import bookmarks")."""
    return (
        not _DATA_NOUNS.isdisjoint(tokens[i + 1 : i + 2])
        and not _MIGRATE_VERBS.isdisjoint(tokens[max(0, i - 3) : i])
        and tokens[i - 1 : i] not in (["to"], ["into"], ["onto"])  # "move them to iCloud"
    )


#: Negations whose scope runs down a list: "avoid anything with almond flour, marzipan,
#: praline or nut spreads".
_LIST_NEGATORS = frozenset("avoid avoids avoiding skip skipping no without".split())
#: A negation's clause that is a remark of its own, not the list's opening: "no nuts
#: here: oats, honey ...", "without a doubt, chicken, rice ...", "no problem, oats ...".
_STATEMENT = frozenset("here there needed problem problems worries doubt rush wonder".split())
#: What a sentence may open with before "if you ever ...": a precaution, no advice to use.
_PRECAUTIONS = frozenset(
    "clean wash wipe keep store check label tell warn be make scrub separate use".split()
)
#: Verbs that advise: after "if you ever", the advice itself.
_ADVISE = frozenset(
    "add use try stir top swap put mix sprinkle throw toss include buy make".split()
)
#: "no problem", "without a doubt" ("a" aside): idioms, no negation of what follows.
_NO_IDIOMS = frozenset("problem problems worries worry doubt wonder rush".split())
#: Words that turn a list from what is left out to what is used, opening a later clause:
#: "skip the walnuts, add pecans", "..., instead use", "no dairy here, just olive oil".
_TURN_OPENERS = frozenset("just only instead use try add".split())
#: ... or before advice: "no dairy, so use olive oil" (not "avoid sugar, so honey is out").
_TURN_IF_ADVISED = frozenset("so then plus but".split())
#: Words by which a clause after "so" keeps things out: "so gin and rum are off the table".
_STILL_OUT = frozenset("off out too also either avoid skip no not never without".split())
#: "just as importantly", "just to be safe": no turn.
_NOT_TURNING = (["as"], ["to"], ["in"], ["for"], ["like"])
#: A verb after the term in its clause: the list is the subject of what is used.
_VERB_AFTER = frozenset(
    "will would can could should works work do does is are make makes get gets go goes".split()
)
#: How far back a list's negation may stand from its item.
LIST_REACH = 20


#: Words that may open a list item before its head: "ground almonds", "whole cashews".
_MODIFIERS = frozenset("ground whole raw fresh dried plain any some other flaked".split())
#: Words by which a list item says what it holds.
_HOLDING = frozenset("with containing of from made like".split())


def _an_item(tokens: list[str], clauses: list[int], j: int, i: int, c: int) -> bool:
    """Whether clause ``c`` between ``j`` and ``i`` is one item of a list: at most three
    words, or seven that say what it holds ("nutella or other spreads with hazelnuts")."""
    words = [tokens[k] for k in range(j + 1, i) if clauses[k] == c]
    return len(words) <= 3 or (len(words) <= 7 and not _HOLDING.isdisjoint(words))


def _opens_item(own: list[str]) -> bool:
    """Whether the words before a term in its clause open a list item: none, or an "or"
    or "and" with at most two modifiers after it ("milk or soft cheese")."""
    if not own:
        return True
    last = max((k for k, t in enumerate(own) if t in _LIST_OPENERS), default=None)
    if last is None:  # an item of its own with a modifier or two: "ground almonds"
        return len(own) <= 2 and all(t in _MODIFIERS or t.endswith("ed") for t in own)
    tail = own[last + 1 :]
    # (a longer item that says what it holds: "or other chocolate spreads with hazelnuts")
    return len(tail) <= 2 or (len(tail) <= 5 and not _HOLDING.isdisjoint(tail))


def _avoided_list(tokens: list[str], clauses: list[int], i: int) -> bool:
    """Whether token ``i`` is a later item of a list that a negation opens beyond the
    usual window: the negation's clause holds at most four more words ("anything with
    almond flour"), each clause between is an item (``_an_item``), and ``i``'s
    own clause opens the item (``_opens_item``: "praline or nut spreads"; not "skip the
    walnuts, add pecans")."""
    for j in range(max(0, i - LIST_REACH), i - NEGATION_WINDOW):
        if tokens[j] not in _LIST_NEGATORS or clauses[j] == clauses[i]:
            continue
        counts = Counter(clauses[k] for k in range(j + 1, i))
        own = [tokens[k] for k in range(j + 1, i) if clauses[k] == clauses[i]]
        if counts[clauses[j]] > 4 or not _opens_item(own):
            continue
        own_rest = [tokens[k] for k in range(i + 1, len(tokens)) if clauses[k] == clauses[i]]
        if not _VERB_AFTER.isdisjoint(own_rest):
            continue  # "Without a car, buses, trams or a taxi will get you everywhere"
        if any(_turns_at(tokens, k) for k in range(j + 1, i)) or not _STATEMENT.isdisjoint(
            tokens[k] for k in range(j + 1, i) if clauses[k] == clauses[j]
        ):
            continue  # "avoid processed stuff - just salmon, eggs, spinach and sweet potato"
        if all(_an_item(tokens, clauses, j, i, c) for c in range(clauses[j] + 1, clauses[i])):
            return True
    return False


#: How many other words may stand between a term's words (within one clause): "red peppers
#: and lean meat" does not affirm "red meat", so the window stays tight.
MODIFIER_SLACK = 2


#: Words that end in another food's name and are not it (stems): "buckwheat" is no wheat,
#: "doughnut", "butternut" and "coconut" no nut (coconut is no tree nut for the allergy
#: charities either: a "nut-free" school lets it in), "peppercorn" no corn, "graham" no
#: ham. ("walnut", "peanut", "chestnut", "buttermilk" are.)
#: ("downstairs", "upstairs" are a floor of the house, not the stairs)
_FALSE_FRIENDS = frozenset(
    "buckwheat doughnut butternut coconut peppercorn graham downstair upstair".split()
)
#: ... and those that are not it after a word: "water chestnuts" are no nuts, "cotton
#: wool" and "steel wool" no wool.
_FALSE_AFTER = {"chestnut": frozenset({"water"}), "wool": frozenset({"cotton", "steel"})}
#: An -ing word that names a kind of tool before its noun, not the thing it looks like:
#: "a fishing rod" is no fish (not "a baking tray": baking is done with it).
_TOOL_KINDS = {"fishing": frozenset("rod rods line lines net nets tackle licence license".split())}
#: Things whose word is also a verb of another sense: "no lift" (the building's) is not
#: broken by "try lifting a few in a shop" or "you can lift it"; only the noun, "the lift",
#: "lifts", counts (and not "a lift to the tip", a ride). Read so only when the excluded
#: item is the noun itself: "no heavy lifting" is still broken by "lift the boxes".
#: So too "no screen" and "phonics screening", "screen the calls".
_VERB_TOO = frozenset({"lift", "screen"})
#: "screening" as a check, not a showing on a screen ("a film screening" is one): by what is
#: checked before it ("phonics screening", "cancer screening") or the part of it after it
#: ("screening test", "screening call").
_CHECKED = frozenset(
    "phonics cancer health medical call calls background security eye hearing blood newborn"
    " drug credit tenant candidate covid bowel breast cervical prostate lung diabetes"
    " developmental vision dental pre-employment initial phone".split()
)
_CHECK_PARTS = frozenset(
    "test tests pass programme program results result process questions question call calls"
    " interview interviews check checks rate form forms".split()
)
#: Words before a verb, not before a noun: "to lift", "can lift", "people lift".
_BEFORE_A_VERB = frozenset(
    "to can could will would should must you i we they he she and or then please just"
    " carefully easily help people everyone everybody both two helpers others".split()
)
#: Words after "a lift" that make it a ride: "a lift to the tip", "a lift home".
_A_RIDE = frozenset("to home back into there".split())


#: Words before "flight" or "fly" that make it no flying: "a beer flight", "fruit flies".
_FLIGHT_KINDS = frozenset(
    "beer wine whisky whiskey tasting sake cheese coffee fruit house horse black green crane"
    " fire dragon may sand".split()
)


def _not_flying(tokens: list[str], i: int) -> bool:
    """Whether "flight" / "fly" at ``i`` is no flying: "a flight of stairs", "a beer
    flight", "a fruit fly problem"."""
    return (i + 1 < len(tokens) and tokens[i + 1] == "of" and tokens[i].startswith("flight")) or (
        i > 0 and tokens[i - 1] in _FLIGHT_KINDS
    )


def _other_sense(tokens: list[str], i: int, s: str) -> bool:
    """Whether token ``i`` (stem ``s``) is another sense of an excluded noun: "pack a
    fishing rod" for "no fish", "try lifting a few", "you can lift it" for "no lift",
    "Cream 115 g softened butter" for "no dairy"."""
    if i + 1 < len(tokens) and tokens[i + 1] in _TOOL_KINDS.get(tokens[i], ()):
        return True
    if tokens[i] in _STEP_VERBS and _a_step(tokens, i):
        return True
    if s not in _VERB_TOO:
        return False
    if tokens[i].startswith("screening"):  # a check ("phonics screening"), or a showing
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        return (i > 0 and tokens[i - 1] in _CHECKED) or after in _CHECK_PARTS
    if tokens[i] not in (s, s + "s") or (i == 0 and tokens[i] == s):
        return True  # "lifting", or "Lift with your legs" (but "Lifts can be booked")
    before = tokens[i - 1] if i else ""
    ride = before == "a" and i + 1 < len(tokens) and tokens[i + 1] in _A_RIDE
    return ride or before in _BEFORE_A_VERB


#: Nouns that open a cooking step as its verb, with what the step works on after them:
#: "Cream 115 g softened vegan butter", "then cream the butter and sugar together".
_STEP_VERBS = frozenset({"cream"})
_STEP_OBJECTS = frozenset("the together softened your it them until".split())


def _a_step(tokens: list[str], i: int) -> bool:
    """Whether token ``i`` opens a step as its verb: first in its sentence or after a word
    a verb follows ("then", "and"), with a quantity or what it works on after it."""
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    if not (after.isdigit() or after in _STEP_OBJECTS):
        return False
    return i == 0 or tokens[i - 1] in ("then", "first") or tokens[i - 1] in _BEFORE_A_VERB


def _false_friend(tokens: list[str], i: int, head: str, noun: bool = False) -> bool:
    """Whether token ``i``, a compound that ends in ``head``, only looks like it (``noun``:
    the excluded item is the noun ``head`` itself, "lift", not "lifting")."""
    s = stem(tokens[i])
    if s == "fly" and _not_flying(tokens, i):
        return True
    if noun and _other_sense(tokens, i, s):
        return True
    if i > 0 and tokens[i - 1] in _FALSE_AFTER.get(s, ()):
        return True  # "cotton wool" for "no wool"
    if s == head:
        return False  # "no buckwheat": the word itself
    return s in _FALSE_FRIENDS


def _occurrences(
    tokens: list[str], clauses: list[int], stems: list[str], noun: bool = False
) -> list[int]:
    """Indexes where the term's head occurs with its other words before it, in its clause
    (``clauses[i]``: the clause token ``i`` is in; ``noun``: see ``_false_friend``)."""
    head, rest = stems[-1], stems[:-1]
    out: list[int] = []
    for i, tok in enumerate(tokens):
        if _matches(tok, head) and not _false_friend(tokens, i, head, noun):
            lo = max(0, i - len(rest) - MODIFIER_SLACK)
            window = [stem(tokens[j]) for j in range(lo, i) if clauses[j] == clauses[i]]
            if all(s in window for s in rest):
                out.append(i)
    return out


#: What is danced, played or drilled with a prop: "a veil entrance", "veil turns", "fan
#: drills" (under "don't suggest veil work"), "pole carries and plants" (under "no pole
#: work").
_PRACTICE_NOUNS = frozenset(
    """
    entrance entrances turn turns spin spins drill drills routine routines combo combos
    combination combinations piece pieces section sections move moves choreography reveal
    reveals wrap wraps sequence sequences intro solo solos trick tricks flourish flourishes
    rollover rollovers interlude interludes burst bursts pass passes tap taps flip
    flips toss tosses spiral spirals pattern patterns catch catches carry carries plant plants
    drop drops swing swings vault vaults
    """.split()
)


def _practised(tokens: list[str], stems: list[str]) -> list[int]:
    """Where a thing practised with a prop ("veil work") is done under another name: the
    prop before a move ("a veil entrance", "two veil turns")."""
    if len(stems) != 2 or stems[1] != "work":
        return []
    return [
        i
        for i, tok in enumerate(tokens[:-1])
        if _matches(tok, stems[0]) and not _PRACTICE_NOUNS.isdisjoint(tokens[i + 1 : i + 3])
    ]


def _fitted_with(
    tokens: list[str], clauses: list[int], written: list[str], stems: list[str]
) -> list[int]:
    """Where a thing named by what it is fitted with ("nailed shoes", "studded tyres") is
    told the other way round: "shoes with small nails set into the toe", "tyres with
    studs"."""
    if len(written) != 2 or len(stems) != 2 or not written[0].endswith("ed"):
        return []
    fitting, head = stems
    out = []
    for i, tok in enumerate(tokens):
        if not _matches(tok, fitting) or tok == written[0]:
            continue
        lo = max(0, i - 5)
        before = [j for j in range(lo, i) if clauses[j] == clauses[i]]
        if "with" in (tokens[j] for j in before) and any(_matches(tokens[j], head) for j in before):
            out.append(i)
    return out


#: Words that open where an act is done: "running ethernet cables *through* walls".
_PLACE_WORDS = frozenset(
    "through into inside behind under underneath across along around between via in on onto"
    " at over within".split()
)
#: Words of an act that name nothing to look for.
_ACT_SKIP = _FILLER | frozenset(
    "our your their his her its this that these those some any it them".split()
)
#: How far before its object an act's verb may stand: "run a long Cat6 ethernet cable".
ACT_VERB_REACH = 3


@dataclass(frozen=True)
class _Act:
    """An excluded act read for matching: its verb's stems, its object's stems (the head
    last) and the stems of where it is done."""

    verbs: frozenset[str]
    obj: list[str]
    place: list[str]


def _act(term: str) -> _Act | None:
    """The parts of an excluded act ("running ethernet cables through walls", "paying for
    chores", "hiring a plumber"): a gerund, an object, maybe a place; ``None`` for a thing."""
    words = _WORD.findall(term.lower())
    if len(words) < 2 or len(words[0]) < 5 or not words[0].endswith("ing"):
        return None
    rest = words[1:]
    at = next((k for k, w in enumerate(rest) if w in _PLACE_WORDS and k), len(rest))
    obj = [stem(w) for w in rest[:at] if w not in _ACT_SKIP]
    place = [stem(w) for w in rest[at + 1 :] if w not in _ACT_SKIP]
    if not obj:
        return None
    verb = stem(words[0])
    verbs = {verb, bare_verb(verb)}  # "running": run
    for kind in _ACT_VERB_KINDS:
        if verbs & kind:
            verbs |= kind  # "running cables": feed, pull, route or lay them too
    return _Act(frozenset(verbs), obj, place)


def bare_verb(verb: str) -> str:
    """A verb's stem less the consonant its "-ing" doubled ("runn": run, "scrubb": scrub)."""
    doubled = len(verb) >= 4 and verb[-1] == verb[-2] and verb[-1] in "bdgmnprt"
    return verb[:-1] if doubled else verb


#: Verbs of one kind, any of which does the act: "feed a Cat6 cable through the walls" runs
#: one (stems).
_ACT_VERB_KINDS = (frozenset("run feed pull rout lay thread snake fish".split()),)
#: Kinds of an act's object an answer may name instead: "a Cat6 cable", "ethernet" (stems).
_ACT_HYPONYMS = {
    "cabl": frozenset("ethernet cat5 cat5e cat6 cat6a cat7 lan coax".split()),
    "ethernet": frozenset("cat5 cat5e cat6 cat6a cat7 lan".split()),
}


def _names_object(tokens: list[str], i: int, act: _Act) -> bool:
    """Whether token ``i`` names the act's object, by one of its words or a kind of its
    head ("Cat6", "ethernet" for "ethernet cables")."""
    t = stem(tokens[i])
    return t in act.obj or any(t in _ACT_HYPONYMS.get(o, ()) for o in act.obj)


def _act_occurrences(tokens: list[str], clauses: list[int], act: _Act) -> list[int]:
    """Where the answer does the act: its object, with the place after it ("run an ethernet
    cable through the wall"), or, for an act with no place, with its verb before it ("hire
    a plumber"). With a place, a verb of the act's kind before a word of its object or a
    kind of it does it too ("feed a Cat6 cable through the walls", "run ethernet through
    the wall cavity"), and so does the whole object with the place after it in its clause. The
    object alone is no act: "plug an ethernet cable into the adapter" is no cable run
    through a wall, "your plumber" no hiring."""
    out: list[int] = []
    whole = _occurrences(tokens, clauses, act.obj)
    if act.place:
        for i in range(len(tokens)):
            if not _names_object(tokens, i, act):
                continue
            ahead = range(i + 1, min(len(tokens), i + 1 + len(act.place) + 3))
            after = {stem(tokens[j]) for j in ahead if clauses[j] == clauses[i]}
            if not all(p in after for p in act.place):
                continue
            lo = max(0, i - len(act.obj) - MODIFIER_SLACK - ACT_VERB_REACH)
            done = any(
                stem(tokens[j]) in act.verbs and clauses[j] == clauses[i] for j in range(lo, i)
            )
            if i in whole or done:
                out.append(i)
        for i in whole:  # the whole object, then its place, in one clause
            clause = {
                stem(t)
                for t, c in zip(tokens[i + 1 :], clauses[i + 1 :], strict=True)
                if c == clauses[i]
            }
            if i not in out and all(p in clause for p in act.place):
                out.append(i)
        return sorted(out)
    for i in whole:
        lo = max(0, i - len(act.obj) - MODIFIER_SLACK - ACT_VERB_REACH)
        if any(stem(tokens[j]) in act.verbs and clauses[j] == clauses[i] for j in range(lo, i)):
            out.append(i)
    return out + _done_to_it(tokens, act, whole)


#: How far back a pronoun's object may be named: "a sheet of suede, cut pieces to cover the
#: ball of the foot, and glue them on".
_IT_REACH = 16


def _done_to_it(tokens: list[str], act: _Act, whole: list[int]) -> list[int]:
    """Where the act's verb takes a pronoun whose thing the sentence named just before:
    "buy shoe-repair suede, cut pieces ..., and glue them on" glues suede."""
    return [
        j
        for j in range(1, len(tokens) - 1)
        if stem(tokens[j]) in act.verbs
        and tokens[j + 1] in ("it", "them")
        and any(j - _IT_REACH <= i < j for i in whole)
    ]


_FREED = re.compile(r"([a-z0-9]+)-free\b")


def _freed(tokens: list[str], i: int, stems: list[str], sentence: str) -> bool:
    """Whether one of the term's words before token ``i`` is said to be absent: "worm-free
    bins" has no worm bins (the head itself: ``negated_after``; "a nut-free pesto" is still a
    pesto)."""
    freed = {stem(w) for w in _FREED.findall(sentence)}
    if not freed:
        return False
    lo = max(0, i - len(stems) - MODIFIER_SLACK)
    return any(
        tokens[k + 1] == "free" and stem(tokens[k]) in freed and stem(tokens[k]) in stems
        for k in range(lo, i)
    )


#: Verbs that clearly obtain or add something new, which introduce a thing the asker's
#: setup lacks: "buy a 50W heater", "drill a couple of drainage holes", "get a Bluetooth FM
#: transmitter", "write a name and phone number on every stub". Each must be followed by
#: an indefinite determiner ("a", "an", "some",
#: "one", a number) before the thing or its modifiers (see ``_INDEFINITE``).
_ADD_VERBS = frozenset(
    """
    add adds adding install installs installing get gets getting buy buys buying order orders
    ordering drill drills drilling build builds building bring brings bringing hang hangs
    hanging consider considering write writes writing
    """.split()
)
#: Verbs that introduce a new thing only as "a new ...": "you'll need a new heater", "fit a
#: new consumer unit" (not "fit a spare tyre", "you'll need a hot oven", "make it in a fan
#: oven", "set up Bluetooth": what is there already).
_NEW_ONLY_VERBS = frozenset("need needs make makes making".split())
#: "fit" proposes a thing as an option ("or fit a kickstand", "your landlord must fit a
#: smoke alarm", "so fit a lid") but not as a step in a sequence, where the thing is taken
#: as there ("jack the car up and fit a spare tyre").
_FIT = frozenset("fit fits fitting".split())
#: ... and those with their particle: "put in", "pick up", "invest in", "repot into",
#: "switch to", "upgrade to", "plumb in", "cut in" ("set up" only as "set up a new ...").
_ADD_PHRASES = {
    "in": frozenset(
        "put puts putting invest invests investing repot repots repotting plumb plumbs"
        " plumbing cut cuts cutting".split()
    ),
    "into": frozenset("repot repots repotting".split()),
    "up": frozenset("pick picks picking".split()),
    "to": frozenset("switch switches switching upgrade upgrades upgrading".split()),
}
_NEW_ONLY_PHRASES = {"up": frozenset("set sets setting".split())}
#: "move it to a pot with drainage holes": the verb, "it" or "them", then "to"/"into" (so
#: too "repot it into", "put them in").
_MOVE_VERBS = frozenset("move moves moving".split())
#: "replace the pot with one that has drainage holes": the "with" after such a verb.
_REPLACE_VERBS = frozenset("replace replaces replacing swap swaps swapping".split())
#: What a thing added opens with: "a", "an", "some", "one", "another", a number.
_INDEFINITE = frozenset("a an some one another two three four five six couple pair few".split())
#: How many words may stand between the verb and the thing: "drill a couple of drainage
#: holes", "repot into a pot with drainage holes", "switch to a nursery pot with a drainage
#: hole".
ADD_REACH = 5
#: Words that take the thing as there already: "get the heater up to 25°C", "make the
#: holes bigger", "your consumer unit", "the existing board", "put it in the corner by the
#: heater".
_PRESENT = frozenset(
    """
    the my our your his her their its this these those existing already current old same
    """.split()
)


def introduced(tokens: list[str], clauses: list[int], i: int, words: list[str]) -> bool:
    """Whether the term whose head is token ``i`` (``words``: its stems) is introduced as
    a new thing to add or obtain, in its clause and within a few words before it: "repot
    into a pot with drainage holes", "buy a 50W heater", "drill a couple of drainage holes",
    "you'll need a new heater" (not "set the heater to 25°C", "fit a spare tyre", "set up
    Bluetooth", "you'll need a hot oven", "since there's already a ...")."""
    start = i
    for j in range(max(0, i - len(words) - MODIFIER_SLACK), i):
        if clauses[j] == clauses[i] and stem(tokens[j]) in words[:-1]:
            start = j
            break
    for k in range(start - 1, max(-1, start - 2 - ADD_REACH), -1):
        if clauses[k] != clauses[start]:
            break
        between = tokens[k + 1 : start]
        if _PRESENT.intersection(between):
            return False
        if _add_cue(tokens, clauses, k) and _opens_new(tokens[k + 1 : i + 1]):
            return True
    # "a countertop dishwasher is also worth considering"
    rest = [t for t, c in zip(tokens[i + 1 :], clauses[i + 1 :], strict=True) if c == clauses[i]]
    worth = "worth" in rest and _WORTH.intersection(rest[rest.index("worth") + 1 :][:2])
    opens = tokens[max(0, start - 1 - MODIFIER_SLACK) : start]
    return bool(worth) and bool({"a", "an"}.intersection(opens))


_WORTH = frozenset("considering getting buying adding having installing a".split())


def _opens_new(after: list[str]) -> bool:
    """Whether what follows an adding verb opens with an indefinite determiner or a number
    ("a space-saver spare tyre", "two drainage holes", "some blackout curtains")."""
    return bool(after) and (after[0] in _INDEFINITE or after[0].isdigit())


def _add_cue(tokens: list[str], clauses: list[int], k: int) -> str | None:
    """The verb of an adding cue that ends at token ``k``, or ``None`` ("need", "fit",
    "make" and "set up" only before "a new")."""
    t = tokens[k]
    before = tokens[k - 1] if k > 0 and clauses[k - 1] == clauses[k] else ""
    new = tokens[k + 1 : k + 3] in (["a", "new"], ["an", "new"], ["new"])
    if t in _ADD_VERBS or (new and t in _NEW_ONLY_VERBS):
        return t
    if t in _FIT and (new or before not in ("and", "then")):
        return t
    if before in _ADD_PHRASES.get(t, ()) or (new and before in _NEW_ONLY_PHRASES.get(t, ())):
        return before
    # "repot it into", "move them to"
    verb = tokens[k - 2] if k > 1 and before in ("it", "them") else ""
    if verb in _ADD_PHRASES.get(t, ()) or (t in ("to", "into") and verb in _MOVE_VERBS):
        return verb
    if t == "for" and {"ask", "asks", "asking"}.intersection(tokens[max(0, k - 3) : k]):
        return t  # "ask reception for a kettle"
    if t == "with":
        lo = max(0, k - ADD_REACH - 2)
        if any(tokens[j] in _REPLACE_VERBS and clauses[j] == clauses[k] for j in range(lo, k)):
            return t
    return None


def clause_tokens(sentence: str) -> tuple[list[str], list[int]]:
    """The sentence's words, and for each the number of the comma-free clause it is in."""
    tokens: list[str] = []
    clauses: list[int] = []
    for n, clause in enumerate(_CLAUSE.split(sentence)):
        words = _WORD.findall(clause)
        tokens += words
        clauses += [n] * len(words)
    return tokens, clauses


#: Where something often turns up unseen, read as ``WARNINGS``' "lurks": "swearing often
#: turns up in a second verse", "gluten can crop up in soy sauce" (not "guests turn up with
#: wine": no "often" or "can" before it; not "shows up", "pops up", "creeps in", as often
#: said of a use: "tofu also shows up in my stir-fries", "let the garlic creep in").
_TURNS_UP = re.compile(
    r"\b(?:often|sometimes|can|may|might|usually|tends?\s+to)\s+(?:turns?|crops?)\s+up\b"
)


#: A sentence that puts an act off to a later time: "Once it has finished flowering, that's
#: the time to repot", "- Next spring, move it to a bigger pot", "When the new leaf has
#: hardened, repot it", "If you planned to drain it in fall anyway, you can do that then"
#: (not one that says "now", "today", "tonight" or "this week").
#: The present, told of an act: "do it this week", "sand it now", "move her into the
#: nursery tonight" (also read by ``activities``).
NOW = (
    r"(?:now|today|tonight|this\s+(?:week|weekend|morning|afternoon|evening)|straight\s+away"
    r"|right\s+away|immediately)"
)
LATER = re.compile(
    r"(?:^|(?<=[.!?\n;]))"
    r"(?=[ \t]*(?:[-*•][ \t]*|\d+[.)][ \t]*)?(?:\*\*[^*\n]{0,40}\*\*:?[ \t]*)?"
    r"(?:once|after|later|afterwards|when|next\s+(?:spring|summer|autumn|fall|winter|year"
    r"|season|month|week|time)|in\s+(?:the\s+)?(?:spring|summer|autumn|fall|winter)"
    r"|come\s+(?:spring|summer|autumn|fall|winter)|wait\s+(?:until|till)|until|till)\b"
    # a later time told inside the sentence: "..., ideally next spring, repot it"
    r"|[^.!?;\n]*\b(?:next\s+(?:spring|summer|autumn|fall|winter|year|season|month)"
    r"|in\s+(?:the\s+)?(?:spring|summer|autumn|fall|winter)|later\s+on|(?:do|does|did)\s+"
    r"(?:that|it)\s+then|when\s+the\s+time\s+comes)\b)"
    rf"(?![^.!?;\n]*\b{NOW}\b)[^.!?;\n]*[.!?;]?",
    re.IGNORECASE,
)


#: A suspended hyphen: the "dairy-" of "dairy- and nut-free" is dairy-free too.
_SUSPENDED_FREE = re.compile(
    r"\b([a-z]+)-(?=(?:\s*(?:,\s*(?:and|or|&)?|and|or|&|/)\s*[a-z]+-)*"
    r"\s*(?:,\s*(?:and|or|&)?|and|or|&|/)\s*[a-z]+-free\b)"
)


@lru_cache(maxsize=256)
def read_sentences(content: str) -> tuple[str, ...]:
    """The answer's sentences, lower-cased, less what names words rather than using them:
    "a running-like motion" is like running, not running; "avoid words like 'ionizer'"
    names the word; "(gives the creaminess banana usually does)" says what it would do.

    Cached: the check reads the same answer once per excluded item and class member."""
    content = _SUSPENDED_FREE.sub(r"\1-free", _LIKENESS.sub(" ", content.lower()))
    content = _FIRST_PERSON_NORM.sub(r"i \1", _QUOTED.sub(" ", content))
    content = _MADE_OF_ASIDE.sub(r"\1", content)
    for rx in (_HELD_BY_REFUSED, _WHY_REFUSED, _WHY_REFUSED_HOLDS):
        content = rx.sub(lambda m: m.group(1) + " " * len(m.group(2)), content)
    content = _COMPARISON.sub(" ", _COUNTERFACTUAL.sub(" ", content))
    content = _USED_AS.sub(r"\1", content)
    content = _MAY_CONTAIN.sub(f" {_MAY_HOLD} ", content)
    content = _TURNS_UP.sub(" lurks ", content)
    # "Is there fish in the stock?": a question to check with, read as a warning
    content = _ASKS_IF_IN.sub(lambda m: m.group(0)[:-1] + " lurks?", content)
    # "find out whether it contains caffeine": a check to make, blanked over its own words
    # (what follows it still counts: "ask whether they use lard, and if not, add cheese")
    content = _WHETHER_IN.sub(lambda m: " " * len(m.group(0)), content)
    return tuple(_SENTENCE.split(content))


#: Words that set aside what was just named: "I've left those out", "leave those aside".
_PUT_ASIDE = (
    r"(?:i(?:'ve|\s+have)\s+(?:left|kept)\s+(?:those|them|these)\s+out"
    r"|(?:leave|set|put)\s+(?:those|them|these)\s+aside)"
)
#: A sentence that says its thing is what the asker avoids: "Oil-based gloss would give a
#: harder shine, but it off-gasses for days, which is exactly what you're avoiding",
#: "Bleach sprays are the very things you're steering clear of".
_WHAT_YOU_AVOID = re.compile(
    r"\b(?:what|the\s+(?:very\s+|exact\s+)?(?:things?|ones?|kinds?|sort))\s+(?:that\s+)?"
    r"you(?:'re|\s+are)?\s+(?:trying\s+to\s+|want\s+to\s+|wanted\s+to\s+)?(?:avoid|avoiding"
    r"|steering\s+clear\s+of|steer\s+clear\s+of|ruling\s+out|staying\s+away\s+from)\b"
    # ... or that the answer has set it aside: "I've left those out", "so leave those aside"
    rf"|\b{_PUT_ASIDE}\b"
)


#: A sentence that opens by setting aside what the one before named.
_LEFT_OUT_NEXT = re.compile(rf"^\W*(?:so\s+|and\s+)?{_PUT_ASIDE}\b")


def _told_aside(tokens: list[str], sentences: Sequence[str], n: int) -> bool:
    """Whether sentence ``n`` (its ``tokens``) warns about what it names, or the next one
    opens by setting it aside ("... refurbished versions turn up cheaper; I've left those
    out")."""
    if _warns(tokens):
        return True
    return n + 1 < len(sentences) and _LEFT_OUT_NEXT.match(sentences[n + 1]) is not None


def _warns(tokens: list[str]) -> bool:
    """Whether a sentence warns about what it names: "chicken hides in a lot of foods",
    "some stock cubes sneak in milk powder" (but "sneak in some bacon" is an order)."""
    if not WARNINGS.isdisjoint(tokens) or _WHAT_YOU_AVOID.search(" ".join(tokens)):
        return True
    at = tokens.index("sneak") if "sneak" in tokens else -1
    return at > 0 and tokens[at - 1] not in ("you", "can", "to", "and", "or", "then", "just")


def mentions(content: str, term: str, *, situation: bool = False) -> tuple[bool, bool]:
    """(mentioned at all, mentioned affirmatively) for ``term`` in ``content``
    (``situation``: the term is a thing the asker's setup lacks, which the answer may
    propose to add: see ``introduced``)."""
    seen, word = _mention(content, term, situation)
    return seen, word is not None


def affirmed_word(content: str, term: str, *, situation: bool = False) -> str | None:
    """The answer's word that affirms ``term`` when it is another word than the term
    ("walnuts" for "nut", "buttermilk" for "milk"), the term when it is the term's own
    word ("nuts" for "nut"), or ``None`` when the answer does not affirm it."""
    _, word = _mention(content, term, situation)
    stems = [stem(w) for w in _WORD.findall(term.lower()) if w not in _FILLER]
    if word is None or len(stems) != 1 or stem(word) == stems[0]:
        return None if word is None else term
    return word


#: A question whether a thing is in something, as the reader is to ask it: "Is there bonito
#: or fish in the stock?", "Does it have nuts in it?" (a check, no use of it).
_ASKED_OPENS = r"(?:^|[—–:*\"“(]\s*|\b(?:ask|asking)\s+)"
_ASKS_IF_IN = re.compile(
    _ASKED_OPENS + r"(?:(?:is|are)\s+there\s+(?:any\s+)?(?:(?!\bto\b)[^?.!\n]){1,60}\s+in\s+"
    r"(?:it|this|that|the|them|these|those|your|their)\b[^?.!\n]{0,40}\?"
    r"|(?:does|do)\s+(?:it|they|(?:this|that|these|those|the|your)(?:\s+\w+)?)\s+"
    r"(?:have|contain|use|include)\s+(?:any\s+)?[^?.!\n]{1,60}\?)",
    re.IGNORECASE,
)
_WHETHER_IN = re.compile(
    r"(?:\bwhether|\b(?:check|ask|find\s+out|see)\s+if)\s+(?:it|they|this|that|these|those"
    r"|(?:the|each|every|your)\s+[a-z]+(?:\s+[a-z]+)?)\s+(?:contains?|includes?|uses?|(?:has|have)"
    # (what it has: "whether it has any nuts", not "if the shop has live shrimp; if they do")
    r"(?=\s+any\b))\s+(?:any\s+)?(?:(?!\b(?:and|then|before|after|but|or|so)\b)[^?.!;,\n]){1,40}",
    re.IGNORECASE,
)
_NON_PART = re.compile(r"\bnon-([a-z]+)", re.IGNORECASE)


#: What may stand between a word of former ownership and its thing: "a pre-loved
#: three-season down sleeping bag" (not "I used the car seat").
_OWNED_GAP = r"(?!(?:the|a|an|my|your|his|her|their|our|this|that|it|them|to)\b)[\w-]+\s+"


#: Makes and models that name a device of a kind after a word of former ownership: "a
#: refurbished iPhone 12" is a refurbished phone, "a used ThinkPad" a used laptop (stems).
_MODELS_OF = {
    "phon": "iphone samsung galaxy pixel smartphone handset mobile nokia motorola oneplus xiaomi",
    "laptop": "macbook thinkpad chromebook notebook dell lenovo asus acer surface",
    "tablet": "ipad kindle surface",
    "consol": "playstation ps4 ps5 xbox switch",
    "camera": "canon nikon sony fujifilm fuji olympus panasonic lumix pentax leica eos",
}
#: What names no kind after a word of former ownership: "no refurbished stuff", "not buying
#: pre-owned" rule out anything owned before.
_ANY_OWNED = re.compile(
    rf"\s*{FORMER_OWNER}(?:\s+(?:stuff|things|gear|kit|items|ones|devices|gadgets|equipment"
    r"|goods|products|anything))?\s*",
    re.IGNORECASE,
)


#: A word of former ownership said of an item, not of a place or a price ("Apple's
#: refurbished store", "used prices").
_OWNED_ITEM = re.compile(
    rf"\b{FORMER_OWNER}\b(?!\s+(?:stores?|sections?|sites?|shops?|outlets?|markets?|dealers?"
    r"|sellers?|listings?|prices?|values?)\b)",
    re.IGNORECASE,
)


def _owned_before_as_one(term: str, content: str) -> tuple[str, str]:
    """``term`` and ``content`` with the words of former ownership before the term's
    thing written one way: "no second-hand car seats" is broken by "a used car seat", "no
    pre-owned ropes" by "for the rope, a second-hand one"."""
    if _ANY_OWNED.fullmatch(term):  # anything owned before: "a refurbished iPad Air"
        return "secondhand", _OWNED_ITEM.sub("secondhand", content)
    m = re.match(rf"\s*{FORMER_OWNER}\s+(?P<thing>.+)", term, re.IGNORECASE)
    words = _WORD.findall(m.group("thing").lower()) if m else []
    if m is None or not words:
        return term, content
    head = re.escape(stem(words[0]))
    models = "|".join(_MODELS_OF.get(stem(words[0]), "").split())
    before = re.compile(rf"\b{FORMER_OWNER}\s+((?:{_OWNED_GAP}){{0,2}}?)(?={head})", re.IGNORECASE)
    content = before.sub(r"\1secondhand ", content)  # "pre-loved down sleeping bag"
    if models:  # "a refurbished iPhone 12": a secondhand phone
        model = re.compile(rf"\b{FORMER_OWNER}\s+(?:{_OWNED_GAP})?(?:{models})\b", re.IGNORECASE)
        content = model.sub(f"secondhand {words[0]}", content)
    # "For the rope, a secondhand one is fine": the one is the thing its sentence names
    ones = re.compile(rf"\b(?:\w+-)?{FORMER_OWNER}\s+ones?\b", re.IGNORECASE)
    named = re.compile(rf"\b{head}", re.IGNORECASE)
    content = re.sub(
        r"[^.!?;\n]+",
        lambda s: (
            ones.sub(f"secondhand {m.group('thing')}", s.group(0))
            if named.search(s.group(0))
            else s.group(0)
        ),
        content,
    )
    return f"secondhand {m.group('thing')}", content


def _mention(content: str, term: str, situation: bool = False) -> tuple[bool, str | None]:
    """(mentioned at all, the first word that affirms it or ``None``; ``situation``: an
    occurrence the answer proposes to add affirms nothing)."""
    # an item named with "non-" ("the non-lucrative visa") is one word, its "non" no negator
    for part in dict.fromkeys(_NON_PART.findall(term)):
        term, content = (
            re.sub(rf"\bnon-{re.escape(part)}\b", f"non{part}", t, flags=re.I)
            for t in (term, content)
        )
    term, content = _owned_before_as_one(term, content)
    stems = [stem(w) for w in _WORD.findall(term.lower()) if w not in _FILLER]
    if not stems:
        return False, None
    act = _act(term)
    # the item is the noun itself ("lift", "fish"), not an act of it ("heavy lifting")
    written = _WORD.findall(term.lower())
    noun = bool(written) and written[-1] in (stems[-1], stems[-1] + "s", stems[-1] + "es")

    def occurrences(tokens: list[str], clauses: list[int]) -> list[int]:
        if act is not None:
            return _act_occurrences(tokens, clauses, act)
        return (
            _occurrences(tokens, clauses, stems, noun)
            + _practised(tokens, stems)
            + _fitted_with(tokens, clauses, written, stems)
        )

    words = stems if act is None else act.obj
    seen = False
    added = False  # "buy a 50W heater, and once it's in, set the heater to 26C"
    sentences = read_sentences(content)
    for n, sentence in enumerate(sentences):
        tokens, clauses = clause_tokens(sentence)
        if not occurrences(tokens, clauses):
            continue
        seen = True
        if _told_aside(tokens, sentences, n):
            continue  # "chicken hides in a lot of foods", "...; I've left those out"
        kept = unwarned(sentence)
        tokens, clauses = clause_tokens(kept)
        for i in occurrences(tokens, clauses):
            if situation and (added or introduced(tokens, clauses, i, words)):
                added = True  # the one added, named again: "set the heater to 26C"
                continue  # "repot into a pot with drainage holes": added, not there
            if is_negated(tokens, clauses, i) or _freed(tokens, i, words, kept):
                continue
            following = sentences[n + 1] if n + 1 < len(sentences) else ""
            if not _set_aside_next(tokens, clauses, i, following):
                return True, tokens[i]
    return seen, None


@dataclass
class ExclusionCheck:
    """Terms the request excludes, and those the content affirms anyway."""

    excluded: list[str] = field(default_factory=list)
    violated: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)

    def reasons(self) -> list[str]:
        """Human-readable reasons, one per excluded term found in the content."""
        out = [f"request excludes '{t}' but the answer includes it" for t in self.violated]
        out += [f"request excludes '{t}' and the answer rules it out" for t in self.ruled_out]
        return out


def check_exclusions(query: str, content: str) -> ExclusionCheck:
    """Parse what ``query`` excludes and check whether ``content`` affirms it."""
    check = ExclusionCheck(excluded=parse_exclusions(query))
    for term in check.excluded:
        seen, affirmed = mentions(content, term)
        if affirmed:
            check.violated.append(term)
        elif seen:
            check.ruled_out.append(term)
    return check

"""What a request excludes, and what it asks for without the exclusions (pure text;
whether an answer affirms an excluded term is :mod:`scoregate.scoring.affirmation`).

"Cookies with no chocolate" excludes ``chocolate`` and asks for "Cookies."; "Here are
cookies made with chocolate chips" affirms it, "no chocolate needed" rules it out.
"""

from __future__ import annotations

import itertools
import re

# --- exclusion parsing -----------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
#: An excluded phrase: up to the end of the clause; a dot inside a name does not end it
#: ("no os.ReadFile", "no Node.js").
_TERM = r"(?P<x>(?:[^.;:!?\n]|\.(?=[a-z_])){1,80}?)"
#: Words that open a new clause, not an excluded thing: "no nuts, I'm allergic",
#: "not a dog, I want a cat", "Not memory foam, it's too hot for me".
_PRONOUNS = frozenset(
    "i i'm i've i'd it it's its im ive they they're they've they'd we we're we'd we've you"
    " you're you've he he's she she's"
    " that's my our his their".split()
)
_PRONOUN_ALT = "|".join(sorted(_PRONOUNS, key=len, reverse=True))
#: What a thing does to the asker, a reason and no part of the thing: "the hills and
#: parking stress me out", "the fumes make me feel sick".
_GETS_TO_ME = (
    r"(?!(?:what|which|who|how|where|why|when|that|anything|something|nothing)\b)"
    r"(?:the\s+)?[a-z]+(?:\s+(?:and|&)\s+(?:the\s+)?[a-z]+)?\s+(?:stress(?:es)?|scares?"
    r"|freaks?|worry|worries|terrif(?:y|ies)|bothers?|annoys?|overwhelms?|makes?|gives?|drives?)"
    r"\s+(?:me|us)\b"
)
#: Remarks after an excluded thing that end it and ask nothing: a rule or hedge ("no flash
#: allowed", "No JS possible"), a one-off it would be for ("a mitre saw just for one job";
#: not "a laptop just for gaming", which narrows it), a remark on the asking ("an e-bike,
#: before anyone suggests it"), a verdict ("Amazon, the fees and the whole vibe aren't for
#: me") and who cannot bear it ("no social deduction games, half the group hates lying").
_REMARK_TAIL = (
    r"(?:(?:(?:is|are)\s+)?(?:possible|allowed|permitted)(?![\w-])"
    r"|(?:just|only)\s+for\s+(?:one|a\s+single|this|that|a\s+one-off|two|a\s+few)\b"
    r"|before\s+(?:anyone|anybody|someone|somebody|you|people)\b"
    # its reasons: "not keen on Starlink, partly the politics, partly the £75/month"
    r"|(?:partly|mainly|mostly|largely|purely)\s+(?:the|because|due|for|as|cos|cause)\b)"
)
_REMARK_CLAUSE = (
    r"(?:the\s+[a-z]+(?:\s+(?:and|&)\s+(?:the\s+)?(?:whole\s+)?[a-z]+)?"
    r"\s+(?:isn't|aren't|wasn't|weren't)\b"
    r"|(?:(?:half|most|some|all|one|both)\s+(?:of\s+)?)?(?:the\s+|my\s+|our\s+)?[a-z]+"
    r"\s+(?:hates?|dislikes?|loathes?|can't\s+stand|cannot\s+stand)\b)"
)
_END = (
    r"(?=\s*(?:\.(?![a-z_])|[;:!?()\n—–]|-\s|$|\b(?:but|please|because|bc|cuz|coz|since|if|when|while|unless|thanks"
    r"|so that|again"
    # what the asker wants instead: "not looking for a relationship, just want to meet
    # people", "not looking to hire anyone full-time, maybe a freelancer"
    r"|,\s*(?:i\s+|we\s+)?(?:just|only|maybe|ideally|rather)\s+(?:want|need|looking|after|like"
    r"|a|an|some|something)\b"
    # how the asker felt about it: "another 24 month deal, hated it"
    r"|,\s*(?:i\s+)?(?:hated|hate|loathed|loathe|disliked|can't\s+stand|couldn't\s+stand)"
    r"\s+(?:it|that|them|this|those)\b"
    # a clause of its own after "so": "I don't have Excel so don't suggest that"
    # (not "so do I": agreement)
    r"|so\s+(?=(?:i|i'm|i'd|we|we're|you|he|she|they|it|it's|don't|dont|please|pls"
    r"|no|nothing|any|can't|cant)\b)"
    # (not after "pay": "rather not pay for a gym" rules out the gym)
    # ("navigate in the dark" is the act in a condition, read whole)
    r"|in it|in the(?!\s+dark\b)|at all|anymore|either"
    # "face to face much" (not "too much sugar", "so much")
    r"|(?<!\btoo\s)(?<!\bso\s)(?<!\bthat\s)(?<!\bhow\s)(?<!\bas\s)much(?=\s*(?:[.,;!?)—–-]|$))"
    r"|(?<!\bpay\s)(?<!\bpaying\s)for (?:me|us|my|the|a|this|dinner|lunch)\b"
    # where it is ruled out: "don't want to use Slack at work" (not "at home", "on my own",
    # "in our", "on weeknights": "no pool at home", "avoid going into the woods on my own",
    # "rather not loop in our manager", "no cooking on weeknights" need them)
    r"|at work"
    # when, told of the asker's plan: "a flat with no lift next month" (the lift)
    r"|(?:next|this)\s+(?:week|weekend|month|year|season|summer|winter|spring|autumn|fall)"
    # where a ban holds: "anything glass on board", "no candles on site"
    r"|on\s+(?:board|site|the\s+premises)\b|indoors\b"
    r"|tomorrow|tonight"
    # a hedge on its time: "an in-person class, at least for now"
    r"|,\s*at\s+least\b"
    # a clause of its own after "and": "no curtains and the baby wakes at 5am"
    r"|and\s+(?:the|my|our|his|her|their|your)\s+[a-z]+\s+(?:is|are|was|were|has|have|had|wakes"
    r"|keeps|gets|goes|needs|does|won't|can't|doesn't|isn't|hates|cries)"
    # who or how much it is for: "without nuts for 4", "for two people", "for 6 servings",
    # "for under $10" (not a span of time: "no flowers for 3 years" states a fact, and "no
    # running for 3 months" is kept whole)
    r"|for (?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few|several)"
    r"(?=\s*(?:people|persons|guests|adults|kids|children|servings?|portions?|of\s+us"
    r"|[.,;!?)]|$))"
    r"|for (?:under|less\s+than|up\s+to|max)\s*[$£€\d]"
    r"|,?\s*"
    + _REMARK_TAIL
    + r"|,\s*"
    + _REMARK_CLAUSE
    # (not after a verb of bothering: "rather not mess about with the hotel iron")
    + r"|(?<!\babout\s)(?<!\baround\s)(?<!\bbother\s)(?<!\bfiddle\s)(?<!\bfaff\s)"
    r"with (?:my|the|our|your|his|her|their|it|this|that))\b"
    rf"|,\s*(?:{_PRONOUN_ALT}|this|these|those)(?![\w'])"
    # a clause of its own after a comma: "not keen on hiring a firm, the budget is tiny"
    r"|,\s*the\s+[a-z]+\s+(?:is|are|was|were|has|have)\b"
    # ... or what it does to the asker: "rather not drive there, the hills and parking
    # stress me out"
    r"|,\s*" + _GETS_TO_ME +
    # the ask after a comma: "won't eat mushrooms, dinner ideas?", "no onions, any tips?"
    # (but "without onions, garlic?" lists two)
    r"|,\s*(?:(?:any|what|which|how|where|is|are|can|could|should|would|do|does)\b[^,.;:!?\n]{0,60}"
    r"|[^,.;:!?\n]{0,30}\b(?:ideas?|tips?|suggestions?|recommendations?|recs|options?"
    r"|thoughts|advice)\s*"
    # "won't do another cruise, ideas for a family trip in July?"
    r"|(?:any\s+)?(?:ideas?|tips?|suggestions?|recommendations?|recs|options?|advice)\s+"
    r"(?:for|on|about)\b[^,.;:!?\n]{0,60})\?"
    # A clause about the answer's form: "without garlic, as a numbered list of 5 steps".
    r"|,\s*(?:as|in|with|using|formatted|written|under|within|keep(?:ing)?|and\s+(?:keep|make|use"
    r"|write|format|give|put|end|start|begin))\b)"
    r")"
)
_VERBS = (
    r"(?:want|use|using|include|add|mention|put|need|like|contain|show|give|suggest"
    r"|recommend|eat|do|play|draw|see|go|get|travel|write|take|visit|bring\s+up|blame"
    r"|ask\s+for|start\s+with|talk\s+about|modify|touch)"
)
#: Verbs whose object is what a "don't want to ..." excludes ("don't want to eat meat"):
#: after any other verb the activity itself is excluded ("don't want to reinstall Windows").
_CONSUME = (
    r"(?:eat|use|have|drink|take|buy|see|visit|watch|read|play|wear|cook|bake|add|include"
    r"|mention|get|hear|try|book|rent|fly|drive|spend)"
)
#: "not in the repo", "not in my kitchen": where something may not be, not a thing excluded
#: ("not in Python", "not in English" still exclude a language).
_PLACE = r"\s+(?:the|a|an|my|our|your|his|her|their|this|that|any)\b"
#: "no more hostels": a thing the asker has had enough of (not "no more than 50 words", "no
#: more money than that", "no more, no less", "no more leave": a limit or a lack).
_NO_MORE_OF = (
    r"\s+(?!(?:than|of(?!\s+(?:those|these|the|that)\b)|to|no|nor|and|or|please|pls|time|leave"
    r"|money|room|space|days|ideas?|clue|clues|options?|energy|patience|storage|battery|risk"
    r"|tickets?|vacation|holiday|stock|data|credit|budget|savings|milk|food)\b)[a-z]"
    r"(?![\w-]*(?:\s+[\w-]+){0,3}\s+than\b)"
)
#: Where a "no more X" is the asker's rule: opening a clause, or after "says" or "want"
#: ("there's no more storage", "my phone has no more battery" tell what ran out).
_NO_MORE_AT = (
    r"(?:(?<![\w'’]\s)(?<![\w'’])|(?<=\bsays\s)|(?<=\bsaid\s)|(?<=\bwant\s)"
    r"|(?<=\bplease\s)|(?<=\bso\s)|(?<=\band\s))"
)
#: "no nuts" ("answer yes or no first": a choice of reply, not an exclusion).
_NO_CUE = (
    # (nor a next item of what came back: "nothing, no reply, no credit")
    r"(?<!\byes\sor\s)(?<!\byes/)(?<!\bnothing,\s)(?<!\bno\sreply,\s)(?<!\bno\sresponse,\s)"
    # ("I've no room for grow lights": the grow lights; "no space in the hall for a bike")
    r"\bno\s+(?:(?:room|space|budget|money)\s+(?:(?:in|on)\s+(?:the|my|our)\s+\w+\s+)?for\s+)?"
    r"(?!one\b|longer\b|matter\b|more\b|less\b|later\b|need\b"
    r"|problem\b|doubt\b|way\b|idea\b|sooner\b"
    # a contract of card play, not a thing: "we play a weak no trump", "3 no trumps"
    r"|trumps?\b(?!\s+(?:talk|politics|references?|content|jokes?|news)\b)"
    # an outcome told, never a thing to leave out: "emailed twice, no reply", "just rapid
    # clicking, no crank at all", "tried it, no difference" (the word closing its phrase:
    # "no progress bar", "no success stories", "no change log" are things)
    r"|(?:reply|replies|response|responses|luck|joy|difference|improvement|success|progress"
    r"|change|crank)(?=\s*(?:[.,;!?)—–]|$|at\s+all|yet|either|whatsoever|so\s+far|from\b"
    r"|back\b|in\b)))"
)
#: "there isn't a lift in our block", "there aren't any shops nearby": what there is not.
_THERE_ISNT = (
    r"\bthere(?:\s+(?:isn't|is\s+not|aren't|are\s+not)|['’]s\s+not|\s+are\s+not)"
    r"\s+(?:a|an|any)\s+"
)
#: "not allowed to use docker compose", "we're not permitted to have candles": said of the
#: asker or of no one named (not "when are you not allowed to castle?"; a question is
#: skipped whole: "Am I not allowed to use a VPN in China?" asks the rule).
_ALLOWED = (
    r"(?:(?<=\bi'm\s)|(?<=\bwe're\s)|(?<=\bi\sam\s)|(?<=\bwe\sare\s)|(?<=\bwe\s)|(?<=\bi\s)"
    r"|(?<=\baren't\s)|(?<=\bisn't\s)|(?:^\s*|(?<=[,;(]\s)|(?<=\bso\s)|(?<=\band\s)))"
    r"(?:not\s+|(?<=n't\s))(?:allowed|permitted)\s+(?:to\s+(?!(?:happen|be|go|come|stay)\b)"
    r"(?:" + _CONSUME + r"\s+)?"
    # "we're not allowed leaded solder on site": the thing itself (not "allowed out", "allowed
    # in the kitchen")
    r"|(?=(?:any\s+)?(?!(?:to|in|out|on|at|back|home|near|outside|inside|here|there|anymore"
    r"|either|for|by|with|from|into|up|down|off|over|yet|again|since|because|and|or|but"
    # an amount allowed: "not allowed enough annual leave", "not allowed much time off"
    r"|enough|much|many|more|less|as|so|too|a\s+lot|long|time)\b)[a-z]))"
    r"(?:any\s+)?"
)
#: The verbs of a ban by a rule: "my lease bans X", "the HOA doesn't allow X".
BANS = (
    r"(?:bans?|banned|forbids?|forbidden|prohibits?|prohibited"
    r"|(?:doesn't|does\s+not|won't|will\s+not|don't|do\s+not)"
    r"\s+(?:allow|permit))"
)
#: Who a rule's ban may name before the thing: "doesn't allow us to have grills".
_BANNED_WHO = r"(?:me|us|tenants|residents|guests|anyone|people|staff|students)"
#: Nuisances an "X-free" asks to be rid of, never a thing to leave out: "keep them
#: dust-free", "a mould-free bathroom", "streak-free windows". A good answer names them
#: to get rid of them ("dust every couple of weeks", "mould grows where ...").
_NUISANCES = frozenset(
    """
    dust dirt grime mould mold mildew weed weeds rust pest pests lint fog frizz streak streaks
    smudge smudges scratch scratches stain stains odour odor smell germ germs algae moss
    limescale tangle tangles wrinkle wrinkles crease creases static bug bugs flea fleas tick
    ticks mite mites grease clutter hassle stress worry pain drama fuss glare error errors
    mosquito mosquitoes midge midges tear tears tantrum tantrums meltdown meltdowns leak leaks
    surprise surprises
    """.split()
)

#: Things counted as none after "zero": "I have zero power tools" (a plural noun; not "zero
#: cooking skills", "zero ideas").
#: Pests an asker gets rid of, as nuisances are: "we got rid of the ants".
_PESTS = frozenset("ant ants rat rats mice slug slugs snail snails wasp wasps moth moths".split())
#: Not a nuisance or a pest, with a word before it at most: a nuisance wanted gone or
#: cleared is no thing ruled out ("zero weeds", "zero tears", "got rid of the ants").
_NOT_A_NUISANCE = rf"(?!(?:[a-z-]+\s+)?(?:{'|'.join(sorted(_NUISANCES | _PESTS))})\b)"
_ZERO_THINGS = (
    r"\s+zero\s+(?=(?:[a-z-]+\s+)?[a-z-]+[^s]s\b)"
    + _NOT_A_NUISANCE
    + r"(?!(?:[a-z-]+\s+)?(?:skills|ideas|clues|friends|savings|funds|options|days|hours"
    r"|minutes)\b)"
)
#: "I don't have a drill", "we won't have a car": a fact about the asker, weaker evidence
#: than "no drills please" (the answer may talk about cars: "no car needed", "the cable
#: car"); the gate sends an answer that uses it to review at most, not to reject.
LACK_CUE = (
    r"(?:(?:n't|\b(?:dont|doesnt|didnt|wont)|\bnot)\s+(?:have|own|got|come\s+with)\s+(?:any\s+)?"
    # what the asker has parted with: "we've got rid of the axes", "we gave away our TV"
    # (not a nuisance cleared, "got rid of the ants"; not "I sold my guitar", whose answer
    # often tells how a song goes on it)
    r"|\b(?:i|we)(?:'ve|\s+have)?\s+(?:got\s+rid\s+of|given\s+away|gave\s+away)"
    r"\s+(?:all\s+)?(?:the|our|my)\s+" + _NOT_A_NUISANCE + ")"
)
#: A phrase that states a lack, from its first word ("won't have a car"; not "rather not
#: have to call", a preference).
LACK = re.compile(r"\w*" + LACK_CUE, re.IGNORECASE)
#: Things refused as none: "I want zero cords on the window coverings".
_WANT_ZERO = r"\b(?:want|wants|need|needs)" + _ZERO_THINGS
#: Where a thing refused is, after it: "zero cords on the window coverings".
_WHERE_TAIL = re.compile(
    r"\s+(?:on|in|at|inside|around|near)\s+(?:the|my|our|your|his|her|their|this|that|these"
    r"|those|any)\b.*$",
    re.IGNORECASE | re.DOTALL,
)
#: Words after "nothing" that tell what happened or how things are, not a thing ruled out:
#: "nothing works though", "nothing serious though, right?", "nothing wrong in it".
_HAPPENED = (
    r"(?!(?:works?|worked|helps?|helped|new|serious|yet|changed|happened|seems?|wrong|bad"
    r"|major|else|much|left|right|good|better|fits?|stuck|worse)\b)"
)
_CUES: tuple[str, ...] = (
    r"\bwithout\s+(?:any\s+|using\s+)?",
    _NO_CUE,
    _NO_MORE_AT + r"no\s+more(?=" + _NO_MORE_OF + r")\s+",
    # a dispute the asker will not escalate: "I don't want to drag her to small claims",
    # "rather not go to court" (the venue; not "bring my daughter to court": she comes along)
    r"(?:\bdon'?t\s+want\s+to|\bdo\s+not\s+want\s+to|\brather\s+not|\bwon'?t|\bnot\s+going\s+to)"
    r"\s+(?:(?:take|drag|haul)\s+(?:him|her|them|my\s+(?:ex|landlord|tenant|neighbou?r|roommate"
    r"|flatmate|boss|employer|builder|contractor)|the\s+(?:landlord|seller|company|builder"
    r"|contractor|shop|store|airline))\s+|go\s+)to\s+"
    r"(?=(?:small\s+claims|court|a\s+tribunal|tribunal|arbitration|the\s+police|the\s+ombudsman)"
    r"\b(?!\s+(?:station|clerk|house)))",
    # a way of raising it refused: "I don't want to bring it up face to face" (the way, not
    # the raising: the answer is asked how else to)
    # (a verb of raising it before the way: not "don't want to look nervous in person";
    # "on the phone" is not read: "the app on your phone" is no call)
    r"(?:\bdon'?t\s+want\s+to|\bdo\s+not\s+want\s+to|\brather\s+not)\s+(?:[\w']+\s+){0,2}?"
    r"(?:tell|say|ask|bring|raise|talk|discuss|meet|meeting|break|confront|do|have|see|deal"
    r"|dealing|chat|speak|address|handle|mention|approach|resign|quit|end|dump|apologi[sz]e"
    r"|thank|hand)\b(?:\s+[\w']+){0,3}?\s+"
    r"(?=(?:face[\s-]to[\s-]face|in\s+person)\b)",
    r"\b(?:other|rather)\s+than\s+",
    r"\b(?:anything|everything|anywhere|anyone|any\s+\w+)\s+(?:but|except)\s+(?:for\s+)?",
    r"\bexcept\s+(?:for\s+)?",
    r"\bexcluding\s+",
    # "dont"/"doesnt"/"wont": negations typed without the apostrophe
    r"(?:\bnot|n't|\bcannot|\b(?:dont|doesnt|didnt|wont|cant)|\bnever"
    # the asker's own refusal, "I refuse to use Chrome" (not "my son refuses to wear it", a
    # fact to work with; not a condition, "what happens if I refuse to take a
    # breathalyzer?", nor what is said of the asker, "he says I refuse to use TikTok", "I
    # used to say I refuse to eat sushi", "it's not that I refuse to use Excel")
    r"|(?<!\bif\si\s)(?<!\bif\swe\s)(?<!\bwhen\si\s)(?<!\bsays\si\s)(?<!\bsaid\si\s)"
    r"(?<!\bsay\si\s)(?<!\bthat\si\s)"
    r"(?:(?<=\bi\s)|(?<=\bwe\s)|(?<=\babsolutely\s)|(?<=\bflat\sout\s)|(?<=\bflatly\s))"
    r"refuse\s+to)\s+" + _VERBS + r"\s+(?:to\s+" + _CONSUME + r"\s+)?(?:any\s+)?",
    r"\bbut\s+not\s+",
    # "please don't tell me to bump retraction up": advice refused
    r"(?:\bdon'?t|\bdo\s+not)\s+(?:(?:just|even)\s+)?tell\s+(?:me|us)\s+to\s+",
    # "please don't make me soak seeds overnight": an act the asker will not be put to
    r"(?:\bdon'?t|\bdo\s+not)\s+make\s+(?:me|us)\s+(?!(?:laugh|cry|wait|feel|look|sound)\b)",
    _ALLOWED,
    # a rule that bans the thing: "my lease literally bans subwoofers", "the HOA doesn't
    # allow fences", "our building doesn't allow us to have grills" (not "my landlord
    # doesn't allow me to paint": an act; for a ban in time or one questioned, see
    # ``request_analysis``)
    # (the asker's own rule-makers: not another's, "my neighbor's HOA forbids fences", nor
    # a provider the answer may swap, "the hotel forbids pets", "the gym bans phones")
    r"(?<!neighbor's\s)(?<!neighbour's\s)(?<!friend's\s)(?<!sister's\s)(?<!brother's\s)"
    r"(?<!parents'\s)(?<!mom's\s)(?<!mum's\s)(?<!dad's\s)"
    r"\b(?:lease|tenancy|landlord|landlady|hoa|strata|condo|building|council|school|company"
    r"|employer|contract|venue|club|studio|committee|association|campsite|marina|allotment"
    # (a gym only the asker's own: "my gym banned kettlebells", not "the gym bans phones in
    # the changing rooms", a provider's rule the answer need not keep)
    r"|estate|management|pool|(?<=\bmy\s)gym|(?<=\bour\s)gym|rink|range|track|hall|kitchen|site"
    r"|centre|center|course"
    r"|lido|library|office|park|co-?op|workshop|makerspace"
    # any place the asker is at: "the hostel in Lisbon where I'm staying for two months"
    r"|[a-z]+(?=(?:\s+in\s+[a-z]+)?\s+where\s+(?:i|we)\b))(?:\s+in\s+[a-z]+)?\s+"
    # "the studio I go to has banned chalk", "the pool where I train has banned fins", "the
    # allotment site I'm on", "the kitchen we use for the bake sale"
    r"(?:(?:where\s+)?(?:i|we)(?:'m|'re|'ve)?\s+(?:[\w']+\s+){1,5}?)?"
    r"(?:\w+\s+){0,2}?"
    + BANS
    + rf"\s+(?:{_BANNED_WHO}\s+to\s+(?:use|have|keep|bring|put\s+up|install)\s+)?"
    # "has banned anything electric": what is electric
    r"(?:any(?:thing(?=\s+(?:[a-z]+(?:al|ic|ed|ous|ive|ful|ry)|glass|metal|plastic|wood|paper"
    r"|rubber|leather|wool|nylon|foam|latex)\b))?\s+)?"
    rf"(?!(?:{_BANNED_WHO}|it|them|that|this)\b)",
    # "my stomach doesn't tolerate spicy food", "I can't tolerate lactose" (not "won't
    # accept": "the printer won't accept the new cartridge" is a fault, not a preference)
    r"(?:\bwill\s+not|\bwon't|\bwont|\brefuses?\s+to|\bdoesn't|\bdoesnt|\bdoes\s+not|\bdon't"
    r"|\bdo\s+not|\bcan't|\bcannot)\s+tolerate\s+(?:any\s+)?",
    # "can't have soy" restricts; "I don't have a degree" states a fact (no cue: the answer
    # may well talk about degrees)
    r"\b(?:can't|cant|cannot|can\s+not|shouldn't|mustn't)\s+have\s+(?:any\s+)?",
    # "I'm not buying Nike again", "never ordering from them": a purchase refused.
    r"\b(?:not|never)\s+(?:buying|ordering|wearing|getting)\s+(?:from\s+|at\s+|any\s+)?",
    # "I'm not going tubeless", "we're not going vegan though": a way refused, one word
    # closing the clause (not "not going back", "not going anywhere", "not going crazy")
    r"\b(?:not|never)\s+going\s+(?=(?!(?:to|back|out|home|anywhere|far|there|here|well|away"
    r"|up|down|in|on|off|fast|slow|alone|through|over|under|crazy|mad|nuts|overboard|yet|again"
    r"|anymore|either|soon|now|today|tonight|tomorrow|too|very|round|around|public|wild|bust"
    r"|broke|ahead|forward|forwards)\b)[a-z]+(?:-[a-z]+)*\s*(?:[-.,;!?)]|$"
    r"|\b(?:and|but|so|though|tho|this|either|for)\b))",
    # "is not" excludes only in a relative clause after what is asked for ("a chew that
    # isn't rawhide", "activities that aren't skiing"), not after a verb of saying ("I've
    # read that's not solid"): "My English is not so good", "pandas isn't installed" and
    # "This is not a good idea" state facts and exclude nothing.
    r"(?<=\w\s)(?<!read\s)(?<!heard\s)(?<!said\s)(?<!know\s)(?<!think\s)(?<!seen\s)"
    r"(?:that|which|who)(?:\s+(?:isn't|is\s+not|aren't|are\s+not)|'s\s+not)\s+",
    # "I'm not a jewellery person": a preference, whatever the verb.
    r"\bnot\s+(?:a|an)\s+(?=(?:[\w-]+\s+)?person\b)",
    # "not a dog", "not by plane", but not after a verb "to be" (a fact, as above).
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bam\s)(?<!'[smre]\s)"
    r"\bnot\s+(?:a|an|by|with|of|in(?!" + _PLACE + r"))\s+",
    r"\bnot\s+a\s+fan\s+of\s+",
    # a list of words or things ruled out: "no buzzwords - none of passionate, dynamic,
    # team player" (not "none of my friends", "none of this works": no list)
    r"(?:^|(?<=[;:(\u2013\u2014-]\s)|(?<=\bplease\s)|(?<=\buse\s))none\s+of\s+"
    r"(?!(?:my|our|your|his|her|their|its|the|them|those|these|that|this|it|us|you|which"
    r"|what|whom|who|mine|ours|yours|theirs|hers|'?em|a|an)\b)",
    r"\bnot\s+(?:ok|okay|happy|keen|interested)\s+(?:with|on|about|in)\s+",
    # "not looking to buy a new phone", "not looking for a gym membership": what the asker
    # is not shopping for ("not looking to spend more than 50" is a budget: no cue)
    # (said by the asker: not "my son is not looking for a job", "he's not looking to rent
    # to students")
    r"(?:(?<=\bi'm\s)|(?<=\bim\s)|(?<=\bi\sam\s)|(?<=\bwe're\s)|(?<=\bwe\sare\s)"
    r"|(?<=\breally\s)|(?<=\bhonestly\s)|(?<=\bdefinitely\s)|(?<=\bjust\s)"
    r"|(?<![\w'’]\s)(?<![\w'’]))(?<!\bthat\si'm\s)(?<!\bthat\sim\s)(?<!\bthat\swe're\s)"
    r"not\s+looking\s+(?:for|at|to\s+(?:buy|get|hire|rent|use"
    r"|switch\s+to|upgrade\s+to|replace\s+it\s+with|pay\s+for|spend\s+(?:money\s+)?on))\s+"
    r"(?:any\s+)?",
    r"\bnothing\s+(?:with|containing|involving|about|by|from|too|in|into"
    # "one rule: nothing made of memory foam"
    r"|made\s+(?:of|from|with|out\s+of)"
    r"|(?:that|which)\s+(?:needs|uses|requires|involves|has|is|contains))\s+",
    # "nothing slow." / "nothing spicy, please": one word closing the clause.
    r"\bnothing\s+(?=[a-z]+(?:-[a-z]+)*\s*(?:[.,;!?)]|\s\(|$)"
    # "Nothing electronic though", "nothing spicy please" (not "nothing works though",
    # "nothing serious though, right?": what happened, not what is ruled out)
    r"|" + _HAPPENED + r"[a-z]+(?:-[a-z]+)*\s+(?:though|tho|please|pls|at\s+all)\s*(?:[.,;!)]|$)"
    # "so nothing metal on this one please", "I want nothing plastic in it" (not "nothing
    # planned for this": what happened)
    r"|"
    + _HAPPENED
    + r"(?![a-z]+ed\b)[a-z]+(?:-[a-z]+)*\s+(?:on|in|for)\s+(?:this(?:\s+one)?|it|these)"
    r"(?:\s+(?:please|pls|though|tho))?\s*(?:[.,;!)]|$))",
    r"\bnever\s+(?:by|in|on|at|via|through)\s+",
    # A clause that opens with "not": "Not red.", "..., not Nike.", "please - not Python."
    r"(?:^|[,;(]|\s-)\s*(?:(?:and|but)\s+(?!not\s+(?:one|a\s+single|any|once|everyone|all|none)\b))?"
    r"not\s+(?!in" + _PLACE + r"|only\b|just\b|sure\b|too\b|really\b|even\b"
    r"|yet\b|so\b|very\b|that\b|at\s+all\b|until\b|because\b|if\b|when\b|much\b|quite\b|necessarily\b"
    r"|interested\b|bothered\b|fussed\b|keen\b|a\s+fan\b|into\b|big\s+on\b|allowed\b|permitted\b"
    r"|looking\b)",
    # "a workout that doesn't involve running or jumping", "a cake which won't need eggs"
    r"\b(?:that|which)\s+(?:doesn't|does\s+not|don't|do\s+not|won't|will\s+not|wouldn't"
    r"|would\s+not)\s+(?:involve|include|use|require|need|contain|call\s+for)\s+(?:any\s+)?",
    r"\b(?:hate|dislike|can't\s+stand|cannot\s+stand|(?:don'?t|do\s+not)\s+(?:really\s+)?love)\s+",
    # ... or someone in the asker's care: "my daughter (6) hates the foam kickboards"
    r"\b(?:daughter|son|kid|child|toddler|wife|husband|partner|mum|mom|dad)(?:\s*\(\d+\))?"
    r"\s+(?:really\s+)?(?:hates|dislikes|can't\s+stand|cannot\s+stand)\s+",
    # "honestly cant be bothered with decanting", "I really can't face video calls"
    r"\b(?:can't|cant|cannot)\s+(?:really\s+)?(?:be\s+bothered(?:\s+with)?|face)\s+",
    r"\b(?:avoid|avoiding|skip|exclude|leave\s+out|keep\s+out|hold\s+the|minus)\s+",
    # "said to stay away from pseudoephedrine", "I steer clear of anything fried" (advice or
    # the asker's own rule, not "get my dog to stay away from the couch")
    # (not "I'm not trying to stay off carbs", "I don't need to stay off the bike")
    r"(?:(?<!not\s)(?<!n't\s)\b(?:said|says|told(?:\s+(?:me|us))?|advised(?:\s+(?:me|us))?|have"
    r"|need|want|trying|try|supposed|tend|like)\s+to\s+|\b(?:i|we|i'll|we'll|i'm|we're|please|should|must"
    r"|generally|usually|always|rather)\s+|(?:^|[.!?]\s+))"
    r"(?:(?:stay|steer|staying|steering)\s+(?:(?:completely|totally|well|right)\s+)?"
    # "I need to stay completely off it (caffeine) on race day"
    # (not "stay off my feet": a rest, no thing ruled out)
    r"(?:away\s+from|clear\s+of)|(?:stay|staying)\s+(?:(?:completely|totally|right)\s+)?off"
    r"(?!\s+(?:my|your|his|her|their|our|the)\s+(?:feet|foot|legs?|knees?|ankles?|back)\b))\s+",
    r"\b(?:allergic|intolerant)\s+to\s+",
    r"\bfree\s+(?:of|from)\s+",
    # "zero soldering." (an activity on its own), "I have zero power tools" (things owned);
    # not "zero budget", "zero cooking skills", "zero sugar drinks", "zero downtime"
    r"(?:\bzero\s+(?=[a-z]+ing\s*(?:[.,;!?)]|$|and\b|or\b))"
    r"|\b(?:have|has|own|got)" + _ZERO_THINGS + ")",
    _WANT_ZERO,
    # Negated preferences: "I'd rather not turn the oven on", "prefer not to fly".
    r"\b(?:rather|prefer(?:ably)?)\s+not\s+(?:to\s+)?",
    # ... and plans the asker has not: "I have no plans to buy a car", "no intention of
    # renting one", "not planning to hire a planner", "I don't plan on using a tent"
    r"(?:\b(?:no|zero)\s+(?:plans?|intention|intentions|desire|interest)\s+(?:to|of|in)"
    r"|\b(?:don'?t|do\s+not|never|not)\s+(?:plan(?:ning)?|intend(?:ing)?)\s+(?:to|on))\s+"
    r"(?:" + _CONSUME + r"\s+)?(?:any\s+)?",
    # ... for someone in the asker's care: "I'd rather he didn't do any contact sparring",
    # "we'd rather the kids didn't use TikTok"
    r"\brather\s+(?:he|she|they|(?:my|our|the)\s+(?:son|daughter|kids?|children|child|boy|girl"
    r"|teen|teenager|husband|wife|partner|mum|mom|dad|mother|father|grandad|grandma|gran|nan"
    r"|twins|toddler|baby|\d+-year-old|[a-z]+-year-old))"
    # "our kids (8 and 10)", "my mum, who's 81,"
    r"(?:\s*\([^)\n]{1,30}\)|\s*,\s*who[^,.\n]{1,30},)?"
    r"\s+(?:didn't|did\s+not|never|wasn't"
    r"|weren't)\s+(?!(?:know|find|see|hear|notice|realis|realiz|worry|feel|think|mind|care"
    r"|get\s+(?:hurt|upset|bored)|be)\w*\b)"
    r"(?:(?:do|have|use|eat|drink|get|take|play|try|go\s+(?:on|to))\s+)?(?:any\s+)?",
    # "I'm done with those mats", "we're done with that"
    r"\b(?:i'm|i\s+am|we're|we\s+are)\s+(?:so\s+|totally\s+|completely\s+|officially\s+)?"
    r"done\s+with\s+",
    r"\b(?:not\s+(?:into|big\s+on|a\s+big\s+fan\s+of)|no\s+interest\s+in|(?:do\s+not|don't)\s+feel\s+like)\s+",
    # A lack stated: "we won't have a car", "I don't have a drill", "we haven't got a
    # garden", "the flat doesn't come with a fridge" (see ``LACK``).
    LACK_CUE,
    _THERE_ISNT,
)
_EXCLUSION_RES = tuple(re.compile(cue + _TERM + _END, re.IGNORECASE) for cue in _CUES)
_WANT_ZERO_RE = _EXCLUSION_RES[_CUES.index(_WANT_ZERO)]
#: The cues after which a thing's own lack may be told ("the pot has no drainage hole",
#: "the flat doesn't have a balcony"): see ``_said_of_a_thing``.
_SITUATION_RES = frozenset(
    _EXCLUSION_RES[_CUES.index(cue)]
    for cue in (_NO_CUE, LACK_CUE, _THERE_ISNT, r"\bwithout\s+(?:any\s+|using\s+)?")
)
_THERE_ISNT_RE = _EXCLUSION_RES[_CUES.index(_THERE_ISNT)]
_ALLOWED_RE = _EXCLUSION_RES[_CUES.index(_ALLOWED)]
#: A question whose clause holds the cue ("When am I not allowed to ...", "Am I not allowed
#: to ...") or a tag question ("Dogs aren't allowed to eat grapes, right?"), read on the
#: text before the cue with "|" for the cue.
_TAG = re.compile(r",\s*(?:right|yes|no|correct|true)\s*\?\s*$", re.IGNORECASE)
_ASKS_THE_RULE = re.compile(
    r"^\s*(?:am|are|is|can|do|does|did|when|why|where|what|how|which|was|were|should|could"
    r"|would|will)\b[^,;:|]*\|",
    re.IGNORECASE,
)
#: Where the thing lacked is, after it: "no heater in my 20 litre tank", "no wifi at my
#: parents' house", "no dishwasher in our rental" (the thing is the heater).
_PLACE_TAIL = re.compile(
    r"\s+(?:in|at|inside|on)\s+(?:my|our|your|his|her|their|this|that|these|those)\b.*$",
    re.IGNORECASE | re.DOTALL,
)


#: When a thing came to be ruled out or lacked, after it: "we gave away our caravan in
#: 2019", "got rid of the axes after an accident", "banned candles last year" (cut from the
#: item only: the clause cut from the request keeps its time, "no propane ... after a
#: scare last year").
_WHEN_TAIL = re.compile(
    r"\s+(?:(?:back\s+)?in\s+(?:19|20)\d\d|(?:a\s+few\s+|\w+\s+)?(?:years|months|weeks)\s+ago"
    r"|last\s+(?:week|weekend|month|year|season|summer|winter|spring|autumn|fall)"
    r"|after\s+(?:an?|the|my|our|his|her|that|this)\s+(?:accident|incident|injury|scare|fall"
    r"|fire|flood|leak|complaints?|fight|break-in|theft)"
    # why, or where and at what: "banned candles in the dorms because of fire risk", "no
    # fizzy drinks at his 8th birthday party"
    r"|because\s+(?:of|it|they)|due\s+to"
    r"|(?:in|at|on)\s+(?:the|his|her|their|my|our)\s+(?:\w+\s+)?(?:birthday|party|dorms?|shop"
    r"|kitchen|building|flat|house|hall|venue|class|school|wedding|event|lanes?|pool|studio"
    r"|site|premises|workshop)"
    # "no childcare on weekends": when, not what
    r"|(?:on|at)\s+(?:the\s+)?weekends?|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b.*$",
    re.IGNORECASE | re.DOTALL,
)


def _lacked(piece: str, rx: re.Pattern[str], situation: bool) -> str:
    """The thing a lack names, less where it is ("no heater in my tank": the heater) and,
    for a thing's own lack, less "yet" ("the tank has no filter yet": the filter; "no fish
    yet" told of no thing, and "she has no account yet", read as before)."""
    if rx is _WANT_ZERO_RE:  # "zero cords on the window coverings": the cords
        return _WHERE_TAIL.sub("", piece)
    if rx not in _SITUATION_RES:
        return piece
    piece = _PLACE_TAIL.sub("", piece)
    return re.sub(r"\s+yet\s*$", "", piece, flags=re.IGNORECASE) if situation else piece


#: "nothing milk-based", "no oil-based paint": the base is what is ruled out.
_BASED_RE = re.compile(
    r"\b(?:no|nothing|without|avoid|zero)\s+(?P<x>[a-z]{3,})-based\b"
    r"(?!\s+(?!please\b|at\b|anything\b|either\b|whatsoever\b|in\s+it\b|on\s+this\b"
    r"|for\s+this\b)[a-z])",
    re.IGNORECASE,
)
_FREE_RE = re.compile(r"\b(?P<x>[a-z]+)[- ]free\b", re.IGNORECASE)
#: Words before a spaced "free" that are not what is left out: "or free ebooks", "that the
#: hall be free on Thursdays", "feel free".
_NOT_FREE_OF = _PRONOUNS | frozenset(
    "or and be is are was were been being am feel feels felt stay stays get gets got go goes"
    " set totally completely entirely fully almost mostly also still now then so as for of to"
    " them you your yours he she her him all relatively a an the this these those some few"
    " any no its plus with".split()
)
#: A spaced "free" that says when something is available, not what is left out: "wants the
#: board free by half ten", "the hall free on Thursdays" (and "just Saturday free", "no
#: other nights free", ``_ONLY_BEFORE``).
_FREE_TIME = re.compile(
    r"\s+(?:by|until|till|on|this|next|after|before|between|tonight|tomorrow|today)\b",
    re.IGNORECASE,
)
_ONLY_BEFORE = re.compile(r"\b(?:just|only|other)\s+$", re.IGNORECASE)
#: A spaced "free" that opens a name of its own: "the teacher wants free verse", "we
#: offer free shipping", "a free trial" ("free" belongs to what follows).
_FREE_COMPOUND = re.compile(
    r"\s+(?:verse|trial|trials|shipping|delivery|time|weights|parking|wi-?fi|will|kick|kicks"
    r"|throw|throws|agent|agents|speech|fall|style|range|play|form|returns|entry|admission|tier"
    r"|version|plan|sample|samples|consultation|quote|estimate)\b",
    re.IGNORECASE,
)


def _left_out(m: re.Match[str], sentence: str) -> bool:
    """Whether an "X-free" / "X free" match rules X out: a nuisance is to be rid of (see
    ``_NUISANCES``), "R-free 0.27" names a figure, a
    spaced "free" after a pronoun or before a time says who or when is free, and one
    before a name of its own ("wants free verse", "offer free shipping") is that name's."""
    x = m.group("x")
    if len(x) < 2 or x.lower() in _NUISANCES:
        return False
    if "-" in m.group(0):
        return True
    return (
        x.lower() not in _NOT_FREE_OF
        and not _FREE_TIME.match(sentence, m.end())
        and not _FREE_COMPOUND.match(sentence, m.end())
        and not _ONLY_BEFORE.search(sentence, 0, m.start())
    )


#: Nouns that name a condition an item causes: "a milk allergy", "gluten intolerance".
ALLERGY_NOUNS = ("allergy", "allergies", "allergic", "intolerance", "intolerances", "intolerant")
#: An allergy named by its allergen: "egg allergy kid", "my son's severe peanut allergy".
_ALLERGY_RE = re.compile(
    rf"(?<!['’])\b(?P<x>[a-z]+(?:[- ][a-z]+)?)[- ](?:{'|'.join(ALLERGY_NOUNS)})\b", re.IGNORECASE
)
#: The allergens people name that way (a closed list: "food", "pet", "spring" or "best"
#: before "allergy" name no thing an answer could leave out; also read by ``membership``:
#: "peanut products" are peanut).
ALLERGENS = frozenset(
    "milk dairy egg eggs peanut peanuts nut nuts soy soya wheat gluten fish shellfish seafood"
    " sesame shrimp prawn lactose mustard celery lupin sulphite sulfite corn coconut kiwi"
    " strawberry latex penicillin banana avocado cashew cashews pistachio pistachios almond"
    " almonds walnut walnuts hazelnut hazelnuts pecan pecans oat oats fructose histamine"
    " sulfa".split()
)
#: Two-word allergens, and what to call them ("milk protein allergy": milk).
_ALLERGEN_PAIRS = {"tree nut": "tree nut", "pine nut": "pine nut", "milk protein": "milk"}
#: A habit stated of oneself: "I don't fly (long story)", "we never drive": the activity.
_HABIT_RE = re.compile(
    r"\b(?:i|we)\s+(?:don't|dont|do\s+not|never|can't|cannot|won't)\s+(?P<v>fly|drive|drink|smoke)\b"
    r"(?=\s*(?:[.,;!?(]|$|(?:and|or|but|so|anymore|at\s+all|either)\b))",
    re.IGNORECASE,
)
_HABITS = {"fly": "flying", "drive": "driving", "drink": "drinking", "smoke": "smoking"}
#: What harms the asker, told as a reason: "no onions, garlic gives me heartburn too",
#: "wool drives me crazy", "dairy makes me bloated" (not "coffee gives me energy").
_HARMS_ME = re.compile(
    r"(?:(?<=[,;(]\s)|(?<=[,;]\sand\s)|(?<=[,;]\sbut\s)|(?<=[,;]\salso\s))"
    r"(?!(?:the|my|his|her|our|their|this|that|these|those|also)\b)"
    r"(?P<x>[a-z]+(?:[ -](?!always\b|usually\b|often\b|really\b|just\b)[a-z]+)?)"
    r"\s+(?:(?:always|usually|often|really|just)\s+)?(?:gives?|makes?|drives?|brings?)\s+me\s+"
    r"(?:out\s+in\s+)?(?:really\s+|so\s+|such\s+)?"
    r"(?:heartburn|headaches?|migraines?|crazy|nuts|sick|nauseous|bloated|itchy|hives|a\s+rash"
    r"|rashes|reflux|gassy|ill|queasy|eczema|breakouts?)\b",
    re.IGNORECASE,
)
#: "leave the nuts out", "keep dairy out of her lunches": what is kept out is excluded
#: (but see ``_KEEP_OUT_ASKED``).
_OUT_RE = re.compile(r"\b(?:keep|leave)\s+(?P<x>[^.;:!?,\n]{1,40}?)\s+out\b", re.IGNORECASE)
#: What the asker is told to keep away from someone: "our vet told us to keep all paper
#: and cardboard away from her", "we have to keep anything citrus away from the tank". Read
#: only after an obligation ("how do I keep foxes away from the coop?" is about the foxes).
_AWAY_RE = re.compile(
    r"\b(?:told\s+(?:me|us|him|her|them)\s+to|(?:been|was|were)\s+told\s+to|(?:said|says)\s+to"
    r"|(?:have|has|had|need|needs)\s+to|must|supposed\s+to)\s+keep\s+(?:all\s+|any(?:thing)?\s+)?"
    r"(?P<x>[^.;:!?,\n]{1,40}?)\s+(?:well\s+)?away\s+from\b",
    re.IGNORECASE,
)
#: Ground or things the asker would rather keep someone off: "I'd really rather keep them
#: off tarmac and pavements", "we prefer to keep him off screens" (a preference; "how do I
#: keep the cat off the counter" is the goal asked about, not read).
_OFF_RE = re.compile(
    r"\b(?:rather|prefer\s+to|preferably)\s+(?:keep|stay)\s+(?:(?:them|him|her|it|(?:the|my|our)\s+[a-z]+)\s+)?"
    r"(?:well\s+)?off\s+(?:of\s+)?(?P<x>[^.;:!?\n]{1,50}?)(?=\s*(?:[-.,;:!?()]|$|\s+(?:as|because"
    r"|since|so|but|if|when|while|until|till|during|for\s+(?:now|the|a|another|this|my)"
    r"|on\s+(?:my|our|his|her|their|the)|now)\b))",
    re.IGNORECASE,
)
#: A question how to keep something out: "How do I keep squirrels out of my bird feeder?",
#: "Is there a way in Hugo to keep draft posts out of the production build?", "best way to
#: keep slugs out of the veg patch" (the squirrels are what the answer is about).
_KEEP_OUT_ASKED = re.compile(
    r"(?:\bhow\b(?:\s+[\w']+){0,3}|\bways?\b(?:\s+[\w']+){0,3}\s+to|\btips?\s+(?:for|on|to)"
    r"|\btricks?\s+(?:for|to)|\bhelp\s+(?:me\s+|us\s+)?(?:to\s+)?)\s+$",
    re.IGNORECASE,
)
_NOT_SUBJECT = (
    r"(?:but|so|because|since|which|that|it|this|is|are|and|or|if|whether|when|while|nothing"
    r"|everything|anything|something|sure|what|who|fine|ok|okay)\b"
)
#: What a setup lacks, said of the thing (shared with ``request_analysis``, which reads it
#: as a lack: review at most).
UNAVAILABLE = (
    r"(?:(?:isn't|aren't|is\s++not|are\s++not)\s++(?:available|supported|installed)"
    r"|(?:is|are)\s++(?:blocked|disabled)|(?:doesn't|don't|does\s++not|do\s++not)\s++exist)\b"
)
_PHRASE = rf"(?!{_NOT_SUBJECT})[a-z][\w-]*+(?:\s++(?!{_NOT_SUBJECT})[a-z][\w-]*+){{0,2}}"
_VERDICT = (
    r"(?:(?:completely|totally|absolutely|definitely|just|also|really|simply|all)\s++)?"
    r"(?:a\s++(?:total\s++|hard\s++)?no[- ]?go|out\s++of\s++the\s++question|off\s++the\s++table"
    r"|off\s++the\s++menu"
    r"|not\s++an\s++option|not\s++(?:allowed|permitted|possible)|banned|forbidden"
    # "dairy is out", "toll roads are out for me" (not "out of stock", "out for maintenance",
    # "out and has breaking changes"; and see ``_ruled_out``)
    r"|out(?=\s*+(?:[.,;:!?()—–]|-\s|$|for\s++(?:me|us|now|good|them|him|her)\b"
    # a reason or a while after it: "driving is out since I lost my licence", "gluten is
    # out in our house", "cooking is out this week", "dairy is out at the moment", "using
    # the stairs is out for a few weeks" (not "out of date", "out for maintenance")
    # "alcohol is out today", "meat is out tonight"
    r"|(?:since|because|as|until|till|while|after|now|completely|entirely|anyway|too|today"
    r"|tonight|tomorrow)\b"
    r"|in\s++(?:our|my|this)\s++(?:house|home|household|family|flat)\b"
    r"|(?:this|next)\s++(?:week|month|year|weekend|term|time)\b|right\s++now\b|these\s++days\b"
    r"|at\s++the\s++moment\b|for\s++(?:a\s++(?:few|couple|while|bit)|the\s++(?:next|rest|time"
    r"|foreseeable|moment|summer|winter)|several|some|\d+|two|three|four|six)\b)))\b"
)
#: The verdict said with a negated copula: "a car isn't an option", "drilling isn't possible".
#: ("kids aren't allowed to have screens": what the kids may not do, not the kids)
_NOT_VERDICT = (
    r"\s++(?:really\s++|actually\s++)?(?:an\s++option|possible|allowed|permitted)\b(?!\s+to\b)"
)
#: "sugar's out this month" as "sugar is out this month".
_IS_VERDICT = rf"(?:(?:\s++is\s++|['’]s\s++){_VERDICT}|\s++(?:isn't|is\s++not){_NOT_VERDICT})"
_ARE_VERDICT = rf"(?:are\s++{_VERDICT}|(?:aren't|are\s++not){_NOT_VERDICT})"
#: "anything from Brava is out for me", "anything with nuts is off the table": what it has.
_ANYTHING_OF = (
    r"(?:(?:anything|everything|something)\s++(?:from|with|by|containing|involving"
    r"|made\s++(?:with|from|of)|(?:that|which)\s++(?:has|have|contains|uses|needs|involves|requires))\s++)?"
)
#: Examples in brackets after what is ruled out: "electronic silent systems (yamaha silent
#: brass etc) are not an option" rules out the examples too.
_EXAMPLES_AFTER = r"(?:\s*+\((?P<{}>[^()]{{1,80}})\))?"
#: "of any kind" after what is ruled out: "craft knives and blades of any kind are not
#: allowed" rules out the knives and the blades.
_OF_ANY_KIND = r"(?:\s++of\s++(?:any|every)\s++(?:kind|sort|type|description))?"
_RULED_OUT_RE = re.compile(
    rf"(?<![\w'-]){_ANYTHING_OF}(?P<x>{_PHRASE}){_OF_ANY_KIND}{_EXAMPLES_AFTER.format('egx')}"
    rf"{_IS_VERDICT}"
    rf"|(?<![\w'-]){_ANYTHING_OF}(?P<l>(?:{_PHRASE},\s*+){{0,6}}(?:{_PHRASE},?\s++(?:and|or)\s++)?{_PHRASE})"
    rf"{_OF_ANY_KIND}{_EXAMPLES_AFTER.format('egl')}\s++{_ARE_VERDICT}"
    # a function, a method or a product the asker's setup lacks: "so XLOOKUP isn't
    # available", "PUT and DELETE are blocked" (kept only when written as a name, see
    # ``_named``; "my drain is blocked" is a situation)
    rf"|(?<![\w'-])(?P<z>(?:{_PHRASE},\s*+){{0,6}}(?:{_PHRASE},?\s++(?:and|or)\s++)?{_PHRASE})"
    rf"\s++{UNAVAILABLE}",
    re.IGNORECASE,
)
#: A list set aside in a "with" clause: "with bouncy castles, pony rides and the coconut shy
#: all off the table", "with gazebos and marquees off the table"; and one added with "along
#: with" after a verdict: "since mealworms and waxworms are off the table along with
#: superworms".
_WITH_OFF_RE = re.compile(
    rf"\bwith\s++(?P<l>(?:{_PHRASE},\s*+){{0,6}}(?:{_PHRASE},?\s++(?:and|or)\s++)?{_PHRASE})"
    r"\s++(?:all\s++|both\s++)?(?:off\s++the\s++(?:table|menu|list|cards)|off\s++limits"
    r"|out\s++of\s++the\s++question|ruled\s++out)\b"
    r"|\b(?:off\s++the\s++(?:table|menu|list)|off\s++limits|out\s++of\s++the\s++question)"
    rf"\s++(?:along|together)\s++with\s++(?P<a>{_PHRASE})",
    re.IGNORECASE,
)
_ALL_AFTER = re.compile(r"\s+(?:all|both)$", re.IGNORECASE)
_EG_OPEN = re.compile(
    r"^\s*(?:e\.?g\.?|i\.?e\.?|like|such\s+as|say|for\s+(?:example|instance)|including)[\s,:]*",
    re.IGNORECASE,
)
#: The tail of a bracket's examples: "Roundup and similar", "brie, camembert, that kind of
#: thing", "mousse etc".
_EG_TAIL = re.compile(
    r"(?:,?\s*\b(?:and|or)\s+(?:similar|the\s+like|so\s+on|others|anything\s+like\s+that)"
    r"|,?\s*\b(?:that|this)\s+(?:kind|sort)\s+of\s+thing|\s*\betc)\W*$",
    re.IGNORECASE,
)


def _examples(text: str) -> str:
    """What a bracket names as examples ("e.g. X", "like X or Y", "X etc", "X and
    similar"), or "" when it says something else ("the sleeper included", "heart
    arrhythmia, doctor's orders")."""
    if _EG_OPEN.match(text) or _EG_TAIL.search(text):
        return _EG_TAIL.sub("", _EG_OPEN.sub("", text))
    return ""  # a bare list may give reasons ("arrhythmia, insomnia") or what is used instead


#: An act ruled out whole: "running ethernet cables through walls isn't an option",
#: "paying for chores is out", "rebooting or powering it off is off the table". The act is
#: what is excluded, not the last word before the verdict (the walls): see ``_acts``.
_ACT_WORD = (
    r"(?!(?:so|but|because|since|if|when|while|then|is|are|was|were|isn't|aren't|am|i|i'm"
    r"|we|we're|you|he|she|they)\b)[\w'/-]++"
)
_ACT_RE = re.compile(
    rf"(?<![\w'-])(?P<a>[a-z]{{2,}}ing(?:\s++{_ACT_WORD}){{0,6}}?){_IS_VERDICT}",
    re.IGNORECASE,
)
#: Words in -ing that name no act: "anything is out", "the morning is out".
_ING_NOUNS = frozenset(
    "thing something anything nothing everything morning evening king ring string spring wing"
    " sibling pudding wedding ceiling".split()
)
#: Where an act may open: at the start of its sentence or clause, or after a verb of saying
#: ("my landlord says drilling is out", "we agreed that paying for grades is out").
_ACT_OPENS = re.compile(
    r"(?:^|[,;:(—–-]|\b(?:so|but|and|because|since|as|though|although|cause|cuz|also|plus|then"
    r"|says?|said|thinks?|told\s+(?:me|us)|means?|know|guess|reckon|agreed|decided|that)(?:\s+that)?)\s*$",
    re.IGNORECASE,
)
#: Gerunds whose object is the thing ruled out: "using Docker isn't an option" rules out
#: Docker (read as by ``_clean_term``), "paying for chores is out" the paying.
_THING_GERUNDS = frozenset(
    "using eating drinking installing importing buying ordering wearing including adding"
    " mentioning having getting going travelling traveling playing doing".split()
)
#: What is "out" for a while, not ruled out: "the power is out", "the tide is out".
_OUT_OF_SERVICE = frozenset(
    "power electricity internet wifi wi-fi signal network lights sun moon tide school".split()
)
#: What is "out" when it is published: "exam results are out today", "the new season is out".
_RELEASED = frozenset(
    "results grades marks scores tickets episode episodes season album film movie book update"
    " version release trailer report list news rota schedule timetable".split()
)
_DEFINITE = frozenset("the my our your his her their this that these those".split())


def _ruled_out(sentence: str, m: re.Match[str]) -> bool:
    """Whether a ``_RULED_OUT_RE`` match rules its thing out: "dairy is out", "a hangboard is
    out" (but not "when the tide is out", "the power is out", "my husband is out")."""
    if not re.search(r"\bout\s*$", m.group(0), re.IGNORECASE):
        return True
    if re.search(
        r"\b(?:when|while|once|until|till|after|before|if|whenever)\s+$",
        sentence[: m.start()],
        re.I,
    ):
        return False
    words = m.group(0).lower().split()
    # "the non-lucrative visa is out since you can't work on it": a reason given rules it out
    # (not "the tide is out", "my husband is out")
    reasoned = (
        words[0] == "the"
        and words[1] not in _TOLD
        and _REASON_AFTER.match(sentence, m.end()) is not None
    )
    return (words[0] not in _DEFINITE or reasoned) and not _NOT_RULED_OUT.intersection(words)


#: What "is out" when it is told, never a thing ruled out: "the secret is out because ...".
_TOLD = frozenset("secret secrets news word truth cat story".split())
_REASON_AFTER = re.compile(
    r"\s+(?:since|because)\s+(?:i|we|you|it|they|there|my|our|the|his|her|someone|somebody)\b",
    re.IGNORECASE,
)


#: A time or a place after "X is out" that tells someone is away ("Tom is out until 5", "Mum
#: is out at work", "Sam is out tonight"): read by ``request_analysis`` of one capitalised
#: name that no list of things knows.
AWAY = re.compile(
    r"\s+(?:(?:until|till|til)\s+(?:\d|noon|lunch|tonight|tomorrow|late|later|the\s+evening"
    r"|this\s+(?:evening|afternoon)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"|at\s+(?:work|school|the\s+office)|today\b|tonight\b|all\s+day|for\s+the\s+(?:day"
    r"|evening|night|afternoon))",
    re.IGNORECASE,
)


def _acts(sentence: str) -> list[tuple[str, str, tuple[int, int]]]:
    """The acts ``sentence`` rules out whole, each as (term, phrase, span)."""
    out: list[tuple[str, str, tuple[int, int]]] = []
    for m in _ACT_RE.finditer(sentence):
        act = m.group("a")
        first = act.split()[0].lower()
        if first in _ING_NOUNS or not _ACT_OPENS.search(sentence[: m.start()]):
            continue
        if not _ruled_out(sentence, m):
            continue
        terms = [t for p in _pieces(act) if (t := _act_term(p))]
        out += [(t, m.group(0), m.span()) for t in terms]
    return out


def _act_term(piece: str) -> str | None:
    """The excluded item of one act: the act itself ("running ethernet cables through
    walls"), or the thing when the verb only takes it ("using docker": docker)."""
    words = _CHAT_TAIL.sub("", piece.strip(" '\"-").lower()).split()
    if len(words) < 2 or words[0] in _THING_GERUNDS or not words[0].endswith("ing"):
        return _clean_term(" ".join(words))
    if len(words) > MAX_ACT_WORDS or _SUBJECTS.intersection(words):
        return None
    return " ".join(words)


MAX_ACT_WORDS = 7
#: A name as code and products are written: capitals after the first letter, a digit, an
#: underscore or brackets ("XLOOKUP", "ROW_NUMBER()", "PUT, PATCH").
_NAMED = re.compile(r"[A-Z][^\s]*[A-Z]|[_()\d]")
_LEADING = re.compile(
    r"^(?:(?:no|zero|hate|dislike|a|an|the|any|some|all|my|your|our|their|this|that|these|those|kind|kinds|sort"
    r"|type|types|use|using|of|to|be|more|extra|added|going|travelling|traveling|by|getting"
    r"|having|doing|eating|drinking|playing|mentioning|including|adding|touching|buying|ordering"
    r"|wearing|mood\s+for|into|pay(?:ing)?\s+for|another|(?:being\s+)?(?:locked|tied)\s+(?:in)?to"
    r"|stuck\s+with|pulling\s+in|bringing\s+in|installing|importing"
    r"|rely(?:ing)?\s+on|depend(?:ing)?\s+on|(?:anything|stuff)\s+(?:about|on|regarding)"
    # "lean on plant ID apps" (not "lean on the supplier for a discount": pressed, no use)
    r"|lean(?:ing)?\s+on(?!\s+(?:the|my|our|your|his|her|their|a|an|this|that|these|those"
    r"|them|him|me|us)\b)"
    r"|with"
    r"|me|him|us|them|not\s+even|even)\s+)+",
    re.IGNORECASE,
)
#: (not inside a compound: "peel-and-stick tiles", "all-or-nothing")
_SPLIT = re.compile(r",|(?<!-)\b(?:or|nor|and)\b(?!-)|/", re.IGNORECASE)
#: Where a "can't get" cannot reach: "can't get into my account", "can't get through to
#: customer service", "can't get hold of anyone", "can't get back to sleep".
_GOT_TO = re.compile(
    r"(?:into|in\s+to|through|past|hold\s+of|(?:a)?round\s+to|back\s+(?:to|into))\b",
    re.IGNORECASE,
)
#: ... said of what the asker cannot do (not "don't want to get into macros": engage with
#: them; "can't get down on the floor" is a limit, still read).
_CANT_GET = re.compile(
    r"(?:\bcan'?t|\bcannot|\bcouldn'?t|\bcan\s+not)\s+(?:\w+\s+)?get\s+$", re.IGNORECASE
)
#: A piece that opens with a cue of its own ("... and no touching the wiring") or an act
#: of its own ("... or using adhesive strips"): no place of the act before it.
_CUED = re.compile(r"(?:no|not|never|without)\b", re.IGNORECASE)
#: (``_GERUND`` asks three letters before "-ing", which "using" has not.)
_PIECE_ACT = re.compile(r"[a-z]{2,}ing\b", re.IGNORECASE)
#: An act and the places it is done in: "drilling into walls or ceilings", "painting on
#: brick or stone" (the places are where the act is ruled out, not things ruled out).
_ACT_PLACES = re.compile(
    r"^(?P<act>[a-z]{3,}ing\s+(?:into|through|in|on|onto|under|behind))\s+(?P<places>.+)$",
    re.IGNORECASE,
)
#: How a thing looks or feels, compared with another after "like": "not glossy like glass",
#: "nothing sticky like honey" (the likeness is no thing ruled out).
_LOOKS = frozenset(
    """
    glossy shiny sticky greasy soggy mushy chewy slimy glassy plasticky tacky garish flashy
    rubbery waxy grainy gritty lumpy stodgy sugary spicy clammy stuffy sweaty noisy bumpy
    oily smelly fishy salty fiddly flimsy bulky heavy harsh scratchy itchy stiff
    """.split()
)
#: A class and its examples: "apps like Duolingo", "party islands such as Mykonos" (both
#: excluded; a short class that opens with no question word or pronoun, short examples).
_EXAMPLES = re.compile(
    r"^\s*(?P<cls>(?!(?:how|what|which|feel|feels|i|i'd|i'm|we|you|it|its)\b)[\w'-]+(?:\s+[\w'-]+){0,2})"
    r"\s+(?:like|such\s+as|e\.g\.?)\s+(?P<ex>\S+(?:\s+\S+){0,2})\s*$",
    re.IGNORECASE,
)


#: Where a list of what is ruled out turns into what there is instead: "I don't have gummed
#: tape, just masking tape, staples and a board" (the staples are what the asker has).
_INSTEAD = re.compile(r"^\s*(?:but|apart\s+from|except)\b|\b(?:just|only)\b", re.IGNORECASE)
#: A later item of the list that is a clause of its own, with a verb: "don't want to switch
#: to appointments, walk-ins are our thing and the regulars like it", "rather not pay for
#: Final Draft, and my laptop runs Ubuntu anyway": the list ended before it.
_OWN_CLAUSE = re.compile(
    r"\b(?:is|are|was|were|isn't|aren't|runs|like|likes|love|loves|hate|hates|has|have|had"
    r"|keeps|wants|says|said|thinks)\b",
    re.IGNORECASE,
)


#: Classes that only introduce their examples: "no words like token, API, OAuth" rules out
#: the examples, not every word.
_EMPTY_CLASSES = frozenset("words word terms term phrases phrase things stuff names".split())
#: A relative clause after a class's examples: "claim companies like AirHelp that take 30%".
_ANY_OF = re.compile(r"^\s*(?:any|all)\s+of\s+(?:those|these|the)\s+", re.I)
_RELATIVE = re.compile(r"\s+(?:that|which|who)\s+(?!(?:is|are|isn't|aren't)\b)\w.*$", re.I)


#: A later piece that widens the ban to more items: "no dairy, that includes ghee", "no
#: screens, which includes the TV".
_THAT_INCLUDES = re.compile(
    r"^\s*(?:and\s+)?(?:that|which|this)\s+(?:also\s+)?(?:includes?|means|covers)\s+"
    r"(?:(?:the|any|all)\s+)?",
    re.IGNORECASE,
)


#: What may not be done with the thing, after it: "no insects kept or stored in the flat"
#: rules out insects.
_KEPT_TAIL = re.compile(
    r"(?<=\w)\s+(?:kept|stored|allowed|permitted|brought\s+in)"
    r"(?:\s+(?:or|and)\s+(?:kept|stored|allowed|permitted|brought\s+in))?\b.*$",
    re.IGNORECASE,
)


#: The "not" or "no" of a later item of a list ruled out item by item (not "not even":
#: "no cement anywhere, not even on the copes" names where, read as it is).
_NOT_AGAIN = re.compile(r"^\s*(?:not|no|nor)\s+(?!even\b)", re.IGNORECASE)
#: A later piece that only says whom the first is charged to: "... or per team".
_PER_ONE = re.compile(r"^\s*per\s+[a-z]+\s*$", re.IGNORECASE)
#: How often, before "per": "once per test", "twice per day", "3 times per week".
_HOW_OFTEN = re.compile(r"^(?:once|twice|thrice|\d+|one|two|three|four|five|several|many)$")


def _told_of_the_first(piece: str, first: str) -> bool:
    """Whether a later piece of a list tells the first item's kind ("no loans, federal or
    private, not even the 'good' kind": loans all), state ("no fruit, dried or fresh") or
    charge ("no entry fee per player or per team": the fee, charged either way)."""
    return bool(
        _OF_THE_FIRST.match(piece)
        or (_STATE_OF_THE_FIRST.match(piece) and not _STATE_OF_THE_FIRST.match(first))
        or _PER_ONE.match(_NOT_AGAIN.sub("", piece))
    )


def _pieces(term: str) -> list[str]:
    """The items of one excluded phrase: split at commas and or/and, a class apart from its
    examples (the class left out when it only introduces them: "words like ..."); the list
    ends where it turns to what there is instead ("just ...")."""
    out: list[str] = []
    term = _KEPT_TAIL.sub("", term)
    act = _ACT_PLACES.match(term.strip())
    if act is not None:  # "drilling into walls or ceilings": one act, two places
        pieces = [p.strip() for p in _SPLIT.split(act.group("places")) if p.strip()]
        places = list(
            itertools.takewhile(
                lambda p: (
                    len(p.split()) <= 3
                    and not _CUED.match(p)
                    and not (_PIECE_ACT.match(p) and p.split()[0].lower() not in _ING_NOUNS)
                ),
                pieces,
            )
        )
        if len(places) > 1:
            rest = pieces[len(places) :]
            return [f"{act.group('act')} {p}" for p in places] + (
                _pieces(" and ".join(rest)) if rest else []
            )
    split = _SPLIT.split(term)
    for n, piece in enumerate(split):
        if _INSTEAD.search(piece) or (n and _ASKED_NEXT.match(piece)):
            break
        if n and _told_of_the_first(piece, split[0]):
            continue
        if n and _OWN_CLAUSE.search(piece) and not _RELATIVE.search(piece):
            break
        if re.search(r"\s(?:like|such\s+as)\s", piece, re.I):
            # the clause restricts the examples, not the class: "claim companies like
            # AirHelp that take 30%" (but "shoes that pinch my toes" are only those shoes)
            piece = _RELATIVE.sub("", piece)
        piece = _ANY_OF.sub("", piece)  # "any of those claim companies like AirHelp"
        if n:  # "nothing with fragrance, and that includes essential oils"
            piece = _THAT_INCLUDES.sub("", piece)
            # each item ruled out again: "no powder - not the official stuff, not cornstarch"
            piece = _NOT_AGAIN.sub("", piece)
        m = _EXAMPLES.match(piece)
        if m and m.group("cls").lower() in _LOOKS:
            out.append(m.group("cls"))  # "not glossy like glass": a likeness, not an example
        elif m and m.group("cls").lower() in _EMPTY_CLASSES:
            out.append(m.group("ex"))
        else:
            out += [m.group("cls"), m.group("ex")] if m else [piece]
    return _owned_before(_shared_head(out))


#: Words of a colour or a material, which name a kind of the noun after them: "no red or
#: white wine", "anything with a plastic or delrin head" (the last item's noun is theirs).
_KIND_WORDS = frozenset(
    """
    red white black blue green pink brown yellow grey gray purple silver gold plastic metal
    wooden wood glass steel leather rubber foam silicone nylon cotton wool paper aluminium
    aluminum carbon ceramic bamboo vinyl acrylic polyester latex resin delrin suede abs
    composite canvas denim linen silk velvet brass copper chrome titanium iron stone cork
    """.split()
)
#: What opens an item before its words: "no urethane", "a plastic".
_ITEM_OPENS = re.compile(r"^(?:no|not|any|a|an|the|without)\s+", re.IGNORECASE)


def _shared_head(items: list[str]) -> list[str]:
    """The items with the last one's noun given to those that end on a colour or a material
    only ("red" in "no red or white wine": red wine, not anything red)."""
    last = (
        _ITEM_OPENS.sub("", _CHAT_TAIL.sub("", items[-1].lower().strip())).split() if items else []
    )
    # (the last item a kind of a noun itself: "white wine", not "no urethane")
    if len(items) < 2 or len(last) < 2 or last[0] not in _KIND_WORDS or last[-1] in _KIND_WORDS:
        return items
    return [
        f"{p.rstrip()} {last[-1]}" if p.split() and p.split()[-1].lower() in _KIND_WORDS else p
        for p in items[:-1]
    ] + items[-1:]


#: A first item's word of former ownership, said of every item after it: "no used helmets
#: or buoyancy aids" rules out used buoyancy aids, not new ones (``FORMER_OWNER``, also
#: read by ``affirmation``).
FORMER_OWNER = r"(?:used|second[- ]?hand|pre-?owned|pre-?loved|refurbished|ex-?display|ex-?rental)"
_OWNED_BEFORE = re.compile(rf"^\s*{FORMER_OWNER}\s+", re.IGNORECASE)


def _owned_before(items: list[str]) -> list[str]:
    first = _OWNED_BEFORE.match(items[0]) if len(items) > 1 else None
    if first is None:
        return items
    word = first.group(0).strip()
    return [
        items[0],
        *(
            p if not p.strip() or _OWNED_BEFORE.match(p) else f"{word} {p.strip()}"
            for p in items[1:]
        ),
    ]


#: A later piece of a list that only sorts its first item: "no loans, federal or private,
#: not even the 'good' kind" rules out loans, not "federal" or "private".
_OF_THE_FIRST = re.compile(
    r"^\s*(?:not\s+even\s+|even\s+)?(?:(?:the|a)\s+(?:['\"‘“]?[\w-]+['\"’”]?\s+)?"
    r"(?:kinds?|types?|sorts?|ones?)|federal|private|public|personal|government|state|student"
    r"|commercial|national|international|domestic|foreign|local)\s*$",
    re.IGNORECASE,
)
#: A later piece that only says which state of the first item: "no fruit, dried or fresh".
_STATE_OF_THE_FIRST = re.compile(
    r"^\s*(?:dried|fresh|frozen|raw|cooked|tinned|canned|powdered|ground|whole|smoked"
    r"|(?:un)?sweetened|hot|cold|iced|new|used|second-?hand|real|fake|natural|organic"
    r"|home-?made|(?:shop|store)-?bought|liquid|solid)\s*$",
    re.IGNORECASE,
)
_STOP_TERMS = frozenset(
    {
        "etc",  # a list's tail: "none of passionate, dynamic, etc."
        # "crickets, locusts or anything like that": the list's tail
        "anything like",
        "something like",
        "stuff like",
        "the like",
        # "I won't feed live - not an option in our house": the option is no thing
        "option",
        "options",
        "none",  # a stress closing a list: "zero cords, not tucked away, none"
        # a remark after the refusal: "I don't want to ask my brother-in-law, long story"
        "long story",
        "it",
        "them",
        "that",
        "this",
        "one",
        "thing",
        "things",
        "anything",
        "something",
        "nothing",
        "everything",
        # "hate the taste", "can't stand the smell": a property; what has it is named elsewhere
        "taste",
        "smell",
        "texture",
        "feel",
        "look",
        "sound",
        "please",
        "me",
        "you",
        "i",
        "we",
        "sure",
        "good",
        "bad",
        "problem",
        "idea",
        "longer",
        "more",
        "less",
        "else",
        "any",
        # question words and a thing pointed back at: "no paid tools possible. What free
        # tools ...", "most of us can't stand that stuff"
        "what",
        "which",
        "how",
        "stuff",
        "that stuff",
        "this stuff",
        # adverbs and particles a cue can run into: "don't have time", "who aren't there",
        # "rather not go", "not get out"
        "time",
        "whatever",
        "interested",
        "not interested",
        "there",
        "here",
        "out",
        "off",
        "on",
        "up",
        "go",
        "from",
        # "can't get under it", "can't get through": where, not what ("over" and "down"
        # stay: SQL's OVER, a coat's down)
        "under",
        "behind",
        "inside",
        "through",
        "in",
        "back",
    }
)
MAX_TERM_WORDS = 4
#: The subject pronouns of ``_PRONOUNS``: a term with one is a clause that ran on past the
#: excluded thing ("by Wednesday I'm ordering takeout").
_SUBJECTS = _PRONOUNS - frozenset("it it's its you you're that's my our his their".split())


#: A verb that opens a dispreferred activity: "turn the oven on" excludes the oven.
_ACTIVITY_VERBS = frozenset(
    "turn use spend go deal cook buy make take eat have get pay wear do hire call install put"
    " switch run ride fly rent book bake fry watch".split()
)
_TRAILING = re.compile(
    r"\s+(?:on|off|up|out|tonight|today|anymore|again|now|this\s+\w+|at\s+all|every\s+\w+|much)$"
)


#: Chat filler and time words that trail an excluded term: "no peanuts pls", "not rodents
#: though", "no meat this week".
_CHAT_TAIL = re.compile(
    r"(?:\s+(?:pls|plz|please|lol|though|tho|rn|actually|either|anyway|anymore|again|at\s+all|for\s+it"
    # "avoid anything with bleach too"
    r"|too|as\s+well"
    # "I don't eat meat btw", "no dairy tbh"
    r"|btw|tbh|fyi|imo|honestly|anywhere|whatsoever|obviously|of\s+course|completely|entirely"
    r"|outright"
    r"|altogether"
    r"|on\s+site|onsite|on\s+this(?:\s+one)?|(?:in|for)\s+this\s+one"
    r"|thanks|thx|tonight|today|tomorrow|this\s+(?:week|month|year|time|weekend)"
    # "no oven right now", "avoiding caffeine after lunch": when, not what
    r"|right\s+now|at\s+the\s+moment|for\s+now|these\s+days|currently|now|ever\s+again"
    r"|any\s+longer|any\s+more"
    # where or when the rule holds: "banned fins completely in all lanes", "at any time"
    r"|(?:in|on|at|during)\s+(?:all|any|every)\s+(?:\w+\s+)?(?:lanes?|rooms?|times?|hours?"
    r"|areas?|classes|class|sessions?|days?|weather|circumstances|cases?|conditions?|zones?)"
    r"|(?:after|before)\s+(?:lunch|dinner|noon|work|bed|bedtime|\d+\s*(?:am|pm)?)"
    # how much there is: "no sun to speak of"
    r"|to\s+speak\s+of))+$"
)


#: A look that finds none: "I still don't see any larvae", "can't see a single egg".
_SEEN_NONE = re.compile(
    r"(?:[a-z]*n't|not|dont|cant|cannot|never)\s+see\s+(?:any|a\s+single|much|many|signs?)\b",
    re.IGNORECASE,
)
#: Things met many in a row, refused as a run and not one by one: "flights of locks".
_IN_A_ROW = re.compile(r"\bflights?\s+of\s+(?:locks|stairs|steps)$")
_OF_KIND = re.compile(
    r"\b(?:kind|kinds|sort|sorts|type|types|lots|lot|piece|pieces|bit|bits|any|some|use|amount"
    r"|form|forms|much|many|more|less)\s+of\s"
)


#: Verbs of bothering with a thing: what is refused is the thing ("rather not mess about
#: with the hotel iron").
_FIDDLE = re.compile(
    r"^(?:to\s+)?(?:mess|muck|faff|fiddle|fuss|play)\s+(?:about|around)\s+with\s+"
    r"|^(?:to\s+)?(?:bother|fiddle|fuss|faff)\s+with\s+"
)
#: A manner refused, which is what the refusal is about: "don't want to memorise a script
#: word for word", "translate it line by line", "learn French by rote" (an answer may well
#: memorise, translate or learn).
_MANNER = re.compile(r"\s(?:word\s+for\s+word|verbatim|by\s+rote|line\s+by\s+line)$")
#: Mentions of a thing, which rule out the thing: "no alcohol references", "references to
#: religion" (not "no dad jokes": a kind of joke).
_MENTIONS = re.compile(
    r"(?<=\w)\s+(?:references?|mentions?)$|^(?:any\s+)?(?:references?|mentions?)\s+(?:to|of|about)\s+"
    r"(?:(?:his|her|my|our|their|your)\s+)?"
)
#: Nouns that open with "pay": "no pay rises" rules out the rises of pay, not paying.
_PAY_NOUNS = frozenset(
    "pay rise|pay rises|pay raise|pay raises|pay cut|pay cuts|pay increase|pay increases".split("|")
)


_ANY_KIND = re.compile(
    r"\s+(?:of\s+any\s+(?:kind|sort|type)|in\s+any\s+(?:shape\s+or\s+)?form|whatsoever)$"
)


#: "anything" after a verb or a name stands for what is ruled out: "rather not solder
#: anything", "no Adobe anything", "no animal products in anything".
_ANYTHING = re.compile(r"(?<=\w)(?:\s+(?:in|for|on|with|to|from))?\s+anything$")
#: A gerund before "anything" keeps it: "not keen on taking anything" is about what is taken.
_GERUND = re.compile(r"[a-z]{3,}ing")


#: How often, not what: "rather not have to charge it every night" rules out the chore's
#: frequency, not charging (an answer may well say "two weeks between charges").
_FREQUENCY = re.compile(
    r"\b(?:(?:every|each)\s+(?:other\s+)?(?:day|night|morning|evening|week|weekend|month|year"
    r"|time|single\s+\w+)|daily|nightly|weekly|all\s+the\s+time|constantly)$"
)


#: Emphasis after an exclusion, not an item: "no port forwarding, full stop", "No nuts,
#: end of story."
_EMPHASIS = frozenset({"full stop", "period", "end of story", "no exceptions", "no excuses"})


#: Outcomes nobody sets out to cause: "I don't want to kill it", "without damaging the
#: enamel", "don't want to lose my data". The request names a harm to avoid, not a thing or
#: an activity an answer could suggest; answers name it to warn ("soggy roots kill junipers",
#: "steel wool will damage the enamel"), so it is no excluded item.
OUTCOME_VERBS = frozenset(
    (
        "kill killing damage damaging ruin ruining break breaking hurt hurting harm harming"
        " injure injuring shrink shrinking scratch scratching stain staining crack cracking"
        " wreck wrecking destroy destroying lose losing waste wasting spoil spoiling void"
        " voiding offend offending upset upsetting overwater overwatering overcook"
        " overcooking warp warping fade fading dent denting felt felting pill pilling"
        " trigger triggering"
        " scorch scorching corrupt corrupting"
        # what is put at stake: "I don't want to risk the seals", "compromise the warranty"
        " risk risking compromise compromising jeopardise jeopardising jeopardize jeopardizing"
    ).split()
)


def harms(verb: str, obj: str) -> bool:
    """Whether doing ``verb`` to ``obj`` (its first words) is a harm to one's own things:
    "ruin the pan", "break the drill bit", "kill it", "hurt her feelings" (not "kill the
    mice", "break up with him", "lose weight")."""
    if verb not in OUTCOME_VERBS or obj.startswith("up"):
        return False
    if verb in _AT_STAKE:
        # "risk a fine", "compromise the warranty": whatever is at stake (but "risk it with
        # raw eggs" names the thing refused)
        return not re.match(r"it\s+(?:with|on)\b", obj)
    own = _OWN_OBJECT if verb in _AMBIGUOUS_HARMS else _ANY_OBJECT
    return bool(own.match(obj))


#: Harms that are also things people choose to do ("kill the mice", "lose weight"): only of
#: the asker's own thing or the one asked about ("kill it", "lose my data").
_AMBIGUOUS_HARMS = frozenset(
    "kill killing hurt hurting harm harming injure injuring lose losing waste wasting offend"
    " offending upset upsetting trigger triggering".split()
)
#: Verbs that put their object at stake, whatever it is: "risk a fine".
_AT_STAKE = frozenset(
    "risk risking compromise compromising jeopardise jeopardising jeopardize jeopardizing".split()
)
_OWN_OBJECT = re.compile(r"(?:it|them|my|our|your|his|her|their)\b")
_ANY_OBJECT = re.compile(r"(?:it|them|my|our|your|his|her|their|the|this|that|these|those)\b")


def _outcome(term: str, phrase: str) -> bool:
    """Whether ``term`` names a harm to avoid: "without damaging the enamel", "don't want to
    kill it", "don't want to break the bit", "dont want it to shrink or felt" (not "no
    killing", "I don't want to kill the mice", "no breaking changes")."""
    words = term.split()
    if not words or words[0] not in OUTCOME_VERBS:
        return False
    first = words[0]
    if first.endswith("ing"):  # "without damaging the paint", "avoid scratching"
        return bool(re.match(rf"(?:without|avoid|avoiding)\s+{first}\b", phrase, re.IGNORECASE))
    after = re.search(
        rf"\b(?:to|rather\s+not|prefer\s+not)\s+(?:[a-z]+\s+(?:or|and)\s+)?{first}\b\s*(.*)",
        phrase,
        re.I,
    )
    if after is None:
        return False
    if first == "stain" and _A_FINISH_TOO.search(phrase):
        return False  # "don't want to stain it or use any tinted finish": a finish refused
    # "want it to shrink or felt" / "want to kill it", "to ruin my pan"
    return bool(re.search(r"\b(?:it|them)\s+to\s", phrase, re.I)) or harms(first, after.group(1))


#: What opens a second object of a harm: "risk the water resistance or the seals".
_OBJECT_OPENS = re.compile(r"(?:the|my|our|its|their|his|her|your|any)\s", re.IGNORECASE)


def _harmed_less(pieces: list[str], phrase: str) -> list[str]:
    """``pieces`` less the further objects of a harm named first: "don't want to risk the
    water resistance or the seals" (the seals are at stake too, not a thing refused), but
    "don't want to damage the floor or use bleach" keeps the bleach."""
    if not pieces or not _outcome(_clean_term(pieces[0]) or "", phrase):
        return pieces
    return [pieces[0]] + [p for p in pieces[1:] if not _OBJECT_OPENS.match(p.strip())]


#: A finish named beside "stain": the staining is a finish chosen, not a mark to avoid.
_A_FINISH_TOO = re.compile(
    r"\bor\s+(?:use|apply|add|put\s+on)\s+(?:any\s+|a\s+|an\s+)?(?:[\w-]+\s+)?"
    r"(?:finish|varnish|dye|paint|oil|wax|lacquer|polyurethane|poly|colou?r)",
    re.IGNORECASE,
)


#: A statistic the request quotes, not a thing ("not significant, p=0.81"); "shell=True"
#: is still an option to rule out.
#: A conversion refused, read as what the thing would become: "turn the bathroom into a
#: walk-in shower" rules out the walk-in shower, "convert my road bike to electric" electric.
_BECOME = re.compile(
    r"^(?:convert|converting|turn|turning|make|making)\s+(?:(?!(?:into|to)\b)[\w'-]+\s+){0,3}?"
    r"(?:into|(?<!make\s)(?<!making\s)to)\s+"
    r"(?:(?:an?|the|some\s+kind\s+of|a\s+proper|a\s+full)\s+)?(?:proper\s+|full\s+)?(?=\S)"
)
#: How many are in or on the thing, told after it: "with 16+ strangers", "with 200 guests".
_HOW_MANY_IN = re.compile(r"\s+with\s+(?:up\s+to\s+|over\s+)?\d+\+?(?:\s+or\s+more)?\s+[a-z]+$")
_DATUM = re.compile(r"[a-z]{1,2}\s*[=<>]\s*\d")
#: Figures only, never a thing: "12-14", "4/5", "3.5".
_FIGURES = re.compile(r"[\d\s.,:/%+–-]+")


#: What a thing would be for, after it: "rely on a petrol generator for power", "rely on my
#: parents for money", "my car for commuting", "Google for everything" (not "willpower
#: alone": only it alone is ruled out).
_RELIED = re.compile(r"\s*(?:rely(?:ing)?\s+on|depend(?:ing)?\s+on|use|using)\b", re.I)
_PURPOSE_TAIL = re.compile(
    r"(?<=\w)\s+for\s+(?:power|money|cash|heat|heating|light|lighting|electricity|energy"
    r"|transport|storage|help|advice|support|everything|anything|[a-z]{3,}ing)$"
)
_WHEN_CUT = re.compile(
    r"\s+(?:anywhere\b|(?:after|since|because|when)\s+(?:he|she|they|we|i|it)\b"
    # a reason after it: "won't use Venmo after getting scammed", "since the last update"
    r"|(?:after|since)\s+(?:getting|being|having|losing|paying|reading|seeing|hearing|finding"
    r"|the\s+(?:last|latest|recent)|last\s+(?:time|year|month|week)|what\s+happened)\b"
    # "banned all Bluetooth gear after a lifeguard missed a kid": what happened, a reason
    r"|(?:after|since|because)\s+(?:a|an|the|some|one|our|my)\s+[a-z]+\s+[a-z]+ed\b"
    # where the rule holds: "no Bluetooth devices past the gate"
    r"|(?:past|beyond|inside|outside|within)\s+(?:the|this|our|their)\s+[a-z]+\b"
    # how long it is ruled out for: "rather not repot until it's finished flowering" (not
    # what the asker must do first: "won't play on my car stereo until I format the stick")
    r"|(?:until|till)\b(?!\s+(?:i|we)\b))"
)
#: The particle of a phrasal verb before its object ("take out a loan", "take on debt"):
#: read only after "take", "put" or "sign", or where a verb of ``_ACTIVITY_VERBS`` led.
_PARTICLE = re.compile(r"^(?:on|out|up|for)\s+(?=[a-z])")
_PHRASAL_VERB = re.compile(r"\b(?:take|taking|put|putting|sign|signing)\s+$", re.IGNORECASE)


def _named(m: re.Match[str]) -> str:
    """The thing of a ``z`` match when it is written as a name ("XLOOKUP"), else ""."""
    z = m.group("z") or ""
    return z if _NAMED.search(z) else ""


def _allergen(words: str) -> str | None:
    """The allergen of "severe peanut" (allergy): "peanut"; ``None`` for "food", "pet"."""
    parts = re.split(r"[- ]", words.lower())
    pair = " ".join(parts[-2:])
    if pair in _ALLERGEN_PAIRS:
        return _ALLERGEN_PAIRS[pair]
    return parts[-1] if parts[-1] in ALLERGENS else None


#: A vague noun after what is named: "the foil stuff", "camping things".
_VAGUE_TAIL = re.compile(r"(\w+)\s+(?:stuff|things)$")
_ADJECTIVE_ENDINGS = ("y", "ic", "al", "ous", "ful", "ive", "ish", "ed", "less", "able", "ible")


#: What "anything" is ruled out for: "skip anything with barre chords", "avoid anything that
#: has nuts", "no anything containing dairy" (what it has is the excluded thing).
_ANYTHING_WITH = re.compile(
    r"^(?:anything|something|everything|stuff|things?)\s+(?:with|containing|involving|using|from"
    r"|made\s+(?:with|from|of)|(?:that|which)\s+(?:has|have|contains?|uses?|needs?|requires?"
    r"|involves?|includes?|relies\s+on)|(?:that|which)['’]s\s+got)\s+(?:any\s+)?"
)


#: Things told by where they are, whose place is no surface cut off: "the room on the
#: ground floor".
_LOCATED = frozenset(
    "room rooms space area hall office kitchen bathroom floor lift stairs entrance door desk"
    " table spot bay shelf cupboard locker bed".split()
)
#: Verbs that put a thing on a surface, and the surface after the thing: "use bleach | on
#: this countertop", "put salt | on the path".
_APPLY_BEFORE = re.compile(r"\b(?:use|using|put|putting|apply|applying|spray|spraying)\s+$", re.I)
_ON_SURFACE = re.compile(
    r"\s+(?:on|onto|in|into|inside|around|near)\s+(?:this|that|these|those|my|our|the|his|her"
    r"|their|your)\s+[a-z].*$"
)
#: Words that open a question: alone ("I can't see why") or opening a later piece of a list
#: ("can't use bleach on this, what else kills mold") they name no excluded thing ("don't
#: mention when I'll be back" does).
_QUESTION_OPENS = frozenset("what how which where why who when whats hows".split())
_ASKED_NEXT = re.compile(
    r"\s*(?:what|how|which|where|who)\s+(?:else|can|could|should|would|do|does|is|are)\b", re.I
)
#: An object pronoun alone ("don't put her on the rota") names no thing.
_OBJECT_PRONOUNS = frozenset("her him them me us".split())


#: How a thing is kept, stressed in a list after it ("zero cords, not tucked away, not
#: tied up high"): a way, no thing.
_HOW_KEPT = re.compile(r"^(?:not\s+)?[a-z]+ed\s+(?:away|up)(?:\s+[a-z]+)?$")
#: A plant family named whole: "the whole allium family", "the entire nightshade family"
#: rule out the allium and the nightshade (not "my whole family", "the Helvetica family").
FAMILIES = frozenset({"allium", "nightshade", "brassica"})
_FAMILY = re.compile(
    rf"^(?:the\s+)?(?:(?:whole|entire)\s+)?(?:the\s+)?({'|'.join(FAMILIES)})\s+family$"
)
#: What a request lists in brackets after what it rules out: "allergic to the whole allium
#: family (onion, garlic, shallots, leeks, chives, all of it)", "no retinoids of any kind
#: (retinol, tretinoin, adapalene etc)". Pieces of one to three words, with no article or
#: pronoun, and no word that makes them what is allowed ("oat milk, soy yoghurt instead").
#: Whether they are members or reasons ("no caffeine (arrhythmia, insomnia, reflux)") is
#: for ``request_analysis`` to tell.
_LISTED_AFTER = re.compile(
    r"\s*\((?:(?:e\.g\.?|i\.e\.?|like|such\s+as|including|incl\.?),?\s*)?"
    r"(?P<l>[a-z][a-z' -]*(?:\s*,\s*[a-z][a-z' -]*)+)[.,]?\s*\)",
    re.IGNORECASE,
)
_NOT_A_MEMBER_WORD = frozenset(
    "a an the my our your his her their it its so i we instead only except fine ok okay"
    " allowed".split()
)


def listed_after(query: str, phrase: str) -> list[str]:
    """The pieces a request lists in brackets right after ``phrase`` (``_LISTED_AFTER``)."""
    at = query.find(phrase)
    m = _LISTED_AFTER.match(query, at + len(phrase)) if at >= 0 else None
    if m is None:
        return []
    pieces = [p.strip() for p in re.split(r"\s*,\s*|\s+(?:and|or)\s+", m.group("l"))]
    pieces = [p for p in pieces if p and p.lower() not in ("etc", "all of it", "and so on")]
    if any(
        len(p.split()) > 3 or _NOT_A_MEMBER_WORD.intersection(p.lower().split()) for p in pieces
    ):
        return []
    return [t for p in pieces if (t := _clean_term(p)) and t not in _STOP_TERMS]


#: "yet" after an item ("no flip tricks yet"), not after a state ("not pushed yet").
_YET = re.compile(r"^(?![a-z'-]{3,}ed\s+yet$)(.+?)\s+yet$")
#: "etc" closing a list's last item.
_ETC = re.compile(r"(?<=\w)\s+etc\.?$")


#: Being on a site or app refused ("don't want to be on any social reading site", "rather
#: not be on social media"): the site or app is what is refused. Only these: being on a
#: diet, on medication, on the board or on a waiting list is a state the answer may well
#: talk about (taking one off, tapering it, leaving it).
_BE_ON = re.compile(
    r"^(?:to\s+)?be\s+on\s+(?:(?:any|a|an)\s+)?"
    r"(?=(?:[\w-]+\s+){0,2}(?:sites?|websites?|apps?|platforms?|networks?|media|forums?)$)"
)
#: The money a refusal withholds, after whom it is withheld from: "won't give Amazon any
#: more money", "rather not give Comcast another penny" (the company is the item).
_MONEY_TAIL = re.compile(
    r"(?<=\w)\s+(?:any\s+more|anymore|another|more|any|my|our|a\s+single|one\s+more)"
    r"\s+(?:(?:penny|cent|dime|dollar)\s+)?(?:of\s+(?:my|our)\s+)?(?:hard[\s-]earned\s+)?"
    r"(?:money|cash|penny|pennies|cents?|dimes?|dollars?|business|custom)$"
)

#: What is no company's name: a pronoun, a determiner, a person of the asker's own.
_NO_NAME = re.compile(
    r"(?:the|a|an|my|our|his|her|their|your|them|him|it|us|me|this|that|mom|mum|dad|mother"
    r"|father|parents?|son|daughter|kids?|children|brother|sister|ex|wife|husband|partner"
    r"|friends?|family)\b"
)


def _withheld_from(term: str) -> str:
    """Whom money is withheld from ("give amazon any more money": amazon), or ``term``
    where it names no one ("give them our business")."""
    whom = _MONEY_TAIL.sub("", term)
    if whom == term:
        return term
    whom = re.sub(r"^(?:to\s+)?(?:give|giving|pay|paying)\s+", "", whom)
    # a name, as a company's is ("amazon", "comcast"); not "the casino", "my landlord" or
    # "the irs", whom the answer may have to name to help ("ask the casino to ban you")
    named = re.fullmatch(r"[\w&.-]+(?:\s+[\w&.-]+)?", whom) and not _NO_NAME.match(whom)
    return whom if named else term


#: Who said it, before the thing: "the vicar says confetti and glitter ... are not allowed".
SAID_BY = re.compile(
    r"^(?:(?:the|my|our|his|her|their)\s+)?[a-z]+\s+(?:says?|said|insists|reckons)\s+(?:that\s+)?",
    re.IGNORECASE,
)


def _clean_term(raw: str) -> str | None:
    """The thing a cue's words name, or ``None`` where they name none."""
    term = _OTHERS_HAVE.sub("", raw.strip(" '\"-").lower())  # before its place is read as a tail
    term = SAID_BY.sub("", term)
    term = _CHAT_TAIL.sub("", _WHEN_TAIL.sub("", _CHAT_TAIL.sub("", term)))
    words = term.split()
    if len(words) > 2 and words[-2] == "per":
        if len(words) == 3 and _HOW_OFTEN.match(words[0]):
            return None  # how often, no thing: "not once per test", "one per line"
        # whom it is charged to: "no entry fee per player"
        words = words[:-2]
        term = " ".join(words)
    if len(words) > 2 and words[-1] == "there" and words[-2] in ("up", "down", "over", "out"):
        term = " ".join(words[:-2])  # "buy any gas up there": the gas
    elif len(words) > 1 and words[-1] == "there" and (len(words) > 2 or words[0].endswith("ing")):
        # where: "any firearm shooting there" (but "drive there" is the trip; "no sashiko
        # thread here" tells what the asker has, read as it was)
        term = " ".join(words[:-1])
    manner = _MANNER.search(term)
    if manner is not None:  # "memorise a script word for word": the manner is the point
        return manner.group(0).strip()
    return _named_thing(raw, term)


#: A reason after the thing: "use a pressure washer as it'll blast the sand out of the
#: joints" (cut before the thing's words are read).
_AS_REASON = re.compile(
    r"\s+as\s+(?:it|it'll|it's|it'd|they|they'll|they're|they'd|that|that'll|this)\b.*$"
)


#: What others have or use, told after the thing: "the plastic composite hurleys a few of
#: the other kids have", "the foam rollers everyone at my gym uses" (the thing itself).
_THEY_HAVE = (
    r"(?:have|has|had|use|uses|used|wear|wears|bring|brings|own|owns|ride|rides|swing|swings"
    r"|keep|keeps|run|runs|fly|flies|play\s+with|swear\s+by|swears\s+by|recommend|recommends"
    r"|love|loves|rave\s+about|borrow|borrows|buy|buys|are\s+(?:obsessed\s+with|into|mad\s+about))$"
)
_OTHERS_HAVE = re.compile(
    r"\s+(?:(?:a\s+few|some|most|many|lots|half|several|all|both|the\s+rest)\s+of\s+|all\s+)?"
    # (who, and where: "the other kids at her lessons use")
    r"(?:the|my|our|his|her|their|your)\s+(?:other\s+)?[a-z]+(?:\s+[a-z']+){0,4}?\s+"
    + _THEY_HAVE
    + r"|\s+(?:everyone|everybody|people|others)\s+(?:[a-z']+\s+){0,5}?"
    + _THEY_HAVE
)
#: An act that fixes a thing onto another: "gluing suede onto the soles of my nice shoes"
#: rules out gluing suede (not the shoes).
_PUT_ONTO = re.compile(
    r"(?:^|\bof\s+)(?P<act>(?:glu|stick|nail|screw|tap|stapl|sew|stitch|bolt|weld|paint|spray"
    r"|pour|fix|attach|mount)ing\s+(?:[a-z-]+\s+){0,2}?[a-z-]+)\s+(?:onto|into|on\s+to|over)"
    r"\s+(?:the|my|our|your|his|her|their|a|an)\s.*$"
)


def _of_what(term: str) -> str:
    """What a phrase with "of" names: "a fan of cilantro" cilantro, "any kind of nuts" nuts,
    but "big flights of locks" the flights, not every lock."""
    flights = _IN_A_ROW.search(term)
    if flights is not None:
        return flights.group(0)
    return term.rsplit(" of ", 1)[-1] if " of " in term else term


def _named_thing(raw: str, term: str) -> str | None:
    """The thing ``term`` (``raw`` with its chat tail cut, lower-cased) names."""
    term = _AS_REASON.sub("", term)
    onto = _PUT_ONTO.search(term)
    term = onto.group("act") if onto else term
    term = _ANYTHING_WITH.sub("", term)
    term = _FAMILY.sub(r"\1", term)  # "the whole allium family": allium
    term = _withheld_from(term)  # "give amazon any more money": amazon
    term = _BE_ON.sub("", term)  # "don't want to be on any social reading site": the site
    if term in _EMPHASIS or _HOW_KEPT.match(term):
        return None
    if _FREQUENCY.search(term) and len(term.split()) > 1:
        return None
    anything = _ANYTHING.search(term)
    if anything and not _GERUND.fullmatch(term[: anything.start()]):
        term = term[: anything.start()]
        if term in _ACTIVITY_VERBS:
            return None  # "rather not take anything": what is ruled out goes unnamed
    term = _ANY_KIND.sub("", term)  # "no jumping of any kind": jumping
    term = _FIDDLE.sub("", term)  # "mess about with the hotel iron": the iron
    term = _MENTIONS.sub("", term)  # "no alcohol references": alcohol
    # "turn the bathroom into a walk-in shower", "convert it to 12 volt": what it would become
    term = _BECOME.sub("", term)
    words = term.split()
    if len(words) >= 2 and words[0] in _ACTIVITY_VERBS and term not in _PAY_NOUNS:
        term = _TRAILING.sub("", " ".join(words[1:]))
        term = _TRAILING.sub("", term)
        term = _PARTICLE.sub("", term)  # "take out a loan" rules out the loan
        term = _ANYTHING_WITH.sub("", term)  # "go for anything with a plastic head"
    if " of " in term and not _OF_KIND.search(term) and len(term.split(" of ", 1)[0].split()) > 2:
        return None  # a clause, not a thing: "employer takes taxes out of my pay"
    term = _of_what(term)
    term = _LEADING.sub("", term).strip()
    # "declaw her": declaw; "no alcohol on it": alcohol
    term = re.sub(r"(?<=\w)(?:\s+(?:on|in))?\s+(?:her|him|them|it|us|me)$", "", term)
    # "skip the foil stuff": foil (but "no shiny stuff" names no thing by its adjective)
    vague = _VAGUE_TAIL.search(term)
    if vague and not vague.group(1).endswith(_ADJECTIVE_ENDINGS):
        term = term[: vague.start()] + vague.group(1)
    # where, or the reason why: "can't mention pricing anywhere in emails", "no rawhide
    # after he had a blockage" rule out pricing and rawhide (but a time restricts: "no
    # coffee before my run", "driving after dark")
    timed = _WHEN_CUT.search(term)
    if timed:
        term = term[: timed.start()]
    term = _YET.sub(r"\1", term)  # "I don't have a UK utility bill yet": the bill
    term = _HOW_MANY_IN.sub("", term)  # "big shared baskets with 16+ strangers": the baskets
    term = _ETC.sub("", term)  # "none of Monopoly, Risk, Catan etc": Catan
    if _RELIED.match(raw):  # "rely on a petrol generator for power": the generator (not "ask
        term = _PURPOSE_TAIL.sub("", term)  # my parents for money": an activity, read so)
    words = term.split()
    # not a thing: a pronoun, a clause, or what there is instead ("only a stovetop"), or
    # data ("not significant, p=0.81")
    if (
        not words
        or _DATUM.match(term)
        or _FIGURES.fullmatch(term)  # a range or a figure quoted after the thing ("12-14")
        or term in _STOP_TERMS
        or len(words) > MAX_TERM_WORDS
        or words[0] in _PRONOUNS
        or words[0] in ("only", "just")
        # a manner or a reason, no thing: "hate how long it takes", "too pricey"
        or words[0] in ("how", "when", "whenever", "why")
        or (words[0] == "too" and words[1:2] not in (["much"], ["many"]))
        # "want to do it myself" after a comma: the asker's plan, no thing ("do it myself")
        or words[0] in ("want", "wanna", "need", "going")
        or term == "do"
        or term in _QUESTION_OPENS
        or term in _OBJECT_PRONOUNS
        or _SUBJECTS.intersection(words)
    ):
        return None
    return term


#: A yes/no question asks about a condition ("Is it safe to run without water?"); it
#: excludes nothing. "Can you ..." / "Could you ..." are requests and still count. Nor
#: does a question about why something happens ("why does my loop skip elements?") or
#: about what is ruled out ("what can and can't go down the drain?").
_YES_NO = re.compile(
    # "Is there any way to sharpen knives without a whetstone?" asks for a way: it excludes
    r"^\s*(?:is(?!\s+there\s+(?:any|a|an)\s+(?:\w+\s+)?way\s+(?:to|i\s+can|we\s+can)\b)"
    r"|are(?!\s+there\s+(?:any\s+)?(?:\w+\s+)?ways\s+(?:to|i\s+can|we\s+can)\b)"
    r"|was|were|does|do|did|will|would it"
    r"|should i|should we"
    # "can I...?" asks; "Can't use lookbehind, ..." (no subject) rules something out
    r"|can(?!'t\s+(?!i\b|we\b|you\b|it\b|they\b))(?!\s+you\b)"
    r"|could(?!\s+you\b)|why|how\s+come"
    r"|(?:what|which)(?:\s+[\w']+){0,2}?\s+(?:can't|cannot|shouldn't|mustn't|not))\b[^?]*\?",
    re.IGNORECASE,
)
#: Sentences of a request (with their end punctuation), as the parsers here read them.
#: A dot inside a name ("os.ReadFile", "Node.js") ends no sentence, nor does the question
#: mark of a regex group ("(?<=...)"), nor a decimal point ("17.20 pesos").
SENTENCES = re.compile(
    # (no end at a point inside a name or a number: "H.265", "2.5", "file.py"; nor after
    # "e.g." or "i.e.")
    r"(?:[^.!?\n]|\.(?=[A-Za-z_])|(?<=[\dA-Za-z])\.(?=\d)|(?<=\b[eE]\.[gG])\.|(?<=\b[iI]\.[eE])\."
    r"|\?(?=[<=!:]))+[.!?]*"
)


def _bracketed_examples(
    sentence: str, found: list[tuple[str, str, bool]]
) -> list[tuple[str, str, bool]]:
    """The examples a bracket names right after a thing ruled out: "Nothing deep-fried
    (e.g. doughnuts, crisps, spring rolls)" rules out the doughnuts too."""
    out = []
    for _, phrase, situation in found:
        at = sentence.find(phrase)
        m = _AFTER_BRACKET.match(sentence, at + len(phrase)) if at >= 0 else None
        if m is None:
            continue
        whole = sentence[at : m.end()]
        out += [
            (t, whole, situation)
            for p in _pieces(_examples(m.group("eg")))
            if (t := _clean_term(p)) and t not in {f[0] for f in found}
        ]
    return out


_AFTER_BRACKET = re.compile(r"\s*\((?P<eg>[^()]{1,100})\)")


#: A quotation of four words or more after a colon or opening a line: material the request
#: quotes ("rewrite this: '...'", a pasted policy's "Not covered: ..."), not what it asks.
_QUOTATION = re.compile(
    r"(?:^|:)\s*['\"“‘](?:[^'\"”’\n]|['’](?=[a-z])){0,1500}?\s\S+\s\S+\s[^'\"”’\n]*['\"”’](?!\w)",
    re.MULTILINE,
)


#: "didn't get", "did not go": a past event the request reports (but "didn't like" and
#: "didn't want" still state a preference). Read from the start of the cue's word.
_PAST_FACT = re.compile(
    r"(?:did\s*n['’]?t|didnt|did\s+not)\s+(?!(?:like|want|enjoy|love|need|care)\b)",
    re.IGNORECASE,
)
#: What the asker is, told just before a "not" that sets it apart from its neighbour:
#: "I'm a sole trader (not a limited company)", "we're a charity, not a business".
#: ... and the "not" of it: a short noun phrase that closes there ("not a limited company)",
#: "not vegan."), not a taste or a habit ("not a fan of chains", "not keen on clubs", "not
#: into tofu", "not using Jira").
_IDENTITY_NOT = re.compile(
    r"not\s+(?!(?:a\s+(?:big\s+|huge\s+)?fan|keen|interested|into|looking|fond|big\s+on"
    r"|bothered|a\s+lover|so|too|very|really|sure|allowed|able)\b)(?!\w+ing\b)"
    r"(?:an?\s+|the\s+)?[\w-]+(?:\s+[\w-]+){0,2}\s*(?:[),.;!]|$)",
    re.IGNORECASE,
)
_IDENTITY_BEFORE = re.compile(
    r"\b(?:i'm|i\s+am|im|we're|we\s+are)\s+(?:an?\s+|the\s+)?[\w-]+(?:\s+[\w-]+)?\s*[(,]\s*$",
    re.IGNORECASE,
)


def _identity_told(sentence: str, opened: int) -> bool:
    """Whether the "not" at ``opened`` sets what the asker is or owns apart from its
    neighbour: "I'm a sole trader (not a limited company)", "the diesel, not the petrol"."""
    if not _IDENTITY_NOT.match(sentence, opened):
        return False
    before = sentence[:opened]
    if _IDENTITY_BEFORE.search(before):
        return True
    return sentence[opened:].lower().startswith(("not the ", "not a ", "not an ")) and bool(
        OWNED_THE.search(before)
    )


#: Which of its kinds the asker's own thing is, before "not the" other: "Restoring a 1967
#: MGB GT - the fixed-roof coupé, not the roadster", "I have the diesel, not the petrol"
#: (also read by ``restated``).
OWNED_THE = re.compile(
    r"(?:\b(?:i|we)\s+(?:have|own|drive|ride|run|bought|got|'ve\s+got)\b|\b(?:it's|mine\s+is"
    r"|ours\s+is)|\s[-–—])\s+[^,;.!?()]{0,40}?\bthe\s+[^,;.!?()]{1,60}?\s*,\s*$",
    re.IGNORECASE,
)
#: "The airline gave us no hotel", "there was no hot water": what happened, read before a
#: "no" cue (but "I want no fuss", "we have no car" and "we've got no equipment" are read
#: as before).
_REPORTED_BEFORE_NO = re.compile(
    r"\b(?:gave|offered|provided|sent|(?<!['’]ve\s)(?<!\bhave\s)got|received|had"
    r"|there\s+(?:was|were))"
    r"(?:\s+(?:us|me|them|him|her|you))?\s+$",
    re.IGNORECASE,
)


def _no_rule(sentence: str, at: int) -> bool:
    """Whether the cue at ``at`` tells what happened or what is on offer, not a rule: "they
    gave us NO hotel", "B gives 17.20 pesos with no fee", "it sounded dead for weeks, no
    buzz at all", "is it worth paying for adjustable ones rather than fixed?"."""
    before = sentence[:at]
    if sentence[at : at + 3].lower() == "no ":
        return bool(
            _NO_SIGN.match(sentence, at)  # "there's still no sign of any seedlings": seen
            or (_NONE_SHOWING.match(sentence, at) and not _WISHED_BEFORE.search(before))
            or _REPORTED_BEFORE_NO.search(before)
            or _OFFER_TOLD.search(before)
            or (_SYMPTOM_BEFORE_NO.search(before) and _AT_ALL.match(sentence, at))
        )
    return bool(_WEIGHED.search(before) and _RATHER_THAN.match(sentence, at))


_NO_SIGN = re.compile(r"no\s+(?:sign|signs|trace|hint)\s+of\b", re.IGNORECASE)
#: A state seen: "they're nicely rounded, no pits or cracks showing" (not a wish: "I want
#: no cables visible", "no logos showing on the kit please").
_NONE_SHOWING = re.compile(
    r"no\s+(?:[\w'-]+\s+){1,4}?(?:showing|visible|in\s+sight|to\s+be\s+seen)\b"
    r"(?![^.!?\n]*\b(?:please|pls)\b)",
    re.IGNORECASE,
)
_WISHED_BEFORE = re.compile(
    r"\b(?:want|wants|need|needs|like|prefer|should|must|make\s+sure|ensure)\b[^.!?\n]*$",
    re.IGNORECASE,
)
#: A choice the request weighs, in a question: "is it worth paying the extra for adjustable
#: ones rather than fixed?", "should I go with resin rather than oil?" (the answer may pick
#: either; not "can you use butter rather than oil?", which asks for the butter).
_WEIGHED = re.compile(
    r"\b(?:is\s+it\s+worth|worth\s+(?:it|paying|spending|getting|buying|the)|should\s+(?:i|we)"
    r"|would\s+(?:i|we|it)\s+be\s+better|is\s+it\s+better|better\s+to|any\s+point)\b"
    r"[^.!?]*$",
    re.IGNORECASE,
)
_RATHER_THAN = re.compile(r"(?:rather|other)\s+than\b[^.!?]*\?", re.IGNORECASE)
#: A fault told, then what is missing: "the sitar sounded dull and 'dead' for weeks, no buzz
#: at all" (the buzz is what the asker wants back, not a thing refused).
_SYMPTOM_BEFORE_NO = re.compile(
    r"(?:\b(?:sound(?:s|ed)?|look(?:s|ed)?|feel(?:s)?|felt|seem(?:s|ed)?|went|gone|goes|been"
    r"|was|were|stopped|died|dead|broke|broken|started|keeps?|kept|risen|rising"
    r"|hasn't|hadn't|isn't|wasn't|won't|doesn't|didn't)\b[^.;:!?]*(?:,|\bwith)"
    # "the combi boiler shows no flame at all"
    r"|\b(?:shows|showing|gives|giving|getting|produces|producing|makes|making))\s*$",
    re.IGNORECASE,
)
_AT_ALL = re.compile(
    r"no\s+(?:[\w'-]+\s+){1,3}?at\s+all\b"
    r"(?!\s*,?\s*(?:please|pls|thanks|next\s+time|this\s+time|for\s+(?:me|us|him|her|them)))",
    re.IGNORECASE,
)
#: An offer described, the "no" part of its terms: "Service A gives 17.20 pesos per dollar
#: with no fee" (not "which bank gives loans with no fee", "I want one that offers ... with
#: no fees": asked for).
_OFFER_TOLD = re.compile(
    r"^(?![^,;:]*\b(?:which|what|who|want|wants|need|needs|looking|find|prefer|ideally|any"
    r"|should|is\s+there|are\s+there)\b)[^,;:]*\b(?:gives|offers|charges|pays)\b[^,;:]*\bwith\s+$",
    re.IGNORECASE,
)
#: A possession or existence verb just before "no" or "without", said of its subject: "the
#: pot has no drainage hole", "it's got no lid", "it came with no manual", "it came without
#: a manual" (read from the end of what precedes the cue).
_HAS_BEFORE = re.compile(
    r"(?:(?:['’](?:s|ve)\s+got)|\b(?:has|have|had)(?:\s+got)?|\bgot"
    r"|\b(?:came|comes|come|arrived|arrives|ships|shipped)(?:\s+with)?)\s+$",
    re.IGNORECASE,
)
#: "there's no lid", "there are no shops nearby": what there is, not what is wanted ...
_THERE_IS_BEFORE = re.compile(r"\bthere(?:['’]s|s|\s+is|\s+are|['’]re)\s+$", re.IGNORECASE)
#: ... unless it is wished for: "make sure there's no garlic", "as long as there are no
#: stairs", "I want a sauce that has no cream".
_WISHED = re.compile(
    r"\b(?:sure|ensure|ensures|ensuring|want|wants|need|needs|long\s+as|provided|providing"
    r"|so\s+that|check|hope|prefer|like|looking\s+for|recommend|suggest|find|ideally)\b",
    re.IGNORECASE,
)
#: A place of the asker's described just before a "no": "our house is all electric, no gas",
#: "the cabin is off-grid, no power" (what the place lacks, not what the asker rules out).
_PLACE_TOLD = re.compile(
    r"(?:^|[,;.(]\s*|\band\s+)(?:the|our|my|this|his|her|their)\s+(?:[\w-]+\s+)?"
    r"(?:house|flat|apartment|home|place|kitchen|cabin|building|car|van|boat|office|room"
    r"|caravan|campsite|cottage|dorm|studio)\s+(?:is|'s|’s|was)\b[^,;.!?]{0,40},\s*$",
    re.IGNORECASE,
)
#: ... and what such a place may lack: a supply or a fitting, not a thing its rules keep out.
_AMENITY = re.compile(
    r"no\s+(?:mains\s+)?(?:gas|power|electricity|oven|hob|stove|microwave|dishwasher|fridge"
    r"|freezer|lift|elevator|heating|wifi|wi-fi|internet|signal|reception|shower|bath|bathtub"
    r"|windows?|balcony|garden|parking|washing\s+machine|dryer|kettle|tv|aircon|air\s+con"
    r"|air\s+conditioning|hot\s+water|running\s+water|water|lights?|sockets?|plugs?)\b",
    re.IGNORECASE,
)
#: Where a clause of its own begins: "..., and", "..., but", a semicolon or a dash.
_CLAUSE_BREAK = re.compile(r",\s*(?:and|but|so)\b|[;—–]|\s-\s", re.IGNORECASE)
#: Where the subject of a clause begins: after a clause break or a conjunction.
_SUBJECT_START = re.compile(
    r"[,;:(—–]|\s-\s|\b(?:and|but|so|because|since|although|though|while|cause|cuz|coz|plus"
    r"|also|as|if|when|now)\b",
    re.IGNORECASE,
)
#: Words that open a noun phrase naming a thing of the asker's or the one talked about.
_THING_OPENERS = frozenset("the my our your his her their this that these those its it".split())
#: People and animals, and the pronouns for them: a lack told of them is kept as it is read
#: today ("my son has no allergies", "we have no car", "I have no oven").
BEINGS = frozenset(
    """
    i i'm i've i'd we we're we've we'd me us you you're you've he he's she she's they they're
    they've someone somebody everyone everybody nobody anyone one who
    son sons daughter daughters kid kids child children baby babies toddler toddlers teen
    teens teenager teenagers husband wife partner boyfriend girlfriend fiance fiancee mom
    mum dad mother father parent parents brother brothers sister sisters grandma grandpa
    grandmother grandfather nan gran friend friends flatmate flatmates roommate roommates
    housemate housemates guest guests family boss manager team colleague colleagues coworker
    coworkers client clients customer customers student students pupils class neighbour
    neighbours neighbor neighbors landlord landlady tenant tenants staff people person
    dog dogs cat cats puppy kitten rabbit bird horse pet pets
    """.split()
)
#: Who or what "X is out" tells the state of, never a thing ruled out.
_NOT_RULED_OUT = BEINGS | _OUT_OF_SERVICE | _RELEASED


def _said_of_a_thing(before: str, lack: bool) -> bool:
    """Whether the "no" (or the "doesn't have") that follows ``before`` tells what a thing
    lacks, not what the asker wants left out: "the pot it came in has no drainage hole",
    "the flat has no balcony", "it came with no manual", "there's no lid", "the pot doesn't
    have a drainage hole". The asker's own lack ("I have no oven", "we don't have a car"),
    a person's ("my son has no allergies"), a relative clause after what is asked for ("a
    sauce that has no cream") and a wish ("make sure there's no garlic") read as before."""
    if not lack:
        there = _THERE_IS_BEFORE.search(before)
        if there:  # a wish of an earlier clause wishes nothing here ("I need to arrive
            # not drenched, and there's no shower at work")
            return not _WISHED.search(_CLAUSE_BREAK.split(before[: there.start()])[-1])
        verb = _HAS_BEFORE.search(before)
        if verb is None:
            return False
        before = before[: verb.start()]
    pieces = _SUBJECT_START.split(before)
    subject = pieces[-1].strip()
    if not subject and len(pieces) > 1:  # "our library is tiny and has no meeting room"
        subject = pieces[-2].strip()
    words = [w.lower().replace("’", "'") for w in re.findall(r"[A-Za-z][\w'’-]*", subject)]
    if not words or words[0] not in _THING_OPENERS or _WISHED.search(before):
        return False
    if words[-1] in ("that", "which", "who"):
        return False  # "a sauce that has no cream": what is asked for
    # the head of the noun phrase, before any clause about it ("the jump box I'm allowed to
    # use", "the pot it came in"): a person or an animal keeps today's reading
    head: list[str] = []
    for w in words[1:]:
        if w in BEINGS and head:
            break
        head.append(w)
    if words[0] in ("my", "our") and _HOMES.intersection(head):
        return False  # "my kitchen has no oven": the asker's own setup, as before
    return words[0] in ("it", "its") or not BEINGS.intersection(
        w for w in head if not w.endswith("'s")
    )


#: The asker's home or room: "my kitchen has no oven", "our flat has no dryer" tell the
#: asker's own lack, read as a plain exclusion (as before situations were read).
_HOMES = frozenset(
    """
    kitchen kitchens house home flat apartment room bedroom bathroom dorm rental
    studio cottage bungalow
    """.split()
)


#: A fenced code block the request pastes: "x not in dups" there is code, not a preference.
_FENCED = re.compile(r"```.*?```", re.DOTALL)
#: An error message the request pastes, to the end of its sentence or line: "TypeError: can
#: only concatenate str (not \"int\") to str", "error[E0308]: mismatched types", a
#: traceback. What it says is not ("not int") is the program's, not the asker's wish.
PASTED_ERROR = re.compile(
    r"\b(?:[\w$]+\.)*[A-Z]\w*(?:Error|Exception|Warning)\b(?:\s*\[[^\]\n]{1,20}\])?:"
    r"[^\n]*?(?=[.!?]\s+[A-Z]|\?|\n|$)"
    r"|\berror(?:\[E\d{3,5}\]|\s+TS\d{3,5}|\s+CS\d{3,5}):[^\n]*?(?=[.!?]\s+[A-Z]|\?|\n|$)"
    r"|\bTraceback\s+\(most\s+recent\s+call\s+last\):(?:.|\n(?!\s*\n))*",
)


def _situation(rx: re.Pattern[str], sentence: str, at: int) -> bool:
    """Whether the cue ``rx`` matched at ``at`` tells what a thing lacks ("the pot has no
    drainage hole"): still an exclusion, but a situation (an answer may propose to add the
    thing: ``affirmation.mentions``). A name as code and products are written ("the jump
    box has no RSAT") is read as any exclusion: a setup that lacks a tool rules its use out."""
    if rx not in _SITUATION_RES:
        return False
    m = rx.match(sentence, at) or rx.search(sentence, at)
    if m is not None and _NAMED.search(_PLACE_TAIL.sub("", m.group("x")).strip()):
        return False
    if rx is _THERE_ISNT_RE:  # "there isn't a lift", unless wished: "make sure there isn't"
        return not _WISHED.search(sentence[:at])
    lack = rx.pattern.startswith(LACK_CUE)
    if not lack and _PLACE_TOLD.search(sentence[:at]) and _AMENITY.match(sentence, at):
        return True  # "our house is all electric, no gas whatsoever" (not a house rule:
        # "our house is vegetarian, no meat")
    return _said_of_a_thing(sentence[:at], lack)


#: "don't want to be 'that person'", "don't want to be the one who tells him", "doesn't need
#: to be pretty": who or what the asker would rather not be, no thing an answer could use
#: (but "don't want to be picking stocks" is an act, "rather not be in an HOA" a place).
_BEING = re.compile(
    r"^(?:to\s+)?be\s+(?![a-z]+ing\b)(?!(?:in|on|at|near|around|inside|outside|under|over|by"
    r"|with|without|within|stuck|locked|tied|up|out|off|away|back)\b)",
    re.IGNORECASE,
)


def _state_of_being(x: str) -> bool:
    """Whether the words after a cue name a state of the asker ("to be 'that person'")."""
    return _BEING.match(x.strip()) is not None


def exclusion_matches(query: str) -> list[tuple[str, str]]:
    """Each term ``query`` excludes, with the phrase that excluded it, in order found."""
    return [(t, phrase) for t, phrase, _ in exclusion_reads(query)]


#: The places after an act a cue ends on ("no cooking | in the microwave or air fryer"):
#: up to two words each, joined by commas or or/and, then the end of the clause.
#: When, after the places: "no cooking on the hob tonight".
_NOW = r"today|tonight|tomorrow|this\s+(?:week|weekend|month)"
_PLACE_WORDS = (
    r"(?!(?:we|i|it|they|you|he|she|my|our|its)\b)[a-z][\w-]*"
    rf"(?:\s+(?!(?:{_NOW}|please|pls)\b)[a-z][\w-]*)?"
)
_IN_PLACES = re.compile(
    rf"\s+(?P<prep>in|on|inside)\s+(?P<places>(?:the\s+)?{_PLACE_WORDS}"
    rf"(?:\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+)(?:the\s+)?{_PLACE_WORDS})*)"
    rf"(?=\s*(?:[.,;:!?()\n—–]|$|\b(?:please|pls|thanks|but|because|so|{_NOW})\b))",
    re.IGNORECASE,
)


#: Acts a request rules out in a place ("no drilling in the walls", "no smoking in the
#: house"): only these, since a word in -ing is as often a thing ("no herring in the salad",
#: "no Riesling in the sangria", "no pricing in the summary").
_PLACED_ACTS = frozenset(
    "drilling smoking vaping swimming running painting parking eating drinking playing"
    " cycling skating camping fishing hammering screwing nailing sanding gluing shouting"
    " sleeping walking jumping climbing dancing singing spending".split()
)
#: Acts whose place is the appliance they are done with: "no cooking in the microwave or air
#: fryer", "no drying in the tumble dryer" rule out the appliances (not "no cooking in the
#: morning" or "in the dorm": no appliance, the act stays ruled out).
_TOOL_ACTS = frozenset(
    "cooking baking heating reheating warming frying roasting boiling steaming microwaving"
    " washing drying toasting grilling".split()
)
_ACTS = _PLACED_ACTS | _TOOL_ACTS
_APPLIANCES = re.compile(
    r"(?:(?:the|my|our|a)\s+)?(?:microwave|oven|air[\s-]?fryer|(?:deep\s+)?fryer|hob|stove|stovetop"
    r"|cooker|slow\s+cooker|pressure\s+cooker|instant\s+pot|grill|toaster|kettle|barbecue|bbq"
    r"|(?:tumble\s+)?dryer|washing\s+machine|machine|washer|dishwasher|sink|pan|frying\s+pan"
    r"|wok|pot)s?",
    re.IGNORECASE,
)
#: A time after an act, never a place of it: "no drilling in the morning", "on weeknights".
_TIMES = re.compile(
    r"\b(?:morning|mornings|evening|evenings|afternoon|afternoons|night|nights|weeknights?"
    r"|weekdays?|weekends?|week|daytime|summer|winter|spring|autumn|holidays?)\b",
    re.IGNORECASE,
)


def _places(text: str) -> list[str]:
    """The places of an ``_IN_PLACES`` match, each without its article."""
    return [
        re.sub(r"^(?:the|a|an)\s+", "", p.strip(), flags=re.I)
        for p in re.split(r",|\bor\b|\band\b", text)
        if p.strip()
    ]


def _appliances(places: re.Match[str]) -> str | None:
    """The places of an ``_IN_PLACES`` match as the appliances an act is done with ("the
    microwave or air fryer"), or ``None`` when one is no appliance ("the dorm")."""
    found = _places(places["places"])
    return " or ".join(found) if all(_APPLIANCES.fullmatch(p) for p in found) else None


def _act_in_places(sentence: str, m: re.Match[str]) -> tuple[str, str]:
    """The term and the phrase of a cue ``m``, with the places of an act the cue's end cut
    off: "no cooking in the microwave or air fryer" rules out the appliances, "no drilling in
    the walls or ceiling" drilling in each ("no garlic in the sauce" keeps garlic: no act)."""
    x = m.group("x")
    act, _, rest = x.strip().partition(" ")
    rest = re.sub(rf"\s+(?:{_NOW})$", "", rest, flags=re.I)
    inside = _IN_PLACES.fullmatch(f" {rest}") if act.lower() in _TOOL_ACTS else None
    if inside is not None and (tools := _appliances(inside)) is not None:
        return tools, m.group(0)  # "no cooking on the hob"
    if x.strip().lower() not in _ACTS:
        return x, m.group(0)
    places = _IN_PLACES.match(sentence, m.end("x"))
    if places is None or re.search(r"\b(?:it|my|our|your)\b", places["places"], re.I):
        return x, m.group(0)
    found = _places(places["places"])
    if _TIMES.search(places["places"]) or any(len(p.split()) > 2 for p in found):
        return x, m.group(0)
    if x.strip().lower() in _TOOL_ACTS:  # "no cooking in the microwave": the microwave
        if (tools := _appliances(places)) is None:
            return x, m.group(0)  # "no cooking in the dorm": cooking
        return tools, sentence[m.start() : places.end()]
    # the place by its head: "no drilling in the bathroom tiles" is drilling in tiles
    term = f"{x.strip()} {places['prep']} {' or '.join(p.split()[-1] for p in found)}"
    return term, sentence[m.start() : places.end()]


def _cue_term(sentence: str, m: re.Match[str]) -> tuple[str, str]:
    """The term and the phrase of a cue ``m``, less what is no part of the thing: the places
    of an act (``_act_in_places``), where a thing would be used ("can't use bleach on this
    countertop": the bleach; not "the room on the ground floor", told by where it is), the
    particle of a phrasal verb ("don't want to take on a new loan": the loan)."""
    x, phrase = _act_in_places(sentence, m)
    if m.re is _ALLOWED_RE:  # "not permitted to have pets in my flat": the pets
        x = _PLACE_TAIL.sub("", x)
    if _APPLY_BEFORE.search(sentence, 0, m.start("x")):
        head, comma, tail = x.partition(",")
        thing = _ON_SURFACE.sub("", head)
        if thing.split() and thing.split()[-1].lower() not in _LOCATED:
            x = thing + comma + tail
    if _PHRASAL_VERB.search(sentence, 0, m.start("x")):
        x = _PARTICLE.sub("", x)
    return _less_the_ask(x, sentence[m.end() :]), phrase


#: The question a sentence ends on, after what it rules out: "rather not pay for Spotify,
#: free music apps?" asks for the apps (but "without onions, garlic?" lists two, one word).
_ASK_AFTER = re.compile(r",\s*(?P<ask>[\w'-]+(?:\s+(?!(?:or|and|nor)\b)[\w'-]+)+)\s*$")


def _less_the_ask(x: str, after: str) -> str:
    """``x`` less a question of two words or more after its last comma, when the sentence
    ends on it ("a gym membership, home workouts?": the membership)."""
    if not after.lstrip().startswith("?"):
        return x
    ask = _ASK_AFTER.search(x)
    return x[: ask.start()] if ask is not None and ask.start() > 0 else x


def exclusion_reads(query: str) -> list[tuple[str, str, bool]]:
    """Each term ``query`` excludes, with the phrase that excluded it and whether it is a
    situation: a thing's own lack ("the pot it came in has no drainage hole", "there's no
    heater in it"), which an answer may propose to add ("repot into a pot with drainage
    holes") but not take as there ("set the heater to 25°C"). In order found."""
    found: list[tuple[str, str, bool]] = []
    query = _QUOTATION.sub(" ", query)  # "rewrite this: 'RSVP or you won't get a seat'"
    query = _FENCED.sub(" ", query)
    query = PASTED_ERROR.sub(" ", query)  # "TypeError: ... (not \"int\") to str"
    for sentence in SENTENCES.findall(query):
        if _YES_NO.match(sentence):
            continue
        read_before = len(found)
        for rx in _EXCLUSION_RES:
            for m in rx.finditer(sentence):
                if rx is _ALLOWED_RE and (
                    _ASKS_THE_RULE.search(sentence[: m.start()] + "|") or _TAG.search(sentence)
                ):
                    continue  # "Am I not allowed to use a VPN in China?": the rule asked
                x, phrase = _cue_term(sentence, m)
                x = _pointed_back(sentence, m.start(), x)
                if _GOES.search(sentence, 0, m.start("x")) and _PARTICLE_START.match(x):
                    continue  # "bubbles that won't go away": how a thing behaves
                at = _word_start(sentence, m.start())
                at -= 4 if sentence[max(0, at - 4) : at].lower() == "did " else 0
                if _told_not_wanted(sentence, at):
                    continue  # "he didn't get the role", "so they don't go soft"
                cue = sentence[m.start() :]
                opened = m.start() + len(cue) - len(cue.lstrip(" ,;(-"))
                if _identity_told(sentence, opened):
                    continue  # "I'm a sole trader (not a limited company)": who, not a rule
                if _no_rule(sentence, at):
                    continue  # "they gave us NO hotel": what happened; "B gives ... with no fee"
                if _state_of_being(x):
                    continue  # "I don't want to be 'that person'": who, not what
                if _GOT_TO.match(x) and _CANT_GET.search(sentence, 0, m.start("x")):
                    continue  # "cant get into my account", "can't get through to them"
                # "the pot has no drainage hole": what the pot is like
                situation = _situation(rx, sentence, at)
                found += [
                    (t, phrase, situation)
                    for p in _harmed_less(_pieces(x), m.group(0))
                    if (t := _clean_term(_lacked(p, rx, situation))) and not _outcome(t, m.group(0))
                ]
        pairs = [
            (t, m.group(0))
            for m in _OUT_RE.finditer(sentence)
            if (t := _clean_term(m.group("x")))
            and not _KEEP_OUT_ASKED.search(sentence, 0, m.start())
        ]
        pairs += [
            (t, m.group(0))
            for rx in (_AWAY_RE, _OFF_RE)
            for m in rx.finditer(sentence)
            for p in _pieces(m.group("x"))
            if (t := _clean_term(p))
        ]
        pairs += [
            (t, m.group(0))
            for m in _ALLERGY_RE.finditer(sentence)
            if (t := _allergen(m.group("x")))
        ]
        pairs += [(_HABITS[m.group("v").lower()], m.group(0)) for m in _HABIT_RE.finditer(sentence)]
        # (only as the reason of an exclusion read in the same sentence: "my boss drives me
        # crazy" or "chemo makes me nauseous" opening a request is what it is about)
        excluded_here = len(found) > read_before or bool(pairs)
        pairs += [
            (t, m.group(0))
            for m in _HARMS_ME.finditer(sentence)
            if excluded_here
            and m.group("x").lower() not in _PRONOUNS
            and (t := _clean_term(m.group("x")))
        ]
        pairs += [(m.group("x").lower(), m.group(0)) for m in _BASED_RE.finditer(sentence)]
        # "they've told me H.265/HEVC files won't open on it": a format the setup cannot read
        pairs += [
            (t, m.group(0))
            for m in _WONT_OPEN.finditer(sentence)
            if not _FIX_ASKED.search(query)
            for p in _pieces(m.group("x"))
            if _NAMED_FORMAT.search(p) and (t := _clean_term(p))
        ]
        pairs += [
            (m.group("x").lower(), m.group(0))
            for m in _FREE_RE.finditer(sentence)
            if _left_out(m, sentence)
        ]
        acts = _acts(sentence)
        pairs += [(t, phrase) for t, phrase, _ in acts]
        pairs += [
            (t, m.group(0))
            for m in _RULED_OUT_RE.finditer(sentence)
            if _ruled_out(sentence, m)
            and not any(m.start() < b and a < m.end() for _, _, (a, b) in acts)
            for p in [
                *_pieces(m.group("x") or m.group("l") or _named(m)),
                *_pieces(_examples(m.group("egx") or m.group("egl") or "")),
            ]
            if (t := _clean_term(p))
        ]
        pairs += [(m.group("x").lower(), m.group(0)) for m in _ROUTE_RE.finditer(sentence)]
        pairs += [
            (t, sentence[m.start("l") : m.end()] if m.group("l") else m.group(0))
            for m in _WITH_OFF_RE.finditer(sentence)
            for p in _pieces(_ALL_AFTER.sub("", m.group("l") or m.group("a")))
            if (t := _clean_term(p))
        ]
        # "Tiger nuts are banned there, and so are all other nuts": the class as well
        pairs += [
            (t, m.group(0))
            for m in _SO_ARE.finditer(sentence)
            if _VERDICT_BEFORE.search(sentence, 0, m.start()) and (t := _clean_term(m.group("x")))
        ]
        found += [(t, phrase, False) for t, phrase in pairs]
        found += _bracketed_examples(sentence, found[read_before:])
    found = [
        (_verb_for_adverb(_routed(t), phrase), phrase, sit)
        for t0, phrase, sit in found
        for t in _told_before(t0, phrase, query)
    ]
    terms = {t for t, _, _ in found}
    return [
        (t, phrase, situation)
        for t, phrase, situation in found
        if t not in _STOP_TERMS
        and not t.startswith(("other ", "any other "))
        # what a place is like, which an answer names to steer clear of it: "a pitch with
        # no road noise to speak of" ("the road noise there is constant": no use of it)
        and _PLACE_NUISANCES.isdisjoint(t.split())
        # "nothing milk-based" is read whole and by its base: the base alone
        and not (t.endswith("-based") and t.removesuffix("-based") in terms)
        # a clause, never a thing: "insurance doesn't cover them", "dont wanna buy any"
        and not _NEGATED_INSIDE.search(t)
        # where the exclusion before it holds: "no cement anywhere, not even on the copes",
        # "no Bluetooth devices past the gate, including on bikes"
        and not (t.startswith(_PLACE_PREPOSITIONS) and _EXTENDED_TO.search(phrase))
    ]


#: What a place is like, never a thing an answer uses: "no road noise", "hate crowds".
_PLACE_NUISANCES = frozenset("noise crowds crowd queues queue".split())


#: A time a refusal holds for (``HELD_FOR``, also read by ``activities``), and the same
#: right after the refusal: "repot it right now", "move them yet",
#: "drive at the moment", "this winter", "until the buds open".
HELD_FOR = (
    r"(?:(?:right|for)\s+now|now|(?:just\s+)?yet|at\s+the\s+moment|this\s+(?:week|month|year|season"
    r"|winter|summer|spring|autumn|fall|weekend)|until|till)\b"
)
FOR_NOW = re.compile(
    r"(?:\s+(?:it|them|this|that|him|her|the\s+\w+|my\s+\w+))?\s+"
    rf"(?:{HELD_FOR}|while\s+(?:it|they)(?:'s|'re|\s+(?:is|are))\b)",
    re.IGNORECASE,
)


def _told_not_wanted(sentence: str, at: int) -> bool:
    """Whether the negation at ``at`` tells what happened ("he didn't get the role") or a
    state to keep the thing asked about from ("store them so they don't go soft"), not a
    preference; nor a look that finds none ("I still don't see any larvae")."""
    if _SEEN_NONE.match(sentence, at) is not None:
        return True
    return _PAST_FACT.match(sentence, at) is not None or (
        _BECOMES.match(sentence, at) is not None and _SO_THAT.search(sentence, 0, at) is not None
    )


_EXTENDED_TO = re.compile(r"\bnot\s+even\s|\bincluding\s", re.IGNORECASE)
_NEGATED_INSIDE = re.compile(r"n't\b|\b(?:not|dont|doesnt|wont|cant|couldnt)\b")
#: A purpose told of the thing asked about, "so (that) they don't go soft", "so the cake
#: won't get soggy": the state it should not fall into, which answers name as they warn.
_SO_THAT = re.compile(
    r"\bso(?:\s+that)?\s+(?!(?:i|we|you|me|us)\b)(?:[\w']+\s+){1,2}$", re.IGNORECASE
)
_BECOMES = re.compile(
    r"(?:don'?t|doesn'?t|won'?t|do\s+not|does\s+not|will\s+not)\s+(?:go|get|turn|become"
    r"|end\s+up|show|develop|form)\s",
    re.IGNORECASE,
)
#: A sentence that opens on a thing and the harm it does the asker, whose refusal then points
#: back with a pronoun: "Caffeine makes my heart race ..., so I need to stay off it".
_SUBJECT_HARM = re.compile(
    r"\s*(?P<x>(?!(?:i|we|you|it|this|that|he|she|they|my|our|the|can|could|would|will|should"
    r"|please|do|does|did|just|so|and|but)\b)[a-z][\w-]*(?:\s+(?!(?:you|me|us)\b)[a-z][\w-]*)?)"
    r"\s+(?:(?:always|really|just|also)\s+)?(?:makes?|gives?|wrecks?|upsets?|triggers?"
    r"|disagrees?\s+with|bothers?|irritates?|messes\s+(?:up|with)|keeps?)\s+(?:me|my|us|our|him|her)\b"
    # (not "makes me feel amazing", "keeps me going": no harm)
    r"(?!\s+(?:feel\s+)?(?:good|great|amazing|better|happy|calm|fresh|sane|going|warm|fit|smile"
    r"|laugh|energi[sz]ed|alive|motivated)\b)",
    re.IGNORECASE,
)
_REFUSAL_DENIED = re.compile(r"(?:\bnot|n't|\bcannot|\bnever)\s+(?:[\w']+\s+){0,3}$", re.I)
_POINTER = re.compile(r"(?:it|them)\b(?!\s+(?:is|are|was|were|has|have)\b)", re.IGNORECASE)


def _pointed_back(sentence: str, at: int, x: str) -> str:
    """``x``, or the thing a pronoun ``x`` points back to when the sentence opens on it and
    the harm it does: "Caffeine wrecks my stomach, so I need to stay off it" (caffeine)."""
    # (a statement: "so which one should I use that won't do it?" asks, refuses nothing)
    if not _POINTER.match(x) or "?" in sentence or _REFUSAL_DENIED.search(sentence, 0, at):
        return x  # "so I don't want to stay off it", "we can't avoid them completely"
    harm = _SUBJECT_HARM.match(sentence)
    return harm.group("x") if harm is not None and harm.end() <= at else x


#: The rest of a class after one of it was ruled out: "and so are all other nuts".
_SO_ARE = re.compile(
    r"\b(?:and\s+)?so\s+(?:are|is)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:other\s+)?"
    r"(?P<x>(?!(?:we|they|you|i|it|mine|ours|theirs|my|our)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    r"\s*(?=[.,;:!?)]|$)",
    re.IGNORECASE,
)
#: A clause ruling its thing out right before "and so are ..." (not "chicken is fine and so
#: is beef").
_VERDICT_BEFORE = re.compile(
    r"\b(?:banned|forbidden|prohibited|not\s+(?:allowed|permitted)|off\s+limits|off\s+the\s+table"
    r"|a\s+no[- ]?go|not\s+an\s+option|excluded)"
    # ("is out" is as often released or outdoors: "the new Pixel is out now")
    r"(?:\s+(?:there|here|too|for\s+(?:me|us)|(?:at|in|on|from)\s+(?:[\w']+\s+){0,3}[\w']+))?"
    r"\s*,?\s*$",
    re.IGNORECASE,
)
#: A format the asker's setup cannot open: "H.265/HEVC files won't open on it", "MKV files
#: don't play on my TV" (a name of a file format or codec: see ``_NAMED_FORMAT``).
_WONT_OPEN = re.compile(
    r"(?<![\w.])(?P<x>\.?[a-z0-9][\w.+/-]*(?:\s+(?:or|and)\s+\.?[a-z0-9][\w.+/-]*)?)\s+"
    r"(?:files?|videos?|photos?|images?|clips?|formats?|codecs?|documents?|docs?)\s+"
    r"(?:won't|will\s+not|wouldn't|don't|do\s+not|can't|cannot|never)\s+(?:even\s+)?"
    r"(?:open|play|load|import|work|run)\b",
    re.IGNORECASE,
)
_NAMED_FORMAT = re.compile(
    r"^\.?(?:h\.?26[45]|hevc|avc|av1|vp9|prores|mkv|mov|mp4|m4v|avi|wmv|webm|flv|heic|heif|avif"
    r"|webp|tiff?|raw|cr[23]|nef|arw|dng|flac|alac|mp3|wav|aac|ogg|m4a|opus|pdf|docx?|xlsx?|pptx?"
    r"|odt|epub|mobi|azw3?|exe|msi|dmg|apk|zip|rar|7z|psd|svg|dts|ac3|eac3|atmos)$",
    re.IGNORECASE,
)
#: A request that asks to make the format open: "How do I fix it?", "until I format the USB".
_FIX_ASKED = re.compile(
    r"\b(?:fix|fixing|until|unless|why|get\s+(?:them|it|these)\s+to|make\s+(?:them|it)|handles?"
    r"|(?:app|player|program|software|viewer|converter|plugin|extension|reader)s?"
    r"|how\s+(?:do|can|could)\s+(?:i|we)\s+(?:open|play|view|convert|watch|read|import))\b",
    re.IGNORECASE,
)
#: "won't go away", "doesn't go down": a fault told, the verb's particle no thing.
_GOES = re.compile(r"\bgo(?:es)?\s+$", re.IGNORECASE)
_PARTICLE_START = re.compile(
    r"(?:away|off|down|up|out|over|through|wrong|well|right)\b"
    # (not a place gone to: "won't go up a ladder", "go out to the shed")
    r"(?!\s+(?:a|an|the|my|our|your|his|her|their|to|into|onto|on|in|with|at|of|for|and)\b)",
    re.IGNORECASE,
)


#: A refusal that points back: "don't want to go back to that", "do that again".
_POINTS_BACK = re.compile(
    r"^(?:go\s+back\s+to|do|try|use)\s+(?:that|those|them|it)(?:\s+again)?$|^that$|^those$"
)
#: What the asker has tried before, that a refusal may point back to: "I've done textbooks
#: and conjugation drills before".
_TRIED_BEFORE = re.compile(
    r"\b(?:i've|i\s+have|we've|we\s+have)\s+(?:already\s+)?(?:done|tried|used|had)\s+"
    r"(?P<x>[a-z][\w' -]{2,80}?)\s+(?:before|already|in\s+the\s+past)\b",
    re.IGNORECASE,
)


def _told_before(term: str, phrase: str, query: str) -> list[str]:
    """``term``, or what a refusal that points back refers to: "I've done textbooks and
    conjugation drills before and I hate them and don't want to go back to that" refuses
    the textbooks and the drills (a pointer with nothing told before it is dropped)."""
    if not _POINTS_BACK.match(term):
        return [term]
    # told earlier in the same sentence: "I've done textbooks before. My teacher wants
    # drills and I don't want to do that" points at the drills, not the textbooks
    sentence = next((x for x in SENTENCES.findall(query) if phrase in x), "")
    tried = _TRIED_BEFORE.search(sentence, 0, max(0, sentence.find(phrase)))
    if tried is None:
        return []
    return [t for p in _pieces(tried.group("x")) if (t := _clean_term(p))]


_ADVERBS = frozenset("anywhere far alone much long late again there here around".split())


#: "I don't want to declaw her": the activity is what is excluded, not its object.
_OBJECT_PRONOUNS = frozenset({"her", "him", "us"})
_PLACE_PREPOSITIONS = ("in ", "on ", "at ", "to ", "around ", "through ", "across ")


#: A way of doing it refused: "I'm not going down the whetstone route", "we don't want to go
#: the private school route" (the whetstone, the private school).
_ROUTE_RE = re.compile(
    # the refusal governs the going ("not going", "don't want to go", "won't be going"; not
    # "not sure whether to go", "don't mind going", "didn't go ... in the end")
    r"(?:\bnot|(?<!\bdid)n't|\b(?:dont|wont|never))\s+"
    r"(?:(?:want(?:ing)?|plan(?:ning)?|intend(?:ing)?|going|keen)\s+(?:on\s+|to\s+)|be\s+)?"
    r"(?:go|going|head|heading)"
    r"\s+(?:down\s+)?the\s+(?P<x>[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:route|road|path)\b",
    re.IGNORECASE,
)
#: The same way named by another cue: "rather not go down the DIY route" (the DIY).
_ROUTE_TERM = re.compile(
    r"^(?:go(?:ing)?\s+)?(?:down\s+)?(?:the\s+(?P<x>.+?)\s+(?:route|road|path)|(?P<y>.+?)\s+route)$"
)


def _routed(term: str) -> str:
    """The way a "... the X route" term names: "down the diy route" -> "diy", "progressive
    lenses route" -> "progressive lenses" (but "toll road" stays a road)."""
    m = _ROUTE_TERM.match(term)
    return (m.group("x") or m.group("y")) if m else term


def _verb_for_adverb(term: str, phrase: str) -> str:
    """ "don't want to drive anywhere" / "... to drive in Iceland": the verb, not the
    adverb or the place, is what is excluded."""
    if (
        term not in _ADVERBS
        and term not in _OBJECT_PRONOUNS
        and not term.startswith(_PLACE_PREPOSITIONS)
    ):
        return term
    m = re.search(r"\bto\s+(\w+)\s+" + re.escape(term), phrase, re.IGNORECASE)
    return m.group(1).lower() if m else term


def parse_exclusions(query: str) -> list[str]:
    """What ``query`` excludes, as short lower-case terms (e.g. ``["nuts", "dog"]``)."""
    return list(dict.fromkeys(t for t, _ in exclusion_matches(query)))


#: Words that carry no request of their own once an exclusion is cut out of a sentence
#: ("I'm allergic to shellfish." leaves "I'm": the sentence is dropped).
_EMPTY_WORDS = frozenset(
    "i i'm im i'd i'll we we're we'd am is are do does did also really just so but and or"
    " please that"
    " that's which who it it's my me can can't cannot could would will".split()
)
#: Connectors left dangling at the end of a sentence once its exclusion is cut out.
_DANGLING = re.compile(
    r"(?:[\s,;:-]+|\s*\b(?:but|so|and|or|if|that|that's|which|who|please|with|just|also"
    r"|in it|i|i'm|i've|we|you|have|has)(?![\w']))+$",
    re.IGNORECASE,
)


def _word_start(text: str, i: int) -> int:
    """Where the word that ``text[i]`` belongs to starts."""
    while i > 0 and (text[i - 1].isalnum() or text[i - 1] in "'_"):
        i -= 1
    return i


def _exclusion_spans(sentence: str) -> list[tuple[int, int]]:
    """Character spans of the exclusion clauses in one sentence, merged and sorted."""
    spans: list[tuple[int, int]] = []
    pasted = [m.span() for m in PASTED_ERROR.finditer(sentence)]  # kept whole
    # (not an allergy or a habit: "a severe peanut allergy" or "I don't fly" is context
    # that the rest of the sentence still needs)
    for rx in (*_EXCLUSION_RES, _OUT_RE, _FREE_RE, _RULED_OUT_RE):
        for m in rx.finditer(sentence):
            if rx is _RULED_OUT_RE and not _ruled_out(sentence, m):
                continue  # "when the tide is out"
            if rx is _FREE_RE and not _left_out(m, sentence):
                continue  # "a free way", "feel free": nothing left out
            # A cue that starts inside a word ("n't" of "don't") takes the whole word.
            first = sentence[m.start() : m.start() + 1]
            inside = first.isalnum() or first == "'"
            if not any(a <= m.start() < b for a, b in pasted):
                spans.append((_word_start(sentence, m.start()) if inside else m.start(), m.end()))
    spans += [span for _, _, span in _acts(sentence)]
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


#: A clause that states a fact about the asker, not a request: "they have plenty".
_STATE = re.compile(
    r"^[\s,;:-]*(?:i|we|they|it|he|she)(?:'s|'ve|'m|'re|\s+(?:have|has|had|am|is|are|was|were))\b",
    re.IGNORECASE,
)


#: What is left of a sentence after a cut exclusion when it only says what the thing does
#: to the asker ("..., the smell makes me feel sick"): no ask; nor is a remark on it
#: (``_REMARK_TAIL``, ``_REMARK_CLAUSE``), up to the end of its clause.
_REASON = re.compile(r"^[\s,;:-]*" + _GETS_TO_ME, re.IGNORECASE)
_REMARK_AT = re.compile(r"^[\s,;:-]*(?:" + _REMARK_TAIL + "|" + _REMARK_CLAUSE + ")", re.IGNORECASE)


def _less_the_remark(part: str) -> str:
    """``part`` less a remark that opens it, up to its clause's end: ", before anyone
    suggests it, what are good games for 4" keeps "what are good games for 4"."""
    m = _REMARK_AT.match(part)
    if m is None:
        return part
    comma = part.find(",", m.end())
    return "" if comma < 0 else part[comma + 1 :]


def _asks_something(part: str, after_exclusion: bool = False) -> bool:
    if after_exclusion and (_STATE.match(part) or _REASON.match(part)):
        return False
    return any(w not in _EMPTY_WORDS for w in _WORD.findall(part.lower()))


def strip_exclusions(query: str) -> str:
    """What ``query`` asks for, with its exclusion clauses cut out.

    "Dinner ideas please, but I can't eat gluten." -> "Dinner ideas." A sentence
    left with no request of its own is dropped; "" when nothing but exclusions remains.
    Yes/no questions are kept whole (they exclude nothing, see ``parse_exclusions``).
    """
    kept: list[str] = []
    for sentence in SENTENCES.findall(query):
        spans = [] if _YES_NO.match(sentence) else _exclusion_spans(sentence)
        if not spans:
            kept.append(sentence.strip())
            continue
        body = sentence.rstrip(".!? ")
        end = sentence[len(body) :].strip() or "."
        parts, last = [], 0
        for start, stop in spans:
            parts.append(body[last:start])
            last = stop
        parts.append(body[last:])
        # A part with no request of its own goes too: the "I" of "I don't want a dog, ...",
        # or the reason after an exclusion ("Not memory foam, it's too hot for me").
        parts = [p if i == 0 else _less_the_remark(p) for i, p in enumerate(parts)]
        parts = [p for i, p in enumerate(parts) if _asks_something(p, after_exclusion=i > 0)]
        # each part loses the connector left dangling where an exclusion was cut out
        # ("Pancakes with | , with oat milk")
        text = re.sub(r"\s+", " ", " ".join(_DANGLING.sub("", p).strip() for p in parts)).strip()
        text = re.sub(r"\s+([,;:])", r"\1", re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text))
        text = _DANGLING.sub("", text).lstrip(" ,;:-")
        if _asks_something(text):
            kept.append(text + end)
    return " ".join(kept).strip()

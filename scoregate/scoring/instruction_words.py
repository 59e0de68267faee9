"""Instruction rules about words and markers: required, banned and counted words and
letters, capital-word counts, quoting, titles, postscripts, highlights, placeholders,
sections, repeating the request, two responses, how the answer opens and ends, and its
language. :mod:`scoregate.scoring.instruction_rules` runs them after the form rules.

Pure: text in, constraints out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from scoregate.schemas.constraints import Instruction
from scoregate.scoring.counting import sentence_end
from scoregate.scoring.instruction_language import language_rule
from scoregate.scoring.phrasing import (
    CAPS_WORDS,
    COUNT,
    MORE,
    NUM,
    NUM_WORDS,
    QUOTE_SEP,
    QUOTED,
    QUOTED_ANY,
    QUOTED_LIST,
    REL,
    Rule,
    count_start,
    count_word,
    each_after,
    frequency,
    make,
    negated_before,
    negated_phrase,
    num,
    option_list,
    quoted_list,
    relation,
    word_list,
)
from scoregate.scoring.rhyme import rhyme_rule

#: "the words chlorophyll and glucose both show up", "the words X and Y must appear".
_BOTH_WORDS = re.compile(
    r"\bthe\s+(?:key\s*)?words\s+(?P<rest>[^.\n]{1,80}?)\s+(?:both\s+|all\s+)?"
    r"(?:show\s+up|appear|are\s+used|are\s+included|are\s+in\s+it)\b"
)
_NEGATION = (
    r"(?:must\s+not|mustn't|should\s+not|shouldn't|can't|cannot|can\s+not|do\s+not|don't|never"
    r"|without|refrain\s+from|avoid(?:ing)?|no)"
)
#: A negated verb before quoted words: "can't use "best" or "perfect"", "must not contain
#: the words "delicious" or "tasty"", "don't use "things" or "stuff"".
_BANNED_QUOTED = re.compile(
    rf"\b{_NEGATION}\s+(?:us\w*|includ\w*|contain\w*|mention\w*|say\w*|writ\w*|hav\w*"
    rf"|the\s+use\s+of)?\s*(?:the\s+|any\s+of\s+the\s+)?(?:(?:key\s*)?(?:words?|terms?|phrases?)"
    rf"\s+(?:like\s+)?)?(?P<rest>{QUOTED_LIST})"
)
#: "should mention "Edinburgh"", "work in the word HYDRATE": a word the answer must use.
_MENTION_QUOTED = re.compile(
    rf"\b(?:mention\w*|includ\w*|us(?:e|es|ing)\b|work\s+in|featur\w*)\s+"
    rf"(?:the\s+(?:word|term|name|phrase)\s+)?"
    rf"(?P<rest>{QUOTED_LIST})"
    rf"|\bwork\s+in\s+the\s+word\s+(?P<bare>[a-z][\w-]+)"
)
#: A count after banned words, which makes them counted: "don't use "synergy" more than once".
_MORE_THAN_AFTER = re.compile(r"\s*\b(?:more\s+than|over)\s+(?:once|twice|thrice|\w+\s+times?)\b")
_COUNTED_AFTER = re.compile(r"\s*(?:at\s+(?:least|most)|no\s+more|twice|thrice|once|\d+\s+times)\b")
#: ""sustainable" appears at most once": a quoted word and how often it may appear.
_QUOTED_FREQ = re.compile(
    rf"{QUOTED}\s+(?:should\s+|must\s+|can\s+|may\s+|only\s+)*(?:appears?|be\s+used|is\s+used"
    rf"|occurs?|shows?\s+up)\s+{REL}?\s*{COUNT}\s*(?:times?)?"
)


#: One term the answer must use, given bare: "make sure you use the term hyperconjugation",
#: "include the term 'amortisation'" (quoted terms are read by ``_MENTION_QUOTED``).
_USE_TERM = re.compile(
    r"\b(?:us(?:e|es|ing)|includ(?:e|es|ing)|mention(?:s|ing)?)\s+the\s+(?:technical\s+)?term\s+"
    r"(?P<w>[a-z][\w-]{2,60})\b(?=\s*(?:[.,;!?)]|$|and\b|in\b|at\s+least\s+once|somewhere))"
)
#: A name the answer must give, capitalised in the request: "please mention the Libby app by
#: name", "name Acme Tools by name" ("mention it by name" gives no name).
_BY_NAME = re.compile(
    r"\b(?:mention|name|refer\s+to|call\s+out)\s+(?:the\s+|our\s+|my\s+)?"
    r"(?P<name>[A-Z][\w'&.-]{0,40}(?:\s+[A-Z][\w'&.-]{0,40}){0,2})(?:\s+[a-z]+){0,2}\s+by\s+name\b"
)


#: One name as the request capitalises it, up to three words: "Acme", "Northwind Traders".
_CAP_NAME = r"(?:[A-Z]|[a-z]{1,2}[A-Z])[\w'’&.-]{0,40}?(?:\s+[A-Z][\w'’&.-]{0,40}?){0,2}"
#: Names in a row: "Acme", "Acme or Globex", "Acme, Globex and Initech".
_NAME_SEP = r"(?:\s*,\s*(?:(?i:or|and|nor)\s+)?|\s+(?i:or|and|nor)\s+)"
_CAP_NAMES = rf"{_CAP_NAME}(?:{_NAME_SEP}{_CAP_NAME}){{0,5}}"
#: Who or what a name may be given for, in apposition: "the client (Northwind)", "the
#: supplier, Brightline", "our client Northwind (by name)".
_NAMED_ROLE = (
    r"(?:clients?|customers?|company|supplier|vendor|partner|brand|competitor|rival|firm|agency"
    r"|employer|manager|boss|colleague|co-?worker|person|employee|contractor|landlord|tenant"
    r"|store|shop|restaurant|hotel|school|university|hospital|bank|product|app|team|charity"
    r"|organi[sz]ation|author|source|patient|candidate|sponsor|investor|buyer|seller|retailer"
    r"|distributor|manufacturer|provider|platform|agent|lawyer|doctor|publisher|venue|owner"
    r"|friend|neighbou?r|ex|teacher|student|account|business|startup|studio|lab|roommate"
    r"|room-mate|flatmate|housemate|sender|recipient|caller|supervisor|director|coach|mentor"
    r"|tutor|professor|recruiter|interviewer|reviewer|writer|speaker|guest|member|user"
    r"|husband|wife|spouse|girlfriend|boyfriend|sister|brother|cousin|aunt|uncle)\b"
)
#: The text a ban of a name may name, which makes it a ban on the whole answer: "in the
#: answer", "in the email" (not "in the subject line", "in the headline": a part).
_WHOLE_TEXT = (
    r"(?:answer|response|reply|text|post|email|letter|message|review|article|copy|piece|draft"
    r"|story|summary|note|announcement|press\s+release|blurb|update|writeup|write-up|report)"
)
#: Where a ban on a name stops: the clause's end, "anywhere", "at all", "in the answer"
#: (not "in the subject line", "as the culprit", "until the last line": a ban of a part).
_BAN_END = (
    r"(?=\s*(?:[.,;:!?)\n—–]|$)|\s+-\s|\s+(?i:anywhere|at\s+all|please|pls|and|but|either|ever"
    rf"|in\s+(?:the|your|this)\s+{_WHOLE_TEXT})\b)"
)
#: A part named after the comma that closes a ban: "do not name the supplier, Brightline,
#: in the subject line", "..., as the culprit" (a ban of that part only).
_BAN_OF_A_PART = re.compile(
    r"\s*,\s*(?i:in|on|within|inside|until|till|before|after|as|at|into|under|from)\s+"
    r"(?i:the|your|this|that|its|any|each|every|a|an)\s+"
    rf"(?!(?i:{_WHOLE_TEXT}|way|form|manner|shape)\b)"
)
#: A name the answer must leave out: "Don't mention Acme by name", "do not name the supplier,
#: Brightline", "without naming the client (Northwind)", "never name Acme or Globex",
#: "Refrain from mentioning Acme by name", "don't mention our client Northwind by name" (not
#: "don't mention Acme": a topic to leave aside, whose words may still be said; nor "don't
#: mention it by name", "I don't want to name names", "don't name the company Acme": what
#: to call it).
_NAME_BANNED = re.compile(
    r"(?i:(?:\b(?:do\s+not|don't|dont|never)\s+(?P<verb>mention|name|refer\s+to|call\s+out)"
    r"|\b(?:without|avoid|refrain\s+from)\s+"
    r"(?P<ing>mentioning|naming|referring\s+to|calling\s+out))\s+)"
    rf"(?:(?i:(?:the|our|my|their|his|her)\s+(?:[\w-]+\s+)?{_NAMED_ROLE})(?P<by1>\s+(?i:by\s+name))?"
    rf"(?:\s*,\s*(?P<name1>{_CAP_NAME})|\s*\(\s*(?P<name2>{_CAP_NAME})\s*\)"
    rf"|\s+(?P<name3>{_CAP_NAME})(?=\s+(?i:by\s+name)))"
    rf"(?P<by2>\s+(?i:by\s+name))?{_BAN_END}"
    rf"|(?P<names>{_CAP_NAMES})(?P<by3>(?:\s+[a-z]+){{0,2}}\s+(?i:by\s+name))?{_BAN_END})"
)
#: The doer before a ban, which makes it told of: "I don't mention Acme by name", "you
#: never name Acme" (a description, not a request).
_BAN_TOLD = re.compile(
    r"\b(?:i|we|you|he|she|they|it|who|which|that|people|someone|article|post|report|draft"
    r"|essay|email|letter|story|text)\s+(?:\w+ly\s+|also\s+|still\s+|just\s+)?$"
)
#: Where the clause of a ban opens: a mark, or a word that joins clauses ("Write the ad and
#: don't mention Acme by name", "..., but never name Acme").
_CLAUSE_OPENING = re.compile(r"[.!?;:,(\n\"“—–]|\s-\s|\b(?:and|but|then|or|so|plus)\b")
#: What may open a ban's clause before it, which leaves it a request: "please", "also",
#: "just", "kindly", an adverb ("obviously"), "important:", "try to", "make sure to", "you
#: must", "my boss said"... (not a doer of its own: "Politicians often avoid naming
#: Brexit", "Harry Potter characters never name Voldemort", "Apple's ads avoid naming
#: Samsung": what others do, told of).
_BAN_LEAD = re.compile(
    r"(?:(?:please|pls|plz|kindly|also|just|again|important|note|ps|oh|ok|okay|now|lastly|that"
    r"|finally|additionally|[a-z]+ly"
    r"|(?:remember|make\s+sure|be\s+sure|ensure|try|(?:i'?d|we'?d|i\s+would|we\s+would)\s+(?:like|prefer)"
    r"(?:\s+you)?|(?:i|we)\s+(?:want|need)\s+you|(?:you\s+)?(?:must|should|need|have|ought))\s+to"
    r"|(?:you\s+)?(?:must|should|shall|will|can)"
    r"|(?:(?:my|our|the|his|her|their)\s+[\w-]+(?:\s+[\w-]+)?|he|she|they|legal)\s+(?:said|says"
    r"|asked|asks|wants|insists|insisted|told\s+(?:me|us))(?:\s+(?:me|us|you))?(?:\s+(?:to|that))?"
    r")\b[\s,:!-]*)*"
)


def _ban_told(low: str, m: re.Match[str]) -> bool:
    """Whether the ban ``m`` is told of, not asked: a doer before it ("I don't mention Acme
    by name", "Journalists often avoid naming Acme") or a question about it."""
    if _BAN_TOLD.search(low[max(0, m.start() - 30) : m.start()]) or _in_a_question(low, m):
        return True
    if low.startswith("without", m.start()):
        return False  # "Summarize the complaint without naming the client (Northwind)"
    opening = max((o.end() for o in _CLAUSE_OPENING.finditer(low, 0, m.start())), default=0)
    lead = low[opening : m.start()].strip(" \t-*•>#'‘’”)0123456789")
    return _BAN_LEAD.fullmatch(lead) is None


def _banned_names(q: str, low: str) -> Iterator[Instruction]:
    """The names a request rules out of the answer, each as a word it must not use."""
    for m in _NAME_BANNED.finditer(q):
        verb = (m.group("verb") or m.group("ing") or "").lower()
        by_name = m.group("by1") or m.group("by2") or m.group("by3")
        if m.group("names") and not by_name and not verb.startswith("nam"):
            continue  # "don't mention Acme": what it is about, not its name
        if _ban_told(low, m):
            continue  # "I don't mention Acme by name; is that ok?"
        if _BAN_OF_A_PART.match(q, m.end()):
            continue  # "do not name the supplier, Brightline, in the subject line"
        given = m.group("name1") or m.group("name2") or m.group("name3") or m.group("names")
        names = [n.strip() for n in re.split(r"\s*,\s*|\s+(?i:or|and|nor)\s+", given)]
        if names and all(n and n.split()[0].lower() not in _NOT_NAMES for n in names):
            yield make("forbidden_words", m.group(0), value=names)


def _terms_and_names(q: str, low: str) -> Iterator[Instruction]:
    if (m := _USE_TERM.search(low)) and not negated_before(low, m):
        if not _COUNTED_AFTER.match(low, m.end()):
            yield make("keywords", m.group(0), value=[q[m.start("w") : m.end("w")]])
    if (m := _BY_NAME.search(q)) and not negated_before(low, m):
        yield make("keywords", m.group(0), value=[m.group("name")])
    yield from _banned_names(q, low)


def _keywords(q: str, low: str) -> Iterator[Instruction]:
    m = re.search(
        r"\b(?:includ|us|mention|contain|incorporat|featur|hav)\w*\s+(?:the\s+)?(?:key\s*)?words?\s+"
        r"(?P<rest>[^.\n]{1,200})",
        low,
    )
    if m and not re.search(
        r"\b(?:at\s+least|less\s+than|fewer|times|no\s+more)\b", m.group("rest")
    ):
        words = word_list(q, m, max_words=2)
        if words and not negated_before(low, m):
            yield make("keywords", m.group(0), value=words)
    elif m := _BOTH_WORDS.search(low):  # "make sure the words X and Y both show up"
        if words := word_list(q, m, max_words=1):
            yield make("keywords", m.group(0), value=words)
    elif (
        (m := _MENTION_QUOTED.search(low))
        and not negated_before(low, m)
        and not _COUNTED_AFTER.match(low, m.end())
    ):  # 'mention "Edinburgh"', "work in the word HYDRATE"; "... at least twice" is counted
        if m.group("bare"):
            words = [q[m.start("bare") : m.end("bare")]]
        else:
            words = option_list(q[m.start("rest") : m.end("rest")])
        if words:
            yield make("keywords", m.group(0), value=words)

    m = re.search(
        r"\b(?:(?:do\s+not|don't|never|without|refrain\s+from)\s+(?:include|includ\w+|us\w+|mention\w*"
        r"|say\w*|writ\w+|the\s+use\s+of)|avoid(?:ing)?(?:\s+(?:using|the\s+use\s+of|saying|mentioning))?)\s+"
        r"(?:the\s+|any\s+of\s+the\s+)?(?:key\s*)?(?:words?|terms?)\s+(?P<rest>[^.\n]{1,200})",
        low,
    )
    if m and _MORE_THAN_AFTER.search(m.group("rest")):
        pass  # "don't use the word "synergy" more than once": a count, read by _frequencies
    elif m and (words := word_list(q, m, max_words=1)):
        yield make("forbidden_words", m.group(0), value=words)
    elif (m := _BANNED_QUOTED.search(low)) and not _MORE_THAN_AFTER.match(low, m.end()):
        # "can't use "best" or "perfect" anywhere" (not "... more than once": a count)
        if words := option_list(q[m.start("rest") : m.end("rest")]):
            yield make("forbidden_words", m.group(0), value=words)


_TELL = r"(?:mention|include|state|give|add|note|quote|list|show|put\s+in|tell\s+me)"
#: "mention the time complexity", "include the approximate price of each": an element the
#: answer must give, found by its form (``mentions``).
_ELEMENT = re.compile(
    rf"\b{_TELL}\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+|what\s+)?"
    r"(?:approximate\s+|rough\s+|estimated\s+|typical\s+|ballpark\s+|big-?o\s+|runtime\s+)?"
    r"(?P<thing>(?:time\s+)?complexity|big-?o|prices?|costs?)"
    r"(?P<each>\s+(?:of\s+|for\s+)?(?:each|every|all)\b)?"
)
#: What people number: "reference number", "order #", "booking ref".
_REFERENCE = (
    r"(?:reference|ref|order|account|case|ticket|invoice|booking|policy|claim|tracking"
    r"|membership|customer)"
)
_REFERENCE_SUFFIX = r"(?:number|no\.?|#|id|code)"
#: A reference as people write them: digits with letters or hyphens ("BW-55217", "4471-XZ").
_REFERENCE_ID = r"(?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]{3,}[A-Za-z0-9]"
#: "include the reference number BW-55217", "quote my order number 4471-XZ": the number
#: named, as written.
_NUMBER_NAMED = re.compile(
    rf"\b{_TELL}\s+(?:the|my|our|his|her|their)\s+{_REFERENCE}\s*{_REFERENCE_SUFFIX}"
)
#: ... the one given with the ask: a reference with a letter or a hyphen, or six digits.
_ID_TOKEN = re.compile(
    rf"(?<![\w-])(?:(?=[A-Za-z0-9-]*[A-Za-z-]){_REFERENCE_ID}|\d{{6,}})(?![\w-])"
)
#: A reference the request gives by name: "My reference is BW-55217", "order #4471-XZ".
_REFERENCE_GIVEN = re.compile(
    rf"(?i:\b{_REFERENCE}(?:\s*{_REFERENCE_SUFFIX})?(?:\s+is|\s*[:#-])?\s*)"
    rf"(?P<id>{_REFERENCE_ID})(?![\w-])"
)
#: "sign it from the Hendersons", "address it to Ms Patel": a name the letter must carry.
_SIGNED_OR_ADDRESSED = re.compile(
    r"(?i:\b(?:sign(?:ed)?\s+(?:it\s+|off\s+)?(?:from|as)|address(?:ed)?\s+(?:it\s+)?to)\s+"
    r"(?:the\s+|(?:mr|mrs|ms|miss|dr|prof)\.?\s+)?)(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)"
)


def _named_elements(q: str, low: str) -> Iterator[Instruction]:
    for m in _ELEMENT.finditer(low):
        if negated_before(low, m):
            continue
        named = m.group("thing")
        thing = "complexity" if "complexity" in named or "big" in named else "price"
        value = f"{thing} of each" if thing == "price" and m.group("each") else thing
        yield make("mentions", m.group(0), value=value)
        break
    number = _NUMBER_NAMED.search(low)
    if number and not negated_before(low, number):
        after = re.split(r"[.!?\n](?:\s|$)", q[number.end() : number.end() + 40])[0]
        if token := _ID_TOKEN.search(after):  # the number given with the ask
            yield make("keywords", number.group(0) + after[: token.end()], value=[token.group(0)])
        elif given := _REFERENCE_GIVEN.search(q):  # "My reference is BW-55217." earlier on
            yield make("keywords", number.group(0), value=[given.group("id")])
    for name in _SIGNED_OR_ADDRESSED.finditer(q):
        yield make("keywords", name.group(0), value=[name.group("name").split()[-1]])


#: The most words a counted phrase has ("'for example' at most twice").
_MAX_COUNTED_WORDS = 4


def _frequencies(q: str, low: str) -> Iterator[Instruction]:
    freq = (
        rf"\b(?:the\s+)?(?:word|keyword)\s+(?:{QUOTED}|(?P<w>[\w'-]+))\s+(?:should|must|has\s+to|needs\s+to)?\s*"
        rf"(?:appear|be\s+used|occur|show\s+up)\s+{REL}?\s*{COUNT}\s*(?:times?)?"
    )
    quoted = [
        m
        for m in _QUOTED_FREQ.finditer(low)
        if 1 < len(m.group("v").strip())
        and len(m.group("v").split()) <= _MAX_COUNTED_WORDS
        and not low[: m.start()].rstrip().endswith("letter")
    ]  # "the letter 'z' appears at least 5 times": a letter, which _letters_and_capitals
    # reads; "children's story ... the letter 'z'": an apostrophe, not a quotation
    for m in [*re.finditer(freq, low), *quoted]:
        word = (m.group("v") or m.groupdict().get("w") or "").strip()
        yield frequency("word_frequency", m, word)
    use = (
        rf"\b(?:use|mention|say|repeat|include)\s+(?:(?:the\s+(?:word|phrase|term|name|expression|keyword)\s+)?{QUOTED}"
        rf"|the\s+word\s+(?P<w>[\w'-]+))\s+"
        rf"{REL}?\s*{COUNT}\s*(?:times?)?(?=\W|$)"
    )
    found: list[Instruction] = []
    for m in re.finditer(use, low):
        # "repeat the word Tonight": the word as the request writes it, not lower-cased
        word = (m.group("v") or (m.group("w") and q[m.start("w") : m.end("w")]) or "").strip()
        if _told_of(low, m):
            continue  # "I need to use the word 'synergy' twice, is that too much?"
        if negated_before(low, m):
            if re.fullmatch(MORE, m.group("rel") or ""):  # "don't use "synergy" more than once"
                n = count_word(m.group("n"))
                found.append(
                    make("word_frequency", m.group(0), value=word, relation="at_most", count=n)
                )
            continue
        if m.group("rel") or m.group("n") in ("twice", "thrice") or "time" in m.group(0):
            found.append(frequency("word_frequency", m, word))
    yield from _once_each([*found, *_bare_frequencies(q, low)])


def _once_each(found: list[Instruction]) -> Iterator[Instruction]:
    """Each counted word once: "repeat the word Tonight four times" is read by two phrasings
    ("the word X", a bare name), as 'tonight' and 'Tonight'; the first reading stays."""
    seen: set[tuple[str, str, int | None]] = set()
    for k in found:
        key = (str(k.value).lower(), k.relation, k.count)
        if key not in seen:
            seen.add(key)
            yield k


#: How often a word is to be said: "at least 3 times", "at least 3x", "twice", "no more than
#: once" (a bare "once" is not read: "mention Paris once" may mean only once).
_HOW_OFTEN = (
    rf"(?:{REL}\s*{COUNT}(?:\s+times?|(?<=\d)x)?|(?P<n2>\d+|{'|'.join(NUM_WORDS)})\s+(?:or\s+more\s+)?times?"
    rf"|(?P<n3>twice|thrice))"
)
#: The same count of a schedule or a part, not of the word: "include Pilates at least twice
#: a week", "twice daily", "twice as long", "twice in each paragraph".
_NOT_OF_THE_WORD = re.compile(
    r"\s+(?:a|an|per|each|every|this|next|daily|weekly|monthly|nightly|as|more|less|over|[a-z]+er"
    r"|in\s+(?:a|each|every|one|the\s+(?:first|last|second|opening|closing|same)))\b"
)
#: The asker's own doing, not the answer's: "I mention Paris three times", "we use Jira twice",
#: "I need to use Excel at least 3 times for this report", "we're going to say Acme twice".
_SAID_BY_ASKER = re.compile(
    r"\b(?:i|we|i've|we've|i'd|we'd|he|she|they|people|someone|it)\s+(?:\w+ly\s+|always\s+|often\s+"
    r"|already\s+|only\s+|just\s+|never\s+)?$"
    r"|\b(?:i|we)(?:'m|'re|\s+am|\s+are)?\s+(?:need|needed|have|had|want|wanted|got|plan|planning"
    r"|going|supposed|trying|tried|try)\s+to\s+$"
)
#: A gerund tells of a doing, not what to write: "We tried using Redis twice", "After saying
#: Hello twice, the bot stops", "Including Docker twice in my resume: too much?" (read only
#: after "without", "avoid" or "try": "without mentioning Acme more than twice").
_GERUND_TOLD = re.compile(r"\b(?:without|avoid|try|keep)\s+$")
#: A question asked of the answerer is a request: "can you say Acme twice?", "... please?".
_ASKED_OF_ANSWERER = re.compile(r"\b(?:can|could|would|will)\s+(?:you|u)\b|\bplease\b|\bpls\b")
#: A verb placed as a command: at the sentence's start or after "and", "then", a comma
#: ("write an ad and mention Lumio twice, ok?"; not "is it too much to use 'synergy' twice?").
_COMMAND_BEFORE = re.compile(r"(?:^\s*|\b(?:and|then|also|just)\s+|[,;:]\s*)$")


def _sentence_span(low: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence of ``low`` around ``start``..``end`` opens, and the index of the
    mark that closes it (``len(low)`` when none does)."""
    opening = max(low.rfind(c, 0, start) for c in ".!?\n") + 1
    ends = [i for i in (low.find(c, end) for c in ".!?\n") if i >= 0]
    return opening, min(ends, default=len(low))


def _in_a_question(low: str, m: re.Match[str]) -> bool:
    """Whether ``m`` stands in a question not asked of the answerer: "Should we use Redis
    twice?", "is it too much to mention Docker twice in my resume?"."""
    start, end = _sentence_span(low, m.start(), m.end())
    if low[end : end + 1] != "?" or _ASKED_OF_ANSWERER.search(low[start:end]):
        return False
    return _COMMAND_BEFORE.search(low[start : m.start()]) is None


def _told_of(low: str, m: re.Match[str]) -> bool:
    """Whether a counted word is told of, not asked for: the asker's own doing ("I need to
    use Excel at least 3 times") or a question about the count ("... twice, too much?")."""
    before = low[max(0, m.start() - 30) : m.start()]
    return _SAID_BY_ASKER.search(before) is not None or _in_a_question(low, m)


#: A name in the request's own capitals: "Paris", "Acme", "New York" (one or two words),
#: "iPhone", "eBay" (a capital after a small letter or two), and names with marks in
#: them: "C++", "C#", "Node.js", ".NET", "ASP.NET".
_NAME_MARKS = r"(?:\.[A-Za-z][\w-]*)*(?:\+\+|#)?"
_NAME = (
    rf"(?P<name>(?:(?:[A-Z]|[a-z]{{1,2}}[A-Z])[\w'’&-]*|\.[A-Z][\w-]*){_NAME_MARKS}"
    rf"(?:\s+[A-Z][\w'’&-]*{_NAME_MARKS})?)"
)
#: Words in capitals that are no name: "mention It twice", "say This three times".
_NOT_NAMES = frozenset(
    "i it its this that these those the a an them they he she him her his hers their our ours"
    " your yours my me we us you one each every both all some any no none".split()
)
#: A counted word given bare: "Mention Paris at least 3 times", "make sure you say Acme
#: twice", "include Nimbus at least twice", "repeat the brand name Lumio three times",
#: "use the term ROI at least twice" (a capitalised name, or one word after "the
#: word/term/name"; not "mention it twice", "repeat the chorus twice", "mention the
#: deadline at least twice": what the answer may say in other words).
_BARE_COUNTED = re.compile(
    r"(?i:\b(?P<verb>mention(?:s|ing)?|say(?:s|ing)?|us(?:e|ing)|repeat(?:ing)?|includ(?:e|ing)"
    r"|work\s+in|name-?drop(?:ping)?|referenc(?:e|es|ing))\s+)"
    r"(?:(?P<the>(?i:the\s+(?:[\w-]+\s+)?(?:word|term|keyword)\s+))(?P<word>\w[\w'-]*)"
    rf"|(?P<named>(?i:the\s+(?:[\w-]+\s+)?name\s+))?{_NAME})"
    rf"\s+(?i:{_HOW_OFTEN})(?=\W|$)"
)
#: "make sure Acme shows up twice", "ensure Paris appears at least 3 times".
_BARE_APPEARS = re.compile(
    rf"(?i:\b(?:make\s+sure|ensure|so\s+that)\s+(?:the\s+(?:[\w-]+\s+)?name\s+)?){_NAME}"
    r"(?i:\s+(?:should\s+|must\s+|will\s+|has\s+to\s+|needs\s+to\s+)?(?:appears?|comes?\s+up"
    r"|shows?\s+up|is\s+(?:used|mentioned|said)|gets?\s+(?:used|mentioned))\s+)"
    rf"(?i:{_HOW_OFTEN})(?=\W|$)"
)
#: A name that opens its sentence: "Lumio should appear at least 3 times.", "The brand name
#: Lumio must come up twice." (with a modal: "Paris appears twice" may tell of a text).
_NAME_APPEARS = re.compile(
    rf"(?:^|(?<=[.!?\n]))\s*(?i:the\s+(?:[\w-]+\s+)?name\s+)?{_NAME}"
    r"(?i:\s+(?:should|must|has\s+to|needs\s+to)\s+(?:appear|come\s+up|show\s+up"
    r"|be\s+(?:used|mentioned|said))\s+)"
    rf"(?i:{_HOW_OFTEN})(?=\W|$)"
)


#: What is asked for, with a clause that says what it holds: "Write a haiku that mentions
#: Berlin exactly once", "could you write me a poem that says Paris twice", "I need a
#: slogan that says Acme at least twice" (not "I wrote a poem that mentions Berlin twice",
#: "my essay mentions Berlin three times"; "a script that uses Redis twice" is no word
#: said: "uses" and "includes" are not read in such a clause).
_ASKED_THAT = re.compile(
    r"(?:^\s*|\b(?:and|then|please|pls|also|just)\s+|[,;:]\s*"
    r"|\b(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?|\bi(?:'d|\s+would)\s+like\s+"
    r"|\b(?:i|we)\s+(?:need|want)\s+)"
    r"(?:(?:write|compose|create|make|draft|generate|produce|pen|craft|give|send"
    r"|come\s+up\s+with)\s+)?(?:me\s+|us\s+)?(?:a|an|one|two|three|four|five|\d+)\s+"
    r"(?:[\w'-]+\s+){0,4}?(?:that|which)\s+(?:only\s+|also\s+)?$"
)


def _asked_that(low: str, at: int) -> bool:
    """Whether the verb at ``at`` opens a clause of the thing the request asks for."""
    opening, _ = _sentence_span(low, at, at)
    return _ASKED_THAT.search(low[opening:at]) is not None


#: A program asked for, whose output the counted word is, not the answer's words: "a Python
#: script that says Hello three times", "a bot to say Hi twice", "a Bash script that will
#: say Done twice".
_OUTPUT_OF_A_PROGRAM = re.compile(
    r"\b(?:script|program|programme|function|bot|chatbot|app|command|query|code|snippet|loop"
    r"|method|macro|routine|one-liner|cli|alias|shortcut|lambda|plugin|workflow|pipeline|robot"
    r"|endpoint|api|daemon|widget)s?\b(?:\s+[\w'+#.-]+){0,3}?\s+(?:that|which|to|who)\s+"
    r"(?:(?:will|should|would|can|must|just|only|also|then|always)\s+)*$"
)
#: A clause of another thing than the one asked for: "a joke about a cat that says Meow
#: twice" (the cat says it), "a story with a parrot who says Hello three times" (read with
#: "say" only: "a poem about my dog that mentions Rex twice" is the poem's clause).
_CLAUSE_OF_ANOTHER = re.compile(
    r"\b(?:about|of|with|featuring|starring|involving)\s+(?:a|an|the|some|two|three|my|our"
    r"|his|her|their)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+\s+(?:that|which|who)\s+"
    r"(?:(?:will|should|would|can|must|just|only|also|then|always)\s+)*$"
)


def _not_counted(low: str, rx: re.Pattern[str], m: re.Match[str]) -> bool:
    """Whether a bare counted name ``m`` is no count of a word: no name ("mention it
    twice"), a workout ("repeat Circuit A three times"), a schedule ("twice a week"), the
    asker's own doing or a question ("I mention Paris three times"), a gerund ("We tried
    using Redis twice") or a number ("say Three twice")."""
    word = m.group("word") if "word" in rx.groupindex else None
    name = m.group("name")
    if word is None and (name is None or name.split()[0].lower() in _NOT_NAMES):
        return True
    verb = m.group("verb") if "verb" in rx.groupindex else ""
    if verb.lower().startswith("repeat") and not (m.group("the") or m.group("named")):
        return True  # "repeat Circuit A three times": a workout, not a word
    if _NOT_OF_THE_WORD.match(low, m.end()) or _told_of(low, m):
        return True  # "include Pilates at least twice a week", "... twice. Why?"
    if verb.lower().endswith("ing") and not _GERUND_TOLD.search(low[: m.start()]):
        return True  # "We tried using Redis twice", "After saying Hello twice, ..."
    if verb.lower().endswith("s") and not _asked_that(low, m.start()):
        return True  # "my essay mentions Berlin three times": a text told of
    before = low[_sentence_span(low, m.start(), m.start())[0] : m.start()]
    if _OUTPUT_OF_A_PROGRAM.search(before):
        return True  # "a Python script that says Hello three times": what it prints
    if verb.lower().startswith("say") and _CLAUSE_OF_ANOTHER.search(before):
        return True  # "a joke about a cat that says Meow twice": what the cat says
    return (word or name or "").lower() in NUM_WORDS


def _bare_frequencies(q: str, low: str) -> Iterator[Instruction]:
    """Counted words given without quotes: a capitalised name, or one word after "the
    word" ("Mention Paris at least 3 times"); each is counted as a whole word, in any case."""
    for rx in (_BARE_COUNTED, _BARE_APPEARS, _NAME_APPEARS):
        for m in rx.finditer(q):
            if _not_counted(low, rx, m):
                continue
            n = m.group("n") or m.group("n2") or m.group("n3")
            rel, value = relation(m.group("rel"), None, count_word(n.lower()))
            if not m.group("rel"):
                rel = "at_least"  # "say Acme twice": at least, as people mean it
            negated = negated_before(low, m)
            if negated:
                if not re.fullmatch(MORE, (m.group("rel") or "").lower()):
                    continue  # "don't say Acme twice": not a count to check
                rel, value = "at_most", value - 1  # "don't mention Acme more than twice"
            word = m.group("word") if "word" in rx.groupindex else None
            what = (word or m.group("name") or "").strip()
            yield make("word_frequency", m.group(0), value=what, relation=rel, count=value)
            if rx is _BARE_COUNTED and not negated:
                yield from _and_named(q, low, m.end())  # "... and London twice"


#: A second counted name after the first: "Mention Paris 3 times and London twice".
_AND_COUNTED = re.compile(rf"\s*,?\s+(?i:and)\s+{_NAME}\s+(?i:{_HOW_OFTEN})(?=\W|$)")


def _and_named(q: str, low: str, at: int) -> Iterator[Instruction]:
    """The counted names that follow a counted name, each joined by "and"."""
    while (m := _AND_COUNTED.match(q, at)) and m.group("name").split()[0].lower() not in _NOT_NAMES:
        if _NOT_OF_THE_WORD.match(low, m.end()):
            return  # "... and Yoga twice a week"
        n = m.group("n") or m.group("n2") or m.group("n3")
        rel, value = relation(m.group("rel"), None, count_word(n.lower()))
        rel = rel if m.group("rel") else "at_least"
        yield make(
            "word_frequency", m.group(0).strip(), value=m.group("name"), relation=rel, count=value
        )
        at = m.end()


def _letters_and_capitals(q: str, low: str) -> Iterator[Instruction]:
    for rx in _LETTER_FREQ:
        for m in rx.finditer(low):
            yield frequency("letter_frequency", m, m.group("w"))
    if banned := _LETTER_BANNED.search(low):
        yield make(
            "letter_frequency",
            banned.group(0),
            value=banned.group("w"),
            relation="at_most",
            count=0,
        )
    for rx in _CAPS_FREQ:
        for m in rx.finditer(low):
            rel, value = relation(m.group("rel"), None, count_word(m.group("n")))
            yield make("capital_words", m.group(0), relation=rel, count=value)


#: "the letter 'z' should appear at least 5 times", "use the letter 'q' at least 4 times".
_LETTER = r"letter\s+[\"'“]?(?P<w>[a-z])[\"'”]?"
_LETTER_FREQ = (
    re.compile(
        rf"\b{_LETTER}\s+(?:should|must|has\s+to|needs\s+to|will)?\s*"
        rf"(?:appears?|be\s+used|is\s+used|occurs?|shows?\s+up)\s+{REL}?\s*{COUNT}"
    ),
    re.compile(rf"\bthe\s+{_LETTER}\s+{REL}?\s*{COUNT}\s*times"),
)
#: A lipogram: "without using the letter e", "never use the letter 'a'".
_LETTER_BANNED = re.compile(
    rf"\b(?:without(?:\s+using)?|never\s+us\w+|(?:do\s+not|don't)\s+use|avoid(?:ing)?(?:\s+using)?"
    rf"|no)\s+(?:the\s+|a\s+single\s+|any\s+)?{_LETTER}"
)
#: "words in all capital letters should appear at least 3 times", "use 4 all-caps words".
_CAPS_FREQ = (
    re.compile(
        rf"{CAPS_WORDS}\s+(?:for\s+emphasis\s+)?(?:should|must|can|may|need\s+to|has\s+to)?\s*"
        rf"(?:appear|be\s+used|occur|show\s+up)\s+{REL}?\s*{COUNT}"
    ),
    re.compile(
        rf"\b(?:use|include|have|contain|with|add|want|need|put|get)\s++(?:{REL}\s*+)?{COUNT}\s+"
        rf"{CAPS_WORDS}"
    ),
    # "put the most important words in all capital letters, at least 4 of them"
    re.compile(rf"{CAPS_WORDS}[^.\n]{{0,20}}?\b{REL}\s*{COUNT}\s+of\s+them"),
)


#: "Wrap your entire response / the whole letter in double quotation marks".
_QUOTED_WHOLE = re.compile(
    r"\b(?:wrap|enclose|put|place|surround)\w*\s+(?:your\s+|the\s+)?(?:entire\s+|whole\s+|full\s+)?"
    r"(?:[\w']+\s+){0,2}?(?:with|in|inside|within|between)\s+(?:a\s+pair\s+of\s+)?double\s+quot"
    r"|\b(?:entire|whole)\s+(?:response|reply|answer|output|text)\s+(?:\w+\s+){0,3}in\s+double\s+quot"
)
_SINGLE_QUOTES = (
    r"(?:a\s+pair\s+of\s+)?single\s+(?:quot(?:e|es|ation\s+marks?)|inverted\s+commas)\b"
)
#: The whole answer in single quotes: "wrap the whole answer in single quotes", "put your
#: response in single quotation marks", "everything in single quotes" (not "put the command
#: in single quotes", "quote the title in single quotes": a part).
_SINGLE_QUOTED_WHOLE = re.compile(
    r"\b(?:wrap|enclose|put|place|surround|write|give|return|send)\w*\s+(?:me\s+)?(?:(?:your|the|my)\s+)?"
    r"(?:(?:(?:entire|whole|full|complete)\s+)?(?:response|reply|output|message|text)"
    r"|(?:entire|whole|full|complete)\s+(?:answer|thing)|everything|it\s+all)"
    r"\s+(?:(?:with)?in|inside|within|between)\s+"
    rf"{_SINGLE_QUOTES}"
    # "surround your response with single quotes" (not "write it with single quotes": a style)
    r"|\b(?:wrap|enclose|surround)\w*\s+(?:(?:your|the|my)\s+)?(?:(?:entire|whole|full|complete)\s+)?"
    rf"(?:response|reply|output|message|text|answer|everything|it\s+all)\s+with\s+{_SINGLE_QUOTES}"
    r"(?!\s+(?:around|on|for)\b)"
    r"|\b(?:entire|whole|full)\s+(?:response|reply|answer|output|text|thing)\s+(?:\w+\s+){0,3}"
    rf"(?:in|inside|within|between)\s+{_SINGLE_QUOTES}"
    # "Answer in single quotes." (not "put the answer in single quotes": the final answer)
    r"|(?:^|[.!?;:,]\s*|\b(?:please|pls|and|just|only|always|then)\s+)(?:reply|answer|respond)"
    rf"\s+(?:only\s+|just\s+)?(?:in|inside|within|between)\s+{_SINGLE_QUOTES}"
)
#: "Wrap your answer in single quotes", "put ur answer in single quotes", "surround the
#: answer with single quotes": the reply, in a chat request (not "put the answer in single
#: quotes" after working: see ``_ANSWER_IS_A_PART``).
_SINGLE_QUOTED_ANSWER = re.compile(
    r"\b(?:(?:put|place|give|write|return|send)\w*\s+(?:your|ur)\s+(?:answer|response|reply)"
    r"\s+(?:(?:with)?in|inside|within|between)"
    # "surround the answer with": not "write your response with single quotes" (a style)
    r"|(?:wrap|enclose|surround)\w*\s+(?:your|ur|the)\s+(?:answer|response|reply)"
    rf"\s+(?:(?:with)?in|inside|within|between|with))\s+{_SINGLE_QUOTES}"
    r"(?!\s+(?:around|on|for)\b)"  # "wrap your answer with single quotes around each name"
)
#: A request whose "answer" is the last line of some working: "solve for x", "show your
#: steps", "explain, then put your final answer in single quotes".
_ANSWER_IS_A_PART = re.compile(
    r"\b(?:final|steps?|working|work\s+(?:it\s+)?out|show\s+(?:your\s+|the\s+)?work|explain\w*"
    r"|reasoning|reason|think|solve|calculate|compute|derive|prove|justify)\b"
)
#: Code or data, whose strings or values may be what "everything in single quotes" quotes.
_QUOTED_VALUES = re.compile(
    r"\b(?:code|list|array|strings?|values?|python|javascript|js|json|sql|csv|variables?|keys?"
    r"|items?|entries|elements?|dict(?:ionary)?|tuple|command|shell|bash|yaml|config)\b"
)
#: One short thing asked for, whose reply is that thing: "reply with the slogan in single
#: quotes", "write a tagline for my bakery and give it to me in single quotes".
_SHORT_THING = (
    r"(?:slogan|tagline|motto|name|catchphrase|title|headline|one-liner|word|phrase|answer"
    r"|nickname|hashtag|subject\s+line)"
)
_SINGLE_QUOTED_REPLY = re.compile(
    rf"\b(?:reply|answer|respond)\w*\s+(?:with\s+)?(?:only\s+|just\s+)?(?:the|a|your|one)\s+"
    rf"(?:[\w-]+\s+)?{_SHORT_THING},?\s+(?:(?:wrapped|enclosed)\s+)?(?:in|inside|within|between)\s+"
    rf"{_SINGLE_QUOTES}"
    rf"|\b(?:give|wrap|put|enclose|return|send)\w*\s+it\s+(?:to\s+me\s+|back\s+)?(?:in|inside|within"
    rf"|between)\s+{_SINGLE_QUOTES}"
)
#: ... the thing asked for: "write a slogan", "suggest a name for my cat".
_ASKS_SHORT_THING = re.compile(
    r"\b(?:write|give|suggest|come\s+up\s+with|create|make|need|want|craft|invent|pick|coin)"
    rf"\s+(?:me\s+|us\s+)?(?:a|one|an)\s+(?:[\w-]+\s+){{0,2}}?{_SHORT_THING}\b"
)
#: What a highlight instruction counts: "highlight at least 2 key phrases with markdown".
_HIGHLIGHT_ANY = re.compile(r"\bhighlight\w*\b[^.\n]{0,80}?(?:markdown|\*)")
_HIGHLIGHT = re.compile(
    rf"\bhighlight\w*\s+{REL}?\s*{NUM}\s+(?:[\w'-]+\s+){{0,2}}?"
    r"(?P<noun>sections?|parts?|phrases?|words?|lines?|sentences?|tips?|points?|ideas?|terms?"
    r"|clues?|items?|facts?|steps?|names?|takeaways?|[a-z]{3,}s)\b"
)
#: Section markers: "3 sections, marking the start of each with SECTION X".
_SECTION_NOUN = r"(?:sections?|parts?|chapters?)"
_SECTION_COUNT = re.compile(
    rf"\b(?:has|have|contain|with|in|into|use)\s+{REL}?\s*{NUM}\s+{_SECTION_NOUN}"
)
_SECTION_MARK = re.compile(
    r"\b(?:mark|begin|start|label|head|open|title)\w*\s+(?:the\s+)?(?:beginning\s+|start\s+)?(?:of\s+)?"
    r"(?:each|every)\b[^.\n]{0,40}?\b(?:with|by|as)\s+[\"'“]?(?P<mk>[A-Za-z]+)\s+(?:x|n|\d|\{|#)"
    r"|\bsections?\b[^.\n]{0,60}?(?:mark|begin|start|label)\w*[^.\n]{0,60}?(?:with|by)\s+[\"'“]?"
    r"(?P<mk2>[A-Za-z]+)\s+(?:x|n|\d|\{|#)"
    # "3 parts labelled Part 1, Part 2 and Part 3", "sections titled SECTION 1 ..."
    r"|\beach\s+(?:one\s+)?(?:starting|beginning|opening|marked|labell?ed|headed)\s+(?:with\s+)?"
    r"(?:a\s+(?:marker|header|heading|label)\s+(?:like\s+)?|the\s+(?:marker|header|heading)\s+)?"
    r"[\"'“]?(?P<mk4>[A-Za-z]+)\s+(?:x|n|1|\{|#)\b"
    rf"|\b{_SECTION_NOUN},?\s+(?:labell?ed|titled|headed|named|marked|called)\s+[\"'“]?"
    r"(?P<mk3>[A-Za-z]+)\s+(?:x|n|1|i|\{|#)\b"
)
_REPEAT = re.compile(
    r"\b(?:repeat|echo|restate|copy)\w*\s+(?:back\s+)?(?:this|the|my|your)\s+(?:following\s+|above\s+"
    r"|below\s+)?(?:request|question|prompt|instruction|task)(?:\s+(?:above|below))?\s+(?:back\s+)?"
    r"(?:word\s+for\s+word|verbatim|exactly)"
)
_TWO_RESPONSES = re.compile(
    r"\b(?:give|provide|write|offer|draft|suggest|need|want|create|make|come\s+up\s+with|like)\s+"
    r"(?:me\s+|us\s+)?(?:two|2)\s+(?:different\s+|distinct\s+|separate\s+|alternative\s+)?[\w'-]+"
)
_SIX_ASTERISKS = re.compile(r"\*{6}|\b(?:6|six)\s+asterisk")


#: A title line above the answer: "give me a title and then 5 bullet points", "with a
#: heading" (not "a title for my essay", where the title is the answer).
_PLAIN_TITLE = re.compile(
    r"\b(?:with|add|include|start\s+with|begin\s+with|give(?:\s+(?:me|it))?|put)\s+a\s+"
    r"(?:short\s+|catchy\s+|clear\s+|bold\s+)?(?:title|heading|headline)\b"
    r"(?!\s+(?:for|of|about|to|that|which|in|idea|ideas|options|suggestions)\b)"
)


#: A title ruled out: "without a title", "no title", "skip the title", "don't give it a
#: title", "don't put a title on it", "no need for a title", "no need to add a title" (not
#: "no title case", "without a title deed", "no title fight": "title" followed by where it
#: goes or the clause's end); "don't title it".
_NO_TITLE = re.compile(
    r"\b(?:do\s+not|don't|dont)\s+title\s+(?:it|this|them|the\s+(?:poem|story|piece|essay|answer"
    r"|response|post|email|letter|text|haikus?|limericks?))\b"
    # "just the poem, untitled", "leave it untitled", "leave the title off"
    r"|(?:,|\bleave\s+(?:it|them)|\bkeep\s+(?:it|them))\s*untitled\b"
    r"|\bleave\s+(?:the\s+)?titles?\s+off\b"
    r"|\b(?:no(?:\s+need\s+(?:for|to\s+(?:add|include|give\s+(?:it|this|them)|put|write|use"
    r"|have)))?|without|skip(?:\s+the)?|leave\s+out\s+the|leave\s+off\s+the"
    r"|(?:do\s+not|don't|dont|never)\s+(?:give\s+(?:it|this|the\s+\w+|me)|put|add|include|use"
    r"|want|need|start\s+with)|(?:there's|there\s+is)\s+no\s+need\s+for)"
    r"\s+(?:a\s+|any\s+|the\s+|an\s+)?(?:separate\s+|heading\s+or\s+|headline\s+or\s+)?titles?"
    r"(?:\s+(?:on\s+(?:it|top|this|them)|at\s+(?:the\s+)?top|above\s+it"
    r"|for\s+(?:it|this|them|the\s+\w+)))?"
    r"(?=\s*(?:[.,;:!?)\n—–]|$)|\s+-\s|\s+(?:please|pls|line|or\s+(?:headings?|headers?|intro\w*)"
    r"|and|either|needed|necessary|required|just)\b)"
    # "title not needed", "a title isn't necessary", "the title is not required"
    r"|(?:(?<=[,;:(—–-])|(?<=^)|(?<=[.!?\n]))\s*(?:(?:a|any|the)\s+)?titles?\s+(?:is\s+|are\s+)?"
    r"(?:not|isn't|aren't)\s+(?:needed|necessary|required)\b(?=\s*(?:[.,;:!?)\n—–]|$))"
)
#: What a title is the content of: "a story about a book with no title", "a king without a
#: title", "a car with no title".
_TITLED_THING = re.compile(
    r"\b(?:books?|novels?|films?|movies?|songs?|albums?|paintings?|pictures?|photos?|artworks?"
    r"|records?|kings?|queens?|knights?|lords?|ladies|lady|nobles?|champions?|boxers?|fighters?"
    r"|wrestlers?|teams?|cars?|vehicles?|houses?|property|land|job|jobs|someone|person|man|woman"
    r"|employees?)(?:\s+(?:with|has|had|have|(?:that|who|which)\s+(?:has|had|have)))?\s*$"
)
#: A title that is a name's: "sign it Priya, no title", "address it to John Smith, no title".
_HONORIFIC = re.compile(
    r"\b(?:sign\w*|address\w*|names?|signature|salutation|greeting|honorifics?|dr|mr|mrs|ms"
    r"|prof|professor)\b"
)


#: What else has a title: "a plot of sales with a title" asks for a title on the chart.
_GRAPHIC = re.compile(r"\b(?:plot|plots|chart|graph|figure|axis|axes|matplotlib|slide|slides)\b")


#: What a request puts in bold: words of the text, not a design ("bold colours", "a bold
#: flavour"): "the key terms", "every action name", "the ingredients".
_BOLD_THINGS = (
    r"(?:terms?|words?|keywords?|points?|phrases?|names?|ingredients?|concepts?|takeaways?|facts?"
    r"|numbers?|figures?|dates?|steps?|commands?|actions?|labels?|items?|definitions?|warnings?"
    r"|totals?|prices?|vocab(?:ulary)?|details?|deadlines?|amounts?|answers?|tips?|ideas?"
    r"|options?|parts?|sections?|bits?|things?|info(?:rmation)?|sentences?|stuff)"
)
_BOLD_WORD = r"(?:\*\*)?bold(?:face)?(?:\*\*)?(?:\s+(?:text|type|font|formatting|markdown))?"
#: "bold" as the form of text, not an adjective: "bold text", "bold formatting", "bold"
#: ending its clause or followed by what it is for ("with bold for the key terms").
_BOLD_FORM = (
    r"(?:\*\*)?bold(?:face)?(?:\*\*)?(?:\s+(?:text|type|font|formatting|markdown)\b"
    r"|(?=\s*(?:[.;:!?)\n]|$|,\s*(?:please|pls|thanks)\b|(?:for|on|please|pls)\b)))"
)
#: "bold" as one of two adjectives ending a clause: "make your points bold and concise",
#: "make the ideas bold and fresh" (not "bold and italic", "bold and keep it short").
_BOLD_AND_ADJECTIVE = (
    r"(?!\s*(?:and|&)\s+(?!italic|underlin)[a-z]+(?=\s*(?:[.,;:!?)]|$|\s[-–—]\s)))"
)
#: A relation and a number without their groups, for a pattern that reads its count apart.
_REL_ANY, _NUM_ANY = (re.sub(r"\(\?P<\w+>", "(?:", rx) for rx in (REL, NUM))


def _range_of(lo: str, hi: str, lo2: str, hi2: str) -> str:
    """A range of counts: "3-5", "3 to 5", "two or three", "between 2 and 4"."""
    return rf"(?:between\s+{lo}\s+and\s+{hi}|{lo2}\s*(?:-|–|to|or)\s*{hi2})"


def _num_as(name: str) -> str:
    return NUM.replace("(?P<n>", f"(?P<{name}>")


_RANGE_ANY = _range_of(_NUM_ANY, _NUM_ANY, _NUM_ANY, _NUM_ANY)
#: "bold" that is not the form of text: "in bold letters" on a card, "in bold colours".
_NOT_BOLD_TEXT = (
    r"(?!\s*(?:letters|print|ink|marker|colou?rs?|strokes?|lines?|patterns?|shades?|hues?|tones?"
    r"|headings?|headers?|titles?|headlines?|subheadings?))"
)
#: A request for bold text: "highlight the key terms in bold", "put the important words in
#: bold", "bold the key points", "bold at least 3 key terms", "use bold for the main terms",
#: "make the ingredients bold", "use a bolded term at the start of each definition", "with
#: the key terms bolded".
_BOLD = (
    re.compile(
        r"\b(?:put|highlight|writ|wrote|mark|set|show|format|typ|display|print|emphasi[sz]|list"
        r"|give|render|call\s+out|present|have|get)\w*\s+(?:me\s+)?(?P<obj>(?:[\w'’-]+\s+){0,6}?)"
        rf"(?:(?:in|into)\s+{_BOLD_WORD}\b{_NOT_BOLD_TEXT}"
        # "with|as|using bold" only as a form: "with bold text", "key terms as bold, please"
        # (not "with bold statements", "as bold as MLK's", "using bold language")
        rf"|(?:as|using|with)\s+{_BOLD_FORM})"
    ),
    re.compile(
        r"(?:^|[.!?;:,(&]\s*|\b(?:and|also|please|pls|then|just|to|you|can|could|should|must)\s+)"
        r"bold(?:face|ing)?\s+(?P<obj>(?:(?:all|the|every|each|any|your)\s+)+(?:[\w'’-]+\s+){0,3}?"
        rf"{_BOLD_THINGS}|(?:(?:key|important|main|essential|major|relevant)\s+|{_REL_ANY}\s*{_NUM_ANY}\s+"
        rf"|(?:(?:only|just|about|around|roughly|approximately)\s+)?{_RANGE_ANY}\s+|{_NUM_ANY}\s+)"
        rf"(?:[\w'’-]+\s+){{0,2}}?{_BOLD_THINGS})\b"
    ),
    re.compile(
        rf"\b(?:use|using)\s+{_BOLD_WORD}\s+(?P<obj>)(?:for|on|to\s+(?:highlight|mark|emphasi[sz]e"
        r"|show|call\s+out|flag|pick\s+out))\b"
    ),
    re.compile(
        r"\bmake\s+(?P<obj>(?:(?:all|the|every|each|any|your)\s+)*(?:[\w'’-]+\s+){0,3}?"
        rf"{_BOLD_THINGS})\s+bold\b{_BOLD_AND_ADJECTIVE}"
    ),
    re.compile(rf"\bbolded\s+(?P<obj>(?:[\w'’-]+\s+){{0,2}}?{_BOLD_THINGS})\b"),
    # "the key terms should be in bold", "key terms must be bold", "I'd like the key terms
    # to be bolded" (not "your ideas should be bold", "... bold and original")
    re.compile(
        r"\b(?P<obj>(?!(?:your|my|our|his|her|their)\b)(?:[\w'’-]+\s+){0,2}?(?:terms?|words?"
        r"|keywords?|phrases?|names?|definitions?|vocab(?:ulary)?|ingredients?|dates?|numbers?"
        r"|figures?|totals?|prices?|commands?|labels?))\s+"
        r"(?:(?:should|must|need\s+to|needs\s+to|to|will|shall)\s+(?:be|appear)|appear)\s+(?:in\s+)?"
        rf"(?:bold|bolded|boldface)\b{_NOT_BOLD_TEXT}{_BOLD_AND_ADJECTIVE}"
    ),
    re.compile(
        rf"(?:\b(?P<obj>(?:key|important|main|essential|major)\s+{_BOLD_THINGS})"
        # a fragment of its own: "Ingredients in bold please."
        rf"|(?:^|(?<=[.!?;:,\n]))\s*(?:[\w'’-]+\s+)?{_BOLD_THINGS})\s+(?:in\s+{_BOLD_WORD}"
        rf"|bolded)\b{_NOT_BOLD_TEXT}(?!\s+(?:are|is|were|was|mean|means|show|shows|indicate)\b)"
    ),
)
#: No bold at all: "no bold", "don't use bold", "without bold formatting", "don't bold
#: anything", "nothing in bold" (not "no bold claims", "nothing too bold").
_NO_BOLD = re.compile(
    r"(?:\b(?:no|without(?:\s+any)?|avoid(?:ing)?(?:\s+using)?(?:\s+any)?|nothing\s+in"
    r"|skip(?:\s+the)?|stop\s+using|refrain\s+from(?:\s+using)?(?:\s+any)?"
    r"|(?:do\s+not|don't|dont|never)\s+(?:use|add|include|put|want)(?:\s+any(?:thing\s+in)?)?)\s+"
    # other forms ruled out with it: "no headings or bold", "markdown formatting like bold"
    r"(?:(?:[\w-]+\s+){0,2}?[\w-]+(?:\s*,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|\s+like\s+"
    r"|\s*/\s*)){0,3}?"
    r"(?:\*\*)?bold(?:face|ing)?(?:\*\*)?(?:\s+(?:text|txt|formatting|type|font|markdown))?"
    # not "avoid bold, risky moves": a comma before another form or the clause's end
    r"(?=\s*(?:[.;!)]|$|or\b|and\b|please\b|pls\b|anywhere\b|in\s+the\s+(?:answer|reply|response)"
    r"|,\s*(?:$|[,.;!)]|(?:please|pls|thanks|and|or|no|nor|just|only|plain|italics?|headings?"
    r"|headers?|lists?|bullets?|tables?|emojis?|caps|markdown|underlin\w*|highlight\w*)\b)))"
    r"|\b(?:do\s+not|don't|dont|never)\s+(?:bold|make)\s+any(?:thing)?(?:\s+bold)?\b)"
)
#: A bold count in the object: "at least 3 key terms", "two words".
_BOLD_COUNT = re.compile(rf"(?:^|\s)(?:{REL}\s*)?{NUM}\s+(?:[\w'’-]+\s+){{0,2}}?{_BOLD_THINGS}\b")
#: A range of bold spans in the object: "3-5 key terms", "between 2 and 4 phrases", "two
#: or three key words" (not "2-3 word phrases": the length of each).
_BOLD_RANGE = re.compile(
    r"(?:^|\s)"
    + _range_of(_num_as("lo"), _num_as("hi"), _num_as("lo2"), _num_as("hi2"))
    + rf"\s+(?:[\w'’-]+\s+){{0,2}}?{_BOLD_THINGS}\b"
)
#: A range that is the length of each thing bolded: "2-3 word phrases".
_EACH_LONG = re.compile(rf"\s*-?\s*words?\s+(?:[\w'’-]+\s+)?{_BOLD_THINGS}\b")
#: What the asker does or asks about, not what the answer is to look like: "I've put the key
#: terms in bold", "how can you bold the key points in Word?".
_BOLD_NOT_ASKED = re.compile(
    r"\b(?:i|we|i've|we've|he|she|they|it)\s+(?:[\w']+\s+)?$"
    r"|\bhow\s+(?:do|does|can|could|should|would|to)\b(?:\s+[\w']+){0,3}\s*$"
    r"|\b(?:i|we|he|she|they)(?:'ve|\s+have|\s+had)?\s+(?:already\s+|just\s+|also\s+)?(?:put"
    r"|marked|highlighted|bolded|set|wrote|written|typed|formatted|made|kept|left|got)\b[^.!?\n]*$"
)
#: Code or a document tool, where bold is the program's or the file's, not the answer's:
#: "a Python script that prints the total in bold", "make the totals bold in Excel" (in
#: the sentence of the bold phrase).
_BOLD_IN_A_TOOL = re.compile(
    r"\b(?:script|program|css|html|javascript|typescript|react|terminal|console|excel"
    r"|spreadsheet|google\s+(?:sheets|docs)|microsoft\s+word|ms\s+word|latex|powerpoint"
    r"|keynote|sql|printf|ansi|tkinter|prints?|printed|printing|outputs?)\b"
    r"|\b(?:in|into|using)\s+word\b|\b(?:function|code|method|class)\s+(?:that|which|to)\b"
)
#: Words that may be the program's or the file's, or the topic's ("explain cell division
#: and bold the key terms"): the tool's only in the bold phrase or right after it ("make
#: the cells bold", "bold in the PDF", "key terms in bold in Python").
_BOLD_TOOL_PART = re.compile(r"\b(?:code|function|python|cells?|columns?|rows?|pdf)\b")


def _sentence_at(low: str, start: int, end: int) -> str:
    """The sentence of ``low`` around ``start``..``end``."""
    opening, closing = _sentence_span(low, start, end)
    return low[opening:closing]


def _word_start(m: re.Match[str]) -> int:
    """Where the phrase ``m`` opens at its first word, past the mark that ends the sentence
    before it ("? Bold 3-5 key terms")."""
    return m.start() + len(m.group(0)) - len(m.group(0).lstrip(" \t\n.!?;:,(&"))


def _in_a_tool(low: str, m: re.Match[str]) -> bool:
    """Whether the bold phrase ``m`` is a program's or a file's, not the answer's."""
    sentence = _sentence_at(low, m.start(), m.end())
    if _BOLD_IN_A_TOOL.search(sentence):
        return True
    near = re.split(r"[.!?\n]", low[_word_start(m) : m.end() + 25])[0]
    return bool(_BOLD_TOOL_PART.search(near))


#: A question (not a request) the phrase is in: "why is my text showing in bold?", "should
#: I put the key terms in bold?"; "can you ... put the key terms in bold?" asks for it.
_QUESTION_OPENING = re.compile(
    r"^(?:why|how|what|when|where|which|is|are|was|were|does|do|did|should\s+i|should\s+we"
    r"|is\s+it)\b"
)


def _question_about(low: str, at: int) -> bool:
    """Whether the sentence around ``at`` is a question of the asker's, not a request."""
    opening, end = _sentence_span(low, at, at)
    return low[end : end + 1] == "?" and bool(_QUESTION_OPENING.match(low[opening:at].strip()))


#: Headings, which a faithful answer may set as Markdown headings rather than bold.
_BOLD_HEADINGS = re.compile(r"\b(?:headings?|headers?|titles?|headlines?|subheadings?)\b")
#: The most bold spans a count in a request is read as asking for ("2024 figures" is a year).
_MAX_BOLD = 20


def _bold_range_in(low: str, m: re.Match[str], obj: str) -> re.Match[str] | None:
    """The range of bold spans the bold phrase ``m`` names in its object ``obj``, if any
    (not "2-3 word phrases": the length of each)."""
    ranged = _BOLD_RANGE.search(obj)
    if ranged is None:
        return None
    high = "hi" if ranged.group("hi") else "hi2"
    return None if _EACH_LONG.match(low, m.start("obj") + ranged.end(high)) else ranged


def _bold_range(low: str, m: re.Match[str], ranged: re.Match[str]) -> Iterator[Instruction]:
    """A range of bold spans ("bold 3-5 key terms"): at least the low number and at most
    the high one, two counts of one phrase (none when the range is no range, a count of a
    part, or negated)."""
    lo = num(ranged.group("lo") or ranged.group("lo2"))
    hi = num(ranged.group("hi") or ranged.group("hi2"))
    phrase = m.group(0).lstrip(" \t\n.!?;:,(")
    if not 0 < lo < hi <= _MAX_BOLD or each_after(low, m) or negated_phrase(low, phrase):
        return  # "bold 2-3 words in each paragraph", "don't bold 3-5 terms"
    yield make("count", phrase, unit="bold_spans", relation="at_least", value=lo)
    yield make("count", phrase, unit="bold_spans", relation="at_most", value=hi)


def _bold_not_asked(low: str, m: re.Match[str], obj: str) -> bool:
    """Whether the bold phrase ``m`` asks nothing of the answer's text."""
    start = count_start(m)
    return (
        # "a script that prints the total in bold", "the totals bold in Excel"
        _in_a_tool(low, m)
        or _BOLD_NOT_ASKED.search(low[max(0, start - 40) : start]) is not None
        # "put the headings in bold": a "## heading" serves the asker too
        or _BOLD_HEADINGS.search(obj) is not None
        # "Why is my text showing in bold in Slack?"
        # (the phrase's own sentence: "What is photosynthesis? Bold 3-5 key terms." asks)
        or _question_about(low, _word_start(m))
    )


def _bold(q: str, low: str) -> Iterator[Instruction]:
    """Bold text asked for (at least 1 span, or the number named), or ruled out (none)."""
    if m := _NO_BOLD.search(low):
        if not _in_a_tool(low, m):
            yield make("count", m.group(0), unit="bold_spans", relation="at_most", value=0)
        return
    for rx in _BOLD:
        for m in rx.finditer(low):
            obj = m.group("obj") or ""
            if _bold_not_asked(low, m, obj):
                continue
            if ranged := _bold_range_in(low, m, obj):
                yield from _bold_range(low, m, ranged)
                return
            rel, value = "at_least", 1
            if (counted := _BOLD_COUNT.search(obj)) and num(counted.group("n")) <= _MAX_BOLD:
                n = num(counted.group("n"))
                rel, value = relation(counted.group("rel") or "at least", None, n)
                if rel == "at_least" and re.match(r"\s+only\b", low[m.end() : m.end() + 8]):
                    rel = "at_most"  # "bold 2 key terms only"
            if rel != "at_least" and each_after(low, m):
                continue  # "bold exactly one word in each paragraph": a count of a part
            # the phrase opens at its word, not at the sentence end before it, whose negation
            # ("... without falling apart. Bold the key phrase") is no negation of it
            phrase = m.group(0).lstrip(" \t\n.!?;:,(")
            yield make("count", phrase, unit="bold_spans", relation=rel, value=max(value, 0))
            return


#: A request whose titles are not a heading over the answer: a web page's, a document's,
#: a ticket's.
_OTHER_TITLES = re.compile(
    r"<title>|\b(?:html|browser|tabs?|web\s*pages?|webpages?|seo|meta|window|pdf|documents?"
    r"|jira|tickets?|issues?|pull\s+requests?|commits?|columns?|fields?|youtube|videos?)\b"
)


def _no_title(low: str) -> re.Match[str] | None:
    """Where the request rules out a title over the answer, if it does."""
    if _OTHER_TITLES.search(low):
        return None
    for m in _NO_TITLE.finditer(low):
        before = low[max(0, m.start() - 50) : m.start()]
        if not _TITLED_THING.search(before) and not _HONORIFIC.search(before):
            return m
    return None


def _title(low: str) -> Iterator[Instruction]:
    """A ``<<title>>``, a plain title line, or no title at all."""
    if m := re.search(r"\btitle[^.\n]{0,60}?(?:double\s+angul(?:ar|e)\s+brackets|<<)", low):
        yield make("title", m.group(0))
    elif (m := _no_title(low)) and not _GRAPHIC.search(low):
        yield make("title", m.group(0), value="none")
    elif (m := _PLAIN_TITLE.search(low)) and not _GRAPHIC.search(low):
        yield make("title", m.group(0), value="plain")


def _markers(q: str, low: str) -> Iterator[Instruction]:
    if m := _QUOTED_WHOLE.search(low):
        yield make("quoted", m.group(0))
    elif m := _single_quoted(low):
        yield make("quoted", m.group(0), value="single")
    yield from _title(low)
    if m := re.search(r"\b(?:post\s*script|p\.\s?p\.\s?s|p\.\s?s\.?)(?=\W|$)", low):
        marker = "P.P.S" if re.search(r"p\.\s?p\.\s?s", low) else "P.S."
        yield make("postscript", m.group(0), value=marker)
    if (m := _HIGHLIGHT.search(low)) and (
        re.search(r"markdown|\*", low) or re.fullmatch(r"sections?|parts?", m.group("noun"))
    ):
        rel, value = relation(m.group("rel") or "at least", None, num(m.group("n")))
        yield make("count", m.group(0), unit="highlights", relation=rel, value=value)
    elif m := _HIGHLIGHT_ANY.search(low):
        yield make("count", m.group(0), unit="highlights", relation="at_least", value=1)
    counted = re.search(rf"\b{REL}?\s*{NUM}\s+placeholders?", low)  # _counts reads those
    if not counted and (
        m := re.search(rf"\bplaceholders?\b[^.\n]{{0,80}}?\b{REL}\s*{NUM}\s+of\s+them", low)
    ):
        counted = m
        rel, value = relation(m.group("rel"), None, num(m.group("n")))
        yield make("count", m.group(0), unit="placeholders", relation=rel, value=value)
    if not counted and re.search(
        r"\bplaceholders?\b[^.\n]{0,60}square\s+brackets|square[- ]bracket(?:ed)?\s+placeholders?",
        low,
    ):
        phrase = "placeholders in square brackets"
        yield make("count", phrase, unit="placeholders", relation="at_least", value=1)
    yield from _sections(q, low)
    if (m := _REPEAT.search(low)) and (body := _request_to_repeat(q, low, m)):
        yield make("repeat_prompt", m.group(0), value=body)
    if (m := _TWO_RESPONSES.search(low)) and _SIX_ASTERISKS.search(low):
        yield make("two_responses", m.group(0))


def _single_quoted(low: str) -> re.Match[str] | None:
    """Where the request asks for the whole answer in single quotes, if it does."""
    m = _SINGLE_QUOTED_WHOLE.search(low)
    if m is None and not _ANSWER_IS_A_PART.search(low):
        m = _SINGLE_QUOTED_ANSWER.search(low)  # "wrap your answer in single quotes"
    if m is None and (reply := _SINGLE_QUOTED_REPLY.search(low)):
        it = reply.group(0).split()[1] == "it"
        m = reply if not it or _ASKS_SHORT_THING.search(low[: reply.start()]) else None
    if m is None or negated_before(low, m):
        return None  # "don't wrap the answer in single quotes"
    if not re.search(r"\b(?:entire|whole|full|complete)\b", m.group(0)) and _QUOTED_VALUES.search(
        low
    ):
        return None  # "make it a Python list and put everything in single quotes": each string
    return m


#: "... The request: List three benefits of ...": the request to repeat, labelled.
_LABELLED_REQUEST = re.compile(
    r"(?:^|\n|[.!?]\s+)(?:the\s+|my\s+)?(?P<label>request|prompt|question|task)\s*:\s*(?P<body>\S.*)$",
    re.DOTALL | re.IGNORECASE,
)


def _request_to_repeat(q: str, low: str, m: re.Match[str]) -> str:
    """The part of ``q`` that the instruction ``m`` asks to be repeated: a labelled
    request ("The request: ..."), the text after the instruction when it says "below" (the
    block under a blank line, when there is one) or opens the message, else the text
    before the instruction's sentence."""
    if labelled := _LABELLED_REQUEST.search(q, m.end()):
        body = labelled.group("body").strip().split("\n")[0]
        if labelled.group("label").lower() == "question" and "?" in body:
            body = body[: body.index("?") + 1]  # "Question: What causes ...? Make sure ..."
        return body.strip()
    end = sentence_end(q, m.end())
    colon = q.rfind(":", m.end(), end)
    if colon >= 0 and "following" in m.group(0) + low[m.end() : colon]:
        return q[colon + 1 : end].strip()  # "repeat the following request ...: What is ...?"
    opening = max(q.rfind(c, 0, m.start()) for c in ".!?\n")
    before = q[: opening + 1].strip() if opening >= 0 else ""
    if before and "below" not in m.group(0):
        return before
    if "below" in m.group(0) and (gap := re.search(r"\n\s*\n", q[m.end() :])):
        return q[m.end() + gap.end() :].strip()  # the block under the instructions
    return q[end:].strip()


def _sections(q: str, low: str) -> Iterator[Instruction]:
    mark = _SECTION_MARK.search(low)
    if mark is None:
        return
    group = next(g for g in ("mk", "mk2", "mk3", "mk4") if mark.group(g))
    marker = q[mark.start(group) : mark.end(group)]
    count = _SECTION_COUNT.search(low)
    span = re.search(
        rf"\b{re.escape(marker.lower())}\s+1\s+(?:through|to|-|–)\s+(?:\w+\s+)?(\d+)", low
    )
    if count:
        rel, value = relation(count.group("rel"), None, num(count.group("n")))
    elif span:
        rel, value = "exactly", int(span.group(1))
    else:
        rel, value = "at_least", 1
    yield make("count", mark.group(0), unit="sections", relation=rel, value=value, separator=marker)


#: Named headings: "two sections with the headings 'Autumn' and 'Spring'", "headed
#: 'Pros' and 'Cons'", "with these headings and nothing else: SHOPPING and COOKING", "a
#: Pros section and a Cons section".
_HEADINGS_QUOTED = re.compile(
    rf"\b(?:headings?|sub-?headings?|(?:sections?|parts?)\s+(?:headed|titled|called|named"
    rf"|labell?ed)|(?:use|using|with|under)\s+(?:the\s+|these\s+)?(?:following\s+)?headers)"
    rf"\b(?:\s+[\w']+){{0,4}}?\s*:?\s*(?P<names>{QUOTED_LIST})",
    re.IGNORECASE,
)
_HEADING_NAME = r"[A-Z][\w'/-]*(?:\s[A-Z][\w'/-]*){0,3}"
#: Between two unquoted heading names: "Produce, Protein and Pantry", "Pros & Cons".
_NAME_SEP = r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*"
_HEADINGS_AFTER_COLON = re.compile(
    rf"\b(?i:(?:sub-?)?headings)\b(?:[^.:\n]{{0,60}}:)?\s*(?P<names>{_HEADING_NAME}"
    rf"(?:(?:{_NAME_SEP}){_HEADING_NAME})+)\s*(?:[.!]|$)",
    re.MULTILINE,
)
#: "split it into a Pros section and a Cons section": the sections asked of the answer.
_NAMED_SECTIONS = re.compile(
    rf"\b(?i:into|with|include|including|use|using|give\s+me|write|have)\s+(?:an?\s+|the\s+)?"
    rf"(?P<a>{_HEADING_NAME})\s+section,?\s+and\s+(?:an?\s+|the\s+)?"
    rf"(?P<b>{_HEADING_NAME})\s+section\b"
)


#: "formatted as Attendees / Decisions / Action Items": labels split by slashes.
_SLASHED_LABELS = re.compile(
    rf"\b(?i:formatted|laid\s+out|structured|organi[sz]ed|split)\s+(?i:as|into)\s+"
    rf"(?P<names>{_HEADING_NAME}(?:\s+/\s+{_HEADING_NAME})+)"
)
#: A template given line by line after "this format:": "Done: ...", "Weather: <one sentence>".
_TEMPLATE_INTRO = re.compile(r"\b(?i:format|template|layout|structure)\s*:[ \t]*\n")
_TEMPLATE_LINE = re.compile(
    r"^[ \t]*(?:[-*][ \t]+)?\**(?P<label>[A-Z][\w'&/ -]{0,30}?)\**[ \t]*:\**[ \t]*"
    r"(?:\.\.\.|…|<[^>\n]*>|\[[^\]\n]*\]|_+|\{[^}\n]*\})?[ \t]*$"
)


def _template_labels(q: str) -> tuple[re.Match[str], list[str]] | None:
    """The labels of a template the request gives line by line after "this format:"."""
    m = _TEMPLATE_INTRO.search(q)
    if m is None:
        return None
    labels: list[str] = []
    for line in q[m.end() :].splitlines():
        if not line.strip():
            if labels:
                break
            continue
        found = _TEMPLATE_LINE.match(line)
        if found is None:
            break
        labels.append(found["label"].strip())
    return (m, labels) if len(labels) >= 2 else None


#: "formatted exactly as: Game – players – time": every line's parts, between dashes or bars.
_LINE_TEMPLATE = re.compile(
    r"\b(?i:format(?:ted)?|laid\s+out|written|one\s+per\s+line)\s+"
    r"(?i:(?:it|them|each\s+(?:one|line|item)|every\s+line)\s+)?(?i:exactly\s+)?(?i:as|like)\s*:?\s*"
    r"[\"'“‘`]?(?P<t>[\w<>\[\]{}'-]+(?:\s+[\w<>\[\]{}'-]+){0,2}"
    r"(?:\s+[–—|-]\s+[\w<>\[\]{}'-]+(?:\s+[\w<>\[\]{}'-]+){0,2})+)"
)


def _line_template(q: str, low: str) -> Iterator[Instruction]:
    del low  # the template keeps its case
    m = _LINE_TEMPLATE.search(q)
    if m and len(re.split(r"\s+[–—|-]\s+", m.group("t"))) >= 3:  # not "a pros - cons list"
        yield make("line_template", m.group(0), value=m.group("t"))


#: Headings named as examples or ruled out, not asked for: "don't use headings like
#: 'Introduction'", "avoid headings such as 'Overview'".
_HEADINGS_NOT_ASKED = re.compile(r"\b(?:like|such\s+as|e\.g\.?|for\s+example)\s*:?\s*$")
_HEADINGS_RULED_OUT = re.compile(
    r"\b(?:no|not|don't|dont|never|avoid(?:ing)?|without|skip)\s+(?:\w+\s+){0,2}$"
)


def _named_as_examples(low: str, m: re.Match[str]) -> bool:
    """Whether the headings ``m`` names are examples or ruled out, not asked for."""
    return bool(
        _HEADINGS_NOT_ASKED.search(low[m.start() : m.start("names")])
        or _HEADINGS_RULED_OUT.search(low[max(0, m.start() - 25) : m.start()])
    )


def _headings(q: str, low: str) -> Iterator[Instruction]:
    m = _HEADINGS_QUOTED.search(q)
    if m and _named_as_examples(low, m):
        return  # "don't use headings like 'Introduction' or 'Conclusion'"
    if m:
        names = quoted_list(m.group("names"))
    elif m := _HEADINGS_AFTER_COLON.search(q):
        names = [n.strip() for n in re.split(_NAME_SEP, m["names"])]
    elif m := _NAMED_SECTIONS.search(q):
        names = [m["a"], m["b"]]
    elif m := _SLASHED_LABELS.search(q):
        names = [n.strip() for n in m["names"].split("/")]
    elif template := _template_labels(q):
        m, names = template
    else:
        return
    names = [n.strip("#*_: ") for n in names]  # "'## Example'" names the heading Example
    names = [n for n in dict.fromkeys(names) if n and len(n.split()) <= 6]
    if len(names) >= 2:
        yield make("headings", m.group(0), value=names)


#: Before a "start with ...": the start of a part, not of the answer.
_PART_START = re.compile(
    r"\b(?:paragraph|summary|line|sentence|section|bullet|item|each|every|one-liner|last|final"
    r"|closing|signature|subject)\b[^.\n]{0,30}$"
)
#: "End your reply with a question".
_ENDS_WITH_QUESTION = re.compile(
    r"\b(?:end|finish|close|wrap\s+up)\w*+\s++(?:(?:your|the)\s++)?(?:(?:reply|response|answer"
    r"|message|email|post|note|it)\s*+)?(?:with|on)\s++a\s++(?:\w++\s++)?question\b"
)


#: An ending given after a colon without quotes, to the end of its line: "Please end it
#: with exactly: Thanks in advance, Priya".
_ENDS_WITH_BARE = re.compile(
    r"\b(?:end|finish|close|sign\s++(?:it\s++)?off)\w*+\s++(?:(?:it|your\s++\w++|the\s++\w++)\s++)?"
    r"with\s++(?:exactly(?:\s++this\s++(?:phrase|line|sentence|sign-?off))?"
    r"|this\s++exact\s++(?:phrase|line|sentence|sign-?off)"
    r"|the\s++(?:exact\s++)?(?:words?|phrase|line|sign-?off))\s*+:\s*+"
    # to the end of its sentence: "...: Thanks, Priya. Keep it short." ends "Thanks, Priya"
    # (a question keeps its mark: "...: Is there anything else I can help with?")
    r"(?P<v>[^\s\"'“‘](?:[^\n.!?]|[.!?](?!\s|$)){0,78}[^\s.!?]\??)"
)


def _first_and_last(q: str, low: str) -> Iterator[Instruction]:
    yn = re.search(
        r"\b(?:answer|reply|respond|start|begin|lead|open)\w*\s+(?:\w+\s+){0,4}?(?:with\s+)?(?:a\s+)?(?:simple\s+|clear\s+)?"
        r"[\"'“]?yes[\"'”]?\s+or\s+[\"'“]?no[\"'”]?\s*(?:first|up\s+front|before|then|at\s+the\s+start"
        r"|please\b|pls\b|[,.!;)]|$)"
        r"|\byes\s+or\s+no\s+(?:first|up\s+front|answer\s+first)\b|\bstart\s+with\s+(?:a\s+)?yes\s+or\s+no\b"
        r"|\byes\s*/\s*no\s+(?:as|at)\s+(?:the\s+)?(?:very\s+)?(?:first|start|beginning)",
        low,
    )
    if yn:
        yield make("yes_no_first", yn.group(0))
    choice = re.search(
        r"\b(?:answer|respond|reply|choose|pick)\s+(?:with\s+)?(?:only\s+)?one\s+of\s+(?:the\s+following|these|"
        r"the|those)\s+(?:options?|answers?|choices|responses?|phrases?)\s*:?(?P<rest>[^\n]{1,300})",
        low,
    )
    either = re.search(
        rf"\b(?:answer|respond|reply|start|begin|say)\w*\s+(?:\w+\s+){{0,2}}?with\s+(?:either\s+|one\s+of\s+)"
        rf"(?P<rest>{QUOTED_ANY}{QUOTE_SEP}{QUOTED_ANY}.*)",
        low,
    )
    labels = re.search(
        r"\bone\s+of\s+(?:these|the\s+following|the)\s+(?:labels?|options?|categories|words?|values?"
        r"|tags?)[^:\n]{0,40}:\s*(?P<rest>[\w-]+(?:\s*,\s*[\w-]+)+)",
        low,
    )
    if labels and not choice:
        options = [o.strip() for o in q[labels.start("rest") : labels.end("rest")].split(",")]
        yield make("answer_choice", labels.group(0), value=options[:10])
        return
    letters = re.search(
        r"\bone\s+of\s*:?\s*(?P<rest>\([a-z]\)(?:\s*(?:,|or|/)\s*\([a-z]\)){1,9})", low
    )
    if letters and not choice:
        options = re.findall(r"\([A-Za-z]\)", q[letters.start("rest") : letters.end("rest")])
        yield make("answer_choice", letters.group(0), value=options)
        return
    for found in (choice, either):
        if found:
            options = option_list(q[found.start("rest") : found.end("rest")])
            if len(options) >= 2:
                yield make("answer_choice", found.group(0), value=options[:10])
                break
    start = re.search(
        r"\b(?:start|begin|open)\w*\s+(?:your\s+|the\s+|my\s+)?(?:[\w']+\s+){0,2}?"
        r"(?:with|by\s+saying)\s+(?:the\s+(?:exact\s+)?(?:words?|phrase|sentence|line|greeting)\s*:?\s*"
        r"|exactly\s+)?" + QUOTED,
        low,
    )
    if start and _PART_START.search(low[max(0, start.start() - 40) : start.start() + 4]):
        start = None  # "paragraph 2 must start with ...": a paragraph_first_word instruction
    if start and not yn:
        yield make("starts_with", start.group(0), value=q[start.start("v") : start.end("v")])
    else:
        word = re.search(
            r"\b(?:start|begin)\w*\s+(?:your\s+|the\s+)?(?:reply|response|answer|email|message|letter)\s+with\s+the\s+word\s+(?P<w>[\w'-]+)",
            low,
        )
        if word:
            yield make("starts_with", word.group(0), value=q[word.start("w") : word.end("w")])


#: "end with a one-line summary starting with TL;DR": the last line's first words.
_CLOSING_LINE = re.compile(
    r"\b(?:end|finish|close|wrap\s+up)\w*\s+(?:it\s+|the\s+\w+\s+)?with\s+(?:a\s+|one\s+)?"
    r"(?:(?:one-line|single-line|one\s+line|short|final|brief|quick)\s+)*"
    r"(?:summary|line|sentence|takeaway|note|verdict)\s+(?:that\s+)?(?:start|begin|open)\w*\s+with\s+"
    r"(?:the\s+(?:word|words|phrase|label)\s+)?"
    rf"(?:{QUOTED}|(?!(?:a|an|the|your|its)\b)(?P<bare>[\w;:'-]+(?:\s+line:?)?))"
)


def _endings(q: str, low: str) -> Iterator[Instruction]:
    if closing := _CLOSING_LINE.search(low):
        lo, hi = closing.span("v") if closing.group("v") else closing.span("bare")
        yield make("closing_line", closing.group(0), value=q[lo:hi].strip())
    end = re.search(
        r"\b(?:end|finish|close|conclude|sign\s+(?:it\s+)?off|wrap\s+up)\w*+\s++(?:your\s+|the\s+|my\s+)?"
        r"(?:[\w']+\s+){0,2}?(?:with|by\s+saying)\s*+(?:(?:this\s+exact\s+phrase|the\s+(?:exact\s+)?"
        r"(?:words?|phrase|line|question|sentence|sign-?off)|exactly)\s*+)?:?\s*+" + QUOTED,
        low,
    )
    bare = None if end else _ENDS_WITH_BARE.search(low)
    found = end or bare
    if closing and found is not None and found.start() < closing.end():
        return  # the same words: how the last line opens, read above
    if end:
        yield make("ends_with", end.group(0), value=q[end.start("v") : end.end("v")])
    elif bare:
        yield make("ends_with", bare.group(0), value=q[bare.start("v") : bare.end("v")].strip())
    elif question := _ENDS_WITH_QUESTION.search(low):
        yield make("ends_with", question.group(0), value="?")


#: The rules, in order: where two phrasings give the same check, the first wins.
WORD_RULES: tuple[Rule, ...] = (
    _keywords,
    _terms_and_names,
    _named_elements,
    _line_template,
    _frequencies,
    _letters_and_capitals,
    _markers,
    _bold,
    _headings,
    _first_and_last,
    _endings,
    language_rule,
    rhyme_rule,
)

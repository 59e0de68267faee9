"""The twenty-third session's review of the gate's reasons (a new user, CLI and Python API),
mended outside the relevance gate."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest, ScoringMetadata
from scoregate.schemas.result import TrackScore
from scoregate.scoring.affirmation import check_exclusions
from scoregate.scoring.fusion import fuse
from scoregate.scoring.instruction_rules import infer_instructions
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members
from scoregate.scoring.phrasing import short_answer_asked
from scoregate.scoring.request_analysis import analyze, asking_sentences, split_asks

CFG = load_scoring_config()
NUTS = "Snack ideas for my son's class party, nut-free please."
SNACKS = "- Fruit skewers\n- Cheese cubes and crackers\n- Popcorn\n- Veggie sticks with hummus\n\n"
CHOCOLATE = "Suggest a dessert for a dinner party, no chocolate — two guests can't have it."
POSSET = (
    "Make a lemon posset: heat 600 ml double cream with 150 g sugar, stir in the juice of 3 "
    "lemons, pour into glasses and chill 4 hours. Serve with shortbread. "
)


@pytest.mark.parametrize(
    ("query", "content"),
    [
        # finding 2: a cross-contact warning
        (
            NUTS,
            SNACKS + "Check store-bought granola bars: many are made in facilities that"
            " also process nuts.",
        ),
        (NUTS, SNACKS + "Crackers are often packed in a factory that handles peanuts."),
        (NUTS, SNACKS + "Some brands of popcorn are produced on shared equipment with nuts."),
        (NUTS, SNACKS + "Buy hummus from a brand with no cross-contact with tree nuts."),
        (NUTS, SNACKS + "Store-bought dips risk cross-contamination with nuts."),
        (NUTS, SNACKS + "The cheese plant also processes walnuts, so ask the school first."),
        # ... an allergy besides the excluded one
        (NUTS, SNACKS + "Ask the other parents whether any child has allergies besides nuts."),
        (NUTS, SNACKS + "Check for intolerances apart from nuts."),
        (NUTS, SNACKS + "Ask about any allergies aside from peanuts."),
        (NUTS, SNACKS + "Find out whether anyone is allergic to something other than nuts."),
        # ... a change from the usual
        (CHOCOLATE, POSSET + "It's a nice change from the usual chocolate mousse."),
        (CHOCOLATE, POSSET + "A welcome break from chocolate desserts."),
        (CHOCOLATE, POSSET + "A lighter departure from the classic chocolate torte."),
        (CHOCOLATE, POSSET + "Think of it as a switch from chocolate pudding."),
        (CHOCOLATE, POSSET + "Quite a shift away from a heavy chocolate cake."),
    ],
)
def test_a_warning_an_allergy_besides_or_a_change_from_the_usual_is_no_use(query, content):
    check = check_exclusions(query, content)
    assert check.violated == [], check
    assert check.ruled_out, check


@pytest.mark.parametrize(
    ("query", "content"),
    [
        # the facility's own product is still a use
        (NUTS, SNACKS + "Add honey-roasted peanuts from the factory shop."),
        (NUTS, SNACKS + "Order from a bakery that makes walnut bread."),
        (NUTS, "Make a trail mix: a facility near you sells walnuts in bulk, add a cup."),
        # "besides" outside an allergy adds the item
        (NUTS, SNACKS + "Besides popcorn, put out a bowl of salted nuts."),
        (NUTS, SNACKS + "Serve crackers besides the nuts."),
        # a change made to the dish with the item keeps the item
        (CHOCOLATE, "Change the posset: top it with chocolate shavings."),
        (CHOCOLATE, "For a change from lemon, make a chocolate mousse instead."),
        (CHOCOLATE, "Take a break from baking and buy a chocolate tart."),
        (CHOCOLATE, "For a switch from vanilla to chocolate, stir in cocoa."),
        (NUTS, "Ask about allergies, then besides the fruit serve peanuts."),
        # the warning's clause ends; what follows is a use
        (NUTS, "Many crackers are made in facilities that process nuts, so just serve peanuts."),
    ],
)
def test_a_use_next_to_those_words_is_still_a_use(query, content):
    check = check_exclusions(query, content)
    assert check.violated, check


# finding 5: a form the question is about is no instruction to the answerer


@pytest.mark.parametrize(
    "query",
    [
        "Typing in all caps looks rude. How do I turn off Caps Lock permanently on a Mac?",
        "Why do people write in all caps on forums?",
        "My boss always writes in all caps. How do I tell him it reads as shouting?",
        "How do I write a numbered list in Markdown?",
        "How can I make a bulleted list in Google Docs?",
        "What is the difference between a numbered list and a bulleted list?",
        "What is a numbered list?",
        "My essay has two paragraphs that repeat each other. How should I merge them?",
        "I wrote three paragraphs for my cover letter; is that too long?",
        "What does P.S. mean at the end of a letter?",
        'What does "in all caps" mean on a form?',
        "What's the meaning of P.S. in an email?",
    ],
)
def test_a_form_the_question_is_about_is_no_instruction(query):
    assert infer_instructions(query) == []


@pytest.mark.parametrize(
    ("query", "check", "value"),
    [
        ("Answer in all caps: what is the capital of France?", "case", "uppercase"),
        ("Typing in all caps looks rude, but answer in all caps anyway.", "case", "uppercase"),
        ("Why do people write in all caps? Explain in two sentences.", "count", 2),
        ("What is a haiku? Write one in all lowercase.", "case", "lowercase"),
        ("Write a numbered list of 3 fruits.", "list_form", "numbered"),
        ("My boss wants a numbered list of 5 risks; write it.", "list_form", "numbered"),
        ("My essay has two paragraphs; rewrite it in three paragraphs.", "count", 3),
        ("My answer has to be in all caps.", "case", "uppercase"),
        ("What is a 5-word slogan for a bakery?", "count", 5),
        ("What is a one-sentence summary of Hamlet?", "count", 1),
        ("What are three benefits of exercise?", "count", 3),
        ("End with a P.S. about the deadline.", "postscript", "P.S."),
        ("How do I make pancakes? Give me 5 steps.", "count", 5),
    ],
)
def test_a_form_asked_of_the_answer_is_still_an_instruction(query, check, value):
    assert (check, value) in [(k.check, k.value) for k in infer_instructions(query)]


# finding 6: an abbreviation's dot does not end an ask


@pytest.mark.parametrize(
    "query",
    [
        "What does P.S. mean at the end of a letter?",
        "How big is the U.S. federal budget this year?",
        "Which fruits, e.g. apples or pears, keep longest in a cold cellar?",
        "Should I run at 6 a.m. or after work to sleep better?",
        "Is it worth seeing Dr. Patel for a second opinion on my knee?",
    ],
)
def test_an_abbreviation_does_not_split_one_ask(query):
    assert split_asks(query) == ()
    assert asking_sentences(query) == [query]


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        (
            "Is the U.S. economy growing, and what should I invest in?",
            ("Is the U.S. economy growing", "what should I invest in?"),
        ),
        ("Who is Dr. Lee? And what does she teach?", ("Who is Dr. Lee?", "what does she teach?")),
        (
            "What is vitamin D. How much should I take?",
            ("What is vitamin D.", "How much should I take?"),
        ),
    ],
)
def test_a_sentence_after_an_abbreviation_is_still_its_own_ask(query, asks):
    assert split_asks(query) == asks


def test_a_lone_letter_after_an_apostrophe_is_no_abbreviation():
    query = "Honestly I'd. what should I ask the restaurant when I call to book?"
    assert asking_sentences(query) == ["what should I ask the restaurant when I call to book?"]


# finding 7: a word that ends in the excluded item's name is not always the item


@pytest.mark.parametrize(
    ("query", "content"),
    [
        ("Gluten-free breakfast ideas please.", "- Buckwheat porridge\n- Rice cakes"),
        ("Wheat-free breakfast ideas please.", "- Buckwheat pancakes\n- Rice cakes"),
        ("Nut-free snack ideas please.", "- Apple chips\n- Doughnut holes\n- Cheese cubes"),
        ("Nut-free snack ideas please.", "- Apple chips\n- Butternut squash fries"),
        ("Nut-free snack ideas please.", "- Apple chips\n- Water chestnuts with soy dip"),
        ("A corn-free dinner idea?", "Steak with crushed peppercorns and a green salad."),
        ("Dessert with no ham, please.", "A graham cracker crust with lemon curd."),
    ],
)
def test_a_false_friend_of_the_excluded_item_is_no_use(query, content):
    analysis = analyze(query)
    check = check_members(analysis.excluded, content)
    assert check.violated == [], check


@pytest.mark.parametrize(
    ("query", "content", "reason"),
    [
        (
            "Nut-free snack ideas please.",
            "- Apple chips\n- Candied walnuts",
            "uses walnuts (nut), which the request excludes ('Nut-free')",
        ),
        (
            "Nut-free snack ideas please.",
            "- Roasted chestnuts",
            "uses chestnuts (nut), which the request excludes ('Nut-free')",
        ),
        (
            "Nut-free snack ideas please.",
            "- Mixed nuts",
            "uses nut, which the request excludes ('Nut-free')",
        ),
        (
            "Pancakes without buckwheat, please.",
            "Buckwheat pancakes with maple syrup.",
            "uses buckwheat, which the request excludes ('without buckwheat')",
        ),
    ],
)
def test_a_use_is_named_by_the_answers_word(query, content, reason):
    analysis = analyze(query)
    check = check_members(analysis.excluded, content)
    assert check.violations({e.item: e.phrase for e in analysis.exclusions}) == [reason]


# finding 11: a pasted error message rules nothing out


@pytest.mark.parametrize(
    "query",
    [
        'Fix this Python error: TypeError: can only concatenate str (not "int") to str, '
        "from print('Age: ' + age)",
        "Getting TypeError: unsupported operand type(s), expected int not NoneType, in my loop",
        "My Java app throws java.lang.IllegalStateException: not on the UI thread, how to fix",
        "Rust says error[E0308]: mismatched types, expected u32 not String, what does it want",
        'Traceback (most recent call last):\n  File "a.py", line 3\n'
        "TypeError: argument of type 'NoneType' is not iterable, no idea why",
    ],
)
def test_a_pasted_error_message_rules_nothing_out(query):
    analysis = analyze(query)
    assert analysis.exclusions == ()
    assert "not" in analysis.core_ask


@pytest.mark.parametrize(
    ("query", "item"),
    [
        (
            "My code fails with AttributeError: module 'numpy' has no attribute 'float'. "
            "No pandas please.",
            "pandas",
        ),
        (
            "error[E0308]: mismatched types, expected u32 not String. How do I fix it without "
            "unsafe?",
            "unsafe",
        ),
        ("Fix this error: not allowed to use eval. Write it without eval.", "eval"),
    ],
)
def test_an_exclusion_beside_a_pasted_error_still_counts(query, item):
    analysis = analyze(query)
    assert [e.item for e in analysis.exclusions] == [item]
    if "Error" in query:  # the error is kept whole in what the request asks
        assert "expected u32 not String" in analysis.core_ask or "no attribute" in analysis.core_ask


# findings 12 and 1 (a word asked for): "how do you say X in French?" asks for a phrase


@pytest.mark.parametrize(
    "query",
    [
        "How do you say 'thank you very much' in French?",
        "What's a polite way to say 'I don't understand' in Japanese?",
        "How do you say hello in Spanish.",
        "How would I ask for the bill in Italian?",
        "Is there a nicer way of saying 'no thanks' in German?",
    ],
)
def test_a_phrase_asked_for_in_a_language_is_no_answer_language(query):
    assert [k for k in infer_instructions(query) if k.check == "language"] == []
    assert short_answer_asked(query) is not None


@pytest.mark.parametrize(
    ("query", "value"),
    [
        ("How do you say hello in Spanish? Answer in Spanish only.", "es"),
        ("Tell me about tapas, respond in Spanish.", "es"),
        ("Translate good morning into Spanish.", "es"),
        ("Write a poem in French.", "fr"),
    ],
)
def test_an_answer_language_asked_for_still_counts(query, value):
    assert [k.value for k in infer_instructions(query) if k.check == "language"] == [value]


@pytest.mark.parametrize(
    ("query", "content"),
    [
        ("What's the French word for cheese?", "Fromage."),
        ("What is the word for fear of spiders?", "Arachnophobia."),
        ("How do you say 'thank you very much' in French?", "Merci beaucoup."),
    ],
)
def test_a_one_word_answer_to_a_word_asked_for_is_not_held_to_its_relevance(query, content):
    request = ScoreRequest.model_validate({"query": query, "content": content})
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.25),
        "precision": TrackScore(name="precision", score=0.93),
    }
    r = fuse(request, tracks, CFG)
    assert r.action == "review" and r.score == CFG.fusion.missed_ask_cap
    assert not [x for x in r.reasons if "another request" in x]


def test_how_do_i_say_no_is_no_word_asked_for():
    assert short_answer_asked("How do I say no politely to my boss?") is None


# r3 finding 1: "without using any commas" bans the character


@pytest.mark.parametrize(
    ("query", "char"),
    [
        ("Write a sentence about dogs without using any commas.", ","),
        ("Describe your ideal weekend without using any commas.", ","),
        ("Do not include any semicolons.", ";"),
        ("Avoid using exclamation marks in the reply.", "!"),
        ("Write it without including any question marks.", "?"),
        ("Write a sentence without any commas.", ","),
    ],
)
def test_without_using_any_commas_bans_the_character(query, char):
    analysis = analyze(query)
    assert ("forbidden_chars", char) in [(k.check, k.value) for k in analysis.instructions]
    assert analysis.exclusions == ()


# r3 finding 3: a function's indented body is no code block


@pytest.mark.parametrize(
    ("content", "passed"),
    [
        ("def reverse(s):\n    return s[::-1]", False),
        ("Here it is:\ndef reverse(s):\n    return s[::-1]", False),
        ("```python\ndef reverse(s):\n    return s[::-1]\n```", True),
        ("~~~\ndef reverse(s):\n    return s[::-1]\n~~~", True),
        ("Here it is:\n\n    def reverse(s):\n        return s[::-1]", True),
        ("    def reverse(s):\n        return s[::-1]", True),
    ],
)
def test_a_code_block_is_fenced_or_indented_after_a_blank_line(content, passed):
    query = "Show me a Python function that reverses a string, in a code block."
    [k] = [k for k in infer_instructions(query) if k.check == "format"]
    assert check_instruction(content, k)[0] is passed


# r1 finding 9: a misspelt task_type or role value; finding 8: one line for a bad request


def test_a_task_type_one_edit_from_a_rules_is_refused_with_what_was_meant():
    from scoregate.scoring.fusion import misspelt_metadata

    typo = misspelt_metadata(ScoringMetadata(task_type="creatve"), CFG)
    assert typo is not None and "did you mean 'creative'?" in typo
    assert misspelt_metadata(ScoringMetadata(task_type="Creative", role="admin"), CFG) is None
    # a caller's own label, far from every rule's, is no typo
    assert misspelt_metadata(ScoringMetadata(task_type="summarise_ticket"), CFG) is None


def test_a_task_type_a_config_rule_names_is_not_refused(tmp_path):
    from scoregate.scoring.fusion import misspelt_metadata

    overlay = tmp_path / "rules.yaml"
    overlay.write_text(
        "fusion:\n  rules:\n    - {match: {task_type: creativ}, profile: creative}\n"
    )
    cfg = load_scoring_config(overlay)
    assert misspelt_metadata(ScoringMetadata(task_type="creativ"), cfg) is None


def test_the_python_api_refuses_a_misspelt_task_type_before_scoring():
    import scoregate

    with pytest.raises(ValueError, match=r"task_type 'creatve' .* did you mean 'creative'\?"):
        scoregate.score(
            {"query": "Write a poem", "content": "Rain.", "metadata": {"task_type": "creatve"}}
        )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--task-type", "creatve"], "error: --task-type 'creatve' matches no fusion rule"),
        (["-q", ""], "error: invalid request: query: String should have at least 1 character"),
    ],
)
def test_the_score_command_says_a_bad_request_in_one_line(args, says):
    from typer.testing import CliRunner

    from scoregate.cli import app

    base = ["score", "-q", "Write a poem about rain", "-c", "Rain taps the window."]
    result = CliRunner().invoke(app, base + args)
    assert result.exit_code == 2
    assert says in result.output
    assert "pydantic" not in result.output and "type=" not in result.output


# r3 finding 7: a negated form instruction is not read as asking for the form

VACCINES = "Explain how vaccines work"


@pytest.mark.parametrize(
    "query",
    [
        f"{VACCINES}. Don't use bullet points.",
        "Write a short story opening. Do not include a title.",
        f"{VACCINES}, but not as a numbered list.",
        f"{VACCINES}. Don't write it in all capital letters.",
        f"{VACCINES}. No need for a P.S. at the end.",
        "Write it without a title.",
    ],
)
def test_a_form_ruled_out_is_not_asked_for(query):
    # (a title ruled out is checked as none: value "none", twenty-fourth session)
    checks = {k.check for k in infer_instructions(query) if k.value != "none"}
    assert not checks & {"list_form", "title", "case", "postscript"}, checks


@pytest.mark.parametrize(
    ("query", "unit", "relation", "value"),
    [
        (f"{VACCINES}. Don't write more than 2 sentences.", "sentences", "at_most", 2),
        ("Do not use more than 3 bullet points.", "bullets", "at_most", 3),
        ("Never write fewer than 4 paragraphs.", "paragraphs", "at_least", 4),
        (f"{VACCINES} in no more than 3 bullet points.", "bullets", "at_most", 3),
        ("lowercase only no commas and under 40 words thx", "words", "at_most", 40),
    ],
)
def test_a_negated_count_asks_for_its_opposite(query, unit, relation, value):
    [k] = [k for k in infer_instructions(query) if k.check == "count"]
    assert (k.unit, k.relation, k.value) == (unit, relation, value)


@pytest.mark.parametrize(
    ("query", "check"),
    [
        ("Explain it; don't use jargon, and use a numbered list.", "list_form"),
        ("Write a story with a title.", "title"),
        ("Reply in all caps, not in lowercase letters.", "case"),
    ],
)
def test_a_form_asked_for_beside_a_negation_still_counts(query, check):
    assert check in {k.check for k in infer_instructions(query)}


# r3 finding 8: a length the asker's own work must have is no rule for the answer


@pytest.mark.parametrize(
    "query",
    [
        "My essay must be at least 500 words. Can you suggest a good topic about climate?",
        "My report needs to be under 300 words; what should I cut?",
        "Our brochure should have three paragraphs. Can you review this draft?",
    ],
)
def test_a_rule_for_the_askers_own_work_is_not_the_answers(query):
    assert [k for k in infer_instructions(query) if k.check == "count"] == []


@pytest.mark.parametrize(
    ("query", "relation", "value"),
    [
        ("My essay must be at least 500 words. Write it about climate.", "at_least", 500),
        ("My cover letter has to fit in 250 words. Write one for a barista job.", "at_most", 250),
        ("The answer must be at least 500 words.", "at_least", 500),
    ],
)
def test_a_rule_for_the_work_the_answer_writes_still_counts(query, relation, value):
    [k] = [k for k in infer_instructions(query) if k.check == "count"]
    assert (k.relation, k.value) == (relation, value)


# r3 finding 9: "reply with only yes or no" asks for a bare yes or no


@pytest.mark.parametrize(
    "query",
    [
        "Reply with only yes or no: is 17 a prime number?",
        "Is 17 prime? Answer just yes/no.",
        "Is 17 prime? Yes or no only.",
    ],
)
def test_only_yes_or_no_asks_for_a_bare_answer(query):
    assert short_answer_asked(query) is not None
    assert "bare_answer" in {k.check for k in infer_instructions(query)}
    request = ScoreRequest.model_validate({"query": query, "content": "Yes"})
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.32),
        "precision": TrackScore(name="precision", score=0.93),
    }
    r = fuse(request, tracks, CFG)
    assert r.action == "review" and not [x for x in r.reasons if "another request" in x]


@pytest.mark.parametrize(
    "query",
    [
        "Is 17 prime? Only yes or no, then explain why.",
        "Is coffee bad for you? Not just yes or no please.",
        "Answer yes or no first, then explain: is 17 prime?",
    ],
)
def test_yes_or_no_with_more_asked_is_no_bare_answer(query):
    assert short_answer_asked(query) is None
    assert "bare_answer" not in {k.check for k in infer_instructions(query)}


# r3 finding 14: a list form ruled out is checked


@pytest.mark.parametrize(
    ("query", "unit"),
    [
        (f"{VACCINES}, no bullet points.", "bullets"),
        (f"{VACCINES}. Skip the bullet points and the headings.", "bullets"),
        (f"{VACCINES}. Don't use bullet points.", "bullets"),
        (f"{VACCINES}, but not as a numbered list.", "numbered"),
        ("Give me 5 tips, no numbering.", "numbered"),
    ],
)
def test_a_list_form_ruled_out_asks_for_none(query, unit):
    analysis = analyze(query)
    [k] = [k for k in analysis.instructions if k.check == "count" and k.unit == unit]
    assert (k.relation, k.value) == ("at_most", 0)
    assert "bullet points" not in [e.item for e in analysis.exclusions]
    bulleted = "- Vaccines show the body a germ.\n- It makes antibodies.\n- Later it wins."
    numbered = "1. Vaccines show the body a germ.\n2. It makes antibodies.\n3. Later it wins."
    assert check_instruction(bulleted if unit == "bullets" else numbered, k)[0] is False
    assert check_instruction("Vaccines train the immune system.", k)[0] is True


# r1 finding 14 and r3 finding 14: the feedback claims no "no fault" beside a failed check


def _weak(query, content, reward=None, precision=0.97):
    request = ScoreRequest.model_validate({"query": query, "content": content})
    tracks = {
        "semantic": TrackScore(name="semantic", score=0.9),
        "precision": TrackScore(name="precision", score=precision),
    }
    if reward is not None:
        tracks["reward"] = reward
    r = fuse(request, tracks, CFG)
    return {w.factor: w.suggestion for w in r.weakest_factors}


def test_a_failed_constraint_is_named_and_no_fault_is_not_claimed():
    why = "contains_function: no definition of function fizzbuzz found (python)"
    reward = TrackScore(
        name="reward",
        score=0.0,
        details={"results": [{"passed": False, "reason": why}], "passed": 0, "total": 1},
        reasons=[why],
    )
    said = _weak("Write fizzbuzz in Python", "def fizz(n):\n    return n", reward)
    assert "No specific fault was found" not in said["precision"]
    assert "see the reasons" in said["precision"]
    assert why in said["reward"]


@pytest.mark.parametrize(
    "query",
    [
        "Explain how vaccines work. Skip the headings.",
        "Explain how vaccines work, no markdown.",
        "Explain how vaccines work. Do not use a code block.",
    ],
)
def test_a_form_ruled_out_is_not_said_to_be_absent(query):
    said = _weak(query, "## Vaccines\nVaccines train the immune system.")
    assert "Nothing the request rules out" not in said["precision"]


def test_an_item_ruled_out_is_still_said_to_be_absent():
    said = _weak("Dinner ideas, no nuts.", "Grilled salmon with rice.")
    assert "Nothing the request rules out ('no nuts') was found" in said["precision"]


# r3 finding 6: members of an excluded class


@pytest.mark.parametrize(
    ("query", "content", "reason"),
    [
        (
            "Suggest a sugar-free drink for a hot day.",
            "Iced lemonade sweetened with honey and fresh mint.",
            "uses honey (sugar), which the request excludes ('sugar-free')",
        ),
        (
            "Give me a workout I can do at home without any equipment.",
            "Do 15 dumbbell squats, 10 kettlebell swings and a plank.",
            "uses dumbbell (equipment), which the request excludes ('without any equipment')",
        ),
    ],
)
def test_a_member_of_an_excluded_class_is_named(query, content, reason):
    analysis = analyze(query)
    check = check_members(analysis.excluded, content)
    assert check.violations({e.item: e.phrase for e in analysis.exclusions}) == [reason]


@pytest.mark.parametrize(
    ("query", "content"),
    [
        ("Give me a workout I can do at home without any equipment.", "Squats, no dumbbells."),
        ("Suggest a sugar-free drink.", "Iced tea with lemon, no honey or syrup."),
    ],
)
def test_a_member_ruled_out_is_no_use(query, content):
    assert check_members(analyze(query).excluded, content).violated == []


# r1 finding 13 (the narrow part): German is not read as Spanish for its "es"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Guten Morgen, wie geht es dir?", "de"),
        ("Ich bin müde und habe Hunger.", "de"),
        ("Buenos días, ¿cómo estás? Es un día bonito.", "es"),
        ("Hola, es la hora de comer.", "es"),
    ],
)
def test_german_and_spanish_are_told_apart(text, code):
    from scoregate.scoring.language import detect_language

    assert detect_language(text) == code

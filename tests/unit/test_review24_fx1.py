"""Review 24 (R1) findings mended by fx1: each case failed before its mend."""

from __future__ import annotations

import pytest

from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze


def _languages(query: str) -> list[str]:
    return [k.value for k in analyze(query).instructions if k.check == "language"]


def _violations(query: str, answer: str) -> list[str]:
    a = analyze(query)
    check = check_members(a.excluded, answer, asked=a.asked)
    return check.violations({e.item: e.phrase for e in a.exclusions})


# F1: a request in another language that only mentions English asks for no English answer
@pytest.mark.parametrize(
    "query",
    [
        "Tengo una reunión en inglés mañana, ¿me das consejos para prepararme?",
        "Mi hijo estudia en inglés en el colegio, ¿qué libros le recomiendas?",
        "Ich habe einen Kurs auf Englisch belegt und brauche Tipps für die Prüfung.",
        "Je cherche un film en anglais avec sous-titres pour apprendre, des idées ?",
    ],
)
def test_f1_english_mentioned_is_not_asked_for(query):
    assert "en" not in _languages(query)


@pytest.mark.parametrize(
    "query",
    [
        "¿Qué significa 'estar en las nubes'? Responde en inglés, por favor.",
        "escribe en ingles un email para pedir vacaciones a mi jefe",
        "Que veut dire 'avoir le cafard' ? Réponds en anglais s'il te plaît.",
        "¿Qué es una hipoteca? En inglés.",
    ],
)
def test_f1_english_asked_for_is_still_read(query):
    assert _languages(query) == ["en"]


# F1b: a question about an English word asks for a word, not an English answer
@pytest.mark.parametrize(
    "query",
    [
        "¿Cómo se dice 'gato' en inglés?",
        "¿Cómo se escribe 'necesario' en inglés?",
        "Quel est le mot en anglais pour 'chaussette' ?",
        "Wie sagt man 'Handy' auf Englisch?",
    ],
)
def test_f1b_a_word_asked_for_in_english_is_no_language_instruction(query):
    assert _languages(query) == []


# F2: "vegan" asked about, or a person in a joke, rules nothing out
@pytest.mark.parametrize(
    "query",
    [
        "Is honey vegan? My friend says yes.",
        "Is gelatin vegetarian?",
        "Are Oreos vegan or not?",
        "Write a joke about a vegan at a steakhouse",
        "A vegan and a meat eater walk into a bar, write the joke",
    ],
)
def test_f2_diet_asked_about_excludes_nothing(query):
    assert analyze(query).excluded == []


@pytest.mark.parametrize(
    "query", ["I am vegan. Is this soup ok?", "Is there a vegan option for dinner?"]
)
def test_f2_diet_kept_still_excludes(query):
    assert "meat" in analyze(query).excluded


# F3, F4, F15, F16: substitutes, swaps and false friends are no members
@pytest.mark.parametrize(
    ("query", "answer"),
    [
        (
            "Make this recipe vegan: 2 eggs, 1 cup milk, 1 tbsp butter, flour",
            "Swap the 2 eggs for 2 flax eggs, the milk for oat milk, and the butter for vegan"
            " butter. Keep the flour as is.",
        ),
        (
            "Give me a vegan banana bread recipe",
            "Mash 3 bananas, mix with flour and replace the butter with coconut oil and the milk"
            " with soy milk. Bake.",
        ),
        ("Give me a vegan banana bread recipe", "Mash bananas, add 1 tbsp egg replacer. Bake."),
        ("Give me a vegan banana bread recipe", "Mash bananas, butter-flavored coconut oil."),
        ("vegan shopping list", "- Oats\n- Egg replacer\n- Tofu"),
        (
            "vegetarian burger ideas",
            "Try a black bean burger, a portobello burger, or a halloumi burger.",
        ),
        ("Vegetarian dinner ideas", "A black bean burger with fries."),
        ("Vegetarian stir fry recipe please", "Stir-fry oyster mushrooms and snap peas."),
        ("Vegetarian side dish?", "Make scalloped potatoes with cheddar."),
        ("Vegetarian side dish?", "Make sauteed lobster mushrooms with thyme."),
        ("Vegetarian side dish?", "Make crab apple jelly glazed carrots."),
        ("Vegetarian side dish?", "Make fish-shaped pasta with pesto."),
        ("Vegetarian side dish?", "A mussel-shell pasta salad."),
        ("Vegan snack?", "Try king oyster mushroom 'calamari'."),
        (
            "Vegan lemon meringue pie?",
            "Whip aquafaba with sugar and a pinch of cream of tartar into a meringue.",
        ),
    ],
)
def test_f3_f4_f15_f16_no_member_read(query, answer):
    assert _violations(query, answer) == []


@pytest.mark.parametrize(
    ("query", "answer"),
    [
        ("Give me a vegan banana bread recipe", "Mash bananas, add 2 eggs and milk. Bake."),
        ("Vegetarian side dish?", "Oysters with mignonette."),
        ("Vegetarian side dish?", "Grilled salmon with lemon."),
        ("vegetarian dinner", "A beef burger with fries."),
    ],
)
def test_f3_f15_members_still_caught(query, answer):
    assert _violations(query, answer)


def _formats(query: str) -> list[str]:
    return [str(k.value) for k in analyze(query).instructions if k.check == "format"]


# F7: "<data noun> in YAML" asks for YAML in the answer, not that every line is YAML
@pytest.mark.parametrize(
    "query",
    [
        "Write a GitHub Actions workflow in YAML that runs pytest on push",
        "Write a k8s manifest in YAML for nginx",
        "write a compose file in yaml for postgres",
        "Give me an OpenAPI spec in YAML for a /health endpoint",
    ],
)
def test_f7_data_noun_in_yaml_is_a_block(query):
    assert _formats(query) == ["yaml_block"]
    (k,) = analyze(query).instructions
    answer = "Here's a workflow:\n\n```yaml\nname: tests\non: push\n```\n\nSave it."
    assert check_instruction(answer, k)[0] is True


@pytest.mark.parametrize("query", ["Respond in YAML only.", "Write the config in YAML only."])
def test_f7_whole_answer_yaml_still_read(query):
    assert _formats(query) == ["yaml"]


# F8, F9: code that makes JSON, and questions about data, ask for no data in the answer
@pytest.mark.parametrize(
    "query",
    [
        "Write a function to generate a JSON payload from a dataclass",
        "Generate a JSON Schema validator in TypeScript",
        "Write the JSON payload to a file in Node",
        "Send a JSON payload with fetch() in JS",
        "Generate a JSON payload in Python from a dict",
        "Make the JSON payload smaller, it's 2MB",
        "Should I write a JSON schema for this or just use Pydantic?",
        "Do I need a YAML file for this or can I use env vars?",
        "Why would anyone write a YAML config by hand in 2024?",
        "Write a docker compose yaml? or should I use k8s directly?",
        "Send the JSON body with curl, how?",
    ],
)
def test_f8_f9_no_data_reading(query):
    assert _formats(query) == []


# F10: prose is no YAML; a JSON block given instead of YAML is none either
@pytest.mark.parametrize(
    "answer",
    [
        "Note: you need to set the image to nginx and map port 80 for this to work.",
        "You don't need YAML for this. Just run:\n\n- redis-server --replicaof host 6379\n"
        "- repeat on the second node",
        "Here's what you need to set:\n- image: postgres 16\n- port 5432 exposed\n"
        "- a volume for the data",
        '```json\n{"replicas": 2}\n```\nSave this as `redis.json`.',
    ],
)
def test_f10_prose_is_no_yaml(answer):
    (k,) = analyze("give me a YAML config for a redis cache with 2 replicas").instructions
    assert check_instruction(answer, k)[0] is False


def test_f10_plain_yaml_still_holds():
    (k,) = analyze("give me a YAML config for a redis cache with 2 replicas").instructions
    assert check_instruction("Here:\n\nreplicas: 2\nimage: redis:7", k) == (True, "holds YAML")


# F6: the cross-encoder no more than the cosine can compare a Spanish request and an
# English answer: a good English answer is unverified (review), not dragged to iterate
def test_f6_models_set_aside_for_another_language():
    from scoregate.config.scoring_yaml import load_scoring_config
    from scoregate.schemas.request import ScoreRequest
    from scoregate.schemas.result import TrackScore
    from scoregate.scoring.fusion import fuse

    r = fuse(
        ScoreRequest(
            query="¿Qué significa 'estar en las nubes'? Responde en inglés, por favor.",
            content="It means to be daydreaming or distracted, literally 'to be in the clouds'."
            " People say it about someone who isn't paying attention.",
        ),
        {
            "semantic": TrackScore(name="semantic", score=0.12),
            "precision": TrackScore(name="precision", score=0.23),
        },
        load_scoring_config(),
    )
    assert r.action == "review", (r.action, r.reasons)
    assert any("compare English texts only" in x for x in r.reasons)


# F14: one short sentence, one function word between two languages: too little to tell
@pytest.mark.parametrize(
    "text",
    [
        "Dear Boss, I would like to request vacation from June 1 to June 10.",
        "Le recomiendo 'Harry Potter'.",
    ],
)
def test_f14_short_text_is_not_given_a_wrong_language(text):
    from scoregate.scoring.language import clear_language

    want = "en" if text.startswith("Dear") else "es"
    assert clear_language(text, want) in (None, want)  # too little to tell, or the right one


def test_f14_the_english_check_does_not_fail_a_short_english_email():
    (k,) = analyze("escribe en ingles un email para pedir vacaciones a mi jefe").instructions
    answer = "Dear Boss, I would like to request vacation from June 1 to June 10."
    assert check_instruction(answer, k)[0] is not False


# F11: a broken JSON block is said to be broken, not absent
def test_f11_broken_json_block_says_where():
    (k,) = analyze("I need a sample JSON payload for a user signup webhook").instructions
    answer = (
        'Here\'s a sample:\n\n```json\n{\n  "event": "user.signup",  // the new user\n'
        '  "timestamp": "2024-05-01T12:00:00Z",\n}\n```\n\nThe timestamp is ISO 8601.'
    )
    ok, why = check_instruction(answer, k)
    assert ok is False and why.startswith("the JSON block is not valid JSON (")


# F23: the reason quotes the item's own words
def test_f23_phrase_is_the_items_own():
    phrases = {
        e.item: e.phrase for e in analyze("Vegan recipe with no eggs and no honey").exclusions
    }
    assert phrases["honey"] == "no honey"

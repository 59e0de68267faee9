"""Data asked for inside an answer ("give me a YAML config") and English asked for by a
request written in another language ("Answer in English: ¿qué significa ...?")."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.fusion import fuse
from scoregate.scoring.instructions import check_instruction
from scoregate.scoring.request_analysis import analyze

CFG = load_scoring_config()


def _formats(query: str) -> list[str]:
    return [str(k.value) for k in analyze(query).instructions if k.check == "format"]


def _languages(query: str) -> list[str]:
    return [str(k.value) for k in analyze(query).instructions if k.check == "language"]


# --- YAML or JSON asked for as a thing to be made ------------------------------------------


@pytest.mark.parametrize(
    ("query", "value"),
    [
        ("Give me a YAML config for a GitHub Actions workflow that runs pytest.", "yaml_block"),
        ("Can you write a docker-compose YAML for postgres and redis?", "yaml_block"),
        ("I need a sample JSON payload for the /orders endpoint.", "json_block"),
        ("Write a JSON schema for a user with a name and an email.", "json_block"),
        # the whole answer as data, as before: the stricter reading wins
        ("Output the settings as YAML.", "yaml"),
        ("Return a JSON object with keys city and country.", "json"),
    ],
)
def test_data_asked_for_is_read(query, value):
    assert _formats(query) == [value]


@pytest.mark.parametrize(
    "query",
    [
        "My YAML config fails to parse, why?",  # the asker's own
        "I need help with my yaml",
        "Can you show me what's wrong in this YAML?",
        "What is the difference between YAML and JSON?",
        "Should I write my config in YAML or TOML?",  # a choice, not a format
        "Don't give me a YAML file, just explain the options.",
    ],
)
def test_talk_about_data_formats_is_not_read(query):
    assert _formats(query) == []


WORKFLOW = "Give me a YAML config for a GitHub Actions workflow that runs pytest."


def _yaml_block():
    (k,) = analyze(WORKFLOW).instructions
    return k


@pytest.mark.parametrize(
    "answer",
    [
        "Here's a minimal workflow:\n\n```yaml\nname: tests\non: [push]\njobs:\n  test:\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n```\n\nSave it as"
        " .github/workflows/tests.yml.",
        "name: tests\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest",
        # unfenced, between two sentences
        "Put this in .github/workflows/ci.yml:\nname: CI\non: push\njobs:\n  t:\n"
        "    runs-on: ubuntu-latest\n\nThat is all it needs.",
    ],
)
def test_an_answer_that_holds_yaml_passes(answer):
    assert check_instruction(answer, _yaml_block()) == (True, "holds YAML")


def test_an_answer_that_only_describes_the_config_fails_with_the_reason():
    passed, why = check_instruction(
        "Create a file under .github/workflows, trigger it on push, and add a job on"
        " ubuntu-latest that checks out the code, installs pytest and runs it.",
        _yaml_block(),
    )
    assert passed is False
    assert why == "no YAML mapping or list in it; the request asks for YAML"


def test_a_shell_block_is_not_yaml():
    passed, _ = check_instruction("Run this:\n```bash\npip install pytest\n```", _yaml_block())
    assert passed is False


def test_json_inside_an_answer_passes_and_prose_fails():
    (k,) = analyze("I need a sample JSON payload for the /orders endpoint.").instructions
    ok = 'A minimal one:\n```json\n{"item": "A-12", "quantity": 2}\n```\nAdd "notes" if needed.'
    assert check_instruction(ok, k) == (True, "holds JSON")
    assert check_instruction("Send the item code and a quantity.", k)[0] is False


# --- English asked for by a request written in another language ----------------------------


@pytest.mark.parametrize(
    "query",
    [
        "Answer in English: ¿qué significa 'estar en las nubes'?",
        "Responde en inglés por favor: ¿qué significa la expresión 'estar en las nubes'?",
        "Bitte auf Englisch antworten: Was ist der Unterschied zwischen Miete und Pacht?",
        "Réponds en anglais : quelle est la différence entre un bail et une location ?",
    ],
)
def test_english_asked_for_in_another_language_is_read(query):
    assert _languages(query) == ["en"]  # was Spanish, German or French for three of them


@pytest.mark.parametrize(
    "query",
    ["Explain in English what 'hygge' means.", "Write the email in English, please."],
)
def test_english_asked_for_in_english_asks_for_nothing_checkable(query):
    assert _languages(query) == []


def test_an_english_answer_to_spanish_asking_for_english_passes_and_spanish_fails():
    (k,) = analyze("Responde en inglés: ¿qué significa 'estar en las nubes'?").instructions
    english = (
        "'Estar en las nubes' literally means 'to be in the clouds': someone daydreaming,"
        " like having your head in the clouds in English."
    )
    spanish = "Significa que una persona está distraída o soñando despierta, sin prestar atención."
    assert check_instruction(english, k) == (True, "written in English")
    assert check_instruction(spanish, k) == (
        False,
        "written in Spanish; the request asks for English",
    )


def test_the_cosine_of_a_request_in_another_language_is_not_held():
    """The embedding model reads English: a French request and a right English answer with
    no name in common read near 0 (0.08 for a boiled egg), so the cosine cannot gate."""
    r = fuse(
        ScoreRequest(
            query="Réponds en anglais s'il te plaît : combien de temps pour un œuf dur ?",
            content="About 10 minutes in boiling water, then cool it in cold water.",
        ),
        {
            "semantic": TrackScore(name="semantic", score=0.08),
            "precision": TrackScore(name="precision", score=0.9),
        },
        CFG,
    )
    assert not any("off topic" in x for x in r.reasons), r.reasons
    assert any("the request is in French and the answer is not" in x for x in r.reasons)
    assert r.action != "accept"

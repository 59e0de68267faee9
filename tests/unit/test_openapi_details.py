"""Every key scoring writes into ``TrackScore.details`` and ``ScoreResult.dashboard``, and
every key a step writes into a decision's ``details``, is declared in the app's
``/openapi.json`` (``scoregate.schemas.details_doc``), and every declared key is written.

Two checks that cannot drift from the code:

* examples scored through ``POST /v1/score`` and a job's audit trail, with the real
  semantic and precision code over fake models: each response is validated against the
  served schema with the documented objects closed (a key not declared fails, nested ones
  too, and so does a value of the wrong type), and together the examples write every
  declared key;
* the source of ``scoregate/scoring`` and of every ``append_decision`` call is read for
  the keys written (conditional ones included), which must match the declared ones.
"""

from __future__ import annotations

import ast
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import SecretStr

import scoregate
from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.schemas.details_doc import (
    DETAILS_BY_TRACK,
    Dashboard,
    DecisionDetails,
    TrackDetails,
)
from scoregate.scoring.engine import LocalModels
from scoregate.scoring.evidence import ConfidenceBreakdown
from scoregate.server import ApiService, create_app
from tests.fakes import Recorder
from tests.server_client import AppClient
from tests.unit.test_precision import FakeCrossEncoder
from tests.unit.test_semantic import FakeEncoder

PACKAGE = Path(scoregate.__file__).parent
#: The documented objects: closed here, so that a key they do not declare fails.
DOCUMENTED = (
    "TrackDetails",
    "SemanticAsk",
    "ConstraintOutcome",
    "HeuristicsFactor",
    "Dashboard",
    "DecisionDetails",
)
#: The scoring module that builds each track's details.
TRACK_OF_MODULE = {name: name for name in DETAILS_BY_TRACK}

QUERY = (
    "Plan 3 days in Kyoto without a car: when should I go, and what should I pack?"
    " Answer in under 200 words."
)
SHORT = "Go in late March for the blossoms. Pack layers, walking shoes and a rain jacket."
DRIVES = "Rent a car at the station and drive to the temples in late March; pack layers."
EVIDENCE = {
    "total_numbers": 4,
    "cited_numbers": 3,
    "claims_total": 2,
    "claims_matched": 2,
    "max_age_hours": 5.0,
    "freshness_sla_hours": 24.0,
}
METRICS = [{"name": "accuracy", "value": 0.9, "weight": 2.0}, {"name": "recall", "value": None}]
EXAMPLES: list[dict[str, Any]] = [
    {  # every optional track, a multi-part request that rules something out, a short answer
        "query": QUERY,
        "content": SHORT,
        "constraints": [
            {"kind": "max_words", "value": 200, "hard": True},
            {"kind": "contains", "value": "itinerary"},
        ],
        "metadata": {"task_type": "analysis", "required_topics": ["blossoms", "budget"]},
        "evidence": EVIDENCE,
        "eval_metrics": METRICS,
    },
    {"query": QUERY, "content": DRIVES, "eval_metrics": METRICS, "raw_metrics": True},
    {"query": "Pack for Kyoto; we won't have a car.", "content": DRIVES},
    {"query": "What should I pack for Kyoto in March?", "content": ""},
]


def keys_of(doc: type) -> set[str]:
    return set(doc.__annotations__)


# --- the served schema, with the documented objects closed ------------------------------------


def served(client: AppClient) -> dict[str, Any]:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for name in DOCUMENTED:
        assert name in schemas, f"{name} is not in /openapi.json"
        assert schemas[name]["additionalProperties"] is True, f"{name} must stay open"
    return spec


def closed(spec: dict[str, Any]) -> dict[str, Any]:
    spec = copy.deepcopy(spec)
    for name in DOCUMENTED:
        spec["components"]["schemas"][name]["additionalProperties"] = False
    return spec


def check(spec: dict[str, Any], component: str, body: Any) -> None:
    """``body`` is valid against ``component`` of the closed spec; the error names the key."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": spec["components"]}
    jsonschema.validate(body, schema, cls=jsonschema.Draft202012Validator)


def track_keys(result: dict[str, Any]) -> Iterator[tuple[str, str]]:
    for name, track in result["tracks"].items():
        assert name in DETAILS_BY_TRACK, (
            f"track {name!r} has no class in scoregate/schemas/details_doc.py: add one"
            " (its details keys) to DETAILS_BY_TRACK and to TrackDetails"
        )
        for key in track["details"]:
            yield name, key


def check_result(spec: dict[str, Any], result: dict[str, Any]) -> None:
    """Every details and dashboard key of ``result`` declared (by its own track), with the
    declared type."""
    for name, key in track_keys(result):
        assert key in keys_of(DETAILS_BY_TRACK[name]), (
            f"the {name} track writes details[{key!r}], which"
            f" scoregate/schemas/details_doc.py does not declare for it"
        )
    check(closed(spec), "ScoreResult", result)


# --- the examples ------------------------------------------------------------------------------


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    for name in ("SCOREGATE_SCORING_CONFIG", "SCOREGATE_WORKFLOW_CONFIG", "SCOREGATE_API_KEYS"):
        monkeypatch.delenv(name, raising=False)
    cfg = load_scoring_config()
    # read each part of a multi-part request too, so that its key is written
    cfg = cfg.model_copy(
        update={"precision": cfg.precision.model_copy(update={"score_each_ask": True})}
    )
    models = LocalModels(cfg)
    models.use("semantic", FakeEncoder(window=64))
    models.use("precision", FakeCrossEncoder(keyword="March"))
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'api.db'}"))
    tasks = {"agent": Recorder(returns=SHORT), "on_pass": Recorder(), "on_exit": Recorder()}
    ctx, inline = embedded_context(settings, config=cfg, models=models, local_tasks=dict(tasks))
    client = AppClient(create_app(ApiService(ctx, inline)))
    return {"client": client, "spec": served(client), "inline": inline}


def scored(env: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for body in EXAMPLES:
        r = env["client"].post("/v1/score", json=body)
        assert r.status_code == 200, r.text
        out.append(r.json())
    return out


def test_every_details_and_dashboard_key_scored_is_declared_and_every_declared_one_written(env):
    seen: dict[str, set[str]] = {name: set() for name in DETAILS_BY_TRACK}
    dashboard: set[str] = set()
    for result in scored(env):
        check_result(env["spec"], result)
        for name, key in track_keys(result):
            seen[name].add(key)
        dashboard |= set(result["dashboard"])
    for name, doc in DETAILS_BY_TRACK.items():
        assert seen[name] == keys_of(doc), f"{name}: the examples did not write {name} keys"
    assert dashboard == keys_of(Dashboard)


def test_a_key_a_track_adds_without_declaring_it_fails(env):
    result = scored(env)[0]
    # an undeclared key, and a declared one in another track's details, both fail
    for name, key in (("semantic", "spread"), ("semantic", "model_score")):
        wrong = copy.deepcopy(result)
        wrong["tracks"][name]["details"][key] = 0.5
        with pytest.raises(AssertionError, match=rf"details\[{key!r}\]"):
            check_result(env["spec"], wrong)
    nested = copy.deepcopy(result)
    nested["tracks"]["reward"]["details"]["results"][0]["weight"] = 1.0
    with pytest.raises(jsonschema.ValidationError, match="weight"):
        check_result(env["spec"], nested)
    typed = copy.deepcopy(result)
    typed["tracks"]["precision"]["details"]["chunks"] = "two"
    with pytest.raises(jsonschema.ValidationError, match="two"):
        check_result(env["spec"], typed)
    extra = copy.deepcopy(result)
    extra["dashboard"]["trend"] = 1
    with pytest.raises(jsonschema.ValidationError, match="trend"):
        check_result(env["spec"], extra)


def test_the_audit_trail_details_are_declared(env):
    client = env["client"]
    loop = {"threshold": 0.99, "max_iterations": 2}
    hooks = {"agent": "agent", "on_pass": "on_pass", "on_loop_exit": "on_exit"}
    request = {"query": QUERY, "content": DRIVES}
    ids = []
    for body in ({"loop": loop, **hooks}, {"loop": {**loop, "hil": False}, **hooks}):
        r = client.post("/v1/jobs", json={"request": request, **body})
        assert r.status_code == 202, r.text
        ids.append(r.json()["id"])
    inline = env["inline"]
    send = inline.send
    inline.send = lambda m: None if m.task == "agent" else send(m)  # an agent that never answers
    try:
        r = client.post("/v1/jobs", json={"request": request, "loop": loop, **hooks})
        waits = r.json()["id"]
        error = {"iteration": 2, "error_type": "Timeout", "message": "boom", "task_id": "t-1"}
        assert client.post(f"/v1/jobs/{waits}/agent-error", json=error).status_code == 202
        assert client.post(f"/v1/jobs/{waits}/cancel").status_code == 200
    finally:
        inline.send = send
    ids.append(waits)
    spec = closed(env["spec"])
    keys: set[str] = set()
    for job_id in ids:
        detail = client.get(f"/v1/jobs/{job_id}").json()
        check(spec, "JobDetail", detail)  # decisions, iterations' results, final result
        for decision in detail["decisions"]:
            keys |= set(decision["details"])
        for iteration in detail["iterations"]:
            check_result(env["spec"], iteration["result"])
    # the loop's decisions, an agent's error and a cancel: the rest are read from the code
    assert {"recommended_action", "exit_reason", "error_type", "attempt", "previous_status"} <= keys
    assert keys <= keys_of(DecisionDetails)


def test_no_two_tracks_give_one_key_different_schemas():
    from pydantic import TypeAdapter

    by_key: dict[str, tuple[str, Any]] = {}
    for name, doc in DETAILS_BY_TRACK.items():
        props = TypeAdapter(doc).json_schema()["properties"]
        for key, schema in props.items():
            first = by_key.setdefault(key, (name, schema))
            assert first[1] == schema, f"details[{key!r}]: {first[0]} and {name} differ"
    assert set(by_key) == keys_of(TrackDetails)


# --- the code that writes them -----------------------------------------------------------------


class Unread(Exception):
    """The test cannot read the keys this code writes."""


def _dict_keys(node: ast.expr, where: str) -> set[str]:
    if isinstance(node, ast.Dict):
        keys = set()
        for key in node.keys:
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise Unread(f"{where}: a details key that is not a plain string")
            keys.add(key.value)
        return keys
    if ast.unparse(node) in BUILT_ELSEWHERE:
        return BUILT_ELSEWHERE[ast.unparse(node)]
    raise Unread(f"{where}: details built from `{ast.unparse(node)}`")


#: Details not written as a dict in the code, and their keys.
BUILT_ELSEWHERE = {"breakdown.model_dump()": set(ConfidenceBreakdown.model_fields)}


def _constant_key(node: ast.expr, where: str) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    raise Unread(f"{where}: a details key that is not a plain string")


class _Writes(ast.NodeVisitor):
    """The keys written into the dict variables ``names``: their dict, ``.update(...)``,
    ``.setdefault(key, ...)`` and ``[key] = ...``; a track's ``.details`` changed after it
    was built is refused."""

    def __init__(self, names: set[str], path: str) -> None:
        self.names, self.path, self.keys = names, path, set[str]()

    def _mine(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id in self.names

    def _theirs(self, node: ast.expr, where: str) -> None:
        if isinstance(node, ast.Attribute) and node.attr == "details":
            raise Unread(f"{where}: a track's details changed after it was built")

    def _target(self, target: ast.expr, value: ast.expr | None, where: str) -> None:
        if self._mine(target) and value is not None:
            self.keys |= _dict_keys(value, where)
        if isinstance(target, ast.Subscript):
            self._theirs(target.value, where)
            if self._mine(target.value):
                self.keys.add(_constant_key(target.slice, where))

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target, node.value, f"{self.path}:{node.lineno}")
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._target(node.target, node.value, f"{self.path}:{node.lineno}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        where = f"{self.path}:{node.lineno}"
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("update", "setdefault"):
            self._theirs(func.value, where)
            if self._mine(func.value) and func.attr == "setdefault":
                self.keys.add(_constant_key(node.args[0], where))
            elif self._mine(func.value):
                for arg in node.args:
                    self.keys |= _dict_keys(arg, where)
                for kw in node.keywords:
                    if kw.arg is None:
                        raise Unread(f"{where}: details updated from `**{ast.unparse(kw.value)}`")
                    self.keys.add(kw.arg)
        self.generic_visit(node)


def details_written(source: str, path: str) -> set[str]:
    """The keys a scoring module writes into a TrackScore's details: the dict given as
    ``details=``, or what is written into the variables given so. Raises :class:`Unread`
    for code whose keys this test cannot read."""
    tree = ast.parse(source)
    keys: set[str] = set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "TrackScore":
            for kw in node.keywords:
                if kw.arg == "details" and isinstance(kw.value, ast.Name):
                    names.add(kw.value.id)
                elif kw.arg == "details":
                    keys |= _dict_keys(kw.value, f"{path}:{node.lineno}")
    writes = _Writes(names, path)
    writes.visit(tree)
    return keys | writes.keys


def written_by_track() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in sorted((PACKAGE / "scoring").glob("*.py")):
        where = str(path.relative_to(PACKAGE.parent))
        keys = details_written(path.read_text(encoding="utf-8"), where)
        if not keys:
            continue
        assert path.stem in TRACK_OF_MODULE, (
            f"{where} writes track details ({', '.join(sorted(keys))}) but this test does not"
            " know its track: add it to TRACK_OF_MODULE"
        )
        out.setdefault(TRACK_OF_MODULE[path.stem], set()).update(keys)
    return out


def test_the_keys_the_scoring_code_writes_are_the_declared_ones():
    written = written_by_track()
    assert set(written) == set(DETAILS_BY_TRACK)
    for name, doc in DETAILS_BY_TRACK.items():
        assert written[name] - keys_of(doc) == set(), (
            f"the {name} track writes keys scoregate/schemas/details_doc.py does not declare"
        )
        assert keys_of(doc) - written[name] == set(), f"{name}: declared keys no longer written"


def test_the_source_check_sees_a_new_key_and_refuses_what_it_cannot_read():
    base = "def f(x):\n    details = {'cosine': 1}\n"
    made = "    return TrackScore(name='semantic', details=details)\n"
    assert details_written(base + made, "m.py") == {"cosine"}
    assert details_written(base + "    details['spread'] = 2\n" + made, "m.py") == {
        "cosine",
        "spread",
    }
    assert details_written(base + "    details.update(spread=2)\n" + made, "m.py") == {
        "cosine",
        "spread",
    }
    for unread in (
        "    details.update(**x)\n",
        "    details[x] = 1\n",
        "    details = dict(x)\n",
        "    x.details['spread'] = 1\n",
        "    x.details.update(spread=1)\n",
        "    details.setdefault(x, 1)\n",
    ):
        with pytest.raises(Unread):
            details_written(base + unread + made, "m.py")


def decision_details_written() -> dict[str, set[str]]:
    """The keys of every ``append_decision(..., details=...)`` in the package, by place."""
    out: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE.parent))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name != "append_decision":
                continue
            for kw in node.keywords:
                if kw.arg == "details" and not (
                    isinstance(kw.value, ast.Constant) and kw.value.value is None
                ):
                    out[f"{where}:{node.lineno}"] = _dict_keys(kw.value, f"{where}:{node.lineno}")
    return out


def test_the_keys_the_steps_write_into_decisions_are_the_declared_ones():
    written = decision_details_written()
    assert len(written) >= 6, json.dumps(sorted(written))
    every = set().union(*written.values())
    for where, keys in written.items():
        assert keys <= keys_of(DecisionDetails), (
            f"{where} writes decision details {sorted(keys - keys_of(DecisionDetails))}"
            " that scoregate/schemas/details_doc.py (DecisionDetails) does not declare"
        )
    assert keys_of(DecisionDetails) - every == set(), "declared decision keys no longer written"

"""Training-data generators, the SemAntoNeg group split and the model card."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from scoregate.scoring.precision import parse_exclusions
from scoregate_training.card import (
    CARD_NAME,
    METRICS_END,
    METRICS_START,
    replace_metrics,
    write_card,
)
from scoregate_training.choices import CHOICES
from scoregate_training.dataset import Mix, build_training_data, check_data_dir, template_pairs
from scoregate_training.negation_data import (
    SemRow,
    group_split,
    light_edit,
    negated_pairs,
    read_semantoneg,
)
from scoregate_training.pairs import join_items
from scoregate_training.scenes import SCENES, TAG_NAMES
from scoregate_training.templates import (
    choice_quad,
    excl_bad,
    excl_ok,
    excludable_tags,
    exclusion_request,
    parse_part,
    scene_pairs,
)


def _rows() -> list[SemRow]:
    # Three groups: {a, b, c}, {d, e}, {f, g}
    return [
        SemRow("a", "b", True),
        SemRow("b", "c", False),
        SemRow("c", "a", True),
        SemRow("d", "e", False),
        SemRow("e", "d", True),
        SemRow("f", "g", True),
    ]


def _sentences(rows: list[SemRow]) -> set[str]:
    return {s for r in rows for s in (r.premise, r.hypothesis)}


def test_group_split_never_shares_a_sentence() -> None:
    for seed in range(10):
        train, held = group_split(_rows(), heldout_fraction=0.34, seed=seed)
        assert not _sentences(train) & _sentences(held)
        assert len(train) + len(held) == len(_rows())
        assert held


def test_group_split_keeps_transitive_groups_together() -> None:
    train, held = group_split(_rows(), heldout_fraction=0.34, seed=1)
    side = {r.premise: "train" for r in train} | {r.premise: "held" for r in held}
    assert side["a"] == side["b"] == side["c"]


def test_negated_pairs_drop_banned_sentences() -> None:
    rows = [("It works.", "It does not work.", "src"), ("Banned one.", "Not banned.", "src")]
    pairs = negated_pairs(rows, {"Banned one."}, random.Random(0), identity_share=1.0)
    assert {p.query for p in pairs} == {"It works."}
    assert sorted(p.label for p in pairs) == [0.0, 1.0]


def test_light_edit_keeps_the_words() -> None:
    rng = random.Random(3)
    for _ in range(20):
        assert light_edit("It is not here.", rng).lower().replace("n't", " not").split()[0] == "it"


def test_every_scene_has_excludable_tags_and_named_tags() -> None:
    for scene in SCENES:
        assert excludable_tags(scene), scene.asks[0]
        for part in scene.parts:
            assert parse_part(part).tags <= set(TAG_NAMES)
    assert len({s.domain for s in SCENES}) >= 10


def test_faithful_answers_avoid_and_violating_answers_include_the_tag() -> None:
    rng = random.Random(5)
    for scene in SCENES:
        for _ in range(5):
            tags = excludable_tags(scene)
            tagged = {parse_part(p).text for p in scene.parts if parse_part(p).tags & set(tags)}
            ok, bad = excl_ok(scene, rng), excl_bad(scene, rng)
            assert ok.label == 1.0 and bad.label == 0.0
            assert any(t in bad.content for t in tagged)


def test_excl_ok_never_contains_a_part_with_the_excluded_tag() -> None:
    rng = random.Random(11)
    scene = SCENES[0]
    for _ in range(50):
        state = rng.getstate()
        tag = rng.choice(excludable_tags(scene))
        rng.setstate(state)
        pair = excl_ok(scene, rng)
        banned = [parse_part(p).text for p in scene.parts if tag in parse_part(p).tags]
        assert not any(b in pair.content for b in banned), (tag, pair.content)


def test_exclusion_requests_are_mostly_parseable() -> None:
    rng = random.Random(2)
    found = [
        bool(parse_exclusions(exclusion_request(s, excludable_tags(s)[0], rng)))
        for s in SCENES
        for _ in range(5)
    ]
    assert sum(found) / len(found) > 0.9


def test_choice_quad_labels_flip_with_negation() -> None:
    quad = choice_quad(CHOICES[0], random.Random(0))
    assert [p.label for p in quad] == [1.0, 0.0, 0.0, 1.0]
    assert quad[0].content == quad[2].content and quad[0].query != quad[2].query


def test_scene_pairs_are_distinct() -> None:
    pairs = scene_pairs("plain", 300, random.Random(0))
    assert len({(p.query, p.content) for p in pairs}) == len(pairs) == 300


def test_join_items() -> None:
    assert join_items(["a"]) == "a"
    assert join_items(["a", "b", "c"]) == "a, b and c"


def _write_data(tmp: Path) -> Path:
    sem = ["premise\thypothesis\tlabel"] + [
        f"S{g} is good.\tS{g} is not good.\t1\nS{g} is good.\tS{g} is fine.\t0" for g in range(20)
    ]
    (tmp / "sem_anto_neg_dev.tsv").write_text("\n".join(sem) + "\n")
    neg = ["sentence\tnegated"] + [f"Fact {i} holds.\tFact {i} fails." for i in range(50)]
    (tmp / "nan_nli.tsv").write_text("\n".join(neg) + "\n")
    return tmp


def test_build_training_data_small(tmp_path: Path) -> None:
    data_dir = _write_data(tmp_path)
    mix = Mix(
        plain=20,
        excl_ok=20,
        excl_bad=20,
        off_topic=20,
        choice_quads=5,
        negated=30,
        random_sentences=5,
    )
    data = build_training_data(data_dir, seed=1, mix=mix)
    assert all(0.0 <= p.label <= 1.0 for p in data.pairs)
    held = {s for r in data.heldout for s in (r.premise, r.hypothesis)}
    assert held and not any(p.query in held or p.content in held for p in data.pairs)
    assert {"plain", "excl-ok", "excl-bad", "semantoneg", "nan_nli"} <= set(data.summary())
    assert len(build_training_data(data_dir, seed=1, mix=mix, max_pairs=40).pairs) == 40


def test_read_semantoneg_labels(tmp_path: Path) -> None:
    rows = read_semantoneg(_write_data(tmp_path))
    assert rows[0].negated and not rows[1].negated


def test_missing_data_dir_explains_the_fix(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="--data-dir"):
        check_data_dir(tmp_path)


def test_card_keeps_and_replaces_metrics(tmp_path: Path) -> None:
    report = SimpleNamespace(pairs=10, steps=1, seconds=60.0, final_loss=0.5, sources={"x": 10})
    path = write_card(tmp_path, report, {"seed": 13, "epochs": 1})
    text = path.read_text()
    assert "CC BY-SA 4.0" in text and "CANNOT" in text and "--seed 13" in text
    replace_metrics(path, "| m | 1 |")
    write_card(tmp_path, report, {"seed": 13})
    text = (tmp_path / CARD_NAME).read_text()
    assert f"{METRICS_START}\n| m | 1 |\n{METRICS_END}" in text


DEV_TRIPLES = Path(__file__).parents[2] / "benchmarks" / "data" / "request_triples_dev.jsonl"


def test_training_templates_stay_apart_from_the_dev_triples() -> None:
    rows = [json.loads(line) for line in DEV_TRIPLES.read_text(encoding="utf-8").splitlines()]
    dev_queries = {r["query"].lower() for r in rows}
    dev_answers = {r[k].lower() for r in rows for k in ("faithful", "violating", "off_topic")}
    pairs = template_pairs(Mix(), random.Random(13))
    assert {p.source for p in pairs} >= {"plain", "excl-ok", "fact-right", "advice-wrong"}
    assert not {p.query.lower() for p in pairs} & dev_queries
    assert not {p.content.lower() for p in pairs} & dev_answers

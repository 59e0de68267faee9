"""The scoring YAML and the environment settings: loading, overlays, validation messages."""

from __future__ import annotations

import textwrap

import pytest
import yaml

from scoregate.config.scoring_yaml import default_scoring_yaml, load_scoring_config
from scoregate.config.settings import Settings
from scoregate.config.tracks import FACTORS, HEURISTIC_RULES, TRACKS

CFG = load_scoring_config()


def overlay(tmp_path, text: str):
    path = tmp_path / "scoring.yaml"
    path.write_text(text)
    return path


# Seed 003, "src/qnwis/config/confidence.yml", exactly as printed.
SEED_003_CONFIDENCE_YML = """\
weights:
  citation: 0.25
  numbers: 0.40
  cross: 0.10
  privacy: 0.10
  freshness: 0.15

penalties:
  math_fail: 15
  l2_per_item: 3
  redaction_per_item: 1
  freshness_per_10h: 2

thresholds:
  GREEN: 90
  AMBER: 75
  RED: 0

guards:
  min_score_on_insufficient: 60
  min_support_numbers: 3
  min_support_claims: 3
  max_reason_count: 8

caps:
  penalty_fraction: 0.5

stability:
  enable_band_hysteresis: true
  hysteresis_tolerance: 4

integration:
  include_in_failures: true
"""


def _overlay(tmp_path, text: str):
    path = tmp_path / "scoring.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _under(section: str, body: str) -> str:
    return f"{section}:\n" + textwrap.indent(body, "  ")


def test_default_config_loads_with_every_weight_group_summing_to_one():
    cfg = load_scoring_config()
    assert set(cfg.heuristics.presets) >= {"analysis", "research", "creative", "code"}
    for weights in cfg.heuristics.presets.values():
        assert set(weights) <= set(FACTORS)
        assert sum(weights.values()) == pytest.approx(1.0)
    for weights in cfg.fusion.profiles.values():
        assert set(weights) <= set(TRACKS)
        assert sum(weights.values()) == pytest.approx(1.0)
    assert sum(cfg.evidence.weights.model_dump().values()) == pytest.approx(1.0)


def test_default_config_gives_every_heuristic_rule_and_factor_suggestion():
    cfg = load_scoring_config()
    assert set(cfg.heuristics.rules) == set(HEURISTIC_RULES)
    assert set(cfg.heuristics.suggestions) == set(FACTORS)
    assert all(text.strip() for text in cfg.heuristics.suggestions.values())


def test_seed_003_confidence_yml_is_a_valid_evidence_overlay(tmp_path):
    path = _overlay(tmp_path, _under("evidence", SEED_003_CONFIDENCE_YML))
    cfg = load_scoring_config(path)
    seed = yaml.safe_load(SEED_003_CONFIDENCE_YML)
    ev = cfg.evidence
    assert ev.weights.model_dump() == seed["weights"]
    assert ev.penalties.math_fail == 15 and ev.penalties.freshness_per_10h == 2
    assert ev.thresholds.model_dump() == seed["thresholds"]
    assert ev.guards.min_score_on_insufficient == 60 and ev.guards.max_reason_count == 8
    assert ev.caps.penalty_fraction == 0.5
    assert ev.stability.enable_band_hysteresis is True
    assert ev.stability.hysteresis_tolerance == 4


def test_overlay_changes_only_what_it_names(tmp_path):
    path = _overlay(tmp_path, "reward:\n  regex_timeout_s: 1.5\n")
    cfg = load_scoring_config(path)
    assert cfg.reward.regex_timeout_s == 1.5
    assert cfg.reward.hard_fail_cap == load_scoring_config().reward.hard_fail_cap


@pytest.mark.parametrize(
    ("overlay", "group", "total"),
    [
        (
            "fusion:\n  profiles:\n    strict: {semantic: 0.5, precision: 0.4}\n",
            "fusion.profiles.strict",
            "0.9",
        ),
        (
            "heuristics:\n  presets:\n    legal: {reasoning: 0.5, sources: 0.4}\n",
            "heuristics.presets.legal",
            "0.9",
        ),
        (
            # The seed's own example: "Weights must sum to 1.0 (got 0.95)".
            "evidence:\n  weights: {citation: 0.25, numbers: 0.40, cross: 0.10,"
            " privacy: 0.10, freshness: 0.10}\n",
            "evidence.weights",
            "0.95",
        ),
    ],
)
def test_weight_group_not_summing_to_one_names_the_group_and_the_sum(
    tmp_path, overlay, group, total
):
    path = _overlay(tmp_path, overlay)
    with pytest.raises(ValueError, match=rf"{group} must sum to 1\.0 \(got {total}\)"):
        load_scoring_config(path)


def test_partial_heuristic_rules_overlay_names_the_missing_rules(tmp_path):
    path = _overlay(tmp_path, "heuristics:\n  rules: {reasoning_baseline: 0.6}\n")
    with pytest.raises(ValueError, match="missing: .*reasoning_step_by_step"):
        load_scoring_config(path)


def test_heuristic_rule_with_a_typo_is_refused(tmp_path):
    rules = dict(load_scoring_config().heuristics.rules)
    rules["reasoning_step_by_stpe"] = rules.pop("reasoning_step_by_step")
    path = _overlay(tmp_path, yaml.safe_dump({"heuristics": {"rules": rules}}))
    with pytest.raises(ValueError, match="unknown: .*reasoning_step_by_stpe"):
        load_scoring_config(path)


def test_negative_heuristic_rule_is_refused(tmp_path):
    rules = dict(load_scoring_config().heuristics.rules, sources_per_citation=-0.05)
    path = _overlay(tmp_path, yaml.safe_dump({"heuristics": {"rules": rules}}))
    with pytest.raises(ValueError, match="sources_per_citation must be a finite number >= 0"):
        load_scoring_config(path)


def test_calibration_bounds_out_of_order_are_refused(tmp_path):
    path = _overlay(tmp_path, "heuristics:\n  calibration: {lower_bound: 0.9, upper_bound: 0.1}\n")
    with pytest.raises(ValueError, match="lower_bound must not exceed upper_bound"):
        load_scoring_config(path)


def test_evidence_thresholds_out_of_order_are_refused(tmp_path):
    path = _overlay(tmp_path, "evidence:\n  thresholds: {GREEN: 70, AMBER: 75, RED: 0}\n")
    with pytest.raises(ValueError, match="GREEN >= AMBER >= RED"):
        load_scoring_config(path)


def test_malformed_yaml_is_a_value_error_naming_the_file(tmp_path):
    path = _overlay(tmp_path, "evidence: [unclosed\n")
    with pytest.raises(ValueError, match="is not valid YAML") as info:
        load_scoring_config(path)
    assert str(path) in str(info.value)


def test_yaml_that_is_not_a_mapping_is_refused(tmp_path):
    path = _overlay(tmp_path, "- just\n- a list\n")
    with pytest.raises(ValueError, match="mapping at the top level"):
        load_scoring_config(path)


def test_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_scoring_config(tmp_path / "nope.yaml")


def test_default_yaml_text_is_packaged():
    assert "heuristics:" in default_scoring_yaml()


def test_allowed_tasks_env_is_split_on_commas(monkeypatch):
    monkeypatch.setenv("SCOREGATE_ALLOWED_TASKS", "a.b,c.d")
    assert Settings().allowed_tasks == ["a.b", "c.d"]


def test_allowed_tasks_env_ignores_blanks_and_spaces(monkeypatch):
    monkeypatch.setenv("SCOREGATE_ALLOWED_TASKS", " a.b , ,c.d,")
    assert Settings().allowed_tasks == ["a.b", "c.d"]


# --- 5. bands and evidence thresholds are validated ---------------------------------------------


def test_bands_that_conflict_with_the_cut_points_are_refused(tmp_path):
    # One threshold model: bands are the action zones; a conflicting band is an error.
    with pytest.raises(ValueError, match=r"bands.GREEN \(0.7\) conflicts with actions.accept"):
        load_scoring_config(overlay(tmp_path, "bands:\n  GREEN: 0.7\n  AMBER: 0.8\n"))
    same = CFG.actions
    cfg = load_scoring_config(
        overlay(tmp_path, f"bands:\n  GREEN: {same.accept}\n  AMBER: {same.review}\n")
    )
    assert cfg.bands.GREEN == same.accept


@pytest.mark.parametrize("value", ["150", "-5"])
def test_evidence_thresholds_are_on_a_0_to_100_scale(tmp_path, value):
    with pytest.raises(ValueError, match="evidence.thresholds.GREEN"):
        load_scoring_config(overlay(tmp_path, f"evidence:\n  thresholds:\n    GREEN: {value}\n"))


def test_evidence_thresholds_out_of_order_name_the_values(tmp_path):
    text = "evidence:\n  thresholds: {GREEN: 70, AMBER: 80, RED: 0}\n"
    with pytest.raises(ValueError, match=r"GREEN 70.*AMBER 80"):
        load_scoring_config(overlay(tmp_path, text))


# --- 6. profiles and presets are replaced whole by an overlay -----------------------------------


def test_an_overlay_profile_replaces_the_default_profile_whole(tmp_path):
    text = "fusion:\n  profiles:\n    default: {semantic: 0.5, precision: 0.5}\n"
    cfg = load_scoring_config(overlay(tmp_path, text))
    assert cfg.fusion.profiles["default"] == {"semantic": 0.5, "precision": 0.5}
    assert cfg.fusion.profiles["admin"] == CFG.fusion.profiles["admin"]  # others kept


def test_an_overlay_preset_replaces_the_default_preset_whole(tmp_path):
    text = "heuristics:\n  presets:\n    analysis: {reasoning: 0.5, sources: 0.5}\n"
    cfg = load_scoring_config(overlay(tmp_path, text))
    assert cfg.heuristics.presets["analysis"] == {"reasoning": 0.5, "sources": 0.5}
    assert cfg.heuristics.presets["code"] == CFG.heuristics.presets["code"]

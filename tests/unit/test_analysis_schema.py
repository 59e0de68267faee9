"""The breakdown's ``analysis`` is a declared object (OpenAPI and docs/json), and results
stored by earlier versions, with fewer or other fields, still read."""

from __future__ import annotations

from typing import Any

from scoregate.schemas.result import RequestAnalysisOut, ScoreResult
from scoregate.scoring.request_analysis import analyze


def result(analysis: Any) -> ScoreResult:
    return ScoreResult.model_validate(
        {
            "score": 0.5,
            "score_100": 50,
            "band": "RED",
            "action": "iterate",
            "calibrated": 0.5,
            "tracks": {},
            "analysis": analysis,
        }
    )


def test_what_analysis_reads_fits_the_declared_object_field_for_field():
    read = analyze(
        "Plan a week of dinners for two, no pork, under $80 a week. How long does each take?"
        " I'd rather not use the oven. Give me exactly 7 bullet points."
    ).to_dict()
    out = result(read).model_dump(mode="json")["analysis"]
    assert out == read  # nothing added, nothing lost
    assert out["exclusions"][0]["item"] == "pork"
    assert out["budget"]["amount"] == 80.0
    assert set(read) == set(RequestAnalysisOut.model_fields)  # a new key must be declared


def test_a_result_stored_by_an_earlier_version_still_reads():
    assert result({}).analysis.exclusions == []
    older = result({"core_ask": "x", "exclusions": [{"item": "nuts", "phrase": "no nuts"}]})
    assert older.analysis.budget is None and older.analysis.exclusions[0].phrase == "no nuts"
    later = result({"core_ask": "x", "tone": "formal"})  # a field a later version adds
    assert later.model_dump()["analysis"]["tone"] == "formal"


def test_the_schema_declares_the_fields_a_client_reads():
    schema = ScoreResult.model_json_schema()
    analysis = schema["$defs"]["RequestAnalysisOut"]["properties"]
    for field in ("core_ask", "exclusions", "instructions", "asks", "budget"):
        assert field in analysis, field
    item = schema["$defs"]["ExcludedItem"]
    assert item["required"] == ["item", "phrase"]

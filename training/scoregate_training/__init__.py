"""Training code of the packaged precision cross-encoder (not part of the runtime).

``scoregate models train-precision`` (see :mod:`scoregate_training.cli`) rebuilds
``scoregate/weights/precision-minilm/`` from the packaged MiniLM and the CANNOT negation
data; the training mix is in :mod:`scoregate_training.dataset`. No module of the
``scoregate`` package imports this one: workers load only the shipped weights. Install
its dependencies with ``pip install -e ".[train]"``.
"""

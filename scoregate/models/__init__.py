"""The packaged precision cross-encoder: training data, training and its CLI.

``scoregate models train-precision`` (see :mod:`scoregate.models.cli`) rebuilds
``scoregate/models/precision-minilm/`` from the packaged MiniLM and the CANNOT negation
data; the training mix is in :mod:`scoregate.models.dataset`. Nothing here is imported
when scoring.
"""

"""The shipped scoring models' weights (``precision-minilm/``), loaded by
:mod:`scoregate.scoring.encoders`.

The code that trains them is the separate ``scoregate_training`` package
(``training/scoregate_training``, dependencies in the ``train`` extra); nothing here
imports it.
"""

"""Configuration, in two kinds that never mix.

- :mod:`scoregate.config.settings`: the process settings (``SCOREGATE_*``), for the
  command line, workers, pipelines and storage.
- :mod:`scoregate.config.scoring_yaml` and :mod:`scoregate.config.tracks`: the scoring
  YAML's schema, the only configuration ``scoring/`` reads.
"""

"""The scoregate version, in a leaf module so that any layer may read it."""

__version__ = "0.2.27"

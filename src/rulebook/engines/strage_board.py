"""Kept only for two worked examples in ``rules/strage.yaml`` that import it by this name;
the map lives in :mod:`rulebook.engines.strage.board`. Remove once those doctests import that."""

from .strage.board import *  # noqa: F401,F403
from .strage.board import at, neighbours  # noqa: F401 - the names those examples use

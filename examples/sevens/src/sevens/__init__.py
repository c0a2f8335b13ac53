"""Sevens: the reference engine of its rulebook (engine.py), registered in pyproject.toml."""

"""Mutation fuzzing of everything a contributor or translator hands us (issue 16).

``python -m tests.fuzz --target loader -n 100000`` runs one target on that many inputs and
prints how many were clean, how many were refused with a documented error, and anything else
(an undocumented exception, a traceback on stderr, a hang past 2 s, HTML we never emit). Each
input of the last kind is saved under ``tests/fuzz/regressions/<target>/`` and replayed by
``tests/test_fuzz.py`` forever after. See docs/fuzzing.md.

The inputs are the real files (``rules/*.yaml``, ``locales/**/*.po`` and the templates,
``src/rulebook/engines/**/cards.yaml``, ``locales/glossary.yaml``) and generated structure,
cut, flipped, duplicated, nested and inflated by :mod:`tests.fuzz.mutate`. The same mutators
run in pytest under Hypothesis (derandomised in CI), a hundred inputs per target.
"""

"""What the toolkit needs of a dependency beyond its documented API, one module per dependency.

Each module here says which releases it was written for, and a test of the same name checks every
assumption it makes against the installed release (tests/test_adapter_*.py): a release that
changes one fails that test, naming the assumption, instead of breaking a build somewhere else.
"""

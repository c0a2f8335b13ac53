"""The sample project's words, shipped domains of the toolkit: what ``rulebook new`` writes.

Here, below both their users: :mod:`rulebook.scaffold` renders the sample with them, and
:mod:`.frontend` keeps their catalogs in the toolkit's checkout (the scaffold runs the frontend's
``init``, so the frontend cannot import the scaffold).
"""

from __future__ import annotations

from .domains import SITE, ShippedDomain

#: The sample rulebook's words, a domain shipped with the package like the site's.
SCAFFOLD = ShippedDomain("scaffold", SITE.package / "scaffold")
#: What the sample engine says (its msgids in English), checked as an engine's messages.
SAMPLE_ENGINE = ShippedDomain("scaffold.engine", SCAFFOLD.package)

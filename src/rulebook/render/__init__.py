"""Render: model (+ translations + example outcomes) -> HTML pages, through Jinja2.

Knows nothing of MkDocs; :mod:`rulebook.mkdocs_plugin` publishes what this produces.
"""

from __future__ import annotations

from .figures import board_svg
from .pages import RenderedPage, Site
from .text import text_to_html

__all__ = ["RenderedPage", "Site", "board_svg", "text_to_html"]

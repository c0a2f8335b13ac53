"""rulebook: game rulebooks as data, examples proven by engines, published in many languages.

The pipeline, one module (or package) per stage:

    loader    strict YAML -> typed model (model.py)
    examples  doctests of worked examples run against engines/
    i18n      Babel catalogs -> translated model
    render    Jinja2 -> pages (knows nothing of MkDocs)
    mkdocs_plugin  thin adapter that publishes the pages
"""

__version__ = "0.1.0"

"""The site generator: MkDocs 1.6, or properdocs (its maintained continuation, same API).

The plugin and ``rulebook serve`` take MkDocs' documented plugin API from here, from whichever of
the two runs: the ``mkdocs`` package when it can be imported (under the ``properdocs`` command it
is properdocs itself, which aliases ``mkdocs.*`` to its own modules), else ``properdocs``, so the
package imports with either installed. Both find the plugin through the ``mkdocs.plugins`` entry
point (properdocs reads it beside its own ``properdocs.plugins``, where we register it too).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

try:
    import mkdocs as _generator
except ModuleNotFoundError:
    import properdocs as _generator  # type: ignore[no-redef]  # the same API, when mkdocs is not installed

__all__ = [
    "NAME", "module", "plugin_logger_name", "as_its_command",
    "BasePlugin", "event_priority", "PluginError", "Abort", "File", "Files", "InclusionLevel", "Navigation", "Page",
    "get_toc", "base", "config_options", "Config", "load_config",
]

#: "mkdocs" or "properdocs": the package the build runs in (its loggers, its modules).
NAME: str = _generator.__name__


def module(name: str) -> ModuleType:
    """``mkdocs.<name>`` of the running generator (``properdocs.<name>`` under properdocs)."""
    return importlib.import_module(f"{NAME}.{name}")


if TYPE_CHECKING:
    # The type checker reads MkDocs' own annotations (properdocs keeps the same API, module for
    # module); at run time the names come from whichever generator is installed, below.
    # LiveReloadServer, TemplateContext and TocToken name types for annotations only.
    from mkdocs.config import base, config_options, load_config
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.exceptions import Abort, PluginError
    from mkdocs.livereload import LiveReloadServer  # noqa: TC004 - in __all__ for the checker only (the += below)
    from mkdocs.plugins import BasePlugin, event_priority
    from mkdocs.structure.files import File, Files, InclusionLevel
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page
    from mkdocs.structure.toc import _TocToken, get_toc
    from mkdocs.utils.templates import TemplateContext  # noqa: TC004 - in __all__ for the checker only (the += below)

    Config = MkDocsConfig
    __all__ += ["LiveReloadServer", "TemplateContext", "TocToken"]
    TocToken = _TocToken  # the shape of get_toc's tokens
else:
    _plugins, _exceptions, _files = module("plugins"), module("exceptions"), module("structure.files")
    _config = module("config")

    BasePlugin = _plugins.BasePlugin
    event_priority = _plugins.event_priority
    PluginError = _exceptions.PluginError
    Abort = _exceptions.Abort
    File, Files, InclusionLevel = _files.File, _files.Files, _files.InclusionLevel
    Navigation = module("structure.nav").Navigation
    Page = module("structure.pages").Page
    # page.toc is documented (themes: an iterable of AnchorLink); this makes one from (level, id, name) tokens.
    get_toc = module("structure.toc").get_toc
    base = module("config.base")
    config_options = module("config.config_options")
    Config = module("config.defaults").MkDocsConfig
    load_config = _config.load_config


def plugin_logger_name(plugin: str) -> str:
    """The logger a plugin's messages go to: under the running generator's, as its command shows them."""
    return f"{NAME}.plugins.{plugin}"


def as_its_command() -> None:
    """Set this process up as the generator's own command does, before it loads a configuration.

    properdocs' command first aliases ``mkdocs.*`` to its own modules (``properdocs.replacement``),
    which Material's plugins import; ``rulebook serve``, and a script building through the Python
    API, must do the same. MkDocs needs nothing."""
    if NAME == "properdocs":
        importlib.import_module("properdocs.replacement")

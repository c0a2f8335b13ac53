"""docs/new-language.md, done as it says, in a copy of this repository, for a language we do not
publish yet: every catalog `rulebook i18n init` makes, the glossary's terms and the card names,
translated by a machine's stand-in (each word written backwards: symbols, cross-references,
numbers, placeholders and markup kept, the official terms the glossary asks for added). Then
the checks the guide names pass: `rulebook i18n check`, `rulebook check`, a strict build of the
guide's preview (`rulebook serve -l LANG`'s configuration), and the tests that hold every
language of the site to its glossary terms, card names and sample words.

The copy runs its own sources (PYTHONPATH), so its catalogs are written where the guide says
they are in this repository: the toolkit's shipped domains under src/rulebook/.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po, write_po

from rulebook.engines.casting.cards import names_in
from rulebook.i18n.glossary import load_glossary
from rulebook.loader import load_library, rulebook_paths

from .conftest import REPO, site_languages, unpublished_language

pytestmark = pytest.mark.slow

NEW = unpublished_language()
GUIDE = REPO / "docs" / "new-language.md"
_KEEP = re.compile(r"(\{[^{}]*\}|\[\[.*?\]\]|`[^`]*`|https?://\S+|<[^>]*>)|([^\W\d_]+)")


def stand_in(text: str) -> str:
    """A machine's stand-in translation: each word backwards, everything else as it was."""
    return _KEEP.sub(lambda m: m.group(1) or m.group(2)[::-1], text)


def _copy(destination: Path) -> Path:
    ignored = shutil.ignore_patterns(".git", ".venv*", "site", "build", ".cache", "__pycache__", "*.egg-info", ".pytest_cache",
                                     "node_modules", "*.mo")
    shutil.copytree(REPO, destination, ignore=ignored)
    return destination


def _run(copy: Path, *command: str, python: tuple[str, ...] = ("-m", "rulebook.cli")) -> str:
    env = {**os.environ, "PYTHONPATH": str(copy / "src")}
    env.pop("CI", None)
    done = subprocess.run([sys.executable, *python, *command], cwd=copy, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-6000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def _publish(copy: Path) -> None:
    """Step 4: the language added to the `languages:` list of the rulebook plugin."""
    config = copy / "mkdocs.yml"
    text, found = re.subn(r"(\n\s+languages: \[)([^\]]*)\]", rf"\1\2, {NEW}]", config.read_text(encoding="utf-8"), count=1)
    assert found == 1, "mkdocs.yml: the languages line"
    config.write_text(text, encoding="utf-8")


def _card_names(copy: Path) -> None:
    """Each card's name in the new language, read (here: made up) from a printing, as cards.yaml asks."""
    path = copy / "src" / "rulebook" / "engines" / "casting" / "data" / "cards.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if m := re.fullmatch(r"(\s+)(names|sources): (\{.*\})", line):
            indent, field, values = m.group(1), m.group(2), yaml.safe_load(m.group(3))
            values[NEW] = stand_in(values["en"]) if field == "names" else values["en"]
            lines[i] = f"{indent}{field}: {{{', '.join(f'{k}: {json.dumps(v, ensure_ascii=False)}' for k, v in values.items())}}}"
    path.write_text("\n".join(lines), encoding="utf-8")


def _glossary_terms(copy: Path) -> None:
    """Each term of locales/glossary.yaml in the new language (a form made from the English one)."""
    path = copy / "locales" / "glossary.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    out, english, in_terms = [], "", False
    for line in lines:
        out.append(line)
        in_terms = in_terms or line == "terms:"
        if not in_terms:
            continue
        if m := re.fullmatch(r"    en: \[?([^,\]]+).*", line):
            english = m.group(1).strip().rstrip("*")
        elif line.startswith("    ru: "):
            out.append(f"    {NEW}: [{stand_in(english)}]")
    path.write_text("\n".join(out), encoding="utf-8")


def _translate(copy: Path) -> int:
    """Every message of every catalog of the new language, by the stand-in; a book's texts also
    name the official terms the glossary asks for. Returns how many messages."""
    books = load_library(rulebook_paths(copy / "rules"))
    glossary = load_glossary(copy / "locales", lambda: names_in(copy / "src" / "rulebook" / "engines" / "casting" / "data" / "cards.yaml"), source="it")
    count = 0
    for path in sorted(copy.glob(f"**/{NEW}/LC_MESSAGES/*.po")):
        with path.open("rb") as f:
            catalog = read_po(f)
        book = books.get(path.stem)
        terms = glossary.for_book(book.id) if book else None
        for message in catalog:
            if not message.id:
                continue
            ids = [message.id] if isinstance(message.id, str) else list(message.id)
            strings = [stand_in(ids[min(n, len(ids) - 1)]) for n in range(1 if isinstance(message.id, str) else catalog.num_plurals)]
            if terms is not None:
                needed = " ".join(term.shown(NEW) for term in terms.required(ids[0], NEW))
                strings = [f"{s} {needed}".rstrip() for s in strings]
            message.string = strings[0] if isinstance(message.id, str) else tuple(strings)
            message.flags.discard("fuzzy")
            if strings[0] == ids[0]:
                # Nothing to translate (a placeholder, a letter): the guide's ignore-same comment.
                message.user_comments.append("ignore-same: nothing to translate (a stand-in translation)")
            count += 1
        with path.open("wb") as f:
            write_po(f, catalog)
    return count


def test_a_new_language_added_as_the_guide_says_passes_every_check(tmp_path: Path) -> None:
    assert NEW not in site_languages()
    copy = _copy(tmp_path / "repo")
    # Step 2: the catalogs, each one the guide names.
    made = sorted(re.findall(r"^created (\S+)$", _run(copy, "i18n", "init", NEW), flags=re.M))
    books = sorted(p.stem for p in (copy / "rules").glob("*.yaml"))
    assert [p for p in made if p.startswith("locales/")] == [f"locales/{NEW}/LC_MESSAGES/{book}.po" for book in books]
    shipped = {Path(p).name for p in made if p.startswith("src/")}
    engines = {p.name for p in (copy / "src" / "rulebook" / "engines").glob("**/locale/engine.*.cfg")}
    assert shipped == {"site.po", "scaffold.po", "scaffold.engine.po", *(name.replace(".cfg", ".po") for name in engines)}, made
    # Steps 3 and 4: translated (the stand-in), the official terms and card names, published.
    assert _translate(copy) > 1000
    _glossary_terms(copy)
    _card_names(copy)
    _translate(copy)  # again, now that the glossary asks for the new language's terms
    _publish(copy)
    # Step 4's checks, step 5's update and step 6's tests of every language's completeness.
    assert "rulebook i18n check: 0 problems" in _run(copy, "i18n", "check")
    assert " 0 failed" in _run(copy, "check")
    _run(copy, "i18n", "update", "--check")
    stats = _run(copy, "i18n", "stats", "-l", NEW, "--fail-under", "100")
    assert f" {NEW} " in stats
    _run(copy, "-p", "no:cacheprovider", "-q", "-n", "0", "tests/test_i18n_glossary.py", "tests/test_engine_casting.py",
         "-k", "every_term_has_a_form or official_name or samples_template",
         "tests/test_scaffold.py", python=("-m", "pytest"))
    # The guide's preview, `rulebook serve -l NEW`: its configuration, built strict.
    _run(copy, "-c", "from pathlib import Path; from mkdocs.commands.build import build; from rulebook.preview import preview_config; "
                     f"build(preview_config(Path('mkdocs.yml'), ['{NEW}'], strict=True, site_dir='site'))", python=())
    home = (copy / "site" / NEW / "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{NEW}"' in home and "rb-untranslated" not in home
    # The guide names all that work.
    guide = GUIDE.read_text(encoding="utf-8")
    assert f"creates {len(made)} catalogs" in guide, f"the guide should count the {len(made)} catalogs init makes"
    for named in ("engine.", "scaffold.po", "scaffold.engine.po", "cards.yaml", "glossary.yaml"):
        assert named in guide, f"the guide does not name {named}"

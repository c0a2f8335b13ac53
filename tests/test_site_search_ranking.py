"""The site's real search on the repository's own books: the word typed ranks first, every result highlights.

Each language's index is built from rules/ and locales/ as the site publishes it, and searched by
the search that runs in a reader's browser (Material's search worker inside ours, lunr and the
language's stemmer from Material's package), run in Node by ``tests/js/search.js``. For short words
that start longer words of the books (French "dé", the die, starts "départ" and "décision";
Spanish "mano", hand, stems to "man", which starts "maneras" and "mando"), every result that
holds the word itself, as the index stems it, must rank above every result that holds only a
longer word; and every result, a page's own entry included, must carry words to highlight
(its link's ``?h=``).
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

from rulebook.adapters import generator
from rulebook.render.search import escaped_separator

REPO = Path(__file__).resolve().parents[1]
NODE = shutil.which("node") or shutil.which("nodejs")
MATERIAL = Path(str(importlib.import_module("material").__file__)).parent / "templates"  # mkdocs-material's theme
THEME = REPO / "src" / "rulebook" / "theme"

#: Short words of each language that start longer words of the books (the issue's among them).
QUERIES = {
    "it": ["mano", "mazzo", "costo", "gioco", "re", "casa", "tre"],
    "en": ["hand", "play", "win", "set"],
    "fr": ["dé", "tour", "main", "vie", "jeu"],
    "es": ["mano", "fin"],
    "pt": ["carta", "mesa", "jogo", "vida"],
    "ru": ["цена", "игра"],
}

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (.ci/run installs npm, and Node.js with it)")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("site")
    config = generator.load_config(str(REPO / "mkdocs.yml"), site_dir=str(folder), strict=True)
    generator.module("commands.build").build(config)
    return folder


def search(index: Path, queries: list[str]) -> list[dict[str, Any]]:
    request = {"theme": str(THEME), "material": str(MATERIAL), "index": str(index), "queries": queries}
    done = subprocess.run([str(NODE), str(REPO / "tests" / "js" / "search.js")], input=json.dumps(request),
                          capture_output=True, text=True, encoding="utf-8", timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    answers: list[dict[str, Any]] = json.loads(done.stdout)
    return answers


@pytest.mark.parametrize("language", list(QUERIES))
def test_the_word_typed_ranks_above_words_it_only_starts_and_every_result_highlights(site: Path, language: str) -> None:
    prefix = "" if language == "it" else f"{language}/"
    for answer in search(site / prefix / "search" / "search_index.json", QUERIES[language]):
        query, stem = answer["query"], answer["stem"]
        items = [item for group in answer["groups"] for item in group]
        exact = [item for item in items if stem in item["matched"]]
        longer = [item for item in items if item["matched"] and stem not in item["matched"]]
        # The word is in the books, and so are longer words it starts: the ranking is put to the test.
        assert exact and longer, (language, query, stem, len(exact), len(longer))
        worst = min(exact, key=lambda item: item["score"])
        best = max(longer, key=lambda item: item["score"])
        assert worst["score"] > best["score"], (language, query, worst["location"], worst["matched"], best["location"], best["matched"])
        # Material's ordering follows the scores: the first page listed holds the word itself.
        assert stem in max(answer["groups"][0], key=lambda item: item["score"])["matched"], (language, query)
        unmarked = [item["location"] for item in items if not any(item["terms"].values())]
        assert not unmarked, (language, query, unmarked)


@pytest.mark.parametrize("configured", [r"[\s\-]+", None])  # Material's default separator, and the site's
def test_every_escape_markupsafe_writes_ends_a_word_whatever_the_configured_separator(site: Path, configured: str | None) -> None:
    index = json.loads((site / "fr" / "search" / "search_index.json").read_text(encoding="utf-8"))
    separator = escaped_separator(configured) if configured else index["config"]["separator"]
    escaped = str(escape("l'arène \"x\" R&D <b> a>b"))
    assert "&#39;" in escaped and "&#34;" in escaped
    # The separator is JavaScript's (lunr's); these constructs read the same in Python's re.
    words = [word for word in re.split(separator, escaped) if word]
    assert words == ["l", "arène", "x", "R", "D", "b", "a", "b"], words


def test_french_words_after_an_elided_article_are_found_in_an_index_escaped_by_markupsafe(site: Path) -> None:
    """markupsafe writes the apostrophe of "l'emporte" as ``&#39;``; the index's separator splits
    there, and the search script splits a typed "l'emporte" (or "d’origine") the same way."""
    path = site / "fr" / "search" / "search_index.json"
    text = path.read_text(encoding="utf-8")
    assert "l&#39;emporte" in text and "l'emporte" not in text
    for answer in search(path, ["emporte", "l'emporte", "origine", "d'origine", "d’origine"]):
        found = [item for group in answer["groups"] for item in group if item["matched"]]
        word = answer["query"].replace("’", "'").split("'")[-1]
        stem = {"emporte": "emport", "origine": "origin"}[word]
        assert found and all(stem in item["matched"] for item in found), (answer["query"], [i["matched"] for i in found][:3])

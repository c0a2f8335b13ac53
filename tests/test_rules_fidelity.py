"""No sentence of a source text survives in a rulebook (issue 14.1).

Every reader-facing field of every book under ``rules/`` (the fields the model marks
translatable: titles, summaries, intros, rule texts, example titles and texts, rulings and their
reasons) is compared with the Italian seed texts the books were written from. Any run of
``RUN`` or more consecutive words that also occurs in a seed is a copied passage and fails the
test; the books must say the same facts in their own words.

"Symbols, card names and numbers aside" means these tokens are invisible to the comparison:
they neither count towards the ``RUN`` words nor break a run. So a sentence copied with its
numbers written differently ("5 carte" / "cinque carte"), a symbol added, or a card name
translated is still found, while a passage that shares only a long card name ("Thalia,
Protettrice di Thraben") and a few words is not flagged. Both sides are normalised alike:
lower case, punctuation and markup dropped (an apostrophe separates words: "dell'Area" is
"dell area"), ``{…}`` symbols and ``[[…]]`` links removed, the seeds' lost mana images
(``Mana2.gifManaw.gif``) removed, every word holding a digit dropped, Italian number words
dropped, and every card name of the card data in any language (with a plural ending) dropped
from the books the glossary binds card names to (``card_books``). The articles "un" and "una"
stay words. A failure quotes each passage as the book writes it, at its YAML line.

The seeds live outside the repository, in ``shared/seeds`` next to it (``<repo>/../shared/seeds``;
a git worktree sits one folder deeper, so the nearest such folder above the repository is used).
Where there is none the comparison with the seeds is skipped, saying so; the tests of the
comparison itself always run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulebook.i18n.glossary import load_glossary
from rulebook.loader import load_library, rulebook_paths
from rulebook.model import XREF_RE, Book, translatable_fields, walk
from rulebook.project import read_project
from rulebook.symbols import TOKEN_RE

REPO = Path(__file__).resolve().parent.parent
#: The shortest shared run of words that counts as a copied passage.
RUN = 8

_WORD_RE = re.compile(r"[^\W_]+")
_LOST_IMAGE_RE = re.compile(r"\S*\.gif\S*")  # the seeds' mana symbols, lost as image names
_UNITS = "uno due tre tré quattro cinque sei sette otto nove".split()
_TENS = "venti trenta quaranta cinquanta sessanta settanta ottanta novanta".split()
NUMBER_WORDS = frozenset(
    "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici quattordici "
    "quindici sedici diciassette diciotto diciannove cento mille".split()
    + _TENS
    + [(tens[:-1] if unit in ("uno", "otto") else tens) + unit for tens in _TENS for unit in _UNITS]
)


def seeds_folder() -> Path | None:
    """The nearest ``shared/seeds`` folder above the repository, or None."""
    for folder in REPO.parents:
        if (folder / "shared" / "seeds").is_dir():
            return folder / "shared" / "seeds"
    return None


def _plain_words(text: str) -> list[str]:
    return [m.group(0).lower() for m in _WORD_RE.finditer(text)]


def card_names(book_id: str) -> frozenset[tuple[str, ...]]:
    """The card names binding one book, in every language, as words (singular and plural).

    The glossary says which books the card data binds: "Fulmine" is a Magic card in the
    casting book but a spell of the Strage book, whose words count.
    """
    names: set[tuple[str, ...]] = set()
    source = read_project(REPO / "mkdocs.yml").languages.source.code  # the books' language
    for term in load_glossary(REPO / "locales", source=source).for_book(book_id).terms:
        if not term.card:
            continue
        for forms in term.forms.values():
            for form in forms:
                words = _plain_words(form)
                if not words:
                    continue
                names.add(tuple(words))
                *head, last = words
                # Italian plurals change the final vowel (Palude -> Paludi), others add -s/-es.
                stem = last[:-1] if last[-1] in "aeio" else last
                names.update(tuple(head) + (stem + end,) for end in ("a", "e", "i", "o", "s", "es"))
    return frozenset(names)


@dataclass(frozen=True)
class Word:
    text: str  # normalised
    start: int  # offset in the original text
    end: int


def words(text: str, names: frozenset[tuple[str, ...]]) -> list[Word]:
    """The words that count, with their offsets: symbols, links, numbers and card names dropped."""
    blanked = text
    for pattern in (TOKEN_RE, XREF_RE, _LOST_IMAGE_RE):
        # Blank with spaces of the same length, so offsets still point into ``text``.
        blanked = pattern.sub(lambda m: " " * len(m.group(0)), blanked)
    found = [
        Word(m.group(0).lower(), m.start(), m.end())
        for m in _WORD_RE.finditer(blanked)
        if not any(c.isdigit() for c in m.group(0)) and m.group(0).lower() not in NUMBER_WORDS
    ]
    longest = max((len(n) for n in names), default=0)
    kept: list[Word] = []
    index = 0
    while index < len(found):
        size = next(
            (n for n in range(min(longest, len(found) - index), 0, -1)
             if tuple(w.text for w in found[index:index + n]) in names),
            0,
        )
        if size:
            index += size
        else:
            kept.append(found[index])
            index += 1
    return kept


def seed_runs(seeds: dict[str, str], names: frozenset[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """Every run of ``RUN`` words of the seeds -> the first seed file holding it."""
    runs: dict[tuple[str, ...], str] = {}
    for name, text in sorted(seeds.items()):
        seq = [w.text for w in words(text, names)]
        for index in range(len(seq) - RUN + 1):
            runs.setdefault(tuple(seq[index:index + RUN]), name)
    return runs


@dataclass(frozen=True)
class Passage:
    """A stretch of one text field that repeats a seed."""

    words: tuple[str, ...]  # the shared words, normalised
    start: int  # offsets in the field's text
    end: int
    seed: str


def shared_passages(text: str, runs: dict[tuple[str, ...], str], names: frozenset[tuple[str, ...]]) -> list[Passage]:
    """The maximal stretches of ``text`` covered by runs of ``RUN`` words that a seed holds."""
    seq = words(text, names)
    covered_by: list[str | None] = [None] * len(seq)
    for index in range(len(seq) - RUN + 1):
        seed = runs.get(tuple(w.text for w in seq[index:index + RUN]))
        if seed is not None:
            for inside in range(index, index + RUN):
                covered_by[inside] = covered_by[inside] or seed
    passages: list[Passage] = []
    index = 0
    while index < len(seq):
        if covered_by[index] is None:
            index += 1
            continue
        end = index
        while end < len(seq) and covered_by[end] is not None:
            end += 1
        shared = tuple(w.text for w in seq[index:end])
        passages.append(Passage(shared, seq[index].start, seq[end - 1].end, covered_by[index]))
        index = end
    return passages


def copied_passages(books: dict[str, Book], seeds: dict[str, str]) -> list[str]:
    """``rules/FILE.yaml:LINE: "passage as written" (seed FILE)`` for every copied passage."""
    found: list[str] = []
    for book in books.values():
        names = card_names(book.id)
        runs = seed_runs(seeds, names)
        shown = f"rules/{Path(book.path).name}"
        for _, node in walk(book):
            for field_name, text in translatable_fields(node):
                first_line = node.lines.get(field_name, node.line)
                for passage in shared_passages(text, runs, names):
                    # Block scalars keep their newlines, so the offset gives the exact line.
                    line = first_line + text.count("\n", 0, passage.start)
                    written = " ".join(text[passage.start:passage.end].split())
                    found.append(f'{shown}:{line}: "{written}" (seed {passage.seed})')
    return found


def read_seeds(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.txt"))}


# --- the rulebooks against the seeds ------------------------------------------------------------


def test_no_seed_sentence_survives_in_a_rulebook():
    folder = seeds_folder()
    if folder is None:
        pytest.skip(f"no shared/seeds folder above {REPO}: the source texts are not here to compare with")
    seeds = read_seeds(folder)
    assert seeds, f"{folder} holds no seed text (*.txt)"
    copied = copied_passages(load_library(rulebook_paths(REPO / "rules")), seeds)
    assert not copied, (
        f"{len(copied)} passage(s) repeat {RUN} or more consecutive words of a source text; "
        "say it in our own words:\n" + "\n".join(copied)
    )


#: A quotation inside a ruling's ``departs``: «…», “…” or "…".
_QUOTE_RE = re.compile(r"«([^»]*)»|“([^”]*)”|\"([^\"]*)\"")


def misquoted_departures(books: dict[str, Book], seeds: dict[str, str]) -> list[str]:
    """The quotes in rulings' ``departs`` (issue 14.4) that no source text holds word for word.

    A departure names the passage it leaves; a quote that is not the source's own words points
    a reader nowhere. Case, punctuation and apostrophes aside, as in the copy comparison.
    """
    sources = [f" {' '.join(_plain_words(text))} " for text in seeds.values()]
    found = []
    for book in books.values():
        for ruling in (r for rule in book.rules() for r in rule.rulings if r.departs):
            for match in _QUOTE_RE.finditer(ruling.departs):
                quoted = " ".join(_plain_words(next(g for g in match.groups() if g is not None)))
                if not any(f" {quoted} " in source for source in sources):
                    where = f"rules/{Path(book.path).name}:{ruling.lines.get('departs', ruling.line)}"
                    found.append(f"{where}: departs of ruling {ruling.id!r} quotes «{quoted}», which no source text says")
    return found


def test_a_departure_quotes_the_source_word_for_word():
    folder = seeds_folder()
    if folder is None:
        pytest.skip(f"no shared/seeds folder above {REPO}: the source texts are not here to compare with")
    books = load_library(rulebook_paths(REPO / "rules"))
    assert any(r.departs for book in books.values() for rule in book.rules() for r in rule.rulings)
    wrong = misquoted_departures(books, read_seeds(folder))
    assert not wrong, "quote the source exactly, or name its section instead:\n" + "\n".join(wrong)


# --- the comparison itself (no seeds needed) ----------------------------------------------------

SEED = {
    "seed.txt": (
        "Il giocatore che ha posizionato una terra passa automaticamente il turno all'avversario. "
        "Prima della partita ciascun giocatore pesca quattro carte. "
        "Thalia, Guardian of Thraben è un esempio di costo addizionale per ogni magia. "
        "Poi ogni giocatore pesca cinque carte dal mazzo e tira un dado per stabilire chi inizia."
    )
}


def _flag(text: str) -> list[Passage]:
    names = card_names("casting")
    return shared_passages(text, seed_runs(SEED, names), names)


def one_section_book(tmp_path: Path, book_id: str, rules: str) -> Path:
    """A test book whose one section, ``turno``, holds ``rules`` (YAML lines under ``rules:``,
    from line 11 of the file)."""
    book = tmp_path / "rules" / f"{book_id}.yaml"
    book.parent.mkdir()
    book.write_text(
        f"book:\n  id: {book_id}\n  title: Prova\n  summary: Un libro di prova.\n  language: it\n  engine: bingomagic\n"
        "sections:\n  - id: turno\n    title: Il turno\n    rules:\n" + rules,
        encoding="utf-8",
    )
    return book


def test_a_copied_sentence_is_found_with_its_position(tmp_path):
    book = one_section_book(tmp_path, "copia", (
        "      - id: passare\n        text: |\n"
        "          Una frase nostra, poi una copia:\n"
        "          il giocatore che ha posizionato una terra {G} passa\n"
        "          automaticamente il turno.\n"))
    assert copied_passages(load_library([book]), SEED) == [
        'rules/copia.yaml:14: "il giocatore che ha posizionato una terra {G} passa automaticamente il turno" (seed seed.txt)'
    ]


def test_numbers_symbols_links_and_markup_do_not_hide_a_copy():
    text = "Allora ogni **giocatore** pesca 5 carte\ndal {G} mazzo [[scopo]] e tira un dado."
    (passage,) = _flag(text)
    assert passage.words == ("ogni", "giocatore", "pesca", "carte", "dal", "mazzo", "e", "tira", "un", "dado")
    assert text[passage.start:].startswith("ogni")


def test_seven_shared_words_are_a_coincidence():
    assert _flag("Il giocatore che ha posizionato una terra ne pesca un'altra.") == []
    (passage,) = _flag("Il giocatore che ha posizionato una terra passa.")  # the eighth word
    assert len(passage.words) == RUN


def test_numbers_and_card_names_do_not_count():
    # Seven words and a number word: not a copy.
    assert _flag("Prima della partita ciascun giocatore pesca quattro carte") == []
    # A shared card name, in English or Italian, adds nothing to the count ...
    assert _flag("Thalia, Guardian of Thraben è un esempio di costo.") == []
    assert _flag("Thalia, Protettrice di Thraben è un esempio di costo addizionale.") == []
    # ... and, even translated, does not break a copied run either.
    (passage,) = _flag("Della partita ciascun giocatore pesca 4 carte: Thalia, Protettrice di Thraben è un esempio.")
    assert passage.words == ("della", "partita", "ciascun", "giocatore", "pesca", "carte", "è", "un", "esempio")


def test_card_names_are_aside_only_where_the_glossary_binds_them():
    assert ("fulmine",) in card_names("casting") and ("lightning", "bolt") in card_names("casting")
    assert ("paludi",) in card_names("bingomagic")
    assert ("fulmine",) not in card_names("strage")  # Strage's "Fulmine Magico" is its own spell


def test_number_words_cover_the_compounds():
    assert {"ventuno", "ventotto", "ventitré", "sessantaquattro", "quindici"} <= NUMBER_WORDS
    assert "una" not in NUMBER_WORDS and "un" not in NUMBER_WORDS


def test_a_departure_quoting_words_the_source_lacks_is_named(tmp_path):
    book = one_section_book(tmp_path, "parte", (
        "      - id: passare\n        text: Si passa.\n        rulings:\n"
        "          - id: giusta\n            departs: «PASSA automaticamente il turno» (Svolgimento)\n"
        "            text: Una decisione.\n            reason: Un motivo.\n"
        "          - id: sbagliata\n            departs: «passa subito il turno» (Svolgimento)\n"
        "            text: Una decisione.\n            reason: Un motivo.\n"))
    assert misquoted_departures(load_library([book]), SEED) == [
        "rules/parte.yaml:19: departs of ruling 'sbagliata' quotes «passa subito il turno», which no source text says"
    ]

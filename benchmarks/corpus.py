"""A synthetic rulebook corpus for the speed benchmarks: N books x M rules, fully translated.

The books are written in our own YAML format (``docs/format.md``): sections, rules with titles,
texts holding symbols ``{W}``, ``[[cross-references]]`` (within a book and across books),
``**bold**``, ``*italic*``, numbers, list lines and paragraphs, rulings with their reasons, and
worked examples whose doctests run cheaply against the BingoMagic engine. The words are made up
(syllables per language, the same Italian word always becoming the same word of a language), so
the vocabulary, the text lengths and the search index behave like prose without any real text.

Catalogs are made through our own i18n API (``write_templates``, ``new_catalog``, ``serialize``),
so the corpus follows the PO format wherever it goes; each msgstr keeps the msgid's symbols,
references, numbers and markup and changes only its words, so every book is 100% translated and
``rulebook i18n check`` finds nothing. A small glossary binds a few frequent words, so the
glossary check does real work as it does on the Magic books.

``generate(folder, books=5, rules=200)`` writes ``rules/``, ``locales/`` and returns the paths.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rulebook.i18n.catalogs import new_catalog, serialize, write_atomic
from rulebook.i18n.glossary import load_glossary
from rulebook.i18n.parts import part_catalog, write_templates
from rulebook.loader import load_book
from rulebook.model import XREF_RE
from rulebook.project import read_project
from rulebook.symbols import TOKEN_RE

REPO = Path(__file__).resolve().parent.parent
#: The repository site's languages (its mkdocs.yml), the source first: the corpus is in all of them.
SITE_LANGUAGES: tuple[str, ...] = read_project(REPO / "mkdocs.yml").languages.codes
SOURCE_LANGUAGE = SITE_LANGUAGES[0]
LANGUAGES = SITE_LANGUAGES[1:]

#: Bumped whenever the generated text changes, so a kept corpus is regenerated.
VERSION = 3
#: A book of more rules than this files its catalogs per section (``catalogs: sections``): filed
#: whole, its Russian catalog would pass the catalog size limit (about 280 rules).
SPLIT_RULES = 250
ENGINE = "bingomagic"
RULES_PER_SECTION = 20
VOCABULARY = 2500
GLOSSARY_TERMS = 8

# Syllables per language: onsets and nuclei (codas for the languages whose words end in one).
_STYLES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "it": (tuple("bcdfglmnprstvz") + ("gn", "sc", "tr", "pr", "st"), tuple("aeiou") + ("ia", "io", "uo"), ("",)),
    "en": (tuple("bcdfghklmnprstw") + ("th", "sh", "st", "br"), tuple("aeiou") + ("ea", "oo", "ou"), ("", "", "n", "t", "s", "rd")),
    "fr": (tuple("bcdfglmnprstv") + ("ch", "gr", "pl"), ("a", "e", "i", "o", "u", "é", "è", "ou", "ai", "eau"), ("", "", "s", "r", "nt")),
    "es": (tuple("bcdfglmnprstv") + ("ñ", "ll", "ch"), ("a", "e", "i", "o", "u", "á", "é", "ió", "ue"), ("", "", "s", "n", "r")),
    "pt": (tuple("bcdfglmnprstv") + ("lh", "nh", "ç"), ("a", "e", "i", "o", "u", "ã", "é", "õe", "ou"), ("", "", "s", "m", "r")),
    "ru": (tuple("бвгдзклмнпрстфхчш") + ("ст", "пр", "жд"), tuple("аеиоуыяю"), ("", "", "", "й", "т", "н", "ь")),
}
# Symbols a rule may name: mana, tap, the die faces and suits of the other games.
_SYMBOLS = ("{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{1}", "{2}", "{3}", "{X}", "{T}", "{W/U}", "{d6}", "{hearts}")
_LANDS = {"PLAINS": "W", "ISLAND": "U", "SWAMP": "B", "MOUNTAIN": "R", "FOREST": "G"}  # name -> colour letter


def _style_word(rng: random.Random, language: str, syllables: int) -> str:
    onsets, nuclei, codas = _STYLES.get(language, _STYLES["en"])  # a language without a style: plain letters
    return "".join(rng.choice(onsets) + rng.choice(nuclei) for _ in range(syllables)) + rng.choice(codas)


@lru_cache(maxsize=None)
def _vocabulary(seed: int) -> tuple[str, ...]:
    """Italian-looking words, most frequent first; none is a card name the glossary binds."""
    cards = [t for t in load_glossary(Path("/nonexistent"), source=SOURCE_LANGUAGE).terms if t.card]
    rng = random.Random(seed)
    words: dict[str, None] = {}
    while len(words) < VOCABULARY:
        word = _style_word(rng, SOURCE_LANGUAGE, rng.choice((1, 2, 2, 2, 3, 3, 4)))
        if len(word) > 2 and not any(t.found_in(SOURCE_LANGUAGE, word.capitalize(), source=True) for t in cards):
            words[word] = None
    return tuple(words)


@lru_cache(maxsize=None)
def translate_word(word: str, language: str) -> str:
    """The same Italian word is always the same word of a language (so glossary terms hold)."""
    if language == SOURCE_LANGUAGE:
        return word
    rng = random.Random(f"{language}:{word.lower()}")
    made = _style_word(rng, language, max(1, round(len(word) / 2.6)))
    return made.capitalize() if word[:1].isupper() else made


# Only runs of letters outside symbols and cross-references are words; digits, markup
# ("**", "*", "- "), blank lines and punctuation are kept as they are.
_PIECE_RE = re.compile(rf"(?P<keep>{TOKEN_RE.pattern}|{XREF_RE.pattern})|(?P<word>[^\W\d_]+)")


def translate_text(text: str, language: str) -> str:
    """A msgstr for ``text``: its symbols, references, numbers and markup, other words."""
    made = _PIECE_RE.sub(lambda m: m.group(0) if m.group("keep") else translate_word(m.group("word"), language), text)
    # French puts a no-break space before its high punctuation (docs/style/fr.md; the typography check).
    return _HIGH_PUNCTUATION_RE.sub("\u00a0\\1", made) if language.split("_")[0] == "fr" else made


_HIGH_PUNCTUATION_RE = re.compile(r"[ \t]*([:;!?])(?=\s|$)")


# --- the Italian text ------------------------------------------------------------------------


class _Writer:
    """Sentences and texts of made-up words with every kind of markup the format has."""

    def __init__(self, rng: random.Random, words: tuple[str, ...]) -> None:
        self.rng = rng
        self.words = words
        self.weights = [1.0 / (rank + 8) for rank in range(len(words))]  # Zipf-like, as prose

    def _words(self, count: int) -> list[str]:
        return self.rng.choices(self.words, self.weights, k=count)

    def phrase(self, low: int, high: int) -> str:
        return " ".join(self._words(self.rng.randint(low, high)))

    def title(self, symbol: bool = False) -> str:
        text = self.phrase(1, 4).capitalize()
        return f"{text} {self.rng.choice(_SYMBOLS)}" if symbol and self.rng.random() < 0.3 else text

    def sentence(self, refs: list[str]) -> str:
        parts = self._words(self.rng.randint(6, 16))
        extras = []
        roll = self.rng.random()
        if roll < 0.25:
            extras.append(self.rng.choice(_SYMBOLS))
        if self.rng.random() < 0.25:
            extras.append(str(self.rng.choice((2, 3, 5, 7, 12, 20, 60, 100))))
        if self.rng.random() < 0.12:
            extras.append(f"**{' '.join(self._words(2))}**")
        if self.rng.random() < 0.08:
            extras.append(f"*{self._words(1)[0]}*")
        if refs and self.rng.random() < 0.3:
            extras.append(f"[[{self.rng.choice(refs)}]]")
        for extra in extras:
            parts.insert(self.rng.randint(1, len(parts)), extra)
        text = " ".join(parts)
        if self.rng.random() < 0.3:
            cut = self.rng.randint(2, len(parts) - 1)
            text = " ".join(parts[:cut]) + ", " + " ".join(parts[cut:])
        return text[0].upper() + text[1:] + "."

    def paragraph(self, refs: list[str], low: int = 1, high: int = 3) -> str:
        return " ".join(self.sentence(refs) for _ in range(self.rng.randint(low, high)))

    def text(self, refs: list[str], paragraphs: tuple[int, int] = (1, 3), lists: float = 0.3) -> str:
        blocks = [self.paragraph(refs) for _ in range(self.rng.randint(*paragraphs))]
        if self.rng.random() < lists:
            items = [f"- {self.phrase(2, 7)} {self.rng.choice(_SYMBOLS)};" for _ in range(self.rng.randint(2, 5))]
            lead = self.paragraph(refs, 1, 1)[:-1] + ":"
            blocks.insert(self.rng.randint(0, len(blocks)), lead + "\n" + "\n".join(items))
        return "\n\n".join(blocks)


def _doctest(rng: random.Random, number: int) -> str:
    """A cheap, distinct doctest against BingoMagic whose expected output the engine computes."""
    if number % 3 == 0:
        hands = ["".join(rng.choice("WUBRG") for _ in range(5)) for _ in range(2)]
        deck = "".join(rng.choice("WUBRG") for _ in range(5))
        return (
            f'>>> state = BingoState.setup(hands=("{hands[0]}", "{hands[1]}"), deck="{deck}")\n'
            ">>> step = state.apply(Pass())\n"
            ">>> [len(hand) for hand in step.state.hands], step.state.active\n"
            "([5, 6], 1)\n"
        )
    letters = "".join(rng.choice("WUBRG") for _ in range(rng.randint(3, 9)))
    land = rng.choice(tuple(_LANDS))
    # The expected counts are the rules' (12 of each colour in 60; one land per letter), not the engine's.
    return (
        ">>> deck = standard_deck()\n"
        f">>> deck.count({land}), len(deck)\n"
        "(12, 60)\n"
        f'>>> len(lands("{letters}")), lands("{letters}").count({land})\n'
        f"({len(letters)}, {letters.count(_LANDS[land])})\n"
    )


def _block(text: str, indent: int, width: int = 92) -> str:
    """A ``|`` block of a text, its paragraphs wrapped as an author wraps them in YAML."""
    pad = " " * indent
    lines = []
    for line in text.strip("\n").split("\n"):
        if not line or line.startswith("- "):
            lines.append(line)
            continue
        current = ""
        for word in line.split(" "):
            if current and len(current) + 1 + len(word) > width:
                lines.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        lines.append(current)
    return "|\n" + "\n".join(pad + line if line else "" for line in lines) + "\n"


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


@dataclass(frozen=True)
class _Plan:
    book_id: str
    rule_ids: tuple[str, ...]


def _plans(books: int, rules: int, words: tuple[str, ...]) -> list[_Plan]:
    plans = []
    for b in range(books):
        ids = tuple(f"{words[(b * 7919 + r) % len(words)]}-{r + 1}" for r in range(rules))
        plans.append(_Plan(f"synth-{b + 1}", ids))
    return plans


def book_yaml(plan: _Plan, others: list[_Plan], seed: int) -> str:
    """One rulebook in our YAML format, its links pointing into its own and the other books; a
    book of more than SPLIT_RULES rules files its catalogs per section."""
    words = _vocabulary(seed)
    rng = random.Random(f"{seed}:{plan.book_id}")
    writer = _Writer(rng, words)
    out = [
        f"# Synthetic rulebook made by benchmarks/corpus.py (seed {seed}): made-up words, not a game.\n",
        "book:\n",
        f"  id: {plan.book_id}\n",
        f"  title: {_quoted(writer.title() + ' ' + plan.book_id[-1])}\n",
        f"  summary: {_quoted(writer.paragraph([], 1, 1))}\n",
        f"  language: {SOURCE_LANGUAGE}\n",
        f"  engine: {ENGINE}\n",
        *(["  catalogs: sections\n"] if len(plan.rule_ids) > SPLIT_RULES else []),
        "sections:\n",
    ]
    foreign = [f"{o.book_id}:{r}" for o in others for r in o.rule_ids[:20]]
    examples = 0
    for s, start in enumerate(range(0, len(plan.rule_ids), RULES_PER_SECTION), start=1):
        out.append(f"  - id: section-{s}\n    title: {_quoted(writer.title())}\n")
        if rng.random() < 0.4:
            out.append(f"    intro: {_block(writer.paragraph([], 1, 2), 6)}")
        out.append("    rules:\n")
        for rule_id in plan.rule_ids[start : start + RULES_PER_SECTION]:
            refs = [r for r in rng.sample(plan.rule_ids, min(3, len(plan.rule_ids))) if r != rule_id]
            if foreign and rng.random() < 0.15:
                refs.append(rng.choice(foreign))
            out.append(f"      - id: {rule_id}\n        title: {_quoted(writer.title(symbol=True))}\n")
            out.append(f"        text: {_block(writer.text(refs), 10)}")
            first = rule_id == plan.rule_ids[start]  # so even a tiny corpus has examples and rulings
            count = max(first, rng.choice((0, 1, 1, 1, 2)))  # about one each, as in our five books
            if count:
                out.append("        examples:\n")
            for e in range(count):
                examples += 1
                out.append(f"          - id: {rule_id}-e{e + 1}\n")
                if rng.random() < 0.5:
                    out.append(f"            title: {_quoted(writer.title())}\n")
                out.append(f"            text: {_block(writer.paragraph(refs, 1, 2), 14)}")
                out.append(f"            doctest: {_block(_doctest(rng, examples), 14, width=10_000)}")
            count = max(first, rng.choice((0, 1, 1, 1, 2)))
            if count:
                out.append("        rulings:\n")
            for d in range(count):
                out.append(f"          - id: {rule_id}-d{d + 1}\n")
                out.append(f"            text: {_block(writer.paragraph(refs, 1, 2), 14)}")
                out.append(f"            reason: {_block(writer.paragraph([], 1, 3), 14)}")
    return "".join(out)


def glossary_yaml(seed: int, book_ids: list[str]) -> str:
    """Frequent words as official terms, bound to the synthetic books (as Magic's bind its books)."""
    words = _vocabulary(seed)
    lines = [
        "# Generated by benchmarks/corpus.py: frequent made-up words as official terms.\n",
        f"card_books: [{', '.join(book_ids)}]\n",
        "terms:\n",
    ]
    for word in words[3 : 3 + GLOSSARY_TERMS]:
        lines.append(f"  - {SOURCE_LANGUAGE}: {word}\n    books: [{', '.join(book_ids)}]\n")
        lines.extend(f"    {language}: {translate_word(word, language)}\n" for language in LANGUAGES)
    return "".join(lines)


@dataclass(frozen=True)
class Corpus:
    root: Path
    rules: Path  # folder of the YAML rulebooks
    locales: Path  # templates, catalogs and glossary
    books: int
    rules_per_book: int


def generate(folder: Path, books: int = 5, rules: int = 200, seed: int = 15) -> Corpus:
    """Write the rulebooks and every language's catalogs under ``folder`` (kept if up to date)."""
    folder = Path(folder)
    stamp = folder / "corpus.json"
    wanted = {"version": VERSION, "books": books, "rules": rules, "seed": seed, "languages": list(LANGUAGES)}
    corpus = Corpus(folder, folder / "rules", folder / "locales", books, rules)
    if stamp.exists() and json.loads(stamp.read_text(encoding="utf-8")) == wanted:
        return corpus
    plans = _plans(books, rules, _vocabulary(seed))
    corpus.rules.mkdir(parents=True, exist_ok=True)
    corpus.locales.mkdir(parents=True, exist_ok=True)
    for plan in plans:
        text = book_yaml(plan, [p for p in plans if p is not plan], seed)
        (corpus.rules / f"{plan.book_id}.yaml").write_text(text, encoding="utf-8")
    (corpus.locales / "glossary.yaml").write_text(glossary_yaml(seed, [p.book_id for p in plans]), encoding="utf-8")
    for plan in plans:
        book = load_book(corpus.rules / f"{plan.book_id}.yaml")
        for part, template in write_templates(book, corpus.locales).parts.items():  # one, or one per section
            for language in LANGUAGES:
                catalog = new_catalog(template, language, plan.book_id)
                for message in catalog:
                    if message.id:
                        message.string = translate_text(message.id, language)
                write_atomic(part_catalog(corpus.locales, language, plan.book_id, part), serialize(catalog))
    stamp.write_text(json.dumps(wanted), encoding="utf-8")
    return corpus


def single_book_yaml(rules: int, seed: int = 15) -> bytes:
    """One rulebook of ``rules`` rules (no links to other books), as the loader benchmark reads it."""
    plan = _plans(1, rules, _vocabulary(seed))[0]
    return book_yaml(plan, [], seed).encode("utf-8")

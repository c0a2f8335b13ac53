"""A small rulebook for the search tests, in all six languages, and a glossary of its game terms.

Its words are chosen for what search must get right: forms a stemmer joins (колода, колоду,
колодой; shuffled, shuffling), game terms a stemmer would join to other words (Spanish maná and
mano, Italian mana and mano: both stem to "man"), and a symbol in a title, found by its text
alternative ("X maná genérico"; in English and Italian {X} reads "X").
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from .test_site_build import write_catalog

BOOK = """
book:
  id: cerca
  title: Cercare
  summary: Parole da cercare.
  language: it
  engine: base
sections:
  - id: parole
    title: Parole
    rules:
      - id: terre
        title: Le terre
        text: Ogni giocatore mette in gioco una terra per turno; le terre restano in gioco.
      - id: mana
        title: Il mana
        text: Una terra produce mana {G}.
      - id: mano
        title: La mano
        text: Il giocatore tiene sette carte in mano.
      - id: mazzo
        title: Il mazzo
        text: Il mazzo si mescola prima della partita.
      - id: scorciatoia
        title: La scorciatoia per {X}
        text: Si sceglie il valore prima di pagare.
"""

GLOSSARY = """
terms:
  - it: [terra, terre]
    en: land*
    fr: terrain*
    es: tierra*
    pt: terreno*
    ru: [земл*, земел*]
    headword: {en: land, fr: terrain, es: tierra, pt: terreno, ru: земля}
  - it: mana
    en: mana
    fr: [mana, manas]
    es: [maná, manás]
    pt: [mana, manas]
    ru: [мана, маны, мане, ману, маной, манов*]
"""

KEYS = ("cerca:title", "cerca:summary", "cerca/parole:title", "cerca/terre:title", "cerca/terre:text", "cerca/mana:title",
        "cerca/mana:text", "cerca/mano:title", "cerca/mano:text", "cerca/mazzo:title", "cerca/mazzo:text",
        "cerca/scorciatoia:title", "cerca/scorciatoia:text")

TRANSLATIONS = {
    "en": ("Searching", "Words to search for.", "Words", "Lands",
           "Each player puts one land onto the battlefield per turn; lands stay on the battlefield.", "Mana",
           "A land produces {G} mana.", "The hand", "The player keeps seven cards in hand.", "The library",
           "The library is shuffled before the game.", "The shortcut for {X}", "The value is chosen before paying."),
    "fr": ("Chercher", "Des mots à chercher.", "Mots", "Les terrains",
           "Chaque joueur met un terrain en jeu par tour\u00a0; les terrains restent en jeu.", "Le mana",
           "Un terrain produit du mana {G}.", "La main", "Le joueur garde sept cartes en main.", "La bibliothèque",
           "On mélange la bibliothèque avant la partie.", "Le raccourci pour {X}", "On choisit la valeur avant de payer."),
    "es": ("Buscar", "Palabras para buscar.", "Palabras", "Las tierras",
           "Cada jugador pone en juego una tierra por turno; las tierras se quedan en juego.", "El maná",
           "Una tierra produce maná {G}.", "La mano", "El jugador tiene siete cartas en la mano.", "El mazo",
           "El mazo se baraja antes de la partida.", "El atajo para {X}", "Se elige el valor antes de pagar."),
    "pt": ("Procurar", "Palavras para procurar.", "Palavras", "Os terrenos",
           "Cada jogador coloca um terreno em jogo por turno; os terrenos ficam em jogo.", "O mana",
           "Um terreno produz mana {G}.", "A mão", "O jogador mantém sete cartas na mão.", "O grimório",
           "O grimório é embaralhado antes da partida.", "O atalho para {X}", "O valor é escolhido antes de pagar."),
    "ru": ("Поиск", "Слова для поиска.", "Слова", "Земли",
           "Каждый игрок вводит в игру одну землю за ход; земли остаются в игре.", "Мана",
           "Земля производит ману {G}.", "Рука", "Игрок держит в руке семь карт.", "Колода",
           "Колоду тасуют перед партией.", "Сокращение для {X}", "Значение выбирают до оплаты."),
}

#: Where a language says what the Italian says, its translator says so (else check calls it a copy).
COMMENTS = {"es": {"cerca/mano:title": "ignore-same: «La mano» is Spanish as it is Italian"}}


def add_search_book(root: Path) -> None:
    """Add the book, its five catalogs and the glossary to a project made by make_project."""
    (root / "rules" / "cerca.yaml").write_text(textwrap.dedent(BOOK).lstrip(), encoding="utf-8")
    (root / "locales" / "glossary.yaml").write_text(textwrap.dedent(GLOSSARY).lstrip(), encoding="utf-8")
    for language, texts in TRANSLATIONS.items():
        write_catalog(root / "locales", language, "cerca", dict(zip(KEYS, texts)), rules=root / "rules", comments=COMMENTS.get(language))

"""The plane cards of Planechase (2009): their English names and their printed names.

Planechase's game packs (set HOP; the planes are the set OHOP in MTGJSON) were printed in
English, French, German, Italian, Japanese and Spanish: in Portuguese and Russian a plane keeps
its English name. The names were read in Gatherer's data as published by MTGJSON: the
`foreignData` of each card of AUTRE04216/jsonSets OHOP.json (mtgjson v5.2.0, April 2022,
commit 22fd5d0d), cards #1 to #40, the same names as mtgjson/mtgjson3 json/HOP.json
`foreignNames` (commit 024ffa77) for the planes the rulebook names.
"""

from __future__ import annotations

from pathlib import Path

from ..loader import display_path
from .base import PrintedName

__all__ = ["PLANES", "PRINTED_NAMES", "NOT_PRINTED", "printed_names"]

#: The languages no plane card was printed in: the English name stands.
NOT_PRINTED = ("pt", "ru")

#: English name -> the printed names in Italian, French and Spanish.
PRINTED_NAMES: dict[str, dict[str, str]] = {
    "Academy at Tolaria West": {"it": "Accademia di Tolaria Occidentale", "fr": "Académie de l'Ouest de Tolaria", "es": "Academia en Tolaria Oeste"},
    "The Aether Flues": {"it": "I Cannelli Eterei", "fr": "Les Tubulures d'Aether", "es": "Las Chimeneas de Éter"},
    "Agyrem": {"it": "Agyrem", "fr": "Agyrem", "es": "Agyrem"},
    "Bant": {"it": "Bant", "fr": "Bant", "es": "Bant"},
    "Cliffside Market": {"it": "Mercato del Dirupo", "fr": "Marché à flanc de falaise", "es": "Mercado del Precipicio"},
    "The Dark Barony": {"it": "La Baronia Oscura", "fr": "La Baronnerie Noire", "es": "La Baronía Oscura"},
    "Eloren Wilds": {"it": "Rovi di Eloren", "fr": "Friches d'Eloren", "es": "Campos de Eloren"},
    "The Eon Fog": {"it": "La Nebbia Eterna", "fr": "Le Brouillard des Éons", "es": "La Niebla de los Eones"},
    "Feeding Grounds": {"it": "Pascoli Naturali", "fr": "Terrain de chasse", "es": "Terrenos de Caza"},
    "Fields of Summer": {"it": "Campi dell'Estate", "fr": "Champs d'Été", "es": "Campos del Verano"},
    "The Fourth Sphere": {"it": "La Quarta Sfera", "fr": "La Quatrième Sphère", "es": "La Cuarta Esfera"},
    "Glimmervoid Basin": {"it": "Bacino del Nulla Scintillante", "fr": "Bassin du Vide Rayonnant", "es": "Cuenca del Campo Resplandeciente"},
    "Goldmeadow": {"it": "Prateria Dorata", "fr": "Orprairie", "es": "Pradera Dorada"},
    "The Great Forest": {"it": "Bosco Grande", "fr": "La Grande Forêt", "es": "El Gran Bosque"},
    "Grixis": {"it": "Grixis", "fr": "Grixis", "es": "Grixis"},
    "The Hippodrome": {"it": "L'Ippodromo", "fr": "L'hippodrome", "es": "El Hipódromo"},
    "Immersturm": {"it": "Immersturm", "fr": "Immersturm", "es": "Immersturm"},
    "Isle of Vesuva": {"it": "Isola di Vesuva", "fr": "Île de Vésuva", "es": "Isla de Vesuva"},
    "Izzet Steam Maze": {"it": "Labirinto di Vapore Izzet", "fr": "Labyrinthe de vapeur d'Izzet", "es": "Laberinto de vapor ízzet"},
    "Krosa": {"it": "Krosa", "fr": "Krosia", "es": "Krosa"},
    "Lethe Lake": {"it": "Lago Lete", "fr": "Lac de Lethe", "es": "Lago del Leteo"},
    "Llanowar": {"it": "Llanowar", "fr": "Llanowar", "es": "Llanowar"},
    "The Maelstrom": {"it": "Il Maelstrom", "fr": "Le Maelstrom", "es": "El Remolino"},
    "Minamo": {"it": "Minamo", "fr": "Minamo", "es": "Minamo"},
    "Murasa": {"it": "Murasa", "fr": "Murasa", "es": "Murasa"},
    "Naar Isle": {"it": "Isola Naar", "fr": "Île de Naâr", "es": "Isla Naar"},
    "Naya": {"it": "Naya", "fr": "Naya", "es": "Naya"},
    "Otaria": {"it": "Otaria", "fr": "Otaria", "es": "Otaria"},
    "Panopticon": {"it": "Panottico", "fr": "Panopticon", "es": "Panópticon"},
    "Pools of Becoming": {"it": "Pozze del Divenire", "fr": "Bassins de transition", "es": "Estanques de Creación"},
    "Raven's Run": {"it": "Volo del Corvo", "fr": "Garenne du Corbeau", "es": "Coto de Cuervos"},
    "Sanctum of Serra": {"it": "Santuario di Serra", "fr": "Le Sanctuaire de Serra", "es": "Santuario de Serra"},
    "Sea of Sand": {"it": "Mare di Sabbia", "fr": "Mer de sable", "es": "Mar de Arena"},
    "Shiv": {"it": "Shiv", "fr": "Shiv", "es": "Shiv"},
    "Skybreen": {"it": "Skybreen", "fr": "Glacier céleste", "es": "Glaciar en las nubes"},
    "Sokenzan": {"it": "Sokenzan", "fr": "Sokenzan", "es": "Sokenzan"},
    "Stronghold Furnace": {"it": "Fornace della Fortezza", "fr": "Fourneau de la Forteresse", "es": "Horno de la Fortaleza"},
    "Turri Island": {"it": "Isola Turri", "fr": "Île de Turri", "es": "Isla Turri"},
    "Undercity Reaches": {"it": "Distesa della Città Sepolta", "fr": "Étendue de la Citerraine", "es": "Cimas de la Subciudad"},
    "Velis Vel": {"it": "Velis Vel", "fr": "Velis Vel", "es": "Velis Vel"},
}

#: The forty planes of the 2009 game packs, by their English card names, in alphabetical order.
PLANES: tuple[str, ...] = tuple(sorted(PRINTED_NAMES))


def printed_names() -> tuple[PrintedName, ...]:
    """Every plane's names by language (its English name where it was not printed), each at its
    line of this file: what Planechase's ``names()`` gives the translation glossary."""
    # Asked once per imported engine module and build cache (engines.printed_names, kind 'engine names').
    path = Path(__file__)
    lines = {line.strip().split('":', 1)[0].lstrip('"'): number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if line.startswith('    "')}
    shown = display_path(path)  # once: each call resolves the path
    return tuple(PrintedName.of({"en": name, **dict.fromkeys(NOT_PRINTED, name), **printed}, f"{shown}:{lines[name]}", "plane")
                 for name, printed in PRINTED_NAMES.items())

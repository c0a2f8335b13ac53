"""The site's own words (labels around the rulebooks) and the text alternatives of symbols.

These are a handful of interface strings, not rulebook content: rulebook text is translated
through the PO catalogs, these live here so the renderer needs no catalog of its own.
"""

from __future__ import annotations

from ..symbols import Symbol

#: Site languages in menu order with their own names; the source language (model.SOURCE_LANGUAGE)
#: comes first and is served at the site root.
LANGUAGES: dict[str, str] = {
    "it": "Italiano",
    "en": "English",
    "fr": "Français",
    "es": "Español",
    "pt": "Português",
    "ru": "Русский",
}

_STRINGS: dict[str, dict[str, str]] = {
    "it": {
        "home": "Regolamenti",
        "home.lead": "Ogni regolamento, con ogni esempio verificato da un motore di riferimento.",
        "coverage": "Copertura delle traduzioni",
        "coverage.lead": "Per ogni regolamento e lingua: testi tradotti, da rivedere (fuzzy) e mostrati in italiano.",
        "coverage.note": "{fallback} testi su {total} di questa pagina sono ancora in italiano",
        "book": "Regolamento",
        "language": "Lingua",
        "translated": "tradotti",
        "fuzzy": "da rivedere",
        "fallback": "in italiano",
        "total": "testi",
        "examples": "esempi",
        "examples.passed": "{passed}/{total} esempi verificati",
        "example": "Esempio",
        "board": "La posizione alla fine dell'esempio",
        "ruling": "Decisione",
        "reason": "Motivo",
        "proof": "Verifica (doctest)",
        "passed": "verificato",
        "failed": "fallito",
        "not_run": "non eseguito",
        "fallback.badge": "non ancora tradotto: testo in italiano",
        "outdated.badge": "traduzione da aggiornare: l'originale è cambiato",
        "permalink": "Link permanente",
        "status": "Esito degli esempi alla generazione del sito",
    },
    "en": {
        "home": "Rulebooks",
        "home.lead": "Every rulebook, every worked example checked against a reference engine.",
        "coverage": "Translation coverage",
        "coverage.lead": "For each rulebook and language: texts translated, fuzzy (to review) and shown in Italian.",
        "coverage.note": "{fallback} of the {total} texts on this page are still in Italian",
        "book": "Rulebook",
        "language": "Language",
        "translated": "translated",
        "fuzzy": "fuzzy",
        "fallback": "in Italian",
        "total": "texts",
        "examples": "examples",
        "examples.passed": "{passed}/{total} examples passed",
        "example": "Example",
        "board": "The position at the end of the example",
        "ruling": "Ruling",
        "reason": "Reason",
        "proof": "Proof (doctest)",
        "passed": "passed",
        "failed": "failed",
        "not_run": "not run",
        "fallback.badge": "not translated yet: shown in Italian",
        "outdated.badge": "translation outdated: the original has changed",
        "permalink": "Permanent link",
        "status": "Outcome of the examples when the site was built",
    },
    "fr": {
        "home": "Livres de règles",
        "home.lead": "Chaque livre de règles, chaque exemple vérifié par un moteur de référence.",
        "coverage": "Couverture des traductions",
        "coverage.lead": "Pour chaque livre et langue : textes traduits, approximatifs (à revoir) et affichés en italien.",
        "coverage.note": "{fallback} des {total} textes de cette page sont encore en italien",
        "book": "Livre de règles",
        "language": "Langue",
        "translated": "traduits",
        "fuzzy": "à revoir",
        "fallback": "en italien",
        "total": "textes",
        "examples": "exemples",
        "examples.passed": "{passed}/{total} exemples vérifiés",
        "example": "Exemple",
        "board": "La position à la fin de l'exemple",
        "ruling": "Décision",
        "reason": "Motif",
        "proof": "Preuve (doctest)",
        "passed": "réussi",
        "failed": "échoué",
        "not_run": "non exécuté",
        "fallback.badge": "pas encore traduit : texte en italien",
        "outdated.badge": "traduction à mettre à jour : l'original a changé",
        "permalink": "Lien permanent",
        "status": "Résultat des exemples lors de la génération du site",
    },
    "es": {
        "home": "Reglamentos",
        "home.lead": "Cada reglamento, cada ejemplo comprobado con un motor de referencia.",
        "coverage": "Cobertura de las traducciones",
        "coverage.lead": "Para cada reglamento e idioma: textos traducidos, difusos (por revisar) y mostrados en italiano.",
        "coverage.note": "{fallback} de los {total} textos de esta página siguen en italiano",
        "book": "Reglamento",
        "language": "Idioma",
        "translated": "traducidos",
        "fuzzy": "por revisar",
        "fallback": "en italiano",
        "total": "textos",
        "examples": "ejemplos",
        "examples.passed": "{passed}/{total} ejemplos verificados",
        "example": "Ejemplo",
        "board": "La posición al final del ejemplo",
        "ruling": "Decisión",
        "reason": "Motivo",
        "proof": "Prueba (doctest)",
        "passed": "correcto",
        "failed": "fallido",
        "not_run": "no ejecutado",
        "fallback.badge": "aún sin traducir: texto en italiano",
        "outdated.badge": "traducción desactualizada: el original ha cambiado",
        "permalink": "Enlace permanente",
        "status": "Resultado de los ejemplos al generar el sitio",
    },
    "pt": {
        "home": "Livros de regras",
        "home.lead": "Cada livro de regras, cada exemplo verificado por um motor de referência.",
        "coverage": "Cobertura das traduções",
        "coverage.lead": "Para cada livro e idioma: textos traduzidos, aproximados (a rever) e mostrados em italiano.",
        "coverage.note": "{fallback} dos {total} textos desta página ainda estão em italiano",
        "book": "Livro de regras",
        "language": "Idioma",
        "translated": "traduzidos",
        "fuzzy": "a rever",
        "fallback": "em italiano",
        "total": "textos",
        "examples": "exemplos",
        "examples.passed": "{passed}/{total} exemplos verificados",
        "example": "Exemplo",
        "board": "A posição no fim do exemplo",
        "ruling": "Decisão",
        "reason": "Motivo",
        "proof": "Prova (doctest)",
        "passed": "aprovado",
        "failed": "falhou",
        "not_run": "não executado",
        "fallback.badge": "ainda não traduzido: texto em italiano",
        "outdated.badge": "tradução desatualizada: o original mudou",
        "permalink": "Link permanente",
        "status": "Resultado dos exemplos na geração do site",
    },
    "ru": {
        "home": "Правила игр",
        "home.lead": "Все своды правил; каждый пример проверен эталонным движком.",
        "coverage": "Покрытие переводов",
        "coverage.lead": "Для каждого свода правил и языка: переведено, неточно (на проверку) и показано по-итальянски.",
        "coverage.note": "{fallback} из {total} текстов этой страницы пока на итальянском",
        "book": "Свод правил",
        "language": "Язык",
        "translated": "переведено",
        "fuzzy": "на проверку",
        "fallback": "по-итальянски",
        "total": "текстов",
        "examples": "примеров",
        "examples.passed": "{passed}/{total} примеров пройдено",
        "example": "Пример",
        "board": "Позиция в конце примера",
        "ruling": "Решение",
        "reason": "Причина",
        "proof": "Проверка (doctest)",
        "passed": "пройден",
        "failed": "не пройден",
        "not_run": "не запускался",
        "fallback.badge": "ещё не переведено: текст на итальянском",
        "outdated.badge": "перевод устарел: оригинал изменился",
        "permalink": "Постоянная ссылка",
        "status": "Результат примеров при сборке сайта",
    },
}


def ui(language: str) -> dict[str, str]:
    """The interface strings of a language, English where a string is missing."""
    return {**_STRINGS["en"], **_STRINGS.get(language, {})}


# Symbol names: a few words per language composed per kind, so every icon has a text
# alternative in the reader's language. English is Symbol.name itself.
_COLOURS = {
    "it": {"W": "bianco", "U": "blu", "B": "nero", "R": "rosso", "G": "verde"},
    "fr": {"W": "blanc", "U": "bleu", "B": "noir", "R": "rouge", "G": "vert"},
    "es": {"W": "blanco", "U": "azul", "B": "negro", "R": "rojo", "G": "verde"},
    "pt": {"W": "branco", "U": "azul", "B": "preto", "R": "vermelho", "G": "verde"},
    "ru": {"W": "белая", "U": "синяя", "B": "чёрная", "R": "красная", "G": "зелёная"},
}
_PATTERNS = {
    # mana, phyrexian, two-or, hybrid, colourless, generic, variable
    "it": ("mana {c}", "mana {c} di Phyrexia", "due mana generici o mana {c}", "mana ibrido {a} o {b}", "mana incolore", "{n} mana generico", "{v} mana generico"),
    "fr": ("mana {c}", "mana {c} phyrexian", "deux manas génériques ou mana {c}", "mana hybride {a} ou {b}", "mana incolore", "{n} mana générique", "{v} mana générique"),
    "es": ("maná {c}", "maná {c} pirexiano", "dos manás genéricos o maná {c}", "maná híbrido {a} o {b}", "maná incoloro", "{n} maná genérico", "{v} maná genérico"),
    "pt": ("mana {c}", "mana {c} phyrexiano", "dois manas genéricos ou mana {c}", "mana híbrido {a} ou {b}", "mana incolor", "{n} mana genérico", "{v} mana genérico"),
    "ru": ("{c} мана", "фирексийская {c} мана", "две единицы любой маны или {c} мана", "гибридная мана: {a} или {b}", "бесцветная мана", "{n} любой маны", "{v} любой маны"),
}
_FIXED = {
    "it": {"T": "TAP", "Q": "STAP", "PW": "simbolo del planeswalker", "CHAOS": "simbolo del caos", "BLANK": "faccia vuota",
           "hearts": "cuori", "diamonds": "quadri", "clubs": "fiori", "spades": "picche", "die": "dado: {n}"},
    "fr": {"T": "engager", "Q": "dégager", "PW": "symbole de planeswalker", "CHAOS": "symbole de chaos", "BLANK": "face vierge",
           "hearts": "cœur", "diamonds": "carreau", "clubs": "trèfle", "spades": "pique", "die": "dé : {n}"},
    "es": {"T": "girar", "Q": "enderezar", "PW": "símbolo de planeswalker", "CHAOS": "símbolo de caos", "BLANK": "cara en blanco",
           "hearts": "corazones", "diamonds": "diamantes", "clubs": "tréboles", "spades": "picas", "die": "dado: {n}"},
    "pt": {"T": "virar", "Q": "desvirar", "PW": "símbolo de planeswalker", "CHAOS": "símbolo do caos", "BLANK": "face em branco",
           "hearts": "copas", "diamonds": "ouros", "clubs": "paus", "spades": "espadas", "die": "dado: {n}"},
    "ru": {"T": "повернуть", "Q": "развернуть", "PW": "символ planeswalker", "CHAOS": "символ хаоса", "BLANK": "пустая грань",
           "hearts": "червы", "diamonds": "бубны", "clubs": "трефы", "spades": "пики", "die": "кубик: {n}"},
}


def symbol_label(symbol: Symbol, language: str) -> str:
    """The text alternative of a symbol in a language (English: the symbol's own name)."""
    if language not in _PATTERNS:
        return symbol.name
    code = symbol.token[1:-1]
    colours, patterns, fixed = _COLOURS[language], _PATTERNS[language], _FIXED[language]
    mana, phyrexian, two_or, hybrid, colourless, generic, variable = patterns
    if code in fixed:
        return fixed[code]
    if symbol.kind == "die":
        return fixed["die"].format(n=code[1:])
    if symbol.kind == "generic":
        return generic.format(n=code)
    if symbol.kind == "variable":
        return variable.format(v=code)
    if code == "C":
        return colourless
    if code in colours:
        return mana.format(c=colours[code])
    first, _, second = code.partition("/")
    if second == "P":
        return phyrexian.format(c=colours[first])
    if first == "2":
        return two_or.format(c=colours[second])
    if first in colours and second in colours:
        return hybrid.format(a=colours[first], b=colours[second])
    return symbol.name

"""Seeds (the real files) and mutators. Every function takes a ``random.Random`` so the same
seed gives the same input, in the command and under Hypothesis alike."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Pieces that mean something to one of our parsers, or to a browser, or to nobody.
YAML_PIECES = [
    b"&a ", b"*a ", b"!!python/object/apply:os.system ['true'] ", b"!x ", b"? [a]\n", b"? {a: b}\n", b"{", b"}", b"[", b"]",
    b"'", b'"', b": ", b"- ", b"-\n", b"\t", b"%YAML 1.1\n", b"---\n", b"...\n", b"|\n", b">-\n", b"#", b"\\", b"~", b"null",
    b"<<: *a\n", b"id: ../../x\n", b"id: a/b\n", b"id: ..\n", b"engine: os\n", b"engine: ../x\n",
]
PO_PIECES = [
    b'msgid ""\n', b'msgstr ""\n', b"msgstr[0] \"\"\n", b'msgstr[9999999999] "x"\n', b'msgid_plural "x"\n', b'msgctxt "x"\n',
    b'"Plural-Forms: nplurals=1000000000; plural=0;\\n"\n', b'"Content-Type: text/plain; charset=rot13\\n"\n',
    b'"Content-Type: text/plain; charset=unicode_escape\\n"\n', b'"POT-Creation-Date: x\\n"\n', b'"Language: ../x\\n"\n',
    b'"  continued\\n"\n', b"#~ ", b'#| msgid "x"\n', b"#, fuzzy\n", b"#: a:b:c\n", b"\\x", b"\\", b'"', b"\n\n",
]
TEXT_PIECES = [
    "**", "*", "***", "[[", "]]", "[[r1]]", "[[casting:601.2f]]", "[[javascript:alert(1)]]", "{W}", "{", "}", "{{ 7*7 }}",
    "{% raw %}", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "&lt/title&gt", "&#106;", "<!-- x -->",
    '" onmouseover="x', "javascript:alert(1)", "[x](javascript:alert(1))", "\u200b", "\u202e", "\u2066", "\ufeff",
    "\x00", "\x1b[31m", "- ", "\n", "\n\n", "\n- ", "  ", "\t", "1.000", "1 000", "3", "é", "«", "\U0001f600", "\r",
]
BYTES = [b"\x00", b"\x7f", b"\x85", b"\xc2\x85", b"\xef\xbb\xbf", b"\xff", b"\xfe", b"\xc3", b"\xe2\x80\xae", b"\xed\xa0\x80",
         b"\xf4\x90\x80\x80", b"\r", b"\r\n", b"\x0b", b"\x0c", b"\xef\xbf\xbe"]


@lru_cache(maxsize=None)
def seeds(kind: str) -> tuple[tuple[str, bytes], ...]:
    """(name, bytes) of the real files of one kind: rules, po, cards, glossary."""
    if kind == "rules":
        paths = sorted((REPO / "rules").glob("*.yaml"))
    elif kind == "po":
        paths = sorted((REPO / "locales").glob("*/LC_MESSAGES/*.po")) + sorted((REPO / "locales" / "templates").glob("*.pot"))
    elif kind == "cards":
        paths = sorted((REPO / "src" / "rulebook" / "engines").glob("**/cards.yaml"))  # each engine's card data
    elif kind == "glossary":
        paths = [REPO / "locales" / "glossary.yaml"]
    else:
        raise ValueError(kind)
    return tuple((str(p.relative_to(REPO)), p.read_bytes()) for p in paths if p.exists())


def texts() -> list[str]:
    """Every msgid and msgstr of the real catalogs: the texts the renderer really gets."""
    return list(_texts())


@lru_cache(maxsize=None)
def _texts() -> tuple[str, ...]:
    import io

    from babel.messages.pofile import read_po

    found: set[str] = set()
    for _, data in seeds("po"):
        for message in read_po(io.BytesIO(data)):
            for text in (message.id, message.string):
                if isinstance(text, str) and text:
                    found.add(text)
    return tuple(sorted(found))


# --- mutators: bytes -> bytes ------------------------------------------------------------------


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def crop(rng: random.Random, data: bytes) -> bytes:
    """A random run of whole lines: small inputs, so a hundred thousand of them run in minutes."""
    lines = _lines(data)
    start = rng.randrange(len(lines))
    return b"\n".join(lines[start : start + rng.choice((3, 10, 40, 200))])


def flip(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]


def insert(rng: random.Random, data: bytes, pieces: list[bytes]) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(pieces) + data[at:]


def line_edit(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    at = rng.randrange(len(lines))
    how = rng.randrange(4)
    if how == 0:
        del lines[at]
    elif how == 1:
        lines.insert(at, lines[at])
    elif how == 2:
        other = rng.randrange(len(lines))
        lines[at], lines[other] = lines[other], lines[at]
    else:
        lines[at] = b"\t" + lines[at]
    return b"\n".join(lines)


def inflate(rng: random.Random, data: bytes, pieces: list[bytes]) -> bytes:
    """A piece repeated up to about a megabyte, or nesting thousands deep."""
    piece = rng.choice(pieces + [b"[", b"{", b" ", b"a", b"[[r1]] ", b"**a ", b"\n", b"- "])
    count = rng.choice((1_000, 10_000, 100_000, 1_000_000)) // max(len(piece), 1)
    at = rng.randrange(len(data) + 1)
    return data[:at] + piece * count + data[at:]


def reencode(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "replace")
    return text.encode(rng.choice(("latin-1", "utf-16", "utf-32", "cp1252")), "replace")


def mutate(rng: random.Random, data: bytes, pieces: list[bytes], small: bool = True) -> bytes:
    """One to five stacked mutations of a seed (usually cropped first)."""
    if small and rng.random() < 0.8:
        data = crop(rng, data)
    for _ in range(rng.randint(1, 5)):
        roll = rng.random()
        if roll < 0.25:
            data = flip(rng, data)
        elif roll < 0.5:
            data = insert(rng, data, pieces)
        elif roll < 0.65:
            data = insert(rng, data, BYTES)
        elif roll < 0.9:
            data = line_edit(rng, data)
        elif roll < 0.97:
            data = insert(rng, data, [p.encode() for p in TEXT_PIECES])
        elif roll < 0.99:
            data = inflate(rng, data, pieces)
        else:
            data = reencode(rng, data)
    return data


def generated_rules(rng: random.Random) -> bytes:
    """A rulebook made up from nothing: random structure, ids and texts."""
    def text() -> str:
        return "'" + "".join(rng.choice(TEXT_PIECES[:12] + ["Paga ", "carta ", "3 "]) for _ in range(rng.randint(1, 8))).replace("'", "''") + "'"

    out = ["book:", "  id: gen", f"  title: {text()}", f"  summary: {text()}", "  language: it", "  engine: bingomagic", "sections:"]
    for s in range(rng.randint(0, 3)):
        out += [f"  - id: s{s}", f"    title: {text()}", "    rules:"]
        for r in range(rng.randint(0, 4)):
            out += [f"      - id: r{s}-{r}", f"        text: {text()}"]
    return ("\n".join(out) + "\n").encode("utf-8", "surrogatepass")


def text_input(rng: random.Random) -> str:
    """A text for the renderer: a real msgid or msgstr, mutated with markup and hostile pieces."""
    base = rng.choice(_texts()) if rng.random() < 0.8 else ""
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(base) + 1)
        piece = rng.choice(TEXT_PIECES)
        if rng.random() < 0.02:
            piece *= rng.choice((1_000, 10_000, 100_000)) // max(len(piece), 1)
        base = base[:at] + piece + base[at:]
    return base

"""The four fuzz targets. Each has ``make(rng) -> bytes`` and ``run(data) -> outcome``.

An input is one header line saying what it is (which kind of file, which command) and then
the file's bytes, so a saved regression replays without the generator. ``run`` returns
``"clean"`` or ``"error"`` (refused the documented way: a :class:`~rulebook.errors.LoadError`,
problems at FILE:LINE:COL, exit code 1 or 2 with a message); anything else raises
:class:`Bad` or lets the exception out, and counts as a failure.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import re
import shutil
import signal
import tempfile
import textwrap
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from . import mutate as m


class Bad(Exception):
    """The input got through without an exception but broke a promise (a tag we never emit…)."""


@contextlib.contextmanager
def oracle():
    """Pause the per-input time limit while the harness checks a result: only our code is timed
    (html.parser alone takes seconds over the 60,000 tags of some rendered inputs)."""
    remaining, _ = signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    try:
        yield
    finally:
        if remaining:
            signal.setitimer(signal.ITIMER_VIRTUAL, remaining)


# Where a problem is reported: FILE:LINE:COL, or FILE:LINE for catalog problems.
_WHERE_RE = re.compile(r"^\S[^:\n]*:\d+:\d+: ", re.MULTILINE)  # what follows may be anything: a msgctxt can start with a space


def _split(data: bytes) -> tuple[list[str], bytes]:
    header, _, payload = data.partition(b"\n")
    return header.decode("ascii").split(), payload


@lru_cache(maxsize=1)
def _workdir() -> Path:
    return Path(tempfile.mkdtemp(prefix="rulebook-fuzz-"))


# --- loader: bytes -> model or LoadError (rules, cards, glossary) -----------------------------


def make_loader(rng: random.Random) -> bytes:
    kind = rng.choices(["rules", "cards", "glossary", "generated"], [6, 2, 2, 1])[0]
    if kind == "generated":
        return b"rules\n" + m.mutate(rng, m.generated_rules(rng), m.YAML_PIECES, small=False)
    name, seed = rng.choice(m.seeds(kind))
    return kind.encode() + b"\n" + m.mutate(rng, seed, m.YAML_PIECES)


def run_loader(data: bytes) -> str:
    from rulebook.engines.casting.cards import names_in
    from rulebook.errors import LoadError
    from rulebook.i18n.glossary import load_glossary
    from rulebook.loader import load_book_bytes
    from rulebook.yamlnodes import decode, parse

    (kind,), payload = _split(data)
    if kind == "rules":
        try:
            load_book_bytes(payload, "rules/fuzz.yaml")
        except LoadError as exc:
            _expect_positions(str(exc))
            return "error"
        return "clean"
    folder = _workdir() / "loader"
    folder.mkdir(exist_ok=True)
    path = folder / ("glossary.yaml" if kind == "glossary" else "cards.yaml")
    path.write_bytes(payload)
    if kind == "cards":
        try:
            parse(decode(payload, "cards.yaml"), "cards.yaml")
        except LoadError as exc:
            _expect_positions(str(exc))
            return "error"
    glossary = load_glossary(folder if kind == "glossary" else Path("/nonexistent"), names=(lambda: names_in(path)) if kind == "cards" else (), source="it")
    if glossary.problems:
        _expect_positions("\n".join(map(str, glossary.problems)))
        return "error"
    return "clean"


def _expect_positions(report: str) -> None:
    for line in report.splitlines():
        if not _WHERE_RE.match(line):
            raise Bad(f"a problem without FILE:LINE:COL: {line[:200]!r}")


# --- po: bytes -> catalog or problems, then the whole translate step ---------------------------


@lru_cache(maxsize=1)
def _books():
    from rulebook.loader import load_library, rulebook_paths

    return load_library(rulebook_paths(m.REPO / "rules"))


def make_po(rng: random.Random) -> bytes:
    name, seed = rng.choice(m.seeds("po"))
    book = Path(name).stem
    return f"{book}\n".encode() + m.mutate(rng, seed, m.PO_PIECES)


@lru_cache(maxsize=1)
def _po_locales() -> Path:
    """The locales folder of the po target, with the real glossary copied once: a copy per input
    gave the file a new mtime, so every input parsed the glossary again and lost what the
    glossary remembers of the books' texts (two thirds of the target's time, none of it the
    catalog's). Only the catalog is mutated; the glossary is the same bytes every time."""
    locales = _workdir() / "po" / "locales"
    (locales / "en" / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    shutil.copy(m.REPO / "locales" / "glossary.yaml", locales / "glossary.yaml")
    return locales


def run_po(data: bytes) -> str:
    from rulebook.i18n.checks import check_po_file
    from rulebook.i18n.translate import translate_book

    (book_id,), payload = _split(data)
    locales = _po_locales()
    path = locales / "en" / "LC_MESSAGES" / f"{book_id}.po"
    path.write_bytes(payload)
    problems = check_po_file(path, "en")
    translated = translate_book(_books()[book_id], "en", locales)
    _expect_positions("\n".join(map(str, [*problems, *translated.problems])))
    if translated.unreadable != tuple(p for p in problems if p in translated.unreadable):
        raise Bad("translate_book and check disagree on whether the catalog can be read")
    return "error" if problems or translated.problems else "clean"


# --- render: any text -> HTML with only the tags we emit ---------------------------------------

ALLOWED = {
    "p": set(), "ul": set(), "li": set(), "strong": set(), "em": set(),
    "a": {"class", "href", "title"}, "i": {"class", "role", "aria-label", "title"}, "span": {"class", "role", "aria-label", "title"},
}


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []

    def handle_starttag(self, tag, attrs):  # noqa: ANN001
        if tag not in ALLOWED:
            raise Bad(f"tag <{tag}> is not one we emit")
        for name, value in attrs:
            if name not in ALLOWED[tag]:
                raise Bad(f"attribute {name} on <{tag}>")
            if name == "href" and not (value or "").startswith(("#", "../")):
                raise Bad(f"href {value!r} does not come from the resolver")
            if "javascript:" in (value or "").lower().replace(" ", ""):
                raise Bad(f"javascript: in {name}")
        self.open.append(tag)

    def handle_endtag(self, tag):  # noqa: ANN001
        if not self.open or self.open.pop() != tag:
            raise Bad(f"</{tag}> closes nothing or the wrong tag")

    def handle_comment(self, data):  # noqa: ANN001
        raise Bad("an HTML comment")

    def handle_decl(self, decl):  # noqa: ANN001
        raise Bad("a declaration")

    def handle_pi(self, data):  # noqa: ANN001
        raise Bad("a processing instruction")

    def unknown_decl(self, data):  # noqa: ANN001
        raise Bad("an unknown declaration")


def make_render(rng: random.Random) -> bytes:
    return b"text\n" + m.text_input(rng).encode("utf-8", "surrogatepass")


def run_render(data: bytes) -> str:
    from rulebook.errors import RulebookError
    from rulebook.limits import MAX_TEXT_CHARS
    from rulebook.model import XRef
    from rulebook.render.text import Target, text_to_html, text_to_plain

    _, payload = _split(data)
    text = payload.decode("utf-8", "surrogatepass")

    def resolve(ref: XRef) -> Target | None:
        return None if ref.target.startswith("x") else Target(f"../{ref.book}/#{ref.target}" if ref.book else f"#{ref.target}", "1.2", "T {W} <b>")

    try:
        rendered = (text_to_html(text, resolve, language="en"), text_to_html(text, resolve, language="ru", inline=True))
        plain = text_to_plain(text, "en")
    except RulebookError as exc:
        if len(text) <= MAX_TEXT_CHARS:
            raise
        if not str(exc).endswith("; split it"):
            raise Bad(f"an unclear refusal: {exc}") from None
        return "error"
    with oracle():
        for html in rendered:
            checker = _Tags()
            checker.feed(str(html))
            checker.close()
            if checker.open:
                raise Bad(f"unclosed {checker.open}")
    if "\n" in plain:
        raise Bad("a line break in plain text")
    return "clean"


# --- cli: the commands on a temporary project: exit code, no traceback ------------------------

COMMANDS = [["check"], ["i18n", "check"], ["i18n", "stats"], ["i18n", "update", "--check"], ["i18n", "update"], ["i18n", "compile"]]

DEMO = textwrap.dedent("""\
    book:
      id: demo
      title: Demo
      summary: Un libro di prova con {W}, **forte** e *lieve*.
      language: it
      engine: bingomagic
    sections:
      - id: primo
        title: Primo
        rules:
          - id: r1
            text: |
              Vedi [[r2]] e paga 3 {W}.

              - uno
              - due
            examples:
              - id: e1
                text: Un mazzo di 60 carte.
                doctest: |
                  >>> len(standard_deck())
                  60
          - id: r2
            text: Due terre.
""").encode()


@lru_cache(maxsize=1)
def _demo_po() -> bytes:
    """The demo's English catalog, as `rulebook i18n update` makes it, every message translated."""
    project = _fresh_project(None, None)
    _quiet(["i18n", "update"], project)
    path = project / "locales" / "en" / "LC_MESSAGES" / "demo.po"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'msgid "(.*)"\nmsgstr ""', lambda mt: f'msgid "{mt.group(1)}"\nmsgstr "{mt.group(1)}"', text)
    return text.encode()


def _fresh_project(kind: str | None, payload: bytes | None) -> Path:
    root = _workdir() / "cli"
    shutil.rmtree(root, ignore_errors=True)
    (root / "rules").mkdir(parents=True)
    (root / "locales" / "en" / "LC_MESSAGES").mkdir(parents=True)
    (root / "rules" / "demo.yaml").write_bytes(payload if kind == "rules" else DEMO)
    shutil.copy(m.REPO / "locales" / "glossary.yaml", root / "locales" / "glossary.yaml")
    if kind == "glossary":
        (root / "locales" / "glossary.yaml").write_bytes(payload or b"")
    if kind is not None:
        (root / "locales" / "en" / "LC_MESSAGES" / "demo.po").write_bytes(payload if kind == "po" else _demo_po())
    return root


def _quiet(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    from rulebook.cli import main

    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(before)
    return code, out.getvalue(), err.getvalue()


def make_cli(rng: random.Random) -> bytes:
    kind = rng.choice(["rules", "po", "glossary"])
    command = rng.choice(COMMANDS)
    seed = DEMO if kind == "rules" else _demo_po() if kind == "po" else m.seeds("glossary")[0][1]
    if kind == "rules" and rng.random() < 0.3:
        seed = rng.choice(m.seeds("rules"))[1]
    pieces = m.PO_PIECES if kind == "po" else m.YAML_PIECES
    return f"{kind} {' '.join(command)}\n".encode() + m.mutate(rng, seed, pieces, small=kind == "rules" and len(seed) > len(DEMO))


def run_cli(data: bytes) -> str:
    (kind, *command), payload = _split(data)
    code, out, err = _quiet(command, _fresh_project(kind, payload))
    # stdout may quote a traceback: a worked example whose doctest raised is reported there.
    if "Traceback" in err:
        raise Bad(f"a traceback from {command}: {err[-500:]}")
    if code not in (0, 1, 2):
        raise Bad(f"exit code {code!r} from {command}")
    if code == 2 and not err.strip():
        raise Bad(f"exit 2 without a message from {command}")
    return "clean" if code == 0 else "error"


TARGETS = {
    "loader": (make_loader, run_loader),
    "po": (make_po, run_po),
    "render": (make_render, run_render),
    "cli": (make_cli, run_cli),
}


# The targets of issue 30's findings live in their own module, which adds them to TARGETS when
# it is imported (last here: it imports this module's helpers; either may be imported first).
from . import hazards  # noqa: E402,F401

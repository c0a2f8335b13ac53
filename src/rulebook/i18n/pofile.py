"""Reading a PO catalog strictly: the one reader of every ``.po``/``.pot`` file we use.

Babel's ``read_po`` trusts the file: it decodes with whatever ``charset=`` the header names
(``rot13``, ``base64`` or ``unicode_escape`` end in a LookupError), turns a bad date header into
an AttributeError, and allocates ``nplurals`` strings for every plural message (a header of
``nplurals=1000000000`` costs gigabytes). So the file is decoded here, as UTF-8, within the
size limit; the header is checked before Babel acts on it (a catalog subclass looks at the
header's fields as Babel hands them over, so no second PO grammar is written); and every
problem is a :class:`~rulebook.errors.Problem` at ``FILE:LINE:COL``, never an exception.

Each message's ``lineno`` is the line of its ``msgstr``: the line a translator has to edit.
What Babel's reader would drop is kept: the ``#|`` previous msgid (of obsolete entries too,
``#~|``, as msgmerge writes them) and the headers Babel does not know (``X-Poedit-…``).

:func:`write_catalog` writes what was read, nothing lost, laid out as Babel's ``write_po``
lays it out (same wrapping, same order) plus what ``write_po`` drops or garbles: the previous
msgid as GNU gettext writes it, an obsolete entry's flags and previous msgid, and comments
wrapped between words only. Babel's
wrapping splits words with an expression that is quadratic in the length of a word or of a
run of punctuation (a 4,000-character word took 0.6 s, a megabyte hours): :func:`linear_wrapping`
swaps in an expression that splits every string the same way (checked against Babel's on
random strings) in linear time.
"""

from __future__ import annotations

import bisect
import codecs
import contextlib
import datetime
import hashlib
import re
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from textwrap import TextWrapper

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message

from ..adapters.babel import WORD_SEP, HeaderHookCatalog, PoSyntaxError, copy_catalog, linear_wrapping, normalize, parse_po, parse_separated_header, unescape  # noqa: F401 - WORD_SEP: read from here too
from ..errors import LoadError, Problem
from ..limits import MAX_PLURAL_FORMS, MAX_PROBLEMS, read_catalog_limited
from ..loader import display_path

_QUOTED_RE = re.compile(r'"(?:[^"\\]|\\.)*"')
# The date format Babel writes and reads (POT-Creation-Date, PO-Revision-Date).
_DATE_RE = re.compile(r"^(\d{4}-\d{2}-\d{2} \d{2}:\d{2})(?:([+-])(\d{2})(\d{2}))?$")


class _HeaderError(Exception):
    def __init__(self, header: str, message: str):
        self.header, self.message = header, message


class _CheckedCatalog(HeaderHookCatalog):
    """A Catalog that checks the headers before Babel interprets them, keeps the headers Babel
    does not know, and remembers the plural forms a message lacks in the file (Babel fills them
    in with '' as it reads). Entries defined twice are found as it is read (:func:`rulebook.adapters.babel.parse_po`)."""

    missing_forms: dict[int | None, tuple[int, ...]] = {}  # noqa: RUF012 - never changed: each catalog read gets a dict of its own; msgstr line -> the N of each msgstr[N] not written

    def check_headers(self, headers: list[tuple[str, str]]) -> None:
        _check_headers(headers)


def _check_headers(headers: list[tuple[str, str]]) -> None:
    for name, value in headers:
        name, value = name.lower(), str(value)
        if "\n" in value:
            # A header line continued on the next line: Babel reads a date from it as None.
            raise _HeaderError(name, f"header {name!r} continues on a second line; write each header on one line")
        if name == "content-type":
            charset = parse_separated_header(value).get("charset", "utf-8").lower()
            if charset not in ("utf-8", "utf8"):
                raise _HeaderError(name, f"charset={charset} is not supported; save the file as UTF-8 and write charset=UTF-8")
        elif name == "plural-forms":
            plurals = parse_separated_header(f" ;{value}").get("nplurals", "2")
            if not plurals.isdigit() or not 1 <= int(plurals) <= MAX_PLURAL_FORMS:
                raise _HeaderError(name, f"nplurals={plurals} must be a number from 1 to {MAX_PLURAL_FORMS}; copy Plural-Forms from the template or a PO editor")
        elif name in ("pot-creation-date", "po-revision-date") and "YEAR" not in value:
            if not _is_date(value):
                raise _HeaderError(name, f"{name} {value!r} is not a date like 2024-05-01 12:00+0200; fix it or remove the header")
        elif name == "language" and value:
            try:
                Locale.parse(value.replace("-", "_"))
            except (ValueError, UnknownLocaleError):
                raise _HeaderError(name, f"unknown language {value!r}; use a code such as en, fr, pt_BR") from None


def _is_date(value: str) -> bool:
    match = _DATE_RE.match(value)
    if match is None:
        return False
    try:
        datetime.datetime.strptime(match.group(1), "%Y-%m-%d %H:%M")  # noqa: DTZ007 - only whether it is a date; the zone is checked beside it
    except ValueError:
        return False
    return match.group(2) is None or (int(match.group(3)) < 24 and int(match.group(4)) < 60)


#: Within :func:`sharing_catalogs`: (digest of the bytes, locale, domain, shown path, extracted) -> what they gave.
_SHARED: ContextVar[dict[tuple[bytes, str | None, str | None, str, bool], tuple[_CheckedCatalog | None, tuple[Problem, ...]]] | None] = (
    ContextVar("rulebook_shared_catalogs", default=None))


@contextlib.contextmanager
def sharing_catalogs() -> Iterator[None]:
    """Within the block, each content of a catalog is parsed once (:func:`read_catalog`).

    For whoever reads the same catalogs several times in one process: ``rulebook i18n compile``
    (checked, then compiled), a test that runs the checks and then its own gates on the same
    files. What was read is forgotten when the block ends (a nested block shares its outer one's).
    """
    if _SHARED.get() is not None:
        yield
        return
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def _copied(catalog: _CheckedCatalog) -> _CheckedCatalog:
    """A catalog as read, to change: its header as it is (plain values), each message a clone."""
    copied = copy_catalog(catalog)
    copied.extra_headers = list(catalog.extra_headers)
    return copied


def read_catalog(path: Path, locale: str | None = None, domain: str | None = None, *,
                 shared: bool = False, data: bytes | None = None, extracted: bool = True) -> tuple[Catalog | None, list[Problem]]:
    """A catalog, or None and the problem at ``FILE:LINE:COL`` when the file is not valid PO.

    Within :func:`sharing_catalogs`, bytes read before with the same arguments are not parsed
    again: a reader that only looks (``shared``) gets the very catalog read then, which it must
    never change; any other reader gets a copy of it. Elsewhere every read parses the file.
    ``data``: the file's bytes when the caller has read them (to keep what it makes of them
    with the very bytes parsed); None: the file is read here. ``extracted``: False for a reader that
    never looks at a message's references and extracted comments (``#:``, ``#.``: a third of the
    lines Babel parses in a build's catalogs), which the catalog then lacks; the same problems.
    """
    shown = display_path(path)
    if data is None:
        try:
            data = read_catalog_limited(path, shown)
        except LoadError as exc:
            return None, list(exc.problems)
    data = data.removeprefix(codecs.BOM_UTF8)  # some editors on Windows add one
    memo = _SHARED.get()
    if memo is None:
        return _parsed(data, shown, locale, domain, extracted)
    key = (hashlib.blake2b(data, digest_size=16).digest(), locale, domain, shown, extracted)
    found = memo.get(key)
    if found is None:
        if not shared:
            return _parsed(data, shown, locale, domain, extracted)  # changed by its reader: nothing to keep
        catalog, problems = _parsed(data, shown, locale, domain, extracted)
        found = memo[key] = (catalog, tuple(problems))
    catalog, kept = found
    return (catalog if shared or catalog is None else _copied(catalog)), list(kept)


def _parsed(data: bytes, shown: str, locale: str | None, domain: str | None, extracted: bool = True) -> tuple[_CheckedCatalog | None, list[Problem]]:
    """What :func:`read_catalog` says of a file's bytes (``shown``: its path in the problems)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line, column = before.count(b"\n") + 1, exc.start - before.rfind(b"\n")
        return None, [Problem(shown, line, column, f"not valid utf-8: save the file as UTF-8 (byte {data[exc.start]:#04x} is not UTF-8)")]
    # Without the references and extracted comments, their lines blank: every line keeps its number.
    lines = (text if extracted else _EXTRACTED_RE.sub(_blank_lines, text)).split("\n")
    catalog = _CheckedCatalog(locale=locale, domain=domain)
    try:
        # "#~| msgid" is an obsolete entry's previous msgid: a "#|" comment to Babel's parser.
        # Most files have none: their lines go to the parser as they are.
        parsed = [_previous_as_comment(line) if "#~|" in line else line for line in lines] if "#~|" in text else lines
        duplicates = parse_po(catalog, parsed)
    except PoSyntaxError as exc:
        what = exc.detail.replace("\n", "\\n")  # Babel quotes the msgid, newlines and all
        what = what if len(what) <= 200 else what[:200] + "…"
        return None, [Problem(shown, exc.line, 1, f"not a valid PO file (as Babel reads it: {what}); fix the line in a PO editor")]
    except _HeaderError as exc:
        return None, [Problem(shown, _header_line(lines, exc.header), 1, f"{exc.message}")]
    except (ValueError, UnknownLocaleError) as exc:
        return None, [Problem(shown, 1, 1, f"not a valid PO file: {exc}")]
    if (bad := _unquoted_line(text)) is not None:
        return None, [_bad_line_problem(shown, bad, lines[bad - 1] if bad <= len(lines) else "")]
    msgstr_lines = _msgstr_lines(lines)
    if duplicates:
        return None, _duplicate_problems(duplicates, msgstr_lines, shown)
    for message in [*catalog, *catalog.obsolete.values()]:
        if message.user_comments:  # where a previous msgid would be; most messages have none
            _restore_previous(message)
        message.lineno = _msgstr_line(msgstr_lines, message.lineno)
    catalog.missing_forms = _missing_forms(catalog, lines)
    return catalog, []


# A run of reference and extracted-comment lines ("#:", "#."; a reference with U+2068/U+2069, which
# Babel may refuse, is left to it) followed by a line on which Babel ends the message before it
# anyway: another comment, a msgctxt or a msgid. Babel ends it at the run's first line, so the
# run blanked changes nothing else it reads, nor any error it raises (at the msgid's line).
_EXTRACTED_RE = re.compile(r"^(?:#[:.][^\n\u2068\u2069]*\n)+(?=[ \t]*(?:#(?!~)|msgctxt |msgid ))", re.MULTILINE)


def _blank_lines(run: re.Match[str]) -> str:
    return "\n" * run.group().count("\n")


def _missing_forms(catalog: Catalog, lines: list[str]) -> dict[int | None, tuple[int, ...]]:
    """The forms each plural message lacks in the file, by its msgstr line: those its header's
    nplurals asks for and no ``msgstr[N]`` line gives. One pass over the lines (and none for a
    catalog without ``msgstr[``)."""
    plurals = [message for message in catalog if message.id and not isinstance(message.id, str)]
    if not plurals:
        return {}
    written: dict[int, set[int]] = {}  # the first line of each run of msgstr[N] lines -> the N
    run: set[int] | None = None
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if line.startswith("msgstr[") and "]" in line:
            run = written.setdefault(number, set()) if run is None else run
            index = line[7:line.index("]")].strip()
            run.add(int(index) if index.isdigit() else -1)
        elif not (run is not None and line.startswith('"')):  # a continued string stays in the run
            run = None
    missing: dict[int | None, tuple[int, ...]] = {}
    for message in plurals:
        if lacking := tuple(n for n in range(catalog.num_plurals) if n not in written.get(message.lineno or 0, ())):
            missing[message.lineno] = lacking
    return missing


def missing_forms(catalog: Catalog, message: Message) -> tuple[int, ...]:
    """The N of each ``msgstr[N]`` a plural message of a catalog as read lacks in its file."""
    found: dict[int | None, tuple[int, ...]] = getattr(catalog, "missing_forms", {})  # a catalog read by read_catalog
    return found.get(message.lineno, ())


def _duplicate_problems(duplicates: list[tuple[Message, Message, bool]], msgstr_lines: list[int], shown: str) -> list[Problem]:
    """Each second entry of one msgctxt and msgid, at its line, naming the first's: GNU gettext's
    fatal "duplicate message definition", the usual leftover of a merge of two catalog edits.
    Which translation is right is the translator's call, so the file is not used until then."""
    problems = []
    for first, second, obsolete in duplicates:
        line, first_line = _msgstr_line(msgstr_lines, second.lineno), _msgstr_line(msgstr_lines, first.lineno)
        msgid = second.id if isinstance(second.id, str) else second.id[0]
        what = "the header (msgid \"\")" if not msgid else ("the #~ entry " if obsolete else "") + f"msgid {_shortened(msgid)!r}" + (
            f" (msgctxt {_shortened(second.context)!r})" if second.context else "")
        problems.append(Problem(shown, line, 1, f"{what} is defined twice, here and at {shown}:{first_line}; "
                                                "keep the entry with the right translation and delete the other"))
    problems.sort(key=lambda p: p.line)
    if len(problems) > MAX_PROBLEMS:
        rest = len(problems) - MAX_PROBLEMS
        problems = problems[:MAX_PROBLEMS] + [Problem(shown, problems[MAX_PROBLEMS].line, 1, f"too many problems; {rest:,} more not shown: fix these first")]
    return problems


def _shortened(text: str) -> str:
    return text if len(text) <= 80 else text[:80] + "…"


def _previous_as_comment(line: str) -> str:
    return "#|" + line.lstrip()[3:] if line.lstrip().startswith("#~|") else line


def _header_line(lines: list[str], header: str) -> int:
    wanted = f'"{header}:'
    return next((n for n, line in enumerate(lines, start=1) if line.strip().lower().startswith(wanted)), 1)


def _msgstr_lines(lines: list[str]) -> list[int]:
    """The numbers (0-based, ascending) of the lines that start a ``msgstr`` (obsolete ones too)."""
    return [number for number, line in enumerate(lines)
            if "msgstr" in line and line.strip().removeprefix("#~").lstrip().startswith("msgstr")]


def _msgstr_line(msgstr_lines: list[int], msgid_line: int | None) -> int:
    """The line of the first ``msgstr`` at or after a message's ``msgid`` (1-based)."""
    if not msgid_line:
        return 1
    at = bisect.bisect_left(msgstr_lines, msgid_line - 1)
    return msgstr_lines[at] + 1 if at < len(msgstr_lines) else msgid_line


# A line as a PO file may hold it: blank, a comment (but an obsolete entry's "#~" lines are
# entries; its "#~|" previous msgid is a comment), or one quoted string after its keyword, with
# any blanks around. Matched on the whole text at once (no line-by-line loop in Python). The
# string is unrolled (runs of plain characters between escapes, each taken whole): the same
# strings as "(?:[^"\\\n]|\\.)*", without an alternation tried at every character (2.4x faster).
_GOOD_LINE = (r'[^\S\n]*(?:#(?!~)[^\n]*|#~\|[^\n]*|(?:#~[^\S\n]*)?'
              r'(?:(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[ \t]+)?"[^"\\\n]*+(?:\\[\\abfnrtv"][^"\\\n]*+)*+")?[^\S\n]*)')
# Good lines one after another, from the start, in one match: re tries the expression at each line's
# start only (a search for a line start where it is not good tried it at every character, twice the time).
_GOOD_LINES_RE = re.compile(f"(?:{_GOOD_LINE}\n)*+")
_GOOD_LAST_RE = re.compile(_GOOD_LINE)


def _unquoted_line(text: str) -> int | None:
    """The first entry line whose string is not properly quoted, which Babel accepts silently.

    Babel strips the first and last character of a string as its quotes without looking, so
    ``msgstr Ciao"`` would lose a letter; such a line is rejected instead of misread.
    """
    good = _GOOD_LINES_RE.match(text)
    end = good.end() if good is not None else 0  # it matches "" at least
    if end == len(text) or _GOOD_LAST_RE.fullmatch(text, end):
        return None  # every line good, the last one (after the last line break) too
    return text.count("\n", 0, end) + 1


# An escape both Babel and GNU gettext read alike; any other (\x41, \101, \u00e9) GNU msgfmt reads
# as a character or refuses, and Babel keeps as its letters: the build and msgfmt would disagree.
_OTHER_ESCAPE_RE = re.compile(r'\\(?:[\\abfnrtv"]|(.))')


def _bad_line_problem(shown: str, line_number: int, line: str) -> Problem:
    for escape in _OTHER_ESCAPE_RE.finditer(line):
        if escape.group(1) is not None:
            return Problem(shown, line_number, escape.start() + 1,
                           f"the escape \\{escape.group(1)} means one thing to GNU gettext (\\x41 and \\101 are 'A' there, "
                           "others an error) and another to Babel (the letters as written); write the character itself "
                           "(the escapes of a catalog: \\n \\t \\\" \\\\)")
    return Problem(shown, line_number, 1, "not a valid PO file: a string must be in double quotes; fix the line in a PO editor")


def _restore_previous(message: Message) -> None:
    """Turn the ``#| msgid "..."`` lines that Babel keeps as user comments back into previous_id."""
    previous = [c for c in message.user_comments if c.startswith("|")]
    if not previous:
        return
    message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
    parts: dict[str, list[str]] = {}
    keyword = ""
    for comment in previous:
        line = comment[1:].strip()
        if not line.startswith('"'):
            keyword, _, line = line.partition(" ")
        parts.setdefault(keyword, []).extend(unescape(q) for q in _QUOTED_RE.findall(line))
    if "msgid" in parts:
        message.previous_id = ["".join(parts["msgid"])] + (["".join(parts["msgid_plural"])] if "msgid_plural" in parts else [])


# --- writing --------------------------------------------------------------------------------


def write_catalog(catalog: Catalog, width: int = 76, include_lineno: bool = True) -> bytes:
    """The catalog as PO text: Babel's layout, and nothing of what was read left out."""
    with linear_wrapping():
        text = "".join(_po_lines(catalog, width, include_lineno))
    return text.encode(catalog.charset or "utf-8", "backslashreplace")


def _po_lines(catalog: Catalog, width: int, include_lineno: bool) -> Iterator[str]:
    # xgettext wraps comments at 76 columns whatever the width of strings (so does write_po),
    # between words only: write_po also breaks after a hyphen, and "[[faccia-" + "planeswalker]]"
    # on two lines reads back as two words.
    comments = TextWrapper(width=76, break_long_words=False, break_on_hyphens=False)

    def comment(text: str, kind: str = "") -> Iterator[str]:
        for line in comments.wrap(text):
            yield f"#{kind} {line.strip()}\n"

    def string(text: str, prefix: str = "") -> str:
        return normalize(text, prefix=prefix, width=width)

    def entry(message: Message, prefix: str = "") -> Iterator[str]:
        mark = "#~|" if prefix else "#|"
        for keyword, previous in zip(("msgid", "msgid_plural"), message.previous_id or ()):
            # As msgmerge writes it: one quoted piece per line, never a piece split across lines.
            first, *rest = string(previous).split("\n")
            yield f"{mark} {keyword} {first}\n"
            yield from (f"{mark} {piece}\n" for piece in rest)
        if message.context:
            yield f"{prefix}msgctxt {string(message.context, prefix)}\n"
        if isinstance(message.id, (list, tuple)):
            yield f"{prefix}msgid {string(message.id[0], prefix)}\n"
            yield f"{prefix}msgid_plural {string(message.id[1], prefix)}\n"
            forms = list(message.string) if isinstance(message.string, (list, tuple)) else [message.string or ""]
            for index in range(max(catalog.num_plurals, len(forms))):
                form = forms[index] if index < len(forms) else ""
                yield f"{prefix}msgstr[{index:d}] {string(form or '', prefix)}\n"
        else:
            yield f"{prefix}msgid {string(message.id, prefix)}\n"
            text = message.string or ""
            assert isinstance(text, str)  # a message without a plural has one string
            yield f"{prefix}msgstr {string(text, prefix)}\n"

    header_comment = catalog.header_comment
    if width and width > 0:
        wrapper = TextWrapper(width=width, subsequent_indent="# ", break_long_words=False)
        header_comment = "\n".join(piece for line in header_comment.splitlines() for piece in wrapper.wrap(line))
    yield f"{header_comment}\n"
    for message in catalog:
        for text in message.user_comments:
            yield from comment(text)
        for text in message.auto_comments:
            yield from comment(text, ".")
        locations = []
        for filename, lineno in sorted(message.locations, key=lambda loc: (loc[0], loc[1] if isinstance(loc[1], int) else -1)):
            shown = filename.replace("\\", "/")
            if " " in shown or "\t" in shown:  # as gettext: a name with blanks between U+2068 and U+2069
                shown = "\u2068" + shown.strip("\u2068\u2069") + "\u2069"
            if lineno and include_lineno:
                shown = f"{shown}:{lineno:d}"
            if shown not in locations:
                locations.append(shown)
        if locations:
            yield from comment(" ".join(locations), ":")
        if message.flags:
            yield f"#{', '.join(['', *sorted(message.flags)])}\n"
        yield from entry(message)
        yield "\n"
    for message in catalog.obsolete.values():
        # As msgmerge keeps them: translator comments, flags (a fuzzy one stays fuzzy if it
        # comes back) and the previous msgid; references and extracted comments went with the source.
        for text in message.user_comments:
            yield from comment(text)
        if message.flags:
            yield f"#{', '.join(['', *sorted(message.flags)])}\n"
        yield from entry(message, "#~ ")
        yield "\n"

"""The one cache of a build, or of a ``mkdocs serve`` session: every value kept, with its inputs.

A build makes the same things again and again (a source text's words, checked in five languages;
a doctest highlighted once for every language) and a rebuild makes most of what the last build
made. Whatever is kept for that goes through one :class:`BuildCache`, made by whoever runs the
build (the MkDocs plugin, one per configuration and process: every rebuild of a ``mkdocs serve``
session shares it; ``rulebook`` commands, one per command) and handed down, or made the active
one (:func:`using`) for the pure helpers deep inside the checks.

Every kind of value is declared once, as a :class:`Kind` naming the inputs its key is made of
(:data:`KINDS` lists them all); asking the cache for a value with other inputs than declared is
an error, and ``tests/test_cache.py`` changes each input of each kind and fails when the cache
hands back what the old inputs made. Three ways of keeping:

- :meth:`BuildCache.memo`: a pure function's result by its argument, for as long as the cache
  lives (no bound: a bound smaller than the site made a cache thrash, issue 31; a serve session's
  memos grow with what its edits add, not with its rebuilds);
- :meth:`BuildCache.last`: the last value made for a slot (a book in a language), with the inputs
  it was made from, compared with ``==``: a serve session keeps one per slot, never a history;
- stored kinds (``stored=True``), written to the cache's folder (the plugin's ``cache_dir``) for
  the next build under a :meth:`BuildCache.version` digest of every input and of the code
  (:func:`code_version`): the translations and check verdicts (:mod:`rulebook.i18n.stored`), the
  checked site and engine catalogs (:mod:`rulebook.i18n.domains`), the highlighted doctests
  (:func:`stored_memoized`, written by :func:`rulebook.keeping.save` at the end of a build), each
  book's pages, search documents and glossary uses (:mod:`rulebook.render.stored_pages`, whose
  version takes each input's bytes from the slot that holds what they made: :meth:`BuildCache.made_from`).

Without an active cache a memoized helper computes every time: a test that replaces a function
gets a cache of its own by default (each build makes one), and production code never looks for
what a test replaced.

What stays outside, and why:

- ``functools`` caches marked ``# pure: cache.py``: pure functions of a few small immutable
  values (an engine's board geometry and move objects, a card's parsed cost, the package's card
  file, a Babel locale or plural rule, a compiled pattern, a script's name, the command line's
  parser, the shipped site words). Each value is a function of its argument alone, so it cannot
  go stale, and the arguments are few (bounded by the code, the languages and the glossary's forms);
- ``render.reuse.COMPILED``: Jinja's compiled templates, keyed by the template's source checksum
  (Jinja's own bytecode-cache interface), shared by every environment of the process, and written
  to the folder's ``templates/`` for the next build (Jinja checks each file's format and checksum);
- per-object memos (a glossary's terms found in each source text, a state's copyable fields per
  class, :data:`rulebook.i18n.scripts._ORDINARY`'s characters per script): values of the object or
  of Unicode's tables;
- the state of a serve session that is not a value of inputs: the pages of the last good build
  (``mkdocs_plugin._SERVED``), the engines' file stamps (``reloading``), the entry points read
  (``engines``), the translation jobs in flight (``i18n.translate._PENDING``, emptied by its block).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import wraps
from importlib import metadata
from pathlib import Path
from typing import TypeVar

from .errors import LoadError
from .limits import MAX_FILE_BYTES, read_limited

T = TypeVar("T")
S = TypeVar("S", bound=str)
A = TypeVar("A", bound=Hashable)

#: The package whose code makes every kept value (every module: a check may use any of them).
PACKAGE = Path(__file__).resolve().parent

#: The libraries whose releases change what is kept: Babel reads the catalogs and its CLDR data
#: gives the plural rules the checks compare with; Pygments highlights the doctests.
LIBRARIES = ("babel", "pygments")


@dataclass(frozen=True)
class Kind:
    """One kind of kept value: its name, the inputs its key is made of, and why it is kept."""

    name: str
    inputs: tuple[str, ...]
    why: str
    stored: bool = False  # also kept on disk between builds (:mod:`rulebook.i18n.stored`)
    entry_inputs: tuple[str, ...] = ()  # a stored file's entries: each one's own key


#: A kept file holds at most what one build used (a catalog's msgstrs with their msgctxts, or every
#: doctest of the site, highlighted): a bound on what is read back, never on what is kept.
STORED_FILE_BYTES = 16 * MAX_FILE_BYTES

#: Every kind declared by the package, by name (the declarations, not values).
KINDS: dict[str, Kind] = {}


def kind(name: str, inputs: tuple[str, ...], why: str, *, stored: bool = False, entry_inputs: tuple[str, ...] = ()) -> Kind:
    """Declare a kind of kept value (once, at import: a second declaration of a name is a bug)."""
    if name in KINDS:
        raise ValueError(f"cache kind {name!r} declared twice")
    declared = KINDS[name] = Kind(name, inputs, why, stored, entry_inputs)
    return declared


def _digest(parts: Iterator[str]) -> str:
    hasher = hashlib.blake2b(digest_size=16)
    for part in parts:
        hasher.update(part.encode("utf-8", "surrogatepass"))
        hasher.update(b"\x1f")
    return hasher.hexdigest()


def parts_digest(parts: Iterable[bytes]) -> str:
    """A digest of byte strings in order, each with its length: no two lists hash alike by their joins."""
    hasher = hashlib.blake2b(digest_size=16)
    for part in parts:
        hasher.update(len(part).to_bytes(8, "little"))
        hasher.update(part)
    return hasher.hexdigest()


def code_version() -> str:
    """A digest of the package's Python code and its shipped data (grammar files, card data: a
    check verdict depends on a label's forms as much as on the code), the interpreter's version
    and the versions of :data:`LIBRARIES`: what was kept under other code is made again. (The
    shipped catalogs are inputs of their own kinds, by their bytes.)"""
    hasher = hashlib.blake2b(sys.version.encode(), digest_size=16)
    for library in LIBRARIES:
        hasher.update(f"{library}=={metadata.version(library)}".encode())
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.yaml")]):
        hasher.update(str(path.relative_to(PACKAGE)).encode())
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


class Same:
    """An input compared by identity (a value whose parts a kept value points into, like a book's
    nodes): it stays alive while kept, so its identity cannot pass to another object."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


def _checked(declared: Kind, names: tuple[str, ...], given: Mapping[str, object]) -> None:
    # Asked once per message checked in a build (27,725 at 5 x 200): no sorting.
    if len(given) != len(names) or any(name not in given for name in names):
        raise TypeError(f"cache kind {declared.name!r} is keyed by {names}, was given {tuple(given)}")


@dataclass
class BuildCache:
    """What one build (or one serve session) keeps; ``folder``: where stored kinds are written
    (None: nothing outlives the process)."""

    folder: Path | None = None
    _memos: dict[str, dict[Hashable, object]] = field(default_factory=dict, repr=False)
    _slots: dict[str, dict[Hashable, tuple[tuple[object, ...], object]]] = field(default_factory=dict, repr=False)
    _code: str = field(default="", repr=False)
    swept: set[Path] = field(default_factory=set, repr=False)  # stored kinds' folders cleaned of a killed build's leftovers
    _used: dict[str, set[str]] = field(default_factory=dict, repr=False)  # stored memos: the keys this build asked for
    _loaded: dict[str, set[str]] = field(default_factory=dict, repr=False)  # stored memos: the keys their file held

    @property
    def code(self) -> str:
        """:func:`code_version`, read once per cache (the package's code does not change in a process)."""
        if not self._code:
            self._code = code_version()
        return self._code

    def memo(self, declared: Kind, key: A, make: Callable[[A], T]) -> T:
        """``make(key)``, made once per key for the cache's life (``declared.inputs``: the key's parts)."""
        table = self._memos.setdefault(declared.name, {})
        try:
            return table[key]  # type: ignore[return-value]
        except KeyError:
            made = table[key] = make(key)
            return made

    def stored_memo(self, declared: Kind, key: str, make: Callable[[str], S]) -> str:
        """:meth:`memo` of a stored kind (text to text), read from the folder at its first use and
        written back by :meth:`save`: kept between builds."""
        table = self._memos.get(declared.name)
        if table is None:
            table = self._memos[declared.name] = self._read_memo(declared)
            self._loaded[declared.name], self._used[declared.name] = {str(key) for key in table}, set()
        self._used[declared.name].add(key)
        try:
            return table[key]  # type: ignore[return-value]
        except KeyError:
            made = table[key] = make(key)
            return made

    def _read_memo(self, declared: Kind) -> dict[Hashable, object]:
        path = self.stored_path(declared, "entries.json")
        data = read_json(path, self.version(declared)) if path is not None else None
        entries = data.get("entries") if data is not None else None
        if not (isinstance(entries, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in entries.items())):
            return {}
        return dict(entries)

    def unsaved(self) -> Iterator[tuple[Path, dict[str, object]]]:
        """Each stored memo's file to write, with what this build used of it, unless its file holds
        exactly that (:func:`rulebook.keeping.save` writes them): a file never grows past its site."""
        for name, used in self._used.items():
            declared, table = KINDS[name], self._memos[name]
            path = self.stored_path(declared, "entries.json")
            if path is not None and used != self._loaded[name]:
                yield path, {"version": self.version(declared), "entries": {key: table[key] for key in sorted(used)}}
                self._loaded[name] = set(used)
            self._used[name] = set()

    def last(self, declared: Kind, slot: Hashable, make: Callable[[], T], **inputs: object) -> T:
        """The value made last for ``slot`` when it was made from equal ``inputs`` (exactly the
        kind's declared inputs); else ``make()``, kept in the slot's place."""
        _checked(declared, declared.inputs, inputs)
        values = tuple(inputs[name] for name in declared.inputs)
        table = self._slots.setdefault(declared.name, {})
        kept = table.get(slot)
        if kept is not None and kept[0] == values:
            return kept[1]  # type: ignore[return-value]
        made = make()
        table[slot] = (values, made)
        return made

    def made_from(self, declared: Kind, slot: Hashable) -> tuple[dict[str, object], object] | None:
        """The value a slot holds and the inputs it was made from (None: it holds none): a stored
        kind made from that value takes its version from the very inputs that made it."""
        kept = self._slots.get(declared.name, {}).get(slot)
        return None if kept is None else (dict(zip(declared.inputs, kept[0], strict=True)), kept[1])

    def holds(self, declared: Kind, slot: Hashable, **inputs: object) -> bool:
        """Whether :meth:`last` would hand back a value made from equal ``inputs`` for ``slot``."""
        _checked(declared, declared.inputs, inputs)
        kept = self._slots.get(declared.name, {}).get(slot)
        return kept is not None and kept[0] == tuple(inputs[name] for name in declared.inputs)

    def forget(self, declared: Kind, slot: Hashable) -> None:
        """Drop what a slot holds (its inputs could not be read: nothing to compare the next with)."""
        self._slots.get(declared.name, {}).pop(slot, None)

    def version(self, declared: Kind, **inputs: str) -> str:
        """A stored file's version: a digest of the code and of exactly the kind's declared inputs."""
        _checked(declared, declared.inputs, inputs)
        return _digest(iter((declared.name, self.code, *(inputs[name] for name in declared.inputs))))

    def entry_key(self, declared: Kind, **inputs: str) -> str:
        """One entry's key in a stored file: a digest of exactly the kind's declared entry inputs."""
        _checked(declared, declared.entry_inputs, inputs)
        return _digest(inputs[name] for name in declared.entry_inputs)

    def stored_path(self, declared: Kind, name: str) -> Path | None:
        """Where a stored kind's file ``name`` lives; None without a folder."""
        return None if self.folder is None else Path(self.folder) / declared.name.replace(" ", "-") / name

    def entries(self) -> Iterator[tuple[Kind, Hashable]]:
        """Every value held in memory, with its kind and its key (or slot)."""
        for name, table in self._memos.items():
            for key in table:
                yield KINDS[name], key
        for name, slots in self._slots.items():
            for slot in slots:
                yield KINDS[name], slot


def read_json(path: Path, version: str) -> dict[str, object] | None:
    """A stored file's content if it is of ``version``; None for anything else (missing, broken, older)."""
    try:
        # Through the limited reader: the cache is the project's own, but a FIFO there must not hang a build.
        data = json.loads(read_limited(path, str(path), limit=STORED_FILE_BYTES))
    except (LoadError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == version else None


_ACTIVE: ContextVar[BuildCache | None] = ContextVar("rulebook_build_cache", default=None)


def current() -> BuildCache | None:
    """The cache of the build running in this thread; None outside a build."""
    return _ACTIVE.get()


@contextmanager
def using(cache: BuildCache) -> Iterator[BuildCache]:
    """Make ``cache`` the active one while the block runs (the helpers of :func:`memoized` use it)."""
    token = _ACTIVE.set(cache)
    try:
        yield cache
    finally:
        _ACTIVE.reset(token)


def _through_active(function: Callable[[A], T], ask: Callable[[BuildCache, A, Callable[[A], T]], T]) -> Callable[[A], T]:
    """``function`` asked of the active cache by ``ask`` (computed each time without one)."""
    @wraps(function)
    def cached(argument: A) -> T:
        cache = _ACTIVE.get()
        return function(argument) if cache is None else ask(cache, argument, function)

    return cached


def stored_memoized(declared: Kind) -> Callable[[Callable[[str], S]], Callable[[str], str]]:
    """:func:`memoized` for a text-to-text function whose results are kept between builds."""
    if declared.inputs or len(declared.entry_inputs) != 1 or not declared.stored:
        raise ValueError(f"{declared.name!r}: a stored memo is a stored kind whose file is of the code alone and whose entries have one input")

    def wrap(function: Callable[[str], S]) -> Callable[[str], str]:
        return _through_active(function, lambda cache, argument, make: cache.stored_memo(declared, argument, make))

    return wrap


def memoized(declared: Kind) -> Callable[[Callable[[A], T]], Callable[[A], T]]:
    """A pure function of one hashable argument, kept in the active cache (computed each time
    without one). ``declared.inputs`` is that one argument: the code is the same in a process."""
    if len(declared.inputs) != 1:
        raise ValueError(f"a memoized function takes one argument; {declared.name!r} declares {declared.inputs}")

    def wrap(function: Callable[[A], T]) -> Callable[[A], T]:
        return _through_active(function, lambda cache, argument, make: cache.memo(declared, argument, make))

    return wrap


#: The serve sessions of this process: each configuration file's cache, kept from one rebuild to
#: the next (MkDocs makes a new plugin object for each). The one module-level store of values.
_SESSIONS: dict[tuple[str, str], BuildCache] = {}

#: ``mkdocs serve`` serves one configuration; a process that builds many (a test suite, a
#: benchmark) keeps the caches of the last few, not of every site it ever built.
SESSIONS_KEPT = 4


def session(config: str, folder: Path | None) -> BuildCache:
    """The cache of every build of ``config`` in this process, writing stored kinds to ``folder``."""
    key = (config, str(folder))
    found = _SESSIONS.pop(key, None)
    if found is None:
        found = BuildCache(folder)
        while len(_SESSIONS) >= SESSIONS_KEPT:
            del _SESSIONS[next(iter(_SESSIONS))]  # the configuration built longest ago
    _SESSIONS[key] = found  # the newest last
    return found

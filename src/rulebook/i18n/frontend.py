"""``rulebook i18n``: extract, init, update, stats, check, compile — the translators' commands.

Registered into the main parser by :func:`register`; each command returns an exit code.

Which languages: those of the site (the ``languages`` of the rulebook plugin in ``mkdocs.yml``),
every folder under ``locales/`` and each ``-l``; never a list in this code. Each rulebook is a
domain; so are the site's own words (:data:`.domains.SITE`) and the messages of the books'
engines (``engine.base``, ``engine.NAME``), whose catalogs their packages ship: a project gets its own
``locales/LANG/LC_MESSAGES/<domain>.po`` for a language a package does not ship (or when it
already has one, to override messages). Run in a package's own checkout (ours: the toolkit's),
the commands keep its shipped templates and catalogs current too.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from ..errors import LoadError, Problem, counted
from ..languages import language as parse_language
from ..loader import display_path, load_chosen
from ..model import Book
from ..project import Project, configuration_problems, read_project
from . import catalog_path, domain_of
from .catalogs import Stats, Updated, languages_in, read_catalog, refuse_outside, remove_leftovers, serialize, update_catalog, write_atomic
from .checks import check_locales, check_po_file, check_template_file, po_files
from .domains import ENGINE_PREFIX, ENGINES, SITE, ShippedDomain, engine_domain, load_messages, write_domain_template
from .engine_domains import book_engine_domain, misplaced, stale_translations
from .forms import grammar_problems
from .glossary import Glossary, load_glossary
from .grammar import GRAMMAR_FILE
from .headers import HeaderSettings
from .parts import update_book, write_templates
from .plurals import RuleError, babel_rule, move, parse_rule, rule_problem
from .pofile import sharing_catalogs
from .samples import SAMPLE_ENGINE, SCAFFOLD
from .translate import translate_book


@dataclass(frozen=True)
class _Run:
    """What a command works on: the project, its locales folder and the chosen languages."""

    project: Project
    locales: Path
    languages: list[str]  # configured, found under locales/ and given with -l, in that order
    chosen: list[str]  # given with -l only

    @property
    def headers(self) -> HeaderSettings:
        return HeaderSettings.of(self.project)

    def maintains(self, domain: ShippedDomain) -> bool:
        """In a package's own checkout its shipped catalogs are ours to keep current."""
        return domain.maintained_in(Path.cwd())


def _run(args: argparse.Namespace) -> _Run:
    project = read_project(args.config_file)
    locales = args.locales or project.locales
    chosen = [parse_language(code).code for code in getattr(args, "language", None) or ()]
    configured = list(project.languages.codes) if project.languages else []
    return _Run(project, locales, list(dict.fromkeys([*configured, *languages_in(locales), *chosen])), chosen)


def _books(args: argparse.Namespace, run: _Run) -> dict[str, Book]:
    return load_chosen(getattr(args, "paths", None) or [run.project.rules])


def _shipped(books: Iterable[Book], mapped: bool = False) -> list[ShippedDomain]:
    """The shipped domains the books' site shows: its words, the engines' shared messages and
    the messages of each book's engine (that ships any). ``mapped``: an engine module of this
    project without its mapping gets one (:mod:`.engine_domains`), as extraction needs."""
    names = dict.fromkeys(book.engine for book in books)
    if mapped:
        engines = [found for name in names if (found := book_engine_domain(name, Path.cwd())) is not None]
    else:
        engines = [found for name in names if (found := engine_domain(name)) is not None]
    return [SITE, ENGINES, *engines, *_sample_domains()]


def _sample_domains() -> list[ShippedDomain]:
    """In the toolkit's own checkout, the sample project's words (the domains of `rulebook new`)
    are the translators' work too: init, update, stats and check take them with the site's."""
    return [domain for domain in (SCAFFOLD, SAMPLE_ENGINE) if domain.maintained_in(Path.cwd())]


def _warn_misplaced(books: Iterable[Book]) -> None:
    for warning in misplaced(book.engine for book in books):
        print(warning)


def _shipped_catalogs(run: _Run, domain: ShippedDomain, languages: Iterable[str]) -> list[tuple[str, Path]]:
    """(language, catalog) of a shipped domain to keep current, in the package or the project."""
    found = []
    for lang in languages:
        project_catalog = catalog_path(run.locales, lang, domain.name)
        if run.maintains(domain):
            found.append((lang, domain.catalog(lang)))
        elif not domain.catalog(lang).exists():
            found.append((lang, project_catalog))  # a language the package does not ship
        if project_catalog.exists() and (lang, project_catalog) not in found:
            found.append((lang, project_catalog))  # the project's own overrides
    return found


def extract(args: argparse.Namespace) -> int:
    run = _run(args)
    books = _books(args, run)
    for book in books.values():
        templates = write_templates(book, run.locales, settings=run.headers, root=Path(run.locales).absolute().parent)
        for path, template, written in templates.written:
            _report_template(path, template, written)
        _report_removed(templates.stale)
    follows = _source_language(run)
    for domain in _shipped(books.values(), mapped=True):
        if run.maintains(domain):
            template, written = write_domain_template(domain, settings=run.headers, follows=domain.follows(follows))
            _report_template(domain.template, template, written)
    _warn_misplaced(books.values())
    return 0


def _report_template(path: Path, template: Catalog, written: bool) -> None:
    print(f"{'wrote' if written else 'unchanged'} {display_path(path)} ({sum(1 for m in template if m.id)} messages)")


def _report_removed(paths: list[Path], write: bool = True) -> int:
    """Say which files of another layout (``catalogs:``) a book no longer has; how many are out of date."""
    for path in paths:
        print(f"{'removed' if write else 'out of date'} {display_path(path)} (the book files its messages elsewhere now)")
    return 0 if write else len(paths)


def _report_update(result: Updated, write: bool) -> None:
    if not write:
        print(f"{'out of date' if result.written else 'up to date'} {display_path(result.path)}")
        return
    state = "created" if result.created else ("updated" if result.written else "unchanged")
    report = result.report
    notes = [f"{len(v)} {k}" for k, v in (("fuzzy", report.fuzzy), ("fuzzy: the text they follow changed", report.followed),
                                          ("obsolete", report.obsolete), ("restored", report.restored)) if v]
    print(f"{state} {display_path(result.path)}" + (f" ({', '.join(notes)})" if notes else ""))


def _update(args: argparse.Namespace, run: _Run, languages: list[str], shipped_too: bool) -> int:
    """Extract, then merge every template into the catalog of each language (creating it)."""
    failed = stale = 0
    write = not getattr(args, "check", False)

    root = Path(run.locales).absolute().parent  # the project: nothing is written outside it

    def merge(template: Catalog, catalogs: list[tuple[str, Path]], domain: str, include_lineno: bool = True, ours: bool = False,
              settings: HeaderSettings | None = None, follows: str | None = None) -> None:
        nonlocal failed, stale
        for lang, path in catalogs:
            if write and not ours:
                refuse_outside(path, root)
            result, problems = update_catalog(template, path, lang, domain, write=write, include_lineno=include_lineno,
                                              settings=settings or run.headers, follows=follows)
            for problem in problems:
                print(problem)
            if result is None:
                failed += 1
                continue
            stale += result.written and not write
            _report_update(result, write)

    books = _books(args, run)
    for book in books.values():
        templates = write_templates(book, run.locales, write=write, settings=run.headers, root=root)
        for path, _, changed in templates.written:
            if changed and not write:
                stale += 1
                print(f"out of date {display_path(path)}")
        stale += _report_removed(templates.stale, write)
        for lang in languages:
            if lang != book.language:
                done = update_book(book, templates.parts, run.locales, lang, write=write, settings=run.headers, root=root)
                for problem in done.problems:
                    print(problem)
                failed += bool(done.problems)
                for result in done.updated:
                    stale += result.written and not write
                    _report_update(result, write)
                stale += _report_removed(done.stale, write)
    if not write:
        for name in dict.fromkeys(book.engine for book in books.values()):
            if engine_domain(name) is None and book_engine_domain(name, Path.cwd(), write=False) is not None:
                stale += 1
                print(f"out of date: the engine {name!r} has no message mapping (locale/{ENGINE_PREFIX}{name}.cfg beside its module)")
    samples = _sample_domains()
    source = _source_language(run)
    for domain in _shipped(books.values(), mapped=write):
        ours = run.maintains(domain)
        follows = domain.follows(source)
        # The sample project's words are the toolkit's, not this site's: their own headers, and
        # only the languages they ship and those asked for (-l, init), never the site's list.
        settings = HeaderSettings() if domain in samples else run.headers
        if ours:
            template, changed = write_domain_template(domain, write=write, settings=settings, follows=follows)
            if changed and not write:
                stale += 1
                print(f"out of date {display_path(domain.template)}")
        else:
            template = _read_template(domain)
        wanted = _with_shipped(run, domain, languages) if shipped_too else languages
        if domain in samples:
            wanted = list(dict.fromkeys([*domain.languages(), *run.chosen]))
        merge(template, _shipped_catalogs(run, domain, wanted), domain.name, include_lineno=False, ours=ours, settings=settings,
              follows=follows)
    _warn_misplaced(books.values())
    if stale:
        print(f"{counted(stale, 'file')} out of date: run `rulebook i18n update`")
    return 1 if failed or stale else 0


def _read_template(domain: ShippedDomain) -> Catalog:
    template, problems = read_catalog(domain.template, shared=True)
    if template is None:
        raise LoadError(list(problems))
    return template


def _with_shipped(run: _Run, domain: ShippedDomain, languages: list[str]) -> list[str]:
    """In a package's checkout, its domain also in every language the package ships."""
    return list(dict.fromkeys([*domain.languages(), *languages])) if run.maintains(domain) else languages


def update(args: argparse.Namespace) -> int:
    run = _run(args)
    return _update(args, run, run.languages, shipped_too=True)


def init(args: argparse.Namespace) -> int:
    run = _run(args)
    code = _update(args, run, run.chosen, shipped_too=False)
    configured = run.project.languages.codes if run.project.languages else ()
    missing = [lang for lang in run.chosen if lang not in configured]
    if code == 0 and missing:
        where = run.project.config_file or "mkdocs.yml"
        print(f"to publish {', '.join(missing)}: add {' and '.join(missing)} to the languages of the rulebook plugin in {where}")
    return code


def stats(args: argparse.Namespace) -> int:
    run = _run(args)
    languages = run.chosen or run.languages
    rows: list[tuple[str, str, Stats]] = []
    unreadable: list[Problem] = []
    books = _books(args, run)
    for book in books.values():
        for lang in languages:
            if lang != book.language:
                translated = translate_book(book, lang, run.locales)
                unreadable.extend(translated.unreadable)
                rows.append((book.id, lang, translated.stats()))
    samples = _sample_domains()
    for domain in _shipped(books.values()):
        template = _read_template(domain)
        every = domain.languages() if domain in samples else _with_shipped(run, domain, languages)
        for lang in languages if run.chosen else every:
            messages = load_messages(domain, lang, run.locales)
            unreadable.extend(messages.unreadable)
            rows.append((domain.name, lang, messages.stats(template)))
    print(f"{'domain':<18} {'lang':<5} {'translated':>10} {'fuzzy':>6} {'untranslated':>12} {'total':>6} {'%':>6}")
    below = []
    for name, lang, s in rows:
        print(f"{name:<18} {lang:<5} {s.translated:>10} {s.fuzzy:>6} {s.untranslated:>12} {s.total:>6} {s.percent:>6.1f}")
        if args.fail_under is not None and s.percent < args.fail_under:
            below.append(f"{name}/{lang} {s.percent:.1f}%")
    if below:
        print(f"below {args.fail_under:g}%: {', '.join(below)}")
    for problem in unreadable:
        # A catalog that cannot be read is an error to fix, not a language "not translated yet".
        print(f"{problem} (counted as untranslated)")
    return 1 if below or unreadable else 0


def _source_language(run: _Run) -> str | None:
    """The books' language: the site's first, else the one the rulebooks name (None: unknown)."""
    if run.project.languages:
        return run.project.languages.source.code
    try:
        found = {book.language for book in load_chosen([run.project.rules]).values()} if Path(run.project.rules).exists() else set()
    except LoadError:
        return None
    return found.pop() if len(found) == 1 else None


def check(args: argparse.Namespace) -> int:
    run = _run(args)
    try:
        books = load_chosen([run.project.rules]).values() if Path(run.project.rules).exists() else ()
    except LoadError:
        books = ()  # the books' own problems are `rulebook check`'s; the shared domains are still checked
    shipped = _shipped(books)
    source = _source_language(run)
    problems: list[Problem] = configuration_problems(run.project) + check_locales(run.locales, run.chosen or None, source=source,
                                            domain_sources={domain.name: domain.source for domain in shipped})
    # The shipped catalogs (the site's words, the engines' sentences) keep the project's spellings as the books do.
    # (Not the samples `rulebook new` writes: a new project's words answer to its own glossary.)
    glossary = load_glossary(run.locales, source=source or SITE.source)
    samples = _sample_domains()
    for domain in shipped:
        if run.maintains(domain):
            if not run.chosen:
                problems.extend(check_template_file(domain.template))
            for lang in domain.languages():
                if not run.chosen or lang in run.chosen:
                    own = domain in samples  # a new project's words: no project's glossary or grammar around them
                    problems.extend(check_po_file(domain.catalog(lang), lang, Glossary() if own else glossary, source=domain.source,
                                                  project=None if own else run.locales))
                    problems.extend(stale_translations(domain, lang, domain.follows(source)))
                    # The names' grammar beside the catalog, read over the language's rules (the
                    # site's file) and under the project's own (locales/LANG/grammar.yaml).
                    dirs = (SITE.locale_dir, domain.locale_dir, *(() if own else (run.locales,)))
                    problems.extend(p for p in grammar_problems(lang, dirs) if p not in problems)
    # The project's grammar files, over the language's rules, in every language it has one for.
    for path in sorted(Path(run.locales).glob(f"*/{GRAMMAR_FILE}")):
        if not run.chosen or path.parent.name in run.chosen:
            problems.extend(p for p in grammar_problems(path.parent.name, (SITE.locale_dir, run.locales)) if p not in problems)
    for problem in problems:
        print(problem)
    _warn_misplaced(books)
    print(f"rulebook i18n check: {counted(len(problems), 'problem')}")
    return 1 if problems else 0


def plural_forms(args: argparse.Namespace) -> int:
    """Move every catalog of one language to another plural rule (default: Babel's), keeping
    every translation: a form whose numbers are not exactly an old form's is marked fuzzy."""
    run = _run(args)
    language = parse_language(args.lang).code
    rule = args.rule or babel_rule(language)
    if wrong := rule_problem(rule, language):
        print(f"rulebook i18n plural-forms: {wrong.replace('move the catalog with', 'see')}")
        return 2
    try:
        books = load_chosen([run.project.rules]).values() if Path(run.project.rules).exists() else ()
    except LoadError:
        books = ()  # the project's own catalogs are still found under locales/
    projects = [path for _, path in po_files(run.locales, [language])]  # the project's: only inside it
    catalogs = projects + [path for domain in _shipped(books) for _, path in _shipped_catalogs(run, domain, [language]) if path.exists()]
    wanted = set(args.domain or ())
    failed = 0
    root = Path(run.locales).absolute().parent
    for path in dict.fromkeys(catalogs):
        if wanted and domain_of(path) not in wanted:
            continue
        catalog, problems = read_catalog(path, domain=domain_of(path))
        if catalog is None or (unreadable := _unreadable_rule(catalog.plural_forms)):
            for problem in problems:
                print(f"{problem} (catalog not moved)")
            if catalog is not None:
                print(f"{display_path(path)}: {unreadable}; fix Plural-Forms by hand first (catalog not moved)")
            failed += 1
            continue
        new = parse_rule(rule)
        if parse_rule(catalog.plural_forms).forms == new.forms and catalog.num_plurals == new.count:
            print(f"unchanged {display_path(path)} (its rule already gives every number the same form)")
            continue
        if path in projects:
            refuse_outside(path, root)
        moved = move(catalog, rule)
        write_atomic(path, serialize(catalog))
        fuzzy = f", {len(moved.fuzzy)} marked fuzzy: a form split or merged, check them" if moved.fuzzy else ""
        print(f"moved {display_path(path)} to {new.text!r} ({counted(moved.messages, 'plural message')}{fuzzy})")
    return 1 if failed else 0


def _unreadable_rule(plural_forms: str) -> str | None:
    try:
        parse_rule(plural_forms)
    except RuleError as exc:
        return f"Plural-Forms {plural_forms!r}: {exc}"
    return None


def compile_catalogs(args: argparse.Namespace) -> int:
    """``.po`` -> ``.mo`` beside it, only for catalogs that pass every check (``pybabel compile``
    trusts the file: a Latin-1 or broken catalog gives it a traceback or a wrong ``.mo``)."""
    run = _run(args)
    source = _source_language(run)
    glossary = load_glossary(run.locales, source=source) if source else Glossary()
    root = Path(run.locales).absolute().parent
    refused = written = 0
    for language, path in po_files(run.locales, run.chosen or None):
        if _compile(path, language, glossary, root):
            written += 1
        else:
            refused += 1
    print(f"rulebook i18n compile: {counted(written, 'catalog')} written, {refused} refused")
    return 1 if refused else 0


def _compile(path: Path, language: str, glossary: Glossary, root: Path) -> bool:
    """Write the ``.mo`` of one catalog if it passes every check (True), else say why (False)."""
    # A shipped domain's msgids are in its source language: the site's, and every engine's (English).
    domain = domain_of(path)  # a section's catalog is its book's domain
    shipped_source = SITE.source if domain == SITE.name else ENGINES.source if domain.startswith(ENGINE_PREFIX) else None
    with sharing_catalogs():  # the catalog is parsed once, for its checks and for its .mo
        problems = check_po_file(path, language, glossary, shipped_source)
        catalog = read_catalog(path, domain=domain, shared=True)[0] if not problems else None
    if catalog is None:
        for problem in problems:
            print(problem)
        print(f"refused {display_path(path)}: {counted(len(problems), 'problem')}; fix them, then compile again")
        return False
    target = path.with_suffix(".mo")
    refuse_outside(target, root)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)  # a fuzzy translation is not shown, so not compiled
    remove_leftovers(target)
    write_atomic(target, buffer.getvalue())
    print(f"compiled {display_path(target)}")
    return True


def _show_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2  # nothing was done


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``i18n`` and its subcommands to the ``rulebook`` parser."""
    group = commands.add_parser("i18n", help="translations: make, update, count, check and compile the catalogs",
                                description="The translators' commands. Each rulebook has one catalog per language, "
                                            "locales/LANG/LC_MESSAGES/BOOK.po, made from the template locales/templates/BOOK.pot "
                                            "(a book with 'catalogs: sections' one per section too, BOOK/SECTION.po); "
                                            "the site's own words are the catalog site.po.")
    sub = group.add_subparsers(dest="i18n_command", title="commands", metavar="COMMAND")
    # `rulebook i18n` alone: its commands listed (the help), not argparse's "required: COMMAND".
    group.set_defaults(run=lambda args: _show_help(group))

    def add(name: str, run: Callable[[argparse.Namespace], int], help: str, paths: bool = True) -> argparse.ArgumentParser:  # noqa: A002 - argparse's word, as its callers say it
        parser = sub.add_parser(name, help=help, description=help[:1].upper() + help[1:] + ".")
        if paths:
            parser.add_argument("paths", nargs="*", metavar="PATH",
                                help="rulebook files or folders (default: the rules folder of mkdocs.yml, or rules)")
        parser.add_argument("--locales", type=Path, default=None, metavar="FOLDER",
                            help="the catalogs' folder (default: the locales folder of mkdocs.yml, or locales)")
        parser.add_argument("-f", "--config-file", type=Path, default=None, metavar="FILE",
                            help="the project's MkDocs configuration, for its languages and folders (default: mkdocs.yml if present)")
        parser.set_defaults(run=run)
        return parser

    languages_help = "the languages of mkdocs.yml and every folder under locales/"
    add("extract", extract, "write the templates, locales/templates/BOOK.pot, from the rulebooks")
    initing = add("init", init, "create every catalog of a new language (each rulebook's and the site's words)", paths=False)
    initing.add_argument("language", nargs="+", metavar="LANG", help="the new language, any code Babel knows: de, pt_BR, ar …")
    updating = add("update", update, "extract the templates, then bring every catalog up to date "
                                     "(a changed text is marked fuzzy, a removed one kept as #~)")
    updating.add_argument("-l", "--language", action="append", metavar="LANG",
                          help=f"also create or update this language (repeatable; default: {languages_help})")
    updating.add_argument("--check", action="store_true",
                          help="write nothing; exit 1 if a template or catalog is out of date, for CI (default: write the files)")
    stat = add("stats", stats, "how much is translated, per rulebook (and the site's words) and language")
    stat.add_argument("-l", "--language", action="append", metavar="LANG",
                      help=f"only this language (repeatable; default: {languages_help})")
    stat.add_argument("--fail-under", type=float, metavar="PCT",
                      help="exit 1 when any rulebook or language is below PCT%% translated (default: never)")
    add("check", check, "check every catalog: PO syntax, symbols, cross-references, numbers, markup, HTML, links, glossary, "
                        "placeholders", paths=False).add_argument(
        "-l", "--language", action="append", metavar="LANG", help="only this language (repeatable; default: every catalog under locales/)")
    moving = add("plural-forms", plural_forms, "move every catalog of a language to another plural rule, keeping every "
                                               "translation (a form split or merged is marked fuzzy)", paths=False)
    moving.add_argument("lang", metavar="LANG", help="the catalogs' language")
    moving.add_argument("--rule", metavar="RULE", help="the new rule, as Plural-Forms writes it: 'nplurals=2; plural=(n > 1);' "
                                                       "(default: the installed Babel's rule for LANG)")
    moving.add_argument("--domain", action="append", metavar="DOMAIN",
                        help="only this catalog: a rulebook's id, site, engine.NAME (repeatable; default: every catalog of LANG)")
    add("compile", compile_catalogs, "write a .mo beside each catalog that passes every check; refuse the others",
        paths=False).add_argument("-l", "--language", action="append", metavar="LANG",
                                  help="only this language (repeatable; default: every catalog under locales/)")

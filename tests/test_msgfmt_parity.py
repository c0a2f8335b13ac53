"""`rulebook i18n check` refuses what GNU gettext's `msgfmt -c --check-format` refuses.

Each catalog below is broken in one way msgfmt finds (a duplicate entry, a format placeholder
lost or renamed, a line break at an end, a header it cannot use, more plural forms than the
header says, fewer, a plural message without Plural-Forms) or is clean; both tools read each
file, and their verdicts (refused or not) must agree. Where rulebook is stricter than msgfmt (a
charset other than UTF-8, a header still holding Babel's placeholders, a translation that drops a
game symbol, a plural rule that is not one of the language's), msgfmt's verdict says nothing, so
such files are not here.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rulebook.cli import main

MSGFMT = shutil.which("msgfmt")
pytestmark = pytest.mark.skipif(MSGFMT is None, reason="GNU gettext's msgfmt is not installed (.ci/run installs Debian's gettext)")

HEADER = """\
# French translation of demo.
msgid ""
msgstr ""
"Project-Id-Version: demo\\n"
"PO-Revision-Date: 2024-05-01 12:00+0200\\n"
"Last-Translator: Anne <anne@example.org>\\n"
"Language-Team: French\\n"
"Language: fr\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"
"""

CLEAN = """
msgctxt "demo/r1:text"
msgid "Paga {W} e pesca."
msgstr "Payez {W} et piochez."

#, python-format
msgctxt "demo/r2:text"
msgid "Hai %(count)d carte."
msgstr "Vous avez %(count)d cartes."

msgctxt "demo/r3:text"
msgid "Una carta"
msgid_plural "Tante carte"
msgstr[0] "Une carte"
msgstr[1] "Beaucoup de cartes"
"""


def entry(context: str, msgid: str, msgstr: str, flags: str = "", obsolete: bool = False) -> str:
    mark = "#~ " if obsolete else ""
    return (f"\n#, {flags}\n" if flags else "\n") + f'{mark}msgctxt "{context}"\n{mark}msgid "{msgid}"\n{mark}msgstr "{msgstr}"\n'


#: name -> (the file, whether msgfmt and rulebook must refuse it).
CATALOGS = {
    "clean": (HEADER + CLEAN, False),
    "clean, an obsolete entry": (HEADER + CLEAN + entry("demo/old:text", "Vecchio.", "Vieux.", obsolete=True), False),
    "a duplicate entry": (HEADER + CLEAN + entry("demo/r1:text", "Paga {W} e pesca.", "Payez {W}, puis piochez."), True),
    "a duplicate obsolete entry": (HEADER + CLEAN + entry("demo/old:text", "Vecchio.", "Vieux.", obsolete=True)
                                   + entry("demo/old:text", "Vecchio.", "Ancien.", obsolete=True), True),
    "a msgid live and obsolete": (HEADER + CLEAN + entry("demo/r1:text", "Paga {W} e pesca.", "Payez {W} et piochez.", obsolete=True), True),
    "a python-format placeholder renamed": (HEADER + entry("demo/r4:text", "Hai %(count)d carte.", "Vous avez %(cards)d cartes.", "python-format"), True),
    "a python-format placeholder dropped": (HEADER + entry("demo/r4:text", "Hai %d carte.", "Vous avez des cartes.", "python-format"), True),
    "a python-format placeholder of another kind": (HEADER + entry("demo/r4:text", "Hai %(count)d carte.", "Vous avez %(count)s cartes.", "python-format"), True),
    "a python-brace-format placeholder added": (HEADER + entry("demo/r4:text", "Hai {count} carte.", "Vous avez {count} cartes {nom}.", "python-brace-format"), True),
    "a python-brace-format placeholder dropped": (HEADER + entry("demo/r4:text", "Hai {count} carte.", "Vous avez des cartes.", "python-brace-format"), True),
    "a line break lost at the end": (HEADER + entry("demo/r4:text", "Una riga\\n", "Une ligne"), True),
    "a line break added at the start": (HEADER + entry("demo/r4:text", "Una riga", "\\nUne ligne"), True),
    "no header": (CLEAN.lstrip(), True),
    "nplurals=0": (HEADER.replace("nplurals=2; plural=(n > 1)", "nplurals=0; plural=0") + CLEAN, True),
    "more plural forms than nplurals": (HEADER + CLEAN.replace('msgstr[1] "Beaucoup de cartes"', 'msgstr[1] "Beaucoup de cartes"\nmsgstr[2] "Trop"'), True),
    # Babel reads the missing form as '' and the missing header as the language's rule: the
    # file's own lines say otherwise.
    "fewer plural forms than nplurals": (HEADER + CLEAN.replace('\nmsgstr[1] "Beaucoup de cartes"', ""), True),
    "a plural message and no Plural-Forms": (HEADER.replace('"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n', "") + CLEAN, True),
    "CLDR's French rule, with its form for millions": (
        HEADER.replace("nplurals=2; plural=(n > 1);", "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;")
        + CLEAN.replace('msgstr[1] "Beaucoup de cartes"', 'msgstr[1] "Des millions de cartes"\nmsgstr[2] "Beaucoup de cartes"'), False),
}


def msgfmt_refuses(path: Path) -> bool:
    found = subprocess.run([MSGFMT, "-c", "--check-format", "-o", "/dev/null", str(path)], capture_output=True, text=True, timeout=60)
    return found.returncode != 0


@pytest.mark.parametrize("name", CATALOGS)
def test_rulebook_refuses_what_msgfmt_refuses(tmp_path, monkeypatch, capsys, name):
    text, refused = CATALOGS[name]
    path = tmp_path / "locales" / "fr" / "LC_MESSAGES" / "demo.po"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert msgfmt_refuses(path) is refused, f"msgfmt's verdict on {name!r} is not the one this case is about"
    code = main(["i18n", "check"])
    out = capsys.readouterr().out
    assert (code == 1) is refused, out
    if refused:
        assert "locales/fr/LC_MESSAGES/demo.po:" in out, out

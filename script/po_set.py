"""Set translations in the catalogs from the command line (a maintainer's helper).

    .venv/bin/python script/po_set.py es "msgid text" "traducción" [ru "msgid" "перевод" ...]

Clears the fuzzy flag of each entry set; run ``pybabel update`` afterwards to normalise layout.
For plural entries, give the forms separated by `` || ``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    if len(argv) % 3:
        print(__doc__, file=sys.stderr)
        return 2
    for lang, msgid, text in zip(argv[0::3], argv[1::3], argv[2::3], strict=True):
        path = ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        found = [
            m
            for m in catalog
            if m.id and (m.id == msgid or (isinstance(m.id, tuple) and m.id[0] == msgid))
        ]
        if not found:
            print(f"{lang}: no msgid {msgid!r}", file=sys.stderr)
            return 1
        for message in found:
            message.string = tuple(text.split(" || ")) if isinstance(message.id, tuple) else text
            message.flags.discard("fuzzy")
        with path.open("wb") as fh:
            write_po(fh, catalog, width=76)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

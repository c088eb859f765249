#!/usr/bin/env python3
"""Write ``tests/data/transcripts.json``: every lesson walked by clicks, each input with
what the lesson showed after it (see ``tests/transcript.py``). ``tests/test_transcripts.py``
replays the file and names the first input that differs.

Regenerate it only with this script, and only when the change is intended; the commit that
changes the file says why (what a learner now sees differently). ``--check`` compares
instead of writing (exit 1 on a difference).

Run: ``.venv/bin/python script/make_transcripts.py [--check] [--lesson ID ...]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.transcript import ABOUT, DATA, FORMAT, dumps, lessons, record_lesson  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    parser.add_argument("--lesson", action="append", default=[], help="only these lesson ids")
    args = parser.parse_args()
    start = time.process_time()
    chosen = [lesson for lesson in lessons() if not args.lesson or lesson.id in args.lesson]
    recorded = [record_lesson(lesson) for lesson in chosen]
    data = {"about": ABOUT, "format": FORMAT, "lessons": recorded}
    text = dumps(data)
    inputs = sum(len(walk) for entry in recorded for walk in entry["walks"].values())
    if args.check:
        old = json.loads(DATA.read_text(encoding="utf-8"))
        same = (
            old == json.loads(text)
            if not args.lesson
            else all(entry in old["lessons"] for entry in recorded)
        )
        print(f"{len(recorded)} lessons, {inputs} inputs: {'unchanged' if same else 'CHANGED'}")
        return 0 if same else 1
    if args.lesson:
        parser.error("--lesson only with --check: the file holds every lesson")
    DATA.write_text(text, encoding="utf-8")
    print(
        f"wrote {DATA.relative_to(ROOT)}: {len(recorded)} lessons, {inputs} inputs, "
        f"{len(text) // 1024} KiB in {time.process_time() - start:.1f} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

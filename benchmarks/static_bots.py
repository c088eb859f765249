"""Decision time of the play page's computer levels inside Pyodide (the static site's Python).

The static site runs the kernel in the browser on Pyodide (WebAssembly), where the search is
slower than in the server's CPython (about 1.8 times under Node), so ``tutorial/opponent.py``
caps every search level's decision in time there, within the page's pause. This script
measures those levels where they run: it starts the Pyodide the static build ships
(``build/static/static/pyodide``, made by ``script/test`` or the static-site build) under
Node, copies ``durak_core`` and ``tutorial/opponent.py`` into its file system, and times every
decision of each level playing heads-up games against the heuristic (same seeds as CPython,
for comparison, printed alongside).

Run: ``.venv/bin/python benchmarks/static_bots.py [--games N]``. The last line is the
headline: ``pyodide Normal level median decision: X ms``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "build" / "static" / "static" / "pyodide"

MEASURE = r"""
import json, random, statistics, sys, time
from durak_core import Game, Rules, observe
from durak_core.bots import make_bot
from durak_core.bots.match import next_seat
from tutorial.opponent import PAGE_LEVELS, page_bot

def measure(level, games):
    times = []
    for seed in range(games):
        game = Game.deal(Rules(), 2, seed)
        bots = {0: page_bot(level), 1: make_bot("heuristic")}
        rng = random.Random(seed)
        while game.outcome is None and len(game.history) < 1000:
            seat = next_seat(game)
            obs = observe(game, seat)
            start = time.perf_counter()
            action = bots[seat].choose(obs, rng)
            spent = time.perf_counter() - start
            if seat == 0 and len(obs.legal) > 1:
                times.append(spent)
            game.push(action)
    times.sort()
    return {
        "decisions": len(times),
        "median_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))],
        "max_ms": 1000 * times[-1],
    }

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 4
print(json.dumps({"platform": sys.platform, **{lv: measure(lv, GAMES) for lv in PAGE_LEVELS}}))
"""

RUNNER = r"""
const path = require("path");
const { loadPyodide } = require(path.join(process.argv[2], "pyodide.js"));
(async () => {
  const pyodide = await loadPyodide({ indexURL: process.argv[2] + "/" });
  const files = JSON.parse(require("fs").readFileSync(process.argv[3], "utf8"));
  for (const [name, text] of Object.entries(files)) {
    pyodide.FS.mkdirTree("/work/" + path.dirname(name));
    pyodide.FS.writeFile("/work/" + name, text);
  }
  pyodide.runPython("import sys; sys.path.insert(0, '/work'); sys.argv = ['', '" +
                    process.argv[4] + "']");
  let out = "";
  pyodide.setStdout({ batched: (s) => { out += s + "\n"; } });
  pyodide.runPython(files["__measure__.py"]);
  process.stdout.write(out);
})().catch((e) => { console.error(e); process.exit(1); });
"""


def sources() -> dict[str, str]:
    files = {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
        for p in sorted((ROOT / "durak_core").rglob("*.py"))
    }
    for name in ("tutorial/__init__.py", "tutorial/opponent.py"):
        files[name] = (ROOT / name).read_text(encoding="utf-8")
    files["__measure__.py"] = MEASURE
    return files


def run_cpython(games: int) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(games)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, object] = json.loads(out)
    return result


def run_pyodide(games: int) -> dict[str, object]:
    node = shutil.which("node")
    if node is None or not (PYODIDE / "pyodide.js").exists():
        raise SystemExit(
            "needs node and the static build's Pyodide (build/static/static/pyodide): "
            "run script/test once (it builds the static site)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        runner = Path(tmp) / "run.js"
        runner.write_text(RUNNER)
        data = Path(tmp) / "files.json"
        data.write_text(json.dumps(sources()))
        out = subprocess.run(
            [node, str(runner), str(PYODIDE), str(data), str(games)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="heads-up games per level")
    args = parser.parse_args(argv)
    for label, run in (("cpython", run_cpython), ("pyodide", run_pyodide)):
        result = run(args.games)
        print(f"{label} ({result.pop('platform')}):", flush=True)
        for level, figures in result.items():
            assert isinstance(figures, dict)
            print(
                f"  {level}: {figures['decisions']} decisions, median "
                f"{figures['median_ms']:.0f} ms, p95 {figures['p95_ms']:.0f} ms, "
                f"max {figures['max_ms']:.0f} ms",
                flush=True,
            )
        if label == "pyodide":
            normal = result["pimc"]
            assert isinstance(normal, dict)
            print(f"pyodide Normal level median decision: {normal['median_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

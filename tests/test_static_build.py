"""Steps of ``script/build-static`` that need no build: the patches of Voici's bundles (one lets
it free a closed widget model, one leaves out the service-worker manager) and the rewriting of
third-party wheels (:mod:`static_site.lean`)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from static_site.config import BuildError
from static_site.lean import Lean, lean_wheel, rules
from static_site.pycompile import Page
from static_site.voici_site import (
    COMM_STATUS_SLOT,
    COMM_STATUS_SLOT_FREED,
    SERVICE_WORKER_PLUGIN,
    free_closed_comms,
    no_service_worker,
)
from static_site.wheels import write_wheel
from tutorial.i18n import SUPPORTED_LANGUAGES

#: A line of the minified CommHandler constructor as Voici ships it.
BUNDLE = (
    "class c extends a.DisposableDelegate{constructor(e,t,s,n,i){super(n),this._id=t,"
    f"this._kernel=s,{COMM_STATUS_SLOT},this.commsOverSubshells=i}}}}"
)


def site_with(tmp_path: Path, *bundles: str) -> Path:
    folder = tmp_path / "voici" / "build"
    folder.mkdir(parents=True)
    for i, text in enumerate(bundles):
        (folder / f"{i}.js").write_text(text, encoding="utf-8")
    return tmp_path


def test_the_comm_handler_disconnects_its_status_slot_when_disposed(tmp_path: Path) -> None:
    site = site_with(tmp_path, "console.log(1)", BUNDLE)
    free_closed_comms(site)
    patched = (site / "voici" / "build" / "1.js").read_text(encoding="utf-8")
    assert COMM_STATUS_SLOT not in patched and patched.count(COMM_STATUS_SLOT_FREED) == 1
    assert "statusChanged.disconnect(this._durakStatus)" in patched
    assert (site / "voici" / "build" / "0.js").read_text(encoding="utf-8") == "console.log(1)"


@pytest.mark.parametrize("bundles", [("console.log(1)",), (BUNDLE, BUNDLE)])
def test_the_build_fails_when_the_code_to_patch_moved(tmp_path: Path, bundles: tuple[str]) -> None:
    with pytest.raises(BuildError, match="comm handler is not where it was"):
        free_closed_comms(site_with(tmp_path, *bundles))


#: Voici's app picks the plugins it activates, the service-worker manager among them (both of
#: its entry bundles do).
APP_PLUGINS = (
    "n(47774).Ay.filter((e=>e.id!==1)),"
    f"n(19747).default.filter((e=>{SERVICE_WORKER_PLUGIN})),n(30939)"
)


def test_voici_starts_no_service_worker(tmp_path: Path) -> None:
    site = site_with(tmp_path, APP_PLUGINS, "console.log(1)", APP_PLUGINS)
    no_service_worker(site)
    for name in ("0.js", "2.js"):
        patched = (site / "voici" / "build" / name).read_text(encoding="utf-8")
        assert "service-worker-manager" not in patched
        assert "n(19747).default.filter((e=>!1))" in patched


def test_the_build_fails_when_voici_no_longer_picks_the_service_worker(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="service-worker manager is not where it was"):
        no_service_worker(site_with(tmp_path, "console.log(1)"))


def fake_wheel(folder: Path, name: str, version: str, files: dict[str, bytes]) -> Path:
    info = f"{name}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    return write_wheel(
        folder / f"{name}-{version}-py3-none-any.whl",
        {**files, f"{info}/METADATA": metadata},
        info,
    )


def test_a_lean_wheel_drops_patches_and_renames(tmp_path: Path) -> None:
    source = fake_wheel(
        tmp_path,
        "demo",
        "1.0",
        {"demo/__init__.py": b"from .big import x\n", "demo/big.py": b"x = 1\n",
         "demo/tests/test_x.py": b"", "demo-1.0.data/data/share/x.js": b""},
    )  # fmt: skip
    rule = Lean(
        "demo",
        drop=lambda name: "/tests/" in name or name.startswith("demo-1.0.data/"),
        patches={"demo/__init__.py": (b"from .big import x\n", b"x = 2\n")},
        required=frozenset({"demo/big.py"}),
    )
    lean = lean_wheel(source, tmp_path / "out", rule)
    assert lean.name == "demo-1.0+lean-py3-none-any.whl"
    with zipfile.ZipFile(lean) as wheel:
        names = set(wheel.namelist())
        assert names == {
            "demo/__init__.py", "demo/big.py",
            "demo-1.0+lean.dist-info/METADATA", "demo-1.0+lean.dist-info/RECORD",
        }  # fmt: skip
        assert wheel.read("demo/__init__.py") == b"x = 2\n"
        assert b"Version: 1.0+lean" in wheel.read("demo-1.0+lean.dist-info/METADATA")
        assert b"demo/big.py,sha256=" in wheel.read("demo-1.0+lean.dist-info/RECORD")


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (Lean("x", patches={"demo/__init__.py": (b"gone\n", b"")}), "no longer holds"),
        (Lean("x", patches={"demo/other.py": (b"a", b"b")}), "has no"),
        (Lean("x", required=frozenset({"demo/big.py"}), drop=lambda n: "big" in n), "has no"),
    ],
)
def test_a_lean_rule_that_no_longer_fits_stops_the_build(
    tmp_path: Path, rule: Lean, message: str
) -> None:
    source = fake_wheel(
        tmp_path, "demo", "1.0", {"demo/__init__.py": b"x\n", "demo/big.py": b"y\n"}
    )
    with pytest.raises(BuildError, match=message):
        lean_wheel(source, tmp_path / "out", rule)


def test_the_real_rules_keep_what_the_kernel_imports() -> None:
    found = rules(SUPPORTED_LANGUAGES)
    assert set(found) == {"babel", "pygments", "anywidget", "ipywidgets", "ipython"}
    other = next(code for code in ("de", "fr", "it") if code not in SUPPORTED_LANGUAGES)
    assert found["babel"].drop(f"babel/locale-data/{other}.dat")
    for code in ("root", *SUPPORTED_LANGUAGES):
        assert not found["babel"].drop(f"babel/locale-data/{code}.dat"), code
    assert found["pygments"].drop("pygments/lexers/javascript.py")
    assert not found["pygments"].drop("pygments/lexers/python.py")
    assert not found["pygments"].drop("pygments/formatters/html.py")
    assert found["anywidget"].drop("anywidget/labextension/static/main.js")
    assert found["anywidget"].drop("anywidget-0.11.0.data/data/share/jupyter/x.js")
    assert not found["anywidget"].drop("anywidget/widget.py")
    assert not found["anywidget"].drop("anywidget-0.11.0.dist-info/METADATA")
    assert "IPython/__init__.py" in found["ipython"].patches


def test_a_page_is_the_code_of_its_notebook(tmp_path: Path) -> None:
    notebook = tmp_path / "07-demo.ipynb"
    notebook.write_text(
        json.dumps(
            {"cells": [
                {"cell_type": "markdown", "source": ["# Title"]},
                {"cell_type": "code", "source": ["from tutorial.pages import site\n", "site('x')"]},
                {"cell_type": "code", "source": "print(1)"},
            ]}
        ),
        encoding="utf-8",
    )  # fmt: skip
    assert Page.from_notebook(notebook) == Page(
        "07-demo", ("from tutorial.pages import site\nsite('x')", "print(1)")
    )

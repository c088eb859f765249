"""Steps of ``script/build-static`` that need no build: here, the patch that lets Voici free a
closed widget model (the page kept every old page's models otherwise)."""

from __future__ import annotations

from pathlib import Path

import pytest

from static_site.config import BuildError
from static_site.voici_site import COMM_STATUS_SLOT, COMM_STATUS_SLOT_FREED, free_closed_comms

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

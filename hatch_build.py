"""Hatchling build hook: compile the translation catalogs into the wheel.

``locales/<lang>/LC_MESSAGES/messages.po`` (committed) becomes
``tutorial/locales/<lang>/LC_MESSAGES/messages.mo`` inside the wheel, where
``tutorial.i18n`` looks for it in an installed package. The ``.mo`` files are written to a
temporary directory, never into the source tree, and are never committed.

Editable installs are left alone: there ``tutorial.i18n`` reads ``<repo>/locales`` directly
(compiled by ``script/test`` / ``pybabel compile``, or compiled in memory from the ``.po``).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

DOMAIN = "messages"


class CatalogBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        locales = Path(self.root) / "locales"
        po_files = sorted(locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
        if not po_files:
            raise RuntimeError(f"no catalogs found under {locales}")
        self._tmp = Path(tempfile.mkdtemp(prefix="durak-locales-"))
        for po in po_files:
            language = po.parent.parent.name
            with po.open("rb") as fp:
                catalog = read_po(fp, locale=language, domain=DOMAIN)
            if catalog.fuzzy:
                raise RuntimeError(f"{po}: the catalog header is marked fuzzy")
            errors = [
                f"{po}:{message.lineno}: {error}"
                for message, message_errors in catalog.check()
                for error in message_errors
            ]
            if errors:
                raise RuntimeError("catalog errors:\n" + "\n".join(errors))
            relative = f"tutorial/locales/{language}/LC_MESSAGES/{DOMAIN}.mo"
            target = self._tmp / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as fp:
                write_mo(fp, catalog, use_fuzzy=False)
            build_data["force_include"][str(target)] = relative

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)

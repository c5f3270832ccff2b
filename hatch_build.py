"""The build compiles the message catalogues: each ``messages.po`` under
``director/translations`` becomes its ``messages.mo`` in the wheel (the compiled files are not
kept in the repository)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogueHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "catalogues"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        for po in sorted((root / "director" / "translations").glob("*/LC_MESSAGES/messages.po")):
            with po.open("rb") as source:
                catalogue = read_po(source, locale=po.parent.parent.name)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as target:
                write_mo(target, catalogue, use_fuzzy=False)
            build_data["force_include"][str(mo)] = str(mo.relative_to(root))

"""The package's build hook: the message catalogs (``*.po``, rulespec/games and
rulespec/book/locale) compiled to the ``.mo`` files ``rulespec doc --lang`` reads with the standard
library, beside their sources (so that an editable install reads them too), and shipped in the
wheel. Babel is a build requirement (pyproject.toml); fuzzy translations are left out."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent


def compile_all(root: Path = ROOT) -> list[Path]:
    """Compile every catalog of the package; the .mo files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted((root / "rulespec").rglob("*.po")):
        with po.open("rb") as f:
            catalog = read_po(f)
        buf = io.BytesIO()
        write_mo(buf, catalog, use_fuzzy=False)
        mo = po.with_suffix(".mo")
        mo.write_bytes(buf.getvalue())
        written.append(mo)
    return written


class CatalogsHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the catalogs before the wheel (standard or editable) is built."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        mos = compile_all(Path(self.root))
        build_data.setdefault("artifacts", []).extend(
            str(m.relative_to(self.root)) for m in mos)


if __name__ == "__main__":
    for m in compile_all():
        print(m.relative_to(ROOT))

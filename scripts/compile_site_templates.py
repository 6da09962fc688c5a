"""Regenerate compiler/contractc/site/compiled/ from compiler/contractc/site_templates/.

Run after editing a shipped template (tests/test_site_templates.py fails until then):

    python scripts/compile_site_templates.py
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "compiler"))

from contractc.emit.site import compile_shipped_templates  # noqa: E402


def main() -> int:
    folder = REPO / "compiler/contractc/site/compiled"
    files = compile_shipped_templates()
    for old in folder.glob("*.py"):
        if old.name not in files:
            old.unlink()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    print(f"wrote {len(files)} files to {folder.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

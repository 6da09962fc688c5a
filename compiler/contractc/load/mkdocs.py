"""The project's ``mkdocs.yml``, read for the two keys contractc needs from it.

``site_url`` is where the site is published: when contractc.yaml names none,
mkdocs.yml's is the one every published URL uses (``anchors.json``, the
receiver checks' links in ``validate``, the schemas' ``$id``).  ``docs_dir``
must exist for mkdocs to start at all, before any plugin runs, so ``build``
says so when it does not.

The file is composed, never constructed (:func:`~contractc.load.yaml_safe.compose_yaml`):
a tag such as ``!!python/name:material.extensions.emoji.twemoji`` stays on its
node, unread, as mkdocs' own loader would resolve it only when it builds; a file
that does not parse is mkdocs' to report (contractc reads nothing from it).
"""

from __future__ import annotations

from pathlib import Path

from contractc.report.diagnostics import Diagnostic, Severity
from contractc.model.records import Config, MkdocsFile

MKDOCS_NAME = "mkdocs.yml"
DEFAULT_DOCS_DIR = "docs"


def read_mkdocs(root: Path) -> MkdocsFile | None:
    """``root/mkdocs.yml``'s ``site_url`` and ``docs_dir``; None without a readable, parsable mapping there."""
    from contractc.output.files import read_bytes

    try:
        text = read_bytes(root / MKDOCS_NAME).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    from ruamel.yaml.nodes import MappingNode, ScalarNode

    from contractc.load.yaml_safe import compose_yaml

    node = compose_yaml(text, any_tag=True)
    if not isinstance(node, MappingNode):
        return None
    found: dict[str, tuple[str, int]] = {}
    for key, value in node.value:
        if isinstance(key, ScalarNode) and key.value in ("site_url", "docs_dir") and isinstance(value, ScalarNode):
            found[key.value] = (value.value.strip(), key.start_mark.line + 1)
    site_url, site_line = found.get("site_url", ("", 0))
    docs_dir, docs_line = found.get("docs_dir", (DEFAULT_DOCS_DIR, 0))
    docs_dir = docs_dir or DEFAULT_DOCS_DIR
    return MkdocsFile(
        MKDOCS_NAME,
        site_url.rstrip("/") + "/" if site_url else "",
        site_line,
        docs_dir,
        docs_line,
        (root / docs_dir).is_dir(),
    )


def docs_dir_notes(config: Config) -> list[Diagnostic]:
    """``site-docs-dir`` when mkdocs.yml's ``docs_dir`` is no folder: mkdocs stops before the plugin runs."""
    mkdocs = config.mkdocs
    if mkdocs is None or mkdocs.docs_dir_exists:
        return []
    return [
        Diagnostic(
            mkdocs.path,
            mkdocs.docs_dir_line or 1,
            1,
            "site-docs-dir",
            f"docs_dir {mkdocs.docs_dir!r} is not a folder: mkdocs build stops before any contract page is made",
            f"create it (mkdir {mkdocs.docs_dir}); the site's home page is {mkdocs.docs_dir}/index.md, "
            "or the contracts index when there is none",
            severity=Severity.WARNING,
        )
    ]

"""What the mkdocs plugin warns about before the site is built (``mkdocs build --strict`` fails on each).

* ``site-fence``: a fenced block of a contract whose info string the site's
  Markdown (``pymdownx.superfences``) does not take as a code fence --
  `` ```yaml example `` -- is rendered as text, with the rest of the page;
* ``site-url``: ``site_url`` of ``mkdocs.yml`` and of ``contractc.yaml`` differ,
  so the schemas' ``$id`` and the published links name another site than the one built.
"""

from __future__ import annotations

import re

from contractc.report.diagnostics import Diagnostic, Severity
from contractc.model.records import Project

RENDERED_INFO = re.compile(
    r"""^(?:
        [\w#.+-]*                                   # nothing, or a language
        (?:\s+[\w-]+=(?:"[^"]*"|'[^']*'|\S+))*      # then key="value" options
      | [\w#.+-]*\s*\{[^{}]*\}                      # or attributes: {.yaml .example}
    )\s*$""",
    re.VERBOSE,
)
"""An info string superfences opens a code fence with."""


def unrendered_fences(project: Project) -> list[Diagnostic]:
    """Every fence of every contract whose info string superfences would not take as a code fence."""
    found = []
    for contract in project.contracts:
        for line, info in unrendered_fence_labels(contract.blocks[0]):
            lang = (info.split() or [""])[0]
            found.append(
                Diagnostic(
                    contract.path,
                    line,
                    1,
                    "site-fence",
                    f"the fence label `{info}` is no code fence to the site's Markdown: "
                    "the block is rendered as text, and the rest of the page with it",
                    f"write the words as attributes: ```{{.{lang or 'text'} .{info.split()[-1]}}}"
                    if len(info.split()) > 1 else "use one language word, or attributes in braces",
                    severity=Severity.WARNING,
                )
            )
    return found


def unrendered_fence_labels(tokens: list) -> list[tuple[int, str]]:
    """(line, info string) of each fence among a CommonMark parse's ``tokens`` that superfences would not
    take as a code fence."""
    return [
        (tok.map[0] + 1, tok.info.strip())
        for tok in tokens
        if tok.type == "fence" and tok.map is not None and not RENDERED_INFO.match(tok.info.strip())
    ]


def site_url_mismatch(project: Project, mkdocs_site_url: str | None) -> list[Diagnostic]:
    """``site-url`` when mkdocs.yml and contractc.yaml both name a site_url, and they differ."""
    if not mkdocs_site_url or "$.site_url" not in project.config.positions:
        return []  # one of them leaves it to its default: nothing to disagree with
    ours = project.config.site_url
    if mkdocs_site_url.rstrip("/") + "/" == ours:
        return []
    where = project.config.where("$.site_url")
    return [
        Diagnostic(
            where.path,
            where.line or 1,
            where.col or 1,
            "site-url",
            f"site_url of contractc.yaml ({ours}) differs from mkdocs.yml's ({mkdocs_site_url}): the schemas' $id and "
            "the published links name another site than the one mkdocs builds",
            "give both files the same site_url",
            severity=Severity.WARNING,
        )
    ]

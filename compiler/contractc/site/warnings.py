"""What the mkdocs plugin warns about before the site is built (``mkdocs build --strict`` fails on each).

* ``site-fence``: a fenced block of a contract whose info string the site's
  Markdown (``pymdownx.superfences``) does not take as a code fence --
  `` ```yaml example `` -- is rendered as text, with the rest of the page;
* ``site-url``: ``site_url`` of ``mkdocs.yml`` and of ``contractc.yaml`` differ (or only
  the mkdocs configuration names it, where ``contractc build`` cannot read it), so the
  schemas' ``$id`` and the published links name another site than the one built.
"""

from __future__ import annotations

import re

from contractc.report.diagnostics import Diagnostic, Severity
from contractc.load.config import CONFIG_NAME
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
    """``site-url`` when the site mkdocs builds and the URLs contractc publishes disagree.

    ``project`` is as the plugin loaded it: when contractc.yaml names no ``site_url``, the
    plugin has given it mkdocs.yml's (:func:`with_mkdocs_site_url`), so only two cases
    remain to warn about: both files name one and they differ, or the URL came from
    the mkdocs configuration alone and ``contractc build`` (which reads ``ROOT/mkdocs.yml``)
    cannot see it, so the schemas it writes would name the default host.
    """
    config = project.config
    if not mkdocs_site_url:
        return []  # mkdocs publishes no URL: contractc's (or the documented placeholder) stands
    theirs = mkdocs_site_url.rstrip("/") + "/"
    if config.site_url_from == CONFIG_NAME:
        if theirs == config.site_url:
            return []
        where = config.where("$.site_url")
        return [
            Diagnostic(
                where.path,
                where.line or 1,
                where.col or 1,
                "site-url",
                f"site_url of contractc.yaml ({config.site_url}) differs from mkdocs.yml's ({mkdocs_site_url}): the "
                "schemas' $id and the published links name another site than the one mkdocs builds",
                "give both files the same site_url, or leave it out of contractc.yaml (mkdocs.yml's is then used)",
                severity=Severity.WARNING,
            )
        ]
    if config.mkdocs is not None and config.mkdocs.site_url == theirs:
        return []  # read from ROOT/mkdocs.yml: the CLI uses it too
    return [
        Diagnostic(
            CONFIG_NAME,
            1,
            1,
            "site-url",
            f"the site is published at {theirs} (the mkdocs configuration), but contractc.yaml names no site_url and "
            f"the project root has no mkdocs.yml that does: `contractc build` writes the schemas' $id under {config.site_url}",
            f"add `site_url: {theirs}` to contractc.yaml",
            severity=Severity.WARNING,
        )
    ]


def with_mkdocs_site_url(project: Project, mkdocs_site_url: str | None) -> Project:
    """``project`` publishing at mkdocs' ``site_url`` when contractc.yaml names none."""
    if not mkdocs_site_url or project.config.site_url_from == CONFIG_NAME:
        return project
    url = mkdocs_site_url.rstrip("/") + "/"
    if url == project.config.site_url:
        return project
    from dataclasses import replace

    return replace(project, config=replace(project.config, site_url=url, site_url_from="mkdocs.yml"))

"""``contractc.yaml``: parsed with line numbers, validated against the shipped JSON Schema, read into a typed
:class:`~contractc.model.records.Config` (every default applied here, once; no later stage sees the raw document).

The schema is checked by a plain reading of the schema file (:mod:`contractc.load.config_schema`);
jsonschema is imported only to explain a document that fails, so every schema
error is still reported in the schema's words, at the line of the offending
key, with its key path (``$.contracts[0].shared``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from contractc.report.diagnostics import ContractcError, Diagnostic, json_path
from contractc.load.paths import confined, unreadable
from contractc.model.records import (
    DEFAULT_SITE_URL,
    AllowedRestatement,
    Budgets,
    Config,
    ContractEntry,
    Outputs,
    ScanOptions,
    SiteOptions,
    Span,
    Unresolved,
)

CONFIG_NAME = "contractc.yaml"
CHANGES_NAME = "contractc.changes.yaml"
"""The approval file of ``contractc diff --accept``, beside contractc.yaml."""
DEFAULT_OUT = {"prompts": "prompts", "schemas": "schemas"}


def recorded_scan_options(root: Path) -> ScanOptions:
    """``scan:`` of the contractc.yaml at ``root`` (the options adopt was given); empty without one, or when it
    cannot be loaded (``check`` reports why)."""
    if not (root / CONFIG_NAME).is_file():
        return ScanOptions()
    try:
        return load_config(root).scan
    except ContractcError:
        return ScanOptions()


def load_config(root: Path, name: str = CONFIG_NAME) -> Config:
    """The configuration ``root/name`` (``name`` another file only for the journal: ``adopt --write``'s staged one)."""
    from contractc.output.files import read_bytes

    try:
        text = read_bytes(root / name, follow=name == CONFIG_NAME).decode("utf-8")
    except FileNotFoundError:
        raise ContractcError(
            Diagnostic(CONFIG_NAME, 0, 0, "config-missing", f"no {CONFIG_NAME} in {root}", "run contractc in the project root, or pass --root; no project here yet? `contractc init` starts one, and `contractc adopt` writes one for a plugin with pasted copies")
        ) from None
    except OSError as exc:
        raise ContractcError(unreadable(CONFIG_NAME, exc)) from None
    except UnicodeDecodeError as exc:
        raise ContractcError(Diagnostic(CONFIG_NAME, 1, 1, "not-utf8", f"{CONFIG_NAME} is not UTF-8: {exc.reason}")) from None

    from contractc.load.config_schema import conforms
    from contractc.load.yaml_safe import load_yaml, plain as plain_yaml, positions

    doc = load_yaml(text, CONFIG_NAME, "config-syntax")
    plain = plain_yaml(doc) if doc is not None else {}
    if not conforms(plain):
        _validate(plain, doc)
    entries = []
    for i, item in enumerate(plain["contracts"]):
        where = _locate(doc, ["contracts", i])
        entries.append(
            ContractEntry(
                path=confined(root, item["path"], where),
                shared=tuple(item.get("shared", ())),
                sha256=item.get("sha256"),
                span=where,
            )
        )
    out = {**DEFAULT_OUT, **plain.get("out", {})}
    for kind, folder in out.items():
        out[kind] = confined(root, folder, _locate(doc, ["out", kind]))
    templates = (plain.get("site") or {}).get("templates")
    if isinstance(templates, str):  # read only for the site, refused whenever it is configured
        confined(root, templates, _locate(doc, ["site", "templates"]))
    _check_outputs(root, out, plain, doc, entries)
    site = plain.get("site", {})
    from contractc.load.mkdocs import read_mkdocs

    mkdocs = read_mkdocs(root)
    if "site_url" in plain:
        site_url, site_url_from = plain["site_url"].rstrip("/") + "/", CONFIG_NAME
    elif mkdocs is not None and mkdocs.site_url:
        site_url, site_url_from = mkdocs.site_url, mkdocs.path
    else:
        site_url, site_url_from = DEFAULT_SITE_URL, ""
    return Config(
        path=CONFIG_NAME,
        contracts=tuple(entries),
        out=Outputs(**out),
        site_url=site_url,
        site=SiteOptions(
            prefix=site.get("prefix", SiteOptions().prefix).strip("/"),
            templates=site.get("templates"),
            directory_urls=site.get("directory_urls", True),
        ),
        targets=tuple(plain.get("targets", ())),
        agents=tuple(sorted(plain.get("agents", {}).items())),
        allow_restatements=tuple(
            AllowedRestatement(a["path"], a.get("shape"), int(a["line"]) if "line" in a else None, a.get("sha256"))
            for a in plain.get("allow_restatements", ())
        ),
        unresolved=tuple(
            Unresolved(confined(root, u["path"], _locate(doc, ["unresolved", i, "path"])), int(u["line"]), u["shape"], u.get("why", ""))
            for i, u in enumerate(plain.get("unresolved", ()))
        ),
        budgets=Budgets(
            agents=tuple(sorted((k, int(v)) for k, v in plain.get("budgets", {}).get("agents", {}).items())),
            shapes=tuple(sorted((k, int(v)) for k, v in plain.get("budgets", {}).get("shapes", {}).items())),
        ),
        positions=positions(doc),
        docs_url=plain.get("docs_url", ""),
        site_url_from=site_url_from,
        mkdocs=mkdocs,
        scan=ScanOptions(**{k: tuple(v) for k, v in plain.get("scan", {}).items()}),
    )


def _check_outputs(root: Path, out: dict[str, str], plain: dict, doc: Any, entries: list[ContractEntry]) -> None:
    """The output folders' rules (:mod:`.out_folders`) and the name rule for each contract's file name,
    which names its schema folder and site page (:mod:`.names`)."""
    from contractc.model.names import check_name
    from contractc.load.out_folders import out_folder_problems

    problems = out_folder_problems(root, out, plain, lambda kind: _locate(doc, ["out", kind]))
    for i, entry in enumerate(entries):
        stem = entry.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        bad = check_name(stem, "contract file name", _locate(doc, ["contracts", i, "path"]))
        if bad:
            problems.append(bad)
    if problems:
        raise ContractcError(problems)


def _validate(plain: Any, doc: Any) -> None:
    from jsonschema import Draft202012Validator

    from contractc.load.config_schema import config_schema

    validator = Draft202012Validator(config_schema())
    problems = []
    for error in validator.iter_errors(plain):
        key_path, message = list(error.absolute_path), error.message
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = sorted(error.schema.get("properties", {}))
            extra = next(k for k in error.instance if k not in allowed)
            key_path.append(extra)
            message = f"unknown key {extra!r}; allowed keys: {', '.join(allowed)}"
        where = _locate(doc, key_path)
        problems.append(Diagnostic.at(where, "config-invalid", f"{json_path(key_path)}: {message}", "correct or remove the key"))
    if not problems:  # the plain reading and the schema disagree: a bug, said as one rather than let through
        problems.append(Diagnostic(CONFIG_NAME, 1, 1, "config-invalid", "the configuration does not match its schema", "correct or remove the key"))
    raise ContractcError(problems)


def _locate(doc: Any, key_path: list) -> Span:
    """The file position of the deepest key of ``key_path`` that exists in ``doc``."""
    from contractc.load.yaml_safe import locate

    return Span(CONFIG_NAME, *locate(doc, key_path), 0, 0)


def journal_trust(root: Path, site_pages: str | None):
    """What recovery of an interrupted write may touch (:class:`contractc.output.journal.Trust`): the files the
    configuration on disk -- or, for ``adopt --write`` cut short before its configuration moved into place,
    the staged one -- makes an output or a target, its contracts, itself and the approval file; and
    whether git tracks a path (asked without running anything the repository configures)."""
    from contractc.output.journal import Trust

    def tracked(rel: str) -> bool:  # git (and subprocess) load only when there is a journal to trust
        from contractc.load.git import tracked as git_tracks

        return git_tracks(root, rel)

    def allowed(staged: str | None):
        from contractc.load.globbing import matches

        try:
            config = load_config(root)
        except ContractcError as exc:
            if staged is None or exc.diagnostics[0].code != "config-missing":
                raise
            config = load_config(root, staged)
        extra = [site_pages.strip("/")] if site_pages else []
        owned = tuple(f"{folder}/" for folder in (*config.out.folders(), *extra))
        named = {CONFIG_NAME, CHANGES_NAME, *(c.path for c in config.contracts)}
        return lambda rel: rel in named or rel.startswith(owned) or any(matches(p, rel) for p in config.targets)

    return Trust(CONFIG_NAME, allowed, tracked)


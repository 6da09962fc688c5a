"""The page emitter: the project -> the contract site's Markdown pages and files.

One pure function, :func:`render_site`, serves every engine: the mkdocs plugin
hands its result to mkdocs in memory, and ``contractc build --site-pages DIR``
(or ``out.site`` in contractc.yaml) writes the very same bytes to disk for
engines without plugins, such as Zensical; stored, they are the ``site`` output
kind (:func:`emit_site_pages`).  Pages are rendered from the shipped templates
(``site_templates/`` at the top of the repository, installed into the package as
ordinary files: :func:`shipped_templates`), each of which a project can override
by name from its own folder (``site.templates``), the way mkdocs' ``custom_dir``
overrides a theme.  jinja2 compiles each template as the build loads it (or finds it compiled in its
cache of compiled templates outside the project: :func:`_bytecode_cache`).
"""

import hashlib
import json
import os
import posixpath
import re
from pathlib import Path
from typing import Any, NamedTuple

from markupsafe import Markup  # jinja2's own string type; this module only loads to render

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.output.files import dump_json
from contractc.load.paths import confined
from contractc.model.budget import snippet_size
from contractc.model.records import Contract, DataShape, Project, Shape, TextShape
from contractc.site.annotate import annotate_contract, check_markdown, spaced_spans
from contractc.site.changes import Since, changes_context, changes_page_path
from contractc.model.fields import field_rows, references
from contractc.model.layout import Layout, field_anchor, page_url, shape_title, site_address, site_layout
from contractc.site.code_spans import plain_text
from contractc.site.graph import graph_svg

BACKTICKS = re.compile(r"`+")
FENCES = re.compile(r"^\s*(`{3,})", re.MULTILINE)


PAGE_STYLE = (
    "<style>@media screen and (max-width:44.9375em){"
    ".md-typeset table:not([class]){display:table;width:100%}"
    ".md-typeset table:not([class]) td,.md-typeset table:not([class]) th{overflow-wrap:break-word;padding:.6em .25em;"
    "min-width:0}"
    ".md-typeset code{word-break:normal;overflow-wrap:break-word}"
    "}</style>"
)
"""How every generated page behaves on a phone (the theme's breakpoint, 720 px): a table takes the screen's
width and wraps its cells' text between words, instead of scrolling sideways with its cells kept on one
line; a code span breaks only where it is longer than the line, never mid-word otherwise (the theme lets
it break anywhere, which also lets a table squeeze a column down to one character).  One raw HTML line, the same
in mkdocs and Zensical; the templates write it as ``{{ page_style }}``."""

HOME_PAGE = "index.md"
"""The site's home page: the plugin gives the contracts index this path too when ``docs/`` has none."""


def render_site(
    project: Project,
    root: Path | None = None,
    *,
    since: Since,
    directory_urls: bool | None = None,
    home: bool = False,
    layout: Layout | None = None,
) -> dict[str, bytes]:
    """Every generated file of the site, docs-relative path -> bytes.

    ``root`` is the project root (default: the one the project was loaded from),
    where the override folder of templates (``site.templates``) is found.
    ``since`` is what the Changes pages list: the pipeline computes it
    (:func:`contractc.diff.release.since_last_release`); the site runs no diff.
    ``directory_urls`` follows mkdocs' ``use_directory_urls`` (default:
    ``site.directory_urls`` in contractc.yaml, else true).  ``home`` also renders the
    contracts index as the site's home page (``index.md``), for a ``docs/`` without one.
    ``layout`` is the project's ``site_layout(project, holdings=True)`` when the caller has made it.
    """
    root = Path(project.root) if root is None else root
    layout = layout or site_layout(project, holdings=True)
    if layout.problems:  # a target the site cannot read: its copies would be missing from the pages
        raise ContractcError(list(layout.problems))
    if directory_urls is None:
        directory_urls = project.config.site.directory_urls
    env = template_environment(project, root)
    schemas = _schema_files(project)
    snippets = _snippets(project)
    agent_pages = {p.key: p.path for p in layout.pages if p.kind == "agent"}
    shape_pages = {p.key: p.path for p in layout.pages if p.kind == "shape"}
    contract_pages = {p.key: p.path for p in layout.pages if p.kind == "contract"}
    holders: dict[str, list[dict[str, Any]]] = {}
    for agent in layout.agents:
        for held in agent.holds:
            holders.setdefault(held.shape, []).append({"agent": agent.name, "page": agent_pages[agent.name], "held": held})
    common = {"agent_pages": agent_pages, "layout": layout, "holders": holders, "page_style": Markup(PAGE_STYLE)}
    # Looked up by key, not found by a scan per page (quadratic in P).  Keys are unique:
    # one page per contract (else site-collision), one id per shape (else duplicate-shape).
    contracts_by_path = {c.path: c for c in project.contracts}
    shapes_by_id = {s.id: (c, s) for c, s in project.shapes()}
    agents = {a.name: a for a in reversed(layout.agents)}  # the first of a name, as a scan would find
    relative = _relative_paths()
    spans = {c.path: spaced_spans(c) for c in project.contracts}  # from the loader's parse, once a contract

    files: dict[str, str | bytes] = {}
    roles = _role_prompts(project)
    agent_files = _agent_files(project, layout)
    raw = raw_files(layout, snippets, schemas, roles, agent_files)
    referenced = references(layout.specs)
    for page in layout.pages:
        link = _linker(page.path, relative)
        context: dict[str, Any] = {**common, "page": page, "link": link}
        if page.kind == "index":
            for path in (page.path, HOME_PAGE) if home and page.path != HOME_PAGE else (page.path,):
                link = _linker(path, relative)
                index = _index_context(project, layout, contract_pages, shape_pages, link)
                files[path] = _render(env, "index.md", {**common, "page": page, "link": link} | index)
        elif page.kind == "contract":
            contract = contracts_by_path[page.key]
            notes = section_notes(contract, link, shape_pages, agent_pages)
            context |= {
                "contract": contract,
                "body": Markup(annotate_contract(contract, notes, spans[contract.path])),
                "shapes": [{"title": shape_title(s), "page": shape_pages[s.id]} for s in contract.shapes],
                "changes_page": changes_page_path(f"{layout.prefix}/" if layout.prefix else "", contract.path),
            }
            files[page.path] = _render(env, "contract.md", context)
        elif page.kind == "shape":
            contract, shape = shapes_by_id[page.key]
            context |= _shape_context(
                env, layout, contract, shape, snippets, schemas, raw, contract_pages, shape_pages, link,
                spans[contract.path],
            )
            context["role_prompt"] = _role_prompt_context(shape, roles, raw)
            context["referenced_by"] = [
                {"title": shape_title(shapes_by_id[by][1]), "page": shape_pages[by], "field": field,
                 "anchor": field_anchor(shapes_by_id[by][1], field) if field else by}
                for by, field in referenced.get(shape.id, [])
            ]  # fmt: skip
            files[page.path] = _render(env, "shape.md", context)
        else:
            agent = agents[page.key]
            context |= {
                "agent": agent,
                "produced": [_shape_item(shapes_by_id[i][1], shape_pages, snippets) for i in agent.produces],
                "received": [_shape_item(shapes_by_id[i][1], shape_pages, snippets) for i in agent.receives],
                "held": [
                    {**_shape_item(shapes_by_id[h.shape][1], shape_pages, snippets), "held": h} for h in agent.holds
                ],
                "file_raw": raw.agent_files.get(agent.file, ""),
                "description": describe_file(agent_files[agent.name][1]) if agent.name in agent_files else "",
            }
            files[page.path] = _render(env, "agent.md", context)
    files.update(_changes_pages(project, since, env, layout, contract_pages, relative))
    files.update(raw.files)
    files["anchors.json"] = anchors_json(project, layout, directory_urls)
    return {path: data.encode("utf-8") if isinstance(data, str) else data for path, data in sorted(files.items())}


def _index_context(project: Project, layout: Layout, contract_pages: dict, shape_pages: dict, link) -> dict[str, Any]:
    """What the contracts index shows: every contract and shape, and the graph, linked from the page ``link`` serves."""
    return {
        "contracts": [{"contract": c, "page": contract_pages[c.path]} for c in project.contracts],
        "shapes": [
            {"shape": s, "title": shape_title(s), "page": shape_pages[s.id], "held_by": _held_by(layout, s.id)}
            for _, s in project.shapes()
        ],
        "graph": Markup(graph_svg(layout, [s for _, s in project.shapes()], link)),
    }


def _held_by(layout: Layout, shape_id: str) -> list[str]:
    """The agents whose files hold a copy of the shape, by name, each once."""
    return list(dict.fromkeys(agent.name for agent, _ in layout.holders(shape_id)))


def emit_site_pages(project: Project, since: Since) -> dict[str, bytes]:
    """The ``site`` output kind: the pages stored under ``out.site`` (for engines without mkdocs plugins), listing
    ``since`` on the Changes pages; nothing when ``out.site`` is not set (the mkdocs plugin renders them in memory)."""
    folder = project.config.out.site
    if not folder:
        return {}
    return {f"{folder}/{path}": data for path, data in render_site(project, since=since).items()}


def site_pages_folder(project: Project) -> str | None:
    """The folder the stored pages own (``<out.site>/<prefix>``); ``anchors.json`` sits beside it."""
    folder = project.config.out.site
    if not folder:
        return None
    prefix = project.config.site.prefix
    return f"{folder}/{prefix}" if prefix else folder


def _changes_pages(project: Project, since: Since, env, layout: Layout, contract_pages: dict, relative) -> dict[str, str]:
    """One "Changes" page per contract (:mod:`contractc.site.changes`)."""
    base = f"{layout.prefix}/" if layout.prefix else ""
    pages = {}
    for contract in project.contracts:
        path = changes_page_path(base, contract.path)
        context = {
            "contract": contract,
            "contract_page": contract_pages[contract.path],
            "link": _linker(path, relative),
            "page_style": Markup(PAGE_STYLE),
        }
        pages[path] = _render(env, "changes.md", context | changes_context(contract.path, since))
    return pages


def anchors_json(project: Project, layout: Layout, directory_urls: bool = True) -> bytes:
    """Every anchor with its page URL and the source ``file:line`` it came from."""
    base = project.config.site_url
    pages = {a.page for a in layout.anchors}  # a page carries many anchors: its URLs are made once
    urls = {p: (page_url(p, directory_urls), site_address(project.config, p, directory_urls)) for p in pages}
    entries = [
        {"anchor": a.id, "kind": a.kind, "page": urls[a.page][0], "url": f"{urls[a.page][1]}#{a.id}",
         "source": f"{a.source}:{a.line}"}
        for a in sorted(layout.anchors, key=lambda a: (a.source, a.line, a.page, a.id))
    ]  # fmt: skip
    return dump_json({"generator": "contractc", "site_url": base, "anchors": entries})


class RawFiles(NamedTuple):
    """The files the site publishes byte for byte, each with a ``.sha256`` beside it (``sha256sum -c`` reads it)."""

    files: dict[str, bytes]
    snippets: dict[str, str]
    """Shape id -> site path of its dispatch snippet (``<prefix>/snippets/<agent>/<shape>.md.txt``)."""
    role_prompts: dict[str, str]
    """Shape id -> site path of its role-file prompt (``<prefix>/snippets/<agent>/<shape>.full.md.txt``)."""
    agent_files: dict[str, str]
    """Project path of an agent's file -> its site path (``<prefix>/files/<agent>.md.txt``)."""


def raw_files(
    layout: Layout,
    snippets: dict[str, tuple[str, bytes]],
    schemas: dict,
    roles: dict[str, tuple[str, bytes]],
    agent_files: dict[str, tuple[str, bytes]],
) -> RawFiles:
    """Every dispatch snippet, role-file prompt and agent's file (as ``.md.txt``, so no engine renders
    it) and schema, with its SHA-256 file.

    A schema keeps its project path, so its ``$id`` (``<site_url><path>``) is where it is served.
    """
    base = f"{layout.prefix}/" if layout.prefix else ""
    files: dict[str, bytes] = {}

    def placed(prompts: dict[str, tuple[str, bytes]]) -> dict[str, str]:
        where = {}
        for shape_id, (project_path, data) in prompts.items():
            agent, name = project_path.split("/")[-2:]
            path = where[shape_id] = f"{base}snippets/{agent}/{name}.txt"
            files[path] = data
        return where

    where, role_where = placed(snippets), placed(roles)
    agent_where: dict[str, str] = {}
    for agent, (project_path, data) in agent_files.items():
        path = agent_where[project_path] = f"{base}files/{agent}.md.txt"  # a plain name, whatever the file's
        files[path] = data
    for entries in schemas.values():
        for _, path, data in entries:
            files[path] = data
    for path, data in list(files.items()):
        files[path + ".sha256"] = f"{hashlib.sha256(data).hexdigest()}  {posixpath.basename(path)}\n".encode()
    return RawFiles(files, where, role_where, agent_where)


def describe_file(data: bytes) -> str:
    """The ``description:`` of a Markdown file's YAML front matter (an agent's or a skill's), or ``""``."""
    if not data.startswith(b"---"):
        return ""
    from contractc.load.front_matter import find_front_matter

    front = find_front_matter(data.decode("utf-8", "replace").splitlines())
    if front is None or front.closing is None:
        return ""
    from contractc.load.yaml_safe import load_yaml, plain

    try:
        value = plain(load_yaml(front.text, "front matter", "role-front-matter"))
    except ContractcError:
        return ""
    text = value.get("description") if isinstance(value, dict) else None
    return " ".join(text.split()) if isinstance(text, str) else ""


def _agent_files(project: Project, layout: Layout) -> dict[str, tuple[str, bytes]]:
    """Agent -> (project path, bytes) of its file, which its page links to: a target as ``build`` writes it
    (its regions filled, so a stored page never lags the build that stores it), a role file as it is."""
    from contractc.emit.filled import render_target

    roles = {r.path: r.data for r in project.roles}
    found = {}
    for agent in layout.agents:
        if agent.file:
            target = project.target(agent.file)
            data = render_target(project, target) if target is not None else roles.get(agent.file)
            if data is not None:
                found[agent.name] = (agent.file, data)
    return found


def section_notes(contract: Contract, link, shape_pages: dict[str, str], agent_pages: dict[str, str]) -> dict[str, str]:
    """Section anchor -> the line under its heading linking the shapes it defines and their producers' pages."""
    defined: dict[str, list[Shape]] = {}
    for shape in contract.shapes:
        defined.setdefault(shape.section, []).append(shape)
    notes = {}
    for anchor, shapes in defined.items():
        parts = []
        for shape in shapes:
            item = f"[{plain_text(shape_title(shape))}]({link(shape_pages[shape.id])})"
            if isinstance(shape, TextShape):
                producer = f"[`{shape.producer}`]({link(agent_pages[shape.producer])})"
                mode = f" {plain_text(shape.qualifier)}" if shape.qualifier else ""
                item += f", produced by {producer}{mode}"
            parts.append(item)
        notes[anchor] = "*Shape page:* " + " · ".join(parts)
    return notes


def template_environment(project: Project, root: Path):
    """jinja2 with the project's override folder first, then the shipped templates."""
    import jinja2

    loaders: list[jinja2.BaseLoader] = []
    override = project.config.site.templates
    if override:
        where = project.config.where("$.site.templates")
        folder = root / confined(root, override, where)
        if not folder.is_dir():
            raise ContractcError(Diagnostic.at(where, "site-template", f"template folder {override!r} does not exist", "create it or remove site.templates"))
        loaders.append(_regular_files_loader(folder.resolve(), override))
    loaders.append(jinja2.FileSystemLoader(shipped_templates()))  # compiled as a build loads them (or from the cache)
    # Autoescape everywhere: in Markdown an HTML entity renders as its character,
    # so escaping is right for .md templates too, and contract values never
    # become markup.  Verbatim text goes through the filters below, which are safe.
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        auto_reload=False,  # one build: a template is loaded once, not stat()ed again for each page
        bytecode_cache=_bytecode_cache(),
    )
    env.filters.update(code=code_span, fence=fenced, anchor=attr_anchor)
    env.project_root = root  # for locating errors in override templates
    return env


def _bytecode_cache():
    """jinja2's own cache of compiled templates (:class:`jinja2.FileSystemBytecodeCache`), in the folder jinja2
    makes for this user in the system's temporary folder (mode 0700; refused when another user owns it), or
    None when jinja2 finds no safe one.  A template is compiled again only when its text changes: the
    shipped ones took ~45 ms of every build.  Never a folder of the project: the cache holds code, and
    everything a repository holds is untrusted input.  A cache that cannot be written (a full or read-only
    disk) is no cache: the build goes on, compiling each time."""
    import jinja2

    class Cache(jinja2.FileSystemBytecodeCache):
        def dump_bytecode(self, bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass

    try:
        return Cache()
    except (OSError, RuntimeError):  # RuntimeError: jinja2 found the folder unsafe
        return None


def shipped_templates() -> Path:
    """The folder of the shipped templates: ``contractc/site_templates/`` of the installed package (a wheel
    holds them there, an editable install maps the repository's ``site_templates/`` there), else the
    ``site_templates/`` of the source checkout this module runs from (``PYTHONPATH=compiler``)."""
    from importlib.util import find_spec

    spec = find_spec("contractc.site_templates")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return Path(__file__).resolve().parents[3] / "site_templates"


def _regular_files_loader(folder: Path, label: str):
    """jinja2's FileSystemLoader over ``folder``, refusing a template that is not a regular file
    (a named pipe would block the build forever)."""
    import stat

    import jinja2

    class RegularFiles(jinja2.FileSystemLoader):
        def get_source(self, environment, template):
            path = folder.joinpath(*template.split("/"))
            try:
                mode = os.stat(path).st_mode
            except OSError:
                mode = None
            if mode is not None and not stat.S_ISREG(mode):
                raise ContractcError(
                    Diagnostic(
                        f"{label.rstrip('/')}/{template}", 1, 1, "site-template", "the template is not a regular file", "make it a file, or remove it to use the shipped one"
                    )
                )
            return super().get_source(environment, template)

    return RegularFiles(str(folder))


def _render(env, name: str, context: dict[str, Any]) -> str:
    import jinja2

    try:
        return env.get_template(name).render(context)
    except jinja2.TemplateSyntaxError as exc:
        where = exc.filename or name
        root = getattr(env, "project_root", None)
        if root is not None and Path(where).is_relative_to(Path(root).resolve()):
            where = Path(where).relative_to(Path(root).resolve()).as_posix()
        raise ContractcError(
            Diagnostic(
                where, exc.lineno, 1, "site-template", f"template syntax: {exc.message}", "fix the override template"
            )
        ) from None
    except jinja2.TemplateError as exc:
        raise ContractcError(
            Diagnostic(name, 0, 0, "site-template", f"template {name} failed: {exc}", "fix the override template")
        ) from None


def _shape_context(
    env,
    layout: Layout,
    contract: Contract,
    shape: Shape,
    snippets: dict,
    schemas: dict,
    raw: RawFiles,
    contract_pages: dict[str, str],
    shape_pages: dict[str, str],
    link,
    spans: list,
) -> dict[str, Any]:
    contract_page = contract_pages[contract.path]
    context: dict[str, Any] = {
        "shape": shape,
        "title": shape_title(shape),
        "contract": contract,
        "contract_page": contract_page,
        "section": contract.section(shape.section),
    }
    if isinstance(shape, TextShape):
        path, data = snippets[shape.id]
        context |= {
            "template": _fence_body(contract.slice(shape.template)) if shape.template else "",
            "checks": [
                {
                    "number": c.number,
                    "anchor": c.anchor,
                    "markdown": Markup(check_markdown(contract, c, spans).replace("\n", "\n    ")),
                    "kinds": sorted({r.kind for r in c.rules}) if c.rules else [],
                    "explicit": c.explicit,
                }
                for c in shape.checks
            ],
            "snippet_path": path,
            "snippet": data.decode("utf-8"),  # for override templates that show it with `| fence`
            "snippet_file": raw.snippets[shape.id],
            "snippet_sha256": hashlib.sha256(data).hexdigest(),
            "snippet_size": snippet_size(data),
            "snippet_block": Markup(snippet_html(data)),
        }
    else:
        assert isinstance(shape, DataShape)
        rows = [
            {
                **row._asdict(),
                "anchor": field_anchor(shape, row.path),
                "ref_url": link(shape_pages[row.ref]) if row.ref in shape_pages else "",
            }
            for row in field_rows(layout.specs[shape.id])
        ]
        wire = next((json.loads(data) for label, _, data in schemas.get(shape.id, []) if label == "wire schema"), {})
        context |= {
            "rows": rows,
            "enums": [row for row in rows if row["meanings"]],
            "example": dump_json(wire["examples"][0]).decode("utf-8") if wire.get("examples") else "",
            "field_table": Markup(_render(env, "fields.html", {"rows": rows})),
            "schemas": [
                {
                    "label": label,
                    "name": posixpath.basename(path),
                    "path": path,
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
                for label, path, data in schemas.get(shape.id, [])
            ],
            "block": contract.slice(shape.body).decode("utf-8"),
        }
    return context


def snippet_html(data: bytes) -> str:
    """The snippet shown verbatim, with a copy button that copies exactly ``data`` (final newline included).

    The theme's own copy button trims trailing whitespace, so the block is marked
    ``no-copy`` and carries its own button: mkdocs-material and Zensical both copy
    a ``data-clipboard-text`` attribute as it is.  One raw HTML block, no blank
    line left in it, so no Markdown rule reads inside.
    """
    from html import escape

    text = data.decode("utf-8")
    shown = escape(text.removesuffix("\n"), quote=False).replace("\r", "").replace("\n", "&#10;")
    attribute = escape(text, quote=True).replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#9;")
    return (
        '<div class="contractc-snippet no-copy"><pre><nav class="md-code__nav">'
        '<button class="md-code__button md-clipboard" type="button" data-md-type="copy" '
        f'title="Copy the snippet (its exact bytes)" data-clipboard-text="{attribute}"></button>'
        f"</nav><code>{shown}</code></pre></div>"
    )


def _shape_item(shape: Shape, shape_pages: dict[str, str], snippets: dict) -> dict[str, Any]:
    return {
        "shape": shape,
        "title": shape_title(shape),
        "page": shape_pages[shape.id],
        "snippet_path": snippets[shape.id][0] if shape.id in snippets else "",
    }


def _snippets(project: Project) -> dict[str, tuple[str, bytes]]:
    """Shape id -> (prompt path, bytes): the same path and bundle the prompts emitter writes."""
    return {
        shape.id: (project.snippet_path(shape), contract.bundle(shape))
        for contract in project.contracts
        for shape in contract.text_shapes
    }


def _role_prompts(project: Project) -> dict[str, tuple[str, bytes]]:
    """Shape id -> (prompt path, bytes) of its role-file prompt: the bytes the prompts emitter writes."""
    if not project.roles:
        return {}
    from contractc.emit.filled import role_prompts

    return {shape_id: (path, data) for path, (_, shape_id, data) in role_prompts(project).items()}


def _role_prompt_context(shape: Shape, roles: dict[str, tuple[str, bytes]], raw: RawFiles) -> dict[str, Any] | None:
    """What the shape page shows of the producer's role-file prompt (None when it has no role file)."""
    if shape.id not in roles:
        return None
    path, data = roles[shape.id]
    return {
        "path": path,
        "file": raw.role_prompts[shape.id],
        "sha256": hashlib.sha256(data).hexdigest(),
        "size": snippet_size(data),
        "block": Markup(snippet_html(data)),
    }


def _schema_files(project: Project) -> dict[str, list[tuple[str, str, bytes]]]:
    """Shape id -> [(label, path, bytes)] of its JSON Schemas, copied into the site.

    A schema's site path is its project path, so its ``$id`` (``<site_url><path>``)
    is where the site serves it.
    """
    if not any(c.data_shapes for c in project.contracts):
        return {}
    from contractc.model.schemas import compile_schemas

    found: dict[str, list[tuple[str, str, bytes]]] = {}
    for shape_id, compiled in compile_schemas(project, check=False).items():  # checked where they are emitted
        found[shape_id] = [("wire schema", compiled.path, dump_json(compiled.wire))]
        if compiled.artifact_path and compiled.artifact is not None:
            label = "artifact schema (without transient fields)"
            found[shape_id].append((label, compiled.artifact_path, dump_json(compiled.artifact)))
    return found


def _linker(page_path: str, relative):
    """``link(target)``: the relative path from this page's folder to ``target`` (both docs-relative)."""
    here = posixpath.dirname(page_path) or "."
    return lambda target: relative(target, here)


def _relative_paths():
    """``posixpath.relpath``, memoised for one render: every page links the same few hundred targets.
    ``typed``: a ``str`` subclass (``Markup``) gets relpath's own answer for it, not a plain string's."""
    from functools import lru_cache

    return lru_cache(maxsize=None, typed=True)(posixpath.relpath)


def _fence_body(block: bytes) -> str:
    """The lines between a fenced block's fences."""
    lines = block.decode("utf-8").splitlines(keepends=True)
    return "".join(lines[1:-1])


def code_span(text: Any):
    """A Markdown code span holding ``text`` verbatim (Markdown escapes code itself).

    Text with a leading or trailing space becomes HTML that keeps and shows the
    space (see :mod:`contractc.site.code_spans`), which no engine strips.
    """
    text = str(text)
    if text.strip(" ") != text and text.strip(" "):
        from contractc.site.code_spans import html_code

        return Markup(html_code(text))
    run = max((len(m) for m in BACKTICKS.findall(text)), default=0) if "`" in text else 0
    ticks = "`" * (run + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Markup(f"{ticks}{pad}{text}{pad}{ticks}")


def fenced(text: Any, info: str = ""):
    """A fenced code block holding ``text`` verbatim, its fence longer than any run inside."""
    text = str(text)
    run = max((len(m) for m in FENCES.findall(text)), default=0) if "```" in text else 0
    ticks = "`" * max(3, run + 1)
    body = text if text.endswith("\n") or not text else text + "\n"
    return Markup(f"{ticks}{info}\n{body}{ticks}")


def attr_anchor(anchor: Any):
    """``{#anchor}``: attr_list syntax, so every engine uses the compiler's id."""
    return Markup(f"{{#{anchor}}}")

"""Where every page and anchor of the contract site is, computed from the model alone (:func:`site_layout`).

Part of the model, not of a stage: the page renderer
(:mod:`contractc.emit.site`), ``anchors.json`` and link checking
(:mod:`contractc.drift.links`) all read this one layout, so the site never
derives an anchor differently from the compiler.  It imports no jinja2 and
renders nothing: it only names pages and the anchors each page will carry,
with the source ``file:line`` each anchor comes from.
"""

from pathlib import PurePosixPath
from typing import Literal, NamedTuple

from contractc.report.diagnostics import ContractcError, Diagnostic
from contractc.model.fields import field_rows
from contractc.model.records import DEFAULT_SITE_URL, Config, Contract, DataShape, Project, Shape, ShapeSpec, TextShape
from contractc.model.names import ascii_folded, name_problem

RESERVED = {"index", "shapes", "agents", "schemas", "snippets", "files"}
"""Names under the prefix that the generated pages use themselves."""

PageKind = Literal["index", "contract", "shape", "agent"]
AnchorKind = Literal["section", "check", "shape", "field"]


class Page(NamedTuple):
    """One generated Markdown page."""

    path: str
    """Docs-relative POSIX path of the Markdown source, e.g. ``contracts/shapes/findingsreturn.md``."""
    kind: PageKind
    title: str
    key: str
    """What the page is about: the contract path, shape id or agent name (empty for the index)."""


class Anchor(NamedTuple):
    """One id the site guarantees, and where it came from."""

    id: str
    page: str
    """Docs-relative path of the page that carries it."""
    kind: AnchorKind
    source: str
    """Project-relative path of the contract that defines it."""
    line: int
    """1-based line in ``source``."""


HoldKind = Literal["copies", "dispatches", "embeds"]


class Holding(NamedTuple):
    """A managed region of a target file that holds a shape, or part of its contract."""

    path: str
    """The target file (an agent's or a skill's)."""
    label: str
    """The region as its marker names it: ``shape=task_brief``."""
    how: HoldKind
    """``copies`` the shape's block or template (``shape=``), ``dispatches`` its dispatch bundle
    (``bundle=``), ``embeds`` the sections that define it (``section=``)."""
    shape: str
    """The shape's id."""


class Agent(NamedTuple):
    """A name that produces, consumes or holds shapes (an agent or a skill)."""

    name: str
    produces: tuple[str, ...]
    """Ids of the shapes it produces."""
    receives: tuple[str, ...]
    """Ids of the shapes it consumes."""
    file: str = ""
    """Its file in the project: the role file under ``agents:``, else the target file named after it; empty
    when the project has none."""
    holds: tuple[Holding, ...] = ()
    """The regions of its files that hold shapes, in file and line order."""


class Layout(NamedTuple):
    prefix: str
    pages: tuple[Page, ...]
    anchors: tuple[Anchor, ...]
    agents: tuple[Agent, ...]
    specs: dict[str, ShapeSpec]
    """The data shapes with their notation interpreted, by id (their field tables)."""
    problems: tuple[Diagnostic, ...] = ()
    """Marker problems of target files, which were skipped: the site stops on them (check reports them itself)."""

    def holders(self, shape_id: str) -> list[tuple[Agent, Holding]]:
        """Every region that holds the shape, with the agent whose file it is in."""
        return [(a, h) for a in self.agents for h in a.holds if h.shape == shape_id]


def page_url(path: str, directory_urls: bool = True) -> str:
    """The site URL of a docs-relative Markdown path, the way mkdocs and Zensical name it."""
    pure = PurePosixPath(path)
    if pure.suffix != ".md":
        return path
    if not directory_urls:
        return pure.with_suffix(".html").as_posix()
    if pure.stem == "index":
        parent = pure.parent.as_posix()
        return "" if parent == "." else parent + "/"
    return pure.with_suffix("").as_posix() + "/"


def site_address(config: Config, page_path: str, directory_urls: bool | None = None) -> str:
    """The published URL of a docs-relative page: ``site_url`` followed by :func:`site_relative_url`."""
    return config.site_url + site_relative_url(config, page_path, directory_urls)


def site_relative_url(config: Config, page_path: str, directory_urls: bool | None = None) -> str:
    """A page's URL relative to ``site_url`` (``directory_urls`` defaults to ``site.directory_urls``).

    The default ``site_url`` (``https://example.invalid/contracts/``) already ends in the
    default prefix's folder, so under it the prefix is named once: ``…/contracts/echo/``,
    never ``…/contracts/contracts/echo/``.  Every URL the compiler records or checks
    (``anchors.json``, receiver-check links, ``drift-link``) is made here.
    """
    if directory_urls is None:
        directory_urls = config.site.directory_urls
    url = page_url(page_path, directory_urls)
    named = named_prefix(config)
    if named and (url + "/").startswith(named + "/"):
        url = url[len(named) + 1 :]
    return url


def named_prefix(config: Config) -> str:
    """The site prefix that ``site_url`` itself already ends with (the default's ``contracts``), or ``""``."""
    prefix = config.site.prefix
    if prefix and config.site_url == DEFAULT_SITE_URL and DEFAULT_SITE_URL.endswith(f"/{prefix}/"):
        return prefix
    return ""


def site_layout(project: Project, holdings: bool = False) -> Layout:
    """Every page and anchor of the site; two pages on one path is a ``site-collision``.

    ``holdings`` also reads every target file for the regions that hold shapes (who copies what,
    :class:`Holding`), and gives a page to each agent or skill whose file holds one: the site's pages
    show them.  Without it (link checking, ``diff``) no target is read: a clean ``check`` passes a
    current target without finding its regions.
    """
    prefix = project.config.site.prefix
    base = f"{prefix}/" if prefix else ""
    pages = [Page(f"{base}index.md", "index", "Contracts", "")]
    anchors: list[Anchor] = []
    problems: list[Diagnostic] = []
    seen: dict[str, str] = {}
    for i, contract in enumerate(project.contracts):
        stem = PurePosixPath(contract.path).stem
        path = f"{base}{stem}.md"
        if stem in RESERVED or path in seen:
            where = project.config.where(f"$.contracts[{i}].path")
            other = seen.get(path, "the generated pages")
            problems.append(
                Diagnostic.at(
                    where,
                    "site-collision",
                    f"the site page of {contract.path} would be {path}, already used by {other}",
                    "rename the contract file: its name without .md names its site page",
                )
            )
            continue
        seen[path] = contract.path
        pages.append(Page(path, "contract", contract.title, contract.path))
        anchors.extend(_contract_anchors(contract, path))
    if problems:
        raise ContractcError(problems)
    specs = project.specs
    for contract, shape in project.shapes():
        path = f"{base}shapes/{shape.id}.md"
        pages.append(Page(path, "shape", shape_title(shape), shape.id))
        anchors.extend(_shape_anchors(contract, shape, path, specs))
    target_problems: list[Diagnostic] = []
    agents = participants(project, target_problems if holdings else None)
    for agent in agents:
        pages.append(Page(f"{base}agents/{agent.name}.md", "agent", agent.name, agent.name))
    return Layout(prefix, tuple(pages), tuple(anchors), agents, specs, tuple(target_problems))


def shape_title(shape: Shape) -> str:
    return shape.name if isinstance(shape, TextShape) else shape.id


def participants(project: Project, problems: list[Diagnostic] | None = None) -> tuple[Agent, ...]:
    """Every producer and consumer named by a text shape, sorted by name; given ``problems``, also every agent
    or skill whose file holds a region of a shape (a target's marker problems go to ``problems``, and it is
    skipped)."""
    produces: dict[str, list[str]] = {}
    receives: dict[str, list[str]] = {}
    for _, shape in project.shapes():
        if isinstance(shape, TextShape):
            produces.setdefault(shape.producer, []).append(shape.id)
            for consumer in shape.consumers:
                receives.setdefault(consumer, []).append(shape.id)
    files = {name: path for name, path in project.config.agents}
    holds: dict[str, list[Holding]] = {}
    for path, held in _holdings(project, problems) if problems is not None else ():
        name = next((n for n, p in files.items() if p == path), None) or agent_name(path)
        if name_problem(name):  # it names a page: `agents/rédacteur.md` is the page of `redacteur`
            name = ascii_folded(name)
            if name_problem(name):
                continue  # no page can carry its name; its shapes' pages still list nothing of it
        files.setdefault(name, path)
        holds.setdefault(name, []).extend(held)
    if problems is not None:  # a target named after the agent, without regions, is still its file
        named: dict[str, str] = {}
        for path in project.targets.paths:
            named.setdefault(agent_name(path), path)
        for name in {*produces, *receives} - files.keys():
            if name in named:
                files[name] = named[name]
    names = sorted({*produces, *receives, *holds})
    return tuple(
        Agent(n, tuple(produces.get(n, ())), tuple(receives.get(n, ())), files.get(n, ""), tuple(holds.get(n, ())))
        for n in names
    )


def agent_name(path: str) -> str:
    """The agent or skill a target file is: ``skills/review/SKILL.md`` -> ``review``, ``agents/lead.md`` -> ``lead``."""
    pure = PurePosixPath(path)
    if pure.name.upper() == "SKILL.MD" and pure.parent.name:
        return pure.parent.name
    return pure.stem


def _holdings(project: Project, problems: list[Diagnostic]) -> list[tuple[str, list[Holding]]]:
    """Each target file holding regions of shapes, with those regions (a region whose reference does
    not resolve holds nothing)."""
    inside: dict[str, list[tuple[int, int, str]]] = {}  # contract -> (start, end, shape id) of each block
    for contract in project.contracts:
        for shape in contract.shapes:
            own = shape.block if isinstance(shape, DataShape) else shape.template or shape.span
            inside.setdefault(contract.path, []).append((own.start, own.end, shape.id))
    found = []
    for target in project.targets.scan(problems):
        held: list[Holding] = []
        for region in target.regions:
            if region.sources is None:
                continue
            label = region.label  # no line: build's filling of the regions above it would move it
            if region.kind in ("shape", "bundle"):
                held.append(Holding(target.path, label, "copies" if region.kind == "shape" else "dispatches", region.ref))
                continue
            for span in region.sources:
                held.extend(
                    Holding(target.path, label, "embeds", shape_id)
                    for start, end, shape_id in inside.get(span.path, ())
                    if span.start <= start and end <= span.end
                )
        if held:
            found.append((target.path, held))
    return found


def _contract_anchors(contract: Contract, page: str) -> list[Anchor]:
    found = [Anchor(s.anchor, page, "section", contract.path, s.span.line) for s in contract.sections]
    for shape in contract.text_shapes:
        found.extend(Anchor(c.anchor, page, "check", contract.path, c.span.line) for c in shape.checks)
    return found


def _shape_anchors(contract: Contract, shape: Shape, page: str, specs: dict[str, ShapeSpec]) -> list[Anchor]:
    line = shape.span.line if isinstance(shape, TextShape) else shape.block.line
    found = [Anchor(shape.id, page, "shape", contract.path, line)]
    if isinstance(shape, TextShape):
        found.extend(Anchor(c.anchor, page, "check", contract.path, c.span.line) for c in shape.checks)
    elif isinstance(shape, DataShape):
        found.extend(
            Anchor(field_anchor(shape, row.path), page, "field", contract.path, row.line)
            for row in field_rows(specs[shape.id])
        )
    return found


def field_anchor(shape: DataShape, path: str) -> str:
    """``<shape-id>-<field.path>``: ``task_brief-owners.name``."""
    return f"{shape.id}-{path}"

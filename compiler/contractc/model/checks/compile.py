"""Stage 2 for receiver checks: each check's prose -> rules (:mod:`contractc.model.checks.rules`), or refused.

A check is *read* from its first word to its last.  The reader walks the prose
(whitespace joined): at each point it skips a connector (``,`` ``;`` ``:`` ``.``
``—`` and a following ``and``), then an ``If `value`, ...`` condition (it holds to
the end of its sentence), then one phrasing of :data:`PHRASINGS` anchored there.
A phrasing is a requirement (it gives a rule), an elaboration of the rule just
read (``counting newline-separated lines`` after a line limit), or commentary
that states no requirement (a ``because ...`` reason).  Words no phrasing reads
are *unread*; a check with any unread words, naming a form the contract does not
define, or with a condition no status line allows, is not mechanised: its
``rules`` stay None and its ``unread`` quote what was not read, so no check is
ever half enforced.  ``or`` is never a connector: a disjunction no phrasing
reads is unread, not taken as its first half.  The contract's bytes are never touched.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from contractc.model.checks.forms import find_forms
from contractc.model.checks import rules
from contractc.model.checks.rules import Form, Rule, When
from contractc.model.records import Check, Contract, TextShape
from contractc.report.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from contractc.model.checks.explicit import Explicit, Sidecar

_CODE = re.compile(r"`([^`]+)`")
_ALTERNATIVES = r"`[^`]+`(?:(?:\s*/\s*|,\s*or\s+|,\s*|\s+or\s+)`[^`]+`)*"
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_CONNECTOR = re.compile(r"[\s,;:.—–]*(?:(?:and|then)\s+)?")
_CONDITION = re.compile(rf"(?:If|When) (?P<values>`[^`]+`(?:(?:,\s*or\s+|,\s*|\s+or\s+)`[^`]+`)*),\s*")
_BOUNDARY = re.compile(r"[,;:.](?:\s|$)|\s[—–(]|\s(?:and|or|but|then|except|unless)\s")
"""Where an unread stretch ends (in the prose with its code spans blanked): the next clause may be read."""
_NOT_COMMENTARY = re.compile(
    r"`|\d|≤|≥|\b(?:must|should|shall|needs?|required?|has to|have to|may|every|each|all|any|only|never|always|not|no|none"
    r"|except|unless|but|if|when|whenever|or|and|at most|at least|exactly|reject\w*|fail\w*)\b|n't\b",
    re.IGNORECASE,
)
"""A word that may state a requirement: a reason or a justification holding one is not commentary."""
_NOT_RECEIVER_NOTE = re.compile(
    r"`|\b(?:must|should|shall|needs?|required?|has to|have to|may|if|when|whenever|unless|except|where|with|without"
    r"|containing|lacking|missing|whose|that|which|every|each|any|all|only|reject\w*|fail\w*)\b|\d(?<!check \d)",
    re.IGNORECASE,
)


_ITEM_RULES = (rules.Bullets, rules.NumberedList, rules.ItemLines, rules.HeadingBullets)
"""Rules about each item of a list: a requirement after one, in its sentence, with no subject is ambiguous."""


class _Unknown(Exception):
    """A clause names something the contract does not define (a form), or elaborates a rule the check lacks."""


class Reading(NamedTuple):
    """What the reader made of one check's prose."""

    rules: tuple[Rule, ...] | None
    """The rules it states, or None when it is not mechanised."""
    unread: tuple[str, ...] = ()
    """Why not: the words no phrasing reads (quoted as written), or what the check names that the contract lacks."""


class _Context:
    """What a clause may refer to: the contract's forms, the shape's statuses, the check's earlier rules."""

    def __init__(self, forms: dict[str, Form], statuses: tuple[str, ...], data: frozenset[str] = frozenset()) -> None:
        self.forms = forms
        self.statuses = statuses
        self.data = data
        """Ids and keys of the contract's data shapes: what ``is a YAML document of `S` `` may name."""
        self.rules: list[Rule] = []
        self.sentence = 0
        """Where the rules of the sentence being read start."""

    def form(self, name: str | None) -> Form | None:
        if not name:
            return None
        try:
            return self.forms[name.lower()]
        except KeyError:
            raise _Unknown(f"the {name} form, which the contract does not define (`**{name.capitalize()} form.**`)") from None

    def of_the_return(self, m) -> None:
        """A requirement written without its subject (``..., and names a file``) speaks of the whole return,
        unless a rule about each item comes before it in its sentence: then it may mean each item, and is refused."""
        if not m["subj"] and any(isinstance(r, _ITEM_RULES) for r in self.rules[self.sentence :]):
            raise _Unknown("no subject after a rule about each item: of each item, or of the whole return?")

    def last(self, *kinds: type) -> Rule:
        """The rule just read, when it is of one of ``kinds``: what an elaboration speaks of."""
        if self.rules and isinstance(self.rules[-1], kinds):
            return self.rules[-1]
        raise _Unknown("an elaboration of a rule the check does not state before it")


Build = Callable[["re.Match[str]", When, _Context], "Rule | None"]
"""Reads a matched phrasing: a rule, None for an elaboration or commentary (nothing more to enforce), or raises _Unknown."""


# --- requirements ----------------------------------------------------------------------------


def _status(m, when, ctx) -> Rule:
    return rules.StatusLine(m["prefix"], tuple(_CODE.findall(m["values"])), when)


def _status_alternatives(m, when, ctx) -> Rule:
    return rules.status_line(tuple(_CODE.findall(m["alts"])), when)


def _line_number(m) -> int:
    """``Line 3`` / ``the third line`` / ``the last line`` / ``the first line`` as :attr:`rules.LineBegins.line` counts."""
    if m["n"]:
        return int(m["n"])
    word = m["ord"].lower()
    return -1 if word in ("last", "final") else _ORDINALS.index(word) + 1


def _line_is(m, when, ctx) -> Rule:
    line, values = _line_number(m), tuple(_CODE.findall(m["alts"]))
    return rules.status_line(values, when) if line == 1 else rules.LineIs(line, values, when)


def _line_ends(m, when, ctx) -> Rule:
    return rules.LineEnds(_line_number(m), m["suffix"], when)


def _contains(m, when, ctx) -> Rule:
    values = tuple(_CODE.findall(m["alts"]))
    negated = bool(m["not"])
    every = len(values) > 1 and re.search(r"\band\b", m["alts"]) is not None
    if every and re.search(r"\bor\b|\bnor\b|/", m["alts"]):
        raise _Unknown("a list of literals joined by both `and` and `or`")
    if every and negated:
        raise _Unknown("“does not contain a and b”: neither of them, or not both of them?")
    return rules.Contains(values, "none" if negated else "all" if every else "any", when)


def _count(m, when, ctx) -> Rule:
    ctx.of_the_return(m)
    unit = {"words": "words", "characters": "chars", "chars": "chars", "lines": "lines"}[m["unit"]]
    n = int(m["n"])
    if m["bound"].lower().endswith("least"):
        return rules.Count(unit, n, None, when)
    if unit == "lines":
        return rules.MaxLines(n, when)
    return rules.Count(unit, None, n, when)


def _is_data(m, when, ctx) -> Rule:
    shape = m["shape"] or ""
    if shape and shape not in ctx.data:
        raise _Unknown(f"the data shape `{shape}`, which the contract does not define")
    return rules.IsData(m["fmt"].lower(), shape, when)


def _after_status(m, when, ctx) -> Rule:
    return rules.LineBegins(0, m["prefix"], when)


def _line_begins(m, when, ctx) -> Rule:
    return rules.LineBegins(_line_number(m), m["prefix"], when)


def _exempt(m, when, ctx) -> Rule:
    earlier = next((r for r in reversed(ctx.rules) if isinstance(r, rules.Bullets)), None)
    if earlier is None:
        raise _Unknown("'does' with no earlier bullet rule in the check")
    return replace(earlier, exempt=m["exempt"], when=when)


def _bullets(m, when, ctx) -> Rule:
    if not (m["begins"] or m["form"]):
        raise _Unknown("a bullet rule requiring nothing")
    return rules.Bullets(m["begins"] or "", ctx.form(m["form"]), "", when)


def _numbered(m, when, ctx) -> Rule:
    return rules.NumberedList(int(m["start"]), ctx.form(m["form"]), bool(m["file"]), when)


def _numbered_items(m, when, ctx) -> Rule:
    return rules.NumberedList(0, ctx.form(m["form"]), bool(m["file"]), when)


def _heading(m, when, ctx) -> Rule:
    return rules.HeadingBullets(m["heading"], m["bullet"], when)


def _required(m, when, ctx) -> Rule:
    ctx.of_the_return(m)
    prefix = m["prefix"] or m["p2"] or m["p3"]
    if m["bold"]:
        return rules.RequiredLine(f"**{m['bold']}**", when)
    word = m["what"] or m["w2"] or "line"
    if word in ("heading", "section") and re.fullmatch(r"\w[\w &/,'()-]*", prefix):
        return rules.Heading(prefix, when)  # `Risks` heading: a line that is the heading, `## Risks` or `**Risks**`
    return rules.RequiredLine(prefix, when)


def _forbidden(m, when, ctx) -> Rule:
    return rules.ForbiddenLine(m["prefix"] or m["p2"] or m["p3"], when)


def _item_lines(m, when, ctx) -> Rule:
    noun = m["noun"].lower()
    if noun in ("list", "yaml", "markdown"):
        noun = "item"
    # "Every finding has ..." speaks of the items of a `findings` return: its plural is the condition.
    if not when and f"{noun}s" in ctx.statuses:
        when = (f"{noun}s",)
    return rules.ItemLines(tuple(_CODE.findall(m["keys"])), noun, when)


def _names_file(m, when, ctx) -> Rule:
    ctx.of_the_return(m)
    return rules.NamesFile(when)


def _carries_form(m, when, ctx) -> Rule:
    form = ctx.form(m["form"])
    assert form is not None
    return rules.CarriesForm(form, when)


# --- elaborations of the rule just read, and commentary --------------------------------------


def _of(*kinds: type) -> Build:
    """An elaboration of a rule of ``kinds`` just read: it adds nothing to enforce (the rule already means it)."""

    def build(m, when, ctx) -> None:
        ctx.last(*kinds)
        return None

    return build


def _always(m, when, ctx) -> None:
    """"Whatever the verdict, ...": the clause after it has no condition, which is what no ``If`` means."""
    if when:
        raise _Unknown("an unconditional clause inside a condition")


def _bullet_scope(m, when, ctx) -> None:
    """"— a tension bullet as much as a pattern bullet": every bullet already means each kind of bullet."""
    if ctx.last(rules.Bullets).exempt:
        raise _Unknown("a scope note on a bullet rule that excuses a bullet")


def _exempt_reason(m, when, ctx) -> None:
    if not ctx.last(rules.Bullets).exempt:
        raise _Unknown("a reason for excusing a bullet, where no bullet is excused")


def _restated(m, when, ctx) -> None:
    """"Any other bullet, in either status, carries its citation": what the bullet rules before it already say."""
    earlier = [r for r in ctx.rules if isinstance(r, rules.Bullets)]
    if not earlier or len(earlier) != len(ctx.rules) or any(r.form is None or r.form.name != m["form"].lower() for r in earlier):
        raise _Unknown("a restatement of bullet rules the check does not state")


def _commentary(m, when, ctx) -> None:
    """A reason or a justification: read only when it holds no word that could state a requirement."""
    if _NOT_COMMENTARY.search(m[0]):
        raise _Unknown("a reason holding a requirement")


def _receiver_note(m, when, ctx) -> None:
    """What the receiver does, or which other check reaches what: about the checking, not the return."""
    if _NOT_RECEIVER_NOTE.search(m[0]):
        raise _Unknown("a note about the receiver holding a requirement")


_UPTO_SENTENCE = r"[^.;]*?(?=[.;](?:\s|$)|$)"
_UPTO_CLAUSE = r"[^.;:]*?(?=[.;:](?:\s|$)|$)"

PHRASINGS: dict[str, tuple[str, Build]] = {
    # Tried in order at each point of a check's prose (anchored there); the first that reads wins.
    # Each pattern is compiled once, on first use (:func:`_compiled`).
    "status-line": (rf"Line 1 is exactly `(?P<prefix>[^`]*)` followed by one of (?P<values>{_ALTERNATIVES})", _status),
    "status-alternatives": (rf"Line 1 is (?:exactly )?(?P<alts>{_ALTERNATIVES})", _status_alternatives),
    "line-after-status": (r"[Tt]he first non-blank line after the status line begins `(?P<prefix>[^`]+)`", _after_status),
    "line-begins": (
        rf"(?:[Ll]ine (?P<n>\d+)|[Tt]he (?P<ord>last|final|{'|'.join(_ORDINALS)}) line) begins"
        r" (?:with )?`(?P<prefix>[^`]+)`",
        _line_begins,
    ),
    "line-is": (
        rf"(?:[Ll]ine (?P<n>\d+)|[Tt]he (?P<ord>last|final|{'|'.join(_ORDINALS)}) line) is (?:exactly )?(?:one of )?"
        rf"(?P<alts>{_ALTERNATIVES})",
        _line_is,
    ),
    "line-ends": (
        rf"(?:[Ll]ine (?P<n>\d+)|[Tt]he (?P<ord>last|final|{'|'.join(_ORDINALS)}) line) ends (?:with )?`(?P<suffix>[^`]+)`",
        _line_ends,
    ),
    "heading-bullets": (
        r"If an? `(?P<heading>[^`]+)` heading is present, it is the line `(?P=heading)` alone, and every"
        r" non-blank line after it begins a bullet \(`(?P<bullet>[^`]+)`\) or continues the bullet above it",
        _heading,
    ),
    "bullets-exempt": (r"[Ee]very bullet after the opening `(?P<exempt>[^`]+)` bullet does", _exempt),
    "bullets": (
        r"[Ee]very (?:\w+ )?bullet(?: begins `(?P<begins>[^`]+)`)?(?: and)?"
        r"(?: carries (?:the|an? [\w ]+? in the) (?P<form>[\w-]+) form)?",
        _bullets,
    ),
    "numbered-list": (
        r"(?:[Tt]he \w+(?: \w+)? )?are a numbered list starting at `(?P<start>\d+)[.)]`"
        r"(?:,? and every item carries the (?P<form>[\w-]+) form(?P<file> and names a file)?)?",
        _numbered,
    ),
    "numbered-items": (
        r"[Ee]very numbered (?:item|line) carries (?:the|an? [\w ]+? in the) (?P<form>[\w-]+) form(?P<file> and names a file)?",
        _numbered_items,
    ),
    "item-lines": (
        r"(?:Every|Each) (?:list |YAML |Markdown )?(?P<noun>\w+) (?:has|carries|holds) (?P<keys>"
        r"an? `[^`]+` (?P<w>line|field|key)(?:(?:,\s*and\s+|,\s*|\s+and\s+)an? `[^`]+` (?P=w))*"
        r"|`[^`]+`(?:(?:,\s*and\s+|,\s*|\s+and\s+)`[^`]+`)* (?:lines|fields|keys)"
        r")(?:,? at any indent)?",
        _item_lines,
    ),
    "forbidden-line": (
        r"(?:[Rr]eject the return (?:when|if) an? `(?P<prefix>[^`]+)` line is present"
        r"|[Nn]o line begins (?:with )?`(?P<p2>[^`]+)`"
        r"|[Aa]n? `(?P<p3>[^`]+)` line (?:must not|may not|is never) (?:be )?present)",
        _forbidden,
    ),
    "required-line": (
        r"(?:[Aa]n? `(?P<prefix>[^`]+)` (?P<what>line|section|heading|label) is present"
        r"|(?P<subj>[Tt]he (?:return|body) (?:has|includes|contains)|[Tt]here is) an? `(?P<p2>[^`]+)` (?P<w2>line|section|heading)"
        r"|(?:[Aa]|[Ss]ome) line begins (?:with )?`(?P<p3>[^`]+)`"
        r"|[Aa]n? \*\*(?P<bold>[^*`]+)\*\* (?:section|heading|label) is present)",
        _required,
    ),
    "contains": (
        rf"[Tt]he return (?P<not>does not |must not |never |neither )?(?:contains?|mentions?|holds?|includes?) "
        rf"(?:the (?:text|word|words|string) )?(?P<alts>`[^`]+`(?:(?:\s*/\s*|,\s*(?:and|or|nor)\s+|,\s*|\s+(?:and|or|nor)\s+)`[^`]+`)*)",
        _contains,
    ),
    "count": (
        r"(?P<subj>[Tt]he (?:whole |entire )?return (?:is|has) |[Ii]t is )?(?P<bound>[Aa]t most|[Nn]o more than|[Aa]t least|≤)\s*(?P<n>\d+)"
        r" (?P<unit>words|characters|chars|lines)(?: long)?",
        _count,
    ),
    "is-data": (
        r"[Tt]he (?:whole )?return is (?:a |one )?(?:valid )?(?P<fmt>YAML|JSON)(?: document)?"
        r"(?: (?:of|matching|valid against|in) (?:the )?(?:data shape )?`(?P<shape>[^`]+)`(?: (?:data )?shape)?)?",
        _is_data,
    ),
    "names-file": (
        r"(?P<subj>[Tt]he (?:body|return) )?(?:names|mentions|cites) (?:at least one|a) file(?: path| name)?"
        r"(?: that (?:was|were|is|are) [a-z]+(?:ed|en|ad)\b)?",
        _names_file,
    ),
    "carries-form": (r"[Tt]he body carries the (?P<form>[\w-]+) form", _carries_form),
    "unconditional": (r"(?:Whatever|Whichever) the (?:status|verdict)(?: is)?|In (?:every|any|either) (?:status|case)", _always),
    # elaborations: each speaks of the rule just read, and the rule already means what it says
    "bullet-scope": (r"an? [\w-]+ bullet(?: under `[^`]+`)? as much as an? [\w-]+ bullet", _bullet_scope),
    "exempt-reason": (r"(?:that|the) (?:one|opening|first) bullet names no \w+(?:, so it has (?:none|nothing) to \w+)?", _exempt_reason),
    "restated-bullets": (r"[Aa]ny other bullet(?:, in (?:either|any|each|every) status,)? carries its (?P<form>[\w-]+)", _restated),
    "line-counting": (
        r"(?:counting (?:newline-separated|physical) lines|count them rather than estimating(?: from \w+)?"
        r"|an? (?:long )?(?:unwrapped |wrapped )?line (?:is|counts as) one line)",
        _of(rules.MaxLines),
    ),
    "continuation": (
        r"an indented line,? or an unindented line with no blank line between it and (?:that|the) bullet",
        _of(rules.HeadingBullets, rules.Bullets),
    ),
    "content-permission": (r"\(its (?:content|text|body) may be [^()]*\)", _of(rules.RequiredLine)),
    # commentary: states why, or what the receiver does; no requirement words
    "reason": (rf"(?:[Bb]ecause|[Ss]ince|so that)\b{_UPTO_CLAUSE}", _commentary),
    "justification": (rf"(?=[^.;:]*\b(?:what makes|is indistinguishable from|is why)\b){_UPTO_SENTENCE}", _commentary),
    "receiver-note": (
        r"(?=[^.;]*\bthe receiver\b)[^.;]*?\b(?:discards|rejects|re-dispatches|throws away|keeps|uses|accepts) the return"
        r"(?=[.;](?:\s|$)|$)",
        _receiver_note,
    ),
}


@cache
def _compiled() -> tuple[tuple[str, re.Pattern[str], Build], ...]:
    """Every phrasing's pattern, compiled once on first use; each must end at a word's end."""
    return tuple((kind, re.compile(pattern + r"(?![\w`])"), build) for kind, (pattern, build) in PHRASINGS.items())


def _masked(text: str) -> str:
    """``text`` with each code span's inside blanked, so punctuation in a literal is no clause boundary."""
    return _CODE.sub(lambda m: "`" + "x" * (len(m[0]) - 2) + "`", text)


def compile_check(text: str, forms: dict[str, Form], statuses: tuple[str, ...] = (), data: frozenset[str] = frozenset()) -> Reading:
    """Read a check's prose: its rules when every word is read, else None and the words that were not.
    ``data`` holds the ids and keys of the data shapes a check may name."""
    prose = " ".join(text.split())
    masked = _masked(prose)
    ctx = _Context(forms, statuses, data)
    unread: list[str] = []  # phrasings read that name what the contract lacks
    spans: list[tuple[int, int]] = []  # stretches no phrasing reads
    when: When = ()
    pos = 0
    while True:
        gap = _CONNECTOR.match(prose, pos)
        if "." in masked[pos : gap.end()]:
            when, ctx.sentence = (), len(ctx.rules)  # a condition holds to the end of its sentence
        elif when and ";" in masked[pos : gap.end()] and gap.end() < len(prose):
            # "If `x`, A; B": whether B is conditional too is the author's guess to make, not ours
            spans.append((gap.end(), len(prose)))
            break
        pos = gap.end()
        if pos >= len(prose):
            break
        condition = _CONDITION.match(prose, pos)
        if condition:
            when, pos = tuple(_CODE.findall(condition["values"])), condition.end()
            continue
        end = _read(prose, pos, when, ctx, unread)
        if end is None:
            stop = _BOUNDARY.search(masked, pos + 1)
            end = stop.start() if stop else len(prose)
            if spans and _CONNECTOR.fullmatch(prose, spans[-1][1], pos):
                spans[-1] = (spans[-1][0], end)  # one stretch of unread words is quoted once
            else:
                spans.append((pos, end))
        pos = max(end, pos + 1)
    unread[:0] = [prose[a:b].strip() for a, b in spans]
    if unread:
        return Reading(None, tuple(unread))
    if not ctx.rules:
        return Reading(None, ("no requirement: the check states no rule any phrasing reads",))
    return Reading(tuple(ctx.rules))


def _read(prose: str, pos: int, when: When, ctx: _Context, unread: list[str]) -> int | None:
    """The end of the phrasing read at ``pos`` (its rule appended to ``ctx``), or None when none reads."""
    for _, pattern, build in _compiled():
        m = pattern.match(prose, pos)
        if m is None or m.end() == pos:
            continue
        try:
            rule = build(m, when, ctx)
        except _Unknown as exc:
            unread.append(f"{m[0]} ({exc})")
            return m.end()
        if rule is not None:
            ctx.rules.append(rule)
        return m.end()
    return None


def compile_shape(
    shape: TextShape, forms: dict[str, Form], data: frozenset[str] = frozenset(), explicit: Explicit | None = None
) -> TextShape:
    """The shape with every check read: ``rules`` filled in, or None and ``unread`` saying why.  A check with
    an explicit rule (``explicit``, from the sidecar) takes that rule, and ``Check.explicit`` says where it is."""
    compiled: list[tuple[Check, Reading]] = []
    statuses: tuple[str, ...] = ()
    explicit = explicit or {}
    for check in shape.checks:
        given = explicit.get((shape.id, check.number))
        if given is not None:
            check = replace(check, explicit=given[1])
        found = Reading(given[0]) if given is not None else compile_check(check.text, forms, statuses, data)
        statuses = statuses or next((r.values for r in found.rules or () if isinstance(r, rules.StatusLine)), ())
        compiled.append((check, found))
    checks = []
    for check, found in compiled:
        # A condition is only as good as the status it names: one that no compiled status line
        # allows could never hold, so its check would pass unenforced.  It is not mechanised.
        never = sorted({v for r in found.rules or () for v in r.when} - set(statuses))
        if never:
            found = Reading(None, (f"If {' or '.join(f'`{v}`' for v in never)} (a status no status-line check allows)",))
        checks.append(replace(check, rules=found.rules, unread=found.unread))
    return replace(shape, checks=tuple(checks))


def compile_checks(contract: Contract, tokens, sidecar: Sidecar | None = None) -> Contract:
    """Compile every text shape's checks; ``tokens`` is the contract's markdown-it-py parse (for its forms),
    ``sidecar`` the path and text of its explicit rules (``contracts/<name>.checks.yaml``) when it has them."""
    if not sidecar and not any(shape.checks for shape in contract.text_shapes):
        return contract
    forms = find_forms(tokens)
    data = frozenset(n for s in contract.shapes if not isinstance(s, TextShape) for n in (s.id, getattr(s, "key", s.id)))
    explicit = None
    if sidecar:
        from contractc.model.checks.explicit import compile_sidecar

        explicit = compile_sidecar(sidecar, contract, forms, data)
    shapes = tuple(compile_shape(s, forms, data, explicit) if isinstance(s, TextShape) else s for s in contract.shapes)
    return replace(contract, shapes=shapes)


def unread_words(check: Check) -> str:
    """The words of a check that is not mechanised, quoted for a message: ``“a”; “b”``."""
    return "; ".join(f"“{words}”" for words in check.unread)


def unmechanised_notes(contracts: tuple[Contract, ...]) -> list[Diagnostic]:
    """A ``check-not-mechanised`` note for every receiver check that compiled to no rules, quoting what was not read."""
    return [
        Diagnostic.at(
            check.span,
            "check-not-mechanised",
            f"{shape.name} check {check.number} is not mechanised: not read: {unread_words(check)}; "
            "`contractc validate` does not run it and receivers judge it by reading",
            "word every clause as one of the phrasings the explanation lists, or give the check an explicit rule",
            Severity.NOTE,
        )
        for contract in contracts
        for shape in contract.text_shapes
        for check in shape.checks
        if check.rules is None
    ]

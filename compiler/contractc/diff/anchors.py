"""Published anchors compared: what ``anchors.json`` listed on the older side and lists today.

Both lists come from :func:`contractc.model.layout.site_layout` , the one place
the site names its pages and anchors, so this is exactly what the two
``anchors.json`` files would say.  A citation is a page URL plus an anchor: one
that no longer resolves is breaking for links, unless the approval file
declares a redirect to an anchor that exists today.
"""

from __future__ import annotations

from collections import defaultdict

from contractc.diff.records import ChangeRecord, Location, verdicts
from contractc.model.layout import Anchor, page_url, site_layout
from contractc.model.records import Project


def published(project: Project) -> list[Anchor]:
    """Every anchor the project's site publishes (none for a project without contracts)."""
    return list(site_layout(project).anchors) if project.contracts else []


def compare_anchors(old: list[Anchor], new: list[Anchor], redirects: dict[str, str]) -> list[ChangeRecord]:
    today = {(a.page, a.id) for a in new}
    today_ids = {a.id for a in new}
    gone: dict[str, list[Anchor]] = defaultdict(list)
    for anchor in old:
        if (anchor.page, anchor.id) not in today:
            gone[anchor.id].append(anchor)
    records = []
    for anchor_id, anchors in sorted(gone.items()):
        first = min(anchors, key=lambda a: (a.source, a.line))
        pages = ", ".join(sorted({page_url(a.page) for a in anchors}))
        target = redirects.get(anchor_id)
        if target is not None and target in today_ids:
            kind, found = "anchor-redirected", ()
            message = f"#{anchor_id} is gone from {pages}; the declared redirect sends it to #{target}"
        else:
            kind, found = "anchor-removed", verdicts("links")
            message = f"#{anchor_id} is gone from {pages}: every published link to it breaks"
            if target is not None:
                message += f" (the declared redirect names #{target}, which does not exist)"
        records.append(
            ChangeRecord(kind, anchor_id, "", first.source, message, found, Location(first.source, first.line), None)
        )
    return records

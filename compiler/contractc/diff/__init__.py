"""``contractc diff``: two revisions of the contracts in, every change classified by whom it breaks.

Beside the pipeline, on the same model: :mod:`sides` loads the older side (a git
ref or a path) and today's with the one loader, :mod:`compare` walks contracts,
sections (:mod:`sections`), text shapes (:mod:`text`, :mod:`checks`), data shapes
(:mod:`data`, on the interpreted notation) and published anchors (:mod:`anchors`)
into :class:`~contractc.diff.records.ChangeRecord` values, and :mod:`gate` holds
them against the approval file (:mod:`accept`).  docs/diff.md is the reference.
"""

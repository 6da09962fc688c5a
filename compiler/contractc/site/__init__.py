"""The contract site: the mkdocs plugin, and what a page is made of.

``plugin`` is the mkdocs shell (mkdocs' entry point, beside the CLI); the pages
themselves are emitted by :mod:`contractc.emit.site` from the layout the model
gives (:mod:`contractc.model.layout`), with the contract annotated with its
anchors (``annotate``), the producer/consumer graph (``graph``), the Changes
pages (``changes``) and code spans every engine keeps (``code_spans``).
``warnings`` says what the plugin warns about before a build.
"""

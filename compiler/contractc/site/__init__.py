"""Stage 3, the contract site: page rendering, the stored pages output kind, the mkdocs plugin.

``pages`` renders with jinja2 (imported when rendering) from the layout ``load``
computed (:mod:`contractc.model.layout`); ``stored`` is the ``site`` output kind
(pages written to disk for engines without plugins); ``plugin`` is the mkdocs shell.
"""

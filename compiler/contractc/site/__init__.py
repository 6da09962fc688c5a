"""The contract site: page layout and anchors (check path), page rendering, the mkdocs plugin.

``layout`` imports no jinja2 and is safe on the ``check`` path; ``pages``
renders with jinja2 (imported when rendering); ``plugin`` is the mkdocs shell.
"""

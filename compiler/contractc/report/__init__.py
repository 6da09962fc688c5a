"""Messages and their formats: diagnostics and codes, report formatting, the progress line, explain."""

__version__ = "0.1.0"
"""contractc's version: the ``tool`` of every JSON report, the key of the cache, ``--version``."""

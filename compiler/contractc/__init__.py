"""contractc: compile agent contracts into byte-exact copies, schemas and a site; catch drift.

The public API is small: :func:`compile_project` for the in-memory output set,
:func:`run` for build/check, :class:`Receiver` to judge returns against compiled
receiver checks (``contractc.validate.receiver``), and :func:`main` for the CLI.
"""

from contractc.report import __version__

__all__ = ["ContractcError", "Diagnostic", "ExitCode", "Receiver", "__version__", "compile_project", "main", "run"]


def __getattr__(name: str):
    # Lazy, so `contractc --help` does not import the whole pipeline.
    if name in ("ContractcError", "Diagnostic", "ExitCode"):
        from contractc.report import diagnostics

        return getattr(diagnostics, name)
    if name in ("compile_project", "run"):
        from contractc import pipeline

        return getattr(pipeline, name)
    if name == "Receiver":
        from contractc.validate.receiver import Receiver

        return Receiver
    if name == "main":
        from contractc.cli import main

        return main
    raise AttributeError(name)

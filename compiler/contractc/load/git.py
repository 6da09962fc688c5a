"""How contractc runs git: never so that the repository it reads can run code.

A checkout under review is untrusted: its ``.git/config`` can name commands git
runs on its own -- ``core.fsmonitor`` on every index refresh (``ls-files``,
``status``, ``diff``), ``diff.external``, textconv and filter drivers,
``core.hooksPath``, a pager, an askpass or ssh command.  Every git call of
contractc goes through :func:`run_git`, which switches each of these off on
the command line (``-c`` beats every configuration file) -- the filter and diff
drivers the repository defines by name too, each set to nothing -- in
:func:`git_environment`, which leaves out the system configuration and any
variable that names a program.  Reading the configuration runs nothing.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable

SAFE = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.untrackedCache=false",
    "core.pager=cat",
    "core.askPass=",
    "core.sshCommand=",
    "core.editor=true",
    "core.alternateRefsCommand=",
    "diff.external=",
    "diff.noprefix=false",
    "credential.helper=",
    "protocol.allow=never",
    "uploadpack.packObjectsHook=",
    "gpg.program=false",
    "log.showSignature=false",
)
"""``-c`` settings given to every git call: no command from a configuration file runs."""


def run_git(cwd: str | os.PathLike[str], *args: str, extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[bytes]:
    """``git args`` in ``cwd`` (output captured as bytes; raises ``OSError`` without git), with every
    setting that runs a command switched off; ``extra`` are options before the command (``--git-dir``)."""
    return subprocess.run(
        [*git_command(_drivers(os.path.realpath(cwd))), *extra, *args], cwd=cwd, capture_output=True, check=False, env=git_environment()
    )


def git_output(cwd: str | os.PathLike[str], ref: str, bad: Callable[[str], Exception], *args: str) -> str:
    """The output of ``git args`` (about the revision ``ref``); ``bad(reason)`` is raised when git cannot run
    or refuses (the reason its first line of stderr, else "'REF' is not a commit")."""
    try:
        done = run_git(cwd, *args)
    except OSError as exc:
        raise bad(f"git cannot run: {exc.strerror}") from None
    if done.returncode:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise bad(reason[0] if reason else f"'{ref}' is not a commit")
    return done.stdout.decode("utf-8", "surrogateescape")


def git_command(drivers: tuple[str, ...] = ()) -> list[str]:
    """``git`` with :data:`SAFE` and ``drivers`` (``filter.x.clean`` ...) set to nothing."""
    argv = ["git"]
    for setting in (*SAFE, *(f"{key}=" for key in drivers)):
        argv += ["-c", setting]
    return [*argv, "--no-pager"]


def _drivers(cwd: str) -> tuple[str, ...]:
    """Every filter and diff driver command the configuration seen from ``cwd`` defines (read, never run)."""
    try:
        done = subprocess.run(
            [*git_command(), "config", "--null", "--name-only", "--get-regexp", r"^(filter|diff|merge)\..*\.(clean|smudge|process|textconv|command|driver)$"],
            cwd=cwd,
            capture_output=True,
            check=False,
            env=git_environment(),
        )
    except OSError:
        return ()
    return tuple(sorted({k for k in done.stdout.decode("utf-8", "surrogateescape").split("\0") if k}))


def git_environment() -> dict[str, str]:
    """The environment for git: no system configuration, no prompt, no lock taken for a read, and no
    variable naming a program (``GIT_DIR`` and ``GIT_INDEX_FILE`` stay: a pre-commit hook sets them)."""
    env = {k: v for k, v in os.environ.items() if k not in _PROGRAMS}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0")
    return env


_PROGRAMS = ("GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_ASKPASS", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PROXY_COMMAND")


def tracked(root: str | os.PathLike[str], rel: str) -> bool:
    """Whether git tracks ``rel`` in the work tree at ``root`` (False without git or outside a repository)."""
    try:
        return run_git(root, "ls-files", "--error-unmatch", "--", rel).returncode == 0
    except OSError:
        return False

#!/usr/bin/env bash
# The steps of the composite GitHub Action (action.yml), one per sub-command,
# kept in this file so the tests run exactly what the Action runs.
#
#   contractc-action.sh install   create a virtualenv, pip install contractc, put it on PATH
#   contractc-action.sh check     contractc check --format github (annotations on the PR)
#   contractc-action.sh diff      contractc diff --against REF --format github, when a ref is given
#   contractc-action.sh site      mkdocs build --strict, when asked for
#
# Inputs come from the environment (never spliced into the script text):
#   INPUT_ROOT           project root, the folder holding contractc.yaml (default .)
#   INPUT_CHANGED_SINCE  git ref: report only drift the changes since it touch (default: full check)
#   INPUT_DIFF_AGAINST   git ref for the diff gate (default: no diff gate)
#   INPUT_SITE           true | false | auto: build the site; auto = when ROOT/mkdocs.yml exists
#   INPUT_PACKAGE        pip requirement to install (default: this repository, the Action's own copy)
#   INPUT_CACHE          true: let check use a .contractc/ cache (default false: --no-cache)
#   CONTRACTC_VENV       where to create the virtualenv (default $RUNNER_TEMP/contractc-venv)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="${INPUT_ROOT:-.}"
site="${INPUT_SITE:-auto}"

wants_site() {
  case "$site" in
    true) return 0 ;;
    false) return 1 ;;
    auto) [ -f "$root/mkdocs.yml" ] ;;
    *) echo "::error title=contractc action::input 'site' must be true, false or auto, not '$site'" >&2; exit 2 ;;
  esac
}

install() {
  local venv="${CONTRACTC_VENV:-${RUNNER_TEMP:-/tmp}/contractc-venv}"
  local package="${INPUT_PACKAGE:-$here}"
  if wants_site; then
    # the site extra pulls mkdocs and mkdocs-material; a named requirement gets it the same way
    case "$package" in *\]*) ;; *) package="$package[site]" ;; esac
  fi
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$package"
  if [ -n "${GITHUB_PATH:-}" ]; then
    echo "$venv/bin" >> "$GITHUB_PATH"
  fi
  "$venv/bin/contractc" --version
}

check() {
  local args=(check --root "$root" --format github)
  # A gate never trusts a .contractc/ cache it did not write (anyone who can write it can make check pass).
  if [ "${INPUT_CACHE:-false}" != "true" ]; then
    args+=(--no-cache)
  fi
  if [ -n "${INPUT_CHANGED_SINCE:-}" ]; then
    args+=(--changed-since "$INPUT_CHANGED_SINCE")
  fi
  local report status=0
  report="$(mktemp)"
  contractc "${args[@]}" | tee "$report" || status=$?
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    # the last line is the summary, with the command that fixes the drift
    { echo '### contractc check'; echo; tail -n 1 "$report"; } >> "$GITHUB_STEP_SUMMARY"
  fi
  rm -f "$report"
  return "$status"
}

diff() {
  if [ -z "${INPUT_DIFF_AGAINST:-}" ]; then
    echo "contractc action: no diff-against ref, contract diff skipped"
    return 0
  fi
  local report status=0
  report="$(mktemp)"
  contractc diff --root "$root" --against "$INPUT_DIFF_AGAINST" --format github | tee "$report" || status=$?
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    { echo '### contractc diff'; echo; tail -n 1 "$report"; } >> "$GITHUB_STEP_SUMMARY"
  fi
  rm -f "$report"
  return "$status"
}

site() {
  if ! wants_site; then
    echo "contractc action: no $root/mkdocs.yml, site build skipped (set input site: true to require one)"
    return 0
  fi
  mkdocs build --strict --config-file "$root/mkdocs.yml"
}

case "${1:-}" in
  install | check | diff | site) "$1" ;;
  *) echo "usage: $0 install|check|diff|site" >&2; exit 2 ;;
esac

#!/bin/sh
# demo.sh — runs perfweave info and stats on every example under
# examples/<format>/<name>/ (a directory or a file).
set -eu
PW=${PW:-build/release/perfweave}
for ex in examples/*/*; do
    case "$ex" in *.md|*.txt) continue ;; esac
    echo "== perfweave info $ex"
    "$PW" info "$ex"
    echo
    echo "== perfweave stats $ex"
    "$PW" stats "$ex"
    echo
done

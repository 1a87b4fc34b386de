#!/bin/sh
# demo.sh — runs perfweave info and stats on every example under
# examples/<format>/<name>/ (a directory or a file), then converts each
# to a Perfetto trace under build/demo/.
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
# Every example also becomes a Perfetto trace (convert streams any format).
# --force: a second `make demo` replaces the traces of the first;
# --allow-loss: what a timeline cannot hold (profile values without a
# time) is listed in the summary, not an error for the demo.
mkdir -p build/demo
for ex in examples/*/*; do
    case "$ex" in *.md|*.txt) continue ;; esac
    out="build/demo/$(basename "$ex").pftrace"
    echo "== perfweave convert $ex -o $out"
    "$PW" convert "$ex" -o "$out" --force --allow-loss
done
echo
echo "Open the .pftrace files under build/demo/ at https://ui.perfetto.dev (\"Open trace file\")."

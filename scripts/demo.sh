#!/bin/sh
# demo.sh — runs perfweave info and stats on every example under
# examples/<format>/<name>/ (a directory or a file), converts each to a
# Perfetto trace under build/demo/, and writes its HTML report there
# (build/demo/<name>.html: one page that opens offline in any browser).
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
# One self-contained HTML page per example: no network is needed to read it.
for ex in examples/*/*; do
    case "$ex" in *.md|*.txt) continue ;; esac
    out="build/demo/$(basename "$ex").html"
    echo "== perfweave report $ex -o $out"
    "$PW" report "$ex" -o "$out" --force -q
done
echo
echo "Open the .html reports under build/demo/ in any browser (they need no network)."
echo "Open the .pftrace files under build/demo/ at https://ui.perfetto.dev (\"Open trace file\")."

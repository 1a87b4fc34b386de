#!/bin/sh
# bench/run.sh — runs every area's benchmark (bench/<area>/run.sh).
set -eu
for s in bench/*/run.sh; do
    echo "== $s"
    sh "$s"
    echo
done

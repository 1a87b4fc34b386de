#!/bin/sh
# bench/ross/run.sh [GVT_MB] [EVTRACE_MB] — throughput and peak RSS of the
# ROSS reader on synthetic files (bench/out/ross, generated here, never
# committed): `stats`, `dump --jsonl` and, when the build has it,
# `convert --to csv`, each compared with a bare scan of the same bytes.
# Run from the repository root after `make build`.
set -eu
GVT_MB=${1:-1024}
EV_MB=${2:-1024}
PW=${PW:-build/release/perfweave}
OUT=bench/out/ross
mkdir -p "$OUT"
cc -O2 -o "$OUT/gen_ross" bench/ross/gen_ross.c
if [ ! -f "$OUT/bench-gvt.bin" ] || [ "$(stat -c %s "$OUT/bench-gvt.bin")" -lt $((GVT_MB << 20)) ]; then
    "$OUT/gen_ross" "$OUT" bench "$GVT_MB" "$EV_MB"
fi

# measure LABEL FILE CMD...: wall time, MB/s of FILE, peak RSS.
measure() {
    label=$1 file=$2
    shift 2
    bytes=$(stat -c %s "$file")
    /usr/bin/time -v -o "$OUT/time.txt" "$@" > /dev/null 2> "$OUT/stderr.txt" || true
    wall=$(awk -F': ' '/Elapsed/ {print $2}' "$OUT/time.txt")
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$OUT/time.txt")
    awk -v l="$label" -v b="$bytes" -v w="$wall" -v r="$rss" 'BEGIN {
        n = split(w, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i];
        printf "%-34s %8.0f MB  %7.2f s  %8.0f MB/s  peak RSS %6.1f MB\n", l, b / 1048576, s, b / 1048576 / (s > 0 ? s : 0.001), r / 1024 }'
}

for f in "$OUT/bench-gvt.bin" "$OUT/bench-evtrace.bin"; do
    cat "$f" > /dev/null # warm the page cache
    name=$(basename "$f" .bin)
    measure "bare scan (cat) $name" "$f" cat "$f"
    measure "stats $name" "$f" "$PW" stats "$f"
    measure "dump --jsonl $name" "$f" "$PW" dump --jsonl "$f"
    if "$PW" convert --help > /dev/null 2>&1; then
        measure "convert --to csv $name" "$f" "$PW" convert "$f" -o "$OUT/csv" --to csv
    fi
done

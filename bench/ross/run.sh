#!/bin/sh
# bench/ross/run.sh [GVT_MB] [EVTRACE_MB] — generates a synthetic ROSS run
# under bench/out/ (a GVT file of PE/KP/LP samples from 16 PEs x 16 KPs x 4
# LPs in interleaved rank chunks, and a full-mode event trace with 16-byte
# payloads; default 1024 MB each), warms the page cache, then measures the
# bare scan and perfweave stats, dump --jsonl and (when the build has it)
# convert --to csv: records/s, MB/s and peak RSS of each.
set -eu
GVT_MB=${1:-1024}
EV_MB=${2:-1024}
B=${BUILD:-build/release}
OUT=bench/out/ross-$GVT_MB-$EV_MB
. bench/measure.sh

if [ ! -d "$OUT" ]; then
    echo "generating $OUT ..."
    mkdir -p "$OUT"
    "$B/bench/ross/gen_ross" "$OUT" bench "$GVT_MB" "$EV_MB"
fi
for f in "$OUT/bench-gvt.bin" "$OUT/bench-evtrace.bin"; do
    bytes=$(wc -c < "$f")
    records=$("$B/bench/ross/bare_scan_ross" "$f" | cut -d' ' -f1)
    cat "$f" >/dev/null
    echo "ross $(basename "$f"): $records records, $((bytes / 1000000)) MB ($(nproc) cores)"
    measure "bare scan (1 thread)" "$records" "$bytes" "$B/bench/ross/bare_scan_ross" "$f"
    measure "stats" "$records" "$bytes" "$B/perfweave" stats "$f" -q
    measure "stats -j 1" "$records" "$bytes" "$B/perfweave" stats "$f" -q -j 1
    measure "dump --jsonl" "$records" "$bytes" "$B/perfweave" dump "$f" --jsonl -q
    if "$B/perfweave" convert --help >/dev/null 2>&1; then
        measure "convert --to csv" "$records" "$bytes" "$B/perfweave" convert "$f" -o "$OUT/csv" --to csv -q
    fi
done

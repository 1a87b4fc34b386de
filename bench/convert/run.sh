#!/bin/sh
# run.sh — the converter benchmark: a synthetic ovni trace (gen_ovni.c,
# generated under bench/out/, never committed) converted to Perfetto and
# to OTF2, with records/s and peak RSS (/usr/bin/time -v), next to a bare
# scan of the same bytes (cat > /dev/null) and `perfweave stats`.
#   usage: bench/convert/run.sh [THREADS] [EVENTS_PER_THREAD]
# Targets (issue 7): >= 10 M records/s to Perfetto on one thread, peak RSS
# <= 128 MB at any size, <= 20 bytes per event in the .pftrace.  The rate
# per CPU second is printed too: on a shared machine wall time mostly
# measures the neighbours.
set -eu
THREADS=${1:-8}
EVENTS=${2:-2000000}
PW=${PW:-build/release/perfweave}
OUT=bench/out/convert
mkdir -p "$OUT"
cc -O2 -o "$OUT/gen_ovni" bench/convert/gen_ovni.c
TRACE="$OUT/trace-${THREADS}x${EVENTS}"
if [ ! -d "$TRACE" ]; then
    echo "generating $THREADS threads x $EVENTS events in $TRACE"
    "$OUT/gen_ovni" "$TRACE" "$THREADS" "$EVENTS"
fi
RECORDS=$((THREADS * EVENTS))
BYTES=$(du -sb "$TRACE" | cut -f1)
echo "trace: $RECORDS records, $BYTES bytes"

# measure NAME COMMAND...: wall seconds and peak RSS of one run
measure() {
    name=$1
    shift
    /usr/bin/time -v "$@" 2> "$OUT/time.txt" > /dev/null || { cat "$OUT/time.txt"; exit 1; }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$OUT/time.txt")
    cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$OUT/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print int($2 / 1024)}' "$OUT/time.txt")
    rate=$(awk -v r="$RECORDS" -v w="$wall" 'BEGIN { if (w > 0) printf "%.1f", r / w / 1e6; else print "inf" }')
    cpurate=$(awk -v r="$RECORDS" -v w="$cpu" 'BEGIN { if (w > 0) printf "%.1f", r / w / 1e6; else print "inf" }')
    printf '%-20s %6.2f s wall %7s M rec/s | %6.2f s cpu %7s M rec/s | peak RSS %4d MB\n' \
        "$name" "$wall" "$rate" "$cpu" "$cpurate" "$rss"
}

measure "bare scan (cat)" sh -c "find '$TRACE' -name '*.obs' -exec cat {} + > /dev/null"
measure "stats -j 1" "$PW" stats "$TRACE/ovni" -j 1 -q
measure "convert perfetto" "$PW" convert "$TRACE/ovni" -o "$OUT/bench.pftrace" -q -j 1
PF=$(stat -c %s "$OUT/bench.pftrace")
awk -v b="$PF" -v r="$RECORDS" 'BEGIN { printf "perfetto file: %d bytes, %.2f bytes/event\n", b, b / r }'
rm -rf "$OUT/bench.otf2"
measure "convert otf2" "$PW" convert "$TRACE/ovni" -o "$OUT/bench.otf2" -q -j 1
rm -rf "$OUT/bench.otf2" "$OUT/bench.pftrace"

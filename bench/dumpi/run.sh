#!/bin/sh
# bench/dumpi/run.sh — throughput and peak RSS of the DUMPI reader on a
# large synthetic trace (generated here, never committed): stats with 1
# and 2 threads, text dump, dump --jsonl, check; and a bare scan of the
# bytes (cat) for comparison, and stats without the MPI analyses beside
# stats with them.  Reference: dumpi2ascii decodes about 0.7 M calls/s
# (30 MB/s) on one core.
#   RANKS=8 CALLS=1500000 sh bench/dumpi/run.sh   (CALLS per rank: 12 M calls, 619 MB)
set -eu
cd "$(dirname "$0")/../.."
. bench/measure.sh
PW=${PW:-build/release/perfweave}
GEN=${GEN:-build/release/bench/dumpi/gen_dumpi_bench}
RANKS=${RANKS:-8}
CALLS=${CALLS:-1500000}
OUT=bench/out/dumpi
[ -x "$PW" ] && [ -x "$GEN" ] || { echo "build first: make build" >&2; exit 2; }
mkdir -p "$OUT/trace"
rm -f "$OUT"/trace/*
"$GEN" "$OUT/trace" "$RANKS" "$CALLS"
BYTES=$(cat "$OUT"/trace/*.bin | wc -c)
TOTAL=$("$PW" stats --json "$OUT/trace" | sed -n 's/.*"calls": \([0-9]*\),$/\1/p' | head -1)
cat "$OUT"/trace/*.bin > /dev/null # warm the cache
echo "trace: $RANKS ranks, $TOTAL calls, $BYTES bytes"
# The machine may be shared: CPU seconds (user + system) give the rate per
# thread; wall seconds are shown beside them.
printf '%-16s %8s %8s %14s %14s %10s %8s\n' what "wall s" "cpu s" "Mcalls/s wall" "Mcalls/s cpu" "MB/s cpu" "RSS MB"

# measure NAME COMMAND...: the best of REPEAT runs (default 3; a shared
# virtual machine slows single runs at random): its wall and CPU seconds,
# and the largest peak RSS (stdout discarded)
measure() {
    name=$1
    shift
    : > "$OUT/time.txt"
    timed_runs "$OUT/time.txt" "$@"
    awk -v n="$name" -v c="$TOTAL" -v b="$BYTES" '
        /User time \(seconds\)/ { u = $NF }
        /System time \(seconds\)/ { y = $NF }
        /Elapsed \(wall clock\)/ { k = split($NF, p, ":"); s = 0
                                   for (j = 1; j <= k; j++) s = s * 60 + p[j]
                                   if (best == 0 || s < best) { best = s; cpu = u + y } }
        /Maximum resident set size/ { if ($NF > r) r = $NF }
        END {
            s = best
            if (s <= 0) s = 0.005
            if (cpu <= 0) cpu = 0.005
            printf "%-16s %8.2f %8.2f %14.2f %14.2f %10.0f %8.1f\n", n, s, cpu, c / s / 1e6, c / cpu / 1e6, b / cpu / 1e6, r / 1024 }' "$OUT/time.txt"
}

measure "bare scan (cat)" cat "$OUT"/trace/*.bin
measure "stats -j 1" "$PW" stats -j 1 "$OUT/trace"
measure "stats -j 2" "$PW" stats -j 2 "$OUT/trace"
measure "stats, no analyses" "$PW" stats -j 1 --profile-only "$OUT/trace"
measure "check" "$PW" check "$OUT/trace"
measure "dump (text)" "$PW" dump "$OUT/trace"
measure "dump --jsonl" "$PW" dump --jsonl "$OUT/trace"

#!/bin/sh
# bench/otf2/run.sh — the OTF2 reader on a large archive written by
# perfweave's own OTF2 sink from the DUMPI bench trace (generated here,
# never committed), side by side in the same run with libotf2's own
# reader (`otf2-print --silent`, which validates every event and prints
# none).  Reported per command: wall and CPU seconds (the machine may be
# shared: CPU seconds give the rate per thread), events/s on the CPU
# time, and peak RSS.  Pipit's published rate is about 4 k events/s.
#   RANKS=8 CALLS=1500000 sh bench/otf2/run.sh
set -eu
cd "$(dirname "$0")/../.."
. bench/measure.sh
PW=${PW:-build/release/perfweave}
GEN=${GEN:-build/release/bench/dumpi/gen_dumpi_bench}
RANKS=${RANKS:-8}
CALLS=${CALLS:-500000}
OUT=bench/out/otf2
[ -x "$PW" ] && [ -x "$GEN" ] || { echo "build first: make build" >&2; exit 2; }
command -v otf2-print >/dev/null || { echo "otf2-print missing (otf2-tools)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT/dumpi"
"$GEN" "$OUT/dumpi" "$RANKS" "$CALLS"
"$PW" convert "$OUT/dumpi" --to otf2 -o "$OUT/archive" >/dev/null 2>&1
EVENTS=$("$PW" info "$OUT/archive" | awk '$1 == "records" { print $2 }')
BYTES=$(cat "$OUT"/archive/traces/*.evt | wc -c)
echo "archive: $RANKS ranks, $EVENTS events, $BYTES bytes of event files"
printf '%-24s %8s %8s %16s %8s\n' what "wall s" "cpu s" "M events/s cpu" "RSS MB"

# row NAME COMMAND...: best of REPEAT runs (wall), its CPU seconds, peak RSS
row() {
    name=$1
    shift
    log=$(mktemp)
    timed_runs "$log" "$@"
    awk -v n="$name" -v e="$EVENTS" '
        /User time \(seconds\)/ { u = $NF }
        /System time \(seconds\)/ { y = $NF }
        /Elapsed \(wall clock\)/ { k = split($NF, p, ":"); s = 0
                                   for (j = 1; j <= k; j++) s = s * 60 + p[j]
                                   if (best == 0 || s < best) { best = s; cpu = u + y } }
        /Maximum resident set size/ { if ($NF > r) r = $NF }
        END { if (cpu <= 0) cpu = 0.005
              printf "%-24s %8.2f %8.2f %16.1f %8.1f\n", n, best, cpu, e / cpu / 1e6, r / 1024 }' "$log"
    rm -f "$log"
}

row "otf2-print --silent" otf2-print --silent "$OUT/archive/traces.otf2"
row "perfweave info" "$PW" info -j 1 "$OUT/archive"
row "perfweave stats -j 1" "$PW" stats -j 1 "$OUT/archive"
row "perfweave check" "$PW" check "$OUT/archive"
row "perfweave dump --jsonl" "$PW" dump --jsonl "$OUT/archive"

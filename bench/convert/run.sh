#!/bin/sh
# bench/convert/run.sh [OVNI_EVENTS] [STREAMS] [ROSS_MB] — converting the
# readers' large synthetic traces (bench/ovni's gen_ovni_trace, bench/ross's
# gen_ross; generated under bench/out/, shared with those benches) to
# Perfetto and to OTF2: records/s, MB/s and peak RSS of each, next to the
# bare scan of the same bytes, and the Perfetto file's bytes per event.
# Each row is followed by the rate per CPU second, which stays meaningful
# when other work shares the machine.
# Targets (issue 7): >= 10 M records/s to Perfetto on one thread, peak RSS
# <= 128 MB at any size, <= 20 bytes per event on the ovni trace.
set -eu
EVENTS=${1:-16000000}
STREAMS=${2:-12}
ROSS_MB=${3:-256}
B=${BUILD:-build/release}
. bench/measure.sh

# cpu_rate LABEL ITEMS COMMAND...: items per CPU second (user + system)
cpu_rate() {
    label=$1; items=$2; shift 2
    log=$(mktemp)
    /usr/bin/time -v "$@" >/dev/null 2>"$log" || true
    awk -v label="$label" -v items="$items" '
        /User time|System time/ { s += $NF }
        END { if (s <= 0) s = 0.001;
              printf "%-22s %8.2f s cpu %8.1f M items/cpu-s\n", label, s, items / s / 1e6 }' "$log"
    rm -f "$log"
}

# convert_both NAME INPUT RECORDS BYTES: to Perfetto and to OTF2
convert_both() {
    name=$1; in=$2; records=$3; bytes=$4
    rm -rf "bench/out/$name.otf2"
    measure "convert perfetto" "$records" "$bytes" "$B/perfweave" convert "$in" -o "bench/out/$name.pftrace" -q
    cpu_rate "  (per cpu second)" "$records" "$B/perfweave" convert "$in" -o "bench/out/$name.pftrace" -q
    awk -v b="$(wc -c < "bench/out/$name.pftrace")" -v r="$records" \
        'BEGIN { printf "  perfetto file: %.0f MB, %.2f bytes per record\n", b / 1e6, b / r }'
    measure "convert otf2" "$records" "$bytes" "$B/perfweave" convert "$in" -o "bench/out/$name.otf2" -q
    rm -rf "bench/out/$name.otf2"
    cpu_rate "  (per cpu second)" "$records" "$B/perfweave" convert "$in" -o "bench/out/$name.otf2" -q
    rm -rf "bench/out/$name.otf2" "bench/out/$name.pftrace"
}

OVNI=bench/out/ovni-$EVENTS-$STREAMS
[ -d "$OVNI" ] || "$B/bench/ovni/gen_ovni_trace" "$OVNI" "$EVENTS" "$STREAMS"
files=$(find "$OVNI" -name stream.obs | sort)
bytes=$(cat $files | wc -c)
events=$("$B/bench/ovni/bare_scan_ovni" $files | cut -d' ' -f1)
echo "ovni: $events events, $((bytes / 1000000)) MB in $STREAMS streams ($(nproc) cores)"
measure "bare scan (1 thread)" "$events" "$bytes" "$B/bench/ovni/bare_scan_ovni" $files
convert_both convert-ovni "$OVNI" "$events" "$bytes"

ROSS=bench/out/ross-$ROSS_MB-$ROSS_MB
if [ ! -d "$ROSS" ]; then
    mkdir -p "$ROSS"
    "$B/bench/ross/gen_ross" "$ROSS" bench "$ROSS_MB" "$ROSS_MB"
fi
for f in "$ROSS/bench-gvt.bin" "$ROSS/bench-evtrace.bin"; do
    bytes=$(wc -c < "$f")
    records=$("$B/bench/ross/bare_scan_ross" "$f" | cut -d' ' -f1)
    echo "ross $(basename "$f"): $records records, $((bytes / 1000000)) MB"
    measure "bare scan (1 thread)" "$records" "$bytes" "$B/bench/ross/bare_scan_ross" "$f"
    convert_both "convert-$(basename "$f" .bin)" "$f" "$records" "$bytes"
done

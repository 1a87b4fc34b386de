#!/bin/sh
# bench/ovni/run.sh [EVENTS] [STREAMS] — generates a synthetic ovni v3 trace
# (default 32 M events in 12 streams, ~500 MB) under bench/out/, warms the
# page cache, then measures the bare scan and perfweave stats, dump,
# dump --jsonl and check: events/s, MB/s and peak RSS of each.
set -eu
EVENTS=${1:-32000000}
STREAMS=${2:-12}
B=${BUILD:-build/release}
OUT=bench/out/ovni-$EVENTS-$STREAMS
. bench/measure.sh

if [ ! -d "$OUT" ]; then
    echo "generating $OUT ..."
    "$B/bench/ovni/gen_ovni_trace" "$OUT" "$EVENTS" "$STREAMS"
fi
files=$(find "$OUT" -name stream.obs | sort)
bytes=$(cat $files | wc -c)
events=$("$B/bench/ovni/bare_scan_ovni" $files | cut -d' ' -f1)
cat $files >/dev/null
echo "ovni: $events events, $((bytes / 1000000)) MB in $STREAMS streams ($(nproc) cores)"
measure "bare scan (1 thread)" "$events" "$bytes" "$B/bench/ovni/bare_scan_ovni" $files
measure "stats" "$events" "$bytes" "$B/perfweave" stats "$OUT" -q
measure "stats -j 1" "$events" "$bytes" "$B/perfweave" stats "$OUT" -q -j 1
measure "check" "$events" "$bytes" "$B/perfweave" check "$OUT" -q
measure "dump" "$events" "$bytes" "$B/perfweave" dump "$OUT" -q
measure "dump --jsonl" "$events" "$bytes" "$B/perfweave" dump "$OUT" --jsonl -q

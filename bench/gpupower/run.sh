#!/bin/sh
# bench/gpupower/run.sh [REPS] [SECONDS] — `perfweave stats` on a generated
# tree of REPS repetitions of SECONDS of training each (default 1000 x 60 s,
# ~0.5 GB of CSV; 10000 x 60 s is the ~5 GB tree of issue #6).  The tree
# has 20 distinct repetitions, the others are hard links to them, so it
# takes little disk and is read from the page cache: what is measured is
# parsing, not the disk.  Reports CSV MB/s (1 thread and all threads; wall
# clock, and per CPU-second, which stays meaningful on a loaded machine),
# peak RSS, and a bare read of the same bytes (cat) for comparison.
set -eu
cd "$(dirname "$0")/../.."
REPS=${1:-1000}
SECONDS_PER_REP=${2:-60}
PW=${PW:-build/release/perfweave}
OUT=bench/out/gpupower-$REPS-$SECONDS_PER_REP
if [ ! -d "$OUT/tree" ]; then
    python3 tools/gen_gpupower_tree.py "$OUT" --bench "$REPS" --seconds "$SECONDS_PER_REP"
fi
BYTES=$(find "$OUT/tree" -name '*.csv' -printf '%s\n' | awk '{s+=$1} END {print s}')
MB=$(echo "$BYTES" | awk '{printf "%.1f", $1/1e6}')
echo "tree: $REPS repetitions, $MB MB of CSV in $(find "$OUT/tree" -name '*.csv' | wc -l) files"

# Warm the page cache, and time a bare read of the bytes.
find "$OUT/tree" -name '*.csv' -print0 | xargs -0 cat > /dev/null
T0=$(date +%s.%N)
find "$OUT/tree" -name '*.csv' -print0 | xargs -0 cat > /dev/null
T1=$(date +%s.%N)
echo "bare read (cat):     $(echo "$BYTES $T0 $T1" | awk '{printf "%.0f MB/s", $1/1e6/($3-$2)}')"

run() { # threads
    /usr/bin/time -v "$PW" stats "$OUT/tree" --json -q -j "$1" --tz UTC -o /dev/null 2> "$OUT/time-$1.txt" || true
    WALL=$(grep 'Elapsed (wall clock)' "$OUT/time-$1.txt" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
    RSS=$(grep 'Maximum resident' "$OUT/time-$1.txt" | awk '{print $NF}')
    CPU=$(grep -E 'User time|System time' "$OUT/time-$1.txt" | awk '{s+=$NF} END {print s}')
    echo "stats -j $1:          $(echo "$BYTES $WALL $CPU" | awk '{printf "%.0f MB/s wall (%.2f s), %.0f MB per CPU-second", $1/1e6/$2, $2, $1/1e6/$3}'), peak RSS $(echo "$RSS" | awk '{printf "%.1f MB", $1/1024}')"
}
run 1
run "$(nproc)"

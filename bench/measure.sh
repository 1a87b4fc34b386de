#!/bin/sh
# measure.sh — shared by the bench scripts: runs a command under
# /usr/bin/time -v REPEAT times (default 3) and prints one row: label, the
# best wall seconds, items/s and MB/s from them, and the largest peak RSS.
# Best of a few, as a shared virtual machine slows single runs at random.
#   measure LABEL ITEMS BYTES COMMAND...

# timed_runs LOG COMMAND...: appends /usr/bin/time -v of REPEAT runs to LOG
# (stdout discarded).
timed_runs() {
    runs_log=$1; shift
    i=0
    while [ "$i" -lt "${REPEAT:-3}" ]; do
        /usr/bin/time -v "$@" >/dev/null 2>>"$runs_log" || true
        i=$((i + 1))
    done
}

measure() {
    label=$1; items=$2; bytes=$3; shift 3
    log=$(mktemp)
    timed_runs "$log" "$@"
    awk -v label="$label" -v items="$items" -v bytes="$bytes" '
        /Elapsed \(wall clock\)/ { n = split($NF, p, ":"); s = 0;
                                   for (i = 1; i <= n; i++) s = s * 60 + p[i];
                                   if (best == 0 || s < best) best = s }
        /Maximum resident set size/ { if ($NF > rss) rss = $NF }
        END { s = best; if (s <= 0) s = 0.001;
              printf "%-22s %8.2f s  %8.1f M items/s  %8.0f MB/s  %7.1f MB peak RSS\n",
                     label, s, items / s / 1e6, bytes / s / 1e6, rss / 1024 }' "$log"
    rm -f "$log"
}

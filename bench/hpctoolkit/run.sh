#!/bin/sh
# bench/hpctoolkit/run.sh [PROFILES] [CONTEXTS] [VALUES] [SAMPLES] — writes a
# synthetic released-format HPCToolkit database with the project's own
# generator (default 1000 profiles x 100000 contexts, 1000 sparse
# measurements and trace samples per profile) under bench/out/, then times
# and measures peak RSS of: a bare read of the files, opening (info), the
# top-down view of the summary profile, opening plus a single-context
# lookup (also on a 10-profile database of the same tree: the difference is
# opening 1000 profile infos, the lookup itself is a binary search),
# all stats views, and check.
set -eu
PROFILES=${1:-1000}
CONTEXTS=${2:-100000}
VALUES=${3:-1000}
SAMPLES=${4:-1000}
B=${BUILD:-build/release}
. bench/measure.sh

mkdir -p bench/out
generate() {
    if [ ! -d "$1" ]; then
        echo "generating $1 ..."
        "$B/gen_hpctoolkit_db" "$1" "$2" "$CONTEXTS" "$VALUES" "$SAMPLES"
    fi
}
BIG=bench/out/hpctoolkit-$PROFILES-$CONTEXTS-$VALUES-$SAMPLES
SMALL=bench/out/hpctoolkit-10-$CONTEXTS-$VALUES-$SAMPLES
generate "$BIG" "$PROFILES"
generate "$SMALL" 10
bytes=$(cat "$BIG"/*.db | wc -c)
cat "$BIG"/*.db >/dev/null
CTX=$((CONTEXTS / 2 + 3))
echo "hpctoolkit: $PROFILES profiles, $CONTEXTS contexts, $((bytes / 1000000)) MB ($(nproc) cores); items = profiles"
measure "bare read (cat)" "$PROFILES" "$bytes" cat "$BIG"/meta.db "$BIG"/profile.db "$BIG"/trace.db
measure "info (reads all)" "$PROFILES" "$bytes" "$B/perfweave" info "$BIG" -q
measure "top-down (summary)" "$PROFILES" "$bytes" "$B/perfweave" stats "$BIG" -q --views summary
measure "open + lookup" 1 "$bytes" "$B/perfweave" stats "$BIG" -q --lookup "$CTX:1"
measure "open + lookup, 10 prof" 1 "$bytes" "$B/perfweave" stats "$SMALL" -q --lookup "$CTX:1"
measure "stats (all views)" "$PROFILES" "$bytes" "$B/perfweave" stats "$BIG" -q
measure "check" "$PROFILES" "$bytes" "$B/perfweave" check "$BIG" -q

#!/bin/sh
# install-deps.sh — installs the Debian packages perfweave needs to build,
# test and fuzz: the union of scripts/deps/*.txt (one list per area, so a
# new format adds its own file).  Idempotent, and quiet when all are present.
set -eu
cd "$(dirname "$0")/deps"

missing=""
for p in $(cat ./*.txt | sed 's/#.*//' | tr -s ' \t' '\n\n' | sort -u); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null

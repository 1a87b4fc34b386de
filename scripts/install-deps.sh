#!/bin/sh
# install-deps.sh — installs the Debian packages perfweave needs to build,
# test and fuzz.  Idempotent, and quiet when everything is present.
set -eu

PACKAGES="build-essential cmake pkg-config libjansson-dev clang libclang-rt-14-dev zstd python3 time"

missing=""
for p in $PACKAGES; do
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

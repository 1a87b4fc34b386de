#!/bin/sh
# install_test.sh BUILD_DIR SOURCE_DIR — `cmake --install` into a scratch
# prefix, then build a consumer with pkg-config against the static and the
# shared library, and run both on the bundled ovni example.
set -eu
build=$1
src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig"
test -f "$prefix/include/perfweave.h"
test -x "$prefix/bin/perfweave"
cc -std=c11 -Wall -Werror -o "$prefix/consumer_shared" "$src/tests/install/consumer.c" \
   $(pkg-config --cflags --libs perfweave)
cc -std=c11 -Wall -Werror -o "$prefix/consumer_static" "$src/tests/install/consumer.c" \
   $(pkg-config --cflags perfweave) $(pkg-config --static --libs perfweave | sed 's/-lperfweave/-l:libperfweave.a/')
libdir=$(pkg-config --variable=libdir perfweave)
out_shared=$(LD_LIBRARY_PATH="$libdir" "$prefix/consumer_shared" "$src/examples/ovni/mpi-func")
out_static=$("$prefix/consumer_static" "$src/examples/ovni/mpi-func")
test "$out_shared" = "ovni 2456"
test "$out_static" = "ovni 2456"
echo "1 passed, 0 failed"

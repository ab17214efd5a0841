#!/bin/sh
# test-sensor-outside.sh: build an outside program with `pkg-config tracewb-sensor` only,
# run it as a writer, then as a monitor. TAP output.
#
# Copyright 2026 The Trace Workbench authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# usage: test-sensor-outside.sh BUILD_ROOT SOURCE_FILE [CC [EXTRA_CFLAGS]]
set -u
build=$1
source=$2
cc=${3:-cc}
extra=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

echo "1..4"
# meson writes tracewb-sensor-uninstalled.pc there; pkg-config prefers it by itself.
export PKG_CONFIG_PATH="$build/meson-uninstalled"
if ! cflags=$(pkg-config --cflags tracewb-sensor) || ! libs=$(pkg-config --libs tracewb-sensor); then
  echo "not ok 1 pkg-config tracewb-sensor"; exit 1
fi
echo "ok 1 pkg-config tracewb-sensor: $cflags $libs"

# shellcheck disable=SC2086
if ! $cc -std=c11 -Wall -Wextra -Werror $extra $cflags "$source" -o "$work/outside" $libs 2>"$work/cc.log"; then
  sed 's/^/# /' "$work/cc.log"; echo "not ok 2 compile with the pkg-config flags only"; exit 1
fi
echo "ok 2 compile with the pkg-config flags only"

libdirs=$(pkg-config --libs-only-L tracewb-sensor | sed 's/-L//g; s/ /:/g')
export LD_LIBRARY_PATH="$libdirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TRACEWB_SENSOR_DIR="$work/sensors"
if ! "$work/outside" write 1000; then
  echo "not ok 3 the outside program writes 1000 elements"; exit 1
fi
mode=$(stat -c %a "$TRACEWB_SENSOR_DIR/outside@jobs.tws")
if [ "$mode" != 600 ]; then
  echo "not ok 3 sensor file mode $mode, expected 600"; exit 1
fi
echo "ok 3 the outside program writes 1000 elements"

out=$("$work/outside" read)
expected="sensor outside/jobs alive 0
received 1000 missed 0 sum 499500 last job-999"
if [ "$out" != "$expected" ]; then
  echo "$out" | sed 's/^/# got: /'
  echo "not ok 4 a monitor reads them back from position 0"; exit 1
fi
echo "ok 4 a monitor reads them back from position 0"

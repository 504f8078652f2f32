#!/bin/sh
# Makes the stripped variants of a program that a Debian user meets: PROGRAM's symbols and debug
# information moved to a separate file, found through a .gnu_debuglink beside the stripped
# binary (OUT_DIR/NAME_debuglink and NAME_debuglink.debug), or through the build-id under a debug
# root of its own (OUT_DIR/NAME_buildid, OUT_DIR/debug-root/.build-id/xx/yyyy.debug), as
# Debian's -dbgsym packages install them under /usr/lib/debug.
# Usage: split_debug.sh OBJCOPY STRIP PROGRAM OUT_DIR
set -eu
objcopy=$1 strip=$2 program=$3 out=$4
name=$(basename "$program")
"$objcopy" --only-keep-debug "$program" "$out/${name}_debuglink.debug"
"$strip" --strip-all -o "$out/${name}_debuglink" "$program"
(cd "$out" && "$objcopy" --add-gnu-debuglink="${name}_debuglink.debug" "${name}_debuglink")
"$strip" --strip-all -o "$out/${name}_buildid" "$program"
id=$(LC_ALL=C readelf -n "$program" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p' | head -n 1)
if [ -z "$id" ]; then
  echo "split_debug.sh: $program has no build-id" >&2
  exit 1
fi
prefix=$(printf '%s' "$id" | cut -c1-2)
rest=$(printf '%s' "$id" | cut -c3-)
mkdir -p "$out/debug-root/.build-id/$prefix"
cp "$out/${name}_debuglink.debug" "$out/debug-root/.build-id/$prefix/$rest.debug"

#!/bin/sh
# For the io tools: writes three 8 KiB blocks, then reads two 4 KiB blocks,
# with O_DIRECT (so each is one request) on a loop device over a temporary
# file; the device is detached afterwards.
set -e
image=$(mktemp /tmp/dtx-tools-io.XXXXXX)
trap 'rm -f "$image"' EXIT
truncate -s 1M "$image"
device=$(losetup --find --show "$image")
dd if=/dev/zero of="$device" bs=8k count=3 oflag=direct status=none
dd if="$device" of=/dev/null bs=4k count=2 iflag=direct status=none
losetup -d "$device"

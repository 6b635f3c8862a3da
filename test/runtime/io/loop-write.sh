#!/bin/sh
# Writes three 8 KiB blocks with O_DIRECT to a loop device over a temporary
# file, for the io provider's tests; the device is detached afterwards.
set -e
image=$(mktemp /tmp/dtx-io.XXXXXX)
trap 'rm -f "$image"' EXIT
truncate -s 1M "$image"
device=$(losetup --find --show "$image")
dd if=/dev/zero of="$device" bs=8k count=3 oflag=direct status=none
losetup -d "$device"

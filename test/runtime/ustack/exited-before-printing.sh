#!/bin/sh
# For exited-before-printing.d: $1 is dtx-trigger. Its first run records its
# user stacks and exits; the script (dtx's -c command) exits half a second
# later, which is when dtx prints the aggregation.
"$1" ustack 3 sleep 20
"$1" sleep 500

#!/bin/sh
# For exited-processes-swept.d: $1 is dtx-trigger. Its first run records its
# user stacks and exits 2 s later (time enough for dtx to read its modules
# on a loaded machine: only -c's own process is held at its exit); the
# script (dtx's -c command) exits 22 s
# later, after two sweeps of exited processes (every 10 s), which is when
# dtx prints the aggregations.
"$1" ustack 3 sleep 2000
"$1" sleep 22000

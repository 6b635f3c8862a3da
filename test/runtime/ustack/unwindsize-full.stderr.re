dtx: warning: the unwind tables. room \(unwindsize, 16 bytes\) is full: user stacks through .*/dtx-trigger and other files whose tables do not fit follow frame pointers; raise -x unwindsize

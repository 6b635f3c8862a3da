#!/usr/bin/env python3
"""For setuids: as root, calls that set IDs to what they are (no change):
setuid(0), setresgid(-1, 0, -1), setreuid(0, 0), then a setgid that fails
(EINVAL: -1 is not a group), and exits."""
import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)
os.setuid(0)
os.setresgid(-1, 0, -1)
os.setreuid(0, 0)
libc.setgid(ctypes.c_uint(0xFFFFFFFF))  # setgid(-1): EINVAL

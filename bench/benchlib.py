"""What the benchmark scripts in bench/ share: running a command to its end
with its wall time and output, min and median, the default paths, and the
root check."""

import os
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BUILD = os.path.join(ROOT, "build")


@dataclass
class Run:
    seconds: float  # wall time, fork to reap
    status: int
    stdout: str
    stderr: str


def run(argv):
    """Runs argv to its end with stdin closed; raises SystemExit if it cannot start."""
    start = time.perf_counter()
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True)
    except FileNotFoundError:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {argv[0]}: not found")
    elapsed = time.perf_counter() - start
    return Run(elapsed, proc.returncode, proc.stdout.decode(errors="replace"),
               proc.stderr.decode(errors="replace"))


def checked(argv, result):
    """result, or exit showing argv and its stderr if it failed."""
    if result.status != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {shell_words(argv)} exited "
                 f"{result.status}:\n{result.stderr.rstrip()}")
    return result


def shell_words(argv):
    return " ".join(shlex.quote(a) for a in argv)


def min_median(values):
    return min(values), statistics.median(values)


def require_root():
    if os.geteuid() != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: needs root (the tools load BPF programs)")

"""What the benchmark scripts in bench/ share: running a command to its end
with its wall time, peak RSS and output, min and median, the default paths,
and the root check."""

import os
import shlex
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BUILD = os.path.join(ROOT, "build")


@dataclass
class Run:
    seconds: float  # wall time, fork to reap
    status: int
    stdout: str
    stderr: str
    peak_rss_kib: int = 0  # wait4's ru_maxrss


def run(argv):
    """Runs argv to its end with stdin closed; raises SystemExit if it cannot start."""
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    except FileNotFoundError:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {argv[0]}: not found")
    # Both pipes drained at once (neither may fill up), then reaped by wait4
    # for the child's own peak RSS.
    with ThreadPoolExecutor(2) as readers:
        out, err = readers.submit(proc.stdout.read), readers.submit(proc.stderr.read)
        stdout, stderr = out.result(), err.result()
    _, wait_status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(wait_status)  # keep Popen from waiting again
    proc.stdout.close()
    proc.stderr.close()
    return Run(elapsed, proc.returncode, stdout.decode(errors="replace"),
               stderr.decode(errors="replace"), usage.ru_maxrss)


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

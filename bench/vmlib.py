"""What the benchmarks that need kernel probes share: they run inside the test
VM (../shared/vmtest/vm-run boots a stock Debian kernel with kprobes, fentry
and BTF under QEMU), one boot per benchmark. The script started on the host
runs itself again inside the guest with --here; the guest's output streams
to the host's."""

import os
import subprocess
import sys

from benchlib import ROOT, shell_words

DEFAULT_VM_RUN = os.path.normpath(os.path.join(ROOT, "..", "shared", "vmtest", "vm-run"))


def in_guest():
    return os.environ.get("VMTEST_GUEST") == "1"


def add_vm_arguments(parser, timeout):
    parser.add_argument("--here", action="store_true",
                        help="run on this machine's kernel, not inside the VM (the default "
                             "inside the VM)")
    parser.add_argument("--vm-run", default=DEFAULT_VM_RUN,
                        help="the VM runner (default: %(default)s)")
    parser.add_argument("--vm-timeout", type=int, default=timeout,
                        help="seconds the whole VM run may take (default: %(default)s)")


def run_in_vm(args):
    """Runs this script again inside one VM boot, with the same arguments and
    --here; returns its exit status (vm-run's: 124 on timeout, 125 when the
    VM itself failed)."""
    name = os.path.basename(sys.argv[0])
    if not os.path.exists(args.vm_run):
        sys.exit(f"{name}: {args.vm_run}: not found (give --vm-run, or --here on a kernel "
                 f"with kprobes and fentry)")
    argv = [args.vm_run, "--timeout", str(args.vm_timeout), "--", sys.executable,
            os.path.abspath(sys.argv[0]), *sys.argv[1:], "--here"]
    print(f"{name}: inside the VM: {shell_words(argv)}", file=sys.stderr, flush=True)
    status = subprocess.call(argv, stdin=subprocess.DEVNULL)
    if status == 124:
        print(f"{name}: the VM run took more than {args.vm_timeout} s (--vm-timeout)",
              file=sys.stderr)
    elif status == 125:
        print(f"{name}: the VM failed (vm-run exited 125)", file=sys.stderr)
    return status

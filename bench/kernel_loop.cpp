// The workload of bench/per-event-kernel: a tight loop of cheap system calls
// on one CPU whose kernel path runs a known function once per call, timed.
// Prints "calls: N" (every call it made, the warm-up included: what a probe
// on the function, filtered on this pid, must count), "ns/call: X" (wall
// time), "cpu ns/call: X" (the thread's CPU time, user and kernel: a kernel
// probe's whole cost is spent in the thread that hits it, while the time
// other tasks take the CPU away is not) and "best cpu ns/call: X" (the same
// in the fastest of 100 slices of the loop: in a VM under QEMU's TCG the
// guest counts the time the host takes its virtual CPU away as the thread's
// CPU time, and a slice the host left alone shows the loop's own cost).
// Modes:
//   getppid    syscall(SYS_getppid): __x64_sys_getppid -> __do_sys_getppid
//   read-zero  read(2) of one byte from /dev/zero: vfs_read -> read_zero
//
//   dtx-bench-kernel-loop getppid|read-zero ITERATIONS CPU
#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr long kSlices = 100;

int zero_fd = -1;
long calls = 0;

// Through syscall(2): the C library does not cache getppid, but this keeps
// the loop what it says whatever the library does.
void call_getppid(long iterations) {
    for (long i = 0; i < iterations; i++)
        syscall(SYS_getppid);
    calls += iterations;
}

void read_zero(long iterations) {
    char byte;
    for (long i = 0; i < iterations; i++)
        if (read(zero_fd, &byte, 1) != 1) {
            std::fprintf(stderr, "read /dev/zero: %s\n", std::strerror(errno));
            std::exit(1);
        }
    calls += iterations;
}

double cpu_ns(const timespec &from, const timespec &to) {
    return double(to.tv_sec - from.tv_sec) * 1e9 + double(to.tv_nsec - from.tv_nsec);
}

} // namespace

int main(int argc, char **argv) {
    std::string mode = argc == 4 ? argv[1] : "";
    void (*loop)(long) = mode == "getppid"     ? call_getppid
                         : mode == "read-zero" ? read_zero
                                               : nullptr;
    if (!loop) {
        std::fprintf(stderr, "usage: %s getppid|read-zero ITERATIONS CPU\n", argv[0]);
        return 2;
    }
    char *end = nullptr;
    long iterations = std::strtol(argv[2], &end, 10);
    if (*end || iterations <= 0) {
        std::fprintf(stderr, "%s: ITERATIONS must be a positive number, not '%s'\n", argv[0],
                     argv[2]);
        return 2;
    }
    int cpu = std::atoi(argv[3]);
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    if (sched_setaffinity(0, sizeof(cpus), &cpus) != 0) {
        std::fprintf(stderr, "%s: cannot run on CPU %d: %s\n", argv[0], cpu, std::strerror(errno));
        return 1;
    }
    if (mode == "read-zero" && (zero_fd = open("/dev/zero", O_RDONLY | O_CLOEXEC)) < 0) {
        std::fprintf(stderr, "%s: /dev/zero: %s\n", argv[0], std::strerror(errno));
        return 1;
    }
    // Settle on the CPU (and its clock frequency) before timing.
    loop(iterations / 10);
    // Timed in slices as well: the fastest slice is the loop's cost without
    // the moments another task (or, in a VM, the host) took the CPU away.
    long slices = std::max(1L, std::min(kSlices, iterations / 1000));
    double best_cpu_ns = 0;
    timespec cpu_start;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_start);
    auto start = std::chrono::steady_clock::now();
    timespec slice_start = cpu_start;
    for (long slice = 0; slice < slices; slice++) {
        long count = iterations / slices + (slice < iterations % slices ? 1 : 0);
        loop(count);
        timespec slice_end;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &slice_end);
        double ns = cpu_ns(slice_start, slice_end) / double(count);
        if (slice == 0 || ns < best_cpu_ns)
            best_cpu_ns = ns;
        slice_start = slice_end;
    }
    std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    std::printf("calls: %ld\nns/call: %.2f\ncpu ns/call: %.2f\nbest cpu ns/call: %.2f\n", calls,
                elapsed.count() / double(iterations),
                cpu_ns(cpu_start, slice_start) / double(iterations), best_cpu_ns);
    return 0;
}

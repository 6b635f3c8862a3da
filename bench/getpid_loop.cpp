// The workload of bench/per-event: N getpid (or getppid) system calls in a
// tight loop on one CPU, timed; prints "ns/call: X" (wall time) and "cpu
// ns/call: X" (the thread's CPU time, user and kernel, where a traced
// call's BPF program runs too: without the time other tasks took the CPU
// away). The call goes through syscall(2) so that every iteration enters
// the kernel (the C library may cache the pid).
//
//   dtx-bench-getpid-loop N CPU [getpid|getppid]
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

int main(int argc, char **argv) {
    const char *name = argc == 4 ? argv[3] : "getpid";
    long call = std::strcmp(name, "getpid") == 0    ? SYS_getpid
                : std::strcmp(name, "getppid") == 0 ? SYS_getppid
                                                    : -1;
    if ((argc != 3 && argc != 4) || call < 0) {
        std::fprintf(stderr, "usage: %s ITERATIONS CPU [getpid|getppid]\n", argv[0]);
        return 2;
    }
    long iterations = std::atol(argv[1]);
    int cpu = std::atoi(argv[2]);
    if (iterations <= 0) {
        std::fprintf(stderr, "%s: ITERATIONS must be positive, not '%s'\n", argv[0], argv[1]);
        return 2;
    }
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    if (sched_setaffinity(0, sizeof(cpus), &cpus) != 0) {
        std::fprintf(stderr, "%s: cannot run on CPU %d: %s\n", argv[0], cpu, std::strerror(errno));
        return 1;
    }
    // Let the tracer that started this loop finish starting (its last work,
    // and the kernel's after loading programs, slowed the calls of the first
    // tenths of a second by a fifth, in some runs of each tool and not
    // others), then settle on the CPU and its clock frequency before timing.
    usleep(300 * 1000);
    for (long i = 0; i < iterations / 10; i++)
        syscall(call);
    timespec cpu_start, cpu_end;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_start);
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < iterations; i++)
        syscall(call);
    std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_end);
    double cpu_ns = double(cpu_end.tv_sec - cpu_start.tv_sec) * 1e9 +
                    double(cpu_end.tv_nsec - cpu_start.tv_nsec);
    std::printf("ns/call: %.2f\ncpu ns/call: %.2f\n", elapsed.count() / double(iterations),
                cpu_ns / double(iterations));
    return 0;
}

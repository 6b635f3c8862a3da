// The workload of bench/per-event: N getpid system calls in a tight loop on
// one CPU, timed; prints "ns/call: X". getpid goes through syscall(2) so that
// every iteration enters the kernel (the C library may cache the pid).
//
//   dtx-bench-getpid-loop N CPU
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s ITERATIONS CPU\n", argv[0]);
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
    // Settle on the CPU (and its clock frequency) before timing.
    for (long i = 0; i < iterations / 10; i++)
        syscall(SYS_getpid);
    auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < iterations; i++)
        syscall(SYS_getpid);
    std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    std::printf("ns/call: %.2f\n", elapsed.count() / double(iterations));
    return 0;
}

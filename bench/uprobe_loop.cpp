// The workloads of bench/per-event-uprobe and bench/untraced-slowdown: a
// tight loop on one CPU, timed, that prints "ns/call: X" (wall time) and
// "cpu ns/call: X" (the thread's CPU time, user and kernel: what the loop
// itself costs, without the time other tasks took the CPU away). Modes:
//   func  calls dtx_bench_target(), a function of this executable (a uprobe)
//   usdt  fires the USDT probe dtxbench:tick (no semaphore)
//   libc  calls rand_r() through the PLT: a cheap libc function that is not an
//         IFUNC and makes no system call, so a breakpoint in it would show
//
//   dtx-bench-uprobe-loop func|usdt|libc ITERATIONS CPU
//
// ITERATIONS 0 loops until standard input ends, after printing "looping:
// pid P": the companion of bench/untraced-slowdown, whose script reads that
// line to know the loop runs and stops it by closing the pipe (so that it
// cannot outlive the script).
#include <poll.h>
#include <sched.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

// The probed function. It begins with `push %rbx` (the asm claims to clobber
// a callee-saved register), an instruction the kernel's uprobes emulate
// rather than single-step, as they do the `push %rbp` that begins most
// functions built with frame pointers: the usual uprobe cost. The asm also
// keeps the compiler from seeing through the function.
extern "C" __attribute__((noinline)) int dtx_bench_target(int value) {
    asm volatile("" : "+r"(value) : : "rbx");
    return value;
}

// The loops add their results here: external, so that they are kept.
int dtx_bench_sink;

namespace {

void call_function(long iterations) {
    for (long i = 0; i < iterations; i++)
        dtx_bench_sink += dtx_bench_target(int(i));
}

void fire_usdt(long iterations) {
    for (long i = 0; i < iterations; i++)
        STAP_PROBE1(dtxbench, tick, i);
}

void call_libc(long iterations) {
    unsigned seed = 1;
    for (long i = 0; i < iterations; i++)
        dtx_bench_sink += rand_r(&seed);
}

} // namespace

int main(int argc, char **argv) {
    std::string mode = argc == 4 ? argv[1] : "";
    void (*loop)(long) = mode == "func"   ? call_function
                         : mode == "usdt" ? fire_usdt
                         : mode == "libc" ? call_libc
                                          : nullptr;
    if (!loop) {
        std::fprintf(stderr, "usage: %s func|usdt|libc ITERATIONS CPU\n", argv[0]);
        return 2;
    }
    char *end = nullptr;
    long iterations = std::strtol(argv[2], &end, 10);
    if (*end || iterations < 0) {
        std::fprintf(stderr, "%s: ITERATIONS must be a number >= 0, not '%s'\n", argv[0], argv[2]);
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
    if (iterations == 0) {
        std::printf("looping: pid %d\n", int(getpid()));
        std::fflush(stdout);
        pollfd input{STDIN_FILENO, POLLIN, 0};
        char byte;
        do
            loop(10000);
        while (poll(&input, 1, 0) == 0 || (input.revents == POLLIN && read(0, &byte, 1) == 1));
        return 0;
    }
    // Settle on the CPU (and its clock frequency) before timing.
    loop(iterations / 10);
    timespec cpu_start, cpu_end;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_start);
    auto start = std::chrono::steady_clock::now();
    loop(iterations);
    std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_end);
    double cpu_ns = double(cpu_end.tv_sec - cpu_start.tv_sec) * 1e9 +
                    double(cpu_end.tv_nsec - cpu_start.tv_nsec);
    std::printf("ns/call: %.2f\ncpu ns/call: %.2f\n", elapsed.count() / double(iterations),
                cpu_ns / double(iterations));
    return 0;
}

// The workload of bench/per-event-ustack: a recursion DEPTH calls deep, then,
// at its bottom, ITERATIONS getpid system calls in a tight loop on one CPU,
// timed; prints "ns/call: X" (wall time) and "cpu ns/call: X" (the thread's
// CPU time, user and kernel, where a traced call's BPF program and its stack
// walk run too: without the time other tasks took the CPU away).
//
//   dtx-bench-ustack-loop DEPTH ITERATIONS CPU
//
// The user stack at each call, innermost first:
//   dtx_bench_ustack_loop         the system call is made here, not in libc
//   dtx_bench_descend x DEPTH
//   main
//   __libc_start_call_main, __libc_start_main, _start   (libc's, and ld.so's)
// Built with frame pointers (-O2 -fno-omit-frame-pointer, bench/CMakeLists.txt)
// and making the system call itself (on x86-64), so that the kernel's
// frame-pointer walk sees every frame of this executable, as a CFI unwinder
// does: libc has no frame pointers, and its syscall() would hide its caller
// from that walk. Every call is followed by work, so none is a tail call.
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// A frame of its own: never inlined, and (GCC) not cloned or specialized by
// what the compiler knows of its callers, so that the stack shows it by name.
#if defined(__clang__)
#define DTX_BENCH_FRAME __attribute__((noinline))
#else
#define DTX_BENCH_FRAME __attribute__((noinline, noipa))
#endif

struct timing {
    double wall_ns;
    double cpu_ns;
};

static inline long call_getpid(void) {
#if defined(__x86_64__)
    long result;
    __asm__ volatile("syscall" : "=a"(result) : "0"((long)SYS_getpid) : "rcx", "r11", "memory");
    return result;
#else
    return syscall(SYS_getpid);
#endif
}

static double ns_between(const struct timespec *start, const struct timespec *end) {
    return (double)(end->tv_sec - start->tv_sec) * 1e9 + (double)(end->tv_nsec - start->tv_nsec);
}

DTX_BENCH_FRAME long dtx_bench_ustack_loop(long iterations, struct timing *timing) {
    long sum = 0;
    // Settle on the CPU (and its clock frequency) before timing.
    for (long i = 0; i < iterations / 10; i++)
        sum += call_getpid();
    struct timespec cpu_start, cpu_end, wall_start, wall_end;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_start);
    clock_gettime(CLOCK_MONOTONIC, &wall_start);
    for (long i = 0; i < iterations; i++)
        sum += call_getpid();
    clock_gettime(CLOCK_MONOTONIC, &wall_end);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu_end);
    timing->wall_ns = ns_between(&wall_start, &wall_end);
    timing->cpu_ns = ns_between(&cpu_start, &cpu_end);
    return sum;
}

DTX_BENCH_FRAME long dtx_bench_descend(int depth, long iterations, struct timing *timing) {
    long result = depth <= 1 ? dtx_bench_ustack_loop(iterations, timing)
                             : dtx_bench_descend(depth - 1, iterations, timing);
    // Work after the call, opaque to the compiler: the call stays a call.
    __asm__ volatile("" : "+r"(result));
    return result + 1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s DEPTH ITERATIONS CPU\n", argv[0]);
        return 2;
    }
    char *end = NULL;
    long depth = strtol(argv[1], &end, 10);
    if (*end || depth < 1 || depth > 10000) {
        fprintf(stderr, "%s: DEPTH must be a number from 1 to 10000, not '%s'\n", argv[0], argv[1]);
        return 2;
    }
    long iterations = strtol(argv[2], &end, 10);
    if (*end || iterations <= 0) {
        fprintf(stderr, "%s: ITERATIONS must be positive, not '%s'\n", argv[0], argv[2]);
        return 2;
    }
    int cpu = atoi(argv[3]);
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    if (sched_setaffinity(0, sizeof(cpus), &cpus) != 0) {
        fprintf(stderr, "%s: cannot run on CPU %d: %s\n", argv[0], cpu, strerror(errno));
        return 1;
    }
    struct timing timing;
    long sum = dtx_bench_descend((int)depth, iterations, &timing);
    printf("depth: %ld\nns/call: %.2f\ncpu ns/call: %.2f\n", depth,
           timing.wall_ns / (double)iterations, timing.cpu_ns / (double)iterations);
    return sum == 0; // never: the pid is positive; keeps the calls' results used
}

/* dtx-funcs: calls known functions with known arguments, for the pid
 * provider's runtime tests, user symbol tests and benchmarks.
 *
 *   dtx-funcs N            runs the loop below N times
 *   dtx-funcs sleep MS     sleeps MS milliseconds first (time for a tracer to
 *                          attach with -p), then runs the loop once
 *   dtx-funcs spin SECONDS calls dtx_add(i, 2 * i) for SECONDS seconds, then
 *                          prints "calls COUNT" (a hot function for benchmarks)
 *
 * Iteration i (0, 1, ... N-1) of the loop calls, in this order and once each:
 *   dtx_add(i, 2 * i)                 returns 3i
 *   dtx_scale(i, 3)                   returns 3i (static: in .symtab only)
 *   dtx_greet("dtx")                  returns "hello, world"
 *   dtx_eight(i + 1, ..., i + 8)      returns 8i + 36 (arguments 7 and 8 are
 *                                     on the stack)
 *   dtx_libc("dtx")                   calls strlen("dtx") then getpid(), each
 *                                     through this program's PLT; returns 3
 * so `dtx-funcs N` makes N calls of each, and N of strlen@plt and getpid@plt
 * (the program calls strlen and getpid nowhere else). It writes nothing in
 * these modes.
 *
 * The variants built from this file (test/triggers/CMakeLists.txt):
 *   dtx-funcs           PIE
 *   dtx-funcs-nopie     ET_EXEC at fixed addresses
 *   dtx-funcs-stripped  no .symtab; its symbols are in dtx-funcs-stripped.debug,
 *                       named by .gnu_debuglink
 *   dtx-funcs-nodebug   no .symtab and no debug file; dtx_add alone is exported
 *                       to .dynsym
 *   dtx-funcs-ibt       PLT stubs in .plt.sec (-fcf-protection -z ibtplt)
 *
 * Unsanitized and built with -O1 -fno-inline whatever the build type; DTX_TRACED
 * keeps each function a real call with its arguments in the ABI's places. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__clang__)
#define DTX_TRACED __attribute__((noinline, used))
#else
/* noipa: no inlining, cloning (dtx_scale.constprop.0) or dropped arguments. */
#define DTX_TRACED __attribute__((noipa, used))
#endif

/* Results go here so that no call is dead. */
static volatile long sink;
/* Read at run time so that no compiler can fold dtx_scale's factor into it. */
static volatile long scale_factor = 3;

DTX_TRACED int dtx_add(int a, int b) {
    return a + b;
}

DTX_TRACED static long dtx_scale(long v, long factor) {
    return v * factor;
}

DTX_TRACED const char *dtx_greet(const char *who) {
    (void)who;
    return "hello, world";
}

DTX_TRACED long dtx_eight(long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8) {
    return a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
}

DTX_TRACED long dtx_libc(const char *s) {
    long length = (long)strlen(s);
    if (getpid() <= 0)
        return -1;
    return length;
}

static void run_loop(long iterations) {
    for (long i = 0; i < iterations; ++i) {
        sink = dtx_add((int)i, (int)(2 * i));
        sink = dtx_scale(i, scale_factor);
        sink = (long)dtx_greet("dtx");
        sink = dtx_eight(i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7, i + 8);
        sink = dtx_libc("dtx");
    }
}

static double now_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void spin(double seconds) {
    const double end = now_seconds() + seconds;
    long calls = 0;
    /* Reading the clock costs more than a call: look every 4096 calls. */
    do {
        for (int i = 0; i < 4096; ++i, ++calls)
            sink = dtx_add(i, 2 * i);
    } while (now_seconds() < end);
    printf("calls %ld\n", calls);
}

static int usage(void) {
    fprintf(stderr, "usage: dtx-funcs N | sleep MS | wait-stdin | spin SECONDS\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "wait-stdin") == 0) {
        /* Calls once a byte (or the end) comes on stdin: when a test says. */
        char byte;
        if (read(0, &byte, 1) < 0)
            return 1;
        run_loop(1);
        return 0;
    }
    if (argc == 2) {
        run_loop(atol(argv[1]));
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "sleep") == 0) {
        const long ms = atol(argv[2]);
        const struct timespec pause = {ms / 1000, (ms % 1000) * 1000000};
        nanosleep(&pause, NULL);
        run_loop(1);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "spin") == 0) {
        spin(atof(argv[2]));
        return 0;
    }
    return usage();
}

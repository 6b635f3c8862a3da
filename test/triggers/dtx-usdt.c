/* dtx-usdt: fires USDT probes with exactly known arguments for dtx's tests and
 * benchmarks. Usage:
 *
 *   dtx-usdt N               runs iterations i = 0 .. N-1
 *   dtx-usdt sleep MS N      sleeps MS milliseconds first (time to attach with -p)
 *   dtx-usdt spin SECONDS    fires only tick, i = 0, 1, ..., for SECONDS seconds
 *
 * Probes (provider dtxtest in this program, dtxlib in libdtx-usdt-lib.so):
 *
 *   dtxtest:::loop-start     once, before the first iteration; no arguments
 *   dtxtest:::tick           every iteration i (i < 56, so every value fits):
 *       arg0  i                     int
 *       arg1  -1000 - i             long
 *       arg2  "tick-<i>"            string ("tick-0", "tick-1", ...)
 *       arg3  200 + i               unsigned char
 *       arg4  -300 - i              short
 *       arg5  7000 + i              long, read through a struct pointer
 *       arg6  42                    int constant
 *       arg7  100 + i               long global variable
 *   dtxlib:::lib-call        every iteration: arg0 = i, arg1 = "call-<i>"
 *   dtxtest:::guarded        every iteration while traced: arg0 = i
 *
 * In spin mode i keeps counting past 55 (modulo 2^31), and arg3 and arg4 wrap.
 *
 * The guarded probe has a semaphore (dtx-usdt-guarded.c): its body runs only
 * while a tracer has it enabled. At the end the N and sleep modes print
 * "guarded: <times its body ran>" on stderr (so that a tracer's output on
 * stdout is not interleaved with it) and spin mode prints "ticks:
 * <iterations>" on stdout; nothing else is written.
 *
 * This file is compiled with -O2 so that the compiler passes the arguments in
 * the different operand forms a USDT note can have: registers (arg0), memory
 * at a register and displacement (arg5), a constant (arg6) and, as the
 * compiler sees fit, rip-relative memory at a symbol (arg7). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <time.h>

/* libdtx-usdt-lib.so and dtx-usdt-guarded.c. */
int dtxlib_call(int n, const char *tag);
int dtxtest_fire_guarded(int value);

struct sample {
    long first, second;
    long value; /* at offset 16: arg5 is 8@16(%reg) */
};

long dtxtest_generation;

/* Not inlined, so that the compiler reads the values back from memory at the
 * probe instead of knowing them. */
__attribute__((noinline)) static void fill_sample(struct sample *sample, int i) {
    sample->value = 7000L + i;
}

__attribute__((noinline)) static void next_generation(int i) {
    dtxtest_generation = 100L + i;
}

static void fire_tick(struct sample *sample, int i) {
    char label[32];
    snprintf(label, sizeof(label), "tick-%d", i);
    fill_sample(sample, i);
    next_generation(i);
    long negative = -1000L - i;
    unsigned char small = (unsigned char)(200L + i);
    short half = (short)(-300L - i);
    STAP_PROBE8(dtxtest, tick, i, negative, label, small, half, sample->value, 42,
                dtxtest_generation);
}

static int run(long iterations) {
    struct sample *sample = calloc(1, sizeof(*sample));
    if (!sample)
        return 1;
    long guarded = 0;
    STAP_PROBE(dtxtest, loop__start);
    for (int i = 0; i < iterations; i++) {
        char tag[32];
        fire_tick(sample, i);
        snprintf(tag, sizeof(tag), "call-%d", i);
        dtxlib_call(i, tag);
        guarded += dtxtest_fire_guarded(i);
    }
    free(sample);
    fprintf(stderr, "guarded: %ld\n", guarded);
    return 0;
}

static int spin(double seconds) {
    struct sample *sample = calloc(1, sizeof(*sample));
    if (!sample)
        return 1;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    long ticks = 0;
    for (;;) {
        fire_tick(sample, (int)(ticks & INT_MAX));
        /* Reading the clock every time would cost more than the probe. */
        if (++ticks % 4096 != 0)
            continue;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 >= seconds)
            break;
    }
    free(sample);
    printf("ticks: %ld\n", ticks);
    return 0;
}

static int usage(void) {
    fprintf(stderr, "usage: dtx-usdt N | dtx-usdt sleep MS N | dtx-usdt spin SECONDS\n");
    return 2;
}

/* A whole nonnegative number, or -1. */
static long parse_count(const char *text) {
    char *end;
    long value = strtol(text, &end, 10);
    return (*text && !*end && value >= 0) ? value : -1;
}

int main(int argc, char **argv) {
    if (argc == 2) {
        long n = parse_count(argv[1]);
        return n < 0 ? usage() : run(n);
    }
    if (argc == 4 && strcmp(argv[1], "sleep") == 0) {
        long ms = parse_count(argv[2]), n = parse_count(argv[3]);
        if (ms < 0 || n < 0)
            return usage();
        struct timespec delay = {.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000};
        while (nanosleep(&delay, &delay) != 0)
            ;
        return run(n);
    }
    if (argc == 3 && strcmp(argv[1], "spin") == 0) {
        long seconds = parse_count(argv[2]);
        return seconds < 0 ? usage() : spin((double)seconds);
    }
    return usage();
}

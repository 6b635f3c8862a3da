/* dtx-usdt: fires USDT probes with exactly known arguments for dtx's tests and
 * benchmarks. Usage:
 *
 *   dtx-usdt N               runs iterations i = 0 .. N-1
 *   dtx-usdt sleep MS N      sleeps MS milliseconds first (time to attach with -p)
 *   dtx-usdt spin SECONDS    fires only tick, i = 0, 1, ..., for SECONDS seconds
 *   dtx-usdt cold            calls dtxtest_cold_call and fires cold once, with
 *                            pointers to memory this process has not touched
 *   dtx-usdt cold-threads    4 threads on one CPU fire cold-thread 32 times
 *                            each, every time with a string on a page that
 *                            must be read from disk
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
 *   dtxtest:::cold           cold mode only, each argument on a page of its own
 *                            that nothing has read or written through this
 *                            process's mappings (not resident in its page
 *                            tables, so a read that cannot fault fails):
 *       arg0  "cold-literal"        string, alone in a 64 KiB block of the file
 *       arg1  "cold-mapped"         string, in a page of a memory file
 *       arg2  "cold-bytes"          the same, for copyin()
 *       arg3  4242                  long, read through a struct pointer into
 *                                   another such page (a memory operand)
 *       arg4  "cold-spanning"       string, "cold-" at the end of a page the
 *                                   program has written, the rest on the
 *                                   next page, which it has not touched
 *
 *   dtxtest:::cold-thread    cold-threads mode only, in thread k = 0 .. 3:
 *       arg0  "thread-<k>"          string, on a page of a file that is not
 *                                   in the page cache (each firing its own)
 *       arg1  k                     int
 *
 * Function dtxtest_cold_call(const char *text), for the pid provider, is
 * called in cold mode just before the cold probe, with "cold-call" on a
 * fourth such page. Each page of the memory file is mapped on its own
 * between inaccessible pages, so that the kernel's fault-around, which maps
 * the neighbours of a page read in the same mapping (up to a 64 KiB block),
 * leaves the others unmapped. Before the call, the cold mode checks in
 * /proc/self/pagemap that the untouched pages are not mapped yet (exit
 * status 3 if one is); the literal's is left to fault-around, which maps no
 * page of another 64 KiB block. In cold-threads mode a probe that reads
 * its string sleeps in the read from disk, and while it does, the other
 * threads, on the same CPU, fire too. Both modes write nothing (cold-threads
 * creates its file in $TMPDIR, else /tmp, and removes it).
 *
 * In spin mode i keeps counting past 55 (modulo 2^31), and arg3 and arg4 wrap.
 *
 * The guarded probe has a semaphore (dtx-usdt-guarded.c): its body runs only
 * while a tracer has it enabled. At the end the N and sleep modes print
 * "guarded: <times its body ran>" on stderr (so that a tracer's output on
 * stdout is not interleaved with it) and spin mode prints "ticks:
 * <iterations>" on stdout; nothing else is written (cold mode writes
 * nothing).
 *
 * This file is compiled with -O2 so that the compiler passes the arguments in
 * the different operand forms a USDT note can have: registers (arg0), memory
 * at a register and displacement (arg5), a constant (arg6) and, as the
 * compiler sees fit, rip-relative memory at a symbol (arg7). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

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

/* Cold mode. The kernel's fault-around maps the pages of the 64 KiB block
 * around a faulting address that the page cache holds, so the literal fills
 * such a block of its own. */
#define COLD_BLOCK 65536
static const struct {
    char text[COLD_BLOCK];
} dtxtest_cold_literal
    __attribute__((section(".dtx_cold"), aligned(COLD_BLOCK), used)) = {"cold-literal"};

struct cold_value {
    long first, second;
    long value; /* at offset 16: arg3 is 8@16(%reg) */
};

/* A probe site for pid$target:a.out:dtxtest_cold_call:entry. */
__attribute__((noinline)) int dtxtest_cold_call(const char *text) {
    __asm__ volatile("" : : "r"(text) : "memory");
    return 0;
}

/* Whether this process's page tables map the page at `address`. */
static int page_mapped(const void *address, long page) {
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    uint64_t entry = 0;
    if (fd < 0 ||
        pread(fd, &entry, sizeof entry,
              (off_t)((uintptr_t)address / (uintptr_t)page * sizeof entry)) != sizeof entry)
        entry = 0;
    if (fd >= 0)
        close(fd);
    return (int)(entry >> 63);
}

static int cold(void) {
    enum { STRING_PAGE, BYTES_PAGE, VALUE_PAGE, CALL_PAGE, SPAN_PAGE, SPAN_NEXT_PAGE, PAGES };
    long page = sysconf(_SC_PAGESIZE);
    int fd = memfd_create("dtx-usdt-cold", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, PAGES * page) != 0)
        return 1;
    /* Written through the file, so that the pages are in the page cache but
     * not in this process's page tables. */
    struct cold_value value = {0, 0, 4242};
    if (pwrite(fd, "cold-mapped", 12, STRING_PAGE * page) != 12 ||
        pwrite(fd, "cold-bytes", 11, BYTES_PAGE * page) != 11 ||
        pwrite(fd, &value, sizeof value, VALUE_PAGE * page) != sizeof value ||
        pwrite(fd, "cold-call", 10, CALL_PAGE * page) != 10 ||
        pwrite(fd, "spanning", 9, SPAN_NEXT_PAGE * page) != 9)
        return 1;
    /* Page i at slot 2i of a region of inaccessible pages; the span's two
     * pages in one mapping, the first written through it (a write fault maps
     * no neighbour). */
    char *region = mmap(NULL, (size_t)(2 * PAGES * page), PROT_NONE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (region == MAP_FAILED)
        return 1;
    char *pages[PAGES];
    for (int i = 0; i < PAGES; i++) {
        pages[i] = region + 2 * i * page;
        if (i == SPAN_NEXT_PAGE) {
            pages[i] = pages[SPAN_PAGE] + page;
            continue;
        }
        size_t length = (size_t)(i == SPAN_PAGE ? 2 * page : page);
        int protection = i == SPAN_PAGE ? PROT_READ | PROT_WRITE : PROT_READ;
        if (mmap(pages[i], length, protection, MAP_SHARED | MAP_FIXED, fd, i * page) == MAP_FAILED)
            return 1;
    }
    char *spanning = pages[SPAN_NEXT_PAGE] - 5;
    memcpy(spanning, "cold-", 5);
    for (int i = 0; i < PAGES; i++)
        if (page_mapped(pages[i], page) != (i == SPAN_PAGE)) {
            fprintf(stderr, "dtx-usdt: cold page %d is %smapped before the probe\n", i,
                    i == SPAN_PAGE ? "not " : "");
            return 3;
        }
    dtxtest_cold_call(pages[CALL_PAGE]);
    const struct cold_value *cold_value = (const struct cold_value *)pages[VALUE_PAGE];
    STAP_PROBE5(dtxtest, cold, dtxtest_cold_literal.text, pages[STRING_PAGE], pages[BYTES_PAGE],
                cold_value->value, spanning);
    return 0;
}

/* Cold-threads mode. */
enum { COLD_THREADS = 4, COLD_FIRINGS = 32 };

struct cold_thread {
    pthread_t thread;
    int index;
    int cpu;
    const char *pages; /* its COLD_FIRINGS pages */
    long page;
};

static void *fire_cold_thread(void *argument) {
    struct cold_thread *self = argument;
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(self->cpu, &cpus);
    sched_setaffinity(0, sizeof cpus, &cpus);
    for (int i = 0; i < COLD_FIRINGS; i++)
        STAP_PROBE2(dtxtest, cold__thread, self->pages + i * self->page, self->index);
    return NULL;
}

static int cold_threads(void) {
    long page = sysconf(_SC_PAGESIZE);
    const char *directory = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/dtx-usdt-cold-XXXXXX", directory);
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    unlink(path);
    size_t size = (size_t)(COLD_THREADS * COLD_FIRINGS * page);
    char *contents = calloc(1, size);
    if (!contents)
        return 1;
    for (int k = 0; k < COLD_THREADS; k++)
        for (int i = 0; i < COLD_FIRINGS; i++)
            snprintf(contents + (size_t)((k * COLD_FIRINGS + i) * page), (size_t)page, "thread-%d",
                     k);
    /* Written, flushed to disk and dropped from the page cache, so that a
     * read of a page (without readahead: MADV_RANDOM) waits for the disk. */
    if (write(fd, contents, size) != (ssize_t)size || fsync(fd) != 0 ||
        posix_fadvise(fd, 0, (off_t)size, POSIX_FADV_DONTNEED) != 0)
        return 1;
    free(contents);
    char *pages = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (pages == MAP_FAILED || madvise(pages, size, MADV_RANDOM) != 0)
        return 1;
    struct cold_thread threads[COLD_THREADS];
    int cpu = sched_getcpu();
    for (int k = 0; k < COLD_THREADS; k++) {
        threads[k] = (struct cold_thread){.index = k,
                                          .cpu = cpu < 0 ? 0 : cpu,
                                          .pages = pages + (size_t)(k * COLD_FIRINGS * page),
                                          .page = page};
        if (pthread_create(&threads[k].thread, NULL, fire_cold_thread, &threads[k]) != 0)
            return 1;
    }
    for (int k = 0; k < COLD_THREADS; k++)
        pthread_join(threads[k].thread, NULL);
    return 0;
}

static int usage(void) {
    fprintf(stderr,
            "usage: dtx-usdt N | dtx-usdt sleep MS N | dtx-usdt spin SECONDS | dtx-usdt cold | "
            "dtx-usdt cold-threads\n");
    return 2;
}

/* A whole nonnegative number, or -1. */
static long parse_count(const char *text) {
    char *end;
    long value = strtol(text, &end, 10);
    return (*text && !*end && value >= 0) ? value : -1;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "cold") == 0)
        return cold();
    if (argc == 2 && strcmp(argv[1], "cold-threads") == 0)
        return cold_threads();
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

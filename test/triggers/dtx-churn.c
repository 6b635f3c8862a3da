/* dtx-churn: a live system's comings and goings, for the soak test of
 * system-wide user stacks (test/cmd/churn-soak-tests) and for trying them by
 * hand.
 *
 *   dtx-churn SECONDS [STARTS_PER_SECOND [fresh]]
 *
 * For SECONDS it runs two processes side by side:
 * - the spawner starts and reaps a short-lived process STARTS_PER_SECOND
 *   times a second (default 100): dtx-churn itself, exec'd as `dtx-churn
 *   spin`, which spins ~1 ms through three frames and exits, so that
 *   profile samples land in processes that are gone by print time;
 * - the loader, after spinning a second in its executable (as a server
 *   runs a while before it loads a plugin), dlopen()s
 *   libdtx-churn-lib.so (beside the executable), spins
 *   in it for 20 ms through three frames of the library (churn_lib_outer ->
 *   churn_lib_middle -> churn_lib_inner, built without frame pointers, so
 *   that only its .eh_frame tells where a caller's frame is), and dlclose()s
 *   it, so that samples land in a library that is unmapped by print time and
 *   mapped anew, often at another address, each time; with `fresh`, each
 *   time from a new copy of the library (a file never seen before, whose
 *   unwind table a tracer must build anew), removed after dlclose().
 * Then it prints "starts N dlopens M" and exits 0.
 *
 * Built -O2 without frame pointers, unsanitized, like dtx-unwind. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__clang__)
#define CHURN_FRAME __attribute__((noinline, used))
#else
#define CHURN_FRAME __attribute__((noipa, used))
#endif

static volatile unsigned long sink;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

CHURN_FRAME static void spin_inner(double until) {
    /* The clock is read seldom: samples land in this frame, not in the vDSO. */
    do {
        for (int i = 0; i < 100000; i++)
            sink++;
    } while (now() < until);
}

CHURN_FRAME static void spin_middle(double until) {
    spin_inner(until);
    __asm__ volatile("" ::: "memory");
}

CHURN_FRAME static void spin_outer(double until) {
    spin_middle(until);
    __asm__ volatile("" ::: "memory");
}

/* Starts `self spin` `rate` times a second until `end`; returns how many. */
static long spawn_loop(const char *self, long rate, double end) {
    long started = 0;
    const double period = 1.0 / (double)rate;
    double next = now();
    while (now() < end) {
        pid_t child = fork();
        if (child == 0) {
            execl(self, self, "spin", (char *)NULL);
            _exit(127);
        }
        if (child > 0) {
            started++;
            while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {
            }
        }
        next += period;
        const double wait = next - now();
        if (wait > 0) {
            struct timespec pause = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
            nanosleep(&pause, NULL);
        }
    }
    return started;
}

/* A new file holding a copy of `library`: its path, in `copy`. */
static int copy_library(const char *library, char *copy, size_t size, long n) {
    snprintf(copy, size, "/tmp/dtx-churn-%d-%ld.so", (int)getpid(), n);
    FILE *from = fopen(library, "rb"), *to = fopen(copy, "wb");
    char buffer[65536];
    size_t got;
    int ok = from && to;
    while (ok && (got = fread(buffer, 1, sizeof(buffer), from)) > 0)
        ok = fwrite(buffer, 1, got, to) == got;
    if (from)
        fclose(from);
    if (to && fclose(to) != 0)
        ok = 0;
    return ok;
}

/* dlopen, spin 20 ms in the library, dlclose, until `end`; returns how many. */
static long dlopen_loop(const char *library, double end, int fresh) {
    long loads = 0;
    char copy[PATH_MAX];
    while (now() < end) {
        if (fresh && !copy_library(library, copy, sizeof(copy), loads)) {
            fprintf(stderr, "dtx-churn: cannot copy %s\n", library);
            exit(1);
        }
        void *handle = dlopen(fresh ? copy : library, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            fprintf(stderr, "dtx-churn: %s\n", dlerror());
            exit(1);
        }
        void (*outer)(double) = (void (*)(double))dlsym(handle, "churn_lib_outer");
        if (!outer) {
            fprintf(stderr, "dtx-churn: %s\n", dlerror());
            exit(1);
        }
        outer(now() + 0.020);
        dlclose(handle);
        if (fresh)
            unlink(copy);
        loads++;
    }
    return loads;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "spin") == 0) {
        spin_outer(now() + 0.001);
        return 0;
    }
    const int fresh = argc == 4 && strcmp(argv[3], "fresh") == 0;
    const double seconds = argc >= 2 ? atof(argv[1]) : 0;
    const long rate = argc >= 3 ? atol(argv[2]) : 100;
    if (argc < 2 || argc > 4 || (argc == 4 && !fresh) || seconds <= 0 || rate <= 0) {
        fprintf(stderr, "usage: dtx-churn SECONDS [STARTS_PER_SECOND [fresh]]\n");
        return 2;
    }
    char self[PATH_MAX];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (length <= 0) {
        perror("dtx-churn: /proc/self/exe");
        return 1;
    }
    self[length] = '\0';
    char library[PATH_MAX + 32];
    snprintf(library, sizeof(library), "%.*s/libdtx-churn-lib.so", (int)(strrchr(self, '/') - self),
             self);

    const double end = now() + seconds;
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        perror("dtx-churn: pipe");
        return 1;
    }
    pid_t loader = fork();
    if (loader == 0) {
        close(pipe_fds[0]);
        spin_outer(now() + 1.0);
        const long loads = dlopen_loop(library, end, fresh);
        if (write(pipe_fds[1], &loads, sizeof(loads)) != (ssize_t)sizeof(loads))
            _exit(1);
        _exit(0);
    }
    close(pipe_fds[1]);
    if (loader < 0) {
        perror("dtx-churn: fork");
        return 1;
    }
    const long starts = spawn_loop(self, rate, end);
    long loads = 0;
    const int got = (int)read(pipe_fds[0], &loads, sizeof(loads));
    int status = 0;
    while (waitpid(loader, &status, 0) < 0 && errno == EINTR) {
    }
    if (got != (int)sizeof(loads) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return 1;
    printf("starts %ld dlopens %ld\n", starts, loads);
    return 0;
}

/* libdtx-churn-lib.so: what dtx-churn's loader dlopen()s, spins in and
 * dlclose()s again (see dtx-churn.c): churn_lib_outer -> churn_lib_middle
 * (not exported) -> churn_lib_inner, without frame pointers. */
#include <time.h>

#if defined(__clang__)
#define CHURN_FRAME __attribute__((noinline, used))
#else
#define CHURN_FRAME __attribute__((noipa, used))
#endif

static volatile unsigned long lib_sink;

static double lib_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

CHURN_FRAME void churn_lib_inner(double until) {
    /* The clock is read seldom: samples land in this frame, not in the vDSO. */
    do {
        for (int i = 0; i < 100000; i++)
            lib_sink++;
    } while (lib_now() < until);
}

CHURN_FRAME static void churn_lib_middle(double until) {
    churn_lib_inner(until);
    __asm__ volatile("" ::: "memory");
}

CHURN_FRAME void churn_lib_outer(double until) {
    churn_lib_middle(until);
    __asm__ volatile("" ::: "memory");
}

/* dtx-aliases: functions known by several names at one address, for the pid
 * provider's and user symbols' choice of name among aliases.
 *
 *   dtx-aliases N   calls each function below N times, through the alias
 *
 * function     its alias          binding          the name dtrace gives it
 * go           _go                global, weak     go     (fewer underscores)
 * stay         _stay              local, weak      _stay  (not local)
 * beta         alpha              global, weak     alpha  (binding aside: first
 *                                                          in byte order)
 * zz           aaa                global, global   aaa    (first in byte order,
 *                                                          not the shortest)
 *
 * Unsanitized, -O1 whatever the build type; DTX_TRACED keeps each function a
 * real call. It writes nothing. */
#include <stdlib.h>

#if defined(__clang__)
#define DTX_TRACED __attribute__((noinline, used))
#else
#define DTX_TRACED __attribute__((noipa, used))
#endif

/* Results go here so that no call is dead. */
static volatile long sink;

DTX_TRACED int go(int a) {
    return a + 1;
}
extern int _go(int a) __attribute__((weak, alias("go")));

DTX_TRACED static int stay(int a) {
    return a + 2;
}
extern int _stay(int a) __attribute__((weak, alias("stay")));

DTX_TRACED int beta(int a) {
    return a + 3;
}
extern int alpha(int a) __attribute__((weak, alias("beta")));

DTX_TRACED int zz(int a) {
    return a + 4;
}
extern int aaa(int a) __attribute__((alias("zz")));

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1;
    for (int i = 0; i < n; i++)
        sink += _go(i) + _stay(i) + alpha(i) + aaa(i);
    return 0;
}

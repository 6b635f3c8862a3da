/* libdtx-usdt-lib.so: a shared library with one USDT probe, so tests can trace
 * probes of a library that the traced program loads at a run-time address.
 *
 *   dtxlib:::lib-call   arg0 = n (int), arg1 = tag (string)
 *
 * dtx-usdt calls dtxlib_call(i, "call-<i>") once per iteration i. */
#include <sys/sdt.h>

int dtxlib_call(int n, const char *tag);

int dtxlib_call(int n, const char *tag) {
    DTRACE_PROBE2(dtxlib, lib__call, n, tag);
    return n + 1;
}

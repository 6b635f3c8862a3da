/* libdtx-unwind-lib.so: the library half of dtx-unwind's `lib` call chain
 * (see dtx-unwind.c): dtx-unwind's unwind_to_lib calls unwind_lib_call,
 * which calls unwind_lib_middle, which calls back into the executable. The
 * stack at the callback passes out of the executable, through two frames of
 * the library (one of them a function the library does not export) and back.
 * Built like dtx-unwind, without frame pointers, whatever the executable's
 * layout. */
#include "dtx-unwind.h"

/* Results go here so that no call is dead. */
static volatile long lib_sink;

DTX_UNWIND_FRAME static long unwind_lib_middle(long (*callback)(long), long value) {
    const long result = callback(value + 1);
    lib_sink = result;
    DTX_UNWIND_AFTER_CALL();
    return result + 1;
}

DTX_UNWIND_FRAME long unwind_lib_call(long (*callback)(long), long value) {
    const long result = unwind_lib_middle(callback, value + 1);
    lib_sink = result;
    DTX_UNWIND_AFTER_CALL();
    return result + 1;
}

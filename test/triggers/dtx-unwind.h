/* What dtx-unwind.c and dtx-unwind-lib.c share: how a frame of a known call
 * chain is kept a frame, and the library's entry point. */
#ifndef DTX_UNWIND_H
#define DTX_UNWIND_H

/* A function that stays a function of its own, called by a real call: not
 * inlined, cloned (unwind_recurse.constprop.0) or merged with its caller. */
#if defined(__clang__)
#define DTX_UNWIND_FRAME __attribute__((noinline, used))
#else
#define DTX_UNWIND_FRAME __attribute__((noipa, used))
#endif

/* Placed after a call whose result was stored: the call is not the last
 * thing its caller does, so it stays a call (no sibling call, which would
 * leave the caller's frame out of the stack) and its return address stays
 * inside the caller (no call at a function's very end, whose return address
 * would name the next function). */
#define DTX_UNWIND_AFTER_CALL() __asm__ volatile("" ::: "memory")

/* In libdtx-unwind-lib.so: calls unwind_lib_middle (static in the library),
 * which calls `callback(value + 2)`; returns its result + 2. */
long unwind_lib_call(long (*callback)(long), long value);

#endif

// The run-time library of D's string functions (and the announcement of
// processes whose user addresses are recorded): BPF C, one file per family
// in codegen/runtime/ (strings.c, files.c, network.c, destructive.c,
// process.c, memory.c, ustack.c), all including this header. Each file is
// compiled to LLVM bitcode and the files' bitcode linked into one module,
// dtx_runtime.bc, at build time (codegen/CMakeLists.txt); that module is
// linked into each program's module by codegen/runtime_library.cpp, which
// gives every function its BTF through BpfDebugInfo::define_static_function
// (internal, noinline, in ".text"). Freestanding: no system headers; the few
// BPF helpers are declared here, or in the one file that calls them.
//
// The contract with the code generator:
//  - Each dtx_rt_<name> is called as a static BPF subprogram. Pointer
//    arguments point into map values (the per-CPU scratch area, a string
//    table); `size` is the D strsize (at least 1), a constant at every call
//    site, and every string buffer holds `size` bytes. Inputs are
//    NUL-terminated within `size` bytes; an input that is not is read as if
//    its last byte were NUL. Outputs (`dst`) are always NUL-terminated within
//    `size` bytes, and must not overlap the inputs.
//  - An omitted optional integer argument is passed as DTX_RT_OMITTED
//    (INT64_MAX): substr's length, index's and rindex's start, lltostr's base.
//  - Functions that produce a string write it to `dst` and return 1, or
//    return 0 when D's result is NULL (nothing found, no more tokens, an
//    invalid argument); `dst` then holds the empty string.
//
// Writing code the kernel verifier accepts in programs with many call sites.
// Static subprograms are verified at each call site with the caller's
// registers (and LLVM may propagate constant arguments into them), so each
// function's cost is paid once per call site. The verifier follows one side
// of every branch it cannot decide and keeps the other on a stack of pending
// states, which only shrinks when the path it follows ends: at the end of the
// whole program, past every later call site. A loop that branches on each
// byte of a string leaves up to strsize pending states per call, and a
// program with a few dozen calls overflows the stack ("The sequence of 8193
// jumps is too complex"); the position at which such a loop leaves is also a
// different constant on each path, so all that depends on it afterwards
// (the caller's code included: lltostr(strlen(s))) is verified once per
// position. So:
//  - no loop whose exit depends on data is verified by unrolling: strings
//    are copied with bpf_probe_read_kernel_str (one step, whatever the
//    length, which it returns as a range), and scans run under bpf_loop,
//    whose callback is verified for an unknown index until the states at
//    the call converge. A callback keeps in its context only values derived
//    from its index, pointers and constants: a counter incremented there
//    would be a new constant on every pass and never converge. A nested
//    loop is a nested bpf_loop (index's match at each position).
//  - loops with a constant trip count and no branch on data (lltostr's
//    digits) are verified once per iteration, with no pending state;
//  - what follows a bpf_loop is verified once per state its callback leaves
//    (two or three), so it is short: a helper call, a few branches;
//  - unlinked() and barrier_var() (below) keep the bounds checks in callbacks
//    on the registers the accesses use.
// The test (test/unit/runtime_library_test.cpp) prints the instructions the
// verifier processes for each function, and loads a program calling every
// function at many call sites.
//
// Runtime functions never call each other (a call would need a debug
// location); shared code is in always-inline helpers, in this header when
// more than one file uses it. A callback (bpf_loop's, bpf_find_vma's) is
// static, in the file of the functions that pass it, and named apart from
// every other file's: the linker renames a second static function of a name
// (dtx_rt_step_x.1), and a program calling into both files would carry both.
// So the module's external functions are exactly the RUNTIME and GLOBAL
// ones, those the code generator may call.

#pragma once

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef __INT64_TYPE__ s64;
typedef __UINT64_TYPE__ u64;

#define DTX_RT_OMITTED 0x7fffffffffffffffLL

#define RUNTIME __attribute__((noinline))
// A function the kernel verifies once, on its own (BTF linkage global), not
// at each call site: its pointer arguments are typed by runtime_library.cpp.
#define GLOBAL __attribute__((noinline))
#define INLINE static inline __attribute__((always_inline))
// bpf_loop callbacks: referenced by address, never called directly.
#define CALLBACK static __attribute__((noinline))

// Makes clang forget what it knows about `v`, so that a check on it is
// emitted as written, on the register later used for the access.
#define barrier_var(v) asm volatile("" : "+r"(v))

// v, as a value the verifier does not tie to the register it came from.
// After `r = base; r += constant`, or a load of a spilled value, it does, and
// a bounds check narrowing r narrows base (or the spilled value) too. An AND
// with an all-ones mask clang cannot see through breaks the tie.
INLINE u64 unlinked(u64 v) {
    u64 all = ~(u64)0;
    barrier_var(all);
    return v & all;
}

static long (*bpf_probe_read_kernel_str)(void *dst, u32 size, const void *src) = (void *)115;
static long (*bpf_loop)(u32 iterations, void *callback, void *context, u64 flags) = (void *)181;
static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value,
                                   u64 flags) = (void *)2;
static u32 (*bpf_get_smp_processor_id)(void) = (void *)8;
static u64 (*bpf_get_current_pid_tgid)(void) = (void *)14;
static long (*bpf_ringbuf_output)(void *ring, void *data, u64 size, u64 flags) = (void *)130;
static u64 (*bpf_ktime_get_ns)(void) = (void *)5;
static long (*bpf_probe_read_user)(void *dst, u32 size, const void *src) = (void *)112;

#define BPF_RB_FORCE_WAKEUP 2
#define DTX_RT_PAGE_SIZE 4096

// ---- Shared helpers --------------------------------------------------------

// Copies `src` into `dst` (NUL-terminated, at most size - 1 bytes before the
// NUL) and returns the length copied: a range in [0, size - 1] for the
// verifier, whatever the data.
INLINE u64 copy_string(char *dst, const char *src, u64 size) {
    long copied = bpf_probe_read_kernel_str(dst, (u32)size, src);
    if (copied < 1) {
        dst[0] = 0;
        return 0;
    }
    return (u64)copied - 1;
}

// dst = the one-character string `c`.
INLINE void set_single_character(char *dst, char c, u64 size) {
    if (size < 2) {
        dst[0] = 0;
        return;
    }
    dst[0] = c;
    dst[1] = 0;
}

// The top bit of v, as 0 or 1: without a branch, which clang would make of
// a comparison (BPF has no instruction that sets a register from one).
INLINE u64 top_bit(u64 v) {
    barrier_var(v); // or clang may know the bit from v's range, and compare
    u64 bit = v >> 63;
    barrier_var(bit);
    return bit;
}

// 1 if v is not 0, without a branch: the top bit of v or of -v is set.
INLINE u64 nonzero(u64 v) {
    u64 negated = 0 - v;
    barrier_var(negated);
    return top_bit(v | negated);
}

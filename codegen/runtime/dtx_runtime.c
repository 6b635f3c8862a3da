// The run-time library of D's string functions (and the announcement of
// processes whose user addresses are recorded): BPF C, compiled to LLVM
// bitcode at build time (codegen/CMakeLists.txt) and linked into each
// program's module by codegen/runtime_library.cpp, which gives every function
// its BTF through BpfDebugInfo::define_static_function (internal, noinline,
// in ".text"). Freestanding: no headers, the few BPF helpers are declared here.
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
// location); shared code is in always-inline helpers.

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

#define BPF_RB_FORCE_WAKEUP 2

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

// Copies at most `count` bytes of s from s[first] on (fewer if s ends first)
// into dst, NUL-terminated. `first` and `count` may be ranges: dst's offset
// is fixed, so one helper call copies them, reading no further than s's
// buffer.
INLINE void copy_span(char *dst, const char *s, u64 first, u64 count, u64 size) {
    barrier_var(first);
    if (first >= size - 1) {
        dst[0] = 0; // s[size - 1] counts as s's NUL
        return;
    }
    u64 room = size - first;                     // from s[first] to the end of s's buffer
    u64 bytes = count < room ? count + 1 : room; // with the NUL
    barrier_var(bytes);
    if (bytes > size) // never, but the verifier cannot tell
        bytes = size;
    bpf_probe_read_kernel_str(dst, (u32)bytes, s + first);
}

// Copies the string starting at s[from] into dst.
INLINE void copy_suffix(char *dst, const char *s, u64 from, u64 size) {
    copy_span(dst, s, from, size, size);
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

// Whether position i (< size) is the end of s.
INLINE int at_end(const char *s, u64 i, u64 size) {
    return i >= size - 1 || s[i] == 0;
}

INLINE int is_empty(const char *s, u64 size) {
    return size < 2 || s[0] == 0;
}

struct string_scan {
    const char *s;
    u64 size;
    u64 length;
};

CALLBACK long dtx_rt_step_strlen(u32 index, void *context) {
    struct string_scan *scan = context;
    u64 i = index;
    if (i >= scan->size - 1)
        return 1; // s fills its buffer: length stays size - 1
    if (scan->s[i] == 0) {
        scan->length = i;
        return 1;
    }
    return 0;
}

// The length of s: a range for the verifier.
INLINE u64 string_length(const char *s, u64 size) {
    struct string_scan scan = {s, size, size - 1};
    bpf_loop((u32)size, dtx_rt_step_strlen, &scan, 0);
    return scan.length;
}

// ---- strlen, strcmp --------------------------------------------------------

// strlen(s): the number of bytes before the terminating NUL.
RUNTIME s64 dtx_rt_strlen(const char *s, u64 size) {
    return (s64)string_length(s, size);
}

struct string_comparison {
    const char *a;
    const char *b;
    u64 size;
    s64 difference;
};

CALLBACK long dtx_rt_step_strcmp(u32 index, void *context) {
    struct string_comparison *comparison = context;
    u64 i = index;
    if (i >= comparison->size - 1)
        return 1;
    u8 x = (u8)comparison->a[i];
    u8 y = (u8)comparison->b[i];
    if (x != y) {
        comparison->difference = (s64)x - (s64)y;
        return 1;
    }
    return x == 0;
}

// D's string comparison (==, <, ... on strings): negative, zero or positive
// as a is less than, equal to or greater than b, comparing bytes as unsigned.
RUNTIME s64 dtx_rt_strcmp(const char *a, const char *b, u64 size) {
    struct string_comparison comparison = {a, b, size, 0};
    bpf_loop((u32)size, dtx_rt_step_strcmp, &comparison, 0);
    return comparison.difference;
}

// ---- strjoin, substr -------------------------------------------------------

// Appends src to dst, whose first `at` bytes are taken, a byte per
// iteration: one helper call cannot, since the verifier would check dst + at
// plus the most the call may write (size - at, at its least at) against the
// end of dst's map value, not of dst.
struct string_append {
    char *dst;
    const char *src;
    u64 at;
    u64 size;
};

CALLBACK long dtx_rt_step_append(u32 index, void *context) {
    struct string_append *append = context;
    u64 j = index;
    u64 k = unlinked(append->at) + j;
    barrier_var(k);
    if (j >= append->size - 1 || k >= append->size - 1) {
        append->dst[append->size - 1] = 0; // truncated, or src fills its buffer
        return 1;
    }
    char c = append->src[j];
    append->dst[k] = c;
    return c == 0;
}

// strjoin(a, b): a followed by b, truncated to size - 1 bytes.
RUNTIME s64 dtx_rt_strjoin(char *dst, const char *a, const char *b, u64 size) {
    struct string_append append = {dst, b, copy_string(dst, a, size), size};
    bpf_loop((u32)size, dtx_rt_step_append, &append, 0);
    return 1;
}

// substr(s, index [, length]): the `length` bytes of s from `index` on.
//  - A negative index counts from the end of s (-1 is the last byte). If it
//    still points before the start, the bytes before the start count against
//    `length`: substr("abc", -5, 3) is "a".
//  - A negative length leaves that many bytes off the end of s.
//  - An omitted length (DTX_RT_OMITTED) is strsize: the rest of s.
//  - An index at or past the end, or nothing left to take, gives "".
RUNTIME s64 dtx_rt_substr(char *dst, const char *s, s64 index, s64 length, u64 size) {
    // Only for the length; the result is copied over it.
    s64 len = (s64)copy_string(dst, s, size);
    if (length == DTX_RT_OMITTED)
        length = (s64)size;
    if (index < 0) {
        index += len;
        if (index < 0) {
            if (length <= -index)
                goto empty;
            length += index;
            index = 0;
        }
    }
    if (index >= len)
        goto empty;
    if (length < 0) {
        length += len - index;
        if (length <= 0)
            goto empty;
    }
    copy_span(dst, s, (u64)index, (u64)length, size);
    return 1;

empty:
    dst[0] = 0;
    return 1;
}

// ---- index, rindex, strstr -------------------------------------------------

// Whether sub occurs in s at position `at`: a byte of sub per iteration.
struct substring_match {
    const char *s;
    const char *sub;
    u64 size;
    u64 at;
    u64 matched;
};

CALLBACK long dtx_rt_step_match(u32 index, void *context) {
    struct substring_match *match = context;
    u64 j = index;
    if (j >= match->size - 1) {
        match->matched = 1; // sub fills its buffer: its last byte is its NUL
        return 1;
    }
    u8 wanted = (u8)match->sub[j];
    if (wanted == 0) {
        match->matched = 1;
        return 1;
    }
    u64 k = unlinked(match->at) + j;
    barrier_var(k);
    if (k >= match->size - 1)
        return 1; // the end of s
    return (u8)match->s[k] != wanted;
}

// Tries the positions from `first` up to `end` (exclusive), or from end - 1
// down to `first`, a position per iteration; the first match wins. A
// forward search stops at the end of s.
struct substring_search {
    const char *s;
    const char *sub;
    u64 size;
    u64 first;
    u64 end;
    u64 backwards;
    s64 found; // position of the match, or -1
};

CALLBACK long dtx_rt_step_search(u32 index, void *context) {
    struct substring_search *search = context;
    u64 k = index;
    u64 i = search->backwards ? search->end - 1 - k : search->first + k;
    barrier_var(i);
    if (i < search->first || i >= search->end || i >= search->size)
        return 1;
    struct substring_match match = {search->s, search->sub, search->size, i, 0};
    bpf_loop((u32)search->size, dtx_rt_step_match, &match, 0);
    if (match.matched) {
        search->found = (s64)i;
        return 1;
    }
    return !search->backwards && at_end(search->s, i, search->size);
}

INLINE s64 find_substring(const char *s, const char *sub, u64 first, u64 end, u64 backwards,
                          u64 size) {
    struct substring_search search = {s, sub, size, first, end, backwards, -1};
    bpf_loop((u32)size, dtx_rt_step_search, &search, 0);
    return search.found;
}

// index(s, sub [, start]): the first position at or after `start` where sub
// occurs in s, or -1. A negative start is 0; a start past the end of s finds
// only "", at the end; an omitted start (DTX_RT_OMITTED) is 0.
RUNTIME s64 dtx_rt_index(const char *s, const char *sub, s64 start, u64 size) {
    if (start < 0 || start == DTX_RT_OMITTED)
        start = 0;
    u64 length = string_length(s, size);
    if ((u64)start > length)
        return is_empty(sub, size) ? (s64)length : -1;
    if (is_empty(sub, size))
        return start;
    return find_substring(s, sub, (u64)start, length, 0, size);
}

// rindex(s, sub [, start]): the last position at or before `start` where sub
// occurs in s, or -1. A negative start finds only "", at 0; an omitted start
// (DTX_RT_OMITTED) is the end of s. (Perl's semantics, as DTrace's.)
RUNTIME s64 dtx_rt_rindex(const char *s, const char *sub, s64 start, u64 size) {
    if (start < 0)
        return is_empty(sub, size) ? 0 : -1;
    u64 length = string_length(s, size);
    u64 last = (u64)start < length ? (u64)start : length;
    if (is_empty(sub, size))
        return (s64)last;
    return find_substring(s, sub, 0, last + 1, 1, size);
}

// strstr(s, sub): the suffix of s that starts with the first occurrence of
// sub; NULL (return 0) if there is none. strstr(s, "") is s.
RUNTIME s64 dtx_rt_strstr(char *dst, const char *s, const char *sub, u64 size) {
    s64 found = find_substring(s, sub, 0, size, 0, size);
    if (found < 0) {
        dst[0] = 0;
        return 0;
    }
    copy_suffix(dst, s, (u64)found, size);
    return 1;
}

// ---- strchr, strrchr -------------------------------------------------------

struct character_search {
    const char *s;
    u64 size;
    u64 wanted;
    u64 first_only;
    s64 found; // position of the first (or last) occurrence, or -1
};

CALLBACK long dtx_rt_step_character(u32 index, void *context) {
    struct character_search *search = context;
    u64 i = index;
    if (i >= search->size)
        return 1;
    u8 x = at_end(search->s, i, search->size) ? 0 : (u8)search->s[i];
    if (x == search->wanted) {
        search->found = (s64)i;
        if (search->first_only)
            return 1;
    }
    return x == 0;
}

// The suffix of s from the first (or last) byte c on, into dst; 0 if c does
// not occur. The terminating NUL is part of s.
INLINE s64 character_suffix(char *dst, const char *s, s64 c, u64 first_only, u64 size) {
    struct character_search search = {s, size, (u8)c, first_only, -1};
    bpf_loop((u32)size, dtx_rt_step_character, &search, 0);
    if (search.found < 0) {
        dst[0] = 0;
        return 0;
    }
    copy_suffix(dst, s, (u64)search.found, size);
    return 1;
}

// strchr(s, c): the suffix of s from the first byte c on; NULL (return 0) if
// c does not occur. strchr(s, 0) is "".
RUNTIME s64 dtx_rt_strchr(char *dst, const char *s, s64 c, u64 size) {
    return character_suffix(dst, s, c, 1, size);
}

// strrchr(s, c): the suffix of s from the last byte c on; NULL (return 0) if
// c does not occur. strrchr(s, 0) is "".
RUNTIME s64 dtx_rt_strrchr(char *dst, const char *s, s64 c, u64 size) {
    return character_suffix(dst, s, c, 0, size);
}

// ---- basename, dirname -----------------------------------------------------

// Where the path's last component (a run of bytes other than '/') is, and
// where the component before it ends; -1 for none.
struct path_scan {
    const char *s;
    u64 size;
    s64 last_start;
    s64 last_end;
    s64 previous_end;
    u64 in_component;
};

CALLBACK long dtx_rt_step_path(u32 index, void *context) {
    struct path_scan *scan = context;
    u64 i = index;
    if (i >= scan->size - 1)
        return 1;
    char c = scan->s[i];
    if (c == 0)
        return 1;
    if (c == '/') {
        scan->in_component = 0;
        return 0;
    }
    if (!scan->in_component) {
        scan->previous_end = scan->last_end;
        scan->last_start = (s64)i;
        scan->in_component = 1;
    }
    scan->last_end = (s64)i;
    return 0;
}

INLINE void scan_path(struct path_scan *scan, const char *s, u64 size) {
    scan->s = s;
    scan->size = size;
    scan->last_start = -1;
    scan->last_end = -1;
    scan->previous_end = -1;
    scan->in_component = 0;
    bpf_loop((u32)size, dtx_rt_step_path, scan, 0);
}

// basename(s): the last component, without trailing slashes: "/a/b/" -> "b".
// A path of slashes only is "/"; the empty path is ".".
RUNTIME s64 dtx_rt_basename(char *dst, const char *s, u64 size) {
    struct path_scan scan;
    scan_path(&scan, s, size);
    if (scan.last_end < 0) {
        set_single_character(dst, is_empty(s, size) ? '.' : '/', size);
        return 1;
    }
    copy_span(dst, s, (u64)scan.last_start, (u64)(scan.last_end - scan.last_start + 1), size);
    return 1;
}

// dirname(s): everything before the last component, without trailing
// slashes: "/a/b/" -> "/a", "/a" -> "/", "a" and "a/" -> ".". A path of
// slashes only is "/"; the empty path is ".".
RUNTIME s64 dtx_rt_dirname(char *dst, const char *s, u64 size) {
    struct path_scan scan;
    scan_path(&scan, s, size);
    if (scan.last_end < 0) {
        set_single_character(dst, is_empty(s, size) ? '.' : '/', size);
        return 1;
    }
    if (scan.last_start == 0) {
        set_single_character(dst, '.', size); // no slash before the last component
        return 1;
    }
    if (scan.previous_end < 0) {
        set_single_character(dst, '/', size); // only slashes before it
        return 1;
    }
    copy_span(dst, s, 0, (u64)scan.previous_end + 1, size);
    return 1;
}

// ---- lltostr ---------------------------------------------------------------

// Puts digit k (from the right) of a number into text[63 - k], dividing
// *magnitude by the radix; adds 1 to *count if digits remain. No branch.
INLINE void put_digit(char *text, u64 k, u64 *magnitude, u64 radix, u64 *count) {
    u64 digit = *magnitude % radix;
    // 1 for a digit above 9, by the borrow into bit 63.
    u64 letter = top_bit(9 - digit);
    text[63 - k] = (char)('0' + digit + letter * ('a' - '0' - 10));
    *magnitude /= radix;
    *count += nonzero(*magnitude);
}

// lltostr(value [, base]): value in base 2 to 36 (digits 0-9a-z), 10 if the
// base is omitted (DTX_RT_OMITTED). Base 10 prints a negative value with a
// '-'; other bases print the 64-bit two's complement, base 16 with a "0x"
// prefix and base 8 with a "0" prefix, as DTrace does. Truncated to size - 1
// bytes. An invalid base gives NULL (return 0): DTrace reports an illegal
// operation.
RUNTIME s64 dtx_rt_lltostr(char *dst, s64 value, s64 base, u64 size) {
    if (base == DTX_RT_OMITTED)
        base = 10;
    if (base < 2 || base > 36) {
        dst[0] = 0;
        return 0;
    }
    u64 radix = (u64)base;
    // The magnitude of a negative value in base 10 (-v is ~v + 1), the value
    // itself otherwise: without a branch, which the digits would be verified
    // under twice.
    u64 negative = top_bit((u64)value) & (nonzero(radix ^ 10) ^ 1);
    u64 magnitude = ((u64)value ^ (0 - negative)) + negative;

    // The digits, backwards from text's NUL: as many as the widest value
    // has in this radix, leading zeros included, so that the loops do not
    // branch on the value; `count` is how many are significant.
    // Radixes below 8 need more digits than the others, after theirs: the
    // verifier follows the first 22 digits once for an unknown radix.
    char text[64 + 1];
    text[64] = 0;
    u64 count = 1;
    u64 k = 0;
    for (; k < 22; k++)
        put_digit(text, k, &magnitude, radix, &count);
    if (radix < 8)
        for (; k < 32; k++)
            put_digit(text, k, &magnitude, radix, &count);
    if (radix < 4)
        for (; k < 64; k++)
            put_digit(text, k, &magnitude, radix, &count);

    // The prefix goes to dst at a fixed offset, the digits after it: one
    // helper call copies them from wherever they start.
    u64 prefix = 0;
    if (radix == 16)
        prefix = 2;
    else if ((radix == 8 && value != 0) || negative)
        prefix = 1;
    if (prefix > size - 1)
        prefix = size - 1;
    if (prefix > 0)
        dst[0] = negative ? '-' : '0';
    if (prefix > 1)
        dst[1] = 'x';
    u64 start = 64 - count; // a range: added, as the verifier allows
    barrier_var(start);
    copy_string(dst + prefix, text + start, size - prefix);
    return 1;
}

// ---- toupper, tolower ------------------------------------------------------

// Copies s to dst, a byte per iteration, flipping the case bit (0x20) of the
// letters from `first` to first + 25.
struct case_conversion {
    char *dst;
    const char *s;
    u64 size;
    u64 first;
};

CALLBACK long dtx_rt_step_case(u32 index, void *context) {
    struct case_conversion *conversion = context;
    u64 k = index;
    if (k >= conversion->size - 1) {
        conversion->dst[conversion->size - 1] = 0;
        return 1;
    }
    u8 c = (u8)conversion->s[k];
    // 1 if c - first < 26, by the borrow into bit 63.
    u64 letter = top_bit((u64)(u8)(c - conversion->first) - 26);
    conversion->dst[k] = (char)(c ^ (letter << 5));
    return c == 0;
}

INLINE s64 convert_case(char *dst, const char *s, u64 size, u8 first) {
    struct case_conversion conversion = {dst, s, size, first};
    dst[0] = 0; // should bpf_loop fail
    bpf_loop((u32)size, dtx_rt_step_case, &conversion, 0);
    return 1;
}

// toupper(s): s with ASCII a-z made A-Z; other bytes unchanged.
RUNTIME s64 dtx_rt_toupper(char *dst, const char *s, u64 size) {
    return convert_case(dst, s, size, 'a');
}

// tolower(s): s with ASCII A-Z made a-z; other bytes unchanged.
RUNTIME s64 dtx_rt_tolower(char *dst, const char *s, u64 size) {
    return convert_case(dst, s, size, 'A');
}

// ---- strtok ----------------------------------------------------------------

// strtok's state, kept by the caller between calls in 40 + size bytes
// (zeroed before the first call). The string is copied, since the one passed
// first may not live as long as the state. The delimiter set lives here too,
// as a bitmap: map memory takes the variable offsets a lookup needs.
struct strtok_state {
    u64 has_text; // a strtok(s, ...) was called in this firing
    u64 position; // where the next token search starts in text
    u64 delimiters[4];
    char text[];
};

INLINE int is_delimiter(volatile struct strtok_state *state, u8 c) {
    return (state->delimiters[c >> 6] >> (c & 63)) & 1;
}

struct delimiter_set {
    volatile struct strtok_state *state;
    const char *delimiters;
    u64 size;
};

CALLBACK long dtx_rt_step_delimiter(u32 index, void *context) {
    struct delimiter_set *set = context;
    u64 k = index;
    if (k >= set->size - 1)
        return 1;
    u8 c = (u8)set->delimiters[k];
    if (c == 0)
        return 1;
    set->state->delimiters[c >> 6] |= (u64)1 << (c & 63);
    return 0;
}

// From text[start] on, the first position whose byte is (or, with
// `delimiter` 0, is not) a delimiter, or the end of text.
struct token_scan {
    volatile struct strtok_state *state;
    const char *text;
    u64 size;
    u64 start;
    u64 delimiter;
    u64 end;
};

CALLBACK long dtx_rt_step_token(u32 index, void *context) {
    struct token_scan *scan = context;
    u64 i = unlinked(scan->start) + index;
    barrier_var(i);
    if (i >= scan->size - 1)
        return 1; // end stays size - 1
    u8 c = (u8)scan->text[i];
    if (c == 0 || (u64)is_delimiter(scan->state, c) == scan->delimiter) {
        scan->end = i;
        return 1;
    }
    return 0;
}

INLINE u64 scan_token(struct token_scan *scan, u64 start, u64 delimiter) {
    scan->start = start;
    scan->delimiter = delimiter;
    scan->end = scan->size - 1;
    bpf_loop((u32)scan->size, dtx_rt_step_token, scan, 0);
    return scan->end;
}

// strtok(s, delimiters): the next token of s, a run of bytes not in
// delimiters; with s NULL, the next token of the string of the previous call.
// NULL (return 0) when no token is left; -1 for strtok(NULL, ...) with no
// string to continue in this firing (the caller faults). As in DTrace
// (unlike C), the search resumes at the delimiter that ended the previous
// token, so a call with other delimiters may find a token that starts with it.
RUNTIME s64 dtx_rt_strtok(char *dst, const char *s, const char *delimiters, char *state_buffer,
                          u64 size) {
    volatile struct strtok_state *state = (volatile struct strtok_state *)state_buffer;
    char *text = state_buffer + sizeof(struct strtok_state);
    if (s) {
        copy_string(text, s, size);
        state->position = 0;
        state->has_text = 1;
    } else if (!state->has_text) {
        dst[0] = 0;
        return -1;
    }

    for (int word = 0; word < 4; word++)
        state->delimiters[word] = 0;
    struct delimiter_set set = {state, delimiters, size};
    bpf_loop((u32)size, dtx_rt_step_delimiter, &set, 0);

    struct token_scan scan = {state, text, size, 0, 0, 0};
    u64 start = scan_token(&scan, state->position, 0); // skips the delimiters
    barrier_var(start);
    if (start >= size - 1 || text[start] == 0) {
        state->position = start < size - 1 ? start : size - 1;
        dst[0] = 0;
        return 0;
    }
    u64 end = scan_token(&scan, start, 1);
    copy_span(dst, text, start, end - start, size);
    state->position = end;
    return 1;
}

// ---- Processes ---------------------------------------------------------------

// Writes a trace::ProcessRecord (program_description.h) for the current
// process to the ring buffer `output`, waking the consumer at once, unless the
// LRU hash `processes` (u32 pid -> u8) says it was written before; `epid` is
// the record's marker. Returns 1 when it wrote one.
RUNTIME s64 dtx_rt_announce_process(void *processes, void *output, u64 epid) {
    u32 pid = (u32)(bpf_get_current_pid_tgid() >> 32);
    if (bpf_map_lookup_elem(processes, &pid))
        return 0;
    u8 announced = 1;
    bpf_map_update_elem(processes, &pid, &announced, 0);
    struct {
        u32 epid, cpu, pid, unused;
    } record = {(u32)epid, bpf_get_smp_processor_id(), pid, 0};
    return bpf_ringbuf_output(output, &record, sizeof(record), BPF_RB_FORCE_WAKEUP) == 0;
}

// ---- Time --------------------------------------------------------------------

static u64 (*bpf_ktime_get_ns)(void) = (void *)5;

struct chill_wait {
    u64 deadline;
};

CALLBACK long dtx_rt_step_chill(u32 index, struct chill_wait *wait) {
    (void)index;
    return bpf_ktime_get_ns() >= wait->deadline;
}

// Spins for `nanoseconds` (chill()), or as long as bpf_loop's 8,388,608
// iterations of a clock read take, if that is less. Returns 1.
RUNTIME s64 dtx_rt_chill(u64 nanoseconds) {
    struct chill_wait wait = {bpf_ktime_get_ns() + nanoseconds};
    bpf_loop(1u << 23, dtx_rt_step_chill, &wait, 0);
    return 1;
}

// ---- Paths -------------------------------------------------------------------

static long (*bpf_probe_read_kernel)(void *dst, u32 size, const void *src) = (void *)113;

// Where the kernel keeps what a path walk reads: byte offsets from BTF, in
// this order (the code generator fills a table of them).
struct path_offsets {
    u64 dentry_parent;    // struct dentry: d_parent
    u64 dentry_name;      // struct dentry: d_name.name
    u64 vfsmount_root;    // struct vfsmount: mnt_root
    u64 mount_vfsmount;   // struct mount: mnt, the struct vfsmount in it
    u64 mount_parent;     // struct mount: mnt_parent
    u64 mount_mountpoint; // struct mount: mnt_mountpoint
};

struct path_walk {
    const struct path_offsets *offsets;
    char *path;      // 2 * size bytes: the path grows down from path[size]
    char *component; // size bytes
    u64 size;
    u64 start; // the path so far is path[start .. size)
    u64 dentry, mount, root_dentry, root_mount;
};

INLINE u64 read_word(u64 address) {
    u64 value = 0;
    bpf_probe_read_kernel(&value, sizeof(value), (const void *)address);
    return value;
}

// One step up: to the parent directory, or across a mount point; 1 at the
// root (or when the path no longer fits).
CALLBACK long dtx_rt_step_dentry(u32 index, struct path_walk *walk) {
    (void)index;
    const struct path_offsets *o = walk->offsets;
    if (walk->dentry == walk->root_dentry && walk->mount == walk->root_mount)
        return 1;
    u64 parent = read_word(walk->dentry + o->dentry_parent);
    if (walk->dentry == read_word(walk->mount + o->vfsmount_root) || walk->dentry == parent) {
        u64 mount = walk->mount - o->mount_vfsmount;
        u64 above = read_word(mount + o->mount_parent);
        if (above == mount || above == 0)
            return 1; // the namespace's root
        walk->dentry = read_word(mount + o->mount_mountpoint);
        walk->mount = above + o->mount_vfsmount;
        return 0;
    }
    u64 name = read_word(walk->dentry + o->dentry_name);
    u64 size = walk->size;
    long copied = bpf_probe_read_kernel_str(walk->component, (u32)size, (const void *)name);
    if (copied < 1)
        return 1;
    u64 length = unlinked((u64)copied - 1);
    u64 start = unlinked(walk->start);
    if (length >= size || start > size || length + 1 > start)
        return 1; // does not fit: the path stays as far as it got
    u64 at = start - length;
    barrier_var(at);
    if (at > size)
        return 1;
    bpf_probe_read_kernel(walk->path + at, (u32)length, walk->component);
    at -= 1;
    barrier_var(at);
    if (at >= size)
        return 1;
    walk->path[at] = '/';
    walk->start = at;
    walk->dentry = parent;
    return 0;
}

// What dtx_rt_dentry_path starts from: `dentry` on `mount` (a struct
// vfsmount *), seen from the root `root_dentry` on `root_mount`; the
// buffer's room follows it.
struct path_request {
    u64 dentry, mount, root_dentry, root_mount;
    char room[];
};

// The path of the request's dentry as d_path() gives it ("/" at the root),
// into dst; the request has 3 * size bytes of room. Returns 1.
RUNTIME s64 dtx_rt_dentry_path(char *dst, struct path_request *request,
                               const struct path_offsets *offsets, u64 size) {
    char *buffer = request->room;
    struct path_walk walk = {offsets,         buffer,          buffer + 2 * size,
                             size,            size,            request->dentry,
                             request->mount,  request->root_dentry, request->root_mount};
    buffer[size] = 0;
    bpf_loop(256, dtx_rt_step_dentry, &walk, 0);
    u64 start = unlinked(walk.start);
    if (start >= size) { // nothing above: the root
        set_single_character(dst, '/', size);
        return 1;
    }
    bpf_probe_read_kernel_str(dst, (u32)size, buffer + start);
    return 1;
}

// ---- Processes' arguments ----------------------------------------------------

static long (*bpf_probe_read_user)(void *dst, u32 size, const void *src) = (void *)112;

struct args_scan {
    char *text;
    u64 length;
    u64 count;
};

CALLBACK long dtx_rt_step_args(u32 index, struct args_scan *scan) {
    u64 i = unlinked(index);
    u64 length = scan->length;
    if (i >= length)
        return 1;
    barrier_var(i);
    if (i >= 4096) // never: length is below size
        return 1;
    if (scan->text[i] == 0) {
        scan->count += 1;
        if (i + 1 < length)
            scan->text[i] = ' ';
    }
    return 0;
}

// The current process's arguments, [start, end) of its memory (mm->arg_start
// and arg_end), as one line: the NULs between them made spaces, at most
// size - 1 bytes. Returns how many arguments ended within those bytes.
RUNTIME s64 dtx_rt_process_args(char *dst, u64 start, u64 end, u64 size) {
    u64 length = end > start ? end - start : 0;
    if (length > size - 1)
        length = size - 1;
    length = unlinked(length);
    barrier_var(length);
    dst[0] = 0;
    if (length == 0 || length >= size || length > 4095)
        return 0;
    if (bpf_probe_read_user(dst, (u32)length, (const void *)start) < 0) {
        dst[0] = 0;
        return 0;
    }
    dst[length] = 0;
    struct args_scan scan = {dst, length, 0};
    bpf_loop((u32)length, dtx_rt_step_args, &scan, 0);
    return (s64)scan.count;
}

// ---- User memory in sleepable programs ---------------------------------------

// Reads of the current process's memory in a sleepable program (a uprobe's):
// a page it has not touched yet is not in its page tables, and the reads
// that cannot fault (bpf_probe_read_user*) fail on it. These bring the pages
// in with bpf_copy_from_user, which may take the fault and sleep, one page
// at a time and only as far as the read needs, then read again. For
// sleepable programs only: the verifier refuses bpf_copy_from_user elsewhere.

static long (*bpf_copy_from_user)(void *dst, u32 size, const void *user_src) = (void *)148;
static long (*bpf_probe_read_user_str)(void *dst, u32 size, const void *src) = (void *)114;

#define DTX_RT_PAGE_SIZE 4096

struct user_pages_walk {
    u64 first_page;
    u64 address;
    char *dst; // copy_user_str's buffer; null when only faulting pages in
    u64 limit;
    s64 result;
};

CALLBACK long dtx_rt_step_user_page(u32 index, struct user_pages_walk *walk) {
    u64 page = walk->first_page + (u64)index * DTX_RT_PAGE_SIZE;
    u64 at = page > walk->address ? page : walk->address;
    char byte;
    // A page that cannot be read ends the walk: the read fails there anyway.
    if (bpf_copy_from_user(&byte, 1, (const void *)at) < 0)
        return 1;
    if (!walk->dst)
        return 0;
    walk->result =
        bpf_probe_read_user_str(walk->dst, (u32)walk->limit, (const void *)walk->address);
    return walk->result >= 0;
}

// The pages of [address, address + length): how many, from the first.
INLINE u32 user_pages(u64 address, u64 length, u64 *first) {
    if (length == 0 || address + length - 1 < address)
        return 0;
    *first = address & ~(u64)(DTX_RT_PAGE_SIZE - 1);
    u64 last = (address + length - 1) & ~(u64)(DTX_RT_PAGE_SIZE - 1);
    return (u32)((last - *first) / DTX_RT_PAGE_SIZE + 1);
}

// copyinstr() once bpf_probe_read_user_str(dst, limit, address) has failed:
// faults in the string's pages one by one, reading it again after each,
// until it reads. Returns what the last read returned (its length with the
// NUL, or a negative error). `limit` is at most the room at `dst`.
RUNTIME s64 dtx_rt_copy_user_str(char *dst, u64 limit, u64 address) {
    struct user_pages_walk walk = {0, address, dst, limit, -14}; // -EFAULT
    u32 pages = user_pages(address, limit, &walk.first_page);
    if (pages)
        bpf_loop(pages, dtx_rt_step_user_page, &walk, 0);
    return walk.result;
}

// Faults in every page of [address, address + length), in order, until one
// cannot be: before a read of all those bytes that cannot fault.
RUNTIME void dtx_rt_fault_in_user(u64 address, u64 length) {
    struct user_pages_walk walk = {0, address, 0, 0, 0};
    u32 pages = user_pages(address, length, &walk.first_page);
    if (pages)
        bpf_loop(pages, dtx_rt_step_user_page, &walk, 0);
}

// ---- Network addresses -------------------------------------------------------

// inet_ntoa(), inet_ntoa6(), inet_ntop() and link_ntop() format an address
// the caller read into the first bytes of a work area of map memory
// (DTX_RT_ADDRESS_WORK bytes). The text is built after them, at positions
// masked to DTX_RT_TEXT_ROOM, without a branch on the address: each
// character is written at the current position, which advances past it
// only when it belongs in the text, so that the next one overwrites it.
#define DTX_RT_TEXT_AT 24
#define DTX_RT_TEXT_ROOM 64

// 1 if a >= b, for a and b below 2^62, without a branch.
INLINE u64 at_least(u64 a, u64 b) {
    return top_bit(b - a - 1);
}

INLINE void put_char(char *text, u64 at, u64 c) {
    text[at & (DTX_RT_TEXT_ROOM - 1)] = (char)c;
}

// The hex digit of c (0 to 15), lower case.
INLINE u64 hex_digit(u64 c) {
    return '0' + c + top_bit(9 - c) * ('a' - '0' - 10);
}

// An octet in decimal, without leading zeros; the new position.
INLINE u64 put_decimal(char *text, u64 at, u64 v) {
    put_char(text, at, '0' + v / 100);
    at += at_least(v, 100);
    put_char(text, at, '0' + v / 10 % 10);
    at += at_least(v, 10);
    put_char(text, at, '0' + v % 10);
    return at + 1;
}

// A 16-bit word in hex, without leading zeros; the new position.
INLINE u64 put_hex16(char *text, u64 at, u64 word) {
    u64 started = 0;
#pragma unroll
    for (int d = 3; d > 0; d--) {
        u64 c = (word >> (4 * d)) & 15;
        put_char(text, at, hex_digit(c));
        u64 advance = nonzero(c | started);
        at += advance;
        started |= advance;
    }
    put_char(text, at, hex_digit(word & 15));
    return at + 1;
}

// The dotted quad of the 4 bytes at `bytes`; the new position.
INLINE u64 put_dotted_quad(char *text, u64 at, const u8 *bytes) {
#pragma unroll
    for (int k = 0; k < 4; k++) {
        at = put_decimal(text, at, bytes[k]);
        put_char(text, at, '.');
        at += k < 3;
    }
    return at;
}

// The text at `at` ends here; copies it to dst.
INLINE s64 finish_text(char *dst, char *text, u64 at, u64 size) {
    put_char(text, at, 0);
    copy_string(dst, text, size);
    return 1;
}

// The first `words` 16-bit words (network order) of the address at `bytes`
// in RFC 5952's form: in hex without leading zeros, separated by ':', the
// longest run of two or more zero words (the first of the longest) as "::".
// Returns the new position; *run_end is where the run of zeros ended (0
// when none was replaced).
INLINE u64 put_ipv6_words(char *text, u64 at, const u8 *bytes, u64 words, u64 *run_end) {
    u8 run[9];
    run[8] = 0;
#pragma unroll
    for (int i = 7; i >= 0; i--) {
        u64 word = (u64)bytes[2 * i] << 8 | bytes[2 * i + 1];
        u64 zero = (nonzero(word) ^ 1) & at_least(words, i + 1);
        run[i] = (u8)(zero * (run[i + 1] + 1));
    }
    u64 best_length = 1; // shorter runs are written out
    u64 best_start = 8;  // none
#pragma unroll
    for (u64 i = 0; i < 8; i++) {
        u64 better = at_least(run[i], best_length + 1);
        best_length += better * (run[i] - best_length);
        best_start += better * (i - best_start);
    }
    u64 end = best_start + best_length;
#pragma unroll
    for (u64 i = 0; i < 8; i++) {
        u64 shown = at_least(words, i + 1);
        u64 in_run = at_least(i, best_start) & (at_least(i, end) ^ 1);
        u64 run_start = nonzero(i ^ best_start) ^ 1;
        u64 after_run = nonzero(i ^ end) ^ 1;
        // ':' before a word, unless it is the first or follows the run; "::"
        // for the run.
        put_char(text, at, ':');
        at += shown * (run_start | ((in_run ^ 1) & nonzero(i) & (after_run ^ 1)));
        put_char(text, at, ':');
        at += shown & run_start;
        u64 written = put_hex16(text, at, (u64)bytes[2 * i] << 8 | bytes[2 * i + 1]);
        at += (shown & (in_run ^ 1)) * (written - at);
    }
    *run_end = (best_start < 8) * end;
    return at;
}

// inet_ntoa(), inet_ntoa6(), inet_ntop(): the address in the first 4 (IPv4)
// or 16 (IPv6) bytes of `work`, as text into dst. `form`:
//   0: IPv4, a dotted quad: "192.168.1.23";
//   1: IPv6 as inet_ntop(AF_INET6, ...) writes it (RFC 5952): "fe80::1",
//      an IPv4-mapped or -compatible address with a dotted quad at its end:
//      "::ffff:127.0.0.1", "::127.0.0.1";
//   2: IPv6 as inet_ntoa6() writes it: as 1, but an IPv4-mapped or
//      -compatible address is its dotted quad alone, as DTrace writes it.
// An address is IPv4-mapped or -compatible, as DTrace sees it, when its
// first five words are 0 and the rest are ffff:a.b.c.d, or 0:a.b.c.d with
// a.b.c.d above 0.0.0.1 (:: and ::1 are not).
RUNTIME s64 dtx_rt_inet_ntop(char *dst, u8 *work, u64 form, u64 size) {
    char *text = (char *)work + DTX_RT_TEXT_AT;
    if (form == 0)
        return finish_text(dst, text, put_dotted_quad(text, 0, work), size);
    u64 prefix = 0;
#pragma unroll
    for (int k = 0; k < 10; k++)
        prefix |= work[k];
    u64 word5 = (u64)work[10] << 8 | work[11];
    u64 word6 = (u64)work[12] << 8 | work[13];
    u64 word7 = (u64)work[14] << 8 | work[15];
    u64 mapped = word5 == 0xffff || (word5 == 0 && (word6 != 0 || word7 > 1));
    if (prefix == 0 && mapped) {
        if (form == 2)
            return finish_text(dst, text, put_dotted_quad(text, 0, work + 12), size);
        u64 run_end = 0;
        u64 at = put_ipv6_words(text, 0, work, 6, &run_end);
        put_char(text, at, ':');
        at += nonzero(run_end ^ 6);
        return finish_text(dst, text, put_dotted_quad(text, at, work + 12), size);
    }
    u64 run_end = 0;
    return finish_text(dst, text, put_ipv6_words(text, 0, work, 8, &run_end), size);
}

// link_ntop(): the `length` bytes (at most 20) at the start of `work` in
// hex, separated by ':': "00:1b:21:3c:4d:5e".
RUNTIME s64 dtx_rt_link_ntop(char *dst, u8 *work, u64 length, u64 size) {
    char *text = (char *)work + DTX_RT_TEXT_AT;
    u64 at = 0;
#pragma unroll
    for (u64 k = 0; k < 20; k++) {
        u64 byte = work[k];
        put_char(text, at, hex_digit(byte >> 4));
        put_char(text, at + 1, hex_digit(byte & 15));
        put_char(text, at + 2, ':');
        at += 3 * at_least(length, k + 1);
    }
    at -= nonzero(at); // the last ':'
    return finish_text(dst, text, at, size);
}

// ---- strtoll -------------------------------------------------------------------

// The byte at s[i], or 0 past the end of s's buffer.
INLINE u8 byte_at(const char *s, u64 i, u64 size) {
    barrier_var(i);
    if (i >= size - 1)
        return 0;
    return (u8)s[i];
}

INLINE int is_space(u8 c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

// The first position of s that is not white space (or its end).
CALLBACK long dtx_rt_step_space(u32 index, void *context) {
    struct string_scan *scan = context;
    u64 i = index;
    if (i >= scan->size - 1)
        return 1;
    u8 c = (u8)scan->s[i];
    if (c != 0 && is_space(c))
        return 0;
    scan->length = i;
    return 1;
}

// The digits' value so far lives in map memory (`number`), where the
// verifier does not follow it from pass to pass: number[0] the magnitude,
// number[1] whether it overflowed.
struct digit_scan {
    const char *s;
    volatile u64 *number;
    u64 size;
    u64 start;
    u64 base;
    u64 limit; // the largest magnitude that may take another digit
};

CALLBACK long dtx_rt_step_digit(u32 index, void *context) {
    struct digit_scan *scan = context;
    u64 i = unlinked(scan->start) + index;
    barrier_var(i);
    if (i >= scan->size - 1)
        return 1;
    u8 c = (u8)scan->s[i];
    u64 digit = 99;
    if (c >= '0' && c <= '9')
        digit = c - '0';
    else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
        digit = (c | 0x20) - 'a' + 10;
    if (digit >= scan->base)
        return 1;
    u64 magnitude = scan->number[0];
    u64 shifted = magnitude * scan->base;
    u64 next = shifted + digit;
    scan->number[1] |= (magnitude > scan->limit) | (next < shifted);
    scan->number[0] = next;
    return 0;
}

// strtoll(s [, base]): the integer at the start of s, as C's strtoll()
// reads it: after white space, an optional sign, then digits of `base`
// (2 to 36; letters a-z or A-Z stand for 10 to 35) up to the first byte that
// is not one. Base 16 may have a "0x" or "0X" prefix; base 0 reads the
// prefix: "0x" for 16, "0" for 8, else 10; an omitted base (DTX_RT_OMITTED)
// is 10. A value beyond int64_t is INT64_MAX (or INT64_MIN when negative);
// no digits, or a base out of range, give 0. `number` is 16 bytes of map
// memory.
RUNTIME s64 dtx_rt_strtoll(const char *s, s64 base, u64 *number, u64 size) {
    if (base == DTX_RT_OMITTED)
        base = 10;
    struct string_scan space = {s, size, size - 1};
    bpf_loop((u32)size, dtx_rt_step_space, &space, 0);
    u64 at = space.length;
    u8 c = byte_at(s, at, size);
    u64 negative = c == '-';
    at += c == '-' || c == '+';
    u8 first = byte_at(s, at, size);
    u8 second = byte_at(s, at + 1, size) | 0x20;
    if (base == 0)
        base = first != '0' ? 10 : second == 'x' ? 16 : 8;
    if (base == 16 && first == '0' && second == 'x')
        at += 2;
    if (base < 2 || base > 36)
        return 0;
    number[0] = 0;
    number[1] = 0;
    struct digit_scan scan = {s, number, size, at, (u64)base, ~(u64)0 / (u64)base};
    bpf_loop((u32)size, dtx_rt_step_digit, &scan, 0);
    u64 magnitude = number[0];
    u64 overflow = number[1];
    if (negative)
        return overflow || magnitude > (u64)1 << 63 ? (s64)((u64)1 << 63) : (s64)(0 - magnitude);
    return overflow || magnitude > DTX_RT_OMITTED ? DTX_RT_OMITTED : (s64)magnitude;
}

// ---- cleanpath -----------------------------------------------------------------

// cleanpath()'s progress lives in map memory (`state`), where the verifier
// does not follow it from pass to pass: state[0] the position in s,
// state[1] the length of dst so far, state[2] 1 when done.
struct path_cleaning {
    char *dst;
    const char *s;
    volatile u64 *state;
    u64 size;
    u64 length; // back_up(): dst's length before the "/.."
};

// One step back in dst to the '/' before the last component (or its start).
CALLBACK long dtx_rt_step_back(u32 index, void *context) {
    struct path_cleaning *cleaning = context;
    u64 k = index;
    u64 length = unlinked(cleaning->length);
    if (k >= length || length >= cleaning->size) {
        cleaning->state[1] = 0;
        return 1;
    }
    u64 at = length - 1 - k;
    barrier_var(at);
    if (at >= cleaning->size)
        return 1;
    if (cleaning->dst[at] == '/') {
        cleaning->state[1] = at;
        return 1;
    }
    return 0;
}

// One step of DTrace's cleanpath: a byte, or a '/' with what follows it.
CALLBACK long dtx_rt_step_clean(u32 index, void *context) {
    (void)index;
    struct path_cleaning *cleaning = context;
    volatile u64 *state = cleaning->state;
    const char *s = cleaning->s;
    char *dst = cleaning->dst;
    u64 size = cleaning->size;
    u64 i = unlinked(state[0]);
    u64 j = unlinked(state[1]);
    barrier_var(j);
    if (j >= size - 5) { // no room for "/..c" and the NUL
        state[2] = 1;
        return 1;
    }
    u8 c = byte_at(s, i, size);
    if (c != '/') {
        dst[j] = (char)c;
        state[0] = i + 1;
        state[1] = j + 1;
        state[2] = c == 0;
        return c == 0;
    }
    u8 c1 = byte_at(s, i + 1, size);
    if (c1 == '/') { // "//": the first goes
        state[0] = i + 1;
        return 0;
    }
    if (c1 != '.') {
        dst[j] = '/';
        dst[j + 1] = (char)c1;
        state[0] = i + 2;
        state[1] = j + 2;
        state[2] = c1 == 0;
        return c1 == 0;
    }
    u8 c2 = byte_at(s, i + 2, size);
    if (c2 == '/') { // "/./": the "/." goes
        state[0] = i + 2;
        return 0;
    }
    if (c2 != '.') {
        dst[j] = '/';
        dst[j + 1] = '.';
        dst[j + 2] = (char)c2;
        state[0] = i + 3;
        state[1] = j + 3;
        state[2] = c2 == 0;
        return c2 == 0;
    }
    u8 c3 = byte_at(s, i + 3, size);
    if (c3 != '/' && c3 != 0) { // "/..c": a name
        dst[j] = '/';
        dst[j + 1] = '.';
        dst[j + 2] = '.';
        dst[j + 3] = (char)c3;
        state[0] = i + 4;
        state[1] = j + 4;
        return 0;
    }
    // "/../" or a final "/..": back to the '/' before the last component
    // (kept when the path ends here), then on from the '/' or the end.
    cleaning->length = j;
    bpf_loop((u32)size, dtx_rt_step_back, cleaning, 0);
    state[0] = i + 3;
    if (c3 == 0) {
        state[1] = state[1] + 1;
        state[2] = 1;
        return 1;
    }
    return 0;
}

// cleanpath(s): s with "//" made "/", "/./" made "/", and each "/../" taken
// back with the component before it, textually, as DTrace does it:
// "/a//b/./c/../d" -> "/a/b/d", "/a/b/.." -> "/a/", "a/../b" -> "/b". Stops
// when fewer than 5 bytes of dst are left. `state` is 24 bytes of map memory.
RUNTIME s64 dtx_rt_cleanpath(char *dst, const char *s, u64 *state, u64 size) {
    dst[0] = 0;
    if (size < 8)
        return 1;
    state[0] = 0;
    state[1] = 0;
    state[2] = 0;
    struct path_cleaning cleaning = {dst, s, state, size, 0};
    bpf_loop((u32)size, dtx_rt_step_clean, &cleaning, 0);
    u64 j = unlinked(state[1]);
    barrier_var(j);
    if (j >= size)
        j = size - 1;
    dst[j] = 0;
    return 1;
}

// ---- User stacks ---------------------------------------------------------------

// ustack(), ustackdepth and ucaller walk the current thread's user stack from
// the call-frame information of the files its code is in (.eh_frame,
// .debug_frame), as tables user space builds once per file
// (libtrace/unwind_table.h) and loads into the array map `dtx_unwind_rows`:
// a file's rows sorted by file offset, found through the hash map
// `dtx_unwind_files` by the file's inode and device. Code whose file has no
// table yet is asked for once (an UnwindRequest record in `dtx_output`, see
// libtrace/program_description.h)
// and, like code its table does not cover, is walked by frame pointers until
// the table is there. A return address outside executable mappings ends the
// stack with DTX_RT_USTACK_TRUNCATED rather than a frame that means nothing;
// code outside any file (a JIT's, the vDSO) and the outermost frame (whose
// return address its CFI leaves undefined) end it without.

static void *(*bpf_get_current_task_btf)(void) = (void *)158;
static void *(*bpf_task_pt_regs)(void *task) = (void *)175;
static long (*bpf_find_vma)(void *task, u64 address, void *callback, void *context,
                            u64 flags) = (void *)180;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)3;

#define BPF_NOEXIST 1
// codegen::kUnwindFrames: ustack()'s most (the ustackframes option's).
#define DTX_RT_USTACK_FRAMES 127
#define DTX_RT_VM_EXEC 4
// trace::kUserStackTruncated: the frame that says the stack went on.
#define DTX_RT_USTACK_TRUNCATED 0xfffffffffffffffeULL
// trace::kUnwindRequestEpid and trace::kMappingRecordEpid.
#define DTX_RT_UNWIND_REQUEST_EPID 0xfffffffeU
#define DTX_RT_MAPPING_RECORD_EPID 0xfffffffdU

// trace::UnwindRow and its rules.
struct unwind_row {
    u32 offset;
    int cfa_offset;
    short ra_offset;
    short fp_offset;
    u8 cfa_rule, ra_rule, fp_rule, flags;
};
_Static_assert(sizeof(struct unwind_row) == 16, "trace::UnwindRow's size");
enum { CFA_NONE, CFA_SP, CFA_FP, CFA_PLT, CFA_DEREF_SP };
enum { RA_UNDEFINED, RA_CFA, RA_SP };
enum { FP_SAME, FP_CFA, FP_SP, FP_UNKNOWN };
#define UNWIND_SIGNAL_FRAME 1

// trace::UnwindFileKey and trace::UnwindFile.
struct unwind_file_key {
    u64 inode, device;
};
struct unwind_file {
    u32 first_row, rows, state, unused;
};
enum { FILE_ASKED, FILE_TABLE, FILE_NO_TABLE };

// Where the kernel keeps what the walk reads of a mapping, from its BTF:
// the code generator defines this constant (.rodata) for each program, and
// LLVM folds the offsets into the loads.
struct unwind_layout {
    u64 vma_start, vma_end, vma_flags, vma_pgoff, vma_file;
    u64 file_inode, inode_number, inode_super_block, super_block_device;
};
extern const struct unwind_layout dtx_unwind_layout;

// The x86-64 struct pt_regs members the walk starts from.
struct user_regs {
    u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip, cs, flags,
        sp, ss;
};

// A mapping holding code, as the walk uses it.
struct unwind_mapping {
    u64 start, end, flags, file_start; // file_start: the file offset at `start`
    u64 inode, device;                 // inode 0: no file
    u64 seen;                          // when bpf_find_vma last gave it (bpf_ktime_get_ns)
    u64 used;                          // when a walk last went through it
};

// The mappings a thread's stacks went through lately, in its task storage
// (the map `dtx_unwind_mappings`): bpf_find_vma, which the walk would call
// for each module, works once per program run where interrupts are off (in
// profile-N's), as the mm lock it takes is then let go later, by an
// irq_work; the cache gives the walk the others. An entry is used as it is
// for DTX_RT_MAPPING_FRESH ns, then checked again (a mapping that went with
// munmap is then forgotten), and used as it is where it cannot be checked.
// A new mapping takes the place of the one least recently used, so that
// those every stack goes through (the executable's, the C library's) stay
// while a library loaded and unloaded in a loop comes and goes.
#define DTX_RT_MAPPINGS 16
#define DTX_RT_MAPPING_FRESH 1000000000ULL
#define DTX_RT_EBUSY 16
struct recent_mappings {
    struct unwind_mapping recent[DTX_RT_MAPPINGS];
};
_Static_assert(sizeof(struct recent_mappings) == 16 * 8 * 8, "codegen::kRecentMappingsSize");

// A file mapping the walk found, told to user space once per process, start
// and file (trace::MappingRecord): the consumer then names the addresses in
// it from that file even after the process unmapped it or exited, which the
// process's maps read later would not tell. The map `dtx_unwind_announced`
// (an LRU hash of struct announced_mapping) holds what was told.
struct announced_mapping {
    u32 pid, unused;
    u64 start, inode;
};

// The program's maps, which the code generator defines with these names.
extern char dtx_unwind_rows[], dtx_unwind_files[], dtx_unwind_mappings[], dtx_unwind_announced[],
    dtx_output[];
static void *(*bpf_task_storage_get)(void *map, void *task, void *value, u64 flags) = (void *)156;
#define BPF_LOCAL_STORAGE_GET_F_CREATE 1

// The walk, in the memory the caller gives dtx_rt_unwind (scratch): the
// verifier does not follow what memory holds as it follows the stack, so
// that the states at the start of each step are the same and the loop's
// verification converges at once.
// How the walk came to pc: WALK_EXACT, pc is the instruction itself (the
// first frame, a signal's), not a return address; WALK_FROM_CFI, a table's
// row gave it (or it is the first): it is code, not a guess.
#define WALK_EXACT 1
#define WALK_FROM_CFI 2
struct unwind_walk {
    u64 room; // frame's length
    u64 pc, sp, fp;
    u64 how;   // WALK_EXACT | WALK_FROM_CFI
    u64 depth; // frames written, the truncation mark aside
    struct unwind_mapping mapping; // of pc, once found
    u64 first_row, rows_in_table;  // of the mapping's file; rows_in_table 0: no table
    u64 frame[DTX_RT_USTACK_FRAMES];
};

_Static_assert(sizeof(struct unwind_walk) == 16 * 8 + DTX_RT_USTACK_FRAMES * 8,
               "codegen::kUnwindWalkSize");

struct unwind_loop {
    struct unwind_walk *walk;
};

#define FIELD(pointer, offset, type) (*(type *)((char *)(pointer) + (offset)))

CALLBACK long dtx_rt_unwind_mapping(void *task, void *vma, struct unwind_mapping *mapping) {
    (void)task;
    const struct unwind_layout *o = &dtx_unwind_layout;
    mapping->start = FIELD(vma, o->vma_start, u64);
    mapping->end = FIELD(vma, o->vma_end, u64);
    mapping->flags = FIELD(vma, o->vma_flags, u64);
    mapping->file_start = FIELD(vma, o->vma_pgoff, u64) * DTX_RT_PAGE_SIZE;
    mapping->inode = 0;
    mapping->device = 0;
    void *file = FIELD(vma, o->vma_file, void *);
    if (!file)
        return 0;
    void *inode = FIELD(file, o->file_inode, void *);
    if (!inode)
        return 0;
    mapping->inode = FIELD(inode, o->inode_number, u64);
    void *super_block = FIELD(inode, o->inode_super_block, void *);
    if (super_block)
        mapping->device = FIELD(super_block, o->super_block_device, u32);
    return 0;
}

// Tells user space of the file mapping `m` of the current process, once.
INLINE void announce_mapping(const struct unwind_mapping *m, u32 pid) {
    struct announced_mapping key = {pid, 0, m->start, m->inode};
    u64 end = m->end;
    if (bpf_map_update_elem(dtx_unwind_announced, &key, &end, BPF_NOEXIST) != 0)
        return;
    struct {
        u32 epid;
        u16 cpu, speculation;
        u32 pid, unused;
        u64 start, end, file_start, inode, device;
    } record = {DTX_RT_MAPPING_RECORD_EPID,
                (u16)bpf_get_smp_processor_id(),
                0,
                pid,
                0,
                m->start,
                m->end,
                m->file_start,
                m->inode,
                m->device};
    if (bpf_ringbuf_output(dtx_output, &record, sizeof(record), 0) != 0)
        bpf_map_delete_elem(dtx_unwind_announced, &key);
}

// The mapping holding pc into walk->mapping: 1 when there is one and it
// holds code, 0 when there is none or it does not, -1 when it cannot be
// known now (the lookup is busy and the thread's cache does not have it).
INLINE long find_mapping(struct unwind_walk *walk, u64 pc) {
    struct unwind_mapping *m = &walk->mapping;
    void *task = bpf_get_current_task_btf();
    struct recent_mappings *recent =
        bpf_task_storage_get(dtx_unwind_mappings, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
    struct unwind_mapping *cached = 0, *oldest = 0;
    u64 now = bpf_ktime_get_ns();
    if (recent)
        for (int i = 0; i < DTX_RT_MAPPINGS; i++) {
            struct unwind_mapping *entry = &recent->recent[i];
            if (pc >= entry->start && pc < entry->end) {
                cached = entry;
                break;
            }
            if (!oldest || entry->used < oldest->used)
                oldest = entry;
        }
    if (cached) {
        cached->used = now;
        if (now - cached->seen < DTX_RT_MAPPING_FRESH) {
            *m = *cached;
            return (m->flags & DTX_RT_VM_EXEC) != 0;
        }
    }
    struct unwind_mapping mapping = {0}; // bpf_find_vma's callback writes to the stack only
    long looked_up = bpf_find_vma(task, pc, dtx_rt_unwind_mapping, &mapping, 0);
    if (looked_up == -DTX_RT_EBUSY) {
        if (!cached)
            return -1;
        *m = *cached;
        return (m->flags & DTX_RT_VM_EXEC) != 0;
    }
    if (looked_up != 0)
        return 0;
    mapping.seen = now;
    mapping.used = now;
    *m = mapping;
    if (!cached)
        cached = oldest;
    if (cached)
        *cached = *m;
    if (m->inode && (m->flags & DTX_RT_VM_EXEC))
        announce_mapping(m, (u32)(bpf_get_current_pid_tgid() >> 32));
    return (m->flags & DTX_RT_VM_EXEC) != 0;
}

// The table of the mapping's file: asks user space for it the first time
// the file is seen (a request that does not reach it is asked again).
INLINE void find_table(struct unwind_walk *walk) {
    struct unwind_mapping *m = &walk->mapping;
    walk->first_row = 0;
    walk->rows_in_table = 0;
    if (!m->inode)
        return;
    struct unwind_file_key key = {m->inode, m->device};
    struct unwind_file *file = bpf_map_lookup_elem(dtx_unwind_files, &key);
    if (file) {
        if (file->state == FILE_TABLE) {
            walk->first_row = file->first_row;
            walk->rows_in_table = file->rows;
        }
        return;
    }
    struct unwind_file asked = {0, 0, FILE_ASKED, 0};
    if (bpf_map_update_elem(dtx_unwind_files, &key, &asked, BPF_NOEXIST) != 0)
        return;
    struct {
        u32 epid;
        u16 cpu, speculation;
        u32 pid, unused;
        u64 start, end, inode, device;
    } request = {DTX_RT_UNWIND_REQUEST_EPID,
                 (u16)bpf_get_smp_processor_id(),
                 0,
                 (u32)(bpf_get_current_pid_tgid() >> 32),
                 0,
                 m->start,
                 m->end,
                 m->inode,
                 m->device};
    if (bpf_ringbuf_output(dtx_output, &request, sizeof(request), BPF_RB_FORCE_WAKEUP) != 0)
        bpf_map_delete_elem(dtx_unwind_files, &key);
}

// The row covering `offset` in the mapping's table, or null: a binary
// search in a loop of its own (a bpf_loop callback would cost a call and a return each
// step, which kernels that mitigate returns make slow), whose two sides
// leave the same state, so that the verifier merges them at each step.
#define DTX_RT_ROW_SEARCH_STEPS 32
INLINE struct unwind_row *find_row(struct unwind_walk *walk, u64 offset) {
    u32 first = (u32)walk->first_row;
    struct unwind_row *row = bpf_map_lookup_elem(dtx_unwind_rows, &first);
    if (!row || row->offset > offset)
        return 0;
    u64 low = walk->first_row, high = walk->first_row + walk->rows_in_table;
    for (int step = 0; step < DTX_RT_ROW_SEARCH_STEPS; step++) {
        if (low + 1 >= high)
            break;
        u32 middle = (u32)((low + high) / 2);
        struct unwind_row *at = bpf_map_lookup_elem(dtx_unwind_rows, &middle);
        if (!at || at->offset > offset)
            high = middle;
        else
            low = middle;
    }
    u32 found = (u32)low;
    return bpf_map_lookup_elem(dtx_unwind_rows, &found);
}

INLINE u64 read_user_word(u64 address, long *failed) {
    u64 value = 0;
    if (bpf_probe_read_user(&value, sizeof(value), (const void *)address) != 0)
        *failed = 1;
    return value;
}

// The caller's registers by the frame-pointer chain: 1 when it has them,
// 0 at its end, -1 when the chain cannot be followed.
INLINE long frame_pointer_step(struct unwind_walk *walk) {
    u64 fp = walk->fp;
    if (fp == 0)
        return 0;
    if (fp < walk->sp || (fp & 7))
        return -1;
    u64 saved[2];
    if (bpf_probe_read_user(saved, sizeof(saved), (const void *)fp) != 0)
        return -1;
    walk->fp = saved[0];
    walk->pc = saved[1];
    walk->sp = fp + 16;
    walk->how = 0;
    return saved[1] != 0;
}

// The caller's registers by the row: as frame_pointer_step.
INLINE long row_step(struct unwind_walk *walk, const struct unwind_row *row) {
    u64 sp = walk->sp, fp = walk->fp, cfa;
    long failed = 0;
    switch (row->cfa_rule) {
    case CFA_SP:
        cfa = sp + row->cfa_offset;
        break;
    case CFA_FP:
        cfa = fp + row->cfa_offset;
        break;
    case CFA_PLT:
        cfa = sp + row->cfa_offset + ((walk->pc & 15) >= (u64)(row->flags >> 4) ? 8 : 0);
        break;
    case CFA_DEREF_SP:
        cfa = read_user_word(sp + row->cfa_offset, &failed);
        break;
    default:
        return frame_pointer_step(walk);
    }
    u64 ra;
    const int adjacent =
        row->ra_rule == RA_CFA && row->fp_rule == FP_CFA && row->fp_offset + 8 == row->ra_offset;
    if (adjacent) {
        // The usual frame of code with a frame pointer: both in one read.
        u64 saved[2];
        if (bpf_probe_read_user(saved, sizeof(saved), (const void *)(cfa + row->fp_offset)) != 0)
            return -1;
        fp = saved[0];
        ra = saved[1];
    } else if (row->ra_rule == RA_CFA)
        ra = read_user_word(cfa + row->ra_offset, &failed);
    else if (row->ra_rule == RA_SP)
        ra = read_user_word(sp + row->ra_offset, &failed);
    else
        return 0; // the outermost frame
    if (row->fp_rule == FP_CFA && !adjacent)
        fp = read_user_word(cfa + row->fp_offset, &failed);
    else if (row->fp_rule == FP_SP)
        fp = read_user_word(sp + row->fp_offset, &failed);
    else if (row->fp_rule == FP_UNKNOWN)
        fp = 0;
    if (failed)
        return -1;
    // The stack is walked towards its base, except into a signal's
    // (which may be on another stack).
    if (cfa <= sp && !(row->flags & UNWIND_SIGNAL_FRAME))
        return -1;
    walk->pc = ra;
    walk->sp = cfa;
    walk->fp = fp;
    walk->how = WALK_FROM_CFI | (row->flags & UNWIND_SIGNAL_FRAME ? WALK_EXACT : 0);
    return ra != 0;
}

CALLBACK long dtx_rt_unwind_step(u32 index, struct unwind_loop *loop) {
    struct unwind_walk *walk = loop->walk;
    u64 i = unlinked(index);
    if (i >= walk->room || i >= DTX_RT_USTACK_FRAMES)
        return 1;
    u64 pc = walk->pc;
    struct unwind_mapping *m = &walk->mapping;
    if (pc < m->start || pc >= m->end) {
        long found = find_mapping(walk, pc);
        if (found <= 0) {
            m->start = m->end = 0;
            // Not code: what led here was not a frame. Code of a mapping
            // not known now ends the walk after it when its table gave it.
            u64 kept = i == 0 || (found < 0 && (walk->how & WALK_FROM_CFI));
            walk->frame[i] = kept ? pc : DTX_RT_USTACK_TRUNCATED;
            if (kept) {
                walk->depth = i + 1;
                u64 next = i + 1;
                barrier_var(next);
                if (found < 0 && next < walk->room && next < DTX_RT_USTACK_FRAMES)
                    walk->frame[next] = DTX_RT_USTACK_TRUNCATED;
            }
            return 1;
        }
        find_table(walk);
    }
    walk->frame[i] = pc;
    walk->depth = i + 1;
    if (!m->inode)
        return 1;
    long step;
    if (walk->rows_in_table) {
        u64 offset = pc - m->start + m->file_start - (walk->how & WALK_EXACT ? 0 : 1);
        struct unwind_row *row = find_row(walk, offset);
        step = row ? row_step(walk, row) : frame_pointer_step(walk);
    } else {
        step = frame_pointer_step(walk);
    }
    u64 next = i + 1;
    barrier_var(next);
    if (step < 0 && next < walk->room && next < DTX_RT_USTACK_FRAMES)
        walk->frame[next] = DTX_RT_USTACK_TRUNCATED;
    return step <= 0;
}

// The current thread's user stack into walk->frame[0 .. room) (room at
// most DTX_RT_USTACK_FRAMES; the caller zeroes them): program counters from
// the innermost, DTX_RT_USTACK_TRUNCATED last where it could not be
// followed further. Returns how many frames it found (0 in a kernel
// thread). A global function, which the kernel verifies once in each
// program whatever its call sites: the walk is the largest thing it
// verifies.
GLOBAL s64 dtx_rt_unwind(struct unwind_walk *walk, u64 room) {
    if (!walk)
        return 0;
    struct user_regs *regs = bpf_task_pt_regs(bpf_get_current_task_btf());
    if (!regs || (regs->cs & 3) != 3)
        return 0;
    walk->room = room;
    walk->pc = regs->ip;
    walk->sp = regs->sp;
    walk->fp = regs->bp;
    walk->how = WALK_EXACT | WALK_FROM_CFI;
    walk->depth = 0;
    walk->mapping.start = walk->mapping.end = 0;
    struct unwind_loop loop = {walk};
    bpf_loop(DTX_RT_USTACK_FRAMES, dtx_rt_unwind_step, &loop, 0);
    return (s64)walk->depth;
}

// The run-time library of D's string functions: BPF C, compiled to LLVM
// bitcode at build time (codegen/CMakeLists.txt) and linked into each
// program's module by codegen/runtime_library.cpp, which gives every function
// its BTF through BpfDebugInfo::define_static_function (internal, noinline,
// in ".text"). Freestanding: no headers, the few BPF helpers are declared here.
//
// The contract with the code generator:
//  - Each dtx_rt_<name> is called as a static BPF subprogram. Pointer
//    arguments point into map values (the per-CPU scratch area, a string
//    table); `size` is the D strsize (at least 1), a constant at every call
//    site, and every string buffer holds `size` bytes. Inputs are NUL-terminated within `size`
//    bytes; an input that is not is read as if its last byte were NUL.
//    Outputs (`dst`) are always NUL-terminated within `size` bytes, and must
//    not overlap the inputs.
//  - An omitted optional integer argument is passed as DTX_RT_OMITTED
//    (INT64_MAX): substr's length, index's and rindex's start, lltostr's base.
//  - Functions that produce a string write it to `dst` and return 1, or
//    return 0 when D's result is NULL (nothing found, no more tokens, an
//    invalid argument); `dst` then holds the empty string.
//
// Writing code the kernel verifier accepts, cheaply: static subprograms are
// verified at each call site with the caller's registers, so `size` is a
// known constant and a loop `for (i = 0; i < size; i++)` is verified
// iteration by iteration, each with its exact i. That is cheap for one loop,
// but a value that leaves a loop at a data-dependent point (a string's
// length, the position of a match) is a different constant on each path out
// of it, and whatever depends on it afterwards is verified once per path; a
// branch on a byte inside a loop likewise doubles the paths for a while.
// So:
//  - strings are copied with bpf_probe_read_kernel_str, which is one verifier
//    step, and returns the length as a range rather than a constant;
//  - what follows a data-dependent loop exit is straight-line code (at most
//    a helper call), or a loop using the position as a range;
//  - searches whose result feeds more work run under bpf_loop, whose callback
//    is verified for an unknown index until its states converge; unlinked()
//    keeps bounds checks in the callback from narrowing the values the
//    states are compared on;
//  - byte arithmetic is branch-free where a branch would be per byte;
//  - barrier_var() keeps clang from folding a bounds check into a form the
//    verifier cannot connect to the access it guards.
// The test (test/unit/runtime_library_test.cpp) prints the instructions the
// verifier processes for each function.
//
// Runtime functions never call each other (a call would need a debug
// location); shared code is in always-inline helpers.

typedef unsigned char u8;
typedef unsigned int u32;
typedef __INT64_TYPE__ s64;
typedef __UINT64_TYPE__ u64;

#define DTX_RT_OMITTED 0x7fffffffffffffffLL

#define RUNTIME __attribute__((noinline))
#define INLINE static inline __attribute__((always_inline))
// bpf_loop callbacks: referenced by address, never called directly.
#define CALLBACK static __attribute__((noinline))

// Makes clang forget what it knows about `v`, so that a check on it is
// emitted as written, on the register later used for the access.
#define barrier_var(v) asm volatile("" : "+r"(v))

// v, as a value the verifier does not tie to the register it came from.
// After `r = base; r += constant`, or a load of a spilled value, it does, and
// a bounds check narrowing r narrows base (or the spilled value) too: a loop
// over offsets from base would leave base with a different range on every
// path out of it. An AND with an all-ones mask clang cannot see through
// breaks the tie.
INLINE u64 unlinked(u64 v) {
    u64 all = ~(u64)0;
    barrier_var(all);
    return v & all;
}

static long (*bpf_probe_read_kernel_str)(void *dst, u32 size, const void *src) = (void *)115;
static long (*bpf_loop)(u32 iterations, void *callback, void *context, u64 flags) = (void *)181;

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

// Copies the string starting at s[from] into dst. `from` may be a range:
// dst's offset is fixed, so one helper call copies it, reading no further
// than s's buffer.
INLINE void copy_suffix(char *dst, const char *s, u64 from, u64 size) {
    barrier_var(from);
    if (from >= size) {
        dst[0] = 0;
        return;
    }
    bpf_probe_read_kernel_str(dst, (u32)(size - from), s + from);
}

// Copies s[first..last] (inclusive) into dst, truncated to size - 1 bytes.
INLINE void copy_range(char *dst, const char *s, u64 first, u64 last, u64 size) {
    u64 k;
    for (k = 0; k < size - 1; k++) {
        u64 i = first + k;
        barrier_var(i);
        if (i > last || i >= size - 1)
            break;
        dst[k] = s[i];
    }
    dst[k] = 0;
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

// Whether `sub` occurs in s at position i.
INLINE int matches_at(const char *s, u64 i, const char *sub, u64 size) {
    for (u64 j = 0; j < size - 1; j++) {
        u8 wanted = (u8)sub[j];
        if (wanted == 0)
            return 1;
        u64 k = unlinked(i + j);
        if (k >= size - 1)
            return 0; // the end of s
        if ((u8)s[k] != wanted)
            return 0;
    }
    return 1;
}

// Whether position i (< size) is the end of s.
INLINE int at_end(const char *s, u64 i, u64 size) {
    return i >= size - 1 || s[i] == 0;
}

// ---- strlen, strcmp --------------------------------------------------------

// strlen(s): the number of bytes before the terminating NUL.
RUNTIME s64 dtx_rt_strlen(const char *s, u64 size) {
    u64 i;
    for (i = 0; i < size - 1; i++)
        if (s[i] == 0)
            break;
    return (s64)i;
}

// D's string comparison (==, <, ... on strings): negative, zero or positive
// as a is less than, equal to or greater than b, comparing bytes as unsigned.
RUNTIME s64 dtx_rt_strcmp(const char *a, const char *b, u64 size) {
    for (u64 i = 0; i < size - 1; i++) {
        u8 x = (u8)a[i];
        u8 y = (u8)b[i];
        if (x != y)
            return (s64)x - (s64)y;
        if (x == 0)
            break;
    }
    return 0;
}

// ---- strjoin, substr -------------------------------------------------------

// strjoin(a, b): a followed by b, truncated to size - 1 bytes.
RUNTIME s64 dtx_rt_strjoin(char *dst, const char *a, const char *b, u64 size) {
    u64 k = copy_string(dst, a, size);
    for (u64 j = 0; j < size; j++) {
        barrier_var(k);
        if (k >= size - 1)
            break;
        char c = b[j];
        if (c == 0) {
            dst[k] = 0;
            return 1;
        }
        dst[k] = c;
        k++;
    }
    dst[size - 1] = 0;
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

    // Copy `length` bytes from s[index] on, fewer if s ends first: a helper
    // call copying at most length bytes and the NUL, within s's buffer.
    u64 from = (u64)index;
    barrier_var(from);
    if (from >= size - 1)
        goto empty;
    u64 room = size - from;
    u64 count = (u64)length < room ? (u64)length + 1 : room;
    barrier_var(count);
    if (count > size) // never, but the verifier cannot tell
        count = size;
    bpf_probe_read_kernel_str(dst, (u32)count, s + from);
    return 1;

empty:
    dst[0] = 0;
    return 1;
}

// ---- index, rindex, strstr -------------------------------------------------

struct substring_search {
    const char *s;
    const char *sub;
    u64 size;
    s64 start;
    s64 found; // position of the match, or -1
};

// index(): tries position `index` of s; stops at the first match.
CALLBACK long dtx_rt_step_index(u32 index, void *context) {
    struct substring_search *search = context;
    u64 i = index;
    if (i >= search->size)
        return 1;
    if ((s64)i < (s64)unlinked((u64)search->start)) {
        // start lies past the end of s: only "" is found, at the end.
        if (at_end(search->s, i, search->size)) {
            search->found = search->sub[0] == 0 ? (s64)i : -1;
            return 1;
        }
        return 0;
    }
    if (matches_at(search->s, i, search->sub, search->size)) {
        search->found = (s64)i;
        return 1;
    }
    return at_end(search->s, i, search->size);
}

// rindex(): tries every position up to `start`; the last match wins.
CALLBACK long dtx_rt_step_rindex(u32 index, void *context) {
    struct substring_search *search = context;
    u64 i = index;
    if (i >= search->size || (s64)i > (s64)unlinked((u64)search->start))
        return 1;
    if (matches_at(search->s, i, search->sub, search->size))
        search->found = (s64)i;
    return at_end(search->s, i, search->size);
}

// The first position at or after `start` (>= 0) where sub occurs in s, or -1.
INLINE s64 find_first(const char *s, const char *sub, s64 start, u64 size) {
    struct substring_search search = {s, sub, size, start, -1};
    bpf_loop((u32)size, dtx_rt_step_index, &search, 0);
    return search.found;
}

// index(s, sub [, start]): the first position at or after `start` where sub
// occurs in s, or -1. A negative start is 0; a start past the end of s finds
// only "", at the end; an omitted start (DTX_RT_OMITTED) is 0.
RUNTIME s64 dtx_rt_index(const char *s, const char *sub, s64 start, u64 size) {
    if (start < 0 || start == DTX_RT_OMITTED)
        start = 0;
    return find_first(s, sub, start, size);
}

// rindex(s, sub [, start]): the last position at or before `start` where sub
// occurs in s, or -1. A negative start finds only "", at 0; an omitted start
// (DTX_RT_OMITTED) is the end of s. (Perl's semantics, as DTrace's.)
RUNTIME s64 dtx_rt_rindex(const char *s, const char *sub, s64 start, u64 size) {
    if (start < 0)
        return sub[0] == 0 ? 0 : -1;
    struct substring_search search = {s, sub, size, start, -1};
    bpf_loop((u32)size, dtx_rt_step_rindex, &search, 0);
    return search.found;
}

// strstr(s, sub): the suffix of s that starts with the first occurrence of
// sub; NULL (return 0) if there is none. strstr(s, "") is s.
RUNTIME s64 dtx_rt_strstr(char *dst, const char *s, const char *sub, u64 size) {
    s64 found = find_first(s, sub, 0, size);
    if (found < 0) {
        dst[0] = 0;
        return 0;
    }
    copy_suffix(dst, s, (u64)found, size);
    return 1;
}

// ---- strchr, strrchr -------------------------------------------------------

// strchr(s, c): the suffix of s from the first byte c on; NULL (return 0) if
// c does not occur. strchr(s, 0) is "".
RUNTIME s64 dtx_rt_strchr(char *dst, const char *s, s64 c, u64 size) {
    u8 wanted = (u8)c;
    dst[0] = 0;
    for (u64 i = 0; i < size - 1; i++) {
        u8 x = (u8)s[i];
        if (x == wanted) {
            // i is a constant on this path: one helper call copies the rest.
            bpf_probe_read_kernel_str(dst, (u32)(size - i), s + i);
            return 1;
        }
        if (x == 0)
            return 0;
    }
    // s fills its buffer: its last byte counts as its NUL.
    return wanted == 0;
}

struct character_search {
    const char *s;
    u64 size;
    u64 wanted;
    s64 last; // position of the last occurrence, or -1
};

CALLBACK long dtx_rt_step_strrchr(u32 index, void *context) {
    struct character_search *search = context;
    u64 i = index;
    if (i >= search->size)
        return 1;
    u8 x = at_end(search->s, i, search->size) ? 0 : (u8)search->s[i];
    if (x == search->wanted)
        search->last = (s64)i;
    return x == 0;
}

// strrchr(s, c): the suffix of s from the last byte c on; NULL (return 0) if
// c does not occur. strrchr(s, 0) is "".
RUNTIME s64 dtx_rt_strrchr(char *dst, const char *s, s64 c, u64 size) {
    struct character_search search = {s, size, (u8)c, -1};
    bpf_loop((u32)size, dtx_rt_step_strrchr, &search, 0);
    if (search.last < 0) {
        dst[0] = 0;
        return 0;
    }
    copy_suffix(dst, s, (u64)search.last, size);
    return 1;
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
        set_single_character(dst, s[0] == 0 ? '.' : '/', size);
        return 1;
    }
    copy_range(dst, s, (u64)scan.last_start, (u64)scan.last_end, size);
    return 1;
}

// dirname(s): everything before the last component, without trailing
// slashes: "/a/b/" -> "/a", "/a" -> "/", "a" and "a/" -> ".". A path of
// slashes only is "/"; the empty path is ".".
RUNTIME s64 dtx_rt_dirname(char *dst, const char *s, u64 size) {
    struct path_scan scan;
    scan_path(&scan, s, size);
    if (scan.last_end < 0) {
        set_single_character(dst, s[0] == 0 ? '.' : '/', size);
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
    copy_range(dst, s, 0, (u64)scan.previous_end, size);
    return 1;
}

// ---- lltostr ---------------------------------------------------------------

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
    u64 magnitude = radix == 10 && value < 0 ? 0 - (u64)value : (u64)value;

    // The prefix is chosen before the digits are known: the loop below
    // leaves at a different position on every path, and whatever follows it
    // is verified once per position, so that part has no branches.
    u64 prefix = 0;  // its length
    char last = '-'; // its last character; the one before it is '0'
    if (radix == 16) {
        prefix = 2;
        last = 'x';
    } else if (radix == 8 && value != 0) {
        prefix = 1;
        last = '0';
    } else if (radix == 10 && value < 0) {
        prefix = 1;
    }

    // Built backwards from the NUL: the digits (64 at most, in binary), then
    // the prefix in the two bytes before them.
    char text[2 + 64 + 1];
    u64 pos = sizeof(text) - 1;
    text[pos] = 0;
    do {
        u64 digit = magnitude % radix;
        // 1 for a digit above 9, by the borrow into bit 63; no branch.
        u64 letter = (9 - digit) >> 63;
        barrier_var(letter);
        text[--pos] = (char)('0' + digit + letter * ('a' - '0' - 10));
        magnitude /= radix;
    } while (magnitude != 0 && pos > 2);
    text[pos - 1] = last;
    text[pos - 2] = '0';
    // One helper call copies the text: its source may be any address.
    copy_string(dst, text + pos - prefix, size);
    return 1;
}

// ---- toupper, tolower ------------------------------------------------------

// Copies s to dst, flipping the case bit (0x20) of the letters from `first`
// to first + 25. Without a branch: each branch on a byte would be another
// path for the verifier to follow through the next iterations.
INLINE s64 convert_case(char *dst, const char *s, u64 size, u8 first) {
    u64 k;
    for (k = 0; k < size - 1; k++) {
        u8 c = (u8)s[k];
        // 1 if c - first < 26, by the borrow into bit 63.
        u64 borrow = (u64)(u8)(c - first) - 26;
        barrier_var(borrow);
        dst[k] = (char)(c ^ ((borrow >> 63) << 5));
        if (c == 0)
            return 1;
    }
    dst[k] = 0;
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
// as a bitmap: map memory takes the variable offsets a lookup needs, which
// the stack would not without branches the verifier must follow one by one.
struct strtok_state {
    u64 position; // where the next token search starts in text
    u64 delimiters[4];
    char text[];
};

INLINE int is_delimiter(volatile struct strtok_state *state, u8 c) {
    return (state->delimiters[c >> 6] >> (c & 63)) & 1;
}

// strtok(s, delimiters): the next token of s, a run of bytes not in
// delimiters; with s NULL, the next token of the string of the previous call.
// NULL (return 0) when no token is left. As in DTrace (unlike C), the search
// resumes at the delimiter that ended the previous token, so a call with
// other delimiters may find a token that starts with it.
//
// Positions go through the state in memory (volatile) between the phases,
// so the verifier sees each phase's result as one unknown value rather than
// one state per position.
RUNTIME s64 dtx_rt_strtok(char *dst, const char *s, const char *delimiters, char *state_buffer,
                          u64 size) {
    volatile struct strtok_state *state = (volatile struct strtok_state *)state_buffer;
    char *text = state_buffer + sizeof(struct strtok_state);
    if (s) {
        copy_string(text, s, size);
        state->position = 0;
    }

    for (int word = 0; word < 4; word++)
        state->delimiters[word] = 0;
    for (u64 k = 0; k < size - 1; k++) {
        u8 c = (u8)delimiters[k];
        if (c == 0)
            break;
        state->delimiters[c >> 6] |= (u64)1 << (c & 63);
    }

    // Skip the delimiters before the token.
    u64 start = state->position;
    for (u64 k = 0; k < size; k++) {
        u64 i = start + k;
        barrier_var(i);
        if (i >= size - 1) {
            state->position = size - 1;
            goto none;
        }
        u8 c = (u8)text[i];
        if (c == 0) {
            state->position = i;
            goto none;
        }
        if (!is_delimiter(state, c)) {
            state->position = i;
            break;
        }
    }

    // Copy the token.
    start = state->position;
    u64 k;
    for (k = 0; k < size - 1; k++) {
        u64 i = start + k;
        barrier_var(i);
        if (i >= size - 1)
            break;
        u8 c = (u8)text[i];
        if (c == 0 || is_delimiter(state, c))
            break;
        dst[k] = (char)c;
    }
    dst[k] = 0;
    state->position = start + k;
    return 1;

none:
    dst[0] = 0;
    return 0;
}

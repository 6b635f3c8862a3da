// D's string functions (codegen/functions/strings.cpp): strlen, strcmp,
// strjoin, substr, index, rindex, strstr, strchr, strrchr, basename,
// dirname, lltostr, toupper, tolower, strtok, and strtoll and cleanpath,
// which read one. dtx_runtime.h gives the contract they keep with the code
// generator, and how they are written for the verifier.

#include "dtx_runtime.h"

// ---- Helpers of the string functions ----------------------------------

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
// does not follow it from pass to pass: state[0] the position in s, state[1]
// the length of dst so far, state[2] where in dst the current component
// starts, state[3] where the component before it starts (back_scan()).
struct path_cleaning {
    char *dst;
    const char *s;
    volatile u64 *state;
    u64 size;
    u64 absolute; // s starts with '/': dst[0] is that '/'
};

// Finds the start of the component before the current one: just after the
// last '/' before the separator at state[2] - 1, or 0.
CALLBACK long dtx_rt_path_back_scan(u32 index, void *context) {
    struct path_cleaning *cleaning = context;
    u64 base = unlinked(cleaning->state[2]);
    u64 k = index;
    if (base < 2 || k > base - 2 || base >= cleaning->size) {
        cleaning->state[3] = 0;
        return 1;
    }
    u64 at = base - 2 - k;
    barrier_var(at);
    if (at >= cleaning->size)
        return 1;
    if (cleaning->dst[at] == '/') {
        cleaning->state[3] = at + 1;
        return 1;
    }
    return 0;
}

// The component dst[base, j) has ended: the new length of dst. "" and "."
// go; ".." takes the component before it away, unless that is a ".." too;
// with none before it, it goes from an absolute path and stays in a relative
// one.
INLINE u64 end_component(struct path_cleaning *cleaning, u64 base, u64 j) {
    char *dst = cleaning->dst;
    u64 length = j - base;
    u8 first = (u8)dst[base];
    u8 second = (u8)dst[base + 1];
    if (length == 0 || (length == 1 && first == '.'))
        return base;
    if (length != 2 || first != '.' || second != '.')
        return j;
    if (base <= cleaning->absolute)
        return cleaning->absolute ? base : j;
    bpf_loop((u32)cleaning->size, dtx_rt_path_back_scan, cleaning, 0);
    u64 before = unlinked(cleaning->state[3]);
    u64 limit = cleaning->size - 2;
    barrier_var(limit);
    barrier_var(before);
    if (before >= limit)
        return j;
    if (before + 3 == base && dst[before] == '.' && dst[before + 1] == '.')
        return j;
    return before;
}

// One byte of s: kept in the current component, or the end of it.
CALLBACK long dtx_rt_step_clean_path(u32 index, void *context) {
    (void)index;
    struct path_cleaning *cleaning = context;
    volatile u64 *state = cleaning->state;
    u64 size = cleaning->size;
    u64 i = unlinked(state[0]);
    u64 j = unlinked(state[1]);
    u64 base = unlinked(state[2]);
    // Room for a separator and the NUL; each bound on the register the
    // accesses use.
    u64 room = size - 4;
    barrier_var(room);
    barrier_var(j);
    if (j >= room)
        return 1;
    barrier_var(base);
    if (base >= room || base > j)
        return 1;
    u8 c = byte_at(cleaning->s, i, size);
    state[0] = i + 1;
    if (c != '/' && c != 0) {
        cleaning->dst[j] = (char)c;
        state[1] = j + 1;
        return 0;
    }
    j = end_component(cleaning, base, j);
    barrier_var(j);
    if (j >= room)
        return 1;
    if (c == '/' && j > base) { // the component stays: its separator
        cleaning->dst[j] = '/';
        j++;
    }
    state[1] = j;
    state[2] = j;
    return c == 0;
}

// cleanpath(s), as dtrace-utils has it: "//" and "/./" made "/", each ".."
// taking the component before it away ("/a/b/../c" -> "/a/c"); leading ".."
// stay in a relative path ("../a/../.." -> "../..") and go from an absolute
// one ("/../x" -> "/x"); a trailing '/' goes ("/a/" -> "/a"); a path that
// leaves nothing is "." ("a/.."), and "" and one-byte strings stay as they
// are. `state` is 32 bytes of map memory.
RUNTIME s64 dtx_rt_cleanpath(char *dst, const char *s, u64 *state, u64 size) {
    dst[0] = 0;
    if (size < 8)
        return 1;
    u8 first = byte_at(s, 0, size);
    if (first == 0)
        return 1;
    if (byte_at(s, 1, size) == 0) {
        dst[0] = (char)first;
        dst[1] = 0;
        return 1;
    }
    u64 absolute = first == '/';
    dst[0] = '/';
    state[0] = absolute;
    state[1] = absolute;
    state[2] = absolute;
    state[3] = 0;
    struct path_cleaning cleaning = {dst, s, state, size, absolute};
    bpf_loop((u32)size, dtx_rt_step_clean_path, &cleaning, 0);
    u64 j = unlinked(state[1]);
    barrier_var(j);
    if (j >= size)
        j = size - 1;
    if (j > 1 && dst[j - 1] == '/')
        j--;
    if (j == 0) {
        dst[0] = '.';
        j = 1;
    }
    dst[j] = 0;
    return 1;
}

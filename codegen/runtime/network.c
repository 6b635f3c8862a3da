// Network addresses as text (codegen/functions/network.cpp): inet_ntoa(),
// inet_ntoa6(), inet_ntop() and link_ntop().

#include "dtx_runtime.h"

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

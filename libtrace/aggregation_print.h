// Aggregations printed the way dtrace prints them without a format: by printa(@a),
// by printa() of several aggregations, and at exit for every aggregation not yet
// printed. The widths and histogram drawing follow Oracle's dtrace-utils
// (libdtrace dt_consume.c):
//   - a row is its key fields, then the value(s), then "\n";
//   - integer key fields print by size: " %3d" (1 byte, as unsigned), " %5d"
//     (2 bytes, as unsigned), " %8d" (4 bytes, signed), " %16lld" (8 bytes,
//     signed); string and symbol fields print as "  %-50s"; a stack prints "\n"
//     then each frame indented on its own line;
//   - count sum min max avg print " %16lld" (stddev " %16llu") of the value
//     divided by the normalization;
//   - under stackformat=folded, a row whose key holds a stack prints as one
//     line for flame-graph tools (flamegraph.pl, speedscope): the key's
//     fields joined by ';' in key order, a stack as its frames root first, an
//     empty stack as "[empty]", other fields as their text (numbers in
//     decimal, strings as they are; ';' and newlines in a frame become '_'),
//     then " " and each value unpadded; printa() and the exit dump then
//     print no blank line first;
//   - a histogram prints "\n", its header line, then one line per bucket from
//     one empty bucket below the lowest non-empty one to one above the highest:
//     the bucket label in 16 columns, a 40-column bar of '@' (two 20-column
//     half bars around a centre '|' when counts are both positive and negative),
//     and the count ("%-9lld", divided by the normalization; bars are not).
#pragma once

#include "libtrace/aggregation.h"

#include <functional>
#include <span>
#include <string>

namespace dtx::trace {

// Names one address of a Stack or Symbol key field ("vmlinux`vfs_read+0x12",
// "libc.so.6`malloc"); `field` says whose address it is (kind, pid).
using AddressNamer = std::function<std::string(const KeyField &field, uint64_t address)>;

// The stackformat option: how stacks print.
enum class StackFormat : uint8_t {
    Default, // a frame a line, indented by stackindent
    Folded,  // one line, root first, frames joined by ';'
};

struct AggregationPrintOptions {
    SortOptions sort;
    unsigned stack_indent = 14; // the stackindent option
    StackFormat stack_format = StackFormat::Default;
    AddressNamer name_address; // addresses print as 0x%llx without one
};

// A stack's frames, root first, joined by ';' ("[empty]" without frames).
std::string folded_stack(const KeyField &stack, const AggregationPrintOptions &options);

// A key field as a row shows it; under stackformat=folded a stack is "\n",
// its folded frames and "\n", as stack() and trace() print it.
std::string format_key_field(const KeyField &field, const AggregationPrintOptions &options);
std::string format_value(const AggregationFunction &function, std::span<const int64_t> data,
                         uint64_t normal = 1);

// printa(@a): "\n", then a row per key in sort order.
std::string format_printa(const AggregationSnapshot &aggregation,
                          const AggregationPrintOptions &options);
// printa(@a, @b, ...): "\n", then a row per key of any of them: the key, then each
// aggregation's value (zeros where it lacks the key).
std::string format_printa(std::span<const AggregationSnapshot *const> aggregations,
                          const AggregationPrintOptions &options);
// What dtrace prints at exit after its closing "\n" (which it writes whether or
// not aggregations are left): the rows of each aggregation, in the order given
// (the order they first appear in the program; reversed under aggsortrev), with
// nothing between aggregations and no names. Pass only the aggregations no
// printa() has printed.
std::string format_aggregations_at_exit(std::span<const AggregationSnapshot> aggregations,
                                        const AggregationPrintOptions &options);

} // namespace dtx::trace

// The record layout of a tracefs event, from its events/GROUP/EVENT/format file:
//
//   name: sched_process_exec
//   ID: 365
//   format:
//   	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
//   	...
//   	field:__data_loc char[] filename;	offset:8;	size:4;	signed:0;
//   	field:pid_t pid;	offset:12;	size:4;	signed:1;
//
//   print fmt: "filename=%s pid=%d ...", ...
//
// A BPF_PROG_TYPE_TRACEPOINT program's context is this record. The parser is
// pure (text in, layout out), so it runs on any kernel's format text.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

enum class TracepointFieldKind {
    Scalar,  // an integer or pointer held in the record: `pid_t pid`, `const char * filename`
    Array,   // a fixed array held in the record: `char comm[16]`, `u8 saddr[4]`
    DataLoc, // `__data_loc T[] name` (or `__data_loc cpumask_t name`, a __cpumask() bitmap):
             // a u32 whose low 16 bits are the data's offset in the record and high 16 bits
             // its length
    RelLoc,  // `__rel_loc T[] name`: the same, the offset counted from the end of this u32
};

struct TracepointField {
    std::string name;
    // The declared type without the name and array bounds: "pid_t", "const char *",
    // "char" for `char comm[16]` and for `__data_loc char[] filename`, "cpumask_t"
    // for `__data_loc cpumask_t cpumask`.
    std::string type;
    TracepointFieldKind kind = TracepointFieldKind::Scalar;
    uint32_t offset = 0;
    uint32_t size = 0; // bytes in the record (4 for __data_loc and __rel_loc)
    bool is_signed = false;
    bool is_pointer = false;  // Scalar: `type` ends in '*'
    uint32_t array_count = 0; // Array: elements ([] and sizes written as expressions: size /
                              // element size, or 0 when the element size is unknown)
};

struct TracepointFormat {
    std::string name;
    uint32_t id = 0;
    // The fields every event starts with (common_type, common_pid...).
    std::vector<TracepointField> common_fields;
    // The event's own fields, in record order: args[0], args[1]... of its probe.
    std::vector<TracepointField> fields;
};

// Parses a format file's text. An error says what is wrong and on which
// line ("line 6: no 'offset:' number in ...").
Result<TracepointFormat> parse_tracepoint_format(std::string_view text);

} // namespace dtx::trace

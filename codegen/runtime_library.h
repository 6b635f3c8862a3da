// The run-time library: D's string functions (and the announcement of the
// processes whose user addresses are recorded), written once in BPF C
// (codegen/runtime/*.c, whose comments give each one's semantics),
// compiled to LLVM bitcode at build time, embedded in dtx, and linked into
// each program's module with only the functions the module calls.
//
// The code generator
//   1. declares a function with runtime_function(module, "dtx_rt_strjoin")
//      and calls it like any static function (with a debug location);
//   2. once the module's IR is complete, and before BpfDebugInfo::finalize(),
//      links the library: link_runtime_library(module, debug_info).
//
// The functions, all returning int64_t; `size` is the D strsize, which must
// be a constant at the call site, and every string buffer holds `size` bytes
// (pointers into map values, e.g. the per-CPU scratch area):
//   dtx_rt_strlen(s, size)                       -> length
//   dtx_rt_strcmp(a, b, size)                    -> <0, 0, >0 (unsigned bytes)
//   dtx_rt_strjoin(dst, a, b, size)              -> 1
//   dtx_rt_substr(dst, s, index, length, size)   -> 1
//   dtx_rt_index(s, sub, start, size)            -> position or -1
//   dtx_rt_rindex(s, sub, start, size)           -> position or -1
//   dtx_rt_strchr(dst, s, c, size)               -> 1, or 0 for NULL
//   dtx_rt_strrchr(dst, s, c, size)              -> 1, or 0 for NULL
//   dtx_rt_strstr(dst, s, sub, size)             -> 1, or 0 for NULL
//   dtx_rt_basename(dst, s, size)                -> 1
//   dtx_rt_dirname(dst, s, size)                 -> 1
//   dtx_rt_lltostr(dst, value, base, size)       -> 1, or 0 for an invalid base
//   dtx_rt_toupper(dst, s, size)                 -> 1
//   dtx_rt_tolower(dst, s, size)                 -> 1
//   dtx_rt_strtok(dst, s_or_null, delimiters, state, size)
//                                                -> 1, or 0 for NULL (no token),
//                                                   or -1: NULL with no string
//                                                   to continue
//   dtx_rt_chill(nanoseconds)                    -> 1, after spinning that long
//   dtx_rt_dentry_path(dst, request, offsets, size)
//                                                -> 1: d_path() of a dentry;
//                      `request` holds u64 dentry, mount, root dentry, root
//                      mount, then 3 * size bytes of room; `offsets` is a
//                      table of kRuntimePathOffsets u64 (files.c's
//                      struct path_offsets)
//   dtx_rt_process_args(dst, start, end, size)   -> the number of arguments:
//                      the current process's [start, end) (its mm's
//                      arg_start, arg_end) as one line, NULs made spaces
//   dtx_rt_announce_process(processes_map, ring_buffer, epid)
//                                                -> 1 when it wrote a
//                                                   trace::ProcessRecord
//   dtx_rt_unwind(walk, room)                    -> the frames found: the
//                      current user stack, walked from the files' CFI tables
//                      (trace::UnwindRow), into kUnwindWalkSize bytes of
//                      `walk`: the frames at kUnwindFramesOffset, at most
//                      `room` (at most kUnwindFrames; zeroed before), with
//                      trace::kUserStackTruncated after the last where it
//                      went on. A global function (verified once per
//                      program). It reads the module's `dtx_unwind_layout`
//                      and maps `dtx_unwind_rows`, `dtx_unwind_files`,
//                      `dtx_output`, the task storage map
//                      `dtx_unwind_mappings` of kRecentMappingsSize bytes
//                      (struct recent_mappings) and the LRU hash
//                      `dtx_unwind_announced` (trace::MappingRecord)
//   dtx_rt_strtoll(s, base, number, size)       -> the integer at the start
//                      of s, as C's strtoll() reads it (base 0 or 2 to 36;
//                      omitted: 10); `number` is 16 bytes of scratch
//   dtx_rt_cleanpath(dst, s, progress, size)     -> 1: s without "//", "/./"
//                      and "dir/..", as DTrace cleans it; `progress` is 24
//                      bytes of scratch
//   dtx_rt_inet_ntop(dst, work, form, size)      -> 1: the IPv4 (form 0) or
//                      IPv6 address (form 1: as inet_ntop, 2: as inet_ntoa6)
//                      in the first 4 or 16 bytes of `work`, as text;
//                      `work` is 88 bytes of scratch
//   dtx_rt_link_ntop(dst, work, length, size)    -> 1: the first `length`
//                      (at most 20) bytes of `work` in hex between ':'
// A function returning 0 for NULL leaves the empty string in dst. `dst` must
// not overlap the inputs. Omitted optional arguments are passed as
// kRuntimeOmittedArgument. strtok's `state` is runtime_strtok_state_size(size)
// bytes, zeroed before its first use, kept by the caller between calls.
//
// The library needs bpf_loop (kernel 5.17) and bpf_probe_read_kernel_str
// (5.5), which every tracing program type may call. The verifier checks each
// call site on its own, so every function is written to cost it little and
// the same whatever the data (codegen/runtime/dtx_runtime.h says how);
// test/unit/runtime_library_test.cpp prints what each function costs it (a
// few hundred instructions a call site, lltostr with a computed base about
// 1,700) and loads a program with 750 call sites (about 215,000 of the
// 1,000,000 instructions the verifier processes at most).
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace dtx::codegen {

class BpfDebugInfo;

// What the code passes for an omitted optional argument: substr's length,
// index's and rindex's start, lltostr's base.
inline constexpr int64_t kRuntimeOmittedArgument = INT64_MAX;

// The words of dtx_rt_dentry_path's table of kernel offsets.
inline constexpr size_t kRuntimePathOffsets = 6;

// dtx_rt_unwind's struct recent_mappings: 16 mappings of 8 words.
inline constexpr uint32_t kRecentMappingsSize = 16 * 8 * 8;
// dtx_rt_unwind's struct announced_mapping, the key of `dtx_unwind_announced`
// (whose value is a u64), and how many it holds.
inline constexpr uint32_t kAnnouncedMappingKeySize = 24;
inline constexpr uint32_t kAnnouncedMappings = 16384;
// dtx_rt_unwind's struct unwind_walk: 16 words of the walk's state, then
// the frames, at most kUnwindFrames.
inline constexpr uint32_t kUnwindFrames = 127;
inline constexpr uint32_t kUnwindFramesOffset = 16 * 8;
// Where in it the walk leaves the frames it found (its room is the first word).
inline constexpr uint32_t kUnwindDepthOffset = 5 * 8;
inline constexpr uint32_t kUnwindWalkSize = kUnwindFramesOffset + kUnwindFrames * 8;

// The size of strtok's state for strings of `strsize` bytes: whether it holds
// a string (its first word, which a new firing zeroes), the position reached,
// the delimiter set, then a copy of the string being split.
constexpr uint64_t runtime_strtok_state_size(uint64_t strsize) {
    return 48 + strsize;
}

// Links the run-time functions that `module` declares (by name, "dtx_rt_...",
// e.g. through runtime_function()) into it, and gives each function linked
// in its BTF through debug_info.define_static_function(). Call it after the
// last call to a run-time function is generated, and before
// debug_info.finalize(); calling it again links what was declared since.
// The linker replaces each declaration with a new function: pointers to the
// declarations are invalid afterwards (look the functions up by name).
Status link_runtime_library(llvm::Module &module, BpfDebugInfo &debug_info);

// The declaration (or, once linked, the definition) of run-time function
// `name` in `module`, with the library's signature; null if the library has
// no such function.
llvm::Function *runtime_function(llvm::Module &module, std::string_view name);

} // namespace dtx::codegen

// What the code generator tells the runtime about a compiled program: how each
// clause's records are laid out and what their actions do, which aggregations
// exist and how their keys and values are stored, and which maps hold what.
// The consumer decodes ring-buffer records and aggregation maps with these
// descriptions only; it never looks at the D program.
//
// A record in the ring buffer starts with a RecordHeader. `epid` (enabled probe
// ID) names the (clause, probe) pair that produced it; epid 0 is a fault record
// (FaultRecord) written when a clause aborted, and kProcessRecordEpid a
// ProcessRecord.
#pragma once

#include "libtrace/aggregation.h"
#include "libtrace/printf_format.h"
#include "parser/source.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtx::trace {

struct RecordHeader {
    uint32_t epid;
    uint16_t cpu;
    // 0, or the speculation (speculate()) the record belongs to: the consumer
    // keeps it until that speculation is committed or discarded.
    uint16_t speculation;
};

// DTrace's fault codes (DTRACEFLT_*), as ERROR's arg4.
enum class FaultKind : uint64_t {
    Unknown = 0,
    BadAddress = 1,
    BadAlignment = 2,
    IllegalOperation = 3,
    DivideByZero = 4,
    NoScratch = 5,
    KernelPrivilege = 6,
    UserPrivilege = 7,
    TupleOverflow = 8,
    BadStack = 9,
    BadIndex = 10, // an array index out of bounds; the address is the index
};
// "divide-by-zero", "invalid address (0x10)" as dtrace words them.
std::string fault_description(FaultKind kind, uint64_t address);

struct FaultRecord {
    RecordHeader header; // epid 0
    uint32_t faulting_epid;
    uint32_t action; // 1-based statement index within the clause
    uint64_t kind;   // FaultKind
    uint64_t address;
    // 1-based index in the clause's fault_sites of the expression that
    // faulted; 0: not known (the clause's location stands for it).
    uint32_t site;
    uint32_t reserved;
};

// A process whose user addresses (ustack(), usym() ...) a clause recorded for
// the first time, written at once (waking the consumer) so that the consumer
// reads its modules while it lives: its addresses are named when printed,
// maybe after it exited. Programs that record user addresses keep the pids
// announced in an LRU hash map (`processes_map`), so a process is announced
// again only when the map has forgotten it.
inline constexpr uint32_t kProcessRecordEpid = UINT32_MAX;
struct ProcessRecord {
    RecordHeader header; // epid kProcessRecordEpid
    uint32_t pid;
    uint32_t unused;
};

// User stacks are walked in BPF from tables of the files' call-frame
// information (libtrace/unwind_table.h's UnwindRow, in the array map
// `unwind_rows_map`), found by file in the hash map `unwind_files_map`. The
// program asks once for the table of a file it meets without one, with an
// UnwindRequest naming a process that maps it and the mapping, and walks
// that file's frames by frame pointers until the table is loaded.
inline constexpr uint32_t kUnwindRequestEpid = UINT32_MAX - 1;
struct UnwindRequest {
    RecordHeader header; // epid kUnwindRequestEpid
    uint32_t pid;
    uint32_t unused;
    uint64_t start, end; // the mapping, as /proc/PID/map_files names it
    uint64_t inode;
    uint64_t device; // the kernel's dev_t: major << 20 | minor
};

// A file mapping a user stack went through, told once per process, start
// and file, when the walk first finds it: addresses in it are named from
// that file even after the process unmapped it or exited.
inline constexpr uint32_t kMappingRecordEpid = UINT32_MAX - 2;

// A process whose user stacks the program records had its dynamic loader
// map or unmap a library (dlopen, dlclose: the loader calls _dl_debug_state
// then, where the program `loader_watch_program` is a uprobe): the
// consumer reads its mappings again and builds the new files' tables, so
// that the library's frames unwind from its first sample. A ProcessRecord
// with this epid.
inline constexpr uint32_t kLoaderRecordEpid = UINT32_MAX - 3;
// A process in the program's loader hold map (`loader_hold_map`: the -c
// command, while dtx traces it with ptrace) is stopped there instead of
// told about, by this signal (SIGRTMAX, sent by the kernel: si_code
// SI_KERNEL), which dtx swallows once the new libraries' tables are built:
// their code runs only after.
inline constexpr int kLoaderHoldSignal = 64;
struct MappingRecord {
    RecordHeader header; // epid kMappingRecordEpid
    uint32_t pid;
    uint32_t unused;
    uint64_t start, end;  // [start, end)
    uint64_t file_offset; // of `start`
    uint64_t inode;
    uint64_t device; // as UnwindRequest's
};
inline constexpr uint32_t kUnwindFiles = 8192; // the files map's entries
struct UnwindFileKey {
    uint64_t inode;
    uint64_t device; // as UnwindRequest's
};
struct UnwindFile {
    enum State : uint32_t {
        Asked = 0,   // the program asked for the table (or is asking)
        Table = 1,   // rows [first_row, first_row + rows) of the rows map
        NoTable = 2, // none to be had: frame pointers only
    };
    uint32_t first_row;
    uint32_t rows;
    State state;
    uint32_t unused;
};
// The frame ending a user stack that went on but could not be followed (its
// next return address was not in code); never a user address.
inline constexpr uint64_t kUserStackTruncated = UINT64_MAX - 1;

// One value in a record or an aggregation key.
enum class ValueKind : uint8_t {
    Integer,      // `size` bytes, little-endian
    String,       // a NUL-terminated string in `size` bytes
    KernelStack,  // `size` / 8 program counters, 0-terminated
    UserStack,    // u64 pid, then program counters, 0-terminated
    KernelSymbol, // an integer shown as the kernel function holding it (func(), sym())
    KernelModule, // an integer shown as the kernel module holding it (mod())
    UserSymbol,   // u64 pid, u64 address (usym(), ufunc()): "module`function"
    UserModule,   // u64 pid, u64 address (umod())
    UserAddress,  // u64 pid, u64 address (uaddr()): "module`function+0x10"
    Bytes,        // raw memory (tracemem(), copyin() traced): printed as a hex dump
    Float,        // a float (width 4) or double (width 8) in its slot's low bytes
    // trace() of a char array: its `size` bytes, shown as a string when they
    // are printable up to NULs that end them (or have none), else as Bytes.
    CharArray,
};

struct ValueLayout {
    ValueKind kind = ValueKind::Integer;
    uint32_t offset = 0; // from the start of the record or key
    uint32_t size = 8;
    bool is_signed = true; // Integer
    uint8_t width = 8;     // Integer, Float: the D type's size (values are stored as 8 bytes)
};

// A type as print() shows it (ProgramDescription::printed_types): enough of
// the D type for the consumer to lay out and name a recorded value's bytes.
// Typedefs are resolved into their kind but keep their name ("pid_t").
struct PrintedType {
    enum class Kind : uint8_t {
        Integer, // `size` bytes; _Bool and unsigned char too
        Char,    // char, signed char: shown as 'c'
        Float,
        Pointer,
        Enum,  // an integer of `size` bytes named by `enumerators`
        Array, // `count` elements of `element`
        Struct,
        Union,
        String, // D's string: NUL-terminated in `size` bytes
    };
    struct Member {
        std::string name;        // empty for an anonymous struct or union
        uint32_t type = 0;       // index in ProgramDescription::printed_types
        uint64_t bit_offset = 0; // from the start of the enclosing record
        uint32_t bit_width = 0;  // a bit-field's width, else 0
    };
    Kind kind = Kind::Integer;
    std::string name; // as declared: "int", "struct path", "char [16]", "spinlock_t"
    uint32_t size = 0;
    bool is_signed = false;
    uint32_t element = 0; // Array; Pointer with `with_pointee`: the pointee's type
    // A pointer print() recorded with the struct or union it points to, whose
    // bytes follow its own.
    bool with_pointee = false;
    uint64_t count = 0;                                       // Array
    std::vector<Member> members;                              // Struct, Union
    std::vector<std::pair<std::string, int64_t>> enumerators; // Enum
};

// A clause's record: a RecordHeader, a 64-bit mask of which of the clause's
// first 64 actions ran (if/else can skip some), then the actions' values.
// A clause of more actions has a mask word for each 64 more, among the
// values (ClauseDescription::mask_offsets). The most bytes a record holds,
// header and masks included: the largest value print() can record is a
// little smaller.
inline constexpr uint32_t kMaxRecordSize = 16 * 1024;
inline constexpr uint32_t kRecordMaskOffset = sizeof(RecordHeader);
inline constexpr uint32_t kRecordDataStart = kRecordMaskOffset + 8;
// What dtrace counts for a speculative record before its values.
inline constexpr uint32_t kSpeculativeHeaderBytes = 8;

class Consumer;
struct ActionDescription;

// What the consumer does with one action's part of a record: print it, or
// act on it (exit(), clear() ...). Each D action's descriptor (codegen's
// functions/) supplies its own, so the consumer has no list of actions.
using ActionConsumer = void (*)(Consumer &consumer, const ActionDescription &action,
                                std::span<const std::byte> record);

struct ActionDescription {
    std::string_view function; // the D function: "printf"
    ActionConsumer consume = nullptr;
    std::vector<ValueLayout> values;   // what the record holds for it, in argument order
    std::optional<std::string> format; // printf/printa/system
    std::optional<ParsedFormat> parsed_format;
    std::vector<uint32_t> aggregations;      // ids
    std::string option_name;                 // setopt
    std::optional<std::string> option_value; // setopt; none: "set"
    // False for commit() and discard(), which record for the consumer only.
    bool shows_firing = true;
    uint32_t printed_type = 0; // print(): index in ProgramDescription::printed_types
    SourceRange location;
};

struct ClauseDescription {
    uint32_t index = 0; // in program order
    SourceRange location;
    uint32_t record_size = 0; // header included
    // The record's bytes as dtrace counts them against specsize when it is
    // speculative: 8, then each value at its natural alignment (an int 4, a
    // string strsize + 1 ...); dtx's own layout differs.
    uint32_t speculative_size = 0;
    bool records = true;      // false: the clause writes nothing (no data-recording action)
    bool shows_firing = true; // false: its records print no probe line (commit/discard only)
    std::vector<ActionDescription> actions;
    // The expressions that can fault, by FaultRecord::site - 1.
    std::vector<SourceRange> fault_sites;
    // Where the record's mask words are: bit i % 64 of word i / 64 says
    // whether action i ran.
    std::vector<uint32_t> mask_offsets = {kRecordMaskOffset};
    // Where the record holds the firing's timestamp (D's `timestamp`, in
    // ns), when the program records them (oformat=json).
    std::optional<uint32_t> timestamp_offset;
};

// The dtrace provider's END probe (providers/dtrace.cpp numbers BEGIN 1,
// END 2, ERROR 3).
inline constexpr uint32_t kEndProbeId = 2;

struct EnabledProbe {
    uint32_t epid = 0;
    uint32_t probe_id = 0;
    uint32_t clause = 0;
};

// min() and max() keep their word XORed with the function's identity in the
// kernel (INT64_MAX for min, INT64_MIN for max), so that the zeros the kernel
// gives the other CPUs' copies of a new per-CPU key read as "nothing seen"
// rather than as a value of 0. XOR is its own inverse: the same call encodes
// (code generator, clear()) and decodes (snapshots).
inline void convert_kernel_words(const AggregationFunction &function, std::span<int64_t> words) {
    if (function.kind == AggregationKind::Min && !words.empty())
        words[0] ^= INT64_MAX;
    else if (function.kind == AggregationKind::Max && !words.empty())
        words[0] ^= INT64_MIN;
}

// Where an aggregation's per-CPU data words live in the kernel. Aggregations
// of one shape share a map (codegen/storage_plan.h):
//   - With keys: a per-CPU hash map from the key (key_size bytes, laid out as
//     key_fields say) to the data words; an update may find the map full.
//     Where the map is shared, the key's first 8 bytes are map_index << 32,
//     which tells the aggregations apart, and key_fields follow them.
//   - Without keys (single_slot): slot map_index (a u32 key) of a per-CPU
//     array, which needs no allocation and whose lookup the verifier
//     inlines. The slot exists before anything is recorded, so its value has
//     one more word after the data words, which every update sets to 1: a
//     CPU whose word is 0 has recorded nothing (trunc() zeroes it again).
// A CPU's value takes value_size bytes of the map, data words first: more
// than value_word_count() words where the map's other members need more.
struct AggregationDescription {
    uint32_t id = 0;
    std::string name; // without '@'; "" for @
    AggregationFunction function;
    std::string map_name;
    // Keyed: a small preallocated map of the same layout that takes a new
    // key when `map_name` cannot allocate one at that moment; the consumer
    // merges a key's entries in both, as it merges CPUs.
    std::string spill_map_name;
    bool single_slot = false;
    bool shared_map = false; // keyed: with other aggregations, told apart by map_index
    uint32_t map_index = 0;  // the slot (single_slot), or the key's id (shared_map)
    uint32_t key_size = 0;
    std::vector<ValueLayout> key_fields;
    uint32_t value_size = 0;

    // The words of one CPU's value that the aggregation uses.
    size_t value_word_count() const { return data_word_count(function) + (single_slot ? 1 : 0); }
};

// The global `dtx_activity` (a ".data" variable) moves through these states;
// trampolines of ordinary probes run clauses only while it is Active.
enum class Activity : uint32_t {
    Inactive = 0, // before BEGIN
    Active = 1,
    Draining = 2, // exit() was called or dtx is stopping; only END runs
};

// Firings that may run on one CPU at a time, each interrupting the one
// before (a process-context probe, a softirq's, a hard irq's, an NMI's): each
// has its own clause context, the dctx array's entry cpu * kNestingLevels +
// depth, the depth counted in the per-CPU `nesting_map`.
inline constexpr uint32_t kNestingLevels = 4;

struct ProgramDescription {
    std::vector<ClauseDescription> clauses;
    std::vector<EnabledProbe> enabled_probes; // by epid - 1
    std::vector<AggregationDescription> aggregations;
    std::vector<PrintedType> printed_types; // print()'s, shared by its actions
    std::string ring_buffer_map = "dtx_output";
    std::string clause_context_map = "dtx_dctx"; // kNestingLevels entries per CPU
    std::string drops_map = "dtx_drops";         // per-CPU u64 counters, see DropCounter
    std::string processes_map = "dtx_user_pids"; // see ProcessRecord; only when needed
    // See UnwindRequest; only in programs that take user stacks. The
    // session sizes the rows map (ustack tables' room) before loading.
    std::string unwind_rows_map = "dtx_unwind_rows";
    std::string unwind_files_map = "dtx_unwind_files";
    bool unwinds_user_stacks = false;
    // See kLoaderRecordEpid: the session attaches it; empty when none.
    std::string loader_watch_program;
    std::string loader_hold_map = "dtx_loader_hold"; // see kLoaderHoldSignal
    std::string activity_variable = "dtx_activity";
    // Speculations 1 .. speculation_count, slot N of this array map (a
    // SpeculationSlot); only when the program uses them.
    std::string speculations_map = "dtx_speculations";
    uint32_t speculation_count = 0;
    // curcpu's table (CpuInfo, cpu_info_entries() of them) in .rodata, which
    // the session fills before loading; empty when the program has no curcpu.
    std::string cpu_info_variable;
    // dtx's own pid (a u32 in .rodata, which the session sets before
    // loading), so that raise() and stop() never signal dtx itself; empty
    // when the program calls neither.
    std::string dtx_pid_variable;
};

// curcpu's cpuinfo_t as the D library (sched.d) declares it.
struct CpuInfo {
    int32_t cpu_id;
    int32_t cpu_pset; // 0: Linux's CPUs are in no Solaris processor set
    int32_t cpu_chip; // the physical package
    int32_t cpu_lgrp; // the NUMA node
};
// The possible CPUs rounded up to a power of two: the program indexes the
// table with the CPU number under a mask, a bound the verifier can see.
uint32_t cpu_info_entries();
// This machine's topology from sysfs, cpu_info_entries() long.
std::vector<CpuInfo> cpu_info_table();

// The kernel's side of speculation N, slot N of `dtx_speculations`:
// speculation() moves a Free slot to Active; commit() and discard() move it
// to Draining; the consumer frees it once it has every record that was
// speculated into it (`written`, counted by speculate()).
struct SpeculationSlot {
    enum State : uint64_t { Free = 0, Active = 1, Draining = 2 };
    uint64_t state;
    uint64_t written;
};

// Slots of the per-CPU `dtx_drops` array.
enum class DropCounter : uint32_t {
    RingBuffer = 0,  // a record did not fit the ring buffer
    Aggregation = 1, // a keyed aggregation's map was full
    Dynamic = 2,     // an associative array or thread-local map was full
    // speculation() found no free speculation: some were committed or
    // discarded but not yet drained by the consumer (busy), or none was
    // (unavailable).
    SpeculationBusy = 3,
    SpeculationUnavailable = 4,
    // A probe fired while kNestingLevels firings were already running on the
    // CPU (each interrupting the one before); it was not run.
    Nesting = 5,
    // A probe of a sleepable program fired in a thread that had no clause
    // context yet, and the kernel could not make one (task storage); it was
    // not run.
    ThreadContext = 6,
    // A speculative record that cannot fit in specsize on its own: the
    // clause ended where it got too large (speculative drops).
    SpeculationSize = 7,
    Count
};

} // namespace dtx::trace

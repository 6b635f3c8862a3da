// The consumer's output, in the format the oformat option chooses once:
// dtrace's text (text_output.cpp) or JSON lines (json_output.cpp). The
// consumer decodes records and aggregation maps and keeps the trace's state
// (speculations, snapshots, flowindent); an OutputFormat only shows what it
// is given. Faults and drops are said on stderr by the consumer whatever the
// format; an output format may add them to its stream too.
#pragma once

#include "libtrace/aggregation.h"
#include "libtrace/pcap_file.h"
#include "libtrace/printf_format.h"
#include "libtrace/probe.h"
#include "libtrace/program_description.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace dtx::trace {

class Consumer;

// How flowindent shows a firing.
enum class Flow { None, Entry, Return };

// The firing whose record is being shown.
struct Firing {
    RecordHeader header;
    uint32_t probe_id = 0;
    const Probe *probe = nullptr;      // null when the table does not know it
    std::optional<uint64_t> timestamp; // ns, D's `timestamp`, when recorded
    // False when the clause's actions are only commit() or discard(): dtrace
    // shows nothing of such a firing.
    bool shows_firing = true;
    std::optional<Flow> flow; // under flowindent
    int indent = 0;           // flowindent's columns, when `flow`
};

// A fault a clause met (a FaultRecord), as the consumer reports it.
struct FaultReport {
    uint32_t epid = 0;
    const Probe *probe = nullptr;
    uint32_t action = 0; // 1-based statement in the clause
    FaultKind kind = FaultKind::Unknown;
    uint64_t address = 0;
    std::string description; // dtrace's words: "invalid address (0x0)"
    SourceRange location;    // where it faulted, when known
};

// What a drop counter counts.
enum class DropKind {
    RingBuffer,
    Aggregation,
    Dynamic,
    Nesting,
    ThreadContext,
    Speculative,
    SpeculationBusy,
    SpeculationUnavailable,
};
// Its name in JSON: "ring-buffer", "aggregation", ...
std::string_view drop_kind_name(DropKind kind);

class OutputFormat {
public:
    virtual ~OutputFormat() = default;

    // A record's output: begin_firing(), then what each of its actions
    // shows, then end_firing().
    virtual void begin_firing(const Firing &firing) = 0;
    virtual void end_firing(const Firing &firing) = 0;

    // --- what actions show, from within a firing ---------------------------
    // trace(): the value at `layout` in `record`.
    virtual void trace(const ValueLayout &layout, std::span<const std::byte> record) = 0;
    // printf(): its formatted text and the values it formatted.
    virtual void printf(std::span<const FormatArgument> arguments, std::string_view text) = 0;
    // print(): the bytes of a value of printed type `type`.
    virtual void print(uint32_t type, std::span<const std::byte> bytes) = 0;
    // tracemem(): `size` bytes of `bytes`.
    virtual void tracemem(std::span<const std::byte> bytes, size_t size) = 0;
    // pcap() without a pcapfile: the packet's recorded bytes.
    virtual void pcap(const CapturedPacket &packet) = 0;
    // stack() and ustack().
    virtual void stack(const KeyField &stack) = 0;
    // exit(): the status it gives.
    virtual void exit(int status) = 0;
    // system(): before the command runs.
    virtual void system(std::string_view command) = 0;
    // Where system()'s command writes its standard output.
    virtual int command_output_fd() const = 0;
    // printa(): the aggregations' snapshots; with a format, `formatted` is
    // what it formatted of them.
    virtual void printa(std::span<const AggregationSnapshot *const> aggregations,
                        const std::string *formatted) = 0;

    // --- outside firings -------------------------------------------------
    // When tracing ends: the aggregations no printa() printed, in the order
    // dtrace prints them at exit.
    virtual void aggregations_at_exit(std::span<const AggregationSnapshot> aggregations) = 0;
    // A fault, after the consumer said it on stderr.
    virtual void fault(const FaultReport &fault) = 0;
    // Drops counted since the last report (on `cpu` for the per-CPU
    // buffers), after the consumer said them on stderr.
    virtual void drops(DropKind kind, std::optional<int> cpu, uint64_t count) = 0;
};

// dtrace's text: the probe line and heading (default, quiet, flowindent),
// each action as dtrace prints it, aggregations as dtrace's rows and
// histograms (aggregation_print.h).
std::unique_ptr<OutputFormat> make_text_output(const Consumer &consumer, FILE *out);
// One JSON object per line (json_output.h).
std::unique_ptr<OutputFormat> make_json_output(const Consumer &consumer, FILE *out);

} // namespace dtx::trace

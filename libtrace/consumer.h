// The consumer: turns ring-buffer records and aggregation maps into dtrace's
// output, using only the ProgramDescription the code generator produced.
//   - a record is one clause's firing on one probe: without -q the probe line
//     ("%3d %6d %32s " CPU, probe ID, FUNCTION:NAME, dtrace's heading once
//     before the first), then each action the clause executed, then "\n";
//   - exit() records the status and ends tracing; printa/clear/trunc/
//     normalize act on a snapshot of the aggregation taken when the record
//     arrives, as dtrace's consumer does;
//   - fault records print dtrace's "error on enabled probe" line on stderr;
//   - process records (ProcessRecord) go to remember_process.
#pragma once

#include "libtrace/aggregation_print.h"
#include "libtrace/probe.h"
#include "libtrace/program_description.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

struct bpf_object;

namespace dtx::trace {

class BpfObject;

struct ConsumerOptions {
    bool quiet = false;
    AggregationPrintOptions print;
    FormatContext format;
    // Called with each process a ProcessRecord announces, and each one whose
    // user addresses a record or key holds: its addresses must stay nameable
    // after it exits.
    std::function<void(uint32_t pid)> remember_process;
};

class Consumer {
public:
    Consumer(const ProgramDescription &program, const BpfObject &object, const ProbeTable &probes,
             ConsumerOptions options, FILE *out, FILE *err);

    // Handles one ring-buffer record. Output is buffered: the caller flushes
    // after each batch (flush()), not per record.
    void consume(std::span<const std::byte> record);

    // The status exit() gave, once a record of it has been consumed.
    std::optional<int> exit_status() const { return exit_status_; }
    // Faults reported so far (they are reported, not fatal, as in dtrace).
    uint64_t faults() const { return faults_; }

    void flush() { std::fflush(out_); }

    // What dtrace prints when tracing ends: "\n", then every aggregation no
    // printa() printed, then drop counts on stderr.
    void finish();

private:
    void print_probe_line(const RecordHeader &header, const EnabledProbe &enabled);
    void run_action(const ActionDescription &action, std::span<const std::byte> record,
                    uint32_t cpu);
    void report_fault(std::span<const std::byte> record);
    AggregationSnapshot &snapshot(uint32_t aggregation);
    void printa(const ActionDescription &action);
    std::string trace_value(const ValueLayout &layout, std::span<const std::byte> record) const;
    FormatArgument argument(const ValueLayout &layout, std::span<const std::byte> record) const;
    KeyField key_field(const ValueLayout &layout, std::span<const std::byte> key) const;
    void remember(uint64_t pid) const;
    void report_drops();
    void write(const std::string &text);

    const ProgramDescription &program_;
    const BpfObject &object_;
    const ProbeTable &probes_;
    ConsumerOptions options_;
    FILE *out_;
    FILE *err_;
    Formatter formatter_;
    bool heading_printed_ = false;
    std::optional<int> exit_status_;
    uint64_t faults_ = 0;
    // Per aggregation: normalization and what has been printed by printa.
    std::map<uint32_t, uint64_t> normals_;
    std::set<uint32_t> printed_;
    std::map<uint32_t, AggregationSnapshot> snapshots_;
    int cpu_count_ = 1; // possible CPUs: the per-CPU maps' value count
};

} // namespace dtx::trace

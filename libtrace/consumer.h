// The consumer: turns ring-buffer records and aggregation maps into dtrace's
// output, using only the ProgramDescription the code generator produced.
//   - a record is one clause's firing on one probe: without -q the probe line
//     ("%3d %6d %32s " CPU, probe ID, FUNCTION:NAME, dtrace's heading once
//     before the first), then each action the clause executed, then "\n";
//   - with flowindent (-F) the probe line is "%3d %-41s " (CPU, then the
//     function after "-> " at entry probes, "<- " at return probes, "=> "
//     and "<= " for syscalls, "| " and FUNCTION:NAME for the others),
//     indented two columns more after each entry and less at each return,
//     per CPU, under the heading "CPU FUNCTION" (printed even with -q, as
//     dtrace does);
//   - setopt() changes the dynamic options (quiet, flowindent, aggsort* ...)
//     from the next record on;
//   - exit() records the status and ends tracing; printa/clear/trunc/
//     normalize act on a snapshot of the aggregation taken when the record
//     arrives, as dtrace's consumer does;
//   - fault records print dtrace's "error on enabled probe" line on stderr;
//   - process records (ProcessRecord) go to remember_process, unwind
//     requests to unwind_request, mapping records to learn_mapping, the
//     dynamic loader's to loader_changed.
// What is shown goes through the OutputFormat that oformat chooses
// (output_format.h): dtrace's text, or JSON lines.
#pragma once

#include "libtrace/aggregation_print.h"
#include "libtrace/attach.h"
#include "libtrace/error.h"
#include "libtrace/output_format.h"
#include "libtrace/pcap_file.h"
#include "libtrace/probe.h"
#include "libtrace/program_description.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct bpf_object;

namespace dtx::trace {

class BpfObject;

// The oformat option.
enum class OutputKind : uint8_t { Text, Json };

enum class BufferPolicy { Switch, Fill, Ring };

struct ConsumerOptions {
    OutputKind output = OutputKind::Text;
    bool quiet = false;
    bool flow_indent = false; // flowindent, -F
    bool raw_bytes = false;   // rawbytes: trace() prints every value as a hex dump
    // droptags: each drop report starts with the kind's tag, as dtrace's
    // ("[DTRACEDROP_PRINCIPAL] 1 drop on CPU 0").
    bool drop_tags = false;
    AggregationPrintOptions print;
    FormatContext format;
    // Called with each process a ProcessRecord announces, and each one whose
    // user addresses a record or key holds: its addresses must stay nameable
    // after it exits.
    std::function<void(uint32_t pid)> remember_process;
    // Called with each UnwindRequest: the program needs a file's unwind table.
    std::function<void(const UnwindRequest &request)> unwind_request;
    // Called with each MappingRecord: a user stack went through a file
    // mapping, whose addresses must stay nameable after it is unmapped.
    std::function<void(const MappingRecord &mapping)> learn_mapping;
    // Called with the pid of each kLoaderRecordEpid record: the process's
    // dynamic loader mapped or unmapped a library.
    std::function<void(uint32_t pid)> loader_changed;
    // system(): runs `command` (sh -c) with its standard output on
    // `stdout_fd`, once what was printed before it is out.
    std::function<void(const std::string &command, int stdout_fd)> run_command;
    // Called before freopen() or ftruncate() change the output: the
    // commands before them end first, and what was held for them goes out
    // where the output went (dtrace waits for each command).
    std::function<void()> settle_commands;
    // The most bytes of records one speculation holds (specsize); records
    // beyond are speculative drops.
    uint64_t speculation_size = 4 << 20;
    // bufpolicy and bufsize: switch prints each record as it comes; fill
    // ends tracing once a CPU's records would exceed buffer_size bytes (END's
    // always fit), as exit(0) would; ring keeps each CPU's newest records
    // within buffer_size and prints them when tracing ends.
    BufferPolicy buffer_policy = BufferPolicy::Switch;
    uint64_t buffer_size = 4 << 20;
    // The descriptor `out` writes to in the end (stdout's, the -o file's),
    // which freopen() points elsewhere and ftruncate() empties; -1: they
    // do nothing.
    int output_fd = -1;
    // pcapfile: the file pcap() writes its packets to, in pcap's format;
    // empty: they are shown as a hex dump in the output, as dtrace does
    // without tshark.
    std::string pcap_file;
    // setopt(): sets option `name` while tracing, in `options` where it is
    // one the consumer reads. The result is a notice to give, else empty; an
    // error's message is dtrace's reason for refusing, which the warning repeats.
    std::function<Result<std::string>(ConsumerOptions &options, const std::string &name,
                                      const std::optional<std::string> &value)>
        set_option;
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
    // bufpolicy=fill: a CPU's buffer is full, which ends tracing.
    bool buffer_filled() const { return buffer_filled_; }
    // Faults reported so far (they are reported, not fatal, as in dtrace).
    uint64_t faults() const { return faults_; }

    // Ends a batch of records: prints what is held back (a return record
    // under flowindent waits for the next record of its CPU) and writes out
    // what they printed. An aggregation map is read at most once per batch
    // (all the aggregations it holds at once, printa() and the exit dump
    // reading what they need from that), so the next batch reads them again.
    void flush();

    // What dtrace prints when tracing ends: "\n", then every aggregation no
    // printa() printed, then drop counts on stderr.
    void finish();
    // Says on stderr the drops counted since the last report, in dtrace's
    // words, and the first time a kind drops, which option gives it room.
    // The session calls it at most once a second while tracing (dtrace's
    // status rate), and finish() once more.
    void report_drops();

    // --- what actions do (the ActionConsumer of each action's descriptor) ----
    const ProgramDescription &program() const { return program_; }
    const ConsumerOptions &options() const { return options_; }
    Formatter &formatter() { return formatter_; }
    // Where actions show what they recorded.
    OutputFormat &output() { return *output_; }
    // A message about the trace on stderr ("dtx: printf(): ..."), after the
    // output so far.
    void warn(const std::string &message);
    // warn(), the first time only for `action` and `topic`: for what a
    // firing may repeat thousands of times.
    void warn_once(const ActionDescription &action, std::string_view topic,
                   const std::string &message);
    // stop() sent SIGSTOP to process `pid`.
    void note_stopped(uint32_t pid) { stopped_.insert(pid); }
    // The processes stop() stopped, for the session to say at the end
    // which are still stopped.
    const std::set<uint32_t> &stopped_processes() const { return stopped_; }
    // A recorded string, up to its NUL, in `record`'s bytes.
    std::string_view string_at(std::span<const std::byte> record, const ValueLayout &layout) const;
    // A recorded value as a printf() argument; strings point into `record`.
    FormatArgument argument(const ValueLayout &layout, std::span<const std::byte> record) const;
    // The text a printf-like action (printf(), system(), freopen()) makes of
    // its record: its format over its values, which go into `arguments`;
    // nullopt after a warning naming the action.
    std::optional<std::string> formatted(const ActionDescription &action,
                                         std::span<const std::byte> record,
                                         std::vector<FormatArgument> &arguments);
    // A recorded value as an aggregation key holds it (stacks, symbols ...).
    KeyField key_field(const ValueLayout &layout, std::span<const std::byte> key) const;
    template <typename T>
    T read(std::span<const std::byte> record, size_t offset) const;
    // The last exit() executed gives the status, as in dtrace: END's
    // exit(0) overrides BEGIN's exit(1).
    void set_exit_status(int status);
    // printa(): the aggregations' current snapshot, with or without a format.
    void printa(const ActionDescription &action);
    // clear(): every key's value back to its initial state; trunc(): only
    // the `keep` first keys in printing order kept (negative: the last), or
    // none when `keep` is unset.
    void clear(uint32_t aggregation);
    void truncate(uint32_t aggregation, std::optional<int64_t> keep);
    // normalize()/denormalize(): a divisor for the aggregation's printed values.
    void normalize(uint32_t aggregation, std::optional<uint64_t> divisor);
    // setopt() in the clause of enabled probe `epid`: a dynamic option
    // changes from the next record on; anything else is refused with
    // dtrace's warning. No value means "set" (dtrace passes "1").
    void set_option(uint32_t epid, const std::string &name,
                    const std::optional<std::string> &value);
    // freopen() in the clause of enabled probe `epid`: the output (stdout or
    // the -o file) goes to the end of file `path` from now on, or back to
    // where it went at first for nullopt (freopen("")). A file that cannot be
    // opened is dtrace's error, and the output stays where it was.
    void reopen_output(uint32_t epid, const std::optional<std::string> &path);
    // pcap() in the clause of enabled probe `epid`: the packet goes to the
    // pcapfile option's file, else to the output as a hex dump. A packet
    // the file cannot take is dtrace's error, and tracing goes on.
    void capture_packet(uint32_t epid, const CapturedPacket &packet);
    // ftruncate(): empties the output file (nothing where it is not a file).
    void truncate_output();
    // system(): runs `command` with /bin/sh, after what was printed before
    // it; its output goes to dtx's stdout (not to an -o file), as dtrace's.
    void run_command(const std::string &command);
    // The user addresses of processes `pids` that aggregation keys hold now
    // (ustack(), usym(), umod(), uaddr() keys), by pid: what must stay
    // nameable of those processes once they have exited.
    std::map<uint32_t, std::set<uint64_t>>
    user_addresses_in_keys(const std::set<uint32_t> &pids) const;
    // commit() and discard(): the speculation's records are printed (or
    // dropped) now, and so are those still to arrive.
    void end_speculation(uint32_t id, bool commit);

private:
    // "ID 1: dtrace:::BEGIN", the probe of enabled probe `epid`.
    std::string probe_label(uint32_t epid) const;
    // A run-time error of an action, not a fault: dtrace's "error on enabled
    // probe ID" line on stderr, the trace going on.
    void action_error(uint32_t epid, const std::string &message);
    uint32_t probe_id_of(uint32_t epid) const;
    // ClauseDescription::speculative_size of the clause of `epid`.
    uint32_t speculative_size(uint32_t epid) const;
    Flow flow_of(const EnabledProbe &enabled) const;
    // Prints the return record held for `cpu`, if any, now that `next` (null
    // when none) shows whether another clause of its firing follows.
    void release_held_return(uint16_t cpu, const RecordHeader *next);
    // One firing's output; `flow` when flowindent shows it.
    void print_firing(std::span<const std::byte> record, std::optional<Flow> flow);
    void report_fault(std::span<const std::byte> record);
    // The aggregation's snapshot, read from its map unless it was in this batch.
    AggregationSnapshot &snapshot(uint32_t aggregation);
    // Reads the map once, snapshotting every aggregation it holds that has no
    // snapshot of this batch yet.
    void read_aggregation_map(const std::string &map_name);
    // Which of a map's aggregations `key` belongs to (its map_index);
    // `any` is one of them.
    uint32_t member_index(const AggregationDescription &any, std::span<const std::byte> key) const;
    // clear() and trunc() on the aggregation's map: `kept` is what trunc()
    // keeps, null for clear().
    void reset(uint32_t aggregation, const AggregationSnapshot *kept);
    // reset() of a keyed aggregation's entries in one of its maps: each set
    // to `cleared`, or deleted unless `kept` has its key.
    void reset_keys(const AggregationDescription &d, int fd, const std::vector<int64_t> &cleared,
                    const AggregationSnapshot *kept);
    void remember(uint64_t pid) const;
    // A record as it is printed (not held for a speculation).
    void print_record(std::span<const std::byte> record);
    // Frees a draining speculation's slot once every record speculated into
    // it has arrived.
    void free_drained(uint32_t id);

    // A speculation the consumer knows records of, by ID.
    struct Speculation {
        enum class State { Open, Committed, Discarded };
        State state = State::Open;
        std::vector<std::vector<std::byte>> records; // held while Open
        uint64_t bytes = 0;
        uint64_t received = 0; // records that arrived, held or not
    };

    const ProgramDescription &program_;
    const BpfObject &object_;
    const ProbeTable &probes_;
    ConsumerOptions options_;
    FILE *out_;
    FILE *err_;
    // The output's first file, kept from the first freopen() on to restore it.
    UniqueFd first_output_;
    Formatter formatter_;
    std::unique_ptr<OutputFormat> output_;
    std::unique_ptr<PcapFile> pcap_file_; // pcap()'s, from its first packet on
    // flowindent's state per CPU: the indentation and the last EPID shown.
    struct FlowState {
        int indent = 0;
        uint32_t last_epid = 0;
    };
    std::map<uint16_t, FlowState> flow_;
    std::map<uint16_t, std::vector<std::byte>> held_returns_; // by CPU
    std::optional<int> exit_status_;
    uint64_t faults_ = 0;
    // Per aggregation: normalization and what has been printed by printa.
    std::map<uint32_t, uint64_t> normals_;
    std::set<uint32_t> printed_;
    std::map<uint32_t, AggregationSnapshot> snapshots_;
    std::set<uint32_t> fresh_; // aggregations whose snapshot was read in this batch
    std::map<std::string, std::vector<uint32_t>> aggregations_by_map_;
    std::map<uint32_t, Speculation> speculations_;
    uint64_t speculative_drops_ = 0;
    // What report_drops() has said: per DropCounter, per CPU; speculative drops.
    std::vector<std::vector<uint64_t>> reported_drops_;
    uint64_t reported_speculative_drops_ = 0;
    std::set<std::string_view> drop_hints_given_;
    std::set<std::pair<const ActionDescription *, std::string>> warned_; // see warn_once()
    std::set<uint32_t> stopped_;
    int cpu_count_ = 1; // possible CPUs: the per-CPU maps' value count
    // bufpolicy=fill and ring: each CPU's bytes of records, and (ring) the records kept.
    struct CpuBuffer {
        uint64_t bytes = 0;
        std::deque<std::vector<std::byte>> records;
    };
    std::map<uint16_t, CpuBuffer> cpu_buffers_;
    bool buffer_filled_ = false;
    bool takes_for_policy(std::span<const std::byte> record);
    void act_on_exit(std::span<const std::byte> record);
    void print_ring();
};

template <typename T>
T Consumer::read(std::span<const std::byte> record, size_t offset) const {
    T value{};
    if (offset + sizeof(T) <= record.size())
        std::memcpy(&value, record.data() + offset, sizeof(T));
    return value;
}

} // namespace dtx::trace

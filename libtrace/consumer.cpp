#include "libtrace/consumer.h"

#include "libtrace/bpf_object.h"
#include "libtrace/map_entries.h"
#include "libtrace/print_value.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cinttypes>
#include <csignal>
#include <cstring>
#include <numeric>
#include <tuple>

namespace dtx::trace {

namespace {

std::string read_string(std::span<const std::byte> bytes, size_t offset, size_t size) {
    if (offset >= bytes.size())
        return {};
    size = std::min(size, bytes.size() - offset);
    const char *text = reinterpret_cast<const char *>(bytes.data() + offset);
    return std::string(text, strnlen(text, size));
}

std::string printf_string(const char *format, auto... args) {
    int n = std::snprintf(nullptr, 0, format, args...);
    std::string text(size_t(std::max(n, 0)), '\0');
    std::snprintf(text.data(), text.size() + 1, format, args...);
    return text;
}

} // namespace

std::string fault_description(FaultKind kind, uint64_t address) {
    switch (kind) {
    case FaultKind::BadAddress:
        return printf_string("invalid address (0x%" PRIx64 ")", address);
    case FaultKind::BadAlignment:
        return printf_string("invalid alignment (0x%" PRIx64 ")", address);
    case FaultKind::IllegalOperation:
        return "illegal operation";
    case FaultKind::DivideByZero:
        return "divide-by-zero";
    case FaultKind::NoScratch:
        return "out of scratch space";
    case FaultKind::KernelPrivilege:
        return printf_string("invalid kernel access (0x%" PRIx64 ")", address);
    case FaultKind::UserPrivilege:
        return printf_string("invalid user access (0x%" PRIx64 ")", address);
    case FaultKind::TupleOverflow:
        return "tuple stack overflow";
    case FaultKind::BadStack:
        return "bad stack";
    case FaultKind::BadIndex:
        return printf_string("index out of bounds (%" PRId64 ")", int64_t(address));
    default:
        return "unknown fault";
    }
}

Consumer::Consumer(const ProgramDescription &program, const BpfObject &object,
                   const ProbeTable &probes, ConsumerOptions options, FILE *out, FILE *err)
    : program_(program), object_(object), probes_(probes), options_(std::move(options)), out_(out),
      err_(err), formatter_(options_.format),
      output_(options_.output == OutputKind::Json ? make_json_output(*this, out)
                                                  : make_text_output(*this, out)) {
    cpu_count_ = std::max(libbpf_num_possible_cpus(), 1);
    for (const AggregationDescription &d : program_.aggregations)
        aggregations_by_map_[d.map_name].push_back(d.id);
}

void Consumer::consume(std::span<const std::byte> record) {
    auto header = read<RecordHeader>(record, 0);
    if (header.epid == 0) {
        report_fault(record);
        return;
    }
    if (header.epid == kProcessRecordEpid) {
        remember(read<ProcessRecord>(record, 0).pid);
        return;
    }
    if (header.epid == kUnwindRequestEpid) {
        if (options_.unwind_request)
            options_.unwind_request(read<UnwindRequest>(record, 0));
        return;
    }
    if (header.epid == kLoaderRecordEpid) {
        if (options_.loader_changed)
            options_.loader_changed(read<ProcessRecord>(record, 0).pid);
        return;
    }
    if (header.epid == kMappingRecordEpid) {
        if (options_.learn_mapping)
            options_.learn_mapping(read<MappingRecord>(record, 0));
        return;
    }
    if (header.speculation != 0) {
        Speculation &speculation = speculations_[header.speculation];
        speculation.received++;
        switch (speculation.state) {
        case Speculation::State::Committed:
            print_record(record);
            break;
        case Speculation::State::Discarded:
            break;
        case Speculation::State::Open: {
            // specsize counts the records as dtrace lays them out.
            const uint64_t size = speculative_size(header.epid);
            if (speculation.bytes + size > options_.speculation_size) {
                speculative_drops_++;
                break;
            }
            speculation.bytes += size;
            speculation.records.emplace_back(record.begin(), record.end());
            break;
        }
        }
        free_drained(header.speculation);
        return;
    }
    if (!takes_for_policy(record))
        print_record(record);
}

// bufpolicy (ConsumerOptions::buffer_policy): whether `record` is the
// policy's (dropped once full, or kept for the end) rather than printed now.
bool Consumer::takes_for_policy(std::span<const std::byte> record) {
    if (options_.buffer_policy == BufferPolicy::Switch)
        return false;
    auto header = read<RecordHeader>(record, 0);
    if (header.epid > program_.enabled_probes.size())
        return false;
    CpuBuffer &cpu = cpu_buffers_[header.cpu];
    if (options_.buffer_policy == BufferPolicy::Fill) {
        if (program_.enabled_probes[header.epid - 1].probe_id == kEndProbeId)
            return false; // dtrace keeps room for END's records
        if (!buffer_filled_ && cpu.bytes + record.size() <= options_.buffer_size) {
            cpu.bytes += record.size();
            return false;
        }
        buffer_filled_ = true;
        return true;
    }
    act_on_exit(record); // exit() ends tracing now, though its record prints at the end
    cpu.records.emplace_back(record.begin(), record.end());
    cpu.bytes += record.size();
    while (cpu.records.size() > 1 && cpu.bytes > options_.buffer_size) {
        cpu.bytes -= cpu.records.front().size();
        cpu.records.pop_front();
    }
    return true;
}

void Consumer::act_on_exit(std::span<const std::byte> record) {
    auto header = read<RecordHeader>(record, 0);
    const ClauseDescription &clause =
        program_.clauses.at(program_.enabled_probes[header.epid - 1].clause);
    for (size_t i = 0; i < clause.actions.size() && i / 64 < clause.mask_offsets.size(); i++)
        if (clause.actions[i].function == "exit" &&
            read<uint64_t>(record, clause.mask_offsets[i / 64]) & (uint64_t{1} << (i % 64)))
            set_exit_status(int(read<int64_t>(record, clause.actions[i].values.at(0).offset)));
}

// bufpolicy=ring at the end: each CPU's records, CPU by CPU, as dtrace reads its buffers.
void Consumer::print_ring() {
    std::map<uint16_t, CpuBuffer> buffers = std::exchange(cpu_buffers_, {});
    for (auto &[cpu, buffer] : buffers)
        for (const std::vector<std::byte> &record : buffer.records)
            print_record(record);
}

void Consumer::print_record(std::span<const std::byte> record) {
    auto header = read<RecordHeader>(record, 0);
    if (header.epid > program_.enabled_probes.size())
        return;
    release_held_return(header.cpu, &header);
    const EnabledProbe &enabled = program_.enabled_probes[header.epid - 1];
    const ClauseDescription &clause = program_.clauses.at(enabled.clause);
    std::optional<Flow> flow;
    if (options_.flow_indent && clause.shows_firing) {
        flow = flow_of(enabled);
        FlowState &state = flow_[header.cpu];
        // A later clause of the same firing is not indented again.
        if (*flow == Flow::Entry && state.last_epid != 0 && state.last_epid != header.epid &&
            probe_id_of(state.last_epid) == enabled.probe_id)
            flow = Flow::None;
        // Only the last clause of a return firing unindents: wait for the
        // next record of this CPU when another clause may follow.
        bool later_clause =
            std::any_of(program_.enabled_probes.begin() + header.epid,
                        program_.enabled_probes.end(), [&](const EnabledProbe &other) {
                            return other.probe_id == enabled.probe_id &&
                                   program_.clauses.at(other.clause).records;
                        });
        if (*flow == Flow::Return && later_clause) {
            held_returns_[header.cpu].assign(record.begin(), record.end());
            return;
        }
    }
    print_firing(record, flow);
}

void Consumer::release_held_return(uint16_t cpu, const RecordHeader *next) {
    auto held = held_returns_.find(cpu);
    if (held == held_returns_.end())
        return;
    std::vector<std::byte> record = std::move(held->second);
    held_returns_.erase(held);
    auto header = read<RecordHeader>(record, 0);
    bool same_firing =
        next && next->epid != header.epid && probe_id_of(next->epid) == probe_id_of(header.epid);
    print_firing(record, same_firing ? Flow::None : Flow::Return);
}

void Consumer::print_firing(std::span<const std::byte> record, std::optional<Flow> flow) {
    auto header = read<RecordHeader>(record, 0);
    const EnabledProbe &enabled = program_.enabled_probes[header.epid - 1];
    const ClauseDescription &clause = program_.clauses.at(enabled.clause);
    Firing firing;
    firing.header = header;
    firing.probe_id = enabled.probe_id;
    firing.probe = probes_.find(enabled.probe_id);
    if (clause.timestamp_offset)
        firing.timestamp = read<uint64_t>(record, *clause.timestamp_offset);
    firing.shows_firing = clause.shows_firing;
    firing.flow = flow;
    if (flow && clause.shows_firing) {
        FlowState &state = flow_[header.cpu];
        if (*flow == Flow::Return && state.indent > 0)
            state.indent -= 2;
        firing.indent = state.indent;
    }
    output_->begin_firing(firing);
    for (size_t i = 0; i < clause.actions.size() && i / 64 < clause.mask_offsets.size(); i++) {
        auto mask = read<uint64_t>(record, clause.mask_offsets[i / 64]);
        if (mask & (uint64_t{1} << (i % 64)))
            clause.actions[i].consume(*this, clause.actions[i], record);
    }
    output_->end_firing(firing);
    if (flow) {
        FlowState &state = flow_[header.cpu];
        if (*flow == Flow::Entry)
            state.indent += 2;
        state.last_epid = header.epid;
    }
}

uint32_t Consumer::speculative_size(uint32_t epid) const {
    if (epid < 1 || epid > program_.enabled_probes.size())
        return 0;
    return program_.clauses.at(program_.enabled_probes[epid - 1].clause).speculative_size;
}

uint32_t Consumer::probe_id_of(uint32_t epid) const {
    if (epid < 1 || epid > program_.enabled_probes.size())
        return 0;
    return program_.enabled_probes[epid - 1].probe_id;
}

Flow Consumer::flow_of(const EnabledProbe &enabled) const {
    const Probe *probe = probes_.find(enabled.probe_id);
    if (!probe)
        return Flow::None;
    // "entry" or "...-entry" (function-entry), not "gentry".
    auto is = [&](std::string_view kind) {
        std::string_view name = probe->name.name;
        return name == kind || (name.size() > kind.size() && name.ends_with(kind) &&
                                name[name.size() - kind.size() - 1] == '-');
    };
    return is("entry") ? Flow::Entry : is("return") ? Flow::Return : Flow::None;
}

void Consumer::flush() {
    while (!held_returns_.empty())
        release_held_return(held_returns_.begin()->first, nullptr);
    std::fflush(out_);
    fresh_.clear();
}

void Consumer::end_speculation(uint32_t id, bool commit) {
    if (id == 0 || id > program_.speculation_count)
        return;
    int fd = object_.map_fd(program_.speculations_map);
    SpeculationSlot slot{};
    // Only a speculation that commit() or discard() marked is ended: a
    // second commit() of one already freed (maybe claimed again since) is not.
    if (fd < 0 || bpf_map_lookup_elem(fd, &id, &slot) != 0 ||
        slot.state != SpeculationSlot::Draining)
        return;
    Speculation &speculation = speculations_[id];
    if (speculation.state != Speculation::State::Open)
        return;
    speculation.state = commit ? Speculation::State::Committed : Speculation::State::Discarded;
    std::vector<std::vector<std::byte>> held = std::move(speculation.records);
    speculation.records.clear();
    speculation.bytes = 0;
    if (commit)
        for (const std::vector<std::byte> &record : held)
            print_record(record);
    free_drained(id);
}

void Consumer::free_drained(uint32_t id) {
    auto it = speculations_.find(id);
    if (it == speculations_.end() || it->second.state == Speculation::State::Open)
        return;
    int fd = object_.map_fd(program_.speculations_map);
    SpeculationSlot slot{};
    if (fd < 0 || bpf_map_lookup_elem(fd, &id, &slot) != 0)
        return;
    if (it->second.received < slot.written)
        return; // records speculated before commit() are still on their way
    SpeculationSlot free_slot{SpeculationSlot::Free, 0};
    bpf_map_update_elem(fd, &id, &free_slot, BPF_ANY);
    speculations_.erase(it);
}

std::string Consumer::probe_label(uint32_t epid) const {
    if (const Probe *probe = probes_.find(probe_id_of(epid)))
        return printf_string("ID %u: ", probe->id) + probe->name.full();
    return "";
}

void Consumer::report_fault(std::span<const std::byte> record) {
    auto fault = read<FaultRecord>(record, 0);
    faults_++;
    FaultReport report;
    report.epid = fault.faulting_epid;
    report.probe = probes_.find(probe_id_of(fault.faulting_epid));
    report.action = fault.action;
    report.kind = FaultKind(fault.kind);
    report.address = fault.address;
    report.description = fault_description(report.kind, fault.address);
    std::string where;
    std::string probe_name = probe_label(fault.faulting_epid);
    if (fault.faulting_epid >= 1 && fault.faulting_epid <= program_.enabled_probes.size()) {
        const EnabledProbe &enabled = program_.enabled_probes[fault.faulting_epid - 1];
        const ClauseDescription &clause = program_.clauses.at(enabled.clause);
        const SourceRange &at = fault.site >= 1 && fault.site <= clause.fault_sites.size()
                                    ? clause.fault_sites[fault.site - 1]
                                    : clause.location;
        if (at.valid()) {
            where = " at " + at.file_name() + ":" + std::to_string(at.begin.line) + ":" +
                    std::to_string(at.begin.column);
            report.location = at;
        }
    }
    std::fflush(out_);
    std::string line = "dtx: error on enabled probe ID " + std::to_string(fault.faulting_epid) +
                       " (" + probe_name + "): " + report.description + " in action #" +
                       std::to_string(fault.action) + where + "\n";
    std::fwrite(line.data(), 1, line.size(), err_);
    std::fflush(err_);
    output_->fault(report);
}

void Consumer::remember(uint64_t pid) const {
    if (options_.remember_process)
        options_.remember_process(uint32_t(pid));
}

std::string_view Consumer::string_at(std::span<const std::byte> record,
                                     const ValueLayout &layout) const {
    if (layout.offset >= record.size())
        return {};
    const char *text = reinterpret_cast<const char *>(record.data() + layout.offset);
    return std::string_view(
        text, strnlen(text, std::min<size_t>(layout.size, record.size() - layout.offset)));
}

FormatArgument Consumer::argument(const ValueLayout &layout,
                                  std::span<const std::byte> record) const {
    switch (layout.kind) {
    case ValueKind::String:
    case ValueKind::CharArray:
        // The text must outlive the call: keep it in the record's bytes.
        return StringValue{string_at(record, layout)};
    case ValueKind::KernelStack: {
        const auto *frames = reinterpret_cast<const uint64_t *>(record.data() + layout.offset);
        return StackValue{std::span(frames, layout.size / 8), false, 0};
    }
    case ValueKind::UserStack: {
        const auto *words = reinterpret_cast<const uint64_t *>(record.data() + layout.offset);
        remember(words[0]);
        return StackValue{std::span(words + 1, layout.size / 8 - 1), true, uint32_t(words[0])};
    }
    case ValueKind::UserSymbol:
    case ValueKind::UserModule:
    case ValueKind::UserAddress: {
        auto pid = read<uint64_t>(record, layout.offset);
        remember(pid);
        return UserAddressValue{uint32_t(pid), read<uint64_t>(record, layout.offset + 8)};
    }
    case ValueKind::Float: {
        auto bits = read<uint64_t>(record, layout.offset);
        if (layout.width == 4)
            return FloatValue{std::bit_cast<float>(uint32_t(bits))};
        return FloatValue{std::bit_cast<double>(bits)};
    }
    default: {
        auto bits = read<uint64_t>(record, layout.offset);
        IntegerValue value;
        value.bits = bits;
        value.size = layout.width;
        value.is_signed = layout.is_signed;
        return value;
    }
    }
}

KeyField Consumer::key_field(const ValueLayout &layout, std::span<const std::byte> key) const {
    switch (layout.kind) {
    case ValueKind::String:
    case ValueKind::CharArray:
        return KeyField::string(read_string(key, layout.offset, layout.size));
    case ValueKind::Bytes: {
        std::string raw(layout.size, '\0');
        if (layout.offset < key.size())
            std::memcpy(raw.data(), key.data() + layout.offset,
                        std::min<size_t>(layout.size, key.size() - layout.offset));
        return KeyField::bytes(std::move(raw));
    }
    case ValueKind::KernelStack:
    case ValueKind::UserStack: {
        bool user = layout.kind == ValueKind::UserStack;
        uint32_t first = user ? 8 : 0; // after a user stack's pid
        std::vector<uint64_t> frames;
        for (uint32_t i = first; i + 8 <= layout.size; i += 8) {
            auto frame = read<uint64_t>(key, layout.offset + i);
            if (frame == 0)
                break;
            frames.push_back(frame);
        }
        if (!user)
            return KeyField::stack(std::move(frames));
        auto pid = read<uint64_t>(key, layout.offset);
        remember(pid);
        return KeyField::user_stack(std::move(frames), pid);
    }
    case ValueKind::KernelSymbol:
    case ValueKind::KernelModule:
    case ValueKind::UserSymbol:
    case ValueKind::UserModule:
    case ValueKind::UserAddress: {
        KeyField field;
        if (layout.kind == ValueKind::KernelSymbol || layout.kind == ValueKind::KernelModule) {
            field = KeyField::symbol(read<uint64_t>(key, layout.offset));
            field.form =
                layout.kind == ValueKind::KernelModule ? SymbolForm::Module : SymbolForm::Function;
        } else {
            auto pid = read<uint64_t>(key, layout.offset);
            remember(pid);
            field =
                KeyField::user_symbol(read<uint64_t>(key, layout.offset + 8), pid,
                                      layout.kind == ValueKind::UserModule   ? SymbolForm::Module
                                      : layout.kind == ValueKind::UserSymbol ? SymbolForm::Function
                                                                             : SymbolForm::Address);
        }
        // Named now, while the process may still live; addresses in one
        // function (module) are then one key, as dtrace rounds them.
        if (field.form != SymbolForm::Address && options_.print.name_address)
            field.text = options_.print.name_address(field, field.addresses.front());
        return field;
    }
    default: {
        auto bits = read<uint64_t>(key, layout.offset);
        if (layout.is_signed)
            return KeyField::signed_integer(int64_t(bits), layout.width);
        return KeyField::unsigned_integer(bits, layout.width);
    }
    }
}

AggregationSnapshot &Consumer::snapshot(uint32_t id) {
    if (!fresh_.contains(id))
        read_aggregation_map(program_.aggregations.at(id).map_name);
    AggregationSnapshot &snap = snapshots_[id];
    auto normal = normals_.find(id);
    snap.normal = normal == normals_.end() ? 1 : normal->second;
    return snap;
}

void Consumer::read_aggregation_map(const std::string &map_name) {
    // The aggregations to snapshot, by their index in the map.
    std::map<uint32_t, const AggregationDescription *> reading;
    for (uint32_t id : aggregations_by_map_.at(map_name)) {
        if (!fresh_.insert(id).second)
            continue;
        const AggregationDescription &d = program_.aggregations.at(id);
        AggregationSnapshot &snap = snapshots_[id];
        snap = AggregationSnapshot{};
        snap.name = d.name;
        snap.function = d.function;
        reading[d.map_index] = &d;
    }
    if (reading.empty())
        return;
    // What the map's members share.
    const AggregationDescription &any = *reading.begin()->second;
    const size_t stride = any.value_size / 8;
    // A key can be in the spill map as well: its entries merge as CPUs do.
    for (const std::string &name : {map_name, any.spill_map_name}) {
        int fd = name.empty() ? -1 : object_.map_fd(name);
        if (fd < 0)
            continue;
        for_each_map_entry(fd, any.key_size, stride * 8 * size_t(cpu_count_),
                           [&](std::span<const std::byte> key, std::span<int64_t> values) {
                               auto member = reading.find(member_index(any, key));
                               if (member == reading.end())
                                   return;
                               const AggregationDescription &d = *member->second;
                               AggregationSnapshot &snap = snapshots_[d.id];
                               AggregationKey fields;
                               for (const ValueLayout &layout : d.key_fields)
                                   fields.push_back(key_field(layout, key));
                               const size_t words = data_word_count(d.function);
                               for (int cpu = 0; cpu < cpu_count_; cpu++) {
                                   std::span<int64_t> data =
                                       values.subspan(size_t(cpu) * stride, words);
                                   if (d.single_slot && values[size_t(cpu) * stride + words] == 0)
                                       continue; // this CPU recorded nothing
                                   convert_kernel_words(d.function, data);
                                   snap.add(fields, data);
                               }
                           });
    }
}

uint32_t Consumer::member_index(const AggregationDescription &any,
                                std::span<const std::byte> key) const {
    return any.single_slot  ? read<uint32_t>(key, 0)
           : any.shared_map ? uint32_t(read<uint64_t>(key, 0) >> 32)
                            : any.map_index;
}

std::map<uint32_t, std::set<uint64_t>>
Consumer::user_addresses_in_keys(const std::set<uint32_t> &pids) const {
    std::map<uint32_t, std::set<uint64_t>> in_use;
    auto is_user = [](const ValueLayout &layout) {
        return layout.kind == ValueKind::UserStack || layout.kind == ValueKind::UserSymbol ||
               layout.kind == ValueKind::UserModule || layout.kind == ValueKind::UserAddress;
    };
    for (const auto &[map_name, ids] : aggregations_by_map_) {
        std::map<uint32_t, const AggregationDescription *> members; // with user fields
        for (uint32_t id : ids) {
            const AggregationDescription &d = program_.aggregations.at(id);
            if (std::any_of(d.key_fields.begin(), d.key_fields.end(), is_user))
                members[d.map_index] = &d;
        }
        if (members.empty())
            continue;
        const AggregationDescription &any = *members.begin()->second;
        auto collect = [&](std::span<const std::byte> key, std::span<int64_t>) {
            auto member = members.find(member_index(any, key));
            if (member == members.end())
                return;
            for (const ValueLayout &layout : member->second->key_fields) {
                if (!is_user(layout))
                    continue;
                auto pid = uint32_t(read<uint64_t>(key, layout.offset));
                if (!pids.contains(pid))
                    continue;
                std::set<uint64_t> &addresses = in_use[pid];
                if (layout.kind != ValueKind::UserStack) {
                    addresses.insert(read<uint64_t>(key, layout.offset + 8));
                    continue;
                }
                for (uint32_t i = 8; i + 8 <= layout.size; i += 8) {
                    auto frame = read<uint64_t>(key, layout.offset + i);
                    if (frame == 0)
                        break;
                    addresses.insert(frame);
                }
            }
        };
        const size_t value_size = any.value_size * size_t(cpu_count_);
        for (const std::string &name : {map_name, any.spill_map_name})
            if (int fd = name.empty() ? -1 : object_.map_fd(name); fd >= 0)
                for_each_map_entry(fd, any.key_size, value_size, collect);
    }
    return in_use;
}

void Consumer::printa(const ActionDescription &action) {
    std::vector<const AggregationSnapshot *> aggregations;
    for (uint32_t id : action.aggregations) {
        aggregations.push_back(&snapshot(id));
        printed_.insert(id);
    }
    if (!action.parsed_format) {
        output_->printa(aggregations, nullptr);
        return;
    }
    // A format: one formatted row per key, in printing order.
    std::string text;
    for (const JoinedRow &row : join_aggregations(aggregations, options_.print.sort)) {
        std::vector<FormatArgument> keys;
        std::vector<std::string> strings;
        strings.reserve(row.key->size() + row.data.size());
        for (const KeyField &field : *row.key) {
            switch (field.kind) {
            case KeyFieldKind::String:
                strings.push_back(field.text);
                keys.push_back(StringValue{strings.back()});
                break;
            case KeyFieldKind::Stack:
                keys.push_back(StackValue{field.addresses, field.user, uint32_t(field.pid)});
                break;
            case KeyFieldKind::Symbol:
                if (field.user) {
                    keys.push_back(UserAddressValue{uint32_t(field.pid), field.addresses.at(0)});
                    break;
                }
                [[fallthrough]];
            default: {
                IntegerValue value;
                value.bits =
                    field.kind == KeyFieldKind::Symbol ? field.addresses.at(0) : field.bits;
                value.size = field.width;
                value.is_signed = field.is_signed;
                keys.push_back(value);
            }
            }
        }
        std::vector<FormatArgument> values;
        for (size_t i = 0; i < aggregations.size(); i++) {
            const AggregationFunction &function = aggregations[i]->function;
            if (is_histogram(function.kind)) {
                strings.push_back(format_value(function, row.data[i], aggregations[i]->normal));
                values.push_back(HistogramValue{strings.back()});
            } else if (function.kind == AggregationKind::Stddev) {
                values.push_back(
                    IntegerValue::of_unsigned(stddev_value(row.data[i], aggregations[i]->normal)));
            } else {
                values.push_back(IntegerValue::of_signed(
                    scalar_value(function, row.data[i], aggregations[i]->normal)));
            }
        }
        if (Status formatted = formatter_.format_printa(*action.parsed_format, keys, values, text);
            !formatted) {
            warn("printa(): " + formatted.error().message);
            return;
        }
    }
    output_->printa(aggregations, &text);
}

std::optional<std::string> Consumer::formatted(const ActionDescription &action,
                                               std::span<const std::byte> record,
                                               std::vector<FormatArgument> &arguments) {
    for (const ValueLayout &layout : action.values)
        arguments.push_back(argument(layout, record));
    std::string text;
    if (Status made = formatter_.format_printf(*action.parsed_format, arguments, text); !made) {
        warn(std::string(action.function) + "(): " + made.error().message);
        return std::nullopt;
    }
    return text;
}

void Consumer::warn(const std::string &message) {
    std::fflush(out_);
    std::fprintf(err_, "dtx: %s\n", message.c_str());
}

void Consumer::warn_once(const ActionDescription &action, std::string_view topic,
                         const std::string &message) {
    if (warned_.emplace(&action, std::string(topic)).second)
        warn(message);
}

void Consumer::set_exit_status(int status) {
    exit_status_ = status;
}

void Consumer::normalize(uint32_t aggregation, std::optional<uint64_t> divisor) {
    if (!divisor)
        normals_.erase(aggregation);
    else if (*divisor > 0)
        normals_[aggregation] = *divisor;
}

void Consumer::set_option(uint32_t epid, const std::string &name,
                          const std::optional<std::string> &value) {
    // A bare setopt("name") reaches dtrace's option code as "1".
    const std::string given = value.value_or("1");
    // A consumer made without the session's option code (a test's) refuses.
    Result<std::string> set = options_.set_option
                                  ? options_.set_option(options_, name, given)
                                  : Result<std::string>(Error("options cannot be set here"));
    if (set && !set->empty())
        warn(*set);
    if (set)
        return;
    action_error(epid, "couldn't set option \"" + name + "\" to \"" + given +
                           "\": " + set.error().message);
}

void Consumer::action_error(uint32_t epid, const std::string &message) {
    // dtrace's words, its blank line after them included.
    std::fflush(out_);
    std::fprintf(err_, "dtx: error on enabled probe ID %u (%s): %s\n\n", epid,
                 probe_label(epid).c_str(), message.c_str());
}

void Consumer::reopen_output(uint32_t epid, const std::optional<std::string> &path) {
    // The output's descriptor is made to refer to the new file, so that
    // everything writing to the output (system()'s commands too) follows.
    const int output = options_.output_fd;
    if (output < 0)
        return;
    if (options_.settle_commands)
        options_.settle_commands();
    std::fflush(out_);
    if (!path) {
        if (first_output_)
            dup2(first_output_.get(), output);
        return;
    }
    auto failed = [&] {
        action_error(epid, "couldn't freopen() \"" + *path + "\": " + std::strerror(errno));
    };
    UniqueFd file(open(path->c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666));
    if (!file)
        return failed();
    if (!first_output_)
        first_output_.reset(fcntl(output, F_DUPFD_CLOEXEC, 0));
    if (!first_output_ || dup2(file.get(), output) < 0)
        failed();
}

void Consumer::capture_packet(uint32_t epid, const CapturedPacket &packet) {
    if (options_.pcap_file.empty()) {
        output_->pcap(packet);
        return;
    }
    if (!pcap_file_)
        pcap_file_ = std::make_unique<PcapFile>(options_.pcap_file);
    if (Status written = pcap_file_->write(packet); !written)
        action_error(epid, "pcap(): " + written.error().message);
}

void Consumer::truncate_output() {
    if (options_.output_fd < 0)
        return;
    if (options_.settle_commands)
        options_.settle_commands();
    std::fflush(out_);
    if (ftruncate(options_.output_fd, 0) == 0)
        lseek(options_.output_fd, 0, SEEK_SET);
}

void Consumer::run_command(const std::string &command) {
    // The command writes to dtx's own stdout, not to an -o file, as dtrace's
    // do (to stderr where the output format keeps stdout its own), after
    // all that was printed before its record.
    output_->system(command);
    std::fflush(out_);
    std::fflush(stdout);
    if (!options_.run_command) {
        warn("system(): commands cannot run here");
        return;
    }
    options_.run_command(command, output_->command_output_fd());
}

void Consumer::clear(uint32_t aggregation) {
    reset(aggregation, nullptr);
}

void Consumer::truncate(uint32_t aggregation, std::optional<int64_t> keep) {
    AggregationSnapshot kept = snapshot(aggregation);
    trace::truncate(kept, keep);
    reset(aggregation, &kept);
}

void Consumer::reset(uint32_t id, const AggregationSnapshot *kept) {
    const AggregationDescription &d = program_.aggregations.at(id);
    const bool recorded = !snapshot(id).values.empty();
    fresh_.erase(id);
    // Every CPU's copy in its initial state; a slot's has-data word says
    // whether the entry is there.
    auto initial_values = [&](bool present) {
        std::vector<int64_t> initial = initial_data(d.function);
        convert_kernel_words(d.function, initial);
        if (d.single_slot)
            initial.push_back(present ? 1 : 0);
        initial.resize(d.value_size / 8);
        std::vector<int64_t> all;
        for (int cpu = 0; cpu < cpu_count_; cpu++)
            all.insert(all.end(), initial.begin(), initial.end());
        return all;
    };
    // clear() keeps the entry with its initial values, trunc() removes it.
    if (d.single_slot) {
        int fd = object_.map_fd(d.map_name);
        uint32_t slot = d.map_index;
        if (recorded && !kept)
            bpf_map_update_elem(fd, &slot, initial_values(true).data(), BPF_ANY);
        else if (recorded && kept->values.empty())
            bpf_map_update_elem(fd, &slot, initial_values(false).data(), BPF_ANY);
        return;
    }
    const std::vector<int64_t> cleared = initial_values(true);
    for (const std::string &name : {d.map_name, d.spill_map_name})
        if (int fd = name.empty() ? -1 : object_.map_fd(name); fd >= 0)
            reset_keys(d, fd, cleared, kept);
}

void Consumer::reset_keys(const AggregationDescription &d, int fd,
                          const std::vector<int64_t> &cleared, const AggregationSnapshot *kept) {
    // By the map's own keys: several can be one key of the snapshot
    // (addresses in one function, for ufunc()).
    std::vector<std::vector<std::byte>> keys;
    for_each_map_entry(fd, d.key_size, d.value_size * size_t(cpu_count_),
                       [&](std::span<const std::byte> key, std::span<int64_t>) {
                           if (!d.shared_map ||
                               uint32_t(read<uint64_t>(key, 0) >> 32) == d.map_index)
                               keys.emplace_back(key.begin(), key.end());
                       });
    for (const std::vector<std::byte> &key : keys) {
        if (!kept) {
            bpf_map_update_elem(fd, key.data(), cleared.data(), BPF_EXIST);
            continue;
        }
        AggregationKey fields;
        for (const ValueLayout &layout : d.key_fields)
            fields.push_back(key_field(layout, key));
        if (!kept->values.contains(fields))
            bpf_map_delete_elem(fd, key.data());
    }
}

namespace {

// dtrace's tag of a drop kind (its dtrace_dropkind_t's name), which -x
// droptags prints before the report. The kinds dtrace does not have (a
// firing dropped by nesting or for want of a thread context) get the tag
// dtrace gives a kind it does not know.
std::string_view drop_tag(DropKind kind) {
    switch (kind) {
    case DropKind::RingBuffer:
        return "DTRACEDROP_PRINCIPAL";
    case DropKind::Aggregation:
        return "DTRACEDROP_AGGREGATION";
    case DropKind::Dynamic:
        return "DTRACEDROP_DYNAMIC";
    case DropKind::Speculative:
        return "DTRACEDROP_SPEC";
    case DropKind::SpeculationBusy:
        return "DTRACEDROP_SPECBUSY";
    case DropKind::SpeculationUnavailable:
        return "DTRACEDROP_SPECUNAVAIL";
    case DropKind::Nesting:
    case DropKind::ThreadContext:
        break;
    }
    return "DTRACEDROP_UNKNOWN";
}

} // namespace

void Consumer::report_drops() {
    std::fflush(out_); // the trace printed before the drops comes before them
    int fd = object_.map_fd(program_.drops_map);
    reported_drops_.resize(size_t(DropCounter::Count), std::vector<uint64_t>(size_t(cpu_count_)));
    // Per CPU, what the counter gained since the last report.
    auto new_drops = [&](DropCounter counter) {
        std::vector<uint64_t> counts(static_cast<size_t>(cpu_count_));
        auto slot = uint32_t(counter);
        if (fd < 0 || bpf_map_lookup_elem(fd, &slot, counts.data()) != 0)
            return std::vector<uint64_t>(counts.size());
        std::vector<uint64_t> &reported = reported_drops_[slot];
        std::vector<uint64_t> gained(counts.size());
        for (size_t cpu = 0; cpu < counts.size(); cpu++) {
            gained[cpu] = counts[cpu] - std::min(counts[cpu], reported[cpu]);
            reported[cpu] = std::max(counts[cpu], reported[cpu]);
        }
        return gained;
    };
    auto plural = [](uint64_t n, const char *word) {
        return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
    };
    // "dtx: ", then the kind's tag under droptags.
    auto lead = [&](DropKind kind) {
        return options_.drop_tags ? "dtx: [" + std::string(drop_tag(kind)) + "] "
                                  : std::string("dtx: ");
    };
    std::vector<std::string_view> hints;
    auto hint_once = [&](std::string_view hint) {
        if (drop_hints_given_.insert(hint).second)
            hints.push_back(hint);
    };
    // As dtrace words them: per CPU for the buffers that are per CPU. The
    // sizes that ran out are named once (speculation failures name their
    // cause in dtrace's words already).
    for (auto [counter, kind, what, hint] :
         {std::tuple{DropCounter::RingBuffer, DropKind::RingBuffer, "drop",
                     "records were dropped: the principal buffer was full (raise -x bufsize)"},
          std::tuple{DropCounter::Aggregation, DropKind::Aggregation, "aggregation drop",
                     "aggregation updates were dropped: an aggregation's map was full (raise -x "
                     "aggsize)"}}) {
        std::vector<uint64_t> per_cpu = new_drops(counter);
        for (int cpu = 0; cpu < cpu_count_; cpu++)
            if (uint64_t n = per_cpu[size_t(cpu)]) {
                std::fprintf(err_, "%s%s on CPU %d\n", lead(kind).c_str(), plural(n, what).c_str(),
                             cpu);
                hint_once(hint);
                output_->drops(kind, cpu, n);
            }
    }
    auto total = [&](DropCounter counter) {
        std::vector<uint64_t> per_cpu = new_drops(counter);
        return std::accumulate(per_cpu.begin(), per_cpu.end(), uint64_t{0});
    };
    if (uint64_t n = total(DropCounter::Nesting)) {
        std::fprintf(err_, "%s%s: the probe fired inside %u firings already running\n",
                     lead(DropKind::Nesting).c_str(), plural(n, "probe firing drop").c_str(),
                     kNestingLevels);
        output_->drops(DropKind::Nesting, std::nullopt, n);
    }
    if (uint64_t n = total(DropCounter::ThreadContext)) {
        std::fprintf(err_, "%s%s: no memory for the thread's clause context\n",
                     lead(DropKind::ThreadContext).c_str(), plural(n, "probe firing drop").c_str());
        output_->drops(DropKind::ThreadContext, std::nullopt, n);
    }
    if (uint64_t n = total(DropCounter::Dynamic)) {
        std::fprintf(err_, "%s%s\n", lead(DropKind::Dynamic).c_str(),
                     plural(n, "dynamic variable drop").c_str());
        hint_once("dynamic variables were dropped: their space was full (raise -x dynvarsize)");
        output_->drops(DropKind::Dynamic, std::nullopt, n);
    }
    // Records too large for specsize on their own were dropped in the
    // kernel; the others, by the speculation's total, here.
    if (uint64_t n = speculative_drops_ - reported_speculative_drops_ +
                     total(DropCounter::SpeculationSize)) {
        std::fprintf(err_, "%s%s\n", lead(DropKind::Speculative).c_str(),
                     plural(n, "speculative drop").c_str());
        output_->drops(DropKind::Speculative, std::nullopt, n);
    }
    reported_speculative_drops_ = speculative_drops_;
    if (uint64_t n = total(DropCounter::SpeculationBusy)) {
        std::fprintf(err_, "%s%s (available buffer(s) still busy)\n",
                     lead(DropKind::SpeculationBusy).c_str(),
                     plural(n, "failed speculation").c_str());
        output_->drops(DropKind::SpeculationBusy, std::nullopt, n);
    }
    if (uint64_t n = total(DropCounter::SpeculationUnavailable)) {
        std::fprintf(err_, "%s%s (no speculative buffer available)\n",
                     lead(DropKind::SpeculationUnavailable).c_str(),
                     plural(n, "failed speculation").c_str());
        output_->drops(DropKind::SpeculationUnavailable, std::nullopt, n);
    }
    for (std::string_view hint : hints)
        std::fprintf(err_, "dtx: %.*s\n", int(hint.size()), hint.data());
    std::fflush(out_); // what the output format added
}

void Consumer::finish() {
    if (options_.buffer_policy == BufferPolicy::Ring)
        print_ring();
    flush();
    std::vector<AggregationSnapshot> remaining;
    for (const AggregationDescription &d : program_.aggregations) {
        if (printed_.contains(d.id))
            continue;
        AggregationSnapshot &snap = snapshot(d.id);
        if (!snap.values.empty())
            remaining.push_back(snap);
    }
    output_->aggregations_at_exit(remaining);
    std::fflush(out_);
    report_drops();
}

} // namespace dtx::trace

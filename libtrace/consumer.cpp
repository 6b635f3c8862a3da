#include "libtrace/consumer.h"

#include "libtrace/bpf_object.h"
#include "libtrace/print_value.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cinttypes>
#include <cstring>

namespace dtx::trace {

namespace {

template <typename T>
T read_at(std::span<const std::byte> bytes, size_t offset) {
    T value{};
    if (offset + sizeof(T) <= bytes.size())
        std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

std::string read_string(std::span<const std::byte> bytes, size_t offset, size_t size) {
    if (offset >= bytes.size())
        return {};
    size = std::min(size, bytes.size() - offset);
    const char *text = reinterpret_cast<const char *>(bytes.data() + offset);
    return std::string(text, strnlen(text, size));
}

std::string printf_string(const char *format, auto... args) {
    char buffer[128];
    int n = std::snprintf(buffer, sizeof(buffer), format, args...);
    return std::string(buffer, size_t(std::max(n, 0)) < sizeof(buffer) ? size_t(std::max(n, 0))
                                                                        : sizeof(buffer) - 1);
}

bool printable(const std::string &text) {
    for (unsigned char c : text)
        if (!std::isprint(c) && !std::isspace(c))
            return false;
    return true;
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
    default:
        return "unknown fault";
    }
}

Consumer::Consumer(const ProgramDescription &program, const BpfObject &object,
                   const ProbeTable &probes, ConsumerOptions options, FILE *out, FILE *err)
    : program_(program), object_(object), probes_(probes), options_(std::move(options)), out_(out),
      err_(err), formatter_(options_.format) {
    cpu_count_ = std::max(libbpf_num_possible_cpus(), 1);
}

void Consumer::write(const std::string &text) {
    std::fwrite(text.data(), 1, text.size(), out_);
}

void Consumer::consume(std::span<const std::byte> record) {
    auto header = read_at<RecordHeader>(record, 0);
    if (header.epid == 0) {
        report_fault(record);
        return;
    }
    if (header.epid == kProcessRecordEpid) {
        remember(read_at<ProcessRecord>(record, 0).pid);
        return;
    }
    if (header.epid > program_.enabled_probes.size())
        return;
    const EnabledProbe &enabled = program_.enabled_probes[header.epid - 1];
    const ClauseDescription &clause = program_.clauses.at(enabled.clause);
    if (!options_.quiet)
        print_probe_line(header, enabled);
    auto mask = read_at<uint64_t>(record, sizeof(RecordHeader));
    for (size_t i = 0; i < clause.actions.size() && i < 64; i++)
        if (mask & (uint64_t{1} << i))
            run_action(clause.actions[i], record, header.cpu);
    if (!options_.quiet)
        write("\n");
}

void Consumer::print_probe_line(const RecordHeader &header, const EnabledProbe &enabled) {
    if (!heading_printed_) {
        write(printf_string("%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME"));
        heading_printed_ = true;
    }
    const Probe *probe = probes_.find(enabled.probe_id);
    std::string name = probe ? probe->name.function_and_name() : "";
    write(printf_string("%3u %6u %32s ", header.cpu, enabled.probe_id, name.c_str()));
}

void Consumer::report_fault(std::span<const std::byte> record) {
    auto fault = read_at<FaultRecord>(record, 0);
    faults_++;
    std::string where;
    std::string probe_name;
    if (fault.faulting_epid >= 1 && fault.faulting_epid <= program_.enabled_probes.size()) {
        const EnabledProbe &enabled = program_.enabled_probes[fault.faulting_epid - 1];
        if (const Probe *probe = probes_.find(enabled.probe_id))
            probe_name = printf_string("ID %u: ", probe->id) + probe->name.full();
        const SourceRange &at = program_.clauses.at(enabled.clause).location;
        if (at.valid())
            where = " at " + at.file_name() + ":" + std::to_string(at.begin.line) + ":" +
                    std::to_string(at.begin.column);
    }
    std::fflush(out_);
    std::string line = "dtx: error on enabled probe ID " + std::to_string(fault.faulting_epid) +
                       " (" + probe_name + "): " +
                       fault_description(FaultKind(fault.kind), fault.address) + " in action #" +
                       std::to_string(fault.action) + where + "\n";
    std::fwrite(line.data(), 1, line.size(), err_);
    std::fflush(err_);
}

void Consumer::remember(uint64_t pid) const {
    if (options_.remember_process)
        options_.remember_process(uint32_t(pid));
}

std::string Consumer::trace_value(const ValueLayout &layout,
                                  std::span<const std::byte> record) const {
    bool quiet = options_.quiet;
    switch (layout.kind) {
    case ValueKind::KernelStack:
    case ValueKind::UserStack:
    case ValueKind::KernelSymbol:
    case ValueKind::KernelModule:
    case ValueKind::UserSymbol:
    case ValueKind::UserModule:
    case ValueKind::UserAddress:
        // As dtrace prints them, quiet or not: as aggregation keys.
        return format_key_field(key_field(layout, record), options_.print);
    case ValueKind::Integer: {
        auto bits = read_at<uint64_t>(record, layout.offset);
        // dtrace-utils' widths by size; unsigned types print unsigned.
        bool u = !layout.is_signed;
        switch (layout.width) {
        case 1:
            return u ? printf_string(quiet ? "%u" : " %3u", unsigned(uint8_t(bits)))
                     : printf_string(quiet ? "%d" : " %3d", int(int8_t(bits)));
        case 2:
            return u ? printf_string(quiet ? "%u" : " %5u", unsigned(uint16_t(bits)))
                     : printf_string(quiet ? "%d" : " %5d", int(int16_t(bits)));
        case 4:
            return u ? printf_string(quiet ? "%u" : " %10u", uint32_t(bits))
                     : printf_string(quiet ? "%d" : " %10d", int32_t(bits));
        default: // dtrace-utils' dt_print_trace: room for every digit
            return u ? printf_string(quiet ? "%" PRIu64 : " %20" PRIu64, bits)
                     : printf_string(quiet ? "%" PRId64 : " %19" PRId64, int64_t(bits));
        }
    }
    case ValueKind::String: {
        std::string text = read_string(record, layout.offset, layout.size);
        if (printable(text))
            return quiet ? text : printf_string("  %-33s", text.c_str());
        [[fallthrough]];
    }
    default: {
        // Raw bytes: dtrace's hex dump.
        std::string text = "\n";
        text += "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n";
        for (uint32_t row = 0; row < layout.size; row += 16) {
            text += printf_string("%5x:", row);
            std::string chars;
            for (uint32_t i = row; i < row + 16; i++) {
                if (i < layout.size) {
                    auto byte = read_at<uint8_t>(record, layout.offset + i);
                    text += printf_string(" %02x", byte);
                    chars += std::isprint(byte) ? char(byte) : '.';
                } else {
                    text += "   ";
                }
            }
            text += "  " + chars + "\n";
        }
        return text;
    }
    }
}

FormatArgument Consumer::argument(const ValueLayout &layout,
                                  std::span<const std::byte> record) const {
    switch (layout.kind) {
    case ValueKind::String: {
        // The text must outlive the call: keep it in the record's bytes.
        const char *text = reinterpret_cast<const char *>(record.data() + layout.offset);
        size_t size = std::min<size_t>(layout.size, record.size() - layout.offset);
        return StringValue{std::string_view(text, strnlen(text, size))};
    }
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
        auto pid = read_at<uint64_t>(record, layout.offset);
        remember(pid);
        return UserAddressValue{uint32_t(pid), read_at<uint64_t>(record, layout.offset + 8)};
    }
    default: {
        auto bits = read_at<uint64_t>(record, layout.offset);
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
        return KeyField::string(read_string(key, layout.offset, layout.size));
    case ValueKind::KernelStack:
    case ValueKind::UserStack: {
        bool user = layout.kind == ValueKind::UserStack;
        uint32_t first = user ? 8 : 0; // after a user stack's pid
        std::vector<uint64_t> frames;
        for (uint32_t i = first; i + 8 <= layout.size; i += 8) {
            auto frame = read_at<uint64_t>(key, layout.offset + i);
            if (frame == 0)
                break;
            frames.push_back(frame);
        }
        if (!user)
            return KeyField::stack(std::move(frames));
        auto pid = read_at<uint64_t>(key, layout.offset);
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
            field = KeyField::symbol(read_at<uint64_t>(key, layout.offset));
            field.form =
                layout.kind == ValueKind::KernelModule ? SymbolForm::Module : SymbolForm::Function;
        } else {
            auto pid = read_at<uint64_t>(key, layout.offset);
            remember(pid);
            field =
                KeyField::user_symbol(read_at<uint64_t>(key, layout.offset + 8), pid,
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
        auto bits = read_at<uint64_t>(key, layout.offset);
        if (layout.is_signed)
            return KeyField::signed_integer(int64_t(bits), layout.width);
        return KeyField::unsigned_integer(bits, layout.width);
    }
    }
}

AggregationSnapshot &Consumer::snapshot(uint32_t id) {
    const AggregationDescription &d = program_.aggregations.at(id);
    AggregationSnapshot &snap = snapshots_[id];
    snap = AggregationSnapshot{};
    snap.name = d.name;
    snap.function = d.function;
    auto normal = normals_.find(id);
    snap.normal = normal == normals_.end() ? 1 : normal->second;
    int fd = object_.map_fd(d.map_name);
    if (fd < 0)
        return snap;
    size_t words = data_word_count(d.function);
    size_t stride = d.value_word_count();
    std::vector<int64_t> values(stride * size_t(cpu_count_));
    auto add_cpus = [&](const AggregationKey &fields) {
        for (int cpu = 0; cpu < cpu_count_; cpu++) {
            std::span<int64_t> data(values.data() + size_t(cpu) * stride, words);
            if (d.single_slot && values[size_t(cpu) * stride + words] == 0)
                continue; // this CPU recorded nothing
            convert_kernel_words(d.function, data);
            snap.add(fields, data);
        }
    };
    if (d.single_slot) {
        uint32_t slot = 0;
        if (bpf_map_lookup_elem(fd, &slot, values.data()) == 0)
            add_cpus({});
        return snap;
    }
    std::vector<std::byte> key(d.key_size), next(d.key_size);
    const void *previous = nullptr;
    while (bpf_map_get_next_key(fd, previous, next.data()) == 0) {
        key = next;
        previous = key.data();
        if (bpf_map_lookup_elem(fd, key.data(), values.data()) != 0)
            continue;
        AggregationKey fields;
        for (const ValueLayout &layout : d.key_fields)
            fields.push_back(key_field(layout, key));
        add_cpus(fields);
    }
    return snap;
}

void Consumer::printa(const ActionDescription &action) {
    std::vector<const AggregationSnapshot *> aggregations;
    for (uint32_t id : action.aggregations) {
        aggregations.push_back(&snapshot(id));
        printed_.insert(id);
    }
    if (!action.parsed_format) {
        write(aggregations.size() == 1 ? format_printa(*aggregations[0], options_.print)
                                       : format_printa(aggregations, options_.print));
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
                value.bits = field.kind == KeyFieldKind::Symbol ? field.addresses.at(0) : field.bits;
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
                values.push_back(IntegerValue::of_unsigned(
                    stddev_value(row.data[i], aggregations[i]->normal)));
            } else {
                values.push_back(IntegerValue::of_signed(
                    scalar_value(function, row.data[i], aggregations[i]->normal)));
            }
        }
        if (auto error = formatter_.format_printa(*action.parsed_format, keys, values, text)) {
            std::fflush(out_);
            std::fprintf(err_, "dtx: printa(): %s\n", error->message.c_str());
            return;
        }
    }
    write(text);
}

void Consumer::run_action(const ActionDescription &action, std::span<const std::byte> record,
                          uint32_t) {
    switch (action.kind) {
    case ActionKind::Trace:
        write(trace_value(action.values.at(0), record));
        return;
    case ActionKind::Printf: {
        std::vector<FormatArgument> arguments;
        for (const ValueLayout &layout : action.values)
            arguments.push_back(argument(layout, record));
        std::string text;
        if (auto error = formatter_.format_printf(*action.parsed_format, arguments, text)) {
            std::fflush(out_);
            std::fprintf(err_, "dtx: printf(): %s\n", error->message.c_str());
            return;
        }
        write(text);
        return;
    }
    case ActionKind::Printa:
        printa(action);
        return;
    case ActionKind::Stack: {
        const ValueLayout &layout = action.values.at(0);
        KeyField stack = key_field(layout, record);
        write(format_key_field(stack, options_.print));
        return;
    }
    case ActionKind::Exit:
        if (!exit_status_)
            exit_status_ = int(read_at<int64_t>(record, action.values.at(0).offset));
        return;
    case ActionKind::Clear:
    case ActionKind::Trunc: {
        uint32_t id = action.aggregations.at(0);
        const AggregationDescription &d = program_.aggregations.at(id);
        int fd = object_.map_fd(d.map_name);
        AggregationSnapshot &snap = snapshot(id);
        // Every CPU's copy in its initial state; a slot's has-data word says
        // whether the entry is there.
        auto initial_values = [&](bool present) {
            std::vector<int64_t> initial = initial_data(d.function);
            convert_kernel_words(d.function, initial);
            if (d.single_slot)
                initial.push_back(present ? 1 : 0);
            std::vector<int64_t> all;
            for (int cpu = 0; cpu < cpu_count_; cpu++)
                all.insert(all.end(), initial.begin(), initial.end());
            return all;
        };
        std::vector<int64_t> cleared = initial_values(true);
        std::optional<AggregationSnapshot> kept;
        if (action.kind == ActionKind::Trunc) {
            std::optional<int64_t> keep;
            if (!action.values.empty())
                keep = read_at<int64_t>(record, action.values[0].offset);
            kept = snap;
            truncate(*kept, keep);
        }
        // clear() keeps the entry with its initial values, trunc() removes it.
        if (d.single_slot) {
            uint32_t slot = 0;
            if (!snap.values.empty() && !kept)
                bpf_map_update_elem(fd, &slot, cleared.data(), BPF_ANY);
            else if (!snap.values.empty() && kept->values.empty())
                bpf_map_update_elem(fd, &slot, initial_values(false).data(), BPF_ANY);
            return;
        }
        // By the map's own keys: several can be one key of the snapshot
        // (addresses in one function, for ufunc()).
        std::vector<std::vector<std::byte>> keys;
        std::vector<std::byte> next(d.key_size);
        const void *previous = nullptr;
        while (bpf_map_get_next_key(fd, previous, next.data()) == 0) {
            keys.push_back(next);
            previous = keys.back().data();
        }
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
        return;
    }
    case ActionKind::Normalize: {
        auto divisor = read_at<int64_t>(record, action.values.at(0).offset);
        if (divisor > 0)
            normals_[action.aggregations.at(0)] = uint64_t(divisor);
        return;
    }
    case ActionKind::Denormalize:
        normals_.erase(action.aggregations.at(0));
        return;
    case ActionKind::Setopt:
        return;
    case ActionKind::Print: {
        const ValueLayout &layout = action.values.at(0);
        std::span<const std::byte> bytes;
        if (layout.offset < record.size())
            bytes = record.subspan(layout.offset,
                                   std::min<size_t>(layout.size, record.size() - layout.offset));
        write(format_printed_value(program_.printed_types, action.printed_type, bytes));
        return;
    }
    }
}

void Consumer::report_drops() {
    int fd = object_.map_fd(program_.drops_map);
    if (fd < 0)
        return;
    static const char *const kWhat[] = {"drops", "aggregation drops", "dynamic variable drops"};
    std::vector<uint64_t> counts(static_cast<size_t>(cpu_count_));
    for (uint32_t slot = 0; slot < uint32_t(DropCounter::Count); slot++) {
        if (bpf_map_lookup_elem(fd, &slot, counts.data()) != 0)
            continue;
        for (int cpu = 0; cpu < cpu_count_; cpu++)
            if (counts[size_t(cpu)])
                std::fprintf(err_, "dtx: %" PRIu64 " %s on CPU %d\n", counts[size_t(cpu)],
                             kWhat[slot], cpu);
    }
}

void Consumer::finish() {
    write("\n");
    std::vector<AggregationSnapshot> remaining;
    for (const AggregationDescription &d : program_.aggregations) {
        if (printed_.contains(d.id))
            continue;
        AggregationSnapshot &snap = snapshot(d.id);
        if (!snap.values.empty())
            remaining.push_back(snap);
    }
    write(format_aggregations_at_exit(remaining, options_.print));
    std::fflush(out_);
    report_drops();
}

} // namespace dtx::trace

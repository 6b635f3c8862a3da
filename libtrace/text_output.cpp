// dtrace's text output (oformat=text, the default): see consumer.h for the
// probe line, aggregation_print.h for aggregations, print_value.h for print()
// and tracemem().
#include "libtrace/consumer.h"
#include "libtrace/output_format.h"
#include "libtrace/print_value.h"

#include <unistd.h>

#include <cctype>
#include <cinttypes>
#include <cstring>

namespace dtx::trace {

namespace {

std::string printf_string(const char *format, auto... args) {
    int n = std::snprintf(nullptr, 0, format, args...);
    std::string text(size_t(std::max(n, 0)), '\0');
    std::snprintf(text.data(), text.size() + 1, format, args...);
    return text;
}

class TextOutput final : public OutputFormat {
public:
    TextOutput(const Consumer &consumer, FILE *out) : consumer_(consumer), out_(out) {}

    void begin_firing(const Firing &firing) override {
        // quiet as it was when the record started: trace() pads by it
        // (dtrace reads it once per buffer, before the records).
        record_quiet_ = consumer_.options().quiet;
        if (firing.shows_firing)
            probe_line(firing);
    }

    void end_firing(const Firing &firing) override {
        // quiet as the record's own setopt() may have left it, as dtrace does.
        if (firing.shows_firing && !consumer_.options().quiet)
            write("\n");
    }

    void trace(const ValueLayout &layout, std::span<const std::byte> record) override {
        write(trace_value(layout, record));
    }

    void printf(std::span<const FormatArgument>, std::string_view text) override { write(text); }

    void print(uint32_t type, std::span<const std::byte> bytes) override {
        write(format_printed_value(consumer_.program().printed_types, type, bytes));
    }

    void tracemem(std::span<const std::byte> bytes, size_t size) override {
        write(format_bytes(bytes, size));
    }

    // dtrace's hex dump, as tracemem() shows memory (dtrace without tshark).
    void pcap(const CapturedPacket &packet) override {
        write(format_bytes(packet.bytes, packet.bytes.size()));
    }

    void stack(const KeyField &stack) override {
        write(format_key_field(stack, consumer_.options().print));
    }

    void exit(int) override {}
    void system(std::string_view) override {}
    int command_output_fd() const override { return STDOUT_FILENO; }

    void printa(std::span<const AggregationSnapshot *const> aggregations,
                const std::string *formatted) override {
        if (formatted)
            write(*formatted);
        else if (aggregations.size() == 1)
            write(format_printa(*aggregations[0], consumer_.options().print));
        else
            write(format_printa(aggregations, consumer_.options().print));
    }

    void aggregations_at_exit(std::span<const AggregationSnapshot> aggregations) override {
        // dtrace's "\n" at the end, which folded stacks go without.
        if (consumer_.options().print.stack_format != StackFormat::Folded)
            write("\n");
        write(format_aggregations_at_exit(aggregations, consumer_.options().print));
    }

    // Said on stderr by the consumer.
    void fault(const FaultReport &) override {}
    void drops(DropKind, std::optional<int>, uint64_t) override {}

private:
    void write(std::string_view text) { std::fwrite(text.data(), 1, text.size(), out_); }

    void probe_line(const Firing &firing) {
        const bool quiet = consumer_.options().quiet;
        // dtrace decides on its heading once, at the first firing.
        if (!heading_printed_) {
            if (firing.flow)
                write(printf_string("%3s %-41s\n", "CPU", "FUNCTION"));
            else if (!quiet)
                write(printf_string("%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME"));
            heading_printed_ = true;
        }
        const Probe *probe = firing.probe;
        const unsigned cpu = firing.header.cpu;
        if (!firing.flow) {
            if (quiet)
                return;
            std::string name = probe ? probe->name.function_and_name() : "";
            write(printf_string("%3u %6u %32s ", cpu, firing.probe_id, name.c_str()));
            return;
        }
        bool syscall = probe && probe->name.provider == "syscall";
        std::string name(size_t(firing.indent), ' ');
        switch (*firing.flow) {
        case Flow::Entry:
            name += syscall ? " => " : " -> ";
            break;
        case Flow::Return:
            name += syscall ? " <= " : " <- ";
            break;
        case Flow::None:
            name += "| ";
            break;
        }
        if (probe)
            name +=
                *firing.flow == Flow::None ? probe->name.function_and_name() : probe->name.function;
        write(printf_string("%3u %-41s ", cpu, name.c_str()));
    }

    // A recorded value as trace() prints it (quiet or not).
    std::string trace_value(const ValueLayout &layout, std::span<const std::byte> record) const {
        const ConsumerOptions &options = consumer_.options();
        const bool quiet = record_quiet_;
        auto bytes_at = [&](size_t size) {
            return format_bytes(record.subspan(std::min<size_t>(layout.offset, record.size())),
                                size);
        };
        switch (layout.kind) {
        case ValueKind::KernelStack:
        case ValueKind::UserStack:
        case ValueKind::KernelSymbol:
        case ValueKind::KernelModule:
        case ValueKind::UserSymbol:
        case ValueKind::UserModule:
        case ValueKind::UserAddress:
            // As dtrace prints them, quiet or not: as aggregation keys.
            return format_key_field(consumer_.key_field(layout, record), options.print);
        // dtrace's trace() shows a float's bits as an integer of its size.
        case ValueKind::Float:
        case ValueKind::Integer: {
            if (options.raw_bytes)
                return bytes_at(layout.width);
            auto bits = consumer_.read<uint64_t>(record, layout.offset);
            // dtrace-utils' dt_print_trace: widths by size, unsigned types unsigned.
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
            default:
                return u ? printf_string(quiet ? "%" PRIu64 : " %20" PRIu64, bits)
                         : printf_string(quiet ? "%" PRId64 : " %19" PRId64, int64_t(bits));
            }
        }
        case ValueKind::String: {
            if (options.raw_bytes)
                return bytes_at(layout.size);
            // A string prints as one whatever its bytes (dt_print_trace).
            std::string text(consumer_.string_at(record, layout));
            if (quiet)
                return text;
            // "  %-33s", at any length.
            return "  " + text + std::string(text.size() < 33 ? 33 - text.size() : 0, ' ');
        }
        case ValueKind::CharArray:
            if (options.raw_bytes || !looks_like_text(record, layout))
                return bytes_at(layout.size);
            return trace_value(
                {.kind = ValueKind::String, .offset = layout.offset, .size = layout.size}, record);
        default:
            return bytes_at(layout.size);
        }
    }

    // dtrace-utils' rule for a char array: printable characters (spaces,
    // \a and \b too), then only NULs or none.
    static bool looks_like_text(std::span<const std::byte> record, const ValueLayout &layout) {
        bool ended = false;
        for (uint32_t i = 0; i < layout.size; i++) {
            size_t at = size_t(layout.offset) + i;
            auto c = at < record.size() ? uint8_t(record[at]) : uint8_t(0);
            if (ended || c == 0) {
                if (c != 0 || (i == 0 && !ended))
                    return false;
                ended = true;
            } else if (!std::isprint(c) && !std::isspace(c) && c != '\a' && c != '\b') {
                return false;
            }
        }
        return true;
    }

    const Consumer &consumer_;
    FILE *out_;
    bool heading_printed_ = false;
    bool record_quiet_ = false;
};

} // namespace

std::unique_ptr<OutputFormat> make_text_output(const Consumer &consumer, FILE *out) {
    return std::make_unique<TextOutput>(consumer, out);
}

} // namespace dtx::trace

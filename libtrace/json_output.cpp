#include "libtrace/json_output.h"

#include "libtrace/consumer.h"
#include "libtrace/output_format.h"
#include "libtrace/print_value.h"

#include <unistd.h>

#include <charconv>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace dtx::trace {

namespace {

// The length of the valid UTF-8 sequence at the start of `text`, else 0
// (overlong forms, surrogates and code points past U+10FFFF are invalid).
size_t utf8_sequence(std::string_view text) {
    const auto byte = [&](size_t i) { return uint8_t(text[i]); };
    const auto continuation = [&](size_t i) { return i < text.size() && (byte(i) & 0xc0) == 0x80; };
    const uint8_t lead = byte(0);
    if (lead >= 0xc2 && lead <= 0xdf)
        return continuation(1) ? 2 : 0;
    if (lead >= 0xe0 && lead <= 0xef) {
        if (!continuation(1) || !continuation(2))
            return 0;
        if ((lead == 0xe0 && byte(1) < 0xa0) || (lead == 0xed && byte(1) >= 0xa0))
            return 0; // overlong, or a surrogate
        return 3;
    }
    if (lead >= 0xf0 && lead <= 0xf4) {
        if (!continuation(1) || !continuation(2) || !continuation(3))
            return 0;
        if ((lead == 0xf0 && byte(1) < 0x90) || (lead == 0xf4 && byte(1) >= 0x90))
            return 0; // overlong, or past U+10FFFF
        return 4;
    }
    return 0;
}

void append_number(std::string &out, std::integral auto value) {
    char digits[24];
    auto [end, error] = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, end);
}

void append_hex_bytes(std::string &out, std::span<const std::byte> bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    out += '"';
    for (std::byte b : bytes) {
        out += kDigits[uint8_t(b) >> 4];
        out += kDigits[uint8_t(b) & 0xf];
    }
    out += '"';
}

std::string_view function_name(AggregationKind kind) {
    switch (kind) {
    case AggregationKind::Count:
        return "count";
    case AggregationKind::Sum:
        return "sum";
    case AggregationKind::Avg:
        return "avg";
    case AggregationKind::Min:
        return "min";
    case AggregationKind::Max:
        return "max";
    case AggregationKind::Stddev:
        return "stddev";
    case AggregationKind::Quantize:
        return "quantize";
    case AggregationKind::Lquantize:
        return "lquantize";
    case AggregationKind::Llquantize:
        return "llquantize";
    }
    return "unknown";
}

std::string_view fault_name(FaultKind kind) {
    switch (kind) {
    case FaultKind::BadAddress:
        return "bad-address";
    case FaultKind::BadAlignment:
        return "bad-alignment";
    case FaultKind::IllegalOperation:
        return "illegal-operation";
    case FaultKind::DivideByZero:
        return "divide-by-zero";
    case FaultKind::NoScratch:
        return "no-scratch";
    case FaultKind::KernelPrivilege:
        return "kernel-privilege";
    case FaultKind::UserPrivilege:
        return "user-privilege";
    case FaultKind::TupleOverflow:
        return "tuple-overflow";
    case FaultKind::BadStack:
        return "bad-stack";
    case FaultKind::BadIndex:
        return "bad-index";
    default:
        return "unknown";
    }
}

// Whether a fault of `kind` has an address (an index for BadIndex).
bool fault_has_address(FaultKind kind) {
    return kind == FaultKind::BadAddress || kind == FaultKind::BadAlignment ||
           kind == FaultKind::KernelPrivilege || kind == FaultKind::UserPrivilege ||
           kind == FaultKind::BadIndex;
}

// The values a histogram's bucket holds, as [min, max].
struct BucketRange {
    int64_t min = 0;
    int64_t max = 0;
};

std::vector<BucketRange> bucket_ranges(const AggregationFunction &function) {
    std::vector<BucketRange> ranges;
    switch (function.kind) {
    case AggregationKind::Quantize: {
        // Bucket -2^k holds (-2^(k+1), -2^k] (bucket 0 down to INT64_MIN),
        // 0 holds 0, 2^k holds [2^k, 2^(k+1)) (the last up to INT64_MAX).
        for (size_t b = 0; b < quantize_bucket_count; b++) {
            const int64_t label = quantize_bucket_value(b);
            if (b < quantize_zero_bucket)
                ranges.push_back({b == 0 ? INT64_MIN : quantize_bucket_value(b - 1) + 1, label});
            else if (b == quantize_zero_bucket)
                ranges.push_back({0, 0});
            else
                ranges.push_back({label, b + 1 == quantize_bucket_count
                                             ? INT64_MAX
                                             : quantize_bucket_value(b + 1) - 1});
        }
        break;
    }
    case AggregationKind::Lquantize: {
        const LinearBuckets &l = function.linear;
        ranges.push_back({INT64_MIN, int64_t{l.lower} - 1});
        for (int64_t i = 1; i <= l.levels; i++)
            ranges.push_back({l.lower + (i - 1) * l.step, l.lower + i * l.step - 1});
        ranges.push_back({int64_t{l.lower} + int64_t{l.levels} * l.step, INT64_MAX});
        break;
    }
    case AggregationKind::Llquantize: {
        const LogLinearLayout layout = log_linear_layout(function.log_linear);
        const std::vector<uint64_t> &bounds = layout.positive_lower_bounds;
        // The positive buckets' ranges; unused buckets (bound 0) hold nothing.
        std::vector<BucketRange> positive(bounds.size());
        for (size_t i = 0; i < bounds.size(); i++) {
            size_t next = i + 1;
            while (next < bounds.size() && bounds[next] == 0)
                next++;
            positive[i] = {int64_t(bounds[i]),
                           next < bounds.size() ? int64_t(bounds[next]) - 1 : INT64_MAX};
        }
        ranges.resize(layout.bucket_count);
        const size_t zero = layout.zero_bucket;
        const int64_t floor = int64_t(bounds.front());
        ranges[zero] = {-(floor - 1), floor - 1};
        for (size_t i = 0; i < positive.size() && zero + 1 + i < ranges.size(); i++) {
            ranges[zero + 1 + i] = positive[i];
            if (zero >= 1 + i)
                ranges[zero - 1 - i] = {-positive[i].max, -positive[i].min};
        }
        ranges[0] = {INT64_MIN, -int64_t(bounds.back())};
        break;
    }
    default:
        break;
    }
    return ranges;
}

// print()'s value as JSON, laid out by its type as print_value.h lays it
// out in text: integers, pointers, chars and bit-fields as numbers, floats
// as numbers (null when not finite), enums by the name of their value
// (else its number), strings and char arrays as strings (up to a NUL),
// other arrays as arrays, structs and unions as objects of their members
// (an anonymous member's own members in their place).
class PrintedValueWriter : private RecordedBytes {
public:
    PrintedValueWriter(std::span<const PrintedType> types, std::span<const std::byte> bytes,
                       std::string &out)
        : RecordedBytes(bytes), types_(types), out_(out) {}

    void value(uint32_t type, uint64_t bit_offset, uint32_t bit_width) {
        const PrintedType *t = type < types_.size() ? &types_[type] : nullptr;
        if (!t) {
            out_ += "null";
            return;
        }
        const uint64_t offset = bit_offset / 8;
        if (bit_width) {
            uint32_t bytes = (bit_width + bit_offset % 8 + 7) / 8;
            uint64_t word = unsigned_at(offset, std::min<uint32_t>(bytes, 8)) >> (bit_offset % 8);
            if (bit_width < 64)
                word &= (uint64_t{1} << bit_width) - 1;
            append_number(out_, word);
            return;
        }
        switch (t->kind) {
        case PrintedType::Kind::Integer:
        case PrintedType::Kind::Char:
        case PrintedType::Kind::Pointer:
            integer(*t, offset);
            return;
        case PrintedType::Kind::Enum: {
            const int64_t number = signed_at(offset, t->size, t->is_signed);
            for (const auto &[name, v] : t->enumerators)
                if (v == number) {
                    append_json_string(out_, name);
                    return;
                }
            append_number(out_, number);
            return;
        }
        case PrintedType::Kind::Float:
            floating(offset, t->size);
            return;
        case PrintedType::Kind::String:
            text(offset, t->size);
            return;
        case PrintedType::Kind::Array: {
            const PrintedType *element = t->element < types_.size() ? &types_[t->element] : nullptr;
            if (element && element->kind == PrintedType::Kind::Char && element->size == 1) {
                text(offset, t->count);
                return;
            }
            out_ += '[';
            for (uint64_t i = 0; element && i < t->count; i++) {
                if (i)
                    out_ += ',';
                value(t->element, bit_offset + i * element->size * 8, 0);
            }
            out_ += ']';
            return;
        }
        case PrintedType::Kind::Struct:
        case PrintedType::Kind::Union: {
            out_ += '{';
            bool first = true;
            members(*t, bit_offset, first);
            out_ += '}';
            return;
        }
        }
        out_ += "null";
    }

private:
    void members(const PrintedType &t, uint64_t bit_offset, bool &first) {
        for (const PrintedType::Member &m : t.members) {
            const PrintedType *type = m.type < types_.size() ? &types_[m.type] : nullptr;
            if (m.name.empty() && type &&
                (type->kind == PrintedType::Kind::Struct ||
                 type->kind == PrintedType::Kind::Union)) {
                members(*type, bit_offset + m.bit_offset, first);
                continue;
            }
            out_ += first ? "" : ",";
            first = false;
            append_json_string(out_, m.name);
            out_ += ':';
            value(m.type, bit_offset + m.bit_offset, m.bit_width);
        }
    }

    int64_t signed_at(uint64_t offset, uint32_t size, bool is_signed) const {
        const uint64_t bits = unsigned_at(offset, size);
        if (!is_signed || size == 0 || size >= 8)
            return int64_t(bits);
        const unsigned shift = 64 - 8 * size;
        return int64_t(bits << shift) >> shift;
    }

    void integer(const PrintedType &t, uint64_t offset) {
        const bool is_signed = t.is_signed && t.kind != PrintedType::Kind::Pointer;
        if (is_signed)
            append_number(out_, signed_at(offset, t.size, true));
        else
            append_number(out_, unsigned_at(offset, t.size));
    }

    void floating(uint64_t offset, uint32_t size) {
        std::byte raw[8] = {};
        for (uint32_t i = 0; i < size && i < sizeof(raw); i++)
            raw[i] = std::byte(byte_at(offset + i));
        double number = 0;
        if (size == sizeof(float)) {
            float f;
            std::memcpy(&f, raw, sizeof(f));
            number = f;
        } else if (size == sizeof(double)) {
            std::memcpy(&number, raw, sizeof(number));
        } else {
            out_ += "null"; // long double: not a JSON number's precision
            return;
        }
        if (!std::isfinite(number)) {
            out_ += "null";
            return;
        }
        char digits[32];
        auto [end, error] = std::to_chars(digits, digits + sizeof digits, number);
        out_.append(digits, end);
    }

    // Up to `size` bytes, ending at a NUL.
    void text(uint64_t offset, uint64_t size) {
        std::string chars;
        for (uint64_t i = 0; i < size && byte_at(offset + i); i++)
            chars += char(byte_at(offset + i));
        append_json_string(out_, chars);
    }

    std::span<const PrintedType> types_;
    std::string &out_;
};

class JsonOutput final : public OutputFormat {
public:
    JsonOutput(const Consumer &consumer, FILE *out) : consumer_(consumer), out_(out) {}

    void begin_firing(const Firing &firing) override {
        // commit() shows the records it commits while its own firing is
        // shown: each firing is a line of its own.
        if (depth_ == lines_.size())
            lines_.emplace_back();
        Line &line = lines_[depth_++];
        line.text.clear();
        line.after.clear();
        line.actions = 0;
        std::string &out = line.text;
        out += "{\"type\":\"probe\",\"cpu\":";
        append_number(out, firing.header.cpu);
        if (firing.timestamp) {
            out += ",\"timestamp\":";
            append_number(out, *firing.timestamp);
        }
        out += ",\"probe\":";
        out += probe_object(firing.probe_id, firing.probe);
        out += ",\"actions\":[";
    }

    void end_firing(const Firing &firing) override {
        Line &line = lines_[--depth_];
        line.text += "]}\n";
        if (firing.shows_firing)
            write(line.text);
        write(line.after);
    }

    void trace(const ValueLayout &layout, std::span<const std::byte> record) override {
        std::string &out = action("trace");
        out += ",\"value\":";
        recorded_value(out, layout, record);
        out += '}';
    }

    void printf(std::span<const FormatArgument> arguments, std::string_view text) override {
        std::string &out = action("printf");
        out += ",\"output\":";
        append_json_string(out, text);
        out += ",\"arguments\":[";
        for (size_t i = 0; i < arguments.size(); i++) {
            if (i)
                out += ',';
            argument(out, arguments[i]);
        }
        out += "]}";
    }

    void print(uint32_t type, std::span<const std::byte> bytes) override {
        std::string &out = action("print");
        const std::vector<PrintedType> &types = consumer_.program().printed_types;
        out += ",\"type\":";
        append_json_string(out, type < types.size() ? types[type].name : "");
        out += ",\"value\":";
        PrintedValueWriter(types, bytes, out).value(type, 0, 0);
        out += '}';
    }

    void tracemem(std::span<const std::byte> bytes, size_t size) override {
        std::string &out = action("tracemem");
        out += ",\"bytes\":";
        append_hex_bytes(out, bytes.first(std::min(size, bytes.size())));
        out += '}';
    }

    void pcap(const CapturedPacket &packet) override {
        std::string &out = action("pcap");
        out += ",\"protocol\":" + std::to_string(packet.protocol);
        out += ",\"length\":" + std::to_string(packet.length);
        out += ",\"bytes\":";
        append_hex_bytes(out, packet.bytes);
        out += '}';
    }

    void stack(const KeyField &stack) override {
        std::string &out = action(stack.user ? "ustack" : "stack");
        out += ",\"frames\":";
        key_value(out, stack);
        out += '}';
    }

    void exit(int status) override {
        std::string &out = action("exit");
        out += ",\"status\":";
        append_number(out, status);
        out += '}';
    }

    void system(std::string_view command) override {
        std::string &out = action("system");
        out += ",\"command\":";
        append_json_string(out, command);
        out += '}';
    }

    int command_output_fd() const override { return STDERR_FILENO; }

    void printa(std::span<const AggregationSnapshot *const> aggregations,
                const std::string *formatted) override {
        std::string &out = action("printa");
        out += ",\"aggregations\":[";
        for (size_t i = 0; i < aggregations.size(); i++) {
            if (i)
                out += ',';
            append_json_string(out, aggregations[i]->name);
        }
        out += "]}";
        std::string object;
        aggregation_object(object, "printa", aggregations, formatted);
        lines_[depth_ - 1].after += object;
    }

    void aggregations_at_exit(std::span<const AggregationSnapshot> aggregations) override {
        std::string text;
        for (size_t i = 0; i < aggregations.size(); i++) {
            const bool reverse = consumer_.options().print.sort.reverse;
            const AggregationSnapshot *one[] = {
                &aggregations[reverse ? aggregations.size() - 1 - i : i]};
            aggregation_object(text, "exit", one, nullptr);
        }
        write(text);
    }

    void fault(const FaultReport &fault) override {
        std::string out = "{\"type\":\"error\",\"epid\":";
        append_number(out, fault.epid);
        if (fault.probe) {
            out += ",\"probe\":";
            out += probe_object(fault.probe->id, fault.probe);
        }
        out += ",\"action\":";
        append_number(out, fault.action);
        out += ",\"fault\":\"";
        out += fault_name(fault.kind);
        out += "\",\"message\":";
        append_json_string(out, fault.description);
        if (fault_has_address(fault.kind)) {
            out += fault.kind == FaultKind::BadIndex ? ",\"index\":" : ",\"address\":";
            if (fault.kind == FaultKind::BadIndex)
                append_number(out, int64_t(fault.address));
            else
                append_number(out, fault.address);
        }
        if (fault.location.valid()) {
            out += ",\"location\":";
            append_json_string(out, fault.location.file_name() + ":" +
                                        std::to_string(fault.location.begin.line) + ":" +
                                        std::to_string(fault.location.begin.column));
        }
        out += "}\n";
        write(out);
        std::fflush(out_);
    }

    void drops(DropKind kind, std::optional<int> cpu, uint64_t count) override {
        std::string out = "{\"type\":\"drop\",\"kind\":\"";
        out += drop_kind_name(kind);
        out += '"';
        if (cpu) {
            out += ",\"cpu\":";
            append_number(out, *cpu);
        }
        out += ",\"count\":";
        append_number(out, count);
        out += "}\n";
        write(out);
    }

private:
    // A firing's line while its actions are shown, and the lines of the
    // aggregations its printa() calls showed, which follow it.
    struct Line {
        std::string text;
        std::string after;
        size_t actions = 0;
    };

    void write(std::string_view text) { std::fwrite(text.data(), 1, text.size(), out_); }

    // Starts the next action's object in the line of the firing being
    // shown (actions run only within one).
    std::string &action(std::string_view name) {
        Line &line = lines_[depth_ - 1];
        if (line.actions++)
            line.text += ',';
        line.text += "{\"action\":\"";
        line.text += name;
        line.text += '"';
        return line.text;
    }

    // {"id":N,"provider":..,"module":..,"function":..,"name":..}, made once per probe.
    const std::string &probe_object(uint32_t id, const Probe *probe) {
        auto [it, added] = probe_objects_.try_emplace(id);
        if (!added)
            return it->second;
        std::string &out = it->second;
        out += "{\"id\":";
        append_number(out, id);
        if (probe) {
            for (auto [name, value] : {std::pair{"provider", &probe->name.provider},
                                       std::pair{"module", &probe->name.module},
                                       std::pair{"function", &probe->name.function},
                                       std::pair{"name", &probe->name.name}}) {
                out += ",\"";
                out += name;
                out += "\":";
                append_json_string(out, *value);
            }
        }
        out += '}';
        return out;
    }

    void integer(std::string &out, uint64_t bits, unsigned width, bool is_signed) {
        const unsigned shift = 64 - 8 * std::clamp(width, 1u, 8u);
        if (is_signed)
            append_number(out, int64_t(bits << shift) >> shift);
        else
            append_number(out, (bits << shift) >> shift);
    }

    // A frame or symbol: {"address":N,"module":..,"function":..,"offset":N},
    // as much of the name as is known.
    void frame(std::string &out, uint64_t address, std::string_view name, SymbolForm form) {
        out += "{\"address\":";
        append_number(out, address);
        SymbolParts parts = split_symbol_name(name, form == SymbolForm::Module);
        if (!parts.module.empty()) {
            out += ",\"module\":";
            append_json_string(out, parts.module);
        }
        if (!parts.function.empty()) {
            out += ",\"function\":";
            append_json_string(out, parts.function);
            if (!parts.offset && form == SymbolForm::Address)
                parts.offset = 0;
        }
        if (parts.offset) {
            out += ",\"offset\":";
            append_number(out, *parts.offset);
        }
        out += '}';
    }

    void key_value(std::string &out, const KeyField &field) {
        const AggregationPrintOptions &print = consumer_.options().print;
        auto name = [&](uint64_t address) {
            return print.name_address ? print.name_address(field, address) : std::string();
        };
        switch (field.kind) {
        case KeyFieldKind::Integer:
            integer(out, field.bits, field.width, field.is_signed);
            return;
        case KeyFieldKind::String:
            append_json_string(out, field.text);
            return;
        case KeyFieldKind::Bytes:
            out += "{\"bytes\":";
            append_hex_bytes(out, std::as_bytes(std::span(field.text.data(), field.text.size())));
            out += '}';
            return;
        case KeyFieldKind::Symbol: {
            const uint64_t address = field.addresses.front();
            frame(out, address, field.text.empty() ? name(address) : field.text, field.form);
            return;
        }
        case KeyFieldKind::Stack: {
            out += '[';
            bool first = true;
            for (uint64_t address : field.addresses) {
                if (address == 0)
                    break;
                if (!first)
                    out += ',';
                first = false;
                frame(out, address, name(address), SymbolForm::Address);
            }
            out += ']';
            return;
        }
        }
    }

    void recorded_value(std::string &out, const ValueLayout &layout,
                        std::span<const std::byte> record) {
        switch (layout.kind) {
        case ValueKind::Integer:
            integer(out, consumer_.read<uint64_t>(record, layout.offset), layout.width,
                    layout.is_signed);
            return;
        case ValueKind::String:
        case ValueKind::CharArray:
            append_json_string(out, consumer_.string_at(record, layout));
            return;
        case ValueKind::Float:
            argument(out, consumer_.argument(layout, record));
            return;
        default:
            key_value(out, consumer_.key_field(layout, record));
        }
    }

    void argument(std::string &out, const FormatArgument &value) {
        const FormatContext &format = consumer_.options().format;
        if (const auto *integer_value = std::get_if<IntegerValue>(&value)) {
            integer(out, integer_value->bits, integer_value->size, integer_value->is_signed);
        } else if (const auto *floating = std::get_if<FloatValue>(&value)) {
            char digits[32];
            auto [end, error] = std::to_chars(digits, digits + sizeof digits, floating->value);
            out.append(digits, end);
        } else if (const auto *string = std::get_if<StringValue>(&value)) {
            append_json_string(out, string->text);
        } else if (const auto *user = std::get_if<UserAddressValue>(&value)) {
            frame(out, user->address,
                  format.symbols.user ? format.symbols.user(user->pid, user->address) : "",
                  SymbolForm::Address);
        } else if (const auto *stack = std::get_if<StackValue>(&value)) {
            out += '[';
            for (size_t i = 0; i < stack->frames.size() && stack->frames[i] != 0; i++) {
                if (i)
                    out += ',';
                const uint64_t pc = stack->frames[i];
                std::string name = stack->user
                                       ? (format.symbols.user ? format.symbols.user(stack->pid, pc)
                                                              : std::string())
                                   : format.symbols.kernel ? format.symbols.kernel(pc)
                                                           : std::string();
                frame(out, pc, name, SymbolForm::Address);
            }
            out += ']';
        } else if (const auto *histogram = std::get_if<HistogramValue>(&value)) {
            append_json_string(out, histogram->text);
        }
    }

    // One aggregation's value for a key: a number, or a histogram's buckets.
    void aggregation_value(std::string &out, const AggregationSnapshot &aggregation,
                           std::span<const int64_t> data) {
        const AggregationFunction &function = aggregation.function;
        if (function.kind == AggregationKind::Stddev) {
            append_number(out, stddev_value(data, aggregation.normal));
            return;
        }
        if (!is_histogram(function.kind)) {
            append_number(out, scalar_value(function, data, aggregation.normal));
            return;
        }
        const std::vector<BucketRange> &ranges = ranges_of(function);
        out += "{\"buckets\":[";
        bool first = true;
        for (size_t b = 0; b < data.size() && b < ranges.size(); b++) {
            if (data[b] == 0)
                continue;
            out += first ? "{\"min\":" : ",{\"min\":";
            first = false;
            append_number(out, ranges[b].min);
            out += ",\"max\":";
            append_number(out, ranges[b].max);
            out += ",\"count\":";
            append_number(out, normalized_value(data[b], aggregation.normal));
            out += '}';
        }
        out += "]}";
    }

    const std::vector<BucketRange> &ranges_of(const AggregationFunction &function) {
        for (const auto &[known, ranges] : bucket_ranges_)
            if (known == function)
                return ranges;
        bucket_ranges_.emplace_back(function, bucket_ranges(function));
        return bucket_ranges_.back().second;
    }

    void aggregation_object(std::string &out, std::string_view source,
                            std::span<const AggregationSnapshot *const> aggregations,
                            const std::string *formatted) {
        out += "{\"type\":\"aggregation\",\"source\":\"";
        out += source;
        out += "\",\"aggregations\":[";
        for (size_t i = 0; i < aggregations.size(); i++) {
            out += i ? ",{\"name\":" : "{\"name\":";
            append_json_string(out, aggregations[i]->name);
            out += ",\"function\":\"";
            out += function_name(aggregations[i]->function.kind);
            out += "\"}";
        }
        out += "],\"entries\":[";
        const SortOptions &sort = consumer_.options().print.sort;
        bool first = true;
        for (const JoinedRow &row : join_aggregations(aggregations, sort)) {
            out += first ? "{\"keys\":[" : ",{\"keys\":[";
            first = false;
            for (size_t k = 0; k < row.key->size(); k++) {
                if (k)
                    out += ',';
                key_value(out, (*row.key)[k]);
            }
            out += "],\"values\":[";
            for (size_t i = 0; i < aggregations.size(); i++) {
                if (i)
                    out += ',';
                aggregation_value(out, *aggregations[i], row.data[i]);
            }
            out += "]}";
        }
        out += ']';
        if (formatted) {
            out += ",\"output\":";
            append_json_string(out, *formatted);
        }
        out += "}\n";
    }

    const Consumer &consumer_;
    FILE *out_;
    std::vector<Line> lines_; // kept, so their buffers are reused
    size_t depth_ = 0;        // firings being shown
    std::unordered_map<uint32_t, std::string> probe_objects_;
    std::vector<std::pair<AggregationFunction, std::vector<BucketRange>>> bucket_ranges_;
};

} // namespace

void append_json_string(std::string &out, std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    size_t i = 0;
    while (i < text.size()) {
        // Runs of plain ASCII are copied at once.
        size_t plain = i;
        while (plain < text.size()) {
            const auto c = uint8_t(text[plain]);
            if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80)
                break;
            plain++;
        }
        out.append(text.data() + i, plain - i);
        i = plain;
        if (i == text.size())
            break;
        const auto c = uint8_t(text[i]);
        if (c >= 0x80) {
            if (size_t length = utf8_sequence(text.substr(i))) {
                out.append(text.data() + i, length);
                i += length;
            } else {
                out += "\\ufffd";
                i++;
            }
            continue;
        }
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        }
        i++;
    }
    out += '"';
}

SymbolParts split_symbol_name(std::string_view name, bool form_is_module) {
    SymbolParts parts;
    auto hex = [](std::string_view text) -> std::optional<uint64_t> {
        if (!text.starts_with("0x"))
            return std::nullopt;
        uint64_t value = 0;
        auto [end, error] = std::from_chars(text.data() + 2, text.data() + text.size(), value, 16);
        if (error != std::errc() || end != text.data() + text.size())
            return std::nullopt;
        return value;
    };
    const size_t tick = name.find('`');
    if (tick == std::string_view::npos) {
        // "0x1234" (nothing known), or a module alone.
        if (form_is_module && !hex(name))
            parts.module = std::string(name);
        return parts;
    }
    parts.module = std::string(name.substr(0, tick));
    std::string_view rest = name.substr(tick + 1);
    if (hex(rest)) // "module`0x1234": no function known
        return parts;
    if (size_t plus = rest.rfind("+0x"); plus != std::string_view::npos) {
        if (std::optional<uint64_t> offset = hex(rest.substr(plus + 1))) {
            parts.offset = offset;
            rest = rest.substr(0, plus);
        }
    }
    parts.function = std::string(rest);
    return parts;
}

std::string_view drop_kind_name(DropKind kind) {
    switch (kind) {
    case DropKind::RingBuffer:
        return "ring-buffer";
    case DropKind::Aggregation:
        return "aggregation";
    case DropKind::Dynamic:
        return "dynamic";
    case DropKind::Nesting:
        return "nesting";
    case DropKind::ThreadContext:
        return "thread-context";
    case DropKind::Speculative:
        return "speculative";
    case DropKind::SpeculationBusy:
        return "speculation-busy";
    case DropKind::SpeculationUnavailable:
        return "speculation-unavailable";
    }
    return "unknown";
}

std::unique_ptr<OutputFormat> make_json_output(const Consumer &consumer, FILE *out) {
    return std::make_unique<JsonOutput>(consumer, out);
}

} // namespace dtx::trace

#include "libtrace/print_value.h"

#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace dtx::trace {

namespace {

using Kind = PrintedType::Kind;

std::string printf_string(const char *format, auto... args) {
    char buffer[128];
    int n = std::snprintf(buffer, sizeof(buffer), format, args...);
    if (n < 0)
        return {};
    return std::string(buffer, std::min<size_t>(size_t(n), sizeof(buffer) - 1));
}

class ValuePrinter : private RecordedBytes {
public:
    ValuePrinter(std::span<const PrintedType> types, std::span<const std::byte> bytes)
        : RecordedBytes(bytes), types_(types) {}

    // One value named `name` (empty at the top, for array elements and for
    // anonymous members), `depth` levels below the top; below it, a value
    // that is all zeros is left out.
    void value(const std::string &name, uint32_t type, uint64_t bit_offset, uint32_t bit_width,
               int depth) {
        const PrintedType *t = type_at(type);
        if (!t) {
            out_ += "<unknown type>\n";
            return;
        }
        if (depth > 0 && is_zero(*t, bit_offset, bit_width))
            return;
        indent(depth);
        if (!name.empty())
            out_ += "." + name + " = ";
        out_ += "(" + t->name + ")";
        const uint64_t offset = bit_offset / 8;
        if (bit_width)
            out_ += printf_string("0x%" PRIx64, bit_field(bit_offset, bit_width));
        else if (t->kind == Kind::Struct || t->kind == Kind::Union)
            record(*t, bit_offset, depth);
        else if (t->kind == Kind::Array)
            array(*t, offset, depth);
        else
            scalar(*t, offset);
        out_ += depth > 0 ? ",\n" : "\n";
    }

    std::string take() { return std::move(out_); }

private:
    // dtrace-utils indents print()'s lines from this column, a space a level.
    static constexpr size_t kMargin = 44;

    const PrintedType *type_at(uint32_t index) const {
        return index < types_.size() ? &types_[index] : nullptr;
    }

    void indent(int depth) { out_.append(kMargin + size_t(std::max(depth, 0)), ' '); }

    uint64_t bit_field(uint64_t bit_offset, uint32_t bit_width) const {
        uint32_t bytes = (bit_width + bit_offset % 8 + 7) / 8;
        uint64_t word = unsigned_at(bit_offset / 8, std::min<uint32_t>(bytes, 8));
        word >>= bit_offset % 8;
        if (bit_width < 64)
            word &= (uint64_t{1} << bit_width) - 1;
        return word;
    }

    bool is_zero(const PrintedType &t, uint64_t bit_offset, uint32_t bit_width) const {
        if (bit_width)
            return bit_field(bit_offset, bit_width) == 0;
        for (uint64_t i = 0; i < t.size; i++)
            if (byte_at(bit_offset / 8 + i))
                return false;
        return true;
    }

    int64_t signed_at(uint64_t offset, uint32_t size) const {
        uint64_t bits = unsigned_at(offset, size);
        if (size > 0 && size < 8 && (bits >> (size * 8 - 1)) & 1)
            bits |= ~((uint64_t{1} << (size * 8)) - 1);
        return int64_t(bits);
    }

    void scalar(const PrintedType &t, uint64_t offset) {
        switch (t.kind) {
        case Kind::Integer:
            out_ += t.is_signed ? std::to_string(signed_at(offset, t.size))
                                : std::to_string(unsigned_at(offset, t.size));
            return;
        case Kind::Pointer:
            out_ += printf_string("0x%" PRIx64, unsigned_at(offset, t.size));
            return;
        case Kind::Char: {
            uint8_t c = byte_at(offset);
            out_ += std::isprint(c) ? printf_string("'%c'", c) : printf_string("'\\%03o'", c);
            return;
        }
        case Kind::Float:
            floating(offset, t.size);
            return;
        case Kind::Enum:
            enumeration(t, offset);
            return;
        case Kind::String:
            out_ += "\"";
            for (uint64_t i = 0; i < t.size && byte_at(offset + i); i++)
                out_ += char(byte_at(offset + i));
            out_ += "\"";
            return;
        default:
            return;
        }
    }

    void record(const PrintedType &t, uint64_t bit_offset, int depth) {
        out_ += " {\n";
        for (const PrintedType::Member &m : t.members)
            value(m.name, m.type, bit_offset + m.bit_offset, m.bit_width, depth + 1);
        indent(depth);
        out_ += "}";
    }

    void array(const PrintedType &t, uint64_t offset, int depth) {
        out_ += " [\n";
        if (const PrintedType *element = type_at(t.element))
            for (uint64_t i = 0; i < t.count; i++)
                value("", t.element, (offset + i * element->size) * 8, 0, depth + 1);
        indent(depth);
        out_ += "]";
    }

    void floating(uint64_t offset, uint32_t size) {
        std::byte raw[16] = {};
        for (uint32_t i = 0; i < size && i < sizeof(raw); i++)
            raw[i] = std::byte(byte_at(offset + i));
        if (size == sizeof(float)) {
            float f;
            std::memcpy(&f, raw, sizeof(f));
            out_ += printf_string("%f", double(f));
        } else if (size == sizeof(double)) {
            double d;
            std::memcpy(&d, raw, sizeof(d));
            out_ += printf_string("%f", d);
        } else if (size == sizeof(long double)) {
            long double d;
            std::memcpy(&d, raw, sizeof(d));
            out_ += printf_string("%Lf", d);
        } else {
            out_ += "<unknown encoding>";
        }
    }

    void enumeration(const PrintedType &t, uint64_t offset) {
        int64_t value =
            t.is_signed ? signed_at(offset, t.size) : int64_t(unsigned_at(offset, t.size));
        for (const auto &[name, v] : t.enumerators)
            if (v == value) {
                out_ += name;
                return;
            }
        out_ += std::to_string(value);
    }

    std::span<const PrintedType> types_;
    std::string out_;
};

} // namespace

std::string format_printed_value(std::span<const PrintedType> types, uint32_t type,
                                 std::span<const std::byte> bytes) {
    // A pointer recorded with what it points to (print() of a pointer to
    // a struct or union): its address, then the pointee.
    if (type < types.size() && types[type].with_pointee && bytes.size() > 8) {
        RecordedBytes address(bytes);
        ValuePrinter printer(types, bytes.subspan(8));
        printer.value("", types[type].element, 0, 0, 0);
        return printf_string("0x%" PRIx64 " = *\n", address.unsigned_at(0, 8)) + printer.take();
    }
    ValuePrinter printer(types, bytes);
    printer.value("", type, 0, 0, 0);
    return printer.take();
}

std::string format_bytes(std::span<const std::byte> bytes, size_t size) {
    // dtrace's margin of five spaces before the offsets.
    std::string text = "\n" + std::string(11, ' ');
    for (const char *digit = "0123456789abcdef"; *digit; digit++)
        text += std::string("  ") + *digit;
    text += "  0123456789abcdef\n";
    auto byte_at = [&](size_t i) { return i < bytes.size() ? uint8_t(bytes[i]) : uint8_t(0); };
    char buffer[32];
    for (size_t row = 0; row < size; row += 16) {
        std::snprintf(buffer, sizeof buffer, "     %5zx:", row);
        text += buffer;
        std::string chars;
        for (size_t i = row; i < row + 16; i++) {
            if (i >= size) {
                text += "   ";
                continue;
            }
            uint8_t byte = byte_at(i);
            std::snprintf(buffer, sizeof buffer, " %02x", byte);
            text += buffer;
            chars += byte < ' ' || byte > '~' ? '.' : char(byte);
        }
        text += "  " + chars + "\n";
    }
    return text;
}

} // namespace dtx::trace

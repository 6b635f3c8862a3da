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
    // anonymous members) at `depth` members below the top and inside `nest`
    // levels of arrays; mirrors dt_print.c's dt_print_member().
    void member(const std::string &name, uint32_t type, uint64_t bit_offset, uint32_t bit_width,
                int depth, int nest) {
        const PrintedType *t = type_at(type);
        if (!t) {
            out_ += "<unknown type>";
            return;
        }
        const bool array_member = nest != 0 && depth == 0;
        const bool brief = array_member && !is_record(*t); // an array's scalar element
        if (!brief) {
            if (array_member)
                out_ += "\n";
            indent(depth + nest);
            out_ += t->name;
            if (!name.empty()) {
                if (!t->name.empty() && t->name.back() != '*' && t->name.back() != ' ')
                    out_ += " ";
                out_ += name;
                if (bit_width)
                    out_ += " :" + std::to_string(bit_width);
                out_ += " =";
            }
            out_ += " ";
        }
        value(*t, bit_offset, bit_width, depth, nest);
        // A record's closing brace ends the line unless it closes the value
        // print() was given or an array element (the array separates those).
        if (!brief && (!is_record(*t) || depth > 0))
            out_ += "\n";
    }

    std::string take() { return std::move(out_); }

private:
    static bool is_record(const PrintedType &t) {
        return t.kind == Kind::Struct || t.kind == Kind::Union;
    }

    const PrintedType *type_at(uint32_t index) const {
        return index < types_.size() ? &types_[index] : nullptr;
    }

    void indent(int levels) { out_.append(size_t(std::max(levels, 0)) * 4, ' '); }

    void hex(uint64_t offset, uint32_t size) {
        switch (size) {
        case 1:
        case 2:
        case 4:
        case 8:
            out_ += printf_string("%#" PRIx64, unsigned_at(offset, size));
            return;
        default:
            out_ += "<invalid size " + std::to_string(size) + ">";
        }
    }

    void character(uint8_t c) {
        if (std::isprint(c))
            out_ += printf_string("'%c'", c);
        else if (c == 0)
            out_ += "'\\0'";
        else
            out_ += printf_string("'\\%03o'", unsigned(c));
    }

    void value(const PrintedType &t, uint64_t bit_offset, uint32_t bit_width, int depth, int nest) {
        const uint64_t offset = bit_offset / 8;
        if (bit_width) {
            // A bit-field: the bits from its first byte on, as dt_print.c reads them.
            uint32_t bytes = (bit_width + bit_offset % 8 + 7) / 8;
            uint64_t word = unsigned_at(offset, std::min<uint32_t>(bytes, 8));
            word >>= bit_offset % 8;
            if (bit_width < 64)
                word &= (uint64_t{1} << bit_width) - 1;
            out_ += printf_string("%#" PRIx64, word);
            return;
        }
        switch (t.kind) {
        case Kind::Integer:
        case Kind::Pointer:
            hex(offset, t.size);
            return;
        case Kind::Char:
            character(byte_at(offset));
            return;
        case Kind::Float:
            floating(offset, t.size);
            return;
        case Kind::Enum:
            enumeration(t, offset);
            return;
        case Kind::String: {
            out_ += "\"";
            for (uint64_t i = 0; i < t.size && byte_at(offset + i); i++)
                out_ += char(byte_at(offset + i));
            out_ += "\"";
            return;
        }
        case Kind::Array:
            array(t, offset, depth, nest);
            return;
        case Kind::Struct:
        case Kind::Union:
            out_ += "{\n";
            for (const PrintedType::Member &m : t.members)
                member(m.name, m.type, bit_offset + m.bit_offset, m.bit_width, depth + 1, nest);
            indent(depth + nest);
            out_ += "}";
            return;
        }
    }

    void floating(uint64_t offset, uint32_t size) {
        std::byte raw[16] = {};
        for (uint32_t i = 0; i < size && i < sizeof(raw); i++)
            raw[i] = std::byte(byte_at(offset + i));
        if (size == sizeof(float)) {
            float f;
            std::memcpy(&f, raw, sizeof(f));
            out_ += printf_string("%+.7e", double(f));
        } else if (size == sizeof(double)) {
            double d;
            std::memcpy(&d, raw, sizeof(d));
            out_ += printf_string("%+.7e", d);
        } else if (size == sizeof(long double)) {
            long double d;
            std::memcpy(&d, raw, sizeof(d));
            out_ += printf_string("%+.16LE", d);
        } else {
            out_ += "<unknown encoding>";
        }
    }

    void enumeration(const PrintedType &t, uint64_t offset) {
        uint64_t bits = unsigned_at(offset, t.size);
        int64_t value = int64_t(bits);
        if (t.is_signed && t.size < 8 && t.size > 0 && (bits >> (t.size * 8 - 1)) & 1)
            value = int64_t(bits | ~((uint64_t{1} << (t.size * 8)) - 1));
        for (const auto &[name, v] : t.enumerators)
            if (v == value) {
                out_ += name;
                return;
            }
        out_ += std::to_string(value);
    }

    void array(const PrintedType &t, uint64_t offset, int depth, int nest) {
        const PrintedType *element = type_at(t.element);
        if (!element) {
            out_ += "<unknown type>";
            return;
        }
        const uint64_t stride = element->size;
        // A char array that holds a printable NUL-terminated string prints
        // as one.
        bool is_string = false;
        if (element->kind == Kind::Char && stride == 1) {
            uint64_t i = 0;
            while (i < t.count && std::isprint(byte_at(offset + i)))
                i++;
            is_string = i < t.count && byte_at(offset + i) == 0;
        }
        const bool brackets = !is_string || depth != 0;
        if (brackets)
            out_ += "[ ";
        if (is_string) {
            out_ += "\"";
            for (uint64_t i = 0; i < t.count && byte_at(offset + i); i++)
                out_ += char(byte_at(offset + i));
            out_ += "\"";
        } else {
            for (uint64_t i = 0; i < t.count; i++) {
                member("", t.element, (offset + i * stride) * 8, 0, 0, nest + depth + 1);
                if (i + 1 != t.count)
                    out_ += ", ";
                else if (is_record(*element))
                    out_ += "\n";
            }
        }
        if (brackets) {
            if (is_record(*element))
                indent(depth + nest);
            else
                out_ += " ";
            out_ += "]";
        }
    }

    std::span<const PrintedType> types_;
    std::string out_;
};

} // namespace

std::string format_printed_value(std::span<const PrintedType> types, uint32_t type,
                                 std::span<const std::byte> bytes) {
    ValuePrinter printer(types, bytes);
    printer.member("", type, 0, 0, 0, 0);
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

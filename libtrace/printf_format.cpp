#include "libtrace/printf_format.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdio>
#include <ctime>
#include <cwchar>

namespace dtx::trace {

namespace {

constexpr std::string_view kAnyInteger = "char, short, int, long, or long long";
constexpr std::string_view kSmallInteger = "char, short, or int";
constexpr std::string_view kFloat = "float, double, or long double";
constexpr std::string_view kAddress = "pointer or integer";
constexpr std::string_view kUserAddress =
    "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
constexpr std::string_view kString = "char [] or string (or use stringof)";

using AC = ArgumentClass;
using VR = ValueRendering;
using SG = Signedness;

// DTrace's conversion dictionary. A name is the size prefix plus the conversion
// character; combinations not listed here (%hhd, %zu, %lf, %F...) are undefined
// in DTrace and so are errors here.
constexpr std::array kConversions = {
    ConversionInfo{"a", 's', AC::KernelAddress, 0, SG::Any, VR::KernelSymbol, kAddress},
    ConversionInfo{"A", 's', AC::UserAddress, 0, SG::Any, VR::UserSymbol, kUserAddress},
    ConversionInfo{"c", 'c', AC::SmallInteger, 0, SG::Any, VR::Character, kSmallInteger},
    ConversionInfo{"C", 's', AC::SmallInteger, 0, SG::Any, VR::EscapedCharacter, kSmallInteger},
    ConversionInfo{"d", 'd', AC::Integer, 0, SG::Any, VR::IntegerBySignedness, kAnyInteger},
    ConversionInfo{"e", 'e', AC::Float, 0, SG::Any, VR::FloatingPoint, kFloat},
    ConversionInfo{"E", 'E', AC::Float, 0, SG::Any, VR::FloatingPoint, kFloat},
    ConversionInfo{"f", 'f', AC::Float, 0, SG::Any, VR::FloatingPoint, kFloat},
    ConversionInfo{"g", 'g', AC::Float, 0, SG::Any, VR::FloatingPoint, kFloat},
    ConversionInfo{"G", 'G', AC::Float, 0, SG::Any, VR::FloatingPoint, kFloat},
    ConversionInfo{"hd", 'd', AC::SizedInteger, 2, SG::Signed, VR::SignedInteger, "short"},
    ConversionInfo{"hi", 'i', AC::SizedInteger, 2, SG::Signed, VR::SignedInteger, "short"},
    ConversionInfo{"ho", 'o', AC::SizedInteger, 2, SG::Unsigned, VR::UnsignedInteger,
                   "unsigned short"},
    ConversionInfo{"hu", 'u', AC::SizedInteger, 2, SG::Unsigned, VR::UnsignedInteger,
                   "unsigned short"},
    ConversionInfo{"hx", 'x', AC::SizedInteger, 2, SG::Any, VR::UnsignedInteger, "short"},
    ConversionInfo{"hX", 'X', AC::SizedInteger, 2, SG::Any, VR::UnsignedInteger, "short"},
    ConversionInfo{"i", 'i', AC::Integer, 0, SG::Any, VR::IntegerBySignedness, kAnyInteger},
    ConversionInfo{"k", 's', AC::Stack, 0, SG::Any, VR::Stack, "stack"},
    ConversionInfo{"lc", 'c', AC::SizedInteger, 4, SG::Signed, VR::WideCharacter, "int"},
    ConversionInfo{"ld", 'd', AC::SizedInteger, 8, SG::Signed, VR::SignedInteger, "long"},
    ConversionInfo{"li", 'i', AC::SizedInteger, 8, SG::Signed, VR::SignedInteger, "long"},
    ConversionInfo{"lo", 'o', AC::SizedInteger, 8, SG::Unsigned, VR::UnsignedInteger,
                   "unsigned long"},
    ConversionInfo{"lu", 'u', AC::SizedInteger, 8, SG::Unsigned, VR::UnsignedInteger,
                   "unsigned long"},
    ConversionInfo{"lx", 'x', AC::SizedInteger, 8, SG::Any, VR::UnsignedInteger, "long"},
    ConversionInfo{"lX", 'X', AC::SizedInteger, 8, SG::Any, VR::UnsignedInteger, "long"},
    ConversionInfo{"lld", 'd', AC::SizedInteger, 8, SG::Signed, VR::SignedInteger, "long long"},
    ConversionInfo{"lli", 'i', AC::SizedInteger, 8, SG::Signed, VR::SignedInteger, "long long"},
    ConversionInfo{"llo", 'o', AC::SizedInteger, 8, SG::Unsigned, VR::UnsignedInteger,
                   "unsigned long long"},
    ConversionInfo{"llu", 'u', AC::SizedInteger, 8, SG::Unsigned, VR::UnsignedInteger,
                   "unsigned long long"},
    ConversionInfo{"llx", 'x', AC::SizedInteger, 8, SG::Any, VR::UnsignedInteger, "long long"},
    ConversionInfo{"llX", 'X', AC::SizedInteger, 8, SG::Any, VR::UnsignedInteger, "long long"},
    ConversionInfo{"Le", 'e', AC::Float, 16, SG::Any, VR::FloatingPoint, "long double"},
    ConversionInfo{"LE", 'E', AC::Float, 16, SG::Any, VR::FloatingPoint, "long double"},
    ConversionInfo{"Lf", 'f', AC::Float, 16, SG::Any, VR::FloatingPoint, "long double"},
    ConversionInfo{"Lg", 'g', AC::Float, 16, SG::Any, VR::FloatingPoint, "long double"},
    ConversionInfo{"LG", 'G', AC::Float, 16, SG::Any, VR::FloatingPoint, "long double"},
    ConversionInfo{"o", 'o', AC::Integer, 0, SG::Any, VR::UnsignedInteger, kAnyInteger},
    ConversionInfo{"p", 'x', AC::Pointer, 0, SG::Any, VR::UnsignedInteger, kAddress},
    ConversionInfo{"s", 's', AC::String, 0, SG::Any, VR::String, kString},
    ConversionInfo{"S", 's', AC::String, 0, SG::Any, VR::EscapedString, kString},
    ConversionInfo{"T", 's', AC::Time, 0, SG::Any, VR::Rfc822Time, "int64_t"},
    ConversionInfo{"u", 'u', AC::Integer, 0, SG::Any, VR::UnsignedInteger, kAnyInteger},
    ConversionInfo{"wc", 'c', AC::SizedInteger, 4, SG::Signed, VR::WideCharacter, "int"},
    ConversionInfo{"x", 'x', AC::Integer, 0, SG::Any, VR::UnsignedInteger, kAnyInteger},
    ConversionInfo{"X", 'X', AC::Integer, 0, SG::Any, VR::UnsignedInteger, kAnyInteger},
    ConversionInfo{"Y", 's', AC::Time, 0, SG::Any, VR::DateTime, "int64_t"},
};

const ConversionInfo *find_conversion(std::string_view name) {
    for (const ConversionInfo &info : kConversions) {
        if (info.name == name)
            return &info;
    }
    return nullptr;
}

std::string conversion_label(int number) {
    return "format conversion #" + std::to_string(number);
}

// Parses one conversion starting at format[percent] == '%'. DTrace reads flags,
// width, precision and size prefixes in any order, so this is a loop over
// characters rather than C's fixed sequence.
std::optional<FormatParseError> parse_conversion(std::string_view format, size_t percent,
                                                 int number, ConversionSpec &spec,
                                                 bool &is_percent) {
    auto error = [&](size_t at, std::string message) {
        return FormatParseError{conversion_label(number) + " " + std::move(message), at, percent};
    };
    spec.number = number;
    spec.offset = percent;
    is_percent = false;

    std::string name;
    bool seen_dot = false;
    bool seen_digits = false; // since the start or the last '.'
    size_t i = percent + 1;
    for (;; ++i) {
        if (i >= format.size())
            return error(format.size(), "has no conversion character before the end of the "
                                        "format string");
        char c = format[i];
        if (c >= '0' && c <= '9') {
            // A leading 0 is the zero-pad flag, and cancels an earlier '-'.
            if (c == '0' && !seen_dot && !seen_digits) {
                spec.flags.zero_pad = true;
                spec.flags.left_align = false;
                continue;
            }
            size_t digits_start = i;
            int64_t value = 0;
            for (; i < format.size() && format[i] >= '0' && format[i] <= '9'; ++i) {
                value = value * 10 + (format[i] - '0');
                if (value > INT_MAX)
                    return error(digits_start, seen_dot ? "has a precision that is too large"
                                                        : "has a width that is too large");
            }
            --i;
            if (seen_dot)
                spec.precision = static_cast<int>(value);
            else
                spec.width = static_cast<int>(value);
            seen_digits = true;
            continue;
        }
        switch (c) {
        case '#':
            spec.flags.alternate = true;
            continue;
        case '+':
            spec.flags.force_sign = true;
            continue;
        case ' ':
            spec.flags.space_sign = true;
            continue;
        case '\'':
            spec.flags.group_digits = true;
            continue;
        case '-':
            spec.flags.left_align = true;
            spec.flags.zero_pad = false;
            continue;
        case '*': {
            bool &dynamic = seen_dot ? spec.dynamic_precision : spec.dynamic_width;
            if (dynamic)
                return error(i, seen_dot ? "has more than one '*' for the output precision"
                                         : "has more than one '*' for the output width");
            dynamic = true;
            continue;
        }
        case '.':
            if (seen_dot)
                return error(i, "has more than one '.'");
            seen_dot = true;
            seen_digits = false;
            spec.precision = 0;
            continue;
        case '?':
            spec.width = 16; // the width of a 64-bit pointer in hex
            continue;
        case '@':
            spec.aggregation_value = true;
            continue;
        case '$':
            return error(i, "uses the unsupported positional form (%n$)");
        case '%':
            if (i == percent + 1) {
                is_percent = true;
                spec.length = 2;
                return std::nullopt;
            }
            return error(i, "cannot combine %% with flags, width or precision");
        case 'h':
        case 'l':
        case 'L':
        case 'w':
            name += c;
            continue;
        default:
            name += c;
            break;
        }
        break;
    }
    spec.length = i + 1 - percent;
    if (name == "ls" || name == "ws")
        return error(i, "(%" + name +
                            ") formats a wide-character string, which dtx does not "
                            "support");
    spec.info = find_conversion(name);
    if (spec.info == nullptr)
        return error(i, "is undefined: %" + name);
    return std::nullopt;
}

} // namespace

size_t ConversionSpec::argument_count() const {
    return (dynamic_width ? 1 : 0) + (dynamic_precision ? 1 : 0) + (aggregation_value ? 0 : 1);
}

size_t ParsedFormat::argument_count() const {
    size_t count = 0;
    for (const FormatPiece &piece : pieces) {
        if (const auto *spec = std::get_if<ConversionSpec>(&piece))
            count += spec->argument_count();
    }
    return count;
}

FormatParseResult parse_format(std::string_view format) {
    FormatParseResult result;
    std::optional<LiteralText> literal;
    auto append_literal = [&](std::string_view text, size_t offset) {
        if (!literal)
            literal = LiteralText{"", offset};
        literal->text += text;
    };

    int number = 0;
    size_t pos = 0;
    while (pos < format.size()) {
        size_t percent = format.find('%', pos);
        if (percent == std::string_view::npos) {
            append_literal(format.substr(pos), pos);
            break;
        }
        if (percent > pos)
            append_literal(format.substr(pos, percent - pos), pos);

        ConversionSpec spec;
        bool is_percent = false;
        if (auto error = parse_conversion(format, percent, ++number, spec, is_percent)) {
            result.error = std::move(error);
            return result;
        }
        pos = percent + spec.length;
        if (is_percent) {
            append_literal("%", percent);
            continue;
        }
        if (literal) {
            result.format.pieces.emplace_back(std::move(*literal));
            literal.reset();
        }
        result.format.pieces.emplace_back(spec);
    }
    if (literal)
        result.format.pieces.emplace_back(std::move(*literal));
    return result;
}

// --- Type rules -------------------------------------------------------------

namespace {

// Symbol address types are integer typedefs in D, so they count as integers.
bool is_integer(const ArgumentType &type) {
    return type.kind == ArgumentTypeKind::Integer ||
           type.kind == ArgumentTypeKind::KernelSymbolAddress ||
           type.kind == ArgumentTypeKind::UserSymbolAddress;
}

bool signedness_matches(Signedness required, bool is_signed) {
    return required == Signedness::Any || (required == Signedness::Signed) == is_signed;
}

} // namespace

bool argument_accepts(const ConversionSpec &spec, const ArgumentType &type, bool target_bound) {
    const ConversionInfo &info = *spec.info;
    switch (info.argument_class) {
    case ArgumentClass::Integer:
        return is_integer(type);
    case ArgumentClass::SmallInteger:
        return is_integer(type) && type.size <= 4;
    case ArgumentClass::SizedInteger:
        return is_integer(type) && type.size == info.required_size &&
               signedness_matches(info.required_signedness, type.is_signed);
    case ArgumentClass::Float:
        return type.kind == ArgumentTypeKind::Float &&
               (info.required_size == 0 || type.size == info.required_size);
    case ArgumentClass::Pointer:
    case ArgumentClass::KernelAddress:
        return type.kind == ArgumentTypeKind::Pointer || is_integer(type);
    case ArgumentClass::UserAddress:
        return type.kind == ArgumentTypeKind::UserSymbolAddress ||
               (target_bound && (type.kind == ArgumentTypeKind::Pointer || is_integer(type)));
    case ArgumentClass::String:
        return type.kind == ArgumentTypeKind::String || type.kind == ArgumentTypeKind::CharArray;
    case ArgumentClass::Stack:
        return type.kind == ArgumentTypeKind::Stack;
    case ArgumentClass::Time:
        return is_integer(type) && type.size == 8;
    }
    return false;
}

bool dynamic_argument_accepts(const ArgumentType &type) {
    return is_integer(type);
}

// --- Formatting -------------------------------------------------------------

IntegerValue IntegerValue::of_signed(int64_t value, uint8_t size) {
    return IntegerValue{static_cast<uint64_t>(value), size, true};
}

IntegerValue IntegerValue::of_unsigned(uint64_t value, uint8_t size) {
    return IntegerValue{value, size, false};
}

std::string escape_string(std::string_view text) {
    std::string escaped;
    escaped.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '\0':
            escaped += "\\0";
            return escaped; // the string ends here
        case '\a':
            escaped += "\\a";
            break;
        case '\b':
            escaped += "\\b";
            break;
        case '\f':
            escaped += "\\f";
            break;
        case '\n':
            escaped += "\\n";
            break;
        case '\r':
            escaped += "\\r";
            break;
        case '\t':
            escaped += "\\t";
            break;
        case '\v':
            escaped += "\\v";
            break;
        case '"':
            escaped += "\\\"";
            break;
        case '\\':
            escaped += "\\\\";
            break;
        default:
            if (c == ' ' || (c >= '!' && c <= '~')) {
                escaped += c;
            } else {
                auto byte = static_cast<unsigned char>(c);
                escaped += '\\';
                escaped += static_cast<char>('0' + (byte >> 6));
                escaped += static_cast<char>('0' + ((byte >> 3) & 7));
                escaped += static_cast<char>('0' + (byte & 7));
            }
        }
    }
    return escaped;
}

namespace {

// Appends snprintf's output; false if snprintf fails (e.g. a wide character the
// locale cannot encode).
template <typename... Values>
bool append_c_format(std::string &out, const std::string &c_format, Values... values) {
    int needed = std::snprintf(nullptr, 0, c_format.c_str(), values...);
    if (needed < 0)
        return false;
    size_t old_size = out.size();
    out.resize(old_size + static_cast<size_t>(needed) + 1);
    std::snprintf(out.data() + old_size, static_cast<size_t>(needed) + 1, c_format.c_str(),
                  values...);
    out.resize(old_size + static_cast<size_t>(needed));
    return true;
}

// The C format for one conversion, with DTrace's flag order; `width` is
// negative for a left-aligning '*' argument. A precision below 1 is left out,
// as DTrace does.
std::string build_c_format(const ConversionFlags &flags, int width, std::optional<int> precision,
                           std::string_view length_modifier, char conversion) {
    std::string c_format = "%";
    if (flags.alternate)
        c_format += '#';
    if (flags.zero_pad)
        c_format += '0';
    if (width < 0 || flags.left_align)
        c_format += '-';
    if (flags.force_sign)
        c_format += '+';
    if (flags.group_digits)
        c_format += '\'';
    if (flags.space_sign)
        c_format += ' ';
    if (width != 0)
        c_format += std::to_string(width < 0 ? -static_cast<int64_t>(width) : width);
    if (precision && *precision > 0)
        c_format += "." + std::to_string(*precision);
    c_format += length_modifier;
    c_format += conversion;
    return c_format;
}

int64_t sign_extend(const IntegerValue &value) {
    switch (value.size) {
    case 1:
        return static_cast<int8_t>(value.bits);
    case 2:
        return static_cast<int16_t>(value.bits);
    case 4:
        return static_cast<int32_t>(value.bits);
    default:
        return static_cast<int64_t>(value.bits);
    }
}

uint64_t zero_extend(const IntegerValue &value) {
    return value.size >= 8 ? value.bits : value.bits & ((uint64_t{1} << (value.size * 8)) - 1);
}

bool is_valid_size(const IntegerValue &value) {
    return value.size == 1 || value.size == 2 || value.size == 4 || value.size == 8;
}

std::string describe(const FormatArgument &value) {
    struct Describer {
        std::string operator()(const IntegerValue &v) const {
            return (v.size == 8 ? "an " : "a ") + std::to_string(v.size) + "-byte integer";
        }
        std::string operator()(const FloatValue &) const { return "a floating-point value"; }
        std::string operator()(const StringValue &) const { return "a string"; }
        std::string operator()(const UserAddressValue &) const { return "a user address"; }
        std::string operator()(const StackValue &) const { return "a stack"; }
        std::string operator()(const HistogramValue &) const { return "a histogram"; }
    };
    return std::visit(Describer{}, value);
}

std::string spec_name(const ConversionSpec &spec) {
    return std::string(spec.aggregation_value ? "%@" : "%") + std::string(spec.info->name);
}

Error mismatch(const ConversionSpec &spec, const FormatArgument &value) {
    return failure(conversion_label(spec.number) + " (" + spec_name(spec) + ") cannot format " +
                   describe(value));
}

// The error of a conversion that snprintf failed to format.
Error unformattable(const ConversionSpec &spec) {
    return failure(conversion_label(spec.number) + " (" + spec_name(spec) +
                   ") could not be formatted");
}

// DTrace's %Y: ctime's fields reordered as "2026 Nov 21 07:16:30", in local
// time, with English month names whatever the locale.
std::optional<std::string> format_date_time(uint64_t nanoseconds) {
    static constexpr std::array<const char *, 12> kMonths = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    auto seconds = static_cast<time_t>(nanoseconds / 1'000'000'000);
    struct tm tm {};
    if (localtime_r(&seconds, &tm) == nullptr)
        return std::nullopt;
    char text[64];
    std::snprintf(text, sizeof(text), "%d %s %2d %02d:%02d:%02d", tm.tm_year + 1900,
                  kMonths[static_cast<size_t>(tm.tm_mon)], tm.tm_mday, tm.tm_hour, tm.tm_min,
                  tm.tm_sec);
    return text;
}

// DTrace's %T, RFC 822 style; like dtrace it uses the ISO week-based year (%G).
std::optional<std::string> format_rfc822_time(uint64_t nanoseconds) {
    auto seconds = static_cast<time_t>(nanoseconds / 1'000'000'000);
    struct tm tm {};
    if (localtime_r(&seconds, &tm) == nullptr)
        return std::nullopt;
    char text[128];
    if (std::strftime(text, sizeof(text), "%a, %d %b %G %T %Z", &tm) == 0)
        return std::nullopt;
    return text;
}

std::string hex_address(uint64_t address) {
    char text[24];
    std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(address));
    return text;
}

} // namespace

Status Formatter::format_printf(const ParsedFormat &format,
                                std::span<const FormatArgument> arguments, std::string &out) const {
    return format_pieces(format, arguments, {}, false, out);
}

Status Formatter::format_printa(const ParsedFormat &format, std::span<const FormatArgument> keys,
                                std::span<const FormatArgument> aggregation_values,
                                std::string &out) const {
    return format_pieces(format, keys, aggregation_values, true, out);
}

Status Formatter::format_pieces(const ParsedFormat &format,
                                std::span<const FormatArgument> arguments,
                                std::span<const FormatArgument> aggregation_values, bool is_printa,
                                std::string &out) const {
    const size_t original_size = out.size();
    auto fail = [&](Error error) {
        out.resize(original_size);
        return Status(std::move(error));
    };
    size_t next_argument = 0;
    size_t next_aggregation_value = 0;

    // '*' arguments are read as int from a value of any width, as dtrace does.
    auto take_dynamic = [&](const ConversionSpec &spec, std::string_view what) -> Result<int> {
        if (next_argument >= arguments.size())
            return failure(conversion_label(spec.number) + " (" + spec_name(spec) +
                           ") is missing its '" + std::string(what) + "' argument");
        const FormatArgument &argument = arguments[next_argument++];
        const auto *integer = std::get_if<IntegerValue>(&argument);
        if (integer == nullptr || !is_valid_size(*integer))
            return failure(conversion_label(spec.number) + " (" + spec_name(spec) +
                           ") needs an integer for its '" + std::string(what) + "' argument, not " +
                           describe(argument));
        return static_cast<int>(sign_extend(*integer));
    };

    for (const FormatPiece &piece : format.pieces) {
        if (const auto *literal = std::get_if<LiteralText>(&piece)) {
            out += literal->text;
            continue;
        }
        const auto &spec = std::get<ConversionSpec>(piece);
        int width = spec.width;
        std::optional<int> precision = spec.precision;
        if (spec.dynamic_width) {
            auto taken = take_dynamic(spec, "*");
            if (!taken)
                return fail(std::move(taken).error());
            width = *taken;
            if (width == INT_MIN)
                return fail(failure(conversion_label(spec.number) + " (" + spec_name(spec) +
                                    ") has a width out of range"));
        }
        if (spec.dynamic_precision) {
            auto taken = take_dynamic(spec, ".*");
            if (!taken)
                return fail(std::move(taken).error());
            precision = *taken;
        }

        const FormatArgument *value = nullptr;
        if (spec.aggregation_value) {
            if (!is_printa)
                return fail(failure(conversion_label(spec.number) + " (" + spec_name(spec) +
                                    ") needs an aggregation and is only for printa()"));
            if (aggregation_values.empty())
                return fail(failure(conversion_label(spec.number) + " (" + spec_name(spec) +
                                    ") has no aggregation value to format"));
            value = &aggregation_values[next_aggregation_value];
            if (next_aggregation_value + 1 < aggregation_values.size())
                ++next_aggregation_value;
            // A histogram prints as a whole, whatever the conversion says.
            if (const auto *histogram = std::get_if<HistogramValue>(value)) {
                out += histogram->text;
                continue;
            }
        } else {
            if (next_argument >= arguments.size())
                return fail(failure(conversion_label(spec.number) + " (" + spec_name(spec) +
                                    ") is missing its value"));
            value = &arguments[next_argument++];
        }
        if (Status formatted = format_conversion(spec, width, precision, *value, out); !formatted)
            return fail(std::move(formatted).error());
    }

    if (!is_printa && next_argument < arguments.size())
        return fail(failure("the format string uses " + std::to_string(next_argument) + " of the " +
                            std::to_string(arguments.size()) + " arguments"));
    return {};
}

Status Formatter::format_conversion(const ConversionSpec &spec, int width,
                                    std::optional<int> precision, const FormatArgument &value,
                                    std::string &out) const {
    const ConversionInfo &info = *spec.info;
    const auto *integer = std::get_if<IntegerValue>(&value);
    // A user address (usym() ...) is an integer to every conversion but %A.
    IntegerValue user_address;
    if (const auto *user = std::get_if<UserAddressValue>(&value)) {
        user_address = IntegerValue::of_unsigned(user->address);
        integer = &user_address;
    }
    if (integer != nullptr && !is_valid_size(*integer))
        return failure(conversion_label(spec.number) + " (" + spec_name(spec) +
                       ") cannot format an integer of " + std::to_string(integer->size) + " bytes");
    auto c_format = [&](std::string_view length_modifier, char conversion) {
        return build_c_format(spec.flags, width, precision, length_modifier, conversion);
    };
    auto c_failure = [&]() { return Status(unformattable(spec)); };
    auto append_text = [&](const std::string &text) {
        return append_c_format(out, c_format("", 's'), text.c_str()) ? Status() : c_failure();
    };

    switch (info.rendering) {
    case ValueRendering::SignedInteger:
    case ValueRendering::UnsignedInteger:
    case ValueRendering::IntegerBySignedness: {
        if (integer == nullptr)
            return mismatch(spec, value);
        bool as_signed =
            info.rendering == ValueRendering::SignedInteger ||
            (info.rendering == ValueRendering::IntegerBySignedness && integer->is_signed);
        // %d of an unsigned type prints it unsigned, as dtrace rewrites it to %u.
        char conversion = info.rendering == ValueRendering::IntegerBySignedness && !as_signed
                              ? 'u'
                              : info.c_conversion;
        bool ok;
        if (integer->size == 8 && as_signed)
            ok = append_c_format(out, c_format("ll", conversion),
                                 static_cast<long long>(sign_extend(*integer)));
        else if (integer->size == 8)
            ok = append_c_format(out, c_format("ll", conversion),
                                 static_cast<unsigned long long>(integer->bits));
        else if (as_signed)
            ok = append_c_format(out, c_format("", conversion),
                                 static_cast<int>(sign_extend(*integer)));
        else
            ok = append_c_format(out, c_format("", conversion),
                                 static_cast<unsigned>(zero_extend(*integer)));
        return ok ? Status() : c_failure();
    }
    case ValueRendering::Character:
    case ValueRendering::WideCharacter:
    case ValueRendering::EscapedCharacter: {
        if (integer == nullptr || integer->size > 4)
            return mismatch(spec, value);
        auto character = static_cast<int>(sign_extend(*integer));
        if (info.rendering == ValueRendering::EscapedCharacter) {
            char byte = static_cast<char>(character);
            return append_text(escape_string(std::string_view(&byte, 1)));
        }
        bool ok = info.rendering == ValueRendering::Character
                      ? append_c_format(out, c_format("", 'c'), character)
                      : append_c_format(out, c_format("l", 'c'), static_cast<wint_t>(character));
        return ok ? Status() : c_failure();
    }
    case ValueRendering::FloatingPoint: {
        const auto *floating = std::get_if<FloatValue>(&value);
        if (floating == nullptr)
            return mismatch(spec, value);
        return append_c_format(out, c_format("", info.c_conversion), floating->value) ? Status()
                                                                                      : c_failure();
    }
    case ValueRendering::String:
    case ValueRendering::EscapedString: {
        const auto *string = std::get_if<StringValue>(&value);
        if (string == nullptr)
            return mismatch(spec, value);
        // Through c_str(), so the string ends at its first NUL like a record does.
        return append_text(info.rendering == ValueRendering::String ? std::string(string->text)
                                                                    : escape_string(string->text));
    }
    case ValueRendering::KernelSymbol: {
        if (integer == nullptr || integer->size < 4)
            return mismatch(spec, value);
        uint64_t address = zero_extend(*integer);
        return append_text(context_.symbols.kernel ? context_.symbols.kernel(address)
                                                   : hex_address(address));
    }
    case ValueRendering::UserSymbol: {
        uint32_t pid = context_.target_pid;
        uint64_t address = 0;
        if (const auto *user = std::get_if<UserAddressValue>(&value)) {
            pid = user->pid;
            address = user->address;
        } else if (integer != nullptr && integer->size >= 4) {
            address = zero_extend(*integer);
        } else {
            return mismatch(spec, value);
        }
        return append_text(context_.symbols.user ? context_.symbols.user(pid, address)
                                                 : hex_address(address));
    }
    case ValueRendering::Stack: {
        const auto *stack = std::get_if<StackValue>(&value);
        if (stack == nullptr)
            return mismatch(spec, value);
        return format_stack(spec, width, precision, *stack, out);
    }
    case ValueRendering::DateTime:
    case ValueRendering::Rfc822Time: {
        if (integer == nullptr || integer->size != 8)
            return mismatch(spec, value);
        auto text = info.rendering == ValueRendering::DateTime ? format_date_time(integer->bits)
                                                               : format_rfc822_time(integer->bits);
        if (!text)
            return c_failure();
        return append_text(*text);
    }
    }
    return mismatch(spec, value);
}

Status Formatter::format_stack(const ConversionSpec &spec, int width, std::optional<int> precision,
                               const StackValue &stack, std::string &out) const {
    auto frame_name = [&](uint64_t pc) {
        if (stack.user)
            return context_.symbols.user ? context_.symbols.user(stack.pid, pc) : hex_address(pc);
        return context_.symbols.kernel ? context_.symbols.kernel(pc) : hex_address(pc);
    };
    if (context_.folded_stacks) {
        // One line, root first, formatted as %s formats it.
        const auto end = std::find(stack.frames.begin(), stack.frames.end(), 0);
        std::string folded;
        for (auto pc = std::make_reverse_iterator(end); pc != stack.frames.rend(); ++pc) {
            std::string frame = frame_name(*pc);
            std::replace_if(
                frame.begin(), frame.end(), [](char c) { return c == ';' || c == '\n'; }, '_');
            folded = folded.empty() ? frame : folded + ";" + frame;
        }
        std::string text = folded.empty() ? "[empty]" : folded;
        if (!append_c_format(out, build_c_format(spec.flags, width, precision, "", 's'),
                             text.c_str()))
            return unformattable(spec);
        return {};
    }
    // As dtrace: a left-aligned %k indents every frame by the width instead
    // of padding it; otherwise frames are not indented.
    int indent = width < 0 ? -width : spec.flags.left_align ? width : 0;
    std::string frame_format =
        build_c_format(spec.flags, spec.flags.left_align ? 0 : width, precision, "", 's');
    out += '\n';
    for (uint64_t pc : stack.frames) {
        if (pc == 0)
            break;
        std::string frame = frame_name(pc);
        out.append(static_cast<size_t>(indent), ' ');
        if (!append_c_format(out, frame_format, frame.c_str()))
            return unformattable(spec);
        out += '\n';
    }
    return {};
}

} // namespace dtx::trace

// DTrace's printf()/printa() format strings: parsing, the type rules the compiler
// checks arguments against, and the formatting the consumer does with the values
// a probe recorded. The behaviour follows Oracle's dtrace-utils (libdtrace
// dt_printf.c), which extends C printf; where DTrace differs from C, so does this:
//   - flags, width and precision may come in any order ("%5-d" is "%-5d"); of
//     '-' and '0' the one written last wins ("%-05d" zero-pads);
//   - no size prefix is needed: the recorded value's width and signedness choose
//     the C type, so %d of an unsigned value prints it unsigned and %x of a
//     negative 32-bit int prints 8 hex digits;
//   - a precision of 0 (".0", or a '*' precision of 0 or less) is ignored;
//   - %p prints hex without "0x" ("%#p" adds it); '?' sets the width to 16;
//   - %a %A %k %S %C %Y %T and printa's '@' flag are DTrace's own;
//   - accepted size prefixes are h, l, ll, L and w only (no hh, z, j, t).
#pragma once

#include "libtrace/error.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace dtx::trace {

// What a conversion needs from its argument; the compiler's type checker maps D
// types onto ArgumentType and asks argument_accepts().
enum class ArgumentClass {
    Integer,       // d i o u x X: char, short, int, long, long long
    SmallInteger,  // c C: char, short or int
    SizedInteger,  // h/l/ll/w prefixed: an integer of exactly required_size bytes
    Float,         // e E f g G (and L-prefixed, which need a long double)
    Pointer,       // p: pointer or integer
    KernelAddress, // a: pointer, integer or kernel symbol address
    UserAddress,   // A: user symbol address; pointer or integer only with -p/-c
    String,        // s S: string or char array
    Stack,         // k: stack() or ustack()
    Time,          // Y T: a 64-bit integer of nanoseconds since the epoch
};

enum class Signedness { Any, Signed, Unsigned };

// How a conversion renders its value; fixed per conversion name.
enum class ValueRendering {
    SignedInteger,       // hd hi ld li lld lli: the value as signed
    UnsignedInteger,     // o u x X p and their size-prefixed forms
    IntegerBySignedness, // d i: signed or unsigned as the value's type is
    Character,           // c
    WideCharacter,       // lc wc
    EscapedCharacter,    // C: like c, non-printables as C escapes
    FloatingPoint,       // e E f g G
    String,              // s
    EscapedString,       // S: non-printables as C escapes
    KernelSymbol,        // a: "module`symbol+0x10"
    UserSymbol,          // A
    Stack,               // k
    DateTime,            // Y: "2026 Nov 21 07:16:30", local time
    Rfc822Time,          // T: "Sat, 21 Nov 2026 07:16:30 UTC", local time
};

struct ConversionInfo {
    std::string_view name; // size prefix + conversion character, e.g. "llx"
    char c_conversion;     // the character handed to snprintf
    ArgumentClass argument_class;
    uint8_t required_size; // SizedInteger and L-prefixed Float: bytes; else 0
    Signedness required_signedness;
    ValueRendering rendering;
    std::string_view prototype; // the acceptable types, for diagnostics
};

struct ConversionFlags {
    bool left_align = false;   // '-'
    bool force_sign = false;   // '+'
    bool space_sign = false;   // ' '
    bool alternate = false;    // '#'
    bool zero_pad = false;     // '0'
    bool group_digits = false; // '\'': thousands separators from LC_NUMERIC
};

struct ConversionSpec {
    const ConversionInfo *info = nullptr; // never null in a parsed format
    ConversionFlags flags;
    int width = 0;
    bool dynamic_width = false; // '*': consumes an integer argument before the value
    std::optional<int> precision;
    bool dynamic_precision = false; // ".*": consumes an integer after any '*' width
    bool aggregation_value = false; // '@' (printa only): formats the aggregation's value
    int number = 0;                 // 1-based position among the format's conversions
    size_t offset = 0;              // of the '%' in the format string
    size_t length = 0;              // through the conversion character

    // How many entries of printf's argument list this conversion consumes:
    // '*' arguments, then the value unless it is %% or an aggregation value.
    size_t argument_count() const;
};

struct LiteralText {
    std::string text; // "%%" already folded to "%"
    size_t offset = 0;
};

using FormatPiece = std::variant<LiteralText, ConversionSpec>;

struct ParsedFormat {
    std::vector<FormatPiece> pieces;

    // Entries of printf's argument list the whole format consumes.
    size_t argument_count() const;
};

struct FormatParseError {
    std::string message;
    size_t offset = 0;      // the offending byte, for the caret (the format's
                            // length when it ends inside a conversion)
    size_t spec_offset = 0; // the '%' that starts the conversion
};

struct FormatParseResult {
    ParsedFormat format;
    std::optional<FormatParseError> error;

    bool ok() const { return !error.has_value(); }
};

FormatParseResult parse_format(std::string_view format);

// --- Compile time: does a D type fit a conversion? ---------------------------

enum class ArgumentTypeKind {
    Integer, // including enums and char
    Pointer,
    Float,
    String,
    CharArray,
    Stack,
    KernelSymbolAddress, // _symaddr: an integer that also symbolizes
    UserSymbolAddress,   // _usymaddr
    Other,               // structs, unions, void, ...
};

struct ArgumentType {
    ArgumentTypeKind kind = ArgumentTypeKind::Other;
    uint32_t size = 0; // bytes
    bool is_signed = false;
};

// `target_bound` is whether -p or -c gave the script a $target, which lets %A
// symbolize plain integers and pointers in that process.
bool argument_accepts(const ConversionSpec &spec, const ArgumentType &type, bool target_bound);

// The type a '*' width or precision argument must have: any integer.
bool dynamic_argument_accepts(const ArgumentType &type);

// --- Run time: format recorded values ----------------------------------------

// An integer as recorded: its bits and the width and signedness of its D type.
struct IntegerValue {
    uint64_t bits = 0;
    uint8_t size = 8; // 1, 2, 4 or 8
    bool is_signed = true;

    static IntegerValue of_signed(int64_t value, uint8_t size = 8);
    static IntegerValue of_unsigned(uint64_t value, uint8_t size = 8);
};

struct FloatValue {
    double value = 0;
};

// A string; it ends at its first NUL, as a recorded string does.
struct StringValue {
    std::string_view text;
};

// A user address with the process it belongs to (usym(), uaddr()).
struct UserAddressValue {
    uint32_t pid = 0;
    uint64_t address = 0;
};

// stack() or ustack(): program counters, innermost first; a 0 ends the stack.
struct StackValue {
    std::span<const uint64_t> frames;
    bool user = false;
    uint32_t pid = 0; // user stacks only
};

// A quantize/lquantize/llquantize value for printa's '@', already rendered as
// the histogram dtrace prints; the conversion's flags and width do not apply.
struct HistogramValue {
    std::string_view text;
};

using FormatArgument = std::variant<IntegerValue, FloatValue, StringValue, UserAddressValue,
                                    StackValue, HistogramValue>;

// Symbolization is the caller's: each returns "module`symbol+0x10" (or
// "module`symbol" at offset 0, "module`0x..." or "0x..." when nothing is
// known). An unset resolver prints the address as "0x...".
struct SymbolResolver {
    std::function<std::string(uint64_t address)> kernel;
    std::function<std::string(uint32_t pid, uint64_t address)> user;
};

struct FormatContext {
    SymbolResolver symbols;
    uint32_t target_pid = 0; // the process for %A of a plain integer ($target)
    // stackformat=folded: %k prints a stack's frames on one line, root
    // first, joined by ';' ("[empty]" without frames).
    bool folded_stacks = false;
};

// Formats records for one parsed format string. On error, `out` is left as it
// was and the error says which conversion did not fit which value.
class Formatter {
public:
    explicit Formatter(FormatContext context) : context_(std::move(context)) {}

    // printf(): `arguments` are the recorded values in order, '*' arguments
    // included; their number must match the format exactly.
    Status format_printf(const ParsedFormat &format, std::span<const FormatArgument> arguments,
                         std::string &out) const;

    // printa(): `keys` feed the ordinary conversions (extra keys are not
    // printed); the n-th '@' conversion formats aggregation_values[n], and '@'
    // conversions beyond the last value repeat the last one.
    Status format_printa(const ParsedFormat &format, std::span<const FormatArgument> keys,
                         std::span<const FormatArgument> aggregation_values,
                         std::string &out) const;

private:
    Status format_pieces(const ParsedFormat &format, std::span<const FormatArgument> arguments,
                         std::span<const FormatArgument> aggregation_values, bool is_printa,
                         std::string &out) const;
    Status format_conversion(const ConversionSpec &spec, int width, std::optional<int> precision,
                             const FormatArgument &value, std::string &out) const;
    // %k: a stack, a frame a line, or on one line (FormatContext::folded_stacks).
    Status format_stack(const ConversionSpec &spec, int width, std::optional<int> precision,
                        const StackValue &stack, std::string &out) const;

    FormatContext context_;
};

// DTrace's %S escaping: \0 \a \b \f \n \r \t \v \" \\ as C escapes, other bytes
// outside '!'..'~' (space excepted) as three octal digits; stops after a NUL.
std::string escape_string(std::string_view text);

} // namespace dtx::trace

// DTrace printf/printa formats: parsing, type rules and formatting. Expected
// outputs follow dtrace-utils' behaviour (its test/unittest/printf results where
// one exists: %p as "61", %?d as 16 columns, %'d ungrouped in the C locale).
#include "libtrace/printf_format.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cstdlib>
#include <ctime>
#include <locale.h>
#include <vector>

namespace dtx::trace {
namespace {

IntegerValue i8(int8_t v) {
    return IntegerValue::of_signed(v, 1);
}
IntegerValue i16(int16_t v) {
    return IntegerValue::of_signed(v, 2);
}
IntegerValue i32(int32_t v) {
    return IntegerValue::of_signed(v, 4);
}
IntegerValue i64(int64_t v) {
    return IntegerValue::of_signed(v, 8);
}
IntegerValue u16(uint16_t v) {
    return IntegerValue::of_unsigned(v, 2);
}
IntegerValue u32(uint32_t v) {
    return IntegerValue::of_unsigned(v, 4);
}
IntegerValue u64(uint64_t v) {
    return IntegerValue::of_unsigned(v, 8);
}
StringValue str(std::string_view s) {
    return StringValue{s};
}
FloatValue dbl(double v) {
    return FloatValue{v};
}

ParsedFormat parse_ok(std::string_view format) {
    FormatParseResult result = parse_format(format);
    EXPECT_TRUE(result.ok()) << format << ": " << result.error->message;
    return result.format;
}

FormatParseError parse_error(std::string_view format) {
    FormatParseResult result = parse_format(format);
    EXPECT_FALSE(result.ok()) << format << " parsed";
    return result.error.value_or(FormatParseError{});
}

// By value: the parsed format is usually a temporary.
ConversionSpec only_conversion(const ParsedFormat &format) {
    std::optional<ConversionSpec> found;
    for (const FormatPiece &piece : format.pieces) {
        if (const auto *spec = std::get_if<ConversionSpec>(&piece)) {
            EXPECT_FALSE(found.has_value()) << "more than one conversion";
            found = *spec;
        }
    }
    EXPECT_TRUE(found.has_value());
    return found.value_or(ConversionSpec{});
}

std::string printf_with(const FormatContext &context, std::string_view format,
                        std::vector<FormatArgument> arguments) {
    ParsedFormat parsed = parse_ok(format);
    std::string out;
    Status formatted = Formatter(context).format_printf(parsed, arguments, out);
    EXPECT_TRUE(formatted) << format << ": " << formatted.error().message;
    return out;
}

std::string dprintf(std::string_view format, std::vector<FormatArgument> arguments) {
    return printf_with(FormatContext{}, format, std::move(arguments));
}

// The error message of a printf() that must fail; checks `out` is untouched.
std::string printf_error(std::string_view format, std::vector<FormatArgument> arguments) {
    ParsedFormat parsed = parse_ok(format);
    std::string out = "kept";
    Status formatted = Formatter(FormatContext{}).format_printf(parsed, arguments, out);
    EXPECT_FALSE(formatted) << format << " formatted as '" << out << "'";
    EXPECT_EQ(out, "kept");
    return formatted ? "" : formatted.error().message;
}

std::string printa(std::string_view format, std::vector<FormatArgument> keys,
                   std::vector<FormatArgument> values) {
    ParsedFormat parsed = parse_ok(format);
    std::string out;
    Status formatted = Formatter(FormatContext{}).format_printa(parsed, keys, values, out);
    EXPECT_TRUE(formatted) << format << ": " << formatted.error().message;
    return out;
}

ArgumentType int_type(uint32_t size, bool is_signed = true) {
    return ArgumentType{ArgumentTypeKind::Integer, size, is_signed};
}
const ArgumentType kPointer{ArgumentTypeKind::Pointer, 8, false};
const ArgumentType kString{ArgumentTypeKind::String, 256, false};

bool accepts(std::string_view format, const ArgumentType &type, bool target_bound = false) {
    return argument_accepts(only_conversion(parse_ok(format)), type, target_bound);
}

// --- Parsing -------------------------------------------------------------------

TEST(PrintfParse, LiteralOnly) {
    ParsedFormat format = parse_ok("hello world\n");
    ASSERT_EQ(format.pieces.size(), 1u);
    EXPECT_EQ(std::get<LiteralText>(format.pieces[0]).text, "hello world\n");
    EXPECT_EQ(format.argument_count(), 0u);
}

TEST(PrintfParse, DoublePercentFoldsIntoLiteral) {
    ParsedFormat format = parse_ok("100%% done %%");
    ASSERT_EQ(format.pieces.size(), 1u);
    EXPECT_EQ(std::get<LiteralText>(format.pieces[0]).text, "100% done %");
    EXPECT_EQ(dprintf("100%%", {}), "100%");
}

TEST(PrintfParse, SpecFieldsAndOffsets) {
    ParsedFormat format = parse_ok("ab%+#10.4llx|");
    ASSERT_EQ(format.pieces.size(), 3u);
    const auto &spec = std::get<ConversionSpec>(format.pieces[1]);
    EXPECT_EQ(spec.offset, 2u);
    EXPECT_EQ(spec.length, 10u);
    EXPECT_TRUE(spec.flags.force_sign);
    EXPECT_TRUE(spec.flags.alternate);
    EXPECT_FALSE(spec.flags.left_align);
    EXPECT_EQ(spec.width, 10);
    EXPECT_EQ(spec.precision, 4);
    EXPECT_EQ(spec.info->name, "llx");
    EXPECT_EQ(spec.info->c_conversion, 'x');
    EXPECT_EQ(spec.number, 1);
    EXPECT_EQ(std::get<LiteralText>(format.pieces[2]).offset, 12u);
}

TEST(PrintfParse, AllFlags) {
    ConversionSpec spec = only_conversion(parse_ok("%-+ #'d"));
    EXPECT_TRUE(spec.flags.left_align);
    EXPECT_TRUE(spec.flags.force_sign);
    EXPECT_TRUE(spec.flags.space_sign);
    EXPECT_TRUE(spec.flags.alternate);
    EXPECT_TRUE(spec.flags.group_digits);
    EXPECT_FALSE(spec.flags.zero_pad);
}

TEST(PrintfParse, DynamicWidthAndPrecisionConsumeArguments) {
    ConversionSpec spec = only_conversion(parse_ok("%*.*s"));
    EXPECT_TRUE(spec.dynamic_width);
    EXPECT_TRUE(spec.dynamic_precision);
    EXPECT_EQ(spec.argument_count(), 3u);
    EXPECT_EQ(parse_ok("%d %*s %@d %% %.*f").argument_count(), 1u + 2u + 0u + 2u);
}

TEST(PrintfParse, FlagsAndWidthInAnyOrder) {
    ConversionSpec spec = only_conversion(parse_ok("%5-d"));
    EXPECT_EQ(spec.width, 5);
    EXPECT_TRUE(spec.flags.left_align);
    EXPECT_EQ(dprintf("%5-d|", {i32(42)}), "42   |");
}

TEST(PrintfParse, LastOfZeroAndMinusWins) {
    ConversionSpec zero_last = only_conversion(parse_ok("%-05d"));
    EXPECT_TRUE(zero_last.flags.zero_pad);
    EXPECT_FALSE(zero_last.flags.left_align);
    ConversionSpec minus_last = only_conversion(parse_ok("%0-5d"));
    EXPECT_FALSE(minus_last.flags.zero_pad);
    EXPECT_TRUE(minus_last.flags.left_align);
}

TEST(PrintfParse, QuestionMarkIsPointerWidth) {
    EXPECT_EQ(only_conversion(parse_ok("%?p")).width, 16);
}

TEST(PrintfParse, DotWithoutDigitsIsPrecisionZero) {
    EXPECT_EQ(only_conversion(parse_ok("%.d")).precision, 0);
    EXPECT_FALSE(only_conversion(parse_ok("%d")).precision.has_value());
}

TEST(PrintfParse, AggregationFlag) {
    ConversionSpec spec = only_conversion(parse_ok("%@10u"));
    EXPECT_TRUE(spec.aggregation_value);
    EXPECT_EQ(spec.width, 10);
    EXPECT_EQ(spec.info->name, "u");
    EXPECT_EQ(spec.argument_count(), 0u);
}

TEST(PrintfParse, EveryDTraceConversionIsDefined) {
    for (const char *name :
         {"a",   "A",   "c",   "C",   "d",   "e",  "E",  "f",  "g",  "G",  "hd", "hi",
          "ho",  "hu",  "hx",  "hX",  "i",   "k",  "lc", "ld", "li", "lo", "lu", "lx",
          "lX",  "o",   "p",   "s",   "S",   "T",  "u",  "wc", "x",  "X",  "Y",  "lld",
          "lli", "llo", "llu", "llx", "llX", "Le", "LE", "Lf", "Lg", "LG"}) {
        std::string format = std::string("%") + name;
        FormatParseResult result = parse_format(format);
        ASSERT_TRUE(result.ok()) << format << ": " << result.error->message;
        EXPECT_EQ(only_conversion(result.format).info->name, name);
    }
}

TEST(PrintfParse, UndefinedConversionPointsAtIt) {
    FormatParseError error = parse_error("x=%Z");
    EXPECT_EQ(error.message, "format conversion #1 is undefined: %Z");
    EXPECT_EQ(error.offset, 3u);
    EXPECT_EQ(error.spec_offset, 2u);
}

TEST(PrintfParse, CSizePrefixesDTraceLacksAreUndefined) {
    EXPECT_EQ(parse_error("%hhd").message, "format conversion #1 is undefined: %hhd");
    EXPECT_EQ(parse_error("%zu").message, "format conversion #1 is undefined: %z");
    EXPECT_EQ(parse_error("%jd").message, "format conversion #1 is undefined: %j");
    EXPECT_EQ(parse_error("%lf").message, "format conversion #1 is undefined: %lf");
    EXPECT_EQ(parse_error("%F").message, "format conversion #1 is undefined: %F");
}

TEST(PrintfParse, IncompleteSpecAtEnd) {
    FormatParseError error = parse_error("abc %-5");
    EXPECT_NE(error.message.find("before the end of the format string"), std::string::npos);
    EXPECT_EQ(error.offset, 7u);
    EXPECT_EQ(error.spec_offset, 4u);
    EXPECT_EQ(parse_error("%").spec_offset, 0u);
}

TEST(PrintfParse, PositionalArgumentsUnsupported) {
    FormatParseError error = parse_error("%3$d");
    EXPECT_NE(error.message.find("positional"), std::string::npos);
    EXPECT_EQ(error.offset, 2u);
}

TEST(PrintfParse, SecondDotOrStarIsAnError) {
    FormatParseError dots = parse_error("%5.2.1d");
    EXPECT_NE(dots.message.find("more than one '.'"), std::string::npos);
    EXPECT_EQ(dots.offset, 4u);
    EXPECT_NE(parse_error("%**d").message.find("'*' for the output width"), std::string::npos);
    EXPECT_NE(parse_error("%.**d").message.find("'*' for the output precision"), std::string::npos);
}

TEST(PrintfParse, PercentWithFlagsIsAnError) {
    FormatParseError error = parse_error("%-%");
    EXPECT_NE(error.message.find("cannot combine %%"), std::string::npos);
    EXPECT_EQ(error.offset, 2u);
}

TEST(PrintfParse, ConversionNumberCountsEarlierConversions) {
    FormatParseError error = parse_error("%d %% %Q");
    EXPECT_EQ(error.message, "format conversion #3 is undefined: %Q");
    EXPECT_EQ(error.offset, 7u);
}

TEST(PrintfParse, WideStringsRejected) {
    EXPECT_NE(parse_error("%ls").message.find("wide-character string"), std::string::npos);
    EXPECT_NE(parse_error("%ws").message.find("wide-character string"), std::string::npos);
}

TEST(PrintfParse, HugeWidthIsAnError) {
    FormatParseError error = parse_error("%99999999999d");
    EXPECT_NE(error.message.find("width that is too large"), std::string::npos);
    EXPECT_EQ(error.offset, 1u);
}

// --- Type rules ----------------------------------------------------------------

TEST(PrintfTypes, IntegerConversionsTakeIntegersOnly) {
    for (const char *format : {"%d", "%i", "%o", "%u", "%x", "%X"}) {
        EXPECT_TRUE(accepts(format, int_type(1))) << format;
        EXPECT_TRUE(accepts(format, int_type(8, false))) << format;
        EXPECT_FALSE(accepts(format, kPointer)) << format;
        EXPECT_FALSE(accepts(format, kString)) << format;
    }
    EXPECT_EQ(only_conversion(parse_ok("%d")).info->prototype,
              "char, short, int, long, or long long");
}

TEST(PrintfTypes, CharacterConversionsTakeAtMostInt) {
    EXPECT_TRUE(accepts("%c", int_type(1)));
    EXPECT_TRUE(accepts("%C", int_type(4)));
    EXPECT_FALSE(accepts("%c", int_type(8)));
}

TEST(PrintfTypes, StringConversions) {
    EXPECT_TRUE(accepts("%s", kString));
    EXPECT_TRUE(accepts("%S", ArgumentType{ArgumentTypeKind::CharArray, 16, true}));
    EXPECT_FALSE(accepts("%s", int_type(8)));
    EXPECT_FALSE(accepts("%s", kPointer));
}

TEST(PrintfTypes, AddressConversions) {
    ArgumentType symaddr{ArgumentTypeKind::KernelSymbolAddress, 8, false};
    ArgumentType usymaddr{ArgumentTypeKind::UserSymbolAddress, 8, false};
    EXPECT_TRUE(accepts("%a", kPointer));
    EXPECT_TRUE(accepts("%a", int_type(8)));
    EXPECT_TRUE(accepts("%a", symaddr));
    EXPECT_TRUE(accepts("%p", kPointer));
    EXPECT_FALSE(accepts("%p", kString));
    EXPECT_TRUE(accepts("%A", usymaddr));
    EXPECT_FALSE(accepts("%A", kPointer, false));
    EXPECT_TRUE(accepts("%A", kPointer, true));
    EXPECT_TRUE(accepts("%A", int_type(8), true));
}

TEST(PrintfTypes, TimeNeedsSixtyFourBitInteger) {
    EXPECT_TRUE(accepts("%Y", int_type(8, false)));
    EXPECT_TRUE(accepts("%T", int_type(8)));
    EXPECT_FALSE(accepts("%Y", int_type(4)));
    EXPECT_FALSE(accepts("%Y", kString));
}

TEST(PrintfTypes, SizePrefixesNeedThatSize) {
    EXPECT_TRUE(accepts("%hd", int_type(2, true)));
    EXPECT_FALSE(accepts("%hd", int_type(2, false)));
    EXPECT_FALSE(accepts("%hd", int_type(4, true)));
    EXPECT_TRUE(accepts("%hx", int_type(2, false)));
    EXPECT_TRUE(accepts("%lx", int_type(8, true)));
    EXPECT_TRUE(accepts("%llu", int_type(8, false)));
    EXPECT_FALSE(accepts("%llu", int_type(8, true)));
    EXPECT_FALSE(accepts("%ld", int_type(4)));
    EXPECT_TRUE(accepts("%lc", int_type(4)));
}

TEST(PrintfTypes, FloatStackAndDynamicArguments) {
    ArgumentType dbl_type{ArgumentTypeKind::Float, 8, true};
    EXPECT_TRUE(accepts("%f", dbl_type));
    EXPECT_FALSE(accepts("%f", int_type(8)));
    EXPECT_FALSE(accepts("%Lf", dbl_type));
    EXPECT_TRUE(accepts("%Lf", ArgumentType{ArgumentTypeKind::Float, 16, true}));
    EXPECT_TRUE(accepts("%k", ArgumentType{ArgumentTypeKind::Stack, 0, false}));
    EXPECT_FALSE(accepts("%k", int_type(8)));
    EXPECT_TRUE(dynamic_argument_accepts(int_type(4)));
    EXPECT_FALSE(dynamic_argument_accepts(kString));
}

// --- Integers ----------------------------------------------------------------

TEST(PrintfFormat, SignedNarrowValueFromWideSlot) {
    // A 32-bit -1 recorded in a 64-bit slot prints as -1, not 4294967295.
    EXPECT_EQ(dprintf("%d", {IntegerValue{0xffffffffffffffffull, 4, true}}), "-1");
    EXPECT_EQ(dprintf("%d", {IntegerValue{0x00000000ffffff85ull, 1, true}}), "-123");
    EXPECT_EQ(dprintf("%d %i", {i64(-5000000000), i16(-2)}), "-5000000000 -2");
}

TEST(PrintfFormat, UnsignedValueWithPercentD) {
    EXPECT_EQ(dprintf("%d", {u32(4294967295u)}), "4294967295");
    EXPECT_EQ(dprintf("%i", {u64(18446744073709551615ull)}), "18446744073709551615");
}

TEST(PrintfFormat, HexOfNegativeUsesArgumentWidth) {
    EXPECT_EQ(dprintf("%x", {i8(-1)}), "ff");
    EXPECT_EQ(dprintf("%x", {i16(-1)}), "ffff");
    EXPECT_EQ(dprintf("%x", {i32(-1)}), "ffffffff");
    EXPECT_EQ(dprintf("%X", {i64(-2)}), "FFFFFFFFFFFFFFFE");
}

TEST(PrintfFormat, UnsignedAndOctalOfNegative) {
    EXPECT_EQ(dprintf("%u", {i32(-1)}), "4294967295");
    EXPECT_EQ(dprintf("%o", {i8(-1)}), "377");
}

TEST(PrintfFormat, AlternateForms) {
    EXPECT_EQ(dprintf("%#x %#X", {i32(31), i32(31)}), "0x1f 0X1F");
    EXPECT_EQ(dprintf("%#o %o", {i32(8), i32(8)}), "010 10");
    EXPECT_EQ(dprintf("%#8x|", {i32(0x123)}), "   0x123|");
}

TEST(PrintfFormat, DTraceFlagsTest) {
    // dtrace-utils test/unittest/printf/tst.flags.d
    EXPECT_EQ(dprintf("0 %08x\n", {i32(0x123)}), "0 00000123\n");
    EXPECT_EQ(dprintf("- %-8x\n", {i32(0x123)}), "- 123     \n");
    EXPECT_EQ(dprintf("+ %+8d\n", {i32(123)}), "+     +123\n");
    EXPECT_EQ(dprintf("  % 8d\n", {i32(123)}), "       123\n");
}

TEST(PrintfFormat, SignAndPaddingFlags) {
    EXPECT_EQ(dprintf("%05d", {i32(42)}), "00042");
    EXPECT_EQ(dprintf("%05d", {i32(-42)}), "-0042");
    EXPECT_EQ(dprintf("%+d %+d", {i32(42), i32(-42)}), "+42 -42");
    EXPECT_EQ(dprintf("% d|% d", {i32(42), i32(-42)}), " 42|-42");
    EXPECT_EQ(dprintf("%08X", {u32(0xbeef)}), "0000BEEF");
}

TEST(PrintfFormat, ZeroAfterMinusZeroPads) {
    // DTrace keeps whichever of '-' and '0' came last.
    EXPECT_EQ(dprintf("%-05d|", {i32(42)}), "00042|");
    EXPECT_EQ(dprintf("%0-5d|", {i32(42)}), "42   |");
}

TEST(PrintfFormat, IntegerPrecision) {
    EXPECT_EQ(dprintf("%.5d", {i32(42)}), "00042");
    EXPECT_EQ(dprintf("%8.3x|", {i32(10)}), "     00a|");
}

TEST(PrintfFormat, PrecisionZeroIsIgnoredLikeDTrace) {
    EXPECT_EQ(dprintf("%.0d", {i32(0)}), "0");
    EXPECT_EQ(dprintf("%.0f", {dbl(2.5)}), "2.500000");
    EXPECT_EQ(dprintf("%.*s", {i32(0), str("abc")}), "abc");
}

TEST(PrintfFormat, GroupingInCLocaleIsPlain) {
    // dtrace-utils' tst.grouping-LC_ALL: no separators in the C locale.
    EXPECT_EQ(dprintf("%'d", {i32(123456789)}), "123456789");
}

TEST(PrintfFormat, GroupingUsesLcNumeric) {
    locale_t english = newlocale(LC_NUMERIC_MASK, "en_US.UTF-8", static_cast<locale_t>(0));
    if (english == static_cast<locale_t>(0))
        GTEST_SKIP() << "skipped: the en_US.UTF-8 locale is not installed";
    locale_t previous = uselocale(english);
    std::string grouped = dprintf("%'d %'u %'.2f", {i32(123456789), u64(1234567), dbl(1234.5)});
    uselocale(previous);
    freelocale(english);
    EXPECT_EQ(grouped, "123,456,789 1,234,567 1,234.50");
}

TEST(PrintfFormat, SizePrefixedConversions) {
    // dtrace-utils test/unittest/printf/tst.basics.d with i = 'a'
    EXPECT_EQ(
        dprintf("%hd %hi %ho %hu %hx %hX", {i16(97), i16(97), u16(97), u16(97), u16(97), u16(97)}),
        "97 97 141 97 61 61");
    EXPECT_EQ(
        dprintf("%ld %li %lo %lu %lx %lX", {i64(97), i64(97), u64(97), u64(97), u64(97), u64(97)}),
        "97 97 141 97 61 61");
    EXPECT_EQ(dprintf("%lld %llu %llx", {i64(-1), u64(1ull << 63), i64(-1)}),
              "-1 9223372036854775808 ffffffffffffffff");
}

// --- Dynamic width and precision -------------------------------------------

TEST(PrintfFormat, StarWidth) {
    EXPECT_EQ(dprintf("%*d|", {i32(5), i32(42)}), "   42|");
    EXPECT_EQ(dprintf("%*d|", {i32(-5), i32(42)}), "42   |");
    EXPECT_EQ(dprintf("%-*s|", {i64(6), str("ab")}), "ab    |");
}

TEST(PrintfFormat, StarPrecision) {
    EXPECT_EQ(dprintf("%.*s", {i32(2), str("hello")}), "he");
    EXPECT_EQ(dprintf("%*.*f|", {i32(8), i32(2), dbl(3.14159)}), "    3.14|");
    EXPECT_EQ(dprintf("%.*d", {i32(-3), i32(7)}), "7");
}

TEST(PrintfFormat, PointerWidthFlag) {
    // dtrace-utils test/unittest/printf/tst.widths1.d
    EXPECT_EQ(dprintf("%?d\n", {i32(0)}), "               0\n");
}

TEST(PrintfFormat, VeryWideField) {
    std::string out = dprintf("%100000d", {i32(1)});
    ASSERT_EQ(out.size(), 100000u);
    EXPECT_EQ(out.back(), '1');
    EXPECT_EQ(out.find_first_not_of(' '), 99999u);
}

// --- Characters and strings ----------------------------------------------------

TEST(PrintfFormat, Character) {
    EXPECT_EQ(dprintf("%c", {i32('a')}), "a");
    EXPECT_EQ(dprintf("%3c|%-3c|", {i8('x'), i8('y')}), "  x|y  |");
    EXPECT_EQ(dprintf("%lc %wc", {i32('a'), i32('b')}), "a b");
}

TEST(PrintfFormat, EscapedCharacter) {
    EXPECT_EQ(dprintf("%C", {i8('\n')}), "\\n");
    EXPECT_EQ(dprintf("%C", {i32('a')}), "a");
    EXPECT_EQ(dprintf("%C", {i8(0x7f)}), "\\177");
    EXPECT_EQ(dprintf("%4C|", {i8('\t')}), "  \\t|");
}

TEST(PrintfFormat, StringWidthAndPrecision) {
    EXPECT_EQ(dprintf("%5.2s|", {str("hello")}), "   he|");
    EXPECT_EQ(dprintf("%-10s|", {str("hello")}), "hello     |");
    EXPECT_EQ(dprintf("%.3s|%3s|", {str("abcdef"), str("abcdef")}), "abc|abcdef|");
}

TEST(PrintfFormat, StringEndsAtNul) {
    using namespace std::string_view_literals;
    EXPECT_EQ(dprintf("[%s]", {str("ab\0cd"sv)}), "[ab]");
}

TEST(PrintfFormat, EscapedString) {
    EXPECT_EQ(dprintf("%S", {str("a\tb\"c\\d e\x01\xff'")}), "a\\tb\\\"c\\\\d e\\001\\377'");
    EXPECT_EQ(dprintf("%-8S|", {str("x\ny")}), "x\\ny    |");
}

TEST(PrintfFormat, EscapeStringEveryEscape) {
    using namespace std::string_view_literals;
    EXPECT_EQ(escape_string("\a\b\f\n\r\t\v"sv), "\\a\\b\\f\\n\\r\\t\\v");
    EXPECT_EQ(escape_string("ok\0rest"sv), "ok\\0");
    EXPECT_EQ(escape_string("\x1b[0m"), "\\033[0m");
    EXPECT_EQ(escape_string("plain text ~!"), "plain text ~!");
}

// --- Floating point ---------------------------------------------------------

TEST(PrintfFormat, FloatingPointConversions) {
    EXPECT_EQ(dprintf("%f", {dbl(3.25)}), "3.250000");
    EXPECT_EQ(dprintf("%e", {dbl(12345.678)}), "1.234568e+04");
    EXPECT_EQ(dprintf("%E", {dbl(0.00012)}), "1.200000E-04");
    EXPECT_EQ(dprintf("%g %G", {dbl(0.0001), dbl(1e-10)}), "0.0001 1E-10");
    EXPECT_EQ(dprintf("%10.3f|%-+8.1f|", {dbl(3.14159), dbl(2.0)}), "     3.142|+2.0    |");
    EXPECT_EQ(dprintf("%Lf", {dbl(1.5)}), "1.500000");
}

// --- DTrace's own conversions -------------------------------------------------

TEST(PrintfFormat, PointerIsHexWithoutPrefix) {
    // dtrace-utils tst.basics.d: printf("%p", (void *)'a') prints "61".
    EXPECT_EQ(dprintf("%p", {u64(97)}), "61");
    EXPECT_EQ(dprintf("%p", {u64(0xffff888012345678ull)}), "ffff888012345678");
    EXPECT_EQ(dprintf("%#p", {u64(0x1000)}), "0x1000");
    EXPECT_EQ(dprintf("%?p|", {u64(0x1000)}), "            1000|");
}

TEST(PrintfFormat, KernelSymbolUsesResolver) {
    FormatContext context;
    std::vector<uint64_t> asked;
    context.symbols.kernel = [&](uint64_t address) {
        asked.push_back(address);
        return std::string("vmlinux`vfs_read+0x10");
    };
    EXPECT_EQ(printf_with(context, "%a|%-25a|", {u64(0xffffffff81234560ull), u32(0x81234560u)}),
              "vmlinux`vfs_read+0x10|vmlinux`vfs_read+0x10    |");
    EXPECT_EQ(asked, (std::vector<uint64_t>{0xffffffff81234560ull, 0x81234560ull}));
}

TEST(PrintfFormat, KernelSymbolWithoutResolverIsHex) {
    EXPECT_EQ(dprintf("%a", {u64(0xffffffff81000000ull)}), "0xffffffff81000000");
}

TEST(PrintfFormat, UserSymbolUsesTargetOrRecordedPid) {
    FormatContext context;
    context.target_pid = 1234;
    context.symbols.user = [](uint32_t pid, uint64_t address) {
        return "pid" + std::to_string(pid) + "`" + std::to_string(address);
    };
    EXPECT_EQ(printf_with(context, "%A %A", {u64(16), UserAddressValue{99, 32}}),
              "pid1234`16 pid99`32");
}

// usym() and friends are integers in D: only %A names them.
TEST(PrintfFormat, UserAddressIsAnIntegerToOtherConversions) {
    FormatContext context;
    context.symbols.user = [](uint32_t pid, uint64_t address) {
        return "pid" + std::to_string(pid) + "`" + std::to_string(address);
    };
    EXPECT_EQ(
        printf_with(context, "%x %d %A",
                    {UserAddressValue{9, 0x4a}, UserAddressValue{9, 7}, UserAddressValue{9, 7}}),
        "4a 7 pid9`7");
}

TEST(PrintfFormat, KernelStack) {
    FormatContext context;
    context.symbols.kernel = [](uint64_t pc) { return "k`f" + std::to_string(pc); };
    const uint64_t frames[] = {1, 22, 0, 3};
    StackValue stack{frames, false, 0};
    EXPECT_EQ(printf_with(context, "%k", {stack}), "\nk`f1\nk`f22\n");
    // A left-aligned width indents the frames instead of padding them.
    EXPECT_EQ(printf_with(context, "%-4k", {stack}), "\n    k`f1\n    k`f22\n");
    EXPECT_EQ(printf_with(context, "%6k", {stack}), "\n  k`f1\n k`f22\n");
    EXPECT_EQ(printf_with(context, "%*k", {i32(-6), stack}), "\n      k`f1  \n      k`f22 \n");
}

TEST(PrintfFormat, FoldedStack) {
    FormatContext context;
    context.folded_stacks = true;
    context.symbols.kernel = [](uint64_t pc) { return "k`f" + std::to_string(pc); };
    const uint64_t frames[] = {1, 22, 0, 3};
    StackValue stack{frames, false, 0};
    // Root first, on one line, padded as %s is.
    EXPECT_EQ(printf_with(context, "%k|", {stack}), "k`f22;k`f1|");
    EXPECT_EQ(printf_with(context, "%12k|", {stack}), "  k`f22;k`f1|");
    EXPECT_EQ(printf_with(context, "%k|", {StackValue{{}, false, 0}}), "[empty]|");
}

TEST(PrintfFormat, UserStack) {
    FormatContext context;
    context.symbols.user = [](uint32_t pid, uint64_t pc) {
        return std::to_string(pid) + ":" + std::to_string(pc);
    };
    const uint64_t frames[] = {7, 8};
    EXPECT_EQ(printf_with(context, "%k", {StackValue{frames, true, 42}}), "\n42:7\n42:8\n");
}

class PrintfTimeTest : public ::testing::Test {
protected:
    void SetUp() override { set_time_zone("UTC"); }
    void TearDown() override {
        if (saved_)
            setenv("TZ", saved_->c_str(), 1);
        else
            unsetenv("TZ");
        tzset();
    }
    void set_time_zone(const char *zone) {
        if (!saved_ && std::getenv("TZ") != nullptr)
            saved_ = std::getenv("TZ");
        setenv("TZ", zone, 1);
        tzset();
    }

private:
    std::optional<std::string> saved_;
};

constexpr uint64_t kNanos = 1'000'000'000;

TEST_F(PrintfTimeTest, WallTimestamp) {
    EXPECT_EQ(dprintf("%Y", {u64(0)}), "1970 Jan  1 00:00:00");
    EXPECT_EQ(dprintf("%Y", {u64(1795245390 * kNanos + 999999999)}), "2026 Nov 21 07:16:30");
    EXPECT_EQ(dprintf("%Y", {i64(1062609821 * static_cast<int64_t>(kNanos))}),
              "2003 Sep  3 17:23:41");
    EXPECT_EQ(dprintf("[%-22Y]", {u64(0)}), "[1970 Jan  1 00:00:00  ]");
}

TEST_F(PrintfTimeTest, WallTimestampIsLocalTime) {
    set_time_zone("America/Los_Angeles");
    if (dprintf("%Y", {u64(0)}) == "1970 Jan  1 00:00:00")
        GTEST_SKIP() << "skipped: time zone data is not installed";
    // dtrace-utils tst.printY.sh runs with TZ=US/Pacific.
    EXPECT_EQ(dprintf("%Y", {u64(0)}), "1969 Dec 31 16:00:00");
}

TEST_F(PrintfTimeTest, Rfc822Time) {
    EXPECT_EQ(dprintf("%T", {u64(0)}), "Thu, 01 Jan 1970 00:00:00 UTC");
    // dtrace uses the ISO week-based year (%G): 1 Jan 2027 is in week 53 of 2026.
    EXPECT_EQ(dprintf("%T", {u64(1798804800 * kNanos)}), "Fri, 01 Jan 2026 12:00:00 UTC");
}

// --- printa ------------------------------------------------------------------

TEST(PrintaFormat, AggregationValue) {
    EXPECT_EQ(printa("%-10s %@d\n", {str("bash")}, {u64(42)}), "bash       42\n");
    EXPECT_EQ(printa("%s %@8d|", {str("x")}, {i64(-7)}), "x       -7|");
    EXPECT_EQ(printa("%@x", {}, {u64(255)}), "ff");
}

TEST(PrintaFormat, HistogramIgnoresConversion) {
    std::string histogram = "\n           value  ---- Distribution ---- count\n";
    EXPECT_EQ(printa("%s%@10d|", {str("k")}, {HistogramValue{histogram}}), "k" + histogram + "|");
}

TEST(PrintaFormat, SeveralAggregationsAndRepeatOfLast) {
    EXPECT_EQ(printa("%s %@d %@d %@d", {str("k")}, {u64(1), i64(2)}), "k 1 2 2");
}

TEST(PrintaFormat, UnusedKeysAreNotPrinted) {
    EXPECT_EQ(printa("%@d\n", {str("key"), i32(3)}, {u64(5)}), "5\n");
}

TEST(PrintaFormat, MissingKeyIsAnError) {
    ParsedFormat parsed = parse_ok("%s %s %@d");
    std::string out;
    std::vector<FormatArgument> keys = {str("only")};
    std::vector<FormatArgument> values = {u64(1)};
    Status formatted = Formatter(FormatContext{}).format_printa(parsed, keys, values, out);
    ASSERT_FALSE(formatted);
    EXPECT_NE(formatted.error().message.find("#2 (%s) is missing its value"), std::string::npos);
    EXPECT_EQ(out, "");
}

// --- Run-time mismatches --------------------------------------------------------

TEST(PrintfErrors, ValueOfWrongKind) {
    EXPECT_EQ(printf_error("n=%d", {str("x")}), "format conversion #1 (%d) cannot format a string");
    EXPECT_EQ(printf_error("%s %f", {str("x"), i64(1)}),
              "format conversion #2 (%f) cannot format an 8-byte integer");
    EXPECT_NE(printf_error("%k", {i64(1)}).find("(%k) cannot format"), std::string::npos);
}

TEST(PrintfErrors, IntegerOfWrongWidth) {
    EXPECT_NE(printf_error("%c", {i64('a')}).find("cannot format an 8-byte integer"),
              std::string::npos);
    EXPECT_NE(printf_error("%Y", {u32(1)}).find("(%Y)"), std::string::npos);
    EXPECT_NE(printf_error("%d", {IntegerValue{1, 3, true}}).find("integer of 3 bytes"),
              std::string::npos);
}

TEST(PrintfErrors, ArgumentCountMismatch) {
    EXPECT_NE(printf_error("%d %d", {i32(1)}).find("#2 (%d) is missing its value"),
              std::string::npos);
    EXPECT_NE(printf_error("%d", {i32(1), i32(2)}).find("uses 1 of the 2 arguments"),
              std::string::npos);
    EXPECT_NE(printf_error("%*d", {}).find("missing its '*' argument"), std::string::npos);
}

TEST(PrintfErrors, DynamicWidthMustBeInteger) {
    EXPECT_NE(printf_error("%*d", {str("5"), i32(1)}).find("needs an integer for its '*'"),
              std::string::npos);
    EXPECT_NE(printf_error("%.*s", {dbl(1), str("a")}).find("its '.*' argument"),
              std::string::npos);
}

TEST(PrintfErrors, AggregationConversionOutsidePrinta) {
    EXPECT_NE(printf_error("%@d", {}).find("only for printa()"), std::string::npos);
}

TEST(PrintfErrors, HistogramOnlyForAggregationValue) {
    EXPECT_NE(printf_error("%d", {HistogramValue{"x"}}).find("cannot format a histogram"),
              std::string::npos);
}

TEST(PrintfErrors, FailedConversionKeepsEarlierOutput) {
    ParsedFormat parsed = parse_ok("ok %d then %s");
    std::string out = "before:";
    std::vector<FormatArgument> arguments = {i32(1), i32(2)};
    EXPECT_FALSE(Formatter(FormatContext{}).format_printf(parsed, arguments, out));
    EXPECT_EQ(out, "before:");
}

} // namespace
} // namespace dtx::trace

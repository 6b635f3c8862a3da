// JSON output's building blocks: RFC 8259 strings from any bytes, and
// symbol names split into module, function and offset.
#include "libtrace/json_output.h"

#include <gtest/gtest.h>

namespace {

using dtx::trace::append_json_string;
using dtx::trace::split_symbol_name;
using dtx::trace::SymbolParts;

std::string json(std::string_view text) {
    std::string out;
    append_json_string(out, text);
    return out;
}

TEST(JsonString, PlainTextAsItIs) {
    EXPECT_EQ(json(""), "\"\"");
    EXPECT_EQ(json("bash /etc/passwd"), "\"bash /etc/passwd\"");
}

TEST(JsonString, QuotesBackslashesAndControlCharactersEscaped) {
    EXPECT_EQ(json("a\"b\\c"), "\"a\\\"b\\\\c\"");
    EXPECT_EQ(json("\n\t\r\b\f"), "\"\\n\\t\\r\\b\\f\"");
    EXPECT_EQ(json(std::string_view("\x01\x1f\0", 3)), "\"\\u0001\\u001f\\u0000\"");
    EXPECT_EQ(json("\x7f"), "\"\x7f\""); // DEL needs no escape
}

TEST(JsonString, ValidUtf8KeptInvalidBytesReplaced) {
    EXPECT_EQ(json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5"),
              "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa5\"");
    // A lone continuation byte, a truncated sequence, an overlong form, a
    // surrogate and a code point past U+10FFFF: each byte replaced.
    EXPECT_EQ(json("a\x80z"), "\"a\\ufffdz\"");
    EXPECT_EQ(json("\xc3"), "\"\\ufffd\"");
    EXPECT_EQ(json("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
    EXPECT_EQ(json("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
    EXPECT_EQ(json("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
    EXPECT_EQ(json("\xff\xfe"), "\"\\ufffd\\ufffd\"");
}

TEST(SymbolName, SplitsModuleFunctionAndOffset) {
    SymbolParts parts = split_symbol_name("vmlinux`vfs_read+0x12");
    EXPECT_EQ(parts.module, "vmlinux");
    EXPECT_EQ(parts.function, "vfs_read");
    EXPECT_EQ(parts.offset, 0x12u);
    parts = split_symbol_name("libc.so.6`malloc");
    EXPECT_EQ(parts.module, "libc.so.6");
    EXPECT_EQ(parts.function, "malloc");
    EXPECT_FALSE(parts.offset);
    // C++'s operator+ keeps its '+'.
    parts = split_symbol_name("a.out`operator+");
    EXPECT_EQ(parts.function, "operator+");
    EXPECT_FALSE(parts.offset);
}

TEST(SymbolName, UnknownPartsLeftEmpty) {
    SymbolParts parts = split_symbol_name("0xffffffff81000000");
    EXPECT_TRUE(parts.module.empty());
    EXPECT_TRUE(parts.function.empty());
    parts = split_symbol_name("a.out`0x1234");
    EXPECT_EQ(parts.module, "a.out");
    EXPECT_TRUE(parts.function.empty());
    parts = split_symbol_name("ext4", true);
    EXPECT_EQ(parts.module, "ext4");
    EXPECT_TRUE(split_symbol_name("0x10", true).module.empty());
}

} // namespace

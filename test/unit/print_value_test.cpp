// print()'s output for recorded bytes and their type description, in the
// layout of dtrace-utils' print() (libbpf's dump of typed data).

#include "libtrace/print_value.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace dtx::trace {
namespace {

using Kind = PrintedType::Kind;

PrintedType scalar(Kind kind, const std::string &name, uint32_t size, bool is_signed = true) {
    PrintedType t;
    t.kind = kind;
    t.name = name;
    t.size = size;
    t.is_signed = is_signed;
    return t;
}

PrintedType array(const std::string &name, uint32_t element, uint64_t count, uint32_t size) {
    PrintedType t = scalar(Kind::Array, name, size);
    t.element = element;
    t.count = count;
    return t;
}

PrintedType record(Kind kind, const std::string &name, uint32_t size,
                   std::vector<PrintedType::Member> members) {
    PrintedType t = scalar(kind, name, size);
    t.members = std::move(members);
    return t;
}

// Little-endian bytes built field by field.
struct Bytes {
    std::vector<std::byte> data;
    explicit Bytes(size_t size) : data(size) {}
    Bytes &put(size_t offset, uint64_t value, size_t size) {
        for (size_t i = 0; i < size; i++)
            data.at(offset + i) = std::byte(value >> (8 * i));
        return *this;
    }
    Bytes &text(size_t offset, const char *s) {
        std::memcpy(data.data() + offset, s, std::strlen(s));
        return *this;
    }
};

std::string print(const std::vector<PrintedType> &types, uint32_t type, const Bytes &bytes) {
    return format_printed_value(types, type, bytes.data);
}

// Lines as print() indents them: from column 44, then one more space for
// each leading '>' of a line.
std::string lines(std::initializer_list<std::string_view> text) {
    std::string out;
    for (std::string_view line : text) {
        size_t depth = line.find_first_not_of('>');
        out += std::string(44 + depth, ' ');
        out += line.substr(depth);
        out += "\n";
    }
    return out;
}

TEST(PrintValue, IntegersPrintInDecimalAfterTheirType) {
    std::vector<PrintedType> types = {scalar(Kind::Integer, "int", 4)};
    EXPECT_EQ(print(types, 0, Bytes(4).put(0, 500, 4)), lines({"(int)500"}));
    EXPECT_EQ(print(types, 0, Bytes(4)), lines({"(int)0"})); // the top value even when 0
    EXPECT_EQ(print(types, 0, Bytes(4).put(0, uint32_t(-1), 4)), lines({"(int)-1"}));
    std::vector<PrintedType> wide = {scalar(Kind::Integer, "uint64_t", 8, false)};
    EXPECT_EQ(print(wide, 0, Bytes(8).put(0, 0xffffffffffffffffULL, 8)),
              lines({"(uint64_t)18446744073709551615"}));
}

TEST(PrintValue, PointersPrintAsAddresses) {
    std::vector<PrintedType> types = {scalar(Kind::Pointer, "struct file *", 8, false)};
    EXPECT_EQ(print(types, 0, Bytes(8).put(0, 0xffff888100a68c00ULL, 8)),
              lines({"(struct file *)0xffff888100a68c00"}));
}

TEST(PrintValue, PointerWithItsPointeePrintsTheAddressThenTheRecord) {
    PrintedType pointer = scalar(Kind::Pointer, "struct pt *", 8, false);
    pointer.with_pointee = true;
    pointer.element = 1;
    std::vector<PrintedType> types = {
        pointer, record(Kind::Struct, "struct pt", 8, {{"x", 2, 0, 0}, {"y", 2, 32, 0}}),
        scalar(Kind::Integer, "int", 4)};
    EXPECT_EQ(print(types, 0, Bytes(16).put(0, 0xffffc90000001000ULL, 8).put(12, 4, 4)),
              "0xffffc90000001000 = *\n" + lines({"(struct pt) {", ">.y = (int)4,", "}"}));
}

TEST(PrintValue, CharsPrintQuoted) {
    std::vector<PrintedType> types = {scalar(Kind::Char, "char", 1)};
    EXPECT_EQ(print(types, 0, Bytes(1).put(0, 'x', 1)), lines({"(char)'x'"}));
    EXPECT_EQ(print(types, 0, Bytes(1).put(0, 7, 1)), lines({"(char)'\\007'"}));
}

TEST(PrintValue, CharArraysPrintTheirNonZeroChars) {
    std::vector<PrintedType> types = {scalar(Kind::Char, "char", 1), array("char [16]", 0, 16, 16)};
    EXPECT_EQ(print(types, 1, Bytes(16).text(0, "dt")),
              lines({"(char [16]) [", ">(char)'d',", ">(char)'t',", "]"}));
    EXPECT_EQ(print(types, 1, Bytes(16)), lines({"(char [16]) [", "]"}));
}

TEST(PrintValue, NestedArraysNestTheirBrackets) {
    std::vector<PrintedType> types = {scalar(Kind::Integer, "int", 4), array("int [2]", 0, 2, 8),
                                      array("int [2][2]", 1, 2, 16)};
    EXPECT_EQ(print(types, 2, Bytes(16).put(0, 1, 4).put(8, 3, 4).put(12, 4, 4)),
              lines({"(int [2][2]) [", ">(int [2]) [", ">>(int)1,", ">],", ">(int [2]) [",
                     ">>(int)3,", ">>(int)4,", ">],", "]"}));
}

// Every kind of member: char array, nested struct, enum (known and unknown
// values), bit-field, integer array, anonymous union, float; members that
// are zero are left out.
TEST(PrintValue, MembersOfEveryKind) {
    PrintedType color = scalar(Kind::Enum, "enum color", 4);
    color.enumerators = {{"RED", 0}, {"GREEN", 5}};
    std::vector<PrintedType> types = {
        scalar(Kind::Integer, "int", 4),                                             // 0
        scalar(Kind::Char, "char", 1),                                               // 1
        array("char [8]", 1, 8, 8),                                                  // 2
        scalar(Kind::Pointer, "void *", 8, false),                                   // 3
        record(Kind::Struct, "struct inner", 16, {{"p", 3, 0, 0}, {"n", 0, 64, 0}}), // 4
        color,                                                                       // 5
        scalar(Kind::Integer, "unsigned int", 4, false),                             // 6
        array("int [3]", 0, 3, 12),                                                  // 7
        record(Kind::Union, "union", 4, {{"x", 0, 0, 0}, {"c", 1, 0, 0}}),           // 8
        scalar(Kind::Float, "double", 8),                                            // 9
        record(Kind::Struct, "struct s", 80,
               {{"a", 0, 0, 0},
                {"name", 2, 32, 0},
                {"in", 4, 128, 0},
                {"k", 5, 256, 0},
                {"k2", 5, 288, 0},
                {"flags", 6, 320 + 2, 3},
                {"v", 7, 352, 0},
                {"", 8, 448, 0},
                {"d", 9, 512, 0},
                {"zero", 0, 576, 0}}), // 10
    };
    double d = 1.5;
    uint64_t d_bits;
    std::memcpy(&d_bits, &d, 8);
    Bytes bytes(80);
    bytes.put(0, 1, 4)
        .text(4, "ab")
        .put(16, 0x10, 8)
        .put(24, 7, 4)
        .put(32, 5, 4)
        .put(36, 9, 4)
        .put(40, 0b10100, 1) // flags: bits 2..4 = 0b101
        .put(44, 1, 4)
        .put(48, 2, 4)
        .put(52, 3, 4)
        .put(56, 'A', 4)
        .put(64, d_bits, 8);
    EXPECT_EQ(print(types, 10, bytes), lines({"(struct s) {",
                                              ">.a = (int)1,",
                                              ">.name = (char [8]) [",
                                              ">>(char)'a',",
                                              ">>(char)'b',",
                                              ">],",
                                              ">.in = (struct inner) {",
                                              ">>.p = (void *)0x10,",
                                              ">>.n = (int)7,",
                                              ">},",
                                              ">.k = (enum color)GREEN,",
                                              ">.k2 = (enum color)9,",
                                              ">.flags = (unsigned int)0x5,",
                                              ">.v = (int [3]) [",
                                              ">>(int)1,",
                                              ">>(int)2,",
                                              ">>(int)3,",
                                              ">],",
                                              ">(union) {",
                                              ">>.x = (int)65,",
                                              ">>.c = (char)'A',",
                                              ">},",
                                              ">.d = (double)1.500000,",
                                              "}"}));
}

TEST(PrintValue, ArrayOfStructsPutsEachOnItsOwnLines) {
    std::vector<PrintedType> types = {
        scalar(Kind::Integer, "int", 4),
        record(Kind::Struct, "struct pt", 4, {{"x", 0, 0, 0}}),
        array("struct pt [2]", 1, 2, 8),
        record(Kind::Struct, "struct line", 8, {{"ends", 2, 0, 0}}),
    };
    EXPECT_EQ(print(types, 3, Bytes(8).put(0, 1, 4).put(4, 2, 4)),
              lines({"(struct line) {", ">.ends = (struct pt [2]) [", ">>(struct pt) {",
                     ">>>.x = (int)1,", ">>},", ">>(struct pt) {", ">>>.x = (int)2,", ">>},", ">],",
                     "}"}));
}

TEST(PrintValue, EmptyStructStillCloses) {
    std::vector<PrintedType> types = {record(Kind::Struct, "struct lock_class_key", 0, {})};
    EXPECT_EQ(print(types, 0, Bytes(0)), lines({"(struct lock_class_key) {", "}"}));
}

TEST(PrintValue, DStringsPrintQuoted) {
    std::vector<PrintedType> types = {scalar(Kind::String, "string", 16)};
    EXPECT_EQ(print(types, 0, Bytes(16).text(0, "hello")), lines({"(string)\"hello\""}));
}

TEST(PrintValue, MissingBytesReadAsZero) {
    std::vector<PrintedType> types = {scalar(Kind::Integer, "long", 8)};
    EXPECT_EQ(print(types, 0, Bytes(2).put(0, 0x102, 2)), lines({"(long)258"}));
}

TEST(PrintValue, SignedEnumsMatchNegativeValues) {
    PrintedType e = scalar(Kind::Enum, "enum sign", 4);
    e.enumerators = {{"MINUS", -1}};
    EXPECT_EQ(print({e}, 0, Bytes(4).put(0, uint32_t(-1), 4)), lines({"(enum sign)MINUS"}));
}

} // namespace
} // namespace dtx::trace

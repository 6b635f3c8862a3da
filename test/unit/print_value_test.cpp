// print()'s output for recorded bytes and their type description, in the
// layout of Solaris DTrace's print() (libdtrace dt_print.c).

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

TEST(PrintValue, IntegersPrintInHexAfterTheirType) {
    std::vector<PrintedType> types = {scalar(Kind::Integer, "int", 4)};
    EXPECT_EQ(print(types, 0, Bytes(4).put(0, 500, 4)), "int 0x1f4\n");
    EXPECT_EQ(print(types, 0, Bytes(4)), "int 0\n"); // %#x of 0
    EXPECT_EQ(print(types, 0, Bytes(4).put(0, uint32_t(-1), 4)), "int 0xffffffff\n");
    std::vector<PrintedType> wide = {scalar(Kind::Integer, "uint64_t", 8, false)};
    EXPECT_EQ(print(wide, 0, Bytes(8).put(0, 0x123456789aULL, 8)), "uint64_t 0x123456789a\n");
}

TEST(PrintValue, PointersPrintAsAddresses) {
    std::vector<PrintedType> types = {scalar(Kind::Pointer, "struct file *", 8, false)};
    EXPECT_EQ(print(types, 0, Bytes(8).put(0, 0xffff888100a68c00ULL, 8)),
              "struct file * 0xffff888100a68c00\n");
}

TEST(PrintValue, CharsPrintQuoted) {
    std::vector<PrintedType> types = {scalar(Kind::Char, "char", 1)};
    EXPECT_EQ(print(types, 0, Bytes(1).put(0, 'x', 1)), "char 'x'\n");
    EXPECT_EQ(print(types, 0, Bytes(1)), "char '\\0'\n");
    EXPECT_EQ(print(types, 0, Bytes(1).put(0, 7, 1)), "char '\\007'\n");
}

TEST(PrintValue, CharArrayHoldingAStringPrintsAsOne) {
    std::vector<PrintedType> types = {scalar(Kind::Char, "char", 1), array("char [16]", 0, 16, 16)};
    EXPECT_EQ(print(types, 1, Bytes(16).text(0, "dtx")), "char [16] \"dtx\"\n");
    EXPECT_EQ(print(types, 1, Bytes(16)), "char [16] \"\"\n");
}

TEST(PrintValue, CharArrayWithoutAStringPrintsItsChars) {
    std::vector<PrintedType> types = {scalar(Kind::Char, "char", 1), array("char [3]", 0, 3, 3)};
    EXPECT_EQ(print(types, 1, Bytes(3).text(0, "abc")), "char [3] [ 'a', 'b', 'c' ]\n");
    EXPECT_EQ(print(types, 1, Bytes(3).put(0, 'a', 1).put(1, 1, 1)),
              "char [3] [ 'a', '\\001', '\\0' ]\n");
}

TEST(PrintValue, IntegerArraysPrintOnOneLine) {
    std::vector<PrintedType> types = {scalar(Kind::Integer, "int", 4), array("int [3]", 0, 3, 12)};
    EXPECT_EQ(print(types, 1, Bytes(12).put(0, 1, 4).put(4, 2, 4).put(8, 0x10, 4)),
              "int [3] [ 0x1, 0x2, 0x10 ]\n");
}

TEST(PrintValue, NestedArraysNestTheirBrackets) {
    std::vector<PrintedType> types = {scalar(Kind::Integer, "int", 4), array("int [2]", 0, 2, 8),
                                      array("int [2][2]", 1, 2, 16)};
    EXPECT_EQ(print(types, 2, Bytes(16).put(0, 1, 4).put(4, 2, 4).put(8, 3, 4).put(12, 4, 4)),
              "int [2][2] [ [ 0x1, 0x2 ], [ 0x3, 0x4 ] ]\n");
}

TEST(PrintValue, StructPrintsAMemberPerLineAndEndsWithItsBrace) {
    std::vector<PrintedType> types = {
        scalar(Kind::Pointer, "struct vfsmount *", 8, false),
        scalar(Kind::Pointer, "struct dentry *", 8, false),
        record(Kind::Struct, "struct path", 16, {{"mnt", 0, 0, 0}, {"dentry", 1, 64, 0}})};
    EXPECT_EQ(print(types, 2, Bytes(16).put(0, 0xffff8881003e4ba0ULL, 8)),
              "struct path {\n"
              "    struct vfsmount *mnt = 0xffff8881003e4ba0\n"
              "    struct dentry *dentry = 0\n"
              "}");
}

// Every kind of member: char array, nested struct, enum (known and unknown
// values), bit-field, integer array, anonymous union, float.
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
                {"d", 9, 512, 0}}), // 10
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
    EXPECT_EQ(print(types, 10, bytes), "struct s {\n"
                                       "    int a = 0x1\n"
                                       "    char [8] name = [ \"ab\" ]\n"
                                       "    struct inner in = {\n"
                                       "        void *p = 0x10\n"
                                       "        int n = 0x7\n"
                                       "    }\n"
                                       "    enum color k = GREEN\n"
                                       "    enum color k2 = 9\n"
                                       "    unsigned int flags :3 = 0x5\n"
                                       "    int [3] v = [ 0x1, 0x2, 0x3 ]\n"
                                       "    union {\n"
                                       "        int x = 0x41\n"
                                       "        char c = 'A'\n"
                                       "    }\n"
                                       "    double d = +1.5000000e+00\n"
                                       "}");
}

TEST(PrintValue, NestedRecordsCloseEachLevel) {
    std::vector<PrintedType> types = {
        scalar(Kind::Integer, "int", 4),
        record(Kind::Struct, "struct c", 4, {{"z", 0, 0, 0}}),
        record(Kind::Struct, "struct b", 4, {{"c", 1, 0, 0}}),
        record(Kind::Struct, "struct a", 4, {{"b", 2, 0, 0}}),
    };
    EXPECT_EQ(print(types, 3, Bytes(4).put(0, 3, 4)), "struct a {\n"
                                                      "    struct b b = {\n"
                                                      "        struct c c = {\n"
                                                      "            int z = 0x3\n"
                                                      "        }\n"
                                                      "    }\n"
                                                      "}");
}

TEST(PrintValue, ArrayOfStructsPutsEachOnItsOwnLines) {
    std::vector<PrintedType> types = {
        scalar(Kind::Integer, "int", 4),
        record(Kind::Struct, "struct pt", 4, {{"x", 0, 0, 0}}),
        array("struct pt [2]", 1, 2, 8),
        record(Kind::Struct, "struct line", 8, {{"ends", 2, 0, 0}}),
    };
    EXPECT_EQ(print(types, 3, Bytes(8).put(0, 1, 4).put(4, 2, 4)), "struct line {\n"
                                                                   "    struct pt [2] ends = [ \n"
                                                                   "        struct pt {\n"
                                                                   "            int x = 0x1\n"
                                                                   "        }, \n"
                                                                   "        struct pt {\n"
                                                                   "            int x = 0x2\n"
                                                                   "        }\n"
                                                                   "    ]\n"
                                                                   "}");
}

TEST(PrintValue, EmptyStructStillCloses) {
    std::vector<PrintedType> types = {record(Kind::Struct, "struct lock_class_key", 0, {})};
    EXPECT_EQ(print(types, 0, Bytes(0)), "struct lock_class_key {\n}");
}

TEST(PrintValue, DStringsPrintQuoted) {
    std::vector<PrintedType> types = {scalar(Kind::String, "string", 16)};
    EXPECT_EQ(print(types, 0, Bytes(16).text(0, "hello")), "string \"hello\"\n");
}

TEST(PrintValue, MissingBytesReadAsZero) {
    std::vector<PrintedType> types = {scalar(Kind::Integer, "long", 8)};
    EXPECT_EQ(print(types, 0, Bytes(2).put(0, 0x102, 2)), "long 0x102\n");
}

TEST(PrintValue, SignedEnumsMatchNegativeValues) {
    PrintedType e = scalar(Kind::Enum, "enum sign", 4);
    e.enumerators = {{"MINUS", -1}};
    EXPECT_EQ(print({e}, 0, Bytes(4).put(0, uint32_t(-1), 4)), "enum sign MINUS\n");
}

} // namespace
} // namespace dtx::trace

// D's integer conversions as constant folding and the code generator share
// them (codegen/types.h): wrap_to, convert_value and cast_value over every
// width and signedness.

#include "codegen/types.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

using namespace dtx::sema;

namespace {

class DArithmetic : public ::testing::Test {
protected:
    const Type *type(const char *name) {
        const Type *found = types.lookup(name);
        EXPECT_NE(found, nullptr) << name;
        return found;
    }
    TypeTable types;
};

TEST_F(DArithmetic, WrapToEveryWidth) {
    EXPECT_EQ(wrap_to(0x1ff, type("char")), -1);
    EXPECT_EQ(wrap_to(0x1ff, type("unsigned char")), 0xff);
    EXPECT_EQ(wrap_to(0x18000, type("short")), -32768);
    EXPECT_EQ(wrap_to(0x18000, type("unsigned short")), 0x8000);
    EXPECT_EQ(wrap_to(int64_t(1) << 31, type("int")), std::numeric_limits<int32_t>::min());
    EXPECT_EQ(wrap_to(-1, type("unsigned int")), 0xffffffff);
    EXPECT_EQ(wrap_to(-1, type("long")), -1);
    EXPECT_EQ(wrap_to(-1, type("unsigned long")), -1); // all 64 bits, as held
}

TEST_F(DArithmetic, ConvertNarrowsAndKeepsWideValues) {
    // Narrowing wraps; widening with the same signedness keeps the value.
    EXPECT_EQ(convert_value(300, type("int"), type("unsigned char")), 44);
    EXPECT_EQ(convert_value(-300, type("int"), type("char")), -44);
    EXPECT_EQ(convert_value(-5, type("int"), type("long")), -5);
    EXPECT_EQ(convert_value(int64_t(10000000000), type("long"), type("int")), 1410065408);
    // A change of signedness takes the value as `from` holds it.
    EXPECT_EQ(convert_value(-1, type("int"), type("unsigned long")), -1);
    EXPECT_EQ(convert_value(0xffffffff, type("unsigned int"), type("long")), 0xffffffff);
    EXPECT_EQ(convert_value(-1, type("char"), type("unsigned int")), 0xffffffff);
}

TEST_F(DArithmetic, CastWrapsToTheTypesRange) {
    const int64_t int_max = std::numeric_limits<int32_t>::max();
    EXPECT_EQ(cast_value(int_max + 1, type("int"), type("int")),
              std::numeric_limits<int32_t>::min());
    EXPECT_EQ(cast_value(256, type("int"), type("unsigned char")), 0);
    EXPECT_EQ(cast_value(-1, type("int"), type("unsigned short")), 0xffff);
    EXPECT_EQ(cast_value(0x80, type("int"), type("char")), -128);
    EXPECT_EQ(cast_value(-1, type("long"), type("unsigned int")), 0xffffffff);
}

TEST_F(DArithmetic, NonIntegersAreUnchanged) {
    const Type *pointer = types.pointer_to(type("char"));
    EXPECT_EQ(wrap_to(0x123456789, pointer), 0x123456789);
    EXPECT_EQ(convert_value(0x123456789, type("long"), pointer), 0x123456789);
}

} // namespace

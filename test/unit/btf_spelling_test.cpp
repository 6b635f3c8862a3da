// C spellings of BTF types, on a BTF object built here: base types under
// D's names, typedefs kept, pointers, qualifiers on either side of '*',
// arrays and function pointers.
#include "libtrace/btf_spelling.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <memory>

namespace dtx::trace {
namespace {

struct BtfDeleter {
    void operator()(btf *types) const { btf__free(types); }
};

class BtfSpelling : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(types_);
        char_ = btf__add_int(types_.get(), "char", 1, BTF_INT_SIGNED);
        ulong_ = btf__add_int(types_.get(), "long unsigned int", 8, 0);
        int_ = btf__add_int(types_.get(), "int", 4, BTF_INT_SIGNED);
        ASSERT_GT(char_, 0);
        ASSERT_GT(ulong_, 0);
        ASSERT_GT(int_, 0);
    }

    std::string spelling(int id) { return btf_type_spelling(*types_, uint32_t(id)); }

    std::unique_ptr<btf, BtfDeleter> types_{btf__new_empty()};
    int char_ = 0, ulong_ = 0, int_ = 0;
};

TEST_F(BtfSpelling, BaseTypesUnderDNames) {
    EXPECT_EQ(spelling(char_), "char");
    EXPECT_EQ(spelling(ulong_), "unsigned long");
    EXPECT_EQ(spelling(btf__add_int(types_.get(), "long long int", 8, BTF_INT_SIGNED)),
              "long long");
    EXPECT_EQ(spelling(btf__add_int(types_.get(), "short unsigned int", 2, 0)), "unsigned short");
    EXPECT_EQ(spelling(btf__add_int(types_.get(), "_Bool", 1, BTF_INT_BOOL)), "_Bool");
    EXPECT_EQ(spelling(0), "void");
}

TEST_F(BtfSpelling, TypedefsKeepTheirNames) {
    int u64 = btf__add_typedef(types_.get(), "u64", ulong_);
    EXPECT_EQ(spelling(u64), "u64");
    EXPECT_EQ(spelling(btf__add_ptr(types_.get(), u64)), "u64 *");
}

TEST_F(BtfSpelling, TaggedTypesAndPointers) {
    int task = btf__add_struct(types_.get(), "task_struct", 0);
    int task_pointer = btf__add_ptr(types_.get(), task);
    EXPECT_EQ(spelling(task_pointer), "struct task_struct *");
    EXPECT_EQ(spelling(btf__add_ptr(types_.get(), task_pointer)), "struct task_struct **");
    EXPECT_EQ(spelling(btf__add_union(types_.get(), "u", 8)), "union u");
    EXPECT_EQ(spelling(btf__add_enum(types_.get(), "e", 4)), "enum e");
    EXPECT_EQ(spelling(btf__add_fwd(types_.get(), "rq", BTF_FWD_STRUCT)), "struct rq");
    EXPECT_EQ(spelling(btf__add_struct(types_.get(), nullptr, 0)), "struct <anonymous>");
    EXPECT_EQ(spelling(btf__add_ptr(types_.get(), 0)), "void *");
}

TEST_F(BtfSpelling, QualifiersOnEitherSideOfThePointer) {
    int const_char = btf__add_const(types_.get(), char_);
    int string = btf__add_ptr(types_.get(), const_char);
    EXPECT_EQ(spelling(string), "const char *");
    int const_pointer = btf__add_const(types_.get(), btf__add_ptr(types_.get(), char_));
    EXPECT_EQ(spelling(const_pointer), "char *const");
    // char's argv: const char *const *
    int argv = btf__add_ptr(types_.get(), btf__add_const(types_.get(), string));
    EXPECT_EQ(spelling(argv), "const char *const *");
    EXPECT_EQ(spelling(btf__add_volatile(types_.get(), int_)), "volatile int");
}

TEST_F(BtfSpelling, ArraysAndFunctionPointers) {
    int comm = btf__add_array(types_.get(), int_, char_, 16);
    EXPECT_EQ(spelling(comm), "char [16]");
    EXPECT_EQ(spelling(btf__add_ptr(types_.get(), comm)), "char (*)[16]");
    int void_pointer = btf__add_ptr(types_.get(), 0);
    // Parameters follow their prototype, with no other type between.
    int callback = btf__add_func_proto(types_.get(), 0);
    ASSERT_EQ(btf__add_func_param(types_.get(), "data", void_pointer), 0);
    ASSERT_EQ(btf__add_func_param(types_.get(), "n", int_), 0);
    EXPECT_EQ(spelling(btf__add_ptr(types_.get(), callback)), "void (*)(void *, int)");
    int no_parameters = btf__add_func_proto(types_.get(), int_);
    EXPECT_EQ(spelling(btf__add_ptr(types_.get(), no_parameters)), "int (*)(void)");
}

} // namespace
} // namespace dtx::trace

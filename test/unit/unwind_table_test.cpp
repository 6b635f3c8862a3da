// Unwind tables of real files: dtx-unwind-fixture, whose functions have known
// frame layouts (see the comment atop unwind_fixture.c), found by their
// symbols; the system's C library (its signal trampoline and PLT); a library
// without CFI; and files that are not ELF.
#include "libtrace/unwind_table.h"

#include "libtrace/elf_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace dtx::trace {
namespace {

constexpr const char *kLibc = "/usr/lib/x86_64-linux-gnu/libc.so.6";

std::string fixture() {
    return std::string(DTX_BINARY_DIR) + "/test/dtx-unwind-fixture";
}

UnwindTable build_ok(const std::string &path) {
    Result<UnwindTable> table = build_unwind_table(path);
    if (!table) {
        ADD_FAILURE() << table.error().message;
        return {};
    }
    return *std::move(table);
}

std::shared_ptr<const ElfFile> open_ok(const std::string &path) {
    Result<std::shared_ptr<const ElfFile>> file = ElfFile::open(path);
    if (!file) {
        ADD_FAILURE() << file.error().message;
        return nullptr;
    }
    return *file;
}

// A rule of a row, as tests compare it.
struct Rules {
    uint8_t cfa_rule;
    int32_t cfa_offset;
    uint8_t ra_rule;
    int16_t ra_offset;
    uint8_t fp_rule;
    int16_t fp_offset;
    bool operator==(const Rules &) const = default;
};

Rules rules_of(const UnwindRow &row) {
    return {row.cfa_rule, row.cfa_offset, row.ra_rule, row.ra_offset, row.fp_rule, row.fp_offset};
}

std::ostream &operator<<(std::ostream &out, const Rules &rules) {
    return out << "{cfa " << int(rules.cfa_rule) << " " << rules.cfa_offset << ", ra "
               << int(rules.ra_rule) << " " << rules.ra_offset << ", fp " << int(rules.fp_rule)
               << " " << rules.fp_offset << "}";
}

// CFA = rsp + 8, the return address at CFA - 8, rbp untouched: a function's
// first instruction.
constexpr Rules kAtEntry{kCfaSp, 8, kRaCfa, -8, kFpSame, 0};

// The fixture's table and symbols, read once.
class UnwindFixture : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        file_ = open_ok(fixture());
        table_ = new UnwindTable(build_ok(fixture()));
    }
    static void TearDownTestSuite() {
        delete table_;
        file_.reset();
    }

    struct Function {
        uint64_t offset = 0, size = 0;
    };
    static Function function(std::string_view name) {
        std::vector<const ElfFunction *> found = file_->find(name);
        if (found.size() != 1) {
            ADD_FAILURE() << name << ": " << found.size() << " symbols";
            return {};
        }
        std::optional<uint64_t> offset = file_->file_offset(found[0]->address);
        EXPECT_TRUE(offset) << name;
        return {offset.value_or(0), found[0]->size};
    }
    // The rules of the instructions of `name`, in order, each once.
    static std::vector<Rules> rules_in(std::string_view name) {
        Function fn = function(name);
        std::vector<Rules> rules;
        for (uint64_t offset = fn.offset; offset < fn.offset + fn.size;) {
            const UnwindRow *row = table_->row_at(offset);
            if (!row) {
                ADD_FAILURE() << name << ": no row at " << offset;
                break;
            }
            rules.push_back(rules_of(*row));
            const UnwindRow *next = row + 1;
            if (next == table_->rows.data() + table_->rows.size())
                break;
            offset = next->offset;
        }
        return rules;
    }
    static bool contains(const std::vector<Rules> &rules, const Rules &wanted) {
        return std::find(rules.begin(), rules.end(), wanted) != rules.end();
    }

    static inline std::shared_ptr<const ElfFile> file_;
    static inline UnwindTable *table_ = nullptr;
};

TEST_F(UnwindFixture, RowsAreSortedDistinctAndEndWithoutRules) {
    const std::vector<UnwindRow> &rows = table_->rows;
    ASSERT_FALSE(rows.empty());
    for (std::size_t i = 1; i < rows.size(); ++i) {
        EXPECT_LT(rows[i - 1].offset, rows[i].offset) << i;
        EXPECT_FALSE(rules_of(rows[i - 1]) == rules_of(rows[i]) &&
                     rows[i - 1].flags == rows[i].flags)
            << "rows " << i - 1 << " and " << i << " should have merged";
    }
    EXPECT_EQ(rows.back().cfa_rule, kCfaNone);
    EXPECT_GT(table_->stats.fdes, 0u);
    EXPECT_EQ(table_->stats.unreadable_fdes, 0u);
    EXPECT_EQ(table_->stats.overlapped, 0u);
}

TEST_F(UnwindFixture, EveryFunctionStartsWithTheCallersFrame) {
    for (const char *name : {"main", "unwind_leaf", "unwind_large_frame", "unwind_alloca",
                             "unwind_frame_pointer", "unwind_debug_frame"}) {
        std::vector<Rules> rules = rules_in(name);
        ASSERT_FALSE(rules.empty()) << name;
        EXPECT_EQ(rules.front(), kAtEntry) << name;
    }
}

TEST_F(UnwindFixture, RowsAreAtFileOffsets) {
    // Non-PIE: the fixture's code is at 0x400000 and more, its file offsets
    // far below. The padding before each function has no FDE, so a row
    // starts exactly where it does.
    std::vector<const ElfFunction *> found = file_->find("unwind_large_frame");
    ASSERT_EQ(found.size(), 1u);
    Function fn = function("unwind_large_frame");
    ASSERT_NE(fn.offset, found[0]->address);
    const UnwindRow *row = table_->row_at(fn.offset);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->offset, fn.offset);
}

TEST_F(UnwindFixture, LeafKeepsTheEntryRulesAndPaddingHasNone) {
    EXPECT_EQ(rules_in("unwind_leaf"), std::vector<Rules>{kAtEntry});
    Function leaf = function("unwind_leaf");
    uint64_t end = leaf.offset + leaf.size;
    ASSERT_NE(end % 16, 0u) << "unwind_leaf should end before its alignment padding";
    const UnwindRow *gap = table_->row_at(end);
    ASSERT_NE(gap, nullptr);
    EXPECT_EQ(gap->offset, end);
    EXPECT_EQ(gap->cfa_rule, kCfaNone);
}

TEST_F(UnwindFixture, FramePointerFunctionMovesItsCfaToRbp) {
    std::vector<Rules> rules = rules_in("unwind_frame_pointer");
    const Rules pushed{kCfaSp, 16, kRaCfa, -8, kFpCfa, -16};
    const Rules framed{kCfaFp, 16, kRaCfa, -8, kFpCfa, -16};
    auto entry = std::find(rules.begin(), rules.end(), kAtEntry);
    auto after_push = std::find(entry, rules.end(), pushed);
    auto after_mov = std::find(after_push, rules.end(), framed);
    EXPECT_TRUE(entry != rules.end() && after_push != rules.end() && after_mov != rules.end())
        << ::testing::PrintToString(rules);
}

TEST_F(UnwindFixture, AllocaFunctionHasAnRbpBasedCfa) {
    std::vector<Rules> rules = rules_in("unwind_alloca");
    EXPECT_TRUE(contains(rules, {kCfaFp, 16, kRaCfa, -8, kFpCfa, -16}))
        << ::testing::PrintToString(rules);
}

TEST_F(UnwindFixture, LargeFrameHasALargeCfaOffset) {
    std::vector<Rules> rules = rules_in("unwind_large_frame");
    EXPECT_TRUE(std::any_of(rules.begin(), rules.end(), [](const Rules &rules) {
        return rules.cfa_rule == kCfaSp && rules.cfa_offset > 32768 && rules.ra_rule == kRaCfa;
    })) << ::testing::PrintToString(rules);
}

TEST_F(UnwindFixture, DebugFrameCoversWhatEhFrameDoesNot) {
    ASSERT_TRUE(elf_file_has_section(fixture(), ".debug_frame"));
    std::vector<Rules> rules = rules_in("unwind_debug_frame");
    ASSERT_GE(rules.size(), 2u) << ::testing::PrintToString(rules);
    EXPECT_EQ(rules.front(), kAtEntry);
    EXPECT_TRUE(std::none_of(rules.begin(), rules.end(), [](const Rules &rules) {
        return rules.cfa_rule == kCfaNone;
    })) << ::testing::PrintToString(rules);
}

TEST_F(UnwindFixture, StartEndsTheStack) {
    // crt1.o's _start says cfi_undefined rip: the outermost frame.
    std::vector<Rules> rules = rules_in("_start");
    EXPECT_TRUE(std::any_of(rules.begin(), rules.end(), [](const Rules &rules) {
        return rules.cfa_rule == kCfaSp && rules.ra_rule == kRaUndefined;
    })) << ::testing::PrintToString(rules);
}

TEST(UnwindTable, LibcSignalTrampolineAndPlt) {
    UnwindTable table = build_ok(kLibc);
    ASSERT_FALSE(table.rows.empty());
    EXPECT_EQ(table.stats.unreadable_fdes, 0u);

    // __restore_rt: its FDE's CIE has the 'S' augmentation. Debian's libc
    // has no .symtab to name it by.
    std::vector<const UnwindRow *> signal_rows;
    for (const UnwindRow &row : table.rows)
        if (row.flags & kUnwindSignalFrame)
            signal_rows.push_back(&row);
    ASSERT_EQ(signal_rows.size(), 1u);
    // The interrupted rsp and rip and rbp in the ucontext on the stack.
    EXPECT_EQ(rules_of(*signal_rows[0]), (Rules{kCfaDerefSp, 160, kRaSp, 168, kFpSp, 120}));
    std::shared_ptr<const ElfFile> libc = open_ok(kLibc);
    ASSERT_TRUE(libc);
    if (std::vector<const ElfFunction *> found = libc->find("__restore_rt"); !found.empty()) {
        EXPECT_EQ(table.row_at(libc->file_offset(found[0]->address).value_or(0)), signal_rows[0]);
    }

    // The lazy-binding PLT entries: CFA = rsp + 8, or 16 from byte 11 (after
    // the push) of each 16-byte entry.
    EXPECT_TRUE(std::any_of(table.rows.begin(), table.rows.end(), [](const UnwindRow &row) {
        return row.cfa_rule == kCfaPlt && row.cfa_offset == 8 &&
               row.flags >> kUnwindPltThresholdShift == 11 && row.ra_rule == kRaCfa &&
               row.ra_offset == -8;
    }));
}

TEST(UnwindTable, SystemFilesGiveWellFormedTables) {
    for (const char *path : {kLibc, "/usr/bin/ls", "/usr/bin/python3.11"}) {
        if (!std::filesystem::exists(path))
            continue;
        UnwindTable table = build_ok(path);
        ASSERT_FALSE(table.rows.empty()) << path;
        std::shared_ptr<const ElfFile> file = open_ok(path);
        ASSERT_TRUE(file);
        for (std::size_t i = 0; i < table.rows.size(); ++i) {
            const UnwindRow &row = table.rows[i];
            ASSERT_TRUE(i == 0 || table.rows[i - 1].offset < row.offset) << path << " row " << i;
            // Every row starts in executable code, or ends it.
            std::optional<uint64_t> vaddr = file->vaddr_of_offset(row.offset);
            if (row.cfa_rule != kCfaNone) {
                ASSERT_TRUE(vaddr) << path << " row " << i;
                const ElfSegment *segment = file_segment_of(file->segments(), *vaddr);
                ASSERT_TRUE(segment && segment->executable) << path << " row " << i;
            }
        }
        EXPECT_EQ(table.stats.unreadable_fdes, 0u) << path;
    }
}

TEST(UnwindTable, FileWithoutCfiHasAnEmptyTable) {
    UnwindTable table =
        build_ok(std::string(DTX_BINARY_DIR) + "/test/libdtx-unwind-fixture-nocfi.so");
    EXPECT_TRUE(table.rows.empty());
    EXPECT_EQ(table.stats.fdes, 0u);
}

TEST(UnwindTable, ErrorsNameTheFile) {
    const std::string source = std::string(DTX_SOURCE_DIR) + "/test/unit/unwind_table_test.cpp";
    Result<UnwindTable> not_elf = build_unwind_table(source);
    ASSERT_FALSE(not_elf);
    EXPECT_EQ(not_elf.error().message, source + ": not an ELF file");

    Result<UnwindTable> missing = build_unwind_table("/no/such/file");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message, "/no/such/file: No such file or directory");
}

TEST(UnwindTable, SurvivesDamagedFiles) {
    std::ifstream in(kLibc, std::ios::binary);
    std::vector<char> original((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    ASSERT_GT(original.size(), 1u << 20);
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("dtx-unwind-test-" + std::to_string(getpid()));
    std::mt19937 random(1);
    // Garbage over the start of every 16 KiB (the CFI among the rest), with
    // the ELF header and the section headers at the end left whole; then the
    // file cut short.
    std::vector<char> damaged = original;
    for (std::size_t offset = 4096; offset + 65536 < damaged.size(); offset += 16384)
        for (std::size_t i = 0; i < 512; ++i)
            damaged[offset + i] = char(random());
    for (std::size_t size : {damaged.size(), std::size_t(64), damaged.size() / 2}) {
        {
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out.write(damaged.data(), static_cast<std::streamsize>(size));
        }
        Result<UnwindTable> table = build_unwind_table(path.string());
        if (!table)
            continue;
        for (std::size_t i = 1; i < table->rows.size(); ++i)
            ASSERT_LT(table->rows[i - 1].offset, table->rows[i].offset) << size;
    }
    std::filesystem::remove(path);
}

} // namespace
} // namespace dtx::trace

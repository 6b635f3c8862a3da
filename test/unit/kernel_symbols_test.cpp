// The kernel symbol table: parsing /proc/kallsyms text, resolution at symbol
// boundaries, DTrace's spelling of addresses, lookups by name, kptr_restrict,
// and one check against the running kernel's /proc/kallsyms.
#include "libtrace/kernel_symbols.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>

namespace dtx::trace {
namespace {

// Unsorted, with shared addresses, a module and an unparseable line, as the
// real file can be.
constexpr const char *kSample = "ffffffff81000100 T vfs_read\n"
                                "ffffffff81000000 T _stext\n"
                                "ffffffff81000000 t __pfx_startup\n"
                                "ffffffff81000000 T startup_64\n"
                                "ffffffff81000200 t helper\n"
                                "ffffffff81000200 W helper_alias\n"
                                "this line is not a symbol\n"
                                "0000000000000000 A fixed_percpu_data\n"
                                "ffffffff81000300 T vfs_write\n"
                                "ffffffffc0001000 t ext4_fill_super\t[ext4]\n"
                                "ffffffffc0000000 t helper\t[xfs]\n"
                                "ffffffffc0002000 T ext4_mount\t[ext4]";

KernelSymbolTable parse_ok(std::string text) {
    Result<KernelSymbolTable> result = KernelSymbolTable::parse(std::move(text), "test");
    if (!result)
        ADD_FAILURE() << result.error().message;
    return std::move(result).value();
}

TEST(KernelSymbols, ParsesEveryWellFormedLine) {
    KernelSymbolTable table = parse_ok(kSample);
    // 12 lines: one is not a symbol, one is absolute.
    EXPECT_EQ(table.size(), 10u);
}

TEST(KernelSymbols, ResolvesAtTheStartOfASymbol) {
    KernelSymbolTable table = parse_ok(kSample);
    std::optional<KernelSymbol> symbol = table.resolve(0xffffffff81000100);
    ASSERT_TRUE(symbol);
    EXPECT_EQ(symbol->name, "vfs_read");
    EXPECT_EQ(symbol->module, "vmlinux");
    EXPECT_EQ(symbol->start, 0xffffffff81000100u);
    EXPECT_EQ(symbol->offset, 0u);
    EXPECT_EQ(symbol->type, 'T');
}

TEST(KernelSymbols, ResolvesInsideUpToTheNextSymbol) {
    KernelSymbolTable table = parse_ok(kSample);
    std::optional<KernelSymbol> inside = table.resolve(0xffffffff81000112);
    ASSERT_TRUE(inside);
    EXPECT_EQ(inside->name, "vfs_read");
    EXPECT_EQ(inside->offset, 0x12u);
    std::optional<KernelSymbol> last_byte = table.resolve(0xffffffff810001ff);
    ASSERT_TRUE(last_byte);
    EXPECT_EQ(last_byte->name, "vfs_read");
    EXPECT_EQ(last_byte->offset, 0xffu);
    std::optional<KernelSymbol> next = table.resolve(0xffffffff81000200);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->offset, 0u);
}

TEST(KernelSymbols, NothingBelowTheFirstOrPastTheLastSymbol) {
    KernelSymbolTable table = parse_ok(kSample);
    EXPECT_FALSE(table.resolve(0));
    EXPECT_FALSE(table.resolve(0xffffffff80ffffff));
    EXPECT_TRUE(table.resolve(0xffffffffc0002000));
    EXPECT_FALSE(table.resolve(0xffffffffc0002001));
    EXPECT_FALSE(table.resolve(UINT64_MAX));
}

TEST(KernelSymbols, SharedAddressNamesTheGlobalWithFewestUnderscores) {
    KernelSymbolTable table = parse_ok(kSample);
    // _stext, __pfx_startup and startup_64 share an address.
    EXPECT_EQ(table.resolve(0xffffffff81000000)->name, "startup_64");
    EXPECT_EQ(table.resolve(0xffffffff81000010)->name, "startup_64");
    // A local before a weak alias in the file: the weak one still wins.
    EXPECT_EQ(table.resolve(0xffffffff81000200)->name, "helper_alias");
}

TEST(KernelSymbols, ModuleSymbols) {
    KernelSymbolTable table = parse_ok(kSample);
    std::optional<KernelSymbol> symbol = table.resolve(0xffffffffc0001004);
    ASSERT_TRUE(symbol);
    EXPECT_EQ(symbol->name, "ext4_fill_super");
    EXPECT_EQ(symbol->module, "ext4");
    EXPECT_EQ(symbol->offset, 4u);
    EXPECT_EQ(table.resolve(0xffffffffc0000000)->module, "xfs");
}

TEST(KernelSymbols, FormatsLikeDTraceStackFrames) {
    KernelSymbolTable table = parse_ok(kSample);
    EXPECT_EQ(table.format(0xffffffff81000112), "vmlinux`vfs_read+0x12");
    EXPECT_EQ(table.format(0xffffffff81000100), "vmlinux`vfs_read");
    EXPECT_EQ(table.format(0xffffffffc00010ab), "ext4`ext4_fill_super+0xab");
    EXPECT_EQ(table.format(0xffffffffc0002000), "ext4`ext4_mount");
    EXPECT_EQ(table.format(0x1234), "0x1234");
    EXPECT_EQ(table.format(0xffffffffc0002001), "0xffffffffc0002001");
}

TEST(KernelSymbols, LookupByName) {
    KernelSymbolTable table = parse_ok(kSample);
    EXPECT_EQ(table.lookup("vfs_read"), 0xffffffff81000100u);
    EXPECT_EQ(table.lookup("ext4_mount"), 0xffffffffc0002000u);
    EXPECT_EQ(table.lookup("ext4_mount", "ext4"), 0xffffffffc0002000u);
    EXPECT_FALSE(table.lookup("ext4_mount", "vmlinux"));
    EXPECT_FALSE(table.lookup("no_such_symbol"));
    EXPECT_FALSE(table.lookup("fixed_percpu_data"));
    // "helper" is local in vmlinux and in xfs: the lower address wins, the
    // module picks the other.
    EXPECT_EQ(table.lookup("helper"), 0xffffffff81000200u);
    EXPECT_EQ(table.lookup("helper", "xfs"), 0xffffffffc0000000u);
    std::optional<KernelSymbol> found = table.find("ext4_fill_super");
    ASSERT_TRUE(found);
    EXPECT_EQ(found->module, "ext4");
    EXPECT_EQ(found->type, 't');
}

TEST(KernelSymbols, GlobalWinsLookupOverEarlierLocal) {
    KernelSymbolTable table = parse_ok("ffffffff81000000 t dup\n"
                                       "ffffffff81000100 T dup\n");
    EXPECT_EQ(table.lookup("dup"), 0xffffffff81000100u);
}

TEST(KernelSymbols, HiddenAddressesAreAnError) {
    Result<KernelSymbolTable> result = KernelSymbolTable::parse("0000000000000000 T _stext\n"
                                                                "0000000000000000 T vfs_read\n"
                                                                "0000000000000000 t x\t[ext4]\n",
                                                                "/proc/kallsyms");
    ASSERT_FALSE(result);
    const std::string &message = result.error().message;
    EXPECT_NE(message.find("/proc/kallsyms: kernel symbol addresses are hidden"), std::string::npos)
        << message;
    EXPECT_NE(message.find("kptr_restrict"), std::string::npos) << message;
}

TEST(KernelSymbols, EmptyTextIsAnError) {
    Result<KernelSymbolTable> result = KernelSymbolTable::parse("", "empty");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message, "empty: no symbols");
}

TEST(KernelSymbols, MissingFileIsAnError) {
    Result<KernelSymbolTable> result = KernelSymbolTable::load("/nonexistent/kallsyms");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message, "/nonexistent/kallsyms: No such file or directory");
    EXPECT_EQ(result.error().errnum, ENOENT);
}

TEST(KernelSymbols, TableSurvivesMoves) {
    // Short texts live in std::string's inline buffer; the views must not.
    KernelSymbolTable table = parse_ok("ffffffff81000000 T a\n");
    KernelSymbolTable moved = std::move(table);
    EXPECT_EQ(moved.format(0xffffffff81000000), "vmlinux`a");
}

TEST(KernelSymbols, LazyLoaderReportsItsError) {
    KernelSymbols symbols("/nonexistent/kallsyms");
    EXPECT_EQ(symbols.table(), nullptr);
    EXPECT_EQ(symbols.error(), "/nonexistent/kallsyms: No such file or directory");
    EXPECT_EQ(symbols.format(0xffffffff81000000), "0xffffffff81000000");
    EXPECT_FALSE(symbols.lookup("vfs_read"));
}

TEST(KernelSymbols, LazyLoaderReadsAGivenFile) {
    char path[] = "/tmp/dtx-kallsyms-XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    std::ofstream(path) << kSample;
    KernelSymbols symbols(path);
    EXPECT_EQ(symbols.format(0xffffffff81000101), "vmlinux`vfs_read+0x1");
    EXPECT_EQ(symbols.lookup("vfs_write"), 0xffffffff81000300u);
    EXPECT_EQ(symbols.error(), "");
    std::remove(path);
}

// The running kernel: vfs_read's address names vfs_read.
TEST(KernelSymbols, RealKallsyms) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: not root, /proc/kallsyms addresses read as zero";
    const auto begin = std::chrono::steady_clock::now();
    Result<KernelSymbolTable> result = KernelSymbolTable::load();
    const auto elapsed = std::chrono::steady_clock::now() - begin;
    if (!result)
        GTEST_SKIP() << "skipped: " << result.error().message;
    const KernelSymbolTable &table = *result;
    std::printf("loaded %zu symbols from /proc/kallsyms in %.1f ms\n", table.size(),
                std::chrono::duration<double, std::milli>(elapsed).count());

    std::optional<uint64_t> vfs_read = table.lookup("vfs_read");
    ASSERT_TRUE(vfs_read);
    EXPECT_EQ(table.format(*vfs_read), "vmlinux`vfs_read");
    EXPECT_EQ(table.format(*vfs_read + 0x12), "vmlinux`vfs_read+0x12");
    std::optional<KernelSymbol> symbol = table.resolve(*vfs_read + 1);
    ASSERT_TRUE(symbol);
    EXPECT_EQ(symbol->name, "vfs_read");
    EXPECT_EQ(symbol->module, "vmlinux");
    EXPECT_EQ(symbol->start, *vfs_read);
}

} // namespace
} // namespace dtx::trace

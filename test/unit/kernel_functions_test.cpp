// The kernel function list (available_filter_functions and the BTF + kallsyms
// fallback), compiler suffixes, the kprobe blacklist and probe globs.
#include "libtrace/kernel_functions.h"
#include "libtrace/probe.h"

#include <fnmatch.h>
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

namespace dtx::trace {
namespace {

std::vector<std::string> spelled(const KernelFunctionList &list) {
    std::vector<std::string> out;
    for (const KernelFunction &f : list.functions())
        out.push_back(std::string(f.module) + ":" + std::string(f.name));
    return out;
}

TEST(KernelFunctionList, ParsesFilterFunctionsWithModulesAndRepeats) {
    KernelFunctionList list = KernelFunctionList::from_filter_functions(
        "vfs_read\n"
        "do_one_initcall\n"
        "perf_iommu_stop.part.0\n"
        "show_stat.cold\n"
        "__pfx_vfs_read\n"
        "e1000_probe [e1000]\n"
        "jbd2_journal_start [jbd2]\n"
        "vfs_read\n"
        "\n");
    EXPECT_EQ(spelled(list), (std::vector<std::string>{"e1000:e1000_probe", "jbd2:jbd2_journal_start",
                                                       "vmlinux:do_one_initcall",
                                                       "vmlinux:perf_iommu_stop.part.0",
                                                       "vmlinux:vfs_read"}));
    EXPECT_EQ(list.source(), "available_filter_functions");
}

TEST(KernelFunctionList, KallsymsFallbackKeepsBtfTextSymbols) {
    std::string kallsyms = "ffffffff81000000 T _stext\n"
                           "ffffffff81100000 T vfs_read\n"
                           "ffffffff81100100 t __pfx_vfs_write\n"
                           "ffffffff81100110 t vfs_write\n"
                           "ffffffff81200000 D vfs_data\n"
                           "ffffffff81300000 t helper.isra.0\n"
                           "ffffffff81300400 t helper.cold\n"
                           "ffffffff81300800 t nobtf.constprop.0\n"
                           "ffffffffc0001000 t e1000_probe\t[e1000]\n"
                           "ffffffffc0002000 t bpf_prog_123_f\t[bpf]\n";
    std::set<std::string> btf = {"vmlinux:vfs_read", "vmlinux:vfs_write", "vmlinux:vfs_data",
                                 "vmlinux:helper", "e1000:e1000_probe",
                                 "bpf:bpf_prog_123_f"};
    KernelFunctionList list =
        KernelFunctionList::from_kallsyms(kallsyms, [&](std::string_view name, std::string_view module) {
            return btf.contains(std::string(module) + ":" + std::string(name));
        });
    EXPECT_EQ(spelled(list), (std::vector<std::string>{"e1000:e1000_probe", "vmlinux:helper.isra.0",
                                                       "vmlinux:vfs_read", "vmlinux:vfs_write"}));
    EXPECT_EQ(list.source(), "BTF and /proc/kallsyms");
}

TEST(KernelFunctionList, LoadsTheRunningKernelsFunctions) {
    Result<KernelFunctionList> loaded = KernelFunctionList::load();
    if (!loaded)
        GTEST_SKIP() << "skipped: " << loaded.error().message;
    const KernelFunctionList &list = *loaded;
    EXPECT_GT(list.functions().size(), 10000u);
    bool vfs_read = false;
    for (const KernelFunction &f : list.functions())
        vfs_read = vfs_read || (f.name == "vfs_read" && f.module == kKernelImageModule);
    EXPECT_TRUE(vfs_read);
}

TEST(KernelFunctionNames, CompilerSuffixes) {
    EXPECT_EQ(function_base_name("foo.isra.0"), "foo");
    EXPECT_EQ(function_base_name("foo.constprop.3"), "foo");
    EXPECT_EQ(function_base_name("foo.part.1"), "foo");
    EXPECT_EQ(function_base_name("foo.constprop.0.isra.0"), "foo");
    EXPECT_EQ(function_base_name("foo.cold"), "foo");
    EXPECT_EQ(function_base_name("foo.llvm.12345"), "foo");
    EXPECT_EQ(function_base_name("foo"), "foo");
    EXPECT_EQ(function_base_name(".isra.0"), ".isra.0");
    EXPECT_TRUE(is_cold_part("foo.cold"));
    EXPECT_TRUE(is_cold_part("foo.cold.2"));
    EXPECT_FALSE(is_cold_part("foo.coldest"));
    EXPECT_FALSE(is_cold_part("foo"));
}

TEST(KprobeBlacklist, ParsesRangesAndNames) {
    KprobeBlacklist list = KprobeBlacklist::parse("0xffffffff81001000-0xffffffff81001040\tdo_int3\n"
                                                  "0xffffffff81002000-0xffffffff81002100\tnmi_handle\n"
                                                  "0xffffffffc0001000-0xffffffffc0001010\tfoo [mod]\n"
                                                  "garbage\n");
    EXPECT_TRUE(list.contains("do_int3"));
    EXPECT_TRUE(list.contains("nmi_handle"));
    EXPECT_TRUE(list.contains("foo"));
    EXPECT_FALSE(list.contains("vfs_read"));
}

// glob_match is fnmatch(3) without flags, without its copies.
TEST(Glob, AgreesWithFnmatch) {
    const std::vector<std::string> patterns = {
        "", "*", "vfs_*", "*read*", "?fs_read", "vfs_[rw]*", "vfs_[!r]*", "vfs_[^r]*", "[a-c]*",
        "tcp_*_ack", "*.isra.*", "a\\*b", "[]]x", "[!]]x", "[", "x[", "**a", "a*b*c", "\\[x",
        "[a-]x", "*[0-9]",
    };
    const std::vector<std::string> texts = {
        "",        "vfs_read", "vfs_write", "xfs_read", "tcp_send_ack", "tcp_ack",
        "a*b",     "ab",       "]x",        "ax",       "[",            "x[",
        "aab",     "abxbc",    "foo.isra.0", "[x",      "-x",           "tcp9",
    };
    for (const std::string &pattern : patterns)
        for (const std::string &text : texts) {
            bool expected = pattern.empty() || fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
            EXPECT_EQ(glob_match(pattern, text), expected) << pattern << " vs " << text;
        }
    std::mt19937 random(42);
    const std::string alphabet = "ab*?[]!-\\";
    for (int i = 0; i < 20000; i++) {
        std::string pattern, text;
        for (int n = random() % 7; n > 0; n--)
            pattern += alphabet[random() % alphabet.size()];
        for (int n = random() % 7; n > 0; n--)
            text += alphabet[random() % 5 == 0 ? 2 + random() % 7 : random() % 2];
        bool expected = pattern.empty() || fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
        ASSERT_EQ(glob_match(pattern, text), expected) << pattern << " vs " << text;
    }
}

} // namespace
} // namespace dtx::trace

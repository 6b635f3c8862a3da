// The kernel-function providers' catalog against the running kernel's BTF
// and function list: typed arguments, what fentry refuses, and matching
// (globs, compiler copies, offsets). Attaching is tested in the VM
// (test/kernel/).
#include "providers/kernel_function_probes.h"

#include "libtrace/vmlinux_btf.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <set>

namespace dtx::providers {
namespace {

class KernelFunctionProbesTest : public testing::Test {
protected:
    void SetUp() override {
        if (!trace::vmlinux_btf())
            GTEST_SKIP() << "skipped: the kernel has no BTF";
        if (!catalog.functions())
            GTEST_SKIP() << "skipped: " << catalog.error();
    }

    std::vector<std::string> match(std::string_view provider, ProbePattern pattern,
                                   KernelFunctionFilter filter = {},
                                   std::optional<std::string> *error = nullptr) {
        std::vector<const trace::Probe *> found;
        Status matched = match_kernel_functions(provider, pattern, filter, catalog, table, found);
        if (error)
            *error = matched ? std::nullopt : std::optional(matched.error().message);
        std::vector<std::string> names;
        for (const trace::Probe *probe : found)
            names.push_back(probe->name.full());
        return names;
    }

    // A BTF function with `count` parameters none of which is passed by value
    // as a struct, or "" if the kernel has none.
    std::string function_with_arguments(unsigned count) {
        const btf *types = trace::vmlinux_btf();
        for (const trace::KernelFunction &f : catalog.functions()->functions()) {
            if (f.module != trace::kKernelImageModule)
                continue;
            uint32_t proto = catalog.prototype(f.name, f.module);
            if (proto && btf_vlen(btf__type_by_id(types, proto)) == count &&
                !catalog.fentry_refusal({f.name, f.module}))
                return std::string(f.name);
        }
        return "";
    }

    KernelFunctionCatalog catalog;
    trace::ProbeTable table;
};

TEST_F(KernelFunctionProbesTest, ArgumentsComeFromBtf) {
    auto entry = catalog.arguments({"vfs_read", "vmlinux", 0, false});
    ASSERT_EQ(entry.size(), 4u);
    EXPECT_EQ(entry[0].type, "struct file *");
    EXPECT_EQ(entry[0].name, "file");
    EXPECT_NE(entry[0].btf_id, 0u);
    EXPECT_EQ(entry[2].type, "size_t");
    EXPECT_EQ(entry[3].type, "loff_t *");
    auto ret = catalog.arguments({"vfs_read", "vmlinux", 0, true});
    ASSERT_EQ(ret.size(), 2u);
    EXPECT_EQ(ret[0].type, "uint64_t");
    EXPECT_EQ(ret[1].type, "ssize_t");
    EXPECT_EQ(catalog.argument_count({"vfs_read", "vmlinux", 0, false}), 4u);
    EXPECT_TRUE(catalog.returns_value({"vfs_read", "vmlinux", 0, true}));
    // No types at an offset, nor for a module's functions.
    EXPECT_TRUE(catalog.arguments({"vfs_read", "vmlinux", 5, false}).empty());
    EXPECT_TRUE(catalog.arguments({"vfs_read", "ext4", 0, false}).empty());
}

TEST_F(KernelFunctionProbesTest, FentryRefusalsSayWhy) {
    EXPECT_EQ(catalog.fentry_refusal({"vfs_read", "vmlinux", 0, false}), std::nullopt);
    EXPECT_EQ(*catalog.fentry_refusal({"migrate_disable", "vmlinux", 0, false}),
              "the kernel does not let BPF trampolines trace migrate_disable");
    EXPECT_EQ(*catalog.fentry_refusal({"_printk", "vmlinux", 0, false}), "_printk is variadic");
    EXPECT_EQ(*catalog.fentry_refusal({"vfs_read", "vmlinux", 5, false}),
              "BPF trampolines trace function entries and returns, not offsets");
    EXPECT_EQ(*catalog.fentry_refusal({"foo.isra.0", "vmlinux", 0, false}),
              "foo.isra.0 is a copy of foo the compiler specialised; BTF has no type for it");
    EXPECT_NE(catalog.fentry_refusal({"e1000_probe", "e1000", 0, false})->find("is in module e1000"),
              std::string::npos);
    // A function of seven or more arguments.
    const btf *types = trace::vmlinux_btf();
    for (const trace::KernelFunction &f : catalog.functions()->functions()) {
        uint32_t proto = catalog.prototype(f.name, f.module);
        if (!proto || btf_vlen(btf__type_by_id(types, proto)) < 7)
            continue;
        auto refusal = catalog.fentry_refusal({f.name, f.module});
        ASSERT_TRUE(refusal);
        if (refusal->find("arguments; BPF trampolines take at most 6") != std::string::npos)
            return;
    }
    ADD_FAILURE() << "no function of 7+ arguments refused for its count";
}

TEST_F(KernelFunctionProbesTest, MatchesEntryAndReturnOfGlobbedFunctions) {
    auto names = match("fbt", {"fbt", "", "vfs_read", ""});
    EXPECT_EQ(names, (std::vector<std::string>{"fbt:vmlinux:vfs_read:entry",
                                               "fbt:vmlinux:vfs_read:return"}));
    names = match("fbt", {"", "vmlinux", "vfs_rea?", "return"});
    EXPECT_EQ(names, (std::vector<std::string>{"fbt:vmlinux:vfs_read:return"}));
    std::set<std::string> globbed;
    for (const std::string &name : match("fbt", {"fbt", "", "vfs_*", "entry"}))
        globbed.insert(name);
    EXPECT_TRUE(globbed.contains("fbt:vmlinux:vfs_read:entry"));
    EXPECT_TRUE(globbed.contains("fbt:vmlinux:vfs_write:entry"));
    EXPECT_GT(globbed.size(), 20u);
    // Other providers, names and modules match nothing.
    EXPECT_TRUE(match("fbt", {"kprobe", "", "vfs_read", ""}).empty());
    EXPECT_TRUE(match("fbt", {"fbt", "", "vfs_read", "BEGIN"}).empty());
    EXPECT_TRUE(match("fbt", {"fbt", "ext4", "vfs_read", ""}).empty());
    // The same probe is not made twice.
    size_t probes = table.size();
    match("fbt", {"fbt", "", "vfs_read", ""});
    EXPECT_EQ(table.size(), probes);
    // The probe's function, read back from its name.
    std::vector<const trace::Probe *> found;
    ASSERT_TRUE(match_kernel_functions("fbt", {"fbt", "", "vfs_read", "return"}, {}, catalog, table,
                                       found));
    KernelFunctionProbe probe = kernel_function_of(*found.at(0));
    EXPECT_EQ(probe.function, "vfs_read");
    EXPECT_EQ(probe.module, "vmlinux");
    EXPECT_TRUE(probe.is_return);
}

TEST_F(KernelFunctionProbesTest, FentryOffersOnlyWhatTrampolinesTrace) {
    KernelFunctionFilter fentry{.needs_fentry = true};
    EXPECT_EQ(match("fentry", {"fentry", "", "vfs_read", "entry"}, fentry).size(), 1u);
    EXPECT_TRUE(match("fentry", {"fentry", "", "migrate_disable", ""}, fentry).empty());
    auto why = explain_kernel_function_miss("fentry", {"fentry", "", "migrate_disable", ""}, fentry,
                                            catalog);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("BPF trampoline cannot trace it"), std::string::npos) << *why;
    why = explain_kernel_function_miss("fbt", {"fbt", "", "dtx_no_such_function", ""}, {}, catalog);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("no traceable function 'dtx_no_such_function'"), std::string::npos);
    EXPECT_FALSE(explain_kernel_function_miss("kprobe", {"fbt", "", "dtx_nope", ""}, {}, catalog));
}

TEST_F(KernelFunctionProbesTest, ExactNamesMatchCompilerCopies) {
    // A function the kernel only has as a compiler's copy (foo.isra.0, no foo).
    std::set<std::string_view> names;
    for (const trace::KernelFunction &f : catalog.functions()->functions())
        names.insert(f.name);
    for (std::string_view name : names) {
        std::string_view base = trace::function_base_name(name);
        if (base == name || names.contains(base) || base.find('*') != std::string_view::npos)
            continue;
        auto found = match("fbt", {"fbt", "", std::string(base), "entry"});
        ASSERT_FALSE(found.empty()) << base;
        for (const std::string &probe : found)
            EXPECT_NE(probe.find(std::string(base) + "."), std::string::npos) << probe;
        return;
    }
    GTEST_SKIP() << "skipped: the kernel has no function known only by a compiler's copy";
}

TEST_F(KernelFunctionProbesTest, KprobeOffsetsAndUnlistedSymbols) {
    KernelFunctionFilter kprobe{.kprobe_extras = true};
    EXPECT_EQ(match("kprobe", {"kprobe", "", "vfs_read+0x10", "entry"}, kprobe),
              (std::vector<std::string>{"kprobe:vmlinux:vfs_read+0x10:entry"}));
    EXPECT_EQ(match("kprobe", {"kprobe", "", "vfs_read+16", ""}, kprobe),
              (std::vector<std::string>{"kprobe:vmlinux:vfs_read+0x10:entry"}));
    std::optional<std::string> error;
    match("kprobe", {"kprobe", "", "vfs_read+0x10", "return"}, kprobe, &error);
    ASSERT_TRUE(error);
    EXPECT_EQ(*error, "probe 'kprobe::vfs_read+0x10:return': an offset into a function takes entry "
                      "probes only");
    match("kprobe", {"kprobe", "", "vfs_read+zz", ""}, kprobe, &error);
    ASSERT_TRUE(error);
    EXPECT_NE(error->find("is not FUNCTION+OFFSET"), std::string::npos);
    std::vector<const trace::Probe *> found;
    ASSERT_TRUE(match_kernel_functions("kprobe", {"kprobe", "", "vfs_read+0x10", "entry"}, kprobe,
                                       catalog, table, found));
    KernelFunctionProbe probe = kernel_function_of(*found.at(0));
    EXPECT_EQ(probe.function, "vfs_read");
    EXPECT_EQ(probe.offset, 0x10u);
}

TEST_F(KernelFunctionProbesTest, FentryProgramPerProbe) {
    std::string two = function_with_arguments(2), three = function_with_arguments(3);
    if (two.empty() || three.empty())
        GTEST_SKIP() << "skipped: no functions of 2 and 3 arguments";
    std::vector<const trace::Probe *> found;
    KernelFunctionFilter fentry{.needs_fentry = true};
    for (const std::string &name : {two, three, std::string("vfs_read")})
        ASSERT_TRUE(match_kernel_functions("fentry", {"fentry", "", name, ""}, fentry, catalog,
                                           table, found));
    ASSERT_EQ(found.size(), 6u);
    // A program per probe, each loaded (and verified) for its function.
    std::vector<Trampoline> trampolines = fentry_trampolines(found, catalog, "dtx_test");
    EXPECT_EQ(trampolines.size(), 6u);
    for (const Trampoline &t : trampolines) {
        EXPECT_TRUE(t.spec.section == "fentry" || t.spec.section == "fexit") << t.spec.section;
        EXPECT_FALSE(t.attach_function.empty());
        EXPECT_EQ(t.spec.probes.size(), 1u);
    }
}

} // namespace
} // namespace dtx::providers

// The pid and usdt providers' probe matching and the grouping of their probes
// into trampolines, against real processes (this test, and the dtx-usdt test
// program) and real files; nothing is attached.
#include "libtrace/probe.h"
#include "providers/registry.h"
#include "providers/uprobe.h"
#include "providers/x86_instructions.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

namespace dtx::providers {
namespace {

std::string self() {
    return std::to_string(getpid());
}

struct Matched {
    std::optional<std::string> problem;
    std::vector<const trace::Probe *> probes;
};

Matched match(Provider &provider, trace::ProbeTable &table, ProbePattern pattern) {
    Matched m;
    if (Status matched = provider.match(pattern, table, m.probes); !matched)
        m.problem = matched.error().message;
    return m;
}

std::vector<std::string> names(const Matched &m) {
    std::vector<std::string> out;
    for (const trace::Probe *probe : m.probes)
        out.push_back(probe->name.full());
    return out;
}

TEST(PidProvider, NamesEntryAndReturnOfALibraryFunction) {
    auto pid = make_pid_provider({});
    trace::ProbeTable table;
    Matched m = match(*pid, table, {"pid" + self(), "libc.so.6", "malloc", ""});
    ASSERT_FALSE(m.problem) << *m.problem;
    EXPECT_EQ(names(m), (std::vector<std::string>{"pid" + self() + ":libc.so.6:malloc:entry",
                                                  "pid" + self() + ":libc.so.6:malloc:return"}));
    const auto &entry = static_cast<const UprobeProbeData &>(*m.probes[0]->data);
    const auto &ret = static_cast<const UprobeProbeData &>(*m.probes[1]->data);
    EXPECT_EQ(entry.pid, getpid());
    EXPECT_EQ(entry.arguments, UprobeArguments::Entry);
    EXPECT_EQ(ret.arguments, UprobeArguments::Return);
    ASSERT_EQ(entry.sites.size(), 1u);
    EXPECT_EQ(entry.sites[0].place, ret.sites[0].place); // a uretprobe sits on the entry
    EXPECT_NE(entry.sites[0].place.path.find("libc.so.6"), std::string::npos);
    EXPECT_TRUE(pid->owns("pid" + self()));
    EXPECT_FALSE(pid->owns("pid"));
    EXPECT_FALSE(pid->owns("python" + self()));
}

TEST(PidProvider, GlobsLeaveOutColdPartsAndPltStubs) {
    auto pid = make_pid_provider({});
    trace::ProbeTable table;
    Matched m = match(*pid, table, {"pid" + self(), "libc*", "str*", "entry"});
    ASSERT_FALSE(m.problem);
    EXPECT_GT(m.probes.size(), 10u);
    for (const trace::Probe *probe : m.probes) {
        EXPECT_EQ(probe->name.function.find(".cold"), std::string::npos) << probe->name.full();
        EXPECT_EQ(probe->name.function.find("@plt"), std::string::npos) << probe->name.full();
        EXPECT_EQ(probe->name.name, "entry");
    }
    // One probe per address: aliases of one function are not probed twice.
    std::vector<std::pair<std::string, uint64_t>> sites;
    for (const trace::Probe *probe : m.probes) {
        const auto &data = static_cast<const UprobeProbeData &>(*probe->data);
        sites.emplace_back(data.sites[0].place.path, data.sites[0].place.offset);
    }
    std::sort(sites.begin(), sites.end());
    EXPECT_EQ(std::adjacent_find(sites.begin(), sites.end()), sites.end());
}

TEST(PidProvider, PltStubsOnlyWhenAskedFor) {
    auto pid = make_pid_provider({});
    trace::ProbeTable table;
    Matched m = match(*pid, table, {"pid" + self(), "a.out", "*@plt", "entry"});
    ASSERT_FALSE(m.problem);
    ASSERT_FALSE(m.probes.empty());
    for (const trace::Probe *probe : m.probes)
        EXPECT_TRUE(probe->name.function.ends_with("@plt")) << probe->name.full();
}

TEST(PidProvider, ProblemsNameWhatIsMissing) {
    auto pid = make_pid_provider({});
    trace::ProbeTable table;
    Matched gone = match(*pid, table, {"pid2147483646", "libc.so.6", "malloc", "entry"});
    ASSERT_TRUE(gone.problem);
    EXPECT_EQ(*gone.problem,
              "probe 'pid2147483646:libc.so.6:malloc:entry': pid 2147483646: No such process");

    Matched none = match(*pid, table, {"pid" + self(), "libc.so.6", "no_such_function", "entry"});
    EXPECT_FALSE(none.problem);
    EXPECT_TRUE(none.probes.empty());
    EXPECT_EQ(pid->explain_no_match({"pid" + self(), "libc.so.6", "no_such_function", "entry"}),
              "no function 'no_such_function' in module 'libc.so.6' of pid " + self());
    std::optional<std::string> module =
        pid->explain_no_match({"pid" + self(), "libnothere.so", "f", "entry"});
    ASSERT_TRUE(module);
    EXPECT_TRUE(module->starts_with("pid " + self() +
                                    " has no module 'libnothere.so'; its modules are a.out ("))
        << *module;

    Matched inside = match(*pid, table, {"pid" + self(), "libc.so.6", "malloc", "1"});
    ASSERT_TRUE(inside.problem);
    EXPECT_NE(inside.problem->find("is inside the instruction at 0x0"), std::string::npos)
        << *inside.problem;
}

TEST(PidProvider, NamesThatAreNotProbesMatchNothing) {
    auto pid = make_pid_provider({});
    trace::ProbeTable table;
    EXPECT_TRUE(
        match(*pid, table, {"pid" + self(), "libc.so.6", "malloc", "BEGIN"}).probes.empty());
    EXPECT_TRUE(match(*pid, table, {"syscall", "", "read", "entry"}).probes.empty());
    EXPECT_TRUE(match(*pid, table, {"", "", "", "entry"}).probes.empty()); // no pid named
}

TEST(UprobeTrampolines, ProcessesShareOneTrampolineAndAliasesGetTheirOwn) {
    auto site = [](uint64_t offset) {
        UprobeProbeData::Site s;
        s.place = {"/lib/libc.so.6", offset, 0};
        return s;
    };
    auto data = [&](pid_t pid, uint64_t offset) {
        auto d = std::make_shared<UprobeProbeData>();
        d->pid = pid;
        d->sites = {site(offset)};
        return d;
    };
    trace::ProbeTable table;
    const trace::Probe &a = table.add({"pid1", "libc.so.6", "malloc", "entry"}, data(1, 0x100));
    const trace::Probe &b = table.add({"pid2", "libc.so.6", "malloc", "entry"}, data(2, 0x100));
    const trace::Probe &alias =
        table.add({"pid1", "libc.so.6", "__libc_malloc", "entry"}, data(1, 0x100));
    const trace::Probe *shared[] = {&a, &b};
    EXPECT_EQ(uprobe_trampolines("p", shared).size(), 1u);
    const trace::Probe *with_alias[] = {&a, &b, &alias};
    std::vector<Trampoline> split = uprobe_trampolines("p", with_alias);
    ASSERT_EQ(split.size(), 2u);
    EXPECT_EQ(split[0].spec.probes.size(), 2u);
    EXPECT_EQ(split[1].spec.probes, std::vector<const trace::Probe *>{&alias});
    EXPECT_EQ(split[0].spec.section, "uprobe");
}

TEST(UsdtProvider, FindsAProcesssProbesInItsExecutableAndLibraries) {
    std::string usdt = DTX_BINARY_DIR "/test/triggers/dtx-usdt";
    if (access(usdt.c_str(), X_OK) != 0)
        GTEST_SKIP() << usdt << " is not built";
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        execl(usdt.c_str(), usdt.c_str(), "sleep", "5000", "1", static_cast<char *>(nullptr));
        _exit(127);
    }
    usleep(300 * 1000); // let the dynamic linker map the library
    auto provider = make_usdt_provider({});
    trace::ProbeTable table;
    std::string pid = std::to_string(child);
    Matched tick = match(*provider, table, {"dtxtest" + pid, "", "", "tick"});
    Matched lib = match(*provider, table, {"dtxlib" + pid, "libdtx-usdt-lib.so", "", ""});
    Matched all = match(*provider, table, {"*" + pid, "", "", ""});
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);

    ASSERT_FALSE(tick.problem);
    ASSERT_EQ(tick.probes.size(), 1u);
    EXPECT_EQ(tick.probes[0]->name.provider, "dtxtest" + pid);
    EXPECT_EQ(tick.probes[0]->name.module, "dtx-usdt");
    const auto &data = static_cast<const UprobeProbeData &>(*tick.probes[0]->data);
    EXPECT_EQ(data.arguments, UprobeArguments::Usdt);
    EXPECT_EQ(data.pid, child);
    ASSERT_FALSE(data.sites.empty());
    EXPECT_EQ(data.sites[0].usdt_arguments.size(), 8u);
    EXPECT_EQ(provider->arguments(*tick.probes[0]).at(3).type, "uint8_t");
    EXPECT_EQ(provider->arguments(*tick.probes[0]).at(1).type, "int64_t");

    ASSERT_EQ(lib.probes.size(), 1u);
    EXPECT_EQ(lib.probes[0]->name.full(),
              "dtxlib" + pid + ":libdtx-usdt-lib.so:dtxlib_call:lib-call");
    EXPECT_EQ(all.probes.size(), 6u); // loop-start, tick, guarded, cold, cold-thread, lib-call
    bool guarded_has_semaphore = false;
    for (const trace::Probe *probe : all.probes)
        if (probe->name.name == "guarded")
            guarded_has_semaphore =
                static_cast<const UprobeProbeData &>(*probe->data).sites[0].place.ref_ctr_offset !=
                0;
    EXPECT_TRUE(guarded_has_semaphore);
    EXPECT_TRUE(provider->owns("dtxtest" + pid));
    EXPECT_TRUE(provider->owns("usdt"));
    EXPECT_FALSE(provider->owns("pid" + pid));
}

TEST(UsdtProvider, PathFormTracesEveryProcess) {
    std::string usdt = DTX_BINARY_DIR "/test/triggers/dtx-usdt";
    if (access(usdt.c_str(), R_OK) != 0)
        GTEST_SKIP() << usdt << " is not built";
    auto provider = make_usdt_provider({});
    trace::ProbeTable table;
    Matched m = match(*provider, table, {"usdt", usdt, "dtxtest", "*"});
    ASSERT_FALSE(m.problem) << *m.problem;
    ASSERT_EQ(m.probes.size(), 5u); // loop-start, tick, guarded, cold, cold-thread
    for (const trace::Probe *probe : m.probes)
        EXPECT_EQ(static_cast<const UprobeProbeData &>(*probe->data).pid, -1);
    Matched missing = match(*provider, table, {"usdt", "/no/such/file", "p", "n"});
    ASSERT_TRUE(missing.problem);
    EXPECT_NE(missing.problem->find("/no/such/file"), std::string::npos);
}

TEST(UsdtProvider, SystemWideGlobNamesProbesPerFileAndListsThemPerProcess) {
    std::string usdt = DTX_BINARY_DIR "/test/triggers/dtx-usdt";
    if (access(usdt.c_str(), X_OK) != 0)
        GTEST_SKIP() << usdt << " is not built";
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        execl(usdt.c_str(), usdt.c_str(), "sleep", "5000", "1", static_cast<char *>(nullptr));
        _exit(127);
    }
    usleep(300 * 1000);
    std::string pid = std::to_string(child);
    auto names = std::make_shared<std::vector<std::string>>(
        std::vector<std::string>{"dtrace", "profile", "syscall", "sdt", "pid", "usdt"});
    auto provider = make_usdt_provider({}, names);
    trace::ProbeTable table;
    Matched every = match(*provider, table, {"dtxtes?", "", "", "tick"});
    // Globs that name other providers do not search every process.
    Matched star = match(*provider, table, {"*", "", "", "tick"});
    Matched s = match(*provider, table, {"s*", "", "", "tick"});
    // Only this process's pid-suffixed name: that process alone.
    Matched one = match(*provider, table, {"dtxtest" + pid + "*", "", "", "tick"});
    ProviderContext listing_context;
    listing_context.listing = true;
    auto lister = make_usdt_provider(listing_context, names);
    trace::ProbeTable listed_table;
    Matched listed = match(*lister, listed_table, {"dtxtes?", "", "", "tick"});
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);

    ASSERT_FALSE(every.problem);
    ASSERT_EQ(every.probes.size(), 1u);
    EXPECT_EQ(every.probes[0]->name.provider, "dtxtest");
    EXPECT_EQ(every.probes[0]->name.module, "dtx-usdt");
    EXPECT_EQ(static_cast<const UprobeProbeData &>(*every.probes[0]->data).pid, -1);
    EXPECT_TRUE(provider->owns("dtxtest"));
    EXPECT_TRUE(star.probes.empty());
    EXPECT_TRUE(s.probes.empty());
    ASSERT_EQ(one.probes.size(), 1u);
    EXPECT_EQ(one.probes[0]->name.provider, "dtxtest" + pid);
    EXPECT_EQ(static_cast<const UprobeProbeData &>(*one.probes[0]->data).pid, child);
    // (Other dtx-usdt processes, of other test runs, may be listed too.)
    EXPECT_TRUE(
        std::any_of(listed.probes.begin(), listed.probes.end(), [&](const trace::Probe *probe) {
            return probe->name.provider == "dtxtest" + pid;
        }));
    for (const trace::Probe *probe : listed.probes)
        EXPECT_NE(probe->name.provider, "dtxtest");
    EXPECT_FALSE(lister->owns("dtxtest"));
}

TEST(X86Instructions, FindsInstructionStarts) {
    // lea (%rdi,%rsi,1),%eax; ret
    const uint8_t code[] = {0x8d, 0x04, 0x37, 0xc3};
    EXPECT_TRUE(check_instruction_start(code, 0));
    EXPECT_TRUE(check_instruction_start(code, 3));
    EXPECT_EQ(check_instruction_start(code, 1).error().message,
              "0x1 is inside the instruction at 0x0 (3 bytes)");
    EXPECT_EQ(check_instruction_start(code, 4).error().message,
              "0x4 is beyond the function's 4 bytes");
    const uint8_t bad[] = {0x0f, 0xff, 0xff, 0xff, 0xc3};
    EXPECT_FALSE(check_instruction_start(bad, 4));
}

} // namespace
} // namespace dtx::providers

// Process modules: parsing /proc/PID/maps text, this test process's own
// modules, module names and patterns, offset/address conversion, and the
// modules of a command predicted from its ELF files, checked against ldd.
#include "libtrace/process_modules.h"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

namespace dtx::trace {
namespace {

constexpr const char *kSampleMaps =
    "55e2b1c2e000-55e2b1c30000 r--p 00000000 fe:00 247498                     /usr/bin/head\n"
    "55e2b1c30000-55e2b1c36000 r-xp 00002000 fe:00 247498                     /usr/bin/head\n"
    "562550961000-562550982000 rw-p 00000000 00:00 0                          [heap]\n"
    "7ff9ddb1d000-7ff9ddbe1000 rw-p 00000000 00:00 0 \n"
    "7ff9ddc00000-7ff9ddc10000 r-xs 00001000 103:1a 1234   /opt/my app/lib two.so (deleted)\n"
    "not a maps line\n"
    "7ffd5f1e3000-7ffd5f1e7000 r--p 00000000 00:00 0                          [vvar]\n"
    "7ffd5f1e7000-7ffd5f1e9000 r-xp 00000000 00:00 0                          [vdso]";

std::vector<ProcessModule> modules_or_fail(Result<std::vector<ProcessModule>> result) {
    if (!result) {
        ADD_FAILURE() << result.error().message;
        return {};
    }
    return std::move(*result);
}

std::string canonical(const std::string &path) {
    char resolved[PATH_MAX];
    return ::realpath(path.c_str(), resolved) ? resolved : path;
}

const ProcessModule *find_named(const std::vector<ProcessModule> &modules, std::string_view name) {
    const auto it = std::find_if(modules.begin(), modules.end(), [&](const ProcessModule &module) {
        return module.name() == name;
    });
    return it == modules.end() ? nullptr : &*it;
}

TEST(ParseMaps, ReadsEveryField) {
    const std::vector<MapsEntry> entries = parse_maps(kSampleMaps);
    ASSERT_EQ(entries.size(), 7u);
    const MapsEntry &text = entries[1];
    EXPECT_EQ(text.start, 0x55e2b1c30000u);
    EXPECT_EQ(text.end, 0x55e2b1c36000u);
    EXPECT_TRUE(text.readable);
    EXPECT_FALSE(text.writable);
    EXPECT_TRUE(text.executable);
    EXPECT_FALSE(text.shared);
    EXPECT_EQ(text.offset, 0x2000u);
    EXPECT_EQ(text.device_major, 0xfeu);
    EXPECT_EQ(text.device_minor, 0u);
    EXPECT_EQ(text.inode, 247498u);
    EXPECT_EQ(text.path, "/usr/bin/head");
    EXPECT_FALSE(text.deleted);
}

TEST(ParseMaps, AnonymousAndSpecialMappings) {
    const std::vector<MapsEntry> entries = parse_maps(kSampleMaps);
    ASSERT_EQ(entries.size(), 7u);
    EXPECT_EQ(entries[2].path, "[heap]");
    EXPECT_EQ(entries[3].path, "");
    EXPECT_EQ(entries[3].inode, 0u);
    EXPECT_EQ(entries[6].path, "[vdso]");
    EXPECT_TRUE(entries[6].executable);
}

TEST(ParseMaps, DeletedFileWithSpacesInItsPath) {
    const std::vector<MapsEntry> entries = parse_maps(kSampleMaps);
    ASSERT_EQ(entries.size(), 7u);
    const MapsEntry &entry = entries[4];
    EXPECT_EQ(entry.path, "/opt/my app/lib two.so");
    EXPECT_TRUE(entry.deleted);
    EXPECT_TRUE(entry.shared);
    EXPECT_EQ(entry.device_major, 0x103u);
    EXPECT_EQ(entry.device_minor, 0x1au);
}

TEST(ParseMaps, SkipsMalformedLines) {
    EXPECT_TRUE(parse_maps("").empty());
    EXPECT_TRUE(parse_maps("\n\n").empty());
    EXPECT_TRUE(parse_maps("2000-1000 r-xp 00000000 00:00 0\n").empty()); // end before start
    EXPECT_TRUE(parse_maps("1000-2000 rzxp 00000000 00:00 0\n").empty());
    EXPECT_TRUE(parse_maps("1000-2000 r-xp 00000000 00:00\n").empty());
    EXPECT_TRUE(parse_maps("1000-2000 r-xp 00000000 00:00 12x /a\n").empty());
    EXPECT_TRUE(parse_maps("11111111111111111-2000 r-xp 0 00:00 0\n").empty()); // overflow
    EXPECT_EQ(parse_maps("1000-2000 r-xp 00000000 00:00 0").size(), 1u);
}

TEST(ProcessModule, NamesAndPatterns) {
    ProcessModule libc;
    libc.path = "/usr/lib/x86_64-linux-gnu/libc.so.6";
    EXPECT_EQ(libc.name(), "libc.so.6");
    EXPECT_TRUE(libc.matches("libc.so.6"));
    EXPECT_TRUE(libc.matches("libc*"));
    EXPECT_TRUE(libc.matches("/usr/lib/x86_64-linux-gnu/libc.so.6"));
    EXPECT_TRUE(libc.matches("/usr/lib/*/libc.so.?"));
    EXPECT_FALSE(libc.matches("a.out"));
    EXPECT_FALSE(libc.matches("libm*"));
    // Without its version, as dtrace names libraries; not a prefix of the name.
    EXPECT_TRUE(libc.matches("libc.so"));
    EXPECT_FALSE(libc.matches("libc"));
    EXPECT_FALSE(libc.matches("libc.s"));

    ProcessModule program;
    program.path = "/usr/bin/python3.11";
    program.main_executable = true;
    EXPECT_EQ(program.name(), "python3.11");
    EXPECT_TRUE(program.matches("a.out"));
    EXPECT_TRUE(program.matches("python3*"));
}

TEST(ProcessModule, OffsetsAndAddresses) {
    ProcessModule module;
    module.mappings = parse_maps("1000-3000 r--p 00000000 08:01 5 /lib/x.so\n"
                                 "3000-4000 r-xp 00002000 08:01 5 /lib/x.so\n"
                                 "8000-9000 rw-p 00003000 08:01 5 /lib/x.so\n");
    ASSERT_EQ(module.mappings.size(), 3u);
    EXPECT_EQ(module.offset_of_address(0x1000), 0u);
    EXPECT_EQ(module.offset_of_address(0x3010), 0x2010u);
    EXPECT_EQ(module.offset_of_address(0x8fff), 0x3fffu);
    EXPECT_EQ(module.offset_of_address(0x4000), std::nullopt);
    // Offset 0x2010 is mapped twice; the code mapping wins.
    EXPECT_EQ(module.address_of_offset(0x2010), 0x3010u);
    EXPECT_EQ(module.address_of_offset(0x10), 0x1010u);
    EXPECT_EQ(module.address_of_offset(0x3000), 0x8000u);
    EXPECT_EQ(module.address_of_offset(0x5000), std::nullopt);
}

TEST(ReadProcessModules, ThisProcess) {
    const std::vector<ProcessModule> modules = modules_or_fail(read_process_modules(::getpid()));
    ASSERT_FALSE(modules.empty());
    const ProcessModule &main = modules.front();
    EXPECT_TRUE(main.main_executable);
    EXPECT_EQ(main.name(), "dtx-test-process_modules");
    EXPECT_EQ(main.path, canonical("/proc/self/exe"));
    EXPECT_EQ(main.open_path, main.path);
    EXPECT_TRUE(main.matches("a.out"));
    EXPECT_EQ(std::count_if(modules.begin(), modules.end(),
                            [](const ProcessModule &module) { return module.main_executable; }),
              1);

    const ProcessModule *libc = find_named(modules, "libc.so.6");
    ASSERT_NE(libc, nullptr);
    EXPECT_FALSE(libc->main_executable);
    EXPECT_TRUE(libc->matches("libc.so.6"));
    EXPECT_TRUE(libc->matches("libc*"));
    EXPECT_TRUE(libc->matches(libc->path));
    EXPECT_FALSE(libc->matches("a.out"));
    EXPECT_NE(libc->inode, 0u);
    EXPECT_GT(libc->mappings.size(), 1u); // all its mappings, not only the code
    for (const ProcessModule &module : modules) {
        EXPECT_EQ(module.path.front(), '/') << module.path; // no [vdso], no anonymous memory
        EXPECT_TRUE(std::any_of(module.mappings.begin(), module.mappings.end(),
                                [](const MapsEntry &mapping) { return mapping.executable; }))
            << module.path;
    }

    // This function's address is in the executable's code, and the file
    // offset converts back to the same address.
    const auto address = reinterpret_cast<uint64_t>(&modules_or_fail);
    const std::optional<uint64_t> offset = main.offset_of_address(address);
    ASSERT_TRUE(offset);
    EXPECT_EQ(main.address_of_offset(*offset), address);
}

TEST(ReadProcessModules, NoSuchProcess) {
    // No pid reaches pid_max.
    int pid_max = 0;
    std::ifstream("/proc/sys/kernel/pid_max") >> pid_max;
    ASSERT_GT(pid_max, 0);
    const auto result = read_process_modules(pid_max);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message, "pid " + std::to_string(pid_max) + ": No such process");
}

// A program whose file was deleted while it runs is still read, through
// /proc/PID/map_files (root only), not through whatever has its path now.
TEST(ReadProcessModules, DeletedExecutable) {
    char directory[] = "/tmp/dtx-process-modules-XXXXXX";
    ASSERT_NE(::mkdtemp(directory), nullptr);
    const std::string program = std::string(directory) + "/sleeper";
    std::filesystem::copy_file("/bin/sleep", program);
    std::filesystem::permissions(program, std::filesystem::perms::owner_all);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::execl(program.c_str(), "sleeper", "30", static_cast<char *>(nullptr));
        ::_exit(127);
    }
    const std::string exe = "/proc/" + std::to_string(child) + "/exe";
    for (int i = 0; i < 500 && std::filesystem::read_symlink(exe) != program; ++i)
        ::usleep(10000);
    // The exe link is set before exec maps the program's segments: wait for
    // the mappings too, then delete the file.
    const std::string maps = "/proc/" + std::to_string(child) + "/maps";
    for (int i = 0; i < 500; ++i) {
        std::ifstream in(maps);
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        if (text.find(program) != std::string::npos && text.find("[stack]") != std::string::npos)
            break;
        ::usleep(10000);
    }
    std::filesystem::remove_all(directory);
    const std::vector<ProcessModule> modules = modules_or_fail(read_process_modules(child));
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);

    ASSERT_FALSE(modules.empty());
    const ProcessModule &main = modules.front();
    EXPECT_TRUE(main.main_executable);
    EXPECT_EQ(main.path, program);
    EXPECT_TRUE(main.mappings.front().deleted);
    if (::geteuid() == 0) {
        EXPECT_TRUE(main.open_path.starts_with("/proc/" + std::to_string(child) + "/map_files/"))
            << main.open_path;
    }
}

TEST(PredictExecutableModules, MissingOrNotElf) {
    auto missing = predict_executable_modules("/no/such/program");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message, "/no/such/program: No such file or directory");
    auto text = predict_executable_modules("/etc/passwd");
    ASSERT_FALSE(text);
    EXPECT_EQ(text.error().message, "/etc/passwd: not an ELF file");
}

TEST(PredictExecutableModules, Python) {
    if (::access("/usr/bin/python3.11", X_OK) != 0)
        GTEST_SKIP() << "no /usr/bin/python3.11";
    const std::vector<ProcessModule> modules =
        modules_or_fail(predict_executable_modules("/usr/bin/python3.11"));
    ASSERT_FALSE(modules.empty());
    EXPECT_TRUE(modules.front().main_executable);
    EXPECT_EQ(modules.front().path, canonical("/usr/bin/python3.11"));
    EXPECT_TRUE(modules.front().matches("a.out"));
    const ProcessModule *libc = find_named(modules, "libc.so.6");
    ASSERT_NE(libc, nullptr);
    EXPECT_FALSE(libc->main_executable);
    EXPECT_TRUE(libc->mappings.empty());
    EXPECT_EQ(libc->open_path, libc->path);
    EXPECT_NE(find_named(modules, "ld-linux-x86-64.so.2"), nullptr);
}

// The libraries ldd lists for `executable`, canonical; nullopt without ldd.
std::optional<std::set<std::string>> ldd_libraries(const std::string &executable) {
    if (::access("/usr/bin/ldd", X_OK) != 0)
        return std::nullopt;
    FILE *pipe = ::popen(("/usr/bin/ldd " + executable + " 2>/dev/null").c_str(), "r");
    if (!pipe)
        return std::nullopt;
    std::set<std::string> libraries;
    char line[4096];
    while (std::fgets(line, sizeof line, pipe)) {
        // "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or
        // "\t/lib64/ld-linux-x86-64.so.2 (0x...)"; linux-vdso has no file.
        std::string_view text(line);
        const std::size_t arrow = text.find("=> ");
        if (arrow != std::string_view::npos)
            text.remove_prefix(arrow + 3);
        text.remove_prefix(std::min(text.find_first_not_of(" \t"), text.size()));
        text = text.substr(0, text.find(" ("));
        if (text.starts_with("/"))
            libraries.insert(canonical(std::string(text)));
    }
    if (::pclose(pipe) != 0)
        return std::nullopt;
    return libraries;
}

TEST(PredictExecutableModules, AgreesWithLdd) {
    for (const char *executable : {"/usr/bin/python3.11", "/bin/ls"}) {
        if (::access(executable, X_OK) != 0)
            continue;
        const std::optional<std::set<std::string>> expected = ldd_libraries(executable);
        if (!expected)
            GTEST_SKIP() << "ldd is not usable here";
        const std::vector<ProcessModule> modules =
            modules_or_fail(predict_executable_modules(executable));
        std::set<std::string> libraries;
        for (const ProcessModule &module : modules)
            if (!module.main_executable)
                libraries.insert(canonical(module.path));
        EXPECT_EQ(libraries, *expected) << executable;
    }
}

} // namespace
} // namespace dtx::trace

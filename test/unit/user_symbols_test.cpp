// Naming user addresses: functions of this test executable (found in its
// .symtab), of libc, addresses of stripped executables (module-relative),
// addresses outside every module, the addresses of a process that has exited
// since it was remembered, and what is kept of exited processes once they are
// swept.
#include "libtrace/user_symbols.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <elf.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

extern "C" __attribute__((noinline, visibility("default"))) int
dtx_user_symbols_test_function(int n) {
    // Long enough that +0x4 is still inside it.
    volatile int sum = 0;
    for (int i = 0; i < n; ++i)
        sum = sum + i * n;
    return sum;
}

namespace dtx::trace {
namespace {

constexpr std::string_view kExecutable = "dtx-test-user_symbols";

uint64_t address_of_test_function() {
    return reinterpret_cast<uint64_t>(&dtx_user_symbols_test_function);
}

// libc's own malloc (with a sanitizer, plain &malloc is its interceptor).
uint64_t libc_malloc() {
    void *libc = ::dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(libc, nullptr);
    const auto address = reinterpret_cast<uint64_t>(libc ? ::dlsym(libc, "malloc") : nullptr);
    if (libc)
        ::dlclose(libc);
    return address;
}

std::string hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

TEST(UserSymbols, FunctionOfThisExecutable) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    const uint64_t address = address_of_test_function();
    const std::string name = std::string(kExecutable) + "`dtx_user_symbols_test_function";
    EXPECT_EQ(symbols.format(::getpid(), address), name);
    EXPECT_EQ(symbols.format(::getpid(), address + 4), name + "+0x4");
    EXPECT_EQ(symbols.function(::getpid(), address + 4), name);
    EXPECT_EQ(symbols.module(::getpid(), address + 4), kExecutable);
}

TEST(UserSymbols, LibcFunction) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    const uint64_t address = libc_malloc();
    const std::string text = symbols.format(::getpid(), address);
    std::printf("libc malloc is %s\n", text.c_str());
    EXPECT_TRUE(text.starts_with("libc.so.6`")) << text;
    EXPECT_NE(text.find("malloc"), std::string::npos) << text;
    EXPECT_EQ(text.find('+'), std::string::npos) << text;
    EXPECT_EQ(symbols.function(::getpid(), address + 1), text);
    EXPECT_EQ(symbols.format(::getpid(), address + 1), text + "+0x1");
    EXPECT_EQ(symbols.module(::getpid(), address), "libc.so.6");
}

std::string trigger(const std::string &name) {
    return std::string(DTX_BINARY_DIR) + "/test/triggers/" + name;
}

// The entry point (_start) of the 64-bit ELF file at `path`; 0 when unreadable.
uint64_t entry_point(const std::string &path) {
    Elf64_Ehdr header{};
    std::ifstream in(path, std::ios::binary);
    in.read(reinterpret_cast<char *>(&header), sizeof(header));
    return in ? header.e_entry : 0;
}

// `program` (a dtx-funcs build) running `sleep 20000`, its own file mapped;
// killed and reaped with this object.
class SleepingTrigger {
public:
    explicit SleepingTrigger(const std::string &program) {
        pid_ = ::fork();
        if (pid_ < 0)
            std::abort();
        if (pid_ == 0) {
            ::execl(program.c_str(), program.c_str(), "sleep", "20000",
                    static_cast<char *>(nullptr));
            ::_exit(127);
        }
        // The maps show the program once exec has mapped it.
        const std::string maps = "/proc/" + std::to_string(pid_) + "/maps";
        for (int i = 0; i < 500; ++i) {
            std::ifstream in(maps);
            const std::string text{std::istreambuf_iterator<char>(in), {}};
            if (text.find(program) != std::string::npos &&
                text.find("[stack]") != std::string::npos)
                break;
            ::usleep(10000);
        }
    }
    ~SleepingTrigger() {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
};

// A stripped executable's address that no symbol covers is named by its
// module and the address in the file's own terms, its link-time address
// (what addr2line and objdump take), not its file offset: the two differ in
// a fixed-address executable. Here, _start, in no symbol table once stripped.
TEST(UserSymbols, StrippedExecutableAddressIsModuleRelative) {
    std::string directory =
        (std::filesystem::temp_directory_path() / "dtx-user-symbols-XXXXXX").string();
    ASSERT_NE(::mkdtemp(directory.data()), nullptr);
    // A fixed-address copy, stripped here; the build strips the PIE one.
    const std::string nopie = directory + "/dtx-funcs-nopie";
    ASSERT_EQ(
        std::system(
            ("objcopy --strip-all '" + trigger("dtx-funcs-nopie") + "' '" + nopie + "'").c_str()),
        0);
    for (const std::string &program : {trigger("dtx-funcs-nodebug"), nopie}) {
        const std::string name = std::filesystem::path(program).filename();
        const uint64_t entry = entry_point(program);
        ASSERT_NE(entry, 0u) << program;
        auto file = ElfFile::open(program);
        ASSERT_TRUE(file) << file.error().message;
        ASSERT_EQ((*file)->function_at(entry), nullptr) << name << ": _start is named";
        const std::optional<uint64_t> offset = (*file)->file_offset(entry);
        ASSERT_TRUE(offset) << name;

        SleepingTrigger running(program);
        auto modules = read_process_modules(running.pid());
        ASSERT_TRUE(modules) << modules.error().message;
        ASSERT_FALSE(modules->empty());
        ASSERT_EQ(modules->front().path, program);
        const std::optional<uint64_t> address = modules->front().address_of_offset(*offset);
        ASSERT_TRUE(address) << name;

        UserSymbols symbols(std::make_shared<ElfFileCache>());
        EXPECT_EQ(symbols.format(running.pid(), *address), name + "`" + hex(entry));
        EXPECT_EQ(symbols.format(running.pid(), *address + 4), name + "`" + hex(entry + 4));
        EXPECT_EQ(symbols.function(running.pid(), *address + 4), name + "`" + hex(entry + 4));
        EXPECT_EQ(symbols.module(running.pid(), *address + 4), name);
    }
    std::filesystem::remove_all(directory);
}

TEST(UserSymbols, AnonymousMemory) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    void *page = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(page, MAP_FAILED);
    const auto address = reinterpret_cast<uint64_t>(page) + 0x10;
    EXPECT_EQ(symbols.format(::getpid(), address), hex(address));
    EXPECT_EQ(symbols.function(::getpid(), address), hex(address));
    EXPECT_EQ(symbols.module(::getpid(), address), hex(address));
    ::munmap(page, 4096);
}

TEST(UserSymbols, UnknownProcess) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    int pid_max = 0;
    if (FILE *file = std::fopen("/proc/sys/kernel/pid_max", "r")) {
        if (std::fscanf(file, "%d", &pid_max) != 1)
            pid_max = 0;
        std::fclose(file);
    }
    ASSERT_GT(pid_max, 0);
    EXPECT_EQ(symbols.format(pid_max, 0x401000), "0x401000");
}

// A child of this process, remembered by `symbols` while it lived; it has
// exited (and been reaped when `reap`) when this returns.
pid_t remembered_child(UserSymbols &symbols, bool reap = true) {
    int ready[2], release[2];
    if (::pipe(ready) != 0 || ::pipe(release) != 0)
        std::abort(); // nothing to test without them
    const pid_t child = ::fork();
    if (child < 0)
        std::abort();
    if (child == 0) {
        // Only the parent's closing its end of `release` ends the read.
        ::close(release[1]);
        char byte = 'r';
        (void)!::write(ready[1], &byte, 1);
        (void)!::read(release[0], &byte, 1);
        ::_exit(0);
    }
    ::close(ready[1]);
    ::close(release[0]);
    char byte;
    EXPECT_EQ(::read(ready[0], &byte, 1), 1);
    symbols.remember(child);
    ::close(release[1]);
    ::close(ready[0]);
    if (reap) {
        int status = 0;
        EXPECT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_EQ(::kill(child, 0), -1);
        EXPECT_EQ(errno, ESRCH);
    } else {
        // A zombie: exited, its status still to be collected.
        siginfo_t info{};
        EXPECT_EQ(::waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT), 0);
    }
    return child;
}

TEST(UserSymbols, ProcessThatHasExited) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    const pid_t child = remembered_child(symbols);

    // The child, a fork, has libc where this process has it.
    const uint64_t address = libc_malloc();
    UserSymbols here(std::make_shared<ElfFileCache>());
    EXPECT_EQ(symbols.format(child, address + 2), here.format(::getpid(), address + 2));
    EXPECT_TRUE(symbols.format(child, address + 2).starts_with("libc.so.6`"));
    EXPECT_EQ(symbols.format(child, address_of_test_function()),
              std::string(kExecutable) + "`dtx_user_symbols_test_function");
}

TEST(UserSymbols, ExitedProcessesAreReturnedOnceBySecondCall) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    symbols.remember(::getpid());
    const pid_t child = remembered_child(symbols);
    // The first call finds it gone; records it wrote may still be on their
    // way, so only the next returns it.
    EXPECT_TRUE(symbols.exited_processes().empty());
    EXPECT_EQ(symbols.exited_processes(), std::vector<pid_t>{child});
    symbols.keep_only(child, {});
    EXPECT_TRUE(symbols.exited_processes().empty());
    EXPECT_EQ(symbols.process_count(), 1u); // this process
}

TEST(UserSymbols, ZombieHasExited) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    const pid_t child = remembered_child(symbols, false);
    EXPECT_TRUE(symbols.exited_processes().empty());
    EXPECT_EQ(symbols.exited_processes(), std::vector<pid_t>{child});
    int status = 0;
    EXPECT_EQ(::waitpid(child, &status, 0), child);
}

TEST(UserSymbols, SweptProcessKeepsOnlyModulesOfNamedAddresses) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    const pid_t child = remembered_child(symbols);
    const uint64_t malloc_address = libc_malloc();
    const std::string malloc_name = symbols.format(child, malloc_address + 2);
    symbols.exited_processes();
    symbols.exited_processes();
    symbols.keep_only(child, {malloc_address});
    EXPECT_EQ(symbols.process_count(), 1u);
    // Another address of the same mapping is still named, as aggregation
    // keys are when printed.
    EXPECT_EQ(symbols.format(child, malloc_address + 2), malloc_name);
    EXPECT_EQ(symbols.format(child, address_of_test_function()), hex(address_of_test_function()));
}

TEST(UserSymbols, SweptProcessWithoutNamedAddressesIsForgotten) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    const pid_t child = remembered_child(symbols);
    symbols.exited_processes();
    symbols.exited_processes();
    symbols.keep_only(child, {});
    EXPECT_EQ(symbols.process_count(), 0u);
    EXPECT_EQ(symbols.format(child, libc_malloc()), hex(libc_malloc()));
}

} // namespace
} // namespace dtx::trace

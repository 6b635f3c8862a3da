// Naming user addresses: functions of this test executable (found in its
// .symtab), of libc, addresses outside every module, and the addresses of a
// process that has exited since it was remembered.
#include "libtrace/user_symbols.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

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

TEST(UserSymbols, ProcessThatHasExited) {
    UserSymbols symbols(std::make_shared<ElfFileCache>());
    int ready[2], release[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(release), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
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
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
    symbols.remember(child);
    ::close(release[1]);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ::close(ready[0]);
    ASSERT_EQ(::kill(child, 0), -1);
    ASSERT_EQ(errno, ESRCH);

    // The child, a fork, has libc where this process has it.
    const uint64_t address = libc_malloc();
    UserSymbols here(std::make_shared<ElfFileCache>());
    EXPECT_EQ(symbols.format(child, address + 2), here.format(::getpid(), address + 2));
    EXPECT_TRUE(symbols.format(child, address + 2).starts_with("libc.so.6`"));
    EXPECT_EQ(symbols.format(child, address_of_test_function()),
              std::string(kExecutable) + "`dtx_user_symbols_test_function");
}

} // namespace
} // namespace dtx::trace

// Tests of target process control (-c and -p): the command is held before exec
// until released, exits are seen and reported as dtrace reports them, and
// nothing dtx started outlives it. Root only for the kernel-thread case.
#include "libtrace/target.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using dtx::trace::split_command_line;
using dtx::trace::TargetProcesses;

// What a failed call says; "" when it succeeded.
std::string failure_of(const dtx::Status &status) {
    return status ? "" : status.error().message;
}

using Words = std::vector<std::string>;

// A file in a fresh directory, removed with it.
class TemporaryDirectory {
public:
    TemporaryDirectory() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "dtx-target-test-XXXXXX").string();
        path_ = mkdtemp(pattern.data());
    }
    ~TemporaryDirectory() { std::filesystem::remove_all(path_); }
    std::string file(const std::string &name, const std::string &text, mode_t mode) const {
        std::string path = path_ + "/" + name;
        std::ofstream(path) << text;
        chmod(path.c_str(), mode);
        return path;
    }

private:
    std::string path_;
};

// Waits up to 10 s for `fd` to become readable.
bool becomes_readable(int fd) {
    pollfd ready{fd, POLLIN, 0};
    return poll(&ready, 1, 10000) == 1;
}

bool process_exists(pid_t pid) {
    return kill(pid, 0) == 0 || errno != ESRCH;
}

// The state letter of /proc/PID/stat ('S', 't', 'Z'...), or 0 once it is gone.
char process_state(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    size_t paren = text.rfind(')');
    return paren == std::string::npos || paren + 2 >= text.size() ? 0 : text[paren + 2];
}

std::string first_line(const std::string &path) {
    std::ifstream file(path);
    std::string line;
    std::getline(file, line);
    return line;
}

std::string executable_of(pid_t pid) {
    std::error_code error;
    return std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", error);
}

// Runs `words` as the command to its end; returns the exit notice.
std::string run_to_exit(const Words &words) {
    TargetProcesses targets;
    EXPECT_EQ(failure_of(targets.start_command(words)), "");
    EXPECT_EQ(failure_of(targets.release_command()), "");
    std::vector<int> fds = targets.exit_fds();
    EXPECT_EQ(fds.size(), 1u);
    EXPECT_TRUE(becomes_readable(fds[0]));
    std::string notice = targets.note_exit(fds[0]);
    EXPECT_TRUE(targets.all_exited());
    return notice;
}

TEST(SplitCommandLine, SplitsAtWhiteSpaceWithoutQuoting) {
    EXPECT_EQ(split_command_line("  ls\t-l \n/tmp  "), (Words{"ls", "-l", "/tmp"}));
    EXPECT_EQ(split_command_line("sh -c \"a b\""), (Words{"sh", "-c", "\"a", "b\""}));
    EXPECT_EQ(split_command_line(" \t "), Words{});
}

TEST(TargetProcesses, CommandRunsOnlyWhenReleased) {
    TemporaryDirectory directory;
    std::string marker = directory.file("marker", "", 0644);
    std::filesystem::remove(marker);
    TargetProcesses targets;
    ASSERT_EQ(failure_of(targets.start_command({"sh", "-c", "echo ran >" + marker})), "");
    ASSERT_TRUE(targets.target_pid());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_FALSE(std::filesystem::exists(marker)) << "the command ran before its release";
    EXPECT_FALSE(targets.all_exited());

    ASSERT_EQ(failure_of(targets.release_command()), "");
    std::vector<int> fds = targets.exit_fds();
    ASSERT_EQ(fds.size(), 1u);
    ASSERT_TRUE(becomes_readable(fds[0]));
    EXPECT_EQ(targets.note_exit(fds[0]),
              "pid " + std::to_string(*targets.target_pid()) + " has exited");
    EXPECT_TRUE(targets.all_exited());
    EXPECT_TRUE(targets.exit_fds().empty());
    std::ifstream written(marker);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(written), {}), "ran\n");
}

TEST(TargetProcesses, ReportsExitStatusAndSignal) {
    EXPECT_TRUE(run_to_exit({"sh", "-c", "exit 3"}).ends_with(" exited with status 3"));
    EXPECT_TRUE(run_to_exit({"sh", "-c", "kill -9 $$"}).ends_with(" terminated by SIGKILL"));
}

TEST(TargetProcesses, MissingCommandIsAnError) {
    TargetProcesses targets;
    EXPECT_EQ(failure_of(targets.start_command({"dtx-no-such-command", "arg"})),
              "failed to execute dtx-no-such-command: No such file or directory");
    EXPECT_EQ(targets.target_pid(), std::nullopt);
    EXPECT_FALSE(targets.all_exited());
}

TEST(TargetProcesses, FileWithoutExecutePermissionIsAnError) {
    TemporaryDirectory directory;
    std::string script = directory.file("script", "#!/bin/sh\n", 0644);
    TargetProcesses targets;
    EXPECT_EQ(failure_of(targets.start_command({script})),
              "failed to execute " + script + ": Permission denied");
}

TEST(TargetProcesses, FailedExecIsReportedAtRelease) {
    TemporaryDirectory directory;
    std::string not_a_program = directory.file("garbage",
                                               "\x7f"
                                               "ELF garbage",
                                               0755);
    pid_t pid;
    {
        TargetProcesses targets;
        ASSERT_EQ(failure_of(targets.start_command({not_a_program})), "");
        pid = *targets.target_pid();
        EXPECT_EQ(failure_of(targets.release_command()),
                  "failed to execute " + not_a_program + ": Exec format error");
    }
    EXPECT_FALSE(process_exists(pid)) << "the command was not reaped";
}

TEST(TargetProcesses, CommandKilledWhileHeldFailsToRelease) {
    TargetProcesses targets;
    ASSERT_EQ(failure_of(targets.start_command({"sleep", "60"})), "");
    std::vector<int> fds = targets.exit_fds();
    ASSERT_EQ(kill(*targets.target_pid(), SIGKILL), 0);
    ASSERT_TRUE(becomes_readable(fds[0]));
    // Without SIGPIPE: this test process would die of it.
    EXPECT_EQ(failure_of(targets.release_command()),
              "failed to execute sleep: it ended before it could run");
    EXPECT_TRUE(targets.note_exit(fds[0]).ends_with(" terminated by SIGKILL"));
}

TEST(TargetProcesses, HeldCommandIsKilledAndReaped) {
    pid_t pid;
    {
        TargetProcesses targets;
        ASSERT_EQ(failure_of(targets.start_command({"sleep", "60"})), "");
        pid = *targets.target_pid();
        EXPECT_TRUE(process_exists(pid));
    }
    EXPECT_FALSE(process_exists(pid));
}

TEST(TargetProcesses, RunningCommandIsKilledAndReaped) {
    pid_t pid;
    {
        TargetProcesses targets;
        ASSERT_EQ(failure_of(targets.start_command({"sleep", "60"})), "");
        ASSERT_EQ(failure_of(targets.release_command()), "");
        pid = *targets.target_pid();
    }
    EXPECT_FALSE(process_exists(pid));
}

TEST(TargetProcesses, GrabsRunningProcessAndSeesItExit) {
    int hold[2];
    ASSERT_EQ(pipe(hold), 0);
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(hold[1]);
        char byte;
        _exit(read(hold[0], &byte, 1) == 0 ? 0 : 1);
    }
    close(hold[0]);
    TargetProcesses targets;
    ASSERT_EQ(failure_of(targets.grab(child)), "");
    EXPECT_EQ(targets.target_pid(), child);
    std::vector<int> fds = targets.exit_fds();
    ASSERT_EQ(fds.size(), 1u);
    EXPECT_FALSE(targets.all_exited());

    close(hold[1]);
    ASSERT_TRUE(becomes_readable(fds[0]));
    EXPECT_EQ(targets.note_exit(fds[0]), "pid " + std::to_string(child) + " has exited");
    EXPECT_TRUE(targets.all_exited());
    int status = 0;
    EXPECT_EQ(waitpid(child, &status, 0), child) << "a grabbed process is not dtx's to reap";
}

TEST(TargetProcesses, CommandIsTargetBeforeGrabbedProcesses) {
    TargetProcesses targets;
    ASSERT_EQ(failure_of(targets.grab(getpid())), "");
    ASSERT_EQ(failure_of(targets.start_command({"true"})), "");
    EXPECT_NE(targets.target_pid(), getpid());
    EXPECT_EQ(targets.exit_fds().size(), 2u);
}

TEST(TargetProcesses, GrabbingAMissingProcessIsAnError) {
    TargetProcesses targets;
    // Above PID_MAX_LIMIT (4194304), so never a process.
    EXPECT_EQ(failure_of(targets.grab(99999999)), "failed to grab pid 99999999: No such process");
}

TEST(TargetProcesses, GrabbingAThreadNamesItsProcess) {
    std::promise<pid_t> started;
    std::promise<void> done;
    std::thread running([&] {
        started.set_value(gettid());
        done.get_future().wait();
    });
    pid_t tid = started.get_future().get();
    TargetProcesses targets;
    EXPECT_EQ(failure_of(targets.grab(tid)), "failed to grab pid " + std::to_string(tid) +
                                                 ": it is a thread of process " +
                                                 std::to_string(getpid()));
    done.set_value();
    running.join();
}

TEST(TargetProcesses, GrabbingAKernelThreadIsAnError) {
    std::ifstream comm("/proc/2/comm");
    std::string name;
    if (!std::getline(comm, name) || name != "kthreadd")
        GTEST_SKIP() << "pid 2 is not kthreadd here";
    if (geteuid() != 0)
        GTEST_SKIP() << "only root may look at another user's process";
    TargetProcesses targets;
    EXPECT_EQ(failure_of(targets.grab(2)), "failed to grab pid 2: it is a kernel thread");
}

// hold_exits(): the command stops at its exit with its memory still mapped,
// signals sent to it still arrive, and it exits normally once let go.
TEST(TargetProcesses, HeldAtExitWithItsMapsReadable) {
    if (geteuid() != 0)
        GTEST_SKIP() << "ptrace of a child needs no privilege, but the kernel's Yama may refuse";
    TargetProcesses targets;
    ASSERT_EQ(failure_of(targets.start_command({"sh", "-c", "kill -USR1 $$ 2>/dev/null; exit 4"})),
              "");
    pid_t pid = *targets.target_pid();
    size_t maps_at_exit = 0;
    targets.hold_exits([&](pid_t exiting) {
        EXPECT_EQ(exiting, pid);
        std::ifstream maps("/proc/" + std::to_string(exiting) + "/maps");
        std::string line;
        while (std::getline(maps, line))
            maps_at_exit++;
    });
    ASSERT_EQ(failure_of(targets.release_command()), "");
    std::vector<int> fds = targets.exit_fds();
    ASSERT_EQ(fds.size(), 1u);
    // What the session does on SIGCHLD, until the process has exited.
    for (int i = 0; i < 1000 && maps_at_exit == 0; i++) {
        targets.handle_stops();
        usleep(10 * 1000);
    }
    EXPECT_GT(maps_at_exit, 0u);
    ASSERT_TRUE(becomes_readable(fds[0]));
    // SIGUSR1 was delivered (it kills sh), not swallowed by the tracer.
    EXPECT_TRUE(targets.note_exit(fds[0]).ends_with(" terminated by SIGUSR1"));
}

// Held, the command waits in a ptrace stop that it entered before tracing
// started, so nothing of its waiting can be traced; it already has the name
// its exec will give it.
TEST(TargetProcesses, HeldCommandIsStoppedUnderItsName) {
    TargetProcesses targets;
    ASSERT_EQ(failure_of(targets.start_command({"sleep", "60"})), "");
    pid_t pid = *targets.target_pid();
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line) && !line.starts_with("TracerPid:")) {
    }
    if (line != "TracerPid:\t" + std::to_string(getpid()))
        GTEST_SKIP() << "ptrace was refused (" << line << "): the command waits in a read()";
    EXPECT_EQ(process_state(pid), 't');
    EXPECT_EQ(first_line("/proc/" + std::to_string(pid) + "/comm"), "sleep");
    EXPECT_EQ(executable_of(pid), executable_of(getpid())) << "it ran before its release";
}

// Of dtx's descriptors, the command gets 0, 1 and 2 only.
TEST(TargetProcesses, CommandGetsOnlyStandardDescriptors) {
    int inheritable = open("/dev/null", O_RDONLY); // not close-on-exec
    ASSERT_GE(inheritable, 3);
    TargetProcesses targets;
    ASSERT_EQ(failure_of(targets.start_command({"sleep", "60"})), "");
    ASSERT_EQ(failure_of(targets.release_command()), "");
    close(inheritable);
    pid_t pid = *targets.target_pid();
    // release_command() returns once the exec is done; the dynamic loader
    // then opens and closes the libraries: look once sleep(1) sleeps.
    ASSERT_NE(executable_of(pid), executable_of(getpid()));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
        std::string call = first_line("/proc/" + std::to_string(pid) + "/syscall");
        if (call.rfind("230 ", 0) == 0 || call.rfind("35 ", 0) == 0) // clock_nanosleep, nanosleep
            break;
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "sleep never slept: " << call;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::vector<int> fds;
    for (const auto &entry :
         std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd"))
        fds.push_back(std::stoi(entry.path().filename()));
    std::sort(fds.begin(), fds.end());
    EXPECT_EQ(fds, (std::vector<int>{0, 1, 2}));
}

// The command dies with dtx however dtx ends (here SIGKILL), held or running.
class CommandDiesWithDtx : public testing::TestWithParam<bool> {};

TEST_P(CommandDiesWithDtx, WithinASecond) {
    const bool released = GetParam();
    int report[2];
    ASSERT_EQ(pipe(report), 0);
    pid_t dtx = fork();
    ASSERT_GE(dtx, 0);
    if (dtx == 0) {
        close(report[0]);
        TargetProcesses targets;
        if (!targets.start_command({"sleep", "60"}) || (released && !targets.release_command()))
            _exit(1);
        pid_t pid = *targets.target_pid();
        if (write(report[1], &pid, sizeof pid) != sizeof pid)
            _exit(1);
        pause();
        _exit(0);
    }
    close(report[1]);
    pid_t command = 0;
    ASSERT_EQ(read(report[0], &command, sizeof command), ssize_t(sizeof command));
    close(report[0]);
    ASSERT_TRUE(process_exists(command));
    ASSERT_EQ(kill(dtx, SIGKILL), 0);
    ASSERT_EQ(waitpid(dtx, nullptr, 0), dtx);
    // Reparented, it is reaped by init (or left a zombie by one that does not reap).
    char state = process_state(command);
    for (int i = 0; i < 100 && state != 0 && state != 'Z' && state != 'X'; i++) {
        usleep(10 * 1000);
        state = process_state(command);
    }
    EXPECT_TRUE(state == 0 || state == 'Z' || state == 'X')
        << "the command " << command << " is still there, in state " << state;
    if (state != 0 && state != 'Z' && state != 'X')
        kill(command, SIGKILL);
}

INSTANTIATE_TEST_SUITE_P(TargetProcesses, CommandDiesWithDtx, testing::Bool(),
                         [](const testing::TestParamInfo<bool> &info) {
                             return info.param ? "Running" : "Held";
                         });

} // namespace

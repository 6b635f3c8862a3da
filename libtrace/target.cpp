#include "libtrace/target.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <variant>

extern char **environ;

namespace dtx::trace {

namespace {

// glibc 2.36 has no wrappers for these.
int open_pidfd(pid_t pid) {
    return int(syscall(SYS_pidfd_open, pid, 0));
}

int send_signal(int pidfd, int signal) {
    return int(syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0));
}

// 0 when `path` is a file this user may execute, else the errno exec would give.
int executable_error(const std::string &path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0)
        return errno;
    if (!S_ISREG(st.st_mode))
        return EACCES;
    return access(path.c_str(), X_OK) == 0 ? 0 : errno;
}

// The process a thread belongs to, from /proc/TID/status.
std::optional<pid_t> thread_group_of(pid_t tid) {
    std::ifstream status("/proc/" + std::to_string(tid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.starts_with("Tgid:"))
            return pid_t(std::strtol(line.c_str() + 5, nullptr, 10));
    return std::nullopt;
}

bool has_exited(int pidfd) {
    pollfd ready{pidfd, POLLIN, 0};
    return poll(&ready, 1, 0) > 0;
}

} // namespace

std::variant<std::string, int> find_executable(const std::string &name) {
    if (name.find('/') != std::string::npos) {
        if (int error = executable_error(name))
            return error;
        return name;
    }
    const char *search = std::getenv("PATH");
    std::string_view directories = search ? search : "/bin:/usr/bin"; // execvp's default
    int error = ENOENT;
    while (true) {
        size_t colon = directories.find(':');
        std::string_view directory = directories.substr(0, colon);
        std::string path = (directory.empty() ? "." : std::string(directory)) + "/" + name;
        int problem = executable_error(path);
        if (problem == 0)
            return path;
        if (problem == EACCES)
            error = EACCES;
        if (colon == std::string_view::npos)
            return error;
        directories.remove_prefix(colon + 1);
    }
}

std::vector<std::string> split_command_line(std::string_view command_line) {
    constexpr std::string_view white_space = " \t\n\v\f\r";
    std::vector<std::string> words;
    size_t start = command_line.find_first_not_of(white_space);
    while (start != std::string_view::npos) {
        size_t end = command_line.find_first_of(white_space, start);
        words.emplace_back(command_line.substr(start, end - start));
        start = command_line.find_first_not_of(white_space, end);
    }
    return words;
}

TargetProcesses::~TargetProcesses() {
    for (Process &process : processes_)
        if (process.created && !process.exited) {
            send_signal(process.pidfd.get(), SIGKILL);
            siginfo_t info{};
            while (waitid(P_PIDFD, id_t(process.pidfd.get()), &info, WEXITED) < 0 &&
                   errno == EINTR) {
            }
        }
}

std::optional<std::string> TargetProcesses::start_command(const std::vector<std::string> &words) {
    const std::string &name = words.front();
    std::variant<std::string, int> found = find_executable(name);
    if (int *error = std::get_if<int>(&found))
        return "failed to execute " + name + ": " + std::strerror(*error);
    const std::string &path = std::get<std::string>(found);
    // Built before fork: the child only makes async-signal-safe calls.
    std::vector<char *> argv;
    for (const std::string &word : words)
        argv.push_back(const_cast<char *>(word.c_str()));
    argv.push_back(nullptr);

    // The release channel is a socket so that releasing a command that died
    // while held fails with EPIPE instead of raising SIGPIPE in dtx.
    int release[2], exec_error[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, release) != 0)
        return "failed to execute " + name + ": socketpair: " + std::strerror(errno);
    UniqueFd release_read(release[0]), release_write(release[1]);
    if (pipe2(exec_error, O_CLOEXEC) != 0)
        return "failed to execute " + name + ": pipe: " + std::strerror(errno);
    UniqueFd error_read(exec_error[0]), error_write(exec_error[1]);

    pid_t pid = fork();
    if (pid < 0)
        return "failed to execute " + name + ": fork: " + std::strerror(errno);
    if (pid == 0) {
        // Held until dtx sends a byte; end of file means dtx gave up on tracing.
        // Both channels are close-on-exec, so a successful exec shows as end of
        // file on the error pipe.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        close(release[1]);
        close(exec_error[0]);
        char go = 0;
        ssize_t n;
        while ((n = read(release[0], &go, 1)) < 0 && errno == EINTR) {
        }
        if (n != 1)
            _exit(127);
        execve(path.c_str(), argv.data(), environ);
        int error = errno;
        [[maybe_unused]] ssize_t written = write(exec_error[1], &error, sizeof error);
        _exit(127);
    }
    Process process;
    process.pid = pid;
    process.created = true;
    process.pidfd.reset(open_pidfd(pid));
    if (!process.pidfd) {
        int error = errno;
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        return "failed to execute " + name + ": pidfd_open: " + std::strerror(error);
    }
    processes_.insert(processes_.begin(), std::move(process));
    command_name_ = name;
    command_path_ = path;
    release_socket_ = std::move(release_write);
    exec_error_pipe_ = std::move(error_read);
    return std::nullopt;
}

std::optional<std::string> TargetProcesses::grab(pid_t pid) {
    if (std::any_of(processes_.begin(), processes_.end(),
                    [&](const Process &p) { return p.pid == pid; }))
        return std::nullopt;
    const std::string failed = "failed to grab pid " + std::to_string(pid) + ": ";
    UniqueFd pidfd(open_pidfd(pid));
    if (!pidfd) {
        int error = errno; // EINVAL or ENOENT (by kernel version) for a thread
        std::optional<pid_t> group = thread_group_of(pid);
        if (group && *group != pid)
            return failed + "it is a thread of process " + std::to_string(*group);
        return failed + std::strerror(error);
    }
    if (send_signal(pidfd.get(), 0) != 0)
        return failed + std::strerror(errno);
    if (has_exited(pidfd.get()))
        return failed + "the process has exited";
    // Kernel threads have no executable, and no user space to trace.
    char exe[1];
    if (readlink(("/proc/" + std::to_string(pid) + "/exe").c_str(), exe, sizeof exe) < 0 &&
        errno == ENOENT)
        return failed + "it is a kernel thread";
    Process process;
    process.pid = pid;
    process.pidfd = std::move(pidfd);
    processes_.push_back(std::move(process));
    return std::nullopt;
}

std::optional<pid_t> TargetProcesses::target_pid() const {
    if (processes_.empty())
        return std::nullopt;
    return processes_.front().pid;
}

std::vector<pid_t> TargetProcesses::pids() const {
    std::vector<pid_t> pids;
    for (const Process &process : processes_)
        pids.push_back(process.pid);
    return pids;
}

std::optional<std::string> TargetProcesses::held_executable(pid_t pid) const {
    if (!release_socket_ || processes_.empty() || !processes_.front().created ||
        processes_.front().pid != pid)
        return std::nullopt;
    return command_path_;
}

std::optional<std::string> TargetProcesses::release_command() {
    if (!release_socket_)
        return std::nullopt;
    char go = 1;
    ssize_t sent = send(release_socket_.get(), &go, 1, MSG_NOSIGNAL);
    release_socket_.reset();
    if (sent != 1)
        return "failed to execute " + command_name_ + ": it ended before it could run";
    int error = 0;
    ssize_t n;
    while ((n = read(exec_error_pipe_.get(), &error, sizeof error)) < 0 && errno == EINTR) {
    }
    exec_error_pipe_.reset();
    if (n == sizeof error)
        return "failed to execute " + command_name_ + ": " + std::strerror(error);
    return std::nullopt;
}

void TargetProcesses::hold_exits(std::function<void(pid_t)> at_exit) {
    at_exit_ = std::move(at_exit);
    for (Process &process : processes_)
        if (!process.exited && !process.seized)
            process.seized = ptrace(PTRACE_SEIZE, process.pid, nullptr, PTRACE_O_TRACEEXIT) == 0;
}

void TargetProcesses::handle_stops() {
    for (Process &process : processes_) {
        while (process.seized) {
            // WSTOPPED alone: ptrace stops only, never an exit to reap.
            siginfo_t info{};
            if (waitid(P_PID, id_t(process.pid), &info, WSTOPPED | WNOHANG | __WALL) != 0 ||
                info.si_pid == 0)
                break;
            int event = info.si_status >> 8, signal = info.si_status & 0xff;
            if (event == PTRACE_EVENT_EXIT) {
                if (at_exit_)
                    at_exit_(process.pid);
                ptrace(PTRACE_DETACH, process.pid, nullptr, nullptr);
                process.seized = false;
            } else if (event == PTRACE_EVENT_STOP) {
                ptrace(PTRACE_LISTEN, process.pid, nullptr, nullptr); // a group stop: stay stopped
            } else {
                // A signal on its way to the process: deliver it.
                ptrace(PTRACE_CONT, process.pid, nullptr,
                       reinterpret_cast<void *>(intptr_t(signal)));
            }
        }
    }
}

std::vector<int> TargetProcesses::exit_fds() const {
    std::vector<int> fds;
    for (const Process &process : processes_)
        if (!process.exited)
            fds.push_back(process.pidfd.get());
    return fds;
}

std::string TargetProcesses::note_exit(int fd) {
    auto it = std::find_if(processes_.begin(), processes_.end(),
                           [&](const Process &p) { return p.pidfd.get() == fd; });
    Process &process = *it;
    process.exited = true;
    const std::string who = "pid " + std::to_string(process.pid);
    if (!process.created)
        return who + " has exited";
    siginfo_t info{};
    int waited;
    while ((waited = waitid(P_PIDFD, id_t(fd), &info, WEXITED)) < 0 && errno == EINTR) {
    }
    if (waited < 0)
        return who + " has exited"; // reaped elsewhere (SIGCHLD ignored): status unknown
    if (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED) {
        const char *abbreviation = sigabbrev_np(info.si_status);
        return who + " terminated by " +
               (abbreviation ? "SIG" + std::string(abbreviation)
                             : "signal " + std::to_string(info.si_status));
    }
    if (info.si_status != 0)
        return who + " exited with status " + std::to_string(info.si_status);
    return who + " has exited";
}

bool TargetProcesses::all_exited() const {
    return !processes_.empty() && std::all_of(processes_.begin(), processes_.end(),
                                              [](const Process &p) { return p.exited; });
}

} // namespace dtx::trace

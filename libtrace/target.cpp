#include "libtrace/target.h"

#include "libtrace/whole_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
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
#include <sstream>
#include <string>
#include <utility>

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
    const std::optional<std::string> status = read_file("/proc/" + std::to_string(tid) + "/status");
    std::optional<pid_t> group;
    for_each_line(status.value_or(""), [&group](std::string_view line) {
        if (!line.starts_with("Tgid:"))
            return true;
        group = pid_t(std::strtol(std::string(line.substr(5)).c_str(), nullptr, 10));
        return false;
    });
    return group;
}

bool has_exited(int pidfd) {
    pollfd ready{pidfd, POLLIN, 0};
    return poll(&ready, 1, 0) > 0;
}

// What dtx sends the held command: stop before exec (dtx traces it and holds
// it in that stop), or exec now (release, when dtx could not trace it).
constexpr char kStopBeforeExec = 'S';
constexpr char kExec = 'X';

// In a child after fork: marks descriptors `first` and up close-on-exec.
void close_on_exec_from(int first, int max_fd) {
    if (close_range(unsigned(first), ~0u, CLOSE_RANGE_CLOEXEC) == 0)
        return;
    for (int fd = first; fd < max_fd; fd++) // before Linux 5.11
        fcntl(fd, F_SETFD, FD_CLOEXEC);
}

// Waits for the next ptrace stop of `pid`, a process dtx traces, and takes
// it: the event and the signal. False when the process exits first; its exit
// is left to be reaped.
bool next_stop(pid_t pid, int &event, int &signal) {
    siginfo_t info{};
    while (waitid(P_PID, id_t(pid), &info, WSTOPPED | WEXITED | WNOWAIT | __WALL) != 0)
        if (errno != EINTR)
            return false;
    if (info.si_code != CLD_TRAPPED && info.si_code != CLD_STOPPED)
        return false;
    siginfo_t taken{}; // without WNOWAIT, so that it is not reported again
    waitid(P_PID, id_t(pid), &taken, WSTOPPED | WNOHANG | __WALL);
    event = info.si_status >> 8;
    signal = info.si_status & 0xff;
    return true;
}

// Lets a traced process go on from a stop that is not dtx's business: a
// signal on its way is delivered, a group stop (SIGTSTP...) lasts until
// SIGCONT.
void pass_stop(pid_t pid, int event, int signal) {
    if (event == PTRACE_EVENT_STOP)
        ptrace(PTRACE_LISTEN, pid, nullptr, nullptr);
    else
        ptrace(PTRACE_CONT, pid, nullptr, reinterpret_cast<void *>(intptr_t(event ? 0 : signal)));
}

// Whether the signal that stopped the traced `pid` came from the kernel
// (bpf_send_signal's), not from a process's kill().
bool sent_by_kernel(pid_t pid) {
    siginfo_t info{};
    return ptrace(PTRACE_GETSIGINFO, pid, nullptr, &info) == 0 && info.si_code == SI_KERNEL;
}

// Waits for the command `pid`, traced, to stop itself with SIGSTOP before
// its exec; false when it exits first.
bool wait_for_gate_stop(pid_t pid) {
    int event = 0, signal = 0;
    while (next_stop(pid, event, signal)) {
        if (event == 0 && signal == SIGSTOP)
            return true; // held there, the SIGSTOP discarded when it goes on
        pass_stop(pid, event, signal);
    }
    return false;
}

} // namespace

Result<std::string> find_executable(const std::string &name) {
    auto cannot_run = [&](int error) { return Error(name + ": " + std::strerror(error), error); };
    if (name.find('/') != std::string::npos) {
        if (int error = executable_error(name))
            return cannot_run(error);
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
            return cannot_run(error);
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

Status TargetProcesses::start_command(const std::vector<std::string> &words) {
    const std::string &name = words.front();
    Result<std::string> found = find_executable(name);
    if (!found)
        return Error("failed to execute " + found.error().message, found.error().errnum);
    const std::string &path = *found;
    // Built before fork: the child only makes async-signal-safe calls.
    std::vector<char *> argv;
    for (const std::string &word : words)
        argv.push_back(const_cast<char *>(word.c_str()));
    argv.push_back(nullptr);
    // The name exec gives the process (the file's base name, cut as the kernel
    // cuts it), given before, so that what the gate leaves to be traced (the
    // execve() entry, its wakeup) is under the command's name, not dtx's.
    char comm[16] = {};
    path.copy(comm, sizeof comm - 1,
              path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    rlimit files{};
    int max_fd = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY
                     ? int(std::min<rlim_t>(files.rlim_cur, 1 << 20))
                     : 1 << 20;
    const pid_t dtx = getpid();

    // The release channel is a socket so that releasing a command that died
    // while held fails with EPIPE instead of raising SIGPIPE in dtx.
    int release[2], exec_error[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, release) != 0)
        return errno_error("failed to execute " + name, "socketpair", errno);
    UniqueFd release_read(release[0]), release_write(release[1]);
    if (pipe2(exec_error, O_CLOEXEC) != 0)
        return errno_error("failed to execute " + name, "pipe", errno);
    UniqueFd error_read(exec_error[0]), error_write(exec_error[1]);

    pid_t pid = fork();
    if (pid < 0)
        return errno_error("failed to execute " + name, "fork", errno);
    if (pid == 0) {
        // Killed when dtx goes, whether it exits or is killed (SIGKILL,
        // SIGPIPE), and at once if dtx is gone already.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != dtx)
            _exit(127);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        close(release[1]);
        close(exec_error[0]);
        // None of dtx's descriptors but 0, 1 and 2 survive the exec; the two
        // channels stay open until then, so that a successful exec shows as
        // end of file on the error pipe.
        close_on_exec_from(3, max_fd);
        prctl(PR_SET_NAME, comm);
        // A byte from dtx: kStopBeforeExec once dtx traces this process, or
        // kExec (at release) when it could not; end of file: dtx gave up.
        char go = 0;
        ssize_t n;
        while ((n = read(release[0], &go, 1)) < 0 && errno == EINTR) {
        }
        if (n != 1)
            _exit(127);
        // A signal-delivery stop, in which dtx holds this process until
        // release. The kill() returns before tracing starts; the next system
        // call, once dtx lets it go, is the execve().
        if (go == kStopBeforeExec)
            kill(getpid(), SIGSTOP);
        execve(path.c_str(), argv.data(), environ);
        int error = errno;
        [[maybe_unused]] ssize_t written = write(exec_error[1], &error, sizeof error);
        _exit(127);
    }
    release_read.reset();
    error_write.reset();
    Process process;
    process.pid = pid;
    process.created = true;
    process.pidfd.reset(open_pidfd(pid));
    auto give_up = [&](Error error) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, __WALL);
        return error;
    };
    if (!process.pidfd)
        return give_up(errno_error("failed to execute " + name, "pidfd_open", errno));
    // Traced from here on, the command stops itself before its execve(); the
    // tracer's exit kills it, so it is never left stopped.
    process.seized =
        ptrace(PTRACE_SEIZE, pid, nullptr, PTRACE_O_EXITKILL | PTRACE_O_TRACEEXEC) == 0;
    if (process.seized) {
        char go = kStopBeforeExec;
        if (send(release_write.get(), &go, 1, MSG_NOSIGNAL) != 1 || !wait_for_gate_stop(pid))
            return give_up(failure("failed to execute " + name + ": it ended before it could run"));
        release_write.reset();
        gate_ = Gate::Stopped;
    } else {
        release_socket_ = std::move(release_write);
        gate_ = Gate::Blocked;
    }
    processes_.insert(processes_.begin(), std::move(process));
    command_name_ = name;
    command_path_ = path;
    exec_error_pipe_ = std::move(error_read);
    return {};
}

Status TargetProcesses::grab(pid_t pid) {
    if (std::any_of(processes_.begin(), processes_.end(),
                    [&](const Process &p) { return p.pid == pid; }))
        return {};
    const std::string failed = "failed to grab pid " + std::to_string(pid) + ": ";
    UniqueFd pidfd(open_pidfd(pid));
    if (!pidfd) {
        int error = errno; // EINVAL or ENOENT (by kernel version) for a thread
        std::optional<pid_t> group = thread_group_of(pid);
        if (group && *group != pid)
            return failure(failed + "it is a thread of process " + std::to_string(*group));
        return Error(failed + std::strerror(error), error);
    }
    if (send_signal(pidfd.get(), 0) != 0)
        return Error(failed + std::strerror(errno), errno);
    if (has_exited(pidfd.get()))
        return failure(failed + "the process has exited");
    // Kernel threads have no executable, and no user space to trace.
    char exe[1];
    if (readlink(("/proc/" + std::to_string(pid) + "/exe").c_str(), exe, sizeof exe) < 0 &&
        errno == ENOENT)
        return failure(failed + "it is a kernel thread");
    Process process;
    process.pid = pid;
    process.pidfd = std::move(pidfd);
    processes_.push_back(std::move(process));
    return {};
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
    if (gate_ == Gate::None || processes_.front().pid != pid)
        return std::nullopt;
    // A script runs its #! interpreter (the kernel follows a few levels).
    std::string path = command_path_;
    for (int level = 0; level < 4; level++) {
        std::ifstream file(path);
        std::string line;
        if (!std::getline(file, line) || !line.starts_with("#!"))
            break;
        std::istringstream words(line.substr(2));
        std::string interpreter;
        if (!(words >> interpreter))
            break;
        path = interpreter;
    }
    return path;
}

Status TargetProcesses::release_command() {
    if (gate_ == Gate::None)
        return {};
    const std::string failed = "failed to execute " + command_name_ + ": ";
    bool ran = true;
    if (std::exchange(gate_, Gate::None) == Gate::Stopped) {
        ran = resume_into_exec(processes_.front());
    } else {
        char go = kExec;
        ran = send(release_socket_.get(), &go, 1, MSG_NOSIGNAL) == 1;
        release_socket_.reset();
    }
    int error = 0;
    ssize_t n;
    while ((n = read(exec_error_pipe_.get(), &error, sizeof error)) < 0 && errno == EINTR) {
    }
    exec_error_pipe_.reset();
    if (n == sizeof error)
        return Error(failed + std::strerror(error), error);
    if (!ran)
        return failure(failed + "it ended before it could run");
    return {};
}

bool TargetProcesses::resume_into_exec(Process &command) {
    if (ptrace(PTRACE_CONT, command.pid, nullptr, nullptr) != 0)
        return false; // killed while held
    int event = 0, signal = 0;
    while (next_stop(command.pid, event, signal)) {
        if (event != PTRACE_EVENT_EXEC) {
            pass_stop(command.pid, event, signal);
            continue;
        }
        // Past its exec (proc:::exec-success has fired, execve() has yet to
        // return): traced from now on only to be held at its exit.
        if (command.hold_exit) {
            ptrace(PTRACE_SETOPTIONS, command.pid, nullptr, PTRACE_O_EXITKILL | PTRACE_O_TRACEEXIT);
            ptrace(PTRACE_CONT, command.pid, nullptr, nullptr);
        } else {
            ptrace(PTRACE_DETACH, command.pid, nullptr, nullptr);
            command.seized = false;
        }
        return true;
    }
    return false; // exec failed (the error pipe says why), or killed
}

void TargetProcesses::hold_exits(std::function<void(pid_t)> at_exit) {
    at_exit_ = std::move(at_exit);
    for (Process &process : processes_) {
        if (process.exited)
            continue;
        // The command traced by its gate gets its options at its exec.
        if (!process.seized)
            process.seized = ptrace(PTRACE_SEIZE, process.pid, nullptr, PTRACE_O_TRACEEXIT) == 0;
        process.hold_exit = process.seized;
    }
}

std::optional<pid_t> TargetProcesses::hold_loader_stops(int signal,
                                                        std::function<void(pid_t)> at_loader_stop) {
    if (processes_.empty() || !processes_.front().created || !processes_.front().seized ||
        !processes_.front().hold_exit)
        return std::nullopt;
    at_loader_stop_ = std::move(at_loader_stop);
    loader_signal_ = signal;
    return processes_.front().pid;
}

void TargetProcesses::handle_stops() {
    for (Process &process : processes_) {
        // The held command's stop is release_command()'s.
        if (gate_ != Gate::None && &process == &processes_.front())
            continue;
        while (process.seized && process.hold_exit) {
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
            } else if (event == 0 && signal == loader_signal_ && at_loader_stop_ &&
                       process.created && sent_by_kernel(process.pid)) {
                at_loader_stop_(process.pid);
                ptrace(PTRACE_CONT, process.pid, nullptr, nullptr);
            } else {
                pass_stop(process.pid, event, signal);
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

bool TargetProcesses::killed_at_exit(pid_t pid) const {
    return std::any_of(processes_.begin(), processes_.end(),
                       [&](const Process &p) { return p.pid == pid && p.created && !p.exited; });
}

bool TargetProcesses::traced(pid_t pid) const {
    return std::any_of(processes_.begin(), processes_.end(),
                       [&](const Process &p) { return p.pid == pid && p.seized && !p.exited; });
}

} // namespace dtx::trace

// Target processes: the command dtx runs for -c and the processes -p grabs.
//
// The command is forked before the program is compiled, so that $target is
// known, but it waits before exec until the session releases it, once every
// probe is attached and BEGIN has run (dtrace holds its -c process the same
// way). It waits in a ptrace stop placed just before its execve(), entered
// before any probe is attached, so that the first event of $target a program
// sees is that execve's entry, already under the command's name; its exec
// (proc:::exec-success, execve's return) and all that follows are traced.
// Where ptrace is refused (another tracer, Yama), it waits in a read() of a
// socket instead, whose return is then seen too. The command has only
// descriptors 0, 1 and 2 of dtx's, and dies with dtx, however dtx ends.
// Exits are seen through pidfds, which the session watches in its epoll
// set; tracing ends when the last target has exited. A command still held or
// running when dtx finishes is killed, as dtrace kills a process it created;
// grabbed processes are left alone.
#pragma once

#include "libtrace/attach.h"

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

// A -c command line split into words at white space, as dtrace splits it (no
// quoting: `sh -c "a b"` is four words).
std::vector<std::string> split_command_line(std::string_view command_line);

// The file execvp() would run for `name` (looked up in PATH when it has no
// '/'), or the error it would fail with ("NAME: strerror"): EACCES when some
// candidate exists but cannot be run, else ENOENT.
Result<std::string> find_executable(const std::string &name);

class TargetProcesses {
public:
    TargetProcesses() = default;
    // Kills and reaps the command if it is still held or running.
    ~TargetProcesses();
    TargetProcesses(const TargetProcesses &) = delete;
    TargetProcesses &operator=(const TargetProcesses &) = delete;

    // Forks the command `words` (words[0] found as execvp finds it) and holds it
    // before exec. At most one command per TargetProcesses. On failure, the
    // message names the command and the reason, and nothing was started.
    Status start_command(const std::vector<std::string> &words);
    // Watches the running process `pid`. Fails, naming the pid, when it does not
    // exist, has exited, is a thread rather than a process, or is a kernel thread.
    Status grab(pid_t pid);

    // $target: the command's pid, else the first grabbed process.
    std::optional<pid_t> target_pid() const;
    // Every target's pid, the command first.
    std::vector<pid_t> pids() const;
    // The file the command `pid` will execute, while it is held before exec
    // (its maps are still dtx's): a script's #! interpreter; nullopt for any
    // other pid.
    std::optional<std::string> held_executable(pid_t pid) const;

    // Lets the held command exec (nothing when there is none), and returns
    // once it has. Fails when exec failed or the command ended before it; the
    // command has then exited.
    Status release_command();

    // From now on, stops each target as it exits, while its memory is still
    // there, and calls `at_exit` with its pid before letting it go: the
    // session reads the modules of processes whose user addresses it has yet
    // to name. Through ptrace (PTRACE_SEIZE with the exit event): signals
    // the target receives are passed on by handle_stops(), so the session
    // calls it on every SIGCHLD. Best effort: a process that another tracer
    // holds is left alone. dtx's exit detaches what is still seized (and
    // kills the command).
    void hold_exits(std::function<void(pid_t)> at_exit);
    // After hold_exits(): the command, when dtx traces it, is the one whose
    // stops by `signal` sent by the kernel (the program's loader watch's,
    // kLoaderHoldSignal) dtx holds: handle_stops() calls `at_loader_stop`
    // with its pid in the stop, then lets it go on without the signal. Returns that pid, for the
    // program's hold map; nullopt when there is no such command. (Not a -p
    // process: were dtx killed in the stop, the signal would kill it.)
    std::optional<pid_t> hold_loader_stops(int signal, std::function<void(pid_t)> at_loader_stop);
    // Handles the seized targets' ptrace stops (see hold_exits()).
    void handle_stops();

    // One fd per target not yet seen to exit; each becomes readable at its exit.
    std::vector<int> exit_fds() const;
    // After exit fd `fd` became readable: reaps the command, and returns dtrace's
    // notice for the exit ("pid 12 has exited", "pid 12 exited with status 1",
    // "pid 12 terminated by SIGKILL"; a grabbed process's status is not known).
    std::string note_exit(int fd);
    // True when there were targets and every one has exited.
    bool all_exited() const;
    // Whether `pid` is the command, still running: dtx's exit kills it.
    bool killed_at_exit(pid_t pid) const;
    // Whether dtx traces `pid` (ptrace): stopped, it shows as 't' (tracing
    // stop) until dtx's exit lets it go, stopped still.
    bool traced(pid_t pid) const;

private:
    struct Process {
        pid_t pid = 0;
        UniqueFd pidfd;
        bool created = false; // by start_command(): dtx's child, reaped by dtx
        bool exited = false;
        bool seized = false;    // traced by dtx: held before exec, or at exit
        bool hold_exit = false; // by hold_exits()
    };
    // How the command waits for release_command().
    enum class Gate {
        None,    // no command, or it was released
        Stopped, // in a ptrace stop before its execve()
        Blocked, // in a read() of release_socket_ (ptrace refused)
    };
    // Resumes the command stopped by the gate and waits for its exec; false
    // when it exited before.
    bool resume_into_exec(Process &command);
    std::function<void(pid_t)> at_exit_;
    std::function<void(pid_t)> at_loader_stop_;
    int loader_signal_ = 0;
    std::vector<Process> processes_;
    std::string command_name_;
    std::string command_path_; // the file the command executes
    Gate gate_ = Gate::None;
    UniqueFd release_socket_;  // dtx's end: a byte lets the held command go on
    UniqueFd exec_error_pipe_; // read end: the errno of a failed exec; EOF on success
};

} // namespace dtx::trace

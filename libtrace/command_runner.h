// The commands system() runs while tracing, without stopping it.
//
// dtrace's consumer runs each command and waits for it, so that its output
// comes between the trace output before its record and after; a command
// that does not end stops tracing. Here each command (`sh -c COMMAND`) runs
// in the background while records are still consumed, and the order is
// kept by holding back the output that follows a system() record
// (InterruptibleOutput::hold()) until its command ends, or has run for the
// hold time (one second), after which it goes on alongside the trace.
// Commands run one at a time in the order of their records: the next starts
// when the one before has ended or gone on alongside. At the end of tracing
// the commands still queued or running are given their hold time each
// (a Ctrl-C ends that at once), and what then still runs is killed.
//
// Every command runs in one process group, whose leader (a guardian `sh`)
// waits on a pipe that only dtx holds: when dtx ends, however it ends (a
// SIGKILL too), the guardian kills the group, the commands' own children
// included.
#pragma once

#include "libtrace/attach.h"

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dtx::trace {

class CommandRunner {
public:
    // `done` is called as each command ends or goes on alongside the trace,
    // before the next starts: the output held for it may go out then.
    // `warn` says why a command could not start.
    CommandRunner(std::function<void()> done, std::function<void(const std::string &)> warn,
                  std::chrono::milliseconds hold = std::chrono::seconds(1));
    // Kills every command still running.
    ~CommandRunner();
    CommandRunner(const CommandRunner &) = delete;
    CommandRunner &operator=(const CommandRunner &) = delete;

    // Runs `command` with its standard output on `stdout_fd` (1 or 2, as
    // dtx's), now or after the commands before it.
    void run(const std::string &command, int stdout_fd);
    // Readable when a command ends or its hold time is over: call update().
    int fd() const { return epoll_.get(); }
    // Reaps the commands that ended, lets go of a command whose hold time is
    // over, starts the next.
    void update();
    // Gives each command queued or running its hold time, unless
    // `interrupted` (called when `interrupt_fd` is readable) says to stop:
    // nothing is held afterwards unless interrupted.
    void settle(int interrupt_fd, const std::function<bool()> &interrupted);
    // The end of tracing: settle(), then kills what still runs.
    void finish(int interrupt_fd, const std::function<bool()> &interrupted);
    // Kills every command, queued ones never start; `done` is called for
    // each that was held.
    void kill_all();

private:
    struct Queued {
        std::string command;
        int stdout_fd;
    };
    struct Running {
        pid_t pid = -1;
        UniqueFd pidfd;
    };
    // Starts the guardian, once; false if it could not start.
    bool start_guardian();
    void start_next();
    // The held command is done (ended or let go): `done`, then the next.
    void release_held();
    void arm_timer(std::optional<std::chrono::steady_clock::time_point> deadline);

    std::function<void()> done_;
    std::function<void(const std::string &)> warn_;
    std::chrono::milliseconds hold_;
    UniqueFd epoll_, timer_;
    pid_t guardian_ = -1;
    UniqueFd guardian_pipe_; // its write end: closed, the guardian kills the group
    std::deque<Queued> queue_;
    std::optional<Running> held_; // the command whose output is waited for
    std::chrono::steady_clock::time_point held_until_;
    std::vector<Running> alongside_; // let go after their hold time, still running
};

} // namespace dtx::trace

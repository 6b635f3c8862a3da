#include "libtrace/command_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

extern char **environ;

namespace dtx::trace {

namespace {

// The guardian: reads its standard input (dtx's pipe) until end of file,
// which comes when dtx is gone, and then kills its process group.
constexpr const char *kGuardianScript = "read -r dtx_guardian; kill -KILL 0";

// How a process here starts: default dispositions for the signals dtx
// ignores or reads, none blocked (dtx blocks those it reads from a
// signalfd), in process group `group` (0: one of its own), with only
// standard input, output and error of dtx's descriptors.
class Spawn {
public:
    explicit Spawn(pid_t group) {
        posix_spawnattr_init(&attributes_);
        posix_spawn_file_actions_init(&files_);
        sigset_t none, reset;
        sigemptyset(&none);
        sigemptyset(&reset);
        for (int signal : {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGTTIN, SIGTTOU,
                           SIGTSTP, SIGUSR1, SIGUSR2})
            sigaddset(&reset, signal);
        posix_spawnattr_setsigmask(&attributes_, &none);
        posix_spawnattr_setsigdefault(&attributes_, &reset);
        posix_spawnattr_setpgroup(&attributes_, group);
        posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                                   POSIX_SPAWN_SETPGROUP);
    }
    ~Spawn() {
        posix_spawn_file_actions_destroy(&files_);
        posix_spawnattr_destroy(&attributes_);
    }
    Spawn(const Spawn &) = delete;
    Spawn &operator=(const Spawn &) = delete;

    posix_spawn_file_actions_t &files() { return files_; }

    // `sh -c script`: its pid, or the error number.
    pid_t shell(const char *script, int &error) {
        posix_spawn_file_actions_addclosefrom_np(&files_, 3);
        const char *argv[] = {"sh", "-c", script, nullptr};
        pid_t pid = -1;
        error =
            posix_spawn(&pid, "/bin/sh", &files_, &attributes_, const_cast<char **>(argv), environ);
        return error == 0 ? pid : -1;
    }

private:
    posix_spawnattr_t attributes_;
    posix_spawn_file_actions_t files_;
};

int open_pidfd(pid_t pid) {
    return int(syscall(SYS_pidfd_open, pid, 0));
}

void watch(int epoll, int fd) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

bool reaped(pid_t pid) {
    int status = 0;
    return waitpid(pid, &status, WNOHANG) == pid;
}

} // namespace

CommandRunner::CommandRunner(std::function<void()> done,
                             std::function<void(const std::string &)> warn,
                             std::chrono::milliseconds hold)
    : done_(std::move(done)), warn_(std::move(warn)), hold_(hold),
      epoll_(epoll_create1(EPOLL_CLOEXEC)),
      timer_(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)) {
    watch(epoll_.get(), timer_.get());
}

CommandRunner::~CommandRunner() {
    done_ = nullptr; // what the output held goes with it
    kill_all();
}

bool CommandRunner::start_guardian() {
    if (guardian_ > 0)
        return true;
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0)
        return false;
    UniqueFd read_end(ends[0]);
    guardian_pipe_.reset(ends[1]);
    Spawn spawn(0);
    posix_spawn_file_actions_adddup2(&spawn.files(), read_end.get(), STDIN_FILENO);
    posix_spawn_file_actions_addopen(&spawn.files(), STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&spawn.files(), STDOUT_FILENO, STDERR_FILENO);
    int error = 0;
    guardian_ = spawn.shell(kGuardianScript, error);
    if (guardian_ < 0) {
        guardian_pipe_.reset();
        if (warn_)
            warn_(std::string("system(): cannot run /bin/sh: ") + std::strerror(error));
        return false;
    }
    return true;
}

void CommandRunner::run(const std::string &command, int stdout_fd) {
    queue_.push_back({command, stdout_fd});
    if (!held_)
        start_next();
}

void CommandRunner::start_next() {
    while (!held_ && !queue_.empty()) {
        Queued next = std::move(queue_.front());
        queue_.pop_front();
        if (!start_guardian()) {
            if (done_)
                done_();
            continue;
        }
        Spawn spawn(guardian_);
        if (next.stdout_fd != STDOUT_FILENO)
            posix_spawn_file_actions_adddup2(&spawn.files(), next.stdout_fd, STDOUT_FILENO);
        int error = 0;
        const pid_t pid = spawn.shell(next.command.c_str(), error);
        if (pid < 0) {
            if (warn_)
                warn_(std::string("system(): cannot run /bin/sh: ") + std::strerror(error));
            if (done_)
                done_();
            continue;
        }
        held_.emplace(Running{pid, UniqueFd(open_pidfd(pid))});
        watch(epoll_.get(), held_->pidfd.get());
        held_until_ = std::chrono::steady_clock::now() + hold_;
        arm_timer(held_until_);
    }
}

void CommandRunner::arm_timer(std::optional<std::chrono::steady_clock::time_point> deadline) {
    itimerspec when{};
    if (deadline) {
        // steady_clock is CLOCK_MONOTONIC's; 0 would disarm the timer.
        const auto since = deadline->time_since_epoch();
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since);
        when.it_value.tv_sec = seconds.count();
        when.it_value.tv_nsec = std::max<long>(
            1, long(std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds).count()));
    }
    timerfd_settime(timer_.get(), TFD_TIMER_ABSTIME, &when, nullptr);
}

void CommandRunner::release_held() {
    held_.reset();
    arm_timer(std::nullopt);
    if (done_)
        done_();
    start_next();
}

void CommandRunner::update() {
    uint64_t expirations = 0;
    while (read(timer_.get(), &expirations, sizeof expirations) > 0) {
    }
    std::erase_if(alongside_, [](const Running &command) { return reaped(command.pid); });
    if (!held_)
        return;
    if (reaped(held_->pid)) {
        release_held();
    } else if (std::chrono::steady_clock::now() >= held_until_) {
        alongside_.push_back(std::move(*held_));
        release_held();
    }
}

void CommandRunner::settle(int interrupt_fd, const std::function<bool()> &interrupted) {
    while (held_ || !queue_.empty()) {
        pollfd ready[2] = {{epoll_.get(), POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
        if (poll(ready, interrupt_fd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
            return;
        if ((ready[1].revents & POLLIN) && interrupted && interrupted())
            return;
        update();
    }
}

void CommandRunner::finish(int interrupt_fd, const std::function<bool()> &interrupted) {
    settle(interrupt_fd, interrupted);
    kill_all();
}

void CommandRunner::kill_all() {
    if (guardian_ > 0) {
        kill(-guardian_, SIGKILL);
        guardian_pipe_.reset();
    }
    // Also those that left the group.
    std::vector<Running> running = std::move(alongside_);
    alongside_.clear();
    if (held_)
        running.push_back(std::move(*held_));
    for (Running &command : running) {
        kill(command.pid, SIGKILL);
        while (waitpid(command.pid, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    if (guardian_ > 0)
        while (waitpid(guardian_, nullptr, 0) < 0 && errno == EINTR) {
        }
    guardian_ = -1;
    const bool was_held = held_.has_value();
    held_.reset();
    arm_timer(std::nullopt);
    const size_t never_started = queue_.size();
    queue_.clear();
    if (done_)
        for (size_t i = 0; i < never_started + (was_held ? 1 : 0); i++)
            done_();
}

} // namespace dtx::trace

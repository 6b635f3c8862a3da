// The dtx command: parses the command line once, hands the options to a
// session, owns the signals that end tracing, and says what went wrong.
// Exit status as dtrace(1): 0 on success (or exit()'s value), 1 for compile
// and run-time errors, 2 for usage errors.

#include "cmd/options.h"
#include "session/session.h"

#include <sys/signalfd.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>

namespace {

constexpr int kExitSuccess = 0;
constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int usage_error(const std::string &message) {
    std::cerr << "dtx: " << message << '\n' << dtx::cmd::usage_text("dtx");
    return kExitUsage;
}

// Says `error` and gives its exit status: each line of the message after
// "dtx: ", the details indented below; diagnostics as they were rendered.
int report(const dtx::Error &error) {
    switch (error.kind) {
    case dtx::ErrorKind::Usage:
        return usage_error(error.message);
    case dtx::ErrorKind::Diagnostics:
        std::cerr << error.message;
        return kExitError;
    case dtx::ErrorKind::Failed:
    case dtx::ErrorKind::KernelLacksFeature:
        break;
    }
    for (size_t at = 0; at != std::string::npos;) {
        size_t end = error.message.find('\n', at);
        std::cerr << "dtx: " << error.message.substr(at, end - at) << '\n';
        at = end == std::string::npos ? end : end + 1;
    }
    for (const std::string &line : error.details)
        std::cerr << "    " << line << '\n';
    return kExitError;
}

// Out of memory, dtx says so and exits instead of letting std::bad_alloc
// abort it; saying more could need more memory.
void out_of_memory() {
    static constexpr char kMessage[] = "dtx: out of memory\n";
    (void)!write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    std::exit(kExitError);
}

// The signals that end tracing (and SIGCHLD, for targets held at their exit),
// blocked and read from a signalfd, so that the session's loop and its
// output wake at once.
class TracingSignals {
public:
    TracingSignals() {
        sigemptyset(&signals_);
        for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGCHLD})
            sigaddset(&signals_, signal);
        sigprocmask(SIG_BLOCK, &signals_, nullptr);
        fd_ = signalfd(-1, &signals_, SFD_CLOEXEC | SFD_NONBLOCK);
    }
    ~TracingSignals() {
        if (fd_ >= 0)
            close(fd_);
    }
    TracingSignals(const TracingSignals &) = delete;
    TracingSignals &operator=(const TracingSignals &) = delete;

    dtx::session::Interrupts interrupts() const {
        return {fd_, [fd = fd_] {
                    dtx::session::Interrupts::Arrived arrived;
                    signalfd_siginfo info{};
                    while (read(fd, &info, sizeof info) == ssize_t(sizeof info)) {
                        if (info.ssi_signo == SIGCHLD)
                            arrived.children_stopped = true;
                        else
                            arrived.stop = true;
                    }
                    return arrived;
                }};
    }

private:
    sigset_t signals_{};
    int fd_ = -1;
};

int run(const dtx::session::Options &options) {
    if (options.help) {
        std::cout << dtx::cmd::usage_text("dtx");
        return kExitSuccess;
    }
    if (options.version) {
        std::cout << "dtx: Sun D 2.0 (dtx " DTX_VERSION ")\n";
        return kExitSuccess;
    }
    dtx::session::Session session(options);
    if (options.usdt_header || options.usdt_object) {
        dtx::Status generated = session.generate_usdt();
        return generated ? kExitSuccess : report(generated.error());
    }
    if (options.list) {
        dtx::Status listed = session.list();
        return listed ? kExitSuccess : report(listed.error());
    }
    if (dtx::Status compiled = session.compile(); !compiled)
        return report(compiled.error());
    if (options.compile_only)
        return kExitSuccess;
    TracingSignals signals;
    dtx::Result<int> traced = session.trace(signals.interrupts());
    return traced ? *traced : report(traced.error());
}

} // namespace

int main(int argc, char **argv) {
    std::set_new_handler(out_of_memory);
    auto parsed = dtx::cmd::parse_options(std::span<const char *const>(argv, size_t(argc)));
    if (auto *error = std::get_if<dtx::cmd::UsageError>(&parsed))
        return usage_error(error->message);
    return run(std::get<dtx::cmd::Options>(parsed));
}

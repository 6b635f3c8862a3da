// A tracing session: the library's lifecycle, which the dtx command drives
// with one Options object and nothing else.
//   list()     -l: the probes the program's descriptions match
//   compile()  read the program (files, cpp), parse it with the D library,
//              start the -c command or grab the -p processes, apply the
//              options, match descriptions to probes, check, and generate the
//              BPF object (the pass list is Impl::compile in session.cpp)
//   trace()    load the object, attach every probe, fire BEGIN, consume
//              records until exit(), a signal or the end of the targets, fire
//              END, print what is left and detach (tracing.cpp)
//   generate_usdt()  -h/-G: read the program and write the C header of its
//              provider declarations or the object that defines their
//              semaphores (usdt_build.cpp); nothing is traced
// Errors are returned, never printed; notices and warnings (dtrace's
// "matched N probes", -v notes) go to the session's error stream.
#pragma once

#include "libtrace/error.h"
#include "session/options.h"

#include <cstdio>
#include <functional>
#include <memory>

namespace dtx::session {

// What the command's signal handling tells a running session: `fd` becomes
// readable when a signal arrives, and read() takes what arrived.
struct Interrupts {
    struct Arrived {
        bool stop = false;             // end tracing (SIGINT, SIGTERM, SIGHUP)
        bool children_stopped = false; // SIGCHLD: a held target's ptrace stop
    };
    int fd = -1;
    std::function<Arrived()> read;
};

class Session {
public:
    explicit Session(Options options, FILE *err = stderr);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    Status list();
    Status compile();
    // After compile(): the exit status dtrace(1) gives a run that went
    // through (0, or the value exit() gave).
    Result<int> trace(const Interrupts &interrupts);
    Status generate_usdt();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace dtx::session

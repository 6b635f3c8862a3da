// The program's output, written so that a reader that stops reading (a pager
// left open, a FIFO nobody drains) cannot keep dtx from its signals.
//
// stdout is often shared (with the -c command, with the shell), so it cannot
// be made non-blocking. Instead every write first waits in poll() for the file
// to take more, watching a second descriptor at the same time (the session's
// signalfd), and then writes no more than a pipe that polled writable takes
// without blocking (PIPE_BUF). When that descriptor becomes readable, the
// owner is asked whether to give up: if so, what is left unwritten is dropped,
// and every later write with it. Regular files never wait and are written
// directly.
//
// Output can be held back (while a system() command writes to the same
// place, see command_runner.h): what is written after hold() waits in memory
// until release_one() lets it go, one hold at a time, in order.
#pragma once

#include <cstdio>
#include <deque>
#include <functional>
#include <string>

namespace dtx::trace {

class InterruptibleOutput {
public:
    // Output to `file` (flushed first), through stream(). `interrupted` is
    // called when `interrupt_fd` becomes readable during a write; it must
    // read what made it readable, and returns true to give up the output.
    InterruptibleOutput(FILE *file, int interrupt_fd, std::function<bool()> interrupted);
    // Closes stream(): writes what it still holds, unless given up.
    ~InterruptibleOutput();
    InterruptibleOutput(const InterruptibleOutput &) = delete;
    InterruptibleOutput &operator=(const InterruptibleOutput &) = delete;

    // Where to write: `file` itself if no stream could be made over it.
    FILE *stream() const { return stream_; }
    // True once a write was given up: output is dropped from then on.
    bool abandoned() const { return abandoned_; }

    // What is written from now on waits, until the release_one() that
    // matches this hold (after those of the holds before it).
    void hold();
    // Writes what the oldest hold kept; later writes go out at once when no
    // hold is left.
    void release_one();

private:
    // The stream's write function: all of `data`, or 0 on an error.
    size_t write(const char *data, size_t size);
    // Writes `data` to the file, waiting for it to take it.
    size_t write_out(const char *data, size_t size);

    int fd_;
    bool regular_file_ = false;
    int interrupt_fd_;
    std::function<bool()> interrupted_;
    bool abandoned_ = false;
    FILE *stream_ = nullptr;
    bool own_stream_ = false;
    std::deque<std::string> held_; // what each hold kept, oldest first
};

} // namespace dtx::trace

#include "libtrace/interruptible_output.h"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>

namespace dtx::trace {

InterruptibleOutput::InterruptibleOutput(FILE *file, int interrupt_fd,
                                         std::function<bool()> interrupted)
    : fd_(fileno(file)), interrupt_fd_(interrupt_fd), interrupted_(std::move(interrupted)),
      stream_(file) {
    std::fflush(file);
    struct stat st {};
    regular_file_ = fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
    cookie_io_functions_t functions{};
    functions.write = [](void *self, const char *data, size_t size) -> ssize_t {
        return ssize_t(static_cast<InterruptibleOutput *>(self)->write(data, size));
    };
    FILE *stream = fopencookie(this, "w", functions);
    if (!stream)
        return;
    // Line by line to a terminal, as stdio writes to one.
    if (isatty(fd_))
        setvbuf(stream, nullptr, _IOLBF, BUFSIZ);
    stream_ = stream;
    own_stream_ = true;
}

InterruptibleOutput::~InterruptibleOutput() {
    std::fflush(stream_);
    while (!held_.empty())
        release_one();
    if (own_stream_)
        std::fclose(stream_);
}

void InterruptibleOutput::hold() {
    std::fflush(stream_);
    held_.emplace_back();
}

void InterruptibleOutput::release_one() {
    if (held_.empty())
        return;
    std::fflush(stream_); // into the newest hold
    const std::string kept = std::move(held_.front());
    held_.pop_front();
    write_out(kept.data(), kept.size());
}

size_t InterruptibleOutput::write(const char *data, size_t size) {
    if (!held_.empty()) {
        held_.back().append(data, size);
        return size;
    }
    return write_out(data, size);
}

size_t InterruptibleOutput::write_out(const char *data, size_t size) {
    size_t done = 0;
    while (done < size && !abandoned_) {
        if (!regular_file_) {
            pollfd ready[2] = {{fd_, POLLOUT, 0}, {interrupt_fd_, POLLIN, 0}};
            nfds_t watched = interrupt_fd_ >= 0 && interrupted_ ? 2 : 1;
            if (poll(ready, watched, -1) < 0) {
                if (errno == EINTR)
                    continue;
                return 0;
            }
            if (watched == 2 && (ready[1].revents & POLLIN) && interrupted_()) {
                abandoned_ = true;
                break;
            }
            // POLLERR (no reader left) too: write() says EPIPE.
            if (!(ready[0].revents & (POLLOUT | POLLERR | POLLHUP)))
                continue;
        }
        size_t chunk = regular_file_ ? size - done : std::min<size_t>(size - done, PIPE_BUF);
        ssize_t n = ::write(fd_, data + done, chunk);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return 0;
        }
        done += size_t(n);
    }
    // Dropped output counts as written, so that the stream goes on without error.
    return abandoned_ ? size : done;
}

} // namespace dtx::trace

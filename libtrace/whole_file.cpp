#include "libtrace/whole_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace dtx::trace {

std::string read_whole_file(const std::string &path, int &errnum, std::size_t size_hint) {
    std::string text;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        errnum = errno;
        return text;
    }
    std::size_t used = 0;
    text.resize(size_hint > 0 ? size_hint : 1);
    for (;;) {
        if (used == text.size())
            text.resize(text.size() * 2);
        const ssize_t n = ::read(fd, text.data() + used, text.size() - used);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            errnum = errno;
            break;
        }
        if (n == 0)
            break;
        used += static_cast<std::size_t>(n);
    }
    ::close(fd);
    text.resize(used);
    return text;
}

} // namespace dtx::trace

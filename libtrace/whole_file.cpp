#include "libtrace/whole_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
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

std::optional<std::string> read_file(const std::string &path, std::size_t size_hint) {
    int errnum = 0;
    std::string text = read_whole_file(path, errnum, size_hint);
    if (errnum != 0)
        return std::nullopt;
    return text;
}

std::optional<std::string> read_first_line(const std::string &path) {
    std::optional<std::string> text = read_file(path, 256);
    if (!text || text->empty())
        return std::nullopt;
    text->resize(std::min(text->size(), text->find('\n')));
    return text;
}

} // namespace dtx::trace

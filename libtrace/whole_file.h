// Reading a file whole, for procfs and sysfs files, which report a size of 0:
// read() until it returns 0. No iostreams: a /proc file of a process that
// exits while it is read fails its read() with ESRCH, which a filebuf turns
// into an exception; here it is an errno like any other.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace dtx::trace {

// The contents of `path`; on failure, what was read so far and the errno in
// `errnum` (left alone on success). `size_hint` is the buffer to start with
// (it doubles as needed): /proc/kallsyms is megabytes, /proc/PID/maps kilobytes.
std::string read_whole_file(const std::string &path, int &errnum,
                            std::size_t size_hint = std::size_t{64} << 10);

// The contents of `path`, or nothing when it cannot be opened or read whole
// (a process's file once the process is gone).
std::optional<std::string> read_file(const std::string &path,
                                     std::size_t size_hint = std::size_t{4} << 10);

// The first line of `path` without its newline, or nothing when it cannot be
// read or is empty.
std::optional<std::string> read_first_line(const std::string &path);

// Calls `line(text)` for each line of `text` (without its newline) until it
// returns false.
template <typename LineFunction>
void for_each_line(std::string_view text, LineFunction line) {
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        if (!line(text.substr(0, end)) || end == std::string_view::npos)
            return;
        text.remove_prefix(end + 1);
    }
}

} // namespace dtx::trace

// Reading a file whole, for procfs and sysfs files, which report a size of 0:
// read() until it returns 0.
#pragma once

#include <cstddef>
#include <string>

namespace dtx::trace {

// The contents of `path`; on failure, what was read so far and the errno in
// `errnum` (left alone on success). `size_hint` is the buffer to start with
// (it doubles as needed): /proc/kallsyms is megabytes, /proc/PID/maps kilobytes.
std::string read_whole_file(const std::string &path, int &errnum,
                            std::size_t size_hint = std::size_t{64} << 10);

} // namespace dtx::trace

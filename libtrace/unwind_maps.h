// The unwind tables of the files a program's user stacks run through, in
// the program's maps (program_description.h's UnwindRequest): each file's
// table is built once (libtrace/unwind_table.h), written after the others
// into the rows map (through a mapping of those pages), and then published
// in the files map under the file's inode and device, where the program
// finds it. Files are loaded before tracing (the -c and -p processes'
// modules) or when the program asks for one it met.
#pragma once

#include "libtrace/error.h"
#include "libtrace/program_description.h"

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

namespace dtx::trace {

class UnwindMaps {
public:
    struct Statistics {
        size_t files = 0;         // with a table
        size_t files_without = 0; // without CFI, unreadable, or past the room
        uint64_t rows = 0;        // of `capacity`
        uint64_t capacity = 0;
        double build_seconds = 0; // building and writing the tables
    };

    // `rows_fd`: the rows map, an mmapable array of `capacity` UnwindRows;
    // `files_fd`: the files map. `warn` hears, once, that the rows map is full.
    UnwindMaps(int rows_fd, uint32_t capacity, int files_fd,
               std::function<void(const std::string &)> warn);

    // The table of the file at `path` (which may be a /proc/PID/map_files or
    // /proc/PID/root path), unless its file has one already.
    void load(const std::string &path);
    // The table the program asked for: the file `request.pid` maps at
    // `request.address`.
    void answer(const UnwindRequest &request);

    const Statistics &statistics() const { return statistics_; }

private:
    // Builds and publishes the table of the file open at `path`, whose
    // identity is `key`; NoTable when it has none to give.
    void load_file(const std::string &path, const UnwindFileKey &key);
    void publish(const UnwindFileKey &key, const UnwindFile &file);

    int rows_fd_ = -1;
    uint32_t capacity_ = 0;
    int files_fd_ = -1;
    std::function<void(const std::string &)> warn_;
    bool warned_full_ = false;
    // What each file was given; a file asked for and not found (its process
    // gone) counts its attempts here until it is given up.
    std::map<std::pair<uint64_t, uint64_t>, UnwindFile> published_;
    std::map<std::pair<uint64_t, uint64_t>, int> failed_requests_;
    Statistics statistics_;
};

// The kernel's dev_t (major << 20 | minor) of a stat()'s st_dev.
uint64_t kernel_device(dev_t device);

} // namespace dtx::trace

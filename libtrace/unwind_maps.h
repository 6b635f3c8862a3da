// The unwind tables of the files a program's user stacks run through, in
// the program's maps (program_description.h's UnwindRequest): each file's
// table is built once (libtrace/unwind_table.h), written after the others
// into the rows map (through a mapping of those pages), and then published
// in the files map under the file's inode and device, where the program
// finds it.
//
// Files are loaded before tracing (the -c and -p processes' modules), or
// when the program asks for one it met: the consumer then only opens the
// file (while its mapping lives) and threads of their own build the
// tables, smallest file first, one thread a lane of file sizes (under 1 MB,
// under 16 MB, more), so that neither the records nor a small library wait
// for a large executable's table (a tenth of a second to seconds). A file met
// while tracing may take a quarter of the room at most, so that a huge one
// (a compiler's) met first in a system-wide profile does not leave the
// others none. A file that cannot be found when asked for (its process
// gone, the mapping with it) is asked for again later, by the next process
// that meets it, after a pause that doubles each time.
#pragma once

#include "libtrace/error.h"
#include "libtrace/process_modules.h"
#include "libtrace/program_description.h"

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

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
    // `files_fd`: the files map (both are duplicated). `warn` hears, once
    // (the advice is the same), that the rows map is full or that a table
    // is too large, from the building thread.
    UnwindMaps(int rows_fd, uint32_t capacity, int files_fd,
               std::function<void(const std::string &)> warn);
    // A table being built is left to finish on its own, unpublished: the
    // end of tracing does not wait for it.
    ~UnwindMaps();
    UnwindMaps(const UnwindMaps &) = delete;
    UnwindMaps &operator=(const UnwindMaps &) = delete;

    // Where a file was seen before, by identity: a path that may still
    // lead to it.
    using KnownPaths = std::function<std::optional<std::string>(const FileIdentity &)>;

    // The table of the file at `path` (which may be a /proc/PID/map_files or
    // /proc/PID/root path), unless its file has one already; built now.
    void load(const std::string &path);
    // The table the program asked for: the file `request.pid` maps at
    // [request.start, request.end), else another mapping of it there, else
    // where `known_paths` says it was; with it, the process's other code.
    // Opened now, built by the building thread.
    void answer(const UnwindRequest &request, const KnownPaths &known_paths);
    // The tables of every file process `pid` maps code from now, opened now,
    // built by the building threads (a library it just loaded, say).
    void load_process(pid_t pid);
    // load_process(), but the tables of files under 1 MiB (a library's,
    // most often) are built here and now: the process is held meanwhile.
    void load_process_now(pid_t pid);
    // The table of the file at `path`, opened now, built by the building
    // threads.
    void load_later(const std::string &path);
    // Lets the program ask again for the files not found whose pause is
    // over (called about once a second).
    void retry_due();

    Statistics statistics() const;

private:
    struct Shared; // what the building thread shares, under its mutex
    // Opens the file at `path` for the building thread, unless its file has
    // a table, is queued, or is not `expected`; true when queued or known.
    // A file under `build_now_below` bytes is built here instead.
    bool queue(const std::string &path, const std::optional<FileIdentity> &expected,
               uint64_t build_now_below = 0);
    // queue() of each file that `maps` (of /proc/PID `proc`) maps code from.
    void queue_mappings(const std::string &proc, const std::vector<MapsEntry> &maps,
                        uint64_t build_now_below = 0);

    std::shared_ptr<Shared> shared_;
    std::thread builders_[3]; // one a lane of file sizes (unwind_maps.cpp's kLaneLimits)
};

} // namespace dtx::trace

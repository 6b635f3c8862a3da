// The modules (executable and shared libraries) of a process, as the pid and
// usdt providers name them and ustack() symbolizes them.
//
// A running process's modules come from /proc/PID/maps: every file-backed
// mapping, grouped by file; "a.out" names the main executable (the file
// /proc/PID/exe points to). A -c command that has not exec'd yet has no maps
// of its own; its modules are found the way the dynamic linker will find them:
// the executable, then its DT_NEEDED libraries, breadth first, searched in
// DT_RPATH (when there is no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH, the
// directories of /etc/ld.so.conf (and its includes), then /lib64, /lib and
// /usr/lib with their x86_64-linux-gnu subdirectories, with $ORIGIN expanded.
// Libraries loaded later with dlopen() are then only reachable by path.
#pragma once

#include "libtrace/error.h"

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

// One line of /proc/PID/maps.
struct MapsEntry {
    uint64_t start = 0, end = 0; // [start, end)
    bool readable = false, writable = false, executable = false, shared = false;
    uint64_t offset = 0; // file offset of `start`
    uint32_t device_major = 0, device_minor = 0;
    uint64_t inode = 0;
    std::string path;     // empty for anonymous mappings; "[stack]", "/usr/lib/..."
    bool deleted = false; // the path ended in " (deleted)", which is removed from `path`
};

// Parses the text of a maps file; lines that do not parse are skipped.
std::vector<MapsEntry> parse_maps(std::string_view text);

// A file as the kernel knows it: its inode number and its file system's
// device, the kernel's dev_t (major << 20 | minor) that BPF reads from the
// inode's super block.
struct FileIdentity {
    uint64_t inode = 0;
    uint64_t device = 0;
    auto operator<=>(const FileIdentity &) const = default;
};

// The kernel's dev_t (major << 20 | minor) of a stat()'s st_dev.
uint64_t kernel_device(dev_t device);
// The identity of the file `path` leads to, if it can be stat()ed.
std::optional<FileIdentity> file_identity(const std::string &path);

// One file mapped into a process.
struct ProcessModule {
    std::string path; // as the process maps it: "/usr/lib/x86_64-linux-gnu/libc.so.6"
    // Where dtx opens the file: `path` itself, or the same file (same inode)
    // reached through /proc/PID/root (a process with another root or mount
    // namespace) or /proc/PID/map_files (a file deleted or replaced since it
    // was mapped). Those /proc paths only open while the process lives.
    std::string open_path;
    bool main_executable = false; // "a.out"
    uint64_t inode = 0;
    uint64_t device = 0; // the kernel's dev_t, as FileIdentity's; 0 unknown
    // Its mappings in the process: file offset -> address. Empty for modules
    // of a command not yet started (found from the files, not from maps).
    std::vector<MapsEntry> mappings;

    // The module's name in probe descriptions and stack frames: the basename
    // of `path` ("libc.so.6", "python3.11").
    std::string name() const;
    // Whether the module field `pattern` (a glob) names it: "a.out" for the
    // main executable, its basename, or its full path.
    bool matches(std::string_view pattern) const;
    // The run-time address of file offset `offset`, if mapped.
    std::optional<uint64_t> address_of_offset(uint64_t offset) const;
    // The file offset of run-time address `address`, if mapped.
    std::optional<uint64_t> offset_of_address(uint64_t address) const;
};

// The module of the file process `pid` maps at [start, end), read through
// /proc/PID/map_files while the mapping lives: its path (as the process's
// maps name it), where to open it, and that one mapping (file offset
// `offset` at `start`, executable). Nothing once the mapping or the process
// is gone.
std::optional<ProcessModule> read_mapped_module(pid_t pid, uint64_t start, uint64_t end,
                                                uint64_t offset);

// The modules of running process `pid` (from /proc/PID/maps, paths seen
// through /proc/PID/root when the process has another root). Executable
// mappings only name a module; the main executable comes first. Errors name
// the pid: "pid 123: No such process".
Result<std::vector<ProcessModule>> read_process_modules(pid_t pid);

// The dynamic loader `executable` names (its PT_INTERP), if it has one.
std::optional<std::string> executable_interpreter(const std::string &executable);

// The modules a process running `executable` will have once the dynamic
// linker has loaded its libraries: the executable first, then its libraries.
// A library that cannot be found is left out.
Result<std::vector<ProcessModule>> predict_executable_modules(const std::string &executable);

} // namespace dtx::trace

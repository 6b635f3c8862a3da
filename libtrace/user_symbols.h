// Names for user-space addresses (ustack(), usym(), ufunc(), umod(),
// uaddr(), %A): "libc.so.6`malloc+0x12", "dtx-test-prog`main", and
// "libfoo.so`0x1a2b" (the address's offset in the module's file as the
// module's link-time address, what addr2line takes) when no symbol covers
// it; "0x7f..." when no module does.
//
// A process's maps are read on first need and kept, so addresses of a
// process that has exited by the time they are printed (aggregations printed
// at the end) still resolve when remember() was called while it lived: the
// code generator makes every program that captures user addresses announce
// each new pid to the consumer, which calls remember() at once. An address
// outside the modules known for a live process rereads its maps (dlopen);
// what a reread no longer finds mapped is kept beneath what it finds (a
// library dlclose()d still names the addresses recorded in it).
//
// Processes too short-lived for their maps to be read, and libraries loaded
// and unloaded between two reads, are known from the program itself:
// ustack()'s walk tells each file mapping it goes through once (learn()),
// by its file's identity, and the file is opened then, or found where a
// file of that identity was seen before. Files are kept by identity, read
// once, so an address is named from what its file was when it was recorded.
//
// Long runs see thousands of processes come and go: the session sweeps
// exited ones every few seconds (exited_processes(), keep_only()), keeping
// of each only the modules that aggregation keys still name.
#pragma once

#include "libtrace/attach.h"
#include "libtrace/elf_file.h"
#include "libtrace/process_modules.h"

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtx::trace {

class UserSymbols {
public:
    explicit UserSymbols(std::shared_ptr<ElfFileCache> files);

    // Reads `pid`'s maps now (no-op when already known), so its addresses
    // resolve after it exits.
    void remember(pid_t pid);
    // Reads `pid`'s maps again, as they are now: a -c command's at its exit,
    // when all it loaded is mapped (it may have been remembered at its first
    // instructions, before the dynamic linker mapped its libraries).
    void reread(pid_t pid);
    // `pid` maps the file `file` at [start, end), file offset `offset` at
    // `start`, as the program found while the mapping lived; a mapping of
    // another file known to overlap it is gone.
    void learn(pid_t pid, uint64_t start, uint64_t end, uint64_t offset, const FileIdentity &file);
    // A path that led to the file of identity `file` when it was seen.
    std::optional<std::string> known_path(const FileIdentity &file);

    // "module`function+0x10", "module`function", "module`0x1a2b", "0x7f12...".
    std::string format(pid_t pid, uint64_t address);
    // ufunc(): "module`function" without offset; as format() without a symbol.
    std::string function(pid_t pid, uint64_t address);
    // umod(): the module's name, or "0x..." when unknown.
    std::string module(pid_t pid, uint64_t address);

    // Remembered processes that have exited (or whose pid now names another
    // process), each returned once, by the call after the one that first
    // found it gone: records it wrote before exiting have been consumed by
    // then, as the session calls it seconds apart.
    std::vector<pid_t> exited_processes();
    // Keeps of exited process `pid` only the modules holding one of
    // `addresses` (what aggregation keys still name): with none, its
    // addresses print as hex from now on. A process with its pid that is
    // remembered afterwards is read afresh; the kept modules still name the
    // addresses that no module of the new process holds.
    void keep_only(pid_t pid, const std::set<uint64_t> &addresses);
    // Processes whose modules are kept, exited ones included.
    size_t process_count();

private:
    struct Process {
        std::vector<ProcessModule> modules;
        uint64_t start_time = 0; // /proc/PID/stat's, telling a reused pid apart; 0 unknown
        bool gone = false;       // found exited by exited_processes()
    };
    // A file seen mapped: its name, where it opens, held open, and what it
    // holds (null until first needed, or when it did not read). Held open,
    // it is read when an address in it is first named, long after the
    // mapping (a /proc/PID path's) or the file itself may be gone.
    struct KnownFile {
        std::string path;      // as the process named it
        std::string open_path; // where it opens (a /proc path only while mapped)
        UniqueFd held;
        std::shared_ptr<const ElfFile> file;
        bool read = false; // reading it was tried
    };
    struct Resolved {
        const ProcessModule *module = nullptr;
        std::shared_ptr<const ElfFile> file;
        const ElfFunction *function = nullptr;
        uint64_t link_address = 0; // the address as the file's symbols see it
    };
    Resolved resolve(pid_t pid, uint64_t address);
    const Process &process(pid_t pid, bool reread);
    // Notes where the modules' files were seen; opens those that only open
    // while their process maps them.
    void note_files(const std::vector<ProcessModule> &modules);
    bool may_reread(pid_t pid, uint64_t address);
    std::shared_ptr<const ElfFile> file_of(const ProcessModule &module);

    std::shared_ptr<ElfFileCache> files_;
    std::mutex mutex_;
    // The processes as last read, until they exit and are swept; then the
    // modules kept of them, by pid.
    std::map<pid_t, Process> processes_;
    std::map<pid_t, std::vector<ProcessModule>> exited_;
    // Every file seen mapped, by identity: a frame costs no stat(), and
    // files reached through /proc/PID stay readable after the process exits
    // (they are opened when seen).
    std::map<FileIdentity, KnownFile> files_seen_;
    size_t files_held_ = 0; // of files_seen_, at most kMaxHeldFiles
    // Per pid, the pages of addresses that missed its modules and made its
    // maps be read again: once per page, a few pages per pid at most.
    std::map<pid_t, std::set<uint64_t>> reread_pages_;
};

} // namespace dtx::trace

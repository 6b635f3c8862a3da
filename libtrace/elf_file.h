// What dtx needs from an executable or shared library on disk (libelf): its
// function symbols, for naming uprobe sites (pid provider) and for naming user
// addresses (ustack(), usym()); the conversion between link-time virtual
// addresses and the file offsets uprobes take; and its USDT probes
// (.note.stapsdt, usdt_note.h).
//
// Function symbols come from .symtab and .dynsym together (a stripped binary
// has only .dynsym), plus one "NAME@plt" symbol per PLT stub of an executable
// (the local call site of a library function: tracing malloc@plt in a.out
// traces only a.out's calls). When the file has a separate debug file (by
// build-id under /usr/lib/debug/.build-id, or by .gnu_debuglink next to the
// file, in its .debug directory or under /usr/lib/debug), that file's .symtab
// adds the local functions the stripped file lacks. A symbol without size
// (hand-written assembly, crtstuff) is taken to reach the next symbol, but not
// past the end of its function as .eh_frame's FDEs tell it, nor over a
// function that only .eh_frame knows of: a stripped library's static
// functions are in no symbol table.
//
// Names are kept without their symbol version ("malloc", not
// "malloc@@GLIBC_2.2.5"); the version is kept beside the name.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

typedef struct Elf Elf; // libelf's descriptor of an open file (<libelf.h>)

namespace dtx::trace {

struct ElfFunction {
    std::string name;     // without version: "malloc", "main", "malloc@plt"
    std::string version;  // "GLIBC_2.2.5"; empty when unversioned
    uint64_t address = 0; // st_value: link-time virtual address
    uint64_t size = 0;    // 0 when the symbol table does not say
    enum class Binding : uint8_t { Global, Weak, Local } binding = Binding::Global;
    bool plt_stub = false; // a PLT entry ("malloc@plt") of this executable
    // `version` is the default one, what new links bind to ("malloc@@V");
    // false for an older, hidden version ("memcpy@GLIBC_2.2.5").
    bool default_version = false;
};

// One PT_LOAD segment.
struct ElfSegment {
    uint64_t vaddr = 0, memsz = 0, offset = 0, filesz = 0;
    bool executable = false;
};

// The PT_LOAD segments of a file open in libelf, in program-header order.
std::vector<ElfSegment> read_load_segments(Elf *elf);
// The segment that maps `vaddr` from the file (not from its zero-filled
// tail); nullptr when none does.
const ElfSegment *file_segment_of(std::span<const ElfSegment> segments, uint64_t vaddr);

class ElfFile {
public:
    // Reads `path`. The error names the file and the reason:
    // "/no/such: No such file or directory", "/etc/passwd: not an ELF file".
    static Result<std::shared_ptr<const ElfFile>> open(const std::string &path);

    const std::string &path() const { return path_; }
    // e_type == ET_DYN: a shared library or a PIE executable, loaded at a
    // bias chosen at run time; false for ET_EXEC (fixed addresses).
    bool position_independent() const { return position_independent_; }
    // The GNU build-id as lower-case hex; empty when the file has none.
    const std::string &build_id() const { return build_id_; }
    std::span<const ElfSegment> segments() const { return segments_; }

    // Every function symbol with a nonzero address, sorted by address; where
    // several names share an address (aliases: malloc, __libc_malloc) all are
    // kept, the preferred name first, as dtrace ranks them (global or weak
    // before local; then not starting with '$'; then the fewest leading
    // underscores; then the smallest size; then the first in byte order).
    std::span<const ElfFunction> functions() const { return functions_; }

    // The functions named `name` (a version suffix "@@V"/"@V" in `name`
    // restricts to that version). Several when local functions of different
    // objects share a name.
    std::vector<const ElfFunction *> find(std::string_view name) const;

    // The address of the defined symbol `name` of any type (a variable, a
    // USDT semaphore) in .symtab or .dynsym; nullopt when there is none. For
    // the rip-relative operands of USDT arguments (8@counter(%rip)). Reads
    // the file again on each call: only probe compilation needs it.
    std::optional<uint64_t> data_symbol(std::string_view name) const;

    // The preferred function whose [address, address + size) contains `vaddr`
    // (or, for symbols without size, the nearest one below it in the same
    // executable segment, unless .eh_frame says that function ends before
    // `vaddr` or another begins between them); nullptr when none does.
    const ElfFunction *function_at(uint64_t vaddr) const;

    // The file offset of link-time virtual address `vaddr` (PT_LOAD segments),
    // as uprobes take it; nullopt when no segment maps it from the file.
    std::optional<uint64_t> file_offset(uint64_t vaddr) const;
    // The link-time virtual address of file offset `offset`, the inverse.
    std::optional<uint64_t> vaddr_of_offset(uint64_t offset) const;

    // The raw section contents of `name` (".note.stapsdt"), with the
    // section's address; nullopt when absent. Valid while the file lives.
    struct Section {
        uint64_t address = 0;
        std::span<const std::byte> data;
    };
    std::optional<Section> section(std::string_view name) const;

    ~ElfFile();
    ElfFile(const ElfFile &) = delete;
    ElfFile &operator=(const ElfFile &) = delete;

private:
    ElfFile() = default;
    friend struct ElfFileLoader;

    std::string path_;
    bool position_independent_ = false;
    std::string build_id_;
    std::vector<ElfSegment> segments_;
    std::vector<ElfFunction> functions_;
    // Per function: the end of the range it covers (address + size, or up to
    // the next symbol or .eh_frame boundary for one without size) and the
    // highest such end of it and every function before it, so that
    // function_at() can stop looking back once no earlier function reaches
    // the address.
    struct Coverage {
        uint64_t end = 0, reach = 0;
    };
    std::vector<Coverage> coverage_;
    struct SectionCopy {
        std::string name;
        uint64_t address = 0;
        std::vector<std::byte> bytes;
    };
    std::vector<SectionCopy> sections_; // the few sections dtx reads (notes)
};

// Parsed files by identity (device, inode, size, mtime), so a library that
// many modules, processes and probes name is read once per session. Thread safe.
// Whether the ELF file at `path` has a section named `name` (".note.stapsdt"),
// from its section headers alone: much cheaper than ElfFile::open(), which
// reads the symbol tables, for sorting many files. False when it cannot be read.
bool elf_file_has_section(const std::string &path, std::string_view name);

class ElfFileCache {
public:
    Result<std::shared_ptr<const ElfFile>> get(const std::string &path);

private:
    struct Key {
        dev_t device;
        ino_t inode;
        off_t size;
        int64_t mtime_ns;
        auto operator<=>(const Key &) const = default;
    };
    std::mutex mutex_;
    std::vector<std::pair<Key, std::shared_ptr<const ElfFile>>> files_;
};

} // namespace dtx::trace

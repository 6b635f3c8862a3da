// Kernel symbols from /proc/kallsyms: address -> "module`symbol+0x12" for
// stack(), %a and sym(), and name -> address for probes and `symbol references.
//
// /proc/kallsyms has one line per symbol, "ADDRESS TYPE NAME" with an optional
// "\t[MODULE]" for symbols of loadable modules (and of pseudo modules such as
// [bpf] and [__builtin__ftrace]). It is not sorted, it has no symbol sizes, and
// several names may share one address. So a symbol here extends from its
// address to the next higher symbol address; the last symbol of the table
// covers only its own address. Absolute symbols ('A') are left out: their
// values are not addresses. Where names share an address, resolve() names
// the preferred one: global before weak before local, then the name with the
// fewest leading underscores, then the first in the file.
//
// With kernel.kptr_restrict in force (or without CAP_SYSLOG) every address
// reads as zero; loading then fails and says so rather than naming everything
// after the first symbol.
#pragma once

#include "libtrace/error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

// One symbol and where an address falls in it. The views point into the
// KernelSymbolTable that produced it and live as long as the table.
struct KernelSymbol {
    std::string_view name;
    std::string_view module; // "vmlinux" for the kernel image, else the [module] name
    uint64_t start = 0;      // the symbol's address
    uint64_t offset = 0;     // address - start, for resolve(); 0 for lookups
    char type = 0;           // the kallsyms type letter ('T', 't', 'D', ...)
};

class KernelSymbolTable {
public:
    // The symbols of TEXT, in /proc/kallsyms format. Lines that do not parse are
    // skipped. An error says which text and why, e.g. "/proc/kallsyms: kernel
    // symbol addresses are hidden (all read as zero): kernel.kptr_restrict is
    // 2; ...", `source` naming the text.
    static Result<KernelSymbolTable> parse(std::string text,
                                           std::string_view source = "/proc/kallsyms");
    // Reads and parses `path` (one read of the whole file).
    static Result<KernelSymbolTable> load(const std::string &path = "/proc/kallsyms");

    KernelSymbolTable(KernelSymbolTable &&) noexcept;
    KernelSymbolTable &operator=(KernelSymbolTable &&) noexcept;
    ~KernelSymbolTable();

    // The symbol containing `address`, with the offset into it.
    std::optional<KernelSymbol> resolve(uint64_t address) const;
    // DTrace's spelling of an address, as in stack() frames and %a:
    // "vmlinux`vfs_read+0x12", "vmlinux`vfs_read" at offset 0, "0xffffffffc0001234"
    // when no symbol contains it.
    std::string format(uint64_t address) const;
    // The symbol called `name` (in `module` when given). Where several share the
    // name (static functions), a global one wins, then the lowest address.
    std::optional<KernelSymbol> find(std::string_view name, std::string_view module = {}) const;
    // find()'s address.
    std::optional<uint64_t> lookup(std::string_view name, std::string_view module = {}) const;

    std::size_t size() const noexcept;

private:
    struct Data;
    explicit KernelSymbolTable(std::unique_ptr<Data> data);
    std::unique_ptr<Data> data_;
};

// The kernel's symbol table, read from /proc/kallsyms on first use and kept
// (one per session: no process-wide cache). Safe to use from several threads.
class KernelSymbols {
public:
    explicit KernelSymbols(std::string path = "/proc/kallsyms");

    // The table, loading it the first time; nullptr when it cannot be loaded
    // (error() then says why).
    const KernelSymbolTable *table() const;
    // Why table() returns nullptr (loading if not done yet); empty on success.
    const std::string &error() const;

    std::optional<KernelSymbol> resolve(uint64_t address) const;
    // As KernelSymbolTable::format(); "0x..." when the table cannot be loaded.
    std::string format(uint64_t address) const;
    std::optional<uint64_t> lookup(std::string_view name, std::string_view module = {}) const;

private:
    void load() const;

    std::string path_;
    mutable std::once_flag loaded_;
    mutable std::optional<KernelSymbolTable> table_;
    mutable std::string error_;
};

} // namespace dtx::trace

// USDT probes as systemtap's <sys/sdt.h> records them: one ELF note per probe
// site in section .note.stapsdt (owner "stapsdt", type 3), whose description
// is three addresses (the site, the link-time address of .stapsdt.base, the
// semaphore or 0) followed by three NUL-terminated strings: provider, name and
// the argument specification. When the file's .stapsdt.base section sits at
// another address than the note says (prelink), site and semaphore move by the
// difference.
//
// Each argument spec is SIZE@OPERAND separated by spaces, SIZE being the byte
// size, negative for signed values (-4@%eax). The x86-64 operands gcc and
// clang emit are registers (%rdi, %eax, %r8d, %ax, %al), memory at a register
// plus a displacement (8@-8(%rbp), 4@(%rdi)), rip-relative memory named by a
// symbol (8@sym(%rip), 4@sym+8(%rip)), indexed memory (8@16(%rax,%rdx,8),
// 4@(,%rdx,4)), and constants (4@$5, -4@$-1).
#pragma once

#include "libtrace/elf_file.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

// The x86-64 registers as offsets into the kernel's struct pt_regs, which is
// what a uprobe program's context is (r15 at 0 ... ss at 160).
enum class PtRegsOffset : uint16_t {
    R15 = 0,
    R14 = 8,
    R13 = 16,
    R12 = 24,
    Rbp = 32,
    Rbx = 40,
    R11 = 48,
    R10 = 56,
    R9 = 64,
    R8 = 72,
    Rax = 80,
    Rcx = 88,
    Rdx = 96,
    Rsi = 104,
    Rdi = 112,
    OrigRax = 120,
    Rip = 128,
    Cs = 136,
    Eflags = 144,
    Rsp = 152,
    Ss = 160,
};

struct UsdtArgument {
    enum class Kind : uint8_t {
        Constant,      // value = displacement
        Register,      // value = the register (its low `size` bytes)
        Memory,        // value = *(base + displacement)
        IndexedMemory, // value = *(base + index * scale + displacement); no base when !has_base
    };
    Kind kind = Kind::Constant;
    int8_t size = 8; // bytes: 1, 2, 4 or 8; negative when signed
    PtRegsOffset base = PtRegsOffset::Rax;
    bool has_base = true;
    PtRegsOffset index = PtRegsOffset::Rax;
    uint8_t scale = 1;
    // A byte offset, a constant's value; for rip-relative operands, relative
    // to the probe site's own link-time address (the symbol's address minus
    // the site's), since rip reads as the site's address when the probe fires.
    int64_t displacement = 0;
    // Register operands narrower than the register (%eax, %ax) read its low
    // bytes; %ah and friends read bits 8..15 (bit_shift 8).
    uint8_t bit_shift = 0;
};

struct UsdtProbe {
    std::string provider;       // as in the note: "python"
    std::string name;           // as in the note: "function__entry"
    uint64_t address = 0;       // link-time virtual address of the site (adjusted)
    uint64_t semaphore = 0;     // link-time virtual address, 0 = none
    std::string arguments_text; // the spec as written, for errors and -lv
    std::vector<UsdtArgument> arguments;
};

// Parses one argument spec list. `site` is the probe's link-time address and
// `file` resolves symbols of rip-relative operands. Errors name the operand:
// "argument 2 '8@foo(%rip)': unknown symbol 'foo'".
Result<std::vector<UsdtArgument>> parse_usdt_arguments(std::string_view spec, uint64_t site,
                                                       const ElfFile *file);

// The same with the symbols of rip-relative operands resolved by
// `symbol_address` (nullopt, or an empty function: unknown), so that tests and
// fuzzers parse specs without an ELF file. parse_usdt_arguments() passes
// ElfFile::data_symbol().
using UsdtSymbolLookup = std::function<std::optional<uint64_t>(std::string_view name)>;
Result<std::vector<UsdtArgument>>
parse_usdt_arguments_with_lookup(std::string_view spec, uint64_t site,
                                 const UsdtSymbolLookup &symbol_address);

// Every probe site of `file`, in note order. A note that does not parse is
// skipped with its reason appended to `problems` (when given).
std::vector<UsdtProbe> read_usdt_probes(const ElfFile &file,
                                        std::vector<std::string> *problems = nullptr);

// What read_usdt_probes() makes of the raw contents of a .note.stapsdt
// section, without a file: `stapsdt_base` is the address of the file's
// .stapsdt.base section (nullopt: it has none), and problems read
// "note 3: truncated" (read_usdt_probes() prefixes the file and section).
std::vector<UsdtProbe> parse_usdt_notes(std::span<const std::byte> notes,
                                        std::optional<uint64_t> stapsdt_base,
                                        const UsdtSymbolLookup &symbol_address,
                                        std::vector<std::string> *problems = nullptr);

// The note's name as D writes it: every "__" becomes "-" (function__entry
// -> function-entry).
std::string usdt_probe_name_in_d(std::string_view note_name);

} // namespace dtx::trace

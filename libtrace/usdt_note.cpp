// USDT notes and argument specs from raw bytes and text (usdt_note.h): no
// ELF file, only the symbol lookup it is given, so that tests and fuzzers can
// drive it; usdt_note_file.cpp reads them out of an ElfFile.
#include "libtrace/usdt_note.h"

#include "libtrace/hex.h"

#include <array>
#include <charconv>
#include <cstring>

namespace dtx::trace {
namespace {

struct RegisterName {
    std::string_view name; // without the '%'
    PtRegsOffset offset;   // of the 64-bit register it is part of
    uint8_t bytes;
    uint8_t bit_shift; // 8 for %ah, %bh, %ch, %dh
};

using R = PtRegsOffset;
constexpr std::array kRegisters = {
    RegisterName{"rax", R::Rax, 8, 0},  RegisterName{"eax", R::Rax, 4, 0},
    RegisterName{"ax", R::Rax, 2, 0},   RegisterName{"al", R::Rax, 1, 0},
    RegisterName{"ah", R::Rax, 1, 8},   RegisterName{"rbx", R::Rbx, 8, 0},
    RegisterName{"ebx", R::Rbx, 4, 0},  RegisterName{"bx", R::Rbx, 2, 0},
    RegisterName{"bl", R::Rbx, 1, 0},   RegisterName{"bh", R::Rbx, 1, 8},
    RegisterName{"rcx", R::Rcx, 8, 0},  RegisterName{"ecx", R::Rcx, 4, 0},
    RegisterName{"cx", R::Rcx, 2, 0},   RegisterName{"cl", R::Rcx, 1, 0},
    RegisterName{"ch", R::Rcx, 1, 8},   RegisterName{"rdx", R::Rdx, 8, 0},
    RegisterName{"edx", R::Rdx, 4, 0},  RegisterName{"dx", R::Rdx, 2, 0},
    RegisterName{"dl", R::Rdx, 1, 0},   RegisterName{"dh", R::Rdx, 1, 8},
    RegisterName{"rsi", R::Rsi, 8, 0},  RegisterName{"esi", R::Rsi, 4, 0},
    RegisterName{"si", R::Rsi, 2, 0},   RegisterName{"sil", R::Rsi, 1, 0},
    RegisterName{"rdi", R::Rdi, 8, 0},  RegisterName{"edi", R::Rdi, 4, 0},
    RegisterName{"di", R::Rdi, 2, 0},   RegisterName{"dil", R::Rdi, 1, 0},
    RegisterName{"rbp", R::Rbp, 8, 0},  RegisterName{"ebp", R::Rbp, 4, 0},
    RegisterName{"bp", R::Rbp, 2, 0},   RegisterName{"bpl", R::Rbp, 1, 0},
    RegisterName{"rsp", R::Rsp, 8, 0},  RegisterName{"esp", R::Rsp, 4, 0},
    RegisterName{"sp", R::Rsp, 2, 0},   RegisterName{"spl", R::Rsp, 1, 0},
    RegisterName{"r8", R::R8, 8, 0},    RegisterName{"r8d", R::R8, 4, 0},
    RegisterName{"r8w", R::R8, 2, 0},   RegisterName{"r8b", R::R8, 1, 0},
    RegisterName{"r9", R::R9, 8, 0},    RegisterName{"r9d", R::R9, 4, 0},
    RegisterName{"r9w", R::R9, 2, 0},   RegisterName{"r9b", R::R9, 1, 0},
    RegisterName{"r10", R::R10, 8, 0},  RegisterName{"r10d", R::R10, 4, 0},
    RegisterName{"r10w", R::R10, 2, 0}, RegisterName{"r10b", R::R10, 1, 0},
    RegisterName{"r11", R::R11, 8, 0},  RegisterName{"r11d", R::R11, 4, 0},
    RegisterName{"r11w", R::R11, 2, 0}, RegisterName{"r11b", R::R11, 1, 0},
    RegisterName{"r12", R::R12, 8, 0},  RegisterName{"r12d", R::R12, 4, 0},
    RegisterName{"r12w", R::R12, 2, 0}, RegisterName{"r12b", R::R12, 1, 0},
    RegisterName{"r13", R::R13, 8, 0},  RegisterName{"r13d", R::R13, 4, 0},
    RegisterName{"r13w", R::R13, 2, 0}, RegisterName{"r13b", R::R13, 1, 0},
    RegisterName{"r14", R::R14, 8, 0},  RegisterName{"r14d", R::R14, 4, 0},
    RegisterName{"r14w", R::R14, 2, 0}, RegisterName{"r14b", R::R14, 1, 0},
    RegisterName{"r15", R::R15, 8, 0},  RegisterName{"r15d", R::R15, 4, 0},
    RegisterName{"r15w", R::R15, 2, 0}, RegisterName{"r15b", R::R15, 1, 0},
    RegisterName{"rip", R::Rip, 8, 0},
};

// `%name` (with the '%'), or the error naming it.
Result<const RegisterName *> parse_register(std::string_view text) {
    if (text.starts_with('%'))
        for (const RegisterName &reg : kRegisters)
            if (text.substr(1) == reg.name)
                return &reg;
    return failure("unknown register '" + std::string(text) + "'");
}

// A decimal or 0x-hexadecimal integer with an optional sign, all of `text`.
// Values wrap to 64 bits as the assembler's do (0xffffffffffffffff is -1).
std::optional<int64_t> parse_integer(std::string_view text) {
    bool negative = false;
    if (text.starts_with('-') || text.starts_with('+')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    uint64_t magnitude = 0;
    const char *end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, magnitude, base);
    if (text.empty() || error != std::errc() || stop != end)
        return std::nullopt;
    return static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
}

bool is_symbol_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.';
}

bool is_symbol_char(char c) {
    return is_symbol_start(c) || (c >= '0' && c <= '9') || c == '$';
}

// `sym`, `sym+N` or `sym-N`: the symbol's link-time address plus N.
Result<uint64_t> parse_symbol_address(std::string_view text,
                                      const UsdtSymbolLookup &symbol_address) {
    size_t name_end = 0;
    while (name_end < text.size() && is_symbol_char(text[name_end]))
        name_end++;
    std::string_view name = text.substr(0, name_end);
    std::string_view addend_text = text.substr(name_end);
    std::optional<int64_t> addend = addend_text.empty() ? 0 : parse_integer(addend_text);
    if (name.empty() || !is_symbol_start(name.front()) || !addend ||
        !(addend_text.empty() || addend_text.starts_with('+') || addend_text.starts_with('-')))
        return failure("bad displacement '" + std::string(text) + "'");
    std::optional<uint64_t> address = symbol_address ? symbol_address(name) : std::nullopt;
    if (!address)
        return failure("unknown symbol '" + std::string(name) + "'");
    return *address + static_cast<uint64_t>(*addend);
}

// `$5`, `$-1`, `$0x10`; or `$sym`, a symbol's address as an immediate, which
// only code at fixed addresses (not PIE) can have, so its link-time address
// is its run-time one.
Result<UsdtArgument> parse_constant(std::string_view text, UsdtArgument argument,
                                    const UsdtSymbolLookup &symbol_address) {
    argument.kind = UsdtArgument::Kind::Constant;
    if (std::optional<int64_t> value = parse_integer(text.substr(1))) {
        argument.displacement = *value;
        return argument;
    }
    if (text.size() < 2 || !is_symbol_start(text[1]))
        return failure("bad constant '" + std::string(text) + "'");
    auto address = parse_symbol_address(text.substr(1), symbol_address);
    if (!address)
        return std::move(address).error();
    argument.displacement = static_cast<int64_t>(*address);
    return argument;
}

// An address register: a 64-bit one, as x86-64 code addresses memory with.
Result<PtRegsOffset> parse_address_register(std::string_view text) {
    auto reg = parse_register(text);
    if (!reg)
        return std::move(reg).error();
    const RegisterName *name = *reg;
    if (name->bytes != 8)
        return failure("address register '" + std::string(text) + "' is not 64-bit");
    return name->offset;
}

// DISP(%base), DISP(%base,%index,scale), DISP(,%index,scale) with optional
// DISP and scale; DISP is a number or, for %rip and for code at fixed
// addresses, sym, sym+N or sym-N.
Result<UsdtArgument> parse_memory(std::string_view text, uint64_t site, UsdtArgument argument,
                                  const UsdtSymbolLookup &symbol_address) {
    size_t open = text.find('(');
    if (open == std::string_view::npos || !text.ends_with(')'))
        return failure("unsupported operand");
    std::string_view displacement_text = text.substr(0, open);
    std::string_view inside = text.substr(open + 1, text.size() - open - 2);

    std::array<std::string_view, 3> parts;
    size_t count = 0;
    for (;;) {
        size_t comma = inside.find(',');
        if (count == parts.size())
            return failure("unsupported operand");
        parts[count++] = inside.substr(0, comma);
        if (comma == std::string_view::npos)
            break;
        inside.remove_prefix(comma + 1);
    }

    argument.kind = count == 1 ? UsdtArgument::Kind::Memory : UsdtArgument::Kind::IndexedMemory;
    argument.has_base = !parts[0].empty();
    if (argument.has_base) {
        auto base = parse_address_register(parts[0]);
        if (!base)
            return std::move(base).error();
        argument.base = *base;
    } else if (count == 1) {
        return failure("unsupported operand");
    }
    bool rip_relative = argument.has_base && argument.base == PtRegsOffset::Rip;
    if (count > 1) {
        auto index = parse_address_register(parts[1]);
        if (!index)
            return std::move(index).error();
        argument.index = *index;
        if (argument.index == PtRegsOffset::Rip || argument.index == PtRegsOffset::Rsp ||
            rip_relative)
            return failure("unsupported operand");
    }
    if (count == 3) {
        std::optional<int64_t> scale = parse_integer(parts[2]);
        if (!scale || (*scale != 1 && *scale != 2 && *scale != 4 && *scale != 8))
            return failure("bad scale '" + std::string(parts[2]) + "' (must be 1, 2, 4 or 8)");
        argument.scale = static_cast<uint8_t>(*scale);
    }

    if (displacement_text.empty())
        argument.displacement = 0;
    else if (std::optional<int64_t> number = parse_integer(displacement_text))
        // A number N(%rip) counts, as in an instruction, from the next
        // instruction's address, which is the site's plus one: the probe
        // site is a one-byte nop.
        argument.displacement =
            rip_relative ? static_cast<int64_t>(static_cast<uint64_t>(*number) + 1) : *number;
    else {
        auto address = parse_symbol_address(displacement_text, symbol_address);
        if (!address)
            return std::move(address).error();
        // rip reads as the site's address when the probe fires, so the
        // displacement is the symbol's distance from the site, which loading
        // at a bias does not change. Without %rip the symbol's address is
        // absolute, which only code at fixed addresses (not PIE) has.
        uint64_t symbol = *address;
        argument.displacement = static_cast<int64_t>(rip_relative ? symbol - site : symbol);
    }
    return argument;
}

// [-]SIZE@OPERAND, or an old note's bare OPERAND (8 bytes, unsigned). An
// error says why, without the "argument N '...': " its caller adds.
Result<UsdtArgument> parse_argument(std::string_view text, uint64_t site,
                                    const UsdtSymbolLookup &symbol_address) {
    UsdtArgument argument;
    std::string_view operand = text;
    size_t at = text.find('@');
    std::string_view size_text = text.substr(0, at == std::string_view::npos ? 0 : at);
    bool has_size = !size_text.empty() &&
                    size_text.find_first_not_of("0123456789", size_text.starts_with('-') ? 1 : 0) ==
                        std::string_view::npos;
    if (has_size) {
        bool is_signed = size_text.starts_with('-');
        std::string_view digits = size_text.substr(is_signed ? 1 : 0);
        unsigned bytes = 0;
        std::errc error = std::from_chars(digits.data(), digits.data() + digits.size(), bytes).ec;
        if (error != std::errc() || (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8))
            return failure("size must be 1, 2, 4 or 8 (negative when signed)");
        argument.size = static_cast<int8_t>(is_signed ? -static_cast<int>(bytes) : bytes);
        operand = text.substr(at + 1);
    }

    if (operand.starts_with('%')) {
        auto reg = parse_register(operand);
        if (!reg)
            return std::move(reg).error();
        const RegisterName *name = *reg;
        argument.kind = UsdtArgument::Kind::Register;
        argument.base = name->offset;
        argument.bit_shift = name->bit_shift;
        return argument;
    }
    if (operand.starts_with('$'))
        return parse_constant(operand, argument, symbol_address);
    return parse_memory(operand, site, argument, symbol_address);
}

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n';
}

constexpr uint32_t kStapsdtNoteType = 3;
// The note's owner with its terminating NUL, as namesz counts it.
constexpr std::string_view kStapsdtOwner{"stapsdt", sizeof("stapsdt")};
// An ELF64 description starts with the site, base and semaphore addresses.
constexpr size_t kAddressesSize = 3 * sizeof(uint64_t);

template <typename Integer>
Integer read_integer(std::span<const std::byte> bytes, size_t offset) {
    Integer value;
    std::memcpy(&value, bytes.data() + offset, sizeof(value));
    return value;
}

size_t align4(size_t size) {
    return (size + 3) & ~size_t{3};
}

// The NUL-terminated string at `offset` of `text`, moving `offset` past its
// NUL; nullopt when it has none.
std::optional<std::string_view> next_string(std::string_view text, size_t &offset) {
    size_t nul = text.find('\0', offset);
    if (nul == std::string_view::npos)
        return std::nullopt;
    std::string_view string = text.substr(offset, nul - offset);
    offset = nul + 1;
    return string;
}

} // namespace

Result<std::vector<UsdtArgument>>
parse_usdt_arguments_with_lookup(std::string_view spec, uint64_t site,
                                 const UsdtSymbolLookup &symbol_address) {
    std::vector<UsdtArgument> arguments;
    size_t position = 0;
    while (position < spec.size()) {
        if (is_space(spec[position])) {
            position++;
            continue;
        }
        size_t end = position;
        while (end < spec.size() && !is_space(spec[end]))
            end++;
        std::string_view text = spec.substr(position, end - position);
        position = end;
        Result<UsdtArgument> argument = parse_argument(text, site, symbol_address);
        if (!argument)
            return argument.error().prefixed("argument " + std::to_string(arguments.size() + 1) +
                                             " '" + std::string(text) + "'");
        arguments.push_back(*argument);
    }
    return arguments;
}

std::vector<UsdtProbe> parse_usdt_notes(std::span<const std::byte> data,
                                        std::optional<uint64_t> stapsdt_base,
                                        const UsdtSymbolLookup &symbol_address,
                                        std::vector<std::string> *problems) {
    std::vector<UsdtProbe> probes;

    size_t number = 0; // of the note, from 1, for problems
    auto skip = [&](const std::string &reason) {
        if (problems)
            problems->push_back("note " + std::to_string(number) + ": " + reason);
    };

    // Each note: namesz, descsz and type (4 bytes each), then the name and
    // the description, each padded to 4 bytes.
    size_t offset = 0;
    while (data.size() - offset >= 12) {
        number++;
        uint32_t name_size = read_integer<uint32_t>(data, offset);
        uint32_t desc_size = read_integer<uint32_t>(data, offset + 4);
        uint32_t type = read_integer<uint32_t>(data, offset + 8);
        size_t name_offset = offset + 12;
        size_t desc_offset = name_offset + align4(name_size);
        if (desc_offset > data.size() || data.size() - desc_offset < desc_size) {
            skip("truncated");
            break;
        }
        offset = std::min(desc_offset + align4(desc_size), data.size());

        std::string_view owner(reinterpret_cast<const char *>(data.data() + name_offset),
                               name_size);
        // Other owners' notes do not describe probes; the section should
        // have none, and they are no error.
        if (owner != kStapsdtOwner || type != kStapsdtNoteType)
            continue;
        if (desc_size < kAddressesSize) {
            skip("description too short");
            continue;
        }
        UsdtProbe probe;
        probe.address = read_integer<uint64_t>(data, desc_offset);
        uint64_t note_base = read_integer<uint64_t>(data, desc_offset + 8);
        probe.semaphore = read_integer<uint64_t>(data, desc_offset + 16);

        std::string_view desc(reinterpret_cast<const char *>(data.data() + desc_offset), desc_size);
        size_t string_offset = kAddressesSize;
        std::optional<std::string_view> provider = next_string(desc, string_offset);
        std::optional<std::string_view> name =
            provider ? next_string(desc, string_offset) : std::nullopt;
        std::optional<std::string_view> arguments =
            name ? next_string(desc, string_offset) : std::nullopt;
        if (!arguments) {
            skip("provider, name and arguments are not NUL-terminated strings");
            continue;
        }
        if (provider->empty() || name->empty()) {
            skip("no provider or probe name");
            continue;
        }
        probe.provider = *provider;
        probe.name = *name;
        probe.arguments_text = *arguments;

        // Unsigned arithmetic wraps, so a section moved down works as well.
        if (stapsdt_base) {
            probe.address += *stapsdt_base - note_base;
            if (probe.semaphore != 0)
                probe.semaphore += *stapsdt_base - note_base;
        }

        auto parsed =
            parse_usdt_arguments_with_lookup(probe.arguments_text, probe.address, symbol_address);
        if (!parsed) {
            skip("probe " + probe.provider + ":" + probe.name + " at " + hex(probe.address) + ": " +
                 parsed.error().message);
            continue;
        }
        probe.arguments = std::move(*parsed);
        probes.push_back(std::move(probe));
    }
    return probes;
}

std::string usdt_probe_name_in_d(std::string_view note_name) {
    std::string name;
    for (size_t i = 0; i < note_name.size(); i++) {
        if (note_name.substr(i, 2) == "__") {
            name += '-';
            i++;
        } else {
            name += note_name[i];
        }
    }
    return name;
}

} // namespace dtx::trace

#include "libtrace/fde_ranges.h"

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace dtx::trace {

namespace {

// Reads the DW_EH_PE-encoded value at `at` and advances `at` past it.
// Pc-relative values are relative to `field_address`, where `at` is loaded.
// nullopt when the data ends first or the encoding is one that FDEs on Linux
// do not use (text-, data-, function-relative, aligned, indirect).
std::optional<uint64_t> read_encoded(const uint8_t *&at, const uint8_t *end, uint8_t encoding,
                                     uint64_t field_address, std::size_t address_size) {
    auto fixed = [&at, end](auto value) -> std::optional<uint64_t> {
        if (static_cast<std::size_t>(end - at) < sizeof(value))
            return std::nullopt;
        std::memcpy(&value, at, sizeof(value));
        at += sizeof(value);
        // Signed types sign-extend, unsigned ones zero-extend.
        return static_cast<uint64_t>(static_cast<int64_t>(value));
    };
    auto leb128 = [&at, end](bool is_signed) -> std::optional<uint64_t> {
        uint64_t value = 0;
        for (unsigned shift = 0; at < end; shift += 7) {
            const uint8_t byte = *at++;
            if (shift < 64)
                value |= uint64_t{byte & 0x7fu} << shift;
            if (!(byte & 0x80)) {
                if (is_signed && (byte & 0x40) && shift + 7 < 64)
                    value |= ~uint64_t{0} << (shift + 7);
                return value;
            }
        }
        return std::nullopt;
    };
    std::optional<uint64_t> value;
    switch (encoding & 0x0f) {
    case DW_EH_PE_absptr:
        value = address_size == 4 ? fixed(uint32_t{}) : fixed(uint64_t{});
        break;
    case DW_EH_PE_uleb128:
        value = leb128(false);
        break;
    case DW_EH_PE_udata2:
        value = fixed(uint16_t{});
        break;
    case DW_EH_PE_udata4:
        value = fixed(uint32_t{});
        break;
    case DW_EH_PE_udata8:
        value = fixed(uint64_t{});
        break;
    case DW_EH_PE_sleb128:
        value = leb128(true);
        break;
    case DW_EH_PE_sdata2:
        value = fixed(int16_t{});
        break;
    case DW_EH_PE_sdata4:
        value = fixed(int32_t{});
        break;
    case DW_EH_PE_sdata8:
        value = fixed(int64_t{});
        break;
    default:
        return std::nullopt;
    }
    if (!value)
        return std::nullopt;
    switch (encoding & 0xf0) {
    case DW_EH_PE_absptr:
        return value;
    case DW_EH_PE_pcrel:
        return field_address + *value;
    default:
        return std::nullopt;
    }
}

// How the FDEs of CIE `cie` encode their addresses: its 'R' augmentation,
// else absolute. nullopt for an augmentation not understood, which leaves
// where the FDE's fields start unknown.
std::optional<uint8_t> fde_encoding(const Dwarf_CIE &cie, std::size_t address_size) {
    const std::string_view augmentation = cie.augmentation ? cie.augmentation : "";
    if (augmentation.empty())
        return DW_EH_PE_absptr;
    if (augmentation[0] != 'z')
        return std::nullopt;
    const uint8_t *at = cie.augmentation_data;
    const uint8_t *end = at ? at + cie.augmentation_data_size : nullptr;
    for (char letter : augmentation.substr(1)) {
        switch (letter) {
        case 'R':
            if (at >= end)
                return std::nullopt;
            return *at;
        case 'L':
            if (at++ >= end)
                return std::nullopt;
            break;
        case 'P': { // the personality routine's encoding and address, skipped
            if (at >= end)
                return std::nullopt;
            const uint8_t encoding = *at++;
            if ((encoding & 0x70) == DW_EH_PE_aligned ||
                !read_encoded(at, end, encoding & 0x0f, 0, address_size))
                return std::nullopt;
            break;
        }
        case 'S': // signal frame
        case 'B': // AArch64 B key
        case 'G': // MTE-tagged frame
            break;
        default:
            return std::nullopt;
        }
    }
    return DW_EH_PE_absptr;
}

} // namespace

void for_each_fde(const unsigned char *e_ident, Elf_Data *data, bool eh_frame,
                  uint64_t section_address, std::size_t address_size,
                  const std::function<void(std::optional<FdeRange>)> &each) {
    if (!data || !data->d_buf || !e_ident)
        return;
    const auto *bytes = static_cast<const uint8_t *>(data->d_buf);
    // By CIE offset: a CIE is read once, however many FDEs use it, wherever
    // it is (.debug_frame's may follow their FDEs).
    std::unordered_map<Dwarf_Off, std::optional<uint8_t>> encodings;
    auto encoding_of_cie = [&](Dwarf_Off cie_offset) -> std::optional<uint8_t> {
        auto [known, inserted] = encodings.try_emplace(cie_offset);
        if (inserted) {
            Dwarf_Off next = 0;
            Dwarf_CFI_Entry entry;
            if (dwarf_next_cfi(e_ident, data, eh_frame, cie_offset, &next, &entry) == 0 &&
                dwarf_cfi_cie_p(&entry))
                known->second = fde_encoding(entry.cie, address_size);
        }
        return known->second;
    };
    for (Dwarf_Off offset = 0, next = 0;; offset = next) {
        Dwarf_CFI_Entry entry;
        if (dwarf_next_cfi(e_ident, data, eh_frame, offset, &next, &entry) != 0 || next <= offset)
            break;
        if (dwarf_cfi_cie_p(&entry))
            continue;
        const std::optional<uint8_t> encoding = encoding_of_cie(entry.fde.CIE_pointer);
        if (!encoding) {
            each(std::nullopt);
            continue;
        }
        const uint8_t *at = entry.fde.start;
        const uint64_t field_address = section_address + static_cast<uint64_t>(at - bytes);
        const std::optional<uint64_t> start =
            read_encoded(at, entry.fde.end, *encoding, field_address, address_size);
        const std::optional<uint64_t> range =
            read_encoded(at, entry.fde.end, *encoding & 0x0f, 0, address_size);
        if (!start || !range) {
            each(std::nullopt);
            continue;
        }
        each(FdeRange{*start, *range > UINT64_MAX - *start ? UINT64_MAX : *start + *range});
    }
}

} // namespace dtx::trace

// The FDEs of a file are enumerated with dwarf_next_cfi(), whose entries
// leave the FDE's address range encoded (libtrace/fde_ranges.h decodes it).
// Each FDE's rows are then read from libdw, one
// dwarf_cfi_addrframe() per row: libdw runs the CIE and FDE programs again up
// to each row, but caches CIE states and finds FDEs through .eh_frame_hdr, so
// the whole of python3.11 (61,000 rows) takes ~60 ms. That is quick enough
// to leave the CFA programs' many opcodes to libdw rather than to a second
// interpreter of our own.
#include "libtrace/unwind_table.h"

#include "libtrace/elf_file.h"
#include "libtrace/fde_ranges.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace dtx::trace {

namespace {

// DWARF's x86-64 register numbers.
constexpr unsigned kRbp = 6;
constexpr unsigned kRsp = 7;
constexpr unsigned kReturnAddress = 16; // rip: the return address column

// A range of addresses [start, end) that one CFI row describes, and its
// rules (the row's offset is set once the range has a file offset).
struct CfiSpan {
    uint64_t start = 0, end = 0;
    UnwindRow rules{};
};

constexpr UnwindRow kNoRules{};

struct ElfCloser {
    void operator()(Elf *elf) const { elf_end(elf); }
};
struct CfiCloser {
    void operator()(Dwarf_CFI *cfi) const { dwarf_cfi_end(cfi); }
};
struct DwarfCloser {
    void operator()(Dwarf *dwarf) const { dwarf_end(dwarf); }
};
struct FrameFree {
    void operator()(Dwarf_Frame *frame) const { std::free(frame); }
};

template <typename T>
bool fits(int64_t value) {
    return value >= std::numeric_limits<T>::min() && value <= std::numeric_limits<T>::max();
}

// One CFI section as dwarf_next_cfi() reads it, with its link-time address
// (for pc-relative FDE addresses).
struct CfiSection {
    Elf_Data *data = nullptr;
    uint64_t address = 0;
    bool eh_frame = false;
};

// The register and offset of DW_OP_bregN or DW_OP_bregx.
std::optional<std::pair<uint64_t, int64_t>> base_register(const Dwarf_Op &op) {
    if (op.atom >= DW_OP_breg0 && op.atom <= DW_OP_breg31)
        return std::pair{uint64_t(op.atom - DW_OP_breg0), static_cast<int64_t>(op.number)};
    if (op.atom == DW_OP_bregx)
        return std::pair{op.number, static_cast<int64_t>(op.number2)};
    return std::nullopt;
}

struct CfaRule {
    uint8_t rule = kCfaNone;
    int64_t offset = 0;
    uint8_t plt_threshold = 0;
};

// The CFA rule of a row, from the expression libdw gives for it (DW_OP_bregx
// for DW_CFA_def_cfa and its kin); nullopt when it has no kCfa* form.
std::optional<CfaRule> cfa_rule(std::span<const Dwarf_Op> ops) {
    if (ops.empty())
        return std::nullopt;
    auto base = base_register(ops[0]);
    if (!base)
        return std::nullopt;
    auto [reg, offset] = *base;
    if (ops.size() == 1) {
        if (reg == kRsp)
            return CfaRule{kCfaSp, offset};
        if (reg == kRbp)
            return CfaRule{kCfaFp, offset};
        return std::nullopt;
    }
    if (reg != kRsp)
        return std::nullopt;
    // glibc's __restore_rt: the CFA is the interrupted rsp, saved in the
    // signal frame's ucontext.
    if (ops.size() == 2 && ops[1].atom == DW_OP_deref)
        return CfaRule{kCfaDerefSp, offset};
    // A PLT entry (.plt, .plt.sec): after its push (at byte K of a 16-byte
    // entry, ld's DW_OP_litK) the CFA is 8 bytes further.
    if (ops.size() == 9 &&
        base_register(ops[1]) == std::pair{uint64_t(kReturnAddress), int64_t{0}} &&
        ops[2].atom == DW_OP_lit15 && ops[3].atom == DW_OP_and && ops[4].atom >= DW_OP_lit0 &&
        ops[4].atom <= DW_OP_lit15 && ops[5].atom == DW_OP_ge && ops[6].atom == DW_OP_lit3 &&
        ops[7].atom == DW_OP_shl && ops[8].atom == DW_OP_plus)
        return CfaRule{kCfaPlt, offset, uint8_t(ops[4].atom - DW_OP_lit0)};
    return std::nullopt;
}

// Where a row says a register of the caller is.
struct SavedRegister {
    enum Kind : uint8_t { Same, Undefined, AtCfa, AtSp, Other } kind = Other;
    int64_t offset = 0;
};

SavedRegister saved_register(Dwarf_Frame *frame, int regno) {
    Dwarf_Op ops_mem[3];
    Dwarf_Op *ops = nullptr;
    std::size_t nops = 0;
    int result = dwarf_frame_register(frame, regno, ops_mem, &ops, &nops);
    if (result < 0)
        return {};
    if (nops == 0)
        return {ops ? SavedRegister::Undefined : SavedRegister::Same};
    if (result != 0) // a value, not where it is saved (DW_CFA_val_*, DW_CFA_register)
        return {};
    std::span<const Dwarf_Op> expression(ops, nops);
    if (expression[0].atom == DW_OP_call_frame_cfa) {
        if (nops == 1)
            return {SavedRegister::AtCfa, 0};
        if (nops == 2 && expression[1].atom == DW_OP_plus_uconst)
            return {SavedRegister::AtCfa, static_cast<int64_t>(expression[1].number)};
        // DW_CFA_expression: libdw puts the CFA on the stack first, as
        // DWARF says; an expression that pushes its own value ignores it.
        expression = expression.subspan(1);
    }
    if (expression.size() == 1)
        if (auto base = base_register(expression[0]); base && base->first == kRsp)
            return {SavedRegister::AtSp, base->second};
    return {};
}

// The rules of one CFI row, or kNoRules counted in `stats` when they have no
// form in UnwindRow.
UnwindRow encode_row(Dwarf_Frame *frame, int return_address_register, bool signal_frame,
                     UnwindTableStats &stats) {
    Dwarf_Op *cfa_ops = nullptr;
    std::size_t cfa_nops = 0;
    std::optional<CfaRule> cfa;
    if (dwarf_frame_cfa(frame, &cfa_ops, &cfa_nops) == 0)
        cfa = cfa_rule({cfa_ops, cfa_nops});
    if (!cfa) {
        ++stats.unsupported_cfa;
        return kNoRules;
    }
    UnwindRow row{};
    row.cfa_rule = cfa->rule;
    row.flags = uint8_t(cfa->plt_threshold << kUnwindPltThresholdShift);
    if (signal_frame)
        row.flags |= kUnwindSignalFrame;

    SavedRegister ra = return_address_register == int(kReturnAddress)
                           ? saved_register(frame, kReturnAddress)
                           : SavedRegister{};
    switch (ra.kind) {
    case SavedRegister::Undefined:
        row.ra_rule = kRaUndefined;
        break;
    case SavedRegister::AtCfa:
        row.ra_rule = kRaCfa;
        break;
    case SavedRegister::AtSp:
        row.ra_rule = kRaSp;
        break;
    default:
        ++stats.unsupported_ra;
        return kNoRules;
    }

    SavedRegister fp = saved_register(frame, kRbp);
    switch (fp.kind) {
    case SavedRegister::Same:
        row.fp_rule = kFpSame;
        break;
    case SavedRegister::AtCfa:
        row.fp_rule = kFpCfa;
        break;
    case SavedRegister::AtSp:
        row.fp_rule = kFpSp;
        break;
    default:
        ++stats.unknown_fp;
        row.fp_rule = kFpUnknown;
        fp.offset = 0;
        break;
    }

    if (!fits<int32_t>(cfa->offset) || !fits<int16_t>(ra.offset) || !fits<int16_t>(fp.offset)) {
        ++stats.out_of_range;
        return kNoRules;
    }
    row.cfa_offset = int32_t(cfa->offset);
    row.ra_offset = int16_t(ra.offset);
    row.fp_offset = int16_t(fp.offset);
    return row;
}

// The rows of the FDE for [start, end), appended to `spans`. False when
// libdw cannot read its program; the rows read so far stay.
bool read_fde_rows(Dwarf_CFI *cfi, uint64_t start, uint64_t end, std::vector<CfiSpan> &spans,
                   UnwindTableStats &stats) {
    for (uint64_t pc = start; pc < end;) {
        Dwarf_Frame *raw_frame = nullptr;
        if (dwarf_cfi_addrframe(cfi, pc, &raw_frame) != 0)
            return false;
        std::unique_ptr<Dwarf_Frame, FrameFree> frame(raw_frame);
        Dwarf_Addr row_start = 0, row_end = 0;
        bool signal_frame = false;
        int return_address_register =
            dwarf_frame_info(frame.get(), &row_start, &row_end, &signal_frame);
        if (row_end <= pc)
            return false;
        row_end = std::min<uint64_t>(row_end, end);
        spans.push_back(
            {pc, row_end, encode_row(frame.get(), return_address_register, signal_frame, stats)});
        pc = row_end;
    }
    return true;
}

// Every row of every FDE in `section`, whose programs `cfi` interprets.
std::vector<CfiSpan> read_section_rows(const unsigned char *e_ident, const CfiSection &section,
                                       Dwarf_CFI *cfi, UnwindTableStats &stats) {
    std::vector<CfiSpan> spans;
    for_each_fde(e_ident, section.data, section.eh_frame, section.address, 8,
                 [&](std::optional<FdeRange> range) {
                     ++stats.fdes;
                     if (!range || !read_fde_rows(cfi, range->start, range->end, spans, stats))
                         ++stats.unreadable_fdes;
                 });
    return spans;
}

// Sorts `spans` by address and cuts each short where an earlier one (in
// address, then in the section) already covers it, so that they are disjoint.
void make_disjoint(std::vector<CfiSpan> &spans, UnwindTableStats &stats) {
    std::stable_sort(spans.begin(), spans.end(),
                     [](const CfiSpan &a, const CfiSpan &b) { return a.start < b.start; });
    uint64_t reach = 0;
    std::size_t kept = 0;
    for (CfiSpan span : spans) {
        if (span.start < reach) {
            ++stats.overlapped;
            span.start = reach;
            if (span.start >= span.end)
                continue;
        }
        reach = span.end;
        spans[kept++] = span;
    }
    spans.resize(kept);
}

// The parts of `spans` that `covered` does not cover; both sorted and disjoint.
std::vector<CfiSpan> uncovered_parts(const std::vector<CfiSpan> &spans,
                                     const std::vector<CfiSpan> &covered) {
    std::vector<CfiSpan> parts;
    std::size_t first = 0;
    for (const CfiSpan &span : spans) {
        while (first < covered.size() && covered[first].end <= span.start)
            ++first;
        uint64_t start = span.start;
        for (std::size_t i = first; start < span.end; ++i) {
            if (i == covered.size() || covered[i].start >= span.end) {
                parts.push_back({start, span.end, span.rules});
                break;
            }
            if (covered[i].start > start)
                parts.push_back({start, covered[i].start, span.rules});
            start = std::max(start, covered[i].end);
        }
    }
    return parts;
}

bool same_rules(const UnwindRow &a, const UnwindRow &b) {
    return a.cfa_offset == b.cfa_offset && a.ra_offset == b.ra_offset &&
           a.fp_offset == b.fp_offset && a.cfa_rule == b.cfa_rule && a.ra_rule == b.ra_rule &&
           a.fp_rule == b.fp_rule && a.flags == b.flags;
}

// The rows of `spans` (sorted, disjoint) at their file offsets, with
// kCfaNone rows where no span reaches: between FDEs and after the last.
// Spans outside the file's executable segments describe no code a process
// runs from this file (FDEs of functions the linker discarded) and are
// left out.
std::vector<UnwindRow> place_rows(const std::vector<CfiSpan> &spans,
                                  std::span<const ElfSegment> segments, UnwindTableStats &stats) {
    struct PlacedRow {
        UnwindRow row;
        bool gap; // the kCfaNone after a span, which a span at its offset replaces
    };
    std::vector<PlacedRow> placed;
    placed.reserve(2 * spans.size());
    for (const CfiSpan &span : spans) {
        const ElfSegment *segment = file_segment_of(segments, span.start);
        if (!segment || !segment->executable)
            continue;
        uint64_t end = std::min(span.end, segment->vaddr + segment->filesz);
        uint64_t start_offset = segment->offset + (span.start - segment->vaddr);
        uint64_t end_offset = segment->offset + (end - segment->vaddr);
        if (end_offset > std::numeric_limits<uint32_t>::max()) {
            ++stats.out_of_range;
            continue;
        }
        UnwindRow row = span.rules;
        row.offset = uint32_t(start_offset);
        placed.push_back({row, false});
        UnwindRow gap = kNoRules;
        gap.offset = uint32_t(end_offset);
        placed.push_back({gap, true});
    }
    // By offset, a span's row before the gap row of the span that ends there.
    std::stable_sort(placed.begin(), placed.end(), [](const PlacedRow &a, const PlacedRow &b) {
        return a.row.offset != b.row.offset ? a.row.offset < b.row.offset : !a.gap && b.gap;
    });
    std::vector<UnwindRow> rows;
    rows.reserve(placed.size());
    for (std::size_t i = 0; i < placed.size(); ++i) {
        const UnwindRow &row = placed[i].row;
        if (i > 0 && placed[i - 1].row.offset == row.offset)
            continue;
        if (rows.empty() || !same_rules(rows.back(), row))
            rows.push_back(row);
    }
    return rows;
}

Result<UnwindTable> build_from_elf(Elf *elf, const std::string &name) {
    GElf_Ehdr header;
    if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &header))
        return failure(name + ": not an ELF file");
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_machine != EM_X86_64)
        return failure(name + ": not an x86-64 ELF file");

    std::optional<CfiSection> eh_frame, debug_frame;
    std::size_t names_index = 0;
    if (elf_getshdrstrndx(elf, &names_index) != 0)
        return failure(name + ": unreadable section headers: " + elf_errmsg(-1));
    for (Elf_Scn *scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr section;
        if (!gelf_getshdr(scn, &section) || section.sh_type != SHT_PROGBITS)
            continue;
        const char *section_name = elf_strptr(elf, names_index, section.sh_name);
        if (!section_name)
            continue;
        std::string_view section_view = section_name;
        bool is_eh_frame = section_view == ".eh_frame";
        if (!is_eh_frame && section_view != ".debug_frame")
            continue;
        if ((section.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
            continue;
        Elf_Data *data = elf_getdata(scn, nullptr);
        if (!data || !data->d_buf)
            continue;
        (is_eh_frame ? eh_frame : debug_frame) = CfiSection{data, section.sh_addr, is_eh_frame};
    }

    UnwindTable table;
    std::vector<CfiSpan> spans;
    if (eh_frame) {
        std::unique_ptr<Dwarf_CFI, CfiCloser> cfi(dwarf_getcfi_elf(elf));
        if (cfi)
            spans = read_section_rows(header.e_ident, *eh_frame, cfi.get(), table.stats);
        make_disjoint(spans, table.stats);
    }
    if (debug_frame) {
        std::unique_ptr<Dwarf, DwarfCloser> dwarf(dwarf_begin_elf(elf, DWARF_C_READ, nullptr));
        // Owned by `dwarf`.
        Dwarf_CFI *cfi = dwarf ? dwarf_getcfi(dwarf.get()) : nullptr;
        if (cfi) {
            std::vector<CfiSpan> debug_spans =
                read_section_rows(header.e_ident, *debug_frame, cfi, table.stats);
            make_disjoint(debug_spans, table.stats);
            std::vector<CfiSpan> added = uncovered_parts(debug_spans, spans);
            std::vector<CfiSpan> merged;
            merged.reserve(spans.size() + added.size());
            std::merge(spans.begin(), spans.end(), added.begin(), added.end(),
                       std::back_inserter(merged),
                       [](const CfiSpan &a, const CfiSpan &b) { return a.start < b.start; });
            spans = std::move(merged);
        }
    }
    table.rows = place_rows(spans, read_load_segments(elf), table.stats);
    return table;
}

void ensure_libelf_initialized() {
    static const bool initialized = elf_version(EV_CURRENT) != EV_NONE;
    (void)initialized;
}

} // namespace

const UnwindRow *UnwindTable::row_at(uint64_t offset) const {
    auto above =
        std::upper_bound(rows.begin(), rows.end(), offset,
                         [](uint64_t wanted, const UnwindRow &row) { return wanted < row.offset; });
    return above == rows.begin() ? nullptr : &*(above - 1);
}

Result<UnwindTable> build_unwind_table(int fd, const std::string &name) {
    ensure_libelf_initialized();
    std::unique_ptr<Elf, ElfCloser> elf(elf_begin(fd, ELF_C_READ_MMAP, nullptr));
    if (!elf)
        return failure(name + ": " + elf_errmsg(-1));
    return build_from_elf(elf.get(), name);
}

Result<UnwindTable> build_unwind_table(const std::string &path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Error(path + ": " + std::strerror(errno), errno);
    Result<UnwindTable> table = build_unwind_table(fd, path);
    ::close(fd);
    return table;
}

} // namespace dtx::trace

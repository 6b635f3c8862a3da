// Unwind tables for ustack(): a file's call-frame information (.eh_frame, and
// .debug_frame for the code .eh_frame does not describe) reduced to the few
// x86-64 rules a BPF program can follow, as rows sorted by file offset that
// user space loads into a BPF array map for each file a traced process maps.
// The BPF unwinder finds the row of a pc by its file offset (pc - mapping
// start + the mapping's file offset) and computes the caller's CFA, return
// address and rbp from it; where a row says kCfaNone it falls back to frame
// pointers.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dtx::trace {

// One row of a file's unwind table: how to find the caller's frame for the
// instructions from `offset` (a FILE OFFSET in the ELF file, not a vaddr) up to
// the next row's offset. The BPF unwinder reads exactly this layout.
struct UnwindRow {
    uint32_t offset;
    int32_t cfa_offset;
    int16_t ra_offset;
    int16_t fp_offset;
    uint8_t cfa_rule;
    uint8_t ra_rule;
    uint8_t fp_rule;
    uint8_t flags;
};
static_assert(sizeof(UnwindRow) == 16);

// cfa_rule: how the CFA (the caller's rsp) is found.
inline constexpr uint8_t kCfaNone = 0; // no usable CFI here: use frame pointers
inline constexpr uint8_t kCfaSp = 1;   // CFA = rsp + cfa_offset
inline constexpr uint8_t kCfaFp = 2;   // CFA = rbp + cfa_offset
inline constexpr uint8_t kCfaPlt = 3;  // CFA = rsp + cfa_offset + ((rip & 15) >= threshold ? 8 : 0)
inline constexpr uint8_t kCfaDerefSp = 4; // CFA = *(rsp + cfa_offset) (signal trampoline)

// ra_rule: where the return address (the caller's pc) is.
inline constexpr uint8_t kRaUndefined = 0; // none: the outermost frame, the stack ends here
inline constexpr uint8_t kRaCfa = 1;       // saved at CFA + ra_offset
inline constexpr uint8_t kRaSp = 2;        // saved at rsp + ra_offset

// fp_rule: where the caller's rbp is.
inline constexpr uint8_t kFpSame = 0;    // unchanged: rbp itself
inline constexpr uint8_t kFpCfa = 1;     // saved at CFA + fp_offset
inline constexpr uint8_t kFpSp = 2;      // saved at rsp + fp_offset
inline constexpr uint8_t kFpUnknown = 3; // not recoverable after this frame

// flags: bit 0 a signal frame, bits 4..7 kCfaPlt's threshold.
inline constexpr uint8_t kUnwindSignalFrame = 1; // the caller's pc is the interrupted instruction
inline constexpr unsigned kUnwindPltThresholdShift = 4; // flags >> this is kCfaPlt's threshold

// The call-frame information a table could not express, counted in CFI rows
// (before adjacent rows merge), for -v and for judging the format.
struct UnwindTableStats {
    std::size_t fdes = 0;            // FDEs read, from .eh_frame and .debug_frame
    std::size_t unreadable_fdes = 0; // their address encoding or program was not understood
    std::size_t unsupported_cfa = 0; // rows whose CFA rule has no kCfa* form (now kCfaNone)
    std::size_t unsupported_ra = 0;  // rows whose return-address rule has no kRa* form (kCfaNone)
    std::size_t out_of_range = 0;    // rows with an offset too large for its field (kCfaNone)
    std::size_t unknown_fp = 0;      // rows whose rbp rule has no other form than kFpUnknown
    std::size_t overlapped = 0;      // rows cut short or dropped where an earlier FDE covers them
};

struct UnwindTable {
    // Sorted by offset, no two with the same offset, no two consecutive ones
    // with the same rules; the last row (kCfaNone) ends the last FDE.
    std::vector<UnwindRow> rows;
    UnwindTableStats stats;

    // The row that covers file offset `offset`; nullptr before the first row.
    const UnwindRow *row_at(uint64_t offset) const;
};

// The table of the x86-64 ELF file at `path`. A file without CFI gives an
// empty table; an unreadable file, one that is not ELF or not x86-64 is an
// Error naming it ("/etc/passwd: not an ELF file").
Result<UnwindTable> build_unwind_table(const std::string &path);
// The same from an open file (of a process's mapping, say); `name` names it in
// errors. Does not close `fd`.
Result<UnwindTable> build_unwind_table(int fd, const std::string &name);

} // namespace dtx::trace

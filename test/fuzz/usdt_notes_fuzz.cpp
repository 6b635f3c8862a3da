// Feeds arbitrary bytes to the USDT note reader as the .note.stapsdt section
// of an untrusted file: nothing may crash, hang or leak; every probe it keeps
// has a provider and a name, and every note it skips says why. The first
// byte chooses whether the file has a .stapsdt.base section, so that the
// address adjustment runs too.
#include "libtrace/usdt_note.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0)
        return 0;
    std::optional<uint64_t> stapsdt_base;
    if (data[0] & 1)
        stapsdt_base = 0x2000;
    std::span<const std::byte> notes(reinterpret_cast<const std::byte *>(data + 1), size - 1);
    std::vector<std::string> problems;
    std::vector<dtx::trace::UsdtProbe> probes =
        dtx::trace::parse_usdt_notes(notes, stapsdt_base, {}, &problems);
    for (const dtx::trace::UsdtProbe &probe : probes)
        if (probe.provider.empty() || probe.name.empty())
            std::abort();
    for (const std::string &problem : problems)
        if (!problem.starts_with("note "))
            std::abort();
    return 0;
}

// Feeds arbitrary text to the USDT argument spec parser as a note of an
// untrusted file would: nothing may crash, hang or leak; a refusal names the
// argument, and every accepted argument is one the code generator can read.
// Only the symbol "known" resolves (near the top of the address space, so
// that rip-relative arithmetic wraps); others are unknown, as without a file.
#include "libtrace/usdt_note.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

using dtx::trace::UsdtArgument;

std::optional<uint64_t> lookup(std::string_view name) {
    return name == "known" ? std::optional<uint64_t>(UINT64_MAX - 7) : std::nullopt;
}

bool valid(const UsdtArgument &argument) {
    int bytes = argument.size < 0 ? -argument.size : argument.size;
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
        return false;
    if (argument.bit_shift != 0 &&
        (argument.bit_shift != 8 || argument.kind != UsdtArgument::Kind::Register))
        return false;
    switch (argument.kind) {
    case UsdtArgument::Kind::Constant:
    case UsdtArgument::Kind::Register:
        return true;
    case UsdtArgument::Kind::Memory:
        return argument.has_base;
    case UsdtArgument::Kind::IndexedMemory:
        return argument.scale == 1 || argument.scale == 2 || argument.scale == 4 ||
               argument.scale == 8;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string_view spec(reinterpret_cast<const char *>(data), size);
    auto parsed = dtx::trace::parse_usdt_arguments_with_lookup(spec, 0x401000, lookup);
    if (!parsed) {
        if (!parsed.error().message.starts_with("argument "))
            std::abort();
        return 0;
    }
    for (const UsdtArgument &argument : *parsed)
        if (!valid(argument))
            std::abort();
    return 0;
}

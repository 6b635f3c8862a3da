// Feeds arbitrary bytes to the /proc/PID/maps parser (the kernel writes the
// file, but the paths in it are whatever files processes map): nothing may
// crash, hang or leak, and every entry it accepts is a well-formed range on
// one line.
#include "libtrace/process_modules.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string_view text(reinterpret_cast<const char *>(data), size);
    for (const dtx::trace::MapsEntry &entry : dtx::trace::parse_maps(text))
        if (entry.start > entry.end || entry.path.find('\n') != std::string::npos ||
            entry.path.size() > size)
            std::abort();
    return 0;
}

// Feeds arbitrary bytes to the tracefs format-file parser (the files are the
// kernel's, but a parser of files does not trust them): nothing may crash,
// hang or leak; a refusal says why, and every field it accepts has a name and
// a type.
#include "libtrace/tracefs_format.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string_view text(reinterpret_cast<const char *>(data), size);
    dtx::Result<dtx::trace::TracepointFormat> format = dtx::trace::parse_tracepoint_format(text);
    if (!format) {
        if (format.error().message.empty())
            std::abort();
        return 0;
    }
    for (const auto *fields : {&format->common_fields, &format->fields})
        for (const dtx::trace::TracepointField &field : *fields)
            if (field.name.empty() || field.type.empty())
                std::abort();
    return 0;
}

// Feeds arbitrary bytes, as a file, to the unwind-table builder (dtx reads
// the CFI of whatever binaries a traced process maps): nothing may crash,
// hang or leak; a refusal names the file, and a table it builds is one the
// BPF unwinder can walk (rows strictly by offset, known rules, rows without
// a CFA rule all zero, the last one without).
#include "libtrace/unwind_table.h"

#include <stdlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace {

struct InputFile {
    std::string directory, path;
    InputFile() {
        directory = (std::filesystem::temp_directory_path() / "dtx-fuzz-unwind-XXXXXX").string();
        if (!mkdtemp(directory.data()))
            abort();
        path = directory + "/input";
    }
    ~InputFile() { std::filesystem::remove_all(directory); }
};

bool well_formed(const dtx::trace::UnwindRow &row) {
    using namespace dtx::trace;
    if (row.cfa_rule == kCfaNone)
        return row.cfa_offset == 0 && row.ra_offset == 0 && row.fp_offset == 0 &&
               row.ra_rule == 0 && row.fp_rule == 0 && row.flags == 0;
    return row.cfa_rule <= kCfaDerefSp && row.ra_rule <= kRaSp && row.fp_rule <= kFpUnknown &&
           (row.cfa_rule == kCfaPlt || row.flags >> kUnwindPltThresholdShift == 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const InputFile input;
    const std::string &path = input.path;
    FILE *file = fopen(path.c_str(), "wb");
    if (!file || fwrite(data, 1, size, file) != size || fclose(file) != 0)
        abort();
    auto table = dtx::trace::build_unwind_table(path);
    if (!table) {
        if (!table.error().message.starts_with(path + ": "))
            abort();
        return 0;
    }
    const auto &rows = table->rows;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!well_formed(rows[i]) || (i > 0 && rows[i - 1].offset >= rows[i].offset) ||
            table->row_at(rows[i].offset) != &rows[i])
            abort();
    }
    if (!rows.empty() && rows.back().cfa_rule != dtx::trace::kCfaNone)
        abort();
    return 0;
}

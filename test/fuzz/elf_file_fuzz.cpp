// Feeds arbitrary bytes, as a file, to the ELF reader (dtx reads whatever
// binaries a traced process maps): nothing may crash, hang or leak; a refusal
// names the file, and what it accepts is consistent (functions sorted, each
// covering its own address).
#include "libtrace/elf_file.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>

namespace {

// The input's file, alone in a private directory so that the reader's search
// for a debug file next to it finds nothing else.
struct InputFile {
    std::string directory, path;
    InputFile() {
        directory = (std::filesystem::temp_directory_path() / "dtx-fuzz-elf-XXXXXX").string();
        if (!mkdtemp(directory.data()))
            abort();
        path = directory + "/input";
    }
    ~InputFile() { std::filesystem::remove_all(directory); }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const InputFile input;
    const std::string &path = input.path;
    FILE *file = fopen(path.c_str(), "wb");
    if (!file || fwrite(data, 1, size, file) != size || fclose(file) != 0)
        abort();
    auto opened = dtx::trace::ElfFile::open(path);
    if (!opened) {
        if (!opened.error().message.starts_with(path + ": "))
            abort();
        return 0;
    }
    const auto &elf = *opened;
    uint64_t previous = 0;
    for (const dtx::trace::ElfFunction &function : elf->functions()) {
        if (function.address < previous || function.name.empty())
            abort();
        previous = function.address;
        if (function.address != std::numeric_limits<uint64_t>::max() &&
            !elf->function_at(function.address))
            abort();
        elf->find(function.name);
        if (std::optional<uint64_t> offset = elf->file_offset(function.address))
            elf->vaddr_of_offset(*offset);
    }
    return 0;
}

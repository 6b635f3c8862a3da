// USDT probes out of an ElfFile: its .note.stapsdt and .stapsdt.base sections
// and its symbols, handed to the parsers of usdt_note.cpp.
#include "libtrace/usdt_note.h"

namespace dtx::trace {
namespace {

UsdtSymbolLookup symbols_of(const ElfFile *file) {
    if (!file)
        return {};
    return [file](std::string_view name) { return file->data_symbol(name); };
}

} // namespace

Result<std::vector<UsdtArgument>> parse_usdt_arguments(std::string_view spec, uint64_t site,
                                                       const ElfFile *file) {
    return parse_usdt_arguments_with_lookup(spec, site, symbols_of(file));
}

std::vector<UsdtProbe> read_usdt_probes(const ElfFile &file, std::vector<std::string> *problems) {
    std::optional<ElfFile::Section> notes = file.section(".note.stapsdt");
    if (!notes)
        return {};
    std::optional<ElfFile::Section> base = file.section(".stapsdt.base");
    size_t first_problem = problems ? problems->size() : 0;
    std::vector<UsdtProbe> probes =
        parse_usdt_notes(notes->data, base ? std::optional(base->address) : std::nullopt,
                         symbols_of(&file), problems);
    if (problems)
        for (size_t i = first_problem; i < problems->size(); i++)
            (*problems)[i] = file.path() + ": .note.stapsdt " + (*problems)[i];
    return probes;
}

} // namespace dtx::trace

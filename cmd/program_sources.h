// Turns the program options of a command line (-n -s -P -m -f -i, in order)
// into SourceFiles for the parser: reads script files, runs cpp over them
// for -C, and spells -P/-m/-f/-i descriptions as full probe descriptions.
#pragma once

#include "cmd/options.h"
#include "parser/source.h"

#include <memory>
#include <string>
#include <vector>

namespace dtx::cmd {

struct LoadedSource {
    std::unique_ptr<SourceFile> file;
    // -n/-P/-m/-f/-i text may be a bare probe description; a script may not.
    bool from_command_line = false;
};

struct SourceLoadResult {
    std::vector<LoadedSource> sources;
    std::string error; // non-empty: a message naming the file and the cause
};

SourceLoadResult load_program_sources(const Options &options);

// "-f vfs_read" is "::vfs_read:", "-m ext4" is ":ext4::", "-P syscall" is
// "syscall:::"; any predicate or action after the description is kept.
std::string expand_field_description(ProgramSource::Kind kind, const std::string &text);

} // namespace dtx::cmd

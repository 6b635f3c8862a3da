// Turns the program options of a command line (-n -s -P -m -f -i, in order)
// into SourceFiles for the parser: reads script files, runs cpp over them
// for -C (the cpp option), and spells -P/-m/-f/-i descriptions as full probe descriptions.
#pragma once

#include "libtrace/error.h"
#include "parser/source.h"
#include "session/options.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace dtx::session {

struct LoadedSource {
    std::unique_ptr<SourceFile> file;
    // -n/-P/-m/-f/-i text may be a bare probe description; a script may not.
    bool from_command_line = false;
};

// The programs of `sources` in order, script files through cpp with
// `cpp_args` if `preprocess`; an error names the file and the cause.
Result<std::vector<LoadedSource>> load_program_sources(std::span<const ProgramSource> sources,
                                                       bool preprocess,
                                                       const std::vector<std::string> &cpp_args);

// "-f vfs_read" is "::vfs_read:", "-m ext4" is ":ext4::", "-P syscall" is
// "syscall:::"; any predicate or action after the description is kept.
std::string expand_field_description(ProgramSource::Kind kind, const std::string &text);

} // namespace dtx::session

// What the dtx command line asks of a session, whole: the programs (-n -s
// -P -m -f -i), targets (-c -p), -x options and the flags. cmd/ parses it once
// and hands it to the Session, which is the one place that applies it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtx::session {

// The stages --dump can show, in pipeline order. Each later pass adds its own.
inline constexpr std::array<std::string_view, 3> known_dump_stages = {"ast", "ir", "bpf"};

// One program given on the command line. The probe-field kinds (-P -m -f -n -i)
// all carry a probe description optionally followed by `/predicate/` and
// `{ actions }`; the kind says which field the last part of a short description
// names: `-f vfs_read` is `::vfs_read:`, `-n vfs_read` is `:::vfs_read`.
struct ProgramSource {
    enum class Kind { ProbeDescription, ScriptFile, Function, Module, Provider, ProbeId };
    Kind kind;
    std::string text; // the D text, or the script's path for ScriptFile

    bool operator==(const ProgramSource &) const = default;
};

struct Options {
    std::vector<ProgramSource> sources; // in command-line order
    bool list = false;                  // -l
    bool compile_only = false;          // -e
    bool verbose = false;               // -v
    bool version = false;               // -V, --version
    bool help = false;                  // --help
    // -h: write the C header of the program's provider declarations; -G:
    // the object that defines their probes' semaphores (usdt_header.h).
    bool usdt_header = false;
    bool usdt_object = false;
    std::vector<std::string> commands; // -c, each a command line to split on whitespace
    std::vector<int> pids;             // -p
    std::string output_file;           // -o; the last one given wins, as in dtrace
    // -x name[=value] in order: no '=' gives no value, "name=" an empty one.
    // The flags that stand for options are here as those options, as dtrace
    // has them: -q quiet, -w destructive, -Z zdefs, -F flowindent, -C cpp,
    // -D define=X, -U undef=X, -I incdir=X.
    std::vector<std::pair<std::string, std::optional<std::string>>> xopts;
    std::vector<std::string> dump_stages; // --dump, each stage once, in the order first asked
    std::vector<std::string> macro_args;  // operands: $1, $2, ...; with -G the objects to link
};

} // namespace dtx::session

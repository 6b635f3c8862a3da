// dtrace(1)-compatible command-line parsing. Pure: no printing, no exit, no file
// access, so every rule is unit-tested; cmd/main.cpp reports the outcome.
#pragma once

#include "session/session.h"

#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dtx::cmd {

using session::known_dump_stages;
using session::Options;
using session::ProgramSource;

// A usage error; the message is one line without the program name.
struct UsageError {
    std::string message;
};

// Parses argv[0..argc) (argv[0] is the program name). As in dtrace, operands may
// be interleaved with options and all become macro arguments; everything after
// `--` is an operand.
std::variant<Options, UsageError> parse_options(std::span<const char *const> argv);

// The text printed for --help and after a usage error: synopsis, then one line per option.
std::string usage_text(std::string_view program_name);

// Every option the command line takes, in the help's order, as it is
// spelled ("-c", "--dump=", "--help"), for shell completion (cmd/completion/).
struct CommandLineOption {
    std::string spelling;
    bool takes_argument = false;
};
std::vector<CommandLineOption> command_line_options();

} // namespace dtx::cmd

#include "cmd/options.h"

#include <algorithm>
#include <charconv>

namespace dtx::cmd {

namespace {

// One short option. The parser and the help text both read this table, so an
// option cannot be accepted without being documented or the reverse.
struct ShortOption {
    char letter;
    std::string_view argument; // how the help names the argument; empty for a flag
    std::string_view description;
    bool Options::*flag = nullptr; // what a flag sets; options with an argument have none
    // The D option the letter sets (-x NAME, with the letter's argument as
    // its value), as in dtrace.
    std::string_view option = {};
};

// In dtrace's help order: alphabetical, lower case before upper case.
constexpr std::array short_options = {
    ShortOption{'c', "cmd", "run cmd, trace it as $target, exit when it exits"},
    ShortOption{'C', "", "run the C preprocessor over script files", nullptr, "cpp"},
    ShortOption{'D', "name[=def]", "define a preprocessor macro", nullptr, "define"},
    ShortOption{'e', "", "exit after compiling, before enabling any probe", &Options::compile_only},
    ShortOption{'f', "func", "enable or list probes by function name"},
    ShortOption{'F', "", "indent output by function entry and return", nullptr, "flowindent"},
    ShortOption{'G', "", "write the object defining the USDT semaphores of -s's providers",
                &Options::usdt_object},
    ShortOption{'h', "", "write a C header of USDT probe macros from -s's providers",
                &Options::usdt_header},
    ShortOption{'i', "probe-id", "enable or list the probe with this id"},
    ShortOption{'I', "path", "add a directory to the preprocessor's include path", nullptr,
                "incdir"},
    ShortOption{'l', "",
                "list the matching probes (all if no program; -p/-c add their USDT probes)",
                &Options::list},
    ShortOption{'m', "module", "enable or list probes by module name"},
    ShortOption{'n', "name", "enable or list probes by probe name or description"},
    ShortOption{'o', "output", "append output to a file instead of stdout (-h, -G: write it)"},
    ShortOption{'p', "pid", "trace running process pid as $target"},
    ShortOption{'P', "provider", "enable or list probes by provider name"},
    ShortOption{'q', "", "quiet: print only what the program traces", nullptr, "quiet"},
    ShortOption{'s', "script", "enable or list the probes of a D script file"},
    ShortOption{'U', "name", "undefine a preprocessor macro", nullptr, "undef"},
    ShortOption{'v', "", "verbose: attributes and argument types (-l), how probes attach",
                &Options::verbose},
    ShortOption{'V', "", "print the version and exit", &Options::version},
    ShortOption{'w', "", "permit destructive actions", nullptr, "destructive"},
    ShortOption{'x', "opt[=val]", "set a compiler or tracing option"},
    ShortOption{'Z', "", "permit probe descriptions that match no probe", nullptr, "zdefs"},
};

const ShortOption *find_short_option(char letter) {
    auto found = std::ranges::find(short_options, letter, &ShortOption::letter);
    return found == short_options.end() ? nullptr : &*found;
}

std::string quoted(char letter) {
    return std::string("'") + letter + "'";
}

// A -p value: a positive decimal number, with white space around it allowed
// (dtrace's strtol() skips it in front; `-p "$(pgrep -n x) "` leaves it behind).
std::optional<int> parse_pid(std::string_view text) {
    constexpr std::string_view kSpace = " \t\n\r\f\v";
    size_t first = text.find_first_not_of(kSpace);
    text = first == std::string_view::npos
               ? std::string_view()
               : text.substr(first, text.find_last_not_of(kSpace) - first + 1);
    int pid = 0;
    const char *end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, pid);
    if (error != std::errc() || stop != end || pid <= 0) {
        return std::nullopt;
    }
    return pid;
}

// "123,456" or "123 456": several pids where -p takes one.
bool is_pid_list(std::string_view text) {
    size_t numbers = 0;
    for (size_t i = 0; i < text.size();) {
        size_t end = text.find_first_of(", \t", i);
        std::string_view word = text.substr(i, end - i);
        if (!word.empty()) {
            if (!parse_pid(word))
                return false;
            numbers++;
        }
        i = end == std::string_view::npos ? text.size() : end + 1;
    }
    return numbers > 1;
}

std::string known_dump_stage_list() {
    std::string list;
    for (std::string_view stage : known_dump_stages) {
        list += list.empty() ? "" : ", ";
        list += stage;
    }
    return list;
}

std::optional<UsageError> add_dump_stages(Options &options, std::string_view stage_list) {
    while (true) {
        size_t comma = stage_list.find(',');
        std::string_view stage = stage_list.substr(0, comma);
        if (std::ranges::find(known_dump_stages, stage) == known_dump_stages.end()) {
            return UsageError{"unknown --dump stage '" + std::string(stage) +
                              "' (known: " + known_dump_stage_list() + ")"};
        }
        if (std::ranges::find(options.dump_stages, stage) == options.dump_stages.end()) {
            options.dump_stages.emplace_back(stage);
        }
        if (comma == std::string_view::npos) {
            return std::nullopt;
        }
        stage_list.remove_prefix(comma + 1);
    }
}

// Records one short option that takes an argument; validates what dtrace
// would only reject later (or pass on to cpp as a stray flag).
std::optional<UsageError> add_option_argument(Options &options, char letter,
                                              std::string_view value) {
    using Kind = ProgramSource::Kind;
    auto add_source = [&](Kind kind) -> std::optional<UsageError> {
        options.sources.push_back({kind, std::string(value)});
        return std::nullopt;
    };
    auto require_non_empty = [&](std::string_view what) -> std::optional<UsageError> {
        if (value.empty()) {
            return UsageError{std::string("empty ") + std::string(what) + " for -" + letter};
        }
        return std::nullopt;
    };

    switch (letter) {
    case 'n':
        return add_source(Kind::ProbeDescription);
    case 's':
        return add_source(Kind::ScriptFile);
    case 'f':
        return add_source(Kind::Function);
    case 'm':
        return add_source(Kind::Module);
    case 'P':
        return add_source(Kind::Provider);
    case 'i':
        return add_source(Kind::ProbeId);
    case 'c':
        if (auto error = require_non_empty("command")) {
            return error;
        }
        options.commands.emplace_back(value);
        return std::nullopt;
    case 'p':
        if (auto pid = parse_pid(value)) {
            options.pids.push_back(*pid);
            return std::nullopt;
        }
        if (is_pid_list(value))
            return UsageError{"invalid pid '" + std::string(value) +
                              "' for -p: one process per -p; grab several with -p PID -p PID"};
        return UsageError{"invalid pid '" + std::string(value) +
                          "' for -p: expected a positive integer"};
    case 'o':
        if (auto error = require_non_empty("file name")) {
            return error;
        }
        options.output_file = value;
        return std::nullopt;
    case 'x': {
        size_t equals = value.find('=');
        std::string name(value.substr(0, equals));
        if (name.empty()) {
            return UsageError{"missing option name in -x '" + std::string(value) + "'"};
        }
        std::optional<std::string> option_value;
        if (equals != std::string_view::npos) {
            option_value = value.substr(equals + 1);
        }
        options.xopts.emplace_back(std::move(name), std::move(option_value));
        return std::nullopt;
    }
    case 'D':
    case 'U':
    case 'I':
        // An empty argument would reach cpp as a bare "-D" that swallows the next one.
        if (auto error = require_non_empty(letter == 'I' ? "directory" : "macro name")) {
            return error;
        }
        options.xopts.emplace_back(find_short_option(letter)->option, std::string(value));
        return std::nullopt;
    }
    return UsageError{"invalid option -- " + quoted(letter)};
}

// Walks argv the way dtrace does: short options may be grouped and take their
// argument attached or as the next word; an operand does not end option parsing
// (dtrace resumes getopt after each one), only `--` does.
class ArgvParser {
public:
    explicit ArgvParser(std::span<const char *const> argv) : argv_(argv) {}

    std::variant<Options, UsageError> parse() {
        if (argv_.size() <= 1) {
            return UsageError{"no arguments given"};
        }
        for (next_ = 1; next_ < argv_.size();) {
            std::string_view word = argv_[next_++];
            std::optional<UsageError> error;
            if (word == "--") {
                options_.macro_args.insert(options_.macro_args.end(), argv_.begin() + next_,
                                           argv_.end());
                break;
            } else if (word.starts_with("--")) {
                error = parse_long_option(word);
            } else if (word.size() > 1 && word[0] == '-') {
                error = parse_short_group(word.substr(1));
            } else {
                options_.macro_args.emplace_back(word);
            }
            if (error) {
                return *error;
            }
        }
        if (auto error = check_modes()) {
            return *error;
        }
        return std::move(options_);
    }

private:
    std::optional<std::string_view> take_next_word() {
        if (next_ == argv_.size()) {
            return std::nullopt;
        }
        return argv_[next_++];
    }

    std::optional<UsageError> parse_short_group(std::string_view group) {
        for (size_t at = 0; at < group.size(); ++at) {
            char letter = group[at];
            const ShortOption *option = find_short_option(letter);
            if (option == nullptr) {
                return UsageError{"invalid option -- " + quoted(letter)};
            }
            if (option->flag != nullptr) {
                options_.*option->flag = true;
                continue;
            }
            if (option->argument.empty()) {
                options_.xopts.emplace_back(option->option, std::nullopt);
                continue;
            }
            std::optional<std::string_view> value = group.substr(at + 1);
            if (value->empty()) {
                value = take_next_word();
            }
            if (!value) {
                return UsageError{"option requires an argument -- " + quoted(letter)};
            }
            return add_option_argument(options_, letter, *value);
        }
        return std::nullopt;
    }

    std::optional<UsageError> parse_long_option(std::string_view word) {
        size_t equals = word.find('=');
        std::string_view name = word.substr(0, equals);
        if (name == "--help" || name == "--version") {
            if (equals != std::string_view::npos) {
                return UsageError{"option '" + std::string(name) + "' doesn't allow an argument"};
            }
            (name == "--help" ? options_.help : options_.version) = true;
            return std::nullopt;
        }
        if (name == "--dump") {
            std::optional<std::string_view> stages;
            if (equals != std::string_view::npos) {
                stages = word.substr(equals + 1);
            } else {
                stages = take_next_word();
            }
            if (!stages) {
                return UsageError{"option '--dump' requires an argument"};
            }
            return add_dump_stages(options_, *stages);
        }
        return UsageError{"unrecognized option '" + std::string(word) + "'"};
    }

    // The checks dtrace makes once all options are known. Help needs nothing else.
    std::optional<UsageError> check_modes() const {
        if (options_.help) {
            return std::nullopt;
        }
        if (int(options_.usdt_object) + int(options_.usdt_header) + int(options_.list) +
                int(options_.version) >
            1) {
            return UsageError{"only one of the [-GhlV] options can be specified at a time"};
        }
        if (options_.list || options_.version || !options_.sources.empty()) {
            return std::nullopt;
        }
        if (options_.usdt_header || options_.usdt_object) {
            return UsageError{std::string(options_.usdt_header ? "-h" : "-G") +
                              " requires one or more scripts or enabling options"};
        }
        if (options_.compile_only) {
            return UsageError{"-e given but nothing to compile: no -n, -s, -P, -m, -f or -i"};
        }
        return UsageError{"no probes specified: give -n, -s, -P, -m, -f or -i, or -l to list"};
    }

    std::span<const char *const> argv_;
    size_t next_ = 1;
    Options options_;
};

} // namespace

std::variant<Options, UsageError> parse_options(std::span<const char *const> argv) {
    return ArgvParser(argv).parse();
}

std::string usage_text(std::string_view program_name) {
    const std::string name(program_name);
    const std::string indent(name.size() + 8, ' ');
    const std::string predicate_action = "[[ predicate ] action ]]";
    std::string flag_letters;
    for (const ShortOption &option : short_options) {
        if (option.argument.empty()) {
            flag_letters += option.letter;
        }
    }
    std::string text = "Usage: " + name + " [-" + flag_letters +
                       "] [-c cmd] [-D name[=def]] [-I path] [-o output]\n" + indent +
                       "[-p pid] [-s script] [-U name] [-x opt[=val]]\n" + indent +
                       "[--dump=stage[,stage...]]\n\n";
    text += "\t[-P provider " + predicate_action + "\n";
    text += "\t[-m [ provider: ] module " + predicate_action + "\n";
    text += "\t[-f [[ provider: ] module: ] func " + predicate_action + "\n";
    text += "\t[-n [[[ provider: ] module: ] func: ] name " + predicate_action + "\n";
    text += "\t[-i probe-id " + predicate_action + " [ args ... ]\n\n";
    text += "\tpredicate -> '/' D-expression '/'\n";
    text += "\t   action -> '{' D-statements '}'\n\n";

    constexpr size_t description_column = 20;
    auto add_line = [&](std::string_view spelling, std::string_view description) {
        std::string line = "\t" + std::string(spelling);
        line.resize(std::max(line.size() + 1, description_column), ' ');
        text += line + std::string(description) + "\n";
    };
    for (const ShortOption &option : short_options) {
        std::string spelling = std::string("-") + option.letter;
        if (!option.argument.empty()) {
            spelling += " " + std::string(option.argument);
        }
        add_line(spelling, option.description);
    }
    add_line("--dump=stages", "print the given compiler stages: " + known_dump_stage_list());
    add_line("--help", "print this help and exit");
    add_line("--version", "same as -V");
    return text;
}

std::vector<CommandLineOption> command_line_options() {
    std::vector<CommandLineOption> all;
    for (const ShortOption &option : short_options) {
        all.push_back({std::string("-") + option.letter, !option.argument.empty()});
    }
    all.push_back({"--dump=", true});
    all.push_back({"--help", false});
    all.push_back({"--version", false});
    return all;
}

} // namespace dtx::cmd

// Writes dtx's bash completion script at build time: the template
// (dtx.bash.in) with its word lists filled from the tables dtx parses its
// command line with (cmd/options.cpp's options, session/option_table.cpp's -x
// options and their choices, the --dump stages), so that the completion
// cannot offer an option dtx lacks or miss one it has.
// Usage: dtx-completion-words TEMPLATE OUTPUT

#include "cmd/options.h"
#include "session/option_table.h"

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using dtx::session::OptionSpec;
using dtx::session::OptionSyntax;

// Whether `-x name` is usually given a value: completed as "name=".
bool takes_value(const OptionSpec &spec) {
    switch (spec.syntax) {
    case OptionSyntax::Flag:
    case OptionSyntax::Toggle:
    case OptionSyntax::Ignored:
        return false;
    default:
        return true;
    }
}

std::string join(const std::vector<std::string> &words) {
    std::string text;
    for (const std::string &word : words)
        text += (text.empty() ? "" : " ") + word;
    return text;
}

std::map<std::string, std::string> word_lists() {
    std::vector<std::string> with_argument, flags, long_options;
    for (const dtx::cmd::CommandLineOption &option : dtx::cmd::command_line_options()) {
        if (option.spelling.starts_with("--"))
            long_options.push_back(option.spelling);
        else
            (option.takes_argument ? with_argument : flags).push_back(option.spelling);
    }
    std::vector<std::string> x_options, x_choices;
    for (const OptionSpec &spec : dtx::session::all_options()) {
        x_options.push_back(std::string(spec.name) + (takes_value(spec) ? "=" : ""));
        std::istringstream choices{std::string(spec.choices)};
        for (std::string choice; choices >> choice;)
            x_choices.push_back(std::string(spec.name) + "=" + choice);
        if (spec.syntax == OptionSyntax::Version)
            for (std::string_view version : dtx::session::d_versions())
                x_choices.push_back(std::string(spec.name) + "=" + std::string(version));
    }
    std::vector<std::string> stages(dtx::cmd::known_dump_stages.begin(),
                                    dtx::cmd::known_dump_stages.end());
    return {{"@OPTIONS_WITH_ARGUMENT@", join(with_argument)},
            {"@FLAG_OPTIONS@", join(flags)},
            {"@LONG_OPTIONS@", join(long_options)},
            {"@X_OPTIONS@", join(x_options)},
            {"@X_CHOICES@", join(x_choices)},
            {"@DUMP_STAGES@", join(stages)}};
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::cerr << "usage: dtx-completion-words TEMPLATE OUTPUT\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
        std::cerr << "dtx-completion-words: cannot read " << argv[1] << '\n';
        return 1;
    }
    std::string script = text.str();
    for (const auto &[placeholder, words] : word_lists()) {
        size_t at = script.find(placeholder);
        if (at == std::string::npos) {
            std::cerr << "dtx-completion-words: " << argv[1] << " has no " << placeholder << '\n';
            return 1;
        }
        for (; at != std::string::npos; at = script.find(placeholder, at + words.size()))
            script.replace(at, placeholder.size(), words);
    }
    std::ofstream out(argv[2]);
    out << script;
    out.close();
    if (!out) {
        std::cerr << "dtx-completion-words: cannot write " << argv[2] << '\n';
        return 1;
    }
    return 0;
}

#include "libtrace/probe_macros.h"

#include <unistd.h>

#include <cctype>

namespace dtx::trace {

MacroValues MacroValues::of_this_process(std::vector<std::string> arguments,
                                         std::optional<pid_t> target_pid) {
    MacroValues values;
    values.arguments = std::move(arguments);
    values.target_pid = target_pid;
    values.pid = getpid();
    values.ppid = getppid();
    values.uid = getuid();
    values.gid = getgid();
    values.pgid = getpgrp();
    values.sid = getsid(0);
    return values;
}

Result<std::string> expand_probe_macros(std::string_view field, const MacroValues &values) {
    std::string out;
    for (size_t i = 0; i < field.size(); i++) {
        if (field[i] != '$') {
            out += field[i];
            continue;
        }
        size_t start = i + 1;
        if (start < field.size() && field[start] == '$')
            start++; // $$N is $N in a probe description
        size_t end = start;
        if (end < field.size() && std::isdigit(uint8_t(field[end]))) {
            while (end < field.size() && std::isdigit(uint8_t(field[end])))
                end++;
            std::string_view digits = field.substr(start, end - start);
            size_t n = 0;
            for (char c : digits)
                n = n < 1000000 ? n * 10 + size_t(c - '0') : n;
            if (n < 1 || n > values.arguments.size())
                return failure("macro argument $" + std::string(digits) + " is not defined");
            out += values.arguments[n - 1];
            i = end - 1;
            continue;
        }
        while (end < field.size() && (std::isalnum(uint8_t(field[end])) || field[end] == '_'))
            end++;
        std::string_view name = field.substr(start, end - start);
        std::optional<long> value;
        if (name == "target")
            value = values.target_pid.value_or(0);
        else if (name == "pid")
            value = values.pid;
        else if (name == "ppid")
            value = values.ppid;
        else if (name == "uid")
            value = values.uid;
        else if (name == "gid")
            value = values.gid;
        else if (name == "pgid")
            value = values.pgid;
        else if (name == "sid")
            value = values.sid;
        if (!value)
            return failure(name.empty()
                               ? "'$' without a macro variable name"
                               : "macro variable $" + std::string(name) + " is not defined");
        out += std::to_string(*value);
        i = end - 1;
    }
    return out;
}

} // namespace dtx::trace

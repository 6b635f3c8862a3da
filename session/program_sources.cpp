#include "session/program_sources.h"

#include "libtrace/attach.h"
#include "session/option_values.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dtx::session {

namespace {

// A script larger than this is refused rather than read without end
// (-s /dev/zero): D scripts are kilobytes.
constexpr size_t kMaxScriptBytes = 16 << 20;

// Reads a script: a regular file, or what a pipe or terminal gives
// (-s /dev/stdin, -s <(generator)), up to kMaxScriptBytes.
Result<std::string> read_file(const std::string &path) {
    trace::UniqueFd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    struct stat file {};
    if (!fd || fstat(fd.get(), &file) != 0)
        return Error("failed to open " + path + ": " + std::strerror(errno), errno);
    if (S_ISDIR(file.st_mode))
        return Error("failed to open " + path + ": " + std::strerror(EISDIR), EISDIR);
    if (!S_ISREG(file.st_mode) && !S_ISFIFO(file.st_mode) && !S_ISCHR(file.st_mode))
        return failure("failed to open " + path + ": not a file, pipe or terminal");
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(fd.get(), buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Error("failed to read " + path + ": " + std::strerror(errno), errno);
        if (n == 0)
            return text;
        if (text.size() + size_t(n) > kMaxScriptBytes)
            return failure(path + " is larger than a script may be (" +
                           std::to_string(kMaxScriptBytes >> 20) + " MiB)");
        text.append(buffer, size_t(n));
    }
}

// What dtrace gives cpp: strict C99 (no `linux` or `unix` macro to break a D
// name) without __GNUC__, so that glibc's headers leave out their GCC-only
// forms (__attribute__, __asm__, __extension__, __restrict) and keep to C a D
// compiler reads; plus its macros for the system and D, and dtx's own __DTX.
// <stdarg.h>'s va_list is GCC's built-in type, which D has not: a pointer
// stands in for it, as a prototype that takes one is all a header needs.
std::vector<std::string> preprocessor_arguments() {
    unsigned version[3] = {0, 0, 0};
    int part = 0;
    for (char c : d_versions().back())
        if (c == '.')
            part++;
        else
            version[part] = version[part] * 10 + unsigned(c - '0');
    char version_macro[64];
    std::snprintf(version_macro, sizeof version_macro, "-D__SUNW_D_VERSION=0x%08x",
                  version[0] << 24 | version[1] << 12 | version[2]);
    return {"cpp",           "-xc",
            "-std=c99",      "-U__GNUC__",
            "-D__linux",     "-D__unix",
            "-D__SVR4",      "-D__Linux",
            "-D__amd64",     "-D__SUNW_D=1",
            "-D__SUNW_D_64", version_macro,
            "-D__DTX=1",     "-D__builtin_va_list=void *"};
}

// Runs cpp over `text` and returns its output with line markers kept, so
// diagnostics point into the original file. A `#!` first line is blanked
// first (cpp rejects it) without moving the lines below it.
Result<std::string> run_preprocessor(const std::string &path, std::string text,
                                     const std::vector<std::string> &cpp_args) {
    auto cannot_run = [](int errnum) {
        return Error(std::string("cannot run the C preprocessor: ") + std::strerror(errnum),
                     errnum);
    };
    if (text.rfind("#!", 0) == 0)
        text.replace(0, text.find('\n') == std::string::npos ? text.size() : text.find('\n'), "");
    text = "# 1 \"" + path + "\"\n" + text;

    // The input goes through a memfd so a large script cannot deadlock the pipe.
    int input = memfd_create("dtx-cpp-input", MFD_CLOEXEC);
    int out_pipe[2];
    if (input < 0 || pipe2(out_pipe, O_CLOEXEC) != 0)
        return cannot_run(errno);
    if (write(input, text.data(), text.size()) != ssize_t(text.size()) ||
        lseek(input, 0, SEEK_SET) != 0) {
        Error error = cannot_run(errno);
        close(input);
        return error;
    }

    std::vector<std::string> args = preprocessor_arguments();
    args.insert(args.end(), cpp_args.begin(), cpp_args.end());
    args.push_back("-");
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    pid_t child = fork();
    const int fork_errno = errno;
    if (child == 0) {
        dup2(input, STDIN_FILENO);
        dup2(out_pipe[1], STDOUT_FILENO);
        execvp("cpp", argv.data());
        _exit(127);
    }
    close(input);
    close(out_pipe[1]);
    if (child < 0) {
        close(out_pipe[0]);
        return cannot_run(fork_errno);
    }
    std::string output;
    char buffer[65536];
    ssize_t n;
    while ((n = read(out_pipe[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR)) {
        if (n > 0)
            output.append(buffer, size_t(n));
    }
    close(out_pipe[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return failure("cannot run the C preprocessor 'cpp' (is the cpp package installed?)");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return failure("the C preprocessor failed on " + path);
    return output;
}

} // namespace

std::string expand_field_description(ProgramSource::Kind kind, const std::string &text) {
    int padding = 0;
    switch (kind) {
    case ProgramSource::Kind::Provider:
        padding = 3;
        break;
    case ProgramSource::Kind::Module:
        padding = 2;
        break;
    case ProgramSource::Kind::Function:
        padding = 1;
        break;
    default:
        return text;
    }
    size_t end = text.find_first_of(" \t\n/{");
    std::string description = text.substr(0, end);
    std::string rest = end == std::string::npos ? "" : text.substr(end);
    return description + std::string(size_t(padding), ':') + rest;
}

Result<std::vector<LoadedSource>> load_program_sources(std::span<const ProgramSource> programs,
                                                       bool preprocess,
                                                       const std::vector<std::string> &cpp_args) {
    std::vector<LoadedSource> sources;
    size_t command_line_count = 0;
    for (const ProgramSource &source : programs)
        command_line_count += source.kind != ProgramSource::Kind::ScriptFile;

    size_t command_line_index = 0;
    for (const ProgramSource &source : programs) {
        LoadedSource loaded;
        if (source.kind == ProgramSource::Kind::ScriptFile) {
            Result<std::string> text = read_file(source.text);
            if (text && preprocess)
                text = run_preprocessor(source.text, std::move(*text), cpp_args);
            if (!text)
                return std::move(text).error();
            loaded.file = std::make_unique<SourceFile>(source.text, std::move(*text));
        } else {
            ++command_line_index;
            std::string name = command_line_count > 1
                                   ? "<command line " + std::to_string(command_line_index) + ">"
                                   : "<command line>";
            loaded.file = std::make_unique<SourceFile>(
                name, expand_field_description(source.kind, source.text));
            loaded.from_command_line = true;
        }
        sources.push_back(std::move(loaded));
    }
    return sources;
}

} // namespace dtx::session

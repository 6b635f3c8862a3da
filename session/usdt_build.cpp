// dtx -h and -G, as dtrace(1) takes them: the program's provider
// declarations become a C header (usdt_header.h) or the object that defines
// their semaphores (libtrace/semaphore_object.h). Nothing is traced, so
// nothing needs privileges.
//   dtx -h -s prov.d [-o prov.h]            without -o: ./prov.h
//   dtx -G -s prov.d [-o prov.o] [a.o ...]  without -o: ./prov.o
// The operands of -G are the objects the build links with it: dtrace
// rewrites their probe sites; with stapsdt notes none needs rewriting, so
// dtx only checks that they are ELF and takes their class and machine.

#include "libtrace/semaphore_object.h"
#include "session/session.h"
#include "session/session_impl.h"
#include "session/usdt_header.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace dtx::session {

namespace {

Error usage_error(std::string message) {
    return Error(std::move(message), ErrorKind::Usage);
}

std::string basename_of(const std::string &path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// -o's file, or as dtrace names it: the one script's basename with its .d
// replaced by .h (or .o), in the current directory.
Result<std::string> output_path(const Options &options, std::string_view flag,
                                std::string_view suffix) {
    if (!options.output_file.empty())
        return options.output_file;
    const std::string needs = std::string(flag) + " requires an output file (-o) if ";
    if (options.sources.size() > 1)
        return usage_error(needs + "multiple scripts are specified");
    const ProgramSource &source = options.sources.front();
    if (source.kind != ProgramSource::Kind::ScriptFile || !source.text.ends_with(".d"))
        return usage_error(needs + "no script ending in .d is specified");
    std::string name = basename_of(source.text);
    name.resize(name.size() - 2);
    if (name.empty())
        return usage_error(needs + "the script is named only .d");
    return name + std::string(suffix);
}

// The ELF format of the objects -G is linked with, which must agree; the
// host's without any.
Result<trace::ObjectFormat> link_format(const std::vector<std::string> &objects) {
    if (objects.empty())
        return trace::host_object_format();
    Result<trace::ObjectFormat> first = trace::object_format_of(objects.front());
    if (!first)
        return std::move(first).error().prefixed("-G");
    for (size_t i = 1; i < objects.size(); i++) {
        Result<trace::ObjectFormat> other = trace::object_format_of(objects[i]);
        if (!other)
            return std::move(other).error().prefixed("-G");
        if (!(*other == *first))
            return failure("-G: " + objects[i] + " is not of the ELF class, byte order and " +
                           "machine of " + objects.front());
    }
    return first;
}

Status write_file(const std::string &path, std::string_view contents) {
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return errno_error("failed to open " + path, "open", errno);
    while (!contents.empty()) {
        ssize_t written = write(fd, contents.data(), contents.size());
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0) {
            int errnum = written < 0 ? errno : ENOSPC;
            close(fd);
            return errno_error("failed to write " + path, "write", errnum);
        }
        contents.remove_prefix(size_t(written));
    }
    if (close(fd) != 0)
        return errno_error("failed to write " + path, "close", errno);
    return {};
}

} // namespace

Status Session::generate_usdt() {
    Impl &session = *impl_;
    const Options &options = session.options;
    const bool header = options.usdt_header;
    const std::string flag = header ? "-h" : "-G";
    if (options.sources.empty())
        return usage_error(flag + " requires one or more scripts or enabling options");
    Result<std::string> path = output_path(options, flag, header ? ".h" : ".o");
    if (!path)
        return std::move(path).error();
    Result<trace::ObjectFormat> format = trace::host_object_format();
    if (!header) {
        format = link_format(options.macro_args);
        if (!format)
            return std::move(format).error();
    }
    if (Status read = session.read_program(); !read)
        return read;

    DiagnosticEngine diagnostics;
    std::vector<UsdtProbeDefinition> probes = usdt_probe_definitions(session.program, diagnostics);
    if (Status checked = session.take_diagnostics(diagnostics); !checked)
        return checked;
    const std::string source_name = session.sources.front().file->name();
    if (probes.empty())
        return failure(flag + ": no provider declares a probe in " +
                       (options.sources.size() == 1 ? source_name : "the program") +
                       ": declare one, e.g. provider myprov { probe start(int, char *); };");

    if (header)
        return write_file(*path, usdt_header_text(probes, *path, basename_of(source_name)));
    std::vector<std::string> semaphores;
    for (const UsdtProbeDefinition &probe : probes)
        semaphores.push_back(probe.semaphore);
    return write_file(*path,
                      trace::semaphore_object(semaphores, *format, basename_of(source_name)));
}

} // namespace dtx::session

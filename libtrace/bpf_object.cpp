#include "libtrace/bpf_object.h"

#include <bpf/btf.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace dtx::trace {

namespace {

thread_local LibbpfMessageCapture *innermost_capture = nullptr;

int route_libbpf_message(libbpf_print_level level, const char *format, va_list args) {
    LibbpfMessageCapture *capture = innermost_capture;
    if (!capture)
        return 0;
    va_list measuring;
    va_copy(measuring, args);
    int length = std::vsnprintf(nullptr, 0, format, measuring);
    va_end(measuring);
    if (length <= 0)
        return 0;
    std::string text(static_cast<size_t>(length), '\0');
    std::vsnprintf(text.data(), text.size() + 1, format, args);
    capture->add(level, text);
    return 0;
}

// libbpf prints to stderr until a callback is installed; the first capture
// installs the router for the whole process.
void install_libbpf_message_router() {
    static std::once_flag once;
    std::call_once(once, [] { libbpf_set_print(route_libbpf_message); });
}

std::vector<std::string> last_lines(std::string_view text, size_t count) {
    std::vector<std::string> lines;
    size_t end = text.size();
    while (end > 0 && lines.size() < count) {
        size_t start = text.rfind('\n', end - 1);
        start = start == std::string_view::npos ? 0 : start + 1;
        if (start < end)
            lines.emplace_back(text.substr(start, end - start));
        end = start == 0 ? 0 : start - 1;
    }
    std::reverse(lines.begin(), lines.end());
    return lines;
}

std::vector<std::string> last_warnings(const std::vector<LibbpfMessage> &messages, size_t count) {
    std::vector<std::string> lines;
    for (auto it = messages.rbegin(); it != messages.rend() && lines.size() < count; ++it) {
        if (it->level == LIBBPF_WARN)
            lines.push_back(it->line);
    }
    std::reverse(lines.begin(), lines.end());
    return lines;
}

// libbpf names the program it is working on as "prog 'NAME': ..." in its
// warnings; the first such warning of a failed load names the culprit.
std::string program_named_in(const std::vector<LibbpfMessage> &messages) {
    constexpr std::string_view kMarker = "prog '";
    for (const LibbpfMessage &message : messages) {
        if (message.level != LIBBPF_WARN)
            continue;
        size_t start = message.line.find(kMarker);
        if (start == std::string::npos)
            continue;
        start += kMarker.size();
        size_t end = message.line.find('\'', start);
        if (end != std::string::npos)
            return message.line.substr(start, end - start);
    }
    return {};
}

} // namespace

LibbpfMessageCapture::LibbpfMessageCapture(std::optional<libbpf_print_level> echo_up_to)
    : echo_up_to_(echo_up_to), outer_(innermost_capture) {
    install_libbpf_message_router();
    innermost_capture = this;
}

LibbpfMessageCapture::~LibbpfMessageCapture() {
    if (!partial_line_.empty())
        messages_.push_back({LIBBPF_WARN, std::move(partial_line_)});
    innermost_capture = outer_;
}

void LibbpfMessageCapture::add(libbpf_print_level level, std::string_view text) {
    if (echo_up_to_ && level <= *echo_up_to_) {
        std::fwrite(text.data(), 1, text.size(), stderr);
    }
    size_t start = 0;
    for (size_t newline = text.find('\n'); newline != std::string_view::npos;
         newline = text.find('\n', start)) {
        partial_line_.append(text.substr(start, newline - start));
        messages_.push_back({level, std::move(partial_line_)});
        partial_line_.clear();
        start = newline + 1;
    }
    partial_line_.append(text.substr(start));
}

BpfObject::BpfObject(BpfObjectOptions options) : options_(std::move(options)) {}

BpfObject::~BpfObject() {
    bpf_object__close(object_);
}

Status BpfObject::open(std::vector<char> elf_image) {
    if (object_)
        return Error("BPF object '" + options_.name + "' is already open", ErrorKind::Failed,
                     EBUSY);
    LibbpfMessageCapture capture(options_.echo_libbpf_up_to);
    // libbpf reads the image during open only, but keeping it costs little
    // and frees us from depending on that.
    elf_image_ = std::move(elf_image);
    bpf_object_open_opts open_options{};
    open_options.sz = sizeof(open_options);
    open_options.object_name = options_.name.c_str();
    object_ = bpf_object__open_mem(elf_image_.data(), elf_image_.size(), &open_options);
    if (!object_) {
        int error_code = errno;
        keep_messages(capture);
        Error error("cannot open BPF object '" + options_.name + "': " + std::strerror(error_code),
                    ErrorKind::Failed, error_code);
        error.details = last_warnings(libbpf_messages_, options_.error_log_lines);
        return error;
    }

    // A buffer per program keeps each program's log apart; with log level 0
    // libbpf fills it only when the program fails and reloads it to find out why.
    bpf_program *program;
    bpf_object__for_each_program(program, object_) {
        VerifierLog &log = verifier_logs_.emplace_back(VerifierLog{
            .program = bpf_program__name(program),
            .buffer = std::make_unique_for_overwrite<char[]>(options_.verifier_log_size),
        });
        log.buffer[0] = '\0';
        bpf_program__set_log_buf(program, log.buffer.get(), options_.verifier_log_size);
        bpf_program__set_log_level(program, options_.verifier_log_level);
    }
    keep_messages(capture);
    return {};
}

bool BpfObject::set_global_variable(std::string_view name, std::span<const std::byte> value) {
    const btf *types = bpf_object__btf(object_);
    if (!types)
        return false;
    for (const char *section : {".rodata", ".data"}) {
        bpf_map *section_map = bpf_object__find_map_by_name(object_, section);
        int datasec_id = btf__find_by_name_kind(types, section, BTF_KIND_DATASEC);
        if (!section_map || datasec_id < 0)
            continue;
        const btf_type *datasec = btf__type_by_id(types, datasec_id);
        const btf_var_secinfo *variables = btf_var_secinfos(datasec);
        for (unsigned i = 0; i < btf_vlen(datasec); ++i) {
            const btf_type *variable = btf__type_by_id(types, variables[i].type);
            if (name != btf__name_by_offset(types, variable->name_off))
                continue;
            size_t section_size = 0;
            auto *initial =
                static_cast<const std::byte *>(bpf_map__initial_value(section_map, &section_size));
            if (!initial || variables[i].size != value.size() ||
                variables[i].offset + value.size() > section_size)
                return false;
            std::vector<std::byte> updated(initial, initial + section_size);
            std::copy(value.begin(), value.end(), updated.begin() + variables[i].offset);
            return bpf_map__set_initial_value(section_map, updated.data(), updated.size()) == 0;
        }
    }
    return false;
}

Status BpfObject::load() {
    if (!object_)
        return Error("BPF object '" + options_.name + "' is not open", ErrorKind::Failed, EINVAL);
    LibbpfMessageCapture capture(options_.echo_libbpf_up_to);
    int result = bpf_object__load(object_);
    keep_messages(capture);
    if (result != 0)
        return describe_load_failure(-result);
    // libbpf carries on without BTF the kernel rejected, dropping func_info
    // and map types with it; for dtx's objects that is a code generator bug
    // to report, not a degradation to hide.
    const btf *types = bpf_object__btf(object_);
    if (types && btf__fd(types) < 0) {
        Error error("the kernel rejected the BTF of BPF object '" + options_.name + "'",
                    ErrorKind::Failed, EINVAL);
        error.details = last_warnings(libbpf_messages_, options_.error_log_lines);
        return error;
    }
    return {};
}

KernelLimit kernel_limit(const Error &error) {
    static constexpr std::pair<std::string_view, KernelLimit> kSigns[] = {
        {"BPF program is too large", KernelLimit::Instructions},
        {"jumps is too complex", KernelLimit::Branches},
        {"too many subprograms", KernelLimit::Functions},
        {"number of maps per program", KernelLimit::Maps},
        {"combined stack size", KernelLimit::Stack},
    };
    for (const std::string &line : error.details)
        for (auto [sign, limit] : kSigns)
            if (line.find(sign) != std::string::npos)
                return limit;
    return KernelLimit::None;
}

Error BpfObject::describe_load_failure(int error_code) const {
    Error error;
    error.subject = program_named_in(libbpf_messages_);
    error.errnum = error_code;
    const VerifierLog *log = find_verifier_log(error.subject);
    if (error.subject.empty()) {
        // Programs load in order and loading stops at the first failure, so
        // the last program with a log is the one that failed.
        for (auto it = verifier_logs_.rbegin(); it != verifier_logs_.rend(); ++it) {
            if (it->buffer[0] != '\0') {
                log = &*it;
                error.subject = it->program;
                break;
            }
        }
    }

    std::string reason = std::strerror(error_code);
    if (log && log->buffer[0] != '\0') {
        // The kernel reports ENOSPC for a log that overflowed, hiding its
        // verdict; at log level 0 the log was only asked for after a failure.
        std::string log_size = std::to_string(options_.verifier_log_size);
        // Helpers a lockdown mode refuses (copyout() and copyoutstr() use
        // bpf_probe_write_user): say so rather than show the verifier's log.
        if (std::strstr(log->buffer.get(), "cannot use helper bpf_probe_write_user")) {
            error.message = "program '" + error.subject +
                            "' writes user memory (copyout(), copyoutstr()) with "
                            "bpf_probe_write_user, which this kernel refuses (a lockdown mode or "
                            "a security module forbids it)";
            return error;
        }
        if (error_code != ENOSPC)
            error.message = "the BPF verifier rejected program '" + error.subject + "': " + reason;
        else if (options_.verifier_log_level == 0)
            error.message = "the BPF verifier rejected program '" + error.subject +
                            "' (its log exceeds " + log_size + " bytes; this is its end)";
        else
            error.message = "program '" + error.subject + "' did not load: its verifier log " +
                            "exceeds " + log_size + " bytes";
        error.details = last_lines(log->buffer.get(), options_.error_log_lines);
        return error;
    }
    error.message = error.subject.empty()
                        ? "cannot load BPF object '" + options_.name + "': " + reason
                        : "cannot load BPF program '" + error.subject + "': " + reason;
    error.details = last_warnings(libbpf_messages_, options_.error_log_lines);
    return error;
}

const BpfObject::VerifierLog *BpfObject::find_verifier_log(std::string_view program) const {
    for (const VerifierLog &log : verifier_logs_) {
        if (log.program == program)
            return &log;
    }
    return nullptr;
}

void BpfObject::keep_messages(const LibbpfMessageCapture &capture) {
    libbpf_messages_.insert(libbpf_messages_.end(), capture.messages().begin(),
                            capture.messages().end());
}

bpf_program *BpfObject::program(std::string_view name) const {
    return object_ ? bpf_object__find_program_by_name(object_, std::string(name).c_str()) : nullptr;
}

bpf_map *BpfObject::map(std::string_view name) const {
    return object_ ? bpf_object__find_map_by_name(object_, std::string(name).c_str()) : nullptr;
}

int BpfObject::program_fd(std::string_view name) const {
    bpf_program *found = program(name);
    int fd = found ? bpf_program__fd(found) : -1;
    return fd < 0 ? -1 : fd;
}

int BpfObject::map_fd(std::string_view name) const {
    bpf_map *found = map(name);
    int fd = found ? bpf_map__fd(found) : -1;
    return fd < 0 ? -1 : fd;
}

std::string_view BpfObject::verifier_log(std::string_view program) const {
    const VerifierLog *log = find_verifier_log(program);
    return log ? std::string_view(log->buffer.get()) : std::string_view();
}

} // namespace dtx::trace

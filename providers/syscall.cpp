// The syscall provider: a probe at the entry and the return of every system
// call that the running kernel has tracefs events for.
//   syscall:vmlinux:NAME:entry   arg0..arg5 are the call's arguments
//   syscall:vmlinux:NAME:return  arg0 and arg1 are its return value; errno is
//                                -value when it is in [-4095, -1], else 0
// NAME is the event name in tracefs without sys_enter_ (as dtrace-utils names
// them), so stat is `newstat`; a call whose x86-64 number providers/
// syscall_table.h does not know is not offered.
//
// All entry probes share one raw tracepoint program on sys_enter and all return
// probes one on sys_exit (providers/syscall_programs.h). An int 0x80 call from
// a 64-bit process is not recognised as one (that needs the task's TS_COMPAT
// status).
#include "providers/syscall.h"

#include "libtrace/tracefs.h"
#include "providers/registry.h"
#include "providers/syscall_programs.h"
#include "providers/syscall_table.h"

#include <linux/bpf.h>

#include <algorithm>
#include <bit>
#include <sstream>

namespace dtx::providers {

namespace {

constexpr std::string_view kModule = "vmlinux";

struct SyscallProbeData final : trace::ProbeData {
    uint32_t number = 0;
    bool is_return = false;
};

struct SyscallEvent {
    std::string name; // tracefs' sys_enter_NAME
    uint32_t number = 0;
};

std::string fixed_width(uint32_t size, bool is_signed) {
    uint32_t bits = std::clamp<uint32_t>(size, 1, 8) * 8;
    bits = std::bit_ceil(bits);
    return (is_signed ? "int" : "uint") + std::to_string(bits) + "_t";
}

// A scalar type name after `const` is removed: its D spelling, or "" when it
// is not one D knows (a struct, or a typedef of neither C nor the kernel's
// common ones).
std::string scalar_spelling(const std::string &base) {
    static constexpr std::string_view kAsIs[] = {
        "void",   "char",         "signed char", "unsigned char", "short",     "unsigned short",
        "int",    "unsigned int", "long",        "unsigned long", "long long", "unsigned long long",
        "size_t", "ssize_t",      "pid_t",       "uid_t",         "gid_t",     "off_t",
        "mode_t", "time_t",       "clock_t",
    };
    // Kernel typedefs, by their definitions in include/linux/types.h,
    // include/uapi/asm-generic/posix_types.h and include/uapi/linux/*.h.
    static constexpr std::pair<std::string_view, std::string_view> kKernelTypedefs[] = {
        {"unsigned", "unsigned int"},
        {"umode_t", "uint16_t"},
        {"loff_t", "int64_t"},
        {"clockid_t", "int32_t"},
        {"timer_t", "int32_t"},
        {"mqd_t", "int32_t"},
        {"key_t", "int32_t"},
        {"key_serial_t", "int32_t"},
        {"rwf_t", "int32_t"},
        {"qid_t", "uint32_t"},
        {"aio_context_t", "uint64_t"},
        {"__kernel_old_time_t", "int64_t"},
        {"u8", "uint8_t"},
        {"u16", "uint16_t"},
        {"u32", "uint32_t"},
        {"u64", "uint64_t"},
        {"s8", "int8_t"},
        {"s16", "int16_t"},
        {"s32", "int32_t"},
        {"s64", "int64_t"},
        {"__u8", "uint8_t"},
        {"__u16", "uint16_t"},
        {"__u32", "uint32_t"},
        {"__u64", "uint64_t"},
        {"__s8", "int8_t"},
        {"__s16", "int16_t"},
        {"__s32", "int32_t"},
        {"__s64", "int64_t"},
    };
    if (std::find(std::begin(kAsIs), std::end(kAsIs), base) != std::end(kAsIs))
        return base;
    for (auto [name, spelling] : kKernelTypedefs)
        if (name == base)
            return std::string(spelling);
    if (base.starts_with("enum "))
        return "int";
    return "";
}

// Typedefs of pointers (capability.h's cap_user_header_t...).
bool is_pointer_typedef(const std::string &base) {
    return base == "cap_user_header_t" || base == "cap_user_data_t";
}

} // namespace

std::string syscall_argument_type(std::string_view kernel_type, uint32_t size, bool is_signed) {
    // Words before the first '*' name the base type; each '*' is a level of pointer.
    std::string spaced;
    for (char c : kernel_type)
        spaced += c == '*' ? std::string(" * ") : std::string(1, c);
    std::istringstream words(spaced);
    std::string base, word;
    bool base_const = false;
    unsigned pointers = 0;
    while (words >> word) {
        if (word == "*")
            pointers++;
        else if (pointers > 0 || word == "volatile")
            continue;
        else if (word == "const")
            base_const = true;
        else
            base += (base.empty() ? "" : " ") + word;
    }
    std::string scalar = scalar_spelling(base);
    if (pointers == 0) {
        if (is_pointer_typedef(base))
            return "void *";
        return scalar.empty() ? fixed_width(size, is_signed) : scalar;
    }
    if (pointers == 1 && !scalar.empty())
        return (base_const ? "const " : "") + scalar + " *";
    return "void *";
}

std::vector<trace::ProbeArgument> syscall_event_arguments(const trace::TracepointFormat &format) {
    std::vector<trace::ProbeArgument> arguments;
    for (const trace::TracepointField &field : format.fields)
        if (field.name != "__syscall_nr")
            arguments.push_back(
                {syscall_argument_type(field.type, field.size, field.is_signed), 0, field.name});
    return arguments;
}

namespace {

class SyscallProvider final : public Provider {
public:
    std::string_view name() const override { return "syscall"; }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        if (!trace::glob_match(pattern.provider, "syscall") ||
            !trace::glob_match(pattern.module, kModule) ||
            (!trace::glob_match(pattern.name, "entry") &&
             !trace::glob_match(pattern.name, "return")))
            return {};
        if (Status read = read_events(); !read)
            return read;
        for (const SyscallEvent &event : events_) {
            if (!trace::glob_match(pattern.function, event.name))
                continue;
            for (bool is_return : {false, true})
                if (trace::glob_match(pattern.name, is_return ? "return" : "entry"))
                    out.push_back(&add(table, event, is_return));
        }
        return {};
    }

    void list(trace::ProbeTable &table) override {
        if (!read_events())
            return;
        for (const SyscallEvent &event : events_)
            for (bool is_return : {false, true})
                add(table, event, is_return);
    }

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        if (!read_events())
            return {};
        std::string event =
            (data_of(probe).is_return ? "sys_exit_" : "sys_enter_") + probe.name.function;
        Result<std::string> text = trace::read_tracepoint_format(tracefs_dir_, "syscalls", event);
        Result<trace::TracepointFormat> format =
            text ? trace::parse_tracepoint_format(*text) : std::move(text).error();
        return format ? syscall_event_arguments(*format) : std::vector<trace::ProbeArgument>{};
    }

    // As the Solaris syscall provider declares them.
    ProviderAttributes attributes() const override {
        constexpr Attributes kEvolvingCommon{Stability::Evolving, Stability::Evolving,
                                             DependencyClass::Common};
        constexpr Attributes kPrivateIsa{Stability::Private, Stability::Private,
                                         DependencyClass::Isa};
        return {kEvolvingCommon, Attributes{}, kPrivateIsa, kEvolvingCommon, kPrivateIsa};
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        std::vector<SyscallProbe> entries, returns;
        for (const trace::Probe *probe : enabled)
            (data_of(*probe).is_return ? returns : entries)
                .push_back({probe, data_of(*probe).number});
        std::vector<Trampoline> out;
        if (!entries.empty())
            out.push_back(syscall_tracepoint_program("dtx_syscall_entry", std::move(entries), false,
                                                     SyscallArguments::Call));
        if (!returns.empty())
            out.push_back(syscall_tracepoint_program("dtx_syscall_return", std::move(returns), true,
                                                     SyscallArguments::Call));
        return out;
    }

private:
    static const SyscallProbeData &data_of(const trace::Probe &probe) {
        return static_cast<const SyscallProbeData &>(*probe.data);
    }

    // Reads the names of the syscall events once; fails, every time, if
    // tracefs cannot be read.
    Status read_events() {
        if (events_read_)
            return events_listed_;
        events_read_ = true;
        Result<std::string> dir = trace::find_or_mount_tracefs();
        if (!dir)
            return events_listed_ = dir.error().prefixed("syscall provider");
        tracefs_dir_ = *dir;
        Result<std::vector<std::string>> names = trace::list_tracepoints(tracefs_dir_, "syscalls");
        if (!names)
            return events_listed_ = names.error().prefixed("syscall provider");
        constexpr std::string_view kEntryPrefix = "sys_enter_";
        for (const std::string &event : *names) {
            if (!event.starts_with(kEntryPrefix))
                continue;
            std::string name = event.substr(kEntryPrefix.size());
            if (std::optional<uint32_t> number = x86_64_syscall_number(name))
                events_.push_back({std::move(name), *number});
        }
        return {};
    }

    const trace::Probe &add(trace::ProbeTable &table, const SyscallEvent &event, bool is_return) {
        trace::ProbeName name{"syscall", std::string(kModule), event.name,
                              is_return ? "return" : "entry"};
        auto data = std::make_shared<SyscallProbeData>();
        data->number = event.number;
        data->is_return = is_return;
        return table.add(std::move(name), std::move(data));
    }

    bool events_read_ = false;
    Status events_listed_;
    std::string tracefs_dir_;
    std::vector<SyscallEvent> events_; // sorted by name
};

} // namespace

std::unique_ptr<Provider> make_syscall_provider() {
    return std::make_unique<SyscallProvider>();
}

} // namespace dtx::providers

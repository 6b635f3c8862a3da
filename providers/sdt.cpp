// The sdt provider (alias tracepoint): the kernel's tracefs tracepoints.
//   sdt:GROUP::EVENT   tracefs event GROUP:EVENT (events/GROUP/EVENT), e.g.
//                      sdt:sched::sched_switch; module = the group, no function
//   tracepoint:GROUP::EVENT   the same probe by its other provider name: it
//                      matches the sdt probe, which keeps its name (probeprov,
//                      -l and the output say sdt), so a probe is never two
//                      probes with two IDs
// Probes come from tracefs available_events, read once; the kprobes and
// uprobes groups (dynamic events other tools create) are left out, as
// dtrace-utils does. args[0..9] are the event's fields after the common_ ones,
// typed by its format file (sdt_arguments() in sdt.h).
//
// Each event has a BPF_PROG_TYPE_TRACEPOINT program whose context is the raw
// record; events whose arguments sit at the same offsets with the same sizes
// share one program, attached to each through a perf event with the probe ID
// as its bpf cookie. The syscalls group's events, whose fields are the call's
// number and arguments (or return value), are served instead by the syscall
// provider's programs on the raw sys_enter and sys_exit tracepoints
// (syscall_programs.h): two links for any number of calls, which detach at
// once, where closing a tracepoint's perf event waits for a grace period.
// raw_syscalls:sys_enter and sys_exit are BTF-typed programs on their raw
// tracepoints (raw_syscalls_program()), which read the record's fields from
// the tracepoint's arguments (struct pt_regs, the number or return value)
// without the record the kernel would build for a perf event.
#include "providers/sdt.h"

#include "libtrace/tracefs.h"
#include "providers/registry.h"
#include "providers/syscall_programs.h"
#include "providers/syscall_table.h"

#include <linux/bpf.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <string_view>

namespace dtx::providers {

namespace {

constexpr std::string_view kProviderName = "sdt";
constexpr std::string_view kAliasName = "tracepoint";
// Groups of dynamic events (kprobe_events, uprobe_events) that other tools create.
constexpr std::string_view kSkippedGroups[] = {"kprobes", "uprobes"};

struct IntegerType {
    std::string_view name;
    uint32_t size;
    bool is_signed;
    // The D spelling args[N] keeps; empty: int8_t ... uint64_t by size and sign.
    std::string_view spelling;
};

// Integer type names seen in format files, with x86-64 sizes: C's own keep
// their spelling when the field has their size and sign; the rest are
// spelled by size.
constexpr IntegerType kIntegerTypes[] = {
    {"char", 1, true, "char"},
    {"signed char", 1, true, "signed char"},
    {"unsigned char", 1, false, "unsigned char"},
    {"bool", 1, false, "bool"},
    {"_Bool", 1, false, "bool"},
    {"short", 2, true, "short"},
    {"short int", 2, true, "short"},
    {"unsigned short", 2, false, "unsigned short"},
    {"short unsigned int", 2, false, "unsigned short"},
    {"int", 4, true, "int"},
    {"unsigned int", 4, false, "unsigned int"},
    {"unsigned", 4, false, "unsigned int"},
    {"long", 8, true, "long"},
    {"long int", 8, true, "long"},
    {"unsigned long", 8, false, "unsigned long"},
    {"long unsigned int", 8, false, "unsigned long"},
    {"long long", 8, true, "long long"},
    {"unsigned long long", 8, false, "unsigned long long"},
    {"u8", 1, false, {}},
    {"u16", 2, false, {}},
    {"u32", 4, false, {}},
    {"u64", 8, false, {}},
    {"s8", 1, true, {}},
    {"s16", 2, true, {}},
    {"s32", 4, true, {}},
    {"s64", 8, true, {}},
    {"__u8", 1, false, {}},
    {"__u16", 2, false, {}},
    {"__u32", 4, false, {}},
    {"__u64", 8, false, {}},
    {"__s8", 1, true, {}},
    {"__s16", 2, true, {}},
    {"__s32", 4, true, {}},
    {"__s64", 8, true, {}},
    {"uint8_t", 1, false, {}},
    {"uint16_t", 2, false, {}},
    {"uint32_t", 4, false, {}},
    {"uint64_t", 8, false, {}},
    {"int8_t", 1, true, {}},
    {"int16_t", 2, true, {}},
    {"int32_t", 4, true, {}},
    {"int64_t", 8, true, {}},
};

const IntegerType *find_integer_type(std::string_view name) {
    for (const IntegerType &type : kIntegerTypes)
        if (type.name == name)
            return &type;
    return nullptr;
}

bool is_integer_size(uint32_t size) {
    return size == 1 || size == 2 || size == 4 || size == 8;
}

std::string sized_integer(uint32_t size, bool is_signed) {
    return (is_signed ? "int" : "uint") + std::to_string(size * 8) + "_t";
}

// The D spelling of an integer held in `size` bytes whose declared type is `declared`.
std::string integer_spelling(std::string_view declared, uint32_t size, bool is_signed) {
    const IntegerType *type = find_integer_type(declared);
    if (type && !type->spelling.empty() && type->size == size && type->is_signed == is_signed)
        return std::string(type->spelling);
    return sized_integer(size, is_signed);
}

// Removes `const` and `volatile` words: "const char" -> "char".
std::string unqualified(std::string_view type) {
    std::string out;
    size_t at = 0;
    while (at < type.size()) {
        size_t end = type.find(' ', at);
        std::string_view word = type.substr(at, end == std::string_view::npos ? end : end - at);
        if (!word.empty() && word != "const" && word != "volatile")
            out += (out.empty() ? "" : " ") + std::string(word);
        at = end == std::string_view::npos ? type.size() : end + 1;
    }
    return out;
}

// What the trampoline stores in argN for a field.
enum class ArgumentSource {
    Integer,        // the value, sign- or zero-extended to 64 bits
    RecordAddress,  // ctx + offset: an array or struct held in the record
    DataLocAddress, // ctx + (u32 at offset & 0xffff)
    RelLocAddress,  // ctx + offset + 4 + (u32 at offset & 0xffff)
};

ArgumentSource source_of(const trace::TracepointField &field) {
    switch (field.kind) {
    case trace::TracepointFieldKind::Scalar:
        return is_integer_size(field.size) ? ArgumentSource::Integer
                                           : ArgumentSource::RecordAddress;
    case trace::TracepointFieldKind::Array:
        return ArgumentSource::RecordAddress;
    case trace::TracepointFieldKind::DataLoc:
        return ArgumentSource::DataLocAddress;
    case trace::TracepointFieldKind::RelLoc:
        return ArgumentSource::RelLocAddress;
    }
    return ArgumentSource::Integer;
}

std::string argument_type(const trace::TracepointField &field) {
    std::string element = unqualified(field.type);
    const IntegerType *element_type = find_integer_type(element);
    // A pointer to the first element, where the count is not fixed.
    auto element_pointer = [&] {
        return element_type ? sized_integer(element_type->size, element_type->is_signed) + " *"
                            : std::string("void *");
    };
    switch (field.kind) {
    case trace::TracepointFieldKind::Scalar:
        if (field.is_pointer) {
            std::string pointee = unqualified(field.type.substr(0, field.type.size() - 1));
            if (pointee != "char")
                return "void *";
            return field.type.starts_with("const ") ? "const char *" : "char *";
        }
        if (!is_integer_size(field.size))
            return "uint8_t [" + std::to_string(field.size) + "]";
        return integer_spelling(field.type, field.size, field.is_signed);
    case trace::TracepointFieldKind::Array: {
        if (field.array_count == 0) { // char buf[], or a bound we could not evaluate
            if (element == "char")
                return "string";
            return field.size == 0 ? element_pointer()
                                   : "uint8_t [" + std::to_string(field.size) + "]";
        }
        std::string count = "[" + std::to_string(field.array_count) + "]";
        if (element == "char")
            return "char " + count;
        uint32_t element_size = field.size / field.array_count;
        if (!is_integer_size(element_size) || element_size * field.array_count != field.size)
            return "uint8_t [" + std::to_string(field.size) + "]";
        return integer_spelling(element, element_size,
                                element_type ? element_type->is_signed : false) +
               " " + count;
    }
    case trace::TracepointFieldKind::DataLoc:
    case trace::TracepointFieldKind::RelLoc:
        return element == "char" ? "string" : element_pointer();
    }
    return "void *";
}

struct SdtProbeData final : trace::ProbeData {
    std::string group, event;
};

// One field as the trampoline loads it; equal lists share a program.
struct ArgumentLoad {
    ArgumentSource source;
    uint32_t offset, size;
    bool is_signed;
    auto operator<=>(const ArgumentLoad &) const = default;
};

llvm::Value *load_integer(llvm::IRBuilder<> &ir, llvm::Value *ctx, uint32_t offset, uint32_t size,
                          bool is_signed) {
    llvm::Type *type = ir.getIntNTy(size * 8);
    llvm::Value *value;
    if (offset % size == 0) {
        value = ir.CreateLoad(type, ir.CreateConstGEP1_64(ir.getInt8Ty(), ctx, offset));
    } else {
        // The verifier takes only naturally aligned context loads, and
        // volatile keeps LLVM from merging the bytes back into one load.
        value = llvm::ConstantInt::get(type, 0);
        for (uint32_t i = 0; i < size; i++) {
            llvm::LoadInst *byte = ir.CreateLoad(
                ir.getInt8Ty(), ir.CreateConstGEP1_64(ir.getInt8Ty(), ctx, offset + i));
            byte->setVolatile(true);
            value = ir.CreateOr(value, ir.CreateShl(ir.CreateZExt(byte, type), uint64_t(i) * 8));
        }
    }
    return is_signed ? ir.CreateSExt(value, ir.getInt64Ty())
                     : ir.CreateZExtOrTrunc(value, ir.getInt64Ty());
}

llvm::Value *load_argument(llvm::IRBuilder<> &ir, llvm::Value *ctx, const ArgumentLoad &load) {
    llvm::Value *base = ir.CreatePtrToInt(ctx, ir.getInt64Ty());
    switch (load.source) {
    case ArgumentSource::Integer:
        return load_integer(ir, ctx, load.offset, load.size, load.is_signed);
    case ArgumentSource::RecordAddress:
        return ir.CreateAdd(base, ir.getInt64(load.offset));
    case ArgumentSource::DataLocAddress:
    case ArgumentSource::RelLocAddress: {
        llvm::Value *location = load_integer(ir, ctx, load.offset, 4, false);
        llvm::Value *offset = ir.CreateAnd(location, ir.getInt64(0xffff));
        if (load.source == ArgumentSource::RelLocAddress)
            offset = ir.CreateAdd(offset, ir.getInt64(load.offset + 4));
        return ir.CreateAdd(base, offset);
    }
    }
    return ir.getInt64(0);
}

class SdtProvider final : public Provider {
public:
    // Over the tracefs at `tracefs_dir`; empty: the system's, found (or
    // mounted) when a probe description first needs it.
    explicit SdtProvider(std::string tracefs_dir) : tracefs_dir_(std::move(tracefs_dir)) {}

    std::string_view name() const override { return kProviderName; }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        if ((!trace::glob_match(pattern.provider, kProviderName) &&
             !trace::glob_match(pattern.provider, kAliasName)) ||
            !trace::glob_match(pattern.function, "") || !could_name_kernel_event(pattern.name))
            return {};
        if (Status loaded = load_events(); !loaded) {
            // Only a description that names this provider needs tracefs.
            if (trace::has_glob(pattern.provider) || pattern.provider.empty())
                return {};
            return loaded.error().prefixed("probe '" + pattern.full() + "'");
        }
        for (const trace::TracefsEvent &event : events_)
            if (trace::glob_match(pattern.module, event.category) &&
                trace::glob_match(pattern.name, event.event))
                out.push_back(&add(table, event));
        return {};
    }

    void list(trace::ProbeTable &table) override {
        if (!load_events())
            return;
        for (const trace::TracefsEvent &event : events_)
            add(table, event);
    }

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        const Result<trace::TracepointFormat> &format = format_of(probe);
        return format ? sdt_arguments(*format) : std::vector<trace::ProbeArgument>{};
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        // Probes whose arguments load alike share a program.
        std::map<std::vector<ArgumentLoad>, std::vector<const trace::Probe *>> shapes;
        std::vector<SyscallProbe> entries, returns;
        std::vector<Trampoline> out;
        for (const trace::Probe *probe : enabled) {
            if (std::optional<SyscallEvent> call = syscall_event(*probe)) {
                (call->is_return ? returns : entries).push_back({probe, call->number});
                continue;
            }
            if (std::optional<bool> is_return = raw_syscalls_event(*probe))
                if (std::optional<Trampoline> program = raw_syscalls_program(
                        "dtx_sdt_raw_" + data_of(*probe).event, *probe, *is_return)) {
                    out.push_back(std::move(*program));
                    continue;
                }
            shapes[loads_of(probe_format(*probe))].push_back(probe);
        }
        if (!entries.empty())
            out.push_back(syscall_tracepoint_program("dtx_sdt_sys_enter", std::move(entries), false,
                                                     SyscallArguments::NumberFirst));
        if (!returns.empty())
            out.push_back(syscall_tracepoint_program("dtx_sdt_sys_exit", std::move(returns), true,
                                                     SyscallArguments::NumberFirst));
        programs_to_attach_ = shapes.size();
        refused_.clear();
        for (auto &[loads, probes] : shapes)
            out.push_back(
                trampoline("dtx_sdt_" + std::to_string(out.size()), loads, std::move(probes)));
        return out;
    }

private:
    static const SdtProbeData &data_of(const trace::Probe &probe) {
        return static_cast<const SdtProbeData &>(*probe.data);
    }

    // A syscalls event whose fields are the call's number and arguments (or
    // return value): served from the raw sys_enter and sys_exit
    // tracepoints, whose links detach at once, where a perf event per
    // tracepoint costs a grace period each to close.
    struct SyscallEvent {
        uint32_t number;
        bool is_return;
    };
    static std::optional<SyscallEvent> syscall_event(const trace::Probe &probe) {
        const SdtProbeData &data = data_of(probe);
        if (data.group != "syscalls")
            return std::nullopt;
        for (auto [prefix, is_return] :
             {std::pair<std::string_view, bool>{"sys_enter_", false}, {"sys_exit_", true}})
            if (data.event.starts_with(prefix))
                if (std::optional<uint32_t> number =
                        x86_64_syscall_number(std::string_view(data.event).substr(prefix.size())))
                    return SyscallEvent{*number, is_return};
        return std::nullopt;
    }

    // raw_syscalls:sys_enter (false) or sys_exit (true) with the record
    // raw_syscalls_program() fills args[] for: served from the raw
    // tracepoint, whose program costs half of the tracefs event's (no
    // record to build) and whose link detaches at once.
    std::optional<bool> raw_syscalls_event(const trace::Probe &probe) {
        const SdtProbeData &data = data_of(probe);
        if (data.group != "raw_syscalls" || (data.event != "sys_enter" && data.event != "sys_exit"))
            return std::nullopt;
        const trace::TracepointFormat *format = probe_format(probe);
        if (!format)
            return std::nullopt;
        const bool is_return = data.event == "sys_exit";
        std::vector<std::string> types;
        for (const trace::ProbeArgument &argument : sdt_arguments(*format))
            types.push_back(argument.type);
        if (types != std::vector<std::string>{"long", is_return ? "long" : "unsigned long [6]"})
            return std::nullopt;
        return is_return;
    }

    // Lists the tracefs events once; fails, every time, if tracefs is out of
    // reach.
    Status load_events() {
        if (events_loaded_)
            return events_listed_;
        events_loaded_ = true;
        if (tracefs_dir_.empty()) {
            Result<std::string> dir = trace::find_or_mount_tracefs();
            if (!dir)
                return events_listed_ = std::move(dir).error();
            tracefs_dir_ = *dir;
        }
        Result<std::vector<trace::TracefsEvent>> events =
            trace::list_available_events(tracefs_dir_);
        if (!events)
            return events_listed_ = std::move(events).error();
        for (trace::TracefsEvent &event : *events) {
            bool skipped = false;
            for (std::string_view group : kSkippedGroups)
                skipped |= event.category == group;
            if (!skipped)
                events_.push_back(std::move(event));
        }
        return {};
    }

    const trace::Probe &add(trace::ProbeTable &table, const trace::TracefsEvent &event) {
        trace::ProbeName name{std::string(kProviderName), event.category, "", event.event};
        if (const trace::Probe *known = table.find(name))
            return *known;
        auto data = std::make_shared<SdtProbeData>();
        data->group = event.category;
        data->event = event.event;
        return table.add(std::move(name), std::move(data));
    }

    // The probe's parsed format file, read once; an error says why there is
    // none.
    const Result<trace::TracepointFormat> &format_of(const trace::Probe &probe) {
        if (auto known = formats_.find(probe.id); known != formats_.end())
            return known->second;
        return formats_.emplace(probe.id, read_format(data_of(probe))).first->second;
    }

    Result<trace::TracepointFormat> read_format(const SdtProbeData &data) const {
        Result<std::string> text =
            trace::read_tracepoint_format(tracefs_dir_, data.group, data.event);
        if (!text)
            return std::move(text).error();
        Result<trace::TracepointFormat> format = trace::parse_tracepoint_format(*text);
        if (format)
            return format;
        Error error = std::move(format).error();
        error.message =
            "tracepoint " + data.group + ":" + data.event + ": its format file, " + error.message;
        return error;
    }

    const trace::TracepointFormat *probe_format(const trace::Probe &probe) {
        const Result<trace::TracepointFormat> &format = format_of(probe);
        return format ? &*format : nullptr;
    }

    static std::vector<ArgumentLoad> loads_of(const trace::TracepointFormat *format) {
        std::vector<ArgumentLoad> loads;
        if (!format)
            return loads;
        for (const trace::TracepointField &field : format->fields) {
            if (loads.size() == codegen::ClauseContextLayout::arg_count)
                break;
            loads.push_back({source_of(field), field.offset, field.size, field.is_signed});
        }
        return loads;
    }

    Trampoline trampoline(std::string program_name, std::vector<ArgumentLoad> loads,
                          std::vector<const trace::Probe *> probes) {
        Trampoline t;
        t.spec.program_name = std::move(program_name);
        t.spec.section = "tracepoint";
        t.spec.probes = probes;
        t.spec.emit = [loads](codegen::TrampolineBuilder &b) {
            llvm::IRBuilder<> &ir = b.ir();
            llvm::Value *ctx = b.entry().getArg(0);
            llvm::Value *dctx = b.clause_context();
            b.store_probe_id(dctx,
                             b.call_helper(BPF_FUNC_get_attach_cookie, ir.getInt64Ty(), {ctx}));
            b.clear_arguments(dctx);
            for (size_t i = 0; i < loads.size(); i++)
                b.store_argument(dctx, unsigned(i), load_argument(ir, ctx, loads[i]));
            b.run_clauses(dctx);
        };
        t.attach = [this, probes](AttachContext &context) -> Status {
            for (const trace::Probe *probe : probes) {
                // Its program reads no field: it would fire with arguments
                // nobody could type.
                const Result<trace::TracepointFormat> &format = format_of(*probe);
                if (!format) {
                    context.warnings.push_back("probe '" + probe->name.full() +
                                               "' left out: " + format.error().message);
                    continue;
                }
                const SdtProbeData &data = data_of(*probe);
                auto attached = context.attachments.attach_tracepoint(
                    context.program_fd, data.group, data.event, probe->id);
                if (attached)
                    continue;
                if (!refuses_the_event(attached.error()))
                    return attached.error().prefixed("probe '" + probe->name.full() + "'");
                refused_.push_back({probe, attached.error().errnum});
            }
            if (--programs_to_attach_ == 0 && !refused_.empty())
                context.warnings.push_back(refusal_warning());
            return {};
        };
        return t;
    }

    // Whether an attach error is the kernel refusing this one tracepoint (it
    // takes no BPF program, or went away since it was listed) rather than
    // what every other one would meet too (no permission, no memory).
    static bool refuses_the_event(const Error &error) {
        return error.errnum == EINVAL || error.errnum == ENOENT || error.errnum == EOPNOTSUPP ||
               error.errnum == ENODEV;
    }

    // One warning for every tracepoint the kernel refused: the first few with
    // the reason, then how many more.
    std::string refusal_warning() const {
        constexpr size_t kNamed = 5;
        std::string text = std::to_string(refused_.size()) +
                           (refused_.size() == 1 ? " tracepoint" : " tracepoints") +
                           " left out: the kernel refused to attach ";
        for (size_t i = 0; i < refused_.size() && i < kNamed; i++)
            text += (i ? ", '" : "'") + refused_[i].probe->name.full() + "' (" +
                    std::strerror(refused_[i].errnum) + ")";
        if (refused_.size() > kNamed)
            text += " and " + std::to_string(refused_.size() - kNamed) + " more";
        return text;
    }

    struct RefusedProbe {
        const trace::Probe *probe;
        int errnum;
    };
    // The tracepoint programs whose attach() has yet to run, and what the
    // kernel refused so far: the last one to attach says it, once.
    size_t programs_to_attach_ = 0;
    std::vector<RefusedProbe> refused_;

    bool events_loaded_ = false;
    Status events_listed_;
    std::string tracefs_dir_;
    std::vector<trace::TracefsEvent> events_;
    std::map<uint32_t, Result<trace::TracepointFormat>> formats_; // by probe ID
};

} // namespace

std::vector<trace::ProbeArgument> sdt_arguments(const trace::TracepointFormat &format) {
    std::vector<trace::ProbeArgument> arguments;
    for (const trace::TracepointField &field : format.fields) {
        if (arguments.size() == codegen::ClauseContextLayout::arg_count)
            break;
        arguments.push_back({argument_type(field), 0, field.name});
    }
    return arguments;
}

std::unique_ptr<Provider> make_sdt_provider() {
    return std::make_unique<SdtProvider>(std::string());
}

std::unique_ptr<Provider> make_sdt_provider(std::string tracefs_dir) {
    return std::make_unique<SdtProvider>(std::move(tracefs_dir));
}

} // namespace dtx::providers

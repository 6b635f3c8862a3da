// The rawtp provider: the kernel's tracepoints as raw tracepoints, whose
// programs get the tracepoint's own arguments instead of its tracefs record.
//   rawtp:CATEGORY::EVENT   tracepoint EVENT; CATEGORY is the tracefs group
//                           of its event (rawtp:sched::sched_switch), or
//                           "vmlinux" for tracepoints without one
//                           (rawtp:vmlinux::sched_util_est_cfs_tp)
// With vmlinux BTF the probes are its btf_trace_EVENT typedefs, and args[N]
// are the tracepoint's parameters with their BTF types (args[0]->pid on a
// struct task_struct *); without BTF, the tracefs events with untyped argN.
// Tracepoints of modules are not listed while vmlinux BTF is there (their
// types are in the modules' BTF).
//
// A raw_tp program's context is the array of its u64 arguments; the kernel
// refuses to attach a program that reads more of them than the tracepoint
// has, so probes share a program only with others of the same argument
// count. Where raw tracepoints take bpf cookies (Linux 6.10) such probes
// share one program and the cookie carries the probe ID; before, each probe
// has a program with its ID built in. Each attachment is a bpf link.
#include "providers/rawtp.h"

#include "libtrace/btf_spelling.h"
#include "libtrace/vmlinux_btf.h"
#include "providers/registry.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <algorithm>
#include <map>
#include <set>

namespace dtx::providers {

namespace {

constexpr std::string_view kProviderName = "rawtp";
constexpr std::string_view kTypedefPrefix = "btf_trace_";
// Functions whose parameters are the tracepoint's, named: the iterator every
// tracepoint has, and the stub of newer kernels.
constexpr std::string_view kNamedPrototypePrefixes[] = {"__traceiter_", "__probestub_"};
// tracefs groups without raw tracepoints: syscall events are built on
// raw_syscalls, kprobe and uprobe events are dynamic.
constexpr std::string_view kNotRawGroups[] = {"syscalls", "kprobes", "uprobes"};
// The most arguments a raw tracepoint passes (the kernel's MAX_BPF_FUNC_ARGS).
constexpr unsigned kMaxTracepointArguments = 12;

// The prototype a btf_trace_ typedef points to, if it has the raw tracepoint
// shape: a pointer to a function whose first parameter is a void pointer.
uint32_t raw_tracepoint_prototype(const btf &types, const btf_type *typedef_type) {
    const btf_type *pointer = btf__type_by_id(&types, typedef_type->type);
    if (!pointer || !btf_is_ptr(pointer))
        return 0;
    const btf_type *prototype = btf__type_by_id(&types, pointer->type);
    if (!prototype || !btf_is_func_proto(prototype) || btf_vlen(prototype) == 0)
        return 0;
    const btf_type *first = btf__type_by_id(&types, btf_params(prototype)[0].type);
    if (!first || !btf_is_ptr(first) || first->type != 0)
        return 0;
    return pointer->type;
}

struct RawtpProbeData final : trace::ProbeData {
    RawTracepoint tracepoint;
};

} // namespace

std::vector<RawTracepoint> find_raw_tracepoints(const btf *vmlinux,
                                                std::span<const trace::TracefsEvent> events) {
    std::vector<RawTracepoint> found;
    if (!vmlinux) {
        for (const trace::TracefsEvent &event : events)
            if (std::find(std::begin(kNotRawGroups), std::end(kNotRawGroups), event.category) ==
                std::end(kNotRawGroups))
                found.push_back({event.category, event.event});
        return found;
    }

    // One pass over BTF: the typedefs, and the named prototypes.
    std::map<std::string, uint32_t, std::less<>> prototypes, named;
    uint32_t count = btf__type_cnt(vmlinux);
    for (uint32_t id = 1; id < count; id++) {
        const btf_type *type = btf__type_by_id(vmlinux, id);
        std::string_view name = btf__name_by_offset(vmlinux, type->name_off);
        if (btf_is_typedef(type) && name.starts_with(kTypedefPrefix)) {
            if (uint32_t prototype = raw_tracepoint_prototype(*vmlinux, type))
                prototypes.emplace(name.substr(kTypedefPrefix.size()), prototype);
        } else if (btf_is_func(type)) {
            for (std::string_view prefix : kNamedPrototypePrefixes)
                if (name.starts_with(prefix))
                    named.emplace(name.substr(prefix.size()), type->type);
        }
    }
    auto make = [&](std::string category, const std::string &event, uint32_t prototype) {
        RawTracepoint tracepoint{std::move(category), event, prototype, 0};
        auto it = named.find(event);
        const btf_type *with_names =
            it == named.end() ? nullptr : btf__type_by_id(vmlinux, it->second);
        if (with_names && btf_vlen(with_names) == btf_vlen(btf__type_by_id(vmlinux, prototype)))
            tracepoint.named_prototype = it->second;
        return tracepoint;
    };
    std::set<std::string_view> in_tracefs;
    for (const trace::TracefsEvent &event : events) {
        auto it = prototypes.find(event.event);
        if (it != prototypes.end() && in_tracefs.insert(it->first).second)
            found.push_back(make(event.category, event.event, it->second));
    }
    for (const auto &[event, prototype] : prototypes)
        if (!in_tracefs.contains(event))
            found.push_back(make(std::string(kRawtpBareCategory), event, prototype));
    return found;
}

std::vector<trace::ProbeArgument> rawtp_arguments(const btf &vmlinux,
                                                  const RawTracepoint &tracepoint) {
    std::vector<trace::ProbeArgument> arguments;
    const btf_type *prototype = btf__type_by_id(&vmlinux, tracepoint.prototype);
    if (!tracepoint.prototype || !prototype)
        return arguments;
    const btf_type *named = tracepoint.named_prototype
                                ? btf__type_by_id(&vmlinux, tracepoint.named_prototype)
                                : nullptr;
    for (uint16_t i = 1;
         i < btf_vlen(prototype) && arguments.size() < codegen::ClauseContextLayout::arg_count;
         i++) {
        uint32_t type = btf_params(prototype)[i].type;
        std::string name =
            named ? btf__name_by_offset(&vmlinux, btf_params(named)[i].name_off) : "";
        arguments.push_back({trace::btf_type_spelling(vmlinux, type), type, std::move(name)});
    }
    return arguments;
}

void store_raw_tracepoint_arguments(codegen::TrampolineBuilder &builder, llvm::Value *dctx,
                                    unsigned count) {
    llvm::IRBuilder<> &ir = builder.ir();
    llvm::Value *ctx = builder.entry().getArg(0);
    for (unsigned i = 0; i < count; i++)
        builder.store_argument(
            dctx, i,
            ir.CreateLoad(ir.getInt64Ty(), ir.CreateConstGEP1_64(ir.getInt64Ty(), ctx, i)));
}

std::optional<unsigned> RawTracepointArgumentCounter::count(std::string_view event, unsigned most) {
    most = std::min(most, kMaxTracepointArguments);
    if (!attaches(event, 0))
        return std::nullopt;
    // Attaching succeeds for every n up to the count: search for the last.
    unsigned low = 0, high = most; // attaches(low) holds
    while (low < high) {
        unsigned middle = (low + high + 1) / 2;
        if (attaches(event, middle))
            low = middle;
        else
            high = middle - 1;
    }
    return low;
}

bool RawTracepointArgumentCounter::attaches(std::string_view event, unsigned n) {
    if (programs_.size() <= n)
        programs_.resize(n + 1);
    if (!programs_[n]) {
        // r0 = args[n - 1] (skipped for n = 0); r0 = 0; exit
        auto instruction = [](uint8_t code, uint8_t dst, uint8_t src, int16_t offset) {
            bpf_insn insn{};
            insn.code = code;
            insn.dst_reg = dst & 0xf;
            insn.src_reg = src & 0xf;
            insn.off = offset;
            return insn;
        };
        bpf_insn program[3] = {};
        size_t length = 0;
        if (n > 0)
            program[length++] =
                instruction(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_1, int16_t((n - 1) * 8));
        program[length++] = instruction(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0);
        program[length++] = instruction(BPF_JMP | BPF_EXIT, 0, 0, 0);
        programs_[n].reset(bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "dtx_rawtp_args", "GPL",
                                         program, length, nullptr));
        if (!programs_[n])
            return false;
    }
    trace::UniqueFd link(bpf_raw_tracepoint_open(std::string(event).c_str(), programs_[n].get()));
    return link.valid();
}

namespace {

class RawtpProvider final : public Provider {
public:
    std::string_view name() const override { return kProviderName; }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        if (!trace::glob_match(pattern.provider, kProviderName) ||
            !trace::glob_match(pattern.function, "") || !could_name_kernel_event(pattern.name))
            return {};
        if (Status discovered = discover(); !discovered) {
            if (trace::has_glob(pattern.provider) || pattern.provider.empty())
                return {};
            return discovered.error().prefixed("probe '" + pattern.full() + "'");
        }
        for (const RawTracepoint &tracepoint : tracepoints_)
            if (trace::glob_match(pattern.module, tracepoint.category) &&
                trace::glob_match(pattern.name, tracepoint.event))
                out.push_back(&add(table, tracepoint));
        return {};
    }

    void list(trace::ProbeTable &table) override {
        if (!discover())
            return;
        for (const RawTracepoint &tracepoint : tracepoints_)
            add(table, tracepoint);
    }

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        if (!vmlinux_)
            return {};
        return rawtp_arguments(*vmlinux_, data_of(probe).tracepoint);
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        if (!cookies_supported_)
            cookies_supported_ = libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT,
                                                         BPF_FUNC_get_attach_cookie, nullptr) > 0;
        std::map<unsigned, std::vector<const trace::Probe *>> by_count;
        for (const trace::Probe *probe : enabled)
            by_count[stored_arguments(*probe)].push_back(probe);
        std::vector<Trampoline> out;
        for (auto &[count, probes] : by_count) {
            if (*cookies_supported_) {
                out.push_back(trampoline(count, std::move(probes), true));
                continue;
            }
            for (const trace::Probe *probe : probes)
                out.push_back(trampoline(count, {probe}, false));
        }
        for (size_t i = 0; i < out.size(); i++)
            out[i].spec.program_name = "dtx_rawtp_" + std::to_string(i);
        return out;
    }

private:
    static const RawtpProbeData &data_of(const trace::Probe &probe) {
        return static_cast<const RawtpProbeData &>(*probe.data);
    }

    // Finds the raw tracepoints once; fails, every time, if tracefs, which
    // names their categories, is out of reach.
    Status discover() {
        if (discovered_)
            return discovery_;
        discovered_ = true;
        Result<std::string> dir = trace::find_or_mount_tracefs();
        if (!dir)
            return discovery_ = std::move(dir).error();
        Result<std::vector<trace::TracefsEvent>> events = trace::list_available_events(*dir);
        if (!events)
            return discovery_ = std::move(events).error();
        vmlinux_ = trace::vmlinux_btf();
        tracepoints_ = find_raw_tracepoints(vmlinux_, *events);
        return {};
    }

    const trace::Probe &add(trace::ProbeTable &table, const RawTracepoint &tracepoint) {
        trace::ProbeName name{std::string(kProviderName), tracepoint.category, "",
                              tracepoint.event};
        if (const trace::Probe *known = table.find(name))
            return *known;
        auto data = std::make_shared<RawtpProbeData>();
        data->tracepoint = tracepoint;
        return table.add(std::move(name), std::move(data));
    }

    // How many of the tracepoint's arguments the trampoline copies to argN.
    unsigned stored_arguments(const trace::Probe &probe) {
        const RawTracepoint &tracepoint = data_of(probe).tracepoint;
        unsigned count = 0;
        // Discovery took only prototypes with the private pointer first.
        if (vmlinux_ && tracepoint.prototype)
            count = btf_vlen(btf__type_by_id(vmlinux_, tracepoint.prototype)) - 1;
        else
            count = counter_.count(tracepoint.event, codegen::ClauseContextLayout::arg_count)
                        .value_or(0);
        return std::min(count, codegen::ClauseContextLayout::arg_count);
    }

    Trampoline trampoline(unsigned count, std::vector<const trace::Probe *> probes,
                          bool with_cookies) {
        Trampoline t;
        t.spec.section = "raw_tp";
        t.spec.probes = probes;
        // The clause, this program and bpf_trace_runN: stacks start where the
        // kernel calls the tracepoint.
        t.spec.kernel_stack_skip = 3;
        uint32_t id = probes.front()->id;
        t.spec.emit = [count, with_cookies, id](codegen::TrampolineBuilder &b) {
            llvm::IRBuilder<> &ir = b.ir();
            llvm::Value *ctx = b.entry().getArg(0);
            llvm::Value *dctx = b.clause_context();
            b.store_probe_id(dctx, with_cookies ? b.call_helper(BPF_FUNC_get_attach_cookie,
                                                                ir.getInt64Ty(), {ctx})
                                                : ir.getInt64(id));
            b.clear_arguments(dctx);
            store_raw_tracepoint_arguments(b, dctx, count);
            b.run_clauses(dctx);
        };
        t.attach = [probes, with_cookies](AttachContext &context) -> Status {
            for (const trace::Probe *probe : probes) {
                auto attached = context.attachments.attach_raw_tracepoint(
                    context.program_fd, data_of(*probe).tracepoint.event,
                    with_cookies ? probe->id : 0);
                if (!attached)
                    return attached.error().prefixed("probe '" + probe->name.full() + "'");
            }
            return {};
        };
        return t;
    }

    bool discovered_ = false;
    Status discovery_;
    const btf *vmlinux_ = nullptr; // trace::vmlinux_btf(), shared
    std::vector<RawTracepoint> tracepoints_;
    RawTracepointArgumentCounter counter_;
    std::optional<bool> cookies_supported_;
};

} // namespace

std::unique_ptr<Provider> make_rawtp_provider() {
    return std::make_unique<RawtpProvider>();
}

} // namespace dtx::providers

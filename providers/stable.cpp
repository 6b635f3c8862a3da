// The engine behind proc, sched and io (providers/stable.h): probes listed as
// PROVIDER:vmlinux::NAME, one raw_tp program per enabled probe (the filter
// and the probe ID built in), attached by a bpf link to its tracepoint.
#include "providers/stable.h"

#include "libtrace/vmlinux_btf.h"
#include "providers/rawtp.h"

#include <bpf/btf.h>
#include <linux/bpf.h>

namespace dtx::providers {

TracepointFilter::TracepointFilter(codegen::TrampolineBuilder &builder, llvm::Value *arguments)
    : builder_(builder), arguments_(arguments) {}

llvm::Value *TracepointFilter::argument(unsigned index) {
    return ir().CreateLoad(ir().getInt64Ty(),
                           ir().CreateConstGEP1_64(ir().getInt64Ty(), arguments_, index));
}

llvm::Value *TracepointFilter::member(llvm::Value *pointer, std::string_view type,
                                      std::string_view member, unsigned size) {
    // StableProbe::members lists it, so probe_unavailable() has checked it.
    const uint64_t offset = trace::kernel_member_offset(type, member).value_or(0);
    return read(ir().CreateAdd(pointer, ir().getInt64(offset)), size);
}

llvm::Value *TracepointFilter::read(llvm::Value *address, unsigned size) {
    llvm::IRBuilder<> &b = ir();
    if (!slot_) {
        llvm::IRBuilderBase::InsertPointGuard guard(b);
        llvm::BasicBlock &entry = builder_.entry().getEntryBlock();
        b.SetInsertPoint(&entry, entry.getFirstInsertionPt());
        slot_ = b.CreateAlloca(b.getInt64Ty());
    }
    b.CreateStore(b.getInt64(0), slot_);
    builder_.call_helper(BPF_FUNC_probe_read_kernel, b.getInt64Ty(),
                         {slot_, b.getInt32(size), address});
    llvm::Value *word = b.CreateLoad(b.getInt64Ty(), slot_);
    return size == 8 ? word : b.CreateAnd(word, b.getInt64((uint64_t(1) << (size * 8)) - 1));
}

llvm::Value *TracepointFilter::current_pid_tgid() {
    return builder_.call_helper(BPF_FUNC_get_current_pid_tgid, ir().getInt64Ty(), {});
}

llvm::Value *TracepointFilter::current_task() {
    return builder_.call_helper(BPF_FUNC_get_current_task, ir().getInt64Ty(), {});
}

ProviderAttributes stable_provider_attributes() {
    constexpr Attributes kEvolvingIsa{Stability::Evolving, Stability::Evolving,
                                      DependencyClass::Isa};
    return {kEvolvingIsa, Attributes{}, Attributes{}, kEvolvingIsa, kEvolvingIsa};
}

std::optional<unsigned> btf_tracepoint_arguments(std::string_view tracepoint) {
    const btf *types = trace::vmlinux_btf();
    if (!types)
        return std::nullopt;
    const std::string name = "btf_trace_" + std::string(tracepoint);
    const int id = btf__find_by_name_kind(types, name.c_str(), BTF_KIND_TYPEDEF);
    if (id < 0)
        return std::nullopt;
    const btf_type *pointer = btf__type_by_id(types, btf__type_by_id(types, uint32_t(id))->type);
    const btf_type *prototype = pointer ? btf__type_by_id(types, pointer->type) : nullptr;
    if (!prototype || !btf_is_func_proto(prototype) || btf_vlen(prototype) == 0)
        return std::nullopt;
    return std::min<unsigned>(btf_vlen(prototype) - 1, codegen::ClauseContextLayout::arg_count);
}

namespace {

struct StableProbeData final : trace::ProbeData {
    const StableProbe *definition = nullptr;
};

class StableProvider final : public Provider {
public:
    StableProvider(std::string name, std::vector<StableProbe> probes)
        : name_(std::move(name)), probes_(std::move(probes)) {}

    std::string_view name() const override { return name_; }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        if (!trace::glob_match(pattern.provider, name_) ||
            !trace::glob_match(pattern.module, kModule) || !trace::glob_match(pattern.function, ""))
            return {};
        for (const StableProbe &probe : probes_)
            if (trace::glob_match(pattern.name, probe.name))
                out.push_back(&add(table, probe));
        return {};
    }

    void list(trace::ProbeTable &table) override {
        for (const StableProbe &probe : probes_)
            add(table, probe);
    }

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        std::vector<trace::ProbeArgument> out;
        for (const StableArgument &argument : definition(probe).arguments)
            out.push_back({argument.type, 0, "", argument.expression});
        return out;
    }

    ProviderAttributes attributes() const override { return stable_provider_attributes(); }

    std::optional<std::string> probe_unavailable(const trace::Probe &probe) override {
        const StableProbe &stable = definition(probe);
        if (stable.tracepoint.empty())
            return stable.reason;
        if (!trace::vmlinux_btf())
            return "it is built on a raw tracepoint typed by the kernel's BTF, and this kernel "
                   "has no BTF (/sys/kernel/btf/vmlinux)";
        if (!btf_tracepoint_arguments(stable.tracepoint))
            return "this kernel has no tracepoint " + stable.tracepoint;
        for (const std::string &needed : stable.members) {
            const size_t dot = needed.find('.');
            if (!trace::kernel_member_offset(needed.substr(0, dot), needed.substr(dot + 1)))
                return "this kernel's struct " + needed.substr(0, dot) + " has no member " +
                       needed.substr(dot + 1);
        }
        return std::nullopt;
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        std::vector<Trampoline> out;
        for (const trace::Probe *probe : enabled)
            out.push_back(trampoline(*probe, name_ + "_" + std::to_string(out.size())));
        return out;
    }

private:
    static constexpr std::string_view kModule = "vmlinux";

    static const StableProbe &definition(const trace::Probe &probe) {
        return *static_cast<const StableProbeData &>(*probe.data).definition;
    }

    const trace::Probe &add(trace::ProbeTable &table, const StableProbe &probe) {
        trace::ProbeName name{name_, std::string(kModule), "", probe.name};
        if (const trace::Probe *known = table.find(name))
            return *known;
        auto data = std::make_shared<StableProbeData>();
        data->definition = &probe;
        return table.add(std::move(name), std::move(data));
    }

    static Trampoline trampoline(const trace::Probe &probe, std::string program) {
        const StableProbe &stable = definition(probe);
        const unsigned count = btf_tracepoint_arguments(stable.tracepoint).value_or(0);
        Trampoline t;
        t.spec.program_name = "dtx_" + program;
        t.spec.section = "raw_tp";
        t.spec.probes = {&probe};
        t.spec.sets_current_task = stable.current_task != nullptr;
        // The clause, this program and bpf_trace_runN: stacks start where the
        // kernel calls the tracepoint.
        t.spec.kernel_stack_skip = 3;
        t.spec.emit = [&stable, count, id = probe.id](codegen::TrampolineBuilder &b) {
            llvm::IRBuilder<> &ir = b.ir();
            llvm::Value *ctx = b.entry().getArg(0);
            TracepointFilter filter(b, ctx);
            if (stable.filter) {
                llvm::Value *fires = stable.filter(filter);
                llvm::Function *function = ir.GetInsertBlock()->getParent();
                llvm::BasicBlock *run =
                    llvm::BasicBlock::Create(ir.getContext(), "fires", function);
                llvm::BasicBlock *skip =
                    llvm::BasicBlock::Create(ir.getContext(), "skip", function);
                ir.CreateCondBr(fires, run, skip);
                ir.SetInsertPoint(skip);
                ir.CreateRet(ir.getInt32(0));
                ir.SetInsertPoint(run);
            }
            llvm::Value *dctx = b.clause_context();
            b.store_probe_id(dctx, ir.getInt64(id));
            if (stable.current_task)
                b.store_current_task(dctx, stable.current_task(filter));
            b.clear_arguments(dctx);
            if (stable.native.empty())
                store_raw_tracepoint_arguments(b, dctx, count);
            for (size_t i = 0; i < stable.native.size(); i++)
                b.store_argument(dctx, unsigned(i), stable.native[i](filter));
            if (stable.arguments_address >= 0)
                b.store_argument(dctx, unsigned(stable.arguments_address),
                                 ir.CreatePtrToInt(ctx, ir.getInt64Ty()));
            b.run_clauses(dctx);
        };
        t.attach = [&probe, &stable](AttachContext &context) -> Status {
            auto attached =
                context.attachments.attach_raw_tracepoint(context.program_fd, stable.tracepoint);
            if (!attached)
                return attached.error().prefixed("probe '" + probe.name.full() + "'");
            context.notes.push_back(probe.name.full() + ": raw tracepoint " + stable.tracepoint);
            return {};
        };
        return t;
    }

    std::string name_;
    std::vector<StableProbe> probes_;
};

} // namespace

std::unique_ptr<Provider> make_stable_provider(std::string name, std::vector<StableProbe> probes) {
    return std::make_unique<StableProvider>(std::move(name), std::move(probes));
}

} // namespace dtx::providers

// The lockstat provider: kernel locks a thread had to wait for, as DTrace
// names them, on the lock:contention_begin and lock:contention_end
// tracepoints (Linux 5.19). Those fire only when a lock is contended, so the
// probes of every acquisition and release (adaptive-acquire, spin-release...)
// are listed with the reason: they need kprobes on the lock functions.
//
// Two programs serve every enabled probe. On contention_begin one records,
// per thread and lock, when the wait began and whether each phase spun or
// slept (a mutex spins, then sleeps, then may spin again); on contention_end
// the other sums the phases, forgets the wait, and fires the one probe the
// wait was: adaptive-block or adaptive-spin (a mutex acquired after
// sleeping, or only spinning), adaptive-acquire-error (a killable or
// interruptible mutex wait that failed), spin-spin (a spinlock), rw-spin (an
// rwlock_t) or rw-block (an rw_semaphore). Semaphores, rt_mutexes and
// per-CPU rw_semaphores have no DTrace probe and are not recorded.
#include "codegen/bpf_debuginfo.h"
#include "libtrace/vmlinux_btf.h"
#include "providers/rawtp.h"
#include "providers/registry.h"
#include "providers/stable.h"

#include <linux/bpf.h>
#include <llvm/IR/Module.h>

namespace dtx::providers {

namespace {

// contention_begin's flags (include/trace/events/lock.h).
constexpr uint64_t kSpin = 1 << 0;
constexpr uint64_t kRead = 1 << 1;
constexpr uint64_t kWrite = 1 << 2;
constexpr uint64_t kRealTime = 1 << 3;
constexpr uint64_t kPerCpu = 1 << 4;
constexpr uint64_t kMutex = 1 << 5;

// What a wait was, as contention_end classifies it.
enum class Wait : uint64_t {
    None,
    AdaptiveBlock,
    AdaptiveSpin,
    AdaptiveError,
    Spin,
    RwSpin,
    RwBlock
};

// Solaris's krw_t, which the rw probes' last argument is.
constexpr uint64_t kWriter = 0;
constexpr uint64_t kReader = 1;

struct LockstatProbe {
    std::string_view name;
    Wait wait;                                    // None: unavailable
    std::vector<std::string_view> argument_types; // args[0..]
};

const std::vector<LockstatProbe> &lockstat_probes() {
    static const std::vector<LockstatProbe> probes = {
        {"adaptive-acquire", Wait::None, {"struct mutex *"}},
        {"adaptive-acquire-error", Wait::AdaptiveError, {"struct mutex *", "int"}},
        {"adaptive-block", Wait::AdaptiveBlock, {"struct mutex *", "uint64_t"}},
        {"adaptive-release", Wait::None, {"struct mutex *"}},
        {"adaptive-spin", Wait::AdaptiveSpin, {"struct mutex *", "uint64_t"}},
        {"rw-acquire", Wait::None, {"rwlock_t *", "int"}},
        {"rw-block", Wait::RwBlock, {"struct rw_semaphore *", "uint64_t", "int"}},
        {"rw-release", Wait::None, {"rwlock_t *", "int"}},
        {"rw-spin", Wait::RwSpin, {"rwlock_t *", "uint64_t", "int"}},
        {"spin-acquire", Wait::None, {"spinlock_t *"}},
        {"spin-release", Wait::None, {"spinlock_t *"}},
        {"spin-spin", Wait::Spin, {"spinlock_t *", "uint64_t"}},
    };
    return probes;
}

constexpr std::string_view kBegin = "contention_begin";
constexpr std::string_view kEnd = "contention_end";
constexpr std::string_view kWaitsMap = "dtx_lockstat_waits";

// The waits map's value: the current phase, the time spent in the phases
// before it, and which kinds of phase there were.
struct WaitLayout {
    static constexpr uint64_t phase_start = 0;
    static constexpr uint64_t spun = 8;   // ns spinning
    static constexpr uint64_t slept = 16; // ns blocked
    static constexpr uint64_t phase_flags = 24;
    static constexpr uint64_t phases = 28; // 1: a phase spun; 2: one slept
    static constexpr uint64_t size = 32;
};

struct LockstatProbeData final : trace::ProbeData {
    const LockstatProbe *definition = nullptr;
};

const LockstatProbe &definition(const trace::Probe &probe) {
    return *static_cast<const LockstatProbeData &>(*probe.data).definition;
}

// The per-thread, per-lock waits (key: pid_tgid, lock): LRU, so that a wait
// whose end dtx never sees (it began before dtx attached) ages out.
llvm::GlobalVariable *waits_map(codegen::TrampolineBuilder &b) {
    if (llvm::GlobalVariable *map = b.module().getNamedGlobal(kWaitsMap))
        return map;
    codegen::BpfDebugInfo &debug = b.debug_info();
    llvm::DIType *u64 = debug.integer_type(8, false);
    llvm::DIType *u32 = debug.integer_type(4, false);
    const codegen::BtfStructField key[] = {{"pid_tgid", u64, 0}, {"lock", u64, 8}};
    const codegen::BtfStructField value[] = {{"phase_start", u64, WaitLayout::phase_start},
                                             {"spun", u64, WaitLayout::spun},
                                             {"slept", u64, WaitLayout::slept},
                                             {"phase_flags", u32, WaitLayout::phase_flags},
                                             {"phases", u32, WaitLayout::phases}};
    return debug.define_map(
        {.name = std::string(kWaitsMap),
         .type = BPF_MAP_TYPE_LRU_HASH,
         .max_entries = 16384,
         .key = debug.struct_type("dtx_lockstat_key", 16, key),
         .value = debug.struct_type("dtx_lockstat_wait", WaitLayout::size, value)});
}

// What both programs share: the key of this thread's wait on the lock the
// tracepoint names, and reads and writes of the wait's fields.
class WaitAccess {
public:
    explicit WaitAccess(codegen::TrampolineBuilder &b) : b_(b), ir_(b.ir()) {
        llvm::IRBuilderBase::InsertPointGuard guard(ir_);
        llvm::BasicBlock &entry = b.entry().getEntryBlock();
        ir_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
        key_ = ir_.CreateAlloca(llvm::ArrayType::get(ir_.getInt64Ty(), 2));
        value_ = ir_.CreateAlloca(llvm::ArrayType::get(ir_.getInt64Ty(), WaitLayout::size / 8));
    }

    llvm::Value *argument(unsigned index) {
        llvm::Value *ctx = b_.entry().getArg(0);
        return ir_.CreateLoad(ir_.getInt64Ty(),
                              ir_.CreateConstGEP1_64(ir_.getInt64Ty(), ctx, index));
    }
    llvm::Value *now() { return b_.call_helper(BPF_FUNC_ktime_get_ns, ir_.getInt64Ty(), {}); }

    // The wait of this thread on the tracepoint's lock, or null.
    llvm::Value *lookup() {
        ir_.CreateStore(b_.call_helper(BPF_FUNC_get_current_pid_tgid, ir_.getInt64Ty(), {}),
                        field(key_, 0));
        ir_.CreateStore(argument(0), field(key_, 8));
        return b_.call_helper(BPF_FUNC_map_lookup_elem, ir_.getPtrTy(), {waits_map(b_), key_});
    }
    void start(llvm::Value *now, llvm::Value *flags) {
        for (uint64_t offset = 0; offset < WaitLayout::size; offset += 8)
            ir_.CreateStore(ir_.getInt64(0), field(value_, offset));
        ir_.CreateStore(now, field(value_, WaitLayout::phase_start));
        ir_.CreateStore(ir_.CreateTrunc(flags, ir_.getInt32Ty()),
                        field(value_, WaitLayout::phase_flags));
        b_.call_helper(BPF_FUNC_map_update_elem, ir_.getInt64Ty(),
                       {waits_map(b_), key_, value_, ir_.getInt64(BPF_ANY)});
    }
    void forget() {
        b_.call_helper(BPF_FUNC_map_delete_elem, ir_.getInt64Ty(), {waits_map(b_), key_});
    }

    // Ends the wait's current phase at `now`: its time goes to spun or
    // slept, and its kind to phases.
    void close_phase(llvm::Value *wait, llvm::Value *now) {
        llvm::Value *elapsed = ir_.CreateSub(now, load64(wait, WaitLayout::phase_start));
        llvm::Value *flags =
            ir_.CreateZExt(ir_.CreateLoad(ir_.getInt32Ty(), field(wait, WaitLayout::phase_flags)),
                           ir_.getInt64Ty());
        llvm::Value *spinning = ir_.CreateICmpNE(ir_.CreateAnd(flags, kSpin), ir_.getInt64(0));
        for (auto [offset, kind] :
             {std::pair{WaitLayout::spun, true}, {WaitLayout::slept, false}}) {
            llvm::Value *here = kind ? spinning : ir_.CreateNot(spinning);
            ir_.CreateStore(ir_.CreateAdd(load64(wait, offset),
                                          ir_.CreateSelect(here, elapsed, ir_.getInt64(0))),
                            field(wait, offset));
        }
        llvm::Value *phases = ir_.CreateLoad(ir_.getInt32Ty(), field(wait, WaitLayout::phases));
        ir_.CreateStore(
            ir_.CreateOr(phases, ir_.CreateSelect(spinning, ir_.getInt32(1), ir_.getInt32(2))),
            field(wait, WaitLayout::phases));
    }

    llvm::Value *load64(llvm::Value *base, uint64_t offset) {
        return ir_.CreateLoad(ir_.getInt64Ty(), field(base, offset));
    }
    llvm::Value *field(llvm::Value *base, uint64_t offset) {
        return ir_.CreateConstGEP1_64(ir_.getInt8Ty(), base, offset);
    }

private:
    codegen::TrampolineBuilder &b_;
    llvm::IRBuilder<> &ir_;
    llvm::Value *key_ = nullptr;
    llvm::Value *value_ = nullptr;
};

// Continues in a new block where `condition` holds; returns 0 otherwise.
void continue_if(llvm::IRBuilder<> &ir, llvm::Value *condition, const char *name) {
    llvm::Function *function = ir.GetInsertBlock()->getParent();
    auto *next = llvm::BasicBlock::Create(ir.getContext(), name, function);
    auto *skip = llvm::BasicBlock::Create(ir.getContext(), "skip", function);
    ir.CreateCondBr(condition, next, skip);
    ir.SetInsertPoint(skip);
    ir.CreateRet(ir.getInt32(0));
    ir.SetInsertPoint(next);
}

// contention_begin(lock, flags): a new wait, or the next phase of one.
void emit_begin(codegen::TrampolineBuilder &b) {
    llvm::IRBuilder<> &ir = b.ir();
    WaitAccess waits(b);
    llvm::Value *flags = ir.CreateAnd(waits.argument(1), 0xffffffff);
    llvm::Value *kind = ir.CreateAnd(flags, kSpin | kRead | kWrite | kMutex);
    llvm::Value *excluded = ir.CreateAnd(flags, kRealTime | kPerCpu);
    continue_if(ir,
                ir.CreateAnd(ir.CreateICmpNE(kind, ir.getInt64(0)),
                             ir.CreateICmpEQ(excluded, ir.getInt64(0))),
                "recorded");
    llvm::Value *now = waits.now();
    llvm::Value *wait = waits.lookup();
    llvm::Function *function = ir.GetInsertBlock()->getParent();
    auto *fresh = llvm::BasicBlock::Create(ir.getContext(), "fresh", function);
    auto *next_phase = llvm::BasicBlock::Create(ir.getContext(), "next_phase", function);
    auto *done = llvm::BasicBlock::Create(ir.getContext(), "done", function);
    ir.CreateCondBr(ir.CreateIsNull(wait), fresh, next_phase);
    ir.SetInsertPoint(fresh);
    waits.start(now, flags);
    ir.CreateBr(done);
    ir.SetInsertPoint(next_phase);
    waits.close_phase(wait, now);
    ir.CreateStore(now, waits.field(wait, WaitLayout::phase_start));
    ir.CreateStore(ir.CreateTrunc(flags, ir.getInt32Ty()),
                   waits.field(wait, WaitLayout::phase_flags));
    ir.CreateBr(done);
    ir.SetInsertPoint(done);
    ir.CreateRet(ir.getInt32(0));
}

// contention_end(lock, ret): the wait is over; fire its probe.
void emit_end(codegen::TrampolineBuilder &b, std::span<const trace::Probe *const> probes) {
    llvm::IRBuilder<> &ir = b.ir();
    llvm::Type *i64 = ir.getInt64Ty();
    WaitAccess waits(b);
    llvm::Value *now = waits.now();
    llvm::Value *wait = waits.lookup();
    continue_if(ir, ir.CreateIsNotNull(wait), "waited");
    waits.close_phase(wait, now);
    llvm::Value *spun = waits.load64(wait, WaitLayout::spun);
    llvm::Value *slept = waits.load64(wait, WaitLayout::slept);
    llvm::Value *phases =
        ir.CreateZExt(ir.CreateLoad(ir.getInt32Ty(), waits.field(wait, WaitLayout::phases)), i64);
    llvm::Value *flags = ir.CreateZExt(
        ir.CreateLoad(ir.getInt32Ty(), waits.field(wait, WaitLayout::phase_flags)), i64);
    waits.forget();

    auto has = [&](llvm::Value *bits, uint64_t mask) {
        return ir.CreateICmpNE(ir.CreateAnd(bits, mask), ir.getInt64(0));
    };
    // The return value is an int: sign-extend the tracepoint's u64.
    llvm::Value *error = ir.CreateSExt(ir.CreateTrunc(waits.argument(1), ir.getInt32Ty()), i64);
    llvm::Value *failed = ir.CreateICmpNE(error, ir.getInt64(0));
    llvm::Value *slept_at_all = has(phases, 2);
    auto wait_of = [&](Wait w) { return ir.getInt64(uint64_t(w)); };
    llvm::Value *mutex_wait = ir.CreateSelect(
        failed, wait_of(Wait::AdaptiveError),
        ir.CreateSelect(slept_at_all, wait_of(Wait::AdaptiveBlock), wait_of(Wait::AdaptiveSpin)));
    llvm::Value *rw = has(flags, kRead | kWrite);
    llvm::Value *spin_wait = ir.CreateSelect(rw, wait_of(Wait::RwSpin), wait_of(Wait::Spin));
    llvm::Value *kind = ir.CreateSelect(
        has(flags, kMutex), mutex_wait,
        ir.CreateSelect(has(flags, kSpin), spin_wait,
                        ir.CreateSelect(rw, wait_of(Wait::RwBlock), wait_of(Wait::None))));
    llvm::Value *probe_id = ir.getInt64(0);
    for (const trace::Probe *probe : probes)
        probe_id = ir.CreateSelect(ir.CreateICmpEQ(kind, wait_of(definition(*probe).wait)),
                                   ir.getInt64(probe->id), probe_id);
    continue_if(ir, ir.CreateICmpNE(probe_id, ir.getInt64(0)), "enabled");

    // arg1: the error, or the time spent sleeping (block probes) or spinning.
    llvm::Value *sleeping = ir.CreateOr(ir.CreateICmpEQ(kind, wait_of(Wait::AdaptiveBlock)),
                                        ir.CreateICmpEQ(kind, wait_of(Wait::RwBlock)));
    llvm::Value *arg1 = ir.CreateSelect(ir.CreateICmpEQ(kind, wait_of(Wait::AdaptiveError)), error,
                                        ir.CreateSelect(sleeping, slept, spun));
    llvm::Value *arg2 =
        ir.CreateSelect(has(flags, kWrite), ir.getInt64(kWriter), ir.getInt64(kReader));
    llvm::Value *dctx = b.clause_context();
    b.store_probe_id(dctx, probe_id);
    b.clear_arguments(dctx);
    b.store_argument(dctx, 0, waits.argument(0));
    b.store_argument(dctx, 1, arg1);
    b.store_argument(dctx, 2, arg2);
    b.run_clauses(dctx);
}

class LockstatProvider final : public Provider {
public:
    std::string_view name() const override { return "lockstat"; }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        if (!trace::glob_match(pattern.provider, name()) ||
            !trace::glob_match(pattern.module, kModule) || !trace::glob_match(pattern.function, ""))
            return {};
        for (const LockstatProbe &probe : lockstat_probes())
            if (trace::glob_match(pattern.name, probe.name))
                out.push_back(&add(table, probe));
        return {};
    }

    void list(trace::ProbeTable &table) override {
        for (const LockstatProbe &probe : lockstat_probes())
            add(table, probe);
    }

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        std::vector<trace::ProbeArgument> out;
        for (std::string_view type : definition(probe).argument_types)
            out.push_back({std::string(type), 0, ""});
        return out;
    }

    ProviderAttributes attributes() const override { return stable_provider_attributes(); }

    std::optional<std::string> probe_unavailable(const trace::Probe &probe) override {
        if (definition(probe).wait == Wait::None)
            return "it fires on every acquisition or release, contended or not, where Linux has "
                   "no tracepoint (it needs kprobes on the lock functions)";
        if (!trace::vmlinux_btf())
            return "it is built on raw tracepoints typed by the kernel's BTF, and this kernel "
                   "has no BTF (/sys/kernel/btf/vmlinux)";
        for (std::string_view tracepoint : {kBegin, kEnd})
            if (!btf_tracepoint_arguments(tracepoint))
                return "this kernel has no tracepoint lock:" + std::string(tracepoint) +
                       " (Linux 5.19 added it)";
        return std::nullopt;
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        std::vector<const trace::Probe *> probes(enabled.begin(), enabled.end());
        // The recorder attaches first, so no wait it should see begins
        // before it is there.
        return {program("dtx_lockstat_begin", kBegin, {}, emit_begin),
                program("dtx_lockstat_end", kEnd, probes,
                        [probes](codegen::TrampolineBuilder &b) { emit_end(b, probes); })};
    }

private:
    static constexpr std::string_view kModule = "vmlinux";

    const trace::Probe &add(trace::ProbeTable &table, const LockstatProbe &probe) {
        trace::ProbeName name{std::string(this->name()), std::string(kModule), "",
                              std::string(probe.name)};
        if (const trace::Probe *known = table.find(name))
            return *known;
        auto data = std::make_shared<LockstatProbeData>();
        data->definition = &probe;
        return table.add(std::move(name), std::move(data));
    }

    static Trampoline program(std::string name, std::string_view tracepoint,
                              std::vector<const trace::Probe *> probes,
                              std::function<void(codegen::TrampolineBuilder &)> emit) {
        Trampoline t;
        t.spec.program_name = std::move(name);
        t.spec.section = "raw_tp";
        t.spec.probes = probes;
        // The clause, this program and bpf_trace_runN.
        t.spec.kernel_stack_skip = 3;
        t.spec.emit = std::move(emit);
        t.attach = [tracepoint, probes](AttachContext &context) -> Status {
            auto attached =
                context.attachments.attach_raw_tracepoint(context.program_fd, tracepoint);
            if (!attached)
                return attached.error().prefixed("lockstat: lock:" + std::string(tracepoint));
            for (const trace::Probe *probe : probes)
                context.notes.push_back(probe->name.full() + ": raw tracepoints " +
                                        std::string(kBegin) + " and " + std::string(kEnd));
            return {};
        };
        return t;
    }
};

} // namespace

std::unique_ptr<Provider> make_lockstat_provider() {
    return std::make_unique<LockstatProvider>();
}

} // namespace dtx::providers

// The profile provider: probes that fire at a fixed rate.
//   profile:::profile-N   on every CPU, N per second (or every N units), from a
//                         cpu-clock perf event per online CPU; arg0 is the
//                         kernel PC and arg1 the user PC of the interrupted code
//   profile:::tick-N      on one CPU, from a bpf_timer: unlike a cpu-clock
//                         perf event it fires on schedule when the CPU is idle
// N takes DTrace's suffixes: ns nsec us usec ms msec s sec m min h hour d day
// hz (the default). profile-N probes share one perf_event program, with the
// probe ID as the bpf cookie; tick-N probes share one BPF_PROG_TYPE_SYSCALL
// program, run once at attach time, that arms a timer per probe. (Tracing
// program types may not use bpf_timer.)
#include "providers/profile.h"

#include "codegen/bpf_debuginfo.h"
#include "libtrace/whole_file.h"
#include "providers/registry.h"

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <limits>

namespace dtx::providers {

namespace {

struct ProfileProbeData final : trace::ProbeData {
    bool tick = false;
    uint64_t period_ns = 0;
};

// Probes -l shows without being asked, as dtrace-utils lists them.
constexpr const char *kListedProbes[] = {
    "profile-97",  "profile-199", "profile-499", "profile-997", "profile-1999",
    "profile-4001", "profile-4999", "tick-1",    "tick-10",     "tick-100",
    "tick-500",     "tick-1000",    "tick-5000", "tick-1s",     "tick-10s",
};

// The program-context offsets of pt_regs->ip and ->cs on x86-64
// (bpf_perf_event_data begins with the interrupted registers).
constexpr uint64_t kRegsIpOffset = 16 * 8;
constexpr uint64_t kRegsCsOffset = 17 * 8;
constexpr uint64_t kClockMonotonic = 1;

std::vector<int> online_cpus() {
    std::vector<int> cpus;
    // "0-3,8,10-11"
    const std::string text = trace::read_first_line("/sys/devices/system/cpu/online").value_or("");
    std::string_view ranges = text;
    while (!ranges.empty()) {
        const size_t comma = ranges.find(',');
        const std::string_view range = ranges.substr(0, comma);
        ranges.remove_prefix(comma == std::string_view::npos ? ranges.size() : comma + 1);
        int first = 0, last = 0;
        const char *end = range.data() + range.size();
        auto [dash, parsed] = std::from_chars(range.data(), end, first);
        if (parsed != std::errc())
            break;
        last = first;
        if (dash != end && (*dash != '-' || std::from_chars(dash + 1, end, last).ec != std::errc()))
            break;
        for (int cpu = first; cpu <= last; cpu++)
            cpus.push_back(cpu);
    }
    if (cpus.empty())
        cpus.push_back(0);
    return cpus;
}

} // namespace

std::optional<ProfileRate> parse_profile_name(std::string_view name) {
    ProfileRate rate;
    std::string_view spec;
    if (name.starts_with("profile-")) {
        spec = name.substr(8);
    } else if (name.starts_with("tick-")) {
        rate.tick = true;
        spec = name.substr(5);
    } else {
        return std::nullopt;
    }
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), value);
    if (ec != std::errc() || end == spec.data() || value == 0)
        return std::nullopt;
    std::string_view unit(end, size_t(spec.data() + spec.size() - end));
    struct Unit {
        std::string_view name;
        uint64_t ns;
    };
    static constexpr Unit kUnits[] = {
        {"ns", 1},
        {"nsec", 1},
        {"us", 1000},
        {"usec", 1000},
        {"ms", 1000000},
        {"msec", 1000000},
        {"s", 1000000000},
        {"sec", 1000000000},
        {"m", 60000000000},
        {"min", 60000000000},
        {"h", 3600000000000},
        {"hour", 3600000000000},
        {"d", 86400000000000},
        {"day", 86400000000000},
    };
    if (unit.empty() || unit == "hz") {
        rate.period_ns = 1000000000 / value;
    } else {
        bool found = false;
        for (const Unit &u : kUnits)
            if (u.name == unit) {
                if (value > std::numeric_limits<uint64_t>::max() / u.ns)
                    return std::nullopt;
                rate.period_ns = value * u.ns;
                found = true;
            }
        if (!found)
            return std::nullopt;
    }
    if (rate.period_ns == 0)
        return std::nullopt;
    return rate;
}

namespace {

class ProfileProvider final : public Provider {
public:
    std::string_view name() const override { return "profile"; }

    Status match(const ProbePattern &pattern, trace::ProbeTable &table,
                 std::vector<const trace::Probe *> &out) override {
        if (!trace::glob_match(pattern.provider, "profile") ||
            !trace::glob_match(pattern.module, "") || !trace::glob_match(pattern.function, ""))
            return {};
        // An empty name is "any", like a glob.
        if (!pattern.name.empty() && !trace::has_glob(pattern.name)) {
            std::optional<ProfileRate> rate = parse_profile_name(pattern.name);
            if (!rate)
                return {};
            if (rate->period_ns < kMinimumPeriodNs)
                return failure("probe 'profile:::" + pattern.name +
                               "': the interval is below the minimum of 200us");
            out.push_back(&add(table, pattern.name, *rate));
            return {};
        }
        list(table);
        for (const trace::Probe &probe : table)
            if (probe.name.provider == "profile" && trace::glob_match(pattern.name, probe.name.name))
                out.push_back(&probe);
        return {};
    }

    void list(trace::ProbeTable &table) override {
        for (const char *name : kListedProbes)
            add(table, name, *parse_profile_name(name));
    }

    // Both kinds as dtrace declares them; tick-N fires from a timer, not
    // from interrupted code, so its two PCs are 0.
    std::vector<trace::ProbeArgument> arguments(const trace::Probe &) override {
        return {{"uint64_t", 0, ""}, {"uint64_t", 0, ""}};
    }

    ProviderAttributes attributes() const override {
        constexpr Attributes evolving{Stability::Evolving, Stability::Evolving,
                                      DependencyClass::Common};
        return {evolving,
                {Stability::Unstable, Stability::Unstable, DependencyClass::Unknown},
                {Stability::Private, Stability::Private, DependencyClass::Unknown},
                evolving,
                evolving};
    }

    std::vector<Trampoline> trampolines(std::span<const trace::Probe *const> enabled) override {
        std::vector<const trace::Probe *> profiles, ticks;
        for (const trace::Probe *probe : enabled)
            (data_of(*probe).tick ? ticks : profiles).push_back(probe);
        std::vector<Trampoline> out;
        if (!profiles.empty())
            out.push_back(profile_trampoline(std::move(profiles)));
        if (!ticks.empty())
            out.push_back(tick_trampoline(std::move(ticks)));
        return out;
    }

private:
    static constexpr uint64_t kMinimumPeriodNs = 200000;

    static const ProfileProbeData &data_of(const trace::Probe &probe) {
        return static_cast<const ProfileProbeData &>(*probe.data);
    }

    const trace::Probe &add(trace::ProbeTable &table, std::string_view name,
                            const ProfileRate &rate) {
        auto data = std::make_shared<ProfileProbeData>();
        data->tick = rate.tick;
        data->period_ns = rate.period_ns;
        return table.add({"profile", "", "", std::string(name)}, std::move(data));
    }

    Trampoline profile_trampoline(std::vector<const trace::Probe *> probes) {
        Trampoline t;
        t.spec.program_name = "dtx_profile";
        t.spec.section = "perf_event";
        t.spec.probes = probes;
        t.spec.emit = [](codegen::TrampolineBuilder &b) {
            llvm::IRBuilder<> &ir = b.ir();
            llvm::Value *ctx = b.entry().getArg(0);
            llvm::Value *dctx = b.clause_context();
            b.store_probe_id(dctx, b.call_helper(BPF_FUNC_get_attach_cookie, ir.getInt64Ty(), {ctx}));
            b.clear_arguments(dctx);
            llvm::Value *ip = ir.CreateLoad(ir.getInt64Ty(),
                                            ir.CreateConstGEP1_64(ir.getInt8Ty(), ctx, kRegsIpOffset));
            llvm::Value *cs = ir.CreateLoad(ir.getInt64Ty(),
                                            ir.CreateConstGEP1_64(ir.getInt8Ty(), ctx, kRegsCsOffset));
            llvm::Value *user = ir.CreateICmpNE(ir.CreateAnd(cs, ir.getInt64(3)), ir.getInt64(0));
            b.store_argument(dctx, 0, ir.CreateSelect(user, ir.getInt64(0), ip));
            b.store_argument(dctx, 1, ir.CreateSelect(user, ip, ir.getInt64(0)));
            b.run_clauses(dctx);
        };
        t.attach = [probes](AttachContext &context) -> Status {
            for (const trace::Probe *probe : probes) {
                perf_event_attr attr{};
                attr.size = sizeof(attr);
                attr.type = PERF_TYPE_SOFTWARE;
                attr.config = PERF_COUNT_SW_CPU_CLOCK;
                attr.sample_period = data_of(*probe).period_ns;
                for (int cpu : online_cpus()) {
                    auto attached = context.attachments.attach_perf_event(context.program_fd, attr,
                                                                          cpu, -1, probe->id);
                    if (!attached)
                        return attached.error().prefixed("probe '" + probe->name.full() + "'");
                }
            }
            return {};
        };
        return t;
    }

    Trampoline tick_trampoline(std::vector<const trace::Probe *> probes) {
        Trampoline t;
        t.spec.program_name = "dtx_tick";
        t.spec.section = "syscall";
        t.spec.probes = probes;
        t.spec.has_stack_context = false;
        t.spec.emit = [probes](codegen::TrampolineBuilder &b) {
            llvm::IRBuilder<> &ir = b.ir();
            codegen::BpfDebugInfo &debug = b.debug_info();
            // struct { struct bpf_timer timer; u64 probe; u64 period; }: the
            // kernel finds the timer by its BTF type name.
            llvm::DIType *u64 = debug.integer_type(8, false);
            codegen::BtfStructField opaque{"__opaque", debug.array_type(u64, 2), 0};
            llvm::DIType *timer = debug.struct_type("bpf_timer", 16, {&opaque, 1});
            codegen::BtfStructField fields[] = {{"timer", timer, 0}, {"probe", u64, 16},
                                                {"period", u64, 24}};
            llvm::DIType *value = debug.struct_type("dtx_tick", 32, fields);
            llvm::GlobalVariable *timers = debug.define_map({.name = "dtx_ticks",
                                                             .type = BPF_MAP_TYPE_ARRAY,
                                                             .max_entries = uint32_t(probes.size()),
                                                             .key = debug.integer_type(4, false),
                                                             .value = value});
            llvm::Type *i64 = ir.getInt64Ty();
            auto field = [&](llvm::Value *base, uint64_t offset) {
                return ir.CreateConstGEP1_64(ir.getInt8Ty(), base, offset);
            };

            // The callback: run the tick's clauses, then re-arm.
            llvm::IRBuilderBase::InsertPoint start = ir.saveIP();
            llvm::DebugLoc location = ir.getCurrentDebugLocation();
            auto *callback_type =
                llvm::FunctionType::get(i64, {ir.getPtrTy(), ir.getPtrTy(), ir.getPtrTy()}, false);
            llvm::Function *callback = b.define_function("dtx_tick_fired", callback_type);
            llvm::Value *entry = callback->getArg(2);
            llvm::Value *dctx = b.clause_context();
            b.store_probe_id(dctx, ir.CreateLoad(i64, field(entry, 16)));
            b.clear_arguments(dctx);
            b.run_clauses(dctx);
            b.call_helper(BPF_FUNC_timer_start, i64,
                          {entry, ir.CreateLoad(i64, field(entry, 24)), ir.getInt64(0)});
            ir.CreateRet(ir.getInt64(0));
            ir.restoreIP(start);
            ir.SetCurrentDebugLocation(location);

            // The program: arm one timer per probe.
            llvm::Value *key = ir.CreateAlloca(ir.getInt32Ty());
            llvm::Function *program = &b.entry();
            for (size_t i = 0; i < probes.size(); i++) {
                ir.CreateStore(ir.getInt32(uint32_t(i)), key);
                llvm::Value *slot =
                    b.call_helper(BPF_FUNC_map_lookup_elem, ir.getPtrTy(), {timers, key});
                auto *arm = llvm::BasicBlock::Create(ir.getContext(), "arm", program);
                auto *next = llvm::BasicBlock::Create(ir.getContext(), "next", program);
                ir.CreateCondBr(ir.CreateIsNull(slot), next, arm);
                ir.SetInsertPoint(arm);
                uint64_t period = data_of(*probes[i]).period_ns;
                ir.CreateStore(ir.getInt64(probes[i]->id), field(slot, 16));
                ir.CreateStore(ir.getInt64(period), field(slot, 24));
                b.call_helper(BPF_FUNC_timer_init, i64, {slot, timers, ir.getInt64(kClockMonotonic)});
                b.call_helper(BPF_FUNC_timer_set_callback, i64, {slot, callback});
                b.call_helper(BPF_FUNC_timer_start, i64, {slot, ir.getInt64(period), ir.getInt64(0)});
                ir.CreateBr(next);
                ir.SetInsertPoint(next);
            }
        };
        // Running the program once arms the timers; they stop when the
        // session's object (and with it the timer map) is closed.
        t.attach = [](AttachContext &context) -> Status {
            LIBBPF_OPTS(bpf_test_run_opts, options);
            if (bpf_prog_test_run_opts(context.program_fd, &options) != 0)
                return errno_error("profile tick probes", "could not start their timers", errno);
            if (options.retval != 0)
                return failure("profile tick probes: could not start their timers: the program "
                               "returned " +
                               std::to_string(options.retval));
            return {};
        };
        return t;
    }
};

} // namespace

std::unique_ptr<Provider> make_profile_provider() {
    return std::make_unique<ProfileProvider>();
}

} // namespace dtx::providers

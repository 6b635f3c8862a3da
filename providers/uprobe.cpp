#include "providers/uprobe.h"

#include "codegen/bpf_debuginfo.h"
#include "libtrace/perf_event.h"

#include <fcntl.h>
#include <linux/bpf.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace dtx::providers {

namespace {

using trace::PtRegsOffset;
using trace::UsdtArgument;

// The System V x86-64 ABI's integer argument registers, in order.
constexpr PtRegsOffset kArgumentRegisters[] = {PtRegsOffset::Rdi, PtRegsOffset::Rsi,
                                               PtRegsOffset::Rdx, PtRegsOffset::Rcx,
                                               PtRegsOffset::R8,  PtRegsOffset::R9};

const UprobeProbeData &data_of(const trace::Probe &probe) {
    return static_cast<const UprobeProbeData &>(*probe.data);
}

auto argument_key(const UsdtArgument &a) {
    return std::tuple(a.kind, a.size, a.base, a.has_base, a.index, a.scale, a.displacement,
                      a.bit_shift);
}

struct ArgumentsLess {
    bool operator()(const std::vector<UsdtArgument> &a, const std::vector<UsdtArgument> &b) const {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                            [](const UsdtArgument &x, const UsdtArgument &y) {
                                                return argument_key(x) < argument_key(y);
                                            });
    }
};

// The probes of one trampoline: of one argument kind, all for single
// processes or all for every process, and at most one probe per (site,
// process) (aliases such as malloc and __libc_malloc on the same site go to
// separate trampolines).
struct UprobeGroup {
    UprobeArguments arguments;
    bool every_process = false;
    std::vector<const trace::Probe *> probes;
    std::set<std::pair<UprobeSite, pid_t>> taken;
};

// Indexes and tables a trampoline needs, computed once for emit and attach.
struct UprobePlan {
    UprobeArguments arguments;
    bool every_process = false;
    bool multi = false;
    // Whether the program is sleepable: empty, else why not; unset where the
    // kernel has no sleepable uprobe programs (TrampolineSpec::sleepable_chosen).
    std::optional<std::string> why_not_sleepable;
    std::vector<UprobeSite> sites;                         // by site index (the cookie)
    std::vector<std::vector<UsdtArgument>> site_arguments; // by site index (Usdt)
    std::vector<pid_t> pids;                               // -1 alone when every_process
    std::vector<std::vector<uint32_t>> probe_of_site;      // by pid position, by site: ID or 0
    std::vector<const trace::Probe *> probes;
    // (path, pid) -> the site indexes attached there
    std::map<std::pair<std::string, pid_t>, std::vector<uint32_t>> attachments;
};

UprobePlan plan(const UprobeGroup &group, bool multi) {
    UprobePlan p;
    p.arguments = group.arguments;
    p.every_process = group.every_process;
    p.multi = multi;
    p.probes = group.probes;
    std::map<UprobeSite, uint32_t> index_of;
    for (const trace::Probe *probe : group.probes) {
        const UprobeProbeData &data = data_of(*probe);
        if (std::find(p.pids.begin(), p.pids.end(), data.pid) == p.pids.end())
            p.pids.push_back(data.pid);
        for (const UprobeProbeData::Site &site : data.sites) {
            auto [it, added] = index_of.try_emplace(site.place, uint32_t(p.sites.size()));
            if (added) {
                p.sites.push_back(site.place);
                p.site_arguments.push_back(site.usdt_arguments);
            }
        }
    }
    p.probe_of_site.assign(p.pids.size(), std::vector<uint32_t>(p.sites.size(), 0));
    for (const trace::Probe *probe : group.probes) {
        const UprobeProbeData &data = data_of(*probe);
        size_t pid_position =
            size_t(std::find(p.pids.begin(), p.pids.end(), data.pid) - p.pids.begin());
        for (const UprobeProbeData::Site &site : data.sites) {
            uint32_t index = index_of.at(site.place);
            p.probe_of_site[pid_position][index] = probe->id;
            std::vector<uint32_t> &sites = p.attachments[{site.place.path, data.pid}];
            if (std::find(sites.begin(), sites.end(), index) == sites.end())
                sites.push_back(index);
        }
    }
    return p;
}

class UprobeEmitter {
public:
    UprobeEmitter(codegen::TrampolineBuilder &b, const UprobePlan &plan)
        : b_(b), ir_(b.ir()), plan_(plan), ctx_(b.entry().getArg(0)) {}

    void emit() {
        llvm::Function &function = *ir_.GetInsertBlock()->getParent();
        llvm::Value *dctx = b_.clause_context();
        auto *done = llvm::BasicBlock::Create(ir_.getContext(), "no_probe", &function);

        // The site, from the attachment's cookie.
        llvm::Value *site = b_.call_helper(BPF_FUNC_get_attach_cookie, i64(), {ctx_});
        continue_if(ir_.CreateICmpULT(site, const64(plan_.sites.size())), done, "site");

        // The probe: the firing process's entry in the site's row.
        llvm::AllocaInst *probe_id = entry_alloca("probe_id");
        auto *found = llvm::BasicBlock::Create(ir_.getContext(), "found", &function);
        if (plan_.every_process) {
            ir_.CreateStore(table_word(table("every_process", plan_.probe_of_site[0]), site),
                            probe_id);
            ir_.CreateBr(found);
        } else {
            llvm::Value *tgid = ir_.CreateLShr(
                b_.call_helper(BPF_FUNC_get_current_pid_tgid, i64(), {}), const64(32));
            for (size_t i = 0; i < plan_.pids.size(); i++) {
                auto *matched =
                    llvm::BasicBlock::Create(ir_.getContext(), "pid_matched", &function);
                auto *next = llvm::BasicBlock::Create(ir_.getContext(), "pid_next", &function);
                ir_.CreateCondBr(ir_.CreateICmpEQ(tgid, const64(uint64_t(plan_.pids[i]))), matched,
                                 next);
                ir_.SetInsertPoint(matched);
                ir_.CreateStore(
                    table_word(table("pid" + std::to_string(plan_.pids[i]), plan_.probe_of_site[i]),
                               site),
                    probe_id);
                ir_.CreateBr(found);
                ir_.SetInsertPoint(next);
            }
            ir_.CreateBr(done);
        }
        ir_.SetInsertPoint(found);
        llvm::Value *id = ir_.CreateLoad(i64(), probe_id);
        continue_if(ir_.CreateICmpNE(id, const64(0)), done, "probe");
        b_.store_probe_id(dctx, id);
        b_.clear_arguments(dctx);
        if (b_.stores_arguments()) {
            switch (plan_.arguments) {
            case UprobeArguments::Entry:
                store_entry_arguments(dctx);
                break;
            case UprobeArguments::Return:
                b_.store_argument(dctx, 0, reg(PtRegsOffset::Rip));
                b_.store_argument(dctx, 1, reg(PtRegsOffset::Rax));
                break;
            case UprobeArguments::Usdt:
                store_usdt_arguments(dctx, site);
                break;
            }
        }
        b_.run_clauses(dctx);
        ir_.CreateBr(done);
        ir_.SetInsertPoint(done);
    }

private:
    llvm::Type *i64() { return ir_.getInt64Ty(); }
    llvm::Constant *const64(uint64_t value) { return ir_.getInt64(value); }

    void continue_if(llvm::Value *condition, llvm::BasicBlock *otherwise, const char *name) {
        auto *next =
            llvm::BasicBlock::Create(ir_.getContext(), name, ir_.GetInsertBlock()->getParent());
        ir_.CreateCondBr(condition, next, otherwise);
        ir_.SetInsertPoint(next);
    }

    llvm::AllocaInst *entry_alloca(const char *name) {
        llvm::BasicBlock &entry = ir_.GetInsertBlock()->getParent()->getEntryBlock();
        llvm::IRBuilder<> at_entry(&entry, entry.begin());
        return at_entry.CreateAlloca(i64(), nullptr, name);
    }

    // A read-only u32 table in .rodata, named after the program.
    llvm::GlobalVariable *table(const std::string &suffix, const std::vector<uint32_t> &words) {
        codegen::BpfDebugInfo &debug = b_.debug_info();
        return debug.define_global_variable(
            b_.entry().getName().str() + "_" + suffix,
            debug.array_type(debug.integer_type(4, false), words.size()),
            llvm::ConstantDataArray::get(ir_.getContext(), words),
            codegen::GlobalDataSection::ReadOnly);
    }

    llvm::Value *table_word(llvm::GlobalVariable *words, llvm::Value *index) {
        llvm::Value *address =
            ir_.CreateInBoundsGEP(words->getValueType(), words, {const64(0), index});
        return ir_.CreateZExt(ir_.CreateLoad(ir_.getInt32Ty(), address), i64());
    }

    // A saved user register: the program's context is the task's struct pt_regs.
    llvm::Value *reg(PtRegsOffset offset) {
        if (auto it = preloaded_.find(offset); it != preloaded_.end())
            return it->second;
        return ir_.CreateLoad(i64(),
                              ir_.CreateConstGEP1_64(ir_.getInt8Ty(), ctx_, uint64_t(offset)));
    }

    // `size` bytes of user memory at `address`, zero-extended (0 when unreadable).
    llvm::Value *read_user(llvm::Value *address, unsigned size, codegen::UserMemory memory) {
        llvm::AllocaInst *slot = entry_alloca("user_word");
        ir_.CreateStore(const64(0), slot);
        b_.read_user(slot, size, ir_.CreateIntToPtr(address, ir_.getPtrTy()), memory);
        return ir_.CreateLoad(i64(), slot);
    }

    // The low |size| bytes of `value`, sign- or zero-extended as `size` says.
    llvm::Value *extend(llvm::Value *value, int size) {
        unsigned bytes = unsigned(size < 0 ? -size : size);
        if (bytes >= 8)
            return value;
        llvm::Value *narrow = ir_.CreateTrunc(value, ir_.getIntNTy(bytes * 8));
        return size < 0 ? ir_.CreateSExt(narrow, i64()) : ir_.CreateZExt(narrow, i64());
    }

    void store_entry_arguments(llvm::Value *dctx) {
        for (unsigned i = 0; i < std::size(kArgumentRegisters); i++)
            b_.store_argument(dctx, i, reg(kArgumentRegisters[i]));
        // The rest are on the stack, above the return address, where the
        // caller has just written them: resident.
        llvm::Value *sp = reg(PtRegsOffset::Rsp);
        for (unsigned i = std::size(kArgumentRegisters);
             i < codegen::ClauseContextLayout::arg_count; i++)
            b_.store_argument(
                dctx, i,
                read_user(ir_.CreateAdd(sp, const64(8 * (i - std::size(kArgumentRegisters) + 1))),
                          8, codegen::UserMemory::Resident));
    }

    llvm::Value *usdt_value(const UsdtArgument &argument) {
        switch (argument.kind) {
        case UsdtArgument::Kind::Constant:
            return const64(uint64_t(argument.displacement));
        case UsdtArgument::Kind::Register: {
            llvm::Value *value = reg(argument.base);
            if (argument.bit_shift)
                value = ir_.CreateLShr(value, const64(argument.bit_shift));
            return extend(value, argument.size);
        }
        case UsdtArgument::Kind::Memory:
        case UsdtArgument::Kind::IndexedMemory: {
            llvm::Value *address = const64(uint64_t(argument.displacement));
            if (argument.kind == UsdtArgument::Kind::Memory || argument.has_base)
                address = ir_.CreateAdd(address, reg(argument.base));
            if (argument.kind == UsdtArgument::Kind::IndexedMemory)
                address = ir_.CreateAdd(
                    address, ir_.CreateMul(reg(argument.index), const64(argument.scale)));
            unsigned bytes = unsigned(argument.size < 0 ? -argument.size : argument.size);
            return extend(read_user(address, bytes, codegen::UserMemory::MayBeAbsent),
                          argument.size);
        }
        }
        return const64(0);
    }

    // Sites with the same argument specifications share one block.
    void store_usdt_arguments(llvm::Value *dctx, llvm::Value *site) {
        std::map<std::vector<UsdtArgument>, std::vector<uint32_t>, ArgumentsLess> by_arguments;
        for (uint32_t i = 0; i < plan_.sites.size(); i++)
            if (!plan_.site_arguments[i].empty())
                by_arguments[plan_.site_arguments[i]].push_back(i);
        if (by_arguments.empty())
            return;
        // Every register the sites read, loaded once before the per-site
        // blocks: loads of the context in those blocks would be merged by
        // LLVM into one load at a variable offset, which the verifier refuses.
        for (const auto &[arguments, sites] : by_arguments)
            for (const UsdtArgument &argument : arguments) {
                if (argument.kind == UsdtArgument::Kind::Constant)
                    continue;
                if (argument.kind != UsdtArgument::Kind::IndexedMemory || argument.has_base)
                    preloaded_.try_emplace(argument.base, nullptr);
                if (argument.kind == UsdtArgument::Kind::IndexedMemory)
                    preloaded_.try_emplace(argument.index, nullptr);
            }
        for (auto &[offset, value] : preloaded_)
            value = ir_.CreateLoad(i64(),
                                   ir_.CreateConstGEP1_64(ir_.getInt8Ty(), ctx_, uint64_t(offset)));
        llvm::Function *function = ir_.GetInsertBlock()->getParent();
        auto *joined = llvm::BasicBlock::Create(ir_.getContext(), "usdt_arguments_done", function);
        llvm::SwitchInst *dispatch = ir_.CreateSwitch(site, joined);
        for (const auto &[arguments, sites] : by_arguments) {
            auto *block = llvm::BasicBlock::Create(ir_.getContext(), "usdt_arguments", function);
            for (uint32_t s : sites)
                dispatch->addCase(ir_.getInt64(s), block);
            ir_.SetInsertPoint(block);
            for (size_t i = 0; i < arguments.size() && i < codegen::ClauseContextLayout::arg_count;
                 i++)
                b_.store_argument(dctx, unsigned(i), usdt_value(arguments[i]));
            ir_.CreateBr(joined);
        }
        ir_.SetInsertPoint(joined);
    }

    codegen::TrampolineBuilder &b_;
    llvm::IRBuilder<> &ir_;
    const UprobePlan &plan_;
    llvm::Value *ctx_;
    std::map<PtRegsOffset, llvm::Value *> preloaded_;
};

// The probes a site index serves in `plan`, for error messages.
std::string probes_at(const UprobePlan &plan, uint32_t site) {
    std::string names;
    for (const auto &row : plan.probe_of_site)
        for (const trace::Probe *probe : plan.probes)
            if (row[site] == probe->id && names.find(probe->name.full()) == std::string::npos)
                names += (names.empty() ? "probe '" : "', '") + probe->name.full();
    return names.empty() ? "site" : names + "'";
}

// Attaches the sites `indexes` of `path` in process `pid` (-1: all) as one
// uprobe_multi link. The kernel refuses a whole link when it cannot place one
// of its uprobes (an instruction it cannot single-step or emulate), so on
// failure the sites are split in halves until the refused ones are alone;
// those are left out with a warning when the description named several sites
// (a glob), or fail the enabling when it named just that one.
Status attach_multi(const UprobePlan &plan, AttachContext &context, const std::string &path,
                    pid_t pid, std::span<const uint32_t> indexes, bool alone) {
    bool retprobe = plan.arguments == UprobeArguments::Return;
    std::vector<uint64_t> offsets, ref_ctr_offsets, cookies;
    bool semaphores = false;
    for (uint32_t index : indexes) {
        offsets.push_back(plan.sites[index].offset);
        ref_ctr_offsets.push_back(plan.sites[index].ref_ctr_offset);
        semaphores |= plan.sites[index].ref_ctr_offset != 0;
        cookies.push_back(index);
    }
    if (!semaphores)
        ref_ctr_offsets.clear();
    auto attached = context.attachments.attach_uprobe_multi(
        context.program_fd, path, offsets, ref_ctr_offsets, cookies, pid, retprobe);
    if (attached)
        return {};
    Error problem = attached.error().prefixed(probes_at(plan, indexes[0]));
    if (problem.kind == dtx::ErrorKind::KernelLacksFeature)
        return problem;
    if (indexes.size() == 1) {
        if (alone)
            return problem;
        context.warnings.push_back(problem.message + "; left out");
        return {};
    }
    size_t half = indexes.size() / 2;
    if (Status first = attach_multi(plan, context, path, pid, indexes.first(half), false); !first)
        return first;
    return attach_multi(plan, context, path, pid, indexes.subspan(half), false);
}

// Whether x86's uprobes refuse the instruction starting with `bytes`: those
// with a lock or es/cs/ss/ds segment prefix, and VEX or EVEX encoded ones
// (AVX), which the kernel can neither emulate nor single-step out of line.
// Checked before attaching because the kernel refuses a whole uprobe_multi
// link for one of them, and finding it by trial costs many attempts.
bool refused_instruction(std::span<const uint8_t> bytes) {
    for (uint8_t byte : bytes) {
        switch (byte) {
        case 0xf0:
        case 0x26:
        case 0x2e:
        case 0x36:
        case 0x3e: // lock, segments
            return true;
        case 0x66:
        case 0x67:
        case 0xf2:
        case 0xf3:
        case 0x64:
        case 0x65: // other prefixes
            continue;
        case 0xc4:
        case 0xc5:
        case 0x62: // VEX, EVEX
            return true;
        default:
            if ((byte & 0xf0) == 0x40) // REX
                continue;
            return false;
        }
    }
    return false;
}

// The sites of `indexes` whose first instruction the kernel would refuse.
std::set<uint32_t> refused_sites(const UprobePlan &plan, const std::string &path,
                                 std::span<const uint32_t> indexes) {
    std::set<uint32_t> refused;
    trace::UniqueFd file(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!file)
        return refused;
    for (uint32_t index : indexes) {
        uint8_t bytes[8];
        ssize_t n = pread(file.get(), bytes, sizeof bytes, off_t(plan.sites[index].offset));
        if (n > 0 && refused_instruction(std::span(bytes, size_t(n))))
            refused.insert(index);
    }
    return refused;
}

// What -v says of how the program of `plan` reads user memory: as a
// sleepable program, faulting in pages that are not resident yet, or not.
std::string user_memory_note(const UprobePlan &plan) {
    std::string probes = "probe '" + plan.probes[0]->name.full() + "'";
    if (plan.probes.size() > 1)
        probes += " and " + std::to_string(plan.probes.size() - 1) + " more";
    if (!plan.why_not_sleepable)
        return probes + ": not a sleepable uprobe program: the kernel has none with "
                        "bpf_copy_from_user; user memory not resident yet reads as an invalid "
                        "address";
    if (plan.why_not_sleepable->empty())
        return probes + ": a sleepable uprobe program: user memory not resident yet is faulted in";
    return probes + ": not a sleepable uprobe program: " + *plan.why_not_sleepable;
}

Status attach(const UprobePlan &plan, AttachContext &context) {
    context.notes.push_back(user_memory_note(plan));
    bool retprobe = plan.arguments == UprobeArguments::Return;
    std::vector<std::string> left_out;
    for (const auto &[where, all_indexes] : plan.attachments) {
        const auto &[path, pid] = where;
        std::vector<uint32_t> indexes;
        std::set<uint32_t> refused = refused_sites(plan, path, all_indexes);
        for (uint32_t index : all_indexes) {
            if (!refused.contains(index))
                indexes.push_back(index);
            else if (all_indexes.size() == 1)
                return failure(probes_at(plan, index) +
                               ": the kernel cannot place a uprobe on its first instruction (a "
                               "lock prefix, segment prefix or AVX encoding)");
            else
                left_out.push_back(probes_at(plan, index));
        }
        if (indexes.empty())
            continue;
        if (plan.multi) {
            if (Status attached =
                    attach_multi(plan, context, path, pid, indexes, all_indexes.size() == 1);
                !attached)
                return attached;
            continue;
        }
        for (uint32_t index : indexes) {
            const UprobeSite &site = plan.sites[index];
            auto attached = context.attachments.attach_uprobe(
                context.program_fd, path, site.offset, retprobe, site.ref_ctr_offset, pid, index);
            if (attached)
                continue;
            Error problem = attached.error().prefixed(probes_at(plan, index));
            if (indexes.size() == 1)
                return problem;
            context.warnings.push_back(problem.message + "; left out");
        }
    }
    if (!left_out.empty()) {
        constexpr size_t kNamed = 4;
        std::string warning = std::to_string(left_out.size()) +
                              (left_out.size() == 1 ? " probe" : " probes") +
                              " left out: the kernel cannot place a uprobe on an instruction "
                              "with a lock or segment prefix or an AVX encoding: ";
        for (size_t i = 0; i < left_out.size() && i < kNamed; i++)
            warning += (i ? ", " : "") + left_out[i];
        if (left_out.size() > kNamed)
            warning += " and " + std::to_string(left_out.size() - kNamed) + " more";
        context.warnings.push_back(warning);
    }
    return {};
}

} // namespace

std::vector<Trampoline> uprobe_trampolines(std::string_view program_prefix,
                                           std::span<const trace::Probe *const> enabled) {
    std::vector<UprobeGroup> groups;
    for (const trace::Probe *probe : enabled) {
        const UprobeProbeData &data = data_of(*probe);
        bool every_process = data.pid < 0;
        auto fits = [&](const UprobeGroup &group) {
            if (group.arguments != data.arguments || group.every_process != every_process)
                return false;
            return std::none_of(data.sites.begin(), data.sites.end(), [&](const auto &site) {
                return group.taken.contains({site.place, data.pid});
            });
        };
        auto it = std::find_if(groups.begin(), groups.end(), fits);
        if (it == groups.end())
            it = groups.insert(groups.end(), UprobeGroup{data.arguments, every_process, {}, {}});
        it->probes.push_back(probe);
        for (const UprobeProbeData::Site &site : data.sites)
            it->taken.insert({site.place, data.pid});
    }

    bool multi = trace::kernel_supports_uprobe_multi();
    bool sleepable = trace::kernel_supports_sleepable_uprobes(multi);
    std::vector<Trampoline> out;
    for (const UprobeGroup &group : groups) {
        auto shared_plan = std::make_shared<UprobePlan>(plan(group, multi));
        Trampoline t;
        t.spec.program_name = std::string(program_prefix) + "_" + std::to_string(out.size());
        t.spec.section = "uprobe";
        if (sleepable) {
            t.spec.sleepable_section = "uprobe.s"; // loaded by libbpf with BPF_F_SLEEPABLE
            t.spec.sleepable_chosen = [shared_plan](std::string_view why_not) {
                shared_plan->why_not_sleepable = std::string(why_not);
            };
        }
        t.spec.probes = group.probes;
        if (multi)
            t.expected_attach_type = trace::kBpfTraceUprobeMulti;
        t.spec.emit = [shared_plan](codegen::TrampolineBuilder &b) {
            UprobeEmitter(b, *shared_plan).emit();
        };
        t.attach = [shared_plan](AttachContext &context) { return attach(*shared_plan, context); };
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace dtx::providers

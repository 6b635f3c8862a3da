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
// probes one on sys_exit: a table in .rodata, indexed by the syscall number,
// holds the probe ID of each traced call (0 for the others), so one kernel
// attachment serves any number of probes and detaching costs one link close
// instead of an RCU grace period per tracepoint. An untraced call costs a
// bounds check and a load (plus reading orig_ax on return) and returns before
// the clause context is looked up. Calls of 32-bit (ia32) processes are
// skipped: their numbers are another table's. An int 0x80 call from a 64-bit
// process is not recognised as one (that needs the task's TS_COMPAT status).
#include "providers/syscall.h"

#include "codegen/bpf_debuginfo.h"
#include "libtrace/tracefs.h"
#include "providers/registry.h"
#include "providers/syscall_table.h"

#include <linux/bpf.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <sstream>

namespace dtx::providers {

namespace {

constexpr std::string_view kModule = "vmlinux";

// Offsets in x86-64's struct pt_regs (the kernel's layout, as uapi
// asm/ptrace.h shows it) of the registers the programs read.
constexpr uint64_t kRegsR10 = 7 * 8;
constexpr uint64_t kRegsR9 = 8 * 8;
constexpr uint64_t kRegsR8 = 9 * 8;
constexpr uint64_t kRegsDx = 12 * 8;
constexpr uint64_t kRegsSi = 13 * 8;
constexpr uint64_t kRegsDi = 14 * 8;
constexpr uint64_t kRegsOrigAx = 15 * 8;
constexpr uint64_t kRegsCs = 17 * 8;
// The code segment selector of 32-bit user code (__USER32_CS).
constexpr uint64_t kUser32CodeSegment = 0x23;
// The largest errno a system call returns negated (MAX_ERRNO).
constexpr int64_t kMaxErrno = 4095;

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

    std::optional<std::string> match(const ProbePattern &pattern, trace::ProbeTable &table,
                                     std::vector<const trace::Probe *> &out) override {
        if (!trace::glob_match(pattern.provider, "syscall") ||
            !trace::glob_match(pattern.module, kModule) ||
            (!trace::glob_match(pattern.name, "entry") &&
             !trace::glob_match(pattern.name, "return")))
            return std::nullopt;
        if (std::optional<std::string> problem = read_events())
            return problem;
        for (const SyscallEvent &event : events_) {
            if (!trace::glob_match(pattern.function, event.name))
                continue;
            for (bool is_return : {false, true})
                if (trace::glob_match(pattern.name, is_return ? "return" : "entry"))
                    out.push_back(&add(table, event, is_return));
        }
        return std::nullopt;
    }

    void list(trace::ProbeTable &table) override {
        if (read_events())
            return;
        for (const SyscallEvent &event : events_)
            for (bool is_return : {false, true})
                add(table, event, is_return);
    }

    std::vector<trace::ProbeArgument> arguments(const trace::Probe &probe) override {
        if (read_events())
            return {};
        std::string event =
            (data_of(probe).is_return ? "sys_exit_" : "sys_enter_") + probe.name.function;
        trace::AttachResult<std::string> text =
            trace::read_tracepoint_format(tracefs_dir_, "syscalls", event);
        std::string error;
        std::optional<trace::TracepointFormat> format =
            text ? trace::parse_tracepoint_format(*text, error) : std::nullopt;
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
        std::vector<const trace::Probe *> entries, returns;
        for (const trace::Probe *probe : enabled)
            (data_of(*probe).is_return ? returns : entries).push_back(probe);
        std::vector<Trampoline> out;
        if (!entries.empty())
            out.push_back(trampoline(std::move(entries), false));
        if (!returns.empty())
            out.push_back(trampoline(std::move(returns), true));
        return out;
    }

private:
    static const SyscallProbeData &data_of(const trace::Probe &probe) {
        return static_cast<const SyscallProbeData &>(*probe.data);
    }

    // Reads the names of the syscall events once; the error, if tracefs
    // cannot be read.
    std::optional<std::string> read_events() {
        if (events_read_)
            return read_error_;
        events_read_ = true;
        trace::AttachResult<std::string> dir = trace::find_or_mount_tracefs();
        if (!dir)
            return read_error_ = "syscall provider: " + dir.error().message;
        tracefs_dir_ = *dir;
        trace::AttachResult<std::vector<std::string>> names =
            trace::list_tracepoints(tracefs_dir_, "syscalls");
        if (!names)
            return read_error_ = "syscall provider: " + names.error().message;
        constexpr std::string_view kEntryPrefix = "sys_enter_";
        for (const std::string &event : *names) {
            if (!event.starts_with(kEntryPrefix))
                continue;
            std::string name = event.substr(kEntryPrefix.size());
            if (std::optional<uint32_t> number = x86_64_syscall_number(name))
                events_.push_back({std::move(name), *number});
        }
        return std::nullopt;
    }

    const trace::Probe &add(trace::ProbeTable &table, const SyscallEvent &event, bool is_return) {
        trace::ProbeName name{"syscall", std::string(kModule), event.name,
                              is_return ? "return" : "entry"};
        auto data = std::make_shared<SyscallProbeData>();
        data->number = event.number;
        data->is_return = is_return;
        return table.add(std::move(name), std::move(data));
    }

    // pt_regs registers as the program reads them: from `base`, which holds
    // the registers from pt_regs offset `first` on.
    struct Registers {
        llvm::Value *base;
        uint64_t first;
    };

    static Trampoline trampoline(std::vector<const trace::Probe *> probes, bool is_return) {
        Trampoline t;
        t.spec.program_name = is_return ? "dtx_syscall_return" : "dtx_syscall_entry";
        // With kernel BTF the program is BTF-typed (tp_btf): the verifier
        // knows ctx[0] is a struct pt_regs * and lets the program load its
        // registers directly, where raw_tp needs a probe-read helper call
        // (~40 ns a traced call; on return the syscall number read runs for
        // every call of every process).
        const bool typed = std::filesystem::exists("/sys/kernel/btf/vmlinux");
        t.spec.section = typed ? (is_return ? "tp_btf/sys_exit" : "tp_btf/sys_enter") : "raw_tp";
        t.spec.probes = probes;
        // The clause, this program, bpf_trace_run2 and __bpf_trace_sys_enter
        // (or _exit): stacks start in syscall_trace_enter (syscall_exit_work).
        // While another program is attached to the same tracepoint, the
        // kernel's __traceiter_sys_enter (_exit) frame shows above those.
        t.spec.kernel_stack_skip = 4;
        t.spec.emit = [probes, is_return, typed](codegen::TrampolineBuilder &b) {
            if (is_return)
                emit_return(b, probes, typed);
            else
                emit_entry(b, probes, typed);
        };
        t.attach = [is_return, typed](AttachContext &context) -> std::optional<std::string> {
            // A tp_btf program names its tracepoint when loaded.
            auto attached = context.attachments.attach_raw_tracepoint(
                context.program_fd, typed ? "" : is_return ? "sys_exit" : "sys_enter");
            if (!attached)
                return std::string("syscall ") + (is_return ? "return" : "entry") +
                       " probes: " + attached.error().message;
            return std::nullopt;
        };
        return t;
    }

    // The probe ID of syscall `number` from the program's table; returns from
    // the program when the call is not traced.
    static llvm::Value *probe_for_number(codegen::TrampolineBuilder &b,
                                         std::span<const trace::Probe *const> probes,
                                         llvm::Value *number, std::string_view table_name) {
        llvm::IRBuilder<> &ir = b.ir();
        uint32_t highest = 0;
        for (const trace::Probe *probe : probes)
            highest = std::max(highest, data_of(*probe).number);
        std::vector<uint32_t> ids(size_t(highest) + 1, 0);
        for (const trace::Probe *probe : probes)
            ids[data_of(*probe).number] = probe->id;
        codegen::BpfDebugInfo &debug = b.debug_info();
        llvm::GlobalVariable *table = debug.define_global_variable(
            table_name, debug.array_type(debug.integer_type(4, false), ids.size()),
            llvm::ConstantDataArray::get(ir.getContext(), ids),
            codegen::GlobalDataSection::ReadOnly);

        llvm::Function *program = &b.entry();
        auto *lookup = llvm::BasicBlock::Create(ir.getContext(), "lookup", program);
        auto *untraced = llvm::BasicBlock::Create(ir.getContext(), "untraced", program);
        auto *traced = llvm::BasicBlock::Create(ir.getContext(), "traced", program);
        ir.CreateCondBr(ir.CreateICmpULT(number, ir.getInt64(ids.size())), lookup, untraced);
        ir.SetInsertPoint(untraced);
        ir.CreateRet(ir.getInt32(0));
        ir.SetInsertPoint(lookup);
        llvm::Value *slot =
            ir.CreateInBoundsGEP(table->getValueType(), table, {ir.getInt64(0), number});
        llvm::Value *id = ir.CreateLoad(ir.getInt32Ty(), slot);
        ir.CreateCondBr(ir.CreateICmpNE(id, ir.getInt32(0)), traced, untraced);
        ir.SetInsertPoint(traced);
        return id;
    }

    // Where the program reads the registers of the struct pt_regs at `regs`:
    // the registers in place (typed programs), or `size` bytes of them from
    // `offset`, read into a stack buffer in one helper call.
    static Registers read_registers(codegen::TrampolineBuilder &b, llvm::Value *regs,
                                    uint64_t offset, uint64_t size, bool typed) {
        if (typed)
            return {regs, 0};
        llvm::IRBuilder<> &ir = b.ir();
        llvm::Value *buffer;
        {
            llvm::IRBuilder<>::InsertPointGuard guard(ir);
            llvm::BasicBlock &entry = b.entry().getEntryBlock();
            ir.SetInsertPoint(&entry, entry.getFirstInsertionPt());
            buffer = ir.CreateAlloca(llvm::ArrayType::get(ir.getInt64Ty(), size / 8));
        }
        b.call_helper(BPF_FUNC_probe_read_kernel, ir.getInt64Ty(),
                      {buffer, ir.getInt32(uint32_t(size)),
                       ir.CreateConstGEP1_64(ir.getInt8Ty(), regs, offset)});
        return {buffer, offset};
    }

    // The register at pt_regs offset `offset`.
    static llvm::Value *saved_register(codegen::TrampolineBuilder &b, const Registers &registers,
                                       uint64_t offset) {
        llvm::IRBuilder<> &ir = b.ir();
        return ir.CreateAlignedLoad(
            ir.getInt64Ty(),
            ir.CreateConstGEP1_64(ir.getInt8Ty(), registers.base, offset - registers.first),
            llvm::Align(8));
    }

    // Returns from the program when the calling process runs 32-bit code.
    static void skip_ia32(codegen::TrampolineBuilder &b, llvm::Value *code_segment) {
        llvm::IRBuilder<> &ir = b.ir();
        llvm::Function *program = &b.entry();
        auto *ia32 = llvm::BasicBlock::Create(ir.getContext(), "ia32", program);
        auto *native = llvm::BasicBlock::Create(ir.getContext(), "native", program);
        ir.CreateCondBr(ir.CreateICmpEQ(code_segment, ir.getInt64(kUser32CodeSegment)), ia32,
                        native);
        ir.SetInsertPoint(ia32);
        ir.CreateRet(ir.getInt32(0));
        ir.SetInsertPoint(native);
    }

    static llvm::Value *context_word(codegen::TrampolineBuilder &b, unsigned index) {
        llvm::IRBuilder<> &ir = b.ir();
        return ir.CreateAlignedLoad(
            ir.getInt64Ty(), ir.CreateConstGEP1_64(ir.getInt8Ty(), b.entry().getArg(0), 8 * index),
            llvm::Align(8));
    }

    // sys_enter: ctx[0] is the struct pt_regs *, ctx[1] the syscall number.
    static void emit_entry(codegen::TrampolineBuilder &b,
                           std::span<const trace::Probe *const> probes, bool typed) {
        llvm::IRBuilder<> &ir = b.ir();
        llvm::Value *id = probe_for_number(b, probes, context_word(b, 1), "dtx_syscall_entry_ids");
        llvm::Value *regs = ir.CreateIntToPtr(context_word(b, 0), ir.getPtrTy());
        // r10 .. cs in one read: the six argument registers are among them.
        Registers saved = read_registers(b, regs, kRegsR10, kRegsCs + 8 - kRegsR10, typed);
        skip_ia32(b, saved_register(b, saved, kRegsCs));
        llvm::Value *dctx = b.clause_context();
        b.store_probe_id(dctx, id);
        const uint64_t argument_registers[] = {kRegsDi,  kRegsSi, kRegsDx,
                                               kRegsR10, kRegsR8, kRegsR9};
        for (unsigned i = 0; i < codegen::ClauseContextLayout::arg_count; i++)
            b.store_argument(dctx, i,
                             i < std::size(argument_registers)
                                 ? saved_register(b, saved, argument_registers[i])
                                 : ir.getInt64(0));
        b.store_errno(dctx, ir.getInt64(0));
        b.run_clauses(dctx);
    }

    // sys_exit: ctx[0] is the struct pt_regs *, ctx[1] the return value; the
    // syscall number is regs->orig_ax.
    static void emit_return(codegen::TrampolineBuilder &b,
                            std::span<const trace::Probe *const> probes, bool typed) {
        llvm::IRBuilder<> &ir = b.ir();
        llvm::Value *regs = ir.CreateIntToPtr(context_word(b, 0), ir.getPtrTy());
        Registers saved =
            read_registers(b, regs, kRegsOrigAx, kRegsCs + 8 - kRegsOrigAx, typed);
        llvm::Value *id = probe_for_number(b, probes, saved_register(b, saved, kRegsOrigAx),
                                           "dtx_syscall_return_ids");
        skip_ia32(b, saved_register(b, saved, kRegsCs));
        llvm::Value *value = context_word(b, 1);
        llvm::Value *dctx = b.clause_context();
        b.store_probe_id(dctx, id);
        for (unsigned i = 0; i < codegen::ClauseContextLayout::arg_count; i++)
            b.store_argument(dctx, i, i < 2 ? value : ir.getInt64(0));
        // value in [-MAX_ERRNO, -1]  <=>  value + MAX_ERRNO < MAX_ERRNO, unsigned
        llvm::Value *failed =
            ir.CreateICmpULT(ir.CreateAdd(value, ir.getInt64(kMaxErrno)), ir.getInt64(kMaxErrno));
        b.store_errno(dctx, ir.CreateSelect(failed, ir.CreateNeg(value), ir.getInt64(0)));
        b.run_clauses(dctx);
    }

    bool events_read_ = false;
    std::optional<std::string> read_error_;
    std::string tracefs_dir_;
    std::vector<SyscallEvent> events_; // sorted by name
};

} // namespace

std::unique_ptr<Provider> make_syscall_provider() {
    return std::make_unique<SyscallProvider>();
}

} // namespace dtx::providers

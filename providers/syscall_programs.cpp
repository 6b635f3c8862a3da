// The system call programs (providers/syscall_programs.h).
#include "providers/syscall_programs.h"

#include "codegen/bpf_debuginfo.h"
#include "libtrace/vmlinux_btf.h"

#include <linux/bpf.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>
#include <unistd.h>

#include <algorithm>
#include <span>

namespace dtx::providers {

namespace {

// Offsets in x86-64's struct pt_regs (the kernel's layout, as uapi
// asm/ptrace.h shows it) of the registers the programs read.
constexpr uint64_t kRegsBp = 4 * 8;
constexpr uint64_t kRegsBx = 5 * 8;
constexpr uint64_t kRegsR10 = 7 * 8;
constexpr uint64_t kRegsR9 = 8 * 8;
constexpr uint64_t kRegsR8 = 9 * 8;
constexpr uint64_t kRegsCx = 11 * 8;
constexpr uint64_t kRegsDx = 12 * 8;
constexpr uint64_t kRegsSi = 13 * 8;
constexpr uint64_t kRegsDi = 14 * 8;
constexpr uint64_t kRegsOrigAx = 15 * 8;
constexpr uint64_t kRegsCs = 17 * 8;
// The code segment selector of 32-bit user code (__USER32_CS).
constexpr uint64_t kUser32CodeSegment = 0x23;
// The largest errno a system call returns negated (MAX_ERRNO).
constexpr int64_t kMaxErrno = 4095;
// The registers of a system call's arguments, in order: x86-64's, and
// i386's (a 32-bit call's, as syscall_get_arguments() reads them).
constexpr uint64_t kArgumentRegisters[] = {kRegsDi, kRegsSi, kRegsDx, kRegsR10, kRegsR8, kRegsR9};
constexpr uint64_t kIa32ArgumentRegisters[] = {kRegsBx, kRegsCx, kRegsDx,
                                               kRegsSi, kRegsDi, kRegsBp};
// thread_info.status's bit of a thread in a 32-bit system call (x86's
// TS_COMPAT, a #define that BTF does not carry).
constexpr uint32_t kThreadStatusCompat = 0x0002;

// pt_regs registers as the program reads them: from `base`, which holds
// the registers from pt_regs offset `first` on.
struct Registers {
    llvm::Value *base;
    uint64_t first;
};

// The probe ID of syscall `number` from the program's table; returns from
// the program when the call is not traced.
llvm::Value *probe_for_number(codegen::TrampolineBuilder &b, std::span<const SyscallProbe> probes,
                              llvm::Value *number, const std::string &table_name) {
    llvm::IRBuilder<> &ir = b.ir();
    uint32_t highest = 0;
    for (const SyscallProbe &probe : probes)
        highest = std::max(highest, probe.number);
    std::vector<uint32_t> ids(size_t(highest) + 1, 0);
    for (const SyscallProbe &probe : probes)
        ids[probe.number] = probe.probe->id;
    codegen::BpfDebugInfo &debug = b.debug_info();
    llvm::GlobalVariable *table = debug.define_global_variable(
        table_name, debug.array_type(debug.integer_type(4, false), ids.size()),
        llvm::ConstantDataArray::get(ir.getContext(), ids), codegen::GlobalDataSection::ReadOnly);

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
Registers read_registers(codegen::TrampolineBuilder &b, llvm::Value *regs, uint64_t offset,
                         uint64_t size, bool typed) {
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
    b.call_helper(
        BPF_FUNC_probe_read_kernel, ir.getInt64Ty(),
        {buffer, ir.getInt32(uint32_t(size)), ir.CreateConstGEP1_64(ir.getInt8Ty(), regs, offset)});
    return {buffer, offset};
}

// The register at pt_regs offset `offset`.
llvm::Value *saved_register(codegen::TrampolineBuilder &b, const Registers &registers,
                            uint64_t offset) {
    llvm::IRBuilder<> &ir = b.ir();
    return ir.CreateAlignedLoad(
        ir.getInt64Ty(),
        ir.CreateConstGEP1_64(ir.getInt8Ty(), registers.base, offset - registers.first),
        llvm::Align(8));
}

// Returns from the program when the calling process runs 32-bit code.
void skip_ia32(codegen::TrampolineBuilder &b, llvm::Value *code_segment) {
    llvm::IRBuilder<> &ir = b.ir();
    llvm::Function *program = &b.entry();
    auto *ia32 = llvm::BasicBlock::Create(ir.getContext(), "ia32", program);
    auto *native = llvm::BasicBlock::Create(ir.getContext(), "native", program);
    ir.CreateCondBr(ir.CreateICmpEQ(code_segment, ir.getInt64(kUser32CodeSegment)), ia32, native);
    ir.SetInsertPoint(ia32);
    ir.CreateRet(ir.getInt32(0));
    ir.SetInsertPoint(native);
}

llvm::Value *context_word(codegen::TrampolineBuilder &b, unsigned index) {
    llvm::IRBuilder<> &ir = b.ir();
    return ir.CreateAlignedLoad(
        ir.getInt64Ty(), ir.CreateConstGEP1_64(ir.getInt8Ty(), b.entry().getArg(0), 8 * index),
        llvm::Align(8));
}

// sys_enter: ctx[0] is the struct pt_regs *, ctx[1] the syscall number.
void emit_entry(codegen::TrampolineBuilder &b, std::span<const SyscallProbe> probes, bool typed,
                SyscallArguments arguments, const std::string &table) {
    llvm::IRBuilder<> &ir = b.ir();
    llvm::Value *number = context_word(b, 1);
    llvm::Value *id = probe_for_number(b, probes, number, table);
    llvm::Value *regs = ir.CreateIntToPtr(context_word(b, 0), ir.getPtrTy());
    // r10 .. cs in one read: the six argument registers are among them.
    Registers saved = read_registers(b, regs, kRegsR10, kRegsCs + 8 - kRegsR10, typed);
    skip_ia32(b, saved_register(b, saved, kRegsCs));
    llvm::Value *dctx = b.clause_context();
    b.store_probe_id(dctx, id);
    const unsigned first = arguments == SyscallArguments::NumberFirst ? 1 : 0;
    if (first)
        b.store_argument(dctx, 0, number);
    for (unsigned i = first; i < codegen::ClauseContextLayout::arg_count; i++)
        b.store_argument(dctx, i,
                         i - first < std::size(kArgumentRegisters)
                             ? saved_register(b, saved, kArgumentRegisters[i - first])
                             : ir.getInt64(0));
    b.store_errno(dctx, ir.getInt64(0));
    b.run_clauses(dctx);
}

// errno from a system call's return value.
void store_return_errno(codegen::TrampolineBuilder &b, llvm::Value *dctx, llvm::Value *value) {
    llvm::IRBuilder<> &ir = b.ir();
    // value in [-MAX_ERRNO, -1]  <=>  value + MAX_ERRNO < MAX_ERRNO, unsigned
    llvm::Value *failed =
        ir.CreateICmpULT(ir.CreateAdd(value, ir.getInt64(kMaxErrno)), ir.getInt64(kMaxErrno));
    b.store_errno(dctx, ir.CreateSelect(failed, ir.CreateNeg(value), ir.getInt64(0)));
}

// sys_exit: ctx[0] is the struct pt_regs *, ctx[1] the return value; the
// syscall number is regs->orig_ax.
void emit_return(codegen::TrampolineBuilder &b, std::span<const SyscallProbe> probes, bool typed,
                 SyscallArguments arguments, const std::string &table) {
    llvm::IRBuilder<> &ir = b.ir();
    llvm::Value *regs = ir.CreateIntToPtr(context_word(b, 0), ir.getPtrTy());
    Registers saved = read_registers(b, regs, kRegsOrigAx, kRegsCs + 8 - kRegsOrigAx, typed);
    llvm::Value *number = saved_register(b, saved, kRegsOrigAx);
    llvm::Value *id = probe_for_number(b, probes, number, table);
    skip_ia32(b, saved_register(b, saved, kRegsCs));
    llvm::Value *value = context_word(b, 1);
    llvm::Value *dctx = b.clause_context();
    b.store_probe_id(dctx, id);
    const bool number_first = arguments == SyscallArguments::NumberFirst;
    for (unsigned i = 0; i < codegen::ClauseContextLayout::arg_count; i++) {
        llvm::Value *argument = i >= 2 ? ir.getInt64(0) : number_first && i == 0 ? number : value;
        b.store_argument(dctx, i, argument);
    }
    store_return_errno(b, dctx, value);
    b.run_clauses(dctx);
}

// Where the kernel keeps the status word of the current thread: the offset
// of thread_info.status in struct task_struct, from BTF.
std::optional<uint64_t> thread_status_offset() {
    std::optional<uint64_t> info = trace::kernel_member_offset("task_struct", "thread_info");
    std::optional<uint64_t> status = trace::kernel_member_offset("thread_info", "status");
    if (!info || !status)
        return std::nullopt;
    return *info + *status;
}

// sdt:raw_syscalls::sys_enter: ctx[0] is the struct pt_regs *, ctx[1] the
// call's number (i386's for a 32-bit call).
void emit_raw_entry(codegen::TrampolineBuilder &b, uint32_t probe_id, uint64_t status_offset) {
    llvm::IRBuilder<> &ir = b.ir();
    llvm::Value *dctx = b.clause_context();
    b.store_probe_id(dctx, ir.getInt64(probe_id));
    b.clear_arguments(dctx);
    // Nothing to gather when no clause reads an argument: the helper call
    // below would stay in the program.
    if (b.stores_arguments()) {
        Registers regs{ir.CreateIntToPtr(context_word(b, 0), ir.getPtrTy()), 0};
        llvm::Value *task = b.call_helper(BPF_FUNC_get_current_task_btf, ir.getPtrTy(), {});
        llvm::Value *status = ir.CreateAlignedLoad(
            ir.getInt32Ty(), ir.CreateConstGEP1_64(ir.getInt8Ty(), task, status_offset),
            llvm::Align(4));
        llvm::Value *ia32 =
            ir.CreateICmpNE(ir.CreateAnd(status, ir.getInt32(kThreadStatusCompat)), ir.getInt32(0));
        llvm::Value *array = ir.CreateConstGEP1_64(ir.getInt8Ty(), dctx,
                                                   codegen::ClauseContextLayout::argument_array);
        for (size_t i = 0; i < std::size(kArgumentRegisters); i++)
            ir.CreateAlignedStore(
                ir.CreateSelect(ia32, saved_register(b, regs, kIa32ArgumentRegisters[i]),
                                saved_register(b, regs, kArgumentRegisters[i])),
                ir.CreateConstGEP1_64(ir.getInt8Ty(), array, 8 * i), llvm::Align(8));
        b.store_argument(dctx, 0, context_word(b, 1));
        b.store_argument(dctx, 1, ir.CreatePtrToInt(array, ir.getInt64Ty()));
    }
    b.run_clauses(dctx);
}

// sdt:raw_syscalls::sys_exit: ctx[0] is the struct pt_regs *, ctx[1] the
// return value; the record's id is regs->orig_ax (syscall_get_nr()).
void emit_raw_return(codegen::TrampolineBuilder &b, uint32_t probe_id) {
    llvm::IRBuilder<> &ir = b.ir();
    llvm::Value *dctx = b.clause_context();
    b.store_probe_id(dctx, ir.getInt64(probe_id));
    b.clear_arguments(dctx);
    Registers regs{ir.CreateIntToPtr(context_word(b, 0), ir.getPtrTy()), 0};
    llvm::Value *value = context_word(b, 1);
    b.store_argument(dctx, 0, saved_register(b, regs, kRegsOrigAx));
    b.store_argument(dctx, 1, value);
    store_return_errno(b, dctx, value);
    b.run_clauses(dctx);
}

} // namespace

Trampoline syscall_tracepoint_program(std::string program_name, std::vector<SyscallProbe> probes,
                                      bool is_return, SyscallArguments arguments) {
    Trampoline t;
    t.spec.program_name = program_name;
    // With kernel BTF the program is BTF-typed (tp_btf): the verifier
    // knows ctx[0] is a struct pt_regs * and lets the program load its
    // registers directly, where raw_tp needs a probe-read helper call
    // (~40 ns a traced call; on return the syscall number read runs for
    // every call of every process).
    const bool typed = access("/sys/kernel/btf/vmlinux", F_OK) == 0;
    t.spec.section = typed ? (is_return ? "tp_btf/sys_exit" : "tp_btf/sys_enter") : "raw_tp";
    for (const SyscallProbe &probe : probes)
        t.spec.probes.push_back(probe.probe);
    // The clause, this program, bpf_trace_run2 and __bpf_trace_sys_enter
    // (or _exit): stacks start in syscall_trace_enter (syscall_exit_work).
    // While another program is attached to the same tracepoint, the
    // kernel's __traceiter_sys_enter (_exit) frame shows above those.
    t.spec.kernel_stack_skip = 4;
    t.spec.emit = [probes, is_return, typed, arguments,
                   table = program_name + "_ids"](codegen::TrampolineBuilder &b) {
        if (is_return)
            emit_return(b, probes, typed, arguments, table);
        else
            emit_entry(b, probes, typed, arguments, table);
    };
    t.attach = [is_return, typed](AttachContext &context) -> Status {
        // A tp_btf program names its tracepoint when loaded.
        auto attached = context.attachments.attach_raw_tracepoint(context.program_fd,
                                                                  typed       ? ""
                                                                  : is_return ? "sys_exit"
                                                                              : "sys_enter");
        if (!attached)
            return attached.error().prefixed(std::string("syscall ") +
                                             (is_return ? "return" : "entry") + " probes");
        return {};
    };
    return t;
}

std::optional<Trampoline> raw_syscalls_program(std::string program_name, const trace::Probe &probe,
                                               bool is_return) {
    std::optional<uint64_t> status_offset = thread_status_offset();
    if (!status_offset)
        return std::nullopt;
    Trampoline t;
    t.spec.program_name = std::move(program_name);
    t.spec.section = is_return ? "tp_btf/sys_exit" : "tp_btf/sys_enter";
    t.spec.probes = {&probe};
    // As syscall_tracepoint_program()'s: the same tracepoint and glue.
    t.spec.kernel_stack_skip = 4;
    t.spec.emit = [id = probe.id, is_return,
                   status_offset = *status_offset](codegen::TrampolineBuilder &b) {
        if (is_return)
            emit_raw_return(b, id);
        else
            emit_raw_entry(b, id, status_offset);
    };
    t.attach = [name = probe.name.full()](AttachContext &context) -> Status {
        auto attached = context.attachments.attach_raw_tracepoint(context.program_fd, "");
        if (!attached)
            return attached.error().prefixed("probe '" + name + "'");
        return {};
    };
    return t;
}

} // namespace dtx::providers

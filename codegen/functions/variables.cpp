// D's built-in variables (execname, pid, arg0 ..., args[], uregs[] ...), one
// descriptor each: name, type and lowering, as the functions have theirs.
// Types follow dtrace-utils; walltimestamp is unsigned here because it is a
// count of nanoseconds since the epoch, what %Y formats.
#include "codegen/builtins.h"
#include "codegen/functions/builder.h"
#include "codegen/trampoline.h"

#include <linux/bpf.h>

namespace dtx::sema {

namespace {

using codegen::ClauseContextLayout;
using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

template <unsigned n>
Value lower_arg(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return {l.load64(l.at(l.clause_context(state), ClauseContextLayout::args + 8 * n)), expr.type};
}

Value lower_execname(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    llvm::Value *buffer = l.scratch(state, uint32_t(l.strsize()));
    l.store64(l.const64(0), buffer);
    l.current_comm(state, buffer, uint32_t(std::min<uint64_t>(16, l.strsize())));
    return {buffer, expr.type};
}

// pid and tid, uid and gid: the halves of tgid << 32 | pid and
// gid << 32 | uid, for the thread the firing is about.
template <bool ids, bool high>
Value lower_half(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    llvm::Value *both = ids ? l.current_pid_tgid(state) : l.current_uid_gid(state);
    llvm::Value *half = high ? l.ir().CreateLShr(both, 32) : l.ir().CreateAnd(both, 0xffffffff);
    return {l.normalize(half, expr.type), expr.type};
}

Value lower_cpu(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return {l.ir().CreateZExt(l.firing_cpu(l.clause_context(state)), l.i64()), expr.type};
}

Value lower_curcpu(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return {l.current_cpu_info(state), expr.type};
}

Value lower_timestamp(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return {l.firing_timestamp(state), expr.type};
}

// Read afresh at every use, as in dtrace (timestamp is the firing's).
Value lower_walltimestamp(FunctionBuilder &l, const ast::Expr &expr, ClauseState &) {
    llvm::Value *now = l.call_helper(BPF_FUNC_ktime_get_ns, l.i64(), {});
    return {l.ir().CreateAdd(now, l.walltime_offset()), expr.type};
}

// Fields of the current task at offsets taken from kernel BTF: the path
// from the task to the value, member by member.
Value read_task(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state,
                std::initializer_list<std::pair<std::string_view, std::string_view>> path,
                bool follow_first) {
    std::vector<uint64_t> offsets;
    for (auto [type, member] : path) {
        std::optional<uint64_t> offset = l.kernel_member_offset(expr, type, member);
        if (!offset)
            return {l.const64(0), expr.type};
        offsets.push_back(*offset);
    }
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *task = l.current_task(state);
    llvm::Value *buffer = l.scratch(state, 8);
    llvm::Value *address = ir.CreateAdd(task, l.const64(offsets[0]));
    size_t next = 1;
    if (follow_first) { // a pointer member: read it, then go on from where it points
        l.store64(l.const64(0), buffer);
        l.call_helper(BPF_FUNC_probe_read_kernel, l.i64(), {buffer, ir.getInt32(8), address});
        address = ir.CreateAdd(l.load64(buffer), l.const64(offsets[1]));
        next = 2;
    }
    for (; next < offsets.size(); next++)
        address = ir.CreateAdd(address, l.const64(offsets[next]));
    const Type *t = resolve(expr.type);
    const uint32_t size = t && t->size ? uint32_t(std::min<uint64_t>(t->size, 8)) : 8;
    l.store64(l.const64(0), buffer);
    l.call_helper(BPF_FUNC_probe_read_kernel, l.i64(), {buffer, ir.getInt32(size), address});
    return {l.load_integer(buffer, expr.type), expr.type};
}

Value lower_ppid(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return read_task(l, expr, state, {{"task_struct", "real_parent"}, {"task_struct", "tgid"}},
                     true);
}

Value lower_vtimestamp(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return read_task(l, expr, state, {{"task_struct", "se"}, {"sched_entity", "sum_exec_runtime"}},
                     false);
}

Value lower_curthread(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return {l.current_task(state), expr.type};
}

template <unsigned field>
Value lower_probe_name(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return {l.probe_name_field(field, state), expr.type};
}

template <uint32_t offset>
Value lower_context_word(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return {l.normalize(l.load64(l.at(l.clause_context(state), offset)), expr.type), expr.type};
}

// The dispatch stores the EPID only for clauses that read it.
Value lower_epid(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    l.note_epid_read(state);
    return lower_context_word<ClauseContextLayout::epid>(l, expr, state);
}

// stackdepth, ustackdepth: the frames the stack has (127 at most), the
// user stack's as ustack() walks it.
template <bool user>
Value lower_stack_depth(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    if (!l.probe_context(state))
        return {l.const64(0), expr.type};
    llvm::IRBuilder<> &ir = l.ir();
    constexpr uint32_t frames = 127;
    if (user)
        return {l.unwind_user_stack(nullptr, frames, expr, state), expr.type};
    llvm::Value *buffer = l.scratch(state, frames * 8);
    llvm::Value *bytes = l.call_helper(
        BPF_FUNC_get_stack, l.i64(),
        {l.probe_context(state), buffer, ir.getInt32(frames * 8), l.kernel_stack_flags(state)});
    llvm::Value *depth = ir.CreateLShr(bytes, 3);
    return {ir.CreateSelect(ir.CreateICmpSLT(bytes, l.const64(0)), l.const64(0), depth), expr.type};
}

// caller, ucaller: the frame below the probe's, where the probed code was
// called from (0 where there is no stack to read).
template <bool user>
Value lower_caller(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    if (!l.probe_context(state))
        return {l.const64(0), expr.type};
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *buffer = l.scratch(state, 16);
    l.zero(buffer, 16);
    if (!user) {
        l.call_helper(
            BPF_FUNC_get_stack, l.i64(),
            {l.probe_context(state), buffer, ir.getInt32(16), l.kernel_stack_flags(state)});
        return {l.load64(l.at(buffer, 8)), expr.type};
    }
    l.unwind_user_stack(buffer, 2, expr, state);
    llvm::Value *caller = l.load64(l.at(buffer, 8));
    return {ir.CreateSelect(ir.CreateICmpEQ(caller, l.const64(trace::kUserStackTruncated)),
                            l.const64(0), caller),
            expr.type};
}

// zonename: Linux has no zones; every process is in dtrace's "global" zone.
Value lower_zonename(FunctionBuilder &l, const ast::Expr &expr, ClauseState &) {
    return {l.string_literal("global"), expr.type};
}

Value lower_args(FunctionBuilder &l, const ast::Subscript &s, ClauseState &state) {
    return l.lower_probe_argument(s, s.type, state);
}

Value lower_uregs(FunctionBuilder &l, const ast::Subscript &s, ClauseState &state) {
    return l.lower_user_register(s, s.type, state);
}

constexpr BuiltinVariable arg(std::string_view name, VariableLowering lower) {
    return {name, "int64_t", false, lower, nullptr, ProbeData::Arguments};
}

constexpr BuiltinVariable kVariables[] = {
    arg("arg0", lower_arg<0>),
    arg("arg1", lower_arg<1>),
    arg("arg2", lower_arg<2>),
    arg("arg3", lower_arg<3>),
    arg("arg4", lower_arg<4>),
    arg("arg5", lower_arg<5>),
    arg("arg6", lower_arg<6>),
    arg("arg7", lower_arg<7>),
    arg("arg8", lower_arg<8>),
    arg("arg9", lower_arg<9>),
    {"args", "int64_t", true, nullptr, lower_args, ProbeData::Arguments},
    {"caller", "uintptr_t", false, lower_caller<false>},
    {"cpu", "processorid_t", false, lower_cpu},
    {"curcpu", "cpuinfo_t *", false, lower_curcpu},
    {"curthread", "void *", false, lower_curthread}, // struct task_struct * with kernel BTF
    {"cwd", "string", false, lower_cwd},
    {"epid", "uint_t", false, lower_epid},
    {"errno", "int", false, lower_context_word<ClauseContextLayout::errno_value>, nullptr,
     ProbeData::Errno},
    {"execargs", "string", false, lower_execargs},
    {"execname", "string", false, lower_execname},
    {"gid", "gid_t", false, lower_half<false, true>},
    {"id", "uint_t", false, lower_context_word<ClauseContextLayout::probe_id>},
    {"pid", "pid_t", false, lower_half<true, true>},
    {"ppid", "pid_t", false, lower_ppid},
    {"probefunc", "string", false, lower_probe_name<2>},
    {"probemod", "string", false, lower_probe_name<1>},
    {"probename", "string", false, lower_probe_name<3>},
    {"probeprov", "string", false, lower_probe_name<0>},
    {"root", "string", false, lower_root},
    {"stackdepth", "uint32_t", false, lower_stack_depth<false>},
    {"tid", "id_t", false, lower_half<true, false>},
    {"timestamp", "uint64_t", false, lower_timestamp},
    {"ucaller", "uint64_t", false, lower_caller<true>},
    {"uid", "uid_t", false, lower_half<false, false>},
    {"uregs", "uint64_t", true, nullptr, lower_uregs},
    {"ustackdepth", "uint32_t", false, lower_stack_depth<true>},
    {"vtimestamp", "uint64_t", false, lower_vtimestamp},
    {"walltimestamp", "uint64_t", false, lower_walltimestamp},
    {"zonename", "string", false, lower_zonename},
};

} // namespace

const BuiltinVariable *find_builtin_variable(std::string_view name) {
    for (const BuiltinVariable &variable : kVariables)
        if (variable.name == name)
            return &variable;
    return nullptr;
}

std::span<const BuiltinVariable> builtin_variables() {
    return kVariables;
}

} // namespace dtx::sema

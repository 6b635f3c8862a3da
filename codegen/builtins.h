// What D provides without a declaration: built-in variables (execname, arg0 ..)
// and the constants of DTrace's D library (NULL, SIGKILL, uregs[] indexes).
// The variables, functions and actions are in codegen/functions/.
#pragma once

#include "codegen/functions/function.h"
#include "codegen/types.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace dtx::sema {

// What a trampoline fills in for the clauses that read a variable.
enum class ProbeData : uint8_t { None, Arguments, Errno };

using VariableLowering = codegen::Value (*)(codegen::FunctionBuilder &builder,
                                            const ast::Expr &expr, codegen::ClauseState &state);
using ElementLowering = codegen::Value (*)(codegen::FunctionBuilder &builder,
                                           const ast::Subscript &element,
                                           codegen::ClauseState &state);

// One built-in variable (codegen/functions/variables.cpp).
struct BuiltinVariable {
    std::string_view name;
    // The type's spelling, resolved through the TypeTable; "T *" for pointers.
    std::string_view type;
    // args[] and uregs[] are arrays indexed by an integer.
    bool is_array = false;
    VariableLowering lower = nullptr;        // scalars
    ElementLowering lower_element = nullptr; // arrays
    ProbeData reads = ProbeData::None;
};

// execargs: the current process's arguments (codegen/functions/process.cpp).
codegen::Value lower_execargs(codegen::FunctionBuilder &builder, const ast::Expr &expr,
                              codegen::ClauseState &state);
// cwd and root: the current process's directories (codegen/functions/files.cpp).
codegen::Value lower_cwd(codegen::FunctionBuilder &builder, const ast::Expr &expr,
                         codegen::ClauseState &state);
codegen::Value lower_root(codegen::FunctionBuilder &builder, const ast::Expr &expr,
                          codegen::ClauseState &state);

// args[] is typed per probe by its provider; until then it is int64_t[] like
// arg0..arg9. curthread is a void * here; the checker makes it a struct
// task_struct * when the kernel has BTF.
const BuiltinVariable *find_builtin_variable(std::string_view name);
std::span<const BuiltinVariable> builtin_variables();

// uregs[] has the slots of x86-64's struct pt_regs, r15 (0) to ss (20), then,
// as dtrace-utils' regs.d numbers them, the segment registers and the trap
// number pt_regs lacks: R_DS (21), R_ES, R_FS, R_GS, R_TRAPNO (25), read from
// the task's thread_struct (ds, es, fsbase, gsbase, trap_nr).
inline constexpr int64_t kPtRegsSlots = 21;
inline constexpr int64_t kUserRegisterCount = 26;

struct BuiltinConstant {
    std::string_view name;
    std::string_view type; // "int", or "void *" for NULL
    int64_t value;
};

// NULL, the Linux signal numbers (signal.d) and the x86-64 uregs[] indexes
// (regs.d), which DTrace scripts use without declaring.
const BuiltinConstant *find_builtin_constant(std::string_view name);

} // namespace dtx::sema

#include "codegen/builtins.h"

#include <algorithm>

namespace dtx::sema {

namespace {

constexpr BuiltinConstant kConstants[] = {
    // As in dtrace, NULL is the int 0 (sizeof 4), which any pointer takes.
    {"NULL", "int", 0},
    // Linux signal numbers (x86-64).
    {"SIGHUP", "int", 1},
    {"SIGINT", "int", 2},
    {"SIGQUIT", "int", 3},
    {"SIGILL", "int", 4},
    {"SIGTRAP", "int", 5},
    {"SIGABRT", "int", 6},
    {"SIGBUS", "int", 7},
    {"SIGFPE", "int", 8},
    {"SIGKILL", "int", 9},
    {"SIGUSR1", "int", 10},
    {"SIGSEGV", "int", 11},
    {"SIGUSR2", "int", 12},
    {"SIGPIPE", "int", 13},
    {"SIGALRM", "int", 14},
    {"SIGTERM", "int", 15},
    {"SIGSTKFLT", "int", 16},
    {"SIGCHLD", "int", 17},
    {"SIGCONT", "int", 18},
    {"SIGSTOP", "int", 19},
    {"SIGTSTP", "int", 20},
    {"SIGTTIN", "int", 21},
    {"SIGTTOU", "int", 22},
    {"SIGURG", "int", 23},
    {"SIGXCPU", "int", 24},
    {"SIGXFSZ", "int", 25},
    {"SIGVTALRM", "int", 26},
    {"SIGPROF", "int", 27},
    {"SIGWINCH", "int", 28},
    {"SIGIO", "int", 29},
    {"SIGPWR", "int", 30},
    {"SIGSYS", "int", 31},
    // uregs[] indexes: the x86-64 struct pt_regs slots, as regs.d numbers them.
    {"R_R15", "int", 0},
    {"R_R14", "int", 1},
    {"R_R13", "int", 2},
    {"R_R12", "int", 3},
    {"R_RBP", "int", 4},
    {"R_RBX", "int", 5},
    {"R_R11", "int", 6},
    {"R_R10", "int", 7},
    {"R_R9", "int", 8},
    {"R_R8", "int", 9},
    {"R_RAX", "int", 10},
    {"R_RCX", "int", 11},
    {"R_RDX", "int", 12},
    {"R_RSI", "int", 13},
    {"R_RDI", "int", 14},
    {"R_RIP", "int", 16},
    {"R_CS", "int", 17},
    {"R_RFL", "int", 18},
    {"R_RSP", "int", 19},
    {"R_SS", "int", 20},
    // What pt_regs lacks, from the task's thread_struct, at dtrace-utils'
    // indexes (lower_user_register()).
    {"R_DS", "int", 21},
    {"R_ES", "int", 22},
    {"R_FS", "int", 23},
    {"R_GS", "int", 24},
    {"R_TRAPNO", "int", 25},
    {"R_ERR", "int", 15}, // orig_rax: the system call number, or the error code
    {"R_PC", "int", 16},
    {"R_SP", "int", 19},
    {"R_FP", "int", 4},
    {"R_PS", "int", 18},
    {"R_R0", "int", 10},
    {"R_R1", "int", 5},
    // i386's names, as dtrace-utils' x86-64 regs.d keeps them, for the same
    // registers' 64 bits.
    {"R_EAX", "int", 10},
    {"R_EBX", "int", 5},
    {"R_ECX", "int", 11},
    {"R_EDX", "int", 12},
    {"R_ESI", "int", 13},
    {"R_EDI", "int", 14},
    {"R_EBP", "int", 4},
    {"R_EIP", "int", 16},
    {"R_EFL", "int", 18},
    {"R_ESP", "int", 19},
};

template <typename T>
const T *find_by_name(std::span<const T> table, std::string_view name) {
    auto it = std::find_if(table.begin(), table.end(), [&](const T &e) { return e.name == name; });
    return it == table.end() ? nullptr : &*it;
}

} // namespace

const BuiltinConstant *find_builtin_constant(std::string_view name) {
    return find_by_name<BuiltinConstant>(kConstants, name);
}

} // namespace dtx::sema

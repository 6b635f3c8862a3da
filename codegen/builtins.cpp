#include "codegen/builtins.h"

#include <algorithm>
#include <initializer_list>

namespace dtx::sema {

namespace {

// Types follow dtrace-utils; walltimestamp is unsigned here because it is a
// count of nanoseconds since the epoch, what %Y formats.
constexpr BuiltinVariable kVariables[] = {
    {"arg0", "int64_t"},
    {"arg1", "int64_t"},
    {"arg2", "int64_t"},
    {"arg3", "int64_t"},
    {"arg4", "int64_t"},
    {"arg5", "int64_t"},
    {"arg6", "int64_t"},
    {"arg7", "int64_t"},
    {"arg8", "int64_t"},
    {"arg9", "int64_t"},
    {"args", "int64_t", true},
    {"caller", "uintptr_t"},
    {"cpu", "processorid_t"},
    {"curthread", "void *"}, // struct task_struct * with kernel BTF
    {"cwd", "string"},
    {"epid", "uint_t"},
    {"errno", "int"},
    {"execname", "string"},
    {"gid", "gid_t"},
    {"id", "uint_t"},
    {"pid", "pid_t"},
    {"ppid", "pid_t"},
    {"probefunc", "string"},
    {"probemod", "string"},
    {"probename", "string"},
    {"probeprov", "string"},
    {"stackdepth", "uint32_t"},
    {"tid", "id_t"},
    {"timestamp", "uint64_t"},
    {"ucaller", "uint64_t"},
    {"uid", "uid_t"},
    {"uregs", "uint64_t", true},
    {"ustackdepth", "uint32_t"},
    {"vtimestamp", "uint64_t"},
    {"walltimestamp", "uint64_t"},
};

constexpr BuiltinConstant kConstants[] = {
    {"NULL", "void *", 0},
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
    // uregs[] indexes: the x86-64 struct pt_regs slots.
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
    {"R_PC", "int", 16},
    {"R_SP", "int", 19},
    {"R_FP", "int", 4},
    {"R_PS", "int", 18},
};

constexpr Parameter any() {
    return {ParameterKind::Any, "@"};
}
constexpr Parameter integer(std::string_view spelling, bool optional = false) {
    return {ParameterKind::Integer, spelling, optional};
}
constexpr Parameter text(bool optional = false) {
    return {ParameterKind::StringLike, "const char *", optional};
}
constexpr Parameter pointer(std::string_view spelling = "void *") {
    return {ParameterKind::Pointer, spelling};
}
constexpr Parameter aggregation() {
    return {ParameterKind::Aggregation, "@aggregation"};
}
constexpr Parameter format() {
    return {ParameterKind::Format, "string format"};
}

struct Extra {
    bool variadic = false;
    TypeRule rule = TypeRule::None;
    bool destructive = false;
    bool user = false;
    SymbolForm symbol_form = SymbolForm::Address;
};

constexpr FunctionDescriptor fn(std::string_view name, FunctionClass function_class,
                                std::string_view result, std::initializer_list<Parameter> params,
                                Extra extra = {}) {
    FunctionDescriptor d;
    d.name = name;
    d.function_class = function_class;
    d.result = result;
    for (const Parameter &p : params)
        d.parameters[d.parameter_count++] = p;
    d.variadic = extra.variadic;
    d.rule = extra.rule;
    d.destructive = extra.destructive;
    d.user = extra.user;
    d.symbol_form = extra.symbol_form;
    return d;
}

constexpr auto S = FunctionClass::Subroutine;
constexpr auto A = FunctionClass::Action;
constexpr auto G = FunctionClass::Aggregating;

// In alphabetical order.
constexpr FunctionDescriptor kFunctions[] = {
    fn("alloca", S, "void *", {integer("size_t")}),
    fn("avg", G, "void", {any()}),
    fn("basename", S, "string", {text()}),
    fn("clear", A, "void", {aggregation()}),
    fn("commit", A, "void", {integer("int")}),
    fn("copyin", S, "void *", {integer("uintptr_t"), integer("size_t")}),
    fn("copyinstr", S, "string", {integer("uintptr_t"), integer("size_t", true)}),
    fn("copyinto", S, "void", {integer("uintptr_t"), integer("size_t"), pointer()}),
    fn("copyout", S, "void", {pointer(), integer("uintptr_t"), integer("size_t")},
       {.destructive = true}),
    fn("copyoutstr", S, "void", {text(), integer("uintptr_t"), integer("size_t")},
       {.destructive = true}),
    fn("count", G, "void", {}),
    fn("denormalize", A, "void", {aggregation()}),
    fn("dirname", S, "string", {text()}),
    fn("discard", A, "void", {integer("int")}),
    fn("exit", A, "void", {integer("int")}),
    fn("func", S, "_symaddr", {integer("uintptr_t")}, {.symbol_form = SymbolForm::Function}),
    fn("htonl", S, "uint32_t", {integer("uint32_t")}),
    fn("htonll", S, "uint64_t", {integer("uint64_t")}),
    fn("htons", S, "uint16_t", {integer("uint16_t")}),
    fn("index", S, "int", {text(), text(), integer("int", true)}),
    fn("llquantize", G, "void",
       {any(), integer("int32_t"), integer("int32_t"), integer("int32_t"), integer("int32_t")},
       {.variadic = true, .rule = TypeRule::Llquantize}),
    fn("lltostr", S, "string", {integer("int64_t"), integer("int", true)}),
    fn("lquantize", G, "void", {any(), integer("int32_t"), integer("int32_t")},
       {.variadic = true, .rule = TypeRule::Lquantize}),
    fn("max", G, "void", {any()}),
    fn("min", G, "void", {any()}),
    fn("mod", S, "_symaddr", {integer("uintptr_t")}, {.symbol_form = SymbolForm::Module}),
    fn("normalize", A, "void", {aggregation(), integer("uint64_t")}),
    fn("ntohl", S, "uint32_t", {integer("uint32_t")}),
    fn("ntohll", S, "uint64_t", {integer("uint64_t")}),
    fn("ntohs", S, "uint16_t", {integer("uint16_t")}),
    fn("print", A, "void", {any()}, {.rule = TypeRule::Print}),
    fn("printa", A, "void", {}, {.variadic = true, .rule = TypeRule::Printa}),
    fn("printf", A, "void", {format()}, {.variadic = true, .rule = TypeRule::Printf}),
    fn("progenyof", S, "int", {integer("pid_t")}),
    fn("quantize", G, "void", {any(), integer("int64_t", true)}),
    fn("raise", A, "void", {integer("int")}, {.destructive = true}),
    fn("rand", S, "int", {}),
    fn("rindex", S, "int", {text(), text(), integer("int", true)}),
    fn("setopt", A, "void", {text(), text(true)}),
    fn("speculate", A, "void", {integer("int")}),
    fn("speculation", S, "int", {}),
    fn("stack", A, "stack", {integer("uint32_t", true)}),
    fn("stddev", G, "void", {any()}),
    fn("stop", A, "void", {}, {.destructive = true}),
    fn("strchr", S, "string", {text(), integer("char")}),
    fn("strjoin", S, "string", {text(), text()}),
    fn("strlen", S, "size_t", {text()}),
    fn("strrchr", S, "string", {text(), integer("char")}),
    fn("strstr", S, "string", {text(), text()}),
    fn("strtok", S, "string", {text(), text()}),
    fn("substr", S, "string", {text(), integer("int"), integer("int", true)}),
    fn("sum", G, "void", {any()}),
    fn("sym", S, "_symaddr", {integer("uintptr_t")}, {.symbol_form = SymbolForm::Function}),
    fn("system", A, "void", {format()},
       {.variadic = true, .rule = TypeRule::Printf, .destructive = true}),
    fn("tolower", S, "string", {text()}),
    fn("toupper", S, "string", {text()}),
    fn("trace", A, "void", {any()}),
    fn("tracemem", A, "void", {any(), integer("size_t"), integer("size_t", true)}),
    fn("trunc", A, "void", {aggregation(), integer("uint64_t", true)}),
    fn("uaddr", S, "_usymaddr", {integer("uintptr_t")}),
    fn("ufunc", S, "_usymaddr", {integer("uintptr_t")}, {.symbol_form = SymbolForm::Function}),
    fn("umod", S, "_usymaddr", {integer("uintptr_t")}, {.symbol_form = SymbolForm::Module}),
    fn("ustack", A, "stack", {integer("uint32_t", true), integer("uint32_t", true)},
       {.user = true}),
    fn("usym", S, "_usymaddr", {integer("uintptr_t")}, {.symbol_form = SymbolForm::Function}),
};

template <typename T>
const T *find_by_name(std::span<const T> table, std::string_view name) {
    auto it = std::find_if(table.begin(), table.end(), [&](const T &e) { return e.name == name; });
    return it == table.end() ? nullptr : &*it;
}

} // namespace

const BuiltinVariable *find_builtin_variable(std::string_view name) {
    return find_by_name<BuiltinVariable>(kVariables, name);
}

std::span<const BuiltinVariable> builtin_variables() {
    return kVariables;
}

const BuiltinConstant *find_builtin_constant(std::string_view name) {
    return find_by_name<BuiltinConstant>(kConstants, name);
}

const FunctionDescriptor *find_function(std::string_view name) {
    return find_by_name<FunctionDescriptor>(kFunctions, name);
}

std::span<const FunctionDescriptor> functions() {
    return kFunctions;
}

size_t FunctionDescriptor::required_count() const {
    size_t count = 0;
    for (const Parameter &p : params())
        count += !p.optional;
    return count;
}

std::string FunctionDescriptor::signature() const {
    std::string out = std::string(result) + " " + std::string(name) + "(";
    if (rule == TypeRule::Printa)
        out += "[string format, ] @aggregation, ...";
    for (size_t i = 0; i < parameter_count; ++i) {
        if (i)
            out += ", ";
        const Parameter &p = parameters[i];
        out += p.optional ? "[" + std::string(p.spelling) + "]" : std::string(p.spelling);
    }
    if (variadic && rule != TypeRule::Printa)
        out += parameter_count ? ", ..." : "...";
    return out + ")";
}

} // namespace dtx::sema

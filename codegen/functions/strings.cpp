// D's string functions (and strtoll(), which reads one). Each runs in the BPF run-time library
// (codegen/runtime/strings.c, dtx_rt_<name>), which gives their
// semantics; a string result is a fresh strsize buffer of scratch.
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"
#include "codegen/runtime_library.h"

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

llvm::Value *string_argument(FunctionBuilder &l, const ast::Call &call, size_t i,
                             ClauseState &state) {
    const ast::Expr &argument = *call.arguments.at(i);
    if (l.is_null_pointer(argument)) { // NULL where characters are read: address 0
        l.fault_if(state, l.ir().getTrue(), trace::FaultKind::BadAddress, l.const64(0));
        return l.string_literal("");
    }
    return l.lower_string(argument, state);
}

llvm::Value *integer_argument(FunctionBuilder &l, const ast::Call &call, size_t i,
                              ClauseState &state) {
    return l.lower_scalar(*call.arguments.at(i), state);
}

// An optional integer argument, or the library's mark for "not given".
llvm::Value *optional_integer(FunctionBuilder &l, const ast::Call &call, size_t i,
                              ClauseState &state) {
    return call.arguments.size() > i ? integer_argument(l, call, i, state)
                                     : l.const64(uint64_t(codegen::kRuntimeOmittedArgument));
}

llvm::Value *string_result(FunctionBuilder &l, ClauseState &state) {
    return l.scratch(state, uint32_t(l.strsize()));
}

Value lower_strlen(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *s = string_argument(l, call, 0, state);
    return {l.runtime_call("dtx_rt_strlen", {s, l.const64(l.strsize())}), call.type};
}

Value lower_strjoin(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *a = string_argument(l, call, 0, state);
    llvm::Value *b = string_argument(l, call, 1, state);
    llvm::Value *dst = string_result(l, state);
    l.runtime_call("dtx_rt_strjoin", {dst, a, b, l.const64(l.strsize())});
    return {dst, call.type};
}

Value lower_substr(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *s = string_argument(l, call, 0, state);
    llvm::Value *index = integer_argument(l, call, 1, state);
    llvm::Value *length = optional_integer(l, call, 2, state);
    llvm::Value *dst = string_result(l, state);
    l.runtime_call("dtx_rt_substr", {dst, s, index, length, l.const64(l.strsize())});
    return {dst, call.type};
}

// index() and rindex(): a position, or -1.
Value lower_search(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *s = string_argument(l, call, 0, state);
    llvm::Value *sub = string_argument(l, call, 1, state);
    llvm::Value *start = optional_integer(l, call, 2, state);
    llvm::Value *position =
        l.runtime_call("dtx_rt_" + call.function, {s, sub, start, l.const64(l.strsize())});
    return {l.normalize(position, call.type), call.type};
}

// strchr(), strrchr() and strstr(): the rest of the string from the match,
// or NULL (the empty string, whose address compares equal to NULL in D).
Value lower_find(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *s = string_argument(l, call, 0, state);
    llvm::Value *what = call.function == "strstr" ? string_argument(l, call, 1, state)
                                                  : integer_argument(l, call, 1, state);
    llvm::Value *dst = string_result(l, state);
    llvm::Value *found =
        l.runtime_call("dtx_rt_" + call.function, {dst, s, what, l.const64(l.strsize())});
    return l.nullable_string(dst, found, call.type);
}

// basename(), dirname(), toupper(), tolower(): one string to another.
Value lower_transform(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *s = string_argument(l, call, 0, state);
    llvm::Value *dst = string_result(l, state);
    l.runtime_call("dtx_rt_" + call.function, {dst, s, l.const64(l.strsize())});
    return {dst, call.type};
}

Value lower_lltostr(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *value = integer_argument(l, call, 0, state);
    llvm::Value *base =
        call.arguments.size() > 1 ? integer_argument(l, call, 1, state) : l.const64(10);
    llvm::Value *dst = string_result(l, state);
    l.runtime_call("dtx_rt_lltostr", {dst, value, base, l.const64(l.strsize())});
    return {dst, call.type};
}

// strtok(s, delimiters), strtok(NULL, delimiters): the state of the scan lives
// in this CPU's clause context, so it carries from clause to clause of a
// firing, as in DTrace; each firing starts without one.
Value lower_strtok(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    const ast::Expr &first = *call.arguments.at(0);
    llvm::Value *s = l.is_null_pointer(first) ? l.const64(0) : string_argument(l, call, 0, state);
    llvm::Value *delimiters = string_argument(l, call, 1, state);
    llvm::Value *dst = string_result(l, state);
    llvm::Value *found = l.runtime_call(
        "dtx_rt_strtok", {dst, s, delimiters, l.strtok_state(state), l.const64(l.strsize())});
    // strtok(NULL, ...) with nothing to continue reads address 0, as in dtrace.
    l.fault_if(state, l.ir().CreateICmpSLT(found, l.const64(0)), trace::FaultKind::BadAddress,
               l.const64(0));
    return l.nullable_string(dst, found, call.type);
}

// strtoll(s [, base]): base 0 (the prefix decides) or 2 to 36; any other
// is an illegal operation, as in DTrace.
Value lower_strtoll(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *s = string_argument(l, call, 0, state);
    llvm::Value *base = optional_integer(l, call, 1, state);
    if (call.arguments.size() > 1) {
        llvm::Value *valid =
            ir.CreateOr(ir.CreateICmpEQ(base, l.const64(0)),
                        ir.CreateICmpULE(ir.CreateSub(base, l.const64(2)), l.const64(36 - 2)));
        l.fault_if(state, ir.CreateNot(valid), trace::FaultKind::IllegalOperation, nullptr);
    }
    llvm::Value *number = l.scratch(state, 16);
    return {l.runtime_call("dtx_rt_strtoll", {s, base, number, l.const64(l.strsize())}), call.type};
}

// cleanpath(s): its progress is kept in scratch (codegen/runtime/strings.c says why).
Value lower_cleanpath(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::Value *s = string_argument(l, call, 0, state);
    llvm::Value *dst = string_result(l, state);
    llvm::Value *progress = l.scratch(state, 32);
    l.runtime_call("dtx_rt_cleanpath", {dst, s, progress, l.const64(l.strsize())});
    return {dst, call.type};
}

constexpr auto S = FunctionClass::Subroutine;

constexpr FunctionDescriptor kStrings[] = {
    describe("basename", S, "string", {text()}, lower_transform),
    describe("cleanpath", S, "string", {text()}, lower_cleanpath),
    describe("dirname", S, "string", {text()}, lower_transform),
    describe("index", S, "int", {text(), text(), integer("int", true)}, lower_search),
    describe("lltostr", S, "string", {integer("int64_t"), integer("int", true)}, lower_lltostr),
    describe("rindex", S, "int", {text(), text(), integer("int", true)}, lower_search),
    describe("strchr", S, "string", {text(), integer("char")}, lower_find),
    describe("strjoin", S, "string", {text(), text()}, lower_strjoin),
    describe("strlen", S, "size_t", {text()}, lower_strlen),
    describe("strrchr", S, "string", {text(), integer("char")}, lower_find),
    describe("strstr", S, "string", {text(), text()}, lower_find),
    describe("strtoll", S, "int64_t", {text(), integer("int", true)}, lower_strtoll),
    describe("strtok", S, "string", {text(), text()}, lower_strtok),
    describe("substr", S, "string", {text(), integer("int"), integer("int", true)}, lower_substr),
    describe("tolower", S, "string", {text()}, lower_transform),
    describe("toupper", S, "string", {text()}, lower_transform),
};

} // namespace

std::span<const FunctionDescriptor> string_functions() {
    return kStrings;
}

} // namespace dtx::sema

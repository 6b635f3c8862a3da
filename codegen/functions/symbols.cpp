// Symbol addresses: func(), sym() and mod() of kernel addresses, usym(),
// ufunc(), umod() and uaddr() of the current process's. Each is its argument,
// an integer, typed so that the consumer names it (module`function+0x10,
// module`function, module) when it prints the record or key holding it; a
// user address is recorded with its process (the lowering's store_field).
// As a statement, each prints its symbol, as trace() of it would (dtrace's
// do the same).
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"
#include "libtrace/consumer.h"

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

void consume_symbol(trace::Consumer &consumer, const trace::ActionDescription &action,
                    std::span<const std::byte> record) {
    consumer.output().trace(action.values.at(0), record);
}

Value lower_symbol(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool statement) {
    Value address{l.lower_scalar(*call.arguments.at(0), state), call.type};
    if (!statement)
        return address;
    trace::ActionDescription action = l.action(call, consume_symbol);
    l.record_lowered(state, action, address);
    return l.finish_action(state, std::move(action), call);
}

constexpr auto S = FunctionClass::Subroutine;
constexpr auto Function = SymbolForm::Function;
constexpr auto Module = SymbolForm::Module;

constexpr FunctionDescriptor kSymbols[] = {
    describe("func", S, "_symaddr", {integer("uintptr_t")}, lower_symbol,
             {.symbol_form = Function}),
    describe("mod", S, "_symaddr", {integer("uintptr_t")}, lower_symbol, {.symbol_form = Module}),
    describe("sym", S, "_symaddr", {integer("uintptr_t")}, lower_symbol, {.symbol_form = Function}),
    describe("uaddr", S, "_usymaddr", {integer("uintptr_t")}, lower_symbol),
    describe("ufunc", S, "_usymaddr", {integer("uintptr_t")}, lower_symbol,
             {.symbol_form = Function}),
    describe("umod", S, "_usymaddr", {integer("uintptr_t")}, lower_symbol, {.symbol_form = Module}),
    describe("usym", S, "_usymaddr", {integer("uintptr_t")}, lower_symbol,
             {.symbol_form = Function}),
};

} // namespace

std::span<const FunctionDescriptor> symbol_functions() {
    return kSymbols;
}

} // namespace dtx::sema

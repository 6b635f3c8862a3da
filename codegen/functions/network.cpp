// Network byte order and addresses: htons() and friends swap the bytes of
// their width on this little-endian machine (x86-64); inet_ntoa(),
// inet_ntoa6(), inet_ntop() and link_ntop() read an address from kernel (or
// the program's scratch) memory and write it as text, in the BPF run-time
// library (dtx_rt_inet_ntop, dtx_rt_link_ntop in codegen/runtime/network.c).
#include "codegen/checker.h"
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"

#include <llvm/IR/Intrinsics.h>

#include <algorithm>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

template <unsigned bits>
Value lower_swap(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *value =
        ir.CreateTrunc(l.lower_scalar(*call.arguments.at(0), state), ir.getIntNTy(bits));
    llvm::Value *swapped = ir.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, value);
    return {ir.CreateZExt(swapped, l.i64()), call.type};
}

// Linux's address families and link-layer types (the D library's net.d).
constexpr int64_t kInet = 2;        // AF_INET
constexpr int64_t kInet6 = 10;      // AF_INET6
constexpr int64_t kEther = 1;       // ARPHRD_ETHER: 6 bytes
constexpr int64_t kInfiniband = 32; // ARPHRD_INFINIBAND: 20 bytes
// The run-time functions' work area: the address's bytes, then its text
// (codegen/runtime/network.c's DTX_RT_TEXT_AT and DTX_RT_TEXT_ROOM).
constexpr uint32_t kAddressWork = 24 + 64;

// The address argument (the first pointer parameter) must be a pointer, or
// an array (its first element's address): a string or an integer is a
// mistake the signature's kinds alone would let through.
bool check_address(CallCheck &check) {
    Checker &c = check.checker;
    if (!c.check_arguments(check.call, check.function, 0))
        return false;
    const auto params = check.function.params();
    const size_t at =
        size_t(std::find_if(params.begin(), params.end(),
                            [](const Parameter &p) { return p.kind == ParameterKind::Pointer; }) -
               params.begin());
    ast::Expr &address = *check.call.arguments.at(at);
    if (is_pointer(resolve(address.type)) || is_array(resolve(address.type)) ||
        c.is_null_constant(address))
        return true;
    Diagnostic &d =
        c.error("D_PROTO_ARG", address.range,
                "argument #" + std::to_string(at + 1) + " of " + check.call.function +
                    "() has type " + Checker::quote(address.type) + ", which does not match '" +
                    std::string(params[at].spelling) + "'");
    d.hints.push_back("prototype: " + check.function.signature());
    return false;
}

// inet_ntoa6(addr, strict): strict, when given, must be an integer constant,
// as dtrace requires, since it chooses the form at compile time.
bool check_inet_ntoa6(CallCheck &check) {
    if (!check_address(check))
        return false;
    if (check.call.arguments.size() < 2)
        return true;
    Checker &c = check.checker;
    ast::Expr &strict = *check.call.arguments[1];
    if (c.constant_value(strict))
        return true;
    Diagnostic &d = c.error("D_PROTO_ARG", strict.range,
                            "argument #2 of inet_ntoa6() must be an integer constant");
    d.hints.push_back("prototype: " + check.function.signature());
    return false;
}

// The text of the address in `work`, formatted by `function`.
Value address_text(FunctionBuilder &l, const ast::Call &call, ClauseState &state,
                   const char *function, llvm::Value *work, llvm::Value *form) {
    llvm::Value *dst = l.scratch(state, uint32_t(l.strsize()));
    l.runtime_call(function, {dst, work, form, l.const64(l.strsize())});
    return {dst, call.type};
}

// inet_ntoa(ipaddr_t *), inet_ntoa6(in6_addr_t *[, strict]), inet_ntop(int af,
// void *): dtx_rt_inet_ntop's forms 0 (IPv4), 1 (IPv6 as inet_ntop) and 2
// (IPv6 as inet_ntoa6). A strict inet_ntoa6() (a non-zero second argument)
// keeps an IPv4-mapped or -compatible address's IPv6 prefix, as inet_ntop
// does: form 1. inet_ntop() with a family other than AF_INET and AF_INET6 is
// an illegal operation, as in DTrace.
Value lower_inet(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    const bool strict = call.function == "inet_ntoa6" && call.arguments.size() > 1 &&
                        l.integer_constant(*call.arguments[1]).value_or(0) != 0;
    llvm::Value *form = l.const64(call.function == "inet_ntoa" ? 0 : strict ? 1 : 2);
    llvm::Value *length = l.const64(call.function == "inet_ntoa" ? 4 : 16);
    if (call.function == "inet_ntop") {
        llvm::Value *family = l.lower_scalar(*call.arguments.at(0), state);
        llvm::Value *v4 = ir.CreateICmpEQ(family, l.const64(kInet));
        llvm::Value *v6 = ir.CreateICmpEQ(family, l.const64(kInet6));
        l.fault_if(state, ir.CreateNot(ir.CreateOr(v4, v6)), trace::FaultKind::IllegalOperation,
                   nullptr);
        form = ir.CreateSelect(v4, l.const64(0), l.const64(1));
        length = ir.CreateSelect(v4, l.const64(4), l.const64(16));
    }
    llvm::Value *address =
        l.lower_scalar(*call.arguments.at(call.function == "inet_ntop" ? 1 : 0), state);
    llvm::Value *work = l.scratch(state, kAddressWork);
    l.read_memory(state, work, length, address, /*user=*/false);
    return address_text(l, call, state, "dtx_rt_inet_ntop", work, form);
}

// link_ntop(int type, void *): an Ethernet (6 bytes) or InfiniBand (20
// bytes) address as hex bytes between ':'; other types are an illegal
// operation, as in DTrace.
Value lower_link_ntop(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *type = l.lower_scalar(*call.arguments.at(0), state);
    llvm::Value *ether = ir.CreateICmpEQ(type, l.const64(kEther));
    llvm::Value *infiniband = ir.CreateICmpEQ(type, l.const64(kInfiniband));
    l.fault_if(state, ir.CreateNot(ir.CreateOr(ether, infiniband)),
               trace::FaultKind::IllegalOperation, nullptr);
    llvm::Value *length = ir.CreateSelect(ether, l.const64(6), l.const64(20));
    llvm::Value *address = l.lower_scalar(*call.arguments.at(1), state);
    llvm::Value *work = l.scratch(state, kAddressWork);
    l.read_memory(state, work, length, address, /*user=*/false);
    return address_text(l, call, state, "dtx_rt_link_ntop", work, length);
}

constexpr auto S = FunctionClass::Subroutine;
constexpr Extra kAddress = {.check = check_address};

constexpr FunctionDescriptor kNetwork[] = {
    describe("htonl", S, "uint32_t", {integer("uint32_t")}, lower_swap<32>),
    describe("htonll", S, "uint64_t", {integer("uint64_t")}, lower_swap<64>),
    describe("htons", S, "uint16_t", {integer("uint16_t")}, lower_swap<16>),
    describe("inet_ntoa", S, "string", {pointer("ipaddr_t *")}, lower_inet, kAddress),
    describe("inet_ntoa6", S, "string", {pointer("in6_addr_t *"), integer("int", true)}, lower_inet,
             {.check = check_inet_ntoa6}),
    describe("inet_ntop", S, "string", {integer("int"), pointer()}, lower_inet, kAddress),
    describe("link_ntop", S, "string", {integer("int"), pointer()}, lower_link_ntop, kAddress),
    describe("ntohl", S, "uint32_t", {integer("uint32_t")}, lower_swap<32>),
    describe("ntohll", S, "uint64_t", {integer("uint64_t")}, lower_swap<64>),
    describe("ntohs", S, "uint16_t", {integer("uint16_t")}, lower_swap<16>),
};

} // namespace

std::span<const FunctionDescriptor> network_functions() {
    return kNetwork;
}

} // namespace dtx::sema

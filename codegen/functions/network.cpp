// Network byte order: htons() and friends swap the bytes of their width on
// this little-endian machine (x86-64).
#include "codegen/functions/function.h"
#include "codegen/lowering.h"

#include <llvm/IR/Intrinsics.h>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::Lowering;
using codegen::Value;

template <unsigned bits>
Value lower_swap(Lowering &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *value =
        ir.CreateTrunc(l.lower_scalar(*call.arguments.at(0), state), ir.getIntNTy(bits));
    llvm::Value *swapped = ir.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, value);
    return {ir.CreateZExt(swapped, l.i64()), call.type};
}

constexpr auto S = FunctionClass::Subroutine;

constexpr FunctionDescriptor kNetwork[] = {
    describe("htonl", S, "uint32_t", {integer("uint32_t")}, lower_swap<32>),
    describe("htonll", S, "uint64_t", {integer("uint64_t")}, lower_swap<64>),
    describe("htons", S, "uint16_t", {integer("uint16_t")}, lower_swap<16>),
    describe("ntohl", S, "uint32_t", {integer("uint32_t")}, lower_swap<32>),
    describe("ntohll", S, "uint64_t", {integer("uint64_t")}, lower_swap<64>),
    describe("ntohs", S, "uint16_t", {integer("uint16_t")}, lower_swap<16>),
};

} // namespace

std::span<const FunctionDescriptor> network_functions() {
    return kNetwork;
}

} // namespace dtx::sema

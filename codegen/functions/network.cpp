// Network byte order and addresses: htons() and friends swap the bytes of
// their width on this little-endian machine (x86-64); inet_ntoa(),
// inet_ntoa6(), inet_ntop() and link_ntop() read an address from kernel (or
// the program's scratch) memory and write it as text, in the BPF run-time
// library (dtx_rt_inet_ntop, dtx_rt_link_ntop in codegen/runtime/network.c).
// The pcap() action records a packet from a struct sk_buff.
#include "codegen/checker.h"
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"
#include "libtrace/consumer.h"

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

// --- pcap() ---------------------------------------------------------------------

// pcap(skb, protocol)'s record: when the probe fired (ns since the epoch),
// the packet's length, how many of its bytes were recorded, the protocol,
// then pcapsize bytes. No bytes recorded (a NULL skb) shows nothing, as in
// dtrace.
void consume_pcap(trace::Consumer &consumer, const trace::ActionDescription &action,
                  std::span<const std::byte> record) {
    const auto word = [&](size_t i) {
        return consumer.read<uint64_t>(record, action.values.at(i).offset);
    };
    const trace::ValueLayout &data = action.values.at(4);
    const uint64_t recorded = std::min<uint64_t>(word(2), data.size);
    if (recorded == 0 || data.offset + recorded > record.size())
        return;
    trace::CapturedPacket packet;
    packet.walltime = word(0);
    packet.length = word(1);
    packet.protocol = word(3);
    packet.snaplen = data.size;
    packet.bytes = record.subspan(data.offset, recorded);
    consumer.capture_packet(consumer.read<trace::RecordHeader>(record, 0).epid, packet);
}

// One 8-byte word of the action's record.
void record_word(FunctionBuilder &l, ClauseState &state, trace::ActionDescription &action,
                 llvm::Value *value) {
    trace::ValueLayout layout;
    layout.is_signed = false;
    layout.offset = l.reserve_record(state, 8);
    if (llvm::Value *to = l.record_space(state, layout))
        l.store64(value, to);
    action.values.push_back(layout);
    l.count_speculative_bytes(state, 8, 8);
}

// What dtrace records of the sk_buff: its linear part (len - data_len bytes
// at data), at most pcapsize bytes. A NULL or unreadable skb reads as a
// packet of no bytes.
Value lower_pcap(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    llvm::IRBuilder<> &ir = l.ir();
    std::optional<uint64_t> len_at = l.kernel_member_offset(call, "sk_buff", "len");
    std::optional<uint64_t> data_len_at = l.kernel_member_offset(call, "sk_buff", "data_len");
    std::optional<uint64_t> data_at = l.kernel_member_offset(call, "sk_buff", "data");
    if (!len_at || !data_len_at || !data_at)
        return {l.const64(0), call.type};
    trace::ActionDescription action = l.action(call, consume_pcap);
    llvm::Value *skb = l.lower_scalar(*call.arguments.at(0), state);
    auto member = [&](uint64_t offset, uint32_t size) {
        return l.read_kernel_quietly(state, ir.CreateAdd(skb, l.const64(offset)), size);
    };
    llvm::Value *length = member(*len_at, 4);
    llvm::Value *linear = ir.CreateSub(length, member(*data_len_at, 4));
    llvm::Value *data = member(*data_at, 8);
    // The verifier must see the bound of the read's length.
    const uint32_t room = l.pcapsize();
    linear = l.opaque(linear);
    linear = ir.CreateSelect(ir.CreateICmpUGT(linear, l.const64(room)), l.const64(room), linear);
    record_word(l, state, action, ir.CreateAdd(l.firing_timestamp(state), l.walltime_offset()));
    record_word(l, state, action, length);
    record_word(l, state, action, linear);
    l.record_value(state, action, *call.arguments.at(1));
    trace::ValueLayout bytes;
    bytes.kind = trace::ValueKind::Bytes;
    bytes.size = room;
    bytes.offset = l.reserve_record(state, room);
    if (llvm::Value *to = l.record_space(state, bytes)) {
        // Only the bytes read are shown, so the rest is not cleared. No read
        // of no bytes: the kernel refuses one at NULL.
        llvm::Function *function = ir.GetInsertBlock()->getParent();
        llvm::BasicBlock *read = llvm::BasicBlock::Create(ir.getContext(), "pcap.read", function);
        llvm::BasicBlock *done = llvm::BasicBlock::Create(ir.getContext(), "pcap.done", function);
        ir.CreateCondBr(ir.CreateICmpEQ(linear, l.const64(0)), done, read);
        ir.SetInsertPoint(read);
        l.read_memory(state, to, linear, data, /*user=*/false);
        ir.CreateBr(done);
        ir.SetInsertPoint(done);
    }
    action.values.push_back(bytes);
    l.count_speculative_bytes(state, room, 1);
    return l.finish_action(state, std::move(action), call);
}

constexpr auto A = FunctionClass::Action;
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
    describe("pcap", A, "void", {pointer(), integer("int")}, lower_pcap, kAddress),
};

} // namespace

std::span<const FunctionDescriptor> network_functions() {
    return kNetwork;
}

} // namespace dtx::sema

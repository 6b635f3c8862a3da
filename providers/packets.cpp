// The packet tracepoints of providers/packets.h.
#include "providers/packets.h"

namespace dtx::providers {

namespace {

// skb->protocol as the kernel keeps it (network byte order, read as a
// little-endian u16): ETH_P_IP and ETH_P_IPV6.
constexpr uint64_t kEthernetIp = 0x0008, kEthernetIpv6 = 0xdd86;

llvm::Value *buffer(TracepointFilter &f) {
    return f.argument(0);
}

} // namespace

// net_dev_start_xmit(skb, dev): the device's header is in front, the IP
// header where the stack put it (head + network_header).
PacketTracepoint packet_send() {
    return {"net_dev_start_xmit",
            {buffer, [](TracepointFilter &f) { return f.argument(1); },
             [](TracepointFilter &f) {
                 return f.ir().CreateAdd(f.member(f.argument(0), "sk_buff", "head", 8),
                                         f.member(f.argument(0), "sk_buff", "network_header", 2));
             }}};
}

// netif_receive_skb(skb): the device's header has been pulled, data is the
// IP header (the stack sets network_header only after this point).
PacketTracepoint packet_receive() {
    return {"netif_receive_skb",
            {buffer,
             [](TracepointFilter &f) { return f.member(f.argument(0), "sk_buff", "dev", 8); },
             [](TracepointFilter &f) { return f.member(f.argument(0), "sk_buff", "data", 8); }}};
}

std::vector<std::string> packet_members() {
    return {"sk_buff.protocol", "sk_buff.head", "sk_buff.network_header", "sk_buff.data",
            "sk_buff.dev"};
}

llvm::Value *carries_ip(TracepointFilter &f) {
    llvm::Value *protocol = f.member(f.argument(0), "sk_buff", "protocol", 2);
    return f.ir().CreateOr(f.ir().CreateICmpEQ(protocol, f.constant(kEthernetIp)),
                           f.ir().CreateICmpEQ(protocol, f.constant(kEthernetIpv6)));
}

llvm::Value *ip_payload_protocol(TracepointFilter &f, llvm::Value *header) {
    llvm::IRBuilder<> &ir = f.ir();
    llvm::Value *version = ir.CreateLShr(f.read(header, 1), 4);
    // Byte 9 of an IPv4 header, byte 6 of an IPv6 one.
    llvm::Value *offset =
        ir.CreateSelect(ir.CreateICmpEQ(version, f.constant(4)), f.constant(9), f.constant(6));
    return f.read(ir.CreateAdd(header, offset), 1);
}

} // namespace dtx::providers

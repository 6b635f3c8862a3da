// The ip provider: IPv4 and IPv6 packets as DTrace's ip provider names
// them, on the network devices' tracepoints: send where a packet is handed
// to its device (net:net_dev_start_xmit), receive where a device's packet
// enters the stack (net:netif_receive_skb). args[] through the D library's
// translators (codegen/dlib/net_ip.d): pktinfo_t, csinfo_t (NULL without a
// socket), ipinfo_t, ifinfo_t, and ipv4info_t or ipv6info_t (the other one
// NULL), as dtrace gives them.
#include "providers/registry.h"
#include "providers/stable.h"

namespace dtx::providers {

namespace {

// skb->protocol as the kernel keeps it (network byte order, read as a
// little-endian u16): ETH_P_IP and ETH_P_IPV6.
constexpr uint64_t kEthernetIp = 0x0008, kEthernetIpv6 = 0xdd86;

// args[] of a packet: arg0 its struct sk_buff, arg1 its device, arg2 where
// its IP header starts (the trampolines compute these alike for both
// probes, so that one clause may enable both).
std::vector<StableArgument> packet() {
    const std::string skb = "((struct sk_buff *)arg0)";
    const std::string first = "*(uint8_t *)arg2";
    return {
        {"pktinfo_t *", "xlate <pktinfo_t *> (" + skb + ")"},
        {"csinfo_t *", skb + "->sk ? xlate <csinfo_t *> (" + skb + "->sk) : (csinfo_t *)0"},
        {"ipinfo_t *", "xlate <ipinfo_t *> ((uint8_t *)arg2)"},
        {"ifinfo_t *", "xlate <ifinfo_t *> ((struct net_device *)arg1)"},
        {"ipv4info_t *",
         first + " >> 4 == 4 ? xlate <ipv4info_t *> ((struct iphdr *)arg2) : (ipv4info_t *)0"},
        {"ipv6info_t *",
         first + " >> 4 == 6 ? xlate <ipv6info_t *> ((struct ipv6hdr *)arg2) : (ipv6info_t *)0"},
    };
}

llvm::Value *carries_ip(TracepointFilter &f) {
    llvm::Value *protocol = f.member(f.argument(0), "sk_buff", "protocol", 2);
    return f.ir().CreateOr(f.ir().CreateICmpEQ(protocol, f.constant(kEthernetIp)),
                           f.ir().CreateICmpEQ(protocol, f.constant(kEthernetIpv6)));
}

std::vector<StableProbe> ip_probes() {
    const std::vector<std::string> members{"sk_buff.protocol", "sk_buff.head",
                                           "sk_buff.network_header", "sk_buff.data", "sk_buff.dev"};
    auto skb = [](TracepointFilter &f) { return f.argument(0); };
    return {
        // net_dev_start_xmit(skb, dev): the device's header is in front, the
        // IP header where the stack put it (head + network_header).
        {"send",
         "net_dev_start_xmit",
         "",
         packet(),
         carries_ip,
         members,
         nullptr,
         -1,
         {skb, [](TracepointFilter &f) { return f.argument(1); },
          [](TracepointFilter &f) {
              llvm::Value *buffer = f.argument(0);
              return f.ir().CreateAdd(f.member(buffer, "sk_buff", "head", 8),
                                      f.member(buffer, "sk_buff", "network_header", 2));
          }}},
        // netif_receive_skb(skb): the device's header has been pulled, data
        // is the IP header (network_header is set only after this point).
        {"receive",
         "netif_receive_skb",
         "",
         packet(),
         carries_ip,
         members,
         nullptr,
         -1,
         {skb, [](TracepointFilter &f) { return f.member(f.argument(0), "sk_buff", "dev", 8); },
          [](TracepointFilter &f) { return f.member(f.argument(0), "sk_buff", "data", 8); }}},
    };
}

} // namespace

std::unique_ptr<Provider> make_ip_provider() {
    return make_stable_provider("ip", ip_probes());
}

} // namespace dtx::providers

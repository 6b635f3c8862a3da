// The ip provider: IPv4 and IPv6 packets as DTrace's ip provider names
// them, on the network devices' tracepoints: send where a packet is handed
// to its device (net:net_dev_start_xmit), receive where a device's packet
// enters the stack (net:netif_receive_skb). args[] through the D library's
// translators (codegen/dlib/net_ip.d): pktinfo_t, csinfo_t (NULL without a
// socket), ipinfo_t, ifinfo_t, and ipv4info_t or ipv6info_t (the other one
// NULL), as dtrace gives them.
#include "providers/packets.h"
#include "providers/registry.h"

namespace dtx::providers {

namespace {

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

std::vector<StableProbe> ip_probes() {
    std::vector<StableProbe> probes;
    for (auto [name, at] : {std::pair{"send", packet_send()}, {"receive", packet_receive()}})
        probes.push_back({name, at.tracepoint, "", packet(), carries_ip, packet_members(), nullptr,
                          -1, at.native});
    return probes;
}

} // namespace

std::unique_ptr<Provider> make_ip_provider() {
    return make_stable_provider("ip", ip_probes());
}

} // namespace dtx::providers

// The udp provider: UDP datagrams as DTrace's udp provider names them, sent
// and received: the ip provider's packet tracepoints (providers/packets.h)
// for packets whose IP payload is UDP. args[] through the D library:
// pktinfo_t, csinfo_t, ipinfo_t, udpsinfo_t (the socket; NULL where the
// packet has none yet, as on receive below the socket layer) and udpinfo_t.
#include "providers/packets.h"
#include "providers/registry.h"

namespace dtx::providers {

namespace {

constexpr uint64_t kIpprotoUdp = 17;

std::vector<StableProbe> udp_probes() {
    const std::string skb = "((struct sk_buff *)arg0)";
    // The UDP header follows the IPv4 header (its length in its first
    // byte) or the IPv6 one (40 bytes: extension headers are not followed).
    const std::string header = "(struct udphdr *)(arg2 + (*(uint8_t *)arg2 >> 4 == 4 ? "
                               "(*(uint8_t *)arg2 & 0xf) * 4 : 40))";
    const std::vector<StableArgument> datagram{
        {"pktinfo_t *", "xlate <pktinfo_t *> (" + skb + ")"},
        {"csinfo_t *", skb + "->sk ? xlate <csinfo_t *> (" + skb + "->sk) : (csinfo_t *)0"},
        {"ipinfo_t *", "xlate <ipinfo_t *> ((uint8_t *)arg2)"},
        {"udpsinfo_t *", skb + "->sk ? xlate <udpsinfo_t *> (" + skb + "->sk) : (udpsinfo_t *)0"},
        {"udpinfo_t *", "xlate <udpinfo_t *> (" + header + ")"}};
    std::vector<StableProbe> probes;
    for (auto [name, at] : {std::pair{"send", packet_send()}, {"receive", packet_receive()}}) {
        StableFilter header_at = at.native[2];
        probes.push_back({name, at.tracepoint, "", datagram,
                          [header_at](TracepointFilter &f) {
                              return f.ir().CreateAnd(
                                  carries_ip(f),
                                  f.ir().CreateICmpEQ(ip_payload_protocol(f, header_at(f)),
                                                      f.constant(kIpprotoUdp)));
                          },
                          packet_members(), nullptr, -1, at.native});
    }
    return probes;
}

} // namespace

std::unique_ptr<Provider> make_udp_provider() {
    return make_stable_provider("udp", udp_probes());
}

} // namespace dtx::providers

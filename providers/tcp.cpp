// The tcp provider: TCP connections as DTrace's tcp provider names them, on
// the kernel's tracepoints. Linux has a tracepoint for every change of a
// socket's state (sock:inet_sock_set_state), so state-change is built; the
// packet probes (send, receive, connect-*, accept-*) need the packet's
// headers at points where Linux has no tracepoint, and are listed with the
// reason.
#include "providers/registry.h"
#include "providers/stable.h"

namespace dtx::providers {

namespace {

constexpr uint64_t kIpprotoTcp = 6;

std::vector<StableProbe> tcp_probes() {
    // inet_sock_set_state(sk, oldstate, newstate) runs before the socket's
    // state changes: tcpsinfo_t reads the new state from the tracepoint's
    // arguments (arg3 holds their address), tcplsinfo_t the old.
    const std::string change = "((struct _dtx_sock_state_change *)arg3)";
    const std::vector<StableArgument> state_change{
        {"pktinfo_t *", "(pktinfo_t *)0"},
        {"csinfo_t *", "xlate <csinfo_t *> ((struct sock *)arg0)"},
        {"ipinfo_t *", "(ipinfo_t *)0"},
        {"tcpsinfo_t *", "xlate <tcpsinfo_t *> (" + change + ")"},
        {"tcpinfo_t *", "(tcpinfo_t *)0"},
        {"tcplsinfo_t *", "xlate <tcplsinfo_t *> ((int)arg1)"}};
    const std::string no_packet =
        "it needs the packet's IP and TCP headers where the kernel sends or receives it, where "
        "Linux has no tracepoint (tcp_v4_rcv, tcp_transmit_skb need kprobes)";
    std::vector<StableProbe> probes{
        {"state-change",
         "inet_sock_set_state",
         "",
         state_change,
         [](TracepointFilter &f) {
             return f.ir().CreateICmpEQ(f.member(f.argument(0), "sock", "sk_protocol", 2),
                                        f.constant(kIpprotoTcp));
         },
         {"sock.sk_protocol"},
         nullptr,
         3},
    };
    for (const char *name : {"send", "receive", "connect-request", "connect-established",
                             "connect-refused", "accept-established", "accept-refused"})
        probes.push_back({name, "", no_packet, {}});
    return probes;
}

} // namespace

std::unique_ptr<Provider> make_tcp_provider() {
    return make_stable_provider("tcp", tcp_probes());
}

} // namespace dtx::providers

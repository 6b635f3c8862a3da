// What the ip and udp providers share: the tracepoints where a packet is
// sent (net:net_dev_start_xmit) and received (net:netif_receive_skb), with
// the same native arguments at both, so that one clause may enable both:
// arg0 the struct sk_buff, arg1 its device, arg2 its IP header.
#pragma once

#include "providers/stable.h"

#include <string>
#include <vector>

namespace dtx::providers {

struct PacketTracepoint {
    std::string tracepoint;
    std::vector<StableFilter> native; // arg0, arg1, arg2
};

PacketTracepoint packet_send();
PacketTracepoint packet_receive();

// The struct members the natives and filters read, for StableProbe::members.
std::vector<std::string> packet_members();

// Whether the packet carries IPv4 or IPv6 (skb->protocol).
llvm::Value *carries_ip(TracepointFilter &filter);
// The protocol after the IP header at `header` (IPv4's protocol, IPv6's
// next header), as a u64.
llvm::Value *ip_payload_protocol(TracepointFilter &filter, llvm::Value *header);

} // namespace dtx::providers

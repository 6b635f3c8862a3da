// The file pcap() writes with the pcapfile option: libpcap's classic format
// (microsecond timestamps, this machine's byte order), which tcpdump,
// Wireshark and scapy read. The link type is the protocol pcap()'s first
// packet names; packets of another protocol cannot share the file.
#pragma once

#include "libtrace/error.h"

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

namespace dtx::trace {

// One packet as pcap() recorded it.
struct CapturedPacket {
    uint64_t walltime = 0;            // ns since the epoch, when the probe fired
    uint64_t length = 0;              // the packet's length on the wire (skb->len)
    uint64_t protocol = 0;            // pcap()'s second argument: a DLT_ value (PCAP_IP ...)
    uint32_t snaplen = 0;             // pcapsize: the most bytes recorded of a packet
    std::span<const std::byte> bytes; // what was recorded of it
};

// The link type a pcap file's header holds for DLT_ value `dlt`: libpcap's
// DLT_ and LINKTYPE_ numbers differ for a few types (DLT_RAW is 12 on
// Linux, LINKTYPE_RAW 101).
uint32_t pcap_link_type(uint64_t dlt);

class PcapFile {
public:
    explicit PcapFile(std::string path) : path_(std::move(path)) {}
    ~PcapFile();
    PcapFile(const PcapFile &) = delete;
    PcapFile &operator=(const PcapFile &) = delete;

    const std::string &path() const { return path_; }
    // Appends the packet, creating the file (truncated) with its header at
    // the first; an error says why not (the file cannot be written, or the
    // packet's protocol is not the file's link type).
    Status write(const CapturedPacket &packet);

private:
    std::string path_;
    FILE *file_ = nullptr;
    uint64_t protocol_ = 0;
};

} // namespace dtx::trace

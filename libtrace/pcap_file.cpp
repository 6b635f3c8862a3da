#include "libtrace/pcap_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace dtx::trace {

namespace {

// The classic format's headers, as libpcap writes them in this machine's
// byte order (readers tell it by the magic number).
struct FileHeader {
    uint32_t magic = 0xa1b2c3d4; // microsecond timestamps
    uint16_t version_major = 2;
    uint16_t version_minor = 4;
    int32_t thiszone = 0;
    uint32_t sigfigs = 0;
    uint32_t snaplen = 0;
    uint32_t link_type = 0;
};

struct PacketHeader {
    uint32_t seconds = 0;
    uint32_t microseconds = 0;
    uint32_t captured = 0; // bytes that follow
    uint32_t length = 0;   // the packet's own length
};

static_assert(sizeof(FileHeader) == 24 && sizeof(PacketHeader) == 16);

} // namespace

uint32_t pcap_link_type(uint64_t dlt) {
    switch (dlt) {
    case 11: // DLT_ATM_RFC1483
        return 100;
    case 12: // DLT_RAW
        return 101;
    case 19: // DLT_ATM_CLIP
        return 106;
    default:
        return uint32_t(dlt);
    }
}

PcapFile::~PcapFile() {
    if (file_)
        std::fclose(file_);
}

Status PcapFile::write(const CapturedPacket &packet) {
    if (!file_) {
        file_ = std::fopen(path_.c_str(), "we");
        if (!file_)
            return Error("cannot write pcap file \"" + path_ + "\": " + std::strerror(errno),
                         errno);
        protocol_ = packet.protocol;
        FileHeader header;
        header.snaplen = packet.snaplen;
        header.link_type = pcap_link_type(packet.protocol);
        std::fwrite(&header, sizeof header, 1, file_);
    } else if (packet.protocol != protocol_) {
        // One link type per file: dtrace drops such a packet too.
        return failure("pcap file \"" + path_ + "\" holds packets of protocol " +
                       std::to_string(protocol_) + ", not " + std::to_string(packet.protocol));
    }
    PacketHeader header;
    header.seconds = uint32_t(packet.walltime / 1'000'000'000);
    header.microseconds = uint32_t(packet.walltime % 1'000'000'000 / 1000);
    header.captured = uint32_t(packet.bytes.size());
    header.length = uint32_t(std::max<uint64_t>(packet.length, packet.bytes.size()));
    std::fwrite(&header, sizeof header, 1, file_);
    std::fwrite(packet.bytes.data(), 1, packet.bytes.size(), file_);
    // Whole packets on disk as they come: a reader may follow the file.
    if (std::fflush(file_) != 0)
        return Error("cannot write pcap file \"" + path_ + "\": " + std::strerror(errno), errno);
    return {};
}

} // namespace dtx::trace

// Reading every entry of a BPF map from user space, as the consumer reads
// aggregation maps: in batches (BPF_MAP_LOOKUP_BATCH, Linux 5.6), a few
// system calls for thousands of entries, else key by key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

namespace dtx::trace {

// Calls `visit` with each entry's key (`key_size` bytes) and value
// (`value_size` bytes, a multiple of 8: every CPU's copy, one after the
// other, for a per-CPU map), which it may change. False if the map could not
// be read (the entries visited so far stand).
using MapEntryVisitor =
    std::function<void(std::span<const std::byte> key, std::span<int64_t> value)>;
bool for_each_map_entry(int map_fd, size_t key_size, size_t value_size,
                        const MapEntryVisitor &visit);

} // namespace dtx::trace

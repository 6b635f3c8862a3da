#include "libtrace/map_entries.h"

#include <bpf/bpf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace dtx::trace {

namespace {

bool each_key(int map_fd, size_t key_size, size_t value_size, const MapEntryVisitor &visit) {
    std::vector<std::byte> key(key_size), next(key_size);
    std::vector<int64_t> value(value_size / 8);
    const void *previous = nullptr;
    while (bpf_map_get_next_key(map_fd, previous, next.data()) == 0) {
        key = next;
        previous = key.data();
        if (bpf_map_lookup_elem(map_fd, key.data(), value.data()) == 0)
            visit(key, value);
    }
    return errno == ENOENT;
}

} // namespace

bool for_each_map_entry(int map_fd, size_t key_size, size_t value_size,
                        const MapEntryVisitor &visit) {
    // A hash map's batch ends at a bucket: one with more entries than the
    // batch holds is refused (ENOSPC) until the batch grows.
    uint32_t batch = 256;
    std::vector<std::byte> keys, position(std::max<size_t>(key_size, 8)), next(position.size());
    std::vector<int64_t> values;
    bool first = true;
    for (;;) {
        keys.resize(batch * key_size);
        values.resize(batch * value_size / 8);
        uint32_t count = batch;
        LIBBPF_OPTS(bpf_map_batch_opts, options);
        int result = bpf_map_lookup_batch(map_fd, first ? nullptr : position.data(), next.data(),
                                          keys.data(), values.data(), &count, &options);
        int error = result < 0 ? errno : 0;
        if (error == ENOSPC && count == 0 && batch < (1u << 20)) {
            batch *= 4;
            continue;
        }
        if (error && error != ENOENT)
            return first ? each_key(map_fd, key_size, value_size, visit) : false;
        for (uint32_t i = 0; i < count; i++)
            visit(std::span(keys).subspan(i * key_size, key_size),
                  std::span(values).subspan(i * value_size / 8, value_size / 8));
        if (error == ENOENT)
            return true;
        position.swap(next);
        first = false;
    }
}

} // namespace dtx::trace

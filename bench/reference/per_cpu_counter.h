// The reference programs' one counter: slot 0 of a per-CPU array, summed.
#pragma once

#include <bpf/libbpf.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

// The sum over CPUs of `map_name`'s slot 0; nullopt (after saying why on
// stderr) when it cannot be read.
inline std::optional<uint64_t> sum_per_cpu_counter(bpf_object *object, const char *map_name) {
    bpf_map *map = bpf_object__find_map_by_name(object, map_name);
    int cpus = libbpf_num_possible_cpus();
    if (cpus <= 0) {
        std::fprintf(stderr, "cannot count the possible CPUs: %s\n", std::strerror(-cpus));
        return std::nullopt;
    }
    std::vector<uint64_t> per_cpu(static_cast<size_t>(cpus));
    uint32_t key = 0;
    if (!map || bpf_map__lookup_elem(map, &key, sizeof(key), per_cpu.data(),
                                     per_cpu.size() * sizeof(uint64_t), 0) != 0) {
        std::fprintf(stderr, "reading %s: %s\n", map_name, std::strerror(errno));
        return std::nullopt;
    }
    uint64_t total = 0;
    for (uint64_t n : per_cpu)
        total += n;
    return total;
}

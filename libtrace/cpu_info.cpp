// curcpu's table: each CPU's package and NUMA node, from sysfs.
#include "libtrace/program_description.h"
#include "libtrace/whole_file.h"

#include <bpf/libbpf.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <filesystem>

namespace dtx::trace {

namespace {

int32_t read_number(const std::string &path) {
    int errnum = 0;
    const std::string text = read_whole_file(path, errnum, 64);
    int32_t value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

// The node a CPU belongs to is the N of its nodeN link; none without NUMA.
int32_t numa_node(const std::string &cpu_directory) {
    // Incremented with an error code: a range-for's ++ throws.
    std::error_code error;
    for (std::filesystem::directory_iterator entry(cpu_directory, error), end;
         !error && entry != end; entry.increment(error)) {
        const std::string name = entry->path().filename().string();
        int32_t node = 0;
        if (name.starts_with("node") &&
            std::from_chars(name.data() + 4, name.data() + name.size(), node).ec == std::errc{})
            return node;
    }
    return 0;
}

} // namespace

uint32_t cpu_info_entries() {
    return std::bit_ceil(uint32_t(std::max(libbpf_num_possible_cpus(), 1)));
}

std::vector<CpuInfo> cpu_info_table() {
    std::vector<CpuInfo> table(cpu_info_entries());
    const int possible = std::max(libbpf_num_possible_cpus(), 1);
    for (int cpu = 0; cpu < possible; cpu++) {
        const std::string directory = "/sys/devices/system/cpu/cpu" + std::to_string(cpu);
        table[size_t(cpu)] = {cpu, 0, read_number(directory + "/topology/physical_package_id"),
                              numa_node(directory)};
    }
    return table;
}

} // namespace dtx::trace

#include "libtrace/map_entries.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <map>

namespace {

using dtx::trace::for_each_map_entry;

class MapEntries : public ::testing::Test {
protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "skipped: creating BPF maps needs root";
    }
    void TearDown() override {
        if (fd_ >= 0)
            close(fd_);
    }
    int fd_ = -1;
};

// More entries than one batch holds, all visited once with their values.
TEST_F(MapEntries, VisitsEveryEntryOfAHash) {
    fd_ = bpf_map_create(BPF_MAP_TYPE_HASH, "test_hash", 16, 8, 4096, nullptr);
    ASSERT_GE(fd_, 0) << std::strerror(errno);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t key[2] = {i << 32, i}, value = i * 3;
        ASSERT_EQ(bpf_map_update_elem(fd_, key, &value, BPF_ANY), 0);
    }
    std::map<uint64_t, int64_t> seen;
    ASSERT_TRUE(for_each_map_entry(fd_, 16, 8, [&](auto key, std::span<int64_t> value) {
        uint64_t words[2];
        std::memcpy(words, key.data(), sizeof(words));
        EXPECT_EQ(words[0], words[1] << 32);
        EXPECT_TRUE(seen.emplace(words[1], value[0]).second);
    }));
    ASSERT_EQ(seen.size(), 1000u);
    for (auto [i, value] : seen)
        EXPECT_EQ(value, int64_t(i * 3));
}

TEST_F(MapEntries, VisitsEverySlotOfAPerCpuArray) {
    const int cpus = libbpf_num_possible_cpus();
    ASSERT_GT(cpus, 0);
    fd_ = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "test_slots", 4, 16, 3, nullptr);
    ASSERT_GE(fd_, 0) << std::strerror(errno);
    std::vector<int64_t> values(size_t(cpus) * 2);
    for (uint32_t slot = 0; slot < 3; slot++) {
        for (int cpu = 0; cpu < cpus; cpu++)
            values[size_t(cpu) * 2] = slot * 100 + cpu;
        ASSERT_EQ(bpf_map_update_elem(fd_, &slot, values.data(), BPF_ANY), 0);
    }
    uint32_t visited = 0;
    ASSERT_TRUE(
        for_each_map_entry(fd_, 4, 16 * size_t(cpus), [&](auto key, std::span<int64_t> value) {
            uint32_t slot;
            std::memcpy(&slot, key.data(), sizeof(slot));
            ASSERT_EQ(value.size(), size_t(cpus) * 2);
            for (int cpu = 0; cpu < cpus; cpu++)
                EXPECT_EQ(value[size_t(cpu) * 2], slot * 100 + cpu);
            visited++;
        }));
    EXPECT_EQ(visited, 3u);
}

TEST_F(MapEntries, AnEmptyMapHasNone) {
    fd_ = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "test_empty", 8, 8, 16, nullptr);
    ASSERT_GE(fd_, 0) << std::strerror(errno);
    int visited = 0;
    EXPECT_TRUE(for_each_map_entry(fd_, 8, 8 * size_t(libbpf_num_possible_cpus()),
                                   [&](auto, auto) { visited++; }));
    EXPECT_EQ(visited, 0);
}

} // namespace

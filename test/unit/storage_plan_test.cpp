#include "codegen/storage_plan.h"

#include <gtest/gtest.h>

#include <set>

using dtx::codegen::plan_storage_maps;
using dtx::codegen::StorageKind;
using dtx::codegen::StoragePlan;
using dtx::codegen::StorageRequest;

namespace {

StorageRequest thread_local_of(uint32_t keys, uint32_t value) {
    return {StorageKind::Dynamic, 8 + keys, value, true};
}
StorageRequest global_array(uint32_t key, uint32_t value) {
    return {StorageKind::Dynamic, key, value, false};
}
StorageRequest keyed(uint32_t key, uint32_t value) {
    return {StorageKind::KeyedAggregation, key, value, false};
}
StorageRequest keyless(uint32_t value) {
    return {StorageKind::SlotAggregation, 0, value, false};
}

// Every request has one place, ids are unique in their map, and every map
// holds its members' keys and values.
void expect_consistent(const std::vector<StorageRequest> &requests, const StoragePlan &plan) {
    ASSERT_EQ(plan.placements.size(), requests.size());
    std::set<std::pair<uint32_t, uint32_t>> places;
    for (size_t i = 0; i < requests.size(); i++) {
        const auto &place = plan.placements[i];
        ASSERT_LT(place.map, plan.maps.size());
        EXPECT_TRUE(places.emplace(place.map, place.id).second) << "request " << i;
        const auto &map = plan.maps[place.map];
        EXPECT_EQ(map.kind, requests[i].kind);
        EXPECT_EQ(map.members.at(place.id), i);
        EXPECT_GE(map.value_size, requests[i].value_size);
        if (map.kind != StorageKind::SlotAggregation) {
            EXPECT_GE(map.key_size, place.prefix + requests[i].key_size);
        }
    }
}

TEST(StoragePlan, AMapOfOneKeepsItsKey) {
    std::vector<StorageRequest> requests = {global_array(8, 8), thread_local_of(0, 8),
                                            keyed(264, 8), keyless(16)};
    StoragePlan plan = plan_storage_maps(requests);
    expect_consistent(requests, plan);
    ASSERT_EQ(plan.maps.size(), 4u);
    const uint32_t keys[] = {8, 8, 264, 4};
    for (size_t i = 0; i < requests.size(); i++) {
        EXPECT_EQ(plan.placements[i].map, i);
        EXPECT_EQ(plan.placements[i].prefix, 0u);
        EXPECT_EQ(plan.maps[i].key_size, keys[i]);
        EXPECT_EQ(plan.maps[i].value_size, requests[i].value_size);
    }
}

TEST(StoragePlan, SameShapesShareAMap) {
    std::vector<StorageRequest> requests;
    for (int i = 0; i < 500; i++)
        requests.push_back(thread_local_of(0, 8));
    for (int i = 0; i < 500; i++)
        requests.push_back(keyed(8, 8));
    for (int i = 0; i < 500; i++)
        requests.push_back(keyless(16));
    StoragePlan plan = plan_storage_maps(requests);
    expect_consistent(requests, plan);
    ASSERT_EQ(plan.maps.size(), 3u);
    // Thread-locals keep their key: the id shares the thread ID's word.
    EXPECT_EQ(plan.maps[0].kind, StorageKind::Dynamic);
    EXPECT_EQ(plan.maps[0].key_size, 8u);
    EXPECT_EQ(plan.placements[499].prefix, 0u);
    EXPECT_EQ(plan.placements[499].id, 499u);
    // Aggregation keys gain the id word.
    EXPECT_EQ(plan.maps[1].key_size, 16u);
    EXPECT_EQ(plan.placements[500].prefix, 8u);
    EXPECT_EQ(plan.placements[500].id, 0u);
    // Keyless aggregations are slots of one array.
    EXPECT_EQ(plan.maps[2].kind, StorageKind::SlotAggregation);
    EXPECT_EQ(plan.maps[2].key_size, 4u);
    EXPECT_EQ(plan.maps[2].value_size, 16u);
    EXPECT_EQ(plan.placements[1499].id, 499u);
    EXPECT_EQ(plan.placements[1499].prefix, 0u);
}

TEST(StoragePlan, ThreadLocalsAndArraysOfOneShapeShare) {
    // self->x[int] (thread word + key) and g[int, int] (key + id word): 16 bytes each.
    std::vector<StorageRequest> requests = {thread_local_of(8, 8), global_array(8, 8),
                                            global_array(8, 8)};
    StoragePlan plan = plan_storage_maps(requests);
    expect_consistent(requests, plan);
    ASSERT_EQ(plan.maps.size(), 1u);
    EXPECT_EQ(plan.maps[0].key_size, 16u);
    EXPECT_EQ(plan.placements[0].prefix, 0u);
    EXPECT_EQ(plan.placements[1].prefix, 8u);
    EXPECT_EQ(plan.placements[2].prefix, 8u);
}

TEST(StoragePlan, DifferentShapesGetTheirOwnMaps) {
    std::vector<StorageRequest> requests = {keyed(8, 8), keyed(8, 16), keyed(264, 8), keyed(8, 8)};
    StoragePlan plan = plan_storage_maps(requests);
    expect_consistent(requests, plan);
    ASSERT_EQ(plan.maps.size(), 3u);
    EXPECT_EQ(plan.placements[0].map, plan.placements[3].map);
    EXPECT_EQ(plan.maps[plan.placements[1].map].key_size, 8u); // alone: no id word
}

TEST(StoragePlan, OverTheBudgetTheCheapestMapsMerge) {
    std::vector<StorageRequest> requests;
    for (int i = 0; i < 10; i++)
        requests.push_back(keyed(16, 8)); // 10 members
    requests.push_back(keyed(16, 16));    // pads the 10 by 8 bytes each, or itself by 1000
    requests.push_back(keyed(1024, 8));   // pads the 10 by 1000 bytes each
    StoragePlan plan = plan_storage_maps(requests, 2);
    expect_consistent(requests, plan);
    ASSERT_EQ(plan.maps.size(), 2u);
    EXPECT_EQ(plan.placements[0].map, plan.placements[10].map);
    EXPECT_NE(plan.placements[0].map, plan.placements[11].map);
    EXPECT_EQ(plan.maps[plan.placements[0].map].value_size, 16u);
}

TEST(StoragePlan, LargeKeyedAggregationsHaveAMapEachWhileTheBudgetAllows) {
    std::vector<StorageRequest> requests;
    for (int i = 0; i < 10; i++)
        requests.push_back(keyed(8, 16384));
    requests.push_back(keyed(8, 16384 + 8)); // another shape
    StoragePlan plan = plan_storage_maps(requests, 8);
    expect_consistent(requests, plan);
    EXPECT_EQ(plan.maps.size(), 8u);
    size_t alone = 0;
    for (const auto &map : plan.maps)
        alone += !map.shared();
    EXPECT_EQ(alone, 7u); // and four share the eighth
    EXPECT_EQ(plan_storage_maps(requests).maps.size(), 11u);
}

TEST(StoragePlan, KindsNeverMix) {
    std::vector<StorageRequest> requests = {global_array(8, 8), keyed(8, 8), keyless(8)};
    StoragePlan plan = plan_storage_maps(requests, 1);
    expect_consistent(requests, plan);
    EXPECT_EQ(plan.maps.size(), 3u);
}

TEST(StoragePlan, ManyShapesFitTheBudget) {
    std::vector<StorageRequest> requests;
    for (uint32_t i = 0; i < 1000; i++)
        requests.push_back(keyed(8 * (1 + i % 37), 8 * (1 + i)));
    for (uint32_t i = 0; i < 300; i++)
        requests.push_back(keyless(8 * (2 + i)));
    StoragePlan plan = plan_storage_maps(requests);
    expect_consistent(requests, plan);
    EXPECT_LE(plan.maps.size(), dtx::codegen::kStorageMapBudget);
}

} // namespace

#include "codegen/storage_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace dtx::codegen {

namespace {

// Keyed aggregations whose values take more bytes per CPU have a map each
// while the budget allows (see storage_plan.h).
constexpr uint32_t kSharedValueLimit = 4096;
// Above this many groups, merging considers only neighbours in (kind, key,
// value) order: looking at every pair would be cubic in the groups.
constexpr size_t kAllPairsLimit = 128;

// Requests whose shapes, as members of a shared map, are alike.
struct Group {
    StorageKind kind;
    uint32_t key = 0; // of a member of a shared map (the id word included)
    uint32_t value = 0;
    std::vector<uint32_t> members;

    auto shape() const { return std::tuple(kind, key, value); }
};

uint32_t shared_key_size(const StorageRequest &request) {
    if (request.kind == StorageKind::SlotAggregation)
        return 0;
    return request.key_size + (request.id_in_first_word ? 0 : 8);
}

// The padding that merging `a` and `b` adds to their members.
uint64_t merge_cost(const Group &a, const Group &b) {
    const uint64_t merged = std::max(a.key, b.key) + uint64_t(std::max(a.value, b.value));
    return a.members.size() * (merged - a.key - a.value) +
           b.members.size() * (merged - b.key - b.value);
}

void merge_into(Group &into, Group &from) {
    into.key = std::max(into.key, from.key);
    into.value = std::max(into.value, from.value);
    into.members.insert(into.members.end(), from.members.begin(), from.members.end());
    std::sort(into.members.begin(), into.members.end());
}

// Merges the cheapest pair of groups of one kind; false when no two groups
// share a kind.
bool merge_cheapest(std::vector<Group> &groups) {
    std::optional<std::tuple<uint64_t, size_t, size_t>> best;
    const bool all_pairs = groups.size() <= kAllPairsLimit;
    for (size_t i = 0; i < groups.size(); i++) {
        const size_t last = all_pairs ? groups.size() : std::min(groups.size(), i + 2);
        for (size_t j = i + 1; j < last; j++) {
            if (groups[i].kind != groups[j].kind)
                continue;
            uint64_t cost = merge_cost(groups[i], groups[j]);
            if (!best || cost < std::get<0>(*best))
                best = std::tuple(cost, i, j);
        }
    }
    if (!best)
        return false;
    auto [cost, i, j] = *best;
    merge_into(groups[i], groups[j]);
    groups.erase(groups.begin() + std::ptrdiff_t(j));
    std::sort(groups.begin(), groups.end(),
              [](const Group &a, const Group &b) { return a.shape() < b.shape(); });
    return true;
}

} // namespace

StoragePlan plan_storage_maps(std::span<const StorageRequest> requests, size_t map_budget) {
    std::map<std::tuple<StorageKind, uint32_t, uint32_t>, Group> exact;
    for (uint32_t i = 0; i < requests.size(); i++) {
        const StorageRequest &request = requests[i];
        const uint32_t key = shared_key_size(request);
        Group &group = exact[std::tuple(request.kind, key, request.value_size)];
        group.kind = request.kind;
        group.key = key;
        group.value = request.value_size;
        group.members.push_back(i);
    }
    std::vector<Group> groups;
    for (auto &[shape, group] : exact)
        groups.push_back(std::move(group));
    // Keyed aggregations of large values alone, while the budget allows.
    for (size_t i = 0; i < groups.size(); i++) {
        if (groups[i].kind != StorageKind::KeyedAggregation || groups[i].value <= kSharedValueLimit)
            continue;
        while (groups[i].members.size() > 1 && groups.size() < map_budget) {
            Group alone = groups[i];
            alone.members = {groups[i].members.back()};
            groups[i].members.pop_back();
            groups.push_back(std::move(alone));
        }
    }
    while (groups.size() > map_budget && merge_cheapest(groups)) {
    }
    // Maps in the order of their first members, so that names follow the program.
    std::sort(groups.begin(), groups.end(),
              [](const Group &a, const Group &b) { return a.members[0] < b.members[0]; });

    StoragePlan plan;
    plan.placements.resize(requests.size());
    for (Group &group : groups) {
        StorageMap map;
        map.kind = group.kind;
        map.members = std::move(group.members);
        const StorageRequest &first = requests[map.members[0]];
        if (map.kind == StorageKind::SlotAggregation)
            map.key_size = 4; // the slot
        else
            map.key_size = map.shared() ? group.key : first.key_size;
        map.value_size = map.shared() ? group.value : first.value_size;
        for (uint32_t id = 0; id < map.members.size(); id++) {
            const StorageRequest &request = requests[map.members[id]];
            const bool word = map.shared() && map.kind != StorageKind::SlotAggregation &&
                              !request.id_in_first_word;
            plan.placements[map.members[id]] = {uint32_t(plan.maps.size()), id, word ? 8u : 0u};
        }
        plan.maps.push_back(std::move(map));
    }
    return plan;
}

} // namespace dtx::codegen

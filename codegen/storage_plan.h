// Which BPF map holds each dynamic variable and aggregation of a program.
//
// The kernel lets one BPF program use at most 64 maps (MAX_USED_MAPS), and a
// trampoline's program contains every clause it calls, so one map per
// variable stops loading at about 60 variables and aggregations. Instead,
// those whose entries have the same shape share one map:
//   - dynamic variables (thread-locals and global associative arrays): a
//     hash per (key size, value size), as DTrace keeps them all in one
//     dynamic variable space;
//   - keyed aggregations: a per-CPU hash per (key size, value size);
//   - aggregations without keys: a per-CPU array per value size, one slot
//     (its index, a constant of the code) per aggregation.
// In a hash with several members, each key starts with a word whose high 32
// bits tell them apart: the member's index (its "id"). A thread-local's key
// already starts with its thread ID, in the word's low half, so the id costs
// it nothing; other keys gain the 8-byte word. A map
// with one member has the key it would have alone, so a program of a few
// variables pays nothing per event for the sharing.
//
// Keyed aggregations whose values are large (over 4 KB per CPU: lquantize()
// and llquantize() of many buckets) keep a map each while the budget allows:
// the kernel allocates a per-CPU hash's entries where the program runs, with
// only one made ahead per CPU (at map creation), and a large per-CPU
// allocation made there often fails, which drops the update. With a map each,
// one new key per aggregation and firing always has room, as before sharing.
//
// When the shapes need more maps than the budget allows, the maps of a kind
// are merged, the cheapest in padding first (a member's key and value are
// padded to the merged map's), until they fit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace dtx::codegen {

// Maps the storage plan may create: MAX_USED_MAPS (64) less room for the
// maps every program may use besides (ring buffer, clause context, drop
// counters, .rodata, .data, process and speculation tables, tick timers).
inline constexpr size_t kStorageMapBudget = 48;

enum class StorageKind : uint8_t {
    Dynamic,          // BPF_MAP_TYPE_HASH
    KeyedAggregation, // BPF_MAP_TYPE_PERCPU_HASH
    SlotAggregation,  // BPF_MAP_TYPE_PERCPU_ARRAY
};

// What one variable or aggregation needs.
struct StorageRequest {
    StorageKind kind = StorageKind::Dynamic;
    uint32_t key_size = 0; // bytes, a multiple of 8 (SlotAggregation: unused)
    uint32_t value_size = 0;
    // The key's first word leaves its high 32 bits zero for the id (a
    // thread-local's thread ID); otherwise a shared map adds a word.
    bool id_in_first_word = false;
};

struct StorageMap {
    StorageKind kind = StorageKind::Dynamic;
    uint32_t key_size = 0; // as created: the id word included where shared
    uint32_t value_size = 0;
    std::vector<uint32_t> members; // indices of the requests, ascending
    bool shared() const { return members.size() > 1; }
};

struct StoragePlacement {
    uint32_t map = 0; // index in StoragePlan::maps
    // The member's id: SlotAggregation's slot; in a shared hash, the high
    // half of the key's first word.
    uint32_t id = 0;
    uint32_t prefix = 0; // bytes of id word before the request's own key (0 or 8)
};

struct StoragePlan {
    std::vector<StorageMap> maps;
    std::vector<StoragePlacement> placements; // one per request, in order
};

// Groups the requests into at most max(map_budget, number of kinds present)
// maps.
StoragePlan plan_storage_maps(std::span<const StorageRequest> requests,
                              size_t map_budget = kStorageMapBudget);

} // namespace dtx::codegen

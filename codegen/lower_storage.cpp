// Where the program's variables and aggregations are kept: globals in the
// `dtx_globals` data, this-> variables in the clause context, dynamic
// variables (thread-locals, associative arrays) and aggregations in maps that
// those of one shape share (codegen/storage_plan.h explains how and why).
#include "codegen/lowering.h"

#include "codegen/runtime_library.h"
#include "codegen/storage_plan.h"

#include <linux/bpf.h>

#include <algorithm>

namespace dtx::codegen {

namespace {

// The largest value of a per-CPU map (the kernel's PCPU_MIN_UNIT_SIZE).
constexpr uint32_t kMaxPerCpuValue = 32 * 1024;
constexpr uint32_t kMaxHashEntries = 1u << 20;
// Keys a keyed aggregation's spill map holds (preallocated, per CPU).
constexpr uint32_t kSpillEntries = 64;
// The fewest keys a keyed aggregation's map holds at the default aggsize
// (CompileOptions::aggsize_given).
constexpr uint32_t kDefaultAggregationKeys = 1u << 16;

} // namespace

void Lowering::plan_storage() {
    const sema::CheckedProgram &checked = input_.checked;
    auto keys_size = [&](const sema::VariableInfo &info) {
        uint32_t size = 0;
        for (const sema::Type *key : info.key_types)
            size += stored_size(key);
        return size;
    };
    // Dynamic variables get their maps in plan_maps().
    for (const auto &[name, info] : checked.globals) {
        VariableStorage storage;
        storage.info = &info;
        storage.value_size = stored_size(info.type);
        if (info.associative) {
            storage.kind = VariableStorage::Kind::Map;
            storage.key_size = std::max<uint32_t>(8, keys_size(info));
        } else {
            storage.kind = VariableStorage::Kind::Global;
            storage.offset = globals_size_;
            if (sema::is_string(sema::resolve(info.type)))
                storage.value_size = string_slot_size();
            globals_size_ += storage.value_size;
        }
        globals_storage_.emplace(name, storage);
    }
    for (const auto &[name, info] : checked.thread_locals) {
        VariableStorage storage;
        storage.info = &info;
        storage.kind = VariableStorage::Kind::Map;
        storage.value_size = stored_size(info.type);
        storage.key_size = 8 + keys_size(info);
        storage.keys_offset = 8; // after the thread ID
        thread_storage_.emplace(name, storage);
    }
    for (const auto &[name, info] : checked.clause_locals) {
        VariableStorage storage;
        storage.info = &info;
        storage.kind = VariableStorage::Kind::ClauseLocal;
        storage.value_size =
            sema::is_string(sema::resolve(info.type)) ? string_slot_size() : stored_size(info.type);
        storage.offset = ClauseContextLayout::locals + locals_size_;
        locals_size_ += storage.value_size;
        clause_storage_.emplace(name, storage);
    }
    // strtok()'s state after the this-> variables, when the program calls it.
    for (const auto &[expr, resolution] : checked.resolutions)
        if (resolution.function && resolution.function->name == "strtok" && !strtok_state_offset_) {
            strtok_state_offset_ = ClauseContextLayout::locals + locals_size_;
            locals_size_ += align8(runtime_strtok_state_size(strsize()));
        }
    if (globals_size_) {
        auto *type = llvm::ArrayType::get(i64(), globals_size_ / 8);
        globals_ = debug_->define_global_variable(
            "dtx_globals", debug_->char_array_type(globals_size_),
            llvm::ConstantAggregateZero::get(type), GlobalDataSection::Data);
    }
}

void Lowering::plan_aggregations() {
    // Aggregations are numbered in the order the program first uses them,
    // which is the order dtrace prints them in at exit.
    std::vector<const sema::AggregationInfo *> ordered;
    for (const auto &[name, info] : input_.checked.aggregations)
        ordered.push_back(&info);
    std::map<const SourceFile *, size_t> source_order;
    for (const auto &clause : input_.program.clauses)
        source_order.try_emplace(clause->range.source, source_order.size());
    auto position = [&](const sema::AggregationInfo *info) {
        auto it = source_order.find(info->defined_at.source);
        return std::tuple(it == source_order.end() ? source_order.size() : it->second,
                          info->defined_at.begin.line, info->defined_at.begin.column);
    };
    std::stable_sort(ordered.begin(), ordered.end(),
                     [&](auto *a, auto *b) { return position(a) < position(b); });
    uint32_t id = 0;
    for (const sema::AggregationInfo *info : ordered) {
        AggregationStorage storage;
        storage.info = info;
        trace::AggregationDescription &d = storage.description;
        d.id = id++;
        d.name = info->name;
        d.function = info->function->shape(info->parameters);
        uint32_t offset = 0;
        for (const sema::Type *key : info->key_types) {
            trace::ValueLayout field = layout_of(key, offset);
            d.key_fields.push_back(field);
            offset += field.size;
        }
        // Without keys, an array slot: see AggregationDescription.
        d.single_slot = info->key_types.empty();
        d.key_size = d.single_slot ? 4 : std::max<uint32_t>(8, offset);
        d.value_size = uint32_t(d.value_word_count() * 8);
        storage.value_size = d.value_size;
        if (storage.value_size > kMaxPerCpuValue)
            error("D_CODEGEN", info->defined_at,
                  "@" + info->name + " needs " + std::to_string(storage.value_size) +
                      " bytes per key and CPU, more than the kernel's " +
                      std::to_string(kMaxPerCpuValue) + "; use fewer buckets");
        description_.aggregations.push_back(d);
        aggregations_.emplace(info->name, std::move(storage));
    }
}

void Lowering::plan_maps() {
    // The requests: associative arrays and thread-locals by name, then
    // aggregations in their order.
    std::vector<StorageRequest> requests;
    std::vector<VariableStorage *> variables;
    for (auto *scope : {&globals_storage_, &thread_storage_})
        for (auto &[name, storage] : *scope) {
            if (storage.kind != VariableStorage::Kind::Map)
                continue;
            const bool thread = storage.info->scope == sema::VariableScope::Thread;
            requests.push_back(
                {StorageKind::Dynamic, storage.key_size, storage.value_size, thread});
            variables.push_back(&storage);
        }
    std::vector<AggregationStorage *> aggregations(aggregations_.size());
    for (auto &[name, storage] : aggregations_)
        aggregations[storage.description.id] = &storage;
    for (AggregationStorage *storage : aggregations) {
        const trace::AggregationDescription &d = storage->description;
        requests.push_back(
            {d.single_slot ? StorageKind::SlotAggregation : StorageKind::KeyedAggregation,
             d.single_slot ? 0 : d.key_size, storage->value_size, false});
    }
    const StoragePlan plan = plan_storage_maps(requests);

    // A map of one member is named after it; shared ones by kind and number.
    auto map_name = [&](const StorageMap &map, size_t index) {
        if (map.shared())
            return std::string(map.kind == StorageKind::Dynamic            ? "dtx_vars_"
                               : map.kind == StorageKind::KeyedAggregation ? "dtx_aggs_"
                                                                           : "dtx_slots_") +
                   std::to_string(index);
        uint32_t member = map.members[0];
        if (member < variables.size()) {
            const VariableStorage &v = *variables[member];
            return (v.info->scope == sema::VariableScope::Thread ? "dtx_self_" : "dtx_global_") +
                   v.info->name;
        }
        const std::string &name = aggregations[member - variables.size()]->description.name;
        return "dtx_agg_" + (name.empty() ? std::string("_") : name);
    };
    // Each member may hold as many entries as it could in a map of its own.
    // (Clamped before multiplying: a space up to 2^63 must not overflow; and
    // `least`, which grows with the members, within the kernel's maximum.)
    auto entries = [&](const StorageMap &map, uint64_t space, uint64_t entry, uint64_t least) {
        uint64_t each = std::min<uint64_t>(space / entry, kMaxHashEntries);
        return uint32_t(std::clamp<uint64_t>(each * map.members.size(),
                                             std::min<uint64_t>(least, kMaxHashEntries),
                                             kMaxHashEntries));
    };
    std::vector<llvm::GlobalVariable *> maps;
    std::vector<llvm::GlobalVariable *> spill_maps(plan.maps.size(), nullptr);
    size_t spills = 0;
    for (size_t i = 0; i < plan.maps.size(); i++) {
        const StorageMap &map = plan.maps[i];
        BpfMapDefinition definition{.name = map_name(map, i),
                                    .key = debug_->char_array_type(map.key_size),
                                    .value = debug_->char_array_type(map.value_size)};
        switch (map.kind) {
        case StorageKind::Dynamic:
            definition.type = BPF_MAP_TYPE_HASH;
            definition.max_entries =
                entries(map, options_.dynvarsize, map.key_size + map.value_size + 64,
                        options_.dynvarsize_given ? 1 : 1024);
            definition.map_flags = BPF_F_NO_PREALLOC;
            break;
        case StorageKind::KeyedAggregation: {
            definition.type = BPF_MAP_TYPE_PERCPU_HASH;
            definition.max_entries = entries(
                map, options_.aggsize, map.key_size + map.value_size,
                options_.aggsize_given ? 256
                                       : uint64_t{kDefaultAggregationKeys} * map.members.size());
            definition.map_flags = BPF_F_NO_PREALLOC;
            // A map that allocates its entries as keys arrive (memory for the
            // keys used, not for every key it could hold) gets each CPU's
            // share of a new key from the kernel's per-CPU allocator, which
            // in atomic context can fail for a moment (its cache is refilled
            // asynchronously, and per-CPU memory is populated by a worker):
            // the key then goes to a preallocated spill map, so an
            // aggregation with room never drops an update.
            // (Only while the maps stay within the storage budget: past it,
            // such an update is a counted drop.)
            if (plan.maps.size() + ++spills > kStorageMapBudget)
                break;
            BpfMapDefinition spill = definition;
            spill.name += "_spill";
            spill.max_entries = std::min(definition.max_entries, kSpillEntries);
            spill.map_flags = 0;
            spill_maps[i] = debug_->define_map(spill);
            break;
        }
        case StorageKind::SlotAggregation:
            // The kernel zeroes the slots, which is the initial state (min and
            // max are stored XORed with their identity).
            definition.type = BPF_MAP_TYPE_PERCPU_ARRAY;
            definition.key = debug_->integer_type(4, false);
            definition.max_entries = uint32_t(map.members.size());
            break;
        }
        maps.push_back(debug_->define_map(definition));
    }

    for (size_t i = 0; i < variables.size(); i++) {
        const StoragePlacement &place = plan.placements[i];
        const StorageMap &map = plan.maps[place.map];
        VariableStorage &storage = *variables[i];
        storage.map = maps[place.map];
        storage.key_size = map.key_size;
        storage.value_size = map.value_size;
        storage.keys_offset += place.prefix;
        storage.key_prefix = map.shared() ? uint64_t(place.id) << 32 : 0;
    }
    // A new key's initial state, one per distinct state.
    std::map<std::vector<uint64_t>, llvm::GlobalVariable *> initial_values;
    for (size_t i = 0; i < aggregations.size(); i++) {
        const StoragePlacement &place = plan.placements[variables.size() + i];
        const StorageMap &map = plan.maps[place.map];
        AggregationStorage &storage = *aggregations[i];
        trace::AggregationDescription &d = storage.description;
        storage.map = maps[place.map];
        storage.spill_map = spill_maps[place.map];
        storage.value_size = map.value_size;
        d.map_name = map_name(map, place.map);
        if (storage.spill_map)
            d.spill_map_name = storage.spill_map->getName().str();
        d.value_size = map.value_size;
        d.shared_map = map.shared();
        d.map_index = place.id;
        if (!d.single_slot) {
            d.key_size = map.key_size;
            for (trace::ValueLayout &field : d.key_fields)
                field.offset += place.prefix;
            std::vector<int64_t> initial = trace::initial_data(d.function);
            trace::convert_kernel_words(d.function, initial);
            std::vector<uint64_t> words(initial.begin(), initial.end());
            words.resize(map.value_size / 8);
            llvm::GlobalVariable *&value = initial_values[words];
            if (!value)
                value = debug_->define_global_variable(
                    "dtx_agg_initial_" + std::to_string(initial_values.size() - 1),
                    debug_->char_array_type(map.value_size),
                    llvm::ConstantDataArray::get(context_, words), GlobalDataSection::ReadOnly);
            storage.initial_value = value;
        }
        description_.aggregations[d.id] = d;
    }
}

} // namespace dtx::codegen

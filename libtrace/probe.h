// Probes as dtx names them (provider:module:function:name) and the table that
// numbers them. IDs are dtrace's: the dtrace provider's BEGIN, END and ERROR
// are 1, 2 and 3, and every other probe gets the next ID when a provider first
// lists or creates it, so IDs are stable within one run.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace dtx::trace {

struct ProbeName {
    std::string provider, module, function, name;

    // "provider:module:function:name"
    std::string full() const;
    // "function:name", as the default output's FUNCTION:NAME column shows it.
    std::string function_and_name() const { return function + ":" + name; }
    auto operator<=>(const ProbeName &) const = default;
};

// What a provider remembers about one of its probes (the tracepoint it maps
// to, the profile interval...). Each provider derives its own.
struct ProbeData {
    virtual ~ProbeData() = default;
};

// One argument of a probe as args[N] types it and `dtx -lv` shows it.
struct ProbeArgument {
    // C spelling of the type: "int", "const char *", "char [16]", "string"
    // (a NUL-terminated string whose kernel address argN holds).
    std::string type;
    // The type in the kernel's vmlinux BTF, when the provider knows it
    // (rawtp's btf_trace_* parameters); 0: use `type`.
    uint32_t btf_id = 0;
    // Where the value comes from: the tracepoint field or parameter name.
    std::string name;
    // A D expression over arg0..arg9 that computes the argument, where the
    // provider's probe translates what the kernel passes (a stable provider's
    // xlate <psinfo_t *> ((struct task_struct *)arg1)); empty: argN itself.
    std::string expression = {};
};

struct Probe {
    uint32_t id = 0;
    ProbeName name;
    std::shared_ptr<const ProbeData> data;
};

// Owns every probe of a session; pointers stay valid for its lifetime.
class ProbeTable {
public:
    // The probe named `name`, created with the next ID (and `data`) if new.
    const Probe &add(ProbeName name, std::shared_ptr<const ProbeData> data = nullptr);
    const Probe *find(const ProbeName &name) const;
    const Probe *find(uint32_t id) const;

    auto begin() const { return probes_.begin(); }
    auto end() const { return probes_.end(); }
    size_t size() const { return probes_.size(); }

private:
    std::deque<Probe> probes_; // by ID - 1
    // Keys view the names of the probes in probes_, whose addresses are stable.
    struct NameView {
        std::string_view provider, module, function, name;
        bool operator==(const NameView &) const = default;
    };
    struct NameHash {
        size_t operator()(const NameView &name) const noexcept;
    };
    std::unordered_map<NameView, const Probe *, NameHash> by_name_;
};

// Shell-style glob as DTrace matches probe description fields: * ? [set]
// [!set] and \ escapes; an empty pattern matches everything.
bool glob_match(std::string_view pattern, std::string_view text);
bool has_glob(std::string_view pattern);

} // namespace dtx::trace

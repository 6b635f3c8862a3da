// Aggregations as the consumer sees them: the per-key state of each aggregating
// function, how per-CPU copies merge, the bucket layouts of the quantize family,
// DTrace's key and value orders, and trunc()/clear()/normalize().
//
// The state of one key is a vector of int64_t "data words" whose layout is fixed
// by the function alone (see data_word_count()), so a BPF program can keep it as
// a per-CPU map value, update it with the arithmetic of update() and the bucket
// of bucket_index(), and the consumer can merge the CPUs with merge_into(). Layouts,
// orders and printing follow Oracle's dtrace-utils (libdtrace dt_aggregate.c,
// dt_consume.c; bpf/agg_qbin.c, agg_lqbin.c), which also defines llquantize()
// for negative values (mirrored buckets) unlike Solaris.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dtx::trace {

enum class AggregationKind : uint8_t {
    Count,      // [count]
    Sum,        // [sum]
    Avg,        // [count, sum]
    Min,        // [min], INT64_MAX while empty
    Max,        // [max], INT64_MIN while empty
    Stddev,     // [count, sum, low 64 bits, high 64 bits of the sum of squares]
    Quantize,   // 127 power-of-two buckets, see quantize_bucket_value()
    Lquantize,  // levels + 2 linear buckets
    Llquantize, // log-linear buckets, see LogLinearLayout
};

bool is_histogram(AggregationKind kind);

// lquantize(value, lower, upper, step): bucket 0 counts values below `lower`,
// bucket i (1..levels) counts [lower + (i-1)*step, lower + i*step), and bucket
// levels + 1 counts values from lower + levels*step up ("upper" when the step
// divides the range, as DTrace labels it either way).
struct LinearBuckets {
    int32_t lower = 0;
    uint16_t step = 1;
    uint16_t levels = 1; // (upper - lower) / step
    bool operator==(const LinearBuckets &) const = default;
};

// llquantize(value, factor, low_magnitude, high_magnitude, steps).
struct LogLinearBuckets {
    uint16_t factor = 10;
    uint16_t low_magnitude = 0;
    uint16_t high_magnitude = 0;
    uint16_t steps = 10;
    bool operator==(const LogLinearBuckets &) const = default;
};

struct AggregationFunction {
    AggregationKind kind = AggregationKind::Count;
    LinearBuckets linear;        // Lquantize only
    LogLinearBuckets log_linear; // Llquantize only
    bool operator==(const AggregationFunction &) const = default;
};

AggregationFunction plain_function(AggregationKind kind); // all but the (l)lquantize
// Empty when the arguments are valid, else the rule of dtrace's compiler they
// break; the constructors below require valid arguments.
std::string lquantize_argument_error(int64_t lower, int64_t upper, int64_t step);
std::string llquantize_argument_error(int64_t factor, int64_t low_magnitude, int64_t high_magnitude,
                                      int64_t steps);
AggregationFunction lquantize_function(int32_t lower, int32_t upper, uint16_t step = 1);
AggregationFunction llquantize_function(uint16_t factor, uint16_t low_magnitude,
                                        uint16_t high_magnitude, uint16_t steps);

// --- Data words ----------------------------------------------------------------

size_t data_word_count(const AggregationFunction &function);
// The state of a key nothing was recorded for: zeros, except Min/Max hold the
// identity of their comparison so an update is a plain compare-and-store.
std::vector<int64_t> initial_data(const AggregationFunction &function);
// Records one value, as the BPF program will: `increment` is the weight given to
// the quantize family (their optional last argument); other functions ignore it.
// count() ignores `value`.
void update(const AggregationFunction &function, std::span<int64_t> data, int64_t value,
            int64_t increment = 1);
// Folds another CPU's state for the same key into `into`.
void merge_into(const AggregationFunction &function, std::span<int64_t> into,
                std::span<const int64_t> from);
// Returns a copy of `a` with `b` merged into it.
std::vector<int64_t> merge(const AggregationFunction &function, std::span<const int64_t> a,
                           std::span<const int64_t> b);

// --- Buckets -------------------------------------------------------------------

inline constexpr size_t quantize_bucket_count = 127;
inline constexpr size_t quantize_zero_bucket = 63;
// The bucket's label: -2^62 .. -2, -1, 0, 1, 2 .. 2^62. A negative bucket labelled
// -2^k holds (-2^(k+1), -2^k] (bucket 0 also INT64_MIN); a positive one 2^k holds
// [2^k, 2^(k+1)).
int64_t quantize_bucket_value(size_t bucket);

// The log-linear buckets, lowest first:
//   0                        values <= -factor^(high+1)
//   1 .. zero-1              negative values, mirroring the positive buckets
//   zero                     |value| < factor^low
//   zero+1 .. count-2        per magnitude m in [low, high], the `steps` equal
//                            slices of [0, factor^(m+1)) that lie above factor^m
//   count-1                  values >= factor^(high+1)
// When low is 0 and steps > factor the first magnitude holds only 1..factor-1, one
// bucket each, spaced steps/factor apart: the buckets between are never used.
struct LogLinearLayout {
    size_t zero_bucket = 0;
    size_t bucket_count = 0;
    // For bucket zero_bucket + 1 + i, the least |value| it holds; 0 for the unused
    // buckets. The last entry, for the overflow bucket, is factor^(high+1).
    std::vector<uint64_t> positive_lower_bounds;
};
LogLinearLayout log_linear_layout(const LogLinearBuckets &buckets);

// The bucket of `value` for the quantize family; the reference for the BPF code.
size_t bucket_index(const AggregationFunction &function, int64_t value);

// --- Values as printed -----------------------------------------------------------

// value / normal, truncating toward zero, as count sum min max print.
int64_t normalized_value(int64_t value, uint64_t normal);
// avg() as dtrace prints it: sum / normal / count in integer division, 0 if empty.
int64_t average_value(std::span<const int64_t> data, uint64_t normal = 1);
// stddev() as dtrace computes it: the integer square root of
// (sum of squares / normal / count) - (sum / normal / count)^2, in 128 bits.
uint64_t stddev_value(std::span<const int64_t> data, uint64_t normal = 1);
// The number printa's %@d shows for a scalar function (count sum min max avg
// stddev, stddev's bits as int64_t), divided by `normal`.
int64_t scalar_value(const AggregationFunction &function, std::span<const int64_t> data,
                     uint64_t normal = 1);

// --- Keys ------------------------------------------------------------------------

enum class KeyFieldKind : uint8_t {
    Integer, // a D integer of 1, 2, 4 or 8 bytes
    String,
    Stack,  // stack() or ustack(): printed one frame a line through a namer
    Symbol, // sym() mod() usym() umod() uaddr(): printed through a namer
    Bytes,  // a struct, union or array: its bytes in `text`
};

// How a Symbol field names its address: "module`function+0x10" (uaddr()),
// "module`function" (sym(), func(), usym(), ufunc()) or "module" (mod(), umod()).
enum class SymbolForm : uint8_t { Address, Function, Module };

struct KeyField {
    KeyFieldKind kind = KeyFieldKind::Integer;
    bool is_signed = true;
    uint8_t width = 8;                     // Integer: bytes
    uint64_t bits = 0;                     // Integer: the low `width` bytes, zero-extended
    std::string text;                      // String; Symbol: its name when known, see key order
    std::vector<uint64_t> addresses;       // Stack: frames, innermost first; Symbol: one
    uint64_t pid = 0;                      // Stack, Symbol: the process, 0 for the kernel
    bool user = false;                     // Stack, Symbol: addresses of process `pid`
    SymbolForm form = SymbolForm::Address; // Symbol

    static KeyField signed_integer(int64_t value, unsigned width = 8);
    static KeyField unsigned_integer(uint64_t value, unsigned width = 8);
    static KeyField string(std::string text);
    static KeyField stack(std::vector<uint64_t> frames, uint64_t pid = 0);
    static KeyField symbol(uint64_t address, uint64_t pid = 0);
    static KeyField user_stack(std::vector<uint64_t> frames, uint64_t pid);
    static KeyField user_symbol(uint64_t address, uint64_t pid, SymbolForm form);
    static KeyField bytes(std::string raw);

    int64_t signed_value() const; // Integer: sign-extended from `width`
    bool operator==(const KeyField &) const = default;
};

using AggregationKey = std::vector<KeyField>;

// DTrace's key order (<0, 0, >0): integers as unsigned numbers of their width
// (so (char)-1 sorts after 2), strings bytewise, stacks by their in-memory bytes,
// symbols by pid, then those of Function and Module form by their name (the
// consumer names them when it reads the key, as dtrace rounds the address to
// the function or module, so that addresses in one function are one key) and
// others by address.
int compare_key_fields(const KeyField &a, const KeyField &b);
// Compares field by field starting at `first_position` (aggsortkeypos) and
// wrapping around; a position past the last field means 0.
int compare_keys(const AggregationKey &a, const AggregationKey &b, size_t first_position = 0);

struct KeyOrder {
    bool operator()(const AggregationKey &a, const AggregationKey &b) const {
        return compare_keys(a, b) < 0;
    }
};

// --- Snapshots -------------------------------------------------------------------

// One aggregation variable's keys and merged values; `name` is "" for plain @.
struct AggregationSnapshot {
    std::string name;
    AggregationFunction function;
    uint64_t normal = 1; // normalize()'s divisor, applied when printing
    std::map<AggregationKey, std::vector<int64_t>, KeyOrder> values;

    // Adds one CPU's state for `key`, merging it into what other CPUs gave.
    void add(const AggregationKey &key, std::span<const int64_t> data);
};

using AggregationEntry = std::map<AggregationKey, std::vector<int64_t>, KeyOrder>::value_type;

// trunc(@, n): keeps the n entries of highest value (n < 0: the -n of lowest
// value), ties broken by key; no n, or 0, removes every key.
void truncate(AggregationSnapshot &snapshot, std::optional<int64_t> keep = std::nullopt);
// clear(@): every value back to its initial state, keys kept.
void clear(AggregationSnapshot &snapshot);
// normalize(@, n) / denormalize(@). A divisor of 0 is refused (false), as dtrace
// refuses it, leaving the aggregation unnormalized.
bool normalize(AggregationSnapshot &snapshot, uint64_t divisor);
void denormalize(AggregationSnapshot &snapshot);

// --- Sorting -----------------------------------------------------------------------

// The aggsort* options.
struct SortOptions {
    bool by_key = false;             // aggsortkey: by key, ties broken by value
    bool reverse = false;            // aggsortrev: every comparison reversed
    size_t key_position = 0;         // aggsortkeypos: key field compared first
    size_t aggregation_position = 0; // aggsortpos: printa argument compared first
};

// DTrace's value order for one function: count sum min max by value, avg and
// stddev by their printed value (unnormalized), quantize and lquantize by the sum
// of bucket label x count (lquantize's outer buckets weigh lower-1 and top+1),
// llquantize likewise with outer buckets weighing +-factor^(high+1); ties of the
// histograms by the count of the bucket holding 0.
int compare_values(const AggregationFunction &function, std::span<const int64_t> a,
                   std::span<const int64_t> b);

// The entries of one aggregation in printing order: by value then key, or by key
// then value with by_key; reverse flips the whole order.
std::vector<const AggregationEntry *> sorted_entries(const AggregationSnapshot &snapshot,
                                                     const SortOptions &options);

// One line of a printa() over several aggregations: a key present in any of them,
// with each aggregation's data in argument order, zeros where it lacks the key.
struct JoinedRow {
    const AggregationKey *key = nullptr;
    std::vector<std::vector<int64_t>> data;
};
// The union of the keys in printing order: by the value of the aggregation at
// aggregation_position, then the next ones (wrapping), then by key; with by_key,
// by key first.
std::vector<JoinedRow> join_aggregations(std::span<const AggregationSnapshot *const> aggregations,
                                         const SortOptions &options);

} // namespace dtx::trace

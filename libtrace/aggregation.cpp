#include "libtrace/aggregation.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>

namespace dtx::trace {

namespace {

__extension__ typedef unsigned __int128 uint128;
__extension__ typedef __int128 int128;

// Probe-side arithmetic wraps like the BPF instructions do; signed overflow would
// be undefined in C++.
int64_t wrapping_add(int64_t a, int64_t b) {
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

uint64_t magnitude(int64_t value) {
    return value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
}

// base^exponent, or nothing when it does not fit in 64 bits.
std::optional<uint64_t> power(uint64_t base, unsigned exponent) {
    uint128 result = 1;
    for (unsigned i = 0; i < exponent; i++) {
        result *= base;
        if (result > std::numeric_limits<uint64_t>::max())
            return std::nullopt;
    }
    return static_cast<uint64_t>(result);
}

uint128 sum_of_squares(std::span<const int64_t> stddev_data) {
    return (static_cast<uint128>(static_cast<uint64_t>(stddev_data[3])) << 64) |
           static_cast<uint64_t>(stddev_data[2]);
}

void store_sum_of_squares(std::span<int64_t> stddev_data, uint128 value) {
    stddev_data[2] = static_cast<int64_t>(static_cast<uint64_t>(value));
    stddev_data[3] = static_cast<int64_t>(static_cast<uint64_t>(value >> 64));
}

uint64_t integer_square_root(uint128 value) {
    uint128 root = 0;
    uint128 bit = static_cast<uint128>(1) << 126;
    while (bit > value)
        bit >>= 2;
    while (bit != 0) {
        if (value >= root + bit) {
            value -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    return static_cast<uint64_t>(root);
}

// Truncating division that cannot trap (INT64_MIN / -1) or misread a divisor
// above INT64_MAX.
int64_t divide(int64_t dividend, int128 divisor) {
    return static_cast<int64_t>(static_cast<uint64_t>(static_cast<uint128>(dividend / divisor)));
}

int sign_of(long double difference) {
    return difference < 0 ? -1 : difference > 0 ? 1 : 0;
}

template <typename T>
int three_way(T a, T b) {
    return a < b ? -1 : a > b ? 1 : 0;
}

size_t log_linear_bucket_index(const LogLinearBuckets &buckets, int64_t value) {
    const unsigned factor = buckets.factor;
    const unsigned steps = buckets.steps;
    const size_t buckets_per_magnitude = steps - steps / factor;
    const size_t zero =
        1 + (buckets.high_magnitude - buckets.low_magnitude + 1) * buckets_per_magnitude;
    const uint64_t absolute = magnitude(value);

    // factor^(high+1) fits in 64 bits (llquantize_argument_error), so 128 bits
    // hold every bound computed here.
    uint128 magnitude_floor = *power(factor, buckets.low_magnitude);
    if (absolute < magnitude_floor)
        return zero;
    size_t offset = 1;
    for (unsigned m = buckets.low_magnitude; m <= buckets.high_magnitude; m++) {
        const uint128 magnitude_ceiling = magnitude_floor * factor;
        if (absolute < magnitude_ceiling) {
            // Which of the `steps` equal slices of [0, factor^(m+1)) holds the
            // value; the first steps/factor of them lie below factor^m.
            const auto slice =
                static_cast<size_t>(absolute * static_cast<uint128>(steps) / magnitude_ceiling);
            offset += slice - steps / factor;
            return value < 0 ? zero - offset : zero + offset;
        }
        offset += buckets_per_magnitude;
        magnitude_floor = magnitude_ceiling;
    }
    return value < 0 ? 0 : 2 * zero;
}

// The weight dtrace gives each lquantize() bucket when ordering by value.
long double linear_bucket_weight(const LinearBuckets &buckets, size_t bucket) {
    const int64_t lower = buckets.lower;
    if (bucket == 0)
        return static_cast<long double>(lower - 1);
    const int64_t bucket_start = lower + static_cast<int64_t>(bucket - 1) * buckets.step;
    if (bucket == static_cast<size_t>(buckets.levels) + 1)
        return static_cast<long double>(bucket_start + 1);
    return static_cast<long double>(bucket_start);
}

struct HistogramOrderKey {
    long double weighted_sum = 0;
    int64_t zero_count = 0;
};

HistogramOrderKey histogram_order_key(const AggregationFunction &function,
                                      std::span<const int64_t> data) {
    HistogramOrderKey key;
    switch (function.kind) {
    case AggregationKind::Quantize:
        for (size_t i = 0; i < quantize_bucket_count; i++)
            key.weighted_sum += static_cast<long double>(quantize_bucket_value(i)) *
                                static_cast<long double>(data[i]);
        key.zero_count = data[quantize_zero_bucket];
        break;
    case AggregationKind::Lquantize:
        for (size_t i = 0; i < data.size(); i++) {
            const long double weight = linear_bucket_weight(function.linear, i);
            key.weighted_sum += weight * static_cast<long double>(data[i]);
            if (weight == 0)
                key.zero_count = data[i];
        }
        break;
    case AggregationKind::Llquantize: {
        const LogLinearLayout layout = log_linear_layout(function.log_linear);
        for (size_t i = 0; i < layout.positive_lower_bounds.size(); i++) {
            const auto bound = static_cast<long double>(layout.positive_lower_bounds[i]);
            const size_t offset = i + 1;
            key.weighted_sum +=
                bound * static_cast<long double>(data[layout.zero_bucket + offset]) -
                bound * static_cast<long double>(data[layout.zero_bucket - offset]);
        }
        key.zero_count = data[layout.zero_bucket];
        break;
    }
    default:
        assert(false && "not a histogram");
    }
    return key;
}

// Stack records compare as the bytes dtrace keeps them in: little-endian words.
int compare_stack_words(std::span<const uint64_t> a, std::span<const uint64_t> b) {
    const size_t length = std::max(a.size(), b.size());
    for (size_t i = 0; i < length; i++) {
        const uint64_t left = i < a.size() ? a[i] : 0;
        const uint64_t right = i < b.size() ? b[i] : 0;
        if (left != right)
            return three_way(__builtin_bswap64(left), __builtin_bswap64(right));
    }
    return 0;
}

uint64_t width_mask(unsigned width) {
    return width >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
}

} // namespace

bool is_histogram(AggregationKind kind) {
    return kind == AggregationKind::Quantize || kind == AggregationKind::Lquantize ||
           kind == AggregationKind::Llquantize;
}

AggregationFunction plain_function(AggregationKind kind) {
    assert(kind != AggregationKind::Lquantize && kind != AggregationKind::Llquantize);
    AggregationFunction function;
    function.kind = kind;
    return function;
}

std::string lquantize_argument_error(int64_t lower, int64_t upper, int64_t step) {
    constexpr int64_t int32_min = std::numeric_limits<int32_t>::min();
    constexpr int64_t int32_max = std::numeric_limits<int32_t>::max();
    constexpr int64_t uint16_max = std::numeric_limits<uint16_t>::max();
    if (lower < int32_min || lower > int32_max)
        return "lquantize( ) lower bound must fit in 32 bits";
    if (upper < int32_min || upper > int32_max)
        return "lquantize( ) upper bound must fit in 32 bits";
    if (upper < lower)
        return "lquantize( ) lower bound must be below the upper bound";
    if (step < 1 || step > uint16_max)
        return "lquantize( ) step must be between 1 and 65535";
    const int64_t levels = (upper - lower) / step;
    if (levels == 0)
        return "lquantize( ) step leaves no bucket between the bounds";
    if (levels > uint16_max)
        return "lquantize( ) step makes more than 65535 buckets";
    return {};
}

std::string llquantize_argument_error(int64_t factor, int64_t low_magnitude, int64_t high_magnitude,
                                      int64_t steps) {
    constexpr int64_t uint16_max = std::numeric_limits<uint16_t>::max();
    if (factor < 2 || factor > uint16_max)
        return "llquantize( ) factor must be between 2 and 65535";
    if (low_magnitude < 0 || low_magnitude > uint16_max)
        return "llquantize( ) low magnitude must be between 0 and 65535";
    if (high_magnitude < 0 || high_magnitude > uint16_max)
        return "llquantize( ) high magnitude must be between 0 and 65535";
    if (high_magnitude < low_magnitude)
        return "llquantize( ) high magnitude must be at least the low magnitude";
    if (!power(factor, static_cast<unsigned>(high_magnitude) + 1))
        return "llquantize( ) factor to the power of high magnitude + 1 must fit in 64 bits";
    if (steps < 1 || steps > uint16_max)
        return "llquantize( ) steps must be between 1 and 65535";
    if (steps < factor && factor % steps != 0)
        return "llquantize( ) steps must divide the factor when below it";
    if (steps > factor) {
        if (steps % factor != 0)
            return "llquantize( ) steps must be a multiple of the factor when above it";
        // Slice bounds must be whole numbers. With a low magnitude of 0 the values
        // 1..factor-1 get a bucket each, so slicing starts at the next magnitude.
        const unsigned first_sliced = low_magnitude == 0 ? 1 : static_cast<unsigned>(low_magnitude);
        if (*power(factor, first_sliced + 1) % static_cast<uint64_t>(steps) != 0)
            return "llquantize( ) steps must divide factor^(low magnitude + 1), "
                   "or factor^2 when the low magnitude is 0, when above the factor";
    }
    return {};
}

AggregationFunction lquantize_function(int32_t lower, int32_t upper, uint16_t step) {
    assert(lquantize_argument_error(lower, upper, step).empty());
    AggregationFunction function;
    function.kind = AggregationKind::Lquantize;
    function.linear.lower = lower;
    function.linear.step = step;
    function.linear.levels =
        static_cast<uint16_t>((static_cast<int64_t>(upper) - lower) / static_cast<int64_t>(step));
    return function;
}

AggregationFunction llquantize_function(uint16_t factor, uint16_t low_magnitude,
                                        uint16_t high_magnitude, uint16_t steps) {
    assert(llquantize_argument_error(factor, low_magnitude, high_magnitude, steps).empty());
    AggregationFunction function;
    function.kind = AggregationKind::Llquantize;
    function.log_linear = {factor, low_magnitude, high_magnitude, steps};
    return function;
}

size_t data_word_count(const AggregationFunction &function) {
    switch (function.kind) {
    case AggregationKind::Count:
    case AggregationKind::Sum:
    case AggregationKind::Min:
    case AggregationKind::Max:
        return 1;
    case AggregationKind::Avg:
        return 2;
    case AggregationKind::Stddev:
        return 4;
    case AggregationKind::Quantize:
        return quantize_bucket_count;
    case AggregationKind::Lquantize:
        return static_cast<size_t>(function.linear.levels) + 2;
    case AggregationKind::Llquantize: {
        const LogLinearBuckets &b = function.log_linear;
        return 2 * static_cast<size_t>(b.high_magnitude - b.low_magnitude + 1) *
                   (b.steps - b.steps / b.factor) +
               3;
    }
    }
    return 0;
}

std::vector<int64_t> initial_data(const AggregationFunction &function) {
    std::vector<int64_t> data(data_word_count(function), 0);
    if (function.kind == AggregationKind::Min)
        data[0] = std::numeric_limits<int64_t>::max();
    else if (function.kind == AggregationKind::Max)
        data[0] = std::numeric_limits<int64_t>::min();
    return data;
}

void update(const AggregationFunction &function, std::span<int64_t> data, int64_t value,
            int64_t increment) {
    assert(data.size() == data_word_count(function));
    switch (function.kind) {
    case AggregationKind::Count:
        data[0] = wrapping_add(data[0], 1);
        break;
    case AggregationKind::Sum:
        data[0] = wrapping_add(data[0], value);
        break;
    case AggregationKind::Avg:
        data[0] = wrapping_add(data[0], 1);
        data[1] = wrapping_add(data[1], value);
        break;
    case AggregationKind::Min:
        data[0] = std::min(data[0], value);
        break;
    case AggregationKind::Max:
        data[0] = std::max(data[0], value);
        break;
    case AggregationKind::Stddev: {
        data[0] = wrapping_add(data[0], 1);
        data[1] = wrapping_add(data[1], value);
        const uint128 absolute = magnitude(value);
        store_sum_of_squares(data, sum_of_squares(data) + absolute * absolute);
        break;
    }
    case AggregationKind::Quantize:
    case AggregationKind::Lquantize:
    case AggregationKind::Llquantize: {
        int64_t &bucket = data[bucket_index(function, value)];
        bucket = wrapping_add(bucket, increment);
        break;
    }
    }
}

void merge_into(const AggregationFunction &function, std::span<int64_t> into,
                std::span<const int64_t> from) {
    assert(into.size() == data_word_count(function) && from.size() == into.size());
    switch (function.kind) {
    case AggregationKind::Min:
        into[0] = std::min(into[0], from[0]);
        return;
    case AggregationKind::Max:
        into[0] = std::max(into[0], from[0]);
        return;
    case AggregationKind::Stddev:
        into[0] = wrapping_add(into[0], from[0]);
        into[1] = wrapping_add(into[1], from[1]);
        // One 128-bit number: the low word's carry goes into the high word.
        store_sum_of_squares(into, sum_of_squares(into) + sum_of_squares(from));
        return;
    default:
        for (size_t i = 0; i < into.size(); i++)
            into[i] = wrapping_add(into[i], from[i]);
        return;
    }
}

std::vector<int64_t> merge(const AggregationFunction &function, std::span<const int64_t> a,
                           std::span<const int64_t> b) {
    std::vector<int64_t> merged(a.begin(), a.end());
    merge_into(function, merged, b);
    return merged;
}

int64_t quantize_bucket_value(size_t bucket) {
    assert(bucket < quantize_bucket_count);
    if (bucket < quantize_zero_bucket)
        return -(int64_t{1} << (quantize_zero_bucket - 1 - bucket));
    if (bucket == quantize_zero_bucket)
        return 0;
    return int64_t{1} << (bucket - quantize_zero_bucket - 1);
}

LogLinearLayout log_linear_layout(const LogLinearBuckets &buckets) {
    const uint64_t factor = buckets.factor;
    const uint64_t steps = buckets.steps;
    const uint64_t steps_per_factor = steps / factor;
    LogLinearLayout layout;
    const size_t per_side =
        static_cast<size_t>(buckets.high_magnitude - buckets.low_magnitude + 1) *
            (steps - steps_per_factor) +
        1;
    layout.zero_bucket = per_side;
    layout.bucket_count = 2 * per_side + 1;
    layout.positive_lower_bounds.assign(per_side, 0);

    // Each bucket starts where the one before it ends: the first at factor^low,
    // then at every slice boundary (see the LogLinearLayout comment).
    size_t index = 0;
    layout.positive_lower_bounds[index] = *power(factor, buckets.low_magnitude);
    unsigned first_sliced_magnitude = buckets.low_magnitude;
    if (buckets.low_magnitude == 0 && steps > factor) {
        for (uint64_t value = 2; value <= factor; value++) {
            index += steps_per_factor;
            layout.positive_lower_bounds[index] = value;
        }
        first_sliced_magnitude = 1;
    }
    for (unsigned m = first_sliced_magnitude; m <= buckets.high_magnitude; m++) {
        const uint64_t slice_width = *power(factor, m + 1) / steps;
        for (uint64_t slice = steps_per_factor + 1; slice <= steps; slice++)
            layout.positive_lower_bounds[++index] = slice * slice_width;
    }
    assert(index + 1 == per_side);
    return layout;
}

size_t bucket_index(const AggregationFunction &function, int64_t value) {
    switch (function.kind) {
    case AggregationKind::Quantize: {
        if (value == 0)
            return quantize_zero_bucket;
        // |value| in [2^k, 2^(k+1)) goes to 64+k, or to 62-k when negative; INT64_MIN
        // (k = 63) shares bucket 0 with the rest below -2^62.
        const int bits = std::bit_width(magnitude(value));
        return value > 0 ? quantize_zero_bucket + bits : quantize_zero_bucket - std::min(bits, 63);
    }
    case AggregationKind::Lquantize: {
        const LinearBuckets &linear = function.linear;
        if (value < linear.lower)
            return 0;
        const uint64_t level =
            (static_cast<uint64_t>(value) - static_cast<uint64_t>(int64_t{linear.lower})) /
            linear.step;
        return static_cast<size_t>(std::min<uint64_t>(level, linear.levels)) + 1;
    }
    case AggregationKind::Llquantize:
        return log_linear_bucket_index(function.log_linear, value);
    default:
        assert(false && "bucket_index of a function without buckets");
        return 0;
    }
}

int64_t normalized_value(int64_t value, uint64_t normal) {
    return divide(value, normal);
}

int64_t average_value(std::span<const int64_t> data, uint64_t normal) {
    if (data[0] == 0)
        return 0;
    return divide(divide(data[1], normal), data[0]);
}

uint64_t stddev_value(std::span<const int64_t> data, uint64_t normal) {
    const auto count = static_cast<uint64_t>(data[0]);
    if (count == 0)
        return 0;
    const uint128 average_of_squares = sum_of_squares(data) / normal / count;
    const uint128 average = magnitude(divide(divide(data[1], normal), data[0]));
    const uint128 square_of_average = average * average;
    // Integer truncation keeps this non-negative for real data; guard anyway.
    if (average_of_squares < square_of_average)
        return 0;
    return integer_square_root(average_of_squares - square_of_average);
}

int64_t scalar_value(const AggregationFunction &function, std::span<const int64_t> data,
                     uint64_t normal) {
    switch (function.kind) {
    case AggregationKind::Avg:
        return average_value(data, normal);
    case AggregationKind::Stddev:
        return static_cast<int64_t>(stddev_value(data, normal));
    default:
        assert(!is_histogram(function.kind));
        return normalized_value(data[0], normal);
    }
}

KeyField KeyField::signed_integer(int64_t value, unsigned width) {
    KeyField field;
    field.width = static_cast<uint8_t>(width);
    field.bits = static_cast<uint64_t>(value) & width_mask(width);
    return field;
}

KeyField KeyField::unsigned_integer(uint64_t value, unsigned width) {
    KeyField field = signed_integer(static_cast<int64_t>(value), width);
    field.is_signed = false;
    return field;
}

KeyField KeyField::string(std::string text) {
    KeyField field;
    field.kind = KeyFieldKind::String;
    field.text = std::move(text);
    return field;
}

KeyField KeyField::bytes(std::string raw) {
    KeyField field;
    field.kind = KeyFieldKind::Bytes;
    field.text = std::move(raw);
    return field;
}

KeyField KeyField::stack(std::vector<uint64_t> frames, uint64_t pid) {
    KeyField field;
    field.kind = KeyFieldKind::Stack;
    field.addresses = std::move(frames);
    field.pid = pid;
    return field;
}

KeyField KeyField::symbol(uint64_t address, uint64_t pid) {
    KeyField field;
    field.kind = KeyFieldKind::Symbol;
    field.addresses = {address};
    field.pid = pid;
    return field;
}

KeyField KeyField::user_stack(std::vector<uint64_t> frames, uint64_t pid) {
    KeyField field = stack(std::move(frames), pid);
    field.user = true;
    return field;
}

KeyField KeyField::user_symbol(uint64_t address, uint64_t pid, SymbolForm form) {
    KeyField field = symbol(address, pid);
    field.user = true;
    field.form = form;
    return field;
}

int64_t KeyField::signed_value() const {
    const unsigned unused_bits = 64 - 8 * std::min<unsigned>(width, 8);
    return static_cast<int64_t>(bits << unused_bits) >> unused_bits;
}

int compare_key_fields(const KeyField &a, const KeyField &b) {
    if (a.kind != b.kind)
        return three_way(a.kind, b.kind);
    switch (a.kind) {
    case KeyFieldKind::Integer:
        if (a.width != b.width)
            return three_way(a.width, b.width);
        return three_way(a.bits, b.bits);
    case KeyFieldKind::String:
    case KeyFieldKind::Bytes:
        return three_way(a.text.compare(b.text), 0);
    case KeyFieldKind::Stack: {
        // A user stack record starts with its pid; kernel ones have none (0 here).
        const uint64_t a_pid[] = {a.pid};
        const uint64_t b_pid[] = {b.pid};
        if (const int by_pid = compare_stack_words(a_pid, b_pid); by_pid != 0)
            return by_pid;
        return compare_stack_words(a.addresses, b.addresses);
    }
    case KeyFieldKind::Symbol:
        if (a.pid != b.pid)
            return three_way(a.pid, b.pid);
        // Functions and modules are one key whatever the address in them.
        if (a.form != SymbolForm::Address && !a.text.empty() && !b.text.empty())
            return three_way(a.text.compare(b.text), 0);
        return three_way(a.addresses, b.addresses);
    }
    return 0;
}

int compare_keys(const AggregationKey &a, const AggregationKey &b, size_t first_position) {
    if (a.size() != b.size())
        return three_way(a.size(), b.size());
    const size_t count = a.size();
    const size_t start = first_position < count ? first_position : 0;
    for (size_t i = 0; i < count; i++) {
        const size_t position = (start + i) % count;
        if (const int order = compare_key_fields(a[position], b[position]); order != 0)
            return order;
    }
    return 0;
}

void AggregationSnapshot::add(const AggregationKey &key, std::span<const int64_t> data) {
    auto found = values.find(key);
    if (found == values.end())
        values.emplace(key, std::vector<int64_t>(data.begin(), data.end()));
    else
        merge_into(function, found->second, data);
}

void truncate(AggregationSnapshot &snapshot, std::optional<int64_t> keep) {
    if (!keep || *keep == 0) {
        snapshot.values.clear();
        return;
    }
    // trunc() ranks by value then key and ignores the aggsort* options.
    std::vector<const AggregationEntry *> ranked = sorted_entries(snapshot, SortOptions{});
    const size_t kept = static_cast<size_t>(std::min<uint64_t>(magnitude(*keep), ranked.size()));
    const auto first_removed = *keep > 0 ? ranked.begin() : ranked.begin() + kept;
    const auto last_removed = *keep > 0 ? ranked.end() - kept : ranked.end();
    std::vector<AggregationKey> removed;
    for (auto entry = first_removed; entry != last_removed; ++entry)
        removed.push_back((*entry)->first);
    for (const AggregationKey &key : removed)
        snapshot.values.erase(key);
}

void clear(AggregationSnapshot &snapshot) {
    for (auto &[key, data] : snapshot.values)
        data = initial_data(snapshot.function);
}

bool normalize(AggregationSnapshot &snapshot, uint64_t divisor) {
    snapshot.normal = divisor == 0 ? 1 : divisor;
    return divisor != 0;
}

void denormalize(AggregationSnapshot &snapshot) {
    snapshot.normal = 1;
}

int compare_values(const AggregationFunction &function, std::span<const int64_t> a,
                   std::span<const int64_t> b) {
    switch (function.kind) {
    case AggregationKind::Count:
    case AggregationKind::Sum:
    case AggregationKind::Min:
    case AggregationKind::Max:
        return three_way(a[0], b[0]);
    case AggregationKind::Avg:
        return three_way(average_value(a), average_value(b));
    case AggregationKind::Stddev:
        return three_way(stddev_value(a), stddev_value(b));
    case AggregationKind::Quantize:
    case AggregationKind::Lquantize:
    case AggregationKind::Llquantize: {
        const HistogramOrderKey left = histogram_order_key(function, a);
        const HistogramOrderKey right = histogram_order_key(function, b);
        if (const int by_sum = sign_of(left.weighted_sum - right.weighted_sum); by_sum != 0)
            return by_sum;
        return three_way(left.zero_count, right.zero_count);
    }
    }
    return 0;
}

std::vector<const AggregationEntry *> sorted_entries(const AggregationSnapshot &snapshot,
                                                     const SortOptions &options) {
    std::vector<const AggregationEntry *> entries;
    entries.reserve(snapshot.values.size());
    for (const AggregationEntry &entry : snapshot.values)
        entries.push_back(&entry);
    const auto order = [&](const AggregationEntry *a, const AggregationEntry *b) {
        // Keys are unique, so sorting by key needs no tie-break.
        int comparison =
            options.by_key ? 0 : compare_values(snapshot.function, a->second, b->second);
        if (comparison == 0)
            comparison = compare_keys(a->first, b->first, options.key_position);
        return options.reverse ? comparison > 0 : comparison < 0;
    };
    std::sort(entries.begin(), entries.end(), order);
    return entries;
}

std::vector<JoinedRow> join_aggregations(std::span<const AggregationSnapshot *const> aggregations,
                                         const SortOptions &options) {
    struct KeyPointerOrder {
        bool operator()(const AggregationKey *a, const AggregationKey *b) const {
            return compare_keys(*a, *b) < 0;
        }
    };
    std::map<const AggregationKey *, size_t, KeyPointerOrder> row_of_key;
    std::vector<JoinedRow> rows;
    for (size_t column = 0; column < aggregations.size(); column++) {
        for (const auto &[key, data] : aggregations[column]->values) {
            auto [found, inserted] = row_of_key.emplace(&key, rows.size());
            if (inserted) {
                JoinedRow row{&key, {}};
                // dtrace fills the columns of absent keys with zeros, even min/max.
                for (const AggregationSnapshot *aggregation : aggregations)
                    row.data.emplace_back(data_word_count(aggregation->function), 0);
                rows.push_back(std::move(row));
            }
            rows[found->second].data[column] = data;
        }
    }

    const size_t first_column =
        options.aggregation_position < aggregations.size() ? options.aggregation_position : 0;
    const auto order = [&](const JoinedRow &a, const JoinedRow &b) {
        int comparison = options.by_key ? compare_keys(*a.key, *b.key, options.key_position) : 0;
        for (size_t i = 0; comparison == 0 && i < aggregations.size(); i++) {
            const size_t column = (first_column + i) % aggregations.size();
            comparison =
                compare_values(aggregations[column]->function, a.data[column], b.data[column]);
        }
        if (comparison == 0)
            comparison = compare_keys(*a.key, *b.key, options.key_position);
        return options.reverse ? comparison > 0 : comparison < 0;
    };
    std::sort(rows.begin(), rows.end(), order);
    return rows;
}

} // namespace dtx::trace

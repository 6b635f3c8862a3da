// Aggregation state, merging, ordering and dtrace's printed form. Expected texts
// follow dtrace-utils' printing rules (libdtrace dt_consume.c) and, for the
// llquantize() cases marked so, its test suite's expected output
// (test/unittest/aggs/tst.llquantize_basic.r, tst.signedkeys.r).
#include "libtrace/aggregation.h"
#include "libtrace/aggregation_print.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace dtx::trace;

constexpr int64_t int64_min = std::numeric_limits<int64_t>::min();
constexpr int64_t int64_max = std::numeric_limits<int64_t>::max();

// Records `value` under `key` the way a probe firing on one CPU would.
void record(AggregationSnapshot &snapshot, const AggregationKey &key, int64_t value,
            int64_t increment = 1) {
    std::vector<int64_t> data = initial_data(snapshot.function);
    update(snapshot.function, data, value, increment);
    snapshot.add(key, data);
}

AggregationSnapshot snapshot_of(AggregationFunction function) {
    AggregationSnapshot snapshot;
    snapshot.function = function;
    return snapshot;
}

AggregationKey string_key(const std::string &text) {
    return {KeyField::string(text)};
}

AggregationKey int_key(int64_t value) {
    return {KeyField::signed_integer(value)};
}

std::vector<std::string> first_string_fields(const std::vector<const AggregationEntry *> &rows) {
    std::vector<std::string> texts;
    for (const AggregationEntry *row : rows)
        texts.push_back(row->first.front().text);
    return texts;
}

using Strings = std::vector<std::string>;

const AggregationFunction count_function = plain_function(AggregationKind::Count);
const AggregationFunction sum_function = plain_function(AggregationKind::Sum);
const AggregationFunction quantize = plain_function(AggregationKind::Quantize);

// --- quantize() buckets ------------------------------------------------------------

TEST(QuantizeBuckets, ZeroHasItsOwnBucket) {
    EXPECT_EQ(bucket_index(quantize, 0), quantize_zero_bucket);
    EXPECT_EQ(quantize_bucket_value(quantize_zero_bucket), 0);
}

TEST(QuantizeBuckets, SmallValuesOnBothSides) {
    EXPECT_EQ(bucket_index(quantize, 1), 64u);
    EXPECT_EQ(bucket_index(quantize, 2), 65u);
    EXPECT_EQ(bucket_index(quantize, 3), 65u);
    EXPECT_EQ(bucket_index(quantize, 4), 66u);
    EXPECT_EQ(bucket_index(quantize, -1), 62u);
    EXPECT_EQ(bucket_index(quantize, -2), 61u);
    EXPECT_EQ(bucket_index(quantize, -3), 61u);
    EXPECT_EQ(bucket_index(quantize, -4), 60u);
}

TEST(QuantizeBuckets, PowersOfTwoStartBuckets) {
    for (int k = 0; k <= 62; k++) {
        const int64_t power = int64_t{1} << k;
        EXPECT_EQ(bucket_index(quantize, power), 64u + k) << k;
        EXPECT_EQ(bucket_index(quantize, power + (power - 1)), 64u + k) << k;
        EXPECT_EQ(bucket_index(quantize, -power), 62u - k) << k;
        EXPECT_EQ(quantize_bucket_value(64 + k), power);
        EXPECT_EQ(quantize_bucket_value(62 - k), -power);
    }
}

TEST(QuantizeBuckets, ExtremesLandInTheOuterBuckets) {
    EXPECT_EQ(bucket_index(quantize, int64_max), 126u);
    EXPECT_EQ(bucket_index(quantize, int64_min), 0u);
    EXPECT_EQ(bucket_index(quantize, int64_min + 1), 0u);
    EXPECT_EQ(data_word_count(quantize), 127u);
}

// --- lquantize() -------------------------------------------------------------------

TEST(LquantizeBuckets, LayoutHasUnderflowLevelsAndOverflow) {
    const AggregationFunction f = lquantize_function(0, 10, 2);
    EXPECT_EQ(f.linear.levels, 5);
    EXPECT_EQ(data_word_count(f), 7u);
}

TEST(LquantizeBuckets, EdgesOfEachStep) {
    const AggregationFunction f = lquantize_function(0, 10, 2);
    EXPECT_EQ(bucket_index(f, -1), 0u);
    EXPECT_EQ(bucket_index(f, 0), 1u);
    EXPECT_EQ(bucket_index(f, 1), 1u);
    EXPECT_EQ(bucket_index(f, 2), 2u);
    EXPECT_EQ(bucket_index(f, 9), 5u);
    EXPECT_EQ(bucket_index(f, 10), 6u);
    EXPECT_EQ(bucket_index(f, int64_max), 6u);
    EXPECT_EQ(bucket_index(f, int64_min), 0u);
}

TEST(LquantizeBuckets, StepThatDoesNotDivideTheRange) {
    const AggregationFunction f = lquantize_function(-5, 5, 3); // levels -5 -2 1, then >= 4
    EXPECT_EQ(f.linear.levels, 3);
    EXPECT_EQ(bucket_index(f, 3), 3u);
    EXPECT_EQ(bucket_index(f, 4), 4u);
}

TEST(LquantizeBuckets, ArgumentRules) {
    EXPECT_EQ(lquantize_argument_error(0, 10, 1), "");
    EXPECT_NE(lquantize_argument_error(10, 0, 1), "");
    EXPECT_NE(lquantize_argument_error(0, 0, 1), "");   // no level
    EXPECT_NE(lquantize_argument_error(0, 10, 11), ""); // no level
    EXPECT_NE(lquantize_argument_error(0, 10, 0), "");
    EXPECT_NE(lquantize_argument_error(0, 10, 65536), "");
    EXPECT_NE(lquantize_argument_error(0, 70000, 1), ""); // more than 65535 levels
    EXPECT_NE(lquantize_argument_error(int64_t{1} << 40, int64_t{1} << 41, 1), "");
}

// --- llquantize() ------------------------------------------------------------------

TEST(LlquantizeBuckets, ArgumentRules) {
    EXPECT_EQ(llquantize_argument_error(10, 0, 6, 20), "");
    EXPECT_EQ(llquantize_argument_error(4, 4, 6, 32), "");
    EXPECT_NE(llquantize_argument_error(1, 0, 6, 20), "");   // factor < 2
    EXPECT_NE(llquantize_argument_error(10, 3, 2, 10), "");  // high < low
    EXPECT_NE(llquantize_argument_error(10, 0, 19, 10), ""); // 10^20 overflows
    EXPECT_NE(llquantize_argument_error(10, 0, 6, 3), "");   // 3 does not divide 10
    EXPECT_NE(llquantize_argument_error(10, 0, 6, 15), "");  // not a multiple of 10
    EXPECT_NE(llquantize_argument_error(10, 0, 6, 30), "");  // 30 does not divide 100
    EXPECT_NE(llquantize_argument_error(10, 2, 6, 80), "");  // 80 does not divide 1000
    EXPECT_NE(llquantize_argument_error(10, 0, 6, 0), "");
}

TEST(LlquantizeBuckets, LayoutWithFewerStepsThanFactor) {
    const LogLinearLayout layout = log_linear_layout({4, 0, 1, 2});
    EXPECT_EQ(layout.zero_bucket, 5u);
    EXPECT_EQ(layout.bucket_count, 11u);
    EXPECT_EQ(layout.positive_lower_bounds, (std::vector<uint64_t>{1, 2, 4, 8, 16}));
    EXPECT_EQ(data_word_count(llquantize_function(4, 0, 1, 2)), 11u);
}

TEST(LlquantizeBuckets, LayoutWithUnusedBucketsInTheFirstMagnitude) {
    const LogLinearLayout layout = log_linear_layout({4, 0, 1, 8});
    EXPECT_EQ(layout.positive_lower_bounds,
              (std::vector<uint64_t>{1, 0, 2, 0, 3, 0, 4, 6, 8, 10, 12, 14, 16}));
}

TEST(LlquantizeBuckets, LayoutWithAHigherLowMagnitude) {
    const LogLinearLayout layout = log_linear_layout({4, 4, 6, 32});
    ASSERT_EQ(layout.positive_lower_bounds.size(), 73u);
    EXPECT_EQ(layout.positive_lower_bounds[0], 256u);
    EXPECT_EQ(layout.positive_lower_bounds[1], 288u);
    EXPECT_EQ(layout.positive_lower_bounds[24], 1024u);
    EXPECT_EQ(layout.positive_lower_bounds[72], 16384u);
}

TEST(LlquantizeBuckets, ValuesAroundEverySliceEdge) {
    const AggregationFunction f = llquantize_function(4, 4, 6, 32);
    const size_t zero = log_linear_layout(f.log_linear).zero_bucket;
    EXPECT_EQ(bucket_index(f, 255), zero);
    EXPECT_EQ(bucket_index(f, -255), zero);
    EXPECT_EQ(bucket_index(f, 256), zero + 1);
    EXPECT_EQ(bucket_index(f, 256 + 3 * 32 - 1), zero + 3);
    EXPECT_EQ(bucket_index(f, 256 + 3 * 32), zero + 4);
    EXPECT_EQ(bucket_index(f, 1024 + 12 * 128 - 1), zero + 24 + 12);
    EXPECT_EQ(bucket_index(f, -(4096 + 512 + 1)), zero - (48 + 2));
    EXPECT_EQ(bucket_index(f, 16383), zero + 72);
    EXPECT_EQ(bucket_index(f, 16384), 2 * zero);
    EXPECT_EQ(bucket_index(f, -16384), 0u);
}

TEST(LlquantizeBuckets, EveryValueLiesWithinItsBucketBounds) {
    for (const LogLinearBuckets &b :
         {LogLinearBuckets{10, 0, 3, 20}, LogLinearBuckets{2, 0, 5, 4},
          LogLinearBuckets{10, 1, 2, 5}, LogLinearBuckets{4, 4, 6, 32}}) {
        AggregationFunction f;
        f.kind = AggregationKind::Llquantize;
        f.log_linear = b;
        const LogLinearLayout layout = log_linear_layout(b);
        for (int64_t value = 1; value < 20000; value += value / 50 + 1) {
            const size_t bucket = bucket_index(f, value);
            ASSERT_EQ(bucket_index(f, -value), 2 * layout.zero_bucket - bucket);
            if (bucket == layout.zero_bucket || bucket == layout.bucket_count - 1)
                continue;
            const size_t offset = bucket - layout.zero_bucket - 1;
            ASSERT_GT(layout.positive_lower_bounds[offset], 0u) << value;
            EXPECT_LE(layout.positive_lower_bounds[offset], static_cast<uint64_t>(value));
            size_t next = offset + 1;
            while (layout.positive_lower_bounds[next] == 0)
                next++;
            EXPECT_LT(static_cast<uint64_t>(value), layout.positive_lower_bounds[next]);
        }
    }
}

TEST(LlquantizeBuckets, Int64Extremes) {
    const AggregationFunction tens = llquantize_function(10, 0, 18, 10); // 10^19 fits
    const size_t zero = log_linear_layout(tens.log_linear).zero_bucket;
    EXPECT_EQ(bucket_index(tens, int64_max), zero + 1 + 18 * 9 + 8);
    EXPECT_EQ(bucket_index(tens, int64_min), zero - (1 + 18 * 9 + 8));
    const AggregationFunction twos = llquantize_function(2, 0, 62, 2); // up to 2^63
    EXPECT_EQ(bucket_index(twos, int64_max), 64u + 63u);
    EXPECT_EQ(bucket_index(twos, int64_min), 0u);
}

// --- update and merge ---------------------------------------------------------------

TEST(AggregationData, ScalarFunctionsUpdate) {
    std::vector<int64_t> avg = initial_data(plain_function(AggregationKind::Avg));
    for (int64_t v : {4, 6, 11})
        update(plain_function(AggregationKind::Avg), avg, v);
    EXPECT_EQ(avg, (std::vector<int64_t>{3, 21}));
    EXPECT_EQ(average_value(avg), 7);

    std::vector<int64_t> count = initial_data(count_function);
    update(count_function, count, 12345);
    update(count_function, count, 0);
    EXPECT_EQ(count, (std::vector<int64_t>{2}));
}

TEST(AggregationData, MinAndMaxStartFromTheirIdentity) {
    const AggregationFunction min = plain_function(AggregationKind::Min);
    const AggregationFunction max = plain_function(AggregationKind::Max);
    std::vector<int64_t> low = initial_data(min);
    std::vector<int64_t> high = initial_data(max);
    EXPECT_EQ(low[0], int64_max);
    EXPECT_EQ(high[0], int64_min);
    for (int64_t v : {5, -3, 9}) {
        update(min, low, v);
        update(max, high, v);
    }
    EXPECT_EQ(low[0], -3);
    EXPECT_EQ(high[0], 9);
}

TEST(AggregationData, StddevKeepsSquaresIn128Bits) {
    const AggregationFunction stddev = plain_function(AggregationKind::Stddev);
    std::vector<int64_t> data = initial_data(stddev);
    update(stddev, data, int64_min);
    update(stddev, data, int64_min);
    // 2 * 2^126 = 2^127: high word 2^63, low word 0.
    EXPECT_EQ(data[2], 0);
    EXPECT_EQ(static_cast<uint64_t>(data[3]), uint64_t{1} << 63);
    // The sum wraps to 0 as it does in the probe, so the mean is 0: sqrt(2^127 / 2).
    EXPECT_EQ(stddev_value(data), uint64_t{1} << 63);
}

TEST(AggregationData, MergeAddsCountsAndKeepsExtremes) {
    EXPECT_EQ(merge(sum_function, std::vector<int64_t>{5}, std::vector<int64_t>{-7}),
              (std::vector<int64_t>{-2}));
    EXPECT_EQ(merge(plain_function(AggregationKind::Min), std::vector<int64_t>{5},
                    std::vector<int64_t>{-7}),
              (std::vector<int64_t>{-7}));
    EXPECT_EQ(merge(plain_function(AggregationKind::Max), std::vector<int64_t>{5},
                    std::vector<int64_t>{int64_min}),
              (std::vector<int64_t>{5}));
    EXPECT_EQ(merge(plain_function(AggregationKind::Avg), std::vector<int64_t>{2, 10},
                    std::vector<int64_t>{1, 5}),
              (std::vector<int64_t>{3, 15}));
}

TEST(AggregationData, MergeCarriesTheSumOfSquaresIntoItsHighWord) {
    const AggregationFunction stddev = plain_function(AggregationKind::Stddev);
    const std::vector<int64_t> a{1, 0, -1, 0}; // low word all ones
    const std::vector<int64_t> b{1, 0, 1, 0};
    EXPECT_EQ(merge(stddev, a, b), (std::vector<int64_t>{2, 0, 0, 1}));
}

TEST(AggregationData, MergeAddsHistogramBuckets) {
    const AggregationFunction f = lquantize_function(0, 4, 1);
    std::vector<int64_t> cpu0 = initial_data(f);
    std::vector<int64_t> cpu1 = initial_data(f);
    update(f, cpu0, 2);
    update(f, cpu1, 2, 3);
    update(f, cpu1, -8);
    EXPECT_EQ(merge(f, cpu0, cpu1), (std::vector<int64_t>{1, 0, 0, 4, 0, 0}));
}

TEST(AggregationData, SnapshotMergesTheCpusOfAKey) {
    AggregationSnapshot snapshot = snapshot_of(plain_function(AggregationKind::Max));
    snapshot.add(string_key("a"), std::vector<int64_t>{3});
    snapshot.add(string_key("b"), std::vector<int64_t>{1});
    snapshot.add(string_key("a"), std::vector<int64_t>{8});
    snapshot.add(string_key("a"), std::vector<int64_t>{int64_min}); // a CPU with nothing
    ASSERT_EQ(snapshot.values.size(), 2u);
    EXPECT_EQ(snapshot.values.at(string_key("a")), (std::vector<int64_t>{8}));
}

// --- values as printed --------------------------------------------------------------

TEST(AggregationValues, AverageTruncatesTowardZero) {
    EXPECT_EQ(average_value(std::vector<int64_t>{2, -7}), -3);
    EXPECT_EQ(average_value(std::vector<int64_t>{0, 0}), 0);
    EXPECT_EQ(average_value(std::vector<int64_t>{2, 100}, 10), 5);
}

TEST(AggregationValues, StddevUsesIntegerArithmetic) {
    const AggregationFunction stddev = plain_function(AggregationKind::Stddev);
    const auto of = [&](std::vector<int64_t> values) {
        std::vector<int64_t> data = initial_data(stddev);
        for (int64_t v : values)
            update(stddev, data, v);
        return stddev_value(data);
    };
    EXPECT_EQ(of({0, 0}), 0u);
    EXPECT_EQ(of({0x10, 0x20}), 8u);
    EXPECT_EQ(of({0x100000000, 0x200000000}), 0x80000000u);
    EXPECT_EQ(of({1, 2, 3, 4}), 1u); // sqrt(30/4 - (10/4)^2) = sqrt(7 - 4)
    EXPECT_EQ(of({-5, 5}), 5u);
}

TEST(AggregationValues, StddevNormalizationDividesTheSquaresOnce) {
    // As dtrace: sqrt(sum_sq / n / count - (sum / n / count)^2), not a scaled stddev.
    std::vector<int64_t> data = initial_data(plain_function(AggregationKind::Stddev));
    for (int64_t v : {10, 30})
        update(plain_function(AggregationKind::Stddev), data, v);
    EXPECT_EQ(stddev_value(data, 10), 6u); // sqrt(1000 / 10 / 2 - 2 * 2) = sqrt(46)
}

TEST(AggregationValues, ScalarValueIsNormalized) {
    EXPECT_EQ(scalar_value(sum_function, std::vector<int64_t>{-25}, 10), -2);
    EXPECT_EQ(scalar_value(count_function, std::vector<int64_t>{25}, 1), 25);
}

// --- keys --------------------------------------------------------------------------

TEST(AggregationKeys, IntegersCompareAsUnsignedOfTheirWidth) {
    EXPECT_LT(compare_key_fields(KeyField::signed_integer(2, 1), KeyField::signed_integer(-2, 1)),
              0);
    EXPECT_LT(compare_key_fields(KeyField::signed_integer(-2), KeyField::signed_integer(-1)), 0);
    EXPECT_EQ(KeyField::signed_integer(-2, 1).bits, 254u);
    EXPECT_EQ(KeyField::signed_integer(-2, 1).signed_value(), -2);
    EXPECT_EQ(KeyField::signed_integer(-2, 4).signed_value(), -2);
}

TEST(AggregationKeys, StringsCompareBytewise) {
    EXPECT_LT(compare_key_fields(KeyField::string("ab"), KeyField::string("abc")), 0);
    EXPECT_LT(compare_key_fields(KeyField::string("Z"), KeyField::string("a")), 0);
    EXPECT_LT(compare_key_fields(KeyField::string("z"), KeyField::string("\xc3\xa9")), 0);
}

TEST(AggregationKeys, StacksCompareByTheirLittleEndianBytes) {
    // 0x100 is stored 00 01 ..., 0x1 as 01 00 ...: the first byte decides.
    EXPECT_LT(compare_key_fields(KeyField::stack({0x100}), KeyField::stack({0x1})), 0);
    EXPECT_EQ(compare_key_fields(KeyField::stack({7, 0}), KeyField::stack({7})), 0);
}

TEST(AggregationKeys, UserKeysCompareByProcessFirst) {
    EXPECT_LT(compare_key_fields(KeyField::user_stack({9}, 1), KeyField::user_stack({1}, 2)), 0);
    EXPECT_NE(compare_key_fields(KeyField::user_stack({7}, 1), KeyField::stack({7})), 0);
    const auto function = SymbolForm::Function;
    EXPECT_LT(compare_key_fields(KeyField::user_symbol(9, 1, function),
                                 KeyField::user_symbol(1, 2, function)),
              0);
}

// As dtrace rounds a ufunc() (func(), umod() ...) address to its function
// (module), keys of one name are one key whatever their addresses.
TEST(AggregationKeys, NamedSymbolsCompareByName) {
    auto named = [](uint64_t address, SymbolForm form, std::string name) {
        KeyField field = KeyField::user_symbol(address, 7, form);
        field.text = std::move(name);
        return field;
    };
    EXPECT_EQ(compare_key_fields(named(0x10, SymbolForm::Function, "a`f"),
                                 named(0x20, SymbolForm::Function, "a`f")),
              0);
    EXPECT_LT(compare_key_fields(named(0x20, SymbolForm::Module, "a"),
                                 named(0x10, SymbolForm::Module, "b")),
              0);
    // uaddr(): the address itself.
    EXPECT_LT(compare_key_fields(named(0x10, SymbolForm::Address, "a`f+0x10"),
                                 named(0x20, SymbolForm::Address, "a`f+0x10")),
              0);
    AggregationSnapshot snapshot = snapshot_of(count_function);
    record(snapshot, {named(0x10, SymbolForm::Function, "a`f")}, 0);
    record(snapshot, {named(0x20, SymbolForm::Function, "a`f")}, 0);
    EXPECT_EQ(snapshot.values.size(), 1u);
}

TEST(AggregationKeys, KeyPositionChoosesTheFirstFieldCompared) {
    const AggregationKey a{KeyField::string("a"), KeyField::signed_integer(2)};
    const AggregationKey b{KeyField::string("b"), KeyField::signed_integer(1)};
    EXPECT_LT(compare_keys(a, b, 0), 0);
    EXPECT_GT(compare_keys(a, b, 1), 0);
    EXPECT_LT(compare_keys(a, b, 2), 0); // past the last field: from the first
}

// --- trunc(), clear(), normalize() ------------------------------------------------------

AggregationSnapshot sums_by_name() {
    AggregationSnapshot snapshot = snapshot_of(sum_function);
    record(snapshot, string_key("a"), 40);
    record(snapshot, string_key("b"), 10);
    record(snapshot, string_key("c"), 30);
    record(snapshot, string_key("d"), 20);
    record(snapshot, string_key("e"), 30);
    return snapshot;
}

Strings keys_of(const AggregationSnapshot &snapshot) {
    Strings keys;
    for (const auto &[key, data] : snapshot.values)
        keys.push_back(key.front().text);
    return keys;
}

TEST(AggregationOperations, TruncKeepsTheHighestValues) {
    AggregationSnapshot snapshot = sums_by_name();
    truncate(snapshot, 2);
    EXPECT_EQ(keys_of(snapshot), (Strings{"a", "e"})); // c and e tie at 30: e is the greater key
}

TEST(AggregationOperations, NegativeTruncKeepsTheLowestValues) {
    AggregationSnapshot snapshot = sums_by_name();
    truncate(snapshot, -3);
    EXPECT_EQ(keys_of(snapshot), (Strings{"b", "c", "d"}));
}

TEST(AggregationOperations, TruncWithoutCountOrZeroRemovesEveryKey) {
    AggregationSnapshot snapshot = sums_by_name();
    truncate(snapshot);
    EXPECT_TRUE(snapshot.values.empty());
    snapshot = sums_by_name();
    truncate(snapshot, 0);
    EXPECT_TRUE(snapshot.values.empty());
    snapshot = sums_by_name();
    truncate(snapshot, 100);
    EXPECT_EQ(snapshot.values.size(), 5u);
}

TEST(AggregationOperations, ClearKeepsKeysAndResetsValues) {
    AggregationSnapshot snapshot = snapshot_of(plain_function(AggregationKind::Min));
    record(snapshot, string_key("a"), 4);
    clear(snapshot);
    EXPECT_EQ(snapshot.values.at(string_key("a")), (std::vector<int64_t>{int64_max}));
    AggregationSnapshot sums = sums_by_name();
    clear(sums);
    EXPECT_EQ(sums.values.size(), 5u);
    EXPECT_EQ(sums.values.at(string_key("a")), (std::vector<int64_t>{0}));
}

TEST(AggregationOperations, NormalizeAndDenormalize) {
    AggregationSnapshot snapshot = sums_by_name();
    EXPECT_TRUE(normalize(snapshot, 10));
    EXPECT_EQ(snapshot.normal, 10u);
    denormalize(snapshot);
    EXPECT_EQ(snapshot.normal, 1u);
    EXPECT_FALSE(normalize(snapshot, 0));
    EXPECT_EQ(snapshot.normal, 1u);
}

// --- sorting ------------------------------------------------------------------------

TEST(AggregationSort, ByValueThenKey) {
    EXPECT_EQ(first_string_fields(sorted_entries(sums_by_name(), {})),
              (Strings{"b", "d", "c", "e", "a"}));
}

TEST(AggregationSort, AggsortkeySortsByKey) {
    SortOptions options;
    options.by_key = true;
    EXPECT_EQ(first_string_fields(sorted_entries(sums_by_name(), options)),
              (Strings{"a", "b", "c", "d", "e"}));
}

TEST(AggregationSort, AggsortrevReversesValueAndTieOrder) {
    SortOptions options;
    options.reverse = true;
    EXPECT_EQ(first_string_fields(sorted_entries(sums_by_name(), options)),
              (Strings{"a", "e", "c", "d", "b"}));
    options.by_key = true;
    EXPECT_EQ(first_string_fields(sorted_entries(sums_by_name(), options)),
              (Strings{"e", "d", "c", "b", "a"}));
}

TEST(AggregationSort, AggsortkeyposSortsByALaterField) {
    AggregationSnapshot snapshot = snapshot_of(count_function);
    record(snapshot, {KeyField::string("x"), KeyField::signed_integer(3)}, 0);
    record(snapshot, {KeyField::string("y"), KeyField::signed_integer(1)}, 0);
    record(snapshot, {KeyField::string("z"), KeyField::signed_integer(2)}, 0);
    SortOptions options;
    options.by_key = true;
    options.key_position = 1;
    EXPECT_EQ(first_string_fields(sorted_entries(snapshot, options)), (Strings{"y", "z", "x"}));
    options.by_key = false; // equal values: the tie-break starts at the key position too
    EXPECT_EQ(first_string_fields(sorted_entries(snapshot, options)), (Strings{"y", "z", "x"}));
}

TEST(AggregationSort, IntegerKeysSortUnsigned) {
    AggregationSnapshot snapshot = snapshot_of(sum_function);
    for (int64_t v : {-2, -1, 0, 1, 2})
        record(snapshot, int_key(v), v);
    SortOptions options;
    options.by_key = true;
    std::vector<int64_t> order;
    for (const AggregationEntry *entry : sorted_entries(snapshot, options))
        order.push_back(entry->first.front().signed_value());
    EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, -2, -1}));
}

TEST(AggregationSort, AvgByItsIntegerAverage) {
    AggregationSnapshot snapshot = snapshot_of(plain_function(AggregationKind::Avg));
    record(snapshot, string_key("ten"), 10);
    record(snapshot, string_key("seven"), 3);
    record(snapshot, string_key("seven"), 11);
    EXPECT_EQ(first_string_fields(sorted_entries(snapshot, {})), (Strings{"seven", "ten"}));
}

TEST(AggregationSort, QuantizeBySumOfBucketValueTimesCount) {
    AggregationSnapshot snapshot = snapshot_of(quantize);
    record(snapshot, string_key("one eight"), 8);     // 8
    record(snapshot, string_key("three twos"), 2, 3); // 6
    record(snapshot, string_key("minus"), -100);      // -64
    record(snapshot, string_key("zeros"), 0, 5);      // 0, 5 at zero
    record(snapshot, string_key("nothing"), 0, 0);    // 0, 0 at zero
    EXPECT_EQ(first_string_fields(sorted_entries(snapshot, {})),
              (Strings{"minus", "nothing", "zeros", "three twos", "one eight"}));
}

TEST(AggregationSort, LquantizeWeighsTheOuterBucketsJustBeyondTheRange) {
    AggregationSnapshot snapshot = snapshot_of(lquantize_function(0, 10, 5));
    record(snapshot, string_key("below"), -50); // weight -1
    record(snapshot, string_key("zero"), 3);    // weight 0, at the bucket of 0
    record(snapshot, string_key("five"), 5);    // 5
    record(snapshot, string_key("above"), 99);  // 11
    record(snapshot, string_key("empty"), 3, 0);
    EXPECT_EQ(first_string_fields(sorted_entries(snapshot, {})),
              (Strings{"below", "empty", "zero", "five", "above"}));
}

TEST(AggregationSort, LlquantizeBySignedSum) {
    // dtrace-utils' tst.llquantsortsum.
    AggregationSnapshot snapshot = snapshot_of(llquantize_function(10, 0, 2, 20));
    record(snapshot, string_key("Larry"), 1, -25);
    record(snapshot, string_key("Moe"), 2, -50);
    record(snapshot, string_key("Shemp"), 3, 50);
    record(snapshot, string_key("Curly"), 4, 25);
    EXPECT_EQ(first_string_fields(sorted_entries(snapshot, {})),
              (Strings{"Moe", "Larry", "Curly", "Shemp"}));
}

// --- joining several aggregations ------------------------------------------------------

struct JoinFixture {
    AggregationSnapshot counts = snapshot_of(count_function);
    AggregationSnapshot sums = snapshot_of(sum_function);
    JoinFixture() {
        record(counts, string_key("x"), 0);
        record(counts, string_key("x"), 0);
        record(counts, string_key("z"), 0);
        record(sums, string_key("x"), 10);
        record(sums, string_key("y"), 5);
        record(sums, string_key("z"), 50);
    }
    Strings order(const SortOptions &options) const {
        const AggregationSnapshot *const both[] = {&counts, &sums};
        Strings keys;
        for (const JoinedRow &row : join_aggregations(both, options))
            keys.push_back(row.key->front().text);
        return keys;
    }
};

TEST(AggregationJoin, MissingValuesAreZero) {
    JoinFixture fixture;
    const AggregationSnapshot *const both[] = {&fixture.counts, &fixture.sums};
    const std::vector<JoinedRow> rows = join_aggregations(both, {});
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].key->front().text, "y");
    EXPECT_EQ(rows[0].data, (std::vector<std::vector<int64_t>>{{0}, {5}}));
}

TEST(AggregationJoin, SortsByTheFirstAggregationThenTheNext) {
    // counts: y 0, z 1, x 2
    EXPECT_EQ(JoinFixture().order({}), (Strings{"y", "z", "x"}));
}

TEST(AggregationJoin, AggsortposPicksTheAggregationSortedOn) {
    SortOptions options;
    options.aggregation_position = 1; // sums: y 5, x 10, z 50
    EXPECT_EQ(JoinFixture().order(options), (Strings{"y", "x", "z"}));
    options.aggregation_position = 7; // out of range: the first
    EXPECT_EQ(JoinFixture().order(options), (Strings{"y", "z", "x"}));
}

TEST(AggregationJoin, AggsortkeyAndAggsortrev) {
    SortOptions options;
    options.by_key = true;
    EXPECT_EQ(JoinFixture().order(options), (Strings{"x", "y", "z"}));
    options.reverse = true;
    EXPECT_EQ(JoinFixture().order(options), (Strings{"z", "y", "x"}));
    options.by_key = false;
    EXPECT_EQ(JoinFixture().order(options), (Strings{"x", "z", "y"}));
}

// --- printing: scalars and keys ---------------------------------------------------------

TEST(AggregationPrint, CountsByStringKey) {
    AggregationSnapshot snapshot = snapshot_of(count_function);
    record(snapshot, string_key("bash"), 0);
    record(snapshot, string_key("bash"), 0);
    record(snapshot, string_key("bash"), 0);
    record(snapshot, string_key("sshd"), 0);
    EXPECT_EQ(format_printa(snapshot, {}),
              "\n"
              "  sshd                                                              1\n"
              "  bash                                                              3\n");
}

TEST(AggregationPrint, IntegerKeysPrintBySize) {
    // dtrace-utils' tst.signedkeys: sums of (char)v, (short)v, int and long long keys.
    std::string printed;
    SortOptions by_key;
    by_key.by_key = true;
    for (unsigned width : {1u, 2u, 4u, 8u}) {
        AggregationSnapshot snapshot = snapshot_of(sum_function);
        for (int64_t v : {-2, -1, 0, 1, 2})
            record(snapshot, {KeyField::signed_integer(v, width)}, v);
        printed += format_printa(snapshot, {by_key, 14, StackFormat::Default, {}});
    }
    EXPECT_EQ(printed, "\n"
                       "   0                0\n"
                       "   1                1\n"
                       "   2                2\n"
                       " 254               -2\n"
                       " 255               -1\n"
                       "\n"
                       "     0                0\n"
                       "     1                1\n"
                       "     2                2\n"
                       " 65534               -2\n"
                       " 65535               -1\n"
                       "\n"
                       "        0                0\n"
                       "        1                1\n"
                       "        2                2\n"
                       "       -2               -2\n"
                       "       -1               -1\n"
                       "\n"
                       "                0                0\n"
                       "                1                1\n"
                       "                2                2\n"
                       "               -2               -2\n"
                       "               -1               -1\n");
}

TEST(AggregationPrint, ScalarFunctionsWithoutKeys) {
    const auto printed = [](AggregationKind kind, std::vector<int64_t> values) {
        AggregationSnapshot snapshot = snapshot_of(plain_function(kind));
        for (int64_t v : values)
            record(snapshot, {}, v);
        return format_printa(snapshot, {});
    };
    EXPECT_EQ(printed(AggregationKind::Sum, {-5, 2}), "\n               -3\n");
    EXPECT_EQ(printed(AggregationKind::Min, {4, -9}), "\n               -9\n");
    EXPECT_EQ(printed(AggregationKind::Max, {4, -9}), "\n                4\n");
    EXPECT_EQ(printed(AggregationKind::Avg, {1, 2}), "\n                1\n");
    EXPECT_EQ(printed(AggregationKind::Stddev, {0x10, 0x20}), "\n                8\n");
    EXPECT_EQ(printed(AggregationKind::Stddev, {-1}), "\n                0\n");
}

TEST(AggregationPrint, NormalizedValuesAreDivided) {
    AggregationSnapshot snapshot = sums_by_name();
    normalize(snapshot, 10);
    truncate(snapshot, 1);
    EXPECT_EQ(format_printa(snapshot, {}),
              "\n  a                                                                 4\n");
}

TEST(AggregationPrint, StackKeysPrintAFrameALine) {
    AggregationSnapshot snapshot = snapshot_of(count_function);
    record(snapshot, {KeyField::stack({0x1010, 0x2020, 0, 0})}, 0);
    AggregationPrintOptions options;
    options.name_address = [](const KeyField &field, uint64_t address) {
        return field.pid == 0 && address == 0x1010 ? std::string("vmlinux`vfs_read+0x10")
                                                   : std::string("vmlinux`ksys_read+0x20");
    };
    EXPECT_EQ(format_printa(snapshot, options), "\n"
                                                "\n"
                                                "              vmlinux`vfs_read+0x10\n"
                                                "              vmlinux`ksys_read+0x20\n"
                                                "                1\n");
    options.stack_indent = 2;
    options.name_address = nullptr;
    EXPECT_EQ(format_printa(snapshot, options), "\n\n  0x1010\n  0x2020\n                1\n");
}

TEST(AggregationPrint, FoldedStacksPrintRootFirstOnOneLine) {
    AggregationSnapshot snapshot = snapshot_of(count_function);
    record(snapshot, {KeyField::stack({0x1010, 0x2020, 0, 0})}, 0);
    record(snapshot, {KeyField::stack({0x1010, 0x2020, 0, 0})}, 0);
    record(snapshot, {KeyField::stack({})}, 0);
    AggregationPrintOptions options;
    options.stack_format = StackFormat::Folded;
    options.name_address = [](const KeyField &, uint64_t address) {
        return address == 0x1010 ? std::string("vmlinux`vfs_read+0x10")
                                 : std::string("vmlinux`ksys;read+0x20");
    };
    // No blank line first; ';' within a frame becomes '_'; no frames is [empty].
    EXPECT_EQ(format_printa(snapshot, options), "[empty] 1\n"
                                                "vmlinux`ksys_read+0x20;vmlinux`vfs_read+0x10 2\n");
    KeyField stack = KeyField::stack({0x1010, 0x2020});
    EXPECT_EQ(format_key_field(stack, options), "\nvmlinux`ksys_read+0x20;vmlinux`vfs_read+0x10\n");
}

TEST(AggregationPrint, FoldedKeysPutOtherFieldsAsFrames) {
    AggregationSnapshot snapshot = snapshot_of(plain_function(AggregationKind::Sum));
    record(snapshot,
           {KeyField::string("bash"), KeyField::signed_integer(-3, 4),
            KeyField::user_stack({0x4010, 0x4020}, 42)},
           5);
    AggregationPrintOptions options;
    options.stack_format = StackFormat::Folded;
    options.name_address = [](const KeyField &, uint64_t address) {
        return "a.out`f" + std::to_string(address);
    };
    EXPECT_EQ(format_printa(snapshot, options), "bash;-3;a.out`f16416;a.out`f16400 5\n");
    // Rows without a stack print as usual, without printa's blank line.
    AggregationSnapshot plain = snapshot_of(count_function);
    record(plain, {KeyField::string("a")}, 0);
    EXPECT_EQ(format_printa(plain, options),
              "  a                                                                 1\n");
}

TEST(AggregationPrint, SymbolKeysPrintLikeStrings) {
    AggregationSnapshot snapshot = snapshot_of(count_function);
    record(snapshot, {KeyField::symbol(0xffffffff81234560), KeyField::signed_integer(7, 4)}, 0);
    AggregationPrintOptions options;
    options.name_address = [](const KeyField &, uint64_t) {
        return std::string("vmlinux`schedule");
    };
    EXPECT_EQ(format_printa(snapshot, options),
              "\n  vmlinux`schedule                                          7                1\n");
}

TEST(AggregationPrint, UserKeysPrintThroughTheirProcess) {
    AggregationSnapshot snapshot = snapshot_of(count_function);
    KeyField function = KeyField::user_symbol(0x4010, 42, SymbolForm::Function);
    function.text = "a.out`main"; // named by the consumer when it read the key
    record(snapshot, {KeyField::user_stack({0x4010, 0x4020}, 42), function}, 0);
    AggregationPrintOptions options;
    options.name_address = [](const KeyField &field, uint64_t address) {
        return std::to_string(field.pid) + (field.user ? " user " : " kernel ") +
               std::to_string(address);
    };
    EXPECT_EQ(format_printa(snapshot, options),
              "\n"
              "\n"
              "              42 user 16400\n"
              "              42 user 16416\n"
              "  a.out`main                                                        1\n");
}

TEST(AggregationPrint, JoinedPrintaShowsEachValue) {
    JoinFixture fixture;
    const AggregationSnapshot *const both[] = {&fixture.counts, &fixture.sums};
    EXPECT_EQ(
        format_printa(both, {}),
        "\n"
        "  y                                                                 0                5\n"
        "  z                                                                 1               50\n"
        "  x                                                                 2               10\n");
}

TEST(AggregationPrint, AtExitEveryAggregationWithoutNames) {
    std::vector<AggregationSnapshot> left(2);
    left[0] = snapshot_of(count_function);
    left[0].name = "calls";
    record(left[0], {}, 0);
    left[1] = sums_by_name();
    truncate(left[1], -2);
    const std::string forward =
        "                1\n"
        "  b                                                                10\n"
        "  d                                                                20\n";
    EXPECT_EQ(format_aggregations_at_exit(left, {}), forward);
    AggregationPrintOptions reversed;
    reversed.sort.reverse = true;
    EXPECT_EQ(format_aggregations_at_exit(left, reversed),
              "  d                                                                20\n"
              "  b                                                                10\n"
              "                1\n");
    EXPECT_EQ(format_aggregations_at_exit({}, {}), "");
}

// --- printing: quantize() and lquantize() --------------------------------------------------

TEST(AggregationPrint, Quantize) {
    AggregationSnapshot snapshot = snapshot_of(quantize);
    for (int64_t v : {1, 1, 2, 3})
        record(snapshot, {}, v);
    EXPECT_EQ(format_printa(snapshot, {}),
              "\n"
              "\n"
              "           value  ------------- Distribution ------------- count    \n"
              "               0 |                                         0        \n"
              "               1 |@@@@@@@@@@@@@@@@@@@@                     2        \n"
              "               2 |@@@@@@@@@@@@@@@@@@@@                     2        \n"
              "               4 |                                         0        \n"
              "\n");
}

TEST(AggregationPrint, QuantizeCountsAreNormalizedButBarsAreNot) {
    std::vector<int64_t> data = initial_data(quantize);
    for (int64_t v : {1, 1, 2, 2})
        update(quantize, data, v);
    EXPECT_EQ(format_value(quantize, data, 2),
              "\n"
              "           value  ------------- Distribution ------------- count    \n"
              "               0 |                                         0        \n"
              "               1 |@@@@@@@@@@@@@@@@@@@@                     1        \n"
              "               2 |@@@@@@@@@@@@@@@@@@@@                     1        \n"
              "               4 |                                         0        \n");
}

TEST(AggregationPrint, EmptyQuantizeShowsTheBucketsAroundZero) {
    EXPECT_EQ(format_value(quantize, initial_data(quantize)),
              "\n"
              "           value  ------------- Distribution ------------- count    \n"
              "              -1 |                                         0        \n"
              "               0 |                                         0        \n"
              "               1 |                                         0        \n");
}

TEST(AggregationPrint, QuantizeOfNegativeAndPositiveValues) {
    std::vector<int64_t> data = initial_data(quantize);
    update(quantize, data, -3);
    update(quantize, data, 0);
    update(quantize, data, 5, 2);
    EXPECT_EQ(format_value(quantize, data),
              "\n"
              "           value  ------------- Distribution ------------- count    \n"
              "              -4 |                                         0        \n"
              "              -2 |@@@@@@@@@@                               1        \n"
              "              -1 |                                         0        \n"
              "               0 |@@@@@@@@@@                               1        \n"
              "               1 |                                         0        \n"
              "               2 |                                         0        \n"
              "               4 |@@@@@@@@@@@@@@@@@@@@                     2        \n"
              "               8 |                                         0        \n");
}

TEST(AggregationPrint, QuantizeTopBucketAndWideLabels) {
    // dtrace itself treats a quantize() whose only count is in the top bucket as
    // empty; dtx shows it.
    std::vector<int64_t> data = initial_data(quantize);
    update(quantize, data, int64_max);
    EXPECT_EQ(format_value(quantize, data),
              "\n"
              "           value  ------------- Distribution ------------- count    \n"
              "2305843009213693952 |                                         0        \n"
              "4611686018427387904 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n");
}

TEST(AggregationPrint, QuantizeWithNegativeCountsDrawsHalfBars) {
    std::vector<int64_t> data = initial_data(quantize);
    update(quantize, data, 1, -2);
    update(quantize, data, 4, 1);
    EXPECT_EQ(format_value(quantize, data),
              "\n"
              "           value  ------------- Distribution ------------- count    \n"
              "               0                     |                     0        \n"
              "               1        @@@@@@@@@@@@@|                     -2       \n"
              "               2                     |                     0        \n"
              "               4                     |@@@@@@@              1        \n"
              "               8                     |                     0        \n");
}

TEST(AggregationPrint, KeyedQuantizePrintsTheKeyOnItsOwnLine) {
    AggregationSnapshot snapshot = snapshot_of(quantize);
    record(snapshot, {KeyField::signed_integer(195, 4)}, 1);
    EXPECT_EQ(format_printa(snapshot, {}),
              "\n"
              "      195\n"
              "           value  ------------- Distribution ------------- count    \n"
              "               0 |                                         0        \n"
              "               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
              "               2 |                                         0        \n"
              "\n");
}

TEST(AggregationPrint, Lquantize) {
    const AggregationFunction f = lquantize_function(0, 10, 2);
    std::vector<int64_t> data = initial_data(f);
    update(f, data, -1);
    update(f, data, 3, 3);
    update(f, data, 12, 4);
    EXPECT_EQ(format_value(f, data),
              "\n"
              "           value  ------------- Distribution ------------- count    \n"
              "             < 0 |@@@@@                                    1        \n"
              "               0 |                                         0        \n"
              "               2 |@@@@@@@@@@@@@@@                          3        \n"
              "               4 |                                         0        \n"
              "               6 |                                         0        \n"
              "               8 |                                         0        \n"
              "           >= 10 |@@@@@@@@@@@@@@@@@@@@                     4        \n");
}

TEST(AggregationPrint, EmptyLquantizeShowsTheFirstThreeBuckets) {
    const AggregationFunction f = lquantize_function(0, 10, 2);
    EXPECT_EQ(format_value(f, initial_data(f)),
              "\n"
              "           value  ------------- Distribution ------------- count    \n"
              "             < 0 |                                         0        \n"
              "               0 |                                         0        \n"
              "               2 |                                         0        \n");
}

// --- printing: llquantize() (expected texts from tst.llquantize_basic.r) ---------------------

std::string llquantize_printed(const AggregationFunction &f,
                               const std::vector<std::pair<int64_t, int64_t>> &values) {
    std::vector<int64_t> data = initial_data(f);
    for (const auto &[value, increment] : values)
        update(f, data, value, increment);
    return format_value(f, data);
}

constexpr const char *histogram_header =
    "\n           value  ------------- Distribution ------------- count    \n";

TEST(AggregationPrint, LlquantizeWithFewerStepsThanFactor) {
    std::vector<std::pair<int64_t, int64_t>> values;
    for (int64_t v :
         {-20, -16, -12, -8, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 20})
        values.emplace_back(v, 100 + v);
    EXPECT_EQ(llquantize_printed(llquantize_function(4, 0, 1, 2), values),
              std::string(histogram_header) +
                  "          <= -16 |@@@                                      164      \n"
                  "              -8 |@@@                                      180      \n"
                  "              -4 |@@@@@                                    285      \n"
                  "              -2 |@@@@                                     195      \n"
                  "              -1 |@@                                       99       \n"
                  "               0 |@@                                       100      \n"
                  "               1 |@@                                       101      \n"
                  "               2 |@@@@                                     205      \n"
                  "               4 |@@@@@@                                   315      \n"
                  "               8 |@@@@                                     220      \n"
                  "           >= 16 |@@@@                                     236      \n");
}

TEST(AggregationPrint, LlquantizeShowsAnEmptyBucketBeyondEachEnd) {
    EXPECT_EQ(llquantize_printed(llquantize_function(2, 0, 1, 2), {{-3, 1}, {3, 1}}),
              std::string(histogram_header) +
                  "           <= -4 |                                         0        \n"
                  "              -2 |@@@@@@@@@@@@@@@@@@@@                     1        \n"
                  "              -1 |                                         0        \n"
                  "               0 |                                         0        \n"
                  "               1 |                                         0        \n"
                  "               2 |@@@@@@@@@@@@@@@@@@@@                     1        \n"
                  "            >= 4 |                                         0        \n");
}

TEST(AggregationPrint, LlquantizeEndsNeverFallOnUnusedBuckets) {
    EXPECT_EQ(llquantize_printed(llquantize_function(2, 0, 1, 4), {{-1, 1}, {1, 1}}),
              std::string(histogram_header) +
                  "              -2 |                                         0        \n"
                  "              -1 |@@@@@@@@@@@@@@@@@@@@                     1        \n"
                  "               0 |                                         0        \n"
                  "               1 |@@@@@@@@@@@@@@@@@@@@                     1        \n"
                  "               2 |                                         0        \n");
    EXPECT_EQ(llquantize_printed(llquantize_function(2, 0, 1, 4), {{0, 1}, {0, -1}}),
              std::string(histogram_header) +
                  "               0 |                                         0        \n"
                  "               1 |                                         0        \n"
                  "               2 |                                         0        \n");
}

TEST(AggregationPrint, LlquantizeNegativeCounts) {
    EXPECT_EQ(llquantize_printed(llquantize_function(2, 0, 1, 2), {{2, -1}}),
              std::string(histogram_header) +
                  "               1                                         | 0        \n"
                  "               2 @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@| -1       \n"
                  "            >= 4                                         | 0        \n");
    EXPECT_EQ(llquantize_printed(llquantize_function(2, 0, 1, 2), {{1, 1}, {2, -1}}),
              std::string(histogram_header) +
                  "               0                     |                     0        \n"
                  "               1                     |@@@@@@@@@@           1        \n"
                  "               2           @@@@@@@@@@|                     -1       \n"
                  "            >= 4                     |                     0        \n");
}

TEST(AggregationPrint, LlquantizeUnderflowLabelWithALowMagnitude) {
    const AggregationFunction f = llquantize_function(10, 1, 1, 10);
    EXPECT_EQ(llquantize_printed(f, {{-25, 1}, {-5, 2}, {15, 1}}),
              std::string(histogram_header) +
                  "             -30 |                                         0        \n"
                  "             -20 |@@@@@@@@@@                               1        \n"
                  "             -10 |                                         0        \n"
                  "      abs() < 10 |@@@@@@@@@@@@@@@@@@@@                     2        \n"
                  "              10 |@@@@@@@@@@                               1        \n"
                  "              20 |                                         0        \n");
    EXPECT_EQ(llquantize_printed(f, {{15, 1}}),
              std::string(histogram_header) +
                  "            < 10 |                                         0        \n"
                  "              10 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 1        \n"
                  "              20 |                                         0        \n");
}

} // namespace

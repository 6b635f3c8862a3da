#include "libtrace/aggregation_print.h"

#include "libtrace/print_value.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <utility>
#include <vector>

namespace dtx::trace {

namespace {

constexpr int label_width = 16;
constexpr unsigned bar_width = 40;

[[gnu::format(printf, 1, 2)]] std::string format(const char *pattern, ...) {
    va_list arguments;
    va_start(arguments, pattern);
    va_list copy;
    va_copy(copy, arguments);
    const int length = std::vsnprintf(nullptr, 0, pattern, copy);
    va_end(copy);
    std::string text(static_cast<size_t>(length), '\0');
    std::vsnprintf(text.data(), text.size() + 1, pattern, arguments);
    va_end(arguments);
    return text;
}

std::string name_of(const KeyField &field, uint64_t address,
                    const AggregationPrintOptions &options) {
    if (options.name_address)
        return options.name_address(field, address);
    return format("0x%" PRIx64, address);
}

// One bucket as shown: label and count (an unused llquantize bucket has no label
// and is skipped).
struct HistogramRow {
    std::string label;
    int64_t count = 0;
};

// The bar and count of one bucket, after its label. Bars are sized from the raw
// counts against the total of the shown buckets, rounded to the nearest column.
std::string bar_line(int64_t count, uint64_t normal, long double total, bool positives,
                     bool negatives) {
    const std::string count_text = format(" %-9" PRId64 "\n", normalized_value(count, normal));
    const auto columns = [&](unsigned width) {
        if (total == 0)
            return 0u;
        const long double absolute =
            count < 0 ? -static_cast<long double>(count) : static_cast<long double>(count);
        return static_cast<unsigned>(absolute * width / total + 0.5L);
    };
    if (!negatives) {
        const unsigned depth = positives ? columns(bar_width) : 0;
        return "|" + std::string(depth, '@') + std::string(bar_width - depth, ' ') + count_text;
    }
    if (!positives) {
        const unsigned depth = columns(bar_width);
        return std::string(bar_width - depth, ' ') + std::string(depth, '@') + "|" + count_text;
    }
    // Both signs: half-width bars, negative ones left of the centre line.
    const unsigned half = bar_width / 2;
    const unsigned depth = columns(half);
    if (count <= 0)
        return std::string(half - depth, ' ') + std::string(depth, '@') + "|" +
               std::string(half, ' ') + count_text;
    return std::string(half, ' ') + "|" + std::string(depth, '@') + std::string(half - depth, ' ') +
           count_text;
}

std::string render_histogram(const std::vector<HistogramRow> &rows, uint64_t normal) {
    bool positives = false;
    bool negatives = false;
    long double total = 0;
    for (const HistogramRow &row : rows) {
        positives |= row.count > 0;
        negatives |= row.count < 0;
        total += row.count < 0 ? -static_cast<long double>(row.count)
                               : static_cast<long double>(row.count);
    }
    std::string text = format("\n%*s %41s %-9s\n", label_width, "value",
                              "------------- Distribution -------------", "count");
    for (const HistogramRow &row : rows) {
        if (row.label.empty())
            continue;
        text += format("%*s ", label_width, row.label.c_str());
        text += bar_line(row.count, normal, total, positives, negatives);
    }
    return text;
}

// The buckets to show: from one below the lowest non-empty bucket to one above
// the highest, or `if_empty` when every bucket is empty.
std::pair<size_t, size_t> shown_range(std::span<const int64_t> data,
                                      std::pair<size_t, size_t> if_empty) {
    size_t first = 0;
    while (first < data.size() && data[first] == 0)
        first++;
    if (first == data.size())
        return if_empty;
    size_t last = data.size() - 1;
    while (data[last] == 0)
        last--;
    return {first > 0 ? first - 1 : first, last + 1 < data.size() ? last + 1 : last};
}

std::string format_quantize(std::span<const int64_t> data, uint64_t normal) {
    const auto [first, last] =
        shown_range(data, {quantize_zero_bucket - 1, quantize_zero_bucket + 1});
    std::vector<HistogramRow> rows;
    for (size_t bucket = first; bucket <= last; bucket++)
        rows.push_back({format("%" PRId64, quantize_bucket_value(bucket)), data[bucket]});
    return render_histogram(rows, normal);
}

std::string format_lquantize(const LinearBuckets &buckets, std::span<const int64_t> data,
                             uint64_t normal) {
    const auto [first, last] = shown_range(data, {0, 2});
    const int64_t top = int64_t{buckets.lower} + int64_t{buckets.levels} * buckets.step;
    std::vector<HistogramRow> rows;
    for (size_t bucket = first; bucket <= last; bucket++) {
        std::string label;
        if (bucket == 0)
            label = format("< %d", buckets.lower);
        else if (bucket == data.size() - 1)
            label = format(">= %" PRId64, top);
        else
            label = format("%" PRId64, int64_t{buckets.lower} +
                                           static_cast<int64_t>(bucket - 1) * buckets.step);
        rows.push_back({std::move(label), data[bucket]});
    }
    return render_histogram(rows, normal);
}

std::string format_llquantize(const LogLinearBuckets &buckets, std::span<const int64_t> data,
                              uint64_t normal) {
    const LogLinearLayout layout = log_linear_layout(buckets);
    const size_t zero = layout.zero_bucket;
    // An empty llquantize() shows the buckets around zero + 1, not around zero.
    // Not a structured binding: the lambdas below capture `first`, which
    // clang before 16 (the fuzz build's) refuses for a binding.
    const std::pair<size_t, size_t> shown = shown_range(data, {zero, zero + 2});
    const size_t first = shown.first, last = shown.second;
    const uint64_t magnitude_floor = layout.positive_lower_bounds.front();
    const uint64_t overflow_bound = layout.positive_lower_bounds.back();
    const auto label_of = [&](size_t bucket) -> std::string {
        if (bucket >= layout.bucket_count)
            return {};
        if (bucket == 0)
            return format("<= -%" PRIu64, overflow_bound);
        if (bucket == layout.bucket_count - 1)
            return format(">= %" PRIu64, overflow_bound);
        if (bucket == zero) {
            if (magnitude_floor == 1)
                return "0";
            // "abs()" only when negative buckets are on show.
            return format(first >= zero ? "< %" PRIu64 : "abs() < %" PRIu64, magnitude_floor);
        }
        const uint64_t bound = bucket > zero ? layout.positive_lower_bounds[bucket - zero - 1]
                                             : layout.positive_lower_bounds[zero - bucket - 1];
        if (bound == 0)
            return {};
        return format(bucket > zero ? "%" PRIu64 : "-%" PRIu64, bound);
    };
    // When an end of the range falls on an unused bucket (possible when the low
    // magnitude is 0 and steps > factor), it borrows the label of the nearest used
    // bucket further out, so the histogram still shows an empty row at each end.
    const size_t gap = buckets.steps / buckets.factor;
    const auto end_label = [&](size_t bucket, bool below) {
        std::string label = label_of(bucket);
        for (size_t distance = 1; label.empty() && distance < gap; distance++) {
            if (below && distance > bucket)
                break;
            label = label_of(below ? bucket - distance : bucket + distance);
        }
        return label;
    };
    std::vector<HistogramRow> rows;
    for (size_t bucket = first; bucket <= last; bucket++) {
        std::string label = bucket == first  ? end_label(bucket, true)
                            : bucket == last ? end_label(bucket, false)
                                             : label_of(bucket);
        rows.push_back({std::move(label), data[bucket]});
    }
    return render_histogram(rows, normal);
}

// A frame of a folded line: ';' separates frames and a line ends the stack.
std::string folded_frame(std::string text) {
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == ';' || c == '\n'; }, '_');
    return text;
}

bool has_stack(const AggregationKey &key) {
    return std::any_of(key.begin(), key.end(),
                       [](const KeyField &field) { return field.kind == KeyFieldKind::Stack; });
}

// A key field as a frame of a folded line: its text without padding.
std::string folded_field(const KeyField &field, const AggregationPrintOptions &options) {
    switch (field.kind) {
    case KeyFieldKind::Stack:
        return folded_stack(field, options);
    case KeyFieldKind::Integer:
        return field.width < 4 ? std::to_string(field.bits)
                               : std::to_string(field.width == 4 ? int64_t(int32_t(field.bits))
                                                                 : int64_t(field.bits));
    case KeyFieldKind::String:
        return folded_frame(field.text);
    case KeyFieldKind::Symbol:
        return folded_frame(field.text.empty() ? name_of(field, field.addresses.front(), options)
                                               : field.text);
    case KeyFieldKind::Bytes: {
        // As format_key_field() shows it, without its padding.
        std::string text = format_key_field(field, options);
        const size_t start = text.find_first_not_of(' ');
        const size_t end = text.find_last_not_of(' ');
        return folded_frame(start == std::string::npos ? "" : text.substr(start, end - start + 1));
    }
    }
    return {};
}

// stackformat=folded: the key's fields as frames, then each value.
std::string format_folded_row(const AggregationKey &key,
                              std::span<const AggregationSnapshot *const> aggregations,
                              std::span<const std::vector<int64_t>> data,
                              const AggregationPrintOptions &options) {
    std::string text;
    for (const KeyField &field : key)
        text += (text.empty() ? "" : ";") + folded_field(field, options);
    for (size_t i = 0; i < aggregations.size(); i++) {
        const AggregationFunction &function = aggregations[i]->function;
        if (is_histogram(function.kind))
            text += format_value(function, data[i], aggregations[i]->normal);
        else if (function.kind == AggregationKind::Stddev)
            text += " " + std::to_string(stddev_value(data[i], aggregations[i]->normal));
        else
            text += " " + std::to_string(scalar_value(function, data[i], aggregations[i]->normal));
    }
    return text + "\n";
}

std::string format_row(const AggregationKey &key,
                       std::span<const AggregationSnapshot *const> aggregations,
                       std::span<const std::vector<int64_t>> data,
                       const AggregationPrintOptions &options) {
    if (options.stack_format == StackFormat::Folded && has_stack(key))
        return format_folded_row(key, aggregations, data, options);
    std::string text;
    for (const KeyField &field : key)
        text += format_key_field(field, options);
    for (size_t i = 0; i < aggregations.size(); i++)
        text += format_value(aggregations[i]->function, data[i], aggregations[i]->normal);
    return text + "\n";
}

std::string format_rows(const AggregationSnapshot &aggregation,
                        const AggregationPrintOptions &options) {
    const AggregationSnapshot *const columns[] = {&aggregation};
    std::string text;
    for (const AggregationEntry *entry : sorted_entries(aggregation, options.sort))
        text += format_row(entry->first, columns, std::span(&entry->second, 1), options);
    return text;
}

// The blank line printa() writes first, which folded stacks go without.
std::string printa_start(const AggregationPrintOptions &options) {
    return options.stack_format == StackFormat::Folded ? "" : "\n";
}

} // namespace

std::string format_key_field(const KeyField &field, const AggregationPrintOptions &options) {
    switch (field.kind) {
    case KeyFieldKind::Integer:
        // By size only, as dtrace does: small integers show their unsigned bits.
        switch (field.width) {
        case 1:
        case 2:
            return format(field.width == 1 ? " %3u" : " %5u", static_cast<unsigned>(field.bits));
        case 4:
            return format(" %8d", static_cast<int32_t>(static_cast<uint32_t>(field.bits)));
        default:
            return format(" %16" PRId64, static_cast<int64_t>(field.bits));
        }
    case KeyFieldKind::String:
        return format("  %-50s", field.text.c_str());
    case KeyFieldKind::Bytes: {
        // As dtrace prints memory: a string if it holds one, else a hex dump.
        const size_t end = field.text.find('\0');
        const std::string text = field.text.substr(0, end);
        const bool string =
            !text.empty() && field.text.find_first_not_of('\0', text.size()) == std::string::npos &&
            std::all_of(text.begin(), text.end(),
                        [](char c) { return std::isprint(static_cast<unsigned char>(c)); });
        if (string)
            return format("  %-50s", text.c_str());
        return format_bytes(std::as_bytes(std::span(field.text.data(), field.text.size())),
                            field.text.size());
    }
    case KeyFieldKind::Symbol: {
        // The consumer names function and module keys when it reads them.
        const std::string name =
            field.text.empty() ? name_of(field, field.addresses.front(), options) : field.text;
        return format("  %-50s", name.c_str());
    }
    case KeyFieldKind::Stack: {
        if (options.stack_format == StackFormat::Folded)
            return "\n" + folded_stack(field, options) + "\n";
        std::string text = "\n";
        for (const uint64_t address : field.addresses) {
            if (address == 0)
                break;
            text +=
                std::string(options.stack_indent, ' ') + name_of(field, address, options) + "\n";
        }
        return text;
    }
    }
    return {};
}

std::string folded_stack(const KeyField &stack, const AggregationPrintOptions &options) {
    const auto end = std::find(stack.addresses.begin(), stack.addresses.end(), 0);
    std::string text;
    for (auto frame = std::make_reverse_iterator(end); frame != stack.addresses.rend(); ++frame)
        text += (text.empty() ? "" : ";") + folded_frame(name_of(stack, *frame, options));
    return text.empty() ? "[empty]" : text;
}

std::string format_value(const AggregationFunction &function, std::span<const int64_t> data,
                         uint64_t normal) {
    switch (function.kind) {
    case AggregationKind::Quantize:
        return format_quantize(data, normal);
    case AggregationKind::Lquantize:
        return format_lquantize(function.linear, data, normal);
    case AggregationKind::Llquantize:
        return format_llquantize(function.log_linear, data, normal);
    case AggregationKind::Stddev:
        return format(" %16" PRIu64, stddev_value(data, normal));
    default:
        return format(" %16" PRId64, scalar_value(function, data, normal));
    }
}

std::string format_printa(const AggregationSnapshot &aggregation,
                          const AggregationPrintOptions &options) {
    return printa_start(options) + format_rows(aggregation, options);
}

std::string format_printa(std::span<const AggregationSnapshot *const> aggregations,
                          const AggregationPrintOptions &options) {
    std::string text = printa_start(options);
    for (const JoinedRow &row : join_aggregations(aggregations, options.sort))
        text += format_row(*row.key, aggregations, row.data, options);
    return text;
}

std::string format_aggregations_at_exit(std::span<const AggregationSnapshot> aggregations,
                                        const AggregationPrintOptions &options) {
    std::string text;
    for (size_t i = 0; i < aggregations.size(); i++) {
        const size_t position = options.sort.reverse ? aggregations.size() - 1 - i : i;
        text += format_rows(aggregations[position], options);
    }
    return text;
}

} // namespace dtx::trace

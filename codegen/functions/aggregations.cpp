// Aggregating functions (count() ... llquantize()), each with the update of
// one key's data words in the layouts of libtrace/aggregation.h, and the
// actions on aggregations: printa(), clear(), trunc(), normalize(),
// denormalize(), which the consumer performs on its snapshot of the
// aggregation when their record arrives, as dtrace's consumer does.
#include "codegen/checker.h"
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"
#include "libtrace/consumer.h"

#include <llvm/IR/Intrinsics.h>

namespace dtx::sema {

namespace {

using codegen::AggregationUpdate;
using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;
using trace::ActionDescription;
using trace::AggregationKind;
using trace::Consumer;

// --- updates -------------------------------------------------------------------

llvm::Value *word(FunctionBuilder &l, const AggregationUpdate &u, uint64_t i) {
    return l.at(u.words, i * 8);
}

void add_to(FunctionBuilder &l, const AggregationUpdate &u, uint64_t i, llvm::Value *v) {
    l.store64(l.ir().CreateAdd(l.load64(word(l, u, i)), v), word(l, u, i));
}

void update_count(FunctionBuilder &l, const AggregationUpdate &u) {
    add_to(l, u, 0, l.const64(1));
}

void update_sum(FunctionBuilder &l, const AggregationUpdate &u) {
    add_to(l, u, 0, u.value);
}

void update_avg(FunctionBuilder &l, const AggregationUpdate &u) {
    add_to(l, u, 0, l.const64(1));
    add_to(l, u, 1, u.value);
}

// The word is kept XORed with the identity (trace::convert_kernel_words).
void update_extreme(FunctionBuilder &l, const AggregationUpdate &u, bool minimum) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *bias = l.const64(minimum ? uint64_t(INT64_MAX) : uint64_t(INT64_MIN));
    llvm::Value *current = ir.CreateXor(l.load64(word(l, u, 0)), bias);
    llvm::Value *better =
        minimum ? ir.CreateICmpSLT(u.value, current) : ir.CreateICmpSGT(u.value, current);
    l.store64(ir.CreateXor(ir.CreateSelect(better, u.value, current), bias), word(l, u, 0));
}

void update_min(FunctionBuilder &l, const AggregationUpdate &u) {
    update_extreme(l, u, true);
}

void update_max(FunctionBuilder &l, const AggregationUpdate &u) {
    update_extreme(l, u, false);
}

void update_stddev(FunctionBuilder &l, const AggregationUpdate &u) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *value = u.value;
    llvm::Value *zero64 = l.const64(0);
    add_to(l, u, 0, l.const64(1));
    add_to(l, u, 1, value);
    // Add |value|^2 to the 128-bit sum of squares in words 2 (low) and 3
    // (high), from 32-bit halves: BPF has no 128-bit multiply.
    llvm::Value *magnitude =
        ir.CreateSelect(ir.CreateICmpSLT(value, zero64), ir.CreateSub(zero64, value), value);
    llvm::Value *lo = ir.CreateAnd(magnitude, l.const64(0xffffffff));
    llvm::Value *hi = ir.CreateLShr(magnitude, 32);
    llvm::Value *lo_lo = ir.CreateMul(lo, lo);
    llvm::Value *hi_lo = ir.CreateMul(hi, lo);
    llvm::Value *hi_hi = ir.CreateMul(hi, hi);
    llvm::Value *cross_top = ir.CreateLShr(hi_lo, 63); // bit 64 of 2*hi*lo
    llvm::Value *cross = ir.CreateShl(hi_lo, 1);
    llvm::Value *low = ir.CreateAdd(lo_lo, ir.CreateShl(cross, 32));
    llvm::Value *carry = ir.CreateZExt(ir.CreateICmpULT(low, lo_lo), l.i64());
    llvm::Value *high = ir.CreateAdd(ir.CreateAdd(hi_hi, ir.CreateLShr(cross, 32)),
                                     ir.CreateAdd(ir.CreateShl(cross_top, 32), carry));
    llvm::Value *old_low = l.load64(word(l, u, 2));
    llvm::Value *new_low = ir.CreateAdd(old_low, low);
    llvm::Value *carry2 = ir.CreateZExt(ir.CreateICmpULT(new_low, old_low), l.i64());
    l.store64(new_low, word(l, u, 2));
    l.store64(ir.CreateAdd(l.load64(word(l, u, 3)), ir.CreateAdd(high, carry2)), word(l, u, 3));
}

// Adds the increment to `bucket`, which the verifier must see bounded before
// it indexes the words.
void add_to_bucket(FunctionBuilder &l, const AggregationUpdate &u, llvm::Value *bucket) {
    llvm::IRBuilder<> &ir = l.ir();
    bucket = l.opaque(bucket);
    auto *in_range =
        llvm::BasicBlock::Create(ir.getContext(), "agg_bucket", ir.GetInsertBlock()->getParent());
    uint64_t bucket_count = trace::data_word_count(u.description.function);
    ir.CreateCondBr(ir.CreateICmpULT(bucket, l.const64(bucket_count)), in_range, u.done);
    ir.SetInsertPoint(in_range);
    llvm::Value *address = l.at(u.words, ir.CreateShl(bucket, 3));
    l.store64(ir.CreateAdd(l.load64(address), u.increment), address);
}

void update_quantize(FunctionBuilder &l, const AggregationUpdate &u) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Value *value = u.value, *zero64 = l.const64(0);
    llvm::Value *negative = ir.CreateICmpSLT(value, zero64);
    llvm::Value *magnitude = ir.CreateSelect(negative, ir.CreateSub(zero64, value), value);
    llvm::Value *leading =
        ir.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, magnitude, ir.getFalse());
    llvm::Value *bits = ir.CreateSub(l.const64(64), leading);
    llvm::Value *capped =
        ir.CreateSelect(ir.CreateICmpUGT(bits, l.const64(63)), l.const64(63), bits);
    llvm::Value *zero_bucket = l.const64(trace::quantize_zero_bucket);
    add_to_bucket(l, u,
                  ir.CreateSelect(ir.CreateICmpEQ(value, zero64), zero_bucket,
                                  ir.CreateSelect(negative, ir.CreateSub(zero_bucket, capped),
                                                  ir.CreateAdd(zero_bucket, bits))));
}

void update_lquantize(FunctionBuilder &l, const AggregationUpdate &u) {
    llvm::IRBuilder<> &ir = l.ir();
    const trace::LinearBuckets &lb = u.description.function.linear;
    llvm::Value *lower_bound = l.const64(uint64_t(int64_t(lb.lower)));
    llvm::Value *level = ir.CreateUDiv(ir.CreateSub(u.value, lower_bound), l.const64(lb.step));
    level =
        ir.CreateSelect(ir.CreateICmpUGT(level, l.const64(lb.levels)), l.const64(lb.levels), level);
    add_to_bucket(l, u,
                  ir.CreateSelect(ir.CreateICmpSLT(u.value, lower_bound), l.const64(0),
                                  ir.CreateAdd(level, l.const64(1))));
}

uint64_t power(uint64_t base, unsigned exponent) {
    uint64_t result = 1;
    while (exponent--)
        result *= base;
    return result;
}

// The bucket by magnitude, lowest first, each test a branch: only the
// matching magnitude's arithmetic runs, and LLVM does not compute every
// magnitude's bucket ahead of a chain of selects, which kept them all live
// and, with a few llquantize() of many magnitudes in one clause, spilled past
// the 512 bytes of BPF stack.
void update_llquantize(FunctionBuilder &l, const AggregationUpdate &u) {
    llvm::IRBuilder<> &ir = l.ir();
    llvm::Function *function = ir.GetInsertBlock()->getParent();
    const trace::LogLinearBuckets &b = u.description.function.log_linear;
    const uint64_t factor = b.factor, steps = b.steps;
    const uint64_t per_magnitude = steps - steps / factor;
    const uint64_t zero_bucket =
        1 + uint64_t(b.high_magnitude - b.low_magnitude + 1) * per_magnitude;
    llvm::Value *zero64 = l.const64(0);
    llvm::Value *negative = ir.CreateICmpSLT(u.value, zero64);
    llvm::Value *magnitude = ir.CreateSelect(negative, ir.CreateSub(zero64, u.value), u.value);

    auto *found = llvm::BasicBlock::Create(ir.getContext(), "llq_bucket", function);
    std::vector<std::pair<llvm::Value *, llvm::BasicBlock *>> buckets;
    // Goes to `found` with `bucket` if magnitude < limit, else on.
    auto below = [&](uint64_t limit, const std::function<llvm::Value *()> &bucket) {
        auto *in = llvm::BasicBlock::Create(ir.getContext(), "llq_in", function);
        auto *on = llvm::BasicBlock::Create(ir.getContext(), "llq_on", function);
        ir.CreateCondBr(ir.CreateICmpULT(magnitude, l.const64(limit)), in, on);
        ir.SetInsertPoint(in);
        buckets.emplace_back(bucket(), ir.GetInsertBlock());
        ir.CreateBr(found);
        ir.SetInsertPoint(on);
    };
    below(power(factor, b.low_magnitude), [&] { return l.const64(zero_bucket); });
    uint64_t offset = 1;
    for (unsigned m = b.low_magnitude; m <= b.high_magnitude; m++, offset += per_magnitude) {
        const uint64_t ceiling = power(factor, m + 1);
        below(ceiling, [&]() -> llvm::Value * {
            llvm::Value *slice;
            if (ceiling % steps == 0)
                slice = ir.CreateUDiv(magnitude, l.const64(ceiling / steps));
            else if (steps % ceiling == 0)
                slice = ir.CreateMul(magnitude, l.const64(steps / ceiling));
            else
                slice =
                    ir.CreateUDiv(ir.CreateMul(magnitude, l.const64(steps)), l.const64(ceiling));
            llvm::Value *in_magnitude =
                ir.CreateAdd(ir.CreateSub(slice, l.const64(steps / factor)), l.const64(offset));
            return ir.CreateSelect(negative, ir.CreateSub(l.const64(zero_bucket), in_magnitude),
                                   ir.CreateAdd(l.const64(zero_bucket), in_magnitude));
        });
    }
    // At or above factor^(high+1): the outermost buckets.
    buckets.emplace_back(ir.CreateSelect(negative, zero64, l.const64(2 * zero_bucket)),
                         ir.GetInsertBlock());
    ir.CreateBr(found);
    ir.SetInsertPoint(found);
    llvm::PHINode *bucket = ir.CreatePHI(l.i64(), unsigned(buckets.size()));
    for (auto [value, block] : buckets)
        bucket->addIncoming(value, block);
    add_to_bucket(l, u, bucket);
}

// --- shapes ---------------------------------------------------------------------

template <AggregationKind kind>
trace::AggregationFunction plain(std::span<const int64_t>) {
    return trace::plain_function(kind);
}

trace::AggregationFunction lquantize_shape(std::span<const int64_t> p) {
    return trace::lquantize_function(int32_t(p[0]), int32_t(p[1]),
                                     uint16_t(p.size() > 2 ? p[2] : 1));
}

trace::AggregationFunction llquantize_shape(std::span<const int64_t> p) {
    return trace::llquantize_function(uint16_t(p[0]), uint16_t(p[1]), uint16_t(p[2]),
                                      uint16_t(p[3]));
}

// --- type rules -------------------------------------------------------------------

// lquantize(value, lower, upper [, step [, increment]]): the bounds and step
// are constants that fix the histogram's buckets.
bool check_lquantize(CallCheck &check) {
    Checker &c = check.checker;
    ast::Call &call = check.call;
    const size_t given = call.arguments.size();
    if (given < 3 || given > 5) {
        c.error("D_PROTO_LEN", call.range,
                "lquantize() takes 3 to 5 arguments, " + std::to_string(given) + " given")
            .hints.push_back("prototype: void lquantize(@, int32_t lower, int32_t upper, "
                             "[int32_t step], [int64_t increment])");
        for (ast::ExprPtr &arg : call.arguments)
            c.check(*arg);
        return false;
    }
    c.check(*call.arguments[0]);
    auto parameter = [&](const ConstantParameter &p) {
        return c.constant_parameter(call, p, "lquantize()", INT32_MIN, INT32_MAX,
                                    "a constant 32-bit integer");
    };
    std::optional<int64_t> lower =
        parameter({1, "D_LQUANT_BASETYPE", "D_LQUANT_BASEVAL", "lower bound (argument #2)"});
    std::optional<int64_t> upper =
        parameter({2, "D_LQUANT_LIMTYPE", "D_LQUANT_LIMVAL", "upper bound (argument #3)"});
    std::optional<int64_t> step = int64_t(1);
    if (given >= 4)
        step = parameter({3, "D_LQUANT_STEPTYPE", "D_LQUANT_STEPVAL", "step (argument #4)"});
    if (given == 5) {
        const Type *increment = c.check(*call.arguments[4]);
        if (increment && !is_integer(increment))
            c.error("D_PROTO_ARG", call.arguments[4]->range,
                    "lquantize() increment (argument #5) must be an integer, not " +
                        Checker::quote(increment));
    }
    if (!lower || !upper || !step)
        return false;
    if (*upper <= *lower) {
        c.error("D_LQUANT_MISMATCH", call.arguments[2]->range,
                "lquantize() upper bound " + std::to_string(*upper) +
                    " must be greater than the lower bound " + std::to_string(*lower));
        return false;
    }
    const ast::Expr &step_at = given >= 4 ? *call.arguments[3] : call;
    if (*step <= 0 || *step > UINT16_MAX) {
        c.error("D_LQUANT_STEPVAL", step_at.range,
                "lquantize() step must be between 1 and 65535, not " + std::to_string(*step));
        return false;
    }
    if (*step > *upper - *lower) {
        c.error("D_LQUANT_STEPLARGE", step_at.range,
                "lquantize() step " + std::to_string(*step) + " is larger than the range " +
                    std::to_string(*lower) + ".." + std::to_string(*upper));
        return false;
    }
    if ((*upper - *lower) / *step > UINT16_MAX) {
        c.error("D_LQUANT_STEPSMALL", step_at.range,
                "lquantize() step " + std::to_string(*step) + " gives more than 65535 buckets");
        return false;
    }
    static constexpr const char *kMismatch[] = {"D_LQUANT_MATCHBASE", "D_LQUANT_MATCHLIM",
                                                "D_LQUANT_MATCHSTEP"};
    check.parameters = {*lower, *upper, *step};
    check.mismatch_codes = kMismatch;
    return true;
}

// llquantize(value, factor, low magnitude, high magnitude, steps [, increment]).
bool check_llquantize(CallCheck &check) {
    Checker &c = check.checker;
    ast::Call &call = check.call;
    const size_t given = call.arguments.size();
    if (given < 5 || given > 6) {
        c.error("D_PROTO_LEN", call.range,
                "llquantize() takes 5 or 6 arguments, " + std::to_string(given) + " given")
            .hints.push_back("prototype: void llquantize(@, int32_t factor, int32_t low, "
                             "int32_t high, int32_t steps, [int64_t increment])");
        for (ast::ExprPtr &arg : call.arguments)
            c.check(*arg);
        return false;
    }
    c.check(*call.arguments[0]);
    auto parameter = [&](const ConstantParameter &p) {
        return c.constant_parameter(call, p, "llquantize()", 0, UINT16_MAX,
                                    "a constant from 0 to 65535");
    };
    std::optional<int64_t> factor =
        parameter({1, "D_LLQUANT_FACTORTYPE", "D_LLQUANT_FACTORVAL", "factor (argument #2)"});
    std::optional<int64_t> low =
        parameter({2, "D_LLQUANT_LMAGTYPE", "D_LLQUANT_LMAGVAL", "low magnitude (argument #3)"});
    std::optional<int64_t> high =
        parameter({3, "D_LLQUANT_HMAGTYPE", "D_LLQUANT_HMAGVAL", "high magnitude (argument #4)"});
    std::optional<int64_t> steps =
        parameter({4, "D_LLQUANT_STEPTYPE", "D_LLQUANT_STEPVAL", "steps (argument #5)"});
    if (given == 6) {
        const Type *increment = c.check(*call.arguments[5]);
        if (increment && !is_integer(increment))
            c.error("D_PROTO_ARG", call.arguments[5]->range,
                    "llquantize() increment (argument #6) must be an integer, not " +
                        Checker::quote(increment));
    }
    if (!factor || !low || !high || !steps)
        return false;
    if (*factor < 2) {
        c.error("D_LLQUANT_FACTORVAL", call.arguments[1]->range,
                "llquantize() factor must be at least 2");
        return false;
    }
    if (*high < *low) {
        c.error("D_LLQUANT_HMAGVAL", call.arguments[3]->range,
                "llquantize() high magnitude " + std::to_string(*high) +
                    " is below the low magnitude " + std::to_string(*low));
        return false;
    }
    // factor^(high + 1) is the top bucket's limit; it must fit in 64 bits.
    unsigned __int128 limit = 1;
    for (int64_t i = 0; i <= *high; ++i) {
        limit *= uint64_t(*factor);
        if (limit > UINT64_MAX) {
            c.error("D_LLQUANT_HMAGVAL", call.arguments[3]->range,
                    "llquantize() factor " + std::to_string(*factor) + " to the power " +
                        std::to_string(*high + 1) + " overflows 64 bits");
            return false;
        }
    }
    // Each order of magnitude is split into `steps` equal buckets.
    unsigned __int128 first_magnitude = 1;
    for (int64_t i = 0; i <= *low; ++i)
        first_magnitude *= uint64_t(*factor);
    if (*steps < 1 || (*steps % *factor != 0 && first_magnitude % uint64_t(*steps) != 0)) {
        c.error("D_LLQUANT_STEPVAL", call.arguments[4]->range,
                "llquantize() steps " + std::to_string(*steps) + " must be a multiple of factor " +
                    std::to_string(*factor) + " or divide factor^(low magnitude + 1)");
        return false;
    }
    // What remains is libtrace's bucket layout, which the code generator and
    // the consumer build with: accept nothing it rejects.
    if (std::string problem = trace::llquantize_argument_error(*factor, *low, *high, *steps);
        !problem.empty()) {
        c.error("D_LLQUANT_STEPVAL", call.arguments[4]->range, problem);
        return false;
    }
    static constexpr const char *kMismatch[] = {"D_LLQUANT_MATCHFACTOR", "D_LLQUANT_MATCHLMAG",
                                                "D_LLQUANT_MATCHHMAG", "D_LLQUANT_MATCHSTEPS"};
    check.parameters = {*factor, *low, *high, *steps};
    check.mismatch_codes = kMismatch;
    return true;
}

// printa([format,] @a, ...): aggregations with the same keys, whose types the
// format's conversions must fit.
bool check_printa(CallCheck &check) {
    Checker &c = check.checker;
    ast::Call &call = check.call;
    size_t first = 0;
    const ast::StringLiteral *literal =
        call.arguments.empty() ? nullptr : call.arguments[0]->as<ast::StringLiteral>();
    if (literal) {
        call.arguments[0]->type = c.types().string_type();
        first = 1;
    }
    if (call.arguments.size() <= first) {
        c.error("D_PRINTA_PROTO", call.range, "printa() needs an aggregation")
            .hints.push_back("prototype: void printa([string format, ] @aggregation, ...)");
        return false;
    }
    std::vector<const AggregationInfo *> aggregations;
    for (size_t i = first; i < call.arguments.size(); ++i) {
        AggregationInfo *info = c.aggregation_argument(*call.arguments[i], "printa", "D_PRINTA");
        if (!info)
            return false;
        aggregations.push_back(info);
    }
    const std::vector<const Type *> &keys = aggregations[0]->key_types;
    for (size_t i = 1; i < aggregations.size(); ++i) {
        const std::vector<const Type *> &other = aggregations[i]->key_types;
        bool same = other.size() == keys.size();
        for (size_t k = 0; same && k < keys.size(); ++k)
            same = assignable(keys[k], other[k]);
        if (!same) {
            c.error("D_PRINTA_AGGPROTO", call.arguments[first + i]->range,
                    "printa() aggregations must have the same keys; @" + aggregations[i]->name +
                        "'s differ from @" + aggregations[0]->name + "'s");
            return false;
        }
    }
    if (!literal)
        return true;
    trace::FormatParseResult parsed = trace::parse_format(literal->value);
    if (!parsed.ok()) {
        c.error("D_PRINTF_FMT", literal->range, "printa() format: " + parsed.error->message);
        return false;
    }
    const bool target_bound = c.options().target_pid.has_value();
    size_t key = 0;
    bool ok = true;
    for (const trace::FormatPiece &piece : parsed.format.pieces) {
        const auto *spec = std::get_if<trace::ConversionSpec>(&piece);
        if (!spec || spec->aggregation_value)
            continue;
        const std::string conversion = "conversion #" + std::to_string(spec->number) + " '" +
                                       literal->value.substr(spec->offset, spec->length) + "'";
        if (key >= keys.size()) {
            c.error("D_PRINTA_AGGKEY", literal->range,
                    conversion + " has no key to print: @" + aggregations[0]->name + " has " +
                        count_words(keys.size(), "key"));
            return false;
        }
        const Type *type = keys[key++];
        if (!trace::argument_accepts(*spec, format_argument_type(type), target_bound)) {
            c.error("D_PRINTA_AGGKEY", literal->range,
                    "key #" + std::to_string(key) + " of @" + aggregations[0]->name + " has type " +
                        Checker::quote(type) + ", which does not fit " + conversion)
                .hints.push_back(conversion + " takes " + std::string(spec->info->prototype));
            ok = false;
        }
    }
    return ok;
}

// --- actions on aggregations --------------------------------------------------------

void consume_printa(Consumer &consumer, const ActionDescription &action,
                    std::span<const std::byte>) {
    consumer.printa(action);
}

Value lower_printa(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    ActionDescription action = l.action(call, consume_printa);
    size_t first = 0;
    if (auto *format = call.arguments.at(0)->as<ast::StringLiteral>()) {
        action.format = format->value;
        action.parsed_format = trace::parse_format(format->value).format;
        first = 1;
    }
    for (size_t i = first; i < call.arguments.size(); i++)
        action.aggregations.push_back(l.aggregation_id(*call.arguments[i]));
    return l.finish_action(state, std::move(action), call);
}

void consume_clear(Consumer &consumer, const ActionDescription &action,
                   std::span<const std::byte>) {
    consumer.clear(action.aggregations.at(0));
}

void consume_trunc(Consumer &consumer, const ActionDescription &action,
                   std::span<const std::byte> record) {
    std::optional<int64_t> keep;
    if (!action.values.empty())
        keep = consumer.read<int64_t>(record, action.values[0].offset);
    consumer.truncate(action.aggregations.at(0), keep);
}

void consume_normalize(Consumer &consumer, const ActionDescription &action,
                       std::span<const std::byte> record) {
    auto divisor = consumer.read<int64_t>(record, action.values.at(0).offset);
    if (divisor > 0)
        consumer.normalize(action.aggregations.at(0), uint64_t(divisor));
}

void consume_denormalize(Consumer &consumer, const ActionDescription &action,
                         std::span<const std::byte>) {
    consumer.normalize(action.aggregations.at(0), std::nullopt);
}

// clear(@a), trunc(@a [, n]), normalize(@a, n), denormalize(@a): the
// aggregation, and the number if there is one.
template <trace::ActionConsumer consume>
Value lower_aggregation_action(FunctionBuilder &l, const ast::Call &call, ClauseState &state,
                               bool) {
    ActionDescription action = l.action(call, consume);
    action.aggregations.push_back(l.aggregation_id(*call.arguments.at(0)));
    if (call.arguments.size() > 1)
        l.record_value(state, action, *call.arguments[1]);
    return l.finish_action(state, std::move(action), call);
}

constexpr auto A = FunctionClass::Action;
constexpr auto G = FunctionClass::Aggregating;

constexpr FunctionDescriptor kAggregations[] = {
    describe("avg", G, "void", {any()}, nullptr,
             {.shape = plain<AggregationKind::Avg>, .aggregate = update_avg}),
    describe("clear", A, "void", {aggregation()}, lower_aggregation_action<consume_clear>),
    describe("count", G, "void", {}, nullptr,
             {.shape = plain<AggregationKind::Count>, .aggregate = update_count}),
    describe("denormalize", A, "void", {aggregation()},
             lower_aggregation_action<consume_denormalize>),
    describe("llquantize", G, "void",
             {any(), integer("int32_t"), integer("int32_t"), integer("int32_t"), integer("int32_t"),
              integer("int64_t", true)},
             nullptr,
             {.check = check_llquantize,
              .shape = llquantize_shape,
              .aggregate = update_llquantize,
              .weight_argument = 5}),
    describe("lquantize", G, "void",
             {any(), integer("int32_t"), integer("int32_t"), integer("int32_t", true),
              integer("int64_t", true)},
             nullptr,
             {.check = check_lquantize,
              .shape = lquantize_shape,
              .aggregate = update_lquantize,
              .weight_argument = 4}),
    describe("max", G, "void", {any()}, nullptr,
             {.shape = plain<AggregationKind::Max>, .aggregate = update_max}),
    describe("min", G, "void", {any()}, nullptr,
             {.shape = plain<AggregationKind::Min>, .aggregate = update_min}),
    describe("normalize", A, "void", {aggregation(), integer("uint64_t")},
             lower_aggregation_action<consume_normalize>),
    describe("printa", A, "void", {}, lower_printa, {.variadic = true, .check = check_printa}),
    describe("quantize", G, "void", {any(), integer("int64_t", true)}, nullptr,
             {.shape = plain<AggregationKind::Quantize>,
              .aggregate = update_quantize,
              .weight_argument = 1}),
    describe("stddev", G, "void", {any()}, nullptr,
             {.shape = plain<AggregationKind::Stddev>, .aggregate = update_stddev}),
    describe("sum", G, "void", {any()}, nullptr,
             {.shape = plain<AggregationKind::Sum>, .aggregate = update_sum}),
    describe("trunc", A, "void", {aggregation(), integer("uint64_t", true)},
             lower_aggregation_action<consume_trunc>),
};

} // namespace

std::span<const FunctionDescriptor> aggregation_functions() {
    return kAggregations;
}

} // namespace dtx::sema

// Data-recording actions: trace(), printf(), print(), tracemem(), stack(),
// ustack(), and exit(), setopt() and ftruncate(), which the consumer performs. Each records
// its values into the clause's record; its consume function prints them when
// the consumer meets the record.
#include "codegen/checker.h"
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"
#include "libtrace/consumer.h"

#include <linux/bpf.h>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;
using trace::ActionDescription;
using trace::Consumer;

// --- trace() ------------------------------------------------------------------

void consume_trace(Consumer &consumer, const ActionDescription &action,
                   std::span<const std::byte> record) {
    consumer.output().trace(action.values.at(0), record);
}

// `size` bytes of the record as the action's next value, of `kind`; their
// address, null when the record would exceed its limit. specsize counts
// them as dtrace records memory: at an alignment of 2.
llvm::Value *reserve_bytes(FunctionBuilder &l, ClauseState &state, ActionDescription &action,
                           trace::ValueKind kind, uint32_t size) {
    trace::ValueLayout layout;
    layout.kind = kind;
    layout.size = size;
    layout.offset = l.reserve_record(state, size);
    action.values.push_back(layout);
    l.count_speculative_bytes(state, size, 2);
    return l.record_space(state, layout);
}

// trace() of memory (a struct, a union, an array) records exactly its bytes,
// as dtrace does; a char array's may print as a string (ValueKind::CharArray).
Value lower_trace(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    ActionDescription action = l.action(call, consume_trace);
    const ast::Expr &value = *call.arguments.at(0);
    const Type *t = resolve(value.type);
    if (t && t->size > 0 && (is_struct_or_union(t) || is_array(t))) {
        auto kind = is_char_array(t) ? trace::ValueKind::CharArray : trace::ValueKind::Bytes;
        if (llvm::Value *to = reserve_bytes(l, state, action, kind, uint32_t(t->size)))
            l.record_printed_value(value, uint32_t(t->size), to, state);
        return l.finish_action(state, std::move(action), call);
    }
    l.record_value(state, action, value);
    return l.finish_action(state, std::move(action), call);
}

// --- printf() -------------------------------------------------------------------

void consume_printf(Consumer &consumer, const ActionDescription &action,
                    std::span<const std::byte> record) {
    std::vector<trace::FormatArgument> arguments;
    if (std::optional<std::string> text = consumer.formatted(action, record, arguments))
        consumer.output().printf(arguments, *text);
}

Value lower_printf(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    return l.finish_action(state, l.formatted_action(call, state, consume_printf), call);
}

// --- print() ---------------------------------------------------------------------

void consume_print(Consumer &consumer, const ActionDescription &action,
                   std::span<const std::byte> record) {
    const trace::ValueLayout &layout = action.values.at(0);
    std::span<const std::byte> bytes;
    if (layout.offset < record.size())
        bytes = record.subspan(layout.offset,
                               std::min<size_t>(layout.size, record.size() - layout.offset));
    consumer.output().print(action.printed_type, bytes);
}

// print(value): any value but a stack, with every byte of it known (its
// records complete) and small enough for one record.
bool check_print(CallCheck &check) {
    Checker &c = check.checker;
    if (!c.check_arguments(check.call, check.function, 0))
        return false;
    ast::Expr &arg = *check.call.arguments[0];
    const Type *type = resolve(arg.type);
    if (!type)
        return false;
    if (type->kind == TypeKind::Stack || type->kind == TypeKind::Function) {
        c.error("D_PRINT_TYPE", arg.range,
                "print() cannot show a value of type " + Checker::quote(arg.type))
            .hints.push_back(type->kind == TypeKind::Stack ? "use stack() or ustack() as an action"
                                                           : "print a pointer to it");
        return false;
    }
    if (c.is_bit_field(arg)) {
        c.error("D_PRINT_TYPE", arg.range, "print() cannot show a bit-field; use trace()");
        return false;
    }
    c.complete_by_value(arg.type);
    if (is_struct_or_union(type) && !type->complete) {
        c.error("D_PRINT_TYPE", arg.range,
                "print() cannot show " + Checker::quote(arg.type) + ": its members are not known");
        return false;
    }
    const uint64_t size = type->size; // a string's: strsize and the NUL
    constexpr uint64_t kLargest = trace::kMaxRecordSize - trace::kRecordDataStart;
    if (size == 0 || size > kLargest) {
        c.error("D_PRINT_SIZE", arg.range,
                "print() cannot record " + Checker::quote(arg.type) + " of " +
                    std::to_string(size) + " bytes: " +
                    (size ? "a record holds at most " + std::to_string(kLargest) + " bytes"
                          : std::string("it has no bytes to show")))
            .hints.push_back(size ? "print a member of it, or a pointer to it"
                                  : "print a pointer to it");
        return false;
    }
    return true;
}

Value lower_print(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    // The value's own bytes; the consumer lays them out by its type.
    ActionDescription action = l.action(call, consume_print);
    const ast::Expr &value = *call.arguments.at(0);
    const Type *t = resolve(value.type);
    // A pointer to a struct or union: its address, then what it points to.
    const Type *pointee = is_pointer(t) ? resolve(t->element) : nullptr;
    const bool with_pointee = pointee && is_struct_or_union(pointee) && pointee->size > 0;
    const auto size =
        uint32_t(with_pointee ? 8 + pointee->size : (is_string(t) ? l.strsize() : t->size));
    action.printed_type = with_pointee ? l.printed_pointee(value.type) : l.printed_type(value.type);
    if (llvm::Value *to = reserve_bytes(l, state, action, trace::ValueKind::Bytes, size)) {
        if (with_pointee)
            l.record_pointee(value, uint32_t(pointee->size), to, state);
        else
            l.record_printed_value(value, size, to, state);
    }
    return l.finish_action(state, std::move(action), call);
}

// --- tracemem() -------------------------------------------------------------------

// tracemem(address, size [, dsize]): `size` bytes of kernel memory, a constant,
// shown as dtrace's hex dump; with dsize, only the first dsize bytes (at most
// size), as computed when the probe fired.
void consume_tracemem(Consumer &consumer, const ActionDescription &action,
                      std::span<const std::byte> record) {
    trace::ValueLayout bytes = action.values.at(0);
    if (action.values.size() > 1) {
        // A negative dsize (as a signed value) is ignored, as dtrace does;
        // 0 shows nothing at all.
        auto shown = consumer.read<int64_t>(record, action.values[1].offset);
        if (shown == 0)
            return;
        if (shown > 0)
            bytes.size = uint32_t(std::min<int64_t>(shown, bytes.size));
    }
    consumer.output().tracemem(record.subspan(std::min<size_t>(bytes.offset, record.size())),
                               bytes.size);
}

bool check_tracemem(CallCheck &check) {
    Checker &c = check.checker;
    if (!c.check_arguments(check.call, check.function, 0))
        return false;
    ast::Call &call = check.call;
    const Type *address = resolve(call.arguments[0]->type);
    // An array stands for the address of its first element, as in C.
    if (!is_integer(address) && !is_pointer(address) && !is_array(address)) {
        c.error("D_TRACEMEM_ADDR", call.arguments[0]->range,
                "tracemem() address must be an integer or a pointer, not " +
                    Checker::quote(call.arguments[0]->type));
        return false;
    }
    std::optional<int64_t> size = c.constant_value(*call.arguments[1]);
    if (!size) {
        c.error("D_TRACEMEM_SIZE", call.arguments[1]->range,
                "tracemem() size must be an integer constant");
        return false;
    }
    constexpr int64_t kLargest = trace::kMaxRecordSize - trace::kRecordDataStart - 8;
    if (*size <= 0 || *size > kLargest) {
        c.error("D_TRACEMEM_SIZE", call.arguments[1]->range,
                "tracemem() size must be from 1 to " + std::to_string(kLargest) + ", not " +
                    std::to_string(*size));
        return false;
    }
    return true;
}

Value lower_tracemem(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    ActionDescription action = l.action(call, consume_tracemem);
    Value source = l.lower(*call.arguments.at(0), state);
    auto size = uint32_t(l.integer_constant(*call.arguments.at(1)).value_or(0));
    trace::ValueLayout layout;
    layout.kind = trace::ValueKind::Bytes;
    layout.size = size;
    layout.offset = l.reserve_record(state, size);
    if (llvm::Value *to = l.record_space(state, layout)) {
        l.zero(to, codegen::align8(size));
        // An array in the program's memory (a member of a D variable):
        // its bytes, as far as they go; anything else is a kernel address.
        if (source.value->getType()->isPointerTy())
            l.copy_bytes(to, source.value, std::min(size, l.stored_size(source.type)));
        else
            l.read_memory(state, to, l.const64(size), source.value, /*user=*/false);
    }
    action.values.push_back(layout);
    l.count_speculative_bytes(state, size, 1);
    if (call.arguments.size() > 2)
        l.record_value(state, action, *call.arguments[2]);
    return l.finish_action(state, std::move(action), call);
}

// --- stack() and ustack() ------------------------------------------------------

void consume_stack(Consumer &consumer, const ActionDescription &action,
                   std::span<const std::byte> record) {
    consumer.output().stack(consumer.key_field(action.values.at(0), record));
}

// As an action, the frames go into the record; as a value (an aggregation
// key), into scratch.
Value lower_stack(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool statement) {
    const bool user = call.function != "stack";
    if (!statement) {
        uint32_t bytes = l.stored_size(call.type);
        llvm::Value *buffer = l.scratch(state, bytes);
        l.zero(buffer, bytes);
        uint32_t room = (bytes - (user ? 8 : 0)) / 8;
        l.capture_stack(buffer, std::min(l.stack_depth(call) + 1, room), user, call, state);
        return {buffer, call.type};
    }
    // ustack(n, strsize): strsize is for jstack()'s strings, which dtx does not record.
    ActionDescription action = l.action(call, consume_stack);
    const uint32_t frames = l.stack_depth(call);
    trace::ValueLayout layout;
    layout.kind = user ? trace::ValueKind::UserStack : trace::ValueKind::KernelStack;
    layout.size = (user ? 8 : 0) + (frames + 1) * 8;
    layout.offset = l.reserve_record(state, layout.size);
    if (llvm::Value *to = l.record_space(state, layout))
        l.capture_stack(to, frames + 1, user, call, state);
    action.values.push_back(layout);
    // dtrace records the frames without our terminating 0.
    l.count_speculative_bytes(state, layout.size - 8, 8);
    return l.finish_action(state, std::move(action), call);
}

// --- exit() and setopt() ------------------------------------------------------------

void consume_exit(Consumer &consumer, const ActionDescription &action,
                  std::span<const std::byte> record) {
    const int status = int(consumer.read<int64_t>(record, action.values.at(0).offset));
    consumer.output().exit(status);
    consumer.set_exit_status(status);
}

Value lower_exit(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    ActionDescription action = l.action(call, consume_exit);
    l.record_value(state, action, *call.arguments.at(0));
    // Nothing but END runs after exit(), as in DTrace.
    l.set_activity(trace::Activity::Draining);
    return l.finish_action(state, std::move(action), call);
}

// ftruncate(): the output file emptied, at this point of the output.
void consume_ftruncate(Consumer &consumer, const ActionDescription &, std::span<const std::byte>) {
    consumer.truncate_output();
}

Value lower_ftruncate(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    return l.finish_action(state, l.action(call, consume_ftruncate), call);
}

// setopt(option [, value]): constant strings are in the action's
// description; strings computed at run time are in its record, in order (a
// name recorded leaves option_name empty).
void consume_setopt(Consumer &consumer, const ActionDescription &action,
                    std::span<const std::byte> record) {
    size_t recorded = 0;
    std::string name = action.option_name;
    if (name.empty() && recorded < action.values.size())
        name = consumer.string_at(record, action.values[recorded++]);
    std::optional<std::string> value = action.option_value;
    if (recorded < action.values.size())
        value = std::string(consumer.string_at(record, action.values[recorded]));
    consumer.set_option(consumer.read<trace::RecordHeader>(record, 0).epid, name, value);
}

Value lower_setopt(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    ActionDescription action = l.action(call, consume_setopt);
    for (size_t i = 0; i < call.arguments.size(); i++) {
        const ast::Expr &argument = *call.arguments[i];
        if (const auto *literal = argument.as<ast::StringLiteral>()) {
            if (i == 0)
                action.option_name = literal->value;
            else
                action.option_value = literal->value;
        } else {
            l.record_value(state, action, argument);
        }
    }
    return l.finish_action(state, std::move(action), call);
}

constexpr auto A = FunctionClass::Action;

constexpr FunctionDescriptor kActions[] = {
    describe("exit", A, "void", {integer("int")}, lower_exit, {.role = ClauseRole::Exit}),
    describe("ftruncate", A, "void", {}, lower_ftruncate),
    // jstack(): Linux's Java VMs register no ustack helper that would name
    // their frames, so it is ustack() with jstackframes' depth: the walk
    // ends cleanly at the VM's compiled code, which no file holds.
    describe("jstack", A, "stack", {integer("uint32_t", true), integer("uint32_t", true)},
             lower_stack, {.user = true}),
    describe("print", A, "void", {any()}, lower_print, {.check = check_print}),
    describe("printf", A, "void", {format()}, lower_printf,
             {.variadic = true, .check = printf_rule}),
    describe("setopt", A, "void", {text(), text(true)}, lower_setopt),
    describe("stack", A, "stack", {integer("uint32_t", true)}, lower_stack),
    describe("trace", A, "void", {any()}, lower_trace),
    describe("tracemem", A, "void", {any(), integer("size_t"), integer("size_t", true)},
             lower_tracemem, {.check = check_tracemem}),
    describe("ustack", A, "stack", {integer("uint32_t", true), integer("uint32_t", true)},
             lower_stack, {.user = true}),
};

} // namespace

// printf(format, ...) and system(format, ...): the format is a constant whose
// conversions the arguments must fit, one by one.
bool printf_rule(CallCheck &check) {
    Checker &c = check.checker;
    ast::Call &call = check.call;
    if (call.arguments.empty()) {
        c.error("D_PROTO_LEN", call.range, call.function + "() needs a format string")
            .hints.push_back("prototype: " + check.function.signature());
        return false;
    }
    std::vector<const Type *> types;
    for (ast::ExprPtr &arg : call.arguments)
        types.push_back(c.check(*arg));
    const auto *literal = call.arguments[0]->as<ast::StringLiteral>();
    if (!literal) {
        c.error("D_PRINTF_ARG_FMT", call.arguments[0]->range,
                call.function + "() format must be a string constant");
        return false;
    }
    if (literal->value.empty()) {
        c.error("D_PRINTF_FMT_EMPTY", literal->range, call.function + "() format string is empty");
        return false;
    }
    trace::FormatParseResult parsed = trace::parse_format(literal->value);
    if (!parsed.ok()) {
        c.error("D_PRINTF_FMT", literal->range,
                call.function + "() format: " + parsed.error->message);
        return false;
    }
    const bool target_bound = c.options().target_pid.has_value();
    size_t next = 1;
    bool ok = true;
    for (const trace::FormatPiece &piece : parsed.format.pieces) {
        const auto *spec = std::get_if<trace::ConversionSpec>(&piece);
        if (!spec)
            continue;
        const std::string conversion = "conversion #" + std::to_string(spec->number) + " '" +
                                       literal->value.substr(spec->offset, spec->length) + "'";
        if (spec->aggregation_value) {
            c.error("D_PRINTF_AGG_CONV", literal->range,
                    conversion + ": %@ formats an aggregation's value and only printa() has one");
            ok = false;
            continue;
        }
        // Once an argument is missing, every later conversion lacks one too:
        // report the first.
        bool missing = false;
        for (bool dynamic : {spec->dynamic_width, spec->dynamic_precision}) {
            if (!dynamic || missing)
                continue;
            if (next >= call.arguments.size()) {
                c.error("D_PRINTF_DYN_PROTO", literal->range,
                        "the '*' of " + conversion + " has no argument");
                missing = true;
                continue;
            }
            const Type *type = types[next];
            if (type && !trace::dynamic_argument_accepts(format_argument_type(type))) {
                c.error("D_PRINTF_DYN_TYPE", call.arguments[next]->range,
                        "the '*' of " + conversion + " needs an integer, not " +
                            Checker::quote(type));
                ok = false;
            }
            ++next;
        }
        if (!missing && next >= call.arguments.size()) {
            c.error("D_PRINTF_ARG_PROTO", literal->range, conversion + " has no argument");
            missing = true;
        }
        if (missing)
            return false;
        const size_t index = next++;
        const Type *type = types[index];
        if (type && !trace::argument_accepts(*spec, format_argument_type(type), target_bound)) {
            c.error("D_PRINTF_ARG_TYPE", call.arguments[index]->range,
                    "argument #" + std::to_string(index + 1) + " has type " + Checker::quote(type) +
                        ", which does not fit " + conversion)
                .hints.push_back(conversion + " takes " + std::string(spec->info->prototype));
            ok = false;
        }
    }
    if (next < call.arguments.size()) {
        c.error("D_PRINTF_ARG_EXTRA", call.arguments[next]->range,
                call.function + "() has " + count_words(call.arguments.size() - next, "argument") +
                    " more than its format uses");
        return false;
    }
    return ok && std::find(types.begin(), types.end(), nullptr) == types.end();
}

std::span<const FunctionDescriptor> action_functions() {
    return kActions;
}

} // namespace dtx::sema

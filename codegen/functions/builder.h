// What a D function's lowering may ask of the lowering: the one interface
// codegen/functions/ sees of it (a descriptor's `lower` and an aggregating
// function's update take a FunctionBuilder). Lowering (codegen/lowering.h)
// implements it; everything else of the lowering stays behind it.
//
// Values are as lowering.h describes them: integers, enums and pointers in
// i64 registers normalized to their D type; strings, structs, arrays and
// stacks as `ptr`s to memory that strsize (or the type's size) bytes may be
// read from.
#pragma once

#include "codegen/types.h"
#include "libtrace/program_description.h"
#include "parser/ast.h"

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace dtx::codegen {

// Compile-time state of the clause being lowered; opaque here, handed back
// to the builder.
struct ClauseState;

// Sizes and offsets of everything the lowering lays out are multiples of 8.
inline uint32_t align8(uint64_t n) {
    return static_cast<uint32_t>((n + 7) & ~uint64_t{7});
}

// A lowered expression: `value` is an i64 (scalars) or a ptr (memory values).
struct Value {
    llvm::Value *value = nullptr;
    const sema::Type *type = nullptr;
};

// One aggregating function's update of one key's data words.
struct AggregationUpdate {
    const trace::AggregationDescription &description;
    llvm::Value *words;     // this CPU's data words of the key
    llvm::Value *value;     // i64: the aggregating function's first argument
    llvm::Value *increment; // i64: the quantize family's weight, else 1
    llvm::BasicBlock *done; // where an update that records nothing goes
    ClauseState &state;
};

class FunctionBuilder {
public:
    virtual ~FunctionBuilder() = default;

    // --- IR: the builder, types, constants and memory of the program's own
    virtual llvm::IRBuilder<> &ir() = 0;
    virtual llvm::Type *ptr() = 0;
    virtual llvm::Type *i32() = 0;
    virtual llvm::Type *i64() = 0;
    virtual llvm::Constant *const64(uint64_t v) = 0;
    // The byte address `offset` bytes past `base`.
    virtual llvm::Value *at(llvm::Value *base, uint64_t offset) = 0;
    virtual llvm::Value *at(llvm::Value *base, llvm::Value *offset) = 0;
    virtual llvm::Value *load64(llvm::Value *address) = 0;
    virtual void store64(llvm::Value *value, llvm::Value *address) = 0;
    // Loads an integer of `type` from memory, normalized to i64.
    virtual llvm::Value *load_integer(llvm::Value *address, const sema::Type *type) = 0;
    // Truncates and extends an i64 to the width and signedness of `type`, as
    // a variable, member or element of that type holds it.
    virtual llvm::Value *normalize(llvm::Value *value, const sema::Type *type) = 0;
    // Hides a value's origin from LLVM, so that it cannot move arithmetic
    // above the bounds check the kernel's verifier needs to see first.
    virtual llvm::Value *opaque(llvm::Value *value) = 0;
    virtual void copy_bytes(llvm::Value *to, llvm::Value *from, uint32_t size) = 0;
    virtual void zero(llvm::Value *address, uint32_t size) = 0;
    virtual llvm::Value *string_literal(std::string_view text) = 0;
    virtual llvm::Value *call_helper(unsigned helper, llvm::Type *result,
                                     std::vector<llvm::Value *> args) = 0;
    virtual llvm::Value *runtime_call(std::string_view name, std::vector<llvm::Value *> args) = 0;

    // --- The program's values: expressions, arguments, constants, sizes
    virtual Value lower(const ast::Expr &expr, ClauseState &state) = 0;
    // A string expression whose characters are about to be read: its
    // address, or an invalid-address fault at 0 when it is NULL, as in dtrace.
    virtual llvm::Value *lower_string(const ast::Expr &expr, ClauseState &state) = 0;
    virtual llvm::Value *string_characters(ClauseState &state, llvm::Value *string) = 0;
    // Integers/pointers as i64 (strings etc. give their ptr as an integer).
    virtual llvm::Value *lower_scalar(const ast::Expr &expr, ClauseState &state) = 0;
    virtual std::optional<int64_t> integer_constant(const ast::Expr &expr) const = 0;
    // A compile-time error at `at`: what the program asks cannot be done
    // here (found once the checks of every kind have passed).
    virtual void refuse(const ast::Expr &at, std::string code, std::string message) = 0;
    // Whether `expr` is the constant 0 (NULL).
    virtual bool is_null_pointer(const ast::Expr &expr) const = 0;
    // The storage size of a value of `type` (strings: strsize; integers: 8).
    virtual uint32_t stored_size(const sema::Type *type) = 0;
    // The bytes a string takes: the strsize option's characters and the NUL
    // (sema::string_bytes()).
    virtual uint64_t strsize() const = 0;
    // The bytes of a packet pcap() records: the pcapsize option.
    virtual uint32_t pcapsize() const = 0;
    virtual Value lower_probe_argument(const ast::Subscript &s, const sema::Type *type,
                                       ClauseState &state) = 0;
    virtual Value lower_user_register(const ast::Subscript &s, const sema::Type *type,
                                      ClauseState &state) = 0;
    // The firing probe's name field: 0 provider, 1 module, 2 function, 3 name.
    virtual llvm::Value *probe_name_field(unsigned field, ClauseState &state) = 0;
    // dtx_rt_dentry_path's table of kernel offsets (a .rodata global), or
    // null after an error at `at` when the kernel's BTF lacks them.
    virtual llvm::Value *path_offsets(const ast::Expr &at) = 0;
    // A member's offset in a kernel struct, from BTF; an error at `at` when
    // the kernel has no BTF for it.
    virtual std::optional<uint64_t> kernel_member_offset(const ast::Expr &at, std::string_view type,
                                                         std::string_view member) = 0;

    // --- The clause: scratch memory, faults, drops and where it ends
    // The clause context (the dctx: probe ID, arguments, scratch).
    virtual llvm::Value *clause_context(ClauseState &state) = 0;
    // The program's own context (pt_regs and the like), which helpers such
    // as bpf_get_stack() take; null when the clause's trampoline has none.
    virtual llvm::Value *probe_context(ClauseState &state) = 0;
    // Whether the clause runs in a sleepable program: its reads of user
    // memory may fault pages in.
    virtual bool in_sleepable_program(const ClauseState &state) const = 0;
    // That the clause reads `epid`, which the trampoline then sets.
    virtual void note_epid_read(ClauseState &state) = 0;
    // Bytes of scratch in the clause context, valid until the clause returns.
    virtual llvm::Value *scratch(ClauseState &state, uint32_t size) = 0;
    // `length` bytes of the clause's alloca() memory, zeroed, 8-byte aligned
    // and packed after the last allocation; an out-of-scratch fault past
    // scratchsize (a compile-time error, D_ALLOCA_SIZE, when `size`, given
    // for alloca(), is a constant that large). Returns the memory's pointer.
    // `length` becomes the value to pass with the pointer, whose bound the
    // verifier knows.
    virtual llvm::Value *allocate(ClauseState &state, llvm::Value *&length,
                                  const ast::Expr *size) = 0;
    // An alloca() address (an integer) as a pointer the verifier accepts for
    // `length` bytes, or an invalid-address fault when those bytes are not
    // all allocated in this clause (a constant length may also be written
    // into the program's global variables). `length` becomes the value to
    // pass with the pointer, whose bound the verifier knows.
    virtual llvm::Value *scratch_pointer(ClauseState &state, llvm::Value *address,
                                         llvm::Value *&length) = 0;
    // A block that ends the clause at once, recording nothing and without
    // a fault (speculate() on a speculation that is not active).
    virtual llvm::BasicBlock *clause_end_without_record(ClauseState &state) = 0;
    // Ends the clause with a fault of `kind` at `address` when `failed` is true.
    virtual void fault_if(ClauseState &state, llvm::Value *failed, trace::FaultKind kind,
                          llvm::Value *address) = 0;
    // Adds one to this CPU's drop counter `counter`, then jumps to `next`:
    // by a call of the program's one function for it (dtx_count_drop), as
    // drops are rare and the kernel rewrites each map lookup at load time,
    // in time growing with the program.
    virtual void count_drop(trace::DropCounter counter, llvm::BasicBlock *next) = 0;
    // A string function's result: `buffer`, or the NULL string when `found` is 0.
    virtual Value nullable_string(llvm::Value *buffer, llvm::Value *found,
                                  const sema::Type *type) = 0;
    // strtok()'s state, kept in the clause context between calls.
    virtual llvm::Value *strtok_state(ClauseState &state) = 0;
    virtual void note_user_memory_read(const ClauseState &state) = 0;

    // --- The firing: the current task and process, reading and writing memory
    virtual llvm::Value *current_task(ClauseState &state) = 0;
    virtual llvm::Value *current_pid_tgid(ClauseState &state) = 0;
    virtual llvm::Value *current_uid_gid(ClauseState &state) = 0;
    virtual void current_comm(ClauseState &state, llvm::Value *dst, uint32_t size) = 0;
    // curcpu: the address of this CPU's trace::CpuInfo in a .rodata table.
    virtual llvm::Value *current_cpu_info(ClauseState &state) = 0;
    // The firing's CPU (i32), as the trampoline stored it in `dctx`.
    virtual llvm::Value *firing_cpu(llvm::Value *dctx) = 0;
    // timestamp, read once per firing; walltimestamp's offset from it.
    virtual llvm::Value *firing_timestamp(ClauseState &state) = 0;
    virtual llvm::Value *walltime_offset() = 0;
    // dtx's own pid (i64), which the session sets at load: a .rodata
    // variable (ProgramDescription::dtx_pid_variable), defined on first use.
    virtual llvm::Value *dtx_pid() = 0;
    // The address of an lvalue in memory reached through a pointer (&p->m,
    // &p[i], &*p, &p->a.b); nullopt for the program's own variables.
    // `size` (<= 8) bytes of kernel memory at `address`, zero-extended; 0
    // where the read faults, without a fault: for walks through kernel
    // structures that may be absent (a task's mm, fs).
    virtual llvm::Value *read_kernel_quietly(ClauseState &state, llvm::Value *address,
                                             uint32_t size = 8) = 0;
    // Reads `length` bytes (an i64, at most the room at `to`) of user or kernel
    // memory at `address` into `to`, ending the clause with an invalid-address
    // fault if the read fails.
    virtual void read_memory(ClauseState &state, llvm::Value *to, llvm::Value *length,
                             llvm::Value *address, bool user) = 0;
    // Writes `length` bytes at `from` into the current process at `address`
    // (copyout()); a fault when the kernel refuses.
    virtual void write_user(ClauseState &state, llvm::Value *address, llvm::Value *from,
                            llvm::Value *length) = 0;

    // --- Stacks
    // bpf_get_stack's flags for the kernel stack, skipping the probe's glue frames.
    virtual llvm::Value *kernel_stack_flags(ClauseState &state) = 0;
    // Fills `buffer` with the current kernel or user stack as a record or key
    // holds it: `words` - 1 frames at most, a 0 after the last; a user stack
    // after its pid.
    virtual void capture_stack(llvm::Value *buffer, uint32_t words, bool user,
                               const ast::Expr &where, ClauseState &state) = 0;
    // The current thread's user stack, walked from its files' call-frame
    // information by dtx_rt_ustack (the maps and the kernel offsets it needs
    // defined on first use): `room` words into `buffer` (none when null),
    // the frames it found then 0s; returns how many it found. 0 after an
    // error at `where` when the kernel's BTF lacks what the walk reads.
    virtual llvm::Value *unwind_user_stack(llvm::Value *buffer, uint32_t room,
                                           const ast::Expr &where, ClauseState &state) = 0;
    // The frames a stack() or ustack() call records: its argument, else the
    // stackframes or ustackframes option.
    virtual uint32_t stack_depth(const ast::Call &call) = 0;

    // --- Records: an action's data for the consumer
    // A new action of `call`, to be described and then recorded with finish_action().
    virtual trace::ActionDescription action(const ast::Call &call,
                                            trace::ActionConsumer consume) = 0;
    // printf()'s and system()'s action: the format, and each argument recorded.
    virtual trace::ActionDescription formatted_action(const ast::Call &call, ClauseState &state,
                                                      trace::ActionConsumer consume) = 0;
    virtual Value finish_action(ClauseState &state, trace::ActionDescription action,
                                const ast::Call &call) = 0;
    // Records `value` for `action` in the next free bytes of the record.
    virtual void record_value(ClauseState &state, trace::ActionDescription &action,
                              const ast::Expr &value) = 0;
    virtual void record_lowered(ClauseState &state, trace::ActionDescription &action,
                                Value value) = 0;
    // print(value): the value's bytes into the record at `to` (`size` bytes).
    virtual void record_printed_value(const ast::Expr &value, uint32_t size, llvm::Value *to,
                                      ClauseState &state) = 0;
    // print(pointer): the pointer at `to`, then the `size` bytes it points to.
    virtual void record_pointee(const ast::Expr &pointer, uint32_t size, llvm::Value *to,
                                ClauseState &state) = 0;
    virtual llvm::Value *record_space(ClauseState &state, const trace::ValueLayout &layout) = 0;
    // The offset of `size` more bytes of the record; record_space() is their
    // address, null when the record would exceed its limit (reported when
    // the clause is finished).
    virtual uint32_t reserve_record(ClauseState &state, uint32_t size) = 0;
    // The index of `type` in description_.printed_types, described on first use.
    virtual uint32_t printed_type(const sema::Type *type) = 0;
    // A pointer type described as print() shows it with its pointee
    // (trace::PrintedType::with_pointee).
    virtual uint32_t printed_pointee(const sema::Type *pointer) = 0;
    virtual void set_activity(trace::Activity activity) = 0;

    // --- Aggregations and speculations
    virtual uint32_t aggregation_id(const ast::Expr &aggregation) = 0;
    // Speculations: their map (trace::SpeculationSlot per ID), how many there
    // are (nspec), and the speculation this clause's record belongs to.
    virtual llvm::GlobalVariable *speculations_map() = 0;
    virtual uint32_t speculation_count() const = 0;
    virtual void set_record_speculation(ClauseState &state, llvm::Value *id) = 0;
    // A value of `size` bytes at `align` in the record, as dtrace counts it
    // against specsize. In a speculative record, the first value past
    // specsize ends the clause there without its record, a speculative
    // drop: what follows it in the clause does not run (dtrace-utils).
    virtual void count_speculative_bytes(ClauseState &state, uint32_t size, uint32_t align) = 0;
};

} // namespace dtx::codegen

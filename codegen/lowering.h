// Lowering of a checked D program to LLVM IR, shared by its implementation
// files: lower_program.cpp (module, common maps, clauses, trampolines, the
// ERROR path), lower_storage.cpp (where variables and aggregations live),
// lower_expr.cpp (expressions and variables), lower_operators.cpp (unary and
// binary operators) and lower_calls.cpp (actions, subroutines, aggregations).
// Not part of codegen's interface; the entry point is compile_program() in
// compile.h.
//
// Values: integers, enums and pointers live in i64 registers, normalized to
// their D type (sign- or zero-extended from its width). Strings, structs,
// unions, arrays and stacks are `ptr`s to memory in a map value: the string
// literal pool, the globals, a map entry, or scratch space in the clause
// context. Strings occupy strsize bytes wherever they live, so run-time
// functions can read strsize bytes from any of them.
//
// A clause is `i32 dtx_clause_N(ptr dctx, ptr ctx)`: 0 when it ran to the end,
// 1 when it aborted on a fault (recorded in dctx), which sends the trampoline
// to the ERROR path. Its record is built in dctx and written to the ring
// buffer when the clause completes, so an aborted clause records nothing.
#pragma once

#include "codegen/bpf_debuginfo.h"
#include "codegen/bpf_emitter.h"
#include "codegen/compile.h"
#include "codegen/functions/builder.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ValueHandle.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace dtx::codegen {

// dtrace:::ERROR's probe ID (BEGIN is 1, END 2).
inline constexpr uint32_t kErrorProbeId = 3;

// Whether a value of `type` is a string to the operators and keys: a string
// or a char array.
inline bool is_string_value(const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    return t && (sema::is_string(t) || sema::is_char_array(t));
}

// Where a variable of the program is kept.
struct VariableStorage {
    enum class Kind {
        Global,      // at `offset` in the dtx_globals data
        ClauseLocal, // at `offset` in the clause context
        Map,         // an entry of `map` (thread-locals, associative arrays)
    };
    Kind kind = Kind::Global;
    uint32_t offset = 0;
    // Map: an entry of `map`, which other variables may share (see
    // storage_plan.h). Its key is the thread ID (thread-locals), or'ed with
    // key_prefix, or key_prefix alone where keys_offset leaves it room; then
    // the D keys from keys_offset; zeros up to key_size.
    llvm::GlobalVariable *map = nullptr;
    uint32_t key_size = 0;
    uint32_t keys_offset = 0;
    uint64_t key_prefix = 0;
    uint32_t value_size = 0; // bytes (Map: of the map's values)
    const sema::VariableInfo *info = nullptr;
};

// The size of `function`: its IR instructions, with memset and memcpy
// counted by the BPF instructions they become, and the bytes of its
// fixed-size stack slots.
std::pair<size_t, uint64_t> function_size(const llvm::Function &function);

struct AggregationStorage {
    trace::AggregationDescription description; // its map and key layout too
    llvm::GlobalVariable *map = nullptr;
    llvm::GlobalVariable *spill_map = nullptr;     // keyed only: see lower_storage.cpp
    llvm::GlobalVariable *initial_value = nullptr; // the state of a new key; keyed only
    uint32_t value_size = 0;                       // bytes per CPU: description.value_size
    const sema::AggregationInfo *info = nullptr;
};

// One update of an aggregation's key (codegen/functions/aggregations.cpp).
struct ClauseState;

// Where an lvalue that is not a whole variable lives (lower_places.cpp): an
// address in the program's own memory (a global, the clause context, a map
// entry, scratch), and for a bit-field its first bit in the first byte.
struct Place {
    llvm::Value *address = nullptr;
    const sema::Type *type = nullptr;
    uint32_t shift = 0;
    uint32_t bit_width = 0; // 0: not a bit-field
};

// Compile-time state of the clause being lowered.
struct ClauseState {
    const ast::Clause *clause = nullptr;
    uint32_t index = 0;
    llvm::Function *function = nullptr;
    llvm::Value *dctx = nullptr;
    llvm::Value *ctx = nullptr; // null when the trampoline has no stack context
    // The clause runs in sleepable programs: its reads of user memory fault
    // pages in (see TrampolineSpec::sleepable_section).
    bool sleepable = false;
    llvm::BasicBlock *fault = nullptr;
    llvm::BasicBlock *end_without_record = nullptr; // clause_end_without_record()
    bool speculates = false;                        // speculate() was lowered
    bool reads_epid = false;                        // `epid` was lowered
    // The record's size as dtrace counts it (ClauseDescription::
    // speculative_size), and whether a value went past specsize.
    uint32_t speculative_size = trace::kSpeculativeHeaderBytes;
    bool past_specsize = false;
    trace::ClauseDescription *description = nullptr;
    uint32_t record_offset = 0; // next free byte of the record
    uint32_t action_count = 0;  // record actions so far (bits of the masks)
    // Clears the record's last mask word, where the clause starts: words
    // for more actions are cleared after it.
    llvm::StoreInst *masks_cleared = nullptr;
    uint32_t scratch_offset = 0;
    // The most scratch any statement has used: each statement's strings and
    // keys reuse the room of the last one's (lower_clause).
    uint32_t scratch_high = 0;
    bool scratch_exhausted = false; // reported once
    // The scratch the clause's user stacks are walked in (kUnwindWalkSize
    // bytes), on first use.
    std::optional<uint32_t> unwind_walk_offset;
    // alloca()'s region in the clause's scratch, on first use (Lowering::alloca_region).
    std::optional<uint32_t> alloca_region;
    std::optional<uint32_t> number_slot;       // Lowering::address_number()'s word, on first use
    llvm::Function *clause_function = nullptr; // the clause's own function, not a part's
    llvm::Value *slot_key = nullptr;           // the key of keyless aggregations, on first use
    uint32_t statement = 0;                    // 1-based top-level statement (ERROR's arg2)
    // 0 while the clause's own function is being filled, else the part of
    // the clause (Lowering::start_clause_part) that function, dctx, ctx,
    // fault, end_without_record and slot_key belong to.
    uint32_t part = 0;
    void restore_function(const ClauseState &whole) {
        part = 0;
        function = whole.function;
        dctx = whole.dctx;
        ctx = whole.ctx;
        fault = whole.fault;
        end_without_record = whole.end_without_record;
        slot_key = whole.slot_key;
    }
};

// The functions' part of its interface is FunctionBuilder's: its methods
// are declared `override` here and described there.
class Lowering : public FunctionBuilder {
public:
    // `sleepable_programs`: the programs (TrampolineSpec::program_name) to
    // make sleepable, among those whose spec allows it. `emitter` outlives
    // the lowering.
    Lowering(const CompileInput &input, const CompileOptions &options, DiagnosticEngine &diags,
             const BpfEmitter &emitter, std::set<std::string> sleepable_programs);
    ~Lowering();
    // The program as LLVM IR; false after errors.
    bool lower();
    // After lower(): for each program whose spec allows it to be sleepable,
    // an empty string when it should be, else why not.
    std::map<std::string, std::string> sleepable_choices() const;
    // After lower(): the BPF object.
    std::optional<CompiledProgram> emit();
    // Says through CompileOptions::fatal_error_output, as an error of the
    // program's, why LLVM cannot go on: `reason` is its fatal error (see
    // LlvmFatalErrorScope).
    void report_fatal_error(std::string_view reason);

    // --- lower_program.cpp --------------------------------------------------
    llvm::IRBuilder<> &ir() override { return ir_; }
    llvm::Module &module() { return *module_; }
    BpfDebugInfo &debug_info() { return *debug_; }
    llvm::Value *call_helper(unsigned helper, llvm::Type *result,
                             std::vector<llvm::Value *> args) override;
    // The clause context of a firing of the program `function` belongs to:
    // this CPU's at its nesting level, or in a sleepable program the thread's;
    // on the stack where none of the clauses `spec` runs there touches it.
    llvm::Value *clause_context_lookup(const TrampolineSpec &spec, llvm::Function &function,
                                       bool with_stack_context);
    // Whether the clauses `spec` runs (with the stack context or not) all
    // leave the clause context alone: then the trampoline's own fields of it
    // (probe ID, dispatch state) can live on its stack, where LLVM sees
    // through them, and the firing needs no nesting level.
    bool runs_without_context(const TrampolineSpec &spec, bool with_stack_context);
    // Restores the nesting counter before every return that follows a
    // clause_context_lookup(), once a trampoline's code is complete.
    void release_nesting_levels();
    void emit_dispatch(const TrampolineSpec &spec, llvm::Value *dctx, llvm::Value *ctx,
                       ClauseGate gate);
    // A static function; its arguments are named `argument_names`, by
    // default dctx, ctx1, ctx2...
    llvm::Function *new_function(std::string_view name, llvm::FunctionType *type, unsigned line,
                                 const std::vector<std::string> &argument_names = {});
    // Whether the program of `spec` is sleepable.
    bool sleepable(const TrampolineSpec &spec) const {
        return !spec.sleepable_section.empty() && sleepable_programs_.contains(spec.program_name);
    }
    // That code lowered for `spec`'s prologue (TrampolineBuilder::read_user)
    // or for a clause reads the current process's memory, which a sleepable
    // program may fault in: see sleepable_choices().
    void note_user_memory_read(const TrampolineSpec &spec) {
        prologues_reading_user_memory_.insert(spec.program_name);
    }
    void note_user_memory_read(const ClauseState &state) override;

private:
    friend class TrampolineBuilderImpl;

    void declare_common_maps();
    // lower_storage.cpp: variables, aggregations, then the maps they share.
    void plan_storage();
    void plan_aggregations();
    void plan_maps();
    void plan_enabled_probes();
    // The clause's function for programs with or without a stack context,
    // sleepable or not (each a variant of its own).
    llvm::Function *clause_function(uint32_t clause, bool with_stack_context, bool sleepable);
    // --- lower_dispatch.cpp: calling the clauses -----------------------------
    struct DispatchTables;
    void plan_dispatch_tables(const TrampolineSpec &spec, DispatchTables &tables);
    // Runs, for the firing probe, those of its clauses that are in `block`;
    // `found_active`: the trampoline has just found tracing active, so the
    // first clause needs no check of its own.
    void dispatch_clauses(const TrampolineSpec &spec, const DispatchTables &tables,
                          const std::set<uint32_t> &block, llvm::Value *dctx, llvm::Value *ctx,
                          ClauseGate gate, bool inlined, bool found_active);
    // emit(first, last, dctx, ctx, inlined) calls clauses[first..last-1]:
    // all at once when they are at most `direct_limit`, else from functions
    // `name`_N of a block each, whose clauses are to be inlined. `runs_on`
    // names the probes they run on, for errors.
    void call_clause_blocks(
        const std::string &name, const std::vector<uint32_t> &clauses, size_t direct_limit,
        bool sleepable, std::string_view runs_on, llvm::Value *dctx, llvm::Value *ctx,
        const std::function<void(size_t, size_t, llvm::Value *, llvm::Value *, bool)> &emit);
    // The clause's result (i32): its function called, or inlined (by
    // inline_clauses(), and the function removed once no call is left).
    llvm::Value *report_fault(llvm::Value *dctx);
    llvm::Value *call_clause(uint32_t clause, llvm::Value *dctx, llvm::Value *ctx, bool inlined,
                             bool sleepable);
    void inline_clauses();
    void lower_clause(ClauseState &state);
    // Continues the clause in a new part; returns where the clause's function
    // goes on after calling it.
    llvm::BasicBlock *start_clause_part(ClauseState &state, ClauseState &whole,
                                        llvm::BasicBlock *resume);
    void lower_statement(const ast::Stmt &stmt, ClauseState &state);
    void lower_effect(const ast::Expr &expr, ClauseState &state);
    void finish_record(ClauseState &state);
    llvm::Function *error_function(bool with_stack_context, bool sleepable);
    void emit_trampoline(const TrampolineSpec &spec);
    std::optional<CompiledProgram> finish();

public:
    // --- helpers shared by the lowering files --------------------------------
    llvm::Value *clause_context(ClauseState &state) override { return state.dctx; }
    llvm::Value *probe_context(ClauseState &state) override { return state.ctx; }
    bool in_sleepable_program(const ClauseState &state) const override { return state.sleepable; }
    void note_epid_read(ClauseState &state) override { state.reads_epid = true; }
    llvm::Type *i8() { return ir_.getInt8Ty(); }
    llvm::Type *i32() override { return ir_.getInt32Ty(); }
    llvm::Type *i64() override { return ir_.getInt64Ty(); }
    llvm::Type *ptr() override { return ir_.getPtrTy(); }
    llvm::Constant *const64(uint64_t v) override { return ir_.getInt64(v); }
    llvm::Value *at(llvm::Value *base, uint64_t offset) override;
    llvm::Value *at(llvm::Value *base, llvm::Value *offset) override;
    llvm::Value *load64(llvm::Value *address) override;
    void store64(llvm::Value *value, llvm::Value *address) override;
    llvm::Value *load_integer(llvm::Value *address, const sema::Type *type) override;
    void store_integer(llvm::Value *value, llvm::Value *address, const sema::Type *type);
    llvm::Value *normalize(llvm::Value *value, const sema::Type *type) override;
    // A value of type `from` as a value of type `to`, by sema::convert_value's
    // rules (casts, operands meeting their common type).
    llvm::Value *convert(llvm::Value *value, const sema::Type *from, const sema::Type *to);
    llvm::Value *scratch(ClauseState &state, uint32_t size) override;
    // The offset of `size` bytes of scratch that last the whole clause (set
    // up where it starts): above what every statement so far has used.
    uint32_t lasting_scratch(ClauseState &state, uint32_t size);
    void zero(llvm::Value *address, uint32_t size) override;
    // Scratch of `size` zeroed bytes, for a map key to be filled.
    llvm::Value *zeroed_scratch(ClauseState &state, uint32_t size);
    void copy_bytes(llvm::Value *to, llvm::Value *from, uint32_t size) override;
    // Copies a string (at most strsize bytes, NUL included) from BPF-readable memory.
    void copy_string(llvm::Value *to, llvm::Value *from);
    // The entry of `key` in `map` (a variable's or an aggregation's), or
    // null: bpf_map_lookup_elem, which the kernel rewrites in line at load
    // time, in time growing with the program (2,000 lookups in as many
    // clauses: 2.3 s). Past kInlinedLookups in the program, finish() makes
    // them calls of one function, whose lookup it does not rewrite, at the
    // cost of a BPF call each.
    llvm::Value *map_lookup(llvm::Value *map, llvm::Value *key);
    void count_drop(trace::DropCounter counter, llvm::BasicBlock *next) override;
    // The same in line, with `slot`, 4 bytes of stack, for the counter's key.
    void count_drop(llvm::Value *slot, trace::DropCounter counter, llvm::BasicBlock *next);
    // Reads `size` bytes of kernel memory at `address` into zeroed scratch (at
    // least 8 bytes), ending the clause with an invalid-address fault if the
    // read fails; returns the scratch.
    llvm::Value *read_kernel(ClauseState &state, llvm::Value *address, uint32_t size);
    // alloca()'s memory in the clause's scratch, made on first use: a word
    // holding the bytes allocated (0 where the clause starts), then twice
    // scratchsize bytes and a word, so that an offset and a length each below
    // scratchsize stay inside it, as the verifier must see.
    llvm::Value *alloca_region(ClauseState &state);
    llvm::Value *allocate(ClauseState &state, llvm::Value *&length, const ast::Expr *size) override;
    // A read of `size` bytes at `address` through a pointer: where it is in
    // scratch, it must be within what the clause has allocated (as in
    // dtrace, an invalid-address fault otherwise).
    void check_scratch_read(ClauseState &state, llvm::Value *address, llvm::Value *size);
    // scratch_pointer() for the clause's alloca() memory alone.
    llvm::Value *alloca_pointer(ClauseState &state, llvm::Value *address, llvm::Value *&length);
    // The address `pointer` (a pointer, or an integer that may still be one
    // to LLVM) as a number the verifier lets code compare and subtract: it
    // goes through memory.
    llvm::Value *address_number(ClauseState &state, llvm::Value *pointer);
    bool program_allocates();
    std::optional<bool> program_allocates_; // alloca() or copyin() anywhere, on first ask
    llvm::GlobalVariable *zeros_ = nullptr; // scratchsize zero bytes, on first alloca()
    // A value of `type` read from kernel memory: as read_kernel, but a char
    // array gets the room of a string (char_array_string).
    llvm::Value *read_kernel_value(ClauseState &state, llvm::Value *address,
                                   const sema::Type *type);
    // Scratch for a char array of `size` bytes that string code can read as a
    // strsize string; `fill` copies the bytes in.
    llvm::Value *char_array_string(ClauseState &state, uint32_t size,
                                   const std::function<void(llvm::Value *)> &fill);
    void fault_if(ClauseState &state, llvm::Value *failed, trace::FaultKind kind,
                  llvm::Value *address) override;
    llvm::Value *string_literal(std::string_view text) override;
    uint64_t strsize() const override { return sema::string_bytes(options_.strsize); }
    uint32_t pcapsize() const override { return options_.pcapsize; }
    uint32_t stored_size(const sema::Type *type) override;
    bool is_memory_value(const sema::Type *type); // lives behind a ptr
    // What a trampoline fills in for the clauses, and whether any clause of
    // the program reads it.
    bool reads_builtin(sema::ProbeData data);
    // The CPU, by the helper: for the clause context's lookup.
    llvm::Value *current_cpu();
    llvm::Value *firing_cpu(llvm::Value *dctx) override;
    llvm::Value *current_cpu_info(ClauseState &state) override;
    llvm::Value *dtx_pid() override;
    llvm::Value *opaque(llvm::Value *value) override;
    // Stores `value` (of `type`) at `to` as a record or key field would hold it.
    void store_value(const Value &value, llvm::Value *to);
    trace::ValueLayout layout_of(const sema::Type *type, uint32_t offset);
    // Stores `value` at `to` as the record or key field `layout` holds it: a
    // user address with the current process's pid first, which it announces.
    void store_field(const Value &value, const trace::ValueLayout &layout, llvm::Value *to);
    llvm::Value *current_process(); // the tgid, as D's pid
    // The thread a firing is about: the running one, or where a trampoline
    // sets it (sched:::on-cpu) the one it names. As i64 (a task_struct
    // address), tgid << 32 | pid, uid | gid << 32, and its comm into `dst`.
    bool task_overridden() const;
    llvm::Value *current_task(ClauseState &state) override;
    llvm::Value *current_pid_tgid(ClauseState &state) override;
    llvm::Value *current_uid_gid(ClauseState &state) override;
    void current_comm(ClauseState &state, llvm::Value *dst, uint32_t size) override;
    // Writes a trace::ProcessRecord for the current process unless
    // processes_map_ says that it was written before.
    void announce_process();
    // The uprobe program of kLoaderRecordEpid, in a program that unwinds
    // the user stacks it records.
    void emit_loader_watch();
    // An error of the program at `at`, under the name dtrace gives the same
    // mistake (`code`, "D_ADDROF_VAR"), or D_CODEGEN for what dtrace has no
    // name for: limits of BPF and of dtx, LLVM's failures, internal errors.
    void error(std::string code, const SourceRange &at, std::string message);

    // --- lower_expr.cpp ---------------------------------------------------------
    Value lower(const ast::Expr &expr, ClauseState &state) override;
    // lower_calls.cpp: the entry made for a key new to a keyed aggregation,
    // null when there is no room (the drop counted).
    llvm::Value *insert_aggregation_key(const AggregationStorage &storage, llvm::Value *key);
    llvm::Value *lower_scalar(const ast::Expr &expr, ClauseState &state) override;
    llvm::Value *truth(const ast::Expr &expr, ClauseState &state); // i1
    Value lower_assign(const ast::Assign &assign, ClauseState &state);
    llvm::Value *firing_timestamp(ClauseState &state) override;
    llvm::Value *walltime_offset() override;
    Value read_variable(const VariableStorage &storage, const std::vector<ast::ExprPtr> *keys,
                        const ast::Expr &expr, ClauseState &state);
    void write_variable(const VariableStorage &storage, const std::vector<ast::ExprPtr> *keys,
                        const Value &value, bool is_zero_constant, ClauseState &state);
    // Builds the map key of a thread-local or associative-array access.
    llvm::Value *build_key(const VariableStorage &storage, const std::vector<ast::ExprPtr> *keys,
                           ClauseState &state);
    const VariableStorage *storage_of(const ast::Expr &target);
    llvm::Value *probe_name_field(unsigned field, ClauseState &state) override;
    Value lower_probe_argument(const ast::Subscript &s, const sema::Type *type,
                               ClauseState &state) override;
    llvm::Value *read_kernel_quietly(ClauseState &state, llvm::Value *address,
                                     uint32_t size = 8) override;
    // Faults "index out of bounds" unless `index` is within `array`'s
    // declared bound (a flexible array member, bound 0, has none).
    void check_index(ClauseState &state, llvm::Value *index, const sema::Type *array);
    // The member `m` names in its record (through the pointer for ->).
    std::optional<sema::Member> member_of(const ast::Member &m) const;
    // Where a kernel variable (`jiffies, `init_task.comm) is, or nullopt
    // when `expr` is not one.
    std::optional<llvm::Value *> kernel_address(const ast::Expr &expr, ClauseState &state);
    std::optional<llvm::Value *> address_of(const ast::Expr &lvalue, ClauseState &state);
    Value lower_user_register(const ast::Subscript &s, const sema::Type *type,
                              ClauseState &state) override;

    // `target op= value` given the target's current value: the new value,
    // as the target of `type` holds it.
    llvm::Value *compound(const ast::Assign &assign, llvm::Value *current, const sema::Type *type,
                          ClauseState &state);
    // The size of what a pointer of type `pointer` points to (1 for void).
    uint64_t pointee_size(const sema::Type *pointer);
    // `value` (an i64) as the verifier sees a plain number, never a pointer
    // into a map: stored to scratch and read back.
    llvm::Value *as_number(ClauseState &state, llvm::Value *value);

    Value lower_expression(const ast::Expr &expr, ClauseState &state); // lower()'s body
    // lower_expression()'s families of expressions:
    // an identifier or a macro argument, by what it names
    Value lower_name(const ast::Expr &expr, ClauseState &state);
    // c ? a : b
    Value lower_conditional(const ast::Conditional &c, ClauseState &state);
    // a[i]: an array's or a pointer's element, an associative array, args[], an inline's call
    Value lower_subscript(const ast::Subscript &s, ClauseState &state);
    // s.m and p->m, of the program's memory, the kernel's or a translation
    Value lower_member(const ast::Member &m, ClauseState &state);
    // (type)e
    Value lower_cast(const ast::Cast &c, ClauseState &state);

    // --- lower_operators.cpp ----------------------------------------------------
    // -e, +e, ~e, !e, ++, --, *p, stringof e and &e
    Value lower_unary(const ast::Unary &u, ClauseState &state);
    // ++ and -- of a whole variable (increment_place() does the other lvalues)
    Value increment_variable(const ast::Unary &u, ClauseState &state);
    // the comma operator; the other binary operators through the three below
    Value lower_binary(const ast::Binary &b, ClauseState &state);
    // &&, || and ^^
    Value lower_logical(const ast::Binary &b, ClauseState &state);
    // <, >, <=, >=, == and !=, of integers, pointers and strings
    Value lower_comparison(const ast::Binary &b, ClauseState &state);
    // +, -, *, /, %, <<, >>, &, | and ^, with pointer arithmetic
    Value lower_arithmetic(const ast::Binary &b, ClauseState &state);
    Value lower_string_offset(const ast::Binary &b, ClauseState &state);
    Value string_compare(const Value &lhs, const Value &rhs, ast::BinaryOp op);
    Value null_string_compare(const ast::Binary &comparison, ClauseState &state);
    // Binary arithmetic on operands already in `type`, with C's division
    // (a divide-by-zero fault) and shifts by the count modulo 64.
    llvm::Value *arithmetic(ast::BinaryOp op, llvm::Value *a, llvm::Value *b,
                            const sema::Type *type, ClauseState &state);
    // `value` / `divisor` for a value the divisor divides exactly (a
    // difference of pointers), without a division: BPF before v4 has no
    // signed one.
    llvm::Value *exact_divide(llvm::Value *value, uint64_t divisor);

    // --- lower_places.cpp -----------------------------------------------------------
    // Whether an assignment to `target` sets a whole variable (x, self->x,
    // a[k]) rather than a place in one.
    bool is_whole_variable(const ast::Expr &target);
    std::optional<Place> place_of(const ast::Expr &target, ClauseState &state);
    llvm::Value *load_place(const Place &place);
    void store_place(const Place &place, const Value &value);
    Value assign_place(const ast::Assign &assign, ClauseState &state);
    Value increment_place(const ast::Unary &unary, ClauseState &state);
    // A dynamic variable's map entry, created zeroed when missing (its
    // members are then written); a drop when the map is full.
    llvm::Value *map_entry(const VariableStorage &storage, const std::vector<ast::ExprPtr> *keys,
                           ClauseState &state);
    llvm::Value *load_bits(llvm::Value *address, uint32_t shift, uint32_t width,
                           const sema::Type *type);
    void store_bits(llvm::Value *address, uint32_t shift, uint32_t width, llvm::Value *value);

    // --- lower_translators.cpp ----------------------------------------------------
    // The value bound to an inline's or a translator's parameter where the
    // definition is being lowered.
    Value bound_parameter(const sema::Resolution &resolution, const ast::Expr &expr);
    Value lower_inline_call(const ast::Subscript &use, const ast::InlineDefinition &definition,
                            ClauseState &state);
    const sema::TranslatorInfo *translator_of(const ast::Xlate &xlate) const;
    // The expression a provider computes args[N] with, if `expr` is such an
    // args[N] (sema::Resolution::Substitute).
    const ast::Expr *substitute_of(const ast::Expr &expr) const;
    // xlate<T>(e).member and xlate<T *>(e)->member: that member's translation.
    Value translate_member(const ast::Xlate &xlate, const std::string &member,
                           const sema::Type *type, ClauseState &state);
    // A member of a translation, where `base` is one: an xlate, an inline
    // whose value is one, or a translated member that is one. Only that
    // member is translated, as dtrace does.
    std::optional<Value> lower_translated_member(const ast::Expr &base, const std::string &member,
                                                 const sema::Type *type, ClauseState &state);
    // xlate<T>(e) as a whole (a struct in scratch; its address for T *).
    Value lower_xlate(const ast::Xlate &xlate, ClauseState &state);

    // --- lower_calls.cpp ----------------------------------------------------------
    // A call, through its function's descriptor (codegen/functions/).
    Value lower_call(const ast::Call &call, bool statement, ClauseState &state);
    const sema::FunctionDescriptor *function_of(const ast::Call &call) const;
    void lower_aggregation(const ast::Assign &assign, ClauseState &state);
    // Sets the action's bit in the record's mask and describes it.
    uint32_t record_action(ClauseState &state, trace::ActionDescription action);
    llvm::Value *record_address(ClauseState &state, uint32_t offset);
    llvm::Value *runtime_call(std::string_view name, std::vector<llvm::Value *> args) override;
    llvm::Value *kernel_stack_flags(ClauseState &state) override;
    llvm::Value *unwind_user_stack(llvm::Value *buffer, uint32_t room, const ast::Expr &where,
                                   ClauseState &state) override;
    uint32_t stack_depth(const ast::Call &call) override;
    void capture_stack(llvm::Value *buffer, uint32_t words, bool user, const ast::Expr &where,
                       ClauseState &state) override;
    void record_printed_value(const ast::Expr &value, uint32_t size, llvm::Value *to,
                              ClauseState &state) override;
    uint32_t printed_type(const sema::Type *type) override;
    uint32_t printed_pointee(const sema::Type *pointer) override;
    void record_pointee(const ast::Expr &pointer, uint32_t size, llvm::Value *to,
                        ClauseState &state) override;

    // --- what the functions' lowerings share ------------------------------------
    trace::ActionDescription action(const ast::Call &call, trace::ActionConsumer consume) override;
    Value finish_action(ClauseState &state, trace::ActionDescription action,
                        const ast::Call &call) override;
    trace::ActionDescription formatted_action(const ast::Call &call, ClauseState &state,
                                              trace::ActionConsumer consume) override;
    void record_value(ClauseState &state, trace::ActionDescription &action,
                      const ast::Expr &value) override;
    void record_lowered(ClauseState &state, trace::ActionDescription &action, Value value) override;
    uint32_t reserve_record(ClauseState &state, uint32_t size) override;
    llvm::Value *record_space(ClauseState &state, const trace::ValueLayout &layout) override;
    uint32_t aggregation_id(const ast::Expr &aggregation) override;
    void set_activity(trace::Activity activity) override;
    std::optional<int64_t> integer_constant(const ast::Expr &expr) const override;
    bool is_null_pointer(const ast::Expr &expr) const override;
    void refuse(const ast::Expr &at, std::string code, std::string message) override {
        error(std::move(code), at.range, std::move(message));
    }
    // D's NULL string: an empty string at an address of its own, so that
    // `s == NULL` can tell it from "" (strstr() finding nothing).
    llvm::Value *null_string();
    llvm::Value *lower_string(const ast::Expr &expr, ClauseState &state) override;
    llvm::Value *string_characters(ClauseState &state, llvm::Value *string) override;
    // The string at `address` (an integer) in a strsize buffer of scratch;
    // an invalid-address fault where it cannot be read.
    llvm::Value *string_at(ClauseState &state, llvm::Value *address);
    // A string kept in the program's data or the clause context has a byte
    // after its characters that says it is set: its slot's first zeros are NULL.
    uint32_t string_slot_size() const { return uint32_t(align8(strsize() + 1)); }
    // Stores a variable's value in its slot of the program's data or the clause context.
    void store_slot(const Value &value, llvm::Value *slot);
    Value nullable_string(llvm::Value *buffer, llvm::Value *found, const sema::Type *type) override;
    llvm::Value *strtok_state(ClauseState &state) override;
    void read_memory(ClauseState &state, llvm::Value *to, llvm::Value *length, llvm::Value *address,
                     bool user) override;
    // bpf_probe_read_user(to, size, address), or in a sleepable program
    // bpf_copy_from_user, which faults in pages not resident yet; `size` is
    // an i32. Returns the helper's result.
    llvm::Value *read_user(bool sleepable, llvm::Value *to, llvm::Value *size,
                           llvm::Value *address);
    llvm::Value *scratch_pointer(ClauseState &state, llvm::Value *address,
                                 llvm::Value *&length) override;
    void write_user(ClauseState &state, llvm::Value *address, llvm::Value *from,
                    llvm::Value *length) override;
    llvm::Value *path_offsets(const ast::Expr &at) override;
    llvm::GlobalVariable *speculations_map() override;
    uint32_t speculation_count() const override { return options_.nspec; }
    void set_record_speculation(ClauseState &state, llvm::Value *id) override;
    void count_speculative_bytes(ClauseState &state, uint32_t size, uint32_t align) override;
    // A record speculate() counted that will not be written after all (a
    // fault, a full ring buffer): uncounted, so the speculation can drain.
    void undo_speculation(ClauseState &state);
    llvm::BasicBlock *clause_end_without_record(ClauseState &state) override;
    std::optional<uint64_t> kernel_member_offset(const ast::Expr &at, std::string_view type,
                                                 std::string_view member) override;

    // Parameters bound while an inline's or translator's expression is lowered.
    struct Binding {
        const ast::Node *owner;
        std::vector<Value> values;
    };
    std::vector<Binding> bindings_;
    // An associative-array inline's arguments, converted to its parameters.
    Binding bind_inline_arguments(const ast::Subscript &use,
                                  const ast::InlineDefinition &definition, ClauseState &state);
    std::optional<std::set<sema::ProbeData>> builtins_read_; // reads_builtin(), on first use
    std::map<const sema::Type *, uint32_t> printed_types_;   // see printed_type()
    const CompileInput &input_;
    const CompileOptions &options_;
    DiagnosticEngine &diags_;
    bool failed_ = false;

    const BpfEmitter &emitter_;
    llvm::LLVMContext context_;
    std::unique_ptr<llvm::Module> module_;
    llvm::IRBuilder<> ir_;
    std::unique_ptr<BpfDebugInfo> debug_;

    llvm::GlobalVariable *output_map_ = nullptr;
    llvm::GlobalVariable *dctx_map_ = nullptr;
    llvm::GlobalVariable *drops_map_ = nullptr;
    llvm::GlobalVariable *nesting_map_ = nullptr; // per CPU: firings running (kNestingLevels)
    // The clause contexts of sleepable programs, one per thread (task
    // storage): a placeholder until finish(), made by the first lookup.
    llvm::GlobalVariable *thread_dctx_map_ = nullptr;
    const std::set<std::string> sleepable_programs_;
    std::set<uint32_t> clauses_reading_user_memory_;      // by clause index
    std::set<std::string> prologues_reading_user_memory_; // by program name
    // Where a function took a clause context: its returns from there on give
    // the nesting level back (release_nesting_levels()).
    struct NestingLevel {
        llvm::Function *function;
        llvm::Instruction *taken; // the store of depth + 1
        llvm::Value *counter;
        llvm::Value *depth;
    };
    std::vector<NestingLevel> nesting_levels_;
    // Clause contexts put on a trampoline's stack (runs_without_context),
    // which the optimizer must have dissolved: checked after it ran.
    std::vector<std::pair<llvm::WeakVH, std::string>> stack_contexts_;
    llvm::GlobalVariable *processes_map_ = nullptr; // on first announce_process()
    llvm::Function *drop_counter_ = nullptr;        // on first count_drop(counter, next)
    std::vector<llvm::WeakVH> map_lookups_;         // map_lookup()'s helper calls
    std::vector<llvm::WeakVH> inlined_calls_;       // call_clause()'s to inline
    // Inserting a key in a keyed aggregation's map, without and with a spill
    // map: on first insert_aggregation_key().
    llvm::Function *aggregation_inserts_[2] = {};
    llvm::GlobalVariable *cpu_info_ = nullptr; // on first current_cpu_info()
    llvm::GlobalVariable *dtx_pid_ = nullptr;  // on first dtx_pid()
    // The innermost expression being lowered: a fault there is reported at
    // its place (ClauseDescription::fault_sites).
    const ast::Expr *faulting_expression_ = nullptr;
    llvm::GlobalVariable *activity_ = nullptr;
    llvm::GlobalVariable *globals_ = nullptr;
    llvm::GlobalVariable *walltime_offset_ = nullptr;
    llvm::GlobalVariable *null_string_ = nullptr;      // on first null_string()
    llvm::GlobalVariable *speculations_map_ = nullptr; // on first speculations_map()
    llvm::GlobalVariable *path_offsets_ = nullptr;     // on first path_offsets()
    // On first unwind_user_stack().
    llvm::GlobalVariable *unwind_layout_ = nullptr;
    llvm::GlobalVariable *unwind_rows_map_ = nullptr;
    llvm::GlobalVariable *unwind_files_map_ = nullptr;
    std::optional<uint32_t> strtok_state_offset_; // in dctx, on first strtok_state()
    // The string literals, each padded to strsize, in one .rodata global
    // (dtx_strings, made by finish(); a placeholder until then): a global
    // each would cost each a BTF variable, whose names LLVM's BTF writer
    // looks up in time growing with their number.
    std::map<std::string, uint64_t> string_offsets_; // literal -> offset in string_pool_
    std::string string_pool_;
    llvm::GlobalVariable *strings_ = nullptr;

    std::map<std::string, VariableStorage> globals_storage_, thread_storage_, clause_storage_;
    uint32_t globals_size_ = 0;
    uint32_t locals_size_ = 0;
    std::map<std::string, AggregationStorage> aggregations_;

    // Probe-name strings of enabled probes, by field, indexed by the dense
    // probe index the dispatch stores in dctx (see probe_index_offset_).
    std::vector<const trace::Probe *> dense_probes_;
    std::map<uint32_t, uint32_t> dense_index_; // probe id -> dense index
    llvm::GlobalVariable *probe_names_[4] = {};

    std::map<std::pair<uint32_t, uint32_t>, uint32_t> epids_; // (clause, probe id) -> epid
    // probe id -> the clauses enabled on it, in program order
    std::unordered_map<uint32_t, std::vector<uint32_t>> clauses_of_probe_;
    // (clause, with stack context, sleepable) -> its function
    std::map<std::tuple<uint32_t, bool, bool>, llvm::Function *> clause_functions_;
    // What calling a lowered clause's function needs to know of it.
    struct ClauseFacts {
        bool can_fault = false;   // it may return 1, a fault recorded for ERROR
        bool reads_epid = false;  // it records, faults or reads `epid`: dctx->epid
        bool uses_context = true; // it reads or writes dctx (else it is called with null)
        size_t size = 0;          // function_size()
    };
    std::map<const llvm::Function *, ClauseFacts> clause_facts_;
    std::vector<bool> clause_exits_;  // by clause: it calls exit()
    bool error_clauses_exit_ = false; // an ERROR clause calls exit()
    std::map<std::pair<bool, bool>, llvm::Function *> error_functions_; // the same, for ERROR
    // What each function of the program holds, to name it in an error LLVM
    // reports on its code: a clause, or the clauses of a block.
    struct FunctionOrigin {
        SourceRange at;
        std::string what;
    };
    std::map<std::string, FunctionOrigin> function_origins_;
    std::string largest_function_; // once optimized: the most code, by estimate
    trace::ProgramDescription description_;
    uint32_t record_area_size_ = 0;
    uint32_t scratch_area_size_ = 0;

public:
    // dctx offsets past the fixed header: this-> variables, the probe index,
    // the record, then scratch.
    uint32_t probe_index_offset() const { return ClauseContextLayout::locals + locals_size_; }
    uint32_t record_area_offset() const { return probe_index_offset() + 8; }
    uint32_t scratch_area_offset() const { return record_area_offset() + record_area_limit_; }
    // The whole clause context, once every clause is lowered.
    uint32_t clause_context_size() const;
    uint32_t record_area_limit_ = 0; // fixed before clauses are lowered
    uint32_t scratch_area_limit_ = 0;
};

} // namespace dtx::codegen

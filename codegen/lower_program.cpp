// The program-level half of the lowering: the maps every program has, one
// function per clause, the trampolines with their dispatch on the probe ID,
// the ERROR path, and the way to an object file. Where variables and
// aggregations are kept is lower_storage.cpp's.
#include "codegen/lowering.h"

#include "codegen/bpf_emitter.h"
#include "codegen/runtime_library.h"

#include <linux/bpf.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <bit>
#include <sstream>
#include <tuple>

namespace dtx::codegen {

namespace {

// The clause context's fixed limits: the record being built and scratch
// space. Records and scratch of one clause must fit; both are map memory,
// so only the per-CPU map value grows with them.
constexpr uint32_t kRecordAreaLimit = 16 * 1024;
constexpr uint32_t kScratchAreaLimit = 32 * 1024;
// The IR instructions past which the rest of a clause goes into a part
// (start_clause_part): about 10,000 BPF instructions.
constexpr size_t kClausePartSize = 8000;
// The BPF back end inlines memset/memcpy only up to this many bytes.
constexpr uint32_t kMemoryChunk = 512;
// The map lookups of clauses the kernel may rewrite in line (map_lookup()).
constexpr size_t kInlinedLookups = 512;
// The longest program whose text goes into its BTF line info, and the
// longest line of it that does (see embedded_source()).
constexpr size_t kEmbeddedSourceLines = 1000;
constexpr size_t kEmbeddedLineLength = 256;

// The program's text as its BTF line info has it. LLVM's BTF writer looks
// each line's text up in a list of every string so far, comparing them whole,
// in time growing with the square of the program's lines (11 s for 10,000)
// and with the length of its lines (13 s for 7,000 clauses on one line, as
// a cpp macro writes them): a program of more than kEmbeddedSourceLines
// keeps file, line and column without the text, and a line longer than
// kEmbeddedLineLength only its beginning.
std::string embedded_source(std::string_view text) {
    std::string embedded;
    size_t lines = 0;
    for (size_t at = 0; at < text.size() && lines <= kEmbeddedSourceLines; lines++) {
        size_t end = std::min(text.find('\n', at), text.size());
        embedded.append(text.substr(at, std::min(end - at, kEmbeddedLineLength)));
        embedded += '\n';
        at = end + 1;
    }
    return lines > kEmbeddedSourceLines ? std::string() : embedded;
}

// Whether `pointer` feeds anything but address computations nothing uses.
bool pointer_used(const llvm::Value &pointer) {
    for (const llvm::User *user : pointer.users()) {
        const auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
        if (!address || pointer_used(*address))
            return true;
    }
    return false;
}

} // namespace

Lowering::Lowering(const CompileInput &input, const CompileOptions &options,
                   DiagnosticEngine &diags, const BpfEmitter &emitter,
                   std::set<std::string> sleepable_programs)
    : input_(input), options_(options), diags_(diags), emitter_(emitter),
      module_(std::make_unique<llvm::Module>("dtx", context_)), ir_(context_),
      sleepable_programs_(std::move(sleepable_programs)) {
    record_area_limit_ = kRecordAreaLimit;
    scratch_area_limit_ = kScratchAreaLimit;
}

Lowering::~Lowering() = default;

void Lowering::error(std::string code, const SourceRange &at, std::string message) {
    diags_.error(std::move(code), at, std::move(message));
    failed_ = true;
}

bool Lowering::lower() {
    emitter_.configure_module(*module_);
    std::string source_name = "<d program>", source_text;
    if (!input_.program.clauses.empty() && input_.program.clauses[0]->range.source) {
        source_name = input_.program.clauses[0]->range.file_name();
        source_text = embedded_source(input_.program.clauses[0]->range.source->text());
    }
    debug_ = std::make_unique<BpfDebugInfo>(*module_, source_name, source_text);
    debug_->define_license("GPL");

    declare_common_maps();
    plan_storage();
    plan_aggregations();
    plan_maps();
    plan_enabled_probes();
    // Which clauses call exit(): only the clauses after them check whether
    // they still may run.
    for (uint32_t c = 0; c < input_.program.clauses.size(); c++) {
        bool exits = false;
        for (const ast::StmtPtr &stmt : input_.program.clauses[c]->statements)
            ast::for_each_expression(*stmt, [&](const ast::Expr &expr) {
                const auto *call = expr.as<ast::Call>();
                exits = exits || (call && call->function == "exit");
            });
        clause_exits_.push_back(exits);
        for (const trace::Probe *probe : input_.clause_probes[c])
            error_clauses_exit_ = error_clauses_exit_ || (exits && probe->id == kErrorProbeId);
    }
    for (const TrampolineSpec &spec : input_.trampolines)
        emit_trampoline(spec);
    return !failed_;
}

std::optional<CompiledProgram> Lowering::emit() {
    std::optional<CompiledProgram> compiled = finish();
    if (!compiled)
        return std::nullopt;
    if (options_.want_ir)
        compiled->ir = module_to_string(*module_);
    inline_clauses();
    emitter_.optimize(*module_);
    for (const auto &[dctx, program] : stack_contexts_)
        if (dctx) // a mistake of runs_without_context(): it would overflow the BPF stack
            error("D_CODEGEN", {},
                  "internal error: the clause context of program '" + program +
                      "' stayed on its stack");
    if (failed_)
        return std::nullopt;
    size_t largest = 0;
    for (const llvm::Function &function : *module_)
        if (size_t size = function_size(function).first; size > largest) {
            largest = size;
            largest_function_ = function.getName().str();
        }
    if (options_.want_assembly) {
        BpfEmitResult assembly = emitter_.emit_assembly(*module_);
        compiled->assembly.assign(assembly.output.begin(), assembly.output.end());
    }
    BpfEmitResult object = emitter_.emit_object(*module_);
    if (!object.ok()) {
        SourceRange at =
            input_.program.clauses.empty() ? SourceRange{} : input_.program.clauses[0]->range;
        std::string message = "the BPF back end failed:";
        for (const std::string &e : object.errors)
            message += " " + e;
        error("D_CODEGEN", at, message);
        return std::nullopt;
    }
    compiled->object = std::move(object.output);
    return compiled;
}

// The clause calls to inline, inlined here rather than by the optimizer,
// whose first passes would otherwise run on each clause's function before
// inlining it, in time that adds up over thousands of clauses. A clause's
// function goes once its last call is inlined, before the next is: the
// memory it frees holds the next copies (over thousands of clauses, a
// sixth of the compiler's peak).
void Lowering::inline_clauses() {
    for (llvm::WeakVH &entry : inlined_calls_)
        if (auto *call = llvm::dyn_cast_or_null<llvm::CallInst>(entry)) {
            llvm::Function *function = call->getCalledFunction();
            llvm::InlineFunctionInfo info;
            if (!llvm::InlineFunction(*call, info).isSuccess())
                call->addFnAttr(llvm::Attribute::AlwaysInline);
            else if (function->use_empty())
                function->eraseFromParent();
        }
}

void Lowering::report_fatal_error(std::string_view reason) {
    if (reason.find("out of insn range") != std::string_view::npos) {
        // A jump of more than 32767 instructions, in the largest function
        // by all odds.
        auto origin = function_origins_.find(largest_function_);
        SourceRange at;
        std::string what = "a function of the program";
        if (origin != function_origins_.end()) {
            at = origin->second.at;
            what = origin->second.what;
        }
        error("D_CODEGEN", at,
              what + " compiles to BPF code too long for a BPF jump to cross: a jump reaches "
                     "32,767 instructions at most (its offset is 16 bits); split large if/else "
                     "or { } blocks into several clauses");
    } else {
        error("D_CODEGEN", {}, "LLVM failed to compile the program: " + std::string(reason));
    }
    if (options_.fatal_error_output) {
        std::ostringstream text;
        diags_.render(text);
        options_.fatal_error_output(text.str());
    }
}

// --- helpers -------------------------------------------------------------------

llvm::Value *Lowering::call_helper(unsigned helper, llvm::Type *result,
                                   std::vector<llvm::Value *> args) {
    std::vector<llvm::Type *> parameters;
    for (llvm::Value *arg : args)
        parameters.push_back(arg->getType());
    auto *type = llvm::FunctionType::get(result, parameters, false);
    auto *address = llvm::ConstantExpr::getIntToPtr(ir_.getInt64(helper), ptr());
    return ir_.CreateCall(type, address, args);
}

llvm::Value *Lowering::at(llvm::Value *base, uint64_t offset) {
    return offset ? ir_.CreateConstGEP1_64(i8(), base, offset) : base;
}

llvm::Value *Lowering::at(llvm::Value *base, llvm::Value *offset) {
    return ir_.CreateGEP(i8(), base, offset);
}

// Every 8-byte slot the code generator lays out (clause context fields,
// record values, keys, variables) is 8-byte aligned: with a lesser alignment
// the BPF backend would split each access into single bytes.
llvm::Value *Lowering::load64(llvm::Value *address) {
    return ir_.CreateAlignedLoad(i64(), address, llvm::Align(8));
}

void Lowering::store64(llvm::Value *value, llvm::Value *address) {
    ir_.CreateAlignedStore(value, address, llvm::Align(8));
}

llvm::Value *Lowering::normalize(llvm::Value *value, const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    if (!t || !(sema::is_integer(t)) || t->size >= 8 || t->size == 0)
        return value;
    llvm::Type *narrow = ir_.getIntNTy(unsigned(t->size * 8));
    llvm::Value *truncated = ir_.CreateTrunc(value, narrow);
    return t->is_signed ? ir_.CreateSExt(truncated, i64()) : ir_.CreateZExt(truncated, i64());
}

llvm::Value *Lowering::convert(llvm::Value *value, const sema::Type *from, const sema::Type *to) {
    const sema::Type *f = sema::resolve(from), *t = sema::resolve(to);
    if (!f || !t || !sema::is_integer(f) || !sema::is_integer(t) || value->getType()->isPointerTy())
        return value;
    if (t->size < f->size)
        return normalize(value, t);
    if (f->is_signed != t->is_signed)
        return normalize(normalize(value, f), t);
    return value;
}

llvm::Value *Lowering::load_integer(llvm::Value *address, const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    uint64_t size = t ? t->size : 8;
    if (size >= 8 || size == 0 || !sema::is_integer(t))
        return load64(address);
    llvm::Type *narrow = ir_.getIntNTy(unsigned(size * 8));
    llvm::Value *v = ir_.CreateAlignedLoad(narrow, address, llvm::Align(size));
    return t->is_signed ? ir_.CreateSExt(v, i64()) : ir_.CreateZExt(v, i64());
}

void Lowering::store_integer(llvm::Value *value, llvm::Value *address, const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    uint64_t size = t ? t->size : 8;
    if (size >= 8 || size == 0 || !sema::is_integer(t)) {
        store64(value, address);
        return;
    }
    ir_.CreateAlignedStore(ir_.CreateTrunc(value, ir_.getIntNTy(unsigned(size * 8))), address,
                           llvm::Align(size));
}

llvm::Value *Lowering::scratch(ClauseState &state, uint32_t size) {
    uint32_t offset = state.scratch_offset;
    state.scratch_offset += align8(size);
    if (state.scratch_offset > scratch_area_limit_) {
        if (!state.scratch_exhausted)
            error("D_CODEGEN", state.clause->range,
                  "the clause needs more than " + std::to_string(scratch_area_limit_) +
                      " bytes of scratch space for strings and keys");
        state.scratch_exhausted = true;
        state.scratch_offset = 0;
        offset = 0;
    }
    state.scratch_high = std::max(state.scratch_high, state.scratch_offset);
    scratch_area_size_ = std::max(scratch_area_size_, state.scratch_offset);
    return at(state.dctx, scratch_area_offset() + offset);
}

uint32_t Lowering::lasting_scratch(ClauseState &state, uint32_t size) {
    // Above every earlier statement's strings: what is set where the clause
    // starts must not be overwritten by them.
    state.scratch_offset = state.scratch_high;
    const uint32_t offset = state.scratch_offset;
    scratch(state, size);
    return state.scratch_exhausted ? 0 : offset;
}

// Large blocks go in chunks whose addresses LLVM cannot see are adjacent, or
// its optimizer would merge them back into one call the back end rejects.
void Lowering::zero(llvm::Value *address, uint32_t size) {
    for (uint32_t done = 0; done < size; done += kMemoryChunk) {
        llvm::Value *chunk = done ? opaque(at(address, done)) : address;
        ir_.CreateMemSet(chunk, ir_.getInt8(0), std::min(kMemoryChunk, size - done),
                         llvm::MaybeAlign(8));
    }
}

// The address is hidden from LLVM after the zeroing: else it computes each
// key word's address once, for the zeroing store and the field's store, and
// keeps them all across the helper calls between (the thread ID, execname),
// where BPF has only four registers to keep values in: a word of stack per
// key word, 480 bytes for a key of 60 integers.
llvm::Value *Lowering::zeroed_scratch(ClauseState &state, uint32_t size) {
    llvm::Value *buffer = scratch(state, size);
    zero(buffer, size);
    return opaque(buffer);
}

void Lowering::copy_bytes(llvm::Value *to, llvm::Value *from, uint32_t size) {
    for (uint32_t done = 0; done < size; done += kMemoryChunk) {
        llvm::Value *target = done ? opaque(at(to, done)) : to;
        ir_.CreateMemCpy(target, llvm::MaybeAlign(8), at(from, done), llvm::MaybeAlign(8),
                         std::min(kMemoryChunk, size - done));
    }
}

void Lowering::copy_string(llvm::Value *to, llvm::Value *from) {
    call_helper(BPF_FUNC_probe_read_kernel_str, i64(),
                {to, ir_.getInt32(uint32_t(strsize())), from});
}

llvm::Value *Lowering::opaque(llvm::Value *value) {
    auto *type = llvm::FunctionType::get(value->getType(), {value->getType()}, false);
    auto *identity = llvm::InlineAsm::get(type, "", "=r,0", /*hasSideEffects=*/true);
    return ir_.CreateCall(type, identity, {value});
}

llvm::Value *Lowering::current_cpu() {
    return call_helper(BPF_FUNC_get_smp_processor_id, i32(), {});
}

llvm::Value *Lowering::firing_cpu(llvm::Value *dctx) {
    return ir_.CreateTrunc(load64(at(dctx, ClauseContextLayout::cpu)), i32());
}

llvm::Value *Lowering::current_cpu_info(ClauseState &state) {
    const uint32_t entries = trace::cpu_info_entries();
    if (!cpu_info_) {
        llvm::DIType *id = debug_->integer_type(4, true);
        const BtfStructField fields[] = {{"cpu_id", id, offsetof(trace::CpuInfo, cpu_id)},
                                         {"cpu_pset", id, offsetof(trace::CpuInfo, cpu_pset)},
                                         {"cpu_chip", id, offsetof(trace::CpuInfo, cpu_chip)},
                                         {"cpu_lgrp", id, offsetof(trace::CpuInfo, cpu_lgrp)}};
        llvm::DIType *info = debug_->struct_type("cpuinfo", sizeof(trace::CpuInfo), fields);
        auto *storage = llvm::ArrayType::get(i32(), uint64_t(entries) * sizeof(trace::CpuInfo) / 4);
        description_.cpu_info_variable = "dtx_cpuinfo";
        cpu_info_ = debug_->define_global_variable(
            description_.cpu_info_variable, debug_->array_type(info, entries),
            llvm::ConstantAggregateZero::get(storage), GlobalDataSection::ReadOnly);
    }
    llvm::Value *index = ir_.CreateAnd(ir_.CreateZExt(firing_cpu(state.dctx), i64()), entries - 1);
    return ir_.CreateAdd(ir_.CreatePtrToInt(cpu_info_, i64()),
                         ir_.CreateMul(index, const64(sizeof(trace::CpuInfo))));
}

llvm::Value *Lowering::dtx_pid() {
    if (!dtx_pid_) {
        description_.dtx_pid_variable = "dtx_pid";
        dtx_pid_ = debug_->define_global_variable(description_.dtx_pid_variable,
                                                  debug_->integer_type(4, false), ir_.getInt32(0),
                                                  GlobalDataSection::ReadOnly);
    }
    llvm::LoadInst *pid = ir_.CreateLoad(i32(), dtx_pid_);
    pid->setVolatile(true); // set at load: not the initial value LLVM sees
    return ir_.CreateZExt(pid, i64());
}

void Lowering::fault_if(ClauseState &state, llvm::Value *failed, trace::FaultKind kind,
                        llvm::Value *address) {
    llvm::Function *function = ir_.GetInsertBlock()->getParent();
    auto *faulted = llvm::BasicBlock::Create(context_, "fault", function);
    auto *ok = llvm::BasicBlock::Create(context_, "ok", function);
    ir_.CreateCondBr(failed, faulted, ok);
    ir_.SetInsertPoint(faulted);
    store64(const64(uint64_t(kind)), at(state.dctx, ClauseContextLayout::fault_kind));
    store64(address ? ir_.CreateZExtOrTrunc(address, i64()) : const64(0),
            at(state.dctx, ClauseContextLayout::fault_address));
    // The statement in the low half (ERROR's arg2), the expression in the high.
    uint64_t site = 0;
    if (faulting_expression_ && state.description) {
        state.description->fault_sites.push_back(faulting_expression_->range);
        site = state.description->fault_sites.size();
    }
    store64(const64(site << 32 | state.statement),
            at(state.dctx, ClauseContextLayout::fault_action));
    ir_.CreateBr(state.fault);
    ir_.SetInsertPoint(ok);
}

llvm::Value *Lowering::map_lookup(llvm::Value *map, llvm::Value *key) {
    llvm::Value *entry = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {map, key});
    map_lookups_.emplace_back(entry);
    return entry;
}

void Lowering::count_drop(trace::DropCounter counter, llvm::BasicBlock *next) {
    if (!drop_counter_) {
        // void dtx_count_drop(u32 counter)
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        drop_counter_ =
            new_function("dtx_count_drop", llvm::FunctionType::get(ir_.getVoidTy(), {i32()}, false),
                         0, {"counter"});
        llvm::Value *key = ir_.CreateAlloca(i32());
        ir_.CreateStore(drop_counter_->getArg(0), key);
        llvm::Value *count = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {drops_map_, key});
        auto *increment = llvm::BasicBlock::Create(context_, "count_drop", drop_counter_);
        auto *done = llvm::BasicBlock::Create(context_, "counted", drop_counter_);
        ir_.CreateCondBr(ir_.CreateIsNull(count), done, increment);
        ir_.SetInsertPoint(increment);
        ir_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, count, const64(1), llvm::MaybeAlign(8),
                            llvm::AtomicOrdering::Monotonic); // as in count_drop(slot, ...)
        ir_.CreateBr(done);
        ir_.SetInsertPoint(done);
        ir_.CreateRetVoid();
    }
    ir_.CreateCall(drop_counter_, {ir_.getInt32(uint32_t(counter))});
    ir_.CreateBr(next);
}

void Lowering::count_drop(llvm::Value *slot, trace::DropCounter counter, llvm::BasicBlock *next) {
    ir_.CreateAlignedStore(ir_.getInt32(uint32_t(counter)), slot, llvm::Align(4));
    llvm::Value *count = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {drops_map_, slot});
    auto *increment =
        llvm::BasicBlock::Create(context_, "count_drop", ir_.GetInsertBlock()->getParent());
    ir_.CreateCondBr(ir_.CreateIsNull(count), next, increment);
    ir_.SetInsertPoint(increment);
    // Atomic: a sleepable program may be preempted between a load and a
    // store by another firing on this CPU that counts a drop too.
    ir_.CreateAtomicRMW(llvm::AtomicRMWInst::Add, count, const64(1), llvm::MaybeAlign(8),
                        llvm::AtomicOrdering::Monotonic);
    ir_.CreateBr(next);
}

llvm::Value *Lowering::read_kernel(ClauseState &state, llvm::Value *address, uint32_t size) {
    check_scratch_read(state, address, const64(size));
    llvm::Value *buffer = scratch(state, std::max<uint32_t>(size, 8));
    store64(const64(0), buffer);
    llvm::Value *result =
        call_helper(BPF_FUNC_probe_read_kernel, i64(), {buffer, ir_.getInt32(size), address});
    fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress, address);
    return buffer;
}

bool Lowering::reads_builtin(sema::ProbeData data) {
    if (!builtins_read_) {
        builtins_read_.emplace();
        for (const auto &[expr, resolution] : input_.checked.resolutions)
            if (resolution.kind == sema::Resolution::Kind::Builtin && resolution.builtin &&
                resolution.builtin->reads != sema::ProbeData::None)
                builtins_read_->insert(resolution.builtin->reads);
    }
    return builtins_read_->contains(data);
}

llvm::Value *Lowering::read_kernel_value(ClauseState &state, llvm::Value *address,
                                         const sema::Type *type) {
    uint32_t size = uint32_t(sema::resolve(type)->size);
    if (!sema::is_char_array(type))
        return read_kernel(state, address, std::max<uint32_t>(size, 1));
    check_scratch_read(state, address, const64(size));
    return char_array_string(state, size, [&](llvm::Value *buffer) {
        llvm::Value *result =
            call_helper(BPF_FUNC_probe_read_kernel, i64(), {buffer, ir_.getInt32(size), address});
        fault_if(state, ir_.CreateICmpSLT(result, const64(0)), trace::FaultKind::BadAddress,
                 address);
    });
}

llvm::Value *Lowering::char_array_string(ClauseState &state, uint32_t size,
                                         const std::function<void(llvm::Value *)> &fill) {
    // String functions and comparisons read up to strsize bytes, so the
    // buffer has that room; the array's bytes are followed by a NUL, and a
    // NUL inside them ends the string first, as in C.
    uint32_t room = std::max<uint32_t>(align8(size) + 8, uint32_t(align8(strsize())));
    llvm::Value *buffer = scratch(state, room);
    store64(const64(0), at(buffer, size / 8 * 8)); // the bytes after a partial last word
    fill(buffer);
    store64(const64(0), at(buffer, align8(size)));
    return buffer;
}

llvm::Value *Lowering::string_literal(std::string_view text) {
    auto [it, inserted] = string_offsets_.try_emplace(std::string(text), string_pool_.size());
    if (inserted) {
        // Each literal fills a whole strsize buffer, so run-time functions may
        // read strsize bytes from it.
        string_pool_.append(text.substr(0, strsize() - 1));
        string_pool_.resize(it->second + align8(strsize()), '\0');
    }
    if (!strings_)
        strings_ =
            new llvm::GlobalVariable(*module_, i64(), true, llvm::GlobalValue::ExternalLinkage,
                                     const64(0), "dtx_strings_placeholder");
    return llvm::ConstantExpr::getGetElementPtr(i8(), strings_, const64(it->second));
}

uint32_t Lowering::stored_size(const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    if (!t)
        return 8;
    if (sema::is_string(t) || sema::is_char_array(t))
        return align8(strsize());
    switch (t->kind) {
    case sema::TypeKind::Stack: {
        // A user stack's first word is its pid (trace::ValueKind::UserStack).
        uint32_t frames =
            std::min(t->symbolization == sema::Symbolization::User ? options_.ustackframes
                                                                   : options_.stackframes,
                     options_.maxframes);
        return (frames + 1) * 8 + 8;
    }
    case sema::TypeKind::Struct:
    case sema::TypeKind::Union:
    case sema::TypeKind::Array:
        return align8(t->size);
    default:
        return 8;
    }
}

bool Lowering::is_memory_value(const sema::Type *type) {
    const sema::Type *t = sema::resolve(type);
    if (!t)
        return false;
    switch (t->kind) {
    case sema::TypeKind::String:
    case sema::TypeKind::Struct:
    case sema::TypeKind::Union:
    case sema::TypeKind::Array:
    case sema::TypeKind::Stack:
        return true;
    default:
        return false;
    }
}

void Lowering::store_value(const Value &value, llvm::Value *to) {
    const sema::Type *t = sema::resolve(value.type);
    if (t && (sema::is_string(t) || sema::is_char_array(t))) {
        copy_string(to, value.value);
        return;
    }
    if (is_memory_value(t)) {
        copy_bytes(to, value.value, stored_size(t));
        return;
    }
    store64(value.value, to);
}

void Lowering::store_field(const Value &value, const trace::ValueLayout &layout, llvm::Value *to) {
    using K = trace::ValueKind;
    if (layout.kind != K::UserSymbol && layout.kind != K::UserModule &&
        layout.kind != K::UserAddress) {
        store_value(value, to);
        return;
    }
    announce_process();
    store64(current_process(), to);
    store64(value.value, at(to, 8));
}

bool Lowering::task_overridden() const {
    return std::any_of(input_.trampolines.begin(), input_.trampolines.end(),
                       [](const TrampolineSpec &spec) { return spec.sets_current_task; });
}

llvm::Value *Lowering::current_task(ClauseState &state) {
    llvm::Value *running = call_helper(BPF_FUNC_get_current_task, i64(), {});
    if (!task_overridden())
        return running;
    llvm::Value *named = load64(at(state.dctx, ClauseContextLayout::current_task));
    return ir_.CreateSelect(ir_.CreateICmpNE(named, const64(0)), named, running);
}

namespace {

// `size` bytes of kernel memory at `address` + the kernel's offset of
// type.member, zero-extended; 0 where the read faults. The stable provider
// that sets the current task has checked that BTF has these members.
llvm::Value *read_member(Lowering &l, const CompileOptions &options, ClauseState &state,
                         llvm::Value *address, std::string_view type, std::string_view member,
                         uint32_t size) {
    const uint64_t offset =
        options.kernel_member_offset ? options.kernel_member_offset(type, member).value_or(0) : 0;
    return l.read_kernel_quietly(state, l.ir().CreateAdd(address, l.const64(offset)), size);
}

} // namespace

llvm::Value *Lowering::read_kernel_quietly(ClauseState &state, llvm::Value *address,
                                           uint32_t size) {
    llvm::Value *word = scratch(state, 8);
    store64(const64(0), word);
    call_helper(BPF_FUNC_probe_read_kernel, i64(), {word, ir_.getInt32(size), address});
    return load64(word);
}

llvm::Value *Lowering::current_pid_tgid(ClauseState &state) {
    if (!task_overridden())
        return call_helper(BPF_FUNC_get_current_pid_tgid, i64(), {});
    llvm::Value *task = current_task(state);
    llvm::Value *tid = read_member(*this, options_, state, task, "task_struct", "pid", 4);
    llvm::Value *tgid = read_member(*this, options_, state, task, "task_struct", "tgid", 4);
    return ir_.CreateOr(ir_.CreateShl(tgid, 32), tid);
}

llvm::Value *Lowering::current_uid_gid(ClauseState &state) {
    if (!task_overridden())
        return call_helper(BPF_FUNC_get_current_uid_gid, i64(), {});
    llvm::Value *task = current_task(state);
    llvm::Value *cred = read_member(*this, options_, state, task, "task_struct", "cred", 8);
    llvm::Value *uid = read_member(*this, options_, state, cred, "cred", "uid", 4);
    llvm::Value *gid = read_member(*this, options_, state, cred, "cred", "gid", 4);
    return ir_.CreateOr(ir_.CreateShl(gid, 32), uid);
}

void Lowering::current_comm(ClauseState &state, llvm::Value *dst, uint32_t size) {
    if (!task_overridden()) {
        call_helper(BPF_FUNC_get_current_comm, i64(), {dst, ir_.getInt32(size)});
        return;
    }
    const uint64_t offset = options_.kernel_member_offset
                                ? options_.kernel_member_offset("task_struct", "comm").value_or(0)
                                : 0;
    call_helper(BPF_FUNC_probe_read_kernel_str, i64(),
                {dst, ir_.getInt32(size), ir_.CreateAdd(current_task(state), const64(offset))});
}

llvm::Value *Lowering::current_process() {
    return ir_.CreateLShr(call_helper(BPF_FUNC_get_current_pid_tgid, i64(), {}), 32);
}

void Lowering::announce_process() {
    if (!processes_map_)
        processes_map_ = debug_->define_map({.name = description_.processes_map,
                                             .type = BPF_MAP_TYPE_LRU_HASH,
                                             .max_entries = 4096,
                                             .key = debug_->integer_type(4, false),
                                             .value = debug_->integer_type(1, false)});
    runtime_call("dtx_rt_announce_process",
                 {processes_map_, output_map_, const64(trace::kProcessRecordEpid)});
}

trace::ValueLayout Lowering::layout_of(const sema::Type *type, uint32_t offset) {
    trace::ValueLayout layout;
    layout.offset = offset;
    const sema::Type *t = sema::resolve(type);
    layout.size = stored_size(t);
    if (t && (sema::is_string(t) || sema::is_char_array(t))) {
        layout.kind = trace::ValueKind::String;
    } else if (t && t->kind == sema::TypeKind::Stack) {
        layout.kind = t->symbolization == sema::Symbolization::User ? trace::ValueKind::UserStack
                                                                    : trace::ValueKind::KernelStack;
    } else if (t && is_memory_value(t)) {
        layout.kind = trace::ValueKind::Bytes;
    } else if (t && t->kind == sema::TypeKind::Float && t->size <= 8) {
        layout.kind = trace::ValueKind::Float;
        layout.width = uint8_t(t->size);
    } else {
        using Form = sema::SymbolForm;
        layout.kind = trace::ValueKind::Integer;
        if (t && t->symbolization == sema::Symbolization::Kernel)
            layout.kind = t->symbol_form == Form::Module ? trace::ValueKind::KernelModule
                                                         : trace::ValueKind::KernelSymbol;
        if (t && t->symbolization == sema::Symbolization::User) {
            layout.kind = t->symbol_form == Form::Module     ? trace::ValueKind::UserModule
                          : t->symbol_form == Form::Function ? trace::ValueKind::UserSymbol
                                                             : trace::ValueKind::UserAddress;
            layout.size = 16; // the pid, then the address: see store_field()
        }
        layout.is_signed = t && sema::is_integer(t) ? t->is_signed : false;
        layout.width = t && sema::is_integer(t) && t->size ? uint8_t(t->size) : 8;
    }
    return layout;
}

llvm::Function *Lowering::new_function(std::string_view name, llvm::FunctionType *type,
                                       unsigned line,
                                       const std::vector<std::string> &argument_names) {
    auto *function = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage,
                                            llvm::StringRef(name), *module_);
    for (llvm::Argument &argument : function->args()) {
        unsigned i = argument.getArgNo();
        argument.setName(i < argument_names.size() ? argument_names[i]
                         : i == 0                  ? "dctx"
                                                   : "ctx" + std::to_string(i));
    }
    debug_->define_static_function(*function, line);
    ir_.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", function));
    ir_.SetCurrentDebugLocation(debug_->location(*function, line));
    return function;
}

// --- maps and the probes ------------------------------------------------------------

void Lowering::declare_common_maps() {
    uint64_t ring = std::bit_ceil(std::max<uint64_t>(options_.bufsize, 4096));
    output_map_ = debug_->define_map(
        {.name = "dtx_output", .type = BPF_MAP_TYPE_RINGBUF, .max_entries = uint32_t(ring)});
    drops_map_ = debug_->define_map({.name = "dtx_drops",
                                     .type = BPF_MAP_TYPE_PERCPU_ARRAY,
                                     .max_entries = uint32_t(trace::DropCounter::Count),
                                     .key = debug_->integer_type(4, false),
                                     .value = debug_->integer_type(8, false)});
    // The clause context map's value size is known only once every clause is
    // lowered: code refers to this placeholder, replaced in finish().
    dctx_map_ = new llvm::GlobalVariable(*module_, i64(), false, llvm::GlobalValue::ExternalLinkage,
                                         const64(0), "dtx_dctx_placeholder");
    nesting_map_ = debug_->define_map({.name = "dtx_nesting",
                                       .type = BPF_MAP_TYPE_PERCPU_ARRAY,
                                       .max_entries = 1,
                                       .key = debug_->integer_type(4, false),
                                       .value = debug_->integer_type(4, false)});
    walltime_offset_ =
        debug_->define_global_variable("dtx_walltime_offset", debug_->integer_type(8, false),
                                       const64(0), GlobalDataSection::ReadOnly);
    activity_ = debug_->define_global_variable("dtx_activity", debug_->integer_type(4, false),
                                               ir_.getInt32(0), GlobalDataSection::Data);
}

void Lowering::plan_enabled_probes() {
    auto add_dense = [&](const trace::Probe *probe) {
        if (dense_index_.emplace(probe->id, uint32_t(dense_probes_.size())).second)
            dense_probes_.push_back(probe);
    };
    for (const TrampolineSpec &spec : input_.trampolines)
        for (const trace::Probe *probe : spec.probes)
            add_dense(probe);
    for (const auto &probes : input_.clause_probes) // ERROR has no trampoline
        for (const trace::Probe *probe : probes)
            add_dense(probe);
    uint32_t epid = 0;
    for (uint32_t c = 0; c < input_.clause_probes.size(); c++) {
        for (const trace::Probe *probe : input_.clause_probes[c]) {
            // Named twice, the probe calls the clause twice, with one EPID.
            clauses_of_probe_[probe->id].push_back(c);
            if (!epids_.emplace(std::pair{c, probe->id}, epid + 1).second)
                continue;
            epid++;
            description_.enabled_probes.push_back({epid, probe->id, c});
        }
    }
    description_.clauses.resize(input_.program.clauses.size());
    for (uint32_t c = 0; c < description_.clauses.size(); c++) {
        description_.clauses[c].index = c;
        description_.clauses[c].location = input_.program.clauses[c]->range;
    }
}

llvm::Value *Lowering::clause_context_lookup(const TrampolineSpec &spec, llvm::Function &function,
                                             bool with_stack_context) {
    const bool sleepable = this->sleepable(spec);
    const bool on_stack = runs_without_context(spec, with_stack_context);
    llvm::AllocaInst *key;
    {
        // The key must live on the stack: map helpers take a pointer to it.
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        llvm::BasicBlock &entry = function.getEntryBlock();
        ir_.SetInsertPoint(&entry, entry.getFirstInsertionPt());
        if (on_stack) {
            // `@ = count();` and the like: the trampoline's stores and loads
            // of its fields fold away, leaving the clauses alone, as a
            // hand-written program would be.
            auto *fields = llvm::ArrayType::get(i64(), record_area_offset() / 8);
            llvm::AllocaInst *dctx = ir_.CreateAlloca(fields, nullptr, "dctx_on_stack");
            dctx->setAlignment(llvm::Align(8));
            stack_contexts_.emplace_back(dctx, spec.program_name);
            return dctx;
        }
        key = ir_.CreateAlloca(i32(), nullptr, "cpu");
    }
    auto give_up = [&] {
        if (function.getReturnType()->isVoidTy())
            ir_.CreateRetVoid();
        else
            ir_.CreateRet(llvm::Constant::getNullValue(function.getReturnType()));
    };
    if (sleepable) {
        // A sleepable program runs with migration disabled but may be
        // preempted, and sleeps in page faults: firings on one CPU need not
        // nest, so they cannot share the CPU's levels. Each thread has its
        // own clause context, made zeroed at its first firing; a thread runs
        // one uprobe program at a time, so its firings never overlap.
        if (!thread_dctx_map_)
            thread_dctx_map_ =
                new llvm::GlobalVariable(*module_, i64(), false, llvm::GlobalValue::ExternalLinkage,
                                         const64(0), "dtx_thread_dctx_placeholder");
        llvm::Value *task = call_helper(BPF_FUNC_get_current_task_btf, ptr(), {});
        llvm::Value *dctx =
            call_helper(BPF_FUNC_task_storage_get, ptr(),
                        {thread_dctx_map_, task, llvm::ConstantPointerNull::get(ir_.getPtrTy()),
                         const64(BPF_LOCAL_STORAGE_GET_F_CREATE)});
        auto *missing = llvm::BasicBlock::Create(context_, "no_thread_dctx", &function);
        auto *found = llvm::BasicBlock::Create(context_, "thread_dctx", &function);
        ir_.CreateCondBr(ir_.CreateIsNull(dctx), missing, found);
        ir_.SetInsertPoint(missing);
        auto *counted_drop = llvm::BasicBlock::Create(context_, "thread_drop_counted", &function);
        count_drop(key, trace::DropCounter::ThreadContext, counted_drop);
        ir_.SetInsertPoint(counted_drop);
        give_up();
        ir_.SetInsertPoint(found);
        store64(ir_.CreateZExt(current_cpu(), i64()), at(dctx, ClauseContextLayout::cpu));
        return dctx;
    }
    // A firing that interrupts another on this CPU (an irq's probe during a
    // probe's clauses) takes the next clause context, so the one it
    // interrupted finds its arguments, variables and record as it left them.
    ir_.CreateStore(ir_.getInt32(0), key);
    llvm::Value *counter = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {nesting_map_, key});
    auto *no_counter = llvm::BasicBlock::Create(context_, "no_nesting", &function);
    auto *counted = llvm::BasicBlock::Create(context_, "nesting", &function);
    ir_.CreateCondBr(ir_.CreateIsNull(counter), no_counter, counted);
    ir_.SetInsertPoint(no_counter);
    give_up();
    ir_.SetInsertPoint(counted);
    llvm::Value *depth = ir_.CreateLoad(i32(), counter);
    auto *too_deep = llvm::BasicBlock::Create(context_, "too_deep", &function);
    auto *level = llvm::BasicBlock::Create(context_, "level", &function);
    ir_.CreateCondBr(ir_.CreateICmpUGE(depth, ir_.getInt32(trace::kNestingLevels)), too_deep,
                     level);
    ir_.SetInsertPoint(too_deep);
    auto *counted_drop = llvm::BasicBlock::Create(context_, "nesting_drop_counted", &function);
    count_drop(key, trace::DropCounter::Nesting, counted_drop);
    ir_.SetInsertPoint(counted_drop);
    give_up();

    ir_.SetInsertPoint(level);
    llvm::Value *cpu = current_cpu();
    ir_.CreateStore(ir_.CreateAdd(ir_.CreateMul(cpu, ir_.getInt32(trace::kNestingLevels)), depth),
                    key);
    llvm::Value *dctx = call_helper(BPF_FUNC_map_lookup_elem, ptr(), {dctx_map_, key});
    auto *missing = llvm::BasicBlock::Create(context_, "no_dctx", &function);
    auto *found = llvm::BasicBlock::Create(context_, "dctx", &function);
    ir_.CreateCondBr(ir_.CreateIsNull(dctx), missing, found);
    ir_.SetInsertPoint(missing);
    give_up();
    ir_.SetInsertPoint(found);
    llvm::Instruction *taken = ir_.CreateStore(ir_.CreateAdd(depth, ir_.getInt32(1)), counter);
    nesting_levels_.push_back({&function, taken, counter, depth});
    store64(ir_.CreateZExt(cpu, i64()), at(dctx, ClauseContextLayout::cpu));
    return dctx;
}

void Lowering::release_nesting_levels() {
    for (const NestingLevel &level : nesting_levels_) {
        llvm::DominatorTree dominators(*level.function);
        for (llvm::BasicBlock &block : *level.function) {
            auto *ret = llvm::dyn_cast<llvm::ReturnInst>(block.getTerminator());
            if (ret && dominators.dominates(level.taken, ret))
                new llvm::StoreInst(level.depth, level.counter, ret);
        }
    }
    nesting_levels_.clear();
}

// --- clauses -------------------------------------------------------------------

llvm::Function *Lowering::clause_function(uint32_t clause, bool with_stack_context,
                                          bool sleepable) {
    auto [it, inserted] =
        clause_functions_.try_emplace({clause, with_stack_context, sleepable}, nullptr);
    if (!inserted)
        return it->second;
    llvm::IRBuilder<>::InsertPointGuard guard(ir_);
    const ast::Clause &node = *input_.program.clauses[clause];
    auto *type = llvm::FunctionType::get(i32(), {ptr(), ptr()}, false);
    std::string name = "dtx_clause_" + std::to_string(clause) +
                       (with_stack_context ? "" : "_nctx") + (sleepable ? "_sleepable" : "");
    llvm::Function *function = new_function(name, type, node.range.begin.line);
    it->second = function;
    function_origins_[name] = {node.range, "this clause"};

    ClauseState state;
    state.clause = &node;
    state.index = clause;
    state.function = function;
    state.clause_function = function;
    state.dctx = function->getArg(0);
    state.ctx = with_stack_context ? function->getArg(1) : nullptr;
    state.sleepable = sleepable;
    state.description = &description_.clauses[clause];
    // Each variant describes the same actions: keep one description.
    state.description->actions.clear();
    state.description->mask_offsets = {trace::kRecordMaskOffset};
    state.fault = llvm::BasicBlock::Create(context_, "abort", function);
    lower_clause(state);
    ClauseFacts &facts = clause_facts_[function];
    facts.can_fault = !llvm::pred_empty(state.fault);
    facts.reads_epid = facts.can_fault || state.description->records || state.reads_epid;
    facts.size = function_size(*function).first;
    if (facts.can_fault) {
        llvm::IRBuilder<>::InsertPointGuard fault_guard(ir_);
        ir_.SetInsertPoint(state.fault);
        if (state.speculates)
            undo_speculation(state);
        ir_.CreateRet(ir_.getInt32(1));
    } else {
        state.fault->eraseFromParent();
    }
    facts.uses_context = pointer_used(*function->getArg(0));
    return function;
}

void Lowering::lower_clause(ClauseState &state) {
    const ast::Clause &clause = *state.clause;
    state.record_offset = trace::kRecordDataStart;
    state.description->timestamp_offset.reset();
    if (options_.record_timestamps) // stored by finish_record()
        state.description->timestamp_offset = reserve_record(state, 8);
    llvm::Value *record = at(state.dctx, record_area_offset());
    llvm::StoreInst *header = // no speculation yet
        ir_.CreateAlignedStore(const64(0), record, llvm::Align(8));
    state.masks_cleared =
        ir_.CreateAlignedStore(const64(0), at(record, trace::kRecordMaskOffset), llvm::Align(8));

    auto *done = llvm::BasicBlock::Create(context_, "done", state.function);
    if (clause.predicate) {
        ir_.SetCurrentDebugLocation(debug_->location(*state.function,
                                                     clause.predicate->range.begin.line,
                                                     clause.predicate->range.begin.column));
        llvm::Value *condition = truth(*clause.predicate, state);
        auto *body = llvm::BasicBlock::Create(context_, "body", state.function);
        auto *skip = llvm::BasicBlock::Create(context_, "skip", state.function);
        ir_.CreateCondBr(condition, body, skip);
        ir_.SetInsertPoint(skip);
        ir_.CreateRet(ir_.getInt32(0));
        ir_.SetInsertPoint(body);
    }
    ClauseState whole;                  // the clause's own function, while a part is being filled
    llvm::BasicBlock *resume = nullptr; // where the clause's function calls the next part
    for (const ast::StmtPtr &stmt : clause.statements) {
        state.statement++;
        if (state.function->getInstructionCount() > kClausePartSize)
            resume = start_clause_part(state, whole, resume);
        // A statement's strings and keys in scratch are dead after it (what
        // lasts is in variables, the record or maps): the next reuses the
        // room, unless it made one of the clause's lasting areas.
        const uint32_t mark = state.scratch_offset;
        const auto lasting =
            std::tuple(state.unwind_walk_offset, state.alloca_region, state.number_slot);
        lower_statement(*stmt, state);
        if (lasting == std::tuple(state.unwind_walk_offset, state.alloca_region, state.number_slot))
            state.scratch_offset = mark;
    }
    if (state.part) {
        ir_.CreateRet(ir_.getInt32(0));
        state.restore_function(whole);
        ir_.SetInsertPoint(resume);
        ir_.SetCurrentDebugLocation(debug_->location(*state.function, clause.range.begin.line));
    }
    ir_.CreateBr(done);
    ir_.SetInsertPoint(done);

    trace::ClauseDescription &d = *state.description;
    d.record_size = state.record_offset;
    d.speculative_size = state.speculative_size;
    // As dtrace-utils: a record only for a clause with a data-recording
    // action, or with an empty body (its default action, the probe line).
    // Assignments and aggregations alone record nothing. A clause that
    // speculates records into its speculation even without one: the probe
    // line is shown if it is committed.
    d.records = !d.actions.empty() || clause.statements.empty() || state.speculates;
    // commit() and discard() record for the consumer only: dtrace shows no
    // probe line for a clause that has nothing else.
    d.shows_firing = d.actions.empty() ||
                     std::any_of(d.actions.begin(), d.actions.end(),
                                 [](const trace::ActionDescription &a) { return a.shows_firing; });
    if (d.record_size > record_area_limit_)
        error("D_CODEGEN", clause.range,
              "the clause records " + std::to_string(d.record_size) +
                  " bytes per firing, more than the limit of " +
                  std::to_string(record_area_limit_));
    record_area_size_ = std::max(record_area_size_, d.record_size);
    if (d.records) {
        finish_record(state);
    } else { // nothing reads the record
        state.masks_cleared->eraseFromParent();
        header->eraseFromParent();
    }
    ir_.CreateRet(ir_.getInt32(0));
}

// A BPF jump reaches 32767 instructions at most, and LLVM's BPF back end
// (for CPU v3) cannot go farther: the rest of a clause whose function grows
// too large goes into a function of its own, a part, which the clause's
// function calls. A part returns 0 when its statements ran to their end, 1
// on a fault (recorded in dctx), and 2 to end the clause without a record.
// The parts are called one after the other from the clause's function,
// since BPF allows only 8 nested calls.
llvm::BasicBlock *Lowering::start_clause_part(ClauseState &state, ClauseState &whole,
                                              llvm::BasicBlock *resume) {
    const unsigned line = state.clause->range.begin.line;
    const uint32_t part = state.part + 1;
    if (state.part) { // the previous part ends here
        ir_.CreateRet(ir_.getInt32(0));
        state.restore_function(whole);
        ir_.SetInsertPoint(resume);
        ir_.SetCurrentDebugLocation(debug_->location(*state.function, line));
    }
    auto *type = llvm::FunctionType::get(i32(), {ptr(), ptr()}, false);
    llvm::Function *function;
    {
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        function = new_function(state.function->getName().str() + "_part_" + std::to_string(part),
                                type, line);
    }
    function_origins_[function->getName().str()] = {state.clause->range, "this clause"};
    llvm::Value *ctx = state.ctx ? state.ctx : llvm::ConstantPointerNull::get(ir_.getPtrTy());
    llvm::Value *result = ir_.CreateCall(function, {state.dctx, ctx});
    auto *next = llvm::BasicBlock::Create(context_, "part_done", state.function);
    llvm::SwitchInst *outcome =
        ir_.CreateSwitch(result, clause_end_without_record(state), 2); // 2: no record
    outcome->addCase(ir_.getInt32(0), next);
    outcome->addCase(ir_.getInt32(1), state.fault);

    whole = state;
    state.part = part;
    state.function = function;
    state.dctx = function->getArg(0);
    state.ctx = whole.ctx ? function->getArg(1) : nullptr;
    state.fault = llvm::BasicBlock::Create(context_, "abort", function);
    state.end_without_record = nullptr;
    state.slot_key = nullptr;
    ir_.SetInsertPoint(state.fault);
    ir_.SetCurrentDebugLocation(debug_->location(*function, line));
    ir_.CreateRet(ir_.getInt32(1));
    ir_.SetInsertPoint(&function->getEntryBlock());
    return next;
}

void Lowering::finish_record(ClauseState &state) {
    llvm::Value *record = at(state.dctx, record_area_offset());
    llvm::Value *epid = ir_.CreateTrunc(load64(at(state.dctx, ClauseContextLayout::epid)), i32());
    ir_.CreateAlignedStore(epid, record, llvm::Align(4));
    ir_.CreateAlignedStore(ir_.CreateTrunc(firing_cpu(state.dctx), ir_.getInt16Ty()),
                           at(record, offsetof(trace::RecordHeader, cpu)), llvm::Align(2));
    if (const std::optional<uint32_t> offset = state.description->timestamp_offset)
        store64(firing_timestamp(state), at(record, *offset));
    llvm::Value *result =
        call_helper(BPF_FUNC_ringbuf_output, i64(),
                    {output_map_, record, const64(state.record_offset), const64(0)});
    auto *dropped = llvm::BasicBlock::Create(context_, "dropped", state.function);
    auto *written = llvm::BasicBlock::Create(context_, "written", state.function);
    ir_.CreateCondBr(ir_.CreateICmpNE(result, const64(0)), dropped, written);
    ir_.SetInsertPoint(dropped);
    if (state.speculates)
        undo_speculation(state);
    count_drop(trace::DropCounter::RingBuffer, written);
    ir_.SetInsertPoint(written);
}

void Lowering::lower_statement(const ast::Stmt &stmt, ClauseState &state) {
    ir_.SetCurrentDebugLocation(
        debug_->location(*state.function, stmt.range.begin.line, stmt.range.begin.column));
    switch (stmt.kind) {
    case ast::Stmt::Kind::Expression:
        lower_effect(*stmt.as<ast::ExpressionStmt>()->expr, state);
        return;
    case ast::Stmt::Kind::If: {
        const auto &node = *stmt.as<ast::IfStmt>();
        llvm::Value *condition = truth(*node.condition, state);
        auto *then_block = llvm::BasicBlock::Create(context_, "then", state.function);
        auto *else_block = llvm::BasicBlock::Create(context_, "else", state.function);
        auto *join = llvm::BasicBlock::Create(context_, "endif", state.function);
        ir_.CreateCondBr(condition, then_block, else_block);
        ir_.SetInsertPoint(then_block);
        lower_statement(*node.then_branch, state);
        ir_.CreateBr(join);
        ir_.SetInsertPoint(else_block);
        if (node.else_branch)
            lower_statement(*node.else_branch, state);
        ir_.CreateBr(join);
        ir_.SetInsertPoint(join);
        return;
    }
    case ast::Stmt::Kind::Block:
        for (const ast::StmtPtr &inner : stmt.as<ast::BlockStmt>()->statements)
            lower_statement(*inner, state);
        return;
    case ast::Stmt::Kind::Empty:
        return;
    }
}

// An expression evaluated for what it does: an aggregation's update, an
// action, or the Solaris idiom of actions chosen by ?: (`c ? printf("a") :
// printf("b");`), which runs the chosen branch as a statement.
void Lowering::lower_effect(const ast::Expr &expr, ClauseState &state) {
    if (auto *assign = expr.as<ast::Assign>()) {
        const ast::Expr *target = assign->target.get();
        if (auto *sub = target->as<ast::Subscript>())
            target = sub->base.get();
        if (target->kind == ast::Expr::Kind::Aggregation) {
            lower_aggregation(*assign, state);
            return;
        }
    }
    if (auto *call = expr.as<ast::Call>()) {
        lower_call(*call, /*statement=*/true, state);
        return;
    }
    if (auto *choice = expr.as<ast::Conditional>()) {
        llvm::Value *condition = truth(*choice->condition, state);
        auto *yes = llvm::BasicBlock::Create(context_, "choose_true", state.function);
        auto *no = llvm::BasicBlock::Create(context_, "choose_false", state.function);
        auto *join = llvm::BasicBlock::Create(context_, "chosen", state.function);
        ir_.CreateCondBr(condition, yes, no);
        ir_.SetInsertPoint(yes);
        lower_effect(*choice->if_true, state);
        ir_.CreateBr(join);
        ir_.SetInsertPoint(no);
        lower_effect(*choice->if_false, state);
        ir_.CreateBr(join);
        ir_.SetInsertPoint(join);
        return;
    }
    lower(expr, state);
}

// --- finishing ---------------------------------------------------------------------

uint32_t Lowering::clause_context_size() const {
    return scratch_area_offset() + std::max<uint32_t>(scratch_area_size_, 8);
}

void Lowering::note_user_memory_read(const ClauseState &state) {
    clauses_reading_user_memory_.insert(state.index);
}

std::optional<CompiledProgram> Lowering::finish() {
    // The clause context, now that the record and scratch sizes are known.
    uint32_t dctx_size = clause_context_size();
    llvm::GlobalVariable *dctx_map =
        debug_->define_map({.name = "dtx_dctx",
                            .type = BPF_MAP_TYPE_ARRAY,
                            // The session sets it: kNestingLevels per CPU.
                            .max_entries = trace::kNestingLevels,
                            .key = debug_->integer_type(4, false),
                            .value = debug_->char_array_type(dctx_size)});
    dctx_map_->replaceAllUsesWith(dctx_map);
    dctx_map_->eraseFromParent();
    dctx_map_ = dctx_map;
    if (thread_dctx_map_) {
        // Task storage: max_entries 0, an entry made on demand
        // (BPF_F_NO_PREALLOC) and freed with its thread.
        llvm::GlobalVariable *thread_dctx_map =
            debug_->define_map({.name = "dtx_thread_dctx",
                                .type = BPF_MAP_TYPE_TASK_STORAGE,
                                .max_entries = 0,
                                .key = debug_->integer_type(4, true),
                                .value = debug_->char_array_type(dctx_size),
                                .map_flags = BPF_F_NO_PREALLOC});
        thread_dctx_map_->replaceAllUsesWith(thread_dctx_map);
        thread_dctx_map_->eraseFromParent();
        thread_dctx_map_ = thread_dctx_map;
    }

    // Probe-name tables, one strsize string per enabled probe.
    static const char *const kFieldNames[4] = {"provider", "module", "function", "name"};
    for (unsigned field = 0; field < 4; field++) {
        if (!probe_names_[field])
            continue;
        std::string data;
        for (const trace::Probe *probe : dense_probes_) {
            const std::string *text[4] = {&probe->name.provider, &probe->name.module,
                                          &probe->name.function, &probe->name.name};
            std::string s = text[field]->substr(0, strsize() - 1);
            s.resize(align8(strsize()), '\0');
            data += s;
        }
        if (data.empty())
            data.assign(align8(strsize()), '\0');
        llvm::Constant *init = llvm::ConstantDataArray::getString(context_, data, false);
        auto *table = debug_->define_global_variable(std::string("dtx_probe_") + kFieldNames[field],
                                                     debug_->char_array_type(data.size()), init,
                                                     GlobalDataSection::ReadOnly);
        probe_names_[field]->replaceAllUsesWith(table);
        probe_names_[field]->eraseFromParent();
        probe_names_[field] = table;
    }

    if (strings_) {
        auto *pool = debug_->define_global_variable(
            "dtx_strings", debug_->char_array_type(string_pool_.size()),
            llvm::ConstantDataArray::getString(context_, string_pool_, false),
            GlobalDataSection::ReadOnly);
        pool->setAlignment(llvm::Align(8));
        strings_->replaceAllUsesWith(pool);
        strings_->eraseFromParent();
        strings_ = pool;
    }

    if (map_lookups_.size() > kInlinedLookups) {
        // ptr dtx_map_lookup(map, key), called with several maps: the
        // kernel leaves its lookup as it is.
        llvm::IRBuilder<>::InsertPointGuard guard(ir_);
        auto *type = llvm::FunctionType::get(ptr(), {ptr(), ptr()}, false);
        llvm::Function *lookup = new_function("dtx_map_lookup", type, 0, {"map", "key"});
        ir_.CreateRet(
            call_helper(BPF_FUNC_map_lookup_elem, ptr(), {lookup->getArg(0), lookup->getArg(1)}));
        for (llvm::WeakVH &entry : map_lookups_)
            if (auto *call = llvm::dyn_cast_or_null<llvm::CallInst>(entry))
                call->setCalledOperand(lookup);
    }

    if (description_.unwinds_user_stacks)
        emit_loader_watch();
    if (Status linked = link_runtime_library(*module_, *debug_); !linked) {
        error("D_CODEGEN", {}, "linking the run-time library: " + linked.error().message);
        return std::nullopt;
    }
    if (Status described = debug_->finalize(); !described) {
        error("D_CODEGEN", {}, "internal error: " + described.error().message);
        return std::nullopt;
    }
    std::string verifier_message;
    llvm::raw_string_ostream stream(verifier_message);
    if (llvm::verifyModule(*module_, &stream)) {
        error("D_CODEGEN",
              input_.program.clauses.empty() ? SourceRange{} : input_.program.clauses[0]->range,
              "internal error: invalid IR: " + verifier_message);
        return std::nullopt;
    }
    CompiledProgram compiled;
    description_.ring_buffer_map = "dtx_output";
    compiled.description = description_;
    return compiled;
}

std::optional<CompiledProgram>
compile_program(const CompileInput &input, const CompileOptions &options, DiagnosticEngine &diags) {
    Result<BpfEmitter> emitter = BpfEmitter::create();
    if (!emitter) {
        diags.error("D_CODEGEN", {}, emitter.error().message);
        return std::nullopt;
    }
    // An error LLVM cannot go on from is said by the lowering under way.
    std::unique_ptr<Lowering> lowering;
    LlvmFatalErrorScope fatal_errors([&](std::string_view reason) {
        if (lowering)
            lowering->report_fatal_error(reason);
        else if (options.fatal_error_output)
            options.fatal_error_output("dtx: LLVM failed: " + std::string(reason) + "\n");
    });
    // Lowered without sleepable programs first, which tells which programs
    // would gain from being sleepable; those that do are lowered again. A
    // sleepable program pays for its thread's clause context on every event.
    lowering = std::make_unique<Lowering>(input, options, diags, *emitter, std::set<std::string>{});
    if (!lowering->lower())
        return std::nullopt;
    std::set<std::string> sleepable;
    for (const auto &[program, why_not] : lowering->sleepable_choices()) {
        if (why_not.empty())
            sleepable.insert(program);
        for (const TrampolineSpec &spec : input.trampolines)
            if (spec.program_name == program && spec.sleepable_chosen)
                spec.sleepable_chosen(why_not);
    }
    if (!sleepable.empty()) {
        lowering.reset();
        lowering =
            std::make_unique<Lowering>(input, options, diags, *emitter, std::move(sleepable));
        if (!lowering->lower())
            return std::nullopt;
    }
    return lowering->emit();
}

} // namespace dtx::codegen

// IR built by hand -> codegen::BpfEmitter -> trace::BpfObject -> the running
// kernel. Needs root; tests print "skipped: <reason>" otherwise.
#include "codegen/bpf_debuginfo.h"
#include "codegen/bpf_emitter.h"
#include "libtrace/bpf_object.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace dtx {
namespace {

using codegen::BpfDebugInfo;
using codegen::BpfEmitResult;
using codegen::BpfEmitter;
using codegen::GlobalDataSection;
using trace::BpfObject;

// The BPF backend lowers a call to a constant address N to "call N", the
// helper with that number.
llvm::Value *call_helper(llvm::IRBuilder<> &builder, bpf_func_id helper, llvm::Type *result,
                         std::vector<llvm::Value *> arguments) {
    std::vector<llvm::Type *> parameters;
    for (llvm::Value *argument : arguments)
        parameters.push_back(argument->getType());
    auto *type = llvm::FunctionType::get(result, parameters, false);
    auto *address = llvm::ConstantExpr::getIntToPtr(builder.getInt64(helper), builder.getPtrTy());
    return builder.CreateCall(type, address, arguments);
}

// static void count_event(uint32_t slot): counts[slot] += 1, atomically.
llvm::Function *define_count_event(llvm::Module &module, BpfDebugInfo &debug,
                                   llvm::GlobalVariable *counts, const std::string &name,
                                   unsigned line) {
    llvm::LLVMContext &context = module.getContext();
    llvm::IRBuilder<> builder(context);
    auto *function = llvm::Function::Create(
        llvm::FunctionType::get(builder.getVoidTy(), {builder.getInt32Ty()}, false),
        llvm::GlobalValue::InternalLinkage, name, module);
    function->getArg(0)->setName("slot");
    debug.define_static_function(*function, line);

    auto *entry = llvm::BasicBlock::Create(context, "entry", function);
    auto *increment = llvm::BasicBlock::Create(context, "increment", function);
    auto *done = llvm::BasicBlock::Create(context, "done", function);
    builder.SetInsertPoint(entry);
    builder.SetCurrentDebugLocation(debug.location(*function, line));
    llvm::Value *key = builder.CreateAlloca(builder.getInt32Ty());
    builder.CreateStore(function->getArg(0), key);
    llvm::Value *value =
        call_helper(builder, BPF_FUNC_map_lookup_elem, builder.getPtrTy(), {counts, key});
    builder.CreateCondBr(builder.CreateIsNull(value), done, increment);
    builder.SetInsertPoint(increment);
    builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, value, builder.getInt64(1), llvm::Align(8),
                            llvm::AtomicOrdering::SequentiallyConsistent);
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    builder.CreateRetVoid();
    return function;
}

llvm::GlobalVariable *define_counts_map(BpfDebugInfo &debug, uint32_t entries) {
    return debug.define_map({
        .name = "counts",
        .type = BPF_MAP_TYPE_ARRAY,
        .max_entries = entries,
        .key = debug.integer_type(4, false),
        .value = debug.integer_type(8, false),
    });
}

// A program on raw_syscalls:sys_enter that counts this process's getpid()
// calls in counts[0] and getppid() calls in counts[1], through a static
// function, as a trampoline calls a clause.
std::unique_ptr<llvm::Module> build_syscall_counter(llvm::LLVMContext &context,
                                                    const BpfEmitter &emitter) {
    auto module = std::make_unique<llvm::Module>("syscall_counter", context);
    emitter.configure_module(*module);
    BpfDebugInfo debug(*module, "syscall_counter.d",
                       "syscall::getpid:entry,syscall::getppid:entry\n"
                       "/pid == $target/ { @[probefunc] = count(); }\n");
    debug.define_license();
    llvm::GlobalVariable *counts = define_counts_map(debug, 2);
    llvm::IRBuilder<> builder(context);
    llvm::GlobalVariable *target_tgid =
        debug.define_global_variable("target_tgid", debug.integer_type(4, false),
                                     builder.getInt32(0), GlobalDataSection::ReadOnly);
    llvm::Function *count_event = define_count_event(*module, debug, counts, "count_event", 2);

    auto *program = llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt32Ty(), {builder.getPtrTy()}, false),
        llvm::GlobalValue::ExternalLinkage, "count_getpid", *module);
    program->getArg(0)->setName("ctx");
    debug.define_program(*program, "raw_tracepoint/sys_enter", 1);

    auto *entry = llvm::BasicBlock::Create(context, "entry", program);
    auto *check_syscall = llvm::BasicBlock::Create(context, "check_syscall", program);
    auto *count = llvm::BasicBlock::Create(context, "count", program);
    auto *done = llvm::BasicBlock::Create(context, "done", program);
    builder.SetInsertPoint(entry);
    builder.SetCurrentDebugLocation(debug.location(*program, 1));
    llvm::Value *pid_tgid =
        call_helper(builder, BPF_FUNC_get_current_pid_tgid, builder.getInt64Ty(), {});
    llvm::Value *tgid = builder.CreateLShr(pid_tgid, 32);
    llvm::Value *target = builder.CreateZExt(
        builder.CreateLoad(builder.getInt32Ty(), target_tgid, /*isVolatile=*/true),
        builder.getInt64Ty());
    builder.CreateCondBr(builder.CreateICmpEQ(tgid, target), check_syscall, done);

    // Raw sys_enter arguments: args[0] = struct pt_regs *, args[1] = syscall number.
    builder.SetInsertPoint(check_syscall);
    llvm::Value *syscall_number =
        builder.CreateLoad(builder.getInt64Ty(),
                           builder.CreateConstGEP1_64(builder.getInt8Ty(), program->getArg(0), 8));
    llvm::Value *is_getpid = builder.CreateICmpEQ(syscall_number, builder.getInt64(SYS_getpid));
    llvm::Value *is_getppid = builder.CreateICmpEQ(syscall_number, builder.getInt64(SYS_getppid));
    builder.CreateCondBr(builder.CreateOr(is_getpid, is_getppid), count, done);

    builder.SetInsertPoint(count);
    builder.SetCurrentDebugLocation(debug.location(*program, 2));
    builder.CreateCall(count_event, {builder.CreateZExt(is_getppid, builder.getInt32Ty())});
    builder.CreateBr(done);

    builder.SetInsertPoint(done);
    builder.CreateRet(builder.getInt32(0));
    EXPECT_TRUE(debug.finalize().ok());
    return module;
}

std::string join(const std::vector<std::string> &lines) {
    std::string text;
    for (const std::string &line : lines)
        text += line + "\n";
    return text;
}

class BpfEmitterTest : public testing::Test {
protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "skipped: loading BPF programs needs root";
    }

    llvm::LLVMContext context_;
    BpfEmitter emitter_ = BpfEmitter::create().value();
};

TEST_F(BpfEmitterTest, CountsSyscallsThroughStaticFunction) {
    std::unique_ptr<llvm::Module> module = build_syscall_counter(context_, emitter_);
    emitter_.optimize(*module);
    llvm::Function *count_event = module->getFunction("count_event");
    ASSERT_TRUE(count_event && !count_event->isDeclaration()) << "count_event was inlined";
    EXPECT_NE(codegen::module_to_string(*module).find("@count_event("), std::string::npos);
    BpfEmitResult assembly = emitter_.emit_assembly(*module);
    ASSERT_TRUE(assembly.ok()) << join(assembly.errors);
    std::string assembly_text(assembly.output.begin(), assembly.output.end());
    EXPECT_NE(assembly_text.find("call count_event"), std::string::npos) << assembly_text;

    BpfEmitResult object = emitter_.emit_object(*module);
    ASSERT_TRUE(object.ok()) << join(object.errors);

    BpfObject bpf;
    auto error = bpf.open(std::move(object.output));
    ASSERT_TRUE(error) << error.error().to_string();
    uint32_t tgid = static_cast<uint32_t>(getpid());
    ASSERT_TRUE(bpf.set_global_variable("target_tgid", std::as_bytes(std::span(&tgid, 1))));
    ASSERT_FALSE(bpf.set_global_variable("no_such_variable", std::as_bytes(std::span(&tgid, 1))));
    error = bpf.load();
    ASSERT_TRUE(error) << error.error().to_string();

    // The static function stays a BPF-to-BPF call, with BTF func_info for both.
    bpf_prog_info info{};
    uint32_t info_size = sizeof(info);
    ASSERT_EQ(bpf_obj_get_info_by_fd(bpf.program_fd("count_getpid"), &info, &info_size), 0);
    EXPECT_EQ(info.nr_func_info, 2u);
    EXPECT_GT(info.nr_line_info, 0u);

    bpf_link *link = bpf_program__attach(bpf.program("count_getpid"));
    ASSERT_NE(link, nullptr) << "attach: " << std::strerror(errno);
    constexpr uint64_t kGetpidCalls = 1000;
    constexpr uint64_t kGetppidCalls = 250;
    for (uint64_t i = 0; i < kGetpidCalls; ++i)
        syscall(SYS_getpid);
    for (uint64_t i = 0; i < kGetppidCalls; ++i)
        syscall(SYS_getppid);
    bpf_link__destroy(link);

    int counts_fd = bpf.map_fd("counts");
    ASSERT_GE(counts_fd, 0);
    uint32_t slot = 0;
    uint64_t getpid_count = 0;
    uint64_t getppid_count = 0;
    ASSERT_EQ(bpf_map_lookup_elem(counts_fd, &slot, &getpid_count), 0);
    slot = 1;
    ASSERT_EQ(bpf_map_lookup_elem(counts_fd, &slot, &getppid_count), 0);
    EXPECT_EQ(getpid_count, kGetpidCalls);
    EXPECT_EQ(getppid_count, kGetppidCalls);
}

// A program reading 8 bytes at offset 64 of an 8-byte map value.
std::vector<char> compile_out_of_bounds_read(llvm::LLVMContext &context,
                                             const BpfEmitter &emitter) {
    auto module = std::make_unique<llvm::Module>("rejected", context);
    emitter.configure_module(*module);
    BpfDebugInfo debug(*module, "rejected.d", "BEGIN { trace(*(uint64_t *)(value + 64)); }\n");
    debug.define_license();
    llvm::GlobalVariable *counts = define_counts_map(debug, 1);
    llvm::IRBuilder<> builder(context);
    auto *program = llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt32Ty(), {builder.getPtrTy()}, false),
        llvm::GlobalValue::ExternalLinkage, "read_past_value", *module);
    debug.define_program(*program, "raw_tracepoint/sys_enter", 1);
    auto *entry = llvm::BasicBlock::Create(context, "entry", program);
    auto *read = llvm::BasicBlock::Create(context, "read", program);
    auto *done = llvm::BasicBlock::Create(context, "done", program);
    builder.SetInsertPoint(entry);
    builder.SetCurrentDebugLocation(debug.location(*program, 1, 9));
    llvm::Value *key = builder.CreateAlloca(builder.getInt32Ty());
    builder.CreateStore(builder.getInt32(0), key);
    llvm::Value *value =
        call_helper(builder, BPF_FUNC_map_lookup_elem, builder.getPtrTy(), {counts, key});
    builder.CreateCondBr(builder.CreateIsNull(value), done, read);
    builder.SetInsertPoint(read);
    llvm::Value *past_end = builder.CreateConstGEP1_64(builder.getInt8Ty(), value, 64);
    llvm::Value *loaded = builder.CreateLoad(builder.getInt64Ty(), past_end, /*isVolatile=*/true);
    builder.CreateRet(builder.CreateTrunc(loaded, builder.getInt32Ty()));
    builder.SetInsertPoint(done);
    builder.CreateRet(builder.getInt32(0));
    EXPECT_TRUE(debug.finalize().ok());
    emitter.optimize(*module);
    BpfEmitResult object = emitter.emit_object(*module);
    EXPECT_TRUE(object.ok()) << join(object.errors);
    return object.output;
}

TEST_F(BpfEmitterTest, VerifierRejectionQuotesLogAndProgram) {
    BpfObject bpf;
    ASSERT_TRUE(bpf.open(compile_out_of_bounds_read(context_, emitter_)));
    testing::internal::CaptureStderr();
    auto error = bpf.load();
    std::string stderr_text = testing::internal::GetCapturedStderr();
    ASSERT_FALSE(error);
    std::string text = error.error().to_string();
    std::printf("%s\n", text.c_str());
    EXPECT_EQ(error.error().subject, "read_past_value");
    EXPECT_EQ(error.error().errnum, EACCES);
    EXPECT_NE(text.find("rejected program 'read_past_value'"), std::string::npos);
    EXPECT_NE(text.find("invalid access to map value"), std::string::npos);
    // The embedded source reaches the kernel as line info.
    EXPECT_NE(text.find("rejected.d:1"), std::string::npos);
    EXPECT_LE(error.error().details.size(), 20u);
    EXPECT_EQ(stderr_text.find("libbpf"), std::string::npos) << stderr_text;
}

TEST_F(BpfEmitterTest, VerboseModeEchoesLibbpfMessages) {
    BpfObject bpf({.echo_libbpf_up_to = LIBBPF_WARN});
    ASSERT_TRUE(bpf.open(compile_out_of_bounds_read(context_, emitter_)));
    testing::internal::CaptureStderr();
    EXPECT_FALSE(bpf.load());
    std::string stderr_text = testing::internal::GetCapturedStderr();
    EXPECT_NE(stderr_text.find("libbpf: prog 'read_past_value'"), std::string::npos) << stderr_text;
}

TEST_F(BpfEmitterTest, HashMapWithStructKeyAndGlobalsHaveBtf) {
    auto module = std::make_unique<llvm::Module>("typed", context_);
    emitter_.configure_module(*module);
    BpfDebugInfo debug(*module, "typed.d", "");
    debug.define_license();
    codegen::BtfStructField fields[] = {
        {.name = "pid", .type = debug.integer_type(4, false), .offset_bytes = 0},
        {.name = "comm", .type = debug.char_array_type(16), .offset_bytes = 4},
    };
    debug.define_map({
        .name = "by_process",
        .type = BPF_MAP_TYPE_HASH,
        .max_entries = 64,
        .key = debug.struct_type("process_key", 20, fields),
        .value = debug.integer_type(8, true),
        .map_flags = BPF_F_NO_PREALLOC,
    });
    llvm::IRBuilder<> builder(context_);
    debug.define_global_variable("small", debug.integer_type(4, false), builder.getInt32(1),
                                 GlobalDataSection::ReadOnly);
    debug.define_global_variable("large", debug.integer_type(8, false), builder.getInt64(2),
                                 GlobalDataSection::ReadOnly);
    auto *program = llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt32Ty(), {builder.getPtrTy()}, false),
        llvm::GlobalValue::ExternalLinkage, "nothing", *module);
    debug.define_program(*program, "raw_tracepoint/sys_enter");
    builder.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", program));
    builder.CreateRet(builder.getInt32(0));
    EXPECT_TRUE(debug.finalize().ok());
    emitter_.optimize(*module);
    BpfEmitResult object = emitter_.emit_object(*module);
    ASSERT_TRUE(object.ok()) << join(object.errors);

    BpfObject bpf({.verifier_log_level = 1});
    auto error = bpf.open(std::move(object.output));
    ASSERT_TRUE(error) << error.error().to_string();
    uint64_t large = 0x1122334455667788;
    ASSERT_TRUE(bpf.set_global_variable("large", std::as_bytes(std::span(&large, 1))));
    uint16_t wrong_size = 0;
    EXPECT_FALSE(bpf.set_global_variable("small", std::as_bytes(std::span(&wrong_size, 1))));
    error = bpf.load();
    ASSERT_TRUE(error) << error.error().to_string();

    EXPECT_NE(bpf.verifier_log("nothing").find("processed 2 insns"), std::string_view::npos)
        << bpf.verifier_log("nothing");

    bpf_map *map = bpf.map("by_process");
    ASSERT_NE(map, nullptr);
    EXPECT_EQ(bpf_map__type(map), BPF_MAP_TYPE_HASH);
    EXPECT_EQ(bpf_map__key_size(map), 20u);
    EXPECT_EQ(bpf_map__value_size(map), 8u);
    EXPECT_EQ(bpf_map__map_flags(map), static_cast<uint32_t>(BPF_F_NO_PREALLOC));
    bpf_map_info info{};
    uint32_t info_size = sizeof(info);
    ASSERT_EQ(bpf_obj_get_info_by_fd(bpf.map_fd("by_process"), &info, &info_size), 0);
    EXPECT_NE(info.btf_key_type_id, 0u);
    EXPECT_NE(info.btf_value_type_id, 0u);

    // The read-only section as the kernel has it: both variables in place.
    struct {
        uint32_t small;
        uint64_t large;
    } rodata{};
    uint32_t zero = 0;
    ASSERT_EQ(bpf_map_lookup_elem(bpf.map_fd(".rodata"), &zero, &rodata), 0);
    EXPECT_EQ(rodata.small, 1u);
    EXPECT_EQ(rodata.large, large);
}

// bpf_loop() takes a static function's address: a relocation libbpf
// resolves, and a callback the kernel verifies through its func_info.
TEST_F(BpfEmitterTest, BpfLoopCallsStaticCallback) {
    auto module = std::make_unique<llvm::Module>("loop", context_);
    emitter_.configure_module(*module);
    BpfDebugInfo debug(*module, "loop.d", "");
    debug.define_license();
    llvm::GlobalVariable *counts = define_counts_map(debug, 1);
    llvm::Function *count_event = define_count_event(*module, debug, counts, "count_event", 0);
    llvm::IRBuilder<> builder(context_);

    // long each_iteration(uint32_t index, void *context): counts[0] += 1
    auto *callback = llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt64Ty(), {builder.getInt32Ty(), builder.getPtrTy()},
                                false),
        llvm::GlobalValue::InternalLinkage, "each_iteration", *module);
    callback->getArg(0)->setName("index");
    callback->getArg(1)->setName("context");
    debug.define_static_function(*callback);
    builder.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", callback));
    builder.SetCurrentDebugLocation(debug.location(*callback, 0));
    builder.CreateCall(count_event, {builder.getInt32(0)});
    builder.CreateRet(builder.getInt64(0)); // 0: continue looping

    auto *program = llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt32Ty(), {builder.getPtrTy()}, false),
        llvm::GlobalValue::ExternalLinkage, "loop_ten_times", *module);
    debug.define_program(*program, "raw_tracepoint/sys_enter");
    builder.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", program));
    builder.SetCurrentDebugLocation(debug.location(*program, 0));
    llvm::Value *iterations =
        call_helper(builder, BPF_FUNC_loop, builder.getInt64Ty(),
                    {builder.getInt32(10), callback,
                     llvm::ConstantPointerNull::get(builder.getPtrTy()), builder.getInt64(0)});
    builder.CreateRet(builder.CreateTrunc(iterations, builder.getInt32Ty()));
    EXPECT_TRUE(debug.finalize().ok());
    emitter_.optimize(*module);
    BpfEmitResult object = emitter_.emit_object(*module);
    ASSERT_TRUE(object.ok()) << join(object.errors);

    BpfObject bpf;
    auto error = bpf.open(std::move(object.output));
    ASSERT_TRUE(error) << error.error().to_string();
    error = bpf.load();
    ASSERT_TRUE(error) << error.error().to_string();

    // Raw tracepoint programs can run without attaching, on a made-up context.
    uint64_t raw_arguments[2] = {0, 0};
    bpf_test_run_opts run{};
    run.sz = sizeof(run);
    run.ctx_in = raw_arguments;
    run.ctx_size_in = sizeof(raw_arguments);
    ASSERT_EQ(bpf_prog_test_run_opts(bpf.program_fd("loop_ten_times"), &run), 0)
        << std::strerror(errno);
    EXPECT_EQ(run.retval, 10u);
    uint32_t slot = 0;
    uint64_t count = 0;
    ASSERT_EQ(bpf_map_lookup_elem(bpf.map_fd("counts"), &slot, &count), 0);
    EXPECT_EQ(count, 10u);
}

TEST_F(BpfEmitterTest, BackendErrorsAreCollected) {
    auto module = std::make_unique<llvm::Module>("too_many_arguments", context_);
    emitter_.configure_module(*module);
    BpfDebugInfo debug(*module, "too_many_arguments.d", "");
    debug.define_license();
    llvm::IRBuilder<> builder(context_);
    std::vector<llvm::Type *> six_words(6, builder.getInt64Ty());
    auto *callee =
        llvm::Function::Create(llvm::FunctionType::get(builder.getInt64Ty(), six_words, false),
                               llvm::GlobalValue::InternalLinkage, "six_arguments", *module);
    debug.define_static_function(*callee);
    builder.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", callee));
    builder.SetCurrentDebugLocation(debug.location(*callee, 0));
    // Every argument used, or dead-argument elimination would drop some.
    llvm::Value *sum = callee->getArg(0);
    for (unsigned i = 1; i < six_words.size(); ++i)
        sum = builder.CreateAdd(sum, callee->getArg(i));
    builder.CreateRet(sum);

    auto *program = llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt32Ty(), {builder.getPtrTy()}, false),
        llvm::GlobalValue::ExternalLinkage, "caller", *module);
    debug.define_program(*program, "raw_tracepoint/sys_enter");
    builder.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", program));
    builder.SetCurrentDebugLocation(debug.location(*program, 0));
    llvm::Value *pid_tgid =
        call_helper(builder, BPF_FUNC_get_current_pid_tgid, builder.getInt64Ty(), {});
    std::vector<llvm::Value *> arguments(6, pid_tgid);
    builder.CreateRet(
        builder.CreateTrunc(builder.CreateCall(callee, arguments), builder.getInt32Ty()));
    EXPECT_TRUE(debug.finalize().ok());
    emitter_.optimize(*module);
    BpfEmitResult object = emitter_.emit_object(*module);
    EXPECT_FALSE(object.ok());
    EXPECT_TRUE(object.output.empty());
    std::printf("backend error: %s", join(object.errors).c_str());
}

// Not a pass/fail test: prints how long a module of 100 clause-sized
// functions takes to build, optimize, emit and load.
TEST_F(BpfEmitterTest, TimesHundredFunctionModule) {
    using Clock = std::chrono::steady_clock;
    auto milliseconds = [](Clock::duration duration) {
        return std::chrono::duration<double, std::milli>(duration).count();
    };
    constexpr unsigned kFunctions = 100;

    Clock::time_point start = Clock::now();
    auto module = std::make_unique<llvm::Module>("hundred", context_);
    emitter_.configure_module(*module);
    BpfDebugInfo debug(*module, "hundred.d", "");
    debug.define_license();
    llvm::GlobalVariable *counts = define_counts_map(debug, kFunctions);
    std::vector<llvm::Function *> clauses;
    for (unsigned i = 0; i < kFunctions; ++i)
        clauses.push_back(
            define_count_event(*module, debug, counts, "clause_" + std::to_string(i), i + 1));
    llvm::IRBuilder<> builder(context_);
    auto *program = llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt32Ty(), {builder.getPtrTy()}, false),
        llvm::GlobalValue::ExternalLinkage, "trampoline", *module);
    debug.define_program(*program, "raw_tracepoint/sys_enter");
    builder.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", program));
    builder.SetCurrentDebugLocation(debug.location(*program, 0));
    for (unsigned i = 0; i < kFunctions; ++i)
        builder.CreateCall(clauses[i], {builder.getInt32(i)});
    builder.CreateRet(builder.getInt32(0));
    EXPECT_TRUE(debug.finalize().ok());
    Clock::time_point built = Clock::now();

    emitter_.optimize(*module);
    Clock::time_point optimized = Clock::now();
    BpfEmitResult object = emitter_.emit_object(*module);
    ASSERT_TRUE(object.ok()) << join(object.errors);
    Clock::time_point emitted = Clock::now();

    BpfObject bpf;
    auto error = bpf.open(std::move(object.output));
    ASSERT_TRUE(error) << error.error().to_string();
    error = bpf.load();
    ASSERT_TRUE(error) << error.error().to_string();
    Clock::time_point loaded = Clock::now();

    std::printf("%u functions: build IR %.1f ms, optimize %.1f ms, emit %.1f ms, "
                "open+load %.1f ms\n",
                kFunctions, milliseconds(built - start), milliseconds(optimized - built),
                milliseconds(emitted - optimized), milliseconds(loaded - emitted));
}

} // namespace
} // namespace dtx

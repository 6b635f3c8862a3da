// The run-time library (codegen/runtime/*.c) in the running
// kernel: each function is linked into a tiny module whose raw tracepoint
// program calls it with pointers into a map value and a constant strsize,
// and is run with BPF_PROG_TEST_RUN on strings written to that map.
// Kernel tests need root; they print "skipped: <reason>" otherwise.
#include "codegen/bpf_debuginfo.h"
#include "codegen/bpf_emitter.h"
#include "codegen/runtime_library.h"
#include "libtrace/bpf_object.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dtx {
namespace {

using codegen::BpfDebugInfo;
using codegen::BpfEmitResult;
using codegen::BpfEmitter;
using codegen::kRuntimeOmittedArgument;
using trace::BpfObject;

constexpr uint64_t kStrsize = 256;
constexpr int64_t kOmitted = kRuntimeOmittedArgument;

// The test map's only value: the programs read their arguments from it and
// store the function's result in it.
struct Scratch {
    char input[3][kStrsize];
    char output[kStrsize];
    char strtok_state[codegen::runtime_strtok_state_size(kStrsize)];
    int64_t integer[2];
    int64_t result;
    // A second output, which later calls read: a string the program computed.
    char computed[kStrsize];
};

// String literals, in ".rodata" as the code generator puts them: the
// verifier knows their bytes.
constexpr std::array<std::string_view, 2> kLiterals = {"/usr/lib/libc.so.6", "lib"};

enum class Argument {
    Output,
    Input0,
    Input1,
    Input2,
    Input0OrNull, // input[0], or NULL when integer[0] is 0
    Integer0,
    Integer1,
    StrtokState,
    Size,
    Computed,  // Scratch::computed, as an input or an output
    Literal0,  // kLiterals[0]
    Literal1,  // kLiterals[1]
    Constant0, // RuntimeCall::constants[0]
    Constant1, // RuntimeCall::constants[1]
};

// One call of a run-time function in a test program.
struct RuntimeCall {
    std::string function;
    std::vector<Argument> arguments;
    std::array<int64_t, 2> constants = {0, 0};
};

const std::vector<RuntimeCall> &all_calls() {
    using enum Argument;
    static const std::vector<RuntimeCall> calls = {
        {"dtx_rt_strlen", {Input0, Size}},
        {"dtx_rt_strcmp", {Input0, Input1, Size}},
        {"dtx_rt_strjoin", {Output, Input0, Input1, Size}},
        {"dtx_rt_substr", {Output, Input0, Integer0, Integer1, Size}},
        {"dtx_rt_index", {Input0, Input1, Integer0, Size}},
        {"dtx_rt_rindex", {Input0, Input1, Integer0, Size}},
        {"dtx_rt_strchr", {Output, Input0, Integer0, Size}},
        {"dtx_rt_strrchr", {Output, Input0, Integer0, Size}},
        {"dtx_rt_strstr", {Output, Input0, Input1, Size}},
        {"dtx_rt_basename", {Output, Input0, Size}},
        {"dtx_rt_dirname", {Output, Input0, Size}},
        {"dtx_rt_lltostr", {Output, Integer0, Integer1, Size}},
        {"dtx_rt_toupper", {Output, Input0, Size}},
        {"dtx_rt_tolower", {Output, Input0, Size}},
        // strtok's state stands for the scratch these take as work space.
        {"dtx_rt_strtoll", {Input0, Integer0, StrtokState, Size}},
        {"dtx_rt_cleanpath", {Output, Input0, StrtokState, Size}},
        {"dtx_rt_inet_ntop", {Output, StrtokState, Integer0, Size}},
        {"dtx_rt_link_ntop", {Output, StrtokState, Integer0, Size}},
        {"dtx_rt_strtok", {Output, Input0OrNull, Input1, StrtokState, Size}},
    };
    return calls;
}

const RuntimeCall &call_of(std::string_view function) {
    for (const RuntimeCall &call : all_calls())
        if (call.function == function)
            return call;
    throw std::invalid_argument("no test call for " + std::string(function));
}

std::string join(const std::vector<std::string> &lines) {
    std::string text;
    for (const std::string &line : lines)
        text += line + "\n";
    return text;
}

// Why link_runtime_library() failed; "" when it linked.
std::string link_failure(llvm::Module &module, BpfDebugInfo &debug) {
    Status linked = codegen::link_runtime_library(module, debug);
    return linked ? "" : linked.error().message;
}

// A module with one program, "run", that looks up the map's value and makes
// `calls` in turn with arguments from it, strsize `size`, storing each
// result in Scratch::result. Empty (with a test failure) if it does not build.
std::vector<char> compile(llvm::LLVMContext &context, const BpfEmitter &emitter,
                          const std::vector<RuntimeCall> &calls, uint64_t size) {
    auto module = std::make_unique<llvm::Module>("runtime_test", context);
    emitter.configure_module(*module);
    BpfDebugInfo debug(*module, "runtime_test.d", "");
    debug.define_license();
    llvm::GlobalVariable *map = debug.define_map({
        .name = "scratch",
        .type = BPF_MAP_TYPE_ARRAY,
        .max_entries = 1,
        .key = debug.integer_type(4, false),
        .value = debug.char_array_type(sizeof(Scratch)),
    });
    llvm::IRBuilder<> builder(context);
    auto *program = llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt32Ty(), {builder.getPtrTy()}, false),
        llvm::GlobalValue::ExternalLinkage, "run", *module);
    program->getArg(0)->setName("ctx");
    debug.define_program(*program, "raw_tp", 1);
    auto *entry = llvm::BasicBlock::Create(context, "entry", program);
    auto *body = llvm::BasicBlock::Create(context, "body", program);
    auto *done = llvm::BasicBlock::Create(context, "done", program);
    builder.SetInsertPoint(entry);
    builder.SetCurrentDebugLocation(debug.location(*program, 1));
    llvm::Value *key = builder.CreateAlloca(builder.getInt32Ty());
    builder.CreateStore(builder.getInt32(0), key);
    auto *lookup_type = llvm::FunctionType::get(builder.getPtrTy(),
                                                {builder.getPtrTy(), builder.getPtrTy()}, false);
    llvm::Value *value =
        builder.CreateCall(lookup_type,
                           llvm::ConstantExpr::getIntToPtr(
                               builder.getInt64(BPF_FUNC_map_lookup_elem), builder.getPtrTy()),
                           {map, key});
    builder.CreateCondBr(builder.CreateIsNull(value), done, body);

    std::array<llvm::GlobalVariable *, kLiterals.size()> literals{};
    auto literal = [&](size_t index) {
        if (!literals[index]) {
            std::string padded(kLiterals[index]);
            padded.resize(kStrsize, '\0');
            literals[index] = debug.define_global_variable(
                "literal_" + std::to_string(index), debug.char_array_type(kStrsize),
                llvm::ConstantDataArray::getString(context, padded, false),
                codegen::GlobalDataSection::ReadOnly);
        }
        return literals[index];
    };

    builder.SetInsertPoint(body);
    auto field = [&](size_t offset) {
        return builder.CreateConstGEP1_64(builder.getInt8Ty(), value, offset);
    };
    auto integer = [&](int index) {
        return builder.CreateLoad(builder.getInt64Ty(),
                                  field(offsetof(Scratch, integer) + 8 * index));
    };
    for (const RuntimeCall &call : calls) {
        llvm::Function *function = codegen::runtime_function(*module, call.function);
        if (!function) {
            ADD_FAILURE() << "no run-time function " << call.function;
            return {};
        }
        std::vector<llvm::Value *> arguments;
        for (Argument argument : call.arguments) {
            switch (argument) {
            case Argument::Output:
                arguments.push_back(field(offsetof(Scratch, output)));
                break;
            case Argument::Input0:
            case Argument::Input1:
            case Argument::Input2: {
                size_t index =
                    static_cast<size_t>(argument) - static_cast<size_t>(Argument::Input0);
                arguments.push_back(field(offsetof(Scratch, input) + kStrsize * index));
                break;
            }
            case Argument::Input0OrNull:
                arguments.push_back(
                    builder.CreateSelect(builder.CreateICmpNE(integer(0), builder.getInt64(0)),
                                         field(offsetof(Scratch, input)),
                                         llvm::ConstantPointerNull::get(builder.getPtrTy())));
                break;
            case Argument::Integer0:
                arguments.push_back(integer(0));
                break;
            case Argument::Integer1:
                arguments.push_back(integer(1));
                break;
            case Argument::StrtokState:
                arguments.push_back(field(offsetof(Scratch, strtok_state)));
                break;
            case Argument::Size:
                arguments.push_back(builder.getInt64(size));
                break;
            case Argument::Computed:
                arguments.push_back(field(offsetof(Scratch, computed)));
                break;
            case Argument::Literal0:
            case Argument::Literal1:
                arguments.push_back(literal(argument == Argument::Literal0 ? 0 : 1));
                break;
            case Argument::Constant0:
            case Argument::Constant1:
                arguments.push_back(
                    builder.getInt64(call.constants[argument == Argument::Constant0 ? 0 : 1]));
                break;
            }
        }
        llvm::Value *result = builder.CreateCall(function, arguments);
        builder.CreateStore(result, field(offsetof(Scratch, result)));
    }
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
    builder.CreateRet(builder.getInt32(0));

    if (Status linked = codegen::link_runtime_library(*module, debug); !linked) {
        ADD_FAILURE() << linked.error().message;
        return {};
    }
    EXPECT_TRUE(debug.finalize().ok());
    emitter.optimize(*module);
    BpfEmitResult object = emitter.emit_object(*module);
    if (!object.ok()) {
        ADD_FAILURE() << join(object.errors);
        return {};
    }
    return object.output;
}

// "processed N insns" from a verifier log with statistics; -1 if missing.
long processed_instructions(std::string_view log) {
    static const std::regex processed("processed ([0-9]+) insns");
    std::cmatch match;
    if (!std::regex_search(log.begin(), log.end(), match, processed))
        return -1;
    return std::stol(match[1]);
}

// A loaded test program and its map.
class RuntimeProgram {
public:
    // Loads a program making `calls` with strsize `size`; check ok().
    RuntimeProgram(llvm::LLVMContext &context, const BpfEmitter &emitter,
                   const std::vector<RuntimeCall> &calls, uint64_t size = kStrsize)
        : bpf_({.verifier_log_level = 4}) { // statistics only
        std::vector<char> object = compile(context, emitter, calls, size);
        if (object.empty())
            return;
        if (dtx::Status opened = bpf_.open(object); !opened) {
            ADD_FAILURE() << opened.error().to_string();
            return;
        }
        if (!bpf_.load()) {
            // A statistics-only log does not say why: load again with the
            // log libbpf asks for after a failure.
            BpfObject again({.error_log_lines = 60});
            dtx::Status loaded = again.open(std::move(object));
            if (loaded)
                loaded = again.load();
            ADD_FAILURE() << (loaded ? "loads the second time" : loaded.error().to_string());
            return;
        }
        loaded_ = true;
    }

    bool ok() const { return loaded_; }
    long processed_instructions() const {
        return dtx::processed_instructions(bpf_.verifier_log("run"));
    }

    // Writes `input` to the map, runs the program, returns the map's value.
    Scratch run(const Scratch &input) {
        uint32_t key = 0;
        Scratch result{};
        if (bpf_map_update_elem(bpf_.map_fd("scratch"), &key, &input, BPF_ANY) != 0) {
            ADD_FAILURE() << "map update: " << std::strerror(errno);
            return result;
        }
        uint64_t raw_arguments[2] = {0, 0};
        bpf_test_run_opts run{};
        run.sz = sizeof(run);
        run.ctx_in = raw_arguments;
        run.ctx_size_in = sizeof(raw_arguments);
        if (bpf_prog_test_run_opts(bpf_.program_fd("run"), &run) != 0) {
            ADD_FAILURE() << "test run: " << std::strerror(errno);
            return result;
        }
        if (bpf_map_lookup_elem(bpf_.map_fd("scratch"), &key, &result) != 0)
            ADD_FAILURE() << "map lookup: " << std::strerror(errno);
        return result;
    }

private:
    BpfObject bpf_;
    bool loaded_ = false;
};

void set_string(char (&buffer)[kStrsize], std::string_view text) {
    std::memset(buffer, 0, sizeof(buffer));
    std::memcpy(buffer, text.data(), std::min<size_t>(text.size(), kStrsize));
}

// Output bytes the functions must not touch are set to this first.
constexpr char kUntouched = 'Z';

Scratch make_scratch(std::vector<std::string> inputs, int64_t integer0 = 0, int64_t integer1 = 0) {
    Scratch scratch{};
    for (size_t i = 0; i < inputs.size(); ++i)
        set_string(scratch.input[i], inputs[i]);
    std::memset(scratch.output, kUntouched, sizeof(scratch.output));
    scratch.integer[0] = integer0;
    scratch.integer[1] = integer1;
    scratch.result = -12345;
    return scratch;
}

// The output as a string: up to its NUL, or all of it if there is none (a
// failure the caller's comparison shows).
std::string output_of(const Scratch &scratch) {
    return std::string(scratch.output, strnlen(scratch.output, kStrsize));
}

// One call: string inputs, two integers, the expected result and output.
struct Case {
    std::vector<std::string> inputs{};
    int64_t integer0 = 0;
    int64_t integer1 = 0;
    int64_t result = 0;
    std::optional<std::string> output{};
};

std::string describe(const std::string &function, const Case &test) {
    std::string text = function + "(";
    for (const std::string &input : test.inputs)
        text += "\"" + input + "\", ";
    return text + std::to_string(test.integer0) + ", " + std::to_string(test.integer1) + ")";
}

class RuntimeLibraryTest : public testing::Test {
protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "skipped: loading BPF programs needs root";
    }

    // Loads a program calling `function` and checks it on every case.
    void check(const std::string &function, const std::vector<Case> &cases) {
        RuntimeProgram program(context_, emitter_, {call_of(function)});
        ASSERT_TRUE(program.ok());
        std::printf("%s: the verifier processed %ld instructions\n", function.c_str(),
                    program.processed_instructions());

        for (const Case &test : cases) {
            SCOPED_TRACE(describe(function, test));
            Scratch result = program.run(make_scratch(test.inputs, test.integer0, test.integer1));
            EXPECT_EQ(result.result, test.result);
            if (test.output) {
                EXPECT_EQ(output_of(result), *test.output);
            }
        }
    }

    llvm::LLVMContext context_;
    BpfEmitter emitter_ = BpfEmitter::create().value();
};

TEST_F(RuntimeLibraryTest, Strlen) {
    check("dtx_rt_strlen", {
                               {.inputs = {""}, .result = 0},
                               {.inputs = {"a"}, .result = 1},
                               {.inputs = {"hello, world"}, .result = 12},
                               {.inputs = {std::string(255, 'x')}, .result = 255},
                               // No NUL within strsize: read as if the last byte were one.
                               {.inputs = {std::string(256, 'x')}, .result = 255},
                           });
}

TEST_F(RuntimeLibraryTest, Strcmp) {
    check("dtx_rt_strcmp",
          {
              {.inputs = {"", ""}, .result = 0},
              {.inputs = {"abc", "abc"}, .result = 0},
              {.inputs = {"a", "b"}, .result = -1},
              {.inputs = {"b", "a"}, .result = 1},
              {.inputs = {"abc", "ab"}, .result = 'c'},
              {.inputs = {"ab", "abc"}, .result = -'c'},
              {.inputs = {"", "a"}, .result = -'a'},
              // Bytes compare as unsigned.
              {.inputs = {"\xff", "a"}, .result = 0xff - 'a'},
              {.inputs = {std::string(255, 'x'), std::string(255, 'x')}, .result = 0},
              {.inputs = {std::string(254, 'x') + "a", std::string(255, 'x')}, .result = 'a' - 'x'},
          });
}

TEST_F(RuntimeLibraryTest, Strjoin) {
    std::string long_a(200, 'a');
    std::string long_b(100, 'b');
    check(
        "dtx_rt_strjoin",
        {
            {.inputs = {"foo", "bar"}, .result = 1, .output = "foobar"},
            {.inputs = {"", "bar"}, .result = 1, .output = "bar"},
            {.inputs = {"foo", ""}, .result = 1, .output = "foo"},
            {.inputs = {"", ""}, .result = 1, .output = ""},
            {.inputs = {std::string(254, 'a'), "b"},
             .result = 1,
             .output = std::string(254, 'a') + "b"},
            // Truncated to strsize - 1 bytes.
            {.inputs = {long_a, long_b}, .result = 1, .output = (long_a + long_b).substr(0, 255)},
            {.inputs = {std::string(255, 'a'), "b"}, .result = 1, .output = std::string(255, 'a')},
        });
}

TEST_F(RuntimeLibraryTest, Substr) {
    const std::string s = "foobarbazbop";
    check(
        "dtx_rt_substr",
        {
            {.inputs = {s},
             .integer0 = 3,
             .integer1 = kOmitted,
             .result = 1,
             .output = "barbazbop"},
            {.inputs = {s}, .integer0 = 0, .integer1 = kOmitted, .result = 1, .output = s},
            {.inputs = {s},
             .integer0 = 1,
             .integer1 = kOmitted,
             .result = 1,
             .output = s.substr(1)},
            {.inputs = {s}, .integer0 = 11, .integer1 = kOmitted, .result = 1, .output = "p"},
            {.inputs = {s}, .integer0 = 12, .integer1 = kOmitted, .result = 1, .output = ""},
            {.inputs = {s}, .integer0 = 300, .integer1 = kOmitted, .result = 1, .output = ""},
            {.inputs = {s}, .integer0 = 12345678, .integer1 = kOmitted, .result = 1, .output = ""},
            // A negative index counts from the end.
            {.inputs = {s},
             .integer0 = -10,
             .integer1 = kOmitted,
             .result = 1,
             .output = "obarbazbop"},
            {.inputs = {s}, .integer0 = -12, .integer1 = kOmitted, .result = 1, .output = s},
            // Before the start: what lies before it counts against the
            // length, which is strsize when omitted.
            {.inputs = {s}, .integer0 = -13, .integer1 = kOmitted, .result = 1, .output = s},
            {.inputs = {s}, .integer0 = -300, .integer1 = kOmitted, .result = 1, .output = ""},
            {.inputs = {s}, .integer0 = -14, .integer1 = 5, .result = 1, .output = "foo"},
            {.inputs = {s}, .integer0 = -14, .integer1 = 2, .result = 1, .output = ""},
            {.inputs = {s}, .integer0 = -3, .integer1 = 2, .result = 1, .output = "bo"},
            {.inputs = {s}, .integer0 = 3, .integer1 = 3, .result = 1, .output = "bar"},
            {.inputs = {s}, .integer0 = 3, .integer1 = 0, .result = 1, .output = ""},
            {.inputs = {s}, .integer0 = 0, .integer1 = 100, .result = 1, .output = s},
            {.inputs = {s}, .integer0 = 11, .integer1 = 5, .result = 1, .output = "p"},
            // A negative length leaves bytes off the end.
            {.inputs = {s}, .integer0 = 3, .integer1 = -3, .result = 1, .output = "barbaz"},
            {.inputs = {s}, .integer0 = 0, .integer1 = -1, .result = 1, .output = s.substr(0, 11)},
            {.inputs = {s}, .integer0 = 3, .integer1 = -9, .result = 1, .output = ""},
            {.inputs = {s}, .integer0 = 3, .integer1 = -10, .result = 1, .output = ""},
            {.inputs = {s}, .integer0 = -1, .integer1 = -1, .result = 1, .output = ""},
            // Extremes do not overflow.
            {.inputs = {s}, .integer0 = INT64_MIN, .integer1 = 5, .result = 1, .output = ""},
            {.inputs = {s},
             .integer0 = INT64_MIN,
             .integer1 = INT64_MIN,
             .result = 1,
             .output = ""},
            {.inputs = {s},
             .integer0 = 2,
             .integer1 = INT64_MAX - 1,
             .result = 1,
             .output = s.substr(2)},
            {.inputs = {s},
             .integer0 = -5,
             .integer1 = INT64_MAX - 1,
             .result = 1,
             .output = "azbop"},
            {.inputs = {s}, .integer0 = 2, .integer1 = INT64_MIN, .result = 1, .output = ""},
            {.inputs = {""}, .integer0 = 0, .integer1 = kOmitted, .result = 1, .output = ""},
            {.inputs = {""}, .integer0 = -1, .integer1 = 5, .result = 1, .output = ""},
            {.inputs = {std::string(255, 'x')},
             .integer0 = 0,
             .integer1 = kOmitted,
             .result = 1,
             .output = std::string(255, 'x')},
            {.inputs = {std::string(255, 'x')},
             .integer0 = 254,
             .integer1 = kOmitted,
             .result = 1,
             .output = "x"},
        });
}

// The cases of dtrace-utils' test/unittest/funcs/tst.index.d, whose expected
// results Perl produced.
std::vector<Case> index_cases(bool reverse) {
    struct Expected {
        std::string s, sub;
        int64_t omitted;
        std::vector<std::pair<int64_t, int64_t>> by_start; // start -> result
    };
    std::vector<Expected> table;
    if (!reverse)
        table = {
            {"foobarbaz",
             "barbaz",
             3,
             {{-400, 3}, {-1, 3}, {0, 3}, {4, -1}, {9, -1}, {10, -1}, {400, -1}}},
            {"foofoofoo", "foo", 0, {{-1, 0}, {0, 0}, {4, 6}, {6, 6}, {7, -1}, {9, -1}, {400, -1}}},
            {"boofoofoo", "foo", 3, {{-400, 3}, {0, 3}, {4, 6}, {9, -1}, {11, -1}}},
            {"foobarbaz", "barbazzy", -1, {{-1, -1}, {0, -1}, {400, -1}}},
            {"foobar", "foobar", 0, {{-1, 0}, {0, 0}, {1, -1}, {7, -1}}},
            {"foobar", "foobarbaz", -1, {{0, -1}, {3, -1}}},
            {"", "foobar", -1, {{-1, -1}, {0, -1}, {1, -1}}},
            {"foobar", "", 0, {{-400, 0}, {-1, 0}, {0, 0}, {3, 3}, {6, 6}, {7, 6}, {400, 6}}},
            {"", "", 0, {{-400, 0}, {-1, 0}, {0, 0}, {1, 0}}},
            {"foo", "", 0, {{2, 2}, {3, 3}, {4, 3}}},
        };
    else
        table = {
            {"foobarbaz",
             "barbaz",
             3,
             {{-400, -1}, {-1, -1}, {0, -1}, {4, 3}, {9, 3}, {10, 3}, {400, 3}}},
            {"foofoofoo", "foo", 6, {{-1, -1}, {0, 0}, {4, 3}, {6, 6}, {9, 6}, {400, 6}}},
            {"boofoofoo", "foo", 6, {{-400, -1}, {0, -1}, {4, 3}, {9, 6}, {11, 6}}},
            {"foobarbaz", "barbazzy", -1, {{-1, -1}, {0, -1}, {400, -1}}},
            {"foobar", "foobar", 0, {{-1, -1}, {0, 0}, {3, 0}, {400, 0}}},
            {"foobar", "foobarbaz", -1, {{0, -1}, {6, -1}, {400, -1}}},
            {"", "foobar", -1, {{-1, -1}, {0, -1}, {1, -1}}},
            {"foobar", "", 6, {{-400, 0}, {-1, 0}, {0, 0}, {3, 3}, {6, 6}, {7, 6}, {400, 6}}},
            {"", "", 0, {{-400, 0}, {-1, 0}, {0, 0}, {1, 0}}},
            {"foo", "", 3, {{2, 2}, {3, 3}, {4, 3}}},
        };
    std::vector<Case> cases;
    for (const Expected &expected : table) {
        cases.push_back({.inputs = {expected.s, expected.sub},
                         .integer0 = kOmitted,
                         .result = expected.omitted});
        for (auto [start, result] : expected.by_start)
            cases.push_back(
                {.inputs = {expected.s, expected.sub}, .integer0 = start, .result = result});
    }
    // Near the end of a full-length string.
    std::string full = std::string(249, 'a') + "needle";
    cases.push_back({.inputs = {full, "needle"}, .integer0 = kOmitted, .result = 249});
    cases.push_back({.inputs = {full, "needles"}, .integer0 = kOmitted, .result = -1});
    cases.push_back({.inputs = {full, "a"}, .integer0 = kOmitted, .result = reverse ? 248 : 0});
    return cases;
}

TEST_F(RuntimeLibraryTest, Index) {
    check("dtx_rt_index", index_cases(false));
}

TEST_F(RuntimeLibraryTest, Rindex) {
    check("dtx_rt_rindex", index_cases(true));
}

TEST_F(RuntimeLibraryTest, Strchr) {
    check(
        "dtx_rt_strchr",
        {
            {.inputs = {"foo/bar/baz"}, .integer0 = '/', .result = 1, .output = "/bar/baz"},
            {.inputs = {"foo/bar/baz"}, .integer0 = 'f', .result = 1, .output = "foo/bar/baz"},
            {.inputs = {"foo/bar/baz"}, .integer0 = 'z', .result = 1, .output = "z"},
            {.inputs = {"foo/bar/baz"}, .integer0 = 'x', .result = 0, .output = ""},
            // Only the low byte of the character counts.
            {.inputs = {"foo/bar/baz"}, .integer0 = 0x100 + '/', .result = 1, .output = "/bar/baz"},
            {.inputs = {"caf\xe9!"}, .integer0 = 0xe9, .result = 1, .output = "\xe9!"},
            // The terminating NUL is part of the string.
            {.inputs = {"foo"}, .integer0 = 0, .result = 1, .output = ""},
            {.inputs = {""}, .integer0 = 'a', .result = 0, .output = ""},
            {.inputs = {""}, .integer0 = 0, .result = 1, .output = ""},
            {.inputs = {std::string(254, 'a') + "b"}, .integer0 = 'b', .result = 1, .output = "b"},
        });
}

TEST_F(RuntimeLibraryTest, Strrchr) {
    check("dtx_rt_strrchr",
          {
              {.inputs = {"foo/bar/baz"}, .integer0 = '/', .result = 1, .output = "/baz"},
              {.inputs = {"foo/bar/baz"}, .integer0 = 'o', .result = 1, .output = "o/bar/baz"},
              {.inputs = {"foo/bar/baz"}, .integer0 = 'f', .result = 1, .output = "foo/bar/baz"},
              {.inputs = {"foo/bar/baz"}, .integer0 = 'x', .result = 0, .output = ""},
              {.inputs = {"aaa"}, .integer0 = 'a', .result = 1, .output = "a"},
              {.inputs = {"foo"}, .integer0 = 0, .result = 1, .output = ""},
              {.inputs = {""}, .integer0 = 'a', .result = 0, .output = ""},
              {.inputs = {""}, .integer0 = 0, .result = 1, .output = ""},
              {.inputs = {"b" + std::string(254, 'a')},
               .integer0 = 'b',
               .result = 1,
               .output = "b" + std::string(254, 'a')},
          });
}

TEST_F(RuntimeLibraryTest, Strstr) {
    check(
        "dtx_rt_strstr",
        {
            {.inputs = {"foobarbaz", "bar"}, .result = 1, .output = "barbaz"},
            {.inputs = {"foobarbaz", "baz"}, .result = 1, .output = "baz"},
            {.inputs = {"foobarbaz", "foo"}, .result = 1, .output = "foobarbaz"},
            {.inputs = {"foobarbaz", "x"}, .result = 0, .output = ""},
            {.inputs = {"foobarbaz", "bazz"}, .result = 0, .output = ""},
            {.inputs = {"aaab", "aab"}, .result = 1, .output = "aab"},
            {.inputs = {"foo", "foobar"}, .result = 0, .output = ""},
            {.inputs = {"foobarbaz", ""}, .result = 1, .output = "foobarbaz"},
            {.inputs = {"", ""}, .result = 1, .output = ""},
            {.inputs = {"", "a"}, .result = 0, .output = ""},
            {.inputs = {std::string(250, 'a') + "bcdef", "bcdef"}, .result = 1, .output = "bcdef"},
        });
}

// Each path with its basename and dirname, as DTrace computes them.
const std::vector<std::array<std::string, 3>> &paths() {
    static const std::vector<std::array<std::string, 3>> table = {
        {"", ".", "."},
        {"/", "/", "/"},
        {"///", "/", "/"},
        {"foo", "foo", "."},
        {"foo/", "foo", "."},
        {"a//", "a", "."},
        {"/foo", "foo", "/"},
        {"//foo", "foo", "/"},
        {"/foo/", "foo", "/"},
        {"/foo/bar", "bar", "/foo"},
        {"/foo/bar/", "bar", "/foo"},
        {"/foo//bar//", "bar", "/foo"},
        {"foo/bar", "bar", "foo"},
        {"foo//bar", "bar", "foo"},
        {"a/b/c", "c", "a/b"},
        {"/usr/lib/libc.so.1", "libc.so.1", "/usr/lib"},
        {".", ".", "."},
        {"..", "..", "."},
        {"/a/../b", "b", "/a/.."},
        {std::string(254, 'd') + "/", std::string(254, 'd'), "."},
        {"/" + std::string(254, 'b'), std::string(254, 'b'), "/"},
        {std::string(200, 'd') + "/" + std::string(54, 'b'), std::string(54, 'b'),
         std::string(200, 'd')},
    };
    return table;
}

TEST_F(RuntimeLibraryTest, Basename) {
    std::vector<Case> cases;
    for (const auto &[path, base, directory] : paths())
        cases.push_back({.inputs = {path}, .result = 1, .output = base});
    check("dtx_rt_basename", cases);
}

TEST_F(RuntimeLibraryTest, Dirname) {
    std::vector<Case> cases;
    for (const auto &[path, base, directory] : paths())
        cases.push_back({.inputs = {path}, .result = 1, .output = directory});
    check("dtx_rt_dirname", cases);
}

TEST_F(RuntimeLibraryTest, Lltostr) {
    check("dtx_rt_lltostr",
          {
              {.integer0 = 0, .integer1 = kOmitted, .result = 1, .output = "0"},
              {.integer0 = 1, .integer1 = kOmitted, .result = 1, .output = "1"},
              {.integer0 = -1, .integer1 = kOmitted, .result = 1, .output = "-1"},
              {.integer0 = 123456789, .integer1 = kOmitted, .result = 1, .output = "123456789"},
              {.integer0 = -123456789, .integer1 = kOmitted, .result = 1, .output = "-123456789"},
              {.integer0 = int64_t{1} << 62,
               .integer1 = kOmitted,
               .result = 1,
               .output = "4611686018427387904"},
              {.integer0 = INT64_MAX,
               .integer1 = kOmitted,
               .result = 1,
               .output = "9223372036854775807"},
              {.integer0 = INT64_MIN,
               .integer1 = kOmitted,
               .result = 1,
               .output = "-9223372036854775808"},
              {.integer0 = 42, .integer1 = 10, .result = 1, .output = "42"},
              {.integer0 = 255, .integer1 = 16, .result = 1, .output = "0xff"},
              {.integer0 = 0, .integer1 = 16, .result = 1, .output = "0x0"},
              {.integer0 = -1, .integer1 = 16, .result = 1, .output = "0xffffffffffffffff"},
              {.integer0 = 8, .integer1 = 8, .result = 1, .output = "010"},
              {.integer0 = 0, .integer1 = 8, .result = 1, .output = "0"},
              {.integer0 = 5, .integer1 = 2, .result = 1, .output = "101"},
              {.integer0 = 0, .integer1 = 2, .result = 1, .output = "0"},
              {.integer0 = -1, .integer1 = 2, .result = 1, .output = std::string(64, '1')},
              {.integer0 = 35, .integer1 = 36, .result = 1, .output = "z"},
              {.integer0 = 36, .integer1 = 36, .result = 1, .output = "10"},
              {.integer0 = -36, .integer1 = 36, .result = 1, .output = "3w5e11264sgrg"},
              // Invalid bases give NULL.
              {.integer0 = 5, .integer1 = 1, .result = 0, .output = ""},
              {.integer0 = 5, .integer1 = 0, .result = 0, .output = ""},
              {.integer0 = 5, .integer1 = -10, .result = 0, .output = ""},
              {.integer0 = 5, .integer1 = 37, .result = 0, .output = ""},
          });
}

TEST_F(RuntimeLibraryTest, ToupperTolower) {
    std::string ascii_edges = "@AZ[`az{";
    check("dtx_rt_toupper",
          {
              {.inputs = {"Hello, World! 123"}, .result = 1, .output = "HELLO, WORLD! 123"},
              {.inputs = {""}, .result = 1, .output = ""},
              {.inputs = {ascii_edges}, .result = 1, .output = "@AZ[`AZ{"},
              {.inputs = {"caf\xe9"}, .result = 1, .output = "CAF\xe9"},
              {.inputs = {std::string(256, 'a')}, .result = 1, .output = std::string(255, 'A')},
          });
    check("dtx_rt_tolower",
          {
              {.inputs = {"Hello, World! 123"}, .result = 1, .output = "hello, world! 123"},
              {.inputs = {""}, .result = 1, .output = ""},
              {.inputs = {ascii_edges}, .result = 1, .output = "@az[`az{"},
              {.inputs = {"CAF\xc9"}, .result = 1, .output = "caf\xc9"},
          });
}

// strtok keeps its state between calls: each step runs on the map value the
// previous one left.
TEST_F(RuntimeLibraryTest, Strtok) {
    RuntimeProgram program(context_, emitter_, {call_of("dtx_rt_strtok")});
    ASSERT_TRUE(program.ok());
    std::printf("dtx_rt_strtok: the verifier processed %ld instructions\n",
                program.processed_instructions());
    struct Step {
        std::optional<std::string> s; // nullopt: strtok(NULL, ...)
        std::string delimiters;
        std::optional<std::string> token; // nullopt: NULL
        int64_t result_if_not_found = 0;  // -1: no string to continue
    };
    auto run_steps = [&](const std::vector<Step> &steps) {
        Scratch scratch = make_scratch({});
        for (const Step &step : steps) {
            SCOPED_TRACE("strtok(" + (step.s ? "\"" + *step.s + "\"" : std::string("NULL")) +
                         ", \"" + step.delimiters + "\")");
            set_string(scratch.input[0], step.s.value_or("not to be read"));
            set_string(scratch.input[1], step.delimiters);
            scratch.integer[0] = step.s.has_value();
            scratch = program.run(scratch);
            EXPECT_EQ(scratch.result, step.token.has_value() ? 1 : step.result_if_not_found);
            EXPECT_EQ(output_of(scratch), step.token.value_or(""));
        }
    };
    run_steps({
        {"  foo, bar,,baz ", " ,", "foo"},
        {std::nullopt, " ,", "bar"},
        {std::nullopt, " ,", "baz"},
        {std::nullopt, " ,", std::nullopt},
        {std::nullopt, " ,", std::nullopt},
        // A new string starts over; the delimiters may change between calls.
        {"a=1;b=2", ";", "a=1"},
        {std::nullopt, ";=", "b"},
        {std::nullopt, "=", "2"},
        {std::nullopt, "=", std::nullopt},
        // The search resumes at the delimiter that ended the token (DTrace's
        // semantics, not C's): with other delimiters, the token starts there.
        {"a=1;b=2", ";", "a=1"},
        {std::nullopt, "=", ";b"},
    });
    run_steps({
        {std::nullopt, ",", std::nullopt, -1}, // nothing to continue: the caller faults
        {"", ",", std::nullopt},
        {",,,", ",", std::nullopt},
        {"abc", "", "abc"},
        {std::nullopt, "", std::nullopt},
        {"x\xff"
         "y",
         "\xff", "x"},
        {std::nullopt, "\xff", "y"},
        {std::string(255, 'w'), ",", std::string(255, 'w')},
        {std::nullopt, ",", std::nullopt},
    });
}

// With a small strsize, results are truncated to strsize - 1 bytes and no
// function writes past strsize bytes of its output.
TEST_F(RuntimeLibraryTest, SmallStrsizeTruncatesWithinBuffer) {
    constexpr uint64_t kSmall = 8;
    struct Expected {
        std::string function;
        Case test;
    };
    std::vector<Expected> table = {
        {"dtx_rt_strjoin", {.inputs = {"abcd", "efghij"}, .result = 1, .output = "abcdefg"}},
        {"dtx_rt_substr",
         {.inputs = {"abcdefg"},
          .integer0 = 1,
          .integer1 = kOmitted,
          .result = 1,
          .output = "bcdefg"}},
        {"dtx_rt_strchr",
         {.inputs = {"a/cdefg"}, .integer0 = '/', .result = 1, .output = "/cdefg"}},
        {"dtx_rt_strrchr", {.inputs = {"a/c/efg"}, .integer0 = '/', .result = 1, .output = "/efg"}},
        {"dtx_rt_strstr", {.inputs = {"abcdefghij", "b"}, .result = 1, .output = "bcdefg"}},
        {"dtx_rt_basename", {.inputs = {"/abcdef"}, .result = 1, .output = "abcdef"}},
        {"dtx_rt_dirname", {.inputs = {"abcd/ef"}, .result = 1, .output = "abcd"}},
        {"dtx_rt_lltostr",
         {.integer0 = 1234567890, .integer1 = kOmitted, .result = 1, .output = "1234567"}},
        {"dtx_rt_lltostr", {.integer0 = -1, .integer1 = 16, .result = 1, .output = "0xfffff"}},
        {"dtx_rt_tolower", {.inputs = {"ABCDEFG"}, .result = 1, .output = "abcdefg"}},
        {"dtx_rt_strtok",
         {.inputs = {",abcdef", ","}, .integer0 = 1, .result = 1, .output = "abcdef"}},
        // Inputs that fill strsize bytes without a NUL read as if their last
        // byte were one.
        {"dtx_rt_strlen", {.inputs = {"abcdefghij"}, .result = 7}},
        {"dtx_rt_strjoin", {.inputs = {"abcdefghij", "k"}, .result = 1, .output = "abcdefg"}},
        {"dtx_rt_substr",
         {.inputs = {"abcdefghij"},
          .integer0 = 1,
          .integer1 = kOmitted,
          .result = 1,
          .output = "bcdefg"}},
        {"dtx_rt_strchr",
         {.inputs = {"a/cdefghij"}, .integer0 = '/', .result = 1, .output = "/cdefg"}},
        {"dtx_rt_strchr", {.inputs = {"abcdefghij"}, .integer0 = 'h', .result = 0, .output = ""}},
        {"dtx_rt_strchr", {.inputs = {"abcdefghij"}, .integer0 = 0, .result = 1, .output = ""}},
        {"dtx_rt_strrchr",
         {.inputs = {"a/c/efgh"}, .integer0 = '/', .result = 1, .output = "/efg"}},
        {"dtx_rt_strrchr", {.inputs = {"abcdefgh"}, .integer0 = 'h', .result = 0, .output = ""}},
        {"dtx_rt_strrchr", {.inputs = {"abcdefgh"}, .integer0 = 0, .result = 1, .output = ""}},
        {"dtx_rt_strstr", {.inputs = {"abcdefghij", "fg"}, .result = 1, .output = "fg"}},
        {"dtx_rt_strstr", {.inputs = {"abcdefghij", "gh"}, .result = 0, .output = ""}},
        {"dtx_rt_strstr",
         {.inputs = {"xxxxxxxxxx", "xxxxxxxxxx"}, .result = 1, .output = "xxxxxxx"}},
        {"dtx_rt_basename", {.inputs = {"/abcdefghij"}, .result = 1, .output = "abcdef"}},
        {"dtx_rt_dirname", {.inputs = {"abcdefghij/x"}, .result = 1, .output = "."}},
        {"dtx_rt_toupper", {.inputs = {"abcdefghij"}, .result = 1, .output = "ABCDEFG"}},
        {"dtx_rt_strtok",
         {.inputs = {",abcdefghij", ","}, .integer0 = 1, .result = 1, .output = "abcdef"}},
        {"dtx_rt_index", {.inputs = {"abcdefghij", "h"}, .integer0 = kOmitted, .result = -1}},
        {"dtx_rt_index", {.inputs = {"abcdefghij", "g"}, .integer0 = kOmitted, .result = 6}},
        {"dtx_rt_index", {.inputs = {"abcdefghij", ""}, .integer0 = 100, .result = 7}},
        {"dtx_rt_rindex", {.inputs = {"abcdefghij", "g"}, .integer0 = kOmitted, .result = 6}},
        {"dtx_rt_rindex", {.inputs = {"abcdefghij", ""}, .integer0 = kOmitted, .result = 7}},
    };
    for (const Expected &expected : table) {
        SCOPED_TRACE(describe(expected.function, expected.test) + " with strsize 8");
        RuntimeProgram program(context_, emitter_, {call_of(expected.function)}, kSmall);
        ASSERT_TRUE(program.ok());
        Scratch input =
            make_scratch(expected.test.inputs, expected.test.integer0, expected.test.integer1);
        Scratch result = program.run(input);
        EXPECT_EQ(result.result, expected.test.result);
        if (expected.test.output) {
            EXPECT_EQ(std::string(result.output, strnlen(result.output, kSmall)),
                      *expected.test.output);
        }
        EXPECT_EQ(std::string(result.output + kSmall, kStrsize - kSmall),
                  std::string(kStrsize - kSmall, kUntouched));
        for (int i = 0; i < 3; ++i)
            EXPECT_EQ(std::memcmp(result.input[i], input.input[i], kStrsize), 0) << "input " << i;
    }
}

// One program calling every function, each call verified in its own right
// as static subprograms are: the verifier must accept them together.
TEST_F(RuntimeLibraryTest, AllFunctionsInOneProgram) {
    RuntimeProgram program(context_, emitter_, all_calls());
    ASSERT_TRUE(program.ok());
    long processed = program.processed_instructions();
    std::printf("all %zu functions in one program: the verifier processed %ld instructions "
                "(limit 1000000)\n",
                all_calls().size(), processed);
    EXPECT_GT(processed, 0);
    Scratch result = program.run(make_scratch({"a/b", "b", ","}, 1, kOmitted));
    // The last call's: strtok("a/b", "b").
    EXPECT_EQ(result.result, 1);
    EXPECT_EQ(output_of(result), "a/");
}

// `call` as made at call site `site` of a program with many: string
// arguments in turn from the map, from literals and from what an earlier
// call computed; integer arguments computed or constants that differ from
// site to site (LLVM propagates constants into the functions, and the
// verifier follows them).
RuntimeCall varied_call(const RuntimeCall &call, int site) {
    using enum Argument;
    static constexpr std::array<int64_t, 7> kSecondConstants = {kOmitted, 16, 8, 10, 2, 5, 36};
    RuntimeCall varied{.function = call.function,
                       .arguments = {},
                       .constants = {site % 5 == 0 ? kOmitted : site - 25,
                                     kSecondConstants[site % kSecondConstants.size()]}};
    bool reads_computed = false;
    for (Argument argument : call.arguments) {
        Argument chosen = argument;
        switch (argument) {
        case Input0:
            chosen = std::array{Input0, Literal0, Computed}[site % 3];
            break;
        case Input0OrNull:
            chosen = std::array{Input0OrNull, Literal0, Computed}[site % 3];
            break;
        case Input1:
            chosen = std::array{Input1, Literal1, Computed}[site / 3 % 3];
            break;
        case Integer0:
            chosen = site % 2 ? Constant0 : Integer0;
            break;
        case Integer1:
            chosen = site / 2 % 2 ? Constant1 : Integer1;
            break;
        default:
            break;
        }
        // Two computed inputs would be one string twice.
        if (chosen == Computed && reads_computed)
            chosen = argument;
        reads_computed = reads_computed || chosen == Computed;
        varied.arguments.push_back(chosen);
    }
    // The output must not overlap the inputs.
    for (Argument &argument : varied.arguments)
        if (argument == Output && !reads_computed)
            argument = Computed;
    return varied;
}

// Every function at many call sites of one program. The verifier checks a
// static function at each call site, and keeps a state for each branch it
// has yet to follow until the end of the program: a function that branched
// on every byte of a string made programs of a few dozen calls fail ("The
// sequence of 8193 jumps is too complex"), and one whose result was a
// different constant on each path made its callers' code verified once per
// string length.
TEST_F(RuntimeLibraryTest, ManyCallSitesInOneProgram) {
    constexpr int kCallSites = 50;
    std::vector<RuntimeCall> calls;
    for (int site = 0; site < kCallSites; ++site)
        for (const RuntimeCall &call : all_calls())
            calls.push_back(varied_call(call, site));
    RuntimeProgram program(context_, emitter_, calls);
    ASSERT_TRUE(program.ok());
    long processed = program.processed_instructions();
    std::printf("%zu call sites in one program: the verifier processed %ld instructions "
                "(limit 1000000)\n",
                calls.size(), processed);
    // A few hundred per call site, a few thousand for the costliest.
    EXPECT_LT(processed, static_cast<long>(calls.size()) * 1000);

    Scratch input = make_scratch({"/usr/bin/bash", "bin", "/"}, 3, 16);
    Scratch result = program.run(input);
    EXPECT_EQ(result.result, 1); // the last call: strtok("/usr/lib/libc.so.6", "lib")
    EXPECT_LT(strnlen(result.output, kStrsize), kStrsize);
    EXPECT_LT(strnlen(result.computed, kStrsize), kStrsize);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(std::memcmp(result.input[i], input.input[i], kStrsize), 0) << "input " << i;
}

// Linking, without the kernel.
class RuntimeLibraryLinkTest : public testing::Test {
protected:
    llvm::LLVMContext context_;
    BpfEmitter emitter_ = BpfEmitter::create().value();
};

TEST_F(RuntimeLibraryLinkTest, LinksOnlyWhatTheModuleCalls) {
    llvm::Module module("link", context_);
    emitter_.configure_module(module);
    BpfDebugInfo debug(module, "link.d", "");
    llvm::Function *strstr = codegen::runtime_function(module, "dtx_rt_strstr");
    ASSERT_NE(strstr, nullptr);
    EXPECT_TRUE(strstr->isDeclaration());
    EXPECT_EQ(codegen::runtime_function(module, "dtx_rt_strstr"), strstr);
    EXPECT_EQ(strstr->getArg(0)->getName(), "dst");
    EXPECT_EQ(strstr->arg_size(), 4u);
    EXPECT_EQ(codegen::runtime_function(module, "dtx_rt_no_such_function"), nullptr);
    EXPECT_EQ(codegen::runtime_function(module, "strlen"), nullptr);
    // Callbacks are the library's own business.
    EXPECT_EQ(codegen::runtime_function(module, "dtx_rt_step_search"), nullptr);

    ASSERT_EQ(link_failure(module, debug), "");
    // The linker replaced the declaration.
    strstr = module.getFunction("dtx_rt_strstr");
    ASSERT_NE(strstr, nullptr);
    EXPECT_FALSE(strstr->isDeclaration());
    EXPECT_TRUE(strstr->hasInternalLinkage());
    EXPECT_NE(strstr->getSubprogram(), nullptr);
    std::vector<std::string> defined;
    for (llvm::Function &function : module)
        if (!function.isDeclaration()) {
            defined.push_back(function.getName().str());
            EXPECT_NE(function.getSubprogram(), nullptr) << function.getName().str();
            EXPECT_EQ(function.getSection(), "") << function.getName().str();
        }
    std::sort(defined.begin(), defined.end());
    EXPECT_EQ(defined, (std::vector<std::string>{"dtx_rt_step_match", "dtx_rt_step_search",
                                                 "dtx_rt_strstr"}));
    EXPECT_EQ(module.getNamedMetadata("llvm.ident"), nullptr);

    // Linking again links only what was declared since (index brings its
    // own copies of the callbacks strstr shares with it).
    ASSERT_NE(codegen::runtime_function(module, "dtx_rt_strlen"), nullptr);
    ASSERT_NE(codegen::runtime_function(module, "dtx_rt_index"), nullptr);
    ASSERT_EQ(link_failure(module, debug), "");
    EXPECT_FALSE(module.getFunction("dtx_rt_strlen")->isDeclaration());
    EXPECT_FALSE(module.getFunction("dtx_rt_index")->isDeclaration());
    EXPECT_EQ(module.getFunction("dtx_rt_strjoin"), nullptr);
    for (llvm::Function &function : module)
        if (!function.isDeclaration()) {
            EXPECT_NE(function.getSubprogram(), nullptr) << function.getName().str();
        }
}

TEST_F(RuntimeLibraryLinkTest, ReportsUnknownAndMistypedFunctions) {
    llvm::Module module("link", context_);
    emitter_.configure_module(module);
    BpfDebugInfo debug(module, "link.d", "");
    llvm::IRBuilder<> builder(context_);
    llvm::Function::Create(llvm::FunctionType::get(builder.getInt64Ty(), false),
                           llvm::GlobalValue::ExternalLinkage, "dtx_rt_no_such_function", module);
    EXPECT_EQ(link_failure(module, debug),
              "the run-time library has no function 'dtx_rt_no_such_function'");

    llvm::Module mistyped("mistyped", context_);
    emitter_.configure_module(mistyped);
    BpfDebugInfo mistyped_debug(mistyped, "mistyped.d", "");
    llvm::Function::Create(
        llvm::FunctionType::get(builder.getInt64Ty(), {builder.getPtrTy()}, false),
        llvm::GlobalValue::ExternalLinkage, "dtx_rt_strlen", mistyped);
    EXPECT_EQ(link_failure(mistyped, mistyped_debug),
              "run-time function 'dtx_rt_strlen' is declared as i64 (ptr), but the library "
              "defines it as i64 (ptr, i64)");
}

TEST_F(RuntimeLibraryLinkTest, NothingToLink) {
    llvm::Module module("empty", context_);
    emitter_.configure_module(module);
    BpfDebugInfo debug(module, "empty.d", "");
    EXPECT_EQ(link_failure(module, debug), "");
    EXPECT_TRUE(module.empty());
}

} // namespace
} // namespace dtx

// The code generator's contract with the consumer: what compile_program() says
// about a checked program in its ProgramDescription (record layouts, action
// kinds, aggregation layouts, enabled-probe IDs), one property per assertion.
// Then objects the kernel must accept: one program exercising every
// aggregating function, the string functions, thread-locals, associative
// arrays, predicates and if/else goes through the verifier, and a program run
// with BPF_PROG_TEST_RUN shows the record's action mask. Kernel tests need
// root; they print "skipped: <reason>" otherwise.
#include "codegen/compile.h"
#include "codegen/sema.h"
#include "codegen/trampoline.h"
#include "libtrace/bpf_object.h"
#include "libtrace/consumer.h"
#include "libtrace/print_value.h"
#include "libtrace/probe.h"
#include "libtrace/program_description.h"
#include "parser/parser.h"
#include "providers/provider.h"
#include "test/support/test_probes.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>
#include <linux/bpf.h>

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace dtx {
namespace {

using trace::AggregationKind;
using trace::ValueKind;

// The record's header and action mask come before the first value.
constexpr uint32_t kFirstValueOffset = sizeof(trace::RecordHeader) + 8;

// The probes every test program may name, with dtrace's IDs for BEGIN, END
// and ERROR (the code generator's ERROR path relies on ID 3).
const trace::ProbeName kProbeNames[] = {
    {"dtrace", "", "", "BEGIN"}, {"dtrace", "", "", "END"}, {"dtrace", "", "", "ERROR"},
    {"test", "", "", "one"},     {"test", "", "", "two"},   {"test", "", "", "three"},
};

// A trivial raw_tp trampoline per probe: the probe ID and arguments are
// constants (arg0 is the probe ID times 1000, the others 0), and the clauses
// always run, so BPF_PROG_TEST_RUN runs them.
codegen::TrampolineSpec test_trampoline(const trace::Probe &probe) {
    return test::constant_trampoline(
        probe, [id = probe.id](unsigned i) { return i == 0 ? uint64_t(id) * 1000 : 0; });
}

struct Build {
    std::vector<std::unique_ptr<SourceFile>> sources;
    ast::Program program;
    DiagnosticEngine diags;
    sema::CheckedProgram checked;
    trace::ProbeTable probes;
    std::vector<std::vector<const trace::Probe *>> clause_probes;
    std::optional<codegen::CompiledProgram> compiled;

    std::string errors() const {
        std::ostringstream out;
        diags.render(out);
        return out.str();
    }
    const trace::ProgramDescription &description() const { return compiled->description; }
    const trace::ClauseDescription &clause(size_t i) const { return description().clauses.at(i); }
    const trace::ActionDescription &action(size_t clause, size_t i) const {
        return this->clause(clause).actions.at(i);
    }
    const trace::ValueLayout &value(size_t clause, size_t action, size_t i = 0) const {
        return this->action(clause, action).values.at(i);
    }
    const trace::AggregationDescription *aggregation(const std::string &name) const {
        for (const trace::AggregationDescription &a : description().aggregations)
            if (a.name == name)
                return &a;
        ADD_FAILURE() << "no aggregation @" << name;
        return nullptr;
    }
};

// Parses `texts` (test.d, then test2.d ...) into one program, as dtx does
// with several -s and -n, checks and compiles it; each clause enables the
// probes its descriptions match, in description then table order.
std::unique_ptr<Build> compile(const std::vector<std::string> &texts,
                               codegen::CompileOptions options = {}) {
    auto b = std::make_unique<Build>();
    parser::TypeNames names;
    for (const std::string &text : texts) {
        std::string name =
            b->sources.empty() ? "test.d" : "test" + std::to_string(b->sources.size() + 1) + ".d";
        b->sources.push_back(std::make_unique<SourceFile>(name, text));
        if (!parser::parse_program(*b->sources.back(), names, b->program, b->diags)) {
            ADD_FAILURE() << "parse failed:\n" << b->errors();
            return b;
        }
    }
    sema::CheckOptions check_options;
    check_options.strsize = options.strsize;
    check_options.destructive = true; // whether they are allowed is sema's test
    b->checked = sema::check_program(b->program, b->diags, check_options);
    if (b->diags.has_errors()) {
        ADD_FAILURE() << "check failed:\n" << b->errors();
        return b;
    }
    for (const trace::ProbeName &name : kProbeNames)
        b->probes.add(name);

    test::TestEnabling enabling = test::enable_clauses(b->program, b->probes);
    b->clause_probes = std::move(enabling.clause_probes);
    std::vector<codegen::TrampolineSpec> trampolines;
    for (const trace::Probe *probe : enabling.enabled)
        if (probe->name.name != "ERROR") // run from the fault path, no program of its own
            trampolines.push_back(test_trampoline(*probe));

    codegen::CompileInput input{b->program, b->checked, b->clause_probes, trampolines, b->probes};
    b->compiled = codegen::compile_program(input, test::with_kernel_layouts(options), b->diags);
    if (!b->compiled)
        ADD_FAILURE() << "compile failed:\n" << b->errors();
    return b;
}

// The same with the registered providers matching descriptions and building
// the trampolines, as the session does.
std::unique_ptr<Build> compile_with_providers(const std::string &text,
                                              codegen::CompileOptions options = {}) {
    auto b = std::make_unique<Build>();
    b->sources.push_back(std::make_unique<SourceFile>("test.d", text));
    parser::TypeNames names;
    if (!parser::parse_program(*b->sources.back(), names, b->program, b->diags)) {
        ADD_FAILURE() << "parse failed:\n" << b->errors();
        return b;
    }
    sema::CheckOptions check_options;
    check_options.strsize = options.strsize;
    check_options.destructive = true; // whether they are allowed is sema's test
    b->checked = sema::check_program(b->program, b->diags, check_options);
    if (b->diags.has_errors()) {
        ADD_FAILURE() << "check failed:\n" << b->errors();
        return b;
    }
    std::vector<std::unique_ptr<providers::Provider>> providers = providers::make_providers();
    providers.front()->list(b->probes); // dtrace: BEGIN, END, ERROR are 1, 2, 3
    std::vector<std::vector<const trace::Probe *>> enabled(providers.size());
    for (const auto &clause : b->program.clauses) {
        std::vector<const trace::Probe *> &matched = b->clause_probes.emplace_back();
        for (const ast::ProbeDescription &d : clause->probes)
            for (size_t p = 0; p < providers.size(); p++) {
                std::vector<const trace::Probe *> found;
                if (dtx::Status matched = providers[p]->match(
                        {d.provider, d.module, d.function, d.name}, b->probes, found);
                    !matched)
                    ADD_FAILURE() << matched.error().message;
                for (const trace::Probe *probe : found) {
                    if (std::find(matched.begin(), matched.end(), probe) == matched.end())
                        matched.push_back(probe);
                    if (std::find(enabled[p].begin(), enabled[p].end(), probe) == enabled[p].end())
                        enabled[p].push_back(probe);
                }
            }
    }
    std::vector<codegen::TrampolineSpec> trampolines;
    for (size_t p = 0; p < providers.size(); p++)
        if (!enabled[p].empty())
            for (providers::Trampoline &t : providers[p]->trampolines(enabled[p]))
                trampolines.push_back(std::move(t.spec));
    codegen::CompileInput input{b->program, b->checked, b->clause_probes, trampolines, b->probes};
    b->compiled = codegen::compile_program(input, test::with_kernel_layouts(options), b->diags);
    if (!b->compiled)
        ADD_FAILURE() << "compile failed:\n" << b->errors();
    return b;
}

std::unique_ptr<Build> compile(const std::string &text, codegen::CompileOptions options = {}) {
    return compile(std::vector<std::string>{text}, std::move(options));
}

codegen::CompileOptions with_strsize(uint64_t strsize) {
    codegen::CompileOptions options;
    options.strsize = strsize;
    return options;
}

// ---- records: trace() and printf() of integers and strings --------------------------

// One trace() per integer width, signed then unsigned.
constexpr const char *kIntegerTraces = "BEGIN {\n"
                                       "  trace((char)-1); trace((unsigned char)1);\n"
                                       "  trace((short)1); trace((unsigned short)1);\n"
                                       "  trace(1); trace(1u);\n"
                                       "  trace(1l); trace(1ul);\n"
                                       "}";

TEST(CodegenRecords, IntegersAreRecordedAsIntegerValues) {
    auto b = compile(kIntegerTraces);
    ASSERT_TRUE(b->compiled);
    ASSERT_EQ(b->clause(0).actions.size(), 8u);
    for (size_t i = 0; i < 8; i++)
        EXPECT_EQ(b->value(0, i).kind, ValueKind::Integer) << "action " << i;
}

TEST(CodegenRecords, IntegersOfEveryWidthTakeEightBytes) {
    auto b = compile(kIntegerTraces);
    ASSERT_TRUE(b->compiled);
    for (size_t i = 0; i < 8; i++)
        EXPECT_EQ(b->value(0, i).size, 8u) << "action " << i;
}

TEST(CodegenRecords, IntegerValuesFollowEachOther) {
    auto b = compile(kIntegerTraces);
    ASSERT_TRUE(b->compiled);
    for (size_t i = 0; i < 8; i++)
        EXPECT_EQ(b->value(0, i).offset, kFirstValueOffset + 8 * i) << "action " << i;
}

TEST(CodegenRecords, IntegerWidthIsTheDTypeSize) {
    auto b = compile(kIntegerTraces);
    ASSERT_TRUE(b->compiled);
    const int widths[] = {1, 1, 2, 2, 4, 4, 8, 8};
    for (size_t i = 0; i < 8; i++)
        EXPECT_EQ(b->value(0, i).width, widths[i]) << "action " << i;
}

TEST(CodegenRecords, IntegerSignednessIsTheDType) {
    auto b = compile(kIntegerTraces);
    ASSERT_TRUE(b->compiled);
    for (size_t i = 0; i < 8; i++)
        EXPECT_EQ(b->value(0, i).is_signed, i % 2 == 0) << "action " << i;
}

TEST(CodegenRecords, RecordSizeCountsHeaderMaskAndValues) {
    auto b = compile(kIntegerTraces);
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->clause(0).record_size, kFirstValueOffset + 8 * 8);
}

// specsize counts records as dtrace lays them out, not as dtx does: 8
// bytes, then each integer in its own width at its own alignment.
TEST(CodegenRecords, SpeculativeSizeHasDtracesWidthsAndAlignment) {
    auto b = compile(kIntegerTraces);
    ASSERT_TRUE(b->compiled);
    // 8 + 1 + 1, 2 + 2 from 10, 4 + 4 from 16, 8 + 8 from 24.
    EXPECT_EQ(b->clause(0).speculative_size, 40u);
}

TEST(CodegenRecords, SpeculativeSizeCountsAStringsNul) {
    auto b = compile("BEGIN { trace(\"s\"); }", with_strsize(32));
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->clause(0).speculative_size, 8u + 33u);
}

TEST(CodegenRecords, AClauseThatOnlySpeculatesRecordsTheFiring) {
    auto b = compile("BEGIN { speculate(1); x = 1; }");
    ASSERT_TRUE(b->compiled);
    EXPECT_TRUE(b->clause(0).records);
    EXPECT_TRUE(b->clause(0).actions.empty());
    EXPECT_EQ(b->clause(0).speculative_size, 8u);
}

TEST(CodegenRecords, EachSixtyFourMoreActionsHaveAMaskWordAmongTheValues) {
    std::string program = "BEGIN {";
    for (int i = 0; i < 130; i++)
        program += " trace(" + std::to_string(i) + ");";
    auto b = compile(program + " }");
    ASSERT_TRUE(b->compiled);
    const trace::ClauseDescription &clause = b->clause(0);
    ASSERT_EQ(clause.actions.size(), 130u);
    ASSERT_EQ(clause.mask_offsets.size(), 3u);
    EXPECT_EQ(clause.mask_offsets[0], trace::kRecordMaskOffset);
    // The word of actions 64 to 127 follows action 64's value, and so on.
    EXPECT_EQ(clause.mask_offsets[1], b->value(0, 64).offset + 8);
    EXPECT_EQ(b->value(0, 65).offset, clause.mask_offsets[1] + 8);
    EXPECT_EQ(clause.mask_offsets[2], b->value(0, 128).offset + 8);
    EXPECT_EQ(clause.record_size, kFirstValueOffset + (130 + 2) * 8);
}

TEST(CodegenRecords, BuiltinVariablesKeepTheirTypesWidth) {
    auto b = compile("BEGIN { trace(pid); trace(timestamp); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->value(0, 0).width, 4); // pid_t
    EXPECT_TRUE(b->value(0, 0).is_signed);
    EXPECT_EQ(b->value(0, 1).width, 8); // uint64_t
    EXPECT_FALSE(b->value(0, 1).is_signed);
}

TEST(CodegenRecords, StringIsRecordedAsAString) {
    auto b = compile("BEGIN { trace(\"abc\"); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->value(0, 0).kind, ValueKind::String);
}

// strsize characters and the NUL, rounded up to 8 bytes.
TEST(CodegenRecords, StringTakesStrsizeCharactersAndTheNul) {
    auto b = compile("BEGIN { trace(\"abc\"); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->value(0, 0).size, 264u);
}

TEST(CodegenRecords, StringSizeIsStrsizeAndTheNulRoundedUpToEight) {
    for (auto [strsize, stored] : std::vector<std::pair<uint64_t, uint32_t>>{
             {100, 104}, {13, 16}, {7, 8}, {8, 16}, {1, 8}, {1000, 1008}}) {
        auto b = compile("BEGIN { trace(execname); }", with_strsize(strsize));
        ASSERT_TRUE(b->compiled) << "strsize " << strsize;
        EXPECT_EQ(b->value(0, 0).size, stored) << "strsize " << strsize;
    }
}

TEST(CodegenRecords, ValueAfterAStringIsAtTheRoundedOffset) {
    auto b = compile("BEGIN { trace(\"abc\"); trace(1); }", with_strsize(100));
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->value(0, 1).offset, kFirstValueOffset + 104);
    EXPECT_EQ(b->clause(0).record_size, kFirstValueOffset + 104 + 8);
}

TEST(CodegenRecords, PrintfRecordsItsArgumentsInOrder) {
    auto b = compile("BEGIN { printf(\"%s %d %d\\n\", execname, pid, 1ul); }");
    ASSERT_TRUE(b->compiled);
    const trace::ActionDescription &printf = b->action(0, 0);
    ASSERT_EQ(printf.values.size(), 3u);
    EXPECT_EQ(printf.values[0].kind, ValueKind::String);
    EXPECT_EQ(printf.values[0].offset, kFirstValueOffset);
    EXPECT_EQ(printf.values[1].offset, kFirstValueOffset + 264);
    EXPECT_EQ(printf.values[1].width, 4);
    EXPECT_EQ(printf.values[2].offset, kFirstValueOffset + 264 + 8);
    EXPECT_FALSE(printf.values[2].is_signed);
}

TEST(CodegenRecords, PrintfKeepsItsFormat) {
    auto b = compile("BEGIN { printf(\"%s %d\\n\", execname, pid); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->action(0, 0).format, "%s %d\n");
    EXPECT_TRUE(b->action(0, 0).parsed_format.has_value());
}

TEST(CodegenRecords, PrintfWithoutArgumentsRecordsNoValue) {
    auto b = compile("BEGIN { printf(\"hello\\n\"); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_TRUE(b->action(0, 0).values.empty());
    EXPECT_EQ(b->clause(0).record_size, kFirstValueOffset);
}

TEST(CodegenRecords, ActionLocationIsItsCall) {
    auto b = compile("BEGIN {\n  trace(1);\n    printf(\"x\");\n}");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->action(0, 0).location.begin.line, 2u);
    EXPECT_EQ(b->action(0, 1).location.begin.line, 3u);
    EXPECT_EQ(b->action(0, 1).location.begin.column, 5u);
}

// ---- actions and their mask bits ------------------------------------------------------

TEST(CodegenActions, KindsInProgramOrder) {
    auto b = compile("BEGIN { @a = count(); }\n"
                     "END { trace(1); printf(\"x\"); printa(@a); stack(); exit(0); }");
    ASSERT_TRUE(b->compiled);
    const auto &actions = b->clause(1).actions;
    ASSERT_EQ(actions.size(), 5u);
    EXPECT_EQ(actions[0].function, "trace");
    EXPECT_EQ(actions[1].function, "printf");
    EXPECT_EQ(actions[2].function, "printa");
    EXPECT_EQ(actions[3].function, "stack");
    EXPECT_EQ(actions[4].function, "exit");
}

TEST(CodegenActions, AggregationActionKinds) {
    auto b = compile("BEGIN { @a = count(); }\n"
                     "END { clear(@a); trunc(@a); normalize(@a, 10); denormalize(@a);"
                     " setopt(\"quiet\"); }");
    ASSERT_TRUE(b->compiled);
    const auto &actions = b->clause(1).actions;
    ASSERT_EQ(actions.size(), 5u);
    EXPECT_EQ(actions[0].function, "clear");
    EXPECT_EQ(actions[1].function, "trunc");
    EXPECT_EQ(actions[2].function, "normalize");
    EXPECT_EQ(actions[3].function, "denormalize");
    EXPECT_EQ(actions[4].function, "setopt");
}

TEST(CodegenActions, AggregationActionsNameTheirAggregation) {
    auto b = compile("BEGIN { @a = count(); @b = count(); }\n"
                     "END { clear(@b); trunc(@a); printa(@b, @a); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->action(1, 0).aggregations, std::vector<uint32_t>{1});
    EXPECT_EQ(b->action(1, 1).aggregations, std::vector<uint32_t>{0});
    EXPECT_EQ(b->action(1, 2).aggregations, (std::vector<uint32_t>{1, 0}));
}

TEST(CodegenActions, PrintaKeepsItsFormat) {
    auto b = compile("BEGIN { @a = count(); } END { printa(\"%@d\\n\", @a); printa(@a); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->action(1, 0).format, "%@d\n");
    EXPECT_FALSE(b->action(1, 1).format.has_value());
}

TEST(CodegenActions, TruncRecordsItsCountOnlyWhenGiven) {
    auto b = compile("BEGIN { @a = count(); } END { trunc(@a); trunc(@a, 5); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_TRUE(b->action(1, 0).values.empty());
    ASSERT_EQ(b->action(1, 1).values.size(), 1u);
    EXPECT_EQ(b->value(1, 1).offset, kFirstValueOffset);
}

TEST(CodegenActions, NormalizeRecordsItsDivisor) {
    auto b = compile("BEGIN { @a = count(); } END { normalize(@a, 1000); }");
    ASSERT_TRUE(b->compiled);
    ASSERT_EQ(b->action(1, 0).values.size(), 1u);
    EXPECT_EQ(b->value(1, 0).kind, ValueKind::Integer);
}

TEST(CodegenActions, ExitRecordsItsStatus) {
    auto b = compile("BEGIN { exit(3); }");
    ASSERT_TRUE(b->compiled);
    ASSERT_EQ(b->action(0, 0).values.size(), 1u);
    EXPECT_EQ(b->value(0, 0).width, 4); // int
}

// raise() and stop() compare the current process with dtx's own pid, a
// .rodata variable the session sets before loading, and record the outcome
// and the pid for the consumer.
TEST(CodegenActions, RaiseAndStopRecordTheirOutcomeAndPid) {
    codegen::CompileOptions options;
    options.want_ir = true;
    auto b = compile("BEGIN { raise(9); stop(); }", options);
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->description().dtx_pid_variable, "dtx_pid");
    for (size_t action = 0; action < 2; action++) {
        ASSERT_EQ(b->action(0, action).values.size(), 2u) << "action " << action;
        EXPECT_EQ(b->value(0, action, 1).offset, b->value(0, action, 0).offset + 8);
    }
    EXPECT_NE(b->compiled->ir.find("@dtx_pid = dso_local constant i32 0, section \".rodata\""),
              std::string::npos);
    EXPECT_NE(b->compiled->ir.find("load volatile i32, ptr @dtx_pid"), std::string::npos);
}

TEST(CodegenActions, OnlyRaiseAndStopNeedDtxsPid) {
    auto b = compile("BEGIN { trace(1); exit(0); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->description().dtx_pid_variable, "");
}

TEST(CodegenActions, SetoptKeepsNameAndValue) {
    auto b = compile("BEGIN { setopt(\"bufsize\", \"8m\"); setopt(\"quiet\"); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->action(0, 0).option_name, "bufsize");
    EXPECT_EQ(b->action(0, 0).option_value, "8m");
    EXPECT_EQ(b->action(0, 1).option_value, std::nullopt); // "set"
}

TEST(CodegenActions, StackRecordsFramesPlusATerminator) {
    auto b = compile("BEGIN { stack(); stack(5); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->value(0, 0).kind, ValueKind::KernelStack);
    EXPECT_EQ(b->value(0, 0).size, (20u + 1) * 8); // stackframes' default
    EXPECT_EQ(b->value(0, 1).size, (5u + 1) * 8);
    EXPECT_EQ(b->value(0, 1).offset, kFirstValueOffset + 21 * 8);
}

TEST(CodegenActions, StackframesOptionSetsTheDefaultDepth) {
    codegen::CompileOptions options;
    options.stackframes = 7;
    auto b = compile("BEGIN { stack(); }", options);
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->value(0, 0).size, (7u + 1) * 8);
}

// A user stack is its pid, then the frames and a 0 (trace::ValueKind::UserStack).
TEST(CodegenActions, UstackRecordsItsPidFramesAndATerminator) {
    auto b = compile("BEGIN { ustack(); ustack(5); ustack(2, 512); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->value(0, 0).kind, ValueKind::UserStack);
    EXPECT_EQ(b->value(0, 0).size, 8 + (100u + 1) * 8); // ustackframes' default
    EXPECT_EQ(b->value(0, 1).size, 8 + (5u + 1) * 8);
    EXPECT_EQ(b->value(0, 1).offset, kFirstValueOffset + 8 + 101 * 8);
    EXPECT_EQ(b->value(0, 2).size, 8 + (2u + 1) * 8);
}

TEST(CodegenActions, UstackframesOptionSetsTheDefaultDepth) {
    codegen::CompileOptions options;
    options.ustackframes = 7;
    auto b = compile("BEGIN { ustack(); stack(); }", options);
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->value(0, 0).size, 8 + (7u + 1) * 8);
    EXPECT_EQ(b->value(0, 1).size, (20u + 1) * 8);
}

// User addresses are recorded with their pid; each function's value kind
// says how the consumer names the address.
TEST(CodegenActions, SymbolAddressesRecordWhatTheyName) {
    auto b = compile("BEGIN { trace(usym(arg0)); trace(ufunc(arg0)); trace(umod(arg0));"
                     " trace(uaddr(arg0)); trace(sym(arg0)); trace(func(arg0)); trace(mod(arg0));"
                     " printf(\"%A %a\", usym(arg0), func(arg0)); }");
    ASSERT_TRUE(b->compiled);
    const ValueKind expected[] = {ValueKind::UserSymbol,   ValueKind::UserSymbol,
                                  ValueKind::UserModule,   ValueKind::UserAddress,
                                  ValueKind::KernelSymbol, ValueKind::KernelSymbol,
                                  ValueKind::KernelModule};
    uint32_t offset = kFirstValueOffset;
    for (size_t i = 0; i < std::size(expected); i++) {
        EXPECT_EQ(b->value(0, i).kind, expected[i]) << "action " << i;
        EXPECT_EQ(b->value(0, i).offset, offset) << "action " << i;
        offset += b->value(0, i).size;
        EXPECT_EQ(b->value(0, i).size, i < 4 ? 16u : 8u) << "action " << i;
    }
    EXPECT_EQ(b->value(0, 7, 0).kind, ValueKind::UserSymbol);
    EXPECT_EQ(b->value(0, 7, 1).kind, ValueKind::KernelSymbol);
}

// Only programs that record user addresses announce processes.
TEST(CodegenActions, ProcessesMapOnlyWhereUserAddressesAreRecorded) {
    codegen::CompileOptions options;
    options.want_ir = true;
    const std::string map = "@" + trace::ProgramDescription{}.processes_map + " =";
    for (const char *text :
         {"BEGIN { ustack(); }", "BEGIN { @[ustack(2)] = count(); }",
          "BEGIN { trace(umod(arg0)); }", "BEGIN { @[uaddr(arg0)] = sum(1); }"}) {
        auto b = compile(text, options);
        ASSERT_TRUE(b->compiled);
        EXPECT_NE(b->compiled->ir.find(map), std::string::npos) << text;
    }
    for (const char *text : {"BEGIN { stack(); trace(ustackdepth + uregs[R_PC]); }",
                             "BEGIN { this->a = usym(arg0); trace(this->a + 1); }"}) {
        auto b = compile(text, options);
        ASSERT_TRUE(b->compiled);
        EXPECT_EQ(b->compiled->ir.find(map), std::string::npos) << text;
    }
}

// The mask has bit i for actions[i]: an action on a branch not taken gets no
// bit but keeps its place (and bit) in the record.
TEST(CodegenActions, EveryActionOfEitherBranchIsDescribed) {
    auto b = compile("BEGIN { trace(1); if (arg0 == 7) { trace(2); } else { trace(3); } }");
    ASSERT_TRUE(b->compiled);
    ASSERT_EQ(b->clause(0).actions.size(), 3u);
    EXPECT_EQ(b->value(0, 1).offset, kFirstValueOffset + 8);
    EXPECT_EQ(b->value(0, 2).offset, kFirstValueOffset + 16);
}

// ---- aggregations ---------------------------------------------------------------------

TEST(CodegenAggregations, IdsFollowFirstUse) {
    auto b = compile("BEGIN { @zebra = count(); @apple = sum(1); }\n"
                     "END { @mango = max(1); @zebra = count(); @ = count(); }");
    ASSERT_TRUE(b->compiled);
    const auto &aggregations = b->description().aggregations;
    ASSERT_EQ(aggregations.size(), 4u);
    EXPECT_EQ(b->aggregation("zebra")->id, 0u);
    EXPECT_EQ(b->aggregation("apple")->id, 1u);
    EXPECT_EQ(b->aggregation("mango")->id, 2u);
    EXPECT_EQ(b->aggregation("")->id, 3u);
}

// dtx -n 'BEGIN { @b = count(); }' -n 'BEGIN { @a = count(); }': both are
// first used at 1:9, of different sources; the program's order decides.
TEST(CodegenAggregations, IdsFollowFirstUseAcrossSources) {
    auto b =
        compile(std::vector<std::string>{"BEGIN { @b = count(); }", "BEGIN { @a = count(); }"});
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->aggregation("b")->id, 0u);
    EXPECT_EQ(b->aggregation("a")->id, 1u);
}

TEST(CodegenAggregations, IdsFollowFirstUseAcrossSourcesOfDifferentLengths) {
    auto b = compile(
        std::vector<std::string>{"\n\n\nBEGIN { @b = count(); }", "BEGIN { @a = count(); }"});
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->aggregation("b")->id, 0u);
    EXPECT_EQ(b->aggregation("a")->id, 1u);
}

TEST(CodegenAggregations, DescriptionsAreListedById) {
    auto b = compile("BEGIN { @b = count(); @a = count(); @c = count(); }");
    ASSERT_TRUE(b->compiled);
    const auto &aggregations = b->description().aggregations;
    for (size_t i = 0; i < aggregations.size(); i++)
        EXPECT_EQ(aggregations[i].id, i);
}

TEST(CodegenAggregations, FunctionKinds) {
    auto b = compile("BEGIN { @c = count(); @s = sum(1); @a = avg(1); @mn = min(1);"
                     " @mx = max(1); @sd = stddev(1); @q = quantize(1); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->aggregation("c")->function.kind, AggregationKind::Count);
    EXPECT_EQ(b->aggregation("s")->function.kind, AggregationKind::Sum);
    EXPECT_EQ(b->aggregation("a")->function.kind, AggregationKind::Avg);
    EXPECT_EQ(b->aggregation("mn")->function.kind, AggregationKind::Min);
    EXPECT_EQ(b->aggregation("mx")->function.kind, AggregationKind::Max);
    EXPECT_EQ(b->aggregation("sd")->function.kind, AggregationKind::Stddev);
    EXPECT_EQ(b->aggregation("q")->function.kind, AggregationKind::Quantize);
}

TEST(CodegenAggregations, LquantizeParameters) {
    auto b = compile("BEGIN { @l = lquantize(arg0, -10, 90, 5); }");
    ASSERT_TRUE(b->compiled);
    const trace::AggregationFunction &f = b->aggregation("l")->function;
    EXPECT_EQ(f.kind, AggregationKind::Lquantize);
    EXPECT_EQ(f.linear.lower, -10);
    EXPECT_EQ(f.linear.step, 5);
    EXPECT_EQ(f.linear.levels, 20);
}

TEST(CodegenAggregations, LquantizeStepDefaultsToOne) {
    auto b = compile("BEGIN { @l = lquantize(arg0, 0, 10); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->aggregation("l")->function, trace::lquantize_function(0, 10, 1));
}

TEST(CodegenAggregations, LquantizeWithAWeightKeepsItsStep) {
    auto b = compile("BEGIN { @l = lquantize(arg0, 0, 100, 10, 3); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->aggregation("l")->function, trace::lquantize_function(0, 100, 10));
}

TEST(CodegenAggregations, LlquantizeParameters) {
    auto b = compile("BEGIN { @ll = llquantize(arg0, 10, 0, 6, 20); }");
    ASSERT_TRUE(b->compiled);
    const trace::AggregationFunction &f = b->aggregation("ll")->function;
    EXPECT_EQ(f.kind, AggregationKind::Llquantize);
    EXPECT_EQ(f.log_linear.factor, 10);
    EXPECT_EQ(f.log_linear.low_magnitude, 0);
    EXPECT_EQ(f.log_linear.high_magnitude, 6);
    EXPECT_EQ(f.log_linear.steps, 20);
}

// The type, key and value size of an aggregation's map, as libbpf reads
// them from the object (opening it needs no privilege).
struct AggregationMap {
    bpf_map_type type;
    uint32_t max_entries, key_size, value_size;
};
AggregationMap aggregation_map(const Build &b, const std::string &name) {
    trace::BpfObject object;
    if (dtx::Status opened = object.open(b.compiled->object); !opened) {
        ADD_FAILURE() << opened.error().to_string();
        return {};
    }
    bpf_map *map = object.map(b.aggregation(name)->map_name);
    if (!map) {
        ADD_FAILURE() << "no map for @" << name;
        return {};
    }
    return {bpf_map__type(map), bpf_map__max_entries(map), bpf_map__key_size(map),
            bpf_map__value_size(map)};
}

TEST(CodegenAggregations, UnkeyedAggregationIsOneSlotOfAPerCpuArray) {
    auto b = compile("BEGIN { @a = count(); @q = quantize(arg0); }");
    ASSERT_TRUE(b->compiled);
    const trace::AggregationDescription &a = *b->aggregation("a");
    EXPECT_TRUE(a.key_fields.empty());
    EXPECT_TRUE(a.single_slot);
    EXPECT_EQ(a.key_size, 4u);
    EXPECT_EQ(a.value_word_count(), 2u); // the count, then the has-data word
    AggregationMap map = aggregation_map(*b, "a");
    EXPECT_EQ(map.type, BPF_MAP_TYPE_PERCPU_ARRAY);
    EXPECT_EQ(map.max_entries, 1u);
    EXPECT_EQ(map.key_size, 4u);
    EXPECT_EQ(map.value_size, 16u);
    EXPECT_EQ(aggregation_map(*b, "q").value_size, (trace::quantize_bucket_count + 1) * 8);
}

TEST(CodegenAggregations, KeyedAggregationIsAPerCpuHash) {
    auto b = compile("BEGIN { @k[pid] = sum(arg0); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_FALSE(b->aggregation("k")->single_slot);
    EXPECT_EQ(b->aggregation("k")->value_word_count(), 1u);
    AggregationMap map = aggregation_map(*b, "k");
    EXPECT_EQ(map.type, BPF_MAP_TYPE_PERCPU_HASH);
    EXPECT_EQ(map.key_size, 8u);
    EXPECT_EQ(map.value_size, 8u);
}

TEST(CodegenAggregations, KeyFieldsAreLaidOutInOrder) {
    auto b = compile("BEGIN { @k[execname, pid, (char)1, 2ul] = count(); }");
    ASSERT_TRUE(b->compiled);
    const auto &fields = b->aggregation("k")->key_fields;
    ASSERT_EQ(fields.size(), 4u);
    EXPECT_EQ(fields[0].kind, ValueKind::String);
    EXPECT_EQ(fields[0].offset, 0u);
    EXPECT_EQ(fields[0].size, 264u);
    EXPECT_EQ(fields[1].offset, 264u);
    EXPECT_EQ(fields[2].offset, 272u);
    EXPECT_EQ(fields[3].offset, 280u);
    EXPECT_EQ(b->aggregation("k")->key_size, 288u);
}

TEST(CodegenAggregations, IntegerKeysKeepTheirTypes) {
    auto b = compile("BEGIN { @k[pid, (char)1, 2ul] = count(); }");
    ASSERT_TRUE(b->compiled);
    const auto &fields = b->aggregation("k")->key_fields;
    ASSERT_EQ(fields.size(), 3u);
    EXPECT_EQ(fields[0].kind, ValueKind::Integer);
    EXPECT_EQ(fields[0].width, 4);
    EXPECT_TRUE(fields[0].is_signed);
    EXPECT_EQ(fields[1].width, 1);
    EXPECT_EQ(fields[2].width, 8);
    EXPECT_FALSE(fields[2].is_signed);
    for (const trace::ValueLayout &field : fields)
        EXPECT_EQ(field.size, 8u);
}

TEST(CodegenAggregations, StringKeysTakeRoundedStrsize) {
    auto b = compile("BEGIN { @k[execname, 1] = count(); }", with_strsize(100));
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->aggregation("k")->key_fields.at(0).size, 104u);
    EXPECT_EQ(b->aggregation("k")->key_fields.at(1).offset, 104u);
}

TEST(CodegenAggregations, UserStackAndSymbolKeysHoldTheirPid) {
    auto b = compile("BEGIN { @k[ustack(), ufunc(arg0), stack(), umod(arg0)] = count(); }");
    ASSERT_TRUE(b->compiled);
    const auto &fields = b->aggregation("k")->key_fields;
    ASSERT_EQ(fields.size(), 4u);
    EXPECT_EQ(fields[0].kind, ValueKind::UserStack);
    EXPECT_EQ(fields[0].size, 8 + (100u + 1) * 8); // the pid, the frames and a 0
    EXPECT_EQ(fields[1].kind, ValueKind::UserSymbol);
    EXPECT_EQ(fields[1].offset, fields[0].size);
    EXPECT_EQ(fields[1].size, 16u);
    EXPECT_EQ(fields[2].kind, ValueKind::KernelStack);
    EXPECT_EQ(fields[3].kind, ValueKind::UserModule);
    EXPECT_EQ(fields[3].offset, fields[2].offset + fields[2].size);
}

TEST(CodegenAggregations, KeylessOnesOfOneSizeAreSlotsOfOneArray) {
    auto b = compile("BEGIN { @a = count(); @b = sum(arg0); @q = quantize(arg0); }");
    ASSERT_TRUE(b->compiled);
    const trace::AggregationDescription &a = *b->aggregation("a"), &s = *b->aggregation("b");
    EXPECT_EQ(a.map_name, s.map_name);
    EXPECT_EQ(a.map_index, 0u);
    EXPECT_EQ(s.map_index, 1u);
    EXPECT_NE(a.map_name, b->aggregation("q")->map_name);
    AggregationMap map = aggregation_map(*b, "a");
    EXPECT_EQ(map.type, BPF_MAP_TYPE_PERCPU_ARRAY);
    EXPECT_EQ(map.max_entries, 2u);
    EXPECT_EQ(map.value_size, 16u);
}

TEST(CodegenAggregations, KeyedOnesOfOneShapeShareAHashByTheirIndex) {
    auto b = compile("BEGIN { @k[pid] = count(); @j[tid] = max(arg0); @s[execname] = count(); }");
    ASSERT_TRUE(b->compiled);
    const trace::AggregationDescription &k = *b->aggregation("k"), &j = *b->aggregation("j");
    EXPECT_EQ(k.map_name, j.map_name);
    EXPECT_TRUE(k.shared_map);
    EXPECT_NE(k.map_index, j.map_index);
    EXPECT_EQ(k.key_size, 16u); // the index's word, then the key
    EXPECT_EQ(k.key_fields.at(0).offset, 8u);
    AggregationMap map = aggregation_map(*b, "k");
    EXPECT_EQ(map.type, BPF_MAP_TYPE_PERCPU_HASH);
    EXPECT_EQ(map.key_size, 16u);
    // Alone in its shape, @s keeps the key it would have alone.
    const trace::AggregationDescription &s = *b->aggregation("s");
    EXPECT_FALSE(s.shared_map);
    EXPECT_EQ(s.key_fields.at(0).offset, 0u);
    EXPECT_EQ(aggregation_map(*b, "s").key_size, 264u);
}

// At the default aggsize each member of a shared map may hold 65,536 keys:
// twenty members would want more than a hash's 2^20 entries, which is the
// most the map gets (string keys: more than the aggsize's share).
TEST(CodegenAggregations, ManySharingAMapGetTheLargestHash) {
    std::string program = "BEGIN {";
    for (int i = 0; i < 20; i++)
        program += " @a" + std::to_string(i) + "[execname] = count();";
    auto b = compile(program + " }");
    ASSERT_TRUE(b->compiled);
    EXPECT_TRUE(b->aggregation("a0")->shared_map);
    EXPECT_EQ(aggregation_map(*b, "a0").max_entries, 1u << 20);
}

// ---- enabled probes -------------------------------------------------------------------

TEST(CodegenEnabledProbes, EpidsGoClauseThenProbeOrder) {
    auto b = compile("test:::two, test:::one { trace(1); }\n"
                     "BEGIN { }\n"
                     "test:::one, test:::three { }");
    ASSERT_TRUE(b->compiled);
    const auto &enabled = b->description().enabled_probes;
    ASSERT_EQ(enabled.size(), 5u);
    const trace::Probe *two = b->probes.find({"test", "", "", "two"});
    const trace::Probe *one = b->probes.find({"test", "", "", "one"});
    const trace::Probe *three = b->probes.find({"test", "", "", "three"});
    EXPECT_EQ(enabled[0].probe_id, two->id);
    EXPECT_EQ(enabled[1].probe_id, one->id);
    EXPECT_EQ(enabled[2].probe_id, 1u); // BEGIN
    EXPECT_EQ(enabled[3].probe_id, one->id);
    EXPECT_EQ(enabled[4].probe_id, three->id);
}

TEST(CodegenEnabledProbes, EpidsCountFromOne) {
    auto b = compile("BEGIN, END { } test:::one { }");
    ASSERT_TRUE(b->compiled);
    const auto &enabled = b->description().enabled_probes;
    for (size_t i = 0; i < enabled.size(); i++)
        EXPECT_EQ(enabled[i].epid, i + 1);
}

TEST(CodegenEnabledProbes, EachNamesItsClause) {
    auto b = compile("BEGIN, END { } test:::one { }");
    ASSERT_TRUE(b->compiled);
    const auto &enabled = b->description().enabled_probes;
    ASSERT_EQ(enabled.size(), 3u);
    EXPECT_EQ(enabled[0].clause, 0u);
    EXPECT_EQ(enabled[1].clause, 0u);
    EXPECT_EQ(enabled[2].clause, 1u);
}

TEST(CodegenEnabledProbes, ErrorClausesGetEpids) {
    auto b = compile("BEGIN { } ERROR { trace(arg4); }");
    ASSERT_TRUE(b->compiled);
    const auto &enabled = b->description().enabled_probes;
    ASSERT_EQ(enabled.size(), 2u);
    EXPECT_EQ(enabled[1].probe_id, 3u);
    EXPECT_EQ(enabled[1].clause, 1u);
}

TEST(CodegenClauses, DescribedInProgramOrderWithTheirLocation) {
    auto b = compile("BEGIN { }\n\n  END { }");
    ASSERT_TRUE(b->compiled);
    ASSERT_EQ(b->description().clauses.size(), 2u);
    EXPECT_EQ(b->clause(1).index, 1u);
    EXPECT_EQ(b->clause(1).location.begin.line, 3u);
    EXPECT_EQ(b->clause(1).location.begin.column, 3u);
}

// ---- which clauses write records ------------------------------------------------------

// As dtrace-utils: only data-recording actions, or an empty body (whose
// default action is the probe line), make a clause write a record; -q
// changes nothing here, so that setopt("quiet") can change it while tracing.
TEST(CodegenClauses, AggregationOnlyClauseRecordsNothing) {
    auto b = compile("BEGIN { @a = count(); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_FALSE(b->clause(0).records);
}

TEST(CodegenClauses, EmptyClauseRecordsTheFiring) {
    auto b = compile("BEGIN { }");
    ASSERT_TRUE(b->compiled);
    EXPECT_TRUE(b->clause(0).records);
    EXPECT_TRUE(b->clause(0).shows_firing);
    EXPECT_EQ(b->clause(0).record_size, kFirstValueOffset);
}

TEST(CodegenClauses, ClauseWithAnActionAndAnAggregationRecords) {
    auto b = compile("BEGIN { @a = count(); trace(1); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_TRUE(b->clause(0).records);
}

TEST(CodegenClauses, VariableOnlyClauseRecordsNothing) {
    auto b = compile("BEGIN { x = 1; }");
    ASSERT_TRUE(b->compiled);
    EXPECT_FALSE(b->clause(0).records);
}

TEST(CodegenClauses, CommitOnlyClauseRecordsButShowsNoFiring) {
    auto b = compile("BEGIN { commit(1); }");
    ASSERT_TRUE(b->compiled);
    EXPECT_TRUE(b->clause(0).records);
    EXPECT_FALSE(b->clause(0).shows_firing);
}

// The IR of `function` in a module's text.
std::string function_ir(const std::string &module, const std::string &function) {
    size_t begin = module.rfind("define", module.find("@" + function + "("));
    if (begin == std::string::npos)
        return "";
    return module.substr(begin, module.find("\n}\n", begin) - begin);
}

// A probe whose clauses read nothing of the firing (an aggregation of
// constants) keeps its clause context on the stack, where it folds away: no
// nesting level, no lookup of dtx_dctx. One clause that reads the firing
// (probename, arg0) or records takes the per-CPU context for its probe.
TEST(CodegenDispatch, ClausesLeavingTheContextAloneRunWithoutOne) {
    codegen::CompileOptions options;
    options.want_ir = true;
    auto b = compile("test:::one { @a = count(); }\n"
                     "test:::one /1/ { @b = sum(5); x = 1; }\n"
                     "test:::two { @c[probename] = count(); }\n"
                     "test:::three { @d = sum(arg0); }\n"
                     "test:::three { @e = count(); }\n",
                     options);
    ASSERT_TRUE(b->compiled);
    const std::string &ir = b->compiled->ir;
    std::string one = function_ir(ir, "dtx_test_4");
    ASSERT_FALSE(one.empty()) << ir;
    EXPECT_NE(one.find("%dctx_on_stack = alloca"), std::string::npos) << one;
    EXPECT_EQ(one.find("@dtx_dctx"), std::string::npos) << one;
    EXPECT_EQ(one.find("@dtx_nesting"), std::string::npos) << one;
    for (const char *program : {"dtx_test_5", "dtx_test_6"}) {
        std::string uses = function_ir(ir, program);
        EXPECT_EQ(uses.find("dctx_on_stack"), std::string::npos) << uses;
        EXPECT_NE(uses.find("@dtx_dctx"), std::string::npos) << uses;
        EXPECT_NE(uses.find("@dtx_nesting"), std::string::npos) << uses;
    }
}

TEST(CodegenClauses, OversizedRecordIsAnError) {
    codegen::CompileOptions options;
    options.strsize = 8192;
    auto b = std::make_unique<Build>();
    b->sources.push_back(std::make_unique<SourceFile>(
        "big.d", "BEGIN { trace(execname); trace(execname); trace(execname); }"));
    parser::TypeNames names;
    ASSERT_TRUE(parser::parse_program(*b->sources.back(), names, b->program, b->diags));
    sema::CheckOptions check_options;
    check_options.strsize = options.strsize;
    b->checked = sema::check_program(b->program, b->diags, check_options);
    ASSERT_FALSE(b->diags.has_errors()) << b->errors();
    b->probes.add(kProbeNames[0]);
    std::vector<std::vector<const trace::Probe *>> clause_probes = {{&*b->probes.begin()}};
    std::vector<codegen::TrampolineSpec> trampolines = {test_trampoline(*b->probes.begin())};
    codegen::CompileInput input{b->program, b->checked, clause_probes, trampolines, b->probes};
    EXPECT_FALSE(codegen::compile_program(input, options, b->diags));
    EXPECT_TRUE(b->diags.has_errors());
    EXPECT_NE(b->errors().find("big.d:1:1"), std::string::npos) << b->errors();
}

// ---- print() ------------------------------------------------------------------------------

TEST(CodegenActions, PrintRecordsTheValuesOwnBytes) {
    auto b = compile("struct pt { int x; char tag[4]; } g;\n"
                     "BEGIN { print(g); print(1); print(\"ab\"); }");
    ASSERT_TRUE(b->compiled);
    ASSERT_EQ(b->clause(0).actions.size(), 3u);
    for (size_t i = 0; i < 3; i++) {
        EXPECT_EQ(b->action(0, i).function, "print") << i;
        EXPECT_EQ(b->value(0, i).kind, ValueKind::Bytes) << i;
    }
    EXPECT_EQ(b->value(0, 0).offset, kFirstValueOffset);
    EXPECT_EQ(b->value(0, 0).size, 8u); // sizeof(struct pt)
    EXPECT_EQ(b->value(0, 1).offset, kFirstValueOffset + 8);
    EXPECT_EQ(b->value(0, 1).size, 4u); // an int, not a traced 8-byte word
    EXPECT_EQ(b->value(0, 2).offset, kFirstValueOffset + 16);
    EXPECT_EQ(b->value(0, 2).size, 257u); // strsize and the NUL
}

TEST(CodegenActions, PrintDescribesTheValuesType) {
    auto b = compile("struct pt { int x; char tag[4]; unsigned int f : 3; } g;\n"
                     "BEGIN { print(g); print(g); print(\"ab\"); }");
    ASSERT_TRUE(b->compiled);
    const std::vector<trace::PrintedType> &types = b->description().printed_types;
    EXPECT_EQ(b->action(0, 0).printed_type, b->action(0, 1).printed_type); // described once
    const trace::PrintedType &pt = types.at(b->action(0, 0).printed_type);
    EXPECT_EQ(pt.kind, trace::PrintedType::Kind::Struct);
    EXPECT_EQ(pt.name, "struct pt");
    EXPECT_EQ(pt.size, 12u);
    ASSERT_EQ(pt.members.size(), 3u);
    EXPECT_EQ(pt.members[0].name, "x");
    EXPECT_EQ(types.at(pt.members[0].type).name, "int");
    EXPECT_EQ(types.at(pt.members[0].type).kind, trace::PrintedType::Kind::Integer);
    const trace::PrintedType &tag = types.at(pt.members[1].type);
    EXPECT_EQ(pt.members[1].bit_offset, 32u);
    EXPECT_EQ(tag.kind, trace::PrintedType::Kind::Array);
    EXPECT_EQ(tag.name, "char [4]");
    EXPECT_EQ(tag.count, 4u);
    EXPECT_EQ(types.at(tag.element).kind, trace::PrintedType::Kind::Char);
    EXPECT_EQ(pt.members[2].bit_width, 3u);
    EXPECT_EQ(pt.members[2].bit_offset, 64u);
    const trace::PrintedType &text = types.at(b->action(0, 2).printed_type);
    EXPECT_EQ(text.kind, trace::PrintedType::Kind::String);
    EXPECT_EQ(text.size, 257u);
}

// ---- in the kernel ----------------------------------------------------------------------

// Opens and loads a compiled object as the session does; on failure the
// error says what the verifier said.
std::optional<std::string> load(trace::BpfObject &object,
                                const codegen::CompiledProgram &compiled) {
    if (dtx::Status opened = object.open(compiled.object); !opened)
        return opened.error().to_string();
    if (bpf_map *dctx = object.map(compiled.description.clause_context_map))
        bpf_map__set_max_entries(dctx, uint32_t(std::max(libbpf_num_possible_cpus(), 1)) *
                                           trace::kNestingLevels);
    if (dtx::Status loaded = object.load(); !loaded)
        return loaded.error().to_string();
    return std::nullopt;
}

// Every aggregating function, the string functions, thread-locals,
// associative arrays, clause-locals, predicates, if/else, the ERROR path.
constexpr const char *kEverything = R"(
BEGIN
{
	self->start = timestamp;
	seen["begin", 1] = 1;
	names[1] = "first";
}

test:::one
/self->start && seen["begin", 1] == 1/
{
	@c = count();
	@s = sum(arg0);
	@a = avg(arg0);
	@mn = min(arg0);
	@mx = max(arg0);
	@sd = stddev(arg0);
	@q = quantize(arg0);
	@l = lquantize(arg0, 0, 10000, 100);
	@lw = lquantize(arg0, 0, 100, 10, 2);
	@ll = llquantize(arg0, 10, 0, 6, 20);
	@k[execname, pid, probename] = count();
	@t[tid] = quantize(arg0, 3);

	this->s = strjoin(execname, "-x");
	this->n = strlen(this->s);
	joined = strjoin(this->s, names[1]);
	part = substr(joined, 2, 4);
	i = index(joined, "x");
	r = rindex(joined, "x");
	c = strchr(joined, 'x');
	rc = strrchr(joined, 'x');
	st = strstr(joined, "first");
	base = basename("/usr/lib/libc.so.6");
	dir = dirname("/usr/lib/libc.so.6");
	up = toupper(joined);
	lo = tolower(up);
	num = lltostr(arg0 - 5000, 16);
	names[this->n] = part;

	if (this->n > 3) {
		trace(this->s);
		printf("%s %d %s\n", part, i, names[this->n]);
	} else if (r < 0) {
		trace(r);
	} else {
		printf("%d %d\n", this->n, arg0 / (arg1 + 1));
	}
	self->count++;
	seen[probename, self->count] = timestamp - self->start;
}

test:::one
/self->count > 1000/
{
	self->start = 0;
	seen["begin", 1] = 0;
	trace(arg0 % arg1);
}

END
{
	printa(@c);
	printa("%s %d %s %@d\n", @k);
	trunc(@q, 1);
	clear(@s);
	normalize(@a, 2);
	denormalize(@a);
	exit(0);
}

ERROR
{
	trace(arg4);
	@errors[arg4] = count();
}
)";

TEST(CodegenKernel, EverythingLoads) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    auto b = compile(kEverything);
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    EXPECT_FALSE(error) << *error;
}

TEST(CodegenKernel, EverythingLoadsWithASmallStrsize) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    auto b = compile(kEverything, with_strsize(13));
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    EXPECT_FALSE(error) << *error;
}

// The same clauses in the programs of the real providers: BEGIN and END's
// raw_tp programs, profile's perf_event program (with a stack context) and
// tick's syscall program (whose clauses run from a bpf_timer callback).
TEST(CodegenKernel, EverythingLoadsInEveryProvidersPrograms) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    std::string text = kEverything;
    std::string one = "test:::one";
    for (size_t at = text.find(one); at != std::string::npos; at = text.find(one, at))
        text.replace(at, one.size(), "profile:::profile-97, profile:::tick-1s");
    auto b =
        compile_with_providers(text + "profile:::tick-1s { stack(); @st[stack()] = count(); }");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    EXPECT_FALSE(error) << *error;
}

// User stacks, symbols and registers in every program type that runs clauses:
// raw_tp (BEGIN, syscall), perf_event (profile) and syscall (tick, without a
// stack context).
TEST(CodegenKernel, UserStacksAndRegistersLoadInEveryProvidersPrograms) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    auto b = compile_with_providers(
        "BEGIN, syscall::getpid:entry, profile:::profile-97, profile:::tick-1s\n"
        "{\n"
        "\tustack();\n"
        "\t@u[ustack(3), usym(uregs[R_PC]), umod(uregs[R_SP])] = count();\n"
        "\t@a[uaddr(uregs[R_PC]), ufunc(arg0)] = sum(ustackdepth);\n"
        "\ttrace(uregs[arg0 & 31]);\n"
        "\tprintf(\"%A %k\\n\", uaddr(uregs[R_PC]), ustack(2));\n"
        "}\n");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    EXPECT_FALSE(error) << *error;
}

// Programs of every kind whose clauses leave the clause context alone: the
// context on their stacks must fold away (else compiling fails) and they
// load.
TEST(CodegenKernel, ClausesWithoutContextLoadInEveryProvidersPrograms) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    codegen::CompileOptions options;
    options.want_ir = true;
    auto b = compile_with_providers(
        "BEGIN, END, syscall::getpid:entry, syscall::getpid:return, profile:::profile-97,\n"
        "profile:::tick-1s, sdt:raw_syscalls::sys_enter, sdt:sched::sched_switch,\n"
        "sched:::on-cpu, proc:::exec-success\n"
        "{\n"
        "\t@a = count();\n"
        "\t@b = sum(3);\n"
        "\tx = 2;\n"
        "}\n",
        options);
    ASSERT_TRUE(b->compiled);
    EXPECT_EQ(b->compiled->ir.find("(ptr @dtx_dctx,"), std::string::npos);
    EXPECT_EQ(b->compiled->ir.find("(ptr @dtx_nesting,"), std::string::npos);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    EXPECT_FALSE(error) << *error;
}

// Runs the BEGIN program once and returns the records it wrote.
std::vector<std::vector<char>> run_begin(trace::BpfObject &object,
                                         const codegen::CompiledProgram &compiled) {
    std::vector<std::vector<char>> records;
    int ring_fd = object.map_fd(compiled.description.ring_buffer_map);
    EXPECT_GE(ring_fd, 0);
    auto collect = [](void *context, void *data, size_t size) -> int {
        auto *out = static_cast<std::vector<std::vector<char>> *>(context);
        out->emplace_back(static_cast<char *>(data), static_cast<char *>(data) + size);
        return 0;
    };
    ring_buffer *ring = ring_buffer__new(ring_fd, collect, &records, nullptr);
    EXPECT_NE(ring, nullptr);
    if (!ring)
        return records;
    bpf_test_run_opts options{};
    options.sz = sizeof(options);
    EXPECT_EQ(bpf_prog_test_run_opts(object.program_fd("dtx_test_1"), &options), 0)
        << strerror(errno);
    ring_buffer__consume(ring);
    ring_buffer__free(ring);
    return records;
}

template <typename T>
T read_at(const std::vector<char> &record, size_t offset) {
    T value{};
    if (offset + sizeof(T) <= record.size())
        std::memcpy(&value, record.data() + offset, sizeof(T));
    else
        ADD_FAILURE() << "offset " << offset << " is past the record's " << record.size()
                      << " bytes";
    return value;
}

TEST(CodegenKernel, MaskHasTheBitsOfTheActionsThatRan) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    // arg0 is 1000 for BEGIN: the else branch runs.
    auto b = compile("BEGIN { trace(1); if (arg0 == 7) { trace(2); } else { trace(3); }"
                     " trace(4); }");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    ASSERT_FALSE(error) << *error;
    std::vector<std::vector<char>> records = run_begin(object, *b->compiled);
    ASSERT_EQ(records.size(), 1u);
    const std::vector<char> &record = records[0];
    EXPECT_EQ(record.size(), b->clause(0).record_size);
    EXPECT_EQ(read_at<uint32_t>(record, 0), 1u); // the epid
    EXPECT_EQ(read_at<uint64_t>(record, sizeof(trace::RecordHeader)), 0b1101u);
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 0).offset), 1);
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 2).offset), 3);
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 3).offset), 4);
}

TEST(CodegenKernel, RecordedValuesAreNormalizedToTheirType) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    auto b = compile("BEGIN { trace((char)arg0); trace((unsigned char)arg0);"
                     " trace((short)-arg0); trace(\"abc\"); }",
                     with_strsize(13));
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    ASSERT_FALSE(error) << *error;
    std::vector<std::vector<char>> records = run_begin(object, *b->compiled);
    ASSERT_EQ(records.size(), 1u);
    const std::vector<char> &record = records[0];
    // arg0 is 1000 = 0x3e8: (char) gives 0xe8 = -24, (unsigned char) 232.
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 0).offset), -24);
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 1).offset), 232);
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 2).offset), -1000);
    EXPECT_EQ(std::string(record.data() + b->value(0, 3).offset), "abc");
}

TEST(CodegenKernel, AggregationOnlyClauseWritesNoRecord) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    auto b = compile("BEGIN { @a = count(); }");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    ASSERT_FALSE(error) << *error;
    EXPECT_TRUE(run_begin(object, *b->compiled).empty());
}

// BEGIN runs in dtx's own process: its first user address announces it, once.
TEST(CodegenKernel, UserAddressesAnnounceTheirProcessOnce) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    auto b = compile("BEGIN { ustack(4); trace(usym(uregs[R_PC])); trace(uregs[15]); }");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    ASSERT_FALSE(error) << *error;
    std::vector<std::vector<char>> records = run_begin(object, *b->compiled);
    ASSERT_GE(records.size(), 3u);
    auto announced = read_at<trace::ProcessRecord>(records[0], 0);
    EXPECT_EQ(announced.header.epid, trace::kProcessRecordEpid);
    EXPECT_EQ(announced.pid, uint32_t(getpid()));
    // ustack()'s walk met code whose file has no unwind table yet (libc, and
    // where frame pointers lead from there, this program): it tells each
    // file mapping it found, and asks for each file's table, once.
    size_t requests = 0, mappings = 0;
    for (size_t i = 1; i + 1 < records.size(); i++) {
        const uint32_t epid = read_at<trace::RecordHeader>(records[i], 0).epid;
        if (epid == trace::kMappingRecordEpid) {
            auto mapping = read_at<trace::MappingRecord>(records[i], 0);
            EXPECT_EQ(mapping.pid, uint32_t(getpid()));
            EXPECT_LT(mapping.start, mapping.end);
            EXPECT_NE(mapping.inode, 0u);
            mappings++;
            continue;
        }
        auto asked = read_at<trace::UnwindRequest>(records[i], 0);
        EXPECT_EQ(asked.header.epid, trace::kUnwindRequestEpid);
        EXPECT_EQ(asked.pid, uint32_t(getpid()));
        EXPECT_LT(asked.start, asked.end);
        EXPECT_NE(asked.inode, 0u);
        requests++;
    }
    EXPECT_GE(requests, 1u);
    EXPECT_GE(mappings, requests);
    const std::vector<char> &record = records.back();
    EXPECT_EQ(read_at<uint64_t>(record, b->value(0, 0).offset), uint64_t(getpid()));
    EXPECT_NE(read_at<uint64_t>(record, b->value(0, 0).offset + 8), 0u); // a frame
    EXPECT_EQ(read_at<uint64_t>(record, b->value(0, 1).offset), uint64_t(getpid()));
    // The program ran from the bpf() system call: uregs[15] is orig_rax, its number.
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 2).offset), SYS_bpf);
    EXPECT_EQ(run_begin(object, *b->compiled).size(), 1u); // no second announcement or request
}

// What the consumer prints at exit once BEGIN has run.
std::string printed_at_exit(trace::BpfObject &object, const Build &b) {
    char *text = nullptr;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    {
        trace::Consumer consumer(b.description(), object, b.probes, {}, out, stderr);
        consumer.finish();
    }
    std::fclose(out);
    std::string printed(text, size);
    std::free(text);
    return printed;
}

// The consumer hears of the process from its ProcessRecord, and names user
// keys through it; ufunc() keys of one function are one key, however their
// addresses differ (the namer here names every address "fn").
TEST(CodegenKernel, ConsumerNamesUserKeysThroughTheirProcess) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    auto b = compile("BEGIN { @s[ustack(1)] = count(); @f[ufunc(uregs[R_PC])] = count();"
                     " @f[ufunc(uregs[R_PC] + 1)] = count(); @m[umod(arg0)] = count(); }");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    ASSERT_FALSE(error) << *error;
    std::vector<std::vector<char>> records = run_begin(object, *b->compiled);
    // The announcement, ustack()'s mappings and requests for unwind tables only:
    // aggregations write no record.
    ASSERT_GE(records.size(), 2u);
    for (size_t i = 1; i < records.size(); i++) {
        const uint32_t epid = read_at<trace::RecordHeader>(records[i], 0).epid;
        EXPECT_TRUE(epid == trace::kUnwindRequestEpid || epid == trace::kMappingRecordEpid) << epid;
    }

    std::vector<uint32_t> remembered;
    trace::ConsumerOptions options;
    options.remember_process = [&](uint32_t pid) { remembered.push_back(pid); };
    const uint64_t self = uint64_t(getpid());
    options.print.name_address = [self](const trace::KeyField &field, uint64_t) -> std::string {
        if (!field.user || field.pid != self)
            return "wrong process";
        if (field.kind == trace::KeyFieldKind::Stack)
            return "frame";
        return field.form == trace::SymbolForm::Module ? "mod" : "mod`fn";
    };
    char *text = nullptr;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    {
        trace::Consumer consumer(b->description(), object, b->probes, options, out, stderr);
        consumer.consume(std::as_bytes(std::span(records[0])));
        EXPECT_EQ(remembered, std::vector<uint32_t>{uint32_t(self)});
        consumer.finish();
    }
    std::fclose(out);
    std::string printed(text, size);
    std::free(text);
    EXPECT_EQ(printed, "\n"
                       "\n"
                       "              frame\n"
                       "                1\n"
                       "  mod`fn                                                            2\n"
                       "  mod                                                               1\n");
}

// Unkeyed aggregations' slots exist before anything is recorded: only those
// that recorded something print, sum() of zeros and min() included.
TEST(CodegenKernel, UnkeyedAggregationPrintsOnlyOnceRecorded) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    auto b = compile("BEGIN { @zero = sum(0); @least = min(arg0); }\n"
                     "test:::one { @never = count(); @nomin = min(1); @noq = quantize(1); }");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    ASSERT_FALSE(error) << *error;
    run_begin(object, *b->compiled);
    EXPECT_EQ(printed_at_exit(object, *b), "\n"
                                           "                0\n"
                                           "             1000\n");
}

// curthread is the task the program runs for (here, this test's thread, which
// BPF_PROG_TEST_RUN runs BEGIN's program in); members are read through
// chains of pointers with the kernel's layouts, and print() records them.
TEST(CodegenKernel, CurthreadMembersReadTheCurrentTask) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    if (!std::filesystem::exists("/sys/kernel/btf/vmlinux"))
        GTEST_SKIP() << "skipped: the kernel has no BTF (/sys/kernel/btf/vmlinux)";
    auto b = compile("BEGIN { trace(curthread->pid); trace(curthread->tgid);\n"
                     "  trace(curthread->real_parent->tgid); trace(stringof(curthread->comm));\n"
                     "  print(curthread->comm); print(*curthread->fs); print(curthread->pid);\n"
                     "  print(curthread->fs->root); }");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    ASSERT_FALSE(error) << *error;
    std::vector<std::vector<char>> records = run_begin(object, *b->compiled);
    ASSERT_EQ(records.size(), 1u);
    const std::vector<char> &record = records[0];
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 0).offset), syscall(SYS_gettid));
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 1).offset), getpid());
    EXPECT_EQ(read_at<int64_t>(record, b->value(0, 2).offset), getppid());
    std::ifstream comm_file("/proc/self/comm");
    std::string comm;
    std::getline(comm_file, comm);
    EXPECT_EQ(std::string(record.data() + b->value(0, 3).offset), comm);
    auto printed = [&](size_t action) {
        const trace::ValueLayout &v = b->value(0, action);
        std::span<const std::byte> bytes(reinterpret_cast<const std::byte *>(record.data()),
                                         record.size());
        return trace::format_printed_value(b->description().printed_types,
                                           b->action(0, action).printed_type,
                                           bytes.subspan(v.offset, v.size));
    };
    const std::string margin(44, ' ');
    std::string chars = margin + "(char [16]) [\n";
    for (char c : comm)
        chars += margin + " (char)'" + c + "',\n";
    EXPECT_EQ(printed(4), chars + margin + "]\n");
    std::string fs = printed(5);
    EXPECT_EQ(fs.rfind(margin + "(struct fs_struct) {\n" + margin + " .users = (int)", 0), 0u)
        << fs;
    EXPECT_NE(fs.find("\n" + margin + " .root = (struct path) {\n" + margin +
                      "  .mnt = (struct vfsmount *)0xffff"),
              std::string::npos)
        << fs;
    EXPECT_EQ(fs.substr(fs.size() - margin.size() - 2), margin + "}\n") << fs;
    EXPECT_EQ(printed(6), margin + "(pid_t)" + std::to_string(syscall(SYS_gettid)) + "\n");
    // fs->root printed alone: the same members, one level less indented.
    std::string root = printed(7);
    const std::string open = margin + "(struct path) {\n";
    ASSERT_EQ(root.rfind(open, 0), 0u) << root;
    std::istringstream lines(root.substr(open.size()));
    std::string nested = margin + " .root = (struct path) {\n";
    for (std::string line; std::getline(lines, line);)
        nested += " " + line + (line == margin + "}" ? ",\n" : "\n");
    EXPECT_NE(fs.find(nested), std::string::npos) << root << "\n" << fs;
}

// Members reached through anonymous unions and nested structs are read at
// the offsets offsetof() gives (which kernel_types_test checks against the
// BTF itself): each pair reads one member both ways, from the struct file of
// a descriptor this test opened.
TEST(CodegenKernel, MembersAreReadAtTheirOffsets) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: loading BPF programs needs root";
    if (!std::filesystem::exists("/sys/kernel/btf/vmlinux"))
        GTEST_SKIP() << "skipped: the kernel has no BTF (/sys/kernel/btf/vmlinux)";
    int fd = open("/proc/self/comm", O_RDONLY);
    ASSERT_GE(fd, 0);
    auto b = compile("BEGIN { this->f = curthread->files->fdt->fd[" + std::to_string(fd) +
                     "];\n"
                     "  this->at = (uintptr_t)this->f;\n"
                     "  trace(this->f->f_path.dentry);\n"
                     "  trace(*(uintptr_t *)(this->at + offsetof(struct file, f_path) +"
                     " offsetof(struct path, dentry)));\n"
                     "  trace(this->f->f_inode);\n"
                     "  trace(*(uintptr_t *)(this->at + offsetof(struct file, f_inode)));\n"
                     "  trace(this->f->f_path.dentry->d_inode);\n"
                     "  trace(this->f->f_flags);\n"
                     "  trace(*(unsigned int *)(this->at + offsetof(struct file, f_flags)));\n"
                     "  trace(curthread->files->fdt->fd[" +
                     std::to_string(fd) + "]->f_path.dentry->d_name.name[0]); }");
    ASSERT_TRUE(b->compiled);
    trace::BpfObject object({.error_log_lines = 60});
    std::optional<std::string> error = load(object, *b->compiled);
    ASSERT_FALSE(error) << *error;
    std::vector<std::vector<char>> records = run_begin(object, *b->compiled);
    close(fd);
    ASSERT_EQ(records.size(), 1u);
    const std::vector<char> &record = records[0];
    auto word = [&](size_t action) {
        return read_at<uint64_t>(record, b->value(0, action).offset);
    };
    EXPECT_NE(word(0), 0u);
    EXPECT_EQ(word(0), word(1)) << "f_path.dentry";
    EXPECT_NE(word(2), 0u);
    EXPECT_EQ(word(2), word(3)) << "f_inode";
    EXPECT_EQ(word(4), word(2)) << "the dentry's inode is the file's";
    EXPECT_EQ(word(5), word(6)) << "f_flags";
    EXPECT_EQ(word(7), uint64_t('c')) << "the name of /proc/self/comm";
}

} // namespace
} // namespace dtx

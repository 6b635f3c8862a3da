// args[N] typed by the probes' providers, and kernel types imported from the
// running kernel's BTF: what the checker makes of them and the errors that
// say what does exist.

#include "codegen/kernel_types.h"
#include "codegen/sema.h"
#include "parser/parser.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace dtx;
using namespace dtx::sema;

namespace {

struct Checked {
    std::unique_ptr<SourceFile> source;
    ast::Program program;
    DiagnosticEngine diags;
    CheckedProgram result;
    std::vector<size_t> asked; // clauses whose arguments the checker asked for
};

// Checks `text`; every clause's probes have `arguments` (or conflict).
std::unique_ptr<Checked> check(const std::string &text,
                               std::vector<trace::ProbeArgument> arguments,
                               std::string conflict = "") {
    auto c = std::make_unique<Checked>();
    c->source = std::make_unique<SourceFile>("test.d", text);
    parser::TypeNames names;
    EXPECT_TRUE(parser::parse_program(*c->source, names, c->program, c->diags));
    CheckOptions options;
    Checked *raw = c.get();
    options.clause_arguments = [raw, arguments, conflict](size_t clause) {
        raw->asked.push_back(clause);
        return ClauseArguments{arguments, "sdt:sched::sched_switch", conflict};
    };
    c->result = check_program(c->program, c->diags, options);
    return c;
}

// The type of the argument of the last `trace(EXPR);`.
std::string traced_type(const Checked &c) {
    const ast::Clause &clause = *c.program.clauses.back();
    const auto *stmt = clause.statements.back()->as<ast::ExpressionStmt>();
    const ast::Expr &e = *stmt->expr->as<ast::Call>()->arguments.at(0);
    return e.type ? e.type->name : "<untyped>";
}

std::string messages(const Checked &c) {
    std::string out;
    for (const Diagnostic &d : c.diags.diagnostics()) {
        out += d.code + ": " + d.message;
        for (const std::string &hint : d.hints)
            out += " [" + hint + "]";
        out += "\n";
    }
    return out;
}

const std::vector<trace::ProbeArgument> kSwitch = {
    {"char [16]", 0, "prev_comm"}, {"int32_t", 0, "prev_pid"}, {"string", 0, "name"},
    {"const char *", 0, "path"},   {"long", 0, "state"},
};

bool has_btf() {
    return std::filesystem::exists("/sys/kernel/btf/vmlinux");
}

TEST(ProbeArguments, TypesFollowTheProvidersSpellings) {
    const char *expected[] = {"char [16]", "int32_t", "string", "const char *", "long"};
    for (int i = 0; i < 5; i++) {
        auto c = check("sdt:sched::sched_switch { trace(args[" + std::to_string(i) + "]); }",
                       kSwitch);
        EXPECT_FALSE(c->diags.has_errors()) << messages(*c);
        EXPECT_EQ(traced_type(*c), expected[i]) << i;
    }
}

TEST(ProbeArguments, AskedOnlyForClausesUsingArgs) {
    auto c = check("BEGIN { trace(arg0); } sdt:sched::sched_switch { trace(args[1]); } "
                   "tick-1s { trace(args[0]); trace(args[1]); }",
                   kSwitch);
    EXPECT_FALSE(c->diags.has_errors()) << messages(*c);
    EXPECT_EQ(c->asked, (std::vector<size_t>{1, 2}));
}

TEST(ProbeArguments, IndexBeyondTheArgumentsSaysWhatExists) {
    auto c = check("sdt:sched::sched_switch { trace(args[5]); }", kSwitch);
    std::string text = messages(*c);
    EXPECT_NE(text.find("D_ARGS_IDX: args[5] does not exist: sdt:sched::sched_switch has 5 "
                        "arguments"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("args[0] char [16] (prev_comm), args[1] int32_t (prev_pid)"),
              std::string::npos)
        << text;
}

TEST(ProbeArguments, ComputedIndexNeedsUntypedArguments) {
    auto typed = check("sdt:sched::sched_switch { i = 1; trace(args[i]); }", kSwitch);
    EXPECT_NE(messages(*typed).find("D_ARGS_IDX: the index of args[] must be a constant"),
              std::string::npos)
        << messages(*typed);
    auto untyped = check("profile-97 { i = 1; trace(args[i]); }", {});
    EXPECT_FALSE(untyped->diags.has_errors()) << messages(*untyped);
    EXPECT_EQ(traced_type(*untyped), "int64_t");
}

TEST(ProbeArguments, UntypedArgumentsStopAtNine) {
    auto c = check("profile-97 { trace(args[10]); }", {});
    EXPECT_NE(messages(*c).find("D_ARGS_IDX: args[10] does not exist"), std::string::npos)
        << messages(*c);
}

TEST(ProbeArguments, ProbesWithDifferentArgumentsRefuseArgs) {
    auto c = check("sdt:sched:: { trace(args[0]); }", kSwitch,
                   "sdt:sched::sched_switch and sdt:sched::sched_wakeup");
    EXPECT_NE(messages(*c).find("D_ARGS_MULTI: args[] cannot be used here: the clause's probes "
                                "have different arguments (sdt:sched::sched_switch and "
                                "sdt:sched::sched_wakeup)"),
              std::string::npos)
        << messages(*c);
    // argN stays available.
    auto plain = check("sdt:sched:: { trace(arg0); }", kSwitch, "differ");
    EXPECT_FALSE(plain->diags.has_errors()) << messages(*plain);
}

TEST(ProbeArguments, StringArgumentsAreStrings) {
    auto c = check("sdt:sched::sched_switch { x = args[2]; y = args[0]; trace(x == y); }",
                   kSwitch);
    EXPECT_FALSE(c->diags.has_errors()) << messages(*c);
    EXPECT_EQ(c->result.globals.at("x").type->name, "string");
    EXPECT_EQ(c->result.globals.at("y").type->name, "string"); // char arrays store as strings
}

TEST(KernelTypes, StructsComeFromBtfWithTheirMembers) {
    if (!has_btf())
        GTEST_SKIP() << "skipped: the kernel has no BTF (/sys/kernel/btf/vmlinux)";
    auto c = check("BEGIN { trace(((struct task_struct *)curthread)->pid); "
                   "trace(((struct task_struct *)curthread)->comm); "
                   "trace(((struct task_struct *)curthread)->real_parent->tgid); "
                   "trace(sizeof(struct list_head)); "
                   "trace(offsetof(struct list_head, prev)); }",
                   {});
    EXPECT_FALSE(c->diags.has_errors()) << messages(*c);
    EXPECT_EQ(traced_type(*c), "size_t");
}

TEST(KernelTypes, UnknownMemberSaysWhatExists) {
    if (!has_btf())
        GTEST_SKIP() << "skipped: the kernel has no BTF (/sys/kernel/btf/vmlinux)";
    auto c = check("BEGIN { trace(((struct list_head *)curthread)->nxt); }", {});
    std::string text = messages(*c);
    EXPECT_NE(text.find("D_TYPE_MEMBER: 'struct list_head' has no member named 'nxt'"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("its members are next, prev"), std::string::npos) << text;
}

TEST(KernelTypes, ImportedByIdWithLazyMembers) {
    if (!has_btf())
        GTEST_SKIP() << "skipped: the kernel has no BTF (/sys/kernel/btf/vmlinux)";
    TypeTable types;
    KernelTypes kernel(types);
    ASSERT_TRUE(kernel.available());
    const Type *task = kernel.by_tag(TypeKind::Struct, "task_struct");
    ASSERT_NE(task, nullptr);
    EXPECT_EQ(task->name, "struct task_struct");
    EXPECT_GT(task->size, 1000u);
    EXPECT_TRUE(task->members.empty()); // not until asked
    kernel.complete_members(task);
    std::optional<Member> pid = find_member(task, "pid");
    ASSERT_TRUE(pid);
    EXPECT_EQ(resolve(pid->type)->size, 4u);
    EXPECT_TRUE(resolve(pid->type)->is_signed);
    std::optional<Member> comm = find_member(task, "comm");
    ASSERT_TRUE(comm);
    EXPECT_EQ(resolve(comm->type)->kind, TypeKind::Array);
    EXPECT_EQ(resolve(comm->type)->array_count, 16u);
    std::optional<Member> parent = find_member(task, "real_parent");
    ASSERT_TRUE(parent);
    EXPECT_EQ(parent->type->name, "struct task_struct *");
    EXPECT_EQ(resolve(parent->type)->element, task); // one type per tag
    EXPECT_EQ(kernel.by_tag(TypeKind::Struct, "no_such_struct_in_any_kernel"), nullptr);
    const Type *u64 = kernel.by_typedef("u64");
    ASSERT_NE(u64, nullptr);
    EXPECT_EQ(resolve(u64)->size, 8u);
    EXPECT_FALSE(resolve(u64)->is_signed);
}

} // namespace

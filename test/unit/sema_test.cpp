// The semantic checker: D's type rules (promotions, conversions, layout), name
// resolution, and every kind of error it reports, matched by code and
// position; then valid corpus programs that must check clean.

#include "codegen/sema.h"
#include "parser/parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace dtx;
using namespace dtx::sema;

namespace {

struct Checked {
    std::unique_ptr<SourceFile> source;
    ast::Program program;
    DiagnosticEngine diags;
    CheckedProgram result;
};

std::unique_ptr<Checked> check(const std::string &text, const CheckOptions &options = {}) {
    auto c = std::make_unique<Checked>();
    c->source = std::make_unique<SourceFile>("test.d", text);
    parser::TypeNames names;
    bool parsed = parser::parse_program(*c->source, names, c->program, c->diags);
    EXPECT_TRUE(parsed) << "parse failed: " << text;
    if (parsed)
        c->result = check_program(c->program, c->diags, options);
    return c;
}

// "CODE@line:col" of every error.
std::vector<std::string> errors(const Checked &c) {
    std::vector<std::string> out;
    for (const Diagnostic &d : c.diags.diagnostics())
        out.push_back(d.code + "@" + std::to_string(d.range.begin.line) + ":" +
                      std::to_string(d.range.begin.column));
    return out;
}

std::vector<std::string> errors(const std::string &text, const CheckOptions &options = {}) {
    return errors(*check(text, options));
}

const Diagnostic &only_diagnostic(const Checked &c) {
    EXPECT_EQ(c.diags.diagnostics().size(), 1u) << ::testing::PrintToString(errors(c));
    return c.diags.diagnostics().at(0);
}

// The argument of the last statement `trace(EXPR);` of the last clause.
const ast::Expr &traced(const Checked &c) {
    const ast::Clause &clause = *c.program.clauses.back();
    const auto *stmt = clause.statements.back()->as<ast::ExpressionStmt>();
    return *stmt->expr->as<ast::Call>()->arguments.at(0);
}

// The type of EXPR in `prelude BEGIN { trace(EXPR); }`, or the error codes.
std::string type_of(const std::string &expr, const std::string &prelude = "",
                    const CheckOptions &options = {}) {
    auto c = check(prelude + "\nBEGIN { trace(" + expr + "); }", options);
    if (c->diags.has_errors())
        return "error: " + ::testing::PrintToString(errors(*c));
    const ast::Expr &e = traced(*c);
    return e.type ? e.type->name : "null";
}

std::optional<int64_t> value_of(const std::string &expr, const std::string &prelude = "",
                                const CheckOptions &options = {}) {
    auto c = check(prelude + "\nBEGIN { trace(" + expr + "); }", options);
    EXPECT_FALSE(c->diags.has_errors()) << ::testing::PrintToString(errors(*c));
    return integer_constant(traced(*c), c->result);
}

using Codes = std::vector<std::string>;

} // namespace

// ---- the type table and C's conversions ----------------------------------------

TEST(SemaTypes, BaseIntegersHaveLp64Sizes) {
    TypeTable types;
    for (auto [name, size, is_signed] :
         std::vector<std::tuple<const char *, uint64_t, bool>>{{"char", 1, true},
                                                               {"unsigned char", 1, false},
                                                               {"short", 2, true},
                                                               {"int", 4, true},
                                                               {"unsigned int", 4, false},
                                                               {"long", 8, true},
                                                               {"long long", 8, true},
                                                               {"unsigned long long", 8, false}}) {
        const Type *type = types.lookup(name);
        ASSERT_NE(type, nullptr) << name;
        EXPECT_EQ(type->size, size) << name;
        EXPECT_EQ(type->alignment, size) << name;
        EXPECT_EQ(type->is_signed, is_signed) << name;
    }
    EXPECT_EQ(types.lookup("string")->size, 256u);
    EXPECT_EQ(TypeTable(512).string_type()->size, 512u);
}

TEST(SemaTypes, BuiltinTypedefsHaveTheirLinuxMeanings) {
    TypeTable types;
    auto underlying = [&](const char *name) { return resolve(types.lookup(name))->name; };
    EXPECT_EQ(underlying("uint64_t"), "unsigned long");
    EXPECT_EQ(underlying("int32_t"), "int");
    EXPECT_EQ(underlying("size_t"), "unsigned long");
    EXPECT_EQ(underlying("ssize_t"), "long");
    EXPECT_EQ(underlying("uintptr_t"), "unsigned long");
    EXPECT_EQ(underlying("pid_t"), "int");
    EXPECT_EQ(underlying("uid_t"), "unsigned int");
    EXPECT_EQ(underlying("u64"), "unsigned long long");
    EXPECT_EQ(underlying("__be16"), "unsigned short");
    EXPECT_EQ(underlying("caddr_t"), "char *");
    EXPECT_EQ(types.lookup("bool")->size, 1u);
    EXPECT_EQ(types.lookup("uint64_t")->name, "uint64_t"); // messages keep the typedef name
}

TEST(SemaTypes, IntegerPromotions) {
    TypeTable types;
    EXPECT_EQ(promote(types, types.lookup("char"))->name, "int");
    EXPECT_EQ(promote(types, types.lookup("unsigned short"))->name, "int");
    EXPECT_EQ(promote(types, types.lookup("_Bool"))->name, "int");
    EXPECT_EQ(promote(types, types.lookup("unsigned int"))->name, "unsigned int");
    EXPECT_EQ(promote(types, types.lookup("uint8_t"))->name, "int");
    EXPECT_EQ(promote(types, types.lookup("long"))->name, "long");
}

TEST(SemaTypes, UsualArithmeticConversions) {
    TypeTable types;
    auto common = [&](const char *a, const char *b) {
        return usual_arithmetic(types, types.lookup(a), types.lookup(b))->name;
    };
    EXPECT_EQ(common("char", "char"), "int");
    EXPECT_EQ(common("int", "unsigned int"), "unsigned int");
    EXPECT_EQ(common("int", "long"), "long");
    EXPECT_EQ(common("unsigned int", "long"), "long"); // long holds every unsigned int
    EXPECT_EQ(common("long", "unsigned long"), "unsigned long");
    EXPECT_EQ(common("unsigned long", "long long"), "unsigned long long"); // same size: unsigned
    EXPECT_EQ(common("uint64_t", "int"), "unsigned long");
    EXPECT_EQ(common("short", "unsigned short"), "int");
}

TEST(SemaTypes, AssignmentCompatibility) {
    TypeTable types;
    const Type *int_type = types.lookup("int");
    const Type *string = types.string_type();
    const Type *char_ptr = types.pointer_to(types.char_type());
    const Type *int_ptr = types.pointer_to(int_type);
    const Type *void_ptr = types.pointer_to(types.void_type());
    EXPECT_TRUE(assignable(int_type, types.lookup("uint64_t")));
    EXPECT_TRUE(assignable(string, char_ptr));
    EXPECT_TRUE(assignable(string, types.array_of(types.char_type(), 16)));
    EXPECT_TRUE(assignable(int_ptr, void_ptr));
    EXPECT_TRUE(assignable(int_ptr, int_type, /*rhs_is_null=*/true));
    EXPECT_FALSE(assignable(int_ptr, int_type));
    EXPECT_FALSE(assignable(int_type, string));
    EXPECT_FALSE(assignable(string, int_type));
    EXPECT_FALSE(assignable(int_ptr, char_ptr));
    EXPECT_TRUE(pointers_compatible(types.pointer_to(types.char_type(), true), char_ptr));
}

TEST(SemaTypes, DerivedTypeNames) {
    TypeTable types;
    const Type *char_ptr = types.pointer_to(types.char_type());
    EXPECT_EQ(char_ptr->name, "char *");
    EXPECT_EQ(types.pointer_to(char_ptr)->name, "char **");
    EXPECT_EQ(types.pointer_to(types.char_type(), true)->name, "const char *");
    EXPECT_EQ(types.array_of(types.int_type(), 4)->name, "int [4]");
    EXPECT_EQ(types.pointer_to(types.char_type()), char_ptr); // interned
}

// ---- layout -----------------------------------------------------------------------

TEST(SemaLayout, StructMembersAtNaturalAlignment) {
    const std::string decl =
        "struct sample { char tag; int value; long long stamp; char name[16]; short s; };";
    EXPECT_EQ(value_of("sizeof(struct sample)", decl), 40);
    EXPECT_EQ(value_of("offsetof(struct sample, value)", decl), 4);
    EXPECT_EQ(value_of("offsetof(struct sample, stamp)", decl), 8);
    EXPECT_EQ(value_of("offsetof(struct sample, name)", decl), 16);
    EXPECT_EQ(value_of("offsetof(struct sample, s)", decl), 32);
}

TEST(SemaLayout, UnionIsItsLargestMemberAligned) {
    const std::string decl = "union value { int i; unsigned long long u; char bytes[12]; };";
    EXPECT_EQ(value_of("sizeof(union value)", decl), 16);
    EXPECT_EQ(value_of("offsetof(union value, bytes)", decl), 0);
}

TEST(SemaLayout, BitFieldsShareStorageUnits) {
    auto c = check(R"(
struct flags {
    unsigned int ready : 1;
    unsigned int error : 1;
    unsigned int : 2;
    unsigned int level : 4;
    int signed_field : 3;
    unsigned int : 0;
    unsigned int next_word : 8;
    char tag;
};
BEGIN { trace(sizeof(struct flags)); })");
    ASSERT_FALSE(c->diags.has_errors());
    EXPECT_EQ(integer_constant(traced(*c), c->result), 8);
    const Type *flags = c->result.types->tagged(TypeKind::Struct, "flags");
    std::vector<std::pair<std::string, uint64_t>> offsets;
    for (const Member &m : flags->members)
        offsets.emplace_back(m.name, m.bit_offset);
    EXPECT_EQ(offsets, (std::vector<std::pair<std::string, uint64_t>>{{"ready", 0},
                                                                      {"error", 1},
                                                                      {"level", 4},
                                                                      {"signed_field", 8},
                                                                      {"next_word", 32},
                                                                      {"tag", 40}}));
    EXPECT_EQ(flags->alignment, 4u);
}

TEST(SemaLayout, BitFieldDoesNotStraddleItsUnit) {
    const std::string decl = "struct s { unsigned char a : 7; unsigned char b : 2; };";
    EXPECT_EQ(value_of("sizeof(struct s)", decl), 2);
    const std::string wide = "struct w { unsigned int a : 30; unsigned int b : 4; char c; };";
    EXPECT_EQ(value_of("sizeof(struct w)", wide), 8);
    EXPECT_EQ(value_of("offsetof(struct w, c)", wide), 5);
}

TEST(SemaLayout, AnonymousMembersAreSearched) {
    const std::string decl = "struct n { int a; union { char c; long l; }; };";
    EXPECT_EQ(value_of("sizeof(struct n)", decl), 16);
    EXPECT_EQ(value_of("offsetof(struct n, l)", decl), 8);
}

TEST(SemaLayout, NestedStructsArraysAndTypedefs) {
    const std::string decl = "struct foo { int a; char *b; };\n"
                             "typedef struct foo foo_t;\n"
                             "struct pair { struct foo first; foo_t *second; int counts[4]; };";
    EXPECT_EQ(value_of("sizeof(struct pair)", decl), 40);
    EXPECT_EQ(value_of("sizeof(foo_t)", decl), 16);
    EXPECT_EQ(value_of("offsetof(struct pair, counts)", decl), 24);
    EXPECT_EQ(value_of("sizeof(char [16])"), 16);
    EXPECT_EQ(value_of("sizeof(int *)"), 8);
}

TEST(SemaLayout, BitFieldErrors) {
    EXPECT_EQ(errors("struct s { char c : 9; };"), Codes{"D_DECL_BFSIZE@1:21"});
    EXPECT_EQ(errors("struct s { string c : 3; };"), Codes{"D_DECL_BFTYPE@1:19"});
    EXPECT_EQ(errors("struct s { int c : arg0; };"), Codes{"D_DECL_BFCONST@1:20"});
    EXPECT_EQ(errors("struct a { int x; }; struct a { int y; };"), Codes{"D_DECL_TYPERED@1:22"});
}

TEST(SemaLayout, EnumeratorValues) {
    const std::string decl =
        "enum color { RED, GREEN = 5, BLUE, ALPHA = 0x10, MASK = ALPHA | GREEN,"
        " NEG = -1 };";
    EXPECT_EQ(value_of("RED", decl), 0);
    EXPECT_EQ(value_of("BLUE", decl), 6);
    EXPECT_EQ(value_of("MASK", decl), 21);
    EXPECT_EQ(value_of("NEG", decl), -1);
    EXPECT_EQ(type_of("BLUE", decl), "enum color");
    EXPECT_EQ(type_of("BLUE + 1", decl), "int");
    EXPECT_EQ(value_of("sizeof(enum color)", decl), 4);
}

// ---- typing expressions ----------------------------------------------------------

TEST(SemaExpressions, IntegerConstantTypes) {
    EXPECT_EQ(type_of("1"), "int");
    // C99: a decimal constant is int, long or long long; an octal or hex one
    // may also be unsigned.
    EXPECT_EQ(type_of("2147483648"), "long");
    EXPECT_EQ(type_of("0x80000000"), "unsigned int");
    EXPECT_EQ(type_of("020000000000"), "unsigned int");
    EXPECT_EQ(type_of("4294967296"), "long");
    EXPECT_EQ(type_of("0xffffffffffffffff"), "unsigned long");
    EXPECT_EQ(type_of("1u"), "unsigned int");
    EXPECT_EQ(type_of("1l"), "long");
    EXPECT_EQ(type_of("1ll"), "long long");
    EXPECT_EQ(type_of("1ull"), "unsigned long long");
    EXPECT_EQ(type_of("'a'"), "int");
}

TEST(SemaExpressions, BuiltinVariableTypes) {
    EXPECT_EQ(type_of("execname"), "string");
    EXPECT_EQ(type_of("pid"), "pid_t");
    EXPECT_EQ(type_of("tid"), "id_t");
    EXPECT_EQ(type_of("uid"), "uid_t");
    EXPECT_EQ(type_of("timestamp"), "uint64_t");
    EXPECT_EQ(type_of("walltimestamp"), "uint64_t");
    EXPECT_EQ(type_of("arg3"), "int64_t");
    EXPECT_EQ(type_of("args[1]"), "int64_t");
    EXPECT_EQ(type_of("uregs[R_SP]"), "uint64_t");
    EXPECT_EQ(type_of("errno"), "int");
    // The current task where the kernel's BTF says what that is.
    EXPECT_EQ(type_of("curthread"), std::filesystem::exists("/sys/kernel/btf/vmlinux")
                                        ? "struct task_struct *"
                                        : "void *");
    EXPECT_EQ(type_of("stackdepth"), "uint32_t");
    EXPECT_EQ(type_of("probefunc"), "string");
}

TEST(SemaExpressions, ArithmeticResultTypes) {
    EXPECT_EQ(type_of("'a' + 1"), "int");
    EXPECT_EQ(type_of("arg0 * 2"), "long");
    EXPECT_EQ(type_of("timestamp - vtimestamp"), "unsigned long");
    EXPECT_EQ(type_of("(char)1 + (char)2"), "int");
    EXPECT_EQ(type_of("(short)1 << 3"), "int");
    EXPECT_EQ(type_of("1u - 2"), "unsigned int");
    EXPECT_EQ(type_of("-(unsigned char)1"), "int");
    EXPECT_EQ(type_of("!execname"), "error: { \"D_OP_SCALAR@2:15\" }");
}

TEST(SemaExpressions, PointerArithmeticAndComparison) {
    EXPECT_EQ(type_of("(char *)arg0 + 1"), "char *");
    EXPECT_EQ(type_of("2 + (int *)arg0"), "int *");
    EXPECT_EQ(type_of("(int *)arg0 - (int *)arg1"), "ptrdiff_t");
    EXPECT_EQ(type_of("(int *)arg0 == NULL"), "int");
    EXPECT_EQ(type_of("(int *)arg0 != 0"), "int");
    EXPECT_EQ(errors("BEGIN { trace((int *)arg0 - (char *)arg1); }"), Codes{"D_OP_INCOMPAT@1:15"});
    EXPECT_EQ(errors("BEGIN { trace((int *)arg0 == 5); }"), Codes{"D_OP_INCOMPAT@1:15"});
}

TEST(SemaExpressions, StringComparisonsAndConditionals) {
    EXPECT_EQ(type_of("execname == \"bash\""), "int");
    EXPECT_EQ(type_of("\"abc\" < \"abd\""), "int");
    EXPECT_EQ(type_of("arg0 ? \"a\" : execname"), "string");
    EXPECT_EQ(type_of("arg0 ? 1 : 2ull"), "unsigned long long");
    EXPECT_EQ(type_of("arg0 ? (char *)arg1 : NULL"), "char *");
    EXPECT_EQ(errors("BEGIN { trace(arg0 ? 1 : \"a\"); }"), Codes{"D_OP_INCOMPAT@1:15"});
}

TEST(SemaExpressions, CastsAndStringof) {
    EXPECT_EQ(type_of("(char)arg0"), "char");
    EXPECT_EQ(type_of("(uint64_t)arg0"), "uint64_t");
    EXPECT_EQ(type_of("(void *)arg0"), "void *");
    EXPECT_EQ(type_of("stringof(arg0)"), "string");
    EXPECT_EQ(type_of("stringof((char *)arg0)"), "string");
    EXPECT_EQ(value_of("(unsigned char)300"), 44);
    EXPECT_EQ(value_of("(char)255"), -1);
    auto c = check("BEGIN { trace((int)execname); }");
    EXPECT_EQ(errors(*c), Codes{"D_CAST_INVAL@1:15"});
    EXPECT_EQ(errors("struct s { int a; }; BEGIN { trace((struct s)arg0); }"),
              Codes{"D_CAST_INVAL@1:36"});
}

TEST(SemaExpressions, SubroutineResultTypes) {
    EXPECT_EQ(type_of("strlen(execname)"), "size_t");
    EXPECT_EQ(type_of("substr(execname, 1)"), "string");
    EXPECT_EQ(type_of("copyin(arg0, 8)"), "void *");
    EXPECT_EQ(type_of("copyinstr(arg0)"), "string");
    EXPECT_EQ(type_of("rand()"), "int");
    EXPECT_EQ(type_of("htons(80)"), "uint16_t");
    EXPECT_EQ(type_of("ntohll(arg0)"), "uint64_t");
    EXPECT_EQ(type_of("index(execname, \"a\", 1)"), "int");
    EXPECT_EQ(type_of("strtok(NULL, \"/\")"), "string");
    EXPECT_EQ(type_of("lltostr(arg0, 16)"), "string");
    EXPECT_EQ(type_of("func(arg0)"), "_symaddr");
    EXPECT_EQ(type_of("uaddr(arg0)"), "_usymaddr");
    EXPECT_EQ(type_of("stack(5)"), "stack");
}

// What a symbol address or stack names travels with its type, so that
// aggregation keys laid out from types print as their functions say.
TEST(SemaExpressions, SymbolAndStackResultsSayWhatTheyName) {
    auto result = [](const std::string &expr) {
        auto c = check("BEGIN { trace(" + expr + "); }");
        EXPECT_FALSE(c->diags.has_errors()) << ::testing::PrintToString(errors(*c));
        return *resolve(traced(*c).type); // a copy: the type table goes with `c`
    };
    EXPECT_EQ(result("usym(arg0)").symbolization, Symbolization::User);
    EXPECT_EQ(result("usym(arg0)").symbol_form, SymbolForm::Function);
    EXPECT_EQ(result("ufunc(arg0)").symbol_form, SymbolForm::Function);
    EXPECT_EQ(result("umod(arg0)").symbol_form, SymbolForm::Module);
    EXPECT_EQ(result("uaddr(arg0)").symbol_form, SymbolForm::Address);
    EXPECT_EQ(result("sym(arg0)").symbolization, Symbolization::Kernel);
    EXPECT_EQ(result("func(arg0)").symbol_form, SymbolForm::Function);
    EXPECT_EQ(result("mod(arg0)").symbol_form, SymbolForm::Module);
    EXPECT_EQ(result("ustack(3)").kind, TypeKind::Stack);
    EXPECT_EQ(result("ustack(3)").symbolization, Symbolization::User);
    EXPECT_EQ(result("stack(3)").symbolization, Symbolization::None);
    EXPECT_EQ(type_of("ustack()"), "stack");
}

TEST(SemaExpressions, UregsIndexesThePtRegsSlotsAndTheThreadsSegments) {
    EXPECT_EQ(errors("BEGIN { trace(uregs[R_SS] + uregs[0] + uregs[arg0]); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { trace(uregs[R_DS] + uregs[R_ES] + uregs[R_FS] + uregs[R_GS]); }"),
              Codes{});
    EXPECT_EQ(errors("BEGIN { trace(uregs[26]); }"), Codes{"D_UREGS_IDX@1:15"});
    EXPECT_EQ(errors("BEGIN { trace(uregs[-1]); }"), Codes{"D_UREGS_IDX@1:15"});
    auto c = check("BEGIN { trace(uregs[R_TRAPNO + 1]); }");
    EXPECT_EQ(only_diagnostic(*c).message, "uregs[26] does not exist: uregs[0] to uregs[25] do");
}

TEST(SemaExpressions, SizeofAndConstantFolding) {
    EXPECT_EQ(value_of("sizeof(int)"), 4);
    EXPECT_EQ(value_of("sizeof(uint64_t) * 8"), 64);
    EXPECT_EQ(value_of("sizeof(execname)"), 257); // strsize characters and the NUL
    CheckOptions wide;
    wide.strsize = 512;
    EXPECT_EQ(value_of("sizeof(execname)", "", wide), 513);
    EXPECT_EQ(value_of("(1 << 4) + 3"), 19);
    EXPECT_EQ(value_of("-7 / 2"), -3);
    EXPECT_EQ(value_of("0xffffffffu / 2"), 0x7fffffff);
    EXPECT_EQ(value_of("1 ? 5 : 6"), 5);
    EXPECT_EQ(value_of("-1 < 1u"), 0); // C: -1 becomes UINT_MAX
    EXPECT_EQ(value_of("arg0 + 1"), std::nullopt);
    EXPECT_EQ(type_of("sizeof(int)"), "size_t");
}

// ---- variables -----------------------------------------------------------------

TEST(SemaVariables, FirstAssignmentDeclaresTheType) {
    auto c = check("BEGIN { x = 1; s = execname; p = (char *)arg0; }");
    EXPECT_FALSE(c->diags.has_errors());
    EXPECT_EQ(c->result.globals.at("x").type->name, "int");
    EXPECT_EQ(c->result.globals.at("s").type->name, "string");
    EXPECT_EQ(c->result.globals.at("p").type->name, "char *");
    EXPECT_FALSE(c->result.globals.at("x").declared);
}

TEST(SemaVariables, AssigningAnotherTypeIsIncompatible) {
    auto c = check("BEGIN { x = 1; }\nEND { x = \"one\"; }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_OP_INCOMPAT");
    EXPECT_EQ(d.range.begin.line, 2u);
    EXPECT_EQ(d.range.begin.column, 7u);
    EXPECT_NE(d.message.find("'string'"), std::string::npos);
    ASSERT_EQ(d.hints.size(), 1u);
    EXPECT_NE(d.hints[0].find("line 1"), std::string::npos);
}

TEST(SemaVariables, IntegerWidthsMix) {
    EXPECT_EQ(errors("BEGIN { x = 1; x = timestamp; x = 'c'; x += arg0; x++; }"), Codes{});
}

TEST(SemaVariables, FirstAssignmentAnywhereDeclares) {
    // A global's first assignment declares it for the whole program.
    EXPECT_EQ(errors("BEGIN { trace(y); y = 1; }"), Codes{});
    EXPECT_EQ(errors("BEGIN { y = 1; }\nEND { trace(y); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { trace(s); trace(a[1]); }\nEND { s = \"x\"; a[1] = 2; }"), Codes{});
    EXPECT_EQ(type_of("s", "END { s = \"x\"; }"), "string");
    // Never assigned: undefined.
    EXPECT_EQ(errors("BEGIN { trace(y); }"), Codes{"D_IDENT_UNDEF@1:15"});
    // The later assignment's own errors are reported there, once.
    EXPECT_EQ(errors("BEGIN { trace(q); }\nEND { q = nosuch; }"), Codes{"D_IDENT_UNDEF@2:11"});
}

TEST(SemaVariables, UnknownIdentifierSuggestsANearName) {
    auto c = check("BEGIN { trace(execnmae); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_IDENT_UNDEF");
    EXPECT_EQ(d.hints, std::vector<std::string>{"did you mean 'execname'?"});
    auto far = check("BEGIN { trace(zzzzzz); }");
    EXPECT_TRUE(only_diagnostic(*far).hints.empty());
}

TEST(SemaVariables, ThreadLocalReadsAsIntBeforeAssignment) {
    auto c = check("syscall::read:return /self->ts/ { trace(timestamp - self->ts); }\n"
                   "syscall::read:entry { self->ts = timestamp; }");
    EXPECT_EQ(errors(*c), Codes{});
    EXPECT_EQ(c->result.thread_locals.at("ts").type->name, "int");
}

TEST(SemaVariables, ThreadLocalFirstReadFixesIntType) {
    EXPECT_EQ(errors("BEGIN /self->path/ { }\nEND { self->path = execname; }"),
              Codes{"D_OP_INCOMPAT@2:7"});
}

TEST(SemaVariables, ClauseLocalMustBeAssignedFirst) {
    EXPECT_EQ(errors("BEGIN { trace(this->x); }"), Codes{"D_VAR_UNDEF@1:15"});
    EXPECT_EQ(errors("BEGIN { this->x = 1; trace(this->x); }"), Codes{});
    EXPECT_EQ(errors("this int z;\nBEGIN { trace(this->z); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { this->a[1] = 2; }"), Codes{"D_ARR_LOCAL@1:9"});
}

TEST(SemaVariables, AssociativeArrayKeysAreFixedByFirstUse) {
    auto c = check("BEGIN { a[1, \"x\"] = 1; a[2, execname] = 3; }");
    EXPECT_EQ(errors(*c), Codes{});
    const VariableInfo &a = c->result.globals.at("a");
    EXPECT_TRUE(a.associative);
    ASSERT_EQ(a.key_types.size(), 2u);
    EXPECT_EQ(a.key_types[0]->name, "int");
    EXPECT_EQ(a.key_types[1]->name, "string");
    EXPECT_EQ(errors("BEGIN { a[1, \"x\"] = 1; trace(a[\"x\", 1]); }"),
              (Codes{"D_PROTO_ARG@1:32", "D_PROTO_ARG@1:37"}));
    EXPECT_EQ(errors("BEGIN { a[1, \"x\"] = 1; trace(a[1]); }"), Codes{"D_PROTO_LEN@1:30"});
    EXPECT_EQ(errors("BEGIN { a[1] = 1; trace(a); }"), Codes{"D_IDENT_BADREF@1:25"});
    EXPECT_EQ(errors("BEGIN { trace(b[1]); }"), Codes{"D_IDENT_UNDEF@1:15"});
}

TEST(SemaVariables, ThreadLocalAssociativeArrays) {
    auto c = check("BEGIN /self->ts[probefunc]/ { self->ts[probefunc] = timestamp; }");
    EXPECT_EQ(errors(*c), Codes{});
    EXPECT_TRUE(c->result.thread_locals.at("ts").associative);
    EXPECT_EQ(errors("BEGIN { self->k[1] = 1; self->k[\"a\"] = 2; }"), Codes{"D_PROTO_ARG@1:33"});
}

TEST(SemaVariables, DeclaredVariablesKeepTheirTypes) {
    auto c = check("int x;\nint counts[string, int];\nBEGIN { x = 1; counts[\"a\", 1] = 2; }");
    EXPECT_EQ(errors(*c), Codes{});
    EXPECT_TRUE(c->result.globals.at("x").declared);
    EXPECT_EQ(errors("int x;\nBEGIN { x = \"s\"; }"), Codes{"D_OP_INCOMPAT@2:9"});
    EXPECT_EQ(errors("int counts[string, int];\nBEGIN { counts[1, 1] = 2; }"),
              Codes{"D_PROTO_ARG@2:16"});
    EXPECT_EQ(errors("int a[4];\nBEGIN { a[1] = 2; trace(a[3]); }"), Codes{});
}

TEST(SemaVariables, BuiltinsInlinesAndConstantsAreReadOnly) {
    EXPECT_EQ(errors("BEGIN { execname = \"x\"; }"), Codes{"D_OP_WRITE@1:9"});
    EXPECT_EQ(errors("inline int MAX = 3;\nBEGIN { MAX = 4; }"), Codes{"D_OP_WRITE@2:9"});
    EXPECT_EQ(errors("BEGIN { SIGKILL++; }"), Codes{"D_OP_WRITE@1:9"});
    EXPECT_EQ(errors("BEGIN { args[0] = 1; }"), Codes{"D_OP_WRITE@1:9"});
}

TEST(SemaVariables, AssignmentNeedsAnLvalue) {
    EXPECT_EQ(errors("BEGIN { rand() = 1; }"), Codes{"D_OP_LVAL@1:9"});
}

TEST(SemaVariables, InlinesAreTypedConstants) {
    auto c = check("inline int MAX = 10;\ninline string WHO = execname;\n"
                   "BEGIN { trace(MAX * 2); }");
    EXPECT_EQ(errors(*c), Codes{});
    EXPECT_EQ(integer_constant(traced(*c), c->result), 20);
    EXPECT_EQ(type_of("WHO", "inline string WHO = execname;"), "string");
    EXPECT_EQ(errors("inline int BAD = \"s\";"), Codes{"D_OP_INCOMPAT@1:18"});
}

TEST(SemaVariables, TypedefsAndExterns) {
    EXPECT_EQ(type_of("(counter_t)arg0", "typedef unsigned long long counter_t;"), "counter_t");
    EXPECT_EQ(type_of("`max_pfn", "extern unsigned long max_pfn;"), "unsigned long");
    EXPECT_EQ(errors("BEGIN { trace(`jiffies); }"), Codes{"D_SYM_NOTYPES@1:15"});
}

// ---- macro arguments -----------------------------------------------------------

TEST(SemaMacros, NumberedArguments) {
    CheckOptions options;
    options.macro_arguments = {"42", "bash", "0x10"};
    EXPECT_EQ(value_of("$1", "", options), 42);
    EXPECT_EQ(value_of("$3", "", options), 16);
    EXPECT_EQ(type_of("$$2", "", options), "string");
    EXPECT_EQ(type_of("$2", "BEGIN { bash = 1; }", options), "int"); // names an identifier
    EXPECT_EQ(errors("BEGIN { trace($4); }", options), Codes{"D_MACRO_UNDEF@1:15"});
}

// dtrace's lexer: an integer constant is an integer, an identifier that name,
// anything else a string; dtx makes an identifier that names nothing a string.
TEST(SemaMacros, ArgumentsAreTypedByTheirText) {
    CheckOptions options;
    options.macro_arguments = {"bash",   "\"bash\"", "/tmp/x",   "a b", "-5", "+7",        "010",
                               "0x10ul", "08",       "execname", "",    "\"", "2147483648"};
    auto text_of = [&](const char *macro) -> std::optional<std::string> {
        auto c = check(std::string("BEGIN { trace(") + macro + "); }", options);
        auto it = c->result.resolutions.find(&traced(*c));
        if (it == c->result.resolutions.end())
            return std::nullopt;
        return it->second.text;
    };
    EXPECT_EQ(type_of("$1", "", options), "string");
    EXPECT_EQ(text_of("$1"), "bash");
    EXPECT_EQ(text_of("$2"), "bash"); // the quotes are stripped
    EXPECT_EQ(text_of("$3"), "/tmp/x");
    EXPECT_EQ(text_of("$4"), "a b");
    EXPECT_EQ(value_of("$5", "", options), -5);
    EXPECT_EQ(type_of("$5", "", options), "int");
    EXPECT_EQ(value_of("$6", "", options), 7);
    EXPECT_EQ(value_of("$7", "", options), 8);
    EXPECT_EQ(value_of("$8", "", options), 16);
    EXPECT_EQ(type_of("$8", "", options), "unsigned long");
    EXPECT_EQ(text_of("$9"), "08");                   // not an octal constant
    EXPECT_EQ(type_of("$10", "", options), "string"); // execname, the built-in
    EXPECT_EQ(text_of("$11"), "");
    EXPECT_EQ(text_of("$12"), "\"");
    EXPECT_EQ(type_of("$13", "", options), "long");
    EXPECT_EQ(text_of("$$5"), "-5");
    EXPECT_EQ(text_of("$$2"), "\"bash\"");
    EXPECT_EQ(errors("BEGIN { x = $1 - 1; }", options), Codes{"D_OP_ARITH@1:13"});
    EXPECT_EQ(type_of("$1 + 1", "", options), "string"); // the string from byte 1 on
}

TEST(SemaMacros, IntegerOverflowIsAnError) {
    CheckOptions options;
    options.macro_arguments = {"99999999999999999999"};
    EXPECT_EQ(errors("BEGIN { trace($1); }", options), Codes{"D_MACRO_OFLOW@1:15"});
}

TEST(SemaMacros, DefaultArgs) {
    EXPECT_EQ(errors("BEGIN { trace($1); }"), Codes{"D_MACRO_UNDEF@1:15"});
    CheckOptions options;
    options.defaultargs = true;
    EXPECT_EQ(value_of("$1", "", options), 0);
    EXPECT_EQ(type_of("$$1", "", options), "string");
    EXPECT_EQ(errors("BEGIN { trace($2 + $target); }", options), Codes{});
}

TEST(SemaMacros, TargetAndProcessVariables) {
    // As in dtrace, $target is 0 without -c or -p.
    EXPECT_EQ(value_of("$target", ""), 0);
    EXPECT_EQ(errors("BEGIN { trace($nosuch); }"), Codes{"D_MACRO_UNDEF@1:15"});
    CheckOptions options;
    options.target_pid = 1234;
    options.dtx_pid = 99;
    EXPECT_EQ(value_of("$target", "", options), 1234);
    EXPECT_EQ(value_of("$pid", "", options), 99);
}

// ---- aggregations ------------------------------------------------------------------

TEST(SemaAggregations, RecordsFunctionKeysAndParameters) {
    auto c = check("BEGIN { @calls[execname, pid] = count(); @lin = lquantize(arg0, 0, 100, 10);"
                   " @ = sum(arg0); }");
    EXPECT_EQ(errors(*c), Codes{});
    const AggregationInfo &calls = c->result.aggregations.at("calls");
    EXPECT_EQ(calls.function->name, "count");
    ASSERT_EQ(calls.key_types.size(), 2u);
    EXPECT_EQ(calls.key_types[1]->name, "pid_t");
    EXPECT_EQ(c->result.aggregations.at("lin").parameters, (std::vector<int64_t>{0, 100, 10}));
    EXPECT_EQ(c->result.aggregations.at("").function->name, "sum");
}

TEST(SemaAggregations, CannotChangeFunctionOrKeys) {
    EXPECT_EQ(errors("BEGIN { @a = count(); }\nEND { @a = sum(1); }"), Codes{"D_AGG_REDEF@2:12"});
    EXPECT_EQ(errors("BEGIN { @a[1] = count(); @a[\"x\"] = count(); }"), Codes{"D_PROTO_ARG@1:29"});
    EXPECT_EQ(errors("BEGIN { @a[1] = count(); @a[1, 2] = count(); }"), Codes{"D_PROTO_LEN@1:26"});
    EXPECT_EQ(errors("BEGIN { @a[stack()] = count(); @a[ustack()] = count(); }"),
              Codes{"D_PROTO_ARG@1:35"});
}

TEST(SemaAggregations, AggregationIsNotAValue) {
    EXPECT_EQ(errors("BEGIN { @a = count(); x = @a; }"), Codes{"D_AGG_VALUE@1:27"});
    EXPECT_EQ(errors("BEGIN { @a[1] = count(); trace(@a[1]); }"), Codes{"D_AGG_VALUE@1:32"});
}

TEST(SemaAggregations, AggregatingFunctionsOnlyInAggregationAssignment) {
    auto c = check("BEGIN { x = count(); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_FUNC_IDKIND");
    EXPECT_EQ(d.hints, std::vector<std::string>{"use it as @name[keys] = count(...)"});
    EXPECT_EQ(errors("BEGIN { @a = 1; }"), Codes{"D_AGG_FUNC@1:14"});
    EXPECT_EQ(errors("BEGIN { @a = strlen(execname); }"), Codes{"D_AGG_FUNC@1:14"});
    EXPECT_EQ(errors("BEGIN { @a += 1; }"), Codes{"D_AGG_FUNC@1:9"});
}

TEST(SemaAggregations, ArgumentCountsAndTypes) {
    EXPECT_EQ(errors("BEGIN { @a = count(1); }"), Codes{"D_PROTO_LEN@1:14"});
    EXPECT_EQ(errors("BEGIN { @a = sum(); }"), Codes{"D_PROTO_LEN@1:14"});
    EXPECT_EQ(errors("BEGIN { @a = sum(execname); }"), Codes{"D_AGG_SCALAR@1:18"});
    EXPECT_EQ(errors("BEGIN { @a = quantize(arg0, 2); @b = avg(timestamp); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { @a[stack(), ustack(5, 1024), execname] = count(); }"), Codes{});
    // Structs are keys by their bytes; an incomplete one has none.
    EXPECT_EQ(errors("struct s { int a; } v;\nBEGIN { @a[v] = count(); }"), Codes{});
    EXPECT_EQ(errors("struct t;\nstruct t *p;\nBEGIN { @a[*p] = count(); }"),
              Codes{"D_KEY_TYPE@3:12"});
}

TEST(SemaAggregations, LquantizeParameterRules) {
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, 0, 100); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, arg1, 100); }"), Codes{"D_LQUANT_BASEVAL@1:29"});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, \"0\", 100); }"),
              Codes{"D_LQUANT_BASETYPE@1:29"});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, 0, 0x100000000); }"),
              Codes{"D_LQUANT_LIMVAL@1:32"});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, 10, 10); }"), Codes{"D_LQUANT_MISMATCH@1:33"});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, 0, 100, 0); }"), Codes{"D_LQUANT_STEPVAL@1:37"});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, 0, 100, 200); }"),
              Codes{"D_LQUANT_STEPLARGE@1:37"});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, -1000000, 1000000, 1); }"),
              Codes{"D_LQUANT_STEPSMALL@1:48"});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0); }"), Codes{"D_PROTO_LEN@1:13"});
    EXPECT_EQ(errors("BEGIN { @ = lquantize(arg0, 0, 10); @ = lquantize(arg0, 1, 10); }"),
              Codes{"D_LQUANT_MATCHBASE@1:57"});
}

TEST(SemaAggregations, LlquantizeParameterRules) {
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, 0, 6, 20); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 1, 0, 6, 10); }"),
              Codes{"D_LLQUANT_FACTORVAL@1:30"});
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, 3, 2, 10); }"),
              Codes{"D_LLQUANT_HMAGVAL@1:37"});
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, 0, 30, 10); }"),
              Codes{"D_LLQUANT_HMAGVAL@1:37"});
    // factor^(high + 1) may take all 64 bits, as dtrace allows: 10^19, not 10^20.
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, 0, 18, 100); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, 0, 19, 100); }"),
              Codes{"D_LLQUANT_HMAGVAL@1:37"});
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, 0, 6, 7); }"),
              Codes{"D_LLQUANT_STEPVAL@1:40"});
    // Steps above the factor must also slice factor^(low + 1) (factor^2 for
    // low 0) into whole numbers, as the bucket layout needs.
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, 1, 3, 1000); }"),
              Codes{"D_LLQUANT_STEPVAL@1:40"});
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 2, 0, 60, 1000); }"),
              Codes{"D_LLQUANT_STEPVAL@1:40"});
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, 0, 6, 100); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { @ = llquantize(arg0, 10, arg1, 6, 10); }"),
              Codes{"D_LLQUANT_LMAGVAL@1:34"});
    EXPECT_EQ(
        errors("BEGIN { @ = llquantize(arg0, 10, 0, 6, 10); @ = llquantize(arg0, 2, 0, 6, 2); }"),
        Codes{"D_LLQUANT_MATCHFACTOR@1:66"});
}

TEST(SemaAggregations, ManagementActionsNeedADefinedAggregation) {
    EXPECT_EQ(errors("BEGIN { @a = count(); trunc(@a, 5); clear(@a); normalize(@a, 10);"
                     " denormalize(@a); printa(@a); }"),
              Codes{});
    EXPECT_EQ(errors("BEGIN { x = 1; trunc(x); }"), Codes{"D_TRUNC_AGGARG@1:22"});
    EXPECT_EQ(errors("BEGIN { clear(@nope); }"), Codes{"D_CLEAR_AGGBAD@1:15"});
    EXPECT_EQ(errors("BEGIN { @a = count(); normalize(@a); }"), Codes{"D_PROTO_LEN@1:23"});
    EXPECT_EQ(errors("BEGIN { printa(@nope); }"), Codes{"D_PRINTA_AGGBAD@1:16"});
}

// ---- functions and actions ---------------------------------------------------------

TEST(SemaFunctions, TableHasOneDescriptorPerFunction) {
    std::set<std::string> names;
    for (const FunctionDescriptor *fn : functions()) {
        EXPECT_TRUE(names.insert(std::string(fn->name)).second) << fn->name;
        // Nothing is declared that is not implemented.
        if (fn->function_class == FunctionClass::Aggregating)
            EXPECT_TRUE(fn->shape && fn->aggregate) << fn->name;
        else
            EXPECT_TRUE(fn->lower) << fn->name;
    }
    for (const char *name :
         {"trace",   "printf",    "printa",      "tracemem",    "stack",      "ustack",
          "exit",    "setopt",    "count",       "sum",         "avg",        "min",
          "max",     "stddev",    "quantize",    "lquantize",   "llquantize", "trunc",
          "clear",   "normalize", "denormalize", "speculation", "speculate",  "commit",
          "discard", "strlen",    "strjoin",     "substr",      "index",      "rindex",
          "strchr",  "strrchr",   "strstr",      "strtok",      "basename",   "dirname",
          "lltostr", "toupper",   "tolower",     "copyin",      "copyinstr",  "copyinto",
          "rand",    "htons",     "htonl",       "htonll",      "ntohs",      "ntohl",
          "ntohll",  "system",    "raise",       "stop",        "copyout",    "copyoutstr",
          "func",    "sym",       "mod",         "ufunc",       "usym",       "umod",
          "uaddr"})
        EXPECT_NE(find_function(name), nullptr) << name;
    EXPECT_TRUE(find_function("raise")->destructive);
    EXPECT_EQ(find_function("quantize")->function_class, FunctionClass::Aggregating);
    EXPECT_EQ(find_function("substr")->signature(), "string substr(const char *, int, [int])");
    EXPECT_EQ(find_function("printf")->signature(), "void printf(string format, ...)");
}

TEST(SemaFunctions, UnknownFunctionSuggestsANearName) {
    auto c = check("BEGIN { trace(strlne(execname)); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_FUNC_UNDEF");
    EXPECT_EQ(d.range.begin.column, 15u);
    EXPECT_EQ(d.hints, std::vector<std::string>{"did you mean 'strlen'?"});
}

TEST(SemaFunctions, ArgumentCountShowsThePrototype) {
    auto c = check("BEGIN { trace(substr(execname)); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_PROTO_LEN");
    EXPECT_EQ(d.message, "substr() takes 2 to 3 arguments, 1 given");
    EXPECT_EQ(d.hints,
              std::vector<std::string>{"prototype: string substr(const char *, int, [int])"});
    EXPECT_EQ(errors("BEGIN { exit(); }"), Codes{"D_PROTO_LEN@1:9"});
    EXPECT_EQ(errors("BEGIN { trace(rand(1)); }"), Codes{"D_PROTO_LEN@1:15"});
}

TEST(SemaFunctions, ArgumentTypesFollowThePrototype) {
    EXPECT_EQ(errors("BEGIN { trace(strlen(1)); }"), Codes{"D_PROTO_ARG@1:22"});
    EXPECT_EQ(errors("BEGIN { trace(copyinstr(execname)); }"), Codes{"D_PROTO_ARG@1:25"});
    EXPECT_EQ(errors("BEGIN { exit(\"1\"); }"), Codes{"D_PROTO_ARG@1:14"});
    EXPECT_EQ(errors("BEGIN { trace(strjoin(execname, (char *)arg0)); }"), Codes{});
    EXPECT_EQ(errors("BEGIN { trace(strchr(execname, '.')); }"), Codes{});
    auto c = check("BEGIN { trace(substr(execname, \"1\")); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.message, "argument #2 of substr() has type 'string', which does not match 'int'");
}

TEST(SemaFunctions, DestructiveActionsNeedPermission) {
    auto c = check("BEGIN { raise(9); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_ACT_DESTRUCTIVE");
    EXPECT_EQ(d.hints,
              std::vector<std::string>{"run dtx with -w, or add '#pragma D option destructive'"});
    EXPECT_EQ(errors("BEGIN { system(\"ls\"); stop(); copyout(\"x\", arg0, 1); }"),
              (Codes{"D_ACT_DESTRUCTIVE@1:9", "D_ACT_DESTRUCTIVE@1:23", "D_ACT_DESTRUCTIVE@1:31"}));
    CheckOptions w;
    w.destructive = true;
    EXPECT_EQ(errors("BEGIN { raise(SIGSTOP); }", w), Codes{});
    EXPECT_EQ(errors("BEGIN { stop(); }", w), Codes{});
}

TEST(SemaFunctions, ActionsAreStatements) {
    EXPECT_EQ(errors("BEGIN { x = trace(1); }"), Codes{"D_CG_EXPR@1:13"});
    EXPECT_EQ(errors("BEGIN /exit(0)/ { }"), Codes{"D_CG_EXPR@1:8"});
    EXPECT_EQ(errors("BEGIN { trace(1); exit(0); stack(); ustack(5, 512); }"), Codes{});
}

TEST(SemaFunctions, SpeculationsAreIntegers) {
    EXPECT_EQ(errors("BEGIN { self->spec = speculation(); speculate(self->spec);"
                     " commit(self->spec); discard(self->spec); }"),
              Codes{});
    EXPECT_EQ(errors("BEGIN { speculate(execname); }"), Codes{"D_PROTO_ARG@1:19"});
}

// ---- printf and printa ---------------------------------------------------------------

TEST(SemaPrintf, MatchingArgumentsCheckClean) {
    EXPECT_EQ(errors("BEGIN { printf(\"%s %d %5.2s %-*d %p %c %x %Y %a %%\\n\", execname, pid,"
                     " probefunc, 8, tid, curthread, 'x', arg0, walltimestamp, func(arg0)); }"),
              Codes{});
}

TEST(SemaPrintf, ConversionAndArgumentMismatch) {
    auto c = check("BEGIN { printf(\"%d\\n\", execname); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_PRINTF_ARG_TYPE");
    EXPECT_EQ(d.range.begin.column, 24u);
    EXPECT_EQ(d.message, "argument #2 has type 'string', which does not fit conversion #1 '%d'");
    EXPECT_EQ(errors("BEGIN { printf(\"%s\", pid); }"), Codes{"D_PRINTF_ARG_TYPE@1:22"});
    EXPECT_EQ(errors("BEGIN { printf(\"%s\", (char *)arg0); }"), Codes{"D_PRINTF_ARG_TYPE@1:22"});
}

TEST(SemaPrintf, ArgumentCounts) {
    EXPECT_EQ(errors("BEGIN { printf(\"%d %d\", 1); }"), Codes{"D_PRINTF_ARG_PROTO@1:16"});
    EXPECT_EQ(errors("BEGIN { printf(\"%d\", 1, 2); }"), Codes{"D_PRINTF_ARG_EXTRA@1:25"});
    EXPECT_EQ(errors("BEGIN { printf(\"%*d\", execname, 1); }"), Codes{"D_PRINTF_DYN_TYPE@1:23"});
    EXPECT_EQ(errors("BEGIN { printf(\"%*d\"); }"), Codes{"D_PRINTF_DYN_PROTO@1:16"});
    EXPECT_EQ(errors("BEGIN { printf(); }"), Codes{"D_PROTO_LEN@1:9"});
}

TEST(SemaPrintf, FormatMustBeAValidConstant) {
    EXPECT_EQ(errors("BEGIN { printf(execname); }"), Codes{"D_PRINTF_ARG_FMT@1:16"});
    EXPECT_EQ(errors("BEGIN { printf(\"\"); }"), Codes{"D_PRINTF_FMT_EMPTY@1:16"});
    EXPECT_EQ(errors("BEGIN { printf(\"%q\", 1); }"), Codes{"D_PRINTF_FMT@1:16"});
    EXPECT_EQ(errors("BEGIN { printf(\"%@d\", 1); }"),
              (Codes{"D_PRINTF_AGG_CONV@1:16", "D_PRINTF_ARG_EXTRA@1:23"}));
}

TEST(SemaPrintf, UserSymbolsNeedATarget) {
    EXPECT_EQ(errors("BEGIN { printf(\"%A\", ucaller); }"), Codes{"D_PRINTF_ARG_TYPE@1:22"});
    CheckOptions options;
    options.target_pid = 1;
    EXPECT_EQ(errors("BEGIN { printf(\"%A\", ucaller); }", options), Codes{});
    EXPECT_EQ(errors("BEGIN { printf(\"%A\", usym(arg0)); }"), Codes{});
}

TEST(SemaPrintf, SystemUsesPrintfRules) {
    CheckOptions w;
    w.destructive = true;
    EXPECT_EQ(errors("BEGIN { system(\"kill %d\", execname); }", w),
              Codes{"D_PRINTF_ARG_TYPE@1:27"});
}

TEST(SemaPrinta, FormatsCheckedAgainstKeys) {
    const std::string agg = "BEGIN { @a[execname, pid] = count(); @b[execname, 1] = sum(1);"
                            " @c[1] = count(); ";
    EXPECT_EQ(errors(agg + "printa(\"%s %d %@d\\n\", @a); printa(\"%s %d %@d %@d\", @a, @b); }"),
              Codes{});
    EXPECT_EQ(errors(agg + "printa(\"%d %@d\", @a); }"), Codes{"D_PRINTA_AGGKEY@1:88"});
    EXPECT_EQ(errors(agg + "printa(\"%s %d %d %@d\", @a); }"), Codes{"D_PRINTA_AGGKEY@1:88"});
    EXPECT_EQ(errors(agg + "printa(\"%s\", @a, @c); }"), Codes{"D_PRINTA_AGGPROTO@1:98"});
    EXPECT_EQ(errors(agg + "printa(\"%s\", execname); }"), Codes{"D_PRINTA_AGGARG@1:94"});
}

// ---- operators -----------------------------------------------------------------------

TEST(SemaOperators, NoArithmeticOnStrings) {
    auto c = check("BEGIN { trace(execname - 1); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_OP_ARITH");
    EXPECT_EQ(d.range.begin.column, 15u);
    EXPECT_EQ(errors("BEGIN { trace(\"a\" + \"b\"); }"), Codes{"D_OP_ARITH@1:15"});
    EXPECT_EQ(errors("BEGIN { trace(-execname); }"), Codes{"D_OP_ARITH@1:15"});
    EXPECT_EQ(errors("BEGIN { s = execname; s += 1; }"), Codes{"D_OP_ARITH@1:23"});
    EXPECT_EQ(errors("BEGIN { s = execname; s++; }"), Codes{"D_OP_SCALAR@1:23"});
    EXPECT_EQ(errors("BEGIN { trace(execname * 2); }"), Codes{"D_OP_ARITH@1:15"});
}

// A string is an array of char: an index gives a char, an integer added to
// it the string from that byte on.
TEST(SemaOperators, StringsAreCharArrays) {
    EXPECT_EQ(type_of("execname[0]"), "char");
    EXPECT_EQ(type_of("execname + 1"), "string");
    EXPECT_EQ(type_of("1 + execname"), "string");
    EXPECT_EQ(type_of("(string)arg0"), "string");
    EXPECT_EQ(type_of("(string)curthread->comm"), "string");
    EXPECT_EQ(errors("BEGIN { trace(execname[\"a\"]); }"), Codes{"D_OP_INT@1:24"});
}

TEST(SemaOperators, IntegerOperatorsNeedIntegers) {
    // %, <<, >>, &, |, ^ and ~ take integers only: a pointer is not one.
    const std::string p = "BEGIN { p = (char *)arg0; ";
    EXPECT_EQ(errors(p + "trace(p % 2); }"), Codes{"D_OP_INT@1:33"});
    EXPECT_EQ(errors(p + "trace(p << 1); }"), Codes{"D_OP_INT@1:33"});
    EXPECT_EQ(errors(p + "trace(~p); }"), Codes{"D_OP_INT@1:33"});
    EXPECT_EQ(errors(p + "trace(p & 1); }"), Codes{"D_OP_INT@1:33"});
    // Indexes of built-in arrays and args[] are integers.
    EXPECT_EQ(errors("BEGIN { trace(args[\"a\"]); }"), Codes{"D_OP_INT@1:20"});
    EXPECT_EQ(errors("BEGIN { trace(uregs[\"a\"]); }"), Codes{"D_OP_INT@1:21"});
}

// An array in arithmetic, a comparison of addresses or a cast to an integer
// is a pointer to its first element (C's decay; the result's type is C's).
TEST(SemaOperators, ArraysDecayToPointers) {
    const std::string decl = "struct rec { char name[8]; int vals[4]; }; struct rec *r;";
    EXPECT_EQ(type_of("r->name + 1", decl), "char *");
    EXPECT_EQ(type_of("2 + r->vals", decl), "int *");
    EXPECT_EQ(type_of("(r->vals + 3) - r->vals", decl), "ptrdiff_t");
    EXPECT_EQ(type_of("(uint64_t)r->vals", decl), "uint64_t");
    EXPECT_EQ(type_of("r->vals == &r->vals[1]", decl), "int");
    EXPECT_EQ(type_of("(uintptr_t)curthread->comm"), "uintptr_t");
    // Still no arithmetic with D's strings, nor * / % on addresses.
    EXPECT_EQ(errors("struct rec { char name[8]; }; struct rec *r; "
                     "BEGIN { trace(r->name * 2); trace(r->name + \"a\"); }"),
              (Codes{"D_OP_ARITH@1:60", "D_OP_ARITH@1:80"}));
}

TEST(SemaOperators, VoidIsNoValue) {
    EXPECT_EQ(errors("BEGIN { x = bcopy((void *)arg0, alloca(1), 1); }"), Codes{"D_OP_VFPTR@1:13"});
}

TEST(SemaOperators, StringsDoNotCompareWithIntegers) {
    auto c = check("BEGIN /execname == 1/ { }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_OP_INCOMPAT");
    EXPECT_EQ(d.message, "operator == cannot compare a string with an integer: 'string' and 'int'");
    // 0 is NULL, which a string may be.
    EXPECT_EQ(errors("BEGIN /execname == 0 || NULL != strstr(execname, \"x\")/ { }"), Codes{});
}

TEST(SemaOperators, DivisionByConstantZero) {
    EXPECT_EQ(errors("BEGIN { trace(arg0 / 0); }"), Codes{"D_DIV_ZERO@1:22"});
    EXPECT_EQ(errors("BEGIN { trace(arg0 % (2 - 2)); }"), Codes{"D_DIV_ZERO@1:23"});
}

TEST(SemaOperators, Dereferences) {
    EXPECT_EQ(type_of("*(int *)arg0"), "int");
    EXPECT_EQ(type_of("((char **)arg0)[1]"), "char *");
    EXPECT_EQ(errors("BEGIN { trace(*arg0); }"), Codes{"D_DEREF_NONPTR@1:15"});
    EXPECT_EQ(errors("BEGIN { trace(*(void *)arg0); }"), Codes{"D_DEREF_VOID@1:15"});
    EXPECT_EQ(errors("BEGIN { trace(probefunc[0][1]); }"), Codes{"D_ARR_BADREF@1:15"});
}

TEST(SemaOperators, AddressOf) {
    EXPECT_EQ(type_of("&((struct s *)arg0)->b", "struct s { int a; long b; };"), "long *");
    EXPECT_EQ(errors("BEGIN { x = 1; trace(&x); }"), Codes{"D_ADDROF_VAR@1:22"});
    EXPECT_EQ(errors("struct s { int a : 3; };\nBEGIN { trace(&((struct s *)arg0)->a); }"),
              Codes{"D_ADDROF_BITFIELD@2:15"});
}

TEST(SemaOperators, MemberAccess) {
    const std::string decl = "struct foo { int count; char *name; };\nstruct foo g;";
    EXPECT_EQ(type_of("g.count", decl), "int");
    EXPECT_EQ(type_of("((struct foo *)arg0)->name", decl), "char *");
    auto c = check(decl + "\nBEGIN { trace(g.cuont); }");
    const Diagnostic &d = only_diagnostic(*c);
    EXPECT_EQ(d.code, "D_TYPE_MEMBER");
    EXPECT_EQ(d.hints,
              (std::vector<std::string>{"did you mean 'count'?", "its members are count, name"}));
    EXPECT_EQ(errors(decl + "\nBEGIN { trace(g->count); }"), Codes{"D_OP_PTR@3:15"});
    EXPECT_EQ(errors(decl + "\nBEGIN { trace(arg0.count); }"), Codes{"D_OP_SOU@3:15"});
    EXPECT_EQ(errors("struct dtx_opaque;\nBEGIN { trace(((struct dtx_opaque *)arg0)->f_pos); }"),
              Codes{"D_OP_INCOMPLETE@2:15"});
    // A tag that neither the script nor the kernel defines is not a type.
    EXPECT_EQ(errors("BEGIN { trace(((struct dtx_no_such_struct *)arg0)->f_pos); }"),
              Codes{"D_TYPE_ERR@1:17"});
}

TEST(SemaOperators, SizeofAndOffsetofErrors) {
    EXPECT_EQ(errors("struct s { int a : 3; int b; };\nBEGIN { trace(offsetof(struct s, a)); }"),
              Codes{"D_OFFSETOF_BITFIELD@2:15"});
    EXPECT_EQ(errors("struct s { int a; };\nBEGIN { trace(offsetof(struct s, z)); }"),
              Codes{"D_TYPE_MEMBER@2:15"});
    EXPECT_EQ(errors("BEGIN { trace(offsetof(int, a)); }"), Codes{"D_OFFSETOF_TYPE@1:24"});
    EXPECT_EQ(errors("struct dtx_opaque;\nBEGIN { trace(sizeof(struct dtx_opaque)); }"),
              Codes{"D_SIZEOF_TYPE@2:22"});
    EXPECT_EQ(errors("BEGIN { trace(sizeof(struct dtx_no_such_struct)); }"),
              Codes{"D_TYPE_ERR@1:22"});
}

TEST(SemaOperators, ConditionsMustBeScalar) {
    EXPECT_EQ(errors("BEGIN /execname/ { }"), Codes{"D_PRED_SCALAR@1:8"});
    EXPECT_EQ(errors("BEGIN { if (probefunc) { trace(1); } }"), Codes{"D_OP_SCALAR@1:13"});
    EXPECT_EQ(errors("BEGIN /execname != \"x\" && pid/ { }"), Codes{});
}

TEST(SemaOperators, EveryIndependentErrorIsReported) {
    EXPECT_EQ(errors("BEGIN { trace(execname - 1); trace(nosuch); }\n"
                     "END { @a = sum(execname); printf(\"%d\", execname); }"),
              (Codes{"D_OP_ARITH@1:15", "D_IDENT_UNDEF@1:36", "D_AGG_SCALAR@2:16",
                     "D_PRINTF_ARG_TYPE@2:40"}));
}

// ---- translators and providers ------------------------------------------------------

TEST(SemaDeclarations, TranslatorsEnableXlate) {
    const std::string decl = "struct in { int x; };\nstruct out { int a; };\n"
                             "translator struct out < struct in *p > { a = p->x; };";
    EXPECT_EQ(type_of("xlate <struct out *>((struct in *)arg0)->a", decl), "int");
    EXPECT_EQ(errors("struct o { int a; };\nBEGIN { trace(xlate <struct o>(arg0).a); }"),
              Codes{"D_XLATE_NONE@2:15"});
}

TEST(SemaDeclarations, ProviderProbesHaveFunctionTypes) {
    auto c =
        check("provider foo { probe bar(int, char *); probe q(char *, int) : (string, int); };");
    EXPECT_EQ(errors(*c), Codes{});
    ASSERT_EQ(c->result.providers.size(), 1u);
    const ProviderInfo &foo = c->result.providers[0];
    EXPECT_EQ(foo.probes[0].native->name, "void (int, char *)");
    EXPECT_EQ(foo.probes[1].translated->name, "void (string, int)");
}

// ---- the valid corpus ------------------------------------------------------------------

class SemaCorpus : public ::testing::TestWithParam<const char *> {};

TEST_P(SemaCorpus, ChecksClean) {
    const std::string path = std::string(DTX_SOURCE_DIR) + "/test/parser/valid/" + GetParam();
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::stringstream text;
    text << in.rdbuf();
    CheckOptions options;
    options.target_pid = 4242; // several scripts trace $target
    // As their `#pragma D option` lines ask (the session applies those).
    options.destructive = true;
    options.defaultargs = true;
    auto c = check(text.str(), options);
    std::ostringstream rendered;
    c->diags.render(rendered);
    EXPECT_FALSE(c->diags.has_errors()) << rendered.str();
}

// Programs that need no kernel types and no provider-typed args[].
INSTANTIATE_TEST_SUITE_P(
    Valid, SemaCorpus,
    ::testing::Values(
        "actions_stack.d", "actions_trace_printf_exit.d", "agg_all_functions.d",
        "agg_anonymous_and_literal_keys.d", "agg_trunc_clear_normalize.d", "decl_extern_forward.d",
        "printf_conversions.d", "assoc_arrays_multikey.d", "byte_order_rand.d", "casts.d",
        "char_constants.d", "clause_forms.d", "comments.d", "copyin_functions.d",
        "cpu_distribution.d", "crlf_line_endings.d", "decl_bitfields.d", "decl_globals.d",
        "decl_inline.d", "decl_qualifiers_pointers.d", "decl_self_this.d",
        "decl_struct_union_enum.d", "decl_typedefs.d", "destructive_actions.d", "else_if_chain.d",
        "empty_statements.d", "flowindent_user_functions.d", "if_else.d", "integer_literals.d",
        "kill_signals.d", "last_statement_no_semicolon.d", "llquantize_latency.d",
        "macro_variables.d", "malloc_leaks.d", "multiple_clauses_same_probe.d", "nested_blocks.d",
        "opensnoop.d", "operators_arithmetic_precedence.d", "operators_assignment.d",
        "operators_bitwise_shift.d", "operators_comma.d", "operators_incdec.d",
        "operators_logical.d", "operators_relational_equality.d", "operators_ternary_nested.d",
        "pragma_options.d", "pragma_other.d", "predicate_division.d", "predicate_logical.d",
        "printa_forms.d", "probe_begin_end_error.d", "probe_desc_globs.d",
        "probe_desc_macro_args.d", "probe_profile_tick.d", "provider_decl.d",
        "quantize_read_sizes.d", "read_latency.d", "rw_bytes_by_file.d", "sizeof_offsetof.d",
        "speculation.d", "string_escapes.d", "string_functions.d", "symbol_functions.d",
        "syscall_count_by_exec.d", "syscall_count_by_func.d", "syscall_errors_by_errno.d",
        "tracemem_setopt.d", "unary_chains_and_parens.d", "whitespace_layout.d"),
    [](const ::testing::TestParamInfo<const char *> &info) {
        std::string name = info.param;
        name = name.substr(0, name.size() - 2);
        for (char &ch : name)
            if (!std::isalnum(uint8_t(ch)))
                ch = '_';
        return name;
    });

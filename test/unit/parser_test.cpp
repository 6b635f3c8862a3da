// The D grammar, rule family by rule family: expressions are checked through
// their S-expression shape (which shows grouping), declarations and clauses by
// inspecting the nodes, errors by code, line and column.

#include "parser/ast_dump.h"
#include "parser/parser.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace dtx;
using namespace dtx::ast;

namespace {

struct Parsed {
    std::unique_ptr<SourceFile> source;
    Program program;
    DiagnosticEngine diags;
    bool ok = false;
};

std::unique_ptr<Parsed> parse(const std::string &text, bool bare = false) {
    auto p = std::make_unique<Parsed>();
    p->source = std::make_unique<SourceFile>("test.d", text);
    parser::TypeNames types;
    parser::ProgramParseOptions options;
    options.allow_bare_descriptions = bare;
    p->ok = parser::parse_program(*p->source, types, p->program, p->diags, options);
    return p;
}

// The S-expression of one expression, or "error: CODE@line:col ..." lines.
std::string expr(const std::string &text) {
    SourceFile source("expr", text);
    parser::TypeNames types;
    DiagnosticEngine diags;
    ExprPtr e = parser::parse_expression(source, types, diags);
    if (!e) {
        std::string out = "error:";
        for (const Diagnostic &d : diags.diagnostics())
            out += " " + d.code + "@" + std::to_string(d.range.begin.line) + ":" +
                   std::to_string(d.range.begin.column);
        return out;
    }
    return to_string(*e);
}

std::string type(const std::string &text) {
    SourceFile source("type", text);
    parser::TypeNames types;
    DiagnosticEngine diags;
    TypeExprPtr t = parser::parse_type(source, types, diags);
    return t ? to_string(*t) : "error";
}

// "CODE@line:col" of every diagnostic.
std::vector<std::string> errors(const Parsed &p) {
    std::vector<std::string> out;
    for (const Diagnostic &d : p.diags.diagnostics())
        out.push_back(d.code + "@" + std::to_string(d.range.begin.line) + ":" +
                      std::to_string(d.range.begin.column));
    return out;
}

// Each error as CODE@line:col and its message.
std::vector<std::string> with_messages(const Parsed &p) {
    std::vector<std::string> out;
    for (const Diagnostic &d : p.diags.diagnostics())
        out.push_back(d.code + "@" + std::to_string(d.range.begin.line) + ":" +
                      std::to_string(d.range.begin.column) + " " + d.message);
    return out;
}

const Clause &only_clause(const Parsed &p) {
    EXPECT_EQ(p.program.clauses.size(), 1u);
    return *p.program.clauses.at(0);
}

} // namespace

// ---- literals ----------------------------------------------------------------

TEST(ParserLiterals, IntegerBasesAndSuffixes) {
    EXPECT_EQ(expr("0x1F"), "31");
    EXPECT_EQ(expr("017"), "15");
    EXPECT_EQ(expr("0"), "0");
    EXPECT_EQ(expr("10u"), "10u");
    EXPECT_EQ(expr("10UL"), "10ul");
    EXPECT_EQ(expr("10ll"), "10ll");
    EXPECT_EQ(expr("10LLU"), "10ull");
    EXPECT_EQ(expr("18446744073709551615"), "18446744073709551615");
}

TEST(ParserLiterals, IntegerErrors) {
    EXPECT_EQ(expr("18446744073709551616"), "error: D_INT_OFLOW@1:1");
    EXPECT_EQ(expr("089"), "error: D_INT_DIGIT@1:1");
    EXPECT_EQ(expr("12abc"), "error: D_INT_DIGIT@1:1");
    EXPECT_EQ(expr("1.5"), "error: D_FP_CONSTANT@1:1");
}

TEST(ParserLiterals, StringEscapes) {
    EXPECT_EQ(expr(R"("a\tb\n\\\"\x41\101\0")"), R"("a\tb\n\\\"AA\000")");
    EXPECT_EQ(expr(R"("\a\b\f\r\v")"), R"("\007\010\014\015\013")");
    // dtrace's strings keep \? and \' as written, as any escape it does not know.
    EXPECT_EQ(expr(R"("\?\'")"), R"("\\?\\'")");
    EXPECT_EQ(expr(R"("ab" "cd")"), R"("abcd")");
}

TEST(ParserLiterals, UnknownEscapeInAStringStaysAsWritten) {
    auto p = parse(R"(BEGIN { x = "ab\qc"; })");
    EXPECT_TRUE(p->ok);
    EXPECT_TRUE(errors(*p).empty());
    EXPECT_EQ(expr(R"("ab\qc")"), R"("ab\\qc")");
}

TEST(ParserLiterals, UnknownEscapeInACharacterKeepsTheCharacterWithAWarning) {
    auto p = parse(R"(BEGIN { x = '\q'; })");
    EXPECT_TRUE(p->ok);
    EXPECT_EQ(errors(*p), std::vector<std::string>{"D_ESC_UNKNOWN@1:14"});
}

TEST(ParserLiterals, StringErrorsPointAtTheEscape) {
    EXPECT_EQ(expr(R"(1 + "ab\777c")"), "error: D_ESC_BAD@1:8");
    EXPECT_EQ(expr(R"("abc)"), "error: D_STR_NL@1:1");
    EXPECT_EQ(expr(R"("\x")"), "error: D_ESC_BAD@1:2");
}

TEST(ParserLiterals, CharacterConstants) {
    EXPECT_EQ(expr("'a'"), "97");
    EXPECT_EQ(expr("'\\n'"), "10");
    EXPECT_EQ(expr("'ab'"), "24930");
    EXPECT_EQ(expr("''"), "error: D_CHR_NULL@1:1");
    EXPECT_EQ(expr("'abcdefghi'"), "error: D_CHR_OFLOW@1:1");
    EXPECT_EQ(expr("'a"), "error: D_CHR_NL@1:1");
}

// ---- operators: precedence and associativity ---------------------------------

TEST(ParserOperators, ArithmeticPrecedence) {
    EXPECT_EQ(expr("1 + 2 * 3"), "(+ 1 (* 2 3))");
    EXPECT_EQ(expr("(1 + 2) * 3"), "(* (+ 1 2) 3)");
    EXPECT_EQ(expr("1 - 2 - 3"), "(- (- 1 2) 3)");
    EXPECT_EQ(expr("8 / 4 % 3"), "(% (/ 8 4) 3)");
}

TEST(ParserOperators, ShiftsComparisonsAndBitwise) {
    EXPECT_EQ(expr("1 << 2 + 3"), "(<< 1 (+ 2 3))");
    EXPECT_EQ(expr("a < b == c > d"), "(== (< a b) (> c d))");
    EXPECT_EQ(expr("a & b ^ c | d"), "(| (^ (& a b) c) d)");
    EXPECT_EQ(expr("a == b & c"), "(& (== a b) c)");
    EXPECT_EQ(expr("a <= b != c >= d"), "(!= (<= a b) (>= c d))");
}

TEST(ParserOperators, LogicalIncludingXor) {
    EXPECT_EQ(expr("a || b ^^ c && d"), "(|| a (^^ b (&& c d)))");
    EXPECT_EQ(expr("a && b || c"), "(|| (&& a b) c)");
    EXPECT_EQ(expr("!a && ~b"), "(&& (! a) (~ b))");
}

TEST(ParserOperators, ConditionalIsRightAssociative) {
    EXPECT_EQ(expr("a ? b : c ? d : e"), "(? a b (? c d e))");
    EXPECT_EQ(expr("a ? b, c : d"), "(? a (, b c) d)");
}

TEST(ParserOperators, AssignmentsAreRightAssociative) {
    EXPECT_EQ(expr("a = b = 3"), "(= a (= b 3))");
    const char *ops[] = {"*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="};
    for (const char *op : ops)
        EXPECT_EQ(expr(std::string("a ") + op + " 1"), std::string("(") + op + " a 1)");
}

TEST(ParserOperators, UnaryAndIncrements) {
    EXPECT_EQ(expr("-a"), "(neg a)");
    EXPECT_EQ(expr("+a"), "(plus a)");
    EXPECT_EQ(expr("*p"), "(deref p)");
    EXPECT_EQ(expr("&x"), "(addr x)");
    EXPECT_EQ(expr("++a"), "(pre++ a)");
    EXPECT_EQ(expr("a--"), "(post-- a)");
    EXPECT_EQ(expr("- -a"), "(neg (neg a))");
    EXPECT_EQ(expr("*p++"), "(deref (post++ p))");
}

TEST(ParserOperators, CommaIsLowest) {
    EXPECT_EQ(expr("a = 1, b = 2"), "(, (= a 1) (= b 2))");
}

// ---- postfix, primaries, D-specific names ------------------------------------

TEST(ParserPostfix, MembersSubscriptsAndCalls) {
    EXPECT_EQ(expr("a->b.c[1]"), "(index (. (-> a b) c) 1)");
    EXPECT_EQ(expr("f(1, g(2))"), "(call f 1 (call g 2))");
    EXPECT_EQ(expr("f()"), "(call f)");
    EXPECT_EQ(expr("a[pid, execname]"), "(index a pid execname)");
}

TEST(ParserPostfix, CallingSomethingOtherThanANameIsAnError) {
    EXPECT_EQ(expr("a->f(1)"), "error: D_SYNTAX@1:1");
}

TEST(ParserPostfix, MemberNamesMayBeTypeNamesOrKeywordsAfterArrow) {
    EXPECT_EQ(expr("p->size_t"), "(-> p size_t)");
}

TEST(ParserPrimary, ThreadAndClauseLocals) {
    EXPECT_EQ(expr("self->ts"), "self->ts");
    EXPECT_EQ(expr("this->x + 1"), "(+ this->x 1)");
    EXPECT_EQ(expr("self->a[1]"), "(index self->a 1)");
}

TEST(ParserPrimary, AggregationsNamedAndAnonymous) {
    EXPECT_EQ(expr("@[execname] = count()"), "(= (index @ execname) (call count))");
    EXPECT_EQ(expr("@bytes = sum(arg2)"), "(= @bytes (call sum arg2))");
    EXPECT_EQ(expr("@q[1, 2] = quantize(x)"), "(= (index @q 1 2) (call quantize x))");
}

TEST(ParserPrimary, MacroArguments) {
    EXPECT_EQ(expr("$1 + $target"), "(+ $1 $target)");
    EXPECT_EQ(expr("$$1"), "$$1");
    EXPECT_EQ(expr("$pid"), "$pid");
}

TEST(ParserPrimary, ScopedSymbols) {
    EXPECT_EQ(expr("`max_pfn"), "`max_pfn");
    EXPECT_EQ(expr("vmlinux`jiffies + 1"), "(+ vmlinux`jiffies 1)");
}

// ---- types: casts, sizeof, offsetof, stringof, xlate -------------------------

TEST(ParserTypes, CastsToEveryKindOfTypeName) {
    EXPECT_EQ(expr("(int)x"), "(cast int x)");
    EXPECT_EQ(expr("(unsigned long long)x"), "(cast unsigned long long x)");
    EXPECT_EQ(expr("(struct foo *)x"), "(cast (ptr struct foo) x)");
    EXPECT_EQ(expr("(char **)x"), "(cast (ptr (ptr char)) x)");
    EXPECT_EQ(expr("(uint64_t)x"), "(cast uint64_t x)");
    EXPECT_EQ(expr("(const char *)x"), "(cast (ptr const char) x)");
    EXPECT_EQ(expr("(string)x"), "(cast string x)");
    EXPECT_EQ(expr("(unsigned)x"), "(cast unsigned int x)");
    EXPECT_EQ(expr("(signed char)x"), "(cast signed char x)");
}

TEST(ParserTypes, ParenthesisedNameIsNotACast) {
    EXPECT_EQ(expr("(x) - 1"), "(- x 1)");
    EXPECT_EQ(expr("(size_t) - 1"), "(cast size_t (neg 1))");
}

TEST(ParserTypes, SizeofOffsetofStringofXlate) {
    EXPECT_EQ(expr("sizeof(int)"), "(sizeof-type int)");
    EXPECT_EQ(expr("sizeof x"), "(sizeof x)");
    EXPECT_EQ(expr("sizeof(x)"), "(sizeof x)");
    EXPECT_EQ(expr("offsetof(struct foo, bar)"), "(offsetof struct foo bar)");
    EXPECT_EQ(expr("stringof(x)"), "(stringof x)");
    EXPECT_EQ(expr("stringof x"), "(stringof x)");
    EXPECT_EQ(expr("xlate<struct psinfo *>(curthread)->pr_pid"),
              "(-> (xlate (ptr struct psinfo) curthread) pr_pid)");
}

// Typedefs the table does not have (the kernel's) are asked of its lookup,
// only where nothing but a type name fits, and are type names from then on.
TEST(ParserTypes, LookedUpTypeNamesWhereOnlyATypeFits) {
    std::vector<std::string> asked;
    auto parse_with_lookup = [&](const std::string &text) {
        auto p = std::make_unique<Parsed>();
        p->source = std::make_unique<SourceFile>("test.d", text);
        parser::TypeNames types;
        types.set_lookup([&](std::string_view name) {
            asked.emplace_back(name);
            return name.ends_with("_kt");
        });
        p->ok = parser::parse_program(*p->source, types, p->program, p->diags);
        return p;
    };
    auto p =
        parse_with_lookup("lock_kt held;\n"
                          "BEGIN { x = (lock_kt *)arg0; y = (count_kt)arg1; z = sizeof(size_kt);"
                          " trace(var_kt); trace((other)); w = (v) * 2; }");
    ASSERT_TRUE(p->ok) << ::testing::PrintToString(errors(*p));
    const auto *held = dynamic_cast<const Declaration *>(p->program.items.at(0));
    ASSERT_NE(held, nullptr);
    EXPECT_EQ(held->name, "held");
    EXPECT_EQ(to_string(*held->type), "lock_kt");
    const Clause &clause = only_clause(*p);
    auto statement = [&](size_t i) {
        return to_string(*clause.statements.at(i)->as<ExpressionStmt>()->expr);
    };
    EXPECT_EQ(statement(0), "(= x (cast (ptr lock_kt) arg0))");
    EXPECT_EQ(statement(1), "(= y (cast count_kt arg1))");
    EXPECT_EQ(statement(2), "(= z (sizeof-type size_kt))");
    EXPECT_EQ(statement(3), "(call trace var_kt)"); // a call's argument: not asked
    EXPECT_EQ(asked, (std::vector<std::string>{"lock_kt", "count_kt", "size_kt", "other", "v"}));
}

TEST(ParserTypes, TypeNamesAlone) {
    EXPECT_EQ(type("int"), "int");
    EXPECT_EQ(type("long long"), "long long");
    EXPECT_EQ(type("unsigned short"), "unsigned short");
    EXPECT_EQ(type("struct task_struct *"), "(ptr struct task_struct)");
    EXPECT_EQ(type("int [4]"), "(array int 4)");
    EXPECT_EQ(type("int (*)[4]"), "(ptr (array int 4))");
    EXPECT_EQ(type("int *[4]"), "(array (ptr int) 4)");
    EXPECT_EQ(type("long double"), "long double");
}

TEST(ParserTypes, ContradictorySpecifiersAreErrors) {
    EXPECT_EQ(type("signed unsigned int"), "error");
    EXPECT_EQ(type("long long long"), "error");
    EXPECT_EQ(type("int char"), "error");
    EXPECT_EQ(type("short long"), "error");
}

// ---- clauses -------------------------------------------------------------------

TEST(ParserClauses, ProbeDescriptionFieldsFillFromTheRight) {
    auto p = parse("BEGIN {} read:entry {} syscall::read:entry {} a:b:c:d {} :::tick-1s {}");
    ASSERT_TRUE(p->ok);
    const auto &c = p->program.clauses;
    ASSERT_EQ(c.size(), 5u);
    EXPECT_EQ(c[0]->probes[0].name, "BEGIN");
    EXPECT_EQ(c[0]->probes[0].provider, "");
    EXPECT_EQ(c[1]->probes[0].function, "read");
    EXPECT_EQ(c[1]->probes[0].name, "entry");
    EXPECT_EQ(c[2]->probes[0].provider, "syscall");
    EXPECT_EQ(c[2]->probes[0].module, "");
    EXPECT_EQ(c[3]->probes[0].provider, "a");
    EXPECT_EQ(c[3]->probes[0].module, "b");
    EXPECT_EQ(c[3]->probes[0].function, "c");
    EXPECT_EQ(c[3]->probes[0].name, "d");
    EXPECT_EQ(c[4]->probes[0].name, "tick-1s");
}

TEST(ParserClauses, GlobsMacrosAndDashesStayInOneDescription) {
    auto p = parse("pid$target:libc.so.6:str*:entry, syscall::read[a-z]?:entry, profile-997, "
                   "python$1:::function-entry, fbt:vmlinux:vfs_*:return { }");
    ASSERT_TRUE(p->ok) << errors(*p).size();
    const Clause &c = only_clause(*p);
    ASSERT_EQ(c.probes.size(), 5u);
    EXPECT_EQ(c.probes[0].provider, "pid$target");
    EXPECT_EQ(c.probes[0].module, "libc.so.6");
    EXPECT_EQ(c.probes[0].function, "str*");
    EXPECT_EQ(c.probes[1].function, "read[a-z]?");
    EXPECT_EQ(c.probes[2].name, "profile-997");
    EXPECT_EQ(c.probes[3].provider, "python$1");
    EXPECT_EQ(c.probes[3].name, "function-entry");
}

TEST(ParserClauses, DescriptionListMaySpanLines) {
    auto p = parse("syscall::read:entry,\nsyscall::write:entry\n{\n}\n");
    ASSERT_TRUE(p->ok);
    EXPECT_EQ(only_clause(*p).probes.size(), 2u);
    EXPECT_EQ(only_clause(*p).probes[1].range.begin.line, 2u);
}

TEST(ParserClauses, PredicateWithDivision) {
    auto p = parse("BEGIN / (x / 2) > 3 / { }\nEND /a/b/ { }");
    ASSERT_TRUE(p->ok);
    EXPECT_EQ(to_string(*p->program.clauses[0]->predicate), "(> (/ x 2) 3)");
    EXPECT_EQ(to_string(*p->program.clauses[1]->predicate), "(/ a b)");
}

TEST(ParserClauses, LastStatementMayOmitItsSemicolon) {
    auto p = parse("BEGIN { x = 1; y = 2 }");
    ASSERT_TRUE(p->ok);
    EXPECT_EQ(only_clause(*p).statements.size(), 2u);
}

TEST(ParserClauses, EmptyStatementsAndNestedBlocks) {
    auto p = parse("BEGIN { ; x = 1;; { y = 2; { z = 3 } } }");
    ASSERT_TRUE(p->ok);
    const auto &s = only_clause(*p).statements;
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s[0]->kind, Stmt::Kind::Empty);
    EXPECT_EQ(s[3]->kind, Stmt::Kind::Block);
}

TEST(ParserClauses, IfElseChainsAndDanglingElse) {
    auto p = parse("BEGIN { if (a) if (b) x = 1; else x = 2; if (c) { y = 1; } else if (d) "
                   "{ y = 2; } else { y = 3; } }");
    ASSERT_TRUE(p->ok);
    const auto &s = only_clause(*p).statements;
    ASSERT_EQ(s.size(), 2u);
    const IfStmt *outer = s[0]->as<IfStmt>();
    ASSERT_NE(outer, nullptr);
    EXPECT_EQ(outer->else_branch, nullptr); // the else binds to the inner if
    ASSERT_NE(outer->then_branch->as<IfStmt>(), nullptr);
    EXPECT_NE(outer->then_branch->as<IfStmt>()->else_branch, nullptr);
    const IfStmt *chain = s[1]->as<IfStmt>();
    ASSERT_NE(chain->else_branch->as<IfStmt>(), nullptr);
}

TEST(ParserClauses, BareDescriptionOnlyOnTheCommandLine) {
    EXPECT_TRUE(parse("syscall::read:entry", true)->ok);
    EXPECT_TRUE(parse("syscall::read:entry /pid == 1/", true)->ok);
    auto file = parse("syscall::read:entry\n");
    EXPECT_FALSE(file->ok);
    EXPECT_EQ(errors(*file), std::vector<std::string>{"D_SYNTAX@1:1"});
}

// ---- declarations ----------------------------------------------------------------

TEST(ParserDeclarations, VariablesOfEveryScope) {
    auto p =
        parse("int x; self int y; this string z; int a[10], *b; uint64_t counts[string, int];");
    ASSERT_TRUE(p->ok);
    const auto &d = p->program.declarations;
    ASSERT_EQ(d.size(), 6u);
    EXPECT_EQ(d[0]->storage, StorageClass::None);
    EXPECT_EQ(d[1]->storage, StorageClass::Self);
    EXPECT_EQ(d[2]->storage, StorageClass::This);
    EXPECT_EQ(to_string(*d[2]->type), "string");
    EXPECT_EQ(to_string(*d[3]->type), "(array int 10)");
    EXPECT_EQ(to_string(*d[4]->type), "(ptr int)");
    EXPECT_EQ(to_string(*d[5]->type), "(array uint64_t [key string] [key int])");
}

TEST(ParserDeclarations, TypedefNamesBecomeTypesForLaterText) {
    auto p = parse("typedef struct foo { int a; char *b; } foo_t;\nBEGIN { x = (foo_t *)arg0; }");
    ASSERT_TRUE(p->ok);
    EXPECT_EQ(p->program.declarations[0]->storage, StorageClass::Typedef);
    EXPECT_EQ(p->program.declarations[0]->name, "foo_t");
    const auto *stmt = only_clause(*p).statements[0]->as<ExpressionStmt>();
    EXPECT_EQ(to_string(*stmt->expr), "(= x (cast (ptr foo_t) arg0))");
}

TEST(ParserDeclarations, StructUnionEnumAndBitfields) {
    auto p = parse(
        "struct s { int a : 3; unsigned int : 5; union { int i; char c; }; struct s *next; };\n"
        "enum color { RED, GREEN = 5, BLUE, };");
    ASSERT_TRUE(p->ok);
    const TypeExpr &s = *p->program.declarations[0]->type;
    ASSERT_EQ(s.members.size(), 4u);
    EXPECT_NE(s.members[0].bit_width, nullptr);
    EXPECT_EQ(s.members[1].name, "");
    EXPECT_EQ(s.members[2].type->kind, TypeExpr::Kind::Union);
    EXPECT_EQ(to_string(*s.members[3].type), "(ptr struct s)");
    const TypeExpr &e = *p->program.declarations[1]->type;
    ASSERT_EQ(e.enumerators.size(), 3u);
    EXPECT_EQ(e.enumerators[1].name, "GREEN");
    EXPECT_NE(e.enumerators[1].value, nullptr);
}

TEST(ParserDeclarations, DuplicateMemberIsAnError) {
    auto p = parse("struct s { int a; long a; };");
    EXPECT_EQ(errors(*p), std::vector<std::string>{"D_DECL_MEMBER@1:24"});
}

TEST(ParserDeclarations, InlineTranslatorProvider) {
    auto p = parse("inline int MAX = 10 * 2;\n"
                   "translator struct out < struct in *p > { a = p->x; b = p->y + 1; };\n"
                   "provider myapp { probe start(int, char *); probe done(int) : (int); };\n");
    ASSERT_TRUE(p->ok);
    ASSERT_EQ(p->program.inlines.size(), 1u);
    EXPECT_EQ(to_string(*p->program.inlines[0]->value), "(* 10 2)");
    ASSERT_EQ(p->program.translators.size(), 1u);
    EXPECT_EQ(p->program.translators[0]->parameter, "p");
    EXPECT_EQ(p->program.translators[0]->members.size(), 2u);
    ASSERT_EQ(p->program.providers.size(), 1u);
    EXPECT_EQ(p->program.providers[0]->probes[1].translated_types.size(), 1u);
    EXPECT_EQ(p->program.items.size(), 3u);
}

TEST(ParserDeclarations, DeclarationThenClauseThenDeclaration) {
    auto p = parse("int x;\nBEGIN { x = 1; }\nint y;\nEND { y = x; }");
    ASSERT_TRUE(p->ok);
    EXPECT_EQ(p->program.items.size(), 4u);
}

// ---- directives ---------------------------------------------------------------

TEST(ParserDirectives, PragmasAndShebang) {
    auto p = parse("#!/usr/sbin/dtrace -s\n#pragma D option quiet\n#pragma D option bufsize=4m\n"
                   "  #pragma D depends_on library net.d\n#pragma ident \"x\"\nBEGIN { }");
    ASSERT_TRUE(p->ok);
    ASSERT_EQ(p->program.pragmas.size(), 3u);
    EXPECT_EQ(p->program.pragmas[1].words, (std::vector<std::string>{"option", "bufsize=4m"}));
    EXPECT_EQ(p->program.pragmas[2].words[0], "depends_on");
}

TEST(ParserDirectives, BadPragmas) {
    EXPECT_EQ(errors(*parse("#pragma D option\nBEGIN {}")),
              std::vector<std::string>{"D_PRAGMA_MALFORM@1:1"});
    EXPECT_EQ(errors(*parse("#pragma D frobnicate x\nBEGIN {}")),
              std::vector<std::string>{"D_PRAGMA_INVAL@1:1"});
    EXPECT_EQ(errors(*parse("BEGIN {}\n#pragma D error \"stop here\"\n")),
              std::vector<std::string>{"D_PRAGERR@2:1"});
}

TEST(ParserDirectives, LineMarkersMoveLocations) {
    auto p = parse("# 1 \"script.d\"\n# 40 \"inc.h\"\nBEGIN { x = 1 +; }");
    ASSERT_FALSE(p->ok);
    const Diagnostic &d = p->diags.diagnostics().at(0);
    EXPECT_EQ(d.range.file_name(), "inc.h");
    EXPECT_EQ(d.range.begin.line, 40u);
    EXPECT_EQ(d.range.source_line, 3u);
}

TEST(ParserDirectives, DirectiveWithoutCppIsAnError) {
    EXPECT_EQ(errors(*parse("#include <foo.h>\nBEGIN {}")),
              std::vector<std::string>{"D_PREPROC@1:1"});
}

TEST(ParserDirectives, Comments) {
    auto p = parse("/* a\n * b */ BEGIN // c\n{ x = 1; /* d */ }\n");
    ASSERT_TRUE(p->ok);
    EXPECT_EQ(errors(*parse("BEGIN { /* never closed }")),
              std::vector<std::string>{"D_COMMENT_EOF@1:9"});
    EXPECT_EQ(errors(*parse("/* a /* b */ BEGIN { }")),
              std::vector<std::string>{"D_COMMENT_NEST@1:6"});
}

// ---- error reporting and recovery ----------------------------------------------

TEST(ParserErrors, SeveralIndependentErrorsAreAllReported) {
    auto p = parse("BEGIN { x = 1 y = 2; }\nEND { z = ; }\ntick-1s { printf(\"%d\" }\n");
    EXPECT_EQ(errors(*p),
              (std::vector<std::string>{"D_SYNTAX@1:15", "D_SYNTAX@2:11", "D_SYNTAX@3:23"}));
}

TEST(ParserErrors, UnclosedPredicateRecoversAtTheBody) {
    auto p = parse("BEGIN /x { y = 1; }\nEND { z = 1; }\n");
    EXPECT_EQ(errors(*p), std::vector<std::string>{"D_SYNTAX@1:10"});
    EXPECT_EQ(p->program.clauses.size(), 2u);
}

TEST(ParserErrors, ReservedWordsAndInvalidCharacters) {
    EXPECT_EQ(errors(*parse("BEGIN { while (1) { } }")).at(0), "D_SYNTAX@1:9");
    EXPECT_EQ(errors(*parse("BEGIN { x = 1 # 2; }"))[0], "D_CHR_BAD@1:15");
}

TEST(ParserErrors, MessageSaysWhatWasExpected) {
    auto p = parse("BEGIN { printf(\"x\" }");
    ASSERT_EQ(p->diags.diagnostics().size(), 1u);
    EXPECT_EQ(p->diags.diagnostics()[0].message,
              "syntax error near '}': expected ')' or an operator");
}

TEST(ParserErrors, RenderedWithSourceLineAndCaret) {
    auto p = parse("BEGIN\n{\n\tx = 1 +;\n}\n");
    std::ostringstream out;
    p->diags.render(out);
    EXPECT_EQ(out.str(),
              "test.d:3:9: error: syntax error near ';': expected an expression [D_SYNTAX]\n"
              " 3 | \tx = 1 +;\n"
              "   | \t       ^\n");
}

TEST(ParserErrors, StrayClosingBraceAtOuterScope) {
    EXPECT_EQ(errors(*parse("BEGIN { }\n}\n")), std::vector<std::string>{"D_SYNTAX@2:1"});
}

TEST(ParserErrors, TooManyDescriptionFields) {
    EXPECT_EQ(errors(*parse("a:b:c:d:e { }")), std::vector<std::string>{"D_PDESC_INVAL@1:1"});
}

// ---- limits -------------------------------------------------------------------

// The clause past the limit is an error at its place, and nothing after it
// is read: not the rest of its source (a syntax error there is not seen, nor
// the clause it cuts short), nor the sources after it.
TEST(ParserLimits, ClausesPastTheProgramLimitAreNotRead) {
    const size_t limit = parser::kMaxProgramClauses;
    std::string text;
    for (size_t i = 0; i < limit - 1; i++)
        text += "BEGIN { n++; }\n";
    SourceFile first("first.d", text);
    SourceFile second("second.d", "BEGIN { n++; }\nsyscall::read:entry\n/x/\n{ y = 1; }\n"
                                  "BEGIN { x = ; }\n");
    SourceFile third("third.d", "BEGIN { }\n");
    parser::TypeNames types;
    Program program;
    DiagnosticEngine diags;
    EXPECT_TRUE(parser::parse_program(first, types, program, diags));
    EXPECT_FALSE(parser::parse_program(second, types, program, diags));
    EXPECT_FALSE(parser::parse_program(third, types, program, diags));
    EXPECT_EQ(program.clauses.size(), limit);
    ASSERT_EQ(diags.diagnostics().size(), 1u);
    const Diagnostic &refused = diags.diagnostics()[0];
    EXPECT_EQ(refused.code, "D_CLAUSE_LIMIT");
    EXPECT_EQ(refused.range.file_name(), "second.d");
    EXPECT_EQ(refused.range.begin.line, 2u);
    EXPECT_EQ(refused.range.begin.column, 1u);
    EXPECT_EQ(refused.message, "too many clauses: a program may have at most 65,536 clauses; "
                               "nothing after this one is read");
}

// What a glibc header brings into a D program through -C (cpp run as dtrace
// runs it: strict C99 without __GNUC__): prototypes, `static inline`
// definitions with bodies, restrict-qualified parameters. The parser keeps
// the declarations, drops the function bodies and goes on with D after them.

TEST(ParserCHeaders, StaticInlineDefinitionIsSkippedAndDAfterItParses) {
    auto p = parse("typedef unsigned short u16_t;\n"
                   "static inline u16_t\n"
                   "swap16 (u16_t v)\n"
                   "{\n"
                   "  if (v) { return (u16_t) ((v >> 8) | (v << 8)); }\n"
                   "  /* } in a comment */ return '}' + \"}\"[0];\n"
                   "}\n"
                   "BEGIN { x = 1; }\n");
    EXPECT_TRUE(p->ok);
    EXPECT_EQ(with_messages(*p), std::vector<std::string>{});
    ASSERT_EQ(p->program.clauses.size(), 1u);
    EXPECT_EQ(p->program.clauses[0]->probes.at(0).text, "BEGIN");
    // The typedef is kept, the definition is not.
    EXPECT_EQ(p->program.declarations.size(), 1u);
}

TEST(ParserCHeaders, ExternPrototypesWithRestrictAndEllipsis) {
    auto p = parse("typedef struct _F FILE;\n"
                   "extern int fprintf (FILE *restrict s, const char *restrict f, ...);\n"
                   "extern int remove (const char *p);\n"
                   "BEGIN { exit(0); }\n");
    EXPECT_TRUE(p->ok);
    EXPECT_EQ(with_messages(*p), std::vector<std::string>{});
    EXPECT_EQ(p->program.clauses.size(), 1u);
}

TEST(ParserCHeaders, BodyAfterSomethingNotAFunctionIsAnError) {
    auto p = parse("int x { return 1; }\nBEGIN { }\n");
    EXPECT_FALSE(p->ok);
    ASSERT_FALSE(with_messages(*p).empty());
    EXPECT_EQ(with_messages(*p)[0],
              "D_SYNTAX@1:5 '{' after the declaration of 'x', which is not a function");
}

TEST(ParserCHeaders, UnclosedBodyIsReportedAtItsBrace) {
    auto p = parse("static inline int f (int a)\n{\n  return a;\n");
    EXPECT_FALSE(p->ok);
    ASSERT_FALSE(with_messages(*p).empty());
    EXPECT_EQ(with_messages(*p)[0].substr(0, 13), "D_SYNTAX@2:1 ");
}

TEST(ParserCHeaders, RepeatedTypedefOfATypeNameDeclaresItAgain) {
    // uint32_t is D's own; glibc's <stdint.h> declares it once more.
    auto p = parse("typedef unsigned int __u32;\n"
                   "typedef __u32 uint32_t;\n"
                   "typedef __u32 uint32_t;\n"
                   "BEGIN { exit(0); }\n");
    EXPECT_TRUE(p->ok);
    EXPECT_EQ(with_messages(*p), std::vector<std::string>{});
    ASSERT_EQ(p->program.declarations.size(), 3u);
    EXPECT_EQ(p->program.declarations[1]->name, "uint32_t");
    EXPECT_EQ(p->program.declarations[2]->name, "uint32_t");
}

TEST(ParserCHeaders, TwoTypesWithADeclaratorStayAnError) {
    auto p = parse("typedef int foo_t;\ntypedef long foo_t bar;\n");
    EXPECT_FALSE(p->ok);
    ASSERT_FALSE(with_messages(*p).empty());
    EXPECT_EQ(with_messages(*p)[0].substr(0, 17), "D_DECL_COMBO@2:14");
}

// What a glibc header brings into a D program through -C (cpp run as dtrace
// runs it: strict C99 without __GNUC__): prototypes, `static inline`
// definitions with bodies, restrict-qualified parameters. The parser keeps
// the declarations, drops the function bodies and goes on with D after them.

#include "parser/parser.h"

#include <gtest/gtest.h>

using namespace dtx;
using namespace dtx::ast;

namespace {

struct Parsed {
    std::unique_ptr<SourceFile> source;
    Program program;
    DiagnosticEngine diags;
    bool ok = false;
};

std::unique_ptr<Parsed> parse(const std::string &text) {
    auto p = std::make_unique<Parsed>();
    p->source = std::make_unique<SourceFile>("test.d", text);
    parser::TypeNames types;
    p->ok = parser::parse_program(*p->source, types, p->program, p->diags, {});
    return p;
}

std::vector<std::string> errors(const Parsed &p) {
    std::vector<std::string> out;
    for (const Diagnostic &d : p.diags.diagnostics())
        out.push_back(d.code + "@" + std::to_string(d.range.begin.line) + ":" +
                      std::to_string(d.range.begin.column) + " " + d.message);
    return out;
}

} // namespace

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
    EXPECT_EQ(errors(*p), std::vector<std::string>{});
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
    EXPECT_EQ(errors(*p), std::vector<std::string>{});
    EXPECT_EQ(p->program.clauses.size(), 1u);
}

TEST(ParserCHeaders, BodyAfterSomethingNotAFunctionIsAnError) {
    auto p = parse("int x { return 1; }\nBEGIN { }\n");
    EXPECT_FALSE(p->ok);
    ASSERT_FALSE(errors(*p).empty());
    EXPECT_EQ(errors(*p)[0],
              "D_SYNTAX@1:5 '{' after the declaration of 'x', which is not a function");
}

TEST(ParserCHeaders, UnclosedBodyIsReportedAtItsBrace) {
    auto p = parse("static inline int f (int a)\n{\n  return a;\n");
    EXPECT_FALSE(p->ok);
    ASSERT_FALSE(errors(*p).empty());
    EXPECT_EQ(errors(*p)[0].substr(0, 13), "D_SYNTAX@2:1 ");
}

TEST(ParserCHeaders, RepeatedTypedefOfATypeNameDeclaresItAgain) {
    // uint32_t is D's own; glibc's <stdint.h> declares it once more.
    auto p = parse("typedef unsigned int __u32;\n"
                   "typedef __u32 uint32_t;\n"
                   "typedef __u32 uint32_t;\n"
                   "BEGIN { exit(0); }\n");
    EXPECT_TRUE(p->ok);
    EXPECT_EQ(errors(*p), std::vector<std::string>{});
    ASSERT_EQ(p->program.declarations.size(), 3u);
    EXPECT_EQ(p->program.declarations[1]->name, "uint32_t");
    EXPECT_EQ(p->program.declarations[2]->name, "uint32_t");
}

TEST(ParserCHeaders, TwoTypesWithADeclaratorStayAnError) {
    auto p = parse("typedef int foo_t;\ntypedef long foo_t bar;\n");
    EXPECT_FALSE(p->ok);
    ASSERT_FALSE(errors(*p).empty());
    EXPECT_EQ(errors(*p)[0].substr(0, 17), "D_DECL_COMBO@2:14");
}

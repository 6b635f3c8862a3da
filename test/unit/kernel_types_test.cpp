// Kernel types in D, from the running kernel's BTF: how KernelTypes imports
// structs, typedef chains, anonymous members, bit-fields, arrays and enums
// (member offsets checked against the BTF read directly with libbpf, as
// `bpftool btf dump file /sys/kernel/btf/vmlinux` shows them), and what the
// checker makes of them: curthread, unknown tags, kernel typedefs and
// enumerators, print(). Each test is skipped on a kernel without BTF.

#include "codegen/kernel_types.h"
#include "codegen/sema.h"
#include "libtrace/vmlinux_btf.h"
#include "parser/parser.h"

#include <bpf/btf.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

using namespace dtx;
using namespace dtx::sema;

namespace {

#define REQUIRE_BTF()                                                                              \
    do {                                                                                           \
        if (!std::filesystem::exists("/sys/kernel/btf/vmlinux") || !trace::vmlinux_btf())          \
            GTEST_SKIP() << "skipped: the kernel has no BTF (/sys/kernel/btf/vmlinux)";            \
    } while (0)

// ---- BTF read directly ----------------------------------------------------------------

struct BtfMember {
    uint64_t bit_offset; // from the start of the outer struct
    uint32_t bit_width;  // 0 unless a bit-field
};

// `name` among the members of BTF type `id` and, as C reaches them, of its
// anonymous struct and union members: what bpftool's dump lists.
std::optional<BtfMember> member_in_btf(const btf *b, uint32_t id, std::string_view name) {
    int resolved = btf__resolve_type(b, id);
    if (resolved < 0)
        return std::nullopt;
    const btf_type *t = btf__type_by_id(b, uint32_t(resolved));
    if (!btf_is_composite(t))
        return std::nullopt;
    const btf_member *m = btf_members(t);
    for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
        std::string_view member = btf__name_by_offset(b, m->name_off);
        uint64_t offset = btf_member_bit_offset(t, i);
        if (member == name)
            return BtfMember{offset, btf_member_bitfield_size(t, i)};
        if (member.empty())
            if (std::optional<BtfMember> inner = member_in_btf(b, m->type, name))
                return BtfMember{offset + inner->bit_offset, inner->bit_width};
    }
    return std::nullopt;
}

uint32_t btf_struct(const char *name) {
    int id = btf__find_by_name_kind(trace::vmlinux_btf(), name, BTF_KIND_STRUCT);
    EXPECT_GT(id, 0) << "struct " << name;
    return uint32_t(std::max(id, 0));
}

// ---- KernelTypes ------------------------------------------------------------------------

TEST(KernelTypesBtf, StructByTagHasTheKernelsSize) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    for (const char *tag : {"task_struct", "file", "path", "sk_buff", "fs_struct"}) {
        const Type *t = kernel.by_tag(TypeKind::Struct, tag);
        ASSERT_NE(t, nullptr) << tag;
        EXPECT_EQ(t->name, std::string("struct ") + tag);
        EXPECT_EQ(int64_t(t->size), btf__resolve_size(trace::vmlinux_btf(), btf_struct(tag)))
            << tag;
        EXPECT_EQ(kernel.by_tag(TypeKind::Struct, tag), t) << "one type per tag";
    }
    EXPECT_EQ(kernel.by_tag(TypeKind::Union, "task_struct"), nullptr); // a struct, not a union
}

TEST(KernelTypesBtf, TypedefChainsKeepEachName) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    // typedef __kernel_clockid_t clockid_t; typedef int __kernel_clockid_t;
    const Type *clockid = kernel.by_typedef("clockid_t");
    ASSERT_NE(clockid, nullptr);
    EXPECT_EQ(clockid->kind, TypeKind::Typedef);
    EXPECT_EQ(clockid->name, "clockid_t");
    ASSERT_NE(clockid->element, nullptr);
    EXPECT_EQ(clockid->element->name, "__kernel_clockid_t");
    EXPECT_EQ(resolve(clockid)->name, "int");
    // typedef struct { int counter; } atomic_t;
    const Type *atomic = kernel.by_typedef("atomic_t");
    ASSERT_NE(atomic, nullptr);
    const Type *record = resolve(atomic);
    EXPECT_EQ(record->kind, TypeKind::Struct);
    EXPECT_EQ(record->size, 4u);
    ASSERT_EQ(record->members.size(), 1u); // anonymous: members come at once
    EXPECT_EQ(record->members[0].name, "counter");
    EXPECT_EQ(kernel.by_typedef("no_such_typedef_in_any_kernel_t"), nullptr);
}

// GCC's names of C's integers in BTF ("long long int") are D's ("long long").
TEST(KernelTypesBtf, IntegersTakeTheirDSpelling) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    const Type *timespec = kernel.by_tag(TypeKind::Struct, "__kernel_timespec");
    ASSERT_NE(timespec, nullptr);
    kernel.complete_members(timespec);
    std::optional<Member> nsec = find_member(timespec, "tv_nsec");
    ASSERT_TRUE(nsec);
    EXPECT_EQ(nsec->type->name, "long long"); // long long int
    const Type *skb = kernel.by_tag(TypeKind::Struct, "sk_buff");
    ASSERT_NE(skb, nullptr);
    kernel.complete_members(skb);
    std::optional<Member> len = find_member(skb, "len");
    ASSERT_TRUE(len);
    EXPECT_EQ(len->type->name, "unsigned int");
    std::optional<Member> nfct = find_member(skb, "_nfct");
    if (nfct) {
        EXPECT_EQ(nfct->type->name, "unsigned long"); // long unsigned int
    }
    EXPECT_EQ(resolve(kernel.by_typedef("u64"))->name, "unsigned long long");
}

// Members of anonymous unions and structs, reached through the outer struct,
// sit where the kernel's BTF puts them.
TEST(KernelTypesBtf, AnonymousMembersHaveTheKernelsOffsets) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    const std::pair<const char *, std::vector<const char *>> cases[] = {
        {"file", {"f_lock", "f_path", "f_pos_lock", "f_pos", "f_task_work", "f_ra", "f_ref"}},
        {"sk_buff",
         {"next", "prev", "dev", "dev_scratch", "rbnode", "sk", "tstamp", "skb_mstamp_ns", "cb",
          "destructor", "len", "csum_start", "csum_offset", "priority", "network_header", "head",
          "data"}},
    };
    for (const auto &[tag, names] : cases) {
        const Type *record = kernel.by_tag(TypeKind::Struct, tag);
        ASSERT_NE(record, nullptr) << tag;
        kernel.complete_members(record);
        for (const char *name : names) {
            std::optional<BtfMember> expected =
                member_in_btf(trace::vmlinux_btf(), btf_struct(tag), name);
            if (!expected)
                continue; // not in this kernel's version of the struct
            std::optional<Member> found = find_member(record, name);
            ASSERT_TRUE(found) << tag << "." << name;
            EXPECT_EQ(found->bit_offset, expected->bit_offset) << tag << "." << name;
            EXPECT_EQ(found->bit_width, expected->bit_width) << tag << "." << name;
        }
    }
}

TEST(KernelTypesBtf, BitFieldsKeepTheirWidthAndBitOffset) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    const Type *skb = kernel.by_tag(TypeKind::Struct, "sk_buff");
    ASSERT_NE(skb, nullptr);
    kernel.complete_members(skb);
    int checked = 0;
    for (const char *name : {"cloned", "nohdr", "fclone", "pkt_type", "ip_summed", "csum_level"}) {
        std::optional<BtfMember> expected =
            member_in_btf(trace::vmlinux_btf(), btf_struct("sk_buff"), name);
        if (!expected)
            continue;
        std::optional<Member> found = find_member(skb, name);
        ASSERT_TRUE(found) << name;
        EXPECT_TRUE(found->is_bit_field()) << name;
        EXPECT_EQ(found->bit_width, expected->bit_width) << name;
        EXPECT_EQ(found->bit_offset, expected->bit_offset) << name;
        checked++;
    }
    EXPECT_GT(checked, 0) << "struct sk_buff has none of the usual bit-fields";
}

TEST(KernelTypesBtf, ArraysKeepTheirElementAndCount) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    const Type *task = kernel.by_tag(TypeKind::Struct, "task_struct");
    ASSERT_NE(task, nullptr);
    kernel.complete_members(task);
    std::optional<Member> comm = find_member(task, "comm");
    ASSERT_TRUE(comm);
    const Type *array = resolve(comm->type);
    ASSERT_EQ(array->kind, TypeKind::Array);
    EXPECT_EQ(array->name, "char [16]");
    EXPECT_EQ(array->element, types.char_type());
    EXPECT_TRUE(is_char_array(array));
    auto comm_len = kernel.enumerator("TASK_COMM_LEN");
    ASSERT_TRUE(comm_len);
    EXPECT_EQ(uint64_t(comm_len->second), array->array_count);
}

TEST(KernelTypesBtf, EnumsKeepTheirEnumerators) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    const Type *pid_type = kernel.by_tag(TypeKind::Enum, "pid_type");
    ASSERT_NE(pid_type, nullptr);
    EXPECT_EQ(pid_type->name, "enum pid_type");
    EXPECT_TRUE(pid_type->complete);
    bool found = false;
    for (const EnumValue &e : pid_type->enumerators)
        if (e.name == "PIDTYPE_TGID") {
            found = true;
            EXPECT_EQ(e.value, 1);
        }
    EXPECT_TRUE(found);
    auto tgid = kernel.enumerator("PIDTYPE_TGID");
    ASSERT_TRUE(tgid);
    EXPECT_EQ(tgid->first, pid_type);
    EXPECT_EQ(tgid->second, 1);
    EXPECT_FALSE(kernel.enumerator("NO_SUCH_ENUMERATOR_IN_ANY_KERNEL"));
}

TEST(KernelTypesBtf, CompleteByValueReachesNestedRecordsButNotPointees) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    const Type *fs = kernel.by_tag(TypeKind::Struct, "fs_struct");
    ASSERT_NE(fs, nullptr);
    kernel.complete_by_value(fs);
    std::optional<Member> root = find_member(fs, "root");
    ASSERT_TRUE(root);
    const Type *path = resolve(root->type);
    EXPECT_EQ(path->name, "struct path");
    EXPECT_EQ(path->members.size(), 2u); // completed: held by value
    std::optional<Member> dentry = find_member(path, "dentry");
    ASSERT_TRUE(dentry);
    EXPECT_TRUE(resolve(resolve(dentry->type)->element)->members.empty()); // behind a pointer
}

TEST(KernelTypesBtf, TagNamesListTheKernelsTags) {
    REQUIRE_BTF();
    TypeTable types;
    KernelTypes kernel(types);
    const std::vector<std::string> &structs = kernel.tag_names(TypeKind::Struct);
    EXPECT_TRUE(std::binary_search(structs.begin(), structs.end(), "task_struct"));
    const std::vector<std::string> &enums = kernel.tag_names(TypeKind::Enum);
    EXPECT_TRUE(std::binary_search(enums.begin(), enums.end(), "pid_type"));
    EXPECT_TRUE(is_kernel_typedef("atomic_t"));
    EXPECT_FALSE(is_kernel_typedef("task_struct")); // a struct tag, not a typedef
}

// ---- the checker --------------------------------------------------------------------------

struct Checked {
    std::unique_ptr<SourceFile> source;
    ast::Program program;
    DiagnosticEngine diags;
    CheckedProgram result;

    std::string messages() const {
        std::string out;
        for (const Diagnostic &d : diags.diagnostics()) {
            out += d.code + "@" + std::to_string(d.range.begin.line) + ":" +
                   std::to_string(d.range.begin.column) + ": " + d.message;
            for (const std::string &hint : d.hints)
                out += " [" + hint + "]";
            out += "\n";
        }
        return out;
    }
};

// Parses as dtx does, kernel typedefs included, and checks.
std::unique_ptr<Checked> check(const std::string &text) {
    auto c = std::make_unique<Checked>();
    c->source = std::make_unique<SourceFile>("test.d", text);
    parser::TypeNames names;
    names.set_lookup(is_kernel_typedef);
    EXPECT_TRUE(parser::parse_program(*c->source, names, c->program, c->diags)) << text;
    if (!c->diags.has_errors())
        c->result = check_program(c->program, c->diags);
    return c;
}

// The type of the argument of the last `trace(EXPR);` or `print(EXPR);`.
std::string last_argument_type(const Checked &c) {
    const ast::Clause &clause = *c.program.clauses.back();
    const auto *stmt = clause.statements.back()->as<ast::ExpressionStmt>();
    const ast::Expr &e = *stmt->expr->as<ast::Call>()->arguments.at(0);
    return e.type ? e.type->name : "<untyped>";
}

TEST(KernelTypesSema, CurthreadIsTheCurrentTask) {
    REQUIRE_BTF();
    auto c = check("BEGIN { trace(curthread); }");
    EXPECT_EQ(c->messages(), "");
    EXPECT_EQ(last_argument_type(*c), "struct task_struct *");
    for (auto [expr, type] : std::vector<std::pair<std::string, std::string>>{
             {"curthread->pid", "pid_t"},
             {"curthread->comm", "char [16]"},
             {"curthread->real_parent->pid", "pid_t"},
             {"curthread->real_parent->real_parent->comm", "char [16]"},
             {"curthread->nsproxy->uts_ns", "struct uts_namespace *"},
             {"curthread->fs->root.dentry", "struct dentry *"},
             {"stringof(curthread->comm)", "string"},
             {"*curthread->fs", "struct fs_struct"}}) {
        auto e = check("BEGIN { trace(" + expr + "); }");
        EXPECT_EQ(e->messages(), "") << expr;
        EXPECT_EQ(last_argument_type(*e), type) << expr;
    }
}

TEST(KernelTypesSema, UnknownTagsAreErrorsWithAHint) {
    REQUIRE_BTF();
    auto c = check("BEGIN { trace((struct filez *)0); }");
    EXPECT_EQ(c->messages(), "D_TYPE_ERR@1:16: unknown type 'struct filez': neither the script "
                             "nor the kernel's BTF defines it [did you mean 'struct file'?]\n");
    c = check("struct task_structt x;");
    EXPECT_EQ(c->messages(), "D_TYPE_ERR@1:1: unknown type 'struct task_structt': neither the "
                             "script nor the kernel's BTF defines it [did you mean 'struct "
                             "task_struct'?]\n");
    c = check("BEGIN { trace(sizeof(union dtx_no_such_union_xyz)); }");
    EXPECT_EQ(c->messages(), "D_TYPE_ERR@1:22: unknown type 'union dtx_no_such_union_xyz': "
                             "neither the script nor the kernel's BTF defines it\n");
    c = check("enum pid_typ e;");
    EXPECT_EQ(c->messages(), "D_TYPE_ERR@1:1: unknown type 'enum pid_typ': neither the script "
                             "nor the kernel's BTF defines it [did you mean 'enum pid_type'?]\n");
}

TEST(KernelTypesSema, ScriptTagsStillWork) {
    REQUIRE_BTF();
    // Defined, forward-declared, self-referencing, and a kernel tag redefined.
    auto c = check("struct foo { int a; struct foo *next; };\n"
                   "struct opaque;\n"
                   "struct opaque *handle;\n"
                   "struct path { int mine; };\n"
                   "BEGIN { trace(((struct foo *)arg0)->next->a); trace(sizeof(struct path)); "
                   "trace((struct opaque *)0); }");
    EXPECT_EQ(c->messages(), "");
    EXPECT_EQ(last_argument_type(*c), "struct opaque *");
    EXPECT_EQ(c->result.globals.at("handle").type->name, "struct opaque *");
    // A forward declaration of a tag the kernel defines is the kernel's.
    c = check("struct file;\nBEGIN { trace(((struct file *)arg0)->f_path.dentry); }");
    EXPECT_EQ(c->messages(), "");
}

TEST(KernelTypesSema, KernelTypedefsAreTypeNames) {
    REQUIRE_BTF();
    auto c = check("atomic_t hits;\n"
                   "BEGIN { trace(((atomic_t *)arg0)->counter); trace(sizeof(spinlock_t)); "
                   "trace((ktime_t)arg1); }");
    EXPECT_EQ(c->messages(), "");
    EXPECT_EQ(last_argument_type(*c), "ktime_t");
    EXPECT_EQ(c->result.globals.at("hits").type->name, "atomic_t");
    // D's own typedefs, as the kernel has them.
    for (const char *name : {"pid_t", "u64", "loff_t", "u32", "size_t"}) {
        c = check(std::string("BEGIN { trace((") + name + ")arg0); }");
        EXPECT_EQ(c->messages(), "") << name;
        EXPECT_EQ(last_argument_type(*c), name);
    }
    // A D variable of the same name as a kernel typedef is still a variable
    // where no type name fits.
    c = check("BEGIN { ktime_t = 1; trace(ktime_t + 1); }");
    EXPECT_EQ(c->messages(), "");
}

TEST(KernelTypesSema, KernelEnumeratorsAreConstants) {
    REQUIRE_BTF();
    auto c = check("BEGIN { trace(TASK_COMM_LEN); }");
    EXPECT_EQ(c->messages(), "");
    const ast::Clause &clause = *c->program.clauses.back();
    const ast::Expr &e =
        *clause.statements.back()->as<ast::ExpressionStmt>()->expr->as<ast::Call>()->arguments.at(
            0);
    EXPECT_EQ(integer_constant(e, c->result), 16);
    c = check("BEGIN { x[PIDTYPE_TGID] = 1; trace(sizeof(curthread->comm) == TASK_COMM_LEN); }");
    EXPECT_EQ(c->messages(), "");
    // The script's names come first.
    c = check("inline int TASK_COMM_LEN = 3;\nBEGIN { trace(TASK_COMM_LEN); }");
    EXPECT_EQ(c->messages(), "");
    EXPECT_EQ(last_argument_type(*c), "int");
}

TEST(KernelTypesSema, OffsetofMatchesTheKernelsBtf) {
    REQUIRE_BTF();
    const std::pair<const char *, const char *> cases[] = {
        {"file", "f_path"},    {"file", "f_pos"},       {"sk_buff", "dev"},
        {"sk_buff", "tstamp"}, {"task_struct", "comm"}, {"task_struct", "real_parent"},
        {"fs_struct", "root"},
    };
    for (auto [tag, member] : cases) {
        std::optional<BtfMember> expected =
            member_in_btf(trace::vmlinux_btf(), btf_struct(tag), member);
        ASSERT_TRUE(expected) << tag << "." << member;
        auto c =
            check(std::string("BEGIN { trace(offsetof(struct ") + tag + ", " + member + ")); }");
        ASSERT_EQ(c->messages(), "");
        const ast::Expr &e = *c->program.clauses.back()
                                  ->statements.back()
                                  ->as<ast::ExpressionStmt>()
                                  ->expr->as<ast::Call>()
                                  ->arguments.at(0);
        EXPECT_EQ(integer_constant(e, c->result), int64_t(expected->bit_offset / 8))
            << tag << "." << member;
    }
}

TEST(KernelTypesSema, PrintTakesValuesThatFitARecord) {
    REQUIRE_BTF();
    for (const char *expr : {"*curthread->fs", "curthread->fs->root", "curthread->comm",
                             "curthread->pid", "curthread", "execname", "*curthread"}) {
        auto c = check(std::string("BEGIN { print(") + expr + "); }");
        EXPECT_EQ(c->messages(), "") << expr;
    }
    auto c = check("struct big { char b[20000]; } g;\nBEGIN { print(g); }");
    EXPECT_EQ(c->messages(),
              "D_PRINT_SIZE@2:15: print() cannot record 'struct big' of 20000 bytes: a record "
              "holds at most 16368 bytes [print a member of it, or a pointer to it]\n");
    c = check("BEGIN { print(stack()); }");
    EXPECT_EQ(c->messages(), "D_PRINT_TYPE@1:15: print() cannot show a value of type 'stack' "
                             "[use stack() or ustack() as an action]\n");
    c = check("BEGIN { print(); }");
    EXPECT_EQ(c->diags.diagnostics().at(0).code, "D_PROTO_LEN");
}

} // namespace

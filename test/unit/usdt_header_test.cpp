// dtx -h's names, argument spellings and refusals (usdt_header.h), and the
// semaphore object of dtx -G (semaphore_object.h) read back with libelf.
// Building and tracing a program with both: test/cmd/usdt-build-tests.
#include "libtrace/semaphore_object.h"
#include "session/usdt_header.h"
#include "parser/parser.h"

#include <elf.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <libelf.h>

#include <map>
#include <memory>

namespace dtx::session {
namespace {

struct Parsed {
    std::unique_ptr<SourceFile> source;
    ast::Program program;
    DiagnosticEngine diagnostics;
    std::vector<UsdtProbeDefinition> probes;
};

std::unique_ptr<Parsed> definitions(const std::string &text) {
    auto parsed = std::make_unique<Parsed>();
    parsed->source = std::make_unique<SourceFile>("prov.d", text);
    parser::TypeNames types;
    EXPECT_TRUE(parser::parse_program(*parsed->source, types, parsed->program, parsed->diagnostics))
        << text;
    parsed->probes = usdt_probe_definitions(parsed->program, parsed->diagnostics);
    return parsed;
}

std::string first_error(const Parsed &parsed) {
    for (const Diagnostic &d : parsed.diagnostics.diagnostics())
        if (d.severity == Severity::Error)
            return d.code + ": " + d.message;
    return "";
}

TEST(UsdtHeader, NamesAsDtraceDoes) {
    auto parsed = definitions("provider myprov { probe query__start(int); probe done(); };");
    ASSERT_EQ(parsed->probes.size(), 2u);
    const UsdtProbeDefinition &start = parsed->probes[0];
    EXPECT_EQ(start.provider, "myprov");
    EXPECT_EQ(start.probe, "query__start"); // the note's name; D sees query-start
    EXPECT_EQ(start.macro, "MYPROV_QUERY_START");
    EXPECT_EQ(start.semaphore, "myprov_query__start_semaphore");
    EXPECT_EQ(parsed->probes[1].macro, "MYPROV_DONE");
}

TEST(UsdtHeader, SpellsArgumentTypesInC) {
    auto parsed = definitions("struct conn; typedef int myint_t;\n"
                              "provider p { probe a(char *name, const char *, string, "
                              "unsigned long long, uint16_t, struct conn *, int [4], "
                              "int (*)(int, char *), char **, myint_t); };");
    ASSERT_EQ(first_error(*parsed), "");
    ASSERT_EQ(parsed->probes.size(), 1u);
    EXPECT_EQ(parsed->probes[0].argument_types,
              (std::vector<std::string>{"char *", "const char *", "char *", "unsigned long long",
                                        "uint16_t", "struct conn *", "int *",
                                        "int (*)(int, char *)", "char **", "myint_t"}));
    EXPECT_EQ(parsed->probes[0].argument_names[0], "name");
    EXPECT_EQ(parsed->probes[0].argument_names[1], "");
}

TEST(UsdtHeader, VoidMeansNoArguments) {
    auto parsed = definitions("provider p { probe a(void); };");
    ASSERT_EQ(parsed->probes.size(), 1u);
    EXPECT_TRUE(parsed->probes[0].argument_types.empty());
}

TEST(UsdtHeader, RefusesWhatSdtCannotTake) {
    EXPECT_EQ(first_error(*definitions("struct s { int a; }; provider p { probe a(struct s); };")),
              "D_PROV_ARG: probe 'p:::a' argument 0 cannot be a USDT argument: a struct or "
              "union passed by value; pass a pointer to it");
    EXPECT_EQ(first_error(*definitions(
                  "provider p { probe a(int,int,int,int,int,int,int,int,int,int,int,int,int); };")),
              "D_PROV_ARG: probe 'p:::a' has 13 arguments; a USDT probe takes at most 12");
    EXPECT_EQ(first_error(*definitions("provider p { probe a__b(int); probe a_b(int); };")),
              "D_PROV_DUP: probe 'p:::a_b' has the macro name P_A_B of probe 'p:::a__b'");
}

TEST(UsdtHeader, HeaderText) {
    auto parsed = definitions("provider myprov { probe query__start(int id, char *); "
                              "probe done(); };");
    std::string text = usdt_header_text(parsed->probes, "out/my-prov.h", "prov.d");
    auto contains = [&](const std::string &part) { return text.find(part) != std::string::npos; };
    EXPECT_TRUE(contains("#ifndef _MY_PROV_H\n#define _MY_PROV_H\n")) << text;
    EXPECT_TRUE(contains("#define _SDT_HAS_SEMAPHORES 1\n")) << text;
    EXPECT_TRUE(contains("#include <sys/sdt.h>\n")) << text;
    EXPECT_TRUE(contains("/* myprov:::query-start(int id, char *) */\n"
                         "#define MYPROV_QUERY_START(arg0, arg1) \\\n"
                         "\tDTRACE_PROBE2(myprov, query__start, (int)(arg0), (char *)(arg1))\n"
                         "#define MYPROV_QUERY_START_ENABLED() \\\n"
                         "\t__builtin_expect(myprov_query__start_semaphore, 0)\n"
                         "__extension__ extern unsigned short myprov_query__start_semaphore "
                         "__attribute__((unused)) __attribute__((section(\".probes\")));\n"))
        << text;
    EXPECT_TRUE(contains("#define MYPROV_DONE() \\\n\tDTRACE_PROBE(myprov, done)\n")) << text;
    EXPECT_TRUE(contains("extern \"C\" {")) << text;
}

// The object's symbols, read back with libelf: name -> (section name, value,
// size, binding, visibility).
struct SymbolSeen {
    std::string section;
    uint64_t value = 0, size = 0;
    int binding = 0, visibility = 0, type = 0;
};

std::map<std::string, SymbolSeen> symbols_of(const std::string &object, GElf_Ehdr &header) {
    std::map<std::string, SymbolSeen> seen;
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory(const_cast<char *>(object.data()), object.size());
    EXPECT_NE(elf, nullptr);
    if (!elf)
        return seen;
    EXPECT_NE(gelf_getehdr(elf, &header), nullptr);
    size_t names = 0;
    elf_getshdrstrndx(elf, &names);
    for (Elf_Scn *scn = nullptr; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr shdr;
        gelf_getshdr(scn, &shdr);
        if (shdr.sh_type != SHT_SYMTAB)
            continue;
        Elf_Data *data = elf_getdata(scn, nullptr);
        for (size_t i = 0; i < shdr.sh_size / shdr.sh_entsize; i++) {
            GElf_Sym sym;
            gelf_getsym(data, int(i), &sym);
            const char *name = elf_strptr(elf, shdr.sh_link, sym.st_name);
            if (!name || !*name)
                continue;
            SymbolSeen s;
            if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE) {
                GElf_Shdr section;
                gelf_getshdr(elf_getscn(elf, sym.st_shndx), &section);
                s.section = elf_strptr(elf, names, section.sh_name);
                if (s.section == ".probes") {
                    EXPECT_EQ(section.sh_flags, uint64_t(SHF_ALLOC | SHF_WRITE));
                    EXPECT_EQ(section.sh_type, uint32_t(SHT_PROGBITS));
                }
            }
            s.value = sym.st_value;
            s.size = sym.st_size;
            s.binding = GELF_ST_BIND(sym.st_info);
            s.type = GELF_ST_TYPE(sym.st_info);
            s.visibility = GELF_ST_VISIBILITY(sym.st_other);
            seen[name] = s;
        }
    }
    elf_end(elf);
    return seen;
}

TEST(SemaphoreObject, DefinesHiddenSemaphoresInProbes) {
    std::vector<std::string> semaphores = {"p_a_semaphore", "p_b__c_semaphore"};
    for (uint8_t elf_class : {ELFCLASS64, ELFCLASS32}) {
        trace::ObjectFormat format = trace::host_object_format();
        format.elf_class = elf_class;
        std::string object = trace::semaphore_object(semaphores, format, "prov.d");
        GElf_Ehdr header{};
        std::map<std::string, SymbolSeen> seen = symbols_of(object, header);
        EXPECT_EQ(header.e_type, ET_REL);
        EXPECT_EQ(header.e_machine, format.machine);
        EXPECT_EQ(header.e_ident[EI_CLASS], elf_class);
        ASSERT_TRUE(seen.contains("p_b__c_semaphore"));
        const SymbolSeen &b = seen["p_b__c_semaphore"];
        EXPECT_EQ(b.section, ".probes");
        EXPECT_EQ(b.value, 2u);
        EXPECT_EQ(b.size, 2u);
        EXPECT_EQ(b.binding, STB_GLOBAL);
        EXPECT_EQ(b.type, STT_OBJECT);
        EXPECT_EQ(b.visibility, STV_HIDDEN);
        EXPECT_EQ(seen["p_a_semaphore"].value, 0u);
        EXPECT_EQ(seen["prov.d"].type, STT_FILE);
    }
}

TEST(SemaphoreObject, FormatOfAnObject) {
    std::string object = trace::semaphore_object(std::vector<std::string>{"x_semaphore"},
                                                 trace::host_object_format(), "x.d");
    std::string path = ::testing::TempDir() + "/dtx-semaphore-object.o";
    FILE *file = std::fopen(path.c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fwrite(object.data(), 1, object.size(), file);
    std::fclose(file);
    Result<trace::ObjectFormat> format = trace::object_format_of(path);
    ASSERT_TRUE(format) << format.error().message;
    EXPECT_TRUE(*format == trace::host_object_format());
    EXPECT_FALSE(trace::object_format_of(DTX_SOURCE_DIR "/CMakeLists.txt"));
    std::remove(path.c_str());
}

} // namespace
} // namespace dtx::session

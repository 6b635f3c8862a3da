// USDT notes: the argument spec parser over every operand form and its
// errors; the notes of the test programs (test/triggers/dtx-usdt.c and its
// library), of hand-written malformed notes (dtx-usdt-notes.c), and of
// Debian's python3.11.
#include "libtrace/usdt_note.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

namespace dtx::trace {
namespace {

using Kind = UsdtArgument::Kind;
using R = PtRegsOffset;

const std::string kTriggers = DTX_BINARY_DIR "/test/triggers/";

// The symbols the specs below name.
std::optional<uint64_t> test_symbol(std::string_view name) {
    static const std::map<std::string, uint64_t, std::less<>> kSymbols = {
        {"counter", 0x4000}, {"early", 0x800}, {"table.0", 0x5000}};
    auto found = kSymbols.find(name);
    return found == kSymbols.end() ? std::nullopt : std::optional(found->second);
}

std::vector<UsdtArgument> parse(std::string_view spec, uint64_t site = 0x1000) {
    auto parsed = parse_usdt_arguments_with_lookup(spec, site, test_symbol);
    if (!parsed) {
        ADD_FAILURE() << "'" << spec << "': " << parsed.error().message;
        return {};
    }
    return *parsed;
}

UsdtArgument parse_one(std::string_view spec, uint64_t site = 0x1000) {
    std::vector<UsdtArgument> arguments = parse(spec, site);
    if (arguments.size() != 1) {
        ADD_FAILURE() << "'" << spec << "': " << arguments.size() << " arguments";
        return {};
    }
    return arguments[0];
}

std::string parse_error(std::string_view spec) {
    auto parsed = parse_usdt_arguments_with_lookup(spec, 0x1000, test_symbol);
    if (!parsed)
        return parsed.error().message;
    return "(parsed)";
}

std::string describe(const UsdtArgument &argument) {
    const char *kinds[] = {"constant", "register", "memory", "indexed memory"};
    return std::string(kinds[static_cast<int>(argument.kind)]) +
           " size=" + std::to_string(argument.size) +
           " base=" + std::to_string(static_cast<int>(argument.base)) +
           " has_base=" + std::to_string(argument.has_base) +
           " index=" + std::to_string(static_cast<int>(argument.index)) +
           " scale=" + std::to_string(argument.scale) +
           " displacement=" + std::to_string(argument.displacement) +
           " bit_shift=" + std::to_string(argument.bit_shift);
}

testing::AssertionResult is(const UsdtArgument &argument, bool matches) {
    return (matches ? testing::AssertionSuccess() : testing::AssertionFailure())
           << describe(argument);
}

testing::AssertionResult is_register(const UsdtArgument &argument, R reg, int size, int bit_shift) {
    return is(argument, argument.kind == Kind::Register && argument.base == reg &&
                            argument.size == size && argument.bit_shift == bit_shift);
}

testing::AssertionResult is_memory(const UsdtArgument &argument, R base, int64_t displacement,
                                   int size) {
    return is(argument, argument.kind == Kind::Memory && argument.has_base &&
                            argument.base == base && argument.displacement == displacement &&
                            argument.size == size);
}

testing::AssertionResult is_constant(const UsdtArgument &argument, int64_t value, int size) {
    return is(argument, argument.kind == Kind::Constant && argument.displacement == value &&
                            argument.size == size);
}

std::string join(const std::vector<std::string> &lines) {
    std::string text;
    for (const std::string &line : lines)
        text += line + "\n";
    return text;
}

TEST(UsdtArguments, EveryRegisterNameReadsItsRegister) {
    struct Case {
        const char *name;
        R reg;
        uint8_t bit_shift;
    };
    const Case cases[] = {
        {"rax", R::Rax, 0}, {"eax", R::Rax, 0},  {"ax", R::Rax, 0},   {"al", R::Rax, 0},
        {"ah", R::Rax, 8},  {"rbx", R::Rbx, 0},  {"ebx", R::Rbx, 0},  {"bx", R::Rbx, 0},
        {"bl", R::Rbx, 0},  {"bh", R::Rbx, 8},   {"rcx", R::Rcx, 0},  {"ecx", R::Rcx, 0},
        {"cx", R::Rcx, 0},  {"cl", R::Rcx, 0},   {"ch", R::Rcx, 8},   {"rdx", R::Rdx, 0},
        {"edx", R::Rdx, 0}, {"dx", R::Rdx, 0},   {"dl", R::Rdx, 0},   {"dh", R::Rdx, 8},
        {"rsi", R::Rsi, 0}, {"esi", R::Rsi, 0},  {"si", R::Rsi, 0},   {"sil", R::Rsi, 0},
        {"rdi", R::Rdi, 0}, {"edi", R::Rdi, 0},  {"di", R::Rdi, 0},   {"dil", R::Rdi, 0},
        {"rbp", R::Rbp, 0}, {"ebp", R::Rbp, 0},  {"bp", R::Rbp, 0},   {"bpl", R::Rbp, 0},
        {"rsp", R::Rsp, 0}, {"esp", R::Rsp, 0},  {"sp", R::Rsp, 0},   {"spl", R::Rsp, 0},
        {"r8", R::R8, 0},   {"r8d", R::R8, 0},   {"r8w", R::R8, 0},   {"r8b", R::R8, 0},
        {"r9", R::R9, 0},   {"r9d", R::R9, 0},   {"r9w", R::R9, 0},   {"r9b", R::R9, 0},
        {"r10", R::R10, 0}, {"r10d", R::R10, 0}, {"r10w", R::R10, 0}, {"r10b", R::R10, 0},
        {"r11", R::R11, 0}, {"r11d", R::R11, 0}, {"r11w", R::R11, 0}, {"r11b", R::R11, 0},
        {"r12", R::R12, 0}, {"r12d", R::R12, 0}, {"r12w", R::R12, 0}, {"r12b", R::R12, 0},
        {"r13", R::R13, 0}, {"r13d", R::R13, 0}, {"r13w", R::R13, 0}, {"r13b", R::R13, 0},
        {"r14", R::R14, 0}, {"r14d", R::R14, 0}, {"r14w", R::R14, 0}, {"r14b", R::R14, 0},
        {"r15", R::R15, 0}, {"r15d", R::R15, 0}, {"r15w", R::R15, 0}, {"r15b", R::R15, 0},
        {"rip", R::Rip, 0},
    };
    for (const Case &c : cases)
        EXPECT_TRUE(is_register(parse_one(std::string("-4@%") + c.name), c.reg, -4, c.bit_shift))
            << c.name;
}

TEST(UsdtArguments, SizeAndSignedness) {
    EXPECT_TRUE(is_register(parse_one("8@%rdi"), R::Rdi, 8, 0));
    EXPECT_TRUE(is_register(parse_one("-8@%rdi"), R::Rdi, -8, 0));
    EXPECT_TRUE(is_register(parse_one("4@%eax"), R::Rax, 4, 0));
    EXPECT_TRUE(is_register(parse_one("-2@%dx"), R::Rdx, -2, 0));
    EXPECT_TRUE(is_register(parse_one("1@%cl"), R::Rcx, 1, 0));
    EXPECT_TRUE(is_register(parse_one("1@%ah"), R::Rax, 1, 8));
}

TEST(UsdtArguments, OldNotesWithoutSizeAreEightUnsignedBytes) {
    EXPECT_TRUE(is_register(parse_one("%rsi"), R::Rsi, 8, 0));
    EXPECT_TRUE(is_memory(parse_one("-8(%rbp)"), R::Rbp, -8, 8));
    EXPECT_TRUE(is_constant(parse_one("$7"), 7, 8));
}

TEST(UsdtArguments, Constants) {
    EXPECT_TRUE(is_constant(parse_one("4@$42"), 42, 4));
    EXPECT_TRUE(is_constant(parse_one("-4@$-1"), -1, -4));
    EXPECT_TRUE(is_constant(parse_one("8@$0x10"), 16, 8));
    EXPECT_TRUE(is_constant(parse_one("8@$-0x10"), -16, 8));
    EXPECT_TRUE(is_constant(parse_one("8@$0"), 0, 8));
    EXPECT_TRUE(is_constant(parse_one("8@$18446744073709551615"), -1, 8));
    EXPECT_TRUE(is_constant(parse_one("8@$-9223372036854775808"), INT64_MIN, 8));
    // A symbol's address as an immediate (code at fixed addresses).
    EXPECT_TRUE(is_constant(parse_one("8@$counter"), 0x4000, 8));
}

TEST(UsdtArguments, MemoryAtRegisterPlusDisplacement) {
    EXPECT_TRUE(is_memory(parse_one("-8@-8(%rbp)"), R::Rbp, -8, -8));
    EXPECT_TRUE(is_memory(parse_one("4@(%rdi)"), R::Rdi, 0, 4));
    EXPECT_TRUE(is_memory(parse_one("8@16(%rbx)"), R::Rbx, 16, 8));
    EXPECT_TRUE(is_memory(parse_one("8@0x10(%rax)"), R::Rax, 16, 8));
    EXPECT_TRUE(is_memory(parse_one("8@-0x10(%r15)"), R::R15, -16, 8));
    EXPECT_TRUE(is_memory(parse_one("2@8(%rsp)"), R::Rsp, 8, 2));
}

TEST(UsdtArguments, IndexedMemory) {
    UsdtArgument full = parse_one("8@16(%rax,%rdx,8)");
    EXPECT_EQ(full.kind, Kind::IndexedMemory);
    EXPECT_TRUE(full.has_base);
    EXPECT_EQ(full.base, R::Rax);
    EXPECT_EQ(full.index, R::Rdx);
    EXPECT_EQ(full.scale, 8);
    EXPECT_EQ(full.displacement, 16);

    UsdtArgument no_base = parse_one("4@(,%rdx,4)");
    EXPECT_EQ(no_base.kind, Kind::IndexedMemory);
    EXPECT_FALSE(no_base.has_base);
    EXPECT_EQ(no_base.index, R::Rdx);
    EXPECT_EQ(no_base.scale, 4);
    EXPECT_EQ(no_base.displacement, 0);
    EXPECT_EQ(no_base.size, 4);

    UsdtArgument default_scale = parse_one("-4@-4(%rbx,%r12)");
    EXPECT_EQ(default_scale.kind, Kind::IndexedMemory);
    EXPECT_EQ(default_scale.base, R::Rbx);
    EXPECT_EQ(default_scale.index, R::R12);
    EXPECT_EQ(default_scale.scale, 1);
    EXPECT_EQ(default_scale.displacement, -4);

    // An absolute symbol with an index (code at fixed addresses).
    UsdtArgument table = parse_one("8@table.0(,%rax,8)");
    EXPECT_FALSE(table.has_base);
    EXPECT_EQ(table.displacement, 0x5000);
}

TEST(UsdtArguments, RipRelativeIsRelativeToTheSite) {
    // rip = the site (0x1000) when the probe fires.
    EXPECT_TRUE(is_memory(parse_one("8@counter(%rip)"), R::Rip, 0x3000, 8));
    EXPECT_TRUE(is_memory(parse_one("4@counter+8(%rip)"), R::Rip, 0x3008, 4));
    EXPECT_TRUE(is_memory(parse_one("4@counter-8(%rip)"), R::Rip, 0x2ff8, 4));
    EXPECT_TRUE(is_memory(parse_one("4@counter+0x10(%rip)"), R::Rip, 0x3010, 4));
    EXPECT_TRUE(is_memory(parse_one("-8@early(%rip)"), R::Rip, -0x800, -8));
    EXPECT_TRUE(is_memory(parse_one("8@table.0(%rip)", 0x5000), R::Rip, 0, 8));
    // A number counts from after the one-byte nop of the site.
    EXPECT_TRUE(is_memory(parse_one("8@0x10(%rip)"), R::Rip, 0x11, 8));
    EXPECT_TRUE(is_memory(parse_one("8@-4(%rip)"), R::Rip, -3, 8));
}

TEST(UsdtArguments, Lists) {
    EXPECT_TRUE(parse("").empty());
    EXPECT_TRUE(parse("   ").empty());
    // dtx-usdt's tick probe as gcc 12 -O2 wrote it.
    std::vector<UsdtArgument> tick = parse("-4@%ebx -8@%rax 8@%r12 1@%cl -2@%dx -8@16(%rbp) "
                                           "-4@$42 -8@counter(%rip)");
    ASSERT_EQ(tick.size(), 8u);
    EXPECT_TRUE(is_register(tick[0], R::Rbx, -4, 0));
    EXPECT_TRUE(is_register(tick[1], R::Rax, -8, 0));
    EXPECT_TRUE(is_register(tick[2], R::R12, 8, 0));
    EXPECT_TRUE(is_register(tick[3], R::Rcx, 1, 0));
    EXPECT_TRUE(is_register(tick[4], R::Rdx, -2, 0));
    EXPECT_TRUE(is_memory(tick[5], R::Rbp, 16, -8));
    EXPECT_TRUE(is_constant(tick[6], 42, -4));
    EXPECT_TRUE(is_memory(tick[7], R::Rip, 0x3000, -8));
    EXPECT_EQ(parse("  8@%rdi\t -4@%esi  ").size(), 2u);
}

TEST(UsdtArguments, ErrorsNameTheArgument) {
    EXPECT_EQ(parse_error("8@%rdi 8@foo(%rip)"), "argument 2 '8@foo(%rip)': unknown symbol 'foo'");
    EXPECT_EQ(parse_error("3@%eax"),
              "argument 1 '3@%eax': size must be 1, 2, 4 or 8 (negative when signed)");
    EXPECT_EQ(parse_error("-16@%rax"),
              "argument 1 '-16@%rax': size must be 1, 2, 4 or 8 (negative when signed)");
    EXPECT_EQ(parse_error("0@%rax"),
              "argument 1 '0@%rax': size must be 1, 2, 4 or 8 (negative when signed)");
    EXPECT_EQ(parse_error("-@%rax"),
              "argument 1 '-@%rax': size must be 1, 2, 4 or 8 (negative when signed)");
    EXPECT_EQ(parse_error("8@%xyz"), "argument 1 '8@%xyz': unknown register '%xyz'");
    EXPECT_EQ(parse_error("8@(%xyz)"), "argument 1 '8@(%xyz)': unknown register '%xyz'");
    EXPECT_EQ(parse_error("8@$abc"), "argument 1 '8@$abc': unknown symbol 'abc'");
    EXPECT_EQ(parse_error("8@$"), "argument 1 '8@$': bad constant '$'");
    EXPECT_EQ(parse_error("8@$1x"), "argument 1 '8@$1x': bad constant '$1x'");
    EXPECT_EQ(parse_error("8@(%rax,%rbx,3)"),
              "argument 1 '8@(%rax,%rbx,3)': bad scale '3' (must be 1, 2, 4 or 8)");
    EXPECT_EQ(parse_error("4@(%eax)"),
              "argument 1 '4@(%eax)': address register '%eax' is not 64-bit");
    EXPECT_EQ(parse_error("8@1+2(%rax)"), "argument 1 '8@1+2(%rax)': bad displacement '1+2'");
    EXPECT_EQ(parse_error("8@counter+(%rip)"),
              "argument 1 '8@counter+(%rip)': bad displacement 'counter+'");
    for (const char *unsupported : {"8@counter", "8@()", "8@(,%rax,1,2)", "8@(%rip,%rax,1)",
                                    "8@(%rax,%rsp)", "8@(%rax", "8@", "8@@"})
        EXPECT_EQ(parse_error(unsupported),
                  "argument 1 '" + std::string(unsupported) + "': unsupported operand");
}

TEST(UsdtArguments, WithoutAFileNoSymbolIsKnown) {
    auto parsed = parse_usdt_arguments("8@%rdi -4@counter(%rip)", 0x1000, nullptr);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().message, "argument 2 '-4@counter(%rip)': unknown symbol 'counter'");
    auto registers = parse_usdt_arguments("8@%rdi -4@8(%rsp)", 0x1000, nullptr);
    ASSERT_TRUE(registers.ok());
    EXPECT_EQ(registers->size(), 2u);
}

TEST(UsdtArguments, ProbeNamesInD) {
    EXPECT_EQ(usdt_probe_name_in_d("function__entry"), "function-entry");
    EXPECT_EQ(usdt_probe_name_in_d("loop__start"), "loop-start");
    EXPECT_EQ(usdt_probe_name_in_d("tick"), "tick");
    EXPECT_EQ(usdt_probe_name_in_d("a_b"), "a_b");
    EXPECT_EQ(usdt_probe_name_in_d("a____b"), "a--b");
    EXPECT_EQ(usdt_probe_name_in_d(""), "");
}

std::shared_ptr<const ElfFile> open_elf(const std::string &path) {
    auto opened = ElfFile::open(path);
    if (!opened) {
        ADD_FAILURE() << opened.error().message;
        return nullptr;
    }
    return *opened;
}

const UsdtProbe *find_probe(const std::vector<UsdtProbe> &probes, std::string_view provider,
                            std::string_view name) {
    auto found = std::find_if(probes.begin(), probes.end(), [&](const UsdtProbe &probe) {
        return probe.provider == provider && probe.name == name;
    });
    return found == probes.end() ? nullptr : &*found;
}

bool in_executable_segment(const ElfFile &file, uint64_t address) {
    return std::any_of(file.segments().begin(), file.segments().end(),
                       [address](const ElfSegment &segment) {
                           return segment.executable && address >= segment.vaddr &&
                                  address - segment.vaddr < segment.memsz;
                       });
}

// One note as <sys/sdt.h> lays it out: site 0x1234, base 0x9000, no semaphore.
std::vector<std::byte> raw_note() {
    const char strings[] = "p\0n\0-4@%esi"; // and its NUL
    std::vector<std::byte> bytes;
    auto append = [&bytes](const void *data, size_t size) {
        const auto *begin = static_cast<const std::byte *>(data);
        bytes.insert(bytes.end(), begin, begin + size);
    };
    const uint32_t header[] = {8, 24 + sizeof(strings), 3};
    const uint64_t addresses[] = {0x1234, 0x9000, 0};
    append(header, sizeof(header));
    append("stapsdt", 8);
    append(addresses, sizeof(addresses));
    append(strings, sizeof(strings));
    bytes.resize((bytes.size() + 3) & ~size_t{3});
    return bytes;
}

TEST(UsdtNotes, RawSection) {
    std::vector<std::byte> notes = raw_note();
    std::vector<std::string> problems;
    std::vector<UsdtProbe> probes = parse_usdt_notes(notes, std::nullopt, {}, &problems);
    EXPECT_TRUE(problems.empty()) << join(problems);
    ASSERT_EQ(probes.size(), 1u);
    EXPECT_EQ(probes[0].provider, "p");
    EXPECT_EQ(probes[0].name, "n");
    EXPECT_EQ(probes[0].address, 0x1234u);
    EXPECT_EQ(probes[0].semaphore, 0u);
    ASSERT_EQ(probes[0].arguments.size(), 1u);
    EXPECT_TRUE(is_register(probes[0].arguments[0], R::Rsi, -4, 0));

    // .stapsdt.base 0x10 above where the note says: the site moves with it,
    // an absent semaphore stays 0.
    probes = parse_usdt_notes(notes, 0x9010, {}, nullptr);
    ASSERT_EQ(probes.size(), 1u);
    EXPECT_EQ(probes[0].address, 0x1244u);
    EXPECT_EQ(probes[0].semaphore, 0u);

    EXPECT_TRUE(parse_usdt_notes({}, std::nullopt, {}, &problems).empty());
    notes.resize(notes.size() - 8);
    EXPECT_TRUE(parse_usdt_notes(notes, std::nullopt, {}, &problems).empty());
    EXPECT_EQ(problems, std::vector<std::string>{"note 1: truncated"});
}

TEST(UsdtNotes, TestProgram) {
    auto file = open_elf(kTriggers + "dtx-usdt");
    ASSERT_TRUE(file);
    std::vector<std::string> problems;
    std::vector<UsdtProbe> probes = read_usdt_probes(*file, &problems);
    EXPECT_TRUE(problems.empty()) << join(problems);

    const UsdtProbe *tick = find_probe(probes, "dtxtest", "tick");
    const UsdtProbe *start = find_probe(probes, "dtxtest", "loop__start");
    const UsdtProbe *guarded = find_probe(probes, "dtxtest", "guarded");
    ASSERT_TRUE(tick && start && guarded);
    EXPECT_EQ(tick->arguments.size(), 8u);
    EXPECT_EQ(start->arguments.size(), 0u);
    EXPECT_EQ(guarded->arguments.size(), 1u);
    EXPECT_EQ(tick->semaphore, 0u);
    EXPECT_EQ(start->semaphore, 0u);
    EXPECT_EQ(guarded->semaphore, file->data_symbol("dtxtest_guarded_semaphore"));
    EXPECT_NE(guarded->semaphore, 0u);
    for (const UsdtProbe &probe : probes) {
        EXPECT_TRUE(in_executable_segment(*file, probe.address)) << probe.name;
        EXPECT_TRUE(file->file_offset(probe.address)) << probe.name;
    }

    // What the compiler chose varies; the arguments it cannot change can be
    // checked: the constant 42, and the global as a register or at its
    // address relative to the site.
    EXPECT_TRUE(is_constant(tick->arguments[6], 42, -4));
    const UsdtArgument &global = tick->arguments[7];
    EXPECT_EQ(global.size, -8);
    if (global.kind == Kind::Memory && global.base == R::Rip) {
        EXPECT_EQ(tick->address + global.displacement, file->data_symbol("dtxtest_generation"));
    }
}

TEST(UsdtNotes, SharedLibrary) {
    auto file = open_elf(kTriggers + "libdtx-usdt-lib.so");
    ASSERT_TRUE(file);
    std::vector<std::string> problems;
    std::vector<UsdtProbe> probes = read_usdt_probes(*file, &problems);
    EXPECT_TRUE(problems.empty()) << join(problems);
    ASSERT_EQ(probes.size(), 1u);
    EXPECT_EQ(probes[0].provider, "dtxlib");
    EXPECT_EQ(probes[0].name, "lib__call");
    EXPECT_EQ(probes[0].semaphore, 0u);
    ASSERT_EQ(probes[0].arguments.size(), 2u);
    EXPECT_EQ(probes[0].arguments[0].size, -4);
    EXPECT_EQ(probes[0].arguments[1].size, 8);
    EXPECT_TRUE(in_executable_segment(*file, probes[0].address));
    const ElfFunction *function = file->function_at(probes[0].address);
    ASSERT_TRUE(function);
    EXPECT_EQ(function->name, "dtxlib_call");
}

TEST(UsdtNotes, MovedAndMalformedNotes) {
    auto file = open_elf(kTriggers + "libdtx-usdt-notes.so");
    ASSERT_TRUE(file);
    std::vector<std::string> problems;
    std::vector<UsdtProbe> probes = read_usdt_probes(*file, &problems);

    ASSERT_EQ(probes.size(), 1u);
    EXPECT_EQ(probes[0].provider, "dtxnotes");
    EXPECT_EQ(probes[0].name, "moved");
    EXPECT_EQ(probes[0].arguments_text, "8@%rdi");
    std::vector<const ElfFunction *> sites = file->find("dtxnotes_sites");
    ASSERT_EQ(sites.size(), 1u);
    EXPECT_EQ(probes[0].address, sites[0]->address);
    EXPECT_EQ(probes[0].semaphore, file->data_symbol("dtxnotes_semaphore"));

    const std::string prefix = file->path() + ": .note.stapsdt note ";
    char bad_site[32];
    snprintf(bad_site, sizeof(bad_site), "%#llx",
             static_cast<unsigned long long>(sites[0]->address + 1));
    const std::vector<std::string> expected = {
        prefix + "2: probe dtxnotes:bad at " + bad_site +
            ": argument 1 '8@%xyz': unknown register '%xyz'",
        prefix + "4: provider, name and arguments are not NUL-terminated strings",
        prefix + "5: description too short",
        prefix + "6: truncated",
    };
    EXPECT_EQ(problems, expected) << join(problems);
}

TEST(UsdtNotes, DataSymbols) {
    auto file = open_elf(kTriggers + "dtx-usdt");
    ASSERT_TRUE(file);
    EXPECT_TRUE(file->data_symbol("dtxtest_generation"));
    EXPECT_TRUE(file->data_symbol("main"));
    EXPECT_FALSE(file->data_symbol("no_such_symbol"));
    EXPECT_FALSE(file->data_symbol("printf")); // undefined here: libc's
}

TEST(UsdtNotes, Python) {
    const std::string python = "/usr/bin/python3.11";
    if (!std::filesystem::exists(python))
        GTEST_SKIP() << python << " is not installed";
    auto file = open_elf(python);
    ASSERT_TRUE(file);
    std::vector<std::string> problems;
    std::vector<UsdtProbe> probes = read_usdt_probes(*file, &problems);
    EXPECT_TRUE(problems.empty()) << join(problems);
    for (const char *name : {"function__entry", "function__return"}) {
        const UsdtProbe *probe = find_probe(probes, "python", name);
        ASSERT_TRUE(probe) << name;
        EXPECT_GE(probe->arguments.size(), 3u) << name;
        EXPECT_NE(probe->semaphore, 0u) << name;
        EXPECT_TRUE(in_executable_segment(*file, probe->address)) << name;
    }
}

} // namespace
} // namespace dtx::trace

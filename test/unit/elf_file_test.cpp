// The ELF reader against real files: the dtx-funcs trigger in its layouts
// (PIE, fixed-address, IBT PLT, stripped with a debuglink, stripped without
// debug file), the system's C library and a few system programs. Addresses are
// cross-checked at test time with nm and objdump rather than written down, so
// that a change of compiler does not break the tests. Also: broken and missing
// files, and the cache.
#include "libtrace/elf_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace dtx::trace {
namespace {

using Binding = ElfFunction::Binding;

constexpr const char *kLibc = "/usr/lib/x86_64-linux-gnu/libc.so.6";

std::string trigger(const std::string &name) {
    return std::string(DTX_BINARY_DIR) + "/test/triggers/" + name;
}

std::shared_ptr<const ElfFile> open_ok(const std::string &path) {
    auto opened = ElfFile::open(path);
    if (!opened) {
        ADD_FAILURE() << opened.error().message;
        return nullptr;
    }
    return *opened;
}

std::string open_error(const std::string &path) {
    auto opened = ElfFile::open(path);
    if (!opened)
        return opened.error().message;
    return "(opened)";
}

std::string run(const std::string &command) {
    std::string output;
    FILE *pipe = popen(command.c_str(), "r");
    if (!pipe)
        return output;
    char buffer[4096];
    for (std::size_t n; (n = fread(buffer, 1, sizeof(buffer), pipe)) > 0;)
        output.append(buffer, n);
    pclose(pipe);
    return output;
}

// nm's address of `symbol` (first match), 0 when nm does not list it.
uint64_t nm_address(const std::string &path, const std::string &symbol,
                    const std::string &options = "") {
    const std::string output = run("nm " + options + " '" + path + "' 2>/dev/null");
    const std::regex line("^([0-9a-f]+) [A-Za-z] " + symbol + "(@.*)?$");
    std::smatch match;
    for (auto it = output.begin(); it != output.end();) {
        const auto end = std::find(it, output.end(), '\n');
        const std::string text(it, end);
        if (std::regex_match(text, match, line))
            return std::stoull(match[1], nullptr, 16);
        it = end == output.end() ? end : end + 1;
    }
    return 0;
}

// The "NAME@plt" labels objdump puts on PLT entries, by address. objdump
// names calls to the file's own IFUNCs "*ABS*+0x...@plt"; these are left out
// (dtx names them after the IFUNC).
std::map<uint64_t, std::string> objdump_plt_stubs(const std::string &path) {
    const std::string output =
        run("objdump -d -j .plt -j .plt.sec -j .plt.got '" + path + "' 2>/dev/null");
    const std::regex label("([0-9a-f]+) <([^*>][^>]*@plt)>:");
    std::map<uint64_t, std::string> stubs;
    for (std::sregex_iterator it(output.begin(), output.end(), label), end; it != end; ++it)
        stubs[std::stoull((*it)[1], nullptr, 16)] = (*it)[2];
    return stubs;
}

std::map<uint64_t, std::string> plt_stubs(const ElfFile &file, const std::set<uint64_t> &only) {
    std::map<uint64_t, std::string> stubs;
    for (const ElfFunction &function : file.functions())
        if (function.plt_stub && only.contains(function.address))
            stubs[function.address] = function.name;
    return stubs;
}

const ElfFunction *find_one(const ElfFile &file, std::string_view name) {
    std::vector<const ElfFunction *> found = file.find(name);
    EXPECT_EQ(found.size(), 1u) << name;
    return found.empty() ? nullptr : found.front();
}

std::vector<unsigned char> read_bytes(const std::string &path, uint64_t offset, std::size_t size) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    std::vector<unsigned char> bytes(size);
    in.read(reinterpret_cast<char *>(bytes.data()), static_cast<std::streamsize>(size));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return bytes;
}

// A fresh directory, removed with its contents.
class TemporaryDirectory {
public:
    TemporaryDirectory() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "dtx-elf-test-XXXXXX").string();
        path_ = mkdtemp(pattern.data());
    }
    ~TemporaryDirectory() { std::filesystem::remove_all(path_); }
    std::string path(const std::string &name) const { return path_ + "/" + name; }
    std::string write(const std::string &name, const std::string &bytes) const {
        std::ofstream(path(name), std::ios::binary) << bytes;
        return path(name);
    }

private:
    std::string path_;
};

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ElfFile, FindsTheTriggersFunctionsWithTheirBindings) {
    auto file = open_ok(trigger("dtx-funcs"));
    ASSERT_TRUE(file);
    for (const char *name : {"dtx_add", "dtx_greet", "dtx_eight", "dtx_libc", "main"}) {
        const ElfFunction *function = find_one(*file, name);
        ASSERT_TRUE(function) << name;
        EXPECT_EQ(function->binding, Binding::Global) << name;
        EXPECT_GT(function->size, 0u) << name;
        EXPECT_FALSE(function->plt_stub) << name;
        EXPECT_TRUE(function->version.empty()) << name;
        EXPECT_EQ(function->address, nm_address(file->path(), name)) << name;
    }
    const ElfFunction *scale = find_one(*file, "dtx_scale");
    ASSERT_TRUE(scale);
    EXPECT_EQ(scale->binding, Binding::Local);
    EXPECT_EQ(scale->address, nm_address(file->path(), "dtx_scale"));
    EXPECT_TRUE(file->find("no_such_function").empty());
}

TEST(ElfFile, FunctionsAreSortedByAddress) {
    auto file = open_ok(trigger("dtx-funcs"));
    ASSERT_TRUE(file);
    auto functions = file->functions();
    ASSERT_FALSE(functions.empty());
    for (std::size_t i = 1; i < functions.size(); ++i)
        EXPECT_LE(functions[i - 1].address, functions[i].address) << functions[i].name;
}

TEST(ElfFile, FileOffsetsReachTheFunctionsCode) {
    auto file = open_ok(trigger("dtx-funcs"));
    ASSERT_TRUE(file);
    const ElfFunction *add = find_one(*file, "dtx_add");
    ASSERT_TRUE(add);
    std::optional<uint64_t> offset = file->file_offset(add->address);
    ASSERT_TRUE(offset);
    EXPECT_EQ(file->vaddr_of_offset(*offset), add->address);
    // dtx_add is a leaf: its last byte is its ret.
    std::vector<unsigned char> code = read_bytes(file->path(), *offset, add->size);
    ASSERT_EQ(code.size(), add->size);
    EXPECT_EQ(code.back(), 0xc3);
    // objdump agrees on the code at that address.
    char range[80];
    std::snprintf(range, sizeof(range), " --start-address=0x%llx --stop-address=0x%llx",
                  static_cast<unsigned long long>(add->address),
                  static_cast<unsigned long long>(add->address + add->size));
    const std::string disassembly =
        run("objdump -d" + std::string(range) + " '" + file->path() + "' 2>/dev/null");
    char first_byte[8];
    std::snprintf(first_byte, sizeof(first_byte), ":\t%02x ", code.front());
    EXPECT_NE(disassembly.find(first_byte), std::string::npos) << disassembly;

    EXPECT_FALSE(file->file_offset(uint64_t{1} << 60));
    EXPECT_FALSE(file->vaddr_of_offset(uint64_t{1} << 60));
}

TEST(ElfFile, PositionIndependentOrNot) {
    auto pie = open_ok(trigger("dtx-funcs"));
    auto fixed = open_ok(trigger("dtx-funcs-nopie"));
    ASSERT_TRUE(pie && fixed);
    EXPECT_TRUE(pie->position_independent());
    EXPECT_FALSE(fixed->position_independent());
    const ElfFunction *add = find_one(*fixed, "dtx_add");
    ASSERT_TRUE(add);
    EXPECT_EQ(add->address, nm_address(fixed->path(), "dtx_add"));
    EXPECT_GE(add->address, 0x400000u); // the x86-64 default base of ET_EXEC
    // The code segment of a non-PIE file is not at offset = address.
    std::optional<uint64_t> offset = fixed->file_offset(add->address);
    ASSERT_TRUE(offset);
    EXPECT_EQ(fixed->vaddr_of_offset(*offset), add->address);
    EXPECT_NE(*offset, add->address);

    bool executable = false;
    for (const ElfSegment &segment : pie->segments()) {
        executable |= segment.executable;
        EXPECT_LE(segment.filesz, segment.memsz);
    }
    EXPECT_TRUE(executable);
    EXPECT_EQ(pie->build_id().size(), 40u); // SHA-1, ld's default
    EXPECT_EQ(pie->build_id().find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(ElfFile, PltStubsOfTheTrigger) {
    for (const char *name : {"dtx-funcs", "dtx-funcs-nopie", "dtx-funcs-ibt"}) {
        auto file = open_ok(trigger(name));
        ASSERT_TRUE(file);
        const std::map<uint64_t, std::string> expected = objdump_plt_stubs(file->path());
        for (const char *stub : {"strlen@plt", "getpid@plt"}) {
            const ElfFunction *function = find_one(*file, stub);
            ASSERT_TRUE(function) << name << " " << stub;
            EXPECT_TRUE(function->plt_stub);
            EXPECT_EQ(function->binding, Binding::Local);
            EXPECT_EQ(function->size, 16u);
            ASSERT_TRUE(expected.contains(function->address)) << name << " " << stub;
            EXPECT_EQ(expected.at(function->address), stub) << name;
            EXPECT_EQ(file->function_at(function->address + 4), function);
        }
    }
}

// Every PLT stub objdump names, at its address, in programs of the system
// (.plt only, .plt.got) and the trigger (.plt.sec).
TEST(ElfFile, PltStubsAgreeWithObjdump) {
    for (std::string path :
         {trigger("dtx-funcs"), trigger("dtx-funcs-ibt"), std::string("/usr/bin/ls"),
          std::string(kLibc), std::string("/usr/bin/python3.11")}) {
        if (access(path.c_str(), R_OK) != 0)
            continue;
        auto file = open_ok(path);
        ASSERT_TRUE(file);
        const std::map<uint64_t, std::string> expected = objdump_plt_stubs(path);
        EXPECT_FALSE(expected.empty()) << path;
        std::set<uint64_t> named;
        for (const auto &[address, name] : expected)
            named.insert(address);
        EXPECT_EQ(plt_stubs(*file, named), expected) << path;
    }
}

TEST(ElfFile, IfuncCallsThroughThePltTakeTheIfuncsName) {
    if (access(kLibc, R_OK) != 0)
        GTEST_SKIP() << "no " << kLibc;
    auto file = open_ok(kLibc);
    ASSERT_TRUE(file);
    // objdump's "*ABS*+0x...@plt" entries: ours are named, after an IFUNC.
    const std::string output =
        run(std::string("objdump -d -j .plt ") + kLibc + " 2>/dev/null | grep -c 'ABS.*@plt>:'");
    if (std::atoi(output.c_str()) == 0)
        GTEST_SKIP() << "this C library calls no IFUNC through its PLT";
    std::size_t stubs = 0;
    for (const ElfFunction &function : file->functions()) {
        if (!function.plt_stub)
            continue;
        ++stubs;
        EXPECT_TRUE(function.name.ends_with("@plt")) << function.name;
        EXPECT_GT(function.name.size(), 4u);
    }
    EXPECT_GE(stubs, static_cast<std::size_t>(std::atoi(output.c_str())));
}

TEST(ElfFile, StrippedFileTakesLocalFunctionsFromItsDebugLink) {
    auto file = open_ok(trigger("dtx-funcs-stripped"));
    ASSERT_TRUE(file);
    EXPECT_EQ(nm_address(file->path(), "dtx_scale"), 0u) << "not stripped";
    const ElfFunction *scale = find_one(*file, "dtx_scale");
    ASSERT_TRUE(scale);
    EXPECT_EQ(scale->binding, Binding::Local);
    EXPECT_EQ(scale->address, nm_address(trigger("dtx-funcs-stripped.debug"), "dtx_scale"));
    EXPECT_TRUE(find_one(*file, "dtx_add"));
    EXPECT_TRUE(find_one(*file, "strlen@plt"));
}

TEST(ElfFile, DebugLinkIsFollowedOnlyToThatFile) {
    TemporaryDirectory directory;
    const std::string stripped =
        directory.write("dtx-funcs-stripped", read_file(trigger("dtx-funcs-stripped")));
    auto alone = open_ok(stripped);
    ASSERT_TRUE(alone);
    EXPECT_TRUE(alone->find("dtx_scale").empty());
    EXPECT_TRUE(find_one(*alone, "getpid@plt"));

    // A debug file of another build (another build-id) is not this file's.
    std::filesystem::create_directory(directory.path(".debug"));
    const std::string other = directory.path(".debug/dtx-funcs-stripped.debug");
    ASSERT_EQ(std::system(
                  ("objcopy --only-keep-debug '" + trigger("dtx-funcs-nopie") + "' '" + other + "'")
                      .c_str()),
              0);
    auto mismatched = open_ok(stripped);
    ASSERT_TRUE(mismatched);
    EXPECT_TRUE(mismatched->find("dtx_scale").empty());

    // The right one, in the .debug directory.
    std::filesystem::copy_file(trigger("dtx-funcs-stripped.debug"), other,
                               std::filesystem::copy_options::overwrite_existing);
    auto found = open_ok(stripped);
    ASSERT_TRUE(found);
    EXPECT_TRUE(find_one(*found, "dtx_scale"));
}

TEST(ElfFile, StrippedWithoutDebugFileKeepsDynamicSymbols) {
    auto file = open_ok(trigger("dtx-funcs-nodebug"));
    ASSERT_TRUE(file);
    const ElfFunction *add = find_one(*file, "dtx_add");
    ASSERT_TRUE(add);
    EXPECT_EQ(add->binding, Binding::Global);
    EXPECT_EQ(add->address, nm_address(file->path(), "dtx_add", "-D"));
    EXPECT_TRUE(file->find("dtx_scale").empty());
    EXPECT_TRUE(file->find("dtx_greet").empty());
    EXPECT_TRUE(file->find("main").empty());
    EXPECT_TRUE(find_one(*file, "strlen@plt"));
}

TEST(ElfFile, FunctionAtCoversSizedAndUnsizedSymbols) {
    auto file = open_ok(trigger("dtx-funcs"));
    ASSERT_TRUE(file);
    const ElfFunction *eight = find_one(*file, "dtx_eight");
    ASSERT_TRUE(eight);
    EXPECT_EQ(file->function_at(eight->address), eight);
    EXPECT_EQ(file->function_at(eight->address + eight->size - 1), eight);
    EXPECT_NE(file->function_at(eight->address + eight->size), eight);
    // crtstuff's frame_dummy has no size: it covers up to the next symbol.
    std::vector<const ElfFunction *> dummies = file->find("frame_dummy");
    if (!dummies.empty() && dummies.front()->size == 0) {
        const ElfFunction *dummy = dummies.front();
        EXPECT_EQ(file->function_at(dummy->address + 1), dummy);
    }
    EXPECT_EQ(file->function_at(0), nullptr);
    EXPECT_EQ(file->function_at(~uint64_t{0}), nullptr);
}

// Stripped to .dynsym, a library names only its exported functions: an
// address in a local one is in no function, whether the exported function
// below it has a size (which ends it) or not (.eh_frame then tells where
// that function ends, or where the next one begins).
TEST(ElfFile, SizelessSymbolsEndWhereEhFrameSays) {
    auto built = open_ok(trigger("libdtx-sizeless-lib.so"));
    auto stripped = open_ok(trigger("libdtx-sizeless-lib-stripped.so"));
    ASSERT_TRUE(built && stripped);
    EXPECT_TRUE(stripped->find("dtx_local_after_cfi").empty()) << "not stripped";
    const ElfFunction *with_cfi = find_one(*stripped, "dtx_sizeless_with_cfi");
    const ElfFunction *without_cfi = find_one(*stripped, "dtx_sizeless_without_cfi");
    ASSERT_TRUE(with_cfi && without_cfi);
    EXPECT_EQ(with_cfi->size, 0u);
    EXPECT_EQ(without_cfi->size, 0u);
    // xor %eax, %eax; ret: its FDE's 3 bytes, then padding.
    EXPECT_EQ(stripped->function_at(with_cfi->address), with_cfi);
    EXPECT_EQ(stripped->function_at(with_cfi->address + 2), with_cfi);
    EXPECT_EQ(stripped->function_at(with_cfi->address + 3), nullptr);
    // mov $2, %eax; ret: no FDE, up to the next FDE's start.
    EXPECT_EQ(stripped->function_at(without_cfi->address + 5), without_cfi);
    for (const char *name :
         {"dtx_local_after_cfi", "dtx_local_after_nocfi", "dtx_local_after_sized"}) {
        const ElfFunction *local = find_one(*built, name);
        ASSERT_TRUE(local);
        EXPECT_EQ(local->binding, Binding::Local) << name;
        ASSERT_GT(local->size, 0u) << name;
        EXPECT_EQ(built->function_at(local->address), local) << name;
        EXPECT_EQ(stripped->function_at(local->address), nullptr) << name;
        EXPECT_EQ(stripped->function_at(local->address + local->size - 1), nullptr) << name;
    }
}

// The same for a library as the compiler makes it (dtx-unwind-lib, -O2):
// stripped, none of the functions it does not export (unwind_lib_middle,
// crtstuff's) is named after one it does.
TEST(ElfFile, LocalFunctionsOfStrippedLibraryAreUnnamed) {
    TemporaryDirectory directory;
    const std::string library = trigger("libdtx-unwind-lib.so");
    const std::string stripped = directory.path("libdtx-unwind-lib.so");
    ASSERT_EQ(std::system(("objcopy --strip-all '" + library + "' '" + stripped + "'").c_str()), 0);
    auto built = open_ok(library);
    auto file = open_ok(stripped);
    ASSERT_TRUE(built && file);
    ASSERT_TRUE(find_one(*built, "unwind_lib_middle"));
    EXPECT_TRUE(file->find("unwind_lib_middle").empty()) << "not stripped";
    const ElfFunction *call = find_one(*file, "unwind_lib_call");
    ASSERT_TRUE(call);
    EXPECT_EQ(file->function_at(call->address + call->size - 1), call);
    for (const ElfFunction &function : built->functions()) {
        // (Hidden ones too, _init and _fini: global, but not exported.)
        if (function.plt_stub || !file->find(function.name).empty())
            continue;
        EXPECT_EQ(file->function_at(function.address), nullptr) << function.name;
        if (function.size > 0) {
            EXPECT_EQ(file->function_at(function.address + function.size - 1), nullptr)
                << function.name;
        }
    }
}

TEST(ElfFile, LibcVersionsAndAliases) {
    if (access(kLibc, R_OK) != 0)
        GTEST_SKIP() << "no " << kLibc;
    auto file = open_ok(kLibc);
    ASSERT_TRUE(file);
    EXPECT_TRUE(file->position_independent());
    const ElfFunction *malloc = find_one(*file, "malloc");
    ASSERT_TRUE(malloc);
    EXPECT_EQ(malloc->version, "GLIBC_2.2.5");
    EXPECT_TRUE(malloc->default_version);
    EXPECT_EQ(malloc->binding, Binding::Global);
    EXPECT_EQ(malloc->address, nm_address(kLibc, "malloc", "-D"));
    EXPECT_EQ(find_one(*file, "malloc@@GLIBC_2.2.5"), malloc);
    EXPECT_EQ(find_one(*file, "malloc@GLIBC_2.2.5"), malloc);
    EXPECT_TRUE(file->find("malloc@@GLIBC_2.99").empty());

    // malloc and __libc_malloc share an address; malloc is preferred.
    ASSERT_GT(malloc->size, 1u);
    EXPECT_EQ(file->function_at(malloc->address), malloc);
    EXPECT_EQ(file->function_at(malloc->address + malloc->size / 2), malloc);
    EXPECT_NE(file->function_at(malloc->address + malloc->size), malloc);

    // memcpy has two versions at two addresses; the old one is hidden.
    std::vector<const ElfFunction *> memcpys = file->find("memcpy");
    ASSERT_GE(memcpys.size(), 2u);
    const ElfFunction *old_memcpy = find_one(*file, "memcpy@GLIBC_2.2.5");
    ASSERT_TRUE(old_memcpy);
    EXPECT_FALSE(old_memcpy->default_version);
    EXPECT_TRUE(file->find("memcpy@@GLIBC_2.2.5").empty());
    const ElfFunction *new_memcpy = find_one(*file, "memcpy@@GLIBC_2.14");
    ASSERT_TRUE(new_memcpy);
    EXPECT_NE(new_memcpy->address, old_memcpy->address);

    // One entry per (name, address, version), though a debug file may have
    // listed them again.
    std::set<std::tuple<std::string, uint64_t, std::string>> seen;
    for (const ElfFunction &function : file->functions())
        EXPECT_TRUE(seen.emplace(function.name, function.address, function.version).second)
            << function.name;
}

// Within one address libc's names are in dtrace's order: global and weak
// alike before local, then fewer leading underscores, then the smaller
// size, then byte order.
TEST(ElfFile, PreferredNameFirstAtOneAddress) {
    if (access(kLibc, R_OK) != 0)
        GTEST_SKIP() << "no " << kLibc;
    auto file = open_ok(kLibc);
    ASSERT_TRUE(file);
    auto underscores = [](const std::string &name) { return name.find_first_not_of('_'); };
    auto functions = file->functions();
    for (std::size_t i = 1; i < functions.size(); ++i) {
        const ElfFunction &a = functions[i - 1], &b = functions[i];
        if (a.address != b.address || a.plt_stub || b.plt_stub)
            continue;
        const bool a_local = a.binding == ElfFunction::Binding::Local;
        const bool b_local = b.binding == ElfFunction::Binding::Local;
        EXPECT_TRUE(!a_local || b_local) << a.name << " " << b.name;
        if (a_local != b_local || a.name.starts_with('$') || b.name.starts_with('$'))
            continue;
        EXPECT_LE(underscores(a.name), underscores(b.name)) << a.name << " " << b.name;
        if (underscores(a.name) != underscores(b.name))
            continue;
        EXPECT_LE(a.size, b.size) << a.name << " " << b.name;
        if (a.size == b.size) {
            EXPECT_LE(a.name, b.name);
        }
    }
}

// dtx-aliases' four functions and their aliases: the name dtrace gives each.
TEST(ElfFile, AliasesTakeTheNameDtraceGives) {
    auto file = open_ok(trigger("dtx-aliases"));
    ASSERT_TRUE(file);
    auto preferred = [&](const std::string &alias) -> std::string {
        std::vector<const ElfFunction *> found = file->find(alias);
        if (found.size() != 1)
            return "?";
        const ElfFunction *at = file->function_at(found[0]->address);
        return at ? at->name : "none";
    };
    EXPECT_EQ(preferred("_go"), "go");     // weak beside global: fewer underscores
    EXPECT_EQ(preferred("stay"), "_stay"); // local beside weak: not local
    EXPECT_EQ(preferred("beta"), "alpha"); // global beside weak: byte order
    EXPECT_EQ(preferred("zz"), "aaa");     // both global: byte order, not length
}

TEST(ElfFile, SectionsOfNotes) {
    auto file = open_ok(trigger("dtx-funcs"));
    ASSERT_TRUE(file);
    EXPECT_FALSE(file->section(".note.stapsdt"));
    EXPECT_FALSE(file->section(".text")); // only the sections dtx reads are kept

    const std::string usdt = trigger("dtx-usdt");
    if (access(usdt.c_str(), R_OK) != 0)
        GTEST_SKIP() << "no " << usdt;
    auto probes = open_ok(usdt);
    ASSERT_TRUE(probes);
    std::optional<ElfFile::Section> notes = probes->section(".note.stapsdt");
    ASSERT_TRUE(notes);
    EXPECT_FALSE(notes->data.empty());
    // readelf: "[Nr] Name Type Address Off Size ...".
    const std::string header = run("readelf -SW '" + usdt + "' | grep ' .note.stapsdt '");
    std::smatch match;
    ASSERT_TRUE(
        std::regex_search(header, match, std::regex(R"(NOTE +([0-9a-f]+) [0-9a-f]+ ([0-9a-f]+))")));
    EXPECT_EQ(notes->address, std::stoull(match[1], nullptr, 16));
    EXPECT_EQ(notes->data.size(), std::stoull(match[2], nullptr, 16));
    std::optional<ElfFile::Section> base = probes->section(".stapsdt.base");
    ASSERT_TRUE(base);
    EXPECT_NE(base->address, 0u);
}

// The cheap test the usdt provider sorts every process's files with.
TEST(ElfFile, HasSectionFromTheHeadersAlone) {
    EXPECT_FALSE(elf_file_has_section(trigger("dtx-funcs"), ".note.stapsdt"));
    EXPECT_TRUE(elf_file_has_section(trigger("dtx-funcs"), ".text"));
    EXPECT_FALSE(elf_file_has_section("/nonexistent/dtx-elf", ".text"));
    TemporaryDirectory directory;
    EXPECT_FALSE(elf_file_has_section(directory.write("text", "not ELF\n"), ".text"));
    const std::string truncated =
        directory.write("truncated", read_file(trigger("dtx-funcs")).substr(0, 200));
    EXPECT_FALSE(elf_file_has_section(truncated, ".text"));
    const std::string usdt = trigger("dtx-usdt");
    if (access(usdt.c_str(), R_OK) != 0)
        GTEST_SKIP() << "no " << usdt;
    EXPECT_TRUE(elf_file_has_section(usdt, ".note.stapsdt"));
}

TEST(ElfFile, ErrorsNameTheFile) {
    EXPECT_EQ(open_error("/nonexistent/dtx-elf"),
              "/nonexistent/dtx-elf: No such file or directory");
    TemporaryDirectory directory;
    const std::string text = directory.write("text", "this is not an ELF file\n");
    EXPECT_EQ(open_error(text), text + ": not an ELF file");
    const std::string empty = directory.write("empty", "");
    EXPECT_EQ(open_error(empty), empty + ": not an ELF file");
    EXPECT_EQ(open_error(directory.path("")), directory.path("") + ": not an ELF file");
}

// Truncated and corrupted copies of a real file open or fail, never crash.
TEST(ElfFile, SurvivesDamagedFiles) {
    const std::string original = read_file(trigger("dtx-funcs"));
    ASSERT_GT(original.size(), 4096u);
    TemporaryDirectory directory;
    for (std::size_t size :
         {std::size_t{4}, std::size_t{16}, std::size_t{63}, std::size_t{64}, std::size_t{200},
          std::size_t{1000}, std::size_t{4096}, original.size() / 2, original.size() - 1}) {
        const std::string path = directory.write("truncated", original.substr(0, size));
        auto opened = ElfFile::open(path);
        if (!opened) {
            EXPECT_TRUE(opened.error().message.starts_with(path + ": ")) << opened.error().message;
        }
    }
    std::mt19937 random(12345);
    for (int round = 0; round < 200; ++round) {
        std::string damaged = original;
        for (int i = 0; i < 16; ++i) {
            // Mostly in the headers and tables at the start and the section
            // headers at the end, where damage reaches the parser.
            const std::size_t at =
                random() % 2 ? random() % 1024 : damaged.size() - 1 - random() % 2048;
            damaged[at] = static_cast<char>(random());
        }
        auto opened = ElfFile::open(directory.write("damaged", damaged));
        if (opened) {
            for (const ElfFunction &function : (*opened)->functions())
                (*opened)->function_at(function.address);
        }
    }
}

TEST(ElfFileCache, ReturnsTheSameFileUntilItChanges) {
    ElfFileCache cache;
    auto first = cache.get(trigger("dtx-funcs"));
    auto second = cache.get(trigger("dtx-funcs"));
    ASSERT_TRUE(first);
    ASSERT_TRUE(second);
    EXPECT_EQ(*first, *second);
    auto other = cache.get(trigger("dtx-funcs-nopie"));
    ASSERT_TRUE(other);
    EXPECT_NE(*other, *first);

    TemporaryDirectory directory;
    const std::string copy = directory.write("copy", read_file(trigger("dtx-funcs")));
    auto before = cache.get(copy);
    ASSERT_TRUE(before);
    {
        std::ofstream(copy, std::ios::binary | std::ios::trunc)
            << read_file(trigger("dtx-funcs-nopie"));
    }
    auto after = cache.get(copy);
    ASSERT_TRUE(after);
    EXPECT_NE(*after, *before);
    EXPECT_FALSE((*after)->position_independent());

    auto missing = cache.get("/nonexistent/dtx-elf");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message, "/nonexistent/dtx-elf: No such file or directory");
}

} // namespace
} // namespace dtx::trace

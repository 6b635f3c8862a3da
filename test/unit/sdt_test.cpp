// The sdt provider's argument types: how each kind of tracefs field is typed
// as args[N] (integers by size and sign, pointers, fixed arrays, __data_loc
// strings), on format texts the kernel writes; and a tracepoint whose format
// file dtx cannot type, left out of a run with a warning.
#include "providers/sdt.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>

namespace dtx::providers {
namespace {

std::vector<trace::ProbeArgument> arguments_of(std::string_view fields) {
    Result<trace::TracepointFormat> format =
        trace::parse_tracepoint_format("name: test\nformat:\n" + std::string(fields));
    EXPECT_TRUE(format) << format.error().message;
    return format ? sdt_arguments(*format) : std::vector<trace::ProbeArgument>{};
}

// "type name" of each argument, for compact expectations.
std::vector<std::string> described(const std::vector<trace::ProbeArgument> &arguments) {
    std::vector<std::string> out;
    for (const trace::ProbeArgument &argument : arguments) {
        EXPECT_EQ(argument.btf_id, 0u) << argument.name;
        out.push_back(argument.type + " " + argument.name);
    }
    return out;
}

TEST(SdtArguments, SchedSwitch) {
    auto arguments =
        arguments_of("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                     "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
                     "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
                     "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
                     "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
                     "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n");
    EXPECT_EQ(described(arguments),
              (std::vector<std::string>{"char [16] prev_comm", "int32_t prev_pid", "int prev_prio",
                                        "long prev_state"}));
}

TEST(SdtArguments, DataLocCharArrayIsAString) {
    auto arguments =
        arguments_of("\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
                     "\tfield:__rel_loc char[] label;\toffset:12;\tsize:4;\tsigned:0;\n"
                     "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n");
    EXPECT_EQ(described(arguments),
              (std::vector<std::string>{"string filename", "string label", "string buf"}));
}

TEST(SdtArguments, SyscallFieldsTypedByTheirRecordSize) {
    // sys_enter_openat: every syscall argument is stored as an unsigned u64.
    auto arguments = arguments_of("\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
                                  "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
                                  "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
                                  "\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
                                  "\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n");
    EXPECT_EQ(described(arguments),
              (std::vector<std::string>{"int __syscall_nr", "uint64_t dfd", "const char * filename",
                                        "uint64_t flags", "uint64_t mode"}));
}

TEST(SdtArguments, IntegersAndPointers) {
    auto arguments =
        arguments_of("\tfield:bool sync;\toffset:8;\tsize:1;\tsigned:0;\n"
                     "\tfield:u64 bytes;\toffset:16;\tsize:8;\tsigned:0;\n"
                     "\tfield:unsigned flags;\toffset:24;\tsize:4;\tsigned:0;\n"
                     "\tfield:enum zone_type zone;\toffset:28;\tsize:4;\tsigned:0;\n"
                     "\tfield:unsigned short family;\toffset:32;\tsize:2;\tsigned:0;\n"
                     "\tfield:s64 delta;\toffset:40;\tsize:8;\tsigned:1;\n"
                     "\tfield:char * name;\toffset:48;\tsize:8;\tsigned:0;\n"
                     "\tfield:struct mm_struct * mm;\toffset:56;\tsize:8;\tsigned:0;\n"
                     "\tfield:const char *const * argv;\toffset:64;\tsize:8;\tsigned:0;\n");
    EXPECT_EQ(described(arguments),
              (std::vector<std::string>{"bool sync", "uint64_t bytes", "unsigned int flags",
                                        "uint32_t zone", "unsigned short family", "int64_t delta",
                                        "char * name", "void * mm", "void * argv"}));
}

TEST(SdtArguments, FixedArrays) {
    auto arguments =
        arguments_of("\tfield:u8 saddr[4];\toffset:8;\tsize:4;\tsigned:0;\n"
                     "\tfield:unsigned long caller[4];\toffset:16;\tsize:32;\tsigned:0;\n"
                     "\tfield:__data_loc unsigned[] lengths;\toffset:48;\tsize:4;\tsigned:0;\n"
                     "\tfield:unsigned long ips[];\toffset:52;\tsize:0;\tsigned:0;\n");
    EXPECT_EQ(described(arguments),
              (std::vector<std::string>{"uint8_t [4] saddr", "unsigned long [4] caller",
                                        "uint32_t * lengths", "uint64_t * ips"}));
}

TEST(SdtArguments, DataLocOfACpumaskIsItsAddress) {
    auto arguments =
        arguments_of("\tfield:__data_loc cpumask_t cpumask;\toffset:8;\tsize:4;\tsigned:0;\n"
                     "\tfield:void * callsite;\toffset:16;\tsize:8;\tsigned:0;\n");
    EXPECT_EQ(described(arguments),
              (std::vector<std::string>{"void * cpumask", "void * callsite"}));
}

TEST(SdtArguments, AtMostTen) {
    std::string fields;
    for (int i = 0; i < 12; i++)
        fields += "\tfield:int f" + std::to_string(i) + ";\toffset:" + std::to_string(8 + 4 * i) +
                  ";\tsize:4;\tsigned:1;\n";
    auto arguments = arguments_of(fields);
    ASSERT_EQ(arguments.size(), 10u);
    EXPECT_EQ(arguments[9].name, "f9");
}

// A tracefs directory of the test's making: available_events and the
// format files of the events it lists.
class FakeTracefs {
public:
    FakeTracefs() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "dtx-sdt-test-XXXXXX").string();
        path_ = mkdtemp(pattern.data());
    }
    ~FakeTracefs() { std::filesystem::remove_all(path_); }
    const std::string &path() const { return path_; }
    void add_event(const std::string &group, const std::string &event, const std::string &format) {
        std::filesystem::create_directories(path_ + "/events/" + group + "/" + event);
        std::ofstream(path_ + "/events/" + group + "/" + event + "/format") << format;
        std::ofstream(path_ + "/available_events", std::ios::app) << group << ":" << event << "\n";
    }

private:
    std::string path_;
};

constexpr std::string_view kCommonFields =
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n";

TEST(SdtProvider, UntypableFormatIsLeftOutWithAWarning) {
    FakeTracefs tracefs;
    tracefs.add_event("test", "typed",
                      "name: typed\nID: 1\nformat:\n" + std::string(kCommonFields) +
                          "\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n");
    // A field whose size is no number: nothing says where its value lies.
    tracefs.add_event("test", "untypable",
                      "name: untypable\nID: 2\nformat:\n" + std::string(kCommonFields) +
                          "\tfield:int value;\toffset:8;\tsize:?;\tsigned:1;\n");
    std::unique_ptr<Provider> provider = make_sdt_provider(tracefs.path());
    trace::ProbeTable table;
    std::vector<const trace::Probe *> found;
    ASSERT_TRUE(provider->match({"sdt", "test", "", ""}, table, found).ok());
    ASSERT_EQ(found.size(), 2u);
    const trace::Probe *typed = found[0]->name.name == "typed" ? found[0] : found[1];
    const trace::Probe *untypable = found[0] == typed ? found[1] : found[0];
    EXPECT_EQ(described(provider->arguments(*typed)), (std::vector<std::string>{"int value"}));
    EXPECT_TRUE(provider->arguments(*untypable).empty()); // args[] unavailable

    // Its program attaches nothing and says why, instead of failing the run.
    std::vector<Trampoline> programs = provider->trampolines(std::span(&untypable, 1));
    ASSERT_EQ(programs.size(), 1u);
    trace::BpfObject object;
    trace::AttachmentSet attachments;
    AttachContext context{-1, object, attachments};
    EXPECT_TRUE(programs[0].attach(context).ok());
    EXPECT_TRUE(attachments.empty());
    EXPECT_EQ(context.warnings,
              (std::vector<std::string>{
                  "probe 'sdt:test::untypable' left out: tracepoint test:untypable: its format "
                  "file, line 7: no 'size:' number in "
                  "'field:int value;\toffset:8;\tsize:?;\tsigned:1;'"}));
}

} // namespace
} // namespace dtx::providers

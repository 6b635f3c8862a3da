// The syscall provider's pure parts: the x86-64 numbers of tracefs' syscall
// event names (where they differ from the syscall table's names too), and the
// D types of the arguments a syscall event's format file describes.
#include "providers/syscall.h"
#include "providers/syscall_table.h"
#include "tracefs_format_samples.h"

#include <gtest/gtest.h>

#include <string>

namespace dtx::providers {
namespace {

TEST(SyscallNumber, TableNames) {
    EXPECT_EQ(x86_64_syscall_number("read"), 0u);
    EXPECT_EQ(x86_64_syscall_number("openat"), 257u);
    EXPECT_EQ(x86_64_syscall_number("getpid"), 39u);
    EXPECT_EQ(x86_64_syscall_number("set_mempolicy_home_node"), 450u);
}

TEST(SyscallNumber, KernelFunctionNamesWhereTheTableDiffers) {
    EXPECT_EQ(x86_64_syscall_number("newstat"), 4u);
    EXPECT_EQ(x86_64_syscall_number("newfstat"), 5u);
    EXPECT_EQ(x86_64_syscall_number("newlstat"), 6u);
    EXPECT_EQ(x86_64_syscall_number("sendfile64"), 40u);
    EXPECT_EQ(x86_64_syscall_number("newuname"), 63u);
    EXPECT_EQ(x86_64_syscall_number("umount"), 166u);
    EXPECT_FALSE(x86_64_syscall_number("stat"));
    EXPECT_FALSE(x86_64_syscall_number("umount2"));
}

TEST(SyscallNumber, CallsNewerThanLinux61) {
    EXPECT_EQ(x86_64_syscall_number("uretprobe"), 335u);
    EXPECT_EQ(x86_64_syscall_number("uprobe"), 336u);
    EXPECT_EQ(x86_64_syscall_number("cachestat"), 451u);
    EXPECT_EQ(x86_64_syscall_number("mseal"), 462u);
    EXPECT_EQ(x86_64_syscall_number("file_setattr"), 469u);
}

TEST(SyscallNumber, UnknownNames) {
    EXPECT_FALSE(x86_64_syscall_number(""));
    EXPECT_FALSE(x86_64_syscall_number("no_such_call"));
    EXPECT_FALSE(x86_64_syscall_number("sys_read"));
    EXPECT_FALSE(x86_64_syscall_number("rea"));
}

TEST(SyscallArgumentType, CIntegerTypesStay) {
    EXPECT_EQ(syscall_argument_type("int", 8, false), "int");
    EXPECT_EQ(syscall_argument_type("unsigned long", 8, false), "unsigned long");
    EXPECT_EQ(syscall_argument_type("long", 8, true), "long");
    EXPECT_EQ(syscall_argument_type("const int", 8, false), "int");
    EXPECT_EQ(syscall_argument_type("unsigned", 8, false), "unsigned int");
}

TEST(SyscallArgumentType, PosixTypedefsStay) {
    EXPECT_EQ(syscall_argument_type("size_t", 8, false), "size_t");
    EXPECT_EQ(syscall_argument_type("pid_t", 8, false), "pid_t");
    EXPECT_EQ(syscall_argument_type("const size_t", 8, false), "size_t");
}

TEST(SyscallArgumentType, KernelTypedefsBecomeFixedWidth) {
    EXPECT_EQ(syscall_argument_type("umode_t", 8, false), "uint16_t");
    EXPECT_EQ(syscall_argument_type("u32", 8, false), "uint32_t");
    EXPECT_EQ(syscall_argument_type("const __u32", 8, false), "uint32_t");
    EXPECT_EQ(syscall_argument_type("const clockid_t", 8, false), "int32_t");
    EXPECT_EQ(syscall_argument_type("loff_t", 8, false), "int64_t");
    EXPECT_EQ(syscall_argument_type("aio_context_t", 8, false), "uint64_t");
    EXPECT_EQ(syscall_argument_type("const enum landlock_rule_type", 8, false), "int");
}

TEST(SyscallArgumentType, UnknownTypedefsTakeTheFieldsSize) {
    EXPECT_EQ(syscall_argument_type("new_kernel_t", 8, false), "uint64_t");
    EXPECT_EQ(syscall_argument_type("new_kernel_t", 4, true), "int32_t");
    EXPECT_EQ(syscall_argument_type("new_kernel_t", 2, false), "uint16_t");
}

TEST(SyscallArgumentType, CharPointersStay) {
    EXPECT_EQ(syscall_argument_type("const char *", 8, false), "const char *");
    EXPECT_EQ(syscall_argument_type("char *", 8, false), "char *");
    EXPECT_EQ(syscall_argument_type("unsigned char *", 8, false), "unsigned char *");
}

TEST(SyscallArgumentType, PointersToKnownTypesStay) {
    EXPECT_EQ(syscall_argument_type("int *", 8, false), "int *");
    EXPECT_EQ(syscall_argument_type("const unsigned long *", 8, false), "const unsigned long *");
    EXPECT_EQ(syscall_argument_type("u32 *", 8, false), "uint32_t *");
    EXPECT_EQ(syscall_argument_type("loff_t *", 8, false), "int64_t *");
    EXPECT_EQ(syscall_argument_type("const void *", 8, false), "const void *");
    EXPECT_EQ(syscall_argument_type("const void *const", 8, false), "const void *");
}

TEST(SyscallArgumentType, OtherPointersAreVoidPointers) {
    EXPECT_EQ(syscall_argument_type("struct stat *", 8, false), "void *");
    EXPECT_EQ(syscall_argument_type("const struct iovec *", 8, false), "void *");
    EXPECT_EQ(syscall_argument_type("sigset_t *", 8, false), "void *");
    EXPECT_EQ(syscall_argument_type("const char *const *", 8, false), "void *");
    EXPECT_EQ(syscall_argument_type("struct robust_list_head * *", 8, false), "void *");
    EXPECT_EQ(syscall_argument_type("cap_user_header_t", 8, false), "void *");
}

// Linux 6.18's events/syscalls/sys_exit_openat/format.
constexpr const char *kOpenatReturnFormat =
    "name: sys_exit_openat\n"
    "ID: 781\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
    "\n"
    "print fmt: \"0x%lx\", REC->ret\n";

// Linux 6.18's events/syscalls/sys_enter_execve/format, whose argv is a
// pointer to pointers, and sys_enter_getpid's, which has no arguments.
constexpr const char *kExecveEntryFormat =
    "name: sys_enter_execve\n"
    "ID: 862\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:const char * filename;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:const char *const * argv;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:const char *const * envp;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"filename: 0x%08lx, argv: 0x%08lx, envp: 0x%08lx\", "
    "((unsigned long)(REC->filename)), ((unsigned long)(REC->argv)), "
    "((unsigned long)(REC->envp))\n";

constexpr const char *kGetpidEntryFormat =
    "name: sys_enter_getpid\n"
    "ID: 309\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"\"\n";

// "TYPE NAME;" for each argument the format's event has.
std::string arguments_of(const char *format_text) {
    Result<trace::TracepointFormat> format = trace::parse_tracepoint_format(format_text);
    if (!format) {
        ADD_FAILURE() << "the format did not parse: " << format.error().message;
        return "";
    }
    std::string text;
    for (const trace::ProbeArgument &argument : syscall_event_arguments(*format))
        text += argument.type + " " + argument.name + ";";
    return text;
}

TEST(SyscallEventArguments, EntryFieldsAfterTheNumber) {
    EXPECT_EQ(arguments_of(test::kSysEnterOpenatFormat),
              "int dfd;const char * filename;int flags;uint16_t mode;");
}

TEST(SyscallEventArguments, ReturnValue) {
    EXPECT_EQ(arguments_of(kOpenatReturnFormat), "long ret;");
}

TEST(SyscallEventArguments, PointersToPointers) {
    EXPECT_EQ(arguments_of(kExecveEntryFormat), "const char * filename;void * argv;void * envp;");
}

TEST(SyscallEventArguments, NoArguments) {
    EXPECT_EQ(arguments_of(kGetpidEntryFormat), "");
}

} // namespace
} // namespace dtx::providers

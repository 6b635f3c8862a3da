// The tracefs format-file parser on real format texts: fixed char arrays
// (sched_switch), __data_loc strings (sched_process_exec), a syscall event's
// widened fields, and what it refuses.
#include "libtrace/tracefs_format.h"
#include "tracefs_format_samples.h"

#include <gtest/gtest.h>

namespace dtx::trace {
namespace {

// Linux 6.18's events/sched/sched_switch/format, without its long print fmt.
constexpr const char *kSchedSwitch =
    "name: sched_switch\n"
    "ID: 372\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";

constexpr const char *kSchedProcessExec =
    "name: sched_process_exec\n"
    "ID: 365\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
    "\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, "
    "REC->old_pid\n";

TracepointFormat parse(std::string_view text) {
    Result<TracepointFormat> format = parse_tracepoint_format(text);
    EXPECT_TRUE(format) << format.error().message;
    return format ? *format : TracepointFormat{};
}

std::string parse_error(std::string_view text) {
    Result<TracepointFormat> format = parse_tracepoint_format(text);
    EXPECT_FALSE(format);
    return format ? "" : format.error().message;
}

TEST(TracefsFormat, NameIdAndCommonFields) {
    TracepointFormat format = parse(kSchedSwitch);
    EXPECT_EQ(format.name, "sched_switch");
    EXPECT_EQ(format.id, 372u);
    ASSERT_EQ(format.common_fields.size(), 4u);
    EXPECT_EQ(format.common_fields[0].name, "common_type");
    EXPECT_EQ(format.common_fields[0].type, "unsigned short");
    EXPECT_EQ(format.common_fields[3].name, "common_pid");
    EXPECT_TRUE(format.common_fields[3].is_signed);
}

TEST(TracefsFormat, FixedCharArraysAndIntegers) {
    TracepointFormat format = parse(kSchedSwitch);
    ASSERT_EQ(format.fields.size(), 7u);
    const TracepointField &comm = format.fields[0];
    EXPECT_EQ(comm.name, "prev_comm");
    EXPECT_EQ(comm.type, "char");
    EXPECT_EQ(comm.kind, TracepointFieldKind::Array);
    EXPECT_EQ(comm.array_count, 16u);
    EXPECT_EQ(comm.offset, 8u);
    EXPECT_EQ(comm.size, 16u);
    const TracepointField &pid = format.fields[1];
    EXPECT_EQ(pid.name, "prev_pid");
    EXPECT_EQ(pid.type, "pid_t");
    EXPECT_EQ(pid.kind, TracepointFieldKind::Scalar);
    EXPECT_FALSE(pid.is_pointer);
    EXPECT_EQ(pid.offset, 24u);
    EXPECT_EQ(pid.size, 4u);
    EXPECT_TRUE(pid.is_signed);
    const TracepointField &state = format.fields[3];
    EXPECT_EQ(state.type, "long");
    EXPECT_EQ(state.offset, 32u);
    EXPECT_EQ(state.size, 8u);
    EXPECT_EQ(format.fields[6].name, "next_prio");
    EXPECT_EQ(format.fields[6].offset, 60u);
}

TEST(TracefsFormat, DataLocString) {
    TracepointFormat format = parse(kSchedProcessExec);
    ASSERT_EQ(format.fields.size(), 3u);
    const TracepointField &filename = format.fields[0];
    EXPECT_EQ(filename.name, "filename");
    EXPECT_EQ(filename.type, "char");
    EXPECT_EQ(filename.kind, TracepointFieldKind::DataLoc);
    EXPECT_EQ(filename.offset, 8u);
    EXPECT_EQ(filename.size, 4u);
    EXPECT_EQ(format.fields[1].name, "pid");
    EXPECT_EQ(format.fields[2].name, "old_pid");
    EXPECT_EQ(format.fields[2].offset, 16u);
}

TEST(TracefsFormat, SyscallFieldsKeepTheirRecordSize) {
    TracepointFormat format = parse(test::kSysEnterOpenatFormat);
    ASSERT_EQ(format.fields.size(), 5u);
    EXPECT_EQ(format.fields[0].name, "__syscall_nr");
    EXPECT_EQ(format.fields[0].size, 4u);
    const TracepointField &dfd = format.fields[1];
    EXPECT_EQ(dfd.type, "int");
    EXPECT_EQ(dfd.size, 8u);
    EXPECT_FALSE(dfd.is_signed);
    const TracepointField &filename = format.fields[2];
    EXPECT_EQ(filename.name, "filename");
    EXPECT_EQ(filename.type, "const char *");
    EXPECT_TRUE(filename.is_pointer);
    EXPECT_EQ(filename.offset, 24u);
    EXPECT_EQ(format.fields[4].type, "umode_t");
}

TEST(TracefsFormat, PointerWithoutSpaceBeforeName) {
    TracepointFormat format =
        parse("name: x\n"
              "\tfield:const void* ip;\toffset:8;\tsize:8;\tsigned:0;\n"
              "\tfield:struct iocb * * iocbpp;\toffset:16;\tsize:8;\tsigned:0;\n");
    ASSERT_EQ(format.fields.size(), 2u);
    EXPECT_EQ(format.fields[0].name, "ip");
    EXPECT_EQ(format.fields[0].type, "const void*");
    EXPECT_TRUE(format.fields[0].is_pointer);
    EXPECT_EQ(format.fields[1].name, "iocbpp");
    EXPECT_EQ(format.fields[1].type, "struct iocb * *");
}

TEST(TracefsFormat, RelLocAndNonCharDataLoc) {
    TracepointFormat format =
        parse("name: x\n"
              "\tfield:__rel_loc char[] label;\toffset:8;\tsize:4;\tsigned:0;\n"
              "\tfield:__data_loc unsigned[] lengths;\toffset:12;\tsize:4;\tsigned:0;\n");
    ASSERT_EQ(format.fields.size(), 2u);
    EXPECT_EQ(format.fields[0].kind, TracepointFieldKind::RelLoc);
    EXPECT_EQ(format.fields[0].type, "char");
    EXPECT_EQ(format.fields[1].kind, TracepointFieldKind::DataLoc);
    EXPECT_EQ(format.fields[1].type, "unsigned");
}

TEST(TracefsFormat, DataLocOfACpumask) {
    // ipi:ipi_send_cpumask since Linux 6.6: a __cpumask() field names its type whole.
    TracepointFormat format =
        parse("name: ipi_send_cpumask\n"
              "\tfield:__data_loc cpumask_t cpumask;\toffset:8;\tsize:4;\tsigned:0;\n"
              "\tfield:void * callsite;\toffset:16;\tsize:8;\tsigned:0;\n");
    ASSERT_EQ(format.fields.size(), 2u);
    EXPECT_EQ(format.fields[0].kind, TracepointFieldKind::DataLoc);
    EXPECT_EQ(format.fields[0].type, "cpumask_t");
    EXPECT_EQ(format.fields[0].name, "cpumask");
    EXPECT_EQ(format.fields[1].name, "callsite");
}

TEST(TracefsFormat, ArrayBounds) {
    TracepointFormat format =
        parse("name: x\n"
              "\tfield:unsigned long caller[4];\toffset:8;\tsize:32;\tsigned:0;\n"
              "\tfield:char comm[TASK_COMM_LEN];\toffset:40;\tsize:16;\tsigned:1;\n"
              "\tfield:char buf[];\toffset:56;\tsize:0;\tsigned:1;\n");
    ASSERT_EQ(format.fields.size(), 3u);
    EXPECT_EQ(format.fields[0].type, "unsigned long");
    EXPECT_EQ(format.fields[0].array_count, 4u);
    EXPECT_EQ(format.fields[1].array_count, 16u); // a byte array: its size
    EXPECT_EQ(format.fields[2].kind, TracepointFieldKind::Array);
    EXPECT_EQ(format.fields[2].array_count, 0u);
}

TEST(TracefsFormat, FieldsNamedLikeAttributes) {
    TracepointFormat format = parse("name: x\n"
                                    "\tfield:size_t size;\toffset:8;\tsize:8;\tsigned:0;\n"
                                    "\tfield:int offset;\toffset:16;\tsize:4;\tsigned:1;\n");
    ASSERT_EQ(format.fields.size(), 2u);
    EXPECT_EQ(format.fields[0].name, "size");
    EXPECT_EQ(format.fields[0].offset, 8u);
    EXPECT_EQ(format.fields[0].size, 8u);
    EXPECT_EQ(format.fields[1].name, "offset");
    EXPECT_EQ(format.fields[1].offset, 16u);
    EXPECT_EQ(format.fields[1].size, 4u);
}

TEST(TracefsFormat, OldKernelsWithoutSigned) {
    TracepointFormat format = parse("name: x\n\tfield:int y;\toffset:8;\tsize:4;\n");
    ASSERT_EQ(format.fields.size(), 1u);
    EXPECT_FALSE(format.fields[0].is_signed);
}

TEST(TracefsFormat, FieldsAfterPrintFmtAreIgnored) {
    TracepointFormat format = parse("name: x\n"
                                    "print fmt: \"field:int y;\toffset:8;\tsize:4;\"\n");
    EXPECT_TRUE(format.fields.empty());
}

TEST(TracefsFormat, Errors) {
    EXPECT_EQ(parse_error("ID: 3\n"), "no 'name:' line");
    EXPECT_EQ(parse_error("name: x\nID: three\n"), "line 2: 'ID: three' is not an event ID");
    EXPECT_EQ(parse_error("name: x\n\tfield:int y;\tsize:4;\n"),
              "line 2: no 'offset:' number in 'field:int y;\tsize:4;'");
    EXPECT_EQ(parse_error("name: x\n\tfield:int y;\toffset:8;\tsize:four;\n"),
              "line 2: no 'size:' number in 'field:int y;\toffset:8;\tsize:four;'");
    EXPECT_EQ(parse_error("name: x\n\tfield:int;\toffset:8;\tsize:4;\n"),
              "line 2: no type for field 'int'");
    EXPECT_EQ(parse_error("name: x\n\tfield:int *;\toffset:8;\tsize:4;\n"),
              "line 2: no field name in 'int *'");
    EXPECT_EQ(parse_error("name: x\n\tfield:__data_loc y;\toffset:8;\tsize:4;\n"),
              "line 2: no type for field 'y'");
    EXPECT_EQ(parse_error("name: x\n\tfield:int y\toffset 8\n"),
              "line 2: no ';' after the declaration in 'field:int y\toffset 8'");
    EXPECT_EQ(parse_error("name: x\n\tfield:int y];\toffset:8;\tsize:4;\n"),
              "line 2: unbalanced ']' in 'int y]'");
}

} // namespace
} // namespace dtx::trace

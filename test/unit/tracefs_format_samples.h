// Format files of real tracepoints (Linux 6.18's tracefs), shared by the
// tests of the format parser and of the providers that read them.
#pragma once

namespace dtx::test {

// events/syscalls/sys_enter_openat/format: every argument stored as a u64,
// whatever its C type.
inline constexpr const char *kSysEnterOpenatFormat =
    "name: sys_enter_openat\n"
    "ID: 782\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"dfd: 0x%08lx, filename: 0x%08lx, flags: 0x%08lx, mode: 0x%08lx\", "
    "((unsigned long)(REC->dfd)), ((unsigned long)(REC->filename)), "
    "((unsigned long)(REC->flags)), ((unsigned long)(REC->mode))\n";

} // namespace dtx::test

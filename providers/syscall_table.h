// The x86-64 system call numbers, by the name of the kernel function that
// implements each call without its sys_ prefix. That is the name tracefs gives
// a call's events (syscalls/sys_enter_NAME), and where it differs from the
// call's name in the kernel's syscall table, this table uses it: number 4
// (stat) is sys_newstat, 5 newfstat, 6 newlstat, 40 (sendfile) sendfile64,
// 63 (uname) newuname, 166 (umount2) umount.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtx::providers {

// The number of the system call implemented by sys_NAME; nullopt for a name
// this table does not know (a call newer than Linux 6.18, or not x86-64's).
std::optional<uint32_t> x86_64_syscall_number(std::string_view name);

} // namespace dtx::providers

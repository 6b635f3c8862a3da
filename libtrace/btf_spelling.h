// C spellings of BTF types, for probe argument lists (`dtx -lv`) and messages:
// "struct task_struct *", "const char *", "unsigned long", "void (*)(void *)".
#pragma once

#include <cstdint>
#include <string>

struct btf;

namespace dtx::trace {

// Type `id` of `types` as C declares it, with the kernel's spellings of the
// base types normalized to D's ("long unsigned int" -> "unsigned long").
// Typedef names stay as they are ("u64", "pid_t", "bool").
std::string btf_type_spelling(const btf &types, uint32_t id);

} // namespace dtx::trace

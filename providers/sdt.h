// The sdt provider's argument types, and the provider over a tracefs of a
// test's making, exposed for tests.
#pragma once

#include "libtrace/probe.h"
#include "libtrace/tracefs_format.h"
#include "providers/provider.h"

#include <memory>
#include <string>
#include <vector>

namespace dtx::providers {

// args[0..] of an sdt probe from its event's fields (at most arg0..arg9):
// integers as int32_t, uint64_t... (or int, long... where the declared type is
// that base type), pointers as "void *", "char *" or "const char *", fixed
// arrays as "char [16]", "uint8_t [4]"..., __data_loc and __rel_loc char
// arrays and flexible char arrays as "string". For every array and string
// argN holds the data's kernel address in the record.
std::vector<trace::ProbeArgument> sdt_arguments(const trace::TracepointFormat &format);

// The sdt provider over the tracefs directory `tracefs_dir` (its
// available_events and events/GROUP/EVENT/format files) instead of the
// system's.
std::unique_ptr<Provider> make_sdt_provider(std::string tracefs_dir);

} // namespace dtx::providers

// Locating (or mounting) tracefs and reading tracepoint ids from it.
#pragma once

#include "libtrace/attach.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::trace {

// The directory where tracefs is mounted: /sys/kernel/tracing, or the tracing
// directory of a mounted debugfs, or wherever /proc/self/mounts says. When none
// is mounted, mounts tracefs on /sys/kernel/tracing (needs CAP_SYS_ADMIN); the
// error says exactly why that failed.
Result<std::string> find_or_mount_tracefs();

// The perf event id of tracepoint CATEGORY:EVENT (tracefs events/CATEGORY/EVENT/id).
Result<uint32_t> read_tracepoint_id(std::string_view tracefs_dir, std::string_view category,
                                    std::string_view event);

// The event names in tracefs events/CATEGORY, sorted.
Result<std::vector<std::string>> list_tracepoints(std::string_view tracefs_dir,
                                                  std::string_view category);

struct TracefsEvent {
    std::string category, event;
};

// Every event that can be enabled, from tracefs available_events (one read; its
// "CATEGORY:EVENT" lines omit the ftrace category, whose events take no BPF
// programs), in the kernel's order.
Result<std::vector<TracefsEvent>> list_available_events(std::string_view tracefs_dir);

// The text of tracefs events/CATEGORY/EVENT/format (libtrace/tracefs_format.h parses it).
Result<std::string> read_tracepoint_format(std::string_view tracefs_dir, std::string_view category,
                                           std::string_view event);

} // namespace dtx::trace

// dtx -l: the probes that a program's descriptions match (every probe when
// there is no program), one line each in dtrace's format, and with -v each
// probe's stability attributes and argument types.
#pragma once

#include "libtrace/error.h"
#include "session/program_sources.h"
#include "parser/ast.h"
#include "providers/provider.h"

#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace dtx::session {

// One probe description to list the matches of. As in dtrace, a bare number
// given with -n or -i names the probe with that ID instead.
struct ProbeFilter {
    providers::ProbePattern pattern;
    bool by_id = false; // pattern.name holds the ID's digits
    std::string text;   // as written, for messages
};

// The descriptions of every clause of `program`, in program order; `sources`
// tells which came from the command line.
std::vector<ProbeFilter> probe_filters(const ast::Program &program,
                                       std::span<const LoadedSource> sources);

// Lists the probes of `providers` that any of `filters` matches (all of them
// when there are none) on `out`, sorted by ID. IDs are those of the full
// listing whatever the filters: every provider lists its probes first. The
// error has a line per description that matched nothing (after the listing),
// or per unknown probe ID or malformed description (instead of it).
Status list_probes(std::span<const std::unique_ptr<providers::Provider>> providers,
                   std::span<const ProbeFilter> filters, bool verbose, FILE *out);

} // namespace dtx::session

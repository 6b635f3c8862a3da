// The io provider: block I/O requests issued to and completed by a device,
// as DTrace's io provider names them, on the block layer's tracepoints.
// args[] are bufinfo_t, devinfo_t and fileinfo_t pointers through the D
// library's translators from struct request (codegen/dlib/io.d).
#include "providers/registry.h"
#include "providers/stable.h"

namespace dtx::providers {

namespace {

std::vector<StableProbe> io_probes() {
    const std::vector<StableArgument> request{
        {"bufinfo_t *", "xlate <bufinfo_t *> ((struct request *)arg0)"},
        {"devinfo_t *", "xlate <devinfo_t *> ((struct request *)arg0)"},
        {"fileinfo_t *", "xlate <fileinfo_t *> ((struct request *)arg0)"}};
    const std::string no_wait_hook =
        "Linux has no tracepoint where a thread starts or stops waiting for its I/O "
        "(io_schedule needs kprobes)";
    return {
        {"start", "block_rq_issue", "", request},
        {"done", "block_rq_complete", "", request},
        {"wait-start", "", no_wait_hook, request},
        {"wait-done", "", no_wait_hook, request},
    };
}

} // namespace

std::unique_ptr<Provider> make_io_provider() {
    return make_stable_provider("io", io_probes());
}

} // namespace dtx::providers

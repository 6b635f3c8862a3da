#include "providers/registry.h"

namespace dtx::providers {

std::vector<std::unique_ptr<Provider>> make_providers(const ProviderContext &context) {
    std::vector<std::unique_ptr<Provider>> providers;
    providers.push_back(make_dtrace_provider()); // first: BEGIN, END, ERROR are IDs 1, 2, 3
    providers.push_back(make_profile_provider());
    // The stable providers' probes are a fixed list: their IDs come next.
    providers.push_back(make_proc_provider());
    providers.push_back(make_sched_provider());
    providers.push_back(make_io_provider());
    providers.push_back(make_syscall_provider());
    providers.push_back(make_sdt_provider());
    providers.push_back(make_rawtp_provider());
    providers.push_back(make_pid_provider(context));
    providers.push_back(make_usdt_provider(context));
    auto kernel_functions = context.kernel_functions ? context.kernel_functions
                                                     : std::make_shared<KernelFunctionCatalog>();
    providers.push_back(make_fbt_provider(kernel_functions));
    providers.push_back(make_kprobe_provider(kernel_functions));
    providers.push_back(make_fentry_provider(kernel_functions));
    return providers;
}

} // namespace dtx::providers

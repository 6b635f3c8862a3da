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
    providers.push_back(make_tcp_provider());
    providers.push_back(make_ip_provider());
    providers.push_back(make_udp_provider());
    providers.push_back(make_lockstat_provider());
    providers.push_back(make_syscall_provider());
    providers.push_back(make_sdt_provider());
    providers.push_back(make_rawtp_provider());
    providers.push_back(make_pid_provider(context));
    // The other providers' names, for the usdt provider to tell a glob
    // meant for them (s*, *) from one for the USDT providers of every process.
    auto names = std::make_shared<std::vector<std::string>>();
    providers.push_back(make_usdt_provider(context, names));
    auto kernel_functions = context.kernel_functions ? context.kernel_functions
                                                     : std::make_shared<KernelFunctionCatalog>();
    providers.push_back(make_fbt_provider(kernel_functions));
    providers.push_back(make_kprobe_provider(kernel_functions));
    providers.push_back(make_fentry_provider(kernel_functions));
    for (const auto &provider : providers)
        names->emplace_back(provider->name());
    names->emplace_back("tracepoint"); // sdt's alias
    return providers;
}

} // namespace dtx::providers

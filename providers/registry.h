// One factory per provider; make_providers() (registry.cpp) lists them.
#pragma once

#include "providers/kernel_function_probes.h"
#include "providers/provider.h"

namespace dtx::providers {

std::unique_ptr<Provider> make_dtrace_provider();
std::unique_ptr<Provider> make_profile_provider();
std::unique_ptr<Provider> make_syscall_provider();
std::unique_ptr<Provider> make_sdt_provider();
std::unique_ptr<Provider> make_rawtp_provider();
std::unique_ptr<Provider> make_proc_provider();
std::unique_ptr<Provider> make_sched_provider();
std::unique_ptr<Provider> make_io_provider();
std::unique_ptr<Provider> make_tcp_provider();
std::unique_ptr<Provider> make_ip_provider();
std::unique_ptr<Provider> make_udp_provider();
std::unique_ptr<Provider> make_lockstat_provider();
std::unique_ptr<Provider> make_pid_provider(const ProviderContext &context);
// `provider_names`: the registered providers' names (filled once all are made);
// a provider glob that matches one of them is not searched for in every process.
std::unique_ptr<Provider>
make_usdt_provider(const ProviderContext &context,
                   std::shared_ptr<const std::vector<std::string>> provider_names = nullptr);
std::unique_ptr<Provider> make_fbt_provider(std::shared_ptr<KernelFunctionCatalog> catalog);
std::unique_ptr<Provider> make_kprobe_provider(std::shared_ptr<KernelFunctionCatalog> catalog);
std::unique_ptr<Provider> make_fentry_provider(std::shared_ptr<KernelFunctionCatalog> catalog);

} // namespace dtx::providers

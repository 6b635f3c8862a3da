// One factory per provider; make_providers() (registry.cpp) lists them.
#pragma once

#include "providers/provider.h"

namespace dtx::providers {

std::unique_ptr<Provider> make_dtrace_provider();
std::unique_ptr<Provider> make_profile_provider();

} // namespace dtx::providers

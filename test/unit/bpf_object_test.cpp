#include "libtrace/bpf_object.h"

#include <gtest/gtest.h>

namespace {

using dtx::trace::kernel_limit;
using dtx::trace::KernelLimit;

dtx::Error rejected_with(std::vector<std::string> log) {
    dtx::Error error("rejected", dtx::ErrorKind::Failed, 7);
    error.subject = "dtx_begin";
    error.details = std::move(log);
    return error;
}

// The verifier's words (kernel/bpf/verifier.c) at the end of its log.
TEST(KernelLimit, NamedFromTheVerifiersLog) {
    EXPECT_EQ(kernel_limit(rejected_with({"BPF program is too large. Processed 1000001 insn",
                                          "processed 1000001 insns (limit 1000000) ..."})),
              KernelLimit::Instructions);
    EXPECT_EQ(kernel_limit(rejected_with({"The sequence of 8193 jumps is too complex."})),
              KernelLimit::Branches);
    EXPECT_EQ(kernel_limit(rejected_with({"too many subprograms"})), KernelLimit::Functions);
    EXPECT_EQ(kernel_limit(rejected_with(
                  {"The total number of maps per program has reached the limit of 64"})),
              KernelLimit::Maps);
    EXPECT_EQ(kernel_limit(rejected_with({"combined stack size of 3 calls is 544. Too large"})),
              KernelLimit::Stack);
}

TEST(KernelLimit, NoneForOtherRefusals) {
    EXPECT_EQ(kernel_limit(rejected_with({"R1 invalid mem access 'scalar'"})), KernelLimit::None);
    EXPECT_EQ(kernel_limit(rejected_with({})), KernelLimit::None);
}

} // namespace

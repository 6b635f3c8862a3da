// The rawtp provider's discovery and argument types: on a BTF object built
// here (btf_trace_ typedefs, parameter names from __traceiter_ functions,
// categories from tracefs), without BTF, and on the running kernel (its BTF,
// and the argument count found by attaching, which needs root).
#include "providers/rawtp.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <memory>

namespace dtx::providers {
namespace {

struct BtfDeleter {
    void operator()(btf *types) const { btf__free(types); }
};
using BtfPointer = std::unique_ptr<btf, BtfDeleter>;

// A vmlinux-like BTF with the tracepoints sched_process_exec (also in
// tracefs), pelt_cfs_tp (a bare DECLARE_TRACE) and a btf_trace_ typedef that
// is no tracepoint's.
class RawtpDiscovery : public ::testing::Test {
protected:
    void SetUp() override {
        btf *types = types_.get();
        ASSERT_TRUE(types);
        int int_type = btf__add_int(types, "int", 4, BTF_INT_SIGNED);
        pid_t_ = btf__add_typedef(types, "pid_t", int_type);
        task_pointer_ = btf__add_ptr(types, btf__add_struct(types, "task_struct", 0));
        int binprm_pointer = btf__add_ptr(types, btf__add_struct(types, "linux_binprm", 0));
        int void_pointer = btf__add_ptr(types, 0);
        cfs_rq_pointer_ = btf__add_ptr(types, btf__add_struct(types, "cfs_rq", 0));

        exec_prototype_ = btf__add_func_proto(types, 0);
        btf__add_func_param(types, nullptr, void_pointer);
        btf__add_func_param(types, nullptr, task_pointer_);
        btf__add_func_param(types, nullptr, pid_t_);
        btf__add_func_param(types, nullptr, binprm_pointer);
        btf__add_typedef(types, "btf_trace_sched_process_exec",
                         btf__add_ptr(types, exec_prototype_));
        int named = btf__add_func_proto(types, int_type);
        btf__add_func_param(types, "__data", void_pointer);
        btf__add_func_param(types, "p", task_pointer_);
        btf__add_func_param(types, "old_pid", pid_t_);
        btf__add_func_param(types, "bprm", binprm_pointer);
        btf__add_func(types, "__traceiter_sched_process_exec", BTF_FUNC_STATIC, named);

        pelt_prototype_ = btf__add_func_proto(types, 0);
        btf__add_func_param(types, nullptr, void_pointer);
        btf__add_func_param(types, nullptr, cfs_rq_pointer_);
        btf__add_typedef(types, "btf_trace_pelt_cfs_tp", btf__add_ptr(types, pelt_prototype_));

        // Not a raw tracepoint's shape: the first parameter is no void *.
        int odd = btf__add_func_proto(types, 0);
        btf__add_func_param(types, nullptr, int_type);
        btf__add_typedef(types, "btf_trace_odd", btf__add_ptr(types, odd));
    }

    BtfPointer types_{btf__new_empty()};
    int pid_t_ = 0, task_pointer_ = 0, cfs_rq_pointer_ = 0;
    int exec_prototype_ = 0, pelt_prototype_ = 0;
    std::vector<trace::TracefsEvent> events_ = {
        {"sched", "sched_process_exec"},
        {"syscalls", "sys_enter_openat"},
        {"kprobes", "my_probe"},
        {"irq", "irq_handler_entry"},
    };
};

TEST_F(RawtpDiscovery, TracepointsFromBtfInTheirTracefsCategory) {
    std::vector<RawTracepoint> found = find_raw_tracepoints(types_.get(), events_);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].category, "sched");
    EXPECT_EQ(found[0].event, "sched_process_exec");
    EXPECT_EQ(found[0].prototype, uint32_t(exec_prototype_));
    EXPECT_NE(found[0].named_prototype, 0u);
    EXPECT_EQ(found[1].category, kRawtpBareCategory);
    EXPECT_EQ(found[1].event, "pelt_cfs_tp");
    EXPECT_EQ(found[1].prototype, uint32_t(pelt_prototype_));
    EXPECT_EQ(found[1].named_prototype, 0u);
}

TEST_F(RawtpDiscovery, ArgumentsTypedByBtfAndNamedWhereKnown) {
    std::vector<RawTracepoint> found = find_raw_tracepoints(types_.get(), events_);
    ASSERT_EQ(found.size(), 2u);
    std::vector<trace::ProbeArgument> exec = rawtp_arguments(*types_, found[0]);
    ASSERT_EQ(exec.size(), 3u);
    EXPECT_EQ(exec[0].type, "struct task_struct *");
    EXPECT_EQ(exec[0].btf_id, uint32_t(task_pointer_));
    EXPECT_EQ(exec[0].name, "p");
    EXPECT_EQ(exec[1].type, "pid_t");
    EXPECT_EQ(exec[1].btf_id, uint32_t(pid_t_));
    EXPECT_EQ(exec[1].name, "old_pid");
    EXPECT_EQ(exec[2].type, "struct linux_binprm *");
    EXPECT_EQ(exec[2].name, "bprm");
    std::vector<trace::ProbeArgument> pelt = rawtp_arguments(*types_, found[1]);
    ASSERT_EQ(pelt.size(), 1u);
    EXPECT_EQ(pelt[0].type, "struct cfs_rq *");
    EXPECT_EQ(pelt[0].btf_id, uint32_t(cfs_rq_pointer_));
    EXPECT_EQ(pelt[0].name, "");
}

TEST_F(RawtpDiscovery, WithoutBtfTheTracefsEventsThatAreTracepoints) {
    std::vector<RawTracepoint> found = find_raw_tracepoints(nullptr, events_);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].category, "sched");
    EXPECT_EQ(found[0].event, "sched_process_exec");
    EXPECT_EQ(found[0].prototype, 0u);
    EXPECT_EQ(found[1].category, "irq");
    EXPECT_EQ(found[1].event, "irq_handler_entry");
}

// The running kernel's tracepoint (Linux >= 3.4 has it with these arguments).
TEST(RawtpKernel, SchedProcessExecFromVmlinuxBtf) {
    BtfPointer vmlinux(btf__load_vmlinux_btf());
    if (!vmlinux || libbpf_get_error(vmlinux.get())) {
        vmlinux.release();
        GTEST_SKIP() << "the kernel has no BTF";
    }
    std::vector<trace::TracefsEvent> events = {{"sched", "sched_process_exec"}};
    std::vector<RawTracepoint> found = find_raw_tracepoints(vmlinux.get(), events);
    auto exec = std::find_if(found.begin(), found.end(), [](const RawTracepoint &tracepoint) {
        return tracepoint.event == "sched_process_exec";
    });
    ASSERT_NE(exec, found.end());
    EXPECT_EQ(exec->category, "sched");
    std::vector<trace::ProbeArgument> arguments = rawtp_arguments(*vmlinux, *exec);
    ASSERT_EQ(arguments.size(), 3u);
    EXPECT_EQ(arguments[0].type, "struct task_struct *");
    EXPECT_EQ(arguments[0].name, "p");
    EXPECT_EQ(arguments[1].type, "pid_t");
    EXPECT_EQ(arguments[1].name, "old_pid");
    EXPECT_EQ(arguments[2].type, "struct linux_binprm *");
    EXPECT_EQ(arguments[2].name, "bprm");
    // The ids are vmlinux's: the pointer's target is struct task_struct.
    const btf_type *pointer = btf__type_by_id(vmlinux.get(), arguments[0].btf_id);
    ASSERT_TRUE(pointer && btf_is_ptr(pointer));
    const btf_type *task = btf__type_by_id(vmlinux.get(), pointer->type);
    ASSERT_TRUE(task);
    EXPECT_STREQ(btf__name_by_offset(vmlinux.get(), task->name_off), "task_struct");
}

TEST(RawtpKernel, ArgumentCountByAttaching) {
    if (geteuid() != 0)
        GTEST_SKIP() << "attaching raw tracepoints needs root";
    RawTracepointArgumentCounter counter;
    EXPECT_EQ(counter.count("sched_process_exec", 12), 3u);
    EXPECT_EQ(counter.count("sched_process_exec", 2), 2u);
    EXPECT_EQ(counter.count("sys_enter", 12), 2u); // raw_syscalls: regs, id
    EXPECT_EQ(counter.count("no_such_tracepoint_here", 12), std::nullopt);
}

} // namespace
} // namespace dtx::providers

// The sched provider: threads switched off and onto CPUs, woken and
// re-prioritised, as DTrace's sched provider names them, on the scheduler's
// tracepoints. Probes that fire in a context Linux has no tracepoint for are
// listed with the reason.
#include "providers/registry.h"
#include "providers/stable.h"

namespace dtx::providers {

namespace {

std::vector<StableArgument> thread_of(const char *task) {
    const std::string pointer = std::string("(struct task_struct *)") + task;
    return {{"lwpsinfo_t *", "xlate <lwpsinfo_t *> (" + pointer + ")"},
            {"psinfo_t *", "xlate <psinfo_t *> (" + pointer + ")"}};
}

std::vector<StableProbe> sched_probes() {
    std::vector<StableArgument> change_pri = thread_of("arg0");
    change_pri.push_back({"int", "arg1 ? ((struct task_struct *)arg1)->prio : "
                                 "((struct task_struct *)arg0)->normal_prio"});
    const std::string no_switch_hook =
        "it fires when the scheduler picks the thread that was running again, where Linux has "
        "no tracepoint (it needs kprobes on __schedule)";
    return {
        // sched_switch(preempt, prev, next, prev_state) runs in prev.
        {"off-cpu", "sched_switch", "", thread_of("arg2")},
        {"sleep",
         "sched_switch",
         "",
         {},
         [](TracepointFilter &f) {
             return f.ir().CreateICmpNE(f.ir().CreateAnd(f.argument(3), f.constant(0xffffffff)),
                                        f.constant(0));
         }},
        {"preempt",
         "sched_switch",
         "",
         {},
         [](TracepointFilter &f) {
             return f.ir().CreateICmpNE(f.ir().CreateAnd(f.argument(0), f.constant(1)),
                                        f.constant(0));
         }},
        {"wakeup", "sched_wakeup", "", thread_of("arg0")},
        {"change-pri", "sched_pi_setprio", "", change_pri},
        // In prev's context too, but about next: the clauses see next as the
        // current thread (pid, execname, curthread, self->).
        {"on-cpu",
         "sched_switch",
         "",
         {},
         nullptr,
         {"task_struct.pid", "task_struct.tgid", "task_struct.comm", "task_struct.cred", "cred.uid",
          "cred.gid"},
         [](TracepointFilter &f) { return f.argument(2); }},
        {"remain-cpu", "", no_switch_hook, {}},
        {"enqueue",
         "",
         "Linux has no tracepoint where a thread joins a run queue (enqueue_task needs kprobes)",
         {}},
        {"dequeue",
         "",
         "Linux has no tracepoint where a thread leaves a run queue (dequeue_task needs kprobes)",
         {}},
        {"tick",
         "",
         "the scheduler tick has no tracepoint (profile-N and tick-N sample instead)",
         {}},
        {"surrender",
         "",
         "Linux has no tracepoint where one CPU asks another to reschedule (resched_curr needs "
         "kprobes)",
         {}},
    };
}

} // namespace

std::unique_ptr<Provider> make_sched_provider() {
    return make_stable_provider("sched", sched_probes());
}

} // namespace dtx::providers

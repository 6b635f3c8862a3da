/* dtx-args: -lv */
/*
 * The stable providers' probes with their stability and argument types as
 * dtrace declares them; a probe that needs what Linux's tracepoints do not
 * give says why. (IDs vary with the kernel's tracepoints: only the
 * verbose blocks of three probes.)
 */
proc:::signal-send,
sched:::on-cpu,
sched:::enqueue,
io:::done
{
}

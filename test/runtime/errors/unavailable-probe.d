/*
 * A stable probe Linux has no tracepoint for is an error that says why,
 * never a clause that silently never fires.
 */
sched:::enqueue
{
	trace(cpu);
}

/* dtx-args: -q -c '@TRIGGER@ fork-exec 20 threads 50 sleep 100' */
/*
 * The scheduler's tracepoints fire in bursts with interrupts off, where the
 * kernel's allocator cannot always give a new aggregation key its per-CPU
 * memory at once; such a key goes to the spill map, and no drop is
 * reported (the empty .stderr) for an aggregation with room.
 */

sdt:sched::
{
	@[probename] = count();
	@[execname] = count();
	self->seen++;
	n++;
}

END
{
	printf("counted: %s\n", n > 100 ? "yes" : "no");
	trunc(@);
}

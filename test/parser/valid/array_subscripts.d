/* array subscripts: declared scalar arrays, associative arrays, args[], uregs[], string index keys and pointer indexing */

int hist[8];

syscall::read:entry
{
	hist[arg0 & 7]++;
	last[execname] = timestamp;
	this->c = ((char *)arg1)[0];
	this->argv = (char **)arg1;
	this->second = this->argv[1];
	@regs[uregs[R_SP] & 0xf] = count();
	this->n = hist[hist[0] & 7];
}

sdt:sched::sched_switch
{
	@states[args[3]] = count();	/* prev_state: sdt args[] are the event's fields */
	this->cc = args[0][0];		/* prev_comm[0] */
}

END
{
	printf("%d %d %d\n", hist[0], hist[1], hist[7]);
}

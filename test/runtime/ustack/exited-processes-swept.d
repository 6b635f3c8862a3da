/* dtx-args: -q -c 'sh exited-processes-swept.sh @TRIGGER@' */
/* dtx-timeout: 40 */
/*
 * In long runs dtx forgets the modules of exited processes every 10 s,
 * except those that aggregation keys still name: the stacks and the
 * function of a process that exited 22 s before they are printed (two
 * sweeps later: the first finds it gone, the second sweeps it) are named.
 */

syscall::getpid:entry
/ppid == $target && execname == "dtx-trigger"/
{
	@stacks[ustack()] = count();
	@functions[ufunc(uregs[R_PC])] = count();
}

END
{
	printa(@stacks);
	printa(@functions);
}

/* dtx-args: -q -c '@TRIGGER@ ustack 2 sleep 20' */
/*
 * clear() and trunc() act on every address a ufunc() key stands for: the
 * two addresses in trigger_ustack_inner are one key, and both are cleared or
 * removed.
 */

syscall::getpid:entry
/pid == $target/
{
	@cleared[ufunc(uregs[R_PC])] = count();
	@cleared[ufunc(uregs[R_PC] - 8)] = count();
	@removed[ufunc(uregs[R_PC])] = count();
	@removed[ufunc(uregs[R_PC] - 8)] = count();
}

END
{
	clear(@cleared);
	printa(@cleared);
	trunc(@removed);
	printa(@removed);
	printf("end\n");
}

/* dtx-args: -q -c '@TRIGGER@ ustack 1 sleep 20' */
/*
 * usym(), ufunc(), umod() and uaddr() as statements print their symbol, as
 * trace() of them does (dtrace's do the same).
 */

syscall::getpid:entry
/pid == $target/
{
	usym(uregs[R_PC]);
	ufunc(uregs[R_PC]);
	umod(uregs[R_PC]);
	uaddr(uregs[R_PC]);
	printf("\n");
	exit(0);
}

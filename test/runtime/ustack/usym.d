/* dtx-args: -q -c '@TRIGGER@ ustack 2 sleep 20' */
/*
 * usym() and ufunc() name the function, umod() the module, uaddr() the
 * function and offset; traced, each prints as dtrace's "  %-50s". As
 * aggregation keys, addresses in one function are one usym()/ufunc() key and
 * addresses in one module one umod() key.
 */

syscall::getpid:entry
/pid == $target/
{
	trace(usym(uregs[R_PC]));
	trace(ufunc(uregs[R_PC]));
	trace(umod(uregs[R_PC]));
	trace(uaddr(uregs[R_PC]));
	printf("\n%A|%x\n", uaddr(uregs[R_PC]), usym(uregs[R_PC]) == uregs[R_PC]);
	@f[ufunc(uregs[R_PC])] = count();
	@f[ufunc(uregs[R_PC] - 8)] = count();
	@m[umod(uregs[R_PC])] = count();
	@m[umod(uregs[R_PC] - 0x20)] = count();
	@a[uaddr(uregs[R_PC])] = count();
	@a[uaddr(uregs[R_PC] - 8)] = count();
}

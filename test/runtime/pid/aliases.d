/* dtx-args: -q -c '@TRIGGERS@/dtx-aliases 2' */
/*
 * A function with several names at one address has the one dtrace gives it:
 * a global or weak name before a local one (global and weak alike), then the
 * fewest leading underscores, then the first in byte order. The probe a
 * description names by an alias is that name's probe, and ufunc(), usym()
 * and ustack() name it the same way. dtx-aliases calls each function twice.
 */

pid$target:a.out:_go:entry,
pid$target:a.out:stay:entry,
pid$target:a.out:beta:entry,
pid$target:a.out:zz:entry
{
	@f[probefunc, ufunc(uregs[R_PC]), usym(uregs[R_PC])] = count();
	@s[ustack(1)] = count();
}

END
{
	printa("%-6s %A %A %@d\n", @f);
	printa(@s);
}

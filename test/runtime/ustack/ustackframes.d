/* dtx-args: -q -c '@TRIGGER@ ustack 1 sleep 20' */
/* The ustackframes option: ustack()'s depth when it is not given. */

#pragma D option ustackframes=2

syscall::getpid:entry
/pid == $target/
{
	ustack();
	printf("%k", ustack());
	@[ustack()] = count();
}

END
{
	printa("%k%@d\n", @);
}

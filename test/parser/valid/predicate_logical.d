/* predicates with !, &&, ||, ^^ and parentheses */

syscall::openat:entry
/!(pid == $pid)/
{
	@notme = count();
}

syscall::read:entry
/execname == "sshd" && arg2 > 0 || execname == "bash"/
{
	@reads[execname] = count();
}

syscall::write:entry
/(uid == 0) ^^ (gid == 0)/
{
	@mixed[uid, gid] = count();
}

syscall::close:entry
/!self->skip && (arg0 > 2 || arg0 < 0) && !!arg0/
{
	@closes = count();
}

syscall::kill:entry
/(pid != 0 && ((int)arg1 == 9 ^^ (int)arg1 == 15)) || !self->traced/
{
	printf("%s sent %d to %d\n", execname, (int)arg1, (int)arg0);
}

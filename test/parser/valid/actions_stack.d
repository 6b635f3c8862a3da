/* stack actions: stack(), stack(n), ustack(), ustack(n), ustack(n, strsize), as keys and as traced records */
/* dtx-args: -c '@TRIGGER@ getpid 1' */

profile-99
/arg0/
{
	@kernel[stack()] = count();
	@kernel5[stack(5)] = count();
}

profile-99
/arg1 && pid == $target/
{
	@user[ustack()] = count();
	@user5[ustack(5)] = count();
	@both[stack(3), ustack(5, 1024), execname] = count();
}

syscall::exit_group:entry
{
	stack();
	ustack(5);
	ustack(10, 512);
	printf("depth %d/%d\n", stackdepth, ustackdepth);
}

/* if and if/else with blocks, single statements, and a dangling else that binds to the nearest if */

syscall::read:return
{
	if (arg0 < 0) {
		@errors[errno] = count();
	} else {
		@bytes = sum(arg0);
	}

	if (arg0 == 0)
		@eof[execname] = count();

	if (arg0 > 0) @nonzero = count(); else @zero = count();

	if (arg0 > 0)
		if (arg0 > 4096)
			@big = count();
		else
			@small = count();

	if (self->traced) {
		printf("%s read %d\n", execname, arg0);
		self->traced = 0;
	}
}

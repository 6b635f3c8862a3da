/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 2 fail-open 1 open /etc/hostname 1' */
/*
 * The classic use: each openat's entry speculates what it knows, its return
 * commits the speculation when the call failed and discards it otherwise.
 * Only the failed open's records print, the clause of entry's first.
 * (nspec=8: each call has a speculation of its own, however late the
 * consumer frees the ones ended before.)
 */

#pragma D option nspec=8

syscall::openat:entry
/pid == $target/
{
	self->spec = speculation();
	speculate(self->spec);
	printf("openat(%s)\n", copyinstr(arg1));
}

syscall::openat:return
/self->spec/
{
	speculate(self->spec);
	printf("returned %d, errno %d\n", (int)arg1, errno);
}

syscall::openat:return
/self->spec && (int)arg1 < 0/
{
	commit(self->spec);
	self->spec = 0;
}

syscall::openat:return
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}

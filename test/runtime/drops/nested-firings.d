/* dtx-args: -q -c '@TRIGGER@ write 200000' */
/*
 * A probe that fires inside another's clauses (profile's timer interrupt
 * during a system call's clause) runs in a clause context of its own: the
 * interrupted clause finds its arguments as they were. Before, the profile
 * firing's arg0 (a kernel address) replaced write's file descriptor.
 */

syscall::write:entry
/pid == $target/
{
	before = arg0;
	this->s = strjoin(lltostr(arg0), lltostr(arg1));
	this->t = strjoin(this->s, lltostr(arg2));
	this->u = strjoin(this->t, this->s);
	changed += arg0 != before || arg0 != 100;
	writes++;
}

profile-4999
{
	@ticks = count();
	this->pc = arg0;
}

END
{
	printf("writes traced: %s\n", writes == 200000 ? "yes" : "no");
	printf("arguments changed under the clause: %d\n", changed);
	trunc(@ticks);
}

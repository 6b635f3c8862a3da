/* user memory access: copyinstr with and without a limit, copyin, copyinto into an alloca'd buffer */

struct timespec_in {
	long tv_sec;
	long tv_nsec;
};

syscall::openat:entry
{
	self->path = copyinstr(arg1);
	self->short_path = copyinstr(arg1, 16);
}

syscall::nanosleep:entry
{
	this->req = (struct timespec_in *)copyin(arg0, sizeof(struct timespec_in));
	printf("sleep %d.%09d\n", this->req->tv_sec, this->req->tv_nsec);
	this->copy = (struct timespec_in *)alloca(sizeof(struct timespec_in));
	copyinto(arg0, sizeof(struct timespec_in), this->copy);
	@secs = quantize(this->copy->tv_sec);
}

syscall::write:entry
/arg2 > 0/
{
	this->buf = (char *)copyin(arg1, arg2 < 64 ? arg2 : 64);
	printf("%s\n", stringof(this->buf));
}

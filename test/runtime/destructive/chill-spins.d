/* dtx-args: -q -w -c '@TRIGGER@ getpid 2' */
/*
 * chill(n) spins n nanoseconds in the probe, so the system call it fires
 * in lasts at least that long: 20 ms for the first getpid, half a second
 * (the most one call may spin) for the second. (timestamp is fixed for a
 * whole firing: the time is measured from entry to return.)
 */

BEGIN
{
	n = 0;
}

syscall::getpid:entry
/pid == $target/
{
	self->start = timestamp;
	chill(n++ == 0 ? 20000000 : 500000000);
}

syscall::getpid:return
/self->start/
{
	this->spent = timestamp - self->start;
	printf("getpid %d took at least %s: %d, less than a second: %d\n", n,
	    n == 1 ? "20 ms" : "500 ms", this->spent >= (n == 1 ? 20000000 : 500000000),
	    this->spent < 1000000000);
	self->start = 0;
}

ERROR
{
	printf("fault %d\n", arg4);
}

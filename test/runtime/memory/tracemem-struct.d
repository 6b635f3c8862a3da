/* dtx-args: -q -c '@TRIGGER@ nanosleep 1' */
/*
 * tracemem() of a struct: the trigger's nanosleep interval (1 microsecond)
 * copied in as a struct the script declares, with sizeof for the size,
 * and its first 9 bytes.
 */

struct interval {
	int64_t sec;
	int64_t nsec;
};

syscall::nanosleep:entry
/pid == $target/
{
	this->ts = (struct interval *)copyin(arg0, sizeof (struct interval));
	printf("%d s %d ns", this->ts->sec, this->ts->nsec);
	tracemem(this->ts, sizeof (struct interval));
	tracemem(this->ts, sizeof (struct interval), 9);
	printf("\n");
}

/* dtx-args: -q -x aggsize=4k -c '@TRIGGER@ getpid 400' */
/*
 * A keyed aggregation whose map is full drops each update of a new key, and
 * the drops are counted and reported once at the end: aggsize=4k gives the
 * map its least, 256 keys, and its spill map holds 64 more, so of 400
 * distinct keys 80 are dropped.
 */

syscall::getpid:entry
/pid == $target/
{
	@[i++] = count();
}

END
{
	trunc(@);
}

/* dtx-args: -q -x dynvarsize=1 -c '@TRIGGER@ getpid 1100' */
/*
 * An associative array whose map is full drops each store of a new key,
 * counted and reported at the end: dynvarsize=1 gives the map its least,
 * 1024 keys, so of 1100 distinct keys 76 are dropped.
 */

syscall::getpid:entry
/pid == $target/
{
	x[i++] = 1;
}

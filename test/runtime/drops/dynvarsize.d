/* dtx-args: -q -x dynvarsize=80k -c '@TRIGGER@ getpid 1100' */
/*
 * An associative array whose map is full drops each store of a new key,
 * counted and reported at the end: an element takes 80 bytes of
 * dynvarsize (its key, its value and 64 bytes of the kernel's), so 80k
 * hold 1024 keys and of 1100 distinct keys 76 are dropped.
 */

syscall::getpid:entry
/pid == $target/
{
	x[i++] = 1;
}

/* dtx-args: -q -c '@TRIGGER@ getpid 3' */
/* dtx-operands: getpid entry */
/* $1 and $$2 in a probe description stand for their text. */

syscall::$1:$$2
/pid == $target/
{
	@[probefunc, probename] = count();
}

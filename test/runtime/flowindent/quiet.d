/* dtx-args: -q -F -c '@TRIGGER@ getpid 1' */
/* dtx-cpu: 0 */
/*
 * -F with -q: dtrace still prints the flow heading and each probe's
 * function (flowindent wins over quiet there), but not the newline that
 * ends a record, which quiet leaves out.
 */

syscall::getpid:entry,
syscall::getpid:return
/pid == $target/
{
	printf("%s\n", probename);
}

/* dtx-args: -c '@TRIGGER@ getpid 2' */
/* dtx-cpu: 0 */
/* The CPU, ID and FUNCTION:NAME columns of a syscall probe (the trigger runs
   pinned to CPU 0 with dtx). */
syscall::getpid:entry
/pid == $target/
{
}

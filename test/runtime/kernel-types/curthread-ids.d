/* dtx-requires: btf */
/* dtx-args: -q -c '@TRIGGER@ getpid 1' */
/* Members of curthread and of the tasks it points to, read through chains of
   pointers, are the built-in variables' values. */

syscall::getpid:entry
/pid == $target/
{
	printf("%d %d %d %d\n", curthread->pid == tid, curthread->tgid == pid,
	    curthread->real_parent->tgid == ppid, curthread->group_leader->pid == pid);
	printf("%s %d\n", stringof(curthread->comm), sizeof(curthread->comm) == TASK_COMM_LEN);
	exit(0);
}

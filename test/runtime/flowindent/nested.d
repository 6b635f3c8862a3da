/* dtx-args: -F -c '@TRIGGERS@/dtx-funcs 2' */
/* dtx-cpu: 0 */
/* dtx-requires: uprobes */
/*
 * Flow indentation: two more columns inside each entry, two fewer at each
 * return: dtx_libc() calls getpid(), whose system call shows one level in.
 */

pid$target:a.out:dtx_libc:entry,
pid$target:a.out:dtx_libc:return
{
}

syscall::getpid:entry,
syscall::getpid:return
/pid == $target/
{
}

/* dtx-args: -q -c '@TRIGGER@ read ../data/known.txt 2' */
/* dtx-requires: kprobes btf */
/* Kernel types from BTF in a kernel function probe: curthread, chains of
   typed members through args[0], an enum constant and sizeof/offsetof. */
fbt::vfs_read:entry
/pid == $target/
{
	printf("%s %d %d %s %d\n", stringof(curthread->comm), curthread->tgid == pid,
	    args[0]->f_path.dentry->d_name.len, stringof(args[0]->f_path.dentry->d_name.name),
	    TASK_COMM_LEN);
	printf("%d %d\n", sizeof(args[0]->f_path) == sizeof(struct path),
	    offsetof(struct path, dentry));
}

/* dtx-args: -q -c '@TRIGGER@ read ../data/known.txt 4' */
/* dtx-requires: kprobes btf */
/* kprobes on vfs_read: its entry (registers typed from BTF), its return
   (arg1 = bytes read) and the instruction after its 5-byte ftrace call. */
kprobe::vfs_read:entry
/pid == $target/
{
	printf("entry %s %d\n", stringof(args[0]->f_path.dentry->d_name.name), arg2);
}

kprobe::vfs_read:return
/pid == $target/
{
	printf("return %d\n", arg1);
}

kprobe::vfs_read+0x5:entry
/pid == $target/
{
	@offset[probefunc] = count();
}

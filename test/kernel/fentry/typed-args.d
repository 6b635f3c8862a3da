/* dtx-args: -q -c '@TRIGGER@ read ../data/known.txt 3' */
/* dtx-requires: fentry */
/* BPF trampolines: BTF-typed arguments on entry and the typed return value
   of vfs_read (ssize_t) on return. */
fentry::vfs_read:entry
/pid == $target/
{
	printf("entry %s %d\n", stringof(args[0]->f_path.dentry->d_name.name), args[2]);
}

fentry::vfs_read:return
/pid == $target/
{
	printf("return %d\n", args[1]);
}

/* dtx-args: -q -c '@TRIGGER@ read ../data/known.txt 5' */
/* dtx-requires: kprobes btf */
/* vfs_read runs once per pread64 of the trigger: its entry sees the file and
   the size asked for (typed args from BTF), its return the 21 bytes read. */
fbt::vfs_read:entry
/pid == $target/
{
	printf("%s %s %d\n", probefunc, stringof(args[0]->f_path.dentry->d_name.name), args[2]);
}

fbt::vfs_read:return
/pid == $target/
{
	@returns[probefunc, probename, arg1, args[1]] = count();
}

/* dtx-args: -q -Z -c '@TRIGGER@ read ../data/known.txt 2' */
/* dtx-requires: kprobes btf */
/* -Z: the description naming no function is left out, the other runs. */
fbt::dtx_no_such_function:entry
{
	printf("never\n");
}

fbt::vfs_read:entry
/pid == $target/
{
	@reads = count();
}

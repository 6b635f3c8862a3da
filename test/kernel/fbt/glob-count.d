/* dtx-args: -q -c '@TRIGGER@ read ../data/known.txt 7' */
/* dtx-requires: kprobes btf */
/* The trigger opens the file (vfs_open), reads it 7 times and closes it. */
fbt::vfs_open:entry,
fbt::vfs_read:entry,
fbt::vfs_write:entry
/pid == $target/
{
	@[probefunc] = count();
}

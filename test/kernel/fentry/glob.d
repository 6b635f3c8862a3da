/* dtx-args: -q -c '@TRIGGER@ read ../data/known.txt 6' */
/* dtx-requires: fentry */
/* A few functions, a fentry program each:
   only vfs_read and vfs_open fire for the trigger. */
fentry::vfs_re*:entry,
fentry::vfs_open:entry,
fentry::vfs_write*:entry
/pid == $target/
{
	@[probefunc] = count();
}

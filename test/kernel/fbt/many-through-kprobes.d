/* dtx-args: -qv -c '@TRIGGER@ read ../data/known.txt 3' */
/* dtx-requires: kprobes btf */
/* dtx-timeout: 60 */
/* A glob of ~70 functions goes through kprobes (-v says why); the counts
   are those of the few the trigger calls. */
fbt::vfs_*:entry
/pid == $target/
{
	@[probefunc] = count();
}

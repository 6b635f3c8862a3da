/* dtx-args: -q -c '@TRIGGER@ read ../data/known.txt 3' */
/* dtx-requires: kprobes */
/* Kernel stacks from kprobes start at the probed function. */
kprobe::vfs_read:entry
/pid == $target/
{
	@[stack(3)] = count();
}

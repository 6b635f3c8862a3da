/* dtx-args: -q -c '@TRIGGER@ read ../data/known.txt 3' */
/* dtx-requires: fentry */
/* Kernel stacks from BPF trampolines start at the traced function (dtx's
   programs and the trampoline are left out); two functions, a program each. */
fentry::vfs_read:entry,
fentry::vfs_open:entry
/pid == $target/
{
	@[probefunc, stack(3)] = count();
}

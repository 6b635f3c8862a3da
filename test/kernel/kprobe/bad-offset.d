/* dtx-args: -q */
/* dtx-requires: kprobes btf */
/* vfs_read+1 is inside its first instruction. */
kprobe::vfs_read+0x1:entry
{
}

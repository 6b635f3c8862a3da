/* dtx-args: -q */
/* dtx-requires: kprobes btf */
fbt::dtx_no_such_function:entry
{
}

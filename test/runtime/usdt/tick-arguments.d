/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt 3' */
/* dtx-requires: uprobes */
/* Each operand form the compiler wrote in tick's note: registers of every
   width, memory at a displacement, a constant, a rip-relative global. */
dtxtest$target:::tick
{
	printf("%s:%s %d %d %s %d %d %d %d %d\n", probefunc, probename, arg0, arg1,
	    copyinstr(arg2), arg3, arg4, arg5, arg6, arg7);
}

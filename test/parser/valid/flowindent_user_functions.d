/* user function flow with the pid provider: globbed function names, entry/return pairs, flowindent and depth tracking */
/* dtx-args: -c '@TRIGGERS@/dtx-funcs' */
/* dtx-requires: uprobes */

#pragma D option flowindent

pid$target:a.out::entry
{
	self->depth++;
}

pid$target:a.out::return
/self->depth > 0/
{
	self->depth--;
}

pid$target:libc.so.6:str*:entry
/self->depth/
{
	@strfuncs[probefunc] = count();
}

pid$target:libc.so.6:mem[cps]*:entry
{
	@memfuncs[probefunc] = quantize(arg2);
}

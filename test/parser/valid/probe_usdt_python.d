/* USDT probes: python$target:::function-entry and function-return, with string arguments */
/* dtx-args: -c /usr/bin/python3.11 */
/* dtx-requires: uprobes python3.11 */

#pragma D option quiet

python$target:::function-entry
{
	self->depth++;
	printf("%*s-> %s:%s:%d\n", self->depth * 2, "",
	    basename(copyinstr(arg0)), copyinstr(arg1), arg2);
}

python$target:::function-return
/self->depth > 0/
{
	printf("%*s<- %s:%s\n", self->depth * 2, "",
	    basename(copyinstr(arg0)), copyinstr(arg1));
	self->depth--;
}

python*:::gc-start
{
	@gc[pid] = count();
}

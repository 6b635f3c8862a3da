/* dtx-args: -q -c '@TRIGGERS@/dtx-funcs 3' */
/* dtx-requires: uprobes */
/* Instruction probes: dtx_add is `lea (%rdi,%rsi,1),%eax` (3 bytes), then
   `ret` at 3. */
pid$target:a.out:dtx_add:0,
pid$target:a.out:dtx_add:3
{
	@[probename] = count();
}

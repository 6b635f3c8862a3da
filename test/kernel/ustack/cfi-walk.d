/* dtx-args: -q -c '@TRIGGER@ ustack 2 sleep 20' */
/*
 * ustack()'s walk from call-frame information on the guest's kernel (Debian
 * 12's 6.1, older than the host's): bpf_find_vma, task storage, the global
 * walk function and its bpf_loop as that verifier sees them. dtx-trigger's
 * ustack command makes its getpid from three functions in assembly whose
 * CFI is known (the outer one's return address undefined), so every frame
 * and offset is known; the program is static, so its one file's table is
 * built before tracing.
 */

syscall::getpid:entry
/pid == $target/
{
	ustack();
	@[ustack(2)] = count();
	printf("depth %d, caller %A\n", ustackdepth, ucaller);
}

/* dtx-args: -q -c '@TRIGGER@ ustack 1 sleep 20' */
/*
 * uregs[]: the user registers saved at the system call. dtx-trigger's ustack
 * command sets the argument registers to 1 .. 6 and makes getpid (39, in
 * orig_rax, slot 15: R_ERR) with %rsp equal to %rbp. i386's names are the
 * same registers.
 */

syscall::getpid:entry
/pid == $target/
{
	printf("rdi %d rsi %d rdx %d r10 %d r8 %d r9 %d\n", uregs[R_RDI], uregs[R_RSI],
	    uregs[R_RDX], uregs[R_R10], uregs[R_R8], uregs[R_R9]);
	printf("orig_rax %d, sp == fp %d, rcx == pc %d, rip == pc %d\n", uregs[15],
	    uregs[R_SP] == uregs[R_FP], uregs[R_RCX] == uregs[R_PC], uregs[R_RIP] == uregs[R_PC]);
	this->pc = R_PC;
	printf("%A\n", uaddr(uregs[this->pc]));
	printf("%s\n", ufunc(uregs[R_PC]) == uregs[R_PC] ? "ufunc is the address" : "?");
	printf("err %d edi %d esi %d, eip == pc %d, r0 == rax %d, esp == sp %d\n", uregs[R_ERR],
	    uregs[R_EDI], uregs[R_ESI], uregs[R_EIP] == uregs[R_PC], uregs[R_R0] == uregs[R_RAX],
	    uregs[R_ESP] == uregs[R_SP]);
}

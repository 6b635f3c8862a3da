/* dtx-args: -q -c '@TRIGGER@ ustack 1' */
/*
 * uregs[R_DS], [R_ES], [R_FS], [R_GS] and [R_TRAPNO], which pt_regs does not
 * hold, are the task's thread_struct ds, es, fsbase, gsbase and trap_nr, as
 * in dtrace-utils. The trigger's %fs base is its thread's TLS block, whose
 * first word (glibc's tcbhead_t.tcb) is that block's own address. A computed
 * index reaches them too, and still reaches pt_regs below them (the ustack
 * command sets %rdi to 1).
 */

syscall::getpid:entry
/pid == $target/
{
	printf("fs base is the TLS block: %d\n",
	    uregs[R_FS] != 0 && *(uint64_t *)copyin(uregs[R_FS], 8) == uregs[R_FS]);
	printf("ds %d es %d fs %d gs %d trapno %d\n",
	    uregs[R_DS] == curthread->thread.ds, uregs[R_ES] == curthread->thread.es,
	    uregs[R_FS] == curthread->thread.fsbase, uregs[R_GS] == curthread->thread.gsbase,
	    uregs[R_TRAPNO] == curthread->thread.trap_nr);
	this->fs = R_FS;
	this->es = R_ES;
	this->rdi = R_RDI;
	printf("computed: fs %d es %d rdi %d\n", uregs[this->fs] == uregs[R_FS],
	    uregs[this->es] == curthread->thread.es, uregs[this->rdi]);
}

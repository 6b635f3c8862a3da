#!/usr/sbin/dtx -s
/*
 * exitsnoop: every process that exits, how long it lived and why it ended.
 * Usage: exitsnoop.d                  (Ctrl-C to stop)
 *        dtx -s exitsnoop.d -c 'cmd'  (stops when cmd exits)
 * Columns: PID, PPID and COMM the process, AGE(ms) milliseconds since it
 *          started, REASON how it ended (exited, killed, dumped: proc:::exit's
 *          CLD_* code), its exit status or the signal that killed it.
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%7s %7s %-16s %9s %s\n", "PID", "PPID", "COMM", "AGE(ms)", "REASON");
}

/* Only the last thread's exit ends the process. */
proc:::exit
/curpsinfo->pr_nlwp <= 1/
{
	this->task = curthread;
	this->code = this->task->exit_code;
	printf("%7d %7d %-16s %9d %s %d\n", pid, ppid, execname,
	    (timestamp - curthread->start_time) / 1000000,
	    args[0] == CLD_EXITED ? "exited, status" :
	    args[0] == CLD_KILLED ? "killed by signal" :
	    args[0] == CLD_DUMPED ? "dumped core, signal" : "ended, code",
	    args[0] == CLD_EXITED ? (this->code >> 8) & 0xff : this->code & 0x7f);
}

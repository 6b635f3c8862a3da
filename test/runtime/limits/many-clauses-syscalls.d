/* dtx-args: -q -C -c '@TRIGGER@ getpid 20 write 30' */
/*
 * 200 clauses on the trigger's getpid and write calls, besides one on every
 * system call: one program dispatches on hundreds of probes through tables,
 * from blocks of inlined clauses.
 */

#define C10(c) c c c c c c c c c c
#define C100(c) C10(c) C10(c) C10(c) C10(c) C10(c) C10(c) C10(c) C10(c) C10(c) C10(c)

syscall:::entry
/pid == $target/
{
	calls++;
}

C100(syscall::getpid:entry /pid == $target/ { getpids++; })
C100(syscall::write:entry /pid == $target/ { writes++; })

END
{
	printf("%d %d %d\n", getpids, writes, calls >= 50);
}

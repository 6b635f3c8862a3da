/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/*
 * Faults of the scratch functions, each ending its clause and firing ERROR:
 * alloca() and copyin() of more than the scratch holds (out of scratch
 * space, DTRACEFLT_NOSCRATCH 5), copyin() and copyinto() from an unmapped
 * address (invalid address, DTRACEFLT_BADADDR 1).
 */

syscall::openat:entry
/pid == $target/
{
	this->n = 5000;
	this->p = alloca(this->n);
	printf("not reached\n");
}

syscall::openat:entry
/pid == $target/
{
	this->p = copyin(arg1, 5000);
	printf("not reached\n");
}

syscall::openat:entry
/pid == $target/
{
	this->p = copyin(8, 4);
	printf("not reached\n");
}

syscall::openat:entry
/pid == $target/
{
	copyinto(8, 4, alloca(4));
	printf("not reached\n");
}

syscall::openat:entry
/pid == $target/
{
	printf("the last clause runs\n");
}

ERROR
{
	printf("EPID %d: fault %d at 0x%x\n", arg1, arg4, arg5);
}

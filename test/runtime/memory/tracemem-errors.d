/* dtx-args: -q */
/*
 * tracemem()'s size is an integer constant from 1 to what a record holds
 * (D_TRACEMEM_SIZE); its address an integer or a pointer, not a string
 * (D_TRACEMEM_ADDR).
 */

BEGIN
{
	this->n = 16;
	this->p = (char *)alloca(16);
	tracemem(this->p, this->n);
	tracemem(this->p, 0);
	tracemem(this->p, 100000);
	tracemem("a string", 8);
	tracemem(this->p, 16, "sixteen");
	exit(0);
}

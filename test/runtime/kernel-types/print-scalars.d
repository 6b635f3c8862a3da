/* dtx-requires: btf */
/* dtx-args: -q */
/* print() shows a value with its type, as dtrace-utils does: integers in
   decimal, pointers in hex, chars quoted, strings quoted, a char array's
   chars one a line, enums by name. */

BEGIN
{
	print(1 + 2);
	print((char)'x');
	print((uint64_t)0);
	print("hello");
	print(curthread->comm);
	print((enum pid_type)1);
	print(TASK_COMM_LEN);
	print((void *)0);
	exit(0);
}

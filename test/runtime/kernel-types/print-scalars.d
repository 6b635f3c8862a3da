/* dtx-requires: btf */
/* dtx-args: -q */
/* print() shows a value with its type: integers in hex, chars quoted,
   strings and char arrays as strings, enums by name. */

BEGIN
{
	print(1 + 2);
	print((char)'x');
	print((uint64_t)0);
	print("hello");
	print(curthread->comm);
	print((enum pid_type)1);
	print(TASK_COMM_LEN);
	print((struct file *)0);
	exit(0);
}

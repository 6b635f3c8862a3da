/* D's scope holds the script's types only, not the kernel's. */
BEGIN
{
	trace(sizeof (struct D`task_struct));
}

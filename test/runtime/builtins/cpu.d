/* dtx-args: -q */
/* dtx-cpu: 0 */
/* cpu is a small number; BEGIN runs on the CPU dtx runs on. */

BEGIN
{
	printf("%d %d\n", cpu < 1024, cpu);
	exit(0);
}

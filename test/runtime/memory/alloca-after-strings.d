/*
 * Statements reuse the scratch of the strings before them, but alloca()'s
 * memory, first asked for after them, lies above every one: the strings do
 * not overwrite the count of what is allocated, set where the clause starts.
 */
#pragma D option quiet

BEGIN
{
	joined = strjoin("a string long enough to fill ", "the scratch where alloca() would be");
	upper = toupper(joined);
	p = (char *)alloca(8);
	p[0] = 'A';
	q = (char *)alloca(8);
	printf("%c %d %s\n", p[0], (uintptr_t)q - (uintptr_t)p, upper);
	exit(0);
}

/* dtx-args: -q */
/*
 * A global array of structs: members of elements indexed by constants and
 * by variables, an element copied whole onto another and changed after the
 * copy; an element never stored reads 0.
 */

struct pair {
	long key;
	int value;
	int spare;
};

struct pair table[4];

BEGIN
{
	table[0].key = 100;
	table[0].value = 1;
	n = 3;
	table[n].key = table[0].key * 2;
	table[n].value = table[0].value + 2;
	table[n - 1] = table[n];
	table[n - 1].value++;
	printf("%d %d %d %d %d %d\n", table[0].key, table[0].value, table[2].key, table[2].value,
	    table[3].key, table[3].value);
	printf("%d %d %d\n", table[1].key, sizeof (table), sizeof (table[1]));
	exit(0);
}

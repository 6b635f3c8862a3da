/* dtx-args: -q */
/*
 * Associative arrays keyed by strings, by a string built at run time, and by
 * a mix of strings and integers; string values (an element never assigned is
 * NULL).
 */

BEGIN
{
	count["read"] = 1;
	count["write"] = 2;
	k = strjoin("re", "ad");
	count[k] += 10;
	printf("%d %d %d\n", count["read"], count["write"], count["open"]);
	name[1, "a"] = "one-a";
	name[1, "b"] = "one-b";
	name[2, "a"] = "two-a";
	printf("%s %s %s %d\n", name[1, "a"], name[1, "b"], name[2, "a"], name[2, "b"] == NULL);
	name[1, "a"] = "changed";
	printf("%s\n", name[1, "a"]);
	exit(0);
}

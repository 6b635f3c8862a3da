/* dtx-args: -q */
/*
 * A string function that finds nothing gives NULL, which each kind of
 * variable keeps as NULL: it equals NULL and another NULL, and is not "".
 * Reading its characters (strlen, substr, s[i], printing it) is an invalid
 * address (0x0) that ends that clause alone; the probe's other clauses run.
 */

BEGIN
{
	g = strchr("abcdef", 'z');
	this->l = strstr("abcdef", "zz");
	self->t = strrchr("abcdef", 'q');
	a[7] = strchr("abcdef", 'z');
	e = "";
}

BEGIN
{
	printf("%d %d %d %d\n", g == NULL, this->l == NULL, self->t == NULL, a[7] == NULL);
	printf("%d %d %d %d\n", g == this->l, NULL != a[7], e == NULL, e != NULL);
	g2 = g;
	printf("%d %d\n", g2 == NULL, strchr("abc", 'b') == NULL);
}

BEGIN { printf("%d\n", strlen(g)); }
BEGIN { printf("%s\n", substr(this->l, 1)); }
BEGIN { printf("%c\n", self->t[0]); }
BEGIN { printf("%s\n", a[7]); }
BEGIN { trace(strlen(0)); }
BEGIN { trace(strtok("a,b", NULL)); }

BEGIN
{
	printf("still running\n");
	exit(0);
}

ERROR
{
	printf("fault %d at %d\n", arg4, arg5);
}

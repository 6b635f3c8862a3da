/* string literals with every escape: \n \t \\ \" \a \b \f \r \v \0 octal \123 \7 hex \x41 \x7e, and the empty string */

BEGIN
{
	printf("newline\n");
	printf("tab\there\n");
	printf("backslash \\ and quote \" inside\n");
	printf("bell\a backspace\b formfeed\f return\r vtab\v\n");
	printf("nul\0after nul is cut\n");
	printf("octal \123\124\125 and \7 and \101\n");
	printf("hex \x41\x42\x43 and \x7e\n");
	printf("percent %% and mixed \t\\\"\n");
	s = "";
	t = "single 'quotes' need no escape";
	u = "\\n is not a newline here";
	printf("%s|%s|%s\n", s, t, u);
	exit(0);
}

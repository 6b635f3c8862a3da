/* block and line comments everywhere: between clauses, in predicates, in bodies, after statements, multi-line */

/*
 * A multi-line block comment
 * with a * and a / inside, but no nested opener.
 */

// a line comment at the outer scope
syscall::read:entry /* after the description */
/pid != 0/ // after the predicate
{
	/* at the start of the body */
	x = 1; // after a statement
	y = /* in the middle of an expression */ 2;
	z = x / y; // a division, not a comment
	w = x /* c */ + /* d */ y;
	// trace(ignored);
	/* trace(also ignored); */
}

/**/
END
{
	printf("%d %d %d %d\n", x, y, z, w); /* trailing */
}
// last line comment without a newline at the end of the file
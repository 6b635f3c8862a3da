/* empty statements: lone semicolons, several in a row, around statements and as the whole body */

BEGIN
{
	;
}

syscall::read:entry
{
	;;
	x = 1;;
	;y = 2;
	;
}

syscall::write:entry
{ ; ; ; }

END
{
	printf("%d %d\n", x, y);;
}

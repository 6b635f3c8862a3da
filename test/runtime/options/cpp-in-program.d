/*
 * The preprocessor's options cannot be set from inside a D program (it has
 * been read already): dtrace's "Option cannot be used from within a D
 * program".
 */

#pragma D option define=X

BEGIN
{
	exit(0);
}

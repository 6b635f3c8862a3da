/*
 * Without errtags: dtx's own form, file:line:column, the source line and a
 * caret, the tag at the end.
 */

BEGIN
{
	x = ;
}

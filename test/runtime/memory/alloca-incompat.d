/*
 * A variable holds alloca() pointers or other pointers, never both (NULL
 * goes anywhere); ?: of an alloca() pointer and another is not an alloca()
 * pointer; copyinto() writes only into alloca() memory. All found when the
 * script compiles.
 */
BEGIN
{
	buffer = (char *)alloca(8);
	buffer = NULL;
	task = (char *)curthread;
	this->mixed = (char *)alloca(8);
}

BEGIN
{
	buffer = task + 5;
	task = (char *)alloca(4);
	this->mixed = buffer == NULL ? (char *)50 : this->mixed;
	copyinto(0, 1, task);
	copyinto(0, 1, (char *)curthread);
	copyinto(0, 1, "");
}

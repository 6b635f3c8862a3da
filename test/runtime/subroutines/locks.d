/* dtx-args: -q */
/*
 * mutex_owned(), mutex_owner(), mutex_type_adaptive(), mutex_type_spin(),
 * rw_read_held(), rw_write_held() and rw_iswriter() read the lock's words as
 * Linux lays them out: locks built in alloca'd memory, free, owned by this
 * thread (with a flag bit set), by another task, held by two readers, by a
 * writer, and waited for by a writer. A pointer that cannot be read is a
 * free lock.
 */

BEGIN
{
	m = (struct mutex *)alloca(sizeof (struct mutex));
	printf("free: %d %d %d %d\n", mutex_owned(m), mutex_owner(m) == NULL,
	    mutex_type_adaptive(m), mutex_type_spin(m));
	m->owner.counter = (long)curthread | 1;
	printf("mine: %d %d\n", mutex_owned(m), mutex_owner(m) == curthread);
	printf("pid: %d\n", mutex_owner(m)->pid == pid);
	m->owner.counter = (long)curthread->real_parent;
	printf("another's: %d %d\n", mutex_owned(m), mutex_owner(m) == curthread->real_parent);

	r = (rwlock_t *)alloca(sizeof (rwlock_t));
	printf("free: %d %d %d\n", rw_read_held(r), rw_write_held(r), rw_iswriter(r));
	r->raw_lock.cnts.counter = 2 << 9;
	printf("readers: %d %d %d\n", rw_read_held(r), rw_write_held(r), rw_iswriter(r));
	r->raw_lock.cnts.counter = 0xff;
	printf("writer: %d %d %d\n", rw_read_held(r), rw_write_held(r), rw_iswriter(r));
	r->raw_lock.cnts.counter = (1 << 9) | 0x100;
	printf("reader, writer waiting: %d %d %d\n", rw_read_held(r), rw_write_held(r),
	    rw_iswriter(r));

	printf("unreadable: %d %d %d\n", mutex_owned((struct mutex *)8),
	    mutex_owner((struct mutex *)8) == NULL, rw_read_held((rwlock_t *)8));
	exit(0);
}

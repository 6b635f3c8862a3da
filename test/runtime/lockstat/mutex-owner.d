/* dtx-args: -q -c '@TRIGGER@ contend 1000' */
/*
 * mutex_owned() and mutex_owner() on real contended mutexes: the trigger's
 * threads contend for one pipe's mutex, and adaptive-spin and adaptive-block
 * fire once the waiting thread has the mutex, so it owns it then. Firings on
 * several CPUs race on globals, so clauses only ever store 1.
 */

lockstat:::adaptive-spin,
lockstat:::adaptive-block
/pid == $target/
{
	seen = 1;
}

lockstat:::adaptive-spin,
lockstat:::adaptive-block
/pid == $target && (!mutex_owned(args[0]) || mutex_owner(args[0]) != curthread ||
    mutex_owner(args[0])->pid != tid || !mutex_type_adaptive(args[0]) ||
    mutex_type_spin(args[0]))/
{
	bad = 1;
}

END
{
	printf("mutex waits seen: %s\n", seen ? "yes" : "no");
	printf("each owned by the thread that waited: %s\n", !bad ? "yes" : "no");
}

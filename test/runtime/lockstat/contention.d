/* dtx-args: -q -c '@TRIGGER@ contend 1000' */
/*
 * lockstat on lock:contention_begin/end: the trigger's threads contend for
 * one pipe's mutex (adaptive-spin, or adaptive-block once they sleep), the
 * spinlocks of its wait queues (spin-spin) and one file's inode lock, which
 * appends take as writers (rw-block; threads also wait for the mmap lock
 * as readers). Each probe gives the lock, typed, and
 * how long the thread waited; which kinds of wait a machine sees depends on
 * its CPUs, so every firing is checked and only the mutex waits required.
 * Firings on several CPUs race on globals, so clauses only ever store 1
 * (a count could lose updates; a lost store of 1 loses nothing).
 */

lockstat:::adaptive-spin,
lockstat:::adaptive-block
/pid == $target/
{
	mutex = 1;
}

/* args[0] is a struct mutex *: its owner is a member */
lockstat:::adaptive-spin,
lockstat:::adaptive-block
/pid == $target && !(args[0] != NULL && args[1] > 0 &&
    args[1] < 10000000000 && sizeof (args[0]->owner) == 8)/
{
	mutex_bad = 1;
}

lockstat:::spin-spin
/pid == $target && !(args[0] != NULL && args[1] > 0 &&
    args[1] < 10000000000 && sizeof (*args[0]) > 0)/
{
	spin_bad = 1;
}

lockstat:::rw-block
/pid == $target && !(args[0] != NULL && args[1] > 0 &&
    (args[2] == 0 || args[2] == 1) && sizeof (args[0]->count) == 8)/
{
	rw_bad = 1;
}

END
{
	printf("mutex waits seen: %s\n", mutex ? "yes" : "no");
	printf("each with its lock and time: %s\n", !mutex_bad ? "yes" : "no");
	printf("spin-spin with lock and time: %s\n", !spin_bad ? "yes" : "no");
	printf("rw-block, reader or writer, with time: %s\n", !rw_bad ? "yes" : "no");
}

/* The semaphore-guarded probe of dtx-usdt, in a file of its own because
 * <sys/sdt.h> gives every probe of a translation unit that defines
 * _SDT_HAS_SEMAPHORES a semaphore, and dtx-usdt's other probes have none.
 *
 *   dtxtest:::guarded   arg0 = value (int)
 *
 * The kernel increments the semaphore while a uprobe is attached to a
 * probe site that names it, so the probe's body (and the work of computing
 * its arguments) runs only while the probe is traced. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short dtxtest_guarded_semaphore __attribute__((unused))
__attribute__((section(".probes")));

int dtxtest_fire_guarded(int value);

/* Returns whether the probe's body ran. The read is volatile because the
 * kernel writes the semaphore behind the compiler's back. */
int dtxtest_fire_guarded(int value) {
    if (*(volatile unsigned short *)&dtxtest_guarded_semaphore == 0)
        return 0;
    STAP_PROBE1(dtxtest, guarded, value);
    return 1;
}

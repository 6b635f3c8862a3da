/* dtx-args: -q -C */
/*
 * Real glibc headers, preprocessed as dtrace preprocesses them (strict C99,
 * no __GNUC__), then their macros and types used from D. <stdio.h> brings
 * prototypes with restrict and va_list parameters, <unistd.h> array
 * parameters (char *const argv[]), <sys/socket.h> a flexible array member;
 * <stdint.h> and <sys/types.h> repeat typedefs D already has (uint32_t,
 * pid_t).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <time.h>
#include <errno.h>
#include <endian.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>

uint32_t word;
int32_t low;

BEGIN
{
	word = UINT32_MAX;
	low = INT32_MIN;
	printf("EINVAL=%d ENOENT=%d SIGKILL=%d EXIT_FAILURE=%d\n", EINVAL, ENOENT,
	    SIGKILL, EXIT_FAILURE);
	printf("word=%u low=%d sizeof(uint32_t)=%d sizeof(pid_t)=%d\n", word, low,
	    sizeof (uint32_t), sizeof (pid_t));
	printf("little-endian=%d sizeof(FILE)=%d sizeof(fpos_t)=%d\n",
	    __BYTE_ORDER == __LITTLE_ENDIAN, sizeof (FILE), sizeof (fpos_t));
	printf("STDERR_FILENO=%d SOCK_DGRAM=%d\n", STDERR_FILENO, SOCK_DGRAM);
	exit(0);
}

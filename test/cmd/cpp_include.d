#!/usr/sbin/dtx -Cs
/* Uses the C preprocessor: an include, a macro with an argument, -D values. */
#include "syscount.h"

syscall::TARGET_CALL:entry
/pid != LIMIT/
{
	COUNT_IT(execname);
}

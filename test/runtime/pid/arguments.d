/* dtx-args: -q -c '@TRIGGERS@/dtx-funcs 2' */
/* dtx-requires: uprobes */
/* Entry arguments in registers and, past the sixth, on the stack; return
   values in arg1. */
pid$target:a.out:dtx_add:entry { printf("add(%d, %d)\n", arg0, arg1); }
pid$target:a.out:dtx_add:return { printf("add returned %d\n", arg1); }
pid$target:a.out:dtx_scale:entry { printf("scale(%d, %d)\n", arg0, arg1); }
pid$target:a.out:dtx_eight:entry
{
	printf("eight(%d, %d, %d, %d, %d, %d, %d, %d)\n", arg0, arg1, arg2, arg3, arg4, arg5,
	    arg6, arg7);
}
pid$target:a.out:dtx_eight:return { printf("eight returned %d\n", arg1); }

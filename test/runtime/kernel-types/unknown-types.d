/* dtx-requires: btf */
/* Struct, union and enum tags that neither the script nor the kernel's BTF
   defines are errors, each suggesting a tag of that kind that exists. */

struct task_structt *t;

BEGIN
{
	trace((struct filez *)0);
	trace(sizeof(enum pid_typ));
	trace(sizeof(union dtx_no_such_union));
}

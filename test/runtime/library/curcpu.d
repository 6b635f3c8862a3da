/* dtx-args: -q */
/*
 * curcpu points at the firing CPU's cpuinfo_t: cpu_id is cpu on every CPU
 * the profile probe fires on; Linux has no processor sets (cpu_pset 0);
 * chip, lgrp and pset are Solaris's inlines over it. A copy (*curcpu) has
 * the same members. The probe fires on every CPU at once, so clauses only
 * ever store 1 to globals (counts could lose updates).
 */

profile-997
{
	fired = 1;
	@cpus[curcpu->cpu_id == cpu ? "matching" : "other"] = count();
}

profile-997
/curcpu->cpu_id != cpu/
{
	differs = 1;
}

profile-997
{
	this->c = *curcpu;
}

profile-997
/this->c.cpu_id != cpu || this->c.cpu_chip != chip ||
    this->c.cpu_lgrp != lgrp/
{
	copy_differs = 1;
}

profile-997
/!(pset == 0 && chip >= 0 && lgrp >= 0 && curcpu->cpu_pset == 0)/
{
	insane = 1;
}

tick-300ms
{
	exit(0);
}

END
{
	printf("fired: %s\n", fired ? "yes" : "no");
	printf("cpu_id is cpu: %s\n", !differs ? "yes" : "no");
	printf("copy agrees: %s\n", !copy_differs ? "yes" : "no");
	printf("pset 0, chip and lgrp set: %s\n", !insane ? "yes" : "no");
	printf("type:\n");
	print(curcpu->cpu_pset);
	printa("%s\n", @cpus);
}

/* dtx-args: -q */
/*
 * curcpu points at the firing CPU's cpuinfo_t: cpu_id is cpu on every CPU
 * the profile probe fires on; Linux has no processor sets (cpu_pset 0);
 * chip, lgrp and pset are Solaris's inlines over it. A copy (*curcpu) has
 * the same members.
 */

profile-997
{
	fired++;
	same += curcpu->cpu_id == cpu;
	c = *curcpu;
	copied += c.cpu_id == cpu && c.cpu_chip == chip && c.cpu_lgrp == lgrp;
	sane += pset == 0 && chip >= 0 && lgrp >= 0 && curcpu->cpu_pset == 0;
	@cpus[curcpu->cpu_id == cpu ? "matching" : "other"] = count();
}

tick-300ms
{
	exit(0);
}

END
{
	printf("fired: %s\n", fired > 0 ? "yes" : "no");
	printf("cpu_id is cpu: %s\n", same == fired ? "yes" : "no");
	printf("copy agrees: %s\n", copied == fired ? "yes" : "no");
	printf("pset 0, chip and lgrp set: %s\n", sane == fired ? "yes" : "no");
	printf("type: ");
	print(curcpu->cpu_pset);
	printf("\n");
	printa("%s\n", @cpus);
}

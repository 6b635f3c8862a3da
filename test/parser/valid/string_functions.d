/* string functions: strjoin substr strlen basename dirname index rindex strchr strrchr strstr strtok lltostr toupper tolower */

syscall::openat:entry
{
	this->path = copyinstr(arg1);
	this->len = strlen(this->path);
	this->full = strjoin(strjoin(cwd, "/"), this->path);
	this->head = substr(this->path, 0, 8);
	this->tail = substr(this->path, 4);
	this->neg = substr(this->path, -3, 2);
	this->base = basename(this->path);
	this->dir = dirname(this->path);
	this->first_slash = index(this->path, "/");
	this->next_slash = index(this->path, "/", 1);
	this->last_slash = rindex(this->path, "/");
	this->from_dot = strchr(this->path, '.');
	this->ext = strrchr(this->path, '.');
	this->lib = strstr(this->path, "lib");
	this->tok = strtok(this->path, "/");
	this->more = strtok(NULL, "/");
	this->num = lltostr(pid);
	this->hex = lltostr(arg2, 16);
	this->up = toupper(execname);
	this->down = tolower(this->ext);
	@names[this->base, this->up] = count();
	printf("%s %d %s %s %s\n", this->full, this->len, this->head, this->num, this->down);
}

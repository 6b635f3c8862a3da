#!/usr/sbin/dtx -s
/*
 * errinfo: every system call that fails, with the error's name and its
 * description.
 * Usage: errinfo.d                  (Ctrl-C to stop)
 *        dtx -s errinfo.d -c 'cmd'  (stops when cmd exits)
 * Columns: PID and EXEC the process, SYSCALL the call that failed, ERR the
 *          errno, NAME its symbolic name (ENOENT...), DESC its description.
 */
#pragma D option quiet
#pragma D option switchrate=10hz

BEGIN
{
	printf("%7s %-16s %-16s %3s %-12s %s\n", "PID", "EXEC", "SYSCALL", "ERR", "NAME", "DESC");
}

/*
 * Linux's error numbers, by the D library's errno constants, a few to a clause
 * (a clause's string scratch space is limited).
 */
BEGIN
{
	errname[EPERM] = "EPERM";
	errdesc[EPERM] = "Operation not permitted";
	errname[ENOENT] = "ENOENT";
	errdesc[ENOENT] = "No such file or directory";
	errname[ESRCH] = "ESRCH";
	errdesc[ESRCH] = "No such process";
	errname[EINTR] = "EINTR";
	errdesc[EINTR] = "Interrupted system call";
	errname[EIO] = "EIO";
	errdesc[EIO] = "Input/output error";
	errname[ENXIO] = "ENXIO";
	errdesc[ENXIO] = "No such device or address";
	errname[E2BIG] = "E2BIG";
	errdesc[E2BIG] = "Argument list too long";
	errname[ENOEXEC] = "ENOEXEC";
	errdesc[ENOEXEC] = "Exec format error";
	errname[EBADF] = "EBADF";
	errdesc[EBADF] = "Bad file descriptor";
	errname[ECHILD] = "ECHILD";
	errdesc[ECHILD] = "No child processes";
	errname[EAGAIN] = "EAGAIN";
	errdesc[EAGAIN] = "Resource temporarily unavailable";
	errname[ENOMEM] = "ENOMEM";
	errdesc[ENOMEM] = "Cannot allocate memory";
}

BEGIN
{
	errname[EACCES] = "EACCES";
	errdesc[EACCES] = "Permission denied";
	errname[EFAULT] = "EFAULT";
	errdesc[EFAULT] = "Bad address";
	errname[ENOTBLK] = "ENOTBLK";
	errdesc[ENOTBLK] = "Block device required";
	errname[EBUSY] = "EBUSY";
	errdesc[EBUSY] = "Device or resource busy";
	errname[EEXIST] = "EEXIST";
	errdesc[EEXIST] = "File exists";
	errname[EXDEV] = "EXDEV";
	errdesc[EXDEV] = "Invalid cross-device link";
	errname[ENODEV] = "ENODEV";
	errdesc[ENODEV] = "No such device";
	errname[ENOTDIR] = "ENOTDIR";
	errdesc[ENOTDIR] = "Not a directory";
	errname[EISDIR] = "EISDIR";
	errdesc[EISDIR] = "Is a directory";
	errname[EINVAL] = "EINVAL";
	errdesc[EINVAL] = "Invalid argument";
	errname[ENFILE] = "ENFILE";
	errdesc[ENFILE] = "Too many open files in system";
	errname[EMFILE] = "EMFILE";
	errdesc[EMFILE] = "Too many open files";
}

BEGIN
{
	errname[ENOTTY] = "ENOTTY";
	errdesc[ENOTTY] = "Inappropriate ioctl for device";
	errname[ETXTBSY] = "ETXTBSY";
	errdesc[ETXTBSY] = "Text file busy";
	errname[EFBIG] = "EFBIG";
	errdesc[EFBIG] = "File too large";
	errname[ENOSPC] = "ENOSPC";
	errdesc[ENOSPC] = "No space left on device";
	errname[ESPIPE] = "ESPIPE";
	errdesc[ESPIPE] = "Illegal seek";
	errname[EROFS] = "EROFS";
	errdesc[EROFS] = "Read-only file system";
	errname[EMLINK] = "EMLINK";
	errdesc[EMLINK] = "Too many links";
	errname[EPIPE] = "EPIPE";
	errdesc[EPIPE] = "Broken pipe";
	errname[EDOM] = "EDOM";
	errdesc[EDOM] = "Numerical argument out of domain";
	errname[ERANGE] = "ERANGE";
	errdesc[ERANGE] = "Numerical result out of range";
	errname[EDEADLK] = "EDEADLK";
	errdesc[EDEADLK] = "Resource deadlock avoided";
	errname[ENAMETOOLONG] = "ENAMETOOLONG";
	errdesc[ENAMETOOLONG] = "File name too long";
}

BEGIN
{
	errname[ENOLCK] = "ENOLCK";
	errdesc[ENOLCK] = "No locks available";
	errname[ENOSYS] = "ENOSYS";
	errdesc[ENOSYS] = "Function not implemented";
	errname[ENOTEMPTY] = "ENOTEMPTY";
	errdesc[ENOTEMPTY] = "Directory not empty";
	errname[ELOOP] = "ELOOP";
	errdesc[ELOOP] = "Too many levels of symbolic links";
	errname[ENOMSG] = "ENOMSG";
	errdesc[ENOMSG] = "No message of desired type";
	errname[EIDRM] = "EIDRM";
	errdesc[EIDRM] = "Identifier removed";
	errname[ECHRNG] = "ECHRNG";
	errdesc[ECHRNG] = "Channel number out of range";
	errname[EL2NSYNC] = "EL2NSYNC";
	errdesc[EL2NSYNC] = "Level 2 not synchronized";
	errname[EL3HLT] = "EL3HLT";
	errdesc[EL3HLT] = "Level 3 halted";
	errname[EL3RST] = "EL3RST";
	errdesc[EL3RST] = "Level 3 reset";
	errname[ELNRNG] = "ELNRNG";
	errdesc[ELNRNG] = "Link number out of range";
	errname[EUNATCH] = "EUNATCH";
	errdesc[EUNATCH] = "Protocol driver not attached";
}

BEGIN
{
	errname[ENOCSI] = "ENOCSI";
	errdesc[ENOCSI] = "No CSI structure available";
	errname[EL2HLT] = "EL2HLT";
	errdesc[EL2HLT] = "Level 2 halted";
	errname[EBADE] = "EBADE";
	errdesc[EBADE] = "Invalid exchange";
	errname[EBADR] = "EBADR";
	errdesc[EBADR] = "Invalid request descriptor";
	errname[EXFULL] = "EXFULL";
	errdesc[EXFULL] = "Exchange full";
	errname[ENOANO] = "ENOANO";
	errdesc[ENOANO] = "No anode";
	errname[EBADRQC] = "EBADRQC";
	errdesc[EBADRQC] = "Invalid request code";
	errname[EBADSLT] = "EBADSLT";
	errdesc[EBADSLT] = "Invalid slot";
	errname[EBFONT] = "EBFONT";
	errdesc[EBFONT] = "Bad font file format";
	errname[ENOSTR] = "ENOSTR";
	errdesc[ENOSTR] = "Device not a stream";
	errname[ENODATA] = "ENODATA";
	errdesc[ENODATA] = "No data available";
	errname[ETIME] = "ETIME";
	errdesc[ETIME] = "Timer expired";
}

BEGIN
{
	errname[ENOSR] = "ENOSR";
	errdesc[ENOSR] = "Out of streams resources";
	errname[ENONET] = "ENONET";
	errdesc[ENONET] = "Machine is not on the network";
	errname[ENOPKG] = "ENOPKG";
	errdesc[ENOPKG] = "Package not installed";
	errname[EREMOTE] = "EREMOTE";
	errdesc[EREMOTE] = "Object is remote";
	errname[ENOLINK] = "ENOLINK";
	errdesc[ENOLINK] = "Link has been severed";
	errname[EADV] = "EADV";
	errdesc[EADV] = "Advertise error";
	errname[ESRMNT] = "ESRMNT";
	errdesc[ESRMNT] = "Srmount error";
	errname[ECOMM] = "ECOMM";
	errdesc[ECOMM] = "Communication error on send";
	errname[EPROTO] = "EPROTO";
	errdesc[EPROTO] = "Protocol error";
	errname[EMULTIHOP] = "EMULTIHOP";
	errdesc[EMULTIHOP] = "Multihop attempted";
	errname[EDOTDOT] = "EDOTDOT";
	errdesc[EDOTDOT] = "RFS specific error";
	errname[EBADMSG] = "EBADMSG";
	errdesc[EBADMSG] = "Bad message";
}

BEGIN
{
	errname[EOVERFLOW] = "EOVERFLOW";
	errdesc[EOVERFLOW] = "Value too large for defined data type";
	errname[ENOTUNIQ] = "ENOTUNIQ";
	errdesc[ENOTUNIQ] = "Name not unique on network";
	errname[EBADFD] = "EBADFD";
	errdesc[EBADFD] = "File descriptor in bad state";
	errname[EREMCHG] = "EREMCHG";
	errdesc[EREMCHG] = "Remote address changed";
	errname[ELIBACC] = "ELIBACC";
	errdesc[ELIBACC] = "Can not access a needed shared library";
	errname[ELIBBAD] = "ELIBBAD";
	errdesc[ELIBBAD] = "Accessing a corrupted shared library";
	errname[ELIBSCN] = "ELIBSCN";
	errdesc[ELIBSCN] = ".lib section in a.out corrupted";
	errname[ELIBMAX] = "ELIBMAX";
	errdesc[ELIBMAX] = "Attempting to link in too many shared libraries";
	errname[ELIBEXEC] = "ELIBEXEC";
	errdesc[ELIBEXEC] = "Cannot exec a shared library directly";
	errname[EILSEQ] = "EILSEQ";
	errdesc[EILSEQ] = "Invalid or incomplete multibyte or wide character";
	errname[ERESTART] = "ERESTART";
	errdesc[ERESTART] = "Interrupted system call should be restarted";
	errname[ESTRPIPE] = "ESTRPIPE";
	errdesc[ESTRPIPE] = "Streams pipe error";
}

BEGIN
{
	errname[EUSERS] = "EUSERS";
	errdesc[EUSERS] = "Too many users";
	errname[ENOTSOCK] = "ENOTSOCK";
	errdesc[ENOTSOCK] = "Socket operation on non-socket";
	errname[EDESTADDRREQ] = "EDESTADDRREQ";
	errdesc[EDESTADDRREQ] = "Destination address required";
	errname[EMSGSIZE] = "EMSGSIZE";
	errdesc[EMSGSIZE] = "Message too long";
	errname[EPROTOTYPE] = "EPROTOTYPE";
	errdesc[EPROTOTYPE] = "Protocol wrong type for socket";
	errname[ENOPROTOOPT] = "ENOPROTOOPT";
	errdesc[ENOPROTOOPT] = "Protocol not available";
	errname[EPROTONOSUPPORT] = "EPROTONOSUPPORT";
	errdesc[EPROTONOSUPPORT] = "Protocol not supported";
	errname[ESOCKTNOSUPPORT] = "ESOCKTNOSUPPORT";
	errdesc[ESOCKTNOSUPPORT] = "Socket type not supported";
	errname[EOPNOTSUPP] = "EOPNOTSUPP";
	errdesc[EOPNOTSUPP] = "Operation not supported";
	errname[EPFNOSUPPORT] = "EPFNOSUPPORT";
	errdesc[EPFNOSUPPORT] = "Protocol family not supported";
	errname[EAFNOSUPPORT] = "EAFNOSUPPORT";
	errdesc[EAFNOSUPPORT] = "Address family not supported by protocol";
	errname[EADDRINUSE] = "EADDRINUSE";
	errdesc[EADDRINUSE] = "Address already in use";
}

BEGIN
{
	errname[EADDRNOTAVAIL] = "EADDRNOTAVAIL";
	errdesc[EADDRNOTAVAIL] = "Cannot assign requested address";
	errname[ENETDOWN] = "ENETDOWN";
	errdesc[ENETDOWN] = "Network is down";
	errname[ENETUNREACH] = "ENETUNREACH";
	errdesc[ENETUNREACH] = "Network is unreachable";
	errname[ENETRESET] = "ENETRESET";
	errdesc[ENETRESET] = "Network dropped connection on reset";
	errname[ECONNABORTED] = "ECONNABORTED";
	errdesc[ECONNABORTED] = "Software caused connection abort";
	errname[ECONNRESET] = "ECONNRESET";
	errdesc[ECONNRESET] = "Connection reset by peer";
	errname[ENOBUFS] = "ENOBUFS";
	errdesc[ENOBUFS] = "No buffer space available";
	errname[EISCONN] = "EISCONN";
	errdesc[EISCONN] = "Transport endpoint is already connected";
	errname[ENOTCONN] = "ENOTCONN";
	errdesc[ENOTCONN] = "Transport endpoint is not connected";
	errname[ESHUTDOWN] = "ESHUTDOWN";
	errdesc[ESHUTDOWN] = "Cannot send after transport endpoint shutdown";
	errname[ETOOMANYREFS] = "ETOOMANYREFS";
	errdesc[ETOOMANYREFS] = "Too many references: cannot splice";
	errname[ETIMEDOUT] = "ETIMEDOUT";
	errdesc[ETIMEDOUT] = "Connection timed out";
}

BEGIN
{
	errname[ECONNREFUSED] = "ECONNREFUSED";
	errdesc[ECONNREFUSED] = "Connection refused";
	errname[EHOSTDOWN] = "EHOSTDOWN";
	errdesc[EHOSTDOWN] = "Host is down";
	errname[EHOSTUNREACH] = "EHOSTUNREACH";
	errdesc[EHOSTUNREACH] = "No route to host";
	errname[EALREADY] = "EALREADY";
	errdesc[EALREADY] = "Operation already in progress";
	errname[EINPROGRESS] = "EINPROGRESS";
	errdesc[EINPROGRESS] = "Operation now in progress";
	errname[ESTALE] = "ESTALE";
	errdesc[ESTALE] = "Stale file handle";
	errname[EUCLEAN] = "EUCLEAN";
	errdesc[EUCLEAN] = "Structure needs cleaning";
	errname[ENOTNAM] = "ENOTNAM";
	errdesc[ENOTNAM] = "Not a XENIX named type file";
	errname[ENAVAIL] = "ENAVAIL";
	errdesc[ENAVAIL] = "No XENIX semaphores available";
	errname[EISNAM] = "EISNAM";
	errdesc[EISNAM] = "Is a named type file";
	errname[EREMOTEIO] = "EREMOTEIO";
	errdesc[EREMOTEIO] = "Remote I/O error";
	errname[EDQUOT] = "EDQUOT";
	errdesc[EDQUOT] = "Disk quota exceeded";
}

BEGIN
{
	errname[ENOMEDIUM] = "ENOMEDIUM";
	errdesc[ENOMEDIUM] = "No medium found";
	errname[EMEDIUMTYPE] = "EMEDIUMTYPE";
	errdesc[EMEDIUMTYPE] = "Wrong medium type";
	errname[ECANCELED] = "ECANCELED";
	errdesc[ECANCELED] = "Operation canceled";
	errname[ENOKEY] = "ENOKEY";
	errdesc[ENOKEY] = "Required key not available";
	errname[EKEYEXPIRED] = "EKEYEXPIRED";
	errdesc[EKEYEXPIRED] = "Key has expired";
	errname[EKEYREVOKED] = "EKEYREVOKED";
	errdesc[EKEYREVOKED] = "Key has been revoked";
	errname[EKEYREJECTED] = "EKEYREJECTED";
	errdesc[EKEYREJECTED] = "Key was rejected by service";
	errname[EOWNERDEAD] = "EOWNERDEAD";
	errdesc[EOWNERDEAD] = "Owner died";
	errname[ENOTRECOVERABLE] = "ENOTRECOVERABLE";
	errdesc[ENOTRECOVERABLE] = "State not recoverable";
	errname[ERFKILL] = "ERFKILL";
	errdesc[ERFKILL] = "Operation not possible due to RF-kill";
}

syscall:::return
/errno != 0/
{
	printf("%7d %-16s %-16s %3d %-12s %s\n", pid, execname, probefunc, errno,
	    errname[errno] != NULL ? errname[errno] : "?",
	    errdesc[errno] != NULL ? errdesc[errno] : "?");
}

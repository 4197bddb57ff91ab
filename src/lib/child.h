/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a program ptk launches (strace CMD, stat -- CMD, profile -- CMD) must inherit: the
 * signal dispositions and signal mask ptk itself was started with, and ptk's original mount
 * namespace (ptk may have moved into a private one to mount tracefs). ptk changes its own
 * handlers (SIGINT/SIGTERM/SIGHUP caught, SIGPIPE ignored) and may mount tracefs; without
 * this a traced `yes | head -1` would not die of SIGPIPE, and a traced program would see
 * ptk's private mounts. A tracer never changes the behaviour of the program it traces.
 */
#ifndef PTK_LIB_CHILD_H
#define PTK_LIB_CHILD_H

#include <stddef.h>

/* Record the dispositions and the mask ptk was started with. Called first thing in main(). */
void ptk_child_save_start(void);

/* Keep an fd of the current mount namespace (/proc/self/ns/mnt) before moving to another;
 * ptk_child_prepare() returns the child to it. 0 or -errno. */
int ptk_child_save_mntns(void);

/* Return this thread to the saved mount namespace. 0 or -errno (-ENOENT: none saved). */
int ptk_child_restore_mntns(void);

/*
 * In a forked child, before exec: restore the saved dispositions (a signal ptk ignored or
 * caught goes back to what it was at ptk's start), the saved signal mask, and the saved
 * mount namespace. Async-signal-safe (sigaction, sigprocmask, setns). Returns 0 or the
 * -errno of the first call that failed.
 */
int ptk_child_prepare(void);

/*
 * The file a command name runs, found before the fork as strace finds it: a name with a '/'
 * as it is, else the first executable regular file of that name in $PATH (the C library's
 * default path when PATH is unset). The traced program's own syscalls then begin with one
 * execve of that file, not with execvp's failed tries along $PATH or ptk's error message.
 * Writes path[size]; returns 0, -ENOENT (not found), -EACCES (found, not executable) or
 * -ENAMETOOLONG.
 */
int ptk_child_find(const char *name, char *path, size_t size);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JVM as a source: HotSpot's own thread dump (`jstack PID`, the JDK's tool) for the full
 * Java thread names that the kernel cuts to 15 characters. jstack attaches by sending
 * SIGQUIT, which kills a process that is not a JVM, so it runs only on a process whose
 * /proc/PID/maps has libjvm.so. Both return 0 or -errno, with the reason in why.
 */
#ifndef PTK_SOURCE_JVM_H
#define PTK_SOURCE_JVM_H

#include <stddef.h>

#include "source/root.h"

/*
 * 0 when process pid maps HotSpot's libjvm.so (<procfs>/PID/maps); -ESRCH gone, -errno when
 * maps cannot be read, -ENOEXEC when it is not a JVM.
 */
int ptk_jvm_check(const struct ptk_src *src, int pid, char *why, size_t wsize);

/*
 * Run `jstack PID` (PATH) for at most timeout_ms and return its output (malloc'd) in *out.
 * -ENOENT when jstack is not installed, -ETIMEDOUT, -EIO when it failed (its first line
 * in why), or -errno of pipe/fork.
 */
int ptk_jvm_jstack(int pid, int timeout_ms, char **out, char *why, size_t wsize);

#endif

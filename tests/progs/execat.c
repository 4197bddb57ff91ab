// SPDX-License-Identifier: GPL-2.0
/*
 * For the execsnoop test: exec /bin/true through execveat(2).
 *   execat dirat   execveat(open("/bin"), "true", argv, envp, 0)
 *   execat fexec   execveat(open("/bin/true"), "", argv, envp, AT_EMPTY_PATH) (= fexecve)
 * argv is { "true", MARKER } so the event can be found. Exits with true's status.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *args[] = { "true", argc > 2 ? argv[2] : "execat-marker", NULL };
	int fd;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "dirat")) {
		fd = open("/bin", O_RDONLY | O_DIRECTORY);
		syscall(SYS_execveat, fd, "true", args, environ, 0);
	} else {
		fd = open("/bin/true", O_RDONLY);
		syscall(SYS_execveat, fd, "", args, environ, AT_EMPTY_PATH);
	}
	perror("execveat");
	return 1;
}

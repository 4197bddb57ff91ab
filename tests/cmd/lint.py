#!/usr/bin/env python3
# The lint behind 00-lint.sh (stdlib only). Usage: lint.py FILE...
#
# Reads each test script as the shell would split it (quotes, $(...), <(...), heredocs,
# `sh -c`/`bash -c`/eval strings and the tests' own eval helpers check_all and t) and reports:
# - a reference tool (procps, sysstat, bpftrace, libbpf-tools, perf, strace, gdb, eu-stack,
#   trace-cmd, blktrace, dstat, Prometheus, node_exporter, systemd-cgtop, jstack) or a
#   workload (fio, stress-ng) run without `timeout` in front of it: a tool that hangs or
#   ignores SIGINT must end the test, not stall the suite;
# - `check DESC CMD && ...` or `check DESC CMD || ...`: the shell runs the rest after check
#   printed its verdict, so it asserts nothing (lib.sh's check_all takes several conditions).
# Prints one line per finding, "FILE:LINE: what", and exits 1 when there is any.
import os
import re
import sys

ANCHORS = set("""
free vmstat top ps pmap uptime slabtop watch
mpstat iostat pidstat sar sadc sadf cifsiostat
bpftrace perf strace ltrace gdb gcore eu-stack trace-cmd blktrace blkparse btt dstat
promtool prometheus prometheus-node-exporter node_exporter systemd-cgtop jstack jcmd
fio stress-ng
bashreadline bindsnoop biolatency biopattern biosnoop biostacks biotop bitesize cachestat
capable cpudist cpufreq drsnoop execsnoop exitsnoop filelife filetop fsdist fsslower
funclatency gethostlatency hardirqs javagc klockstat ksnoop llcstat mdflush mountsnoop
numamove offcputime oomkill opensnoop readahead runqlat runqlen runqslower sigsnoop
slabratetop softirqs solisten statsnoop syscount tcpconnect tcpconnlat tcplife tcprtt
tcpstates tcpsynbl tcptop tcptracer vfsstat wakeuptime btrfsdist btrfsslower ext4dist
ext4slower killsnoop nfsdist nfsslower xfsdist xfsslower tcpaccept
""".split())

OPS = ("&&", "||", ";;", "|&", ";", "&", "|", "(", ")", "{", "}", "\n")
# words after which a word is not a command: for/case/select heads
KEYWORDS_NEXT_CMD = {"if", "then", "else", "elif", "do", "while", "until", "!", "time", "fi",
                     "done", "esac"}
ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")


class Word:
    def __init__(self, raw, value, literal, line):
        self.raw, self.value, self.literal, self.line = raw, value, literal, line

    def __repr__(self):
        return self.raw


class Lexer:
    """Splits shell text into words and operators; code inside $(...), <(...) and heredocs
    of shell scripts is linted as it is met (self.sub)."""

    def __init__(self, text, line0, sub):
        self.s, self.i, self.line, self.sub = text, 0, line0, sub
        self.heredocs = []  # pending (delimiter, strip_tabs, is_code)

    def peek(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def adv(self, n=1):
        for _ in range(n):
            if self.i < len(self.s) and self.s[self.i] == "\n":
                self.line += 1
            self.i += 1

    def balanced(self, open_, close):
        """From just after an opener: up to and including the matching closer, quotes
        respected. Returns the text inside."""
        depth, start = 1, self.i
        while self.i < len(self.s):
            c = self.peek()
            if c == "\\":
                self.adv(2)
                continue
            if c == "'":
                self.adv()
                while self.i < len(self.s) and self.peek() != "'":
                    self.adv()
                self.adv()
                continue
            if c == '"':
                self.dquote()
                continue
            if c == open_:
                depth += 1
            elif c == close:
                depth -= 1
                if depth == 0:
                    inner = self.s[start:self.i]
                    self.adv()
                    return inner
            self.adv()
        return self.s[start:]

    def cmdsubst(self):
        """Just after '$(' or '<(': the code up to the matching ')' is linted."""
        line = self.line
        inner = self.balanced("(", ")")
        self.sub(inner, line)
        return inner

    def dquote(self):
        """At '"': returns the value inside (expansions kept as text), linting $(...)."""
        self.adv()
        out = []
        while self.i < len(self.s) and self.peek() != '"':
            c = self.peek()
            if c == "\\":
                out.append(self.peek(1))
                self.adv(2)
            elif c == "$" and self.peek(1) == "(" and self.peek(2) == "(":
                self.adv(3)
                out.append("$((" + self.balanced("(", ")") + ")")
            elif c == "$" and self.peek(1) == "(":
                self.adv(2)
                out.append("$(" + self.cmdsubst() + ")")
            elif c == "$" and self.peek(1) == "{":
                self.adv(2)
                out.append("${" + self.balanced("{", "}") + "}")
            elif c == "`":
                self.adv()
                j = self.s.find("`", self.i)
                j = len(self.s) if j < 0 else j
                self.sub(self.s[self.i:j], self.line)
                out.append(self.s[self.i - 1:j + 1])
                self.adv(j + 1 - self.i)
            else:
                out.append(c)
                self.adv()
        self.adv()
        return "".join(out)

    def skip_heredocs(self):
        for delim, strip, is_code in self.heredocs:
            body, line0 = [], self.line
            while self.i < len(self.s):
                j = self.s.find("\n", self.i)
                j = len(self.s) if j < 0 else j
                ln = self.s[self.i:j]
                self.adv(j + 1 - self.i)
                if (ln.lstrip("\t") if strip else ln) == delim:
                    break
                body.append(ln)
            if is_code:
                self.sub("\n".join(body) + "\n", line0)
        self.heredocs = []

    def tokens(self):
        """Yields ('op', text, line) and ('word', Word) items; redirections are dropped with
        their targets."""
        while True:
            # blanks and comments
            while self.peek() in (" ", "\t") or (self.peek() == "\\" and self.peek(1) == "\n"):
                self.adv(2 if self.peek() == "\\" else 1)
            c = self.peek()
            if not c:
                return
            if c == "#":
                while self.peek() and self.peek() != "\n":
                    self.adv()
                continue
            if c == "\n":
                line = self.line
                self.adv()
                if self.heredocs:
                    self.skip_heredocs()
                yield ("op", "\n", line)
                continue
            if c == "(" and self.peek(1) == "(":
                self.adv(2)
                self.balanced("(", ")")
                if self.peek() == ")":
                    self.adv()
                continue
            # redirections: [n]> >> < <> >& &> <<< << <<-; process substitution <( >(
            m = re.match(r"(\d*)(<<-|<<<|<<|&>>|&>|>>|>&|<&|<>|>\||>|<)", self.s[self.i:])
            if m and not (m.group(2) in ("<", ">") and self.peek(len(m.group(0))) == "("):
                op = m.group(2)
                self.adv(len(m.group(0)))
                while self.peek() in (" ", "\t"):
                    self.adv()
                w = self.word()
                if op in ("<<", "<<-") and w is not None:
                    self.heredocs.append((w.value, op == "<<-", self.heredoc_is_code(w)))
                continue
            if c in "<>" and self.peek(1) == "(":
                self.adv(2)
                self.cmdsubst()
                continue
            for op in OPS:
                if self.s.startswith(op, self.i):
                    line = self.line
                    self.adv(len(op))
                    yield ("op", op, line)
                    break
            else:
                w = self.word()
                if w is not None:
                    yield ("word", w)

    def heredoc_is_code(self, delim):
        # heredocs are data (C, Python, BPF scripts) unless they are shell: a delimiter
        # named for it or a cat into a .sh file
        if delim.value in ("EOS", "SH", "BASH"):
            return True
        ln = self.s.rfind("\n", 0, self.i) + 1
        return bool(re.search(r"cat\s*>\s*\S*\.sh\b", self.s[ln:self.i]))

    def word(self):
        raw_start, line = self.i, self.line
        out, literal = [], True
        while True:
            c = self.peek()
            if not c or c in " \t\n;&|<>(){}" and not (c == "(" and out and out[-1].endswith("=")):
                if c == "{" or c == "}":
                    # braces are words unless alone: a{b}c, ${x}
                    if out and c == "{":
                        out.append(c)
                        self.adv()
                        continue
                    if out and c == "}":
                        out.append(c)
                        self.adv()
                        continue
                break
            if c == "(":  # array assignment a=( ... )
                self.adv()
                out.append("(" + self.balanced("(", ")") + ")")
                literal = False
            elif c == "\\":
                out.append(self.peek(1))
                self.adv(2)
            elif c == "'":
                self.adv()
                j = self.s.find("'", self.i)
                j = len(self.s) if j < 0 else j
                out.append(self.s[self.i:j])
                self.adv(j + 1 - self.i)
            elif c == '"':
                v = self.dquote()
                if "$" in v:
                    literal = False
                out.append(v)
            elif c == "$" and self.peek(1) == "(" and self.peek(2) == "(":
                self.adv(3)
                out.append("$((" + self.balanced("(", ")") + ")")
                literal = False
            elif c == "$" and self.peek(1) == "(":
                self.adv(2)
                out.append("$(" + self.cmdsubst() + ")")
                literal = False
            elif c == "$" and self.peek(1) == "{":
                self.adv(2)
                out.append("${" + self.balanced("{", "}") + "}")
                literal = False
            elif c == "$":
                out.append(c)
                self.adv()
                literal = False
            elif c == "`":
                self.adv()
                j = self.s.find("`", self.i)
                j = len(self.s) if j < 0 else j
                self.sub(self.s[self.i:j], self.line)
                self.adv(j + 1 - self.i)
                literal = False
            else:
                out.append(c)
                self.adv()
        if self.i == raw_start:
            self.adv()  # a stray character: never loop on it
            return None
        return Word(self.s[raw_start:self.i], "".join(out), literal, line)


FUNC = re.compile(r"^[ \t]*([A-Za-z_][A-Za-z0-9_]*)\(\)[ \t]*\{", re.M)


def wrappers(text):
    """Shell functions that run their arguments as a command ("$@" in command position, as
    lib.sh's check or a test's run/into/start): name -> (arguments shifted off before it,
    whether a timeout is in front of it)."""
    out = {}
    for m in FUNC.finditer(text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        body = text[m.end():j]
        run = re.search(r'(^|[;&|({!]|\bexec|\bthen|\bdo|\bif)[ \t]*((?:timeout(?:[ \t]+-\S+(?:[ \t]+\d\S*)?)*[ \t]+\S+[ \t]+)?)"\$@"',
                        body, re.M)
        if not run:
            continue
        before = body[:run.start()]
        shifts = sum(int(n or 1) for n in re.findall(r"\bshift(?:[ \t]+(\d+))?\b", before))
        out[m.group(1)] = (shifts, bool(re.search(r"\s(-k|--kill-after)\b", run.group(2) or "")))
    return out


class Linter:
    def __init__(self, path, funcs):
        self.path, self.found, self.funcs = path, [], funcs

    def report(self, line, msg):
        self.found.append((line, msg))

    def lint(self, text, line0=1, timed=False):
        lx = Lexer(text, line0, lambda t, l: self.lint(t, l, timed))
        cmd, after_for, pattern = [], False, False
        prev_check = None  # line of a check command that just ended
        for tok in lx.tokens():
            if tok[0] == "word":
                w = tok[1]
                if not cmd and not after_for and w.value in ("for", "select", "case"):
                    after_for = "in" if w.value == "case" else "do"
                    continue
                if after_for:
                    if w.value == after_for:
                        pattern = after_for == "in"  # case WORD in: patterns follow
                        after_for = False
                    continue
                if pattern:  # a case pattern, up to its ')'
                    if w.value == "esac":
                        pattern = False
                    continue
                if not cmd and w.value in KEYWORDS_NEXT_CMD:
                    continue
                cmd.append(w)
                continue
            op, line = tok[1], tok[2]
            if pattern:
                if op == ")":
                    pattern = False
                continue
            if op == ";;":
                pattern = True
            if prev_check is not None and op in ("&&", "||") and not cmd:
                self.report(prev_check, "'check DESC CMD %s ...': the rest runs after the verdict "
                            "and asserts nothing (use check_all)" % op)
            prev_check = None
            if cmd:
                if self.simple(cmd, timed) == "check" and op in ("&&", "||"):
                    self.report(cmd[0].line, "'check DESC CMD %s ...': the rest runs after the "
                                "verdict and asserts nothing (use check_all)" % op)
                cmd = []
            if op == "\n" and after_for == "do":
                pass  # for x in a b c (newline) do
        if cmd:
            self.simple(cmd, timed)

    def simple(self, words, timed):
        """One simple command: report an anchor run without timeout. Returns the name of the
        command it runs (after wrappers), or None."""
        i, n = 0, len(words)

        def val(k):
            return words[k].value if k < n else ""

        while i < n:
            w = val(i)
            if ASSIGN.match(w):
                # an assignment holding a command line ("bpftrace -q x.bt", words after the
                # command's name) is linted as one
                rhs = w.split("=", 1)[1]
                first = rhs.split()[0] if rhs.split() else ""
                if (os.path.basename(first) in ANCHORS or first == "timeout") and " " in rhs.strip():
                    self.lint(rhs, words[i].line, timed)
                i += 1
                continue
            if w == "timeout":
                # with a kill: a tool that ignores the first signal is killed after it
                i += 1
                while val(i).startswith("-"):
                    o = val(i)
                    if o in ("-k", "--kill-after") or o.startswith(("--kill-after=", "-k")) or \
                            (o == "-s" and val(i + 1) in ("KILL", "9")) or o in ("--signal=KILL", "-sKILL"):
                        timed = True
                    i += 2 if o in ("-k", "-s", "--kill-after", "--signal") else 1
                i += 1  # the duration
                continue
            if w == "stdbuf":
                i += 1
                while val(i).startswith("-"):
                    i += 2 if val(i) in ("-i", "-o", "-e") else 1
                continue
            if w == "env":
                i += 1
                while val(i).startswith("-") or ASSIGN.match(val(i)):
                    i += 2 if val(i) in ("-u", "-C", "-S") else 1
                continue
            if w == "taskset":
                i += 1
                while val(i).startswith("-"):
                    i += 2 if val(i) in ("-c", "--cpu-list") else 1
                    if val(i - 1) in ("-c", "--cpu-list"):
                        break
                else:
                    i += 1  # a mask
                continue
            if w in ("nice", "ionice", "chrt"):
                i += 1
                while val(i).startswith("-"):
                    i += 2 if val(i) in ("-n", "-c", "-p") else 1
                if w == "chrt":
                    i += 1  # the priority
                continue
            if w in ("setpriv", "unshare", "nohup", "builtin", "sudo"):
                i += 1
                while val(i).startswith("-"):
                    i += 2 if val(i) in ("--propagation", "-u", "--setgroups") else 1
                continue
            if w == "exec":
                i += 1
                while val(i).startswith("-"):
                    i += 2 if val(i) == "-a" else 1
                continue
            if w == "command":
                if val(i + 1) in ("-v", "-V"):
                    return None
                i += 1
                continue
            if w == "xargs":
                i += 1
                while val(i).startswith("-"):
                    i += 2 if val(i) in ("-n", "-I", "-P", "-d", "-L") else 1
                continue
            if w == "ip" and val(i + 1) == "netns" and val(i + 2) == "exec":
                i += 4
                continue
            if w in self.funcs:  # check DESC CMD..., run NAME CMD..., into CG CMD...
                shifts, t = self.funcs[w]
                if i + 1 + shifts < n:
                    self.simple(words[i + 1 + shifts:], timed or t)
                return w
            if w in ("check_all", "t", "eval"):  # eval'd strings are code
                k = i + 2 if w != "eval" else i + 1
                if k < n:
                    self.lint(" ".join(x.value for x in words[k:]), words[k].line, timed)
                return w
            if w in ("sh", "bash", "dash") and "-c" in [x.value for x in words[i:]]:
                k = [x.value for x in words].index("-c", i)
                if k + 1 < n:
                    self.lint(val(k + 1), words[k + 1].line, timed)
                return w
            break
        if i >= n:
            return None
        name = os.path.basename(val(i))
        if words[i].literal and name in ANCHORS and not timed:
            self.report(words[i].line, "'%s' runs without a timeout that kills (timeout -k 5 N %s ...)"
                        % (name, name))
        return name


def main():
    bad = 0
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib.sh")
    common = wrappers(open(lib).read())
    for path in sys.argv[1:]:
        text = open(path).read()
        lt = Linter(path, dict(common, **wrappers(text)))
        lt.lint(text)
        for line, msg in sorted(set(lt.found)):
            print("%s:%d: %s" % (path, line, msg))
            bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

// SPDX-License-Identifier: GPL-2.0
// Java stacks for the flame graph tests: main -> outer -> (inner | other) spinning for
// SECONDS (default 2), with -XX:+DumpPerfMapAtExit writing /tmp/perf-PID.map for perf.
public class FlameSpin {
	static volatile long sink;

	static long inner(long n) {
		long s = 0;
		for (long i = 0; i < n; i++)
			s += i * 31 ^ (s >>> 3);
		return s;
	}

	static long other(long n) {
		long s = 1;
		for (long i = 0; i < n; i++)
			s = s * 7 + i;
		return s;
	}

	static void outer(int k) {
		sink += (k % 3 == 0) ? other(200000) : inner(200000);
	}

	public static void main(String[] args) {
		double secs = args.length > 0 ? Double.parseDouble(args[0]) : 2;
		long end = System.nanoTime() + (long) (secs * 1e9);
		for (int k = 0; System.nanoTime() < end; k++)
			outer(k);
		System.out.println(sink);
	}
}

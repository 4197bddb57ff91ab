// SPDX-License-Identifier: GPL-2.0
// Load for the cswtop --jstack test: two thread pools whose names share their first 15
// characters (the kernel keeps only 15), so only the full Java names tell them apart.
//   order-processor-pool-N   sleep 1 ms in a loop   (~1000 voluntary switches/s each)
//   order-processor-batch-N  sleep 10 ms in a loop  (~100 voluntary switches/s each)
// usage: java CswLoad NPOOL NBATCH SECONDS; prints "ready" when every thread runs.
public class CswLoad {
	static Thread pool(String name, long ms) {
		Thread t = new Thread(() -> {
			try {
				for (;;)
					Thread.sleep(ms);
			} catch (InterruptedException e) {
			}
		}, name);
		t.setDaemon(true);
		t.start();
		return t;
	}

	public static void main(String[] args) throws Exception {
		int np = Integer.parseInt(args[0]), nb = Integer.parseInt(args[1]);
		for (int i = 1; i <= np; i++)
			pool("order-processor-pool-" + i, 1);
		for (int i = 1; i <= nb; i++)
			pool("order-processor-batch-" + i, 10);
		System.out.println("ready");
		System.out.flush();
		Thread.sleep(Long.parseLong(args[2]) * 1000);
	}
}

import java.util.concurrent.locks.LockSupport;

/**
 * The floor under a sampler's cost: a thread that only wakes on a grid, as Remora's sampling loop
 * does (LockSupport.parkNanos until the next point), and does nothing else. Run as a single-file
 * program: java TickFloor.java RATE_HZ SECONDS. Prints READY, then sleeps on the grid until SECONDS
 * have passed; bench-tick-cost.py reads its thread's CPU clock from outside, as it reads Remora's.
 */
public class TickFloor {
    public static void main(String[] args) {
        long interval = 1_000_000_000L / Long.parseLong(args[0]);
        long end = System.nanoTime() + (long) (Double.parseDouble(args[1]) * 1e9);
        System.out.println("READY");
        System.out.flush();
        long next = System.nanoTime();
        while (next < end) {
            next += interval;
            long now;
            while ((now = System.nanoTime()) < next) {
                LockSupport.parkNanos(next - now);
            }
        }
    }
}

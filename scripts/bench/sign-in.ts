import { scrypt, randomBytes } from "node:crypto";
import { demoUsers } from "@/lib/auth/demo-users";
import { median } from "./stats";

/**
 * `npm run bench:sign-in`: what the password hash costs (lib/auth/password.ts).
 *
 * 1. In this process: one scrypt hash at the old (N=2^15) and the current (N=2^17) cost, and 4 at once (node's default
 *    thread pool runs 4), with the resident memory they take.
 * 2. With BENCH_CONSOLE_URL set (a console started by `npm start` with demo users): real sign-ins through Auth.js
 *    (CSRF token, then the credentials callback), 1, 4 and 8 at a time, latency per sign-in and sign-ins per second.
 */

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const consoleUrl = process.env.BENCH_CONSOLE_URL;

function hash(N: number): Promise<void> {
  return new Promise((resolve, reject) =>
    scrypt("a staff password", randomBytes(16), 32, { N, r: 8, p: 1, maxmem: 2 * 128 * N * 8 }, (error) => (error ? reject(error) : resolve())),
  );
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function hashCosts() {
  for (const exponent of [15, 17]) {
    const N = 2 ** exponent;
    const single: number[] = [];
    for (let i = 0; i < rounds; i++) single.push(await timed(() => hash(N)));
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const four = await timed(() => Promise.all(Array.from({ length: 4 }, () => hash(N))));
    clearInterval(sampler);
    console.log(
      `scrypt N=2^${exponent}, r=8, p=1: one hash ${ms(median(single))} (median of ${rounds}); 4 at once ${ms(four)}; ` +
        `resident memory +${((peak - rssBefore) / 2 ** 20).toFixed(0)} MiB while they ran`,
    );
  }
}

/** One real sign-in: the CSRF token and cookie, then the credentials callback; true when a session cookie came back. */
async function signIn(base: string, email: string, password: string): Promise<boolean> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: base },
    body: new URLSearchParams({ csrfToken, email, password }),
  });
  return response.headers.getSetCookie().some((value) => value.includes("session-token="));
}

async function concurrentSignIns(base: string) {
  for (const concurrency of [1, 4, 8]) {
    const latencies: number[] = [];
    let failed = 0;
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        Array.from({ length: concurrency }, async (_, index) => {
          const user = demoUsers[index % demoUsers.length]!;
          const began = performance.now();
          if (!(await signIn(base, user.email, user.password))) failed++;
          latencies.push(performance.now() - began);
        }),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${concurrency} concurrent sign-ins x ${rounds} rounds: median ${ms(median(latencies))}, slowest ${ms(Math.max(...latencies))}, ` +
        `${(latencies.length / seconds).toFixed(1)} sign-ins/s${failed ? `, ${failed} FAILED` : ""}`,
    );
    if (failed) process.exitCode = 1;
  }
}

await hashCosts();
if (consoleUrl) await concurrentSignIns(consoleUrl.replace(/\/$/, ""));
else console.log("BENCH_CONSOLE_URL not set: real sign-ins skipped (start the console with `npm start`, then set it).");

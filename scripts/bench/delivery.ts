/**
 * `npm run bench:delivery`: what one webhook POST costs the sandbox bank's delivery (`postPinned`,
 * sandbox/webhooks/post.ts) and a Node receiver in CPU and time, on a connection of its own and on connections kept
 * open between deliveries (what the delivery worker does). BENCH_POSTS (4000) notifications, 16 at a time as the
 * worker sends them, to a plain node:http receiver in a process of its own answering `{"received":true}`, three rounds
 * alternating. Markdown on stdout.
 */
import { spawn } from "node:child_process";
import { Agent } from "node:http";
import { postPinned } from "@/sandbox/webhooks/post";
import { median } from "./stats";

const posts = Number(process.env.BENCH_POSTS ?? 4000);
const inFlight = 16;
const rounds = 3;

const receiverSource = `
const server = require("node:http").createServer((request, response) => {
  request.resume();
  request.on("end", () => response.setHeader("content-type", "application/json").end('{"received":true}'));
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
process.on("message", () => { const used = process.cpuUsage(); process.send((used.user + used.system) / 1000); });`;
const receiver = spawn(process.execPath, ["-e", receiverSource], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
const port = await new Promise<number>((resolve) => receiver.stdout!.once("data", (data) => resolve(Number(String(data).trim()))));
const receiverCpuMs = () =>
  new Promise<number>((resolve) => {
    receiver.once("message", (ms) => resolve(Number(ms)));
    receiver.send("cpu");
  });

const url = new URL(`http://127.0.0.1:${port}/api/bank-events/sandbox`);
const body = JSON.stringify({
  event: "network_transfer.update",
  op: "update",
  id: "network_transfer_bench",
  url: "http://127.0.0.1/network_transfer/network_transfer_bench",
});

async function round(pool: Agent | false) {
  const senderBefore = process.cpuUsage();
  const receiverBefore = await receiverCpuMs();
  const started = performance.now();
  let sent = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (sent++ < posts) {
        const reply = await postPinned(
          url,
          { address: "127.0.0.1", family: 4 },
          { "content-type": "application/json" },
          body,
          AbortSignal.timeout(5000),
          pool,
        );
        if (reply.status !== 200) throw new Error(`the receiver answered ${reply.status}`);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const sender = process.cpuUsage(senderBefore);
  return {
    wallMs,
    senderUs: (sender.user + sender.system) / posts,
    receiverUs: ((await receiverCpuMs()) - receiverBefore) * (1000 / posts),
  };
}

const measured = { each: [] as Awaited<ReturnType<typeof round>>[], kept: [] as Awaited<ReturnType<typeof round>>[] };
await round(false); // warm both sides' code
for (let index = 0; index < rounds; index += 1) {
  measured.each.push(await round(false));
  const pool = new Agent({ keepAlive: true });
  measured.kept.push(await round(pool));
  pool.destroy();
}
receiver.kill();

const cell = (runs: Awaited<ReturnType<typeof round>>[], pick: (run: Awaited<ReturnType<typeof round>>) => number, unit: string) =>
  `${median(runs.map(pick)).toFixed(0)} ${unit}`;
console.log(
  [
    `## Webhook delivery: a connection each vs kept connections (${posts} POSTs, ${inFlight} at a time, median of ${rounds} rounds)`,
    "",
    "| connections | all POSTs | sender CPU per POST | receiver CPU per POST |",
    "| --- | ---: | ---: | ---: |",
    ...(["each", "kept"] as const).map(
      (kind) =>
        `| ${kind === "each" ? "a connection each" : "kept open (the worker)"} | ${cell(measured[kind], (run) => run.wallMs, "ms")} | ${cell(measured[kind], (run) => run.senderUs, "µs")} | ${cell(measured[kind], (run) => run.receiverUs, "µs")} |`,
    ),
  ].join("\n"),
);

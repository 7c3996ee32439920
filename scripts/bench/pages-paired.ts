/**
 * Two or more builds of the console compared page load by page load, in one run and one browser: `bench:pages` measured
 * one build at a time, and on this machine kind one build's runs spread wider (detail hydrated 2.27-3.49x the ceiling
 * across three runs of one commit) than most changes move it, so a change could not be told from the run it ran in.
 *
 * Start each build with `npm start` on its own ports first (`PORT=3520 SANDBOX_PORT=4520 SANDBOX_DATA=memory
 * SANDBOX_LIFECYCLE=off npm start` in one clone, 3530/4530 in another), then, from the first one's directory:
 *
 *   PAIRED_CONSOLES=3520:4520,3530:4530 npx tsx scripts/bench/pages-paired.ts --runs 30
 *
 * Each run loads the ACH list (then the detail of its first transfer) from every console in turn, the first console
 * of the turn changing with each run, every page left blank after its load so none runs beside another; then the
 * ceiling (the first console's HTML without scripts, ./pages-ceiling.ts). Prints each console's medians and their
 * ratios to the ceiling's paint, as bench:pages does.
 */
import { startCeiling, withoutScripts } from "./pages-ceiling";
import { launchBenchChromium, load, signedIn, staticLoad, type Load } from "./pages-measure";
import { runs, warmUps } from "./pages-setup";
import { sandboxBankAuthorization } from "./run";
import { median } from "./stats";

const consoles = (process.env.PAIRED_CONSOLES ?? "").split(",").map((pair) => {
  const [port, sandboxPort] = pair.split(":").map(Number);
  if (!Number.isInteger(port) || !Number.isInteger(sandboxPort))
    throw new Error(`PAIRED_CONSOLES must list console:sandbox port pairs, e.g. 3520:4520,3530:4530; got "${pair}"`);
  return { origin: `http://127.0.0.1:${port}`, bank: `http://127.0.0.1:${sandboxPort}` };
});
if (consoles.length < 2) throw new Error("PAIRED_CONSOLES must name at least two consoles to compare");

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

async function main() {
  const browser = await launchBenchChromium();
  try {
    const sides = [];
    for (const { origin, bank } of consoles) {
      const answer = await fetch(`${bank}/ach?page_size=1`, { headers: { authorization: sandboxBankAuthorization } });
      if (!answer.ok) throw new Error(`${bank}/ach: HTTP ${answer.status}`);
      const { data } = (await answer.json()) as { data: Array<{ id: string }> };
      sides.push({ origin, page: await signedIn(browser, origin, "viewer@demo.bank", "demo-viewer-pass"), detail: `/ach/${data[0]!.id}` });
    }
    const first = sides[0]!;
    const ceilingHtml = async (path: string) => withoutScripts(await (await first.page.request.get(`${first.origin}${path}`)).text());
    const ceiling = await startCeiling(
      new Map([
        ["/ach", await ceilingHtml("/ach")],
        [first.detail, await ceilingHtml(first.detail)],
      ]),
      ".next/static",
    );
    try {
      for (const kind of ["list", "detail"] as const) {
        const identifier = kind === "list" ? "first-row" : "detail-title";
        const loads: Load[][] = sides.map(() => []);
        const ceilingPaints: number[] = [];
        for (let run = 0; run < runs + warmUps; run++) {
          for (let turn = 0; turn < sides.length; turn++) {
            const index = (run + turn) % sides.length;
            const side = sides[index]!;
            const measured = await load(side.page, `${side.origin}${kind === "list" ? "/ach" : side.detail}`, identifier);
            await side.page.goto("about:blank");
            await settle();
            if (run >= warmUps) loads[index]!.push(measured);
          }
          const paint = (await staticLoad(first.page, `${ceiling.origin}${kind === "list" ? "/ach" : first.detail}`, identifier)).painted;
          if (run >= warmUps) ceilingPaints.push(paint);
        }
        const ceilingPaint = median(ceilingPaints);
        console.log(`\n${kind}: the ceiling painted in ${ceilingPaint.toFixed(0)} ms (median of ${runs})\n`);
        console.log("| console | TTFB | painted | ÷ ceiling | hydrated | ÷ ceiling |\n|---|---:|---:|---:|---:|---:|");
        sides.forEach((side, index) => {
          const of = (measure: (load: Load) => number) => median(loads[index]!.map(measure));
          const [ttfb, painted, hydrated] = [of((l) => l.ttfb), of((l) => l.painted), of((l) => l.hydrated)];
          console.log(
            `| ${side.origin} | ${ttfb.toFixed(0)} ms | ${painted.toFixed(0)} ms | ${(painted / ceilingPaint).toFixed(2)}x | ${hydrated.toFixed(0)} ms | ${(hydrated / ceilingPaint).toFixed(2)}x |`,
          );
        });
      }
    } finally {
      await ceiling.close();
    }
  } finally {
    await browser.close();
  }
}

await main();

/**
 * `tsx scripts/bench/profile-summary.ts <file.cpuprofile> [top]`: where a V8 CPU profile (node --cpu-prof) spent its
 * time, as self time per function and total (inclusive) time per source package or project file. Used on the
 * profiles `BENCH_CPU_PROF=<dir> npm run bench:console` writes for the console process.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArgument] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const top = Number(topArgument ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** A source location grouped coarsely: the npm package, or the project file for our own code. */
function area(url: string): string {
  if (!url) return "(native / V8)";
  const inPackage = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith("node:")) return url;
  const chunk = url.match(/\.next\/server\/(.*)$/);
  return chunk ? `.next/server/${chunk[1]}` : url;
}

const selfTime = new Map<string, number>();
const areaTime = new Map<string, number>();
let total = 0;
profile.samples.forEach((sample, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  total += delta;
  const node = byId.get(sample)!;
  const name = `${node.callFrame.functionName || "(anonymous)"} ${area(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
  selfTime.set(name, (selfTime.get(name) ?? 0) + delta);
  // Inclusive time per area: each area on the sample's stack counts once.
  const seen = new Set<string>();
  for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
    const where = area(byId.get(id)!.callFrame.url);
    if (!seen.has(where)) areaTime.set(where, (areaTime.get(where) ?? 0) + delta);
    seen.add(where);
  }
});

const percent = (value: number) => `${((value / total) * 100).toFixed(1)}%`;
const print = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, time] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${percent(time).padStart(6)}  ${name}`);
};
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
print("self time by function", selfTime);
print("inclusive time by package or file (on the stack)", areaTime);

/**
 * A step-up search over rates, for bench:events' `BENCH_STEP_UP`: the highest rate at which `holds(rate)` is true.
 * From `from`, doubles while a rate holds (up to `ceiling`), or halves while it misses (down to 2/s); then halves the
 * gap between the highest rate that held and the lowest that missed until it is within a quarter of the lower one
 * (or 1/s).
 * Each step is one run of its own: a rate held once is taken as held (a busy machine's noise shows in the report's
 * steps, not in a retry).
 */
export async function highestHeldRate(
  holds: (rate: number) => Promise<boolean>,
  { from, ceiling }: { from: number; ceiling: number },
): Promise<{ highest: number | null; steps: Array<{ rate: number; held: boolean }> }> {
  const steps: Array<{ rate: number; held: boolean }> = [];
  const step = async (rate: number) => {
    const held = await holds(rate);
    steps.push({ rate, held });
    return held;
  };
  let held: number | null = null;
  let missed: number | null = null;
  if (await step(from)) {
    held = from;
    for (let rate = from * 2; rate <= ceiling && missed === null; rate *= 2) {
      if (await step(rate)) held = rate;
      else missed = rate;
    }
  } else {
    missed = from;
    for (let rate = Math.floor(from / 2); rate >= 2 && held === null; rate = Math.floor(rate / 2)) {
      if (await step(rate)) held = rate;
      else missed = rate;
    }
  }
  if (held === null || missed === null) return { highest: held, steps };
  let [low, high] = [held, missed];
  while (high - low > Math.max(1, low / 4)) {
    const middle = Math.round((low + high) / 2);
    if (await step(middle)) low = middle;
    else high = middle;
  }
  return { highest: low, steps };
}

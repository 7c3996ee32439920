/**
 * Next.js calls this once when a server process starts: traces start first when a collector is configured
 * (lib/telemetry/register.ts), so the index's first calls are traced too; then the index of the bank (lib/index/runtime.ts) and the bulk runner.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const [{ env }, { registerTelemetry }] = await Promise.all([import("@/lib/env/console"), import("@/lib/telemetry/register")]);
  registerTelemetry(env);
  const { startBankIndex } = await import("@/lib/index/runtime");
  await startBankIndex();
  // Bulk actions left unfinished by a stopped process are resumed (lib/bulk/runner.ts).
  (await import("@/lib/bulk/console-bulk")).startBulkRuntime();
}

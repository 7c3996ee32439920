/** Next.js calls this once when a server process starts: the index of the bank starts with it (lib/index/runtime.ts). */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startBankIndex } = await import("@/lib/index/runtime");
  await startBankIndex();
}

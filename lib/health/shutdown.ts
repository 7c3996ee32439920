/**
 * The process's clean shutdown (scripts/console-server.ts runs it on SIGTERM and SIGINT): whether it is draining, and
 * what each part of the process does to stop. Kept on globalThis because Next.js bundles instrumentation.ts and every
 * route separately, each with its own copy of this module, while the server script holds yet another.
 */
export type ShutdownStep = (graceMs: number) => Promise<void> | void;

interface ShutdownState {
  draining: boolean;
  steps: Map<string, ShutdownStep>;
}

const state: ShutdownState = ((globalThis as { __consoleShutdown?: ShutdownState }).__consoleShutdown ??= { draining: false, steps: new Map() });

/** True from the first signal on: the readiness route answers 503 "draining" so the load balancer stops sending. */
export const isDraining = () => state.draining;

export function startDraining(): void {
  state.draining = true;
}

/** Registers (or replaces, by name) what a part does when the process stops: end its streams, give back its leases. */
export function onShutdown(name: string, step: ShutdownStep): void {
  state.steps.set(name, step);
}

/** Runs every registered step at once, each given `graceMs`; a step that fails is logged by `report` and the rest go on. */
export async function runShutdownSteps(graceMs: number, report: (name: string, error: unknown) => void = () => {}): Promise<void> {
  await Promise.all([...state.steps].map(async ([name, step]) => Promise.resolve(step(graceMs)).catch((error: unknown) => report(name, error))));
}

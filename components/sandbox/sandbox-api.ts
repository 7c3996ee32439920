/**
 * The shapes of the sandbox bank's control API as the console serves it (`/api/sandbox/...`, docs/sandbox-control.md):
 * what the Sandbox page and the Simulate menu read and send.
 */
export { sandboxApiPath } from "@/lib/bank/browser";
import type { ResetBody } from "@/lib/sandbox-control/schemas";
export type { MovableResource, ResetBody, TransitionBody } from "@/lib/sandbox-control/schemas";

/** `GET .../transitions`: the object's state and the targets reachable from it (instant payments also by external status). */
export interface Transitions {
  status: string;
  external_status?: string;
  valid: string[];
  valid_external_status?: string[];
}

/** A fault as the sandbox stores it ("Faults"). */
export interface SandboxFault {
  id: string;
  match: string | null;
  webhooks: "delay" | "drop" | "duplicate" | null;
  status: 429 | 500 | 503 | null;
  retry_after: number | null;
  latency_ms: number | null;
  drop: boolean;
  delay_ms: number | null;
  share: number;
  seed: string;
  times: number | null;
  expires_at: string | null;
  created_at: string;
}

/**
 * What a reset or a restore did to the console's index of the sandbox (lib/sandbox-control/index-rebuild.ts): emptied
 * and rebuilding from the new data, off in this console, or failed (Settings → Index of the bank repairs it).
 */
export interface IndexAfterReplace {
  index?: "rebuilding" | "off" | "failed";
  index_error?: string;
}

export interface ResetAnswer extends IndexAfterReplace {
  seed: ResetBody["seed"];
  loaded: Record<string, number>;
}

export interface RestoreAnswer extends IndexAfterReplace {
  restored: Record<string, number>;
}

/** Where the browser downloads the whole sandbox as one file (the console's route answers it as an attachment). */
export const snapshotDownloadHref = "/api/sandbox/snapshot";

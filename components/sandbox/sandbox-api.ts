/**
 * The shapes of the sandbox bank's control API as the console serves it (`/api/sandbox/...`, docs/sandbox-control.md):
 * what the Sandbox page and the Simulate menu read and send.
 */
export { sandboxApiPath } from "@/lib/bank/browser";

/** The resources a transition moves (docs/sandbox-control.md, "Transitions"). */
export type SimulatedResource = "ach" | "network_transfer" | "fednow" | "webhook";

/** `GET .../transitions`: the object's state and the targets reachable from it (instant payments also by external status). */
export interface Transitions {
  status: string;
  external_status?: string;
  valid: string[];
  valid_external_status?: string[];
}

/** `POST .../transition`: a status to reach, with the detail it takes; an instant payment may name an external status instead. */
export interface TransitionBody {
  to?: string;
  error?: string;
  external_status?: string;
  external_reject_reason?: string;
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

/** The data set a reset loads: the demo set, nothing, or the demo set with N ACH transfers. */
export type ResetSeed = "demo" | "empty" | number;

export interface ResetAnswer {
  seed: ResetSeed;
  loaded: Record<string, number>;
  /** Set when the console started rebuilding its index of the sandbox from the new data. */
  index?: string;
}

export interface RestoreAnswer {
  restored: Record<string, number>;
}

/** Where the browser downloads the whole sandbox as one file (the console's route answers it as an attachment). */
export const snapshotDownloadHref = "/api/sandbox/snapshot";

import "server-only";
import { readThroughProxy } from "@/lib/api/server-read";
import type { StaffUser } from "@/lib/auth/staff-user";
import { listAuditRecords } from "@/lib/audit/trail";
import type { Environment } from "@/lib/credentials/environments";
import type { ConsoleDb } from "@/lib/db/console-db";
import { failureSummary } from "@/lib/index/timeline";
import { can } from "@/lib/permissions";
import { tokensOfRuns } from "./runs";

export interface RunToken {
  id: string;
  card_id: string;
  created_at: string;
  status: string;
  fulfillment_status: string;
  token_requestor_name: string;
}

export interface SimulationRun {
  id: number;
  at: string;
  actorEmail: string;
  role: string;
  cardId: string | null;
  outcome: string;
  /** The failure's text for roles holding `audit:read`; a plain "failed" for the rest (as the History says it). */
  error: string | null;
  /** The token the run made (lib/simulations/runs.ts), when the bank lists one that fits. */
  token: RunToken | null;
}

export interface SimulationRuns {
  runs: SimulationRun[];
  /** Cards whose tokens could not be read: their runs show no token, and the page says why. */
  unreadCards: Array<{ cardId: string; message: string }>;
}

/**
 * The provisioning simulations run in `environment`, newest first, from the audit trail (`simulation.run`, one record
 * per run, about the card), so the list outlives the page and shows everyone's runs; each with the token it made, read
 * through the proxy like any list (masked, with the reader's permission). Who ran it and when is shown to every role
 * that may run simulations, as in a History; a failure's text only to `audit:read`.
 */
export async function readSimulationRuns(db: ConsoleDb, user: StaffUser, environment: Environment, limit = 20): Promise<SimulationRuns> {
  const records = (await listAuditRecords(db, { action: "simulation.run" }, { limit: 200 }))
    .filter((record) => record.environment === environment)
    .slice(0, limit);
  const cards = [...new Set(records.flatMap((record) => (record.targetId ? [record.targetId] : [])))];
  const unreadCards: SimulationRuns["unreadCards"] = [];
  const tokens = (
    await Promise.all(
      cards.map(async (cardId) => {
        const read = await readThroughProxy<{ data: RunToken[] }>(user, "list_digital_wallet_token", {
          query: { card_id: cardId, page_size: "100" },
        });
        if (read.ok) return read.data.data;
        unreadCards.push({ cardId, message: read.error.message });
        return [];
      }),
    )
  ).flat();
  const byRun = tokensOfRuns(records, tokens);
  const showsErrors = can(user.role, "audit:read");
  return {
    runs: records.map((record) => ({
      id: record.id,
      at: record.at,
      actorEmail: record.actorEmail,
      role: record.role,
      cardId: record.targetId,
      outcome: record.outcome,
      error: record.error && (showsErrors ? record.error : failureSummary.audit),
      token: byRun.get(record.id) ?? null,
    })),
    unreadCards,
  };
}

import { z } from "zod";
import { bankNotConfigured } from "@/lib/api/errors";
import type { RouteDefinition } from "@/lib/api/route";
import type { BankClient } from "@/lib/bank/client";
import { listedResources, opaqueId, type ListedResource } from "@/lib/contract";
import type { Environment } from "@/lib/credentials/environments";
import { csvResponse } from "@/lib/csv/csv-stream";
import { auditedCsvExport, type Audited } from "@/lib/export/audited-csv";
import { maskForViewer } from "@/lib/pii";
import { bulkLimit } from "./codes";

export interface SelectionExportDependencies {
  activeEnvironment(): Promise<Environment>;
  bankClient(environment: Environment): Promise<BankClient | null>;
  audited: Audited;
}

const resourceNames = Object.keys(listedResources) as [ListedResource, ...ListedResource[]];

const selectionBody = z.strictObject(
  {
    resource: z.enum(resourceNames, { error: `resource: expected one of ${resourceNames.join(", ")}` }),
    ids: z
      .array(opaqueId, { error: "ids: expected a list of object ids" })
      .min(1, "ids: select at least one row")
      .max(bulkLimit, `ids: at most ${bulkLimit} rows at a time`),
  },
  { error: 'expected {"resource", "ids": [...]}' },
);

/**
 * `POST /api/bulk/export` `{"resource", "ids"}`: the selected rows as CSV, read from the bank one by one in the order
 * selected, personal data masked, the columns of the list export (lib/export/bank-export.ts). One audit record
 * `<resource>.export`, like every export, naming the ids (`source: "selection"`) and then the rows written. An id the
 * bank does not have is left out (the record's row count says how many were written).
 */
export function selectionExportRoute(dependencies: SelectionExportDependencies): RouteDefinition {
  const route: RouteDefinition<unknown, unknown, z.infer<typeof selectionBody>> = {
    permission: "bank:read",
    body: selectionBody,
    async handle({ user, body, requestId, log }) {
      const environment = await dependencies.activeEnvironment();
      const bank = await dependencies.bankClient(environment);
      if (!bank) throw bankNotConfigured(environment);
      const ids = [...new Set(body.ids)];
      const stream = await auditedCsvExport(dependencies.audited, {
        entry: {
          actor: { id: user.id, email: user.email, role: user.role },
          environment,
          action: `${body.resource}.export`,
          targetId: null,
          before: { ids, revealed: false, source: "selection" },
          requestId,
        },
        columns: Object.keys(listedResources[body.resource].schema.shape),
        open: async () =>
          (async function* rows() {
            for (const id of ids) {
              const row = await bank.resources.get(body.resource, id).catch((error: unknown) => {
                if ((error as { status?: number }).status === 404) return null;
                throw error;
              });
              if (row) yield maskForViewer(body.resource, { ...(row as Record<string, unknown>) });
            }
          })(),
        log,
      });
      return csvResponse(stream, `${body.resource}-selection`);
    },
  };
  return route as RouteDefinition;
}

import { StatusBadge } from "@/components/bank/status-badge";
import { Timestamp } from "@/components/bank/value";
import { Table, Td, Th } from "@/components/ui/table";
import type { IndexOverview } from "@/lib/index/actions-overview";
import { resourceRoutes } from "@/lib/resources/routes";
import { IndexActionButton } from "./index-action-button";
import { Panel, type IndexSettingsActions } from "./panel";

const count = (value: number) => value.toLocaleString("en-US");
const when = (value: string | null) => (value ? <Timestamp value={value} /> : <span className="text-muted">—</span>);

/**
 * The walk of every bank list into the index, per list (objects, pages, done / in progress / interrupted / error), its
 * totals, and what the index holds now per kind, with the inbox's work still to do.
 */
export function BackfillPanel({ overview, actions, configured }: { overview: IndexOverview; actions: IndexSettingsActions; configured: boolean }) {
  const { environment, backfill, contents } = overview;
  const indexed = new Map(contents.byResource.map((row) => [row.resource, row]));
  const walking = backfill.some((list) => list.walk === "in progress");
  const done = backfill.filter((list) => list.walk === "done").length;
  const total = (pick: (list: (typeof backfill)[number]) => number) => count(backfill.reduce((sum, list) => sum + pick(list), 0));
  const indexedTotal = count(contents.byResource.reduce((sum, row) => sum + row.objects, 0));
  return (
    <Panel
      testId={`index-backfill-${environment}`}
      title="Backfill"
      description={`${done} of ${backfill.length} lists walked${walking ? " · walking now" : ""}. Paced by INDEX_BACKFILL_PAGES_PER_SECOND; a stopped walk continues from its kept cursor.`}
      actions={
        configured && !walking ? (
          <>
            {done < backfill.length ? (
              <IndexActionButton
                action={actions.startBackfill}
                fields={{ environment, mode: "resume" }}
                label="Start backfill"
                variant="primary"
                title={`Start the ${environment} backfill?`}
                confirmLabel="Start backfill"
              >
                <p>
                  The console reads every {environment} list of the bank page by page into the index, at the configured pace so the bank&apos;s own
                  users do not feel it. Lists already walked are skipped; a list that stopped continues from its kept cursor.
                </p>
              </IndexActionButton>
            ) : null}
            <IndexActionButton
              action={actions.startBackfill}
              fields={{ environment, mode: "repair" }}
              label="Walk again (repair)"
              title={`Walk every ${environment} list again?`}
              confirmLabel="Walk again"
            >
              <p>
                The kept cursors are forgotten and every {environment} list is read again from its first page, at the configured pace. Objects whose
                state differs from the index get a new version; nothing is deleted.
              </p>
            </IndexActionButton>
          </>
        ) : null
      }
    >
      <dl className="mb-3 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid={`index-inbox-${environment}`}>
        <div className="flex gap-1.5">
          <dt className="text-muted">Notifications waiting</dt>
          <dd className="tabular-nums">{count(contents.inbox.waiting)}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-muted">with errors</dt>
          <dd className={`tabular-nums ${contents.inbox.failing > 0 ? "text-red-700 dark:text-red-400" : ""}`}>{count(contents.inbox.failing)}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-muted">Versions kept</dt>
          <dd className="tabular-nums">{count(contents.versions)}</dd>
        </div>
      </dl>
      <Table aria-label={`${environment} backfill`}>
        <thead className="bg-surface-2">
          <tr>
            <Th>List</Th>
            <Th>Walk</Th>
            <Th className="text-right">Walked</Th>
            <Th className="text-right">Pages</Th>
            <Th>Started</Th>
            <Th>Finished</Th>
            <Th className="text-right">Indexed</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {backfill.map((list) => (
            <tr key={list.resource} data-testid={`index-backfill-${environment}-${list.resource}`}>
              <Td className="py-1.5 whitespace-nowrap">{resourceRoutes[list.resource].title}</Td>
              <Td className="py-1.5">
                <StatusBadge status={list.walk} />
                {list.error ? <p className="mt-0.5 max-w-xs text-xs text-red-700 dark:text-red-400">{list.error}</p> : null}
              </Td>
              <Td className="py-1.5 text-right tabular-nums">{count(list.objects)}</Td>
              <Td className="py-1.5 text-right tabular-nums">{count(list.pages)}</Td>
              <Td className="py-1.5">{when(list.startedAt)}</Td>
              <Td className="py-1.5">{when(list.finishedAt)}</Td>
              <Td className="py-1.5 text-right tabular-nums">
                {count(indexed.get(list.resource)?.objects ?? 0)}
                {indexed.get(list.resource)?.gone ? (
                  <span className="block text-xs text-muted">{count(indexed.get(list.resource)!.gone)} gone</span>
                ) : null}
              </Td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t border-line-strong bg-surface-2 font-medium">
          <tr data-testid={`index-backfill-${environment}-totals`}>
            <Td className="py-1.5">Total</Td>
            <Td className="py-1.5 text-xs whitespace-nowrap text-muted">
              {done} of {backfill.length} done
            </Td>
            <Td className="py-1.5 text-right tabular-nums">{total((list) => list.objects)}</Td>
            <Td className="py-1.5 text-right tabular-nums">{total((list) => list.pages)}</Td>
            <Td className="py-1.5" />
            <Td className="py-1.5" />
            <Td className="py-1.5 text-right tabular-nums">{indexedTotal}</Td>
          </tr>
        </tfoot>
      </Table>
    </Panel>
  );
}

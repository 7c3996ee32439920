"use client";

import { ActionError } from "@/components/actions/action-feedback";
import { Timestamp } from "@/components/bank/value";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import { FaultForm } from "./fault-form";
import { faultWords } from "./fault-words";
import { useRemoveFaults } from "./sandbox-mutations";
import { useSandboxFaults } from "./sandbox-queries";
import { Section } from "./section";

/**
 * The sandbox's active failures, shown to every role that reads the bank (a failing page may be a fault's doing), and
 * for roles holding `sandbox:control` Remove per fault, Remove all and the form that adds one. Removing is not
 * confirmed: it only puts the bank back to answering normally.
 */
export function SandboxFaults() {
  const canControl = useCan("sandbox:control");
  const faults = useSandboxFaults();
  const remove = useRemoveFaults();
  const rows = faults.data?.data ?? [];
  return (
    <Section
      title="Failures"
      testId="sandbox-faults"
      description="Failures on demand: matching API requests answered with an error, late or not at all, and webhook deliveries delayed, dropped or duplicated. They are settings of the running sandbox: a reset or a restore keeps them, a restart of the sandbox clears them. The control API itself is never failed."
    >
      {faults.error ? <ActionError error={faults.error} /> : null}
      {faults.isPending ? <p className="text-sm text-muted">Reading the active failures…</p> : null}
      {faults.data && rows.length === 0 ? (
        <p className="text-sm text-muted" data-testid="faults-none">
          No failure is active: the sandbox answers normally.
        </p>
      ) : null}
      {rows.length > 0 ? (
        <>
          <Table data-testid="faults-table">
            <thead>
              <tr>
                <Th>Applies to</Th>
                <Th>Does</Th>
                <Th>Left</Th>
                <Th>Expires</Th>
                {canControl ? (
                  <Th>
                    <span className="sr-only">Remove</span>
                  </Th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rows.map((fault) => {
                const words = faultWords(fault);
                return (
                  <tr key={fault.id} data-testid="fault-row" data-fault-id={fault.id}>
                    <Td>
                      <span className="font-mono">{words.what}</span>
                      <span className="block font-mono text-xs text-muted">{fault.id}</span>
                    </Td>
                    <Td>{words.how}</Td>
                    <Td className="figure">{fault.times ?? "no limit"}</Td>
                    <Td>{fault.expires_at ? <Timestamp value={fault.expires_at} compact /> : "never"}</Td>
                    {canControl ? (
                      <Td className="text-right">
                        <Button
                          type="button"
                          variant="secondary"
                          size="compact"
                          aria-label={`Remove failure ${fault.id}`}
                          disabled={remove.isPending}
                          onClick={() => remove.mutate(fault.id)}
                        >
                          Remove
                        </Button>
                      </Td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </Table>
          {canControl ? (
            <Button type="button" variant="secondary" disabled={remove.isPending} onClick={() => remove.mutate("all")}>
              Remove all
            </Button>
          ) : null}
        </>
      ) : null}
      <ActionError error={remove.error} />
      {canControl ? <FaultForm /> : null}
    </Section>
  );
}

"use client";

import { useState, type FormEvent } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { Timestamp } from "@/components/bank/value";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { advanceBodySchema } from "@/lib/sandbox-control/schemas";
import { useAdvanceClock } from "./sandbox-mutations";
import { useSandboxClock } from "./sandbox-queries";
import { Section } from "./section";

const presets = [
  { label: "1 hour", by: "PT1H" },
  { label: "1 day", by: "P1D" },
  { label: "1 week", by: "P1W" },
];

/** What is wrong with a duration before it is sent (the shared schema the console's route checks with), or null. */
function durationProblem(by: string): string | null {
  const parsed = advanceBodySchema.safeParse({ by });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "by: not a duration");
}

/**
 * The sandbox's time (the wall clock plus an offset that only grows) and, for roles holding `sandbox:control`,
 * "Advance by": a preset or any ISO 8601 duration, checked before it is sent. Advancing is not confirmed: it is what
 * the person typed and asked for, and changes no data by itself (the lifecycle then takes the steps that time allows).
 */
export function SandboxClock() {
  const canControl = useCan("sandbox:control");
  const clock = useSandboxClock();
  const [by, setBy] = useState("PT1H");
  const [problem, setProblem] = useState<string | null>(null);
  const advance = useAdvanceClock();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = durationProblem(by.trim());
    setProblem(found);
    if (!found) advance.mutate(by.trim());
  }

  // An advance invalidates the clock and waits for its new answer, so the time shown is always the last one read.
  const now = clock.data?.now;
  return (
    <Section
      title="Clock"
      testId="sandbox-clock"
      description="The sandbox bank lives at its own time: new objects, lifecycle steps, settlement dates and webhook retries follow it. It only moves forward; a reset puts it back to the wall clock."
    >
      <p className="text-sm">
        Sandbox time:{" "}
        {now ? (
          <span data-testid="sandbox-clock-now">
            <Timestamp value={now} />
          </span>
        ) : clock.isPending ? (
          <span className="text-muted">reading…</span>
        ) : null}
      </p>
      {clock.error ? <ActionError error={clock.error} /> : null}
      {canControl ? (
        <form onSubmit={submit} className="space-y-2" aria-label="Advance the sandbox clock">
          <div className="flex flex-wrap items-end gap-2">
            <div className="w-48">
              <TextField
                label="Advance by"
                value={by}
                onChange={(change) => {
                  setBy(change.target.value);
                  setProblem(null);
                }}
                aria-invalid={problem ? true : undefined}
                placeholder="PT1H"
                spellCheck={false}
              />
            </div>
            {presets.map((preset) => (
              <Button
                key={preset.by}
                type="button"
                variant="secondary"
                aria-pressed={by === preset.by}
                onClick={() => {
                  setBy(preset.by);
                  setProblem(null);
                }}
              >
                {preset.label}
              </Button>
            ))}
            <Button type="submit" disabled={advance.isPending} aria-busy={advance.isPending}>
              {advance.isPending ? "Advancing…" : "Advance clock"}
            </Button>
          </div>
          <p className="text-xs text-muted">
            An ISO 8601 duration of weeks, days, hours, minutes or seconds (PT30M, P1D, P1DT12H), at most P366D. The lifecycle moves every pending
            transfer as that much time would, and its events are sent.
          </p>
          {problem ? (
            <p role="alert" data-testid="advance-problem" className="text-sm text-red-700 dark:text-red-300">
              {problem}
            </p>
          ) : null}
          <ActionError error={advance.error} />
          {advance.isSuccess ? (
            <p role="status" data-testid="advance-done" className="text-xs text-muted">
              Advanced by {advance.variables}.
            </p>
          ) : null}
        </form>
      ) : null}
    </Section>
  );
}

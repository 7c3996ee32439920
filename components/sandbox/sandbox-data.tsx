"use client";

import { useRef, useState } from "react";
import { ActionError } from "@/components/actions/action-feedback";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { maxResetAch, resetBodySchema, type ResetBody } from "@/lib/sandbox-control/schemas";
import { snapshotDownloadHref, type IndexAfterReplace, type ResetAnswer, type RestoreAnswer } from "./sandbox-api";
import { useResetSandbox, useRestoreSnapshot } from "./sandbox-mutations";
import { Section } from "./section";

type SeedChoice = "demo" | "empty" | "count";

/** "12.4 kB", "3.1 MB": a file's size as the restore's confirmation names it. */
function fileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const [size, unit] = bytes < 1_000_000 ? [bytes / 1000, "kB"] : [bytes / 1_000_000, "MB"];
  return `${size.toFixed(1)} ${unit}`;
}

const seedWords = (seed: ResetBody["seed"]) =>
  seed === "demo" ? "the demo data set" : seed === "empty" ? "nothing (an empty bank)" : `the demo data set with ${seed} ACH transfers`;

/** "350 ach, 150 fednow, …": what a reset loaded or a restore put back, by resource or table. */
const counts = (byName: Record<string, number>) =>
  Object.entries(byName)
    .map(([name, count]) => `${count} ${name}`)
    .join(", ");

/** What became of the console's index, after a reset or restore's result. */
function IndexWords({ answer }: { answer: IndexAfterReplace }) {
  if (answer.index === "rebuilding")
    return <> The console&apos;s index of the sandbox is being rebuilt from the new data; lists are the bank&apos;s answer at once.</>;
  if (answer.index === "failed") {
    return <> The console&apos;s index could not be rebuilt ({answer.index_error}): repair it in Settings → Index of the bank.</>;
  }
  return null;
}

/** Reset to a seed: the seed picked, then the one confirm dialog saying what goes and what stays. */
function Reset() {
  const [choice, setChoice] = useState<SeedChoice>("demo");
  const [count, setCount] = useState("350");
  const [asked, setAsked] = useState<ResetBody["seed"] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [answer, setAnswer] = useState<ResetAnswer | null>(null);
  const reset = useResetSandbox((result) => {
    setAsked(null);
    setAnswer(result);
  });

  function ask() {
    // An empty count is no count (Number("") would be 0, an empty bank nobody asked for).
    const seed = choice === "count" ? (count.trim() === "" ? Number.NaN : Number(count)) : choice;
    const parsed = resetBodySchema.safeParse({ seed });
    setProblem(parsed.success ? null : (parsed.error.issues[0]?.message ?? "seed is not valid"));
    if (parsed.success) {
      reset.reset();
      setAnswer(null);
      setAsked(parsed.data.seed);
    }
  }

  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">Reset</h3>
      <div className="flex flex-wrap items-end gap-2">
        <div className="w-full sm:w-80">
          <SelectField
            label="Data set"
            value={choice}
            onChange={(change) => setChoice(change.target.value as SeedChoice)}
            options={[
              { value: "demo", label: "Demo (350 ACH transfers and the rest)" },
              { value: "empty", label: "Empty" },
              { value: "count", label: "Demo with N ACH transfers" },
            ]}
          />
        </div>
        {choice === "count" ? (
          <div className="w-40">
            <TextField
              label="ACH transfers"
              type="number"
              min={0}
              max={maxResetAch}
              value={count}
              onChange={(change) => setCount(change.target.value)}
            />
          </div>
        ) : null}
        <Button type="button" variant="danger" onClick={ask}>
          Reset the bank…
        </Button>
      </div>
      {problem ? (
        <p role="alert" data-testid="reset-problem" className="text-sm text-red-700 dark:text-red-300">
          {problem}
        </p>
      ) : null}
      {answer ? (
        <Notice tone="success" testId="reset-done">
          Reset to {seedWords(answer.seed)}: loaded {counts(answer.loaded) || "nothing"}.
          <IndexWords answer={answer} />
        </Notice>
      ) : null}
      {asked !== null ? (
        <ConfirmDialog
          open
          title="Reset the sandbox bank?"
          confirmLabel="Reset the bank"
          pending={reset.isPending}
          error={reset.error ? <ActionError error={reset.error} /> : null}
          onConfirm={() => reset.mutate(asked)}
          onCancel={() => setAsked(null)}
        >
          <p>
            Everything at the sandbox bank goes: every transfer, payment, application, counterparty, card and wallet token, every webhook with its
            deliveries and their history, and every event. In its place the bank loads {seedWords(asked)}, with the same ids and times every time. The
            sandbox clock goes back to the wall clock.
          </p>
          <p>
            What stays: the bank&apos;s API keys and the key that signs its tokens, and the active failures (settings, not data). Nothing of the
            console&apos;s own changes: staff, audit trail, approvals. This cannot be undone; download a snapshot first to come back to this state.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** Download the whole bank as one file, and put it back from such a file (confirmed, naming the file). */
function Snapshots() {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [answer, setAnswer] = useState<(RestoreAnswer & { name: string }) | null>(null);
  const restore = useRestoreSnapshot((result) => {
    setAnswer({ ...result, name: file?.name ?? "the file" });
    setFile(null);
    if (input.current) input.current.value = "";
  });
  const rows = answer ? Object.values(answer.restored).reduce((sum, count) => sum + count, 0) : 0;
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">Snapshots</h3>
      <p className="text-xs text-muted">
        A snapshot is the bank&apos;s whole state in one JSON file: every object unmasked, webhooks with their delivery history, events and the clock.
        Restoring it gives exactly that state back.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <a
          href={snapshotDownloadHref}
          download
          data-testid="snapshot-download"
          className="inline-flex items-center justify-center rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium text-fg hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
        >
          Download snapshot
        </a>
        <div>
          <label htmlFor="snapshot-file" className="block text-sm font-medium text-muted">
            Restore from file
          </label>
          <input
            ref={input}
            id="snapshot-file"
            type="file"
            accept="application/json,.json"
            data-testid="snapshot-file"
            className="mt-1 block text-sm file:mr-2 file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:py-1.5 file:text-sm file:text-fg"
            onChange={(change) => {
              restore.reset();
              setAnswer(null);
              setFile(change.target.files?.[0] ?? null);
            }}
          />
        </div>
      </div>
      {answer ? (
        <Notice tone="success" testId="restore-done">
          Restored {answer.name}: {rows} rows in {Object.keys(answer.restored).length} tables.
          <IndexWords answer={answer} />
        </Notice>
      ) : null}
      {file ? (
        <ConfirmDialog
          open
          title="Restore the sandbox bank from a file?"
          confirmLabel="Restore"
          pending={restore.isPending}
          error={restore.error ? <ActionError error={restore.error} /> : null}
          onConfirm={() => restore.mutate(file)}
          onCancel={() => {
            setFile(null);
            if (input.current) input.current.value = "";
          }}
        >
          <p>
            Everything at the sandbox bank is replaced by the state in <span className="font-mono break-all">{file.name}</span> ({fileSize(file.size)}
            ): its objects, webhooks and their delivery history, events and the clock&apos;s offset. What is there now goes, unless a snapshot of it
            was downloaded.
          </p>
          <p>
            The console empties its index of the sandbox and rebuilds it from the restored data. A file that is not a snapshot of this sandbox is
            refused and the bank stays as it is. The active failures stay either way.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/**
 * Reset, snapshot download and restore, for roles holding `sandbox:reset` (admins): a snapshot holds every object
 * unmasked, and a reset or restore replaces what every other user of the sandbox sees.
 */
export function SandboxData() {
  const canReset = useCan("sandbox:reset");
  const canControl = useCan("sandbox:control");
  if (!canReset) {
    return canControl ? (
      <Notice tone="info" testId="sandbox-data-admins">
        Reset and snapshots are for admins: a snapshot holds every object unmasked, and a reset replaces what everyone using the sandbox sees.
      </Notice>
    ) : null;
  }
  return (
    <Section
      title="Data"
      testId="sandbox-data"
      description="Put the bank into a known state: a fixed data set, or a snapshot taken earlier. Every reset and restore is in the audit log."
    >
      <Reset />
      <Snapshots />
    </Section>
  );
}

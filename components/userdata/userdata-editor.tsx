"use client";

import { json, jsonParseLinter } from "@codemirror/lang-json";
import { linter, lintGutter } from "@codemirror/lint";
import CodeMirror, { EditorView } from "@uiw/react-codemirror";
import { useTheme } from "next-themes";
import { useMemo, useState } from "react";
import { ActionError, AuditLink } from "@/components/actions/action-feedback";
import { Button } from "@/components/ui/button";
import { useSaveUserdata } from "@/components/bank/bank-mutations";
import { AwaitingApproval } from "@/components/approvals/awaiting-approval";
import { canonicalJson, jsonDiff } from "@/lib/json-diff";
import { checkUserdata, userdataMaxBytes } from "@/lib/userdata/check";
import { objectIn, objectOf, rowsOf, type KeyValueRow } from "@/lib/userdata/key-values";
import { readBankObject, readUserdata, type CurrentUserdata } from "@/lib/bank/queries";
import { KeyValueEditor } from "./key-value-editor";
import { UserdataChanges } from "./userdata-changes";
import { useLeaveGuard } from "./use-leave-guard";

const pretty = (value: unknown) => JSON.stringify(value ?? {}, null, 2);
const extensions = [json(), linter(jsonParseLinter()), lintGutter(), EditorView.contentAttributes.of({ "aria-label": "Userdata (JSON object)" })];

/**
 * The userdata editor: keys and values (add, change, remove a key without writing JSON) beside the JSON, both over
 * one draft. The JSON: CodeMirror 6 with JSON highlighting, bracket matching and inline parse errors; only a JSON
 * object of at most 1 KB can be saved (size shown live); the diff against the bank's value is shown before saving.
 * Pessimistic: the editor shows what the bank answered, never the draft as saved. Just before saving it re-reads the
 * transfer: when its `updated_at` moved since the editor opened, it does not save, shows the newer value and the diff
 * against it, and a second Save then overwrites knowingly.
 */
export default function UserdataEditor({
  id,
  initial,
  onClose,
  onSaved,
}: {
  id: string;
  initial: CurrentUserdata;
  onClose(): void;
  /** The bank's answer to a save: the page shows it in its Details card instead of the mask (components/bank/resource-detail.tsx). */
  onSaved?(result: CurrentUserdata): void;
}) {
  const { resolvedTheme } = useTheme();
  const [base, setBase] = useState(initial);
  const [text, setText] = useState(() => pretty(initial.userdata));
  const [rows, setRows] = useState<KeyValueRow[]>(() => rowsOf(initial.userdata ?? {}));
  const rowsCheck = useMemo(() => objectOf(rows), [rows]);
  const [conflict, setConflict] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<unknown>(null);
  const check = useMemo(() => checkUserdata(text), [text]);
  const changes = useMemo(() => (check.ok ? jsonDiff(base.userdata ?? {}, check.value) : []), [check, base]);
  const dirty = check.ok ? canonicalJson(check.value) !== canonicalJson(base.userdata ?? {}) : true;
  /** Puts a value in both views' draft. */
  const replaceDraft = (userdata: Record<string, unknown> | null) => {
    setText(pretty(userdata));
    setRows(rowsOf(userdata ?? {}));
  };
  /** Typed JSON: the rows follow whenever it is a valid object. */
  const changeText = (next: string) => {
    setText(next);
    const parsed = objectIn(next);
    if (parsed) setRows(rowsOf(parsed));
  };
  const changeRows = (next: KeyValueRow[]) => {
    setRows(next);
    const made = objectOf(next);
    if (made.ok) setText(pretty(made.value));
  };
  const save = useSaveUserdata(id, (result) => {
    setBase({ userdata: result.userdata, updated_at: result.updated_at });
    replaceDraft(result.userdata);
    setConflict(null);
    onSaved?.({ userdata: result.userdata, updated_at: result.updated_at });
  });
  // A draft held for approval lives on in its change request (docs/approvals.md): leaving loses nothing.
  useLeaveGuard(dirty && !save.awaitingApproval, "The userdata has unsaved changes. Leave and lose them?");

  async function saveIfUnchanged() {
    if (!check.ok) return;
    setChecking(true);
    setCheckError(null);
    save.reset();
    try {
      const now = await readBankObject<{ updated_at: string }>("network_transfer", id);
      if (now.updated_at !== base.updated_at) {
        setBase(await readUserdata(id));
        setConflict(now.updated_at);
        return;
      }
    } catch (error) {
      setCheckError(error);
      return;
    } finally {
      setChecking(false);
    }
    save.mutate(check.value);
  }

  const busy = checking || save.isPending;
  const rowsInvalid = !rowsCheck.ok;
  // The keys follow the JSON while it is an object (too large included, so removing keys can bring it under the limit).
  const keysEditable = useMemo(() => objectIn(text) !== null, [text]);
  const over = check.bytes !== null && check.bytes > userdataMaxBytes;
  return (
    <div className="space-y-3" data-testid="userdata-editor">
      {base.userdata === null ? (
        <p className="text-xs text-muted" data-testid="userdata-null-note">
          This transfer has no userdata (the bank holds <code>null</code>). The editor starts from an empty object, <code>{"{}"}</code>; saving writes
          the object you enter.
        </p>
      ) : null}
      <div className="grid gap-3 lg:grid-cols-2">
        <section aria-label="Keys and values">
          <h3 className="mb-1 text-xs font-semibold text-muted">Keys and values</h3>
          {keysEditable ? null : (
            <p className="mb-1 text-xs text-muted" data-testid="userdata-keys-paused">
              The JSON beside is not a valid object: these are its last valid keys, editable again once it is.
            </p>
          )}
          <KeyValueEditor rows={rows} check={rowsCheck} disabled={busy || !keysEditable} onChange={changeRows} />
        </section>
        <section aria-label="JSON">
          <h3 className="mb-1 text-xs font-semibold text-muted">JSON</h3>
          <div className="overflow-hidden rounded-md border border-line" data-testid="userdata-code">
            <CodeMirror
              value={text}
              onChange={changeText}
              extensions={extensions}
              theme={resolvedTheme === "dark" ? "dark" : "light"}
              minHeight="8rem"
              maxHeight="24rem"
              editable={!busy}
              basicSetup={{ bracketMatching: true, closeBrackets: true, foldGutter: false }}
            />
          </div>
        </section>
      </div>
      <p className="flex flex-wrap justify-between gap-2 text-xs" aria-live="polite">
        <span data-testid="userdata-size" className={over ? "font-semibold text-red-700 dark:text-red-300" : "text-muted"}>
          {check.bytes === null ? "size unknown until the JSON is valid" : `${check.bytes} / ${userdataMaxBytes} bytes`}
        </span>
        {check.ok ? null : (
          <span role="alert" data-testid="userdata-invalid" className="text-red-700 dark:text-red-300">
            {check.reason}
          </span>
        )}
      </p>
      {conflict ? (
        <div
          role="alert"
          data-testid="userdata-conflict"
          className="rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
        >
          Not saved: this transfer changed at the bank (updated {conflict}) after you opened the editor. Its current userdata is below; the diff now
          compares your draft with it. Save again to replace it, or Cancel to keep the bank&apos;s value.
          <pre className="mt-1 overflow-x-auto text-xs" data-testid="userdata-newer">
            {pretty(base.userdata)}
          </pre>
        </div>
      ) : null}
      {check.ok && dirty ? (
        <div data-testid="userdata-diff">
          <h3 className="mb-1 text-xs font-semibold text-muted">Changes against the bank&apos;s value</h3>
          <UserdataChanges changes={changes} />
        </div>
      ) : null}
      <ActionError error={checkError ?? save.error} />
      <AwaitingApproval approval={save.awaitingApproval} />
      {save.isSuccess && !dirty ? (
        <p role="status" data-testid="userdata-saved" className="text-sm text-emerald-800 dark:text-emerald-300">
          Saved: the bank now holds the value shown (updated {base.updated_at}). See{" "}
          <AuditLink target={id} action="network_transfer.userdata.update" />.
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="button" onClick={saveIfUnchanged} disabled={!check.ok || rowsInvalid || !dirty || busy} aria-busy={busy}>
          {checking ? "Checking for changes…" : save.isPending ? "Saving…" : "Save userdata"}
        </Button>
        <Button
          type="button"
          variant="secondary"
          disabled={busy}
          onClick={() => {
            replaceDraft(base.userdata);
            setConflict(null);
            onClose();
          }}
        >
          {dirty ? "Cancel" : "Close"}
        </Button>
      </div>
    </div>
  );
}

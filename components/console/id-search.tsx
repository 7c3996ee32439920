"use client";

import { useOpenById } from "./use-open-by-id";

/** The shell's search box: paste any id and press Enter to open it. */
export function IdSearch() {
  const { open, status, reset } = useOpenById();
  return (
    <form
      role="search"
      className="relative"
      onSubmit={(event) => {
        event.preventDefault();
        void open(String(new FormData(event.currentTarget).get("id") ?? ""));
      }}
    >
      <label htmlFor="id-search" className="sr-only">
        Find by id
      </label>
      <input
        id="id-search"
        name="id"
        type="search"
        placeholder="Find by id (ach_…, nt_…)   Ctrl K"
        autoComplete="off"
        spellCheck={false}
        onChange={reset}
        aria-describedby="id-search-status"
        className="w-72 rounded-md border border-line bg-surface px-2 py-1 font-mono text-xs text-fg placeholder:font-sans placeholder:text-muted"
      />
      <p id="id-search-status" role="status" data-testid="id-search-status" className="absolute left-0 top-full z-20 mt-1 w-96 text-xs">
        {status.state === "checking" ? <span className="rounded bg-surface-2 px-2 py-1 text-muted">Looking up {status.id}…</span> : null}
        {status.state === "failed" ? (
          <span className="block rounded border border-red-300 bg-red-50 px-2 py-1 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">{status.message}</span>
        ) : null}
      </p>
    </form>
  );
}

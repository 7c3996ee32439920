import {
  columnOrderingFeature,
  columnVisibilityFeature,
  constructTable,
  rowSelectionFeature,
  tableFeatures,
  type ColumnDef,
  type RowData,
  type Table,
  type TableOptions,
} from "@tanstack/react-table";

/**
 * The table engine, TanStack Table v9, with the features the console's grid uses and only those (the rest is
 * tree-shaken): columns shown, their order, and rows selected. Widths and the pinned id are the grid's own: a width set
 * is the cell's style and the pinned columns are sticky by CSS, so the engine's sizing and pinning features (about
 * 2 kB gzip more) would only compute offsets the browser already lays out. Sorting is not among them either: a list's
 * order is the bank's or the index's, asked of the server (lib/resources/sorting.ts).
 *
 * This module is a chunk of its own, loaded once the list has hydrated (components/ui/data-table/index.tsx): the
 * server renders the first rows without it, and it was 13.6 kB gzip of every list's first-load JavaScript.
 */
export const gridFeatures = tableFeatures({ columnVisibilityFeature, columnOrderingFeature, rowSelectionFeature });
export type GridFeatures = typeof gridFeatures;
export type GridTable<Row extends RowData> = Table<GridFeatures, Row>;
export type GridColumnDef<Row extends RowData> = ColumnDef<GridFeatures, Row>;
export type GridOptions<Row extends RowData> = Omit<TableOptions<GridFeatures, Row>, "features">;

type Box<T> = { get(): T; set(next: T | ((previous: T) => T)): void; subscribe(): { unsubscribe(): void } };
const unsubscribed = { unsubscribe() {} };

/**
 * The engine's reactivity, render-phase like the React adapter's, without its store subscription (TanStack Store and
 * `use-sync-external-store`): every state the grid gives the engine is controlled (its props), so the component
 * re-renders on a change anyway and nothing needs to observe the engine. Derived values are read live and kept while
 * equal, as the adapter's are, so the engine's memoised models stay the same objects between renders.
 */
function renderPhaseBindings() {
  const writable = <T>(initial: T): Box<T> => {
    let value = initial;
    return {
      get: () => value,
      set: (next) => {
        value = typeof next === "function" ? (next as (previous: T) => T)(value) : next;
      },
      subscribe: () => unsubscribed,
    };
  };
  return {
    createOptionsStore: false,
    wrapExternalAtoms: false,
    addSubscription: () => {},
    batch: (run: () => void) => run(),
    schedule: (run: () => void) => queueMicrotask(run),
    untrack: <T>(read: () => T) => read(),
    createWritableAtom: writable,
    createReadonlyAtom: <T>(read: () => T, options?: { compare?: (a: T, b: T) => boolean }) => {
      const same = options?.compare ?? Object.is;
      let known = false;
      let snapshot: T;
      const get = () => {
        const next = read();
        if (!known || !same(snapshot, next)) {
          snapshot = next;
          known = true;
        }
        return snapshot;
      };
      return { get, subscribe: () => unsubscribed };
    },
  };
}

/** A grid's engine instance, empty until `updateGrid` gives it the grid's options (on every render, as the React adapter does). */
export function createGrid<Row extends RowData>(): GridTable<Row> {
  return constructTable({
    columns: [],
    data: [],
    features: { ...gridFeatures, coreReactivityFeature: renderPhaseBindings() },
  } as unknown as TableOptions<GridFeatures, Row>);
}

export function updateGrid<Row extends RowData>(table: GridTable<Row>, options: GridOptions<Row>) {
  table.setOptions((previous) => ({ ...previous, ...options }));
}

import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";

/**
 * A table in its own horizontally scrolling box (the page never scrolls sideways); the box is positioned so nothing
 * inside (screen-reader-only text included) can reach past it, and focusable so a keyboard can scroll it.
 */
export function Table(props: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="relative overflow-x-auto rounded-md border border-line bg-surface" tabIndex={0}>
      <table className="min-w-full divide-y divide-line text-sm" {...props} />
    </div>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`px-3 py-2 text-left text-xs font-semibold tracking-wide text-muted uppercase ${className}`} {...props} />;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-3 py-2 align-top ${className}`} {...props} />;
}

import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";

export function Table(props: HTMLAttributes<HTMLTableElement>) {
  return (
    <div className="overflow-x-auto rounded-md border border-line bg-surface">
      <table className="min-w-full divide-y divide-line text-sm" {...props} />
    </div>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-muted ${className}`} {...props} />;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-3 py-2 align-top ${className}`} {...props} />;
}

"use client";

import Link from "next/link";
import { exactUtc, formatMoney, relativeTime, shortId, valueAt } from "@/lib/format";
import { detailHref, listHref, type Field, type ValueLink } from "@/lib/resources";
import { CopyButton } from "./copy-button";
import { StatusBadge } from "./status-badge";

const none = <span className="text-muted">—</span>;

function linkFor(link: ValueLink | undefined, value: string): string | undefined {
  if (!link) return undefined;
  return "detail" in link ? detailHref(link.detail, value) : listHref(link.list, { [link.filter]: value });
}

/** A timestamp: relative for reading, the exact UTC time on hover and in the `<time>` element. */
export function Timestamp({ value }: { value: string }) {
  return (
    <time dateTime={value} title={exactUtc(value)} suppressHydrationWarning className="whitespace-nowrap">
      {relativeTime(value)}
    </time>
  );
}

/** An id, shortened for the eye, full in the DOM (title, link, copy). */
export function IdValue({ id, href, full = false }: { id: string; href?: string; full?: boolean }) {
  const text = full ? id : shortId(id);
  return (
    // Inline, not flex: the id's text then belongs to the table cell, which carries the first-row paint mark.
    <span className="whitespace-nowrap font-mono text-xs">
      {href ? (
        <Link href={href} title={id} data-id={id} className="text-accent hover:underline">
          {text}
        </Link>
      ) : (
        <span title={id} data-id={id}>
          {text}
        </span>
      )}
      <CopyButton value={id} />
    </span>
  );
}

function Address({ value }: { value: Record<string, unknown> }) {
  const lines = [
    value.street_line_1,
    value.street_line_2,
    [value.city, value.state, value.postal_code].filter(Boolean).join(", "),
    value.country,
  ].filter((line): line is string => typeof line === "string" && line !== "");
  return (
    <address className="not-italic leading-snug">
      {lines.map((line, index) => (
        <span key={index} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}

/** A JSON value formatted for reading (userdata, bankdata, objects the definitions do not know). */
export function JsonBlock({ value }: { value: unknown }) {
  return (
    <pre className="max-h-96 overflow-auto rounded border border-line bg-surface-2 p-2 font-mono text-xs leading-relaxed">{JSON.stringify(value, null, 2)}</pre>
  );
}

/** One field of a bank object, shown by its format; missing and null values show as a dash. */
export function FieldValue({ field, object, compact = false }: { field: Field; object: unknown; compact?: boolean }) {
  const value = valueAt(object, field.key);
  if (value === null || value === undefined || value === "") return field.format === "json" ? <span className="text-muted">none</span> : none;
  switch (field.format) {
    case "id":
      return <IdValue id={String(value)} href={field.key === "id" ? undefined : linkFor(field.link, String(value))} full={!compact} />;
    case "money":
      return <span className="whitespace-nowrap tabular-nums">{formatMoney(String(value))}</span>;
    case "status":
      return <StatusBadge status={String(value)} />;
    case "timestamp":
      return <Timestamp value={String(value)} />;
    case "date":
      return <span className="whitespace-nowrap tabular-nums">{String(value)}</span>;
    case "boolean":
      return <span>{value === true ? "yes" : value === false ? "no" : String(value)}</span>;
    case "percent":
      return <span className="tabular-nums">{String(value)}%</span>;
    case "json":
      return <JsonBlock value={value} />;
    case "address":
      return typeof value === "object" ? <Address value={value as Record<string, unknown>} /> : <span>{String(value)}</span>;
    case "list": {
      const items = Array.isArray(value) ? value.map(String) : [String(value)];
      if (items.length === 0) return none;
      return (
        <ul className="space-y-0.5">
          {items.map((item) => (
            <li key={item} className="font-mono text-xs">
              {field.link ? <IdValue id={item} href={linkFor(field.link, item)} full /> : item}
            </li>
          ))}
        </ul>
      );
    }
    default: {
      const text = typeof value === "object" ? JSON.stringify(value) : String(value);
      const href = linkFor(field.link, text);
      const className = field.format === "mono" ? "font-mono text-xs" : undefined;
      return href ? (
        <Link href={href} className={`text-accent hover:underline ${className ?? ""}`}>
          {text}
        </Link>
      ) : (
        <span className={className}>{text}</span>
      );
    }
  }
}

"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { Timestamp } from "@/components/format/timestamp";
import { directionMarks, enumWords, formatAmount, formatCalendarDate, formatExpiry, formatPhone, isMaskedText, valueAt } from "@/lib/format";
import type { FailureExplainer } from "@/lib/contract/reason-codes";
import type { Field, ValueLink } from "@/lib/resources";
import { detailHref, listHref } from "@/lib/resources/routes";
import { showsNameBeside } from "@/lib/resources/names-beside";
import { fieldHint, fieldValue, needsFailureWords } from "@/lib/resources/derived";
import { IdValue } from "./id-value";
import { NameBeside } from "./name-beside";
import { StatusBadge } from "./status-badge";
import { useFailureExplainer } from "./use-failure-explainer";

// Its own module, so a page showing times only does not load every field's rendering (the approvals page did).
export { Timestamp };

const none = <span className="text-muted">—</span>;

function linkFor(link: ValueLink | undefined, value: string): string | undefined {
  if (!link) return undefined;
  return "detail" in link ? detailHref(link.detail, value) : listHref(link.list, { [link.filter]: value });
}

/** An amount with its currency, and credit or debit beside it where the object says which. */
export function Amount({ value, currency, direction }: { value: string; currency?: unknown; direction?: unknown }) {
  const mark = typeof direction === "string" ? directionMarks[direction] : undefined;
  return (
    <span className="figure" data-amount={value}>
      {/* One text node (no comment marker between the amount and its space in the HTML). */}
      {`${formatAmount(value, typeof currency === "string" && /^[A-Za-z]{3}$/.test(currency) ? currency : "USD")}${mark ? " " : ""}`}
      {mark ? (
        <abbr title={mark.words} className="direction-mark">
          {mark.mark}
        </abbr>
      ) : null}
    </span>
  );
}

/** A code of the bank's in words, the code itself on hover (Raw JSON keeps it too). */
export function EnumValue({ value }: { value: string }) {
  const words = enumWords(value);
  return <span title={words === value ? undefined : value}>{words}</span>;
}

/** What masking left of a value: shown as it is, never a link (it names nothing that could be opened). */
function Masked({ value, mono }: { value: string; mono?: boolean }) {
  return (
    <span className={`text-muted ${mono ? "font-mono text-xs" : ""}`} title="Masked personal data" data-masked="">
      {value}
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
    <address className="leading-snug not-italic">
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
    <pre className="max-h-96 overflow-auto rounded border border-line bg-surface-2 p-2 font-mono text-xs leading-relaxed">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

interface FieldValueProps {
  field: Field;
  object: unknown;
  compact?: boolean;
}

/**
 * One field of a bank object, shown by its format; missing and null values show as a dash. Only a field a failure
 * code's words explain subscribes to their loading: a list's hundreds of other cells hydrate without a store hook each.
 */
export function FieldValue(props: FieldValueProps) {
  return needsFailureWords(props.field) ? <ExplainedFieldValue {...props} /> : shownValue(props, null);
}

function ExplainedFieldValue(props: FieldValueProps) {
  return shownValue(props, useFailureExplainer());
}

function shownValue({ field, object, compact = false }: FieldValueProps, explain: FailureExplainer | null): ReactNode {
  const value = fieldValue(object, field, explain);
  if (value === null || value === undefined || value === "") return field.format === "json" ? <span className="text-muted">none</span> : none;
  if (isMaskedText(value)) return <Masked value={String(value)} mono={field.format === "mono" || field.format === "id"} />;
  switch (field.format) {
    case "id":
      // A counterparty or card is known by its name: shown beside the id, which stays the link and the copy target.
      return showsNameBeside(field) ? (
        <span className="whitespace-nowrap">
          <IdValue id={String(value)} href={linkFor(field.link, String(value))} full={!compact} />
          <NameBeside id={String(value)} />
        </span>
      ) : (
        <IdValue id={String(value)} href={field.key === "id" ? undefined : linkFor(field.link, String(value))} full={!compact} />
      );
    case "money":
      return (
        <Amount
          value={String(value)}
          currency={field.currency ? valueAt(object, field.currency) : undefined}
          direction={field.direction ? valueAt(object, field.direction) : undefined}
        />
      );
    case "status":
      return <StatusBadge status={String(value)} />;
    case "timestamp":
      return <Timestamp value={String(value)} compact={compact} />;
    case "date":
      return (
        <time dateTime={String(value)} title={String(value)} className="figure">
          {formatCalendarDate(String(value))}
        </time>
      );
    case "phone":
      return (
        <span title={String(value)} className="figure">
          {formatPhone(String(value))}
        </span>
      );
    case "enum":
      return <EnumValue value={String(value)} />;
    case "reason":
      // "R01 Insufficient Funds": the code leads, so a list column shows the start and keeps its width.
      return compact ? (
        <span title={fieldHint(object, field, explain) ?? String(value)} className="block max-w-[8rem] truncate">
          {String(value)}
        </span>
      ) : (
        <span>{String(value)}</span>
      );
    case "code": {
      // A code alone says little to most readers: its title and meaning are the tooltip, and the link lists its kin.
      const href = linkFor(field.link, String(value));
      const code = (
        <abbr title={fieldHint(object, field, explain) ?? undefined} className="font-mono text-xs no-underline">
          {String(value)}
        </abbr>
      );
      return href ? (
        <Link href={href} prefetch={false} className="link">
          {code}
        </Link>
      ) : (
        code
      );
    }
    case "badge":
      return <StatusBadge status={String(value)} tone="info" />;
    case "expiry": {
      const year = valueAt(object, field.key.replace(/_month$/, "_year"));
      return (
        <span className="font-mono text-xs" title={`month ${String(value)}, year ${String(year)}`}>
          {formatExpiry(value, year)}
        </span>
      );
    }
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
              {field.link && !isMaskedText(item) ? <IdValue id={item} href={linkFor(field.link, item)} full /> : item}
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
        <Link href={href} prefetch={false} className={`link ${className ?? ""}`}>
          {text}
        </Link>
      ) : (
        <span className={className}>{text}</span>
      );
    }
  }
}

"use client";

import { useState } from "react";

/** Copies `value` to the clipboard; says so for a moment. */
export function CopyButton({ value, label = "Copy id" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={`${label} ${value}`}
      title={copied ? "Copied" : label}
      onClick={(event) => {
        event.stopPropagation();
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1200);
        });
      }}
      className="copy-button"
    >
      {copied ? "copied" : "copy"}
    </button>
  );
}

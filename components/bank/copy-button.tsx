"use client";

import { useState } from "react";

/** Copies `value` to the clipboard; its text says so for a moment ("copied"). */
export function CopyButton({ value, label = "Copy id" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={`${label} ${value}`}
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

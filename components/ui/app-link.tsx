"use client";

import { useRouter } from "next/navigation";
import type { AnchorHTMLAttributes } from "react";

/**
 * A link to a console page that navigates in the App Router as next/link does (a plain left click; a modified or
 * middle click, or a link with a target, is the browser's), without next/link's prefetching and link status, which
 * these links do not use: a list holds a hundred ids, and each Link hydrates seven hooks and registers itself with
 * the router on mount; this holds one. Only for links whose prefetch would be off anyway (components/bank/id-value.tsx
 * says why). The route progress bar sees its clicks as it sees Link's (components/ui/route-progress.tsx, capture phase).
 */
export function AppLink({ href, onClick, ...anchor }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const router = useRouter();
  return (
    <a
      href={href}
      {...anchor}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        if (anchor.target || anchor.download !== undefined) return;
        event.preventDefault();
        router.push(href);
      }}
    />
  );
}

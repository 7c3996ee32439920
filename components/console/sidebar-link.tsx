"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * A sidebar entry, marked as the current page for its section and everything under it. Not prefetched, as ids are
 * not (components/bank/value.tsx, IdValue): a prefetch brings the route's shape only, and the click asks for the page.
 */
export function SidebarLink({ href, label }: { href: string; label: string }) {
  const pathname = usePathname();
  const current = href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link
      href={href}
      prefetch={false}
      aria-current={current ? "page" : undefined}
      className={`block rounded px-2 py-1 text-sm ${current ? "bg-surface-2 font-medium text-fg" : "text-muted hover:bg-surface-2 hover:text-fg"}`}
    >
      {label}
    </Link>
  );
}

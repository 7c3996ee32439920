"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useEffect } from "react";
import { lastPageCookie } from "@/lib/auth/last-page";

/**
 * Remembers the last console page shown in this browser (a cookie, path and query only), so an explicit sign-in (after
 * signing out, or opening /sign-in by hand) returns there; the sign-in page checks it with `safeReturnPath` like any
 * `from`.
 */
export function LastPageRecorder() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  useEffect(() => {
    const search = searchParams.toString();
    const path = search ? `${pathname}?${search}` : pathname;
    if (path.length > 1024) return;
    document.cookie = `${lastPageCookie}=${encodeURIComponent(path)}; path=/; max-age=${60 * 60 * 24 * 30}; samesite=lax`;
  }, [pathname, searchParams]);
  return null;
}

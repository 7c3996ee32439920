"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, type ReactNode } from "react";
import { keepTabInside } from "@/components/ui/focus-trap";

/**
 * Below 1024 px the sidebar is not shown beside the page: this button opens it as a modal drawer (the platform's
 * `<dialog>`: Tab stays inside, Escape closes, focus returns to the button). It closes when a new page is shown.
 */
export function MenuDrawer({ children }: { children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const pathname = usePathname();

  useEffect(() => {
    if (dialog.current?.open) dialog.current.close();
  }, [pathname]);

  return (
    <>
      <button
        type="button"
        data-testid="menu-button"
        aria-haspopup="dialog"
        onClick={() => dialog.current?.showModal()}
        className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-line px-2 py-1 text-xs font-medium hover:bg-surface-2 lg:hidden"
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="1.6">
          <path d="M2 4h12M2 8h12M2 12h12" />
        </svg>
        Menu
      </button>
      <dialog
        ref={dialog}
        aria-label="Sections"
        data-testid="menu-drawer"
        onKeyDown={keepTabInside}
        onClick={(event) => {
          // A click on the backdrop (the dialog element itself, outside its panel) closes it.
          if (event.target === event.currentTarget) event.currentTarget.close();
        }}
        className="m-0 h-dvh max-h-dvh w-64 max-w-[85vw] border-r border-line bg-surface p-0 text-fg shadow-xl backdrop:bg-black/40 lg:hidden"
      >
        <div className="flex justify-end p-2">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="rounded-md border border-line px-2 py-1 text-xs hover:bg-surface-2"
          >
            Close
          </button>
        </div>
        {children}
      </dialog>
    </>
  );
}

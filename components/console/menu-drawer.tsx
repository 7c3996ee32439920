"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { keepTabInside } from "@/components/ui/focus-trap";

/**
 * Below 1024 px the sidebar is not shown beside the page: this button opens it as a modal drawer (the platform's
 * `<dialog>`: Tab stays inside, Escape closes, focus returns to the button). It closes when a new page is shown. Its
 * sections are rendered only while it is open: the sidebar beside the page already has them, and a page that drew and
 * hydrated them twice (hidden in the closed drawer) spent an eighth of a detail page's components on it.
 */
export function MenuDrawer({ children }: { children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const pathname = usePathname();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (dialog.current?.open) dialog.current.close();
  }, [pathname]);

  return (
    <>
      <button
        type="button"
        data-testid="menu-button"
        aria-haspopup="dialog"
        onClick={() => {
          setOpen(true);
          dialog.current?.showModal();
        }}
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
        onClose={() => setOpen(false)}
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
        {open ? children : null}
      </dialog>
    </>
  );
}

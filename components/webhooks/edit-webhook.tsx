"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { lazyComponent } from "@/components/ui/lazy-component";
import type { Webhook } from "@/lib/contract";

// The form and its dialog load when "Edit" is clicked: they do not count against every detail page's first load.
const EditWebhookDialog = lazyComponent(() => import("./edit-webhook-dialog").then((module) => module.default), { ssr: false });

/** "Edit" on a webhook's page (the caller shows it to `webhook:write` only); the dialog is edit-webhook-dialog.tsx. */
export function EditWebhook({ id, object, onSaved }: { id: string; object: Record<string, unknown>; onSaved(webhook: Webhook): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant="secondary" onClick={() => setOpen(true)} data-testid="edit-webhook">
        Edit
      </Button>
      {open ? <EditWebhookDialog id={id} object={object} onSaved={onSaved} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

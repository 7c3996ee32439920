"use client";

import { useState } from "react";
import { useCan } from "@/components/console/providers";
import { Button } from "@/components/ui/button";
import { lazyComponent } from "@/components/ui/lazy-component";

const newWebhookButton = (props: { onClick?(): void; onPointerEnter?(): void; onFocus?(): void; disabled?: boolean }) => (
  <div className="mb-4">
    <Button type="button" aria-busy={props.disabled || undefined} {...props}>
      New webhook
    </Button>
  </div>
);

// The form, its checks and the create mutation are a chunk of their own, loaded when "New webhook" is first pressed
// (fetched ahead on hover or focus): most visits to the webhooks list create none (docs/benchmarks.md, pages).
const CreateWebhook = lazyComponent(() => import("./create-webhook").then((module) => module.CreateWebhook), {
  fallback: newWebhookButton({ disabled: true }),
});

/** "New webhook" on the webhooks list, for roles holding `webhook:write`: the button, then the form it opens. */
export function NewWebhook() {
  const canWrite = useCan("webhook:write");
  const [pressed, setPressed] = useState(false);
  if (!canWrite) return null;
  if (pressed) return <CreateWebhook />;
  return newWebhookButton({ onClick: () => setPressed(true), onPointerEnter: CreateWebhook.preload, onFocus: CreateWebhook.preload });
}

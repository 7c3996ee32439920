import { createdAt, id, timestamps, type ResourceDefinition } from "../types";

export const webhooks: ResourceDefinition = {
  name: "webhook",
  title: "Webhooks",
  singular: "Webhook",
  route: "/webhooks",
  apiPath: "/webhook",
  idPrefix: "webhook_",
  columns: [
    id(),
    { key: "status", label: "Status", format: "status" },
    { key: "event", label: "Event", format: "mono" },
    { key: "url", label: "URL", format: "mono" },
    { key: "error", label: "Last error" },
    createdAt,
  ],
  filters: { event: { label: "Event", hint: "e.g. ach.update" } },
  headline: { key: "event", label: "Event", format: "mono" },
  sections: [
    {
      title: "Webhook",
      fields: [
        { key: "status", label: "Status", format: "status" },
        { key: "event", label: "Event", format: "mono" },
        { key: "url", label: "URL", format: "mono" },
        { key: "basic_user", label: "Basic auth user", format: "mono" },
        { key: "error", label: "Why it entered error" },
      ],
    },
    timestamps,
    { title: "Data", fields: [{ key: "userdata", label: "User data", format: "json" }] },
  ],
};

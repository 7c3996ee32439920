import { createdAt, dataSection, id, status, timestamps, type ResourcePage } from "../types";

export const webhooks: ResourcePage = {
  name: "webhook",
  columns: [
    id(),
    status,
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
        status,
        { key: "event", label: "Event", format: "mono" },
        { key: "url", label: "URL", format: "mono" },
        { key: "basic_user", label: "Basic auth user", format: "mono" },
        { key: "error", label: "Why it entered error" },
      ],
    },
    timestamps,
    dataSection("userdata"),
  ],
};

import { resourcePaths } from "./names";

export type EventOp = "create" | "update";
/** What a notification's `op` may say: an event's, or `test` for the test notification (`POST /webhook/{id}/test`). */
export type NotificationOp = EventOp | "test";
export const eventNames = Object.keys(resourcePaths).flatMap((resource) => [`${resource}.create`, `${resource}.update`]);

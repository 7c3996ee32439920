import { resourcePaths } from "./names";

export type EventOp = "create" | "update";
export const eventNames = Object.keys(resourcePaths).flatMap((resource) => [`${resource}.create`, `${resource}.update`]);

/** The audit trail's CSV columns, in order (cells are written by the shared writer's rules: lib/csv). */
export const auditCsvColumns = [
  "id",
  "at",
  "actorEmail",
  "actorId",
  "role",
  "environment",
  "action",
  "targetId",
  "outcome",
  "error",
  "requestId",
  "before",
  "after",
] as const;

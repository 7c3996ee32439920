import { environments, isEnvironment, type Environment } from "@/lib/credentials/environments";
import { approvalStatuses, isApprovalStatus, type ApprovalStatus } from "./codes";
import type { ChangeRequestFilter } from "./store";

/**
 * The list's filters from the URL: `status` (pending by default, or approved, rejected, withdrawn, expired, any),
 * `environment` (any by default), `before` (a request number: the next page). An unknown value is named in `problems`
 * and that filter keeps its default.
 */
export function approvalFilterFrom(query: Record<string, string | string[] | undefined>): { filter: ChangeRequestFilter; problems: string[] } {
  const problems: string[] = [];
  const one = (name: string) => {
    const value = query[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const status = one("status");
  const environment = one("environment");
  const before = one("before");
  let statusValue: ApprovalStatus | "any" = "pending";
  if (status !== undefined && status !== "") {
    if (status === "any" || isApprovalStatus(status)) statusValue = status;
    else problems.push(`status: expected one of ${[...approvalStatuses, "any"].join(", ")}`);
  }
  let environmentValue: Environment | "any" = "any";
  if (environment !== undefined && environment !== "") {
    if (environment === "any" || isEnvironment(environment)) environmentValue = environment;
    else problems.push(`environment: expected one of ${[...environments, "any"].join(", ")}`);
  }
  let beforeValue: number | undefined;
  if (before !== undefined && before !== "") {
    if (/^[1-9][0-9]{0,15}$/.test(before)) beforeValue = Number(before);
    else problems.push("before: expected a request number");
  }
  return { filter: { status: statusValue, environment: environmentValue, before: beforeValue }, problems };
}

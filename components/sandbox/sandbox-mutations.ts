"use client";

import { useBankAction } from "@/components/bank/use-bank-action";
import { bankKeys } from "@/lib/bank/query-keys";
import type { Environment } from "@/lib/credentials/environments";
import type { ResetAnswer, ResetBody, RestoreAnswer, SandboxFault, MovableResource, TransitionBody } from "./sandbox-api";

/**
 * Every change the console makes to the sandbox bank through its control API, by name, on the one mutation helper:
 * each knows its request and which cached answers it makes stale.
 */

/** A reset, a restore or an advance of the clock can change every object: every cached answer of the sandbox goes stale. */
const everything = (environment: Environment) => [bankKeys.all(environment)];

/** Move the sandbox's clock forward by an ISO 8601 duration; the lifecycle lives through the time, so anything may have moved. */
export const useAdvanceClock = () =>
  useBankAction<string, { now: string }>({
    request: (by) => ({ api: "sandbox", method: "POST", path: "/clock/advance", body: { by } }),
    invalidates: everything,
  });

export const useAddFault = (onSuccess: (fault: SandboxFault) => void) =>
  useBankAction<Record<string, unknown>, SandboxFault>({
    request: (body) => ({ api: "sandbox", method: "POST", path: "/faults", body }),
    invalidates: (environment) => [bankKeys.sandboxFaults(environment)],
    onSuccess,
  });

/** Remove one fault by id, or every one (`"all"`). */
export const useRemoveFaults = () =>
  useBankAction<string, undefined>({
    request: (id) => ({ api: "sandbox", method: "DELETE", path: id === "all" ? "/faults" : `/faults/${encodeURIComponent(id)}` }),
    invalidates: (environment) => [bankKeys.sandboxFaults(environment)],
  });

export const useResetSandbox = (onSuccess: (answer: ResetAnswer) => void) =>
  useBankAction<ResetBody["seed"], ResetAnswer>({
    request: (seed) => ({ api: "sandbox", method: "POST", path: "/reset", body: { seed } }),
    invalidates: everything,
    onSuccess,
  });

/** Put the sandbox back into the state a downloaded snapshot file holds; the file is sent as it is. */
export const useRestoreSnapshot = (onSuccess: (answer: RestoreAnswer) => void) =>
  useBankAction<File, RestoreAnswer>({
    request: (file) => ({ api: "sandbox", method: "PUT", path: "/snapshot", body: file }),
    invalidates: everything,
    onSuccess,
  });

/** Move one object to a state now: its page (and the transitions under its key) and its lists go stale. */
export const useSimulateTransition = (resource: MovableResource, id: string, onSuccess: () => void) =>
  useBankAction<TransitionBody, Record<string, unknown>>({
    request: (body) => ({ api: "sandbox", method: "POST", path: `/${resource}/${encodeURIComponent(id)}/transition`, body }),
    invalidates: (environment) => [bankKeys.detail(environment, resource, id), bankKeys.lists(environment, resource)],
    onSuccess,
  });

import type { Environment } from "@/lib/credentials/environments";
import { seal, unseal } from "@/lib/credentials/seal";
import { sealedNames, withoutSecrets, type ChangeRequestRow } from "./store";

/**
 * A held change's body as stored while it waits: its secrets (store.ts, `secretFields`) sealed apart, the rest as
 * submitted, with the names of the sealed fields. The sealing context names a random handle stored with the payload,
 * so a sealed secret cannot be moved to another request. `key` is asked for only when there is a secret to seal.
 */
export function sealPayload(body: unknown, environment: Environment, key: () => Buffer): { stored: unknown; sealedSecrets: string | null } {
  const { payload, secrets } = withoutSecrets(body);
  const handle = crypto.randomUUID();
  const sealedSecrets = secrets ? seal(JSON.stringify(secrets), key(), sealContext(environment, handle)) : null;
  const stored = secrets ? { ...(payload as Record<string, unknown>), $sealed: Object.keys(secrets), $handle: handle } : payload;
  return { stored, sealedSecrets };
}

/** The body the maker submitted, secrets unsealed again (only ever on the way to the bank or the credentials store). */
export function unsealPayload(row: ChangeRequestRow, key: () => Buffer): Record<string, unknown> {
  const payload = { ...((row.payload ?? {}) as Record<string, unknown>) };
  const names = sealedNames(row);
  const handle = payload.$handle;
  delete payload.$sealed;
  delete payload.$handle;
  if (!names.length || !row.sealedSecrets || typeof handle !== "string") return payload;
  const secrets = JSON.parse(unseal(row.sealedSecrets, key(), sealContext(row.environment, handle))) as Record<string, unknown>;
  return { ...payload, ...secrets };
}

const sealContext = (environment: Environment, id: string) => `change_request:${environment}:${id}`;

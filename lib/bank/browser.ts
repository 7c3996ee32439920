/**
 * The browser's way to the bank: `/api/bank/...` on the console (never the bank itself; credentials stay on the
 * server). Failed answers become one error type carrying the console's `{"error": {code, message}}` and the request
 * id, so every error state can say what failed and quote the id.
 */
export class ConsoleApiError extends Error {
  override readonly name = "ConsoleApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** A short title for an error state: what kind of failure it is, before the message says why. */
export function describeFailure(error: unknown): { title: string; message: string; requestId: string | null } {
  if (!(error instanceof ConsoleApiError)) {
    return { title: "The console could not be reached", message: error instanceof Error ? error.message : String(error), requestId: null };
  }
  const titles: Record<string, string> = {
    bank_unreachable: "The bank is down or unreachable",
    bank_timeout: "The bank timed out",
    bank_error: "The bank failed",
    bank_unavailable: "The bank is unavailable",
    bank_invalid_response: "The bank's answer is malformed",
    bank_credentials_refused: "The bank refused the console's credentials",
    bank_not_configured: "No bank connection",
    forbidden: "Not allowed (403)",
    unauthorized: "Signed out",
    not_found: "Not found",
  };
  const title = titles[error.code] ?? (error.status >= 500 ? `Failed (HTTP ${error.status})` : `Refused (HTTP ${error.status})`);
  return { title, message: error.message, requestId: error.requestId };
}

export async function fetchConsole<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}), ...init?.headers },
  });
  const requestId = response.headers.get("x-request-id");
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ConsoleApiError(
      response.status,
      "invalid_answer",
      `The console answered HTTP ${response.status} with something that is not JSON.`,
      requestId,
    );
  }
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ConsoleApiError(response.status, error?.code ?? "unknown", error?.message ?? `HTTP ${response.status}`, requestId);
  }
  return body as T;
}

/** One page of a bank list as the console returns it (`page_next` already points at the console). */
export interface BankPage<T = Record<string, unknown>> {
  data: T[];
  page_next?: string;
}

export const bankApiPath = (apiPath: string, query?: Record<string, string>) => {
  const search = query ? new URLSearchParams(query).toString() : "";
  return `/api/bank${apiPath}${search ? `?${search}` : ""}`;
};

/** The console's routes over the sandbox bank's control API (docs/sandbox-control.md): `/api/sandbox<path>`. */
export const sandboxApiPath = (path: string) => `/api/sandbox${path}`;

import { request, type Browser, type BrowserContext } from "@playwright/test";
import type { Role } from "@/lib/permissions";
import { resourceList } from "@/lib/resources";
import { demoUser, hydratingPages, signIn } from "./staff";

/** The sandbox bank the e2e run started (playwright.config.ts), read directly: the answers the console must match. */
export const sandboxUrl = `http://127.0.0.1:${Number(process.env.E2E_SANDBOX_PORT ?? 4110)}`;
const demoKey = { username: "sandbox-demo-key", password: "sandbox-demo-secret-change-me" };

export interface BankListAnswer {
  data: Array<Record<string, unknown> & { id: string }>;
  page_next?: string;
}

export async function bankGet<T = BankListAnswer>(path: string): Promise<T> {
  const context = await request.newContext({ httpCredentials: { ...demoKey, send: "always" } });
  try {
    const response = await context.get(`${sandboxUrl}${path}`);
    if (!response.ok()) throw new Error(`sandbox bank ${path} answered ${response.status()}: ${await response.text()}`);
    return (await response.json()) as T;
  } finally {
    await context.dispose();
  }
}

/** A change made at the sandbox bank directly (as another system would), bypassing the console. */
export async function bankSend<T = unknown>(method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const context = await request.newContext({ httpCredentials: { ...demoKey, send: "always" } });
  try {
    const response = await context.fetch(`${sandboxUrl}${path}`, { method, ...(body === undefined ? {} : { data: body }) });
    const text = await response.text();
    return { status: response.status(), body: (text ? JSON.parse(text) : undefined) as T };
  } finally {
    await context.dispose();
  }
}

/** The query of the bank's `page_next` URL, as a console list URL would carry it. */
export function nextCursor(answer: BankListAnswer): string | undefined {
  return answer.page_next ? (new URL(answer.page_next).searchParams.get("page_cursor") ?? undefined) : undefined;
}

const savedStates = new Map<Role, Awaited<ReturnType<BrowserContext["storageState"]>>>();

/**
 * A browser context signed in as the demo user of `role`, from a session saved once per spec file (signing in is the
 * slow part; the sign-in spec covers it).
 */
export async function contextAs(
  browser: Browser,
  role: Role,
  options: { colorScheme?: "light" | "dark"; timezoneId?: string; javaScriptEnabled?: boolean } = {},
): Promise<BrowserContext> {
  let state = savedStates.get(role);
  if (!state) {
    const context = await browser.newContext();
    await signIn(await context.newPage(), demoUser(role));
    state = await context.storageState();
    savedStates.set(role, state);
    await context.close();
  }
  const context = await browser.newContext({
    storageState: state,
    colorScheme: options.colorScheme ?? "light",
    timezoneId: options.timezoneId,
    javaScriptEnabled: options.javaScriptEnabled,
  });
  // Without JavaScript there is nothing to hydrate: the page is the server's HTML alone.
  return options.javaScriptEnabled === false ? context : hydratingPages(context);
}

/**
 * Every page of the console a person opens, for the specs that look at all of them (the shell at every width, axe):
 * home, each list (with `listQuery` appended) and one detail of each, and the console's own pages.
 */
export async function everyConsolePage(listQuery = ""): Promise<string[]> {
  const details = await Promise.all(
    resourceList.map(async (definition) => {
      const [first] = (await bankGet(`${definition.apiPath}?page_size=1`)).data;
      return first ? [`${definition.route}/${first.id}`] : [];
    }),
  );
  return [
    "/",
    ...resourceList.map((definition) => `${definition.route}${listQuery}`),
    ...details.flat(),
    "/reviews",
    "/events",
    "/search?q=a",
    "/views",
    "/simulations",
    "/sandbox",
    "/audit",
    "/approvals?status=any",
    "/settings/staff",
    "/settings/credentials",
    "/settings/index",
  ];
}

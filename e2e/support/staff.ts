import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { demoUsers } from "@/lib/auth/demo-users";
import type { Role } from "@/lib/permissions";

export function demoUser(role: Role) {
  const user = demoUsers.find((candidate) => candidate.role === role);
  if (!user) throw new Error(`no demo user for role ${role}`);
  return user;
}

/**
 * Signs in through the real form and waits until the console has left the sign-in page, for up to `timeoutMs` (a
 * console process started just before answers its first sign-in slower: give it more).
 */
export async function signIn(page: Page, credentials: { email: string; password: string }, from?: string, timeoutMs = 20_000) {
  // Right after a sign-out the page may still be on its way to sign-in (the redirect, or the live stream ending with the
  // session), which aborts a navigation started meanwhile: that one is started again.
  await expect(async () => {
    await page.goto(from ? `/sign-in?from=${encodeURIComponent(from)}` : "/sign-in");
  }).toPass({ timeout: 15_000 });
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // A password check costs ~1 s of scrypt on an idle core (docs/benchmarks.md); a busy test machine needs more.
  await expect(page).not.toHaveURL(/\/sign-in/, { timeout: timeoutMs });
}

/** A fresh browser context signed in as the demo user of `role`; its `request` carries the session cookie. */
export async function signedInContext(browser: Browser, role: Role): Promise<{ context: BrowserContext; page: Page }> {
  const context = hydratingPages(await browser.newContext());
  const page = await context.newPage();
  await signIn(page, demoUser(role));
  return { context, page };
}

/**
 * Waits until the console page has hydrated: before that a link is plain HTML, a click loads the next page in full and
 * a key does nothing, without the client-side behaviour a test may be looking at. The providers' `console:hydrated`
 * mark is not enough: React hydrates each Suspense boundary's content after the shell (the progress bar, the page
 * itself under its loading state), so every control and test id is waited for until React has taken it over.
 */
export async function waitForHydration(page: Page, options: { timeout?: number } = {}) {
  // Polled from here, not inside the page: a test may have installed a fake clock there (`page.clock`), which stops
  // the page's own timers and animation frames, and so any wait that runs on them.
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            // A page outside the console's layout (sign-in, an API answer) has nothing of this to wait for.
            !document.querySelector("main#content") ||
            (performance.getEntriesByName("console:hydrated").length > 0 &&
              [...document.querySelectorAll("body a, body button, body input:not([type=hidden]), body select, body [data-testid]")].every((element) =>
                Object.keys(element).some((key) => key.startsWith("__reactFiber$")),
              )),
        ),
      { timeout: options.timeout ?? 30_000, intervals: [50, 100, 200] },
    )
    .toBe(true);
}

/**
 * The context's pages wait, after each `goto` that waits for the load (the default), until the console page has
 * hydrated: a test then acts on the page as a person would, once it works, however busy the machine is.
 */
export function hydratingPages(context: BrowserContext): BrowserContext {
  const newPage = context.newPage.bind(context);
  context.newPage = async () => {
    const page = await newPage();
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil === undefined || options.waitUntil === "load") await waitForHydration(page, { timeout: 30_000 });
      return response;
    };
    return page;
  };
  return context;
}

/**
 * The staff member's open page has lost access: its next request lands on sign-in. Its live stream, ending with the
 * session, may take it there by itself first, and a reload racing that navigation is aborted, so a reload's failure
 * is not the test's; the page's URL is. The next API request with its cookie is refused too.
 */
export async function expectSignedOut(page: Page) {
  await expect(async () => {
    if (!page.url().includes("/sign-in")) await page.reload().catch(() => undefined);
    await expect(page).toHaveURL(/\/sign-in/, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  expect((await page.context().request.get("/api/bank/ach?page_size=1")).status()).toBe(401);
}

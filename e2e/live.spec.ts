import { expect, request, test } from "@playwright/test";
import { startReceiver } from "@/tests/support/webhook-receiver";
import { baseURL } from "../playwright.config";
import { bankGet, bankSend, contextAs, type BankListAnswer } from "./support/bank";
import { expectLiveUpdate, markPage, marker, stillSamePage, waitUntilLive } from "./support/live";
import { signedInContext } from "./support/staff";

/**
 * Live pages: changes at the sandbox bank reach open pages through the console's index and /api/live, with no reload:
 * a detail page (its fields, and its status and timeline when the sandbox moves it), a list's "new or changed" bar, a
 * simulation's token, Home's attention cards; a dropped connection caught up. Two console processes on one
 * PostgreSQL: live-two-consoles.spec.ts.
 */

// A shared test machine can be slow to sign in and render: each test gets room beyond the default 30 s.
test.describe.configure({ timeout: 120_000 });

interface Webhook {
  id: string;
  status: string;
}

/** Finished transfers: the sandbox's lifecycle leaves them alone, so only the test changes them. */
async function sentTransfer(index: number) {
  return (await bankGet<BankListAnswer>(`/network_transfer?status=sent&page_size=${index + 1}`)).data[index]!;
}

test("the live route: 401 signed out, 400 naming a malformed after or Last-Event-ID, and a stream that opens with ready", async ({ browser }) => {
  const anonymous = await request.newContext();
  const signedOut = await anonymous.get(`${baseURL}/api/live`);
  expect(signedOut.status()).toBe(401);
  await anonymous.dispose();

  const context = await contextAs(browser, "viewer");
  try {
    const malformed = await context.request.get(`${baseURL}/api/live?after=abc`);
    expect(malformed.status()).toBe(400);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid query: after: expected a version id/);
    const header = await context.request.get(`${baseURL}/api/live`, { headers: { "Last-Event-ID": "12x" } });
    expect(header.status()).toBe(400);
    expect(((await header.json()) as { error: { message: string } }).error.message).toMatch(/^Invalid Last-Event-ID header/);

    const page = await context.newPage();
    await page.goto("/webhooks");
    const opening = await page.evaluate(async () => {
      const response = await fetch("/api/live?after=0");
      const reader = response.body!.getReader();
      let text = "";
      while (!text.includes("event: ready")) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      return {
        type: response.headers.get("content-type"),
        buffering: response.headers.get("x-accel-buffering"),
        encoding: response.headers.get("content-encoding"),
        text,
      };
    });
    expect(opening.type).toBe("text/event-stream; charset=utf-8");
    expect(opening.buffering).toBe("no");
    // Not compressed: a gzip stream per tab cost the console CPU for every event and may hold events back.
    expect(opening.encoding).toBeNull();
    // Ids and kinds only: each change's data is its environment, resource and object id, nothing of the object.
    for (const data of opening.text.matchAll(/^event: change\nid: \d+\ndata: (.*)$/gm)) {
      expect(Object.keys(JSON.parse(data[1]!) as object)).toEqual(["environment", "resource", "id"]);
    }
    expect(opening.text).toMatch(/event: ready\nid: \d+\ndata: \{"latestId":\d+\}\n\n$/);
  } finally {
    await context.close();
  }
});

test("a network transfer's detail page shows a change made at the bank, without a reload", async ({ browser }) => {
  const transfer = await sentTransfer(3);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  try {
    await page.goto(`/network-transfers/${transfer.id}`);
    await expectLiveUpdate(page, transfer.id, async (body) => {
      const answer = await bankSend<{ updated_at: string }>("PATCH", `/network_transfer/${transfer.id}`, body);
      expect(answer.status).toBe(200);
      return answer.body;
    });
  } finally {
    await context.close();
  }
});

test("a dropped live connection says so, reconnects from the last change it saw, and the page catches up without a reload", async ({
  browser,
}, testInfo) => {
  const transfer = await sentTransfer(4);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  const streams: string[] = [];
  page.on("request", (sent) => {
    if (new URL(sent.url()).pathname === "/api/live") streams.push(sent.url());
  });
  try {
    await page.goto(`/network-transfers/${transfer.id}`);
    await waitUntilLive(page);
    await markPage(page);
    const indicator = page.getByTestId("live-indicator");
    // Offline, new connections fail; stopping the page's loading ends the open stream as a dropped network would.
    await context.setOffline(true);
    await page.evaluate(() => window.stop());
    await expect(indicator).toHaveAttribute("data-status", "reconnecting", { timeout: 10_000 });
    // Three failed attempts in a row (after 1, 2 s): it says offline, and keeps trying.
    await expect(indicator).toHaveAttribute("data-status", "offline", { timeout: 15_000 });
    await expect(indicator).toHaveText("Live updates: Offline");
    await indicator.screenshot({ path: testInfo.outputPath("live-indicator-offline.png") });

    // A change while the tab cannot hear: it arrives with the catch-up once the connection is back.
    await page.waitForTimeout(1_100); // updated_at has one-second resolution
    const { status, body } = await bankSend<{ updated_at: string }>("PATCH", `/network_transfer/${transfer.id}`, { userdata: { ticket: marker() } });
    expect(status).toBe(200);
    await context.setOffline(false);
    await waitUntilLive(page);
    await expect(page.locator('[data-field="updated_at"] time')).toHaveAttribute("datetime", body.updated_at, { timeout: 30_000 });
    await stillSamePage(page);
    // The first connection starts at the newest change; every later one from the last change the tab had seen.
    expect(new URL(streams[0]!).searchParams.has("after")).toBe(false);
    expect(streams.length).toBeGreaterThan(1);
    for (const url of streams.slice(1)) expect(new URL(url).searchParams.get("after")).toMatch(/^\d+$/);
  } finally {
    await context.close();
  }
});

test("a list counts the objects changed at the bank in a bar instead of moving its rows, and reads them again on Show", async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  const created: string[] = [];
  const createWebhook = async () => {
    const { body } = await bankSend<Webhook>("POST", "/webhook", { url: receiver.url(`/${marker()}`), event: "counterparty.create" });
    created.push(body.id);
    return body.id;
  };
  try {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await contextAs(browser, "viewer", { colorScheme });
      const page = await context.newPage();
      try {
        await page.goto("/webhooks?page_size=100");
        await waitUntilLive(page);
        await markPage(page);
        const first = await createWebhook();
        const bar = page.getByTestId("live-changes");
        await expect(bar.getByTestId("live-changes-count")).toHaveText("1", { timeout: 30_000 });
        await expect(bar).toContainText("new or changed");
        // A second change to the same webhook is the same object: still one.
        expect((await bankSend("PATCH", `/webhook/${first}`, { userdata: { note: "changed" } })).status).toBe(200);
        const second = await createWebhook();
        await expect(bar.getByTestId("live-changes-count")).toHaveText("2", { timeout: 30_000 });
        await expect(page.locator(`a[data-id="${second}"]`)).toHaveCount(0);
        await page.screenshot({ path: testInfo.outputPath(`list-bar-1440-${colorScheme}.png`), clip: { x: 0, y: 0, width: 1440, height: 420 } });
        await page.setViewportSize({ width: 390, height: 800 });
        await bar.screenshot({ path: testInfo.outputPath(`list-bar-390-${colorScheme}.png`) });
        await page.setViewportSize({ width: 1440, height: 900 });
        await bar.getByRole("button", { name: "Show" }).click();
        await expect(bar).toBeHidden();
        await expect(page.locator(`a[data-id="${second}"]`)).toBeVisible();
        await expect(page.locator(`a[data-id="${first}"]`)).toBeVisible();
        await stillSamePage(page);
      } finally {
        await context.close();
      }
    }
  } finally {
    for (const id of created) await bankSend("DELETE", `/webhook/${id}`);
    await receiver.close();
  }
});

test("the header's live indicator says connected, in words", async ({ browser }, testInfo) => {
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await contextAs(browser, "operations", { colorScheme });
    const page = await context.newPage();
    try {
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 700 });
        await page.goto("/webhooks");
        await waitUntilLive(page);
        await expect(page.getByTestId("live-indicator")).toHaveAttribute("title", /pages update themselves/);
        await page.screenshot({ path: testInfo.outputPath(`header-${width}-${colorScheme}.png`), clip: { x: 0, y: 0, width, height: 160 } });
      }
    } finally {
      await context.close();
    }
  }
});

test("a simulation's wallet token appears by itself, from its change in the live feed rather than by polling", async ({ browser }) => {
  const card = (await bankGet<BankListAnswer>("/card?page_size=4")).data[3]!;
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  try {
    await page.goto("/simulations");
    await waitUntilLive(page);
    const tokenReads: number[] = [];
    page.on("request", (sent) => {
      if (sent.url().includes("/api/bank/digital_wallet_token?")) tokenReads.push(Date.now());
    });
    await page.getByLabel("Search cards").fill(String(card.last_four));
    await page.getByTestId("card-picker").selectOption(card.id);
    await page.getByRole("button", { name: "Run simulation" }).click();
    const run = page.getByTestId("simulation-run").first();
    await expect(run).toHaveAttribute("data-state", "found", { timeout: 20_000 });
    const tokenId = (await run.getByTestId("simulation-token").textContent())!.trim();
    expect(await bankGet(`/digital_wallet_token/${tokenId}`)).toMatchObject({ card_id: card.id });
    // One read of the card's tokens before the run, one when the token's change arrived: no polling in between.
    await page.waitForTimeout(2_000);
    expect(tokenReads.length).toBeLessThanOrEqual(3);
  } finally {
    await context.close();
  }
});

test("a webhook the sandbox puts in error: its detail page shows the new status and timeline entry, and Home counts it, each by itself", async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  receiver.respondWith(() => 500);
  const { body: webhook } = await bankSend<Webhook>("POST", "/webhook", { url: receiver.url("/failing"), event: "digital_wallet_token.create" });
  const context = await contextAs(browser, "viewer");
  const [detail, home] = [await context.newPage(), await context.newPage()];
  try {
    // The index keeps the webhook from its creation's notification: the page may need to be read again until it has.
    await expect(async () => {
      await detail.goto(`/webhooks/${webhook.id}`);
      await expect(detail.locator('[data-testid="timeline-version"][data-status="enabled"]')).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(detail.locator('#detail-title [data-status="enabled"]')).toBeVisible();
    const versionsBefore = await detail.getByTestId("timeline-version").count();
    await home.goto("/");
    const card = home.getByTestId("attention-item").filter({ hasText: "Webhooks in error" });
    const before = Number((await card.locator("span").first().textContent())!.replace("+", ""));
    for (const page of [detail, home]) {
      await waitUntilLive(page);
      await markPage(page);
    }

    // The bank stops it as its error threshold would (the sandbox's control API, instead of waiting for the retries).
    expect((await bankSend("POST", `/sandbox/webhook/${webhook.id}/transition`, { to: "error" })).status).toBe(200);

    await expect(detail.locator('#detail-title [data-status="error"]')).toBeVisible({ timeout: 30_000 });
    const moved = detail.locator('[data-testid="timeline-version"][data-status="error"]');
    await expect(moved).toHaveCount(1, { timeout: 30_000 });
    await expect(moved.locator('[data-testid="timeline-change"][data-path="status"]')).toHaveText("status: Enabled → Error");
    await expect(moved).toHaveAttribute("data-source", "event");
    expect(await detail.getByTestId("timeline-version").count()).toBeGreaterThan(versionsBefore);
    await moved.screenshot({ path: testInfo.outputPath("webhook-error-timeline-entry.png") });
    await expect(card.locator("span").first()).toHaveText(String(before + 1), { timeout: 30_000 });
    for (const page of [detail, home]) await stillSamePage(page);
  } finally {
    await context.close();
    await bankSend("DELETE", `/webhook/${webhook.id}`);
    await receiver.close();
  }
});

test("signing out in one tab ends the live stream of another within seconds: it lands on sign-in, saying why", async ({ browser }) => {
  // A session of its own: the spec's saved viewer session (contextAs) must outlive this test.
  const { context, page: signingOut } = await signedInContext(browser, "viewer");
  try {
    const open = await context.newPage();
    await open.goto("/webhooks");
    await waitUntilLive(open);
    await signingOut.getByRole("button", { name: "Sign out" }).click();
    await expect(signingOut).toHaveURL(/\/sign-in/);
    // The stream is checked on the sign-out's access-version notification, and every 2 s at the latest.
    await expect(open).toHaveURL(/\/sign-in\?ended=ended&from=%2Fwebhooks/, { timeout: 5_000 });
    await expect(open.getByTestId("sign-in-ended")).toHaveText(
      "Your session was ended: signed out elsewhere, or your account was changed by an admin.",
    );
  } finally {
    await context.close();
  }
});

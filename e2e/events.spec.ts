import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { csvRecords } from "@/tests/support/parse-csv";
import { bankGet, bankSend, contextAs, type BankListAnswer } from "./support/bank";

/**
 * The events page against the console `npm start` runs beside the sandbox bank (playwright.config.ts): the console
 * subscribes to every event at start, so a change made at the bank directly arrives as a notification, is processed,
 * and shows on /events.
 */

const rows = (page: Page) => page.getByTestId("event-row");
const form = (page: Page) => page.getByRole("form", { name: "Filter the events" });

// Every page of the console takes a second or more on the shared test machine: room for a dozen of them per test.
test.describe.configure({ timeout: 120_000 });

/** Changes a network transfer's userdata at the bank and waits until /events shows its notification as processed. */
async function changeAtTheBank(page: Page): Promise<{ transferId: string; eventId: string }> {
  const transfer = (await bankGet<BankListAnswer>("/network_transfer?page_size=5")).data[3]!;
  expect((await bankSend("PATCH", `/network_transfer/${transfer.id}`, { userdata: { events_spec: Date.now() } })).status).toBe(200);
  const filtered = `/events?object=${transfer.id}&event=network_transfer.update&outcome=changed`;
  await expect(async () => {
    await page.goto(filtered);
    await expect(rows(page).first()).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  return { transferId: transfer.id, eventId: (await rows(page).first().getAttribute("data-event-id"))! };
}

test("a change at the bank shows on /events as changed, linked to its object, and filters narrow the list", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  try {
    const { transferId, eventId } = await changeAtTheBank(page);
    const row = rows(page)
      .filter({ has: page.locator(`[data-id="${transferId}"]`) })
      .first();
    await expect(row).toHaveAttribute("data-outcome", "changed");
    await expect(row.getByRole("cell").nth(1)).toHaveText("network_transfer.update");
    await expect(row.getByRole("cell").nth(4)).toHaveText(/^\d+$/);

    // Unfiltered, newest first, the active environment chosen: the event is on the first page among the others.
    await page.goto("/events");
    await expect(form(page).getByLabel("Environment")).toHaveValue("sandbox");
    const times = await rows(page)
      .locator("td:first-child time")
      .evaluateAll((elements) => elements.map((element) => element.getAttribute("datetime")!));
    expect(times.length).toBeGreaterThan(1);
    expect(times).toEqual(times.toSorted().toReversed());

    // The form: one object, then an event name it never had.
    await form(page).getByLabel("Object").fill(transferId);
    await form(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`object=${transferId}`));
    await expect(rows(page).first()).toBeVisible();
    expect(new Set(await rows(page).evaluateAll((elements) => elements.map((element) => element.getAttribute("data-object-id"))))).toEqual(
      new Set([transferId]),
    );
    await expect(page.locator(`[data-event-id="${eventId}"]`)).toBeVisible();
    await form(page).getByLabel("Event").selectOption("network_transfer.create");
    await form(page).getByRole("button", { name: "Filter" }).click();
    await expect(page.getByTestId("empty-state")).toHaveText("No events match these filters.");
    await page.goto(`/events?object=${transferId}&outcome=error`);
    await expect(page.getByTestId("empty-state")).toBeVisible();
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`/events?object=${transferId}&from=${today}&to=${today}`);
    await expect(page.locator(`[data-event-id="${eventId}"]`)).toBeVisible();
    await page.goto(`/events?object=${transferId}&to=2000-01-01`);
    await expect(page.getByTestId("empty-state")).toBeVisible();
    await page.goto(`/events?object=${transferId}&environment=production`);
    await expect(page.getByTestId("empty-state")).toHaveText("No events match these filters.");

    // The object's link opens its detail page.
    await page.goto(`/events?object=${transferId}`);
    await page.locator(`[data-event-id="${eventId}"] a[data-id="${transferId}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/network-transfers/${transferId}$`));
  } finally {
    await context.close();
  }
});

test("pages walk the events by keyset, forward and back, and the sidebar leads there", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  try {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Events" }).click();
    await expect(page).toHaveURL(/\/events$/);
    // A fixed window of time, so events arriving meanwhile do not shift the pages being compared; on a console just
    // started, the window is read again until the sandbox's lifecycle has made more than two pages of events.
    let until = "";
    let all: Array<string | null> = [];
    await expect
      .poll(
        async () => {
          until = new Date(Date.now() - 1000).toISOString().slice(0, 19);
          await page.goto(`/events?to=${until}&page_size=100`);
          all = await rows(page).evaluateAll((elements) => elements.map((element) => element.getAttribute("data-event-id")));
          return all.length;
        },
        { timeout: 60_000, intervals: [1_000] },
      )
      .toBeGreaterThan(4);

    await form(page).getByLabel("Rows per page").selectOption("25");
    await form(page).getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/page_size=25/);
    await expect(rows(page)).toHaveCount(Math.min(25, all.length));
    await page.goto(`/events?to=${until}&page_size=2`);
    const seen: string[] = [];
    for (let index = 0; index < 2; index++) {
      await expect(page.getByTestId("row-range")).toHaveText(`Rows ${index * 2 + 1}–${index * 2 + 2}`);
      seen.push(...(await rows(page).evaluateAll((elements) => elements.map((element) => element.getAttribute("data-event-id")!))));
      await page.getByRole("link", { name: "Next →" }).click();
    }
    expect(seen).toEqual(all.slice(0, 4));
    // The third page is shown before going back: "← Previous" of the second page leads elsewhere.
    await expect(page.getByTestId("row-range")).toHaveText(/^Rows 5–/);
    await page.getByRole("link", { name: "← Previous" }).click();
    await expect(page.getByTestId("row-range")).toHaveText("Rows 3–4");
    expect(await rows(page).evaluateAll((elements) => elements.map((element) => element.getAttribute("data-event-id")))).toEqual(all.slice(2, 4));
    await page.reload();
    await expect(page.getByTestId("row-range")).toHaveText("Rows 3–4");
  } finally {
    await context.close();
  }
});

test("bad filter values get a message naming the field, never an error page", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  try {
    for (const [search, message] of [
      ["from=yesterday", "from: expected a UTC date"],
      ["to=2026-02-30", "to: expected a UTC date"],
      ["from=2026-11-02&to=2026-11-01", "from: must not be after to"],
      ["outcome=lost", "outcome: expected one of pending, error"],
      ["event=ach.delete", "event: expected one of"],
      ["environment=staging", "environment: expected one of sandbox, production"],
      ["page_cursor=abc", "page_cursor: expected the id of an event"],
      ["prev_cursors=1,x&page_cursor=2", "prev_cursors: expected the id of an event"],
      ["page_size=1000", "page_size: expected 1 to 250"],
      ["status=sent", "unknown filter: status"],
    ]) {
      const response = await page.goto(`/events?${search}`);
      expect(response?.status(), search).toBe(200);
      await expect(page.getByTestId("events-filter-error"), search).toContainText(message!);
      await expect(rows(page)).toHaveCount(0);
      const exported = await context.request.get(`/api/events/export?${search}`);
      expect(exported.status(), search).toBe(400);
      expect((await exported.json()).error.message, search).toContain(message!);
    }
  } finally {
    await context.close();
  }
});

test("the CSV export has the filtered rows and is in the audit trail", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  try {
    const { transferId, eventId } = await changeAtTheBank(page);
    await page.goto(`/events?object=${transferId}`);
    const shown = await rows(page).evaluateAll((elements) => elements.map((element) => element.getAttribute("data-event-id")));
    const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
    expect(href).toBe(`/api/events/export?environment=sandbox&object=${transferId}`);
    const response = await context.request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="events-\d{4}-\d{2}-\d{2}\.csv"$/);
    const { header, records } = csvRecords(await response.text());
    expect(header).toEqual([
      "id",
      "environment",
      "event",
      "resource",
      "objectId",
      "receivedAt",
      "lastReceivedAt",
      "deliveries",
      "attempts",
      "outcome",
      "error",
      "processedAt",
      "nextAttemptAt",
    ]);
    // Newer events for the object may have come meanwhile: the page's rows are the export's newest-first tail.
    expect(records.map((record) => record.id).slice(-shown.length)).toEqual(shown);
    expect(records.find((record) => record.id === eventId)).toMatchObject({
      environment: "sandbox",
      event: "network_transfer.update",
      objectId: transferId,
      outcome: "changed",
    });
  } finally {
    await context.close();
  }

  const compliance = await contextAs(browser, "compliance");
  try {
    const trail = csvRecords(await (await compliance.request.get("/api/audit/export?action=events.export&actor=viewer@")).text());
    expect(trail.records[0]).toMatchObject({ actorEmail: "viewer@demo.bank", environment: "sandbox", outcome: "succeeded" });
    expect(JSON.parse(trail.records[0]!.before!).filters).toMatchObject({ environment: "sandbox" });
    expect(JSON.parse(trail.records[0]!.after!).rows).toBeGreaterThan(0);
  } finally {
    await compliance.close();
  }
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the events page at 1440 and 390 px (${colorScheme}): screenshots, and no serious accessibility violation`, async ({ browser }, testInfo) => {
    const context = await contextAs(browser, "admin", { colorScheme });
    const page = await context.newPage();
    try {
      // Loaded once at desktop width and narrowed: the page's layout is CSS alone. axe at 1440 px, as before.
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto("/events?page_size=25");
      await expect(rows(page).first()).toBeVisible();
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
      ).toEqual([]);
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
        await expect(rows(page).first()).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`events-${width}-${colorScheme}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto("/events?from=yesterday");
      await expect(page.getByTestId("events-filter-error")).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`events-1440-${colorScheme}-bad-filter.png`) });
      await page.goto("/events?environment=production");
      await expect(page.getByTestId("empty-state")).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`events-1440-${colorScheme}-other-environment.png`) });
    } finally {
      await context.close();
    }
  });
}

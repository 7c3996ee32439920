import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { enumWords, formatCalendarDate, formatDateTime, formatExpiry, formatSignedAmount } from "../lib/format";
import { bankGet, contextAs, type BankListAnswer } from "./support/bank";
import { typeUserdata } from "./support/userdata";

/**
 * The readable-values rule set (lib/format/values.ts, docs/console-pages.md "Values") on the pages, against the production
 * build and the sandbox bank: a list's amounts carry `$` and credit/debit, enums read as words with the code on hover,
 * times are in the browser's zone (told to the server by cookie, so the first HTML already agrees after one refresh)
 * or in UTC when chosen; a card's expiry is MM/YY; a webhook's write-only secret is no row. Then userdata: a save shows
 * the new value in Details, a null value opens as {} with a note, the editor's read is no timeline entry for roles
 * without audit:read, and the audit log shows the save as a field diff with its target linked.
 */

type Row = Record<string, unknown> & { id: string };

/** React's hydration mismatch, as the production build reports it (minified errors 418, 423, 425) or in words. */
const hydrationError = /Minified React error #(418|423|425)|[Hh]ydrat/;

test("a list shows $ amounts with credit/debit, enums as words, and times in the browser's zone or in UTC", async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const zone = "America/New_York";
  const context = await contextAs(browser, "viewer", { timezoneId: zone });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  try {
    const answer = await bankGet<BankListAnswer>("/ach?page_size=10");
    const ach = answer.data[0] as Row;
    await page.goto("/ach?page_size=10");
    const row = page.locator(`[data-testid="bank-row"][data-id="${ach.id}"]`);
    await expect(row).toContainText(formatSignedAmount(String(ach.amount), ach.direction));
    expect(formatSignedAmount(String(ach.amount), ach.direction)).toMatch(/^\$[0-9,]+\.[0-9]{2} (CR|DR)$/);
    await expect(row.locator(`[title="${String(ach.service)}"]`).first()).toHaveText(enumWords(String(ach.service)));
    // Direction is in the amount (CR/DR); its own column is hidden by default (lib/resources/definitions/ach.ts).
    await expect(row.locator(`time[datetime="${String(ach.effective_date)}"]`)).toHaveText(formatCalendarDate(String(ach.effective_date)));

    // The browser tells the server its zone on the first page; from then on the server renders in it as well.
    const created = row.locator(`time[datetime="${String(ach.created_at)}"]`);
    await expect(created).toHaveText(formatDateTime(String(ach.created_at), zone));
    expect(formatDateTime(String(ach.created_at), zone)).not.toBe(formatDateTime(String(ach.created_at), "UTC"));
    await page.reload();
    await expect(created).toHaveText(formatDateTime(String(ach.created_at), zone));
    expect((await context.cookies()).find((cookie) => cookie.name === "console-tz")?.value).toBe(encodeURIComponent(zone));

    // The staff member's choice: UTC, kept across a reload.
    await page.getByTestId("time-zone-switch").selectOption("utc");
    await expect(created).toHaveText(formatDateTime(String(ach.created_at), "UTC"));
    await page.reload();
    await expect(created).toHaveText(formatDateTime(String(ach.created_at), "UTC"));
    await expect(created).toHaveAttribute("title", /UTC/);
    await page.getByTestId("time-zone-switch").selectOption("local");
    await expect(created).toHaveText(formatDateTime(String(ach.created_at), zone));

    // A card: expiry as MM/YY, its form in words.
    const card = (await bankGet<BankListAnswer>("/card?page_size=1")).data[0] as Row;
    await page.goto(`/cards/${card.id}`);
    await expect(page.locator('[data-field="expiration_month"]')).toHaveText(formatExpiry(card.expiration_month, card.expiration_year));
    await expect(page.locator('[data-field="expiration_month"]')).toHaveText(/^\d{2}\/\d{2}$/);
    await expect(page.locator('[data-field="form"]')).toHaveText(enumWords(String(card.form)));
    await expect(page.locator('[data-field="expiration_year"]')).toHaveCount(0);

    // A webhook: its write-only secret is never a row.
    const webhooks = (await bankGet<BankListAnswer>("/webhook?page_size=5")).data as Row[];
    expect(webhooks.length).toBeGreaterThan(0);
    await page.goto(`/webhooks/${webhooks[0]!.id}`);
    await expect(page.getByTestId("resource-detail")).toBeVisible();
    await expect(page.locator('[data-field="basic_user"]')).toBeVisible();
    await expect(page.locator('[data-field="basic_secret"]')).toHaveCount(0);

    expect(errors.filter((error) => hydrationError.test(error))).toEqual([]);

    for (const colorScheme of ["light", "dark"] as const) {
      const shots = await contextAs(browser, "viewer", { timezoneId: zone, colorScheme });
      try {
        const shot = await shots.newPage();
        for (const width of [390, 1440]) {
          await shot.setViewportSize({ width, height: 900 });
          for (const [name, path] of [
            ["ach-list", "/ach?page_size=10"],
            ["ach-detail", `/ach/${ach.id}`],
            ["card-detail", `/cards/${card.id}`],
          ] as const) {
            await shot.goto(path);
            await expect(shot.locator(`time[datetime="${String(ach.created_at)}"], [data-testid="resource-detail"]`).first()).toBeVisible();
            // The saved sign-in state carries the zone of the browser that signed in: wait for this one's to be told.
            await expect(shot.getByTestId("time-zone-switch").locator("option[value=local]")).toHaveText("Local (New York)");
            await shot.screenshot({ path: testInfo.outputPath(`${name}-${width}-${colorScheme}.png`), fullPage: true });
          }
        }
      } finally {
        await shots.close();
      }
    }
  } finally {
    await context.close();
  }
});

test("userdata: a save shows the new value in Details, null opens as {} with a note; the audit log shows the save as a field diff, target linked", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  // Sent transfers do not move any more; from the end of the page, so other specs' edits of the newest are not in the way.
  const sent = (await bankGet<BankListAnswer>("/network_transfer?status=sent&page_size=100")).data as Row[];
  const transfer = [...sent].reverse().find((candidate) => candidate.userdata === null);
  expect(transfer, "a sent network transfer without userdata in the seed").toBeDefined();
  const id = transfer!.id;
  const ticket = `VAL-${randomUUID().slice(0, 8)}`;

  const operations = await contextAs(browser, "operations");
  try {
    const page = await operations.newPage();
    await page.goto(`/network-transfers/${id}`);
    await expect(page.locator('[data-field="userdata"]')).toHaveText("none");
    await page.getByRole("button", { name: "Edit userdata" }).click();
    await expect(page.getByTestId("userdata-null-note")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Userdata (JSON object)" })).toHaveText("{}");
    await typeUserdata(page, JSON.stringify({ ticket }));
    await page.getByRole("button", { name: "Save userdata" }).click();
    await expect(page.getByTestId("userdata-saved")).toBeVisible();
    expect((await bankGet<Row>(`/network_transfer/${id}`)).userdata).toEqual({ ticket });
    // The editor's user sees what they wrote, in place of the mask, marked as theirs.
    await expect(page.locator('[data-field="userdata"]')).toContainText(ticket);
    await expect(page.locator('[data-field="userdata"]')).not.toContainText("[masked]");
    await expect(page.getByTestId("own-write")).toBeVisible();
    // A role that may edit userdata reads it after a reload too. Opening the editor is not a timeline entry for a role
    // without audit:read; the save is.
    await page.reload();
    await expect(page.locator('[data-field="userdata"]')).toContainText(ticket);
    await expect(page.locator('[data-testid="timeline-audit"][data-action="network_transfer.userdata.update"]')).toHaveCount(1);
    await expect(page.locator('[data-testid="timeline-audit"][data-action="network_transfer.userdata.read"]')).toHaveCount(0);
  } finally {
    await operations.close();
  }

  const compliance = await contextAs(browser, "compliance");
  try {
    const page = await compliance.newPage();
    // Compliance reads the audit log: the editor's read stays on record and in its timeline.
    await page.goto(`/network-transfers/${id}`);
    await expect(page.locator('[data-testid="timeline-audit"][data-action="network_transfer.userdata.read"]')).toHaveCount(1);

    await page.goto(`/audit?target=${id}`);
    const row = page.locator('[data-testid="audit-table"] tbody tr[data-action="network_transfer.userdata.update"]');
    await expect(row).toHaveCount(1);
    // The record keeps the whole transfer before and after: the diff names the one field that changed (updated_at aside).
    await expect(row.getByTestId("audit-change")).toHaveCount(1);
    await expect(row.locator('[data-testid="audit-change"][data-path="userdata"]')).toHaveText(`userdata: null → {"ticket":"${ticket}"}`);
    await expect(row.getByTestId("audit-target").getByRole("link")).toHaveAttribute("href", `/network-transfers/${id}`);
    await expect(row.getByTestId("audit-request").getByRole("button", { name: /^Copy request id / })).toBeVisible();
    await expect(row).toContainText("operations@demo.bank");
    await expect(row.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
    await expect(row.locator("pre")).toHaveCount(0);

    for (const colorScheme of ["light", "dark"] as const) {
      const shots = await contextAs(browser, "compliance", { colorScheme });
      try {
        const shot = await shots.newPage();
        for (const width of [390, 1440]) {
          await shot.setViewportSize({ width, height: 900 });
          await shot.goto(`/audit?target=${id}`);
          await expect(shot.getByTestId("audit-table")).toBeVisible();
          await shot.screenshot({ path: testInfo.outputPath(`audit-${width}-${colorScheme}.png`), fullPage: true });
          await shot.goto(`/network-transfers/${id}`);
          await expect(shot.getByTestId("timeline")).toBeVisible();
          await shot.screenshot({ path: testInfo.outputPath(`network-transfer-${width}-${colorScheme}.png`), fullPage: true });
        }
        await shot.goto("/audit");
        await shot.setViewportSize({ width: 1440, height: 900 });
        await shot.screenshot({ path: testInfo.outputPath(`audit-all-1440-${colorScheme}.png`), fullPage: false });
      } finally {
        await shots.close();
      }
    }

    // Filters show as chips; removing one drops it from the URL.
    const chip = page.getByTestId("filter-chip");
    await expect(chip).toHaveCount(1);
    await expect(chip).toContainText(id);
    await chip.click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByTestId("filter-chip")).toHaveCount(0);
  } finally {
    await compliance.close();
  }
});

import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { eventually, startReceiver } from "@/tests/support/webhook-receiver";
import { bankGet, bankSend, contextAs, nextCursor, type BankListAnswer } from "./support/bank";

/**
 * Operating a webhook as an operations agent, against the production build and the sandbox bank: attempts grouped
 * under their notification, a failed delivery resent through the confirm dialog (exactly one new POST reaches the
 * receiver, and the new attempt shows under the same notification), a test event sent; axe clean; screenshots at 390
 * and 1440 px, light and dark.
 */

interface Attempt {
  notification_id: string;
  succeeded: boolean;
}

/** Every webhook the sandbox bank holds, the console's own subscriptions too, read page after page. */
async function everyWebhook() {
  const webhooks: Array<{ id: string; event: string; basic_user: string | null }> = [];
  let cursor: string | undefined;
  do {
    const answer: BankListAnswer = await bankGet(`/webhook?page_size=100${cursor ? `&page_cursor=${cursor}` : ""}`);
    webhooks.push(...(answer.data as unknown as typeof webhooks));
    cursor = nextCursor(answer);
  } while (cursor);
  return webhooks;
}

async function shoot(page: Page, name: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
  }
}

test("a failed delivery is resent from its notification's row, and the new attempt shows under it", async ({ browser }) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  // The first POST fails, the bank's retry is acknowledged: one notification, a failed attempt and a delivered one.
  receiver.respondWith((_path, index) => (index === 0 ? { status: 500, body: "down for a moment (e2e)" } : 200));
  // Subscribed to an event only this test causes while it runs: webhook.update would also bring other specs' webhooks
  // going into error, each a notification of its own.
  const hook = (await bankSend<{ id: string }>("POST", "/webhook", { url: receiver.url("/operate"), event: "counterparty.create" })).body;
  expect((await bankSend("POST", "/sandbox/counterparty", {})).status).toBe(201);
  await eventually(async () => {
    const attempts = await bankGet<{ data: Attempt[] }>(`/webhook/${hook.id}/deliveries`);
    return attempts.data.some((attempt) => attempt.succeeded) && attempts;
  }, 30_000);
  const postsBefore = receiver.at("/operate").length;

  for (const colorScheme of ["light", "dark"] as const) {
    const context = await contextAs(browser, "operations", { colorScheme });
    try {
      const page = await context.newPage();
      await page.goto(`/webhooks/${hook.id}`);
      const row = page.getByTestId("delivery-row");
      // The dark pass comes after the light one's test event: a notification of its own.
      await expect(row).toHaveCount(colorScheme === "light" ? 1 : 2);
      if (colorScheme === "dark") {
        await shoot(page, `webhook-notifications-${colorScheme}`);
        continue;
      }
      await expect(row.getByTestId("notification-attempt-count")).toHaveText("2 attempts");

      await page.getByTestId("delivery-outcome").getByText("Failed only").click();
      await expect(row).toHaveAttribute("data-succeeded", "false");
      await row.getByTestId("resend-notification").click();
      const dialog = page.getByTestId("confirm-dialog");
      await expect(dialog).toContainText(`to ${receiver.url("/operate")} once more`);
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
      ).toEqual([]);
      await dialog.getByRole("button", { name: "Resend" }).click();
      await expect(row.getByTestId("send-now-done")).toContainText("attempt 3, HTTP 200, delivered");
      await expect(dialog).toBeHidden();
      expect(receiver.at("/operate")).toHaveLength(postsBefore + 1);

      await page.getByTestId("delivery-outcome").getByText("All").click();
      await expect(row.getByTestId("notification-attempt-count")).toHaveText("3 attempts");
      await expect(row).toHaveAttribute("data-succeeded", "true");
      await row.getByTestId("delivery-toggle").click();
      const attempts = page.getByTestId("attempt-row");
      await expect(attempts).toHaveCount(3);
      await expect(attempts.first()).toContainText("#3");
      await expect(attempts.first()).toHaveAttribute("data-succeeded", "true");
      await shoot(page, `webhook-notifications-${colorScheme}`);

      await page.getByTestId("send-test-event").click();
      await expect(dialog).toContainText("webhook.test");
      await dialog.getByRole("button", { name: "Send test event" }).click();
      await expect(page.getByTestId("send-now-done").filter({ hasText: "attempt 1, HTTP 200, delivered" })).toBeVisible();
      expect(receiver.at("/operate").at(-1)!.body).toMatchObject({ event: "webhook.test", op: "test", id: hook.id });
      await expect(row.first()).toContainText("webhook.test");
      const { violations: after } = await new AxeBuilder({ page }).analyze();
      expect(after.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id)).toEqual(
        [],
      );
    } finally {
      await context.close();
    }
  }
  await receiver.close();
});

test("a viewer sees the notifications but neither Resend nor Send test event", async ({ browser }) => {
  const hook = (await bankSend<{ id: string }>("POST", "/webhook", { url: "http://127.0.0.1:9/viewer", event: "ach.update" })).body;
  const context = await contextAs(browser, "viewer");
  try {
    const page = await context.newPage();
    await page.goto(`/webhooks/${hook.id}`);
    await expect(page.getByTestId("webhook-deliveries")).toBeVisible();
    await expect(page.getByTestId("resend-notification")).toHaveCount(0);
    await expect(page.getByTestId("send-test-event")).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("the console's index subscriptions stand apart from the customer's webhooks: their own section, not rows of the list, and their page warns what a change does", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const webhooks = await everyWebhook();
  const own = webhooks.filter((webhook) => webhook.basic_user === "console-sandbox");
  expect(own.length).toBeGreaterThan(0);
  // The event with the fewest webhooks, so the console's subscription to it is on the filtered list's first page.
  const crowd = (event: string) => webhooks.filter((webhook) => webhook.event === event).length;
  const subscription = own.reduce((best, webhook) => (crowd(webhook.event) < crowd(best.event) ? webhook : best));

  for (const [role, colorScheme] of [
    ["operations", "light"],
    ["admin", "dark"],
  ] as const) {
    const context = await contextAs(browser, role, { colorScheme });
    try {
      const page = await context.newPage();
      await page.goto(`/webhooks?event=${subscription.event}&page_size=50`);
      const section = page.getByRole("region", { name: /The console's own subscriptions/ });
      await expect(section).toHaveAttribute("data-testid", "console-subscriptions");
      await expect(section).toContainText("not the bank customer's, so they are not in the list above");
      // Where they are managed: a link for the admin, who may, the words alone for others.
      await expect(section.getByRole("link", { name: "Settings → Index of the bank" })).toHaveCount(role === "admin" ? 1 : 0);
      await expect(section.locator(`a[href="/webhooks/${subscription.id}"]`)).toBeHidden();
      await section.getByText(`Show the ${own.length} subscriptions`).click();
      await expect(section.locator(`a[href="/webhooks/${subscription.id}"]`)).toBeVisible();
      // The customers' list: the bank's rows for the event without the console's own, and a word on the one left out.
      const bankPage = (await bankGet(`/webhook?event=${subscription.event}&page_size=50`)).data as unknown as typeof webhooks;
      await expect
        .poll(() => page.getByTestId("bank-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id"))))
        .toEqual(bankPage.filter((webhook) => webhook.basic_user !== "console-sandbox").map((webhook) => webhook.id));
      await expect(page.getByTestId("bank-row").filter({ hasText: "Console's index subscription" })).toHaveCount(0);
      await expect(page.getByTestId("kept-apart")).toHaveText("1 of them is the console's own, shown in their own section");
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
      ).toEqual([]);
      await shoot(page, `webhooks-console-group-${colorScheme}`);

      await page.goto(`/webhooks/${subscription.id}`);
      const note = page.getByTestId("webhook-console-own");
      await expect(note).toContainText("Console's index subscription");
      await expect(note).toContainText("would leave the index behind");
      // Nothing on its page could break the index: no edit, status change or delete is offered.
      for (const name of ["Edit", "Disable", "Enable", "Delete webhook", "Reset to enabled"])
        await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
      await shoot(page, `webhook-console-page-${colorScheme}`);
    } finally {
      await context.close();
    }
  }
});

test("the customers' webhooks alone are counted and exported, and a filter only the console's subscription matches says so", async ({ browser }) => {
  test.setTimeout(120_000);
  const customers = async () => (await everyWebhook()).filter((webhook) => webhook.basic_user !== "console-sandbox");
  const webhooks = await everyWebhook();
  // An event the console subscribes to and no customer's webhook does.
  const alone = webhooks.find(
    (webhook) => webhook.basic_user === "console-sandbox" && webhooks.filter((other) => other.event === webhook.event).length === 1,
  );
  expect(alone, "an event only the console's subscription listens to").toBeDefined();

  const context = await contextAs(browser, "operations");
  try {
    const page = await context.newPage();
    await page.goto("/webhooks");
    // The index's count of the list: the customers' webhooks, as many as the bank holds (read again while they change).
    await expect(async () => {
      const count = Number((await page.getByTestId("list-count").locator("strong").textContent())!.replace(/\D/g, ""));
      expect(count).toBe((await customers()).length);
    }).toPass({ timeout: 30_000 });
    // The export: the customers' webhooks, none of the console's.
    const csv = await (await context.request.get("/api/export/webhook")).text();
    const exported = csv
      .trim()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",")[0]);
    expect(new Set(exported)).toEqual(new Set((await customers()).map((webhook) => webhook.id)));

    await page.goto(`/webhooks?event=${alone!.event}`);
    await expect(page.getByTestId("empty-state")).toHaveText(
      `None of the bank customer's webhooks match event = ${alone!.event}; only the console's own, in their own section.`,
    );
    await expect(page.getByTestId("kept-apart")).toHaveText("1 of them is the console's own, shown in their own section");
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await shoot(page, `webhooks-only-console-${colorScheme}`);
    }
  } finally {
    await context.close();
  }
});

import { expect, test, type Page, type Request } from "@playwright/test";
import { subscribedEvents } from "@/lib/index/subscriptions";
import { baseURL } from "../playwright.config";
import { expectNewestAuditRows } from "./support/audit";
import { bankGet, bankSend, contextAs } from "./support/bank";
import { demoUser } from "./support/staff";

/**
 * The index of the bank in Settings against the production build and the sandbox bank it started: the console set up
 * its 20 subscriptions and walked every list at start; an admin rotates the receiver secret and the bank's next
 * notifications are still accepted; other roles get neither the page nor the action.
 */

interface Delivery {
  object_id: string;
  attempted_at: string;
  status_code: number | null;
  succeeded: boolean;
}

const sandboxSection = (page: Page) => page.getByTestId("index-settings-sandbox");

// Signing in costs seconds of scrypt on a busy machine, and each test signs in once per role.
test.describe.configure({ timeout: 120_000 });

/** The page is server-rendered: a walk that is still running shows as done on a later load. */
async function expectBackfillDone(page: Page) {
  await expect(async () => {
    await page.goto("/settings/index?environment=sandbox");
    await expect(page.getByTestId("index-backfill-sandbox-totals")).toContainText("10 of 10 done", { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
}

test("the admin sees the sandbox's subscriptions enabled and its backfill done, and rotates the receiver secret without losing a notification", async ({
  browser,
}) => {
  const context = await contextAs(browser, "admin");
  const page = await context.newPage();
  await expectBackfillDone(page);
  const section = sandboxSection(page);
  const subscriptions = section.getByTestId("index-subscriptions-sandbox");
  await expect(subscriptions.locator("tbody tr")).toHaveCount(subscribedEvents.length);
  await expect(subscriptions.locator('tbody [data-status="enabled"]')).toHaveCount(subscribedEvents.length);
  await expect(subscriptions).toContainText(`${subscribedEvents.length} enabled`);
  const totals = section.getByTestId("index-backfill-sandbox-totals");
  // Every object walked is in the index (the walked and indexed totals are the last cells but one, and the last).
  await expect(totals.locator("td").last()).not.toHaveText("0");
  await expect(section.getByTestId("index-receiver-credentials-sandbox")).toContainText("console-sandbox");
  const keyBefore = await section.getByTestId("index-receiver-credentials-sandbox").innerText();

  // The webhook behind one event, to read its deliveries at the sandbox after the rotation.
  const transferHook = await subscriptions.getByTestId("index-subscription-network_transfer.update").locator("[data-id]").getAttribute("data-id");

  const rotation = page.waitForRequest((request) => request.method() === "POST" && request.headers()["next-action"] !== undefined);
  await section.getByRole("button", { name: "Rotate receiver secret" }).click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText("re-registers all its sandbox subscriptions");
  await dialog.getByRole("button", { name: "Rotate secret" }).click();
  await expect(section.getByTestId("index-receiver-sandbox").getByRole("status")).toHaveText(
    `Rotated the sandbox receiver secret; subscriptions: ${subscribedEvents.length} updated`,
    { timeout: 30_000 },
  );
  await expect(dialog).toHaveCount(0);
  await expect(section.getByTestId("index-receiver-credentials-sandbox")).not.toHaveText(keyBefore);
  // The replaced secret is still accepted for the overlap (INDEX_RECEIVER_SECRET_OVERLAP_MINUTES), and the page says until when.
  await expect(section.getByTestId("index-receiver-previous-sandbox")).toContainText("still accepted until");
  const rotateRequest = await rotation;

  // A change made at the bank after the rotation reaches the console's receiver, which accepts it (200).
  const [transfer] = (await bankGet("/network_transfer?page_size=1")).data;
  const changedAt = new Date().toISOString();
  expect((await bankSend("PATCH", `/network_transfer/${transfer!.id}`, { userdata: { rotated_at: changedAt } })).status).toBe(200);
  await expect
    .poll(
      async () => {
        const deliveries = (await bankGet<{ data: Delivery[] }>(`/webhook/${transferHook}/deliveries?page_size=50`)).data;
        return deliveries.find((delivery) => delivery.object_id === transfer!.id && delivery.attempted_at >= changedAt.slice(0, 19))?.status_code;
      },
      { timeout: 20_000 },
    )
    .toBe(200);

  // The rotation's own announcements (webhook.update) carried the new secret: no subscription went into error.
  await page.reload();
  await expect(subscriptions.locator('tbody [data-status="enabled"]')).toHaveCount(subscribedEvents.length);

  await page.goto("/audit?action=index.receiver.rotate");
  await expectNewestAuditRows(page, [
    { action: "index.receiver.rotate", target: "sandbox", outcome: "succeeded", actor: demoUser("admin").email, role: "admin" },
  ]);
  await context.close();

  for (const role of ["viewer", "operations", "compliance"] as const) await expectRefused(browser, role, rotateRequest);
});

/** A role without `index:manage`: no navigation entry, the page answers 403, and replaying the admin's action too. */
async function expectRefused(browser: Parameters<typeof contextAs>[0], role: "viewer" | "operations" | "compliance", rotateRequest: Request) {
  const context = await contextAs(browser, role);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Index of the bank" })).toHaveCount(0);
  const response = await page.goto("/settings/index");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("button", { name: "Rotate receiver secret" })).toHaveCount(0);
  const replay = await context.request.post("/settings/index", {
    headers: { ...rotateRequest.headers(), origin: baseURL },
    data: rotateRequest.postDataBuffer() ?? undefined,
    maxRedirects: 0,
  });
  expect(replay.status(), `${role} replaying the rotation`).toBe(403);
  await context.close();
}

test("the index settings read well at 390 and 1440 px, light and dark", async ({ browser }, testInfo) => {
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await contextAs(browser, "admin", { colorScheme });
    const page = await context.newPage();
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/settings/index?environment=sandbox");
      await expect(page.getByTestId("index-backfill-sandbox-totals")).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`index-settings-sandbox-${width}-${colorScheme}.png`), fullPage: true });
    }
    await page.goto("/settings/index?environment=production");
    await expect(page.getByTestId("index-subscriptions-problem-production")).toContainText("no bank credentials");
    await page.screenshot({ path: testInfo.outputPath(`index-settings-production-1440-${colorScheme}.png`), fullPage: true });
    await page.getByRole("button", { name: "Purge this environment's index" }).click();
    await expect(page.getByTestId("confirm-dialog")).toContainText("indexed objects");
    await page.screenshot({ path: testInfo.outputPath(`index-settings-purge-dialog-${colorScheme}.png`) });
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Cancel" }).click();
    await context.close();
  }
});

test("a bad environment in the address is named, and the active one is shown", async ({ browser }) => {
  const context = await contextAs(browser, "admin");
  const page = await context.newPage();
  await page.goto("/settings/index?environment=staging");
  await expect(page.getByTestId("index-environment-error")).toHaveText("environment: expected sandbox or production; showing sandbox.");
  await expect(page.getByTestId("index-settings-sandbox")).toBeVisible();
  await context.close();
});

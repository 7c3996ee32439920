import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { bankGet, bankSend, contextAs, type BankListAnswer } from "./support/bank";
import { markPage, stillSamePage, waitUntilLive } from "./support/live";

/**
 * The console's sandbox controls against the production build and the sandbox bank: the Simulate menu on an ACH
 * transfer's page (returned with R01, seen without a reload), and the Sandbox page (snapshot, reset, clock, failures,
 * restore). The suite shares one sandbox: every failure added is removed, and the reset is undone by restoring the
 * snapshot taken just before it (which also undoes the clock's advance).
 */

interface Ach {
  id: string;
  status: string;
  error: string | null;
}
interface Fault {
  id: string;
}

const rowIds = (page: Page) => page.getByTestId("bank-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")));
const shownClock = async (page: Page) => Date.parse((await page.getByTestId("sandbox-clock-now").locator("time").getAttribute("datetime"))!);

/** A new pending ACH transfer (ach.create), made at the bank as a test would; the lifecycle's first step is a minute away. */
async function newAch(amount: string): Promise<Ach> {
  const created = await bankSend<Ach>("POST", "/sandbox/ach", { amount });
  expect(created.status).toBe(201);
  return created.body;
}

test("an operations user returns an ACH transfer with R01 from its page, and sees its status and timeline change without a reload; a viewer has no Simulate", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const ach = await newAch("42.00");
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  try {
    // The index has seen the new transfer (its ach.create), so its next state arrives as a timeline entry.
    await expect(async () => {
      await page.goto(`/ach/${ach.id}`);
      await expect(page.locator('[data-testid="timeline-version"][data-status="pending"]')).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await waitUntilLive(page);
    await markPage(page);

    await page.getByRole("button", { name: "Simulate" }).click();
    const menu = page.getByTestId("simulate-menu");
    await expect(menu).toContainText(/from (pending|processing)/);
    await menu.getByRole("button", { name: /→ returned/ }).click();
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog.getByLabel("Return code")).toHaveValue("R01");
    await expect(dialog.getByTestId("simulate-question")).toHaveText(
      new RegExp(`^Move ACH transfer ${ach.id} from (pending|processing) to returned \\(R01 Insufficient Funds\\) now\\?$`),
    );
    await expect(dialog).toContainText("The bank fires the events its lifecycle would");
    await page.screenshot({ path: testInfo.outputPath("simulate-dialog-light.png") });
    await dialog.getByRole("button", { name: "Move it now" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("simulate-done")).toContainText("Moved to returned");

    await expect(page.locator('#detail-title [data-status="returned"]')).toBeVisible({ timeout: 30_000 });
    const returned = page.locator('[data-testid="timeline-version"][data-status="returned"]');
    await expect(returned).toHaveAttribute("data-source", "event", { timeout: 30_000 });
    await expect(returned.locator('[data-testid="timeline-change"][data-path="error"]')).toContainText(/→ R01 /);
    await expect(page.locator('[data-testid="timeline-audit"][data-action="ach.transition"]')).toHaveAttribute("data-outcome", "succeeded");
    await stillSamePage(page);
    expect(await bankGet<Ach>(`/ach/${ach.id}`)).toMatchObject({ status: "returned", error: "R01 Insufficient Funds" });

    // Returned is final: the menu, read again, offers nothing.
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByTestId("simulate-none")).toContainText("No transition leads on from returned");
    await page.keyboard.press("Escape");
  } finally {
    await context.close();
  }

  // The menu and its dialog at a phone's width, dark, for the eye (a transfer of its own, still pending).
  const phone = await contextAs(browser, "operations", { colorScheme: "dark" });
  try {
    const phonePage = await phone.newPage();
    await phonePage.setViewportSize({ width: 390, height: 844 });
    await phonePage.goto(`/ach/${(await newAch("43.00")).id}`);
    await phonePage.getByRole("button", { name: "Simulate" }).click();
    await expect(phonePage.getByTestId("simulate-menu")).toContainText("from pending");
    await phonePage.screenshot({ path: testInfo.outputPath("simulate-menu-390-dark.png") });
    await phonePage
      .getByTestId("simulate-menu")
      .getByRole("button", { name: /→ canceled/ })
      .click();
    await expect(phonePage.getByTestId("confirm-dialog")).toBeVisible();
    await phonePage.screenshot({ path: testInfo.outputPath("simulate-dialog-390-dark.png") });
  } finally {
    await phone.close();
  }

  const viewer = await contextAs(browser, "viewer");
  try {
    const viewerPage = await viewer.newPage();
    await viewerPage.goto(`/ach/${ach.id}`);
    await expect(viewerPage.locator('#detail-title [data-status="returned"]')).toBeVisible();
    await expect(viewerPage.getByRole("button", { name: "Simulate" })).toHaveCount(0);
    await expect(viewerPage.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Sandbox", exact: true })).toHaveCount(0);
    // The console's route refuses it too, whatever the page shows.
    const refused = await viewer.request.post(`/api/sandbox/ach/${ach.id}/transition`, { data: { to: "sent" }, headers: { origin: baseURL } });
    expect(refused.status()).toBe(403);
  } finally {
    await viewer.close();
  }
});

test("an admin downloads a snapshot, resets to demo, advances the clock, adds and removes a failure, restores the file and sees the same ACH list", async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  // A transfer of this test's own, in the snapshot and not in the demo set: gone after the reset, back after the restore.
  const marker = await newAch("7.77");
  const before = (await bankGet<BankListAnswer>("/ach?page_size=10")).data.map((row) => row.id);
  expect(before).toContain(marker.id);
  const context = await contextAs(browser, "admin");
  const page = await context.newPage();
  let snapshotFile: string | undefined;
  let restored = false;
  let faultId: string | undefined;
  try {
    await page.goto("/sandbox");
    await expect(page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Sandbox", exact: true })).toBeVisible();

    const downloading = page.waitForEvent("download");
    await page.getByTestId("snapshot-download").click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^sandbox-snapshot-.*\.json$/);
    snapshotFile = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(snapshotFile);
    const snapshot = JSON.parse(readFileSync(snapshotFile, "utf8")) as {
      format: string;
      tables: { ach: Array<{ id: string }>; clock: Array<{ offset_ms: string }> };
    };
    expect(snapshot.format).toBe("sandbox-bank-snapshot");
    expect(snapshot.tables.ach.map((row) => row.id)).toContain(marker.id);

    // Reset to demo, through the confirm dialog that says what goes and what stays.
    const data = page.getByTestId("sandbox-data");
    await data.getByLabel("Data set").selectOption("demo");
    await data.getByRole("button", { name: "Reset the bank…" }).click();
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog).toContainText("Everything at the sandbox bank goes");
    await expect(dialog).toContainText("What stays");
    await dialog.getByRole("button", { name: "Reset the bank" }).click();
    await expect(page.getByTestId("reset-done")).toContainText("Reset to the demo data set: loaded", { timeout: 60_000 });
    expect((await bankGet<BankListAnswer>("/ach?page_size=10")).data.map((row) => row.id)).not.toContain(marker.id);

    // The clock: a duration that is not ISO 8601 is refused before it is sent; one day moves the shown time a day on.
    const clock = page.getByTestId("sandbox-clock");
    // The reset put the clock back to the wall clock; the page shows it once it has read the clock again.
    await expect.poll(async () => Math.abs((await shownClock(page)) - Date.now())).toBeLessThan(60_000);
    const startedAt = await shownClock(page);
    await clock.getByLabel("Advance by").fill("1 day");
    await clock.getByRole("button", { name: "Advance clock" }).click();
    await expect(clock.getByTestId("advance-problem")).toContainText("ISO 8601");
    await clock.getByRole("button", { name: "1 day" }).click();
    await expect(clock.getByLabel("Advance by")).toHaveValue("P1D");
    await clock.getByRole("button", { name: "Advance clock" }).click();
    await expect(clock.getByTestId("advance-done")).toContainText("Advanced by P1D");
    await expect.poll(() => shownClock(page)).toBeGreaterThanOrEqual(startedAt + 86_400_000 - 60_000);
    expect(Date.parse((await bankGet<{ now: string }>("/sandbox/clock")).now)).toBeGreaterThanOrEqual(startedAt + 86_400_000 - 60_000);

    // A failure: refused in the form without a status, latency or drop; then added, listed, and removed.
    const faults = page.getByTestId("sandbox-faults");
    const form = faults.getByTestId("fault-form");
    await form.getByLabel("Match").fill("PATCH /network_transfer/*");
    await form.getByLabel("Status", { exact: true }).selectOption("");
    await form.getByRole("button", { name: "Add failure" }).click();
    await expect(form.getByTestId("fault-problem")).toContainText("status, latency_ms or drop is required");
    await form.getByLabel("Status", { exact: true }).selectOption("503");
    await form.getByLabel("Retry-After (seconds)").fill("2");
    // A safety net should the test stop before removing it.
    await form.getByLabel("Expires in (optional)").fill("PT10M");
    await form.getByRole("button", { name: "Add failure" }).click();
    await expect(form.getByTestId("fault-added")).toContainText("flt_");
    faultId = (await form.getByTestId("fault-added").locator(".font-mono").textContent())!.trim();
    const row = faults.locator(`[data-testid="fault-row"][data-fault-id="${faultId}"]`);
    await expect(row).toContainText("PATCH /network_transfer/*");
    await expect(row).toContainText("answers 503 with Retry-After 2 s");
    expect((await bankGet<{ data: Fault[] }>("/sandbox/faults")).data.map((fault) => fault.id)).toContain(faultId);
    await row.getByRole("button", { name: `Remove failure ${faultId}` }).click();
    await expect(row).toHaveCount(0);
    expect((await bankGet<{ data: Fault[] }>("/sandbox/faults")).data.map((fault) => fault.id)).not.toContain(faultId);
    faultId = undefined;

    // Restore the file taken before the reset: the confirm dialog names it and its size.
    await page.getByTestId("snapshot-file").setInputFiles(snapshotFile);
    await expect(dialog).toContainText(path.basename(snapshotFile));
    await expect(dialog).toContainText(/\d+(\.\d)? (kB|MB|bytes)/);
    await dialog.getByRole("button", { name: "Restore" }).click();
    await expect(page.getByTestId("restore-done")).toContainText(`Restored ${path.basename(snapshotFile)}:`, { timeout: 60_000 });
    restored = true;
    // The clock's offset came back with the file (the advance undone), at the bank and on the page.
    const offsetMs = Number(snapshot.tables.clock[0]?.offset_ms ?? 0);
    const bankNow = Date.parse((await bankGet<{ now: string }>("/sandbox/clock")).now);
    expect(Math.abs(bankNow - (Date.now() + offsetMs))).toBeLessThan(60_000);
    await expect.poll(async () => Math.abs((await shownClock(page)) - bankNow)).toBeLessThan(60_000);

    await page.goto("/ach?page_size=10");
    await expect.poll(() => rowIds(page)).toEqual(before);
  } finally {
    if (faultId) await bankSend("DELETE", `/sandbox/faults/${faultId}`);
    if (snapshotFile && !restored) {
      const answer = await context.request.put("/api/sandbox/snapshot", {
        data: readFileSync(snapshotFile, "utf8"),
        headers: { origin: baseURL, "content-type": "application/json" },
      });
      expect(answer.ok(), `the snapshot restored after a failure: ${await answer.text()}`).toBe(true);
    }
    await context.close();
  }
});

test("the Sandbox page: operations drives the clock and failures but not reset or snapshots; a viewer sees the clock and failures only", async ({
  browser,
}) => {
  const operations = await contextAs(browser, "operations");
  try {
    const page = await operations.newPage();
    await page.goto("/sandbox");
    await expect(page.getByTestId("sandbox-clock-now")).toBeVisible();
    await expect(page.getByRole("button", { name: "Advance clock" })).toBeVisible();
    await expect(page.getByTestId("fault-form")).toBeVisible();
    await expect(page.getByTestId("sandbox-data-admins")).toContainText("Reset and snapshots are for admins");
    await expect(page.getByTestId("snapshot-download")).toHaveCount(0);
  } finally {
    await operations.close();
  }
  const viewer = await contextAs(browser, "viewer");
  try {
    const page = await viewer.newPage();
    await page.goto("/sandbox");
    await expect(page.getByTestId("sandbox-read-only")).toContainText("Your role (viewer)");
    await expect(page.getByTestId("sandbox-clock-now")).toBeVisible();
    await expect(page.getByTestId("sandbox-faults")).toBeVisible();
    await expect(page.getByRole("button", { name: "Advance clock" })).toHaveCount(0);
    await expect(page.getByTestId("fault-form")).toHaveCount(0);
    await expect(page.getByTestId("sandbox-data")).toHaveCount(0);
  } finally {
    await viewer.close();
  }
});

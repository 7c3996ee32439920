import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type BrowserContext } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { bankGet, contextAs, sandboxUrl, type BankListAnswer } from "./support/bank";
import { newStaffUser, productionFourEyesOff, putFourEyes } from "./support/four-eyes";
import { demoUser } from "./support/staff";
import { typeUserdata } from "./support/userdata";

/**
 * Four-eyes on production changes (docs/approvals.md), in Chromium against the production build: the production
 * environment is pointed at the sandbox bank (as e2e/zz-secret-scan.spec.ts does), the operations demo user edits a
 * transfer's userdata there, the edit waits, the maker cannot approve it, and it reaches the bank only when a second
 * operations user approves. Production is left as other specs expect it: no saved credentials, four-eyes on.
 */

const maker = demoUser("operations");
const environmentCookie = (environment: string) => ({ name: "console-environment", value: environment, url: baseURL });

async function setFourEyes(admin: BrowserContext, environment: string, required: boolean) {
  const response = await putFourEyes(admin, environment, required);
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * The admin saves the sandbox bank's demo key as the production credentials, with four-eyes off for that moment
 * (switched off with a second admin's approval, back on by the admin alone).
 */
async function pointProductionAtSandbox(browser: Browser, admin: BrowserContext) {
  await productionFourEyesOff(browser, admin);
  const page = await admin.newPage();
  await page.goto("/settings/credentials");
  const production = page.getByRole("form", { name: "production credentials" });
  await production.getByLabel("Base URL").fill(sandboxUrl);
  await production.getByLabel("Authentication").selectOption("basic");
  await production.getByLabel("API key id").fill("sandbox-demo-key");
  await production.getByLabel("API key secret").fill("sandbox-demo-secret-change-me");
  await production.getByRole("button", { name: "Save production credentials" }).click();
  await expect(page.getByTestId("credentials-result-production")).toHaveText("Saved the production credentials");
  await page.close();
  await setFourEyes(admin, "production", true);
}

async function clearProduction(browser: Browser, admin: BrowserContext) {
  await productionFourEyesOff(browser, admin);
  const page = await admin.newPage();
  await page.goto("/settings/credentials");
  const remove = page.getByRole("button", { name: "Remove saved production credentials" });
  if (await remove.count()) {
    await remove.click();
    await expect(page.getByTestId("credentials-result-production")).toContainText("Removed the saved production credentials");
  }
  await page.close();
  await setFourEyes(admin, "production", true);
}

/** The admin's audit export lines of `action` that mention `text`. */
async function auditLines(admin: BrowserContext, action: string, text: string) {
  const csv = await (await admin.request.get(`/api/audit/export?action=${encodeURIComponent(action)}`)).text();
  return csv.split("\r\n").filter((line) => line.includes(text));
}

test("a production userdata edit waits for approval and reaches the bank only when a second operations user approves", async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const admin = await contextAs(browser, "admin");
  const makerContext = await contextAs(browser, "operations");
  let approver: { context: BrowserContext; email: string } | undefined;
  try {
    await pointProductionAtSandbox(browser, admin);
    approver = await newStaffUser(browser, admin, "operations");
    const [transfer] = (await bankGet<BankListAnswer>("/network_transfer?status=sent&page_size=1")).data;
    const id = transfer!.id;
    const before = transfer!.userdata;
    const value = { ticket: `FOUR-EYES-${randomUUID().slice(0, 8)}`, approved: true };

    // The maker edits in production: the console holds the change and says so, the bank is unchanged.
    await makerContext.addCookies([environmentCookie("production")]);
    const page = await makerContext.newPage();
    await page.goto(`/network-transfers/${id}`);
    await expect(page.getByTestId("environment-banner")).toHaveAttribute("data-environment", "production");
    await page.getByRole("button", { name: "Edit userdata" }).click();
    await typeUserdata(page, JSON.stringify(value));
    await page.getByRole("button", { name: "Save userdata" }).click();
    const awaiting = page.getByTestId("awaiting-approval");
    await expect(awaiting).toContainText("Awaiting approval: nothing was sent to the bank yet");
    await expect(page.getByTestId("userdata-saved")).toHaveCount(0);
    expect((await bankGet<{ userdata: unknown }>(`/network_transfer/${id}`)).userdata).toEqual(before);
    const link = awaiting.getByRole("link", { name: /request \d+/ });
    const requestPath = (await link.getAttribute("href"))!;
    const requestId = Number(requestPath.split("/").at(-1));

    // The maker sees the request but no approve button, and the server refuses the maker's approval anyway.
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${requestPath}$`));
    await expect(page.getByTestId("approval-status")).toHaveText("Awaiting approval");
    await expect(page.getByRole("button", { name: "Approve and send" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Withdraw" })).toBeVisible();
    const self = await makerContext.request.post(`/api/approvals/${requestId}/approve`, { data: {}, headers: { origin: baseURL } });
    expect(self.status()).toBe(403);
    expect((await self.json()).error.code).toBe("self_approval");
    expect((await bankGet<{ userdata: unknown }>(`/network_transfer/${id}`)).userdata).toEqual(before);

    // The second operations user finds it in /approvals, sees exactly what will be sent, and approves.
    const second = await approver.context.newPage();
    await second.goto("/approvals");
    await second.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Approvals" }).waitFor();
    const row = second.locator(`[data-testid="approval-row"][data-id="${requestId}"]`);
    await expect(row).toContainText(maker.email);
    await expect(row).toContainText("Edit a network transfer's userdata");
    await row.getByRole("link", { name: `#${requestId}` }).click();
    await expect(second.getByTestId("approval-request-line")).toHaveText(`PATCH /network_transfer/${id}`);
    const diff = second.getByTestId("approval-userdata-diff");
    await expect(diff).toContainText(`ticket: "${value.ticket}"`);
    await expect(diff).toContainText("approved: true");
    const axe = await new AxeBuilder({ page: second }).analyze();
    expect(
      axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id),
    ).toEqual([]);
    for (const colorScheme of ["light", "dark"] as const) {
      await second.emulateMedia({ colorScheme });
      // The theme follows the browser's scheme: its class is on <html> before the screenshots.
      await expect(second.locator("html")).toHaveClass(new RegExp(colorScheme));
      for (const width of [390, 1440]) {
        await second.setViewportSize({ width, height: 900 });
        await second.screenshot({ path: testInfo.outputPath(`approval-request-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
    await second.emulateMedia({ colorScheme: "light" });
    await second.getByLabel(/^Note/).fill("Ticket checked");
    await second.getByRole("button", { name: "Approve and send" }).click();
    await expect(second.getByTestId("approval-status")).toHaveText("Approved");
    await expect(second.getByTestId("approval-outcome")).toHaveAttribute("data-outcome", "succeeded");
    await expect(second.getByTestId("approval-decided-by")).toHaveText(approver.email);
    expect((await bankGet<{ userdata: unknown }>(`/network_transfer/${id}`)).userdata).toEqual(value);

    // Sent once: a second approval is refused, and the trail names both people.
    const again = await approver.context.request.post(`/api/approvals/${requestId}/approve`, { data: {}, headers: { origin: baseURL } });
    expect(again.status()).toBe(409);
    expect(await auditLines(admin, "change.request", maker.email)).not.toEqual([]);
    expect((await auditLines(admin, "change.approve", approver.email)).filter((line) => line.includes(",succeeded,"))).toHaveLength(1);
    const sent = (await auditLines(admin, "network_transfer.userdata.update", value.ticket)).filter((line) => line.includes(approver!.email));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain(",production,network_transfer.userdata.update,");

    // The list, filtered to approved requests, at both widths and in both schemes.
    await second.goto("/approvals?status=approved");
    await expect(second.locator(`[data-testid="approval-row"][data-id="${requestId}"]`)).toHaveAttribute("data-status", "approved");
    for (const colorScheme of ["light", "dark"] as const) {
      await second.emulateMedia({ colorScheme });
      // The theme follows the browser's scheme: its class is on <html> before the screenshots.
      await expect(second.locator("html")).toHaveClass(new RegExp(colorScheme));
      for (const width of [390, 1440]) {
        await second.setViewportSize({ width, height: 900 });
        await second.screenshot({ path: testInfo.outputPath(`approvals-list-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
  } finally {
    await clearProduction(browser, admin);
    await approver?.context.close();
    await makerContext.close();
    await admin.close();
  }
});

test("the maker withdraws a held webhook change, and another person rejects one with a note; neither reaches the bank", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const admin = await contextAs(browser, "admin");
  const makerContext = await contextAs(browser, "operations");
  try {
    // Held in the sandbox too once an admin switches four-eyes on there.
    await setFourEyes(admin, "sandbox", true);
    const url = `https://hooks.example/${randomUUID()}`;
    const ask = async () => {
      const response = await makerContext.request.post("/api/bank/webhook", { data: { url, event: "ach.update" }, headers: { origin: baseURL } });
      expect(response.status()).toBe(202);
      return (await response.json()).approval.id as number;
    };
    const withdrawn = await ask();
    const rejected = await ask();
    const page = await makerContext.newPage();
    await page.goto(`/approvals/${withdrawn}`);
    await page.getByRole("button", { name: "Withdraw" }).click();
    await expect(page.getByTestId("approval-status")).toHaveText("Withdrawn");

    const adminPage = await admin.newPage();
    await adminPage.goto(`/approvals/${rejected}`);
    const reject = adminPage.getByRole("button", { name: "Reject" });
    await expect(reject).toBeDisabled();
    await adminPage.getByLabel(/^Note/).fill("Not a receiver we know");
    await reject.click();
    await expect(adminPage.getByTestId("approval-status")).toHaveText("Rejected");
    const hooks = await bankGet<BankListAnswer>("/webhook?page_size=100");
    expect(hooks.data.filter((hook) => hook.url === url)).toEqual([]);

    // The admin's view of the list: the four-eyes settings with their switches, and every request.
    await adminPage.goto("/approvals?status=any");
    await expect(adminPage.getByTestId("approval-setting-sandbox")).toHaveAttribute("data-required", "true");
    // Switching production off is itself held for a second admin; the admin withdraws the request again.
    await adminPage.getByRole("button", { name: "Turn off four-eyes in production (a second admin approves)" }).click();
    const held = adminPage.getByTestId("awaiting-approval");
    await expect(held).toContainText("four-eyes stays on in production. Another admin must approve");
    await expect(adminPage.getByTestId("approval-setting-production")).toHaveAttribute("data-required", "true");
    const heldSwitch = Number((await held.getByRole("link").textContent())!.replace("request ", ""));
    await expect(adminPage.locator(`[data-testid="approval-row"][data-id="${withdrawn}"]`)).toHaveAttribute("data-status", "withdrawn");
    await expect(adminPage.locator(`[data-testid="approval-row"][data-id="${rejected}"]`)).toHaveAttribute("data-status", "rejected");
    for (const colorScheme of ["light", "dark"] as const) {
      await adminPage.emulateMedia({ colorScheme });
      // The theme follows the browser's scheme: its class is on <html> before the screenshots.
      await expect(adminPage.locator("html")).toHaveClass(new RegExp(colorScheme));
      for (const width of [390, 1440]) {
        await adminPage.setViewportSize({ width, height: 900 });
        await adminPage.screenshot({ path: testInfo.outputPath(`approvals-admin-${width}-${colorScheme}.png`), fullPage: true });
      }
    }
    await adminPage.goto(`/approvals/${heldSwitch}`);
    await expect(adminPage.getByRole("main")).toContainText("Turns four-eyes off in production: changes there are then sent at once");
    await adminPage.screenshot({ path: testInfo.outputPath("approval-setting-request-1440.png"), fullPage: true });
    const withdrawSwitch = await admin.request.post(`/api/approvals/${heldSwitch}/withdraw`, { data: {}, headers: { origin: baseURL } });
    expect(withdrawSwitch.status(), await withdrawSwitch.text()).toBe(200);
  } finally {
    await setFourEyes(admin, "sandbox", false);
    await makerContext.close();
    await admin.close();
  }
});

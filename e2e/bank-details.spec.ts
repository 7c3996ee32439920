import { expect, test, type Page } from "@playwright/test";
import { formatCalendarDate } from "@/lib/format";
import { bankGet, contextAs } from "./support/bank";

/**
 * One bank object's page as a user sees it, checked against the sandbox bank's own answer: a detail page shows its
 * object's fields and links to related objects and lists, an unknown or malformed id says so, and an application shows
 * compliance its personal data only after an audited reveal, with its beneficial owners linked.
 */
const rowIds = (page: Page) => page.getByTestId("bank-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")));

test.describe("detail pages", () => {
  test("an ACH transfer shows its fields and links to its counterparty and its account's transfers", async ({ browser }) => {
    const context = await contextAs(browser, "viewer");
    const page = await context.newPage();
    const [transfer] = (await bankGet("/ach?page_size=1&status=sent")).data;
    await page.goto(`/ach/${transfer!.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("ACH transfer");
    await expect(page.locator('[data-field="trace_number"]')).toHaveText(String(transfer!.trace_number ?? "—"));
    await page.getByRole("link", { name: String(transfer!.account_id) }).click();
    await expect(page).toHaveURL(`/ach?account_id=${transfer!.account_id}`);
    await expect.poll(() => rowIds(page)).toContain(transfer!.id);
    await page.goBack();
    await page.locator('[data-field="counterparty_id"] a').click();
    await expect(page).toHaveURL(`/counterparties/${transfer!.counterparty_id}`);
    await expect(page.getByTestId("resource-detail")).toHaveAttribute("data-id", String(transfer!.counterparty_id));
    await page.getByRole("tab", { name: "Raw JSON" }).click();
    const shown = JSON.parse((await page.getByRole("tabpanel").textContent())!) as Record<string, unknown>;
    expect(shown).toEqual(await (await context.request.get(`/api/bank/counterparty/${transfer!.counterparty_id}`)).json());
    const counterparty = await bankGet<Record<string, unknown>>(`/counterparty/${transfer!.counterparty_id}`);
    expect(Object.keys(shown)).toEqual(Object.keys(counterparty));
    expect(shown.name).toBe(counterparty.name);
    await context.close();
  });

  test("a wallet token links to its card, and the card to its tokens", async ({ browser }) => {
    const context = await contextAs(browser, "viewer");
    const page = await context.newPage();
    const [token] = (await bankGet("/digital_wallet_token?page_size=1")).data;
    await page.goto(`/wallet-tokens/${token!.id}`);
    await page.locator('[data-field="card_id"] a').click();
    await expect(page).toHaveURL(`/cards/${token!.card_id}`);
    await page.getByRole("link", { name: "Wallet tokens of this card" }).click();
    await expect(page).toHaveURL(`/wallet-tokens?card_id=${token!.card_id}`);
    await expect.poll(() => rowIds(page)).toContain(token!.id);
    await context.close();
  });

  test("an unknown id is a not-found page, a malformed one says so", async ({ browser }) => {
    const context = await contextAs(browser, "viewer");
    const page = await context.newPage();
    const missing = await page.goto("/ach/ach_doesnotexist0");
    expect(missing?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toContainText("No ACH transfer with id ach_doesnotexist0");
    await page.goto("/ach/nt_wrongkind");
    await expect(page.getByTestId("malformed-id")).toContainText("ACH transfer ids start with ach_");
    await context.close();
  });
});

test.describe("applications for compliance", () => {
  test("the viewer sees masked personal data and no reveal button", async ({ browser }) => {
    const context = await contextAs(browser, "viewer");
    const page = await context.newPage();
    const [application] = (await bankGet("/apply/person_application?page_size=1")).data;
    await page.goto(`/applications/person/${application!.id}`);
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
    await expect(page.getByRole("button", { name: /Reveal/ })).toHaveCount(0);
    await expect(page.getByTestId("masked-note")).toBeVisible();
    expect(await page.content()).not.toContain(String(application!.date_of_birth));
    await context.close();
  });

  test("compliance reveals, sees the values marked, the reveal is audited, and leaving hides them", async ({ browser }) => {
    const context = await contextAs(browser, "compliance");
    const page = await context.newPage();
    const [application] = (await bankGet("/apply/person_application?page_size=1")).data;
    await page.goto(`/applications/person/${application!.id}`);
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
    await page.getByRole("button", { name: "Reveal masked fields (audited)" }).click();
    await page.getByLabel("Reason for the reveal (or ticket reference)").fill("bank-pages e2e");
    await page.getByRole("button", { name: /^Reveal all for \d+ min \(audited\)$/ }).click();
    await expect(page.getByTestId("revealed-banner")).toBeVisible();
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText(`${formatCalendarDate(String(application!.date_of_birth))}revealed`);
    await page.goto(`/audit?action=person_application.reveal&target=${application!.id}`);
    const row = page
      .getByTestId("audit-table")
      .locator("tbody tr")
      .filter({ hasText: String(application!.id) });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("compliance@demo.bank");
    await page.goBack();
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
    await context.close();
  });

  test("a business application lists its beneficial owners, each linked to their person application", async ({ browser }) => {
    const context = await contextAs(browser, "compliance");
    const page = await context.newPage();
    const [business] = (await bankGet("/apply/business_application?page_size=1")).data;
    const owners = business!.person_applications as Array<{ id: string; ownership_percentage: number; roles: string[] }>;
    await page.goto(`/applications/business/${business!.id}`);
    await expect(page.getByTestId("owner-row")).toHaveCount(owners.length);
    const total = owners.reduce((sum, owner) => sum + owner.ownership_percentage, 0);
    await expect(page.getByTestId("owner-flags")).toHaveCount(total > 100 || !owners.some((owner) => owner.roles.includes("control_person")) ? 1 : 0);
    await page.getByTestId("owner-row").first().getByRole("link").click();
    await expect(page).toHaveURL(`/applications/person/${owners[0]!.id}`);
    await context.close();
  });
});

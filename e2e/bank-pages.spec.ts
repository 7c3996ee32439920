import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { isConsoleWebhook } from "@/lib/index/console-webhooks";
import { resourceList } from "@/lib/resources";
import { bankGet, contextAs, nextCursor, type BankListAnswer } from "./support/bank";

/**
 * The bank's lists as a user sees them, checked against the sandbox bank's own answers: every list shows exactly the
 * bank's objects in the bank's order (next and previous pages too), filters narrow to the bank's answer and survive a
 * reload, rows answer the keyboard, a pasted id opens its object, Home links to the lists it counts, a bank that cannot
 * be used is named, and Export CSV saves the filtered list. One object's page is specified in bank-details.spec.ts.
 */
const rowIds = (page: Page) => page.getByTestId("bank-row").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")));
const filters = (page: Page) => page.getByRole("form", { name: "Filters", exact: true });
// The webhooks list leaves out the console's own subscriptions (they have their own section on the page).
const ids = (answer: BankListAnswer) =>
  answer.data.filter((object) => !isConsoleWebhook(object as { basic_user?: unknown }, null)).map((object) => object.id);
/**
 * The sandbox's lifecycle keeps moving transfers, and an open page does not move its rows when the bank changes (it
 * offers "N new or changed"). So the rows are compared with the bank's answer read at each try, and once the page has
 * had two seconds to show its own fetch, each further try reloads it first.
 */
const expectRowsToBeTheBanks = async (page: Page, path: string) => {
  const startedAt = Date.now();
  await expect(async () => {
    if (Date.now() - startedAt > 2_000) await page.reload();
    const shown = await rowIds(page);
    expect(shown).toEqual(ids(await bankGet(path)));
  }).toPass({ timeout: 15_000 });
};

test.describe("every list shows the bank's own answer", () => {
  for (const definition of resourceList) {
    test(`${definition.title}: first page, next and previous`, async ({ browser }) => {
      const context = await contextAs(browser, "viewer");
      const page = await context.newPage();
      const first = await bankGet(`${definition.apiPath}?page_size=25`);
      await page.goto(`${definition.route}?page_size=25`);
      expect(await rowIds(page)).toEqual(ids(first));
      const cursor = nextCursor(first);
      if (!cursor) {
        await expect(page.getByRole("button", { name: "Next →" })).toBeDisabled();
      } else {
        const second = await bankGet(`${definition.apiPath}?page_size=25&page_cursor=${cursor}`);
        await page.getByRole("button", { name: "Next →" }).click();
        await expect(page).toHaveURL(new RegExp(`page_cursor=${cursor}`));
        await expect.poll(() => rowIds(page)).toEqual(ids(second));
        await expect(page.getByTestId("row-range")).toHaveText(`Rows 26–${25 + second.data.length}`);
        await page.getByRole("button", { name: "← Previous" }).click();
        await expect.poll(() => rowIds(page)).toEqual(ids(first));
        await expect(page.getByTestId("row-range")).toHaveText(`Rows 1–${first.data.length}`);
      }
      await context.close();
    });
  }
});

test("rows are in the first HTML: no spinner on a direct visit", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const html = await (await context.request.get("/ach?page_size=25")).text();
  const first = await bankGet("/ach?page_size=25");
  for (const id of ids(first)) expect(html).toContain(`data-id="${id}"`);
  await context.close();
});

test("a filter narrows to the bank's answer, resets the cursor, survives a reload and is cleared", async ({ browser }) => {
  const context = await contextAs(browser, "operations");
  const page = await context.newPage();
  await page.goto("/ach?page_size=25");
  await page.getByRole("button", { name: "Next →" }).click();
  await expect(page).toHaveURL(/page_cursor=/);
  await filters(page).getByLabel("Status").selectOption("returned");
  await expect(page).toHaveURL(/status=returned/);
  await expect(page).not.toHaveURL(/page_cursor=/);
  const returned = await bankGet("/ach?page_size=25&status=returned");
  expect(returned.data.length).toBeGreaterThan(0);
  await expectRowsToBeTheBanks(page, "/ach?page_size=25&status=returned");
  await page.reload();
  await expectRowsToBeTheBanks(page, "/ach?page_size=25&status=returned");
  await expect(filters(page).getByLabel("Status")).toHaveValue("returned");

  const account = String(returned.data[0]!.account_id);
  // Id filters wait behind "More filters" (the bar keeps one row of choices and dates).
  await filters(page).getByRole("button", { name: "More filters" }).click();
  await filters(page).getByLabel("Account").fill(account);
  await filters(page).getByRole("button", { name: "Apply" }).click();
  await expectRowsToBeTheBanks(page, `/ach?page_size=25&status=returned&account_id=${account}`);

  await page.goBack();
  await expectRowsToBeTheBanks(page, "/ach?page_size=25&status=returned");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/status=/);
  await expectRowsToBeTheBanks(page, "/ach?page_size=25");
  await context.close();
});

test("an id filter without its prefix is refused before any request", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/ach");
  await filters(page).getByRole("button", { name: "More filters" }).click();
  await filters(page).getByLabel("Account").fill("12345");
  await filters(page).getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("Account ids start with acct_")).toBeVisible();
  await expect(page).not.toHaveURL(/account_id=/);
  await context.close();
});

test("a bad value in a hand-typed URL shows the console's message in place", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/ach?status=lost&page_size=0");
  await expect(page.getByTestId("error-state")).toBeVisible();
  await expect(page.getByTestId("error-message")).toContainText("status must be one of");
  await expect(page.getByTestId("error-message")).toContainText("page_size");
  await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
  await context.close();
});

test("an empty result says which filters produced nothing", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/ach?account_id=acct_nobody_has_this");
  await expect(page.getByTestId("empty-state")).toHaveText("No ACH transfers match account = acct_nobody_has_this.");
  await context.close();
});

test("keyboard: j/k and arrows move between rows, Enter opens one", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/counterparties?page_size=25");
  const rows = page.getByTestId("bank-row");
  await rows.first().focus();
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press("k");
  await expect(rows.nth(1)).toBeFocused();
  const id = await rows.nth(1).getAttribute("data-id");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/counterparties/${id}`);
  await expect(page.getByTestId("resource-detail")).toHaveAttribute("data-id", id!);
  await context.close();
});

test("hidden columns stay hidden for this user after a reload", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/ach");
  await expect(page.getByRole("columnheader", { name: "Service" })).toBeVisible();
  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("checkbox", { name: "Service" }).uncheck();
  await expect(page.getByRole("columnheader", { name: "Service" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("columnheader", { name: "Service" })).toHaveCount(0);
  await context.close();
});

test.describe("find anything by id", () => {
  test("the search box opens a pasted id and reports unknown prefixes and missing objects", async ({ browser }) => {
    const context = await contextAs(browser, "viewer");
    const page = await context.newPage();
    const [payment] = (await bankGet("/fednow?page_size=1")).data;
    await page.goto("/");
    const search = page.getByRole("searchbox", { name: "Search the bank" });
    await search.fill("zz_123");
    await search.press("Enter");
    await expect(page.getByTestId("id-search-status")).toContainText('"zz_123" does not start with a known id prefix');
    await search.fill("fednow_doesnotexist");
    await search.press("Enter");
    await expect(page.getByTestId("id-search-status")).toContainText("No instant payment with id fednow_doesnotexist");
    await search.fill(` ${payment!.id} `);
    await search.press("Enter");
    await expect(page).toHaveURL(`/instant-payments/${payment!.id}`);
    await expect(page.getByTestId("resource-detail")).toHaveAttribute("data-id", payment!.id);
    await context.close();
  });

  test("the palette (Ctrl-K) opens ids and jumps to sections", async ({ browser }) => {
    const context = await contextAs(browser, "viewer");
    const page = await context.newPage();
    const [sweep] = (await bankGet("/deposit_sweep?page_size=1")).data;
    await page.goto("/");
    await page.keyboard.press("Control+k");
    const input = page.getByPlaceholder("Paste an id or type a section…");
    await input.fill(sweep!.id);
    await input.press("Enter");
    await expect(page).toHaveURL(`/deposit-sweeps/${sweep!.id}`);
    await page.keyboard.press("Control+k");
    await input.fill("webhooks");
    await input.press("Enter");
    await expect(page).toHaveURL("/webhooks");
    await page.keyboard.press("Control+k");
    await input.fill("card_missing01");
    await input.press("Enter");
    await expect(page.getByTestId("palette-status")).toContainText("No card with id card_missing01");
    await context.close();
  });
});

test("home links each item needing attention to the list filtered to exactly it", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/");
  const returned = page.getByTestId("attention-item").filter({ hasText: "Returned ACH transfers" });
  const count = (await bankGet("/ach?page_size=100&status=returned")).data.length;
  await expect(returned).toContainText(String(count));
  await returned.click();
  await expect(page).toHaveURL("/ach?status=returned");
  await expect.poll(() => rowIds(page)).toEqual(ids(await bankGet("/ach?status=returned")));
  await context.close();
});

test("a bank that cannot be used is named in the error state, with a retry", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/ach");
  // Production has no bank connection on a fresh machine: every bank read answers 503 bank_not_configured.
  await page.getByLabel("Environment").selectOption("production");
  await expect(page.getByTestId("environment-banner")).toHaveAttribute("data-environment", "production");
  await page.goto("/ach");
  await expect(page.getByTestId("error-state")).toContainText("No bank connection: could not load ACH transfers.");
  await expect(page.getByTestId("error-message")).toContainText("production environment has no bank connection");
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("error-state")).toBeVisible();
  await context.close();
});

test("Export CSV in a list's toolbar saves the filtered list, every page, with live progress", async ({ browser }) => {
  const context = await contextAs(browser, "viewer");
  const page = await context.newPage();
  await page.goto("/ach?status=returned&page_size=25");
  let expected: string[] = [];
  for (
    let answer = await bankGet("/ach?status=returned&page_size=100");
    ;
    answer = await bankGet(`/ach?status=returned&page_size=100&page_cursor=${nextCursor(answer)}`)
  ) {
    expected = [...expected, ...ids(answer)];
    if (!nextCursor(answer)) break;
  }
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  await expect(page.getByTestId("export-progress")).toHaveText(`Exported ${expected.length} rows`);
  const text = readFileSync((await (await download).path())!, "utf8").trim();
  const rows = text
    .split("\r\n")
    .slice(1)
    .map((line) => line.split(",")[0]);
  expect(rows).toEqual(expected);
  await context.close();
});

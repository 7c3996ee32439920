import { expect, test, type Page } from "@playwright/test";
import { contextAs } from "./support/bank";
import { signedInContext, signIn, demoUser } from "./support/staff";

/**
 * Saved views (docs/search.md): a list's filters and columns under a name, kept in the console's database, so they
 * survive signing out, and shared with every staff member when asked.
 */

const achLink = (page: Page) => page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "ACH transfers", exact: true });
const viewLink = (page: Page, name: string) => page.getByRole("list", { name: "Saved views" }).getByRole("link", { name });

async function saveView(page: Page, name: string, shared: boolean) {
  await page.getByText("Save view", { exact: true }).first().click();
  const form = page.getByRole("form", { name: "Save view" });
  await form.getByLabel("Name").fill(name);
  if (shared) await form.getByLabel("Share with every staff member").check();
  await form.getByRole("button", { name: "Save view" }).click();
  await expect(page).toHaveURL(/[?&]view=view_/);
  await expect(page.getByTestId("opened-view")).toContainText(name);
}

test("a saved view keeps its filters and columns, outlives sign-out, and shows to other staff only once shared", async ({ browser }) => {
  test.setTimeout(120_000);
  const { context, page } = await signedInContext(browser, "operations");
  const shared = `Credits without service ${Date.now()}`;
  const personal = `Mine only ${Date.now()}`;

  await page.goto("/ach?direction=credit");
  await expect(page.getByRole("columnheader", { name: "Service" })).toBeVisible();
  // The list header's exact count comes from the console's index (the bank has no count).
  await expect(page.getByTestId("list-count")).toContainText(/^\d[\d,]* ACH transfers match · index as of /);
  await page.getByText("Columns", { exact: true }).click();
  await page.getByRole("checkbox", { name: "Service" }).uncheck();
  await expect(page.getByRole("columnheader", { name: "Service" })).toHaveCount(0);
  await saveView(page, shared, true);
  await expect(viewLink(page, shared)).toHaveAttribute("aria-current", "page");
  // A personal view of another filter.
  await page.goto("/ach?direction=debit");
  await saveView(page, personal, false);

  // A new session of the same user: the views come from the database, not the browser.
  await page.getByRole("button", { name: "Sign out" }).click();
  await signIn(page, demoUser("operations"));
  await viewLink(page, shared).click();
  await expect(page).toHaveURL(/\/ach\?direction=credit&view=view_/);
  await expect(page.getByRole("columnheader", { name: "Service" })).toHaveCount(0);
  await expect(page.getByTestId("opened-view")).toContainText(shared);
  const sharedHref = await viewLink(page, shared).getAttribute("href");

  // Another role sees the shared view (not the personal one) and may not remove it.
  const viewerContext = await contextAs(browser, "viewer");
  const viewer = await viewerContext.newPage();
  await viewer.goto("/ach");
  await expect(viewLink(viewer, shared)).toBeVisible();
  await expect(viewLink(viewer, personal)).toHaveCount(0);
  await viewer.goto(sharedHref!);
  await expect(viewer.getByTestId("opened-view")).toContainText(`shared by ${demoUser("operations").email}`);
  await expect(viewer.getByRole("button", { name: "Remove view" })).toHaveCount(0);

  // Its owner removes it, after confirming; it leaves every sidebar, and a link to it says so.
  await page.getByTestId("opened-view").getByRole("button", { name: "Remove view" }).click();
  await page.getByTestId("confirm-dialog").getByRole("button", { name: "Remove view" }).click();
  await expect(viewLink(page, shared)).toHaveCount(0);
  await expect(page).not.toHaveURL(/view=/);
  await viewer.goto(sharedHref!);
  await expect(viewer.getByTestId("missing-view")).toBeVisible();
  await expect(viewLink(viewer, shared)).toHaveCount(0);
  await expect(achLink(viewer)).toBeVisible();
  await viewerContext.close();
  await context.close();
});

test("a view's name is checked on the server: a taken name is refused and nothing is saved", async ({ browser }) => {
  const { context, page } = await signedInContext(browser, "viewer");
  const name = `Twice ${Date.now()}`;
  await page.goto("/instant-payments");
  await saveView(page, name, false);
  await page.getByText("Save view", { exact: true }).first().click();
  const form = page.getByRole("form", { name: "Save view" });
  // A viewer may not share (view:share): the form does not offer it.
  await expect(form.getByLabel("Share with every staff member")).toHaveCount(0);
  await form.getByLabel("Name").fill(name.toUpperCase());
  await form.getByRole("button", { name: "Save view" }).click();
  await expect(page.getByTestId("save-view-error")).toHaveText(`name: you already have a view named "${name.toUpperCase()}" on this list`);
  await expect(viewLink(page, name)).toHaveCount(1);
  await context.close();
});

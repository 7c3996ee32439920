import { expect, test, type Page } from "@playwright/test";
import { strayTimes } from "@/lib/format";
import { startReceiver, eventually } from "@/tests/support/webhook-receiver";
import { baseURL } from "../playwright.config";
import { bankGet, bankSend, contextAs, everyConsolePage, type BankListAnswer } from "./support/bank";
import { putFourEyes } from "./support/four-eyes";

/**
 * One way to show a time on every page (docs/console-pages.md, "Values"): "Nov 28, 08:43" in the staff member's zone,
 * the exact second only on hover. The walk opens every page kind, with something on it that has a time (a webhook
 * with deliveries, a simulation run, a held approval, an assigned review case and its record, a list filtered by
 * `created_in` as Home links to it, and pages while the bank is down: the outage banner and a refusal that says since
 * when), and lists each text on a page that `strayTimes` flags. Title attributes and `datetime` are not page text:
 * they keep the exact form.
 */

/**
 * Each stray time in the text of `root` (Raw JSON blocks left out: they show the bank's object as it came), with a
 * little of the text around it to find where it is shown.
 */
async function strays(page: Page, path: string, root = "main"): Promise<string[]> {
  const shown = await page.locator(root).evaluate((element: HTMLElement) => {
    const blocks = [...element.querySelectorAll("pre")];
    for (const block of blocks) block.style.display = "none";
    const text = element.innerText;
    for (const block of blocks) block.style.display = "";
    return text;
  });
  return strayTimes(shown).map((stray) => {
    const at = shown.indexOf(stray);
    const around = shown.slice(Math.max(0, at - 40), at + stray.length + 20).replace(/\s+/g, " ");
    return `${path}: "${stray}" in "…${around}…"`;
  });
}

test("every page shows its times in the one format", async ({ browser }) => {
  test.setTimeout(300_000);
  const receiver = await startReceiver();
  const admin = await contextAs(browser, "admin");
  const compliance = await contextAs(browser, "compliance");
  const found: string[] = [];
  let heldApproval: number | undefined;
  let faulted = false;
  const webhook = (await bankSend<{ id: string }>("POST", "/webhook", { url: receiver.url("/time"), event: "digital_wallet_token.create" })).body;
  try {
    const page = await admin.newPage();
    // A simulation run (in the runs list) whose token the webhook is told of (its deliveries and their chart).
    const card = (await bankGet<BankListAnswer>("/card?page_size=1&status=active")).data[0]!;
    await page.goto("/simulations");
    await page.getByLabel("Search cards").fill(String(card.last_four));
    await page.getByTestId("card-picker").selectOption(card.id);
    await page.getByRole("button", { name: "Run simulation" }).click();
    await expect(page.getByTestId("simulation-run").first()).toHaveAttribute("data-state", "found", { timeout: 30_000 });
    await eventually(async () => (await bankGet(`/webhook/${webhook.id}/deliveries`)).data.length > 0, 30_000);

    // A four-eyes setting someone set (its row says when), and a request held for a second admin (its page and row).
    expect((await putFourEyes(admin, "sandbox", true)).status()).toBe(200);
    expect((await putFourEyes(admin, "sandbox", false)).status()).toBe(200);
    const asked = await putFourEyes(admin, "production", false);
    if (asked.status() === 202) heldApproval = ((await asked.json()) as { approval: { id: number } }).approval.id;

    // Home's links filter lists by `created_in` (a day in the staff member's zone): one such list, its chip's times.
    const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const createdToday = `created_in=${new Date(today).toISOString()}/${new Date(today + 24 * 3600_000).toISOString()}`;
    const paths = [
      ...(await everyConsolePage()),
      "/settings",
      `/webhooks/${webhook.id}`,
      `/ach?${createdToday}`,
      ...(heldApproval ? [`/approvals/${heldApproval}`] : []),
    ];
    const visit = async (walker: Page, path: string) => {
      await walker.goto(path);
      await expect(walker.locator("main#content")).toBeVisible();
      if (path === `/webhooks/${webhook.id}`) {
        await walker.getByTestId("delivery-toggle").first().click();
        await expect(walker.getByTestId("delivery-details")).toBeVisible();
      }
      if (path === "/simulations") await expect(walker.getByTestId("simulation-runs")).toBeVisible();
      if (path === "/sandbox") await expect(walker.getByTestId("sandbox-clock-now")).toBeVisible();
      if (path.includes("created_in=")) await expect(walker.getByTestId("filter-chip")).toHaveText(/^created /);
      await expect(walker.locator("main [aria-busy='true']")).toHaveCount(0);
      found.push(...(await strays(walker, path)));
    };
    // Two pages of one context walk the list between them: each mostly waits on the server, so two halve the walk.
    const walkers = [page, await admin.newPage()];
    await Promise.all(
      walkers.map(async (walker, index) => {
        for (const path of paths.filter((_, at) => at % walkers.length === index)) await visit(walker, path);
      }),
    );

    // The review pages as compliance: the queue, a case it assigned itself, and the case's record for examiners.
    const reviewer = await compliance.newPage();
    await reviewer.goto("/reviews?assignee=unassigned&kind=person_application");
    const row = reviewer.getByTestId("queue-row").first();
    const id = (await row.getAttribute("data-id"))!;
    await row.getByRole("button", { name: "Assign to me" }).click();
    await expect(reviewer.locator(`[data-testid="queue-row"][data-id="${id}"]`)).toHaveCount(0);
    for (const path of ["/reviews?state=any", `/applications/person/${id}`]) {
      await reviewer.goto(path);
      await expect(reviewer.locator("main#content")).toBeVisible();
      found.push(...(await strays(reviewer, path)));
    }
    await expect(reviewer.getByTestId("case-panel")).toBeVisible();
    const record = await compliance.request.get(`/api/reviews/${id}/record?format=html`);
    expect(record.status()).toBe(200);
    await reviewer.setContent(await record.text());
    found.push(...(await strays(reviewer, `case record ${id}`, "body")));

    // The bank down (the sandbox's fault API answers every bank request 503, docs/sandbox-control.md): a list under the
    // outage banner, and a webhook's page, whose deliveries only the bank answers (the refusal says since when).
    expect((await bankSend("POST", "/sandbox/faults", { match: "*", status: 503 })).status).toBe(201);
    faulted = true;
    await page.goto("/network-transfers");
    await expect(page.getByTestId("bank-outage-banner")).toBeVisible();
    found.push(...(await strays(page, "/network-transfers (bank down)")));
    await page.goto(`/webhooks/${webhook.id}`);
    await expect(page.locator("main#content")).toBeVisible();
    // The page from the index's copy under the banner, its deliveries refused; or the page's read refused: either says so.
    await expect(page.getByTestId("error-message").or(page.getByTestId("bank-outage-banner")).first()).toBeVisible({ timeout: 20_000 });
    await expect(page.locator("main [aria-busy='true']")).toHaveCount(0, { timeout: 20_000 });
    found.push(...(await strays(page, `/webhooks/${webhook.id} (bank down)`)));
    expect((await bankSend("DELETE", "/sandbox/faults")).status).toBe(204);
    faulted = false;
    // The specs after this one need the bank's own answers: within the breaker's half-open wait a read probes it.
    await expect(async () => {
      await page.goto("/counterparties");
      await expect(page.locator("tbody tr").first()).toBeVisible();
      await expect(page.getByTestId("bank-outage-banner")).toHaveCount(0);
    }).toPass({ timeout: 45_000, intervals: [1_000, 2_000, 3_000] });

    expect(found).toEqual([]);
  } finally {
    if (faulted) await bankSend("DELETE", "/sandbox/faults");
    if (heldApproval) await admin.request.post(`/api/approvals/${heldApproval}/withdraw`, { data: {}, headers: { origin: baseURL } });
    await bankSend("DELETE", `/webhook/${webhook.id}`);
    await admin.close();
    await compliance.close();
    await receiver.close();
  }
});

import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { formatCalendarDate } from "@/lib/format";
import { baseURL } from "../playwright.config";
import { bankGet, bankSend, contextAs } from "./support/bank";
import { demoUser } from "./support/staff";

/**
 * Compliance review (docs/reviews.md), two reviewers in two browser contexts: the compliance demo user works a case and
 * proposes a decision, the admin (who also holds review:confirm) confirms it; the case record holds every step. And a
 * reveal: it asks a reason, the timeline shows it at once, and the page masks the data again after REVEAL_MINUTES.
 */

const reviewer = demoUser("compliance").email;
const second = demoUser("admin").email;

interface PostedAction {
  url: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

/** Every server action `page` posts (Next.js names it in the `next-action` header), to replay word for word as another role. */
function recordServerActions(page: Page): PostedAction[] {
  const posted: PostedAction[] = [];
  page.on("request", async (request) => {
    if (request.method() !== "POST") return;
    const headers = await request.allHeaders();
    if (headers["next-action"]) posted.push({ url: request.url(), headers, body: request.postDataBuffer() });
  });
  return posted;
}

/** The review actions in the audit trail by `email`, as the admin's export lists them. */
async function reviewAuditLines(admin: BrowserContext, email: string): Promise<string[]> {
  const csv = await (await admin.request.get(`/api/audit/export?actor=${encodeURIComponent(email)}`)).text();
  return csv.split("\r\n").filter((line) => line.includes(",review."));
}

/** The oldest unassigned, undecided person application in the queue. */
async function takeFromQueue(page: Page): Promise<string> {
  await page.goto("/reviews?assignee=unassigned&kind=person_application");
  const row = page.getByTestId("queue-row").first();
  await expect(row).toBeVisible();
  const id = (await row.getAttribute("data-id"))!;
  await row.getByRole("button", { name: "Assign to me" }).click();
  // Assigned, it leaves the unassigned filter and is in the reviewer's own.
  await expect(page.locator(`[data-testid="queue-row"][data-id="${id}"]`)).toHaveCount(0);
  await page.goto("/reviews?assignee=mine");
  await expect(page.locator(`[data-testid="queue-row"][data-id="${id}"]`)).toContainText(reviewer);
  return id;
}

test("two reviewers: assign, checklist, propose a decline with a reason code, a second reviewer confirms, the case record holds every step", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const first = await contextAs(browser, "compliance");
  const other = await contextAs(browser, "admin");
  try {
    const a = await first.newPage();
    const b = await other.newPage();
    const postedByReviewers = [recordServerActions(a), recordServerActions(b)];
    const id = await takeFromQueue(a);

    // The second reviewer cannot take or work a case someone else has.
    await b.goto(`/applications/person/${id}`);
    await expect(b.getByTestId("case-assignee")).toHaveText(reviewer);
    await expect(b.getByTestId("checklist").getByRole("button", { name: "Save" })).toHaveCount(0);

    await a.goto(`/applications/person/${id}`);
    const panel = a.getByTestId("case-panel");
    await expect(panel.getByTestId("case-state")).toHaveText("Open");
    const identity = panel.locator('[data-testid="checklist-item"][data-item="identity"]');
    await identity.getByLabel("Mark Identity (name matches documents)").selectOption("verified");
    await identity.getByRole("button", { name: "Save" }).click();
    await expect(identity.getByTestId("checklist-mark")).toContainText(`Verified · ${reviewer}`);
    const address = panel.locator('[data-testid="checklist-item"][data-item="address"]');
    await address.getByLabel("Mark Address").selectOption("discrepancy");
    await address.getByLabel("Note on Address").fill("utility bill shows another street");
    await address.getByRole("button", { name: "Save" }).click();
    await expect(address.getByTestId("checklist-mark")).toContainText("Discrepancy");
    // Confirmed in words, and the control shows what was saved (not the first of its options).
    await expect(address.getByRole("status")).toHaveText("Address marked as a discrepancy: utility bill shows another street");
    await expect(address.getByLabel("Mark Address")).toHaveValue("discrepancy");
    // Notes on an item are a history (append-only): each with its author and time, below the mark.
    await expect(address.getByTestId("checklist-notes")).toContainText(`${reviewer} · `);
    await expect(address.getByTestId("checklist-notes")).toContainText("utility bill shows another street");
    await panel.getByLabel("New note").fill("Called the applicant; no answer");
    await panel.getByRole("button", { name: "Add note" }).click();
    await expect(panel.getByTestId("case-notes")).toContainText("Called the applicant; no answer");

    // After a reload too; the timeline tells the step in words, not the audit trail's codes.
    await a.goto(`/applications/person/${id}`);
    await expect(address.getByLabel("Mark Address")).toHaveValue("discrepancy");
    await expect(address.getByTestId("checklist-mark")).toContainText("Discrepancy");
    await expect(identity.getByLabel("Mark Identity (name matches documents)")).toHaveValue("verified");
    const markedEntry = a
      .locator('[data-testid="timeline-audit"][data-action="review.checklist.mark"]')
      .filter({ hasText: "Address marked as a discrepancy: utility bill shows another street" });
    await expect(markedEntry).toHaveCount(1);
    await expect(a.getByTestId("timeline")).not.toContainText("review.checklist.mark");

    // The documents as a section the reviewer can copy from, saying where the files are; and where the decision goes.
    const application = await bankGet<{ first_name: string; last_name: string; document_ids: string[] }>(`/apply/person_application/${id}`);
    const documents = panel.getByTestId("case-documents");
    await expect(documents).toContainText("The bank's API gives document ids only; open them in the bank's document store.");
    await expect(documents.getByTestId("case-document")).toHaveCount(application.document_ids.length);
    for (const documentId of application.document_ids)
      await expect(documents.getByRole("button", { name: `Copy document id ${documentId}` })).toBeVisible();
    await expect(panel.getByTestId("decision-reach")).toContainText("is not sent to the bank");

    const propose = panel.getByTestId("propose-form");
    await propose.getByLabel("Decision").selectOption("decline");
    await propose.getByLabel("Reason code").selectOption("identity_not_verified");
    await propose.getByLabel("Note (required)").fill("Address discrepancy not explained");
    await propose.getByRole("button", { name: "Propose for second review" }).click();
    await expect(panel.getByTestId("awaiting-second-review")).toContainText("You proposed it");
    await expect(panel.getByTestId("case-state")).toHaveText("Awaiting second review");
    await expect(panel.getByRole("button", { name: "Confirm decision" })).toHaveCount(0);
    await panel.screenshot({ path: testInfo.outputPath("case-panel-awaiting-1440-light.png") });

    // The same reviewer under another session is still the proposer: no confirmation offered.
    const sameUser = await contextAs(browser, "compliance");
    const again = await sameUser.newPage();
    await again.goto(`/applications/person/${id}`);
    await expect(again.getByTestId("awaiting-second-review")).toContainText("You proposed it");
    await sameUser.close();

    // In the reviewer's own filter while it awaits the second review.
    await a.goto("/reviews?assignee=mine&state=awaiting_second_review");
    await expect(a.locator(`[data-testid="queue-row"][data-id="${id}"]`).getByTestId("queue-state")).toHaveText("Awaiting second review");

    await b.goto(`/applications/person/${id}`);
    const pending = b.getByTestId("awaiting-second-review");
    await expect(pending).toContainText(`${reviewer} proposes Decline · Identity could not be verified`);
    await b.getByTestId("case-panel").screenshot({ path: testInfo.outputPath("case-panel-second-reviewer-1440-light.png") });
    await pending.getByRole("button", { name: "Confirm decision" }).click();
    await expect(b.getByTestId("case-state")).toHaveText("Decided");
    await expect(b.getByTestId("case-decision")).toHaveText("Decline · Identity could not be verified");

    const download = b.waitForEvent("download");
    await b.getByTestId("record-html").click();
    const html = readFileSync((await (await download).path())!, "utf8");
    for (const text of [
      "Decline",
      "identity_not_verified: Identity could not be verified",
      "utility bill shows another street",
      "Called the applicant; no answer",
      "Address discrepancy not explained",
      reviewer,
      second,
      "Decision confirmed by a second reviewer: Decline · Identity could not be verified",
      "Address marked as a discrepancy: utility bill shows another street",
    ]) {
      expect(html, text).toContain(text);
    }
    // Opened, it is titled by the case and the applicant, and reads at the page's width.
    const opened = await other.newPage();
    await opened.setViewportSize({ width: 1440, height: 900 });
    await opened.setContent(html);
    await expect(opened).toHaveTitle(`Case record ${id} · ${application.first_name} ${application.last_name}`);
    expect(await opened.evaluate(() => document.body.getBoundingClientRect().width)).toBeGreaterThan(1300);
    await opened.screenshot({ path: testInfo.outputPath("case-record-1440-light.png"), fullPage: true });
    await opened.close();
    const json = await other.request.get(`/api/reviews/${id}/record?format=json`);
    expect(json.status()).toBe(200);
    const record = await json.json();
    expect(record.decisions).toEqual([
      expect.objectContaining({
        decision: "decline",
        reasonCode: "identity_not_verified",
        state: "confirmed",
        proposedByEmail: reviewer,
        resolvedByEmail: second,
      }),
    ]);
    expect(record.auditTrail.map((entry: { action: string }) => entry.action)).toEqual(
      expect.arrayContaining([
        "review.assign",
        "review.checklist.mark",
        "review.note.add",
        "review.decision.propose",
        "review.decision.confirm",
        "review.record.download",
      ]),
    );
    await a.goto("/reviews?state=decided");
    await expect(a.locator(`[data-testid="queue-row"][data-id="${id}"]`).getByTestId("queue-state")).toHaveText("Decided");

    // Whatever the UI shows, the server refuses every one of these actions to roles without review:decide: each one
    // the two reviewers posted (assign, checklist, note, propose, confirm), replayed as the viewer and operations, is
    // a 403 and leaves no audit record.
    const posted = postedByReviewers.flat();
    expect(posted.length).toBeGreaterThanOrEqual(6);
    for (const role of ["viewer", "operations"] as const) {
      const outsider = await contextAs(browser, role);
      const email = demoUser(role).email;
      try {
        const before = await reviewAuditLines(other, email);
        for (const action of posted) {
          const response = await outsider.request.post(action.url, {
            headers: {
              "next-action": action.headers["next-action"]!,
              "content-type": action.headers["content-type"]!,
              accept: "text/x-component",
              origin: baseURL,
            },
            data: action.body ?? undefined,
            maxRedirects: 0,
          });
          expect(response.status(), `${role} replaying ${action.headers["next-action"]}`).toBe(403);
        }
        expect(await reviewAuditLines(other, email)).toEqual(before);
      } finally {
        await outsider.close();
      }
    }
  } finally {
    await first.close();
    await other.close();
  }
});

test("a reveal asks a reason, shows in the timeline at once with the reason, and masks again after the time", async ({ browser }) => {
  const context = await contextAs(browser, "compliance");
  try {
    const [application] = (await bankGet("/apply/person_application?page_size=3")).data.slice(2);
    const refused = await context.request.post(`/api/bank/apply/person_application/${application!.id}/reveal`, { headers: { origin: baseURL } });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).error.message).toContain("reason");

    const page = await context.newPage();
    await page.goto(`/applications/person/${application!.id}`);
    // The clock is faked once the page works (a fake clock before hydration holds React's scheduled work): the
    // reveal and its expiry, which it times, come after.
    await page.clock.install();
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
    await page.getByRole("button", { name: "Reveal masked fields (audited)" }).click();
    const submit = page.getByRole("button", { name: "Reveal selected for 10 min (audited)" });
    await expect(submit).toBeDisabled();
    const reason = `TICKET-${Date.now()}`;
    await page.getByLabel("Reason for the reveal (or ticket reference)").fill(reason);
    // A reveal names its fields: the reason alone is not enough to send it.
    await expect(submit).toBeDisabled();
    await page.getByRole("checkbox", { name: "Date of birth" }).check();
    await submit.click();
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText(`${formatCalendarDate(String(application!.date_of_birth))}revealed`);
    const entry = page.locator('[data-testid="timeline-audit"][data-action="person_application.reveal"]').filter({ hasText: reason });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText("fields shown: Date of birth");
    await page.clock.fastForward("10:01");
    await expect(page.getByTestId("revealed-banner")).toHaveCount(0);
    await expect(page.locator('[data-field="date_of_birth"]')).toHaveText("****-**-**");
  } finally {
    await context.close();
  }
});

test("the queue tells a bad filter and the viewer cannot open it", async ({ browser }) => {
  const context = await contextAs(browser, "compliance");
  const viewer = await contextAs(browser, "viewer");
  try {
    const page = await context.newPage();
    await page.goto("/reviews?age=3h&kind=card");
    await expect(page.getByTestId("queue-filter-error")).toHaveText(
      "kind: expected person_application, business_application or any; age: expected one of 1d, 2d, 7d, 30d",
    );
    expect((await viewer.request.get("/reviews", { maxRedirects: 0 })).status()).toBe(403);
    const record = await context.request.get("/api/reviews/apsn_nope/record?format=pdf");
    expect(record.status()).toBe(400);
    expect((await record.json()).error.message).toContain("format");
  } finally {
    await context.close();
    await viewer.close();
  }
});

test("the queue pages by 50, oldest first, and a bad page cursor shows the first page with a notice", async ({ browser }) => {
  const context = await contextAs(browser, "compliance");
  try {
    const page = await context.newPage();
    // Every application, decided or not: the demo set has more than a page of them.
    await page.goto("/reviews?state=any");
    const rows = page.getByTestId("queue-row");
    await expect(rows).toHaveCount(50);
    await expect(page.getByTestId("row-range")).toHaveText("Rows 1–50");
    const firstPage = await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-id")));
    await page.getByRole("link", { name: "Next →" }).click();
    await expect(page.getByTestId("row-range")).toHaveText(/^Rows 51–/);
    await expect(page).toHaveURL(/state=any/);
    const secondPage = await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-id")));
    expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);
    await page.getByRole("link", { name: "← Previous" }).click();
    await expect(page.getByTestId("row-range")).toHaveText("Rows 1–50");
    expect(await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-id")))).toEqual(firstPage);

    await page.goto("/reviews?state=any&page_cursor=yesterday");
    await expect(page.getByTestId("queue-filter-error")).toHaveText("page_cursor: not a page of this queue (showing its first page)");
    expect(await rows.evaluateAll((found) => found.map((row) => row.getAttribute("data-id")))).toEqual(firstPage);
  } finally {
    await context.close();
  }
});

test("the queue counts what each filter keeps, and an application created now is within the SLA", async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await contextAs(browser, "compliance");
  try {
    const page = await context.newPage();
    const count = async () => Number(await page.getByTestId("queue-count").getAttribute("data-count"));

    // Every application, every page walked: the count is the rows of all its pages.
    await page.goto("/reviews?state=any");
    const total = await count();
    let walked = await page.getByTestId("queue-row").count();
    while (await page.getByRole("link", { name: "Next →" }).count()) {
      await page.getByRole("link", { name: "Next →" }).click();
      await expect(page.getByTestId("row-range")).toHaveText(new RegExp(`^Rows ${walked + 1}–`));
      walked += await page.getByTestId("queue-row").count();
    }
    expect(walked).toBe(total);
    // The summary says the colours of all of them: over, due soon and within sum to the count.
    await page.goto("/reviews?state=any");
    await expect(page.getByTestId("queue-summary")).toContainText(`${total.toLocaleString("en-US")} applications match these filters`);
    const summary = (await page.getByTestId("queue-summary").textContent())!;
    const [over, due, within] = [/([\d,]+) over the SLA/, /([\d,]+) due soon/, /([\d,]+) within it/].map((pattern) =>
      Number(pattern.exec(summary)![1]!.replaceAll(",", "")),
    );
    expect(over! + due! + within!).toBe(total);

    // A person application created at the bank now: once the console's index has it, assigned, it is within the SLA.
    const created = await bankSend<{ id: string }>("POST", "/sandbox/apply/person_application", {});
    expect(created.status).toBe(201);
    const { id } = created.body;
    await expect
      .poll(async () => (await (await context.request.get(`/applications/person/${id}`)).text()).includes('data-testid="case-state"'), {
        // A bank notification brings it at once; otherwise the periodic sweep (INDEX_SWEEP_INTERVAL_MS, 60 s).
        timeout: 90_000,
      })
      .toBe(true);
    await page.goto(`/applications/person/${id}`);
    await page.getByTestId("case-panel").getByRole("button", { name: "Assign to me" }).click();
    await expect(page.getByTestId("case-assignee")).toHaveText(reviewer);
    await page.goto("/reviews?assignee=mine");
    await expect(page.locator(`[data-testid="queue-row"][data-id="${id}"] [data-sla]`)).toHaveAttribute("data-sla", "ok");
    // One page of the reviewer's own: the count is the rows shown.
    expect(await count()).toBe(await page.getByTestId("queue-row").count());
  } finally {
    await context.close();
  }
});

test("queue rows are selected by checkbox or by keyboard, and the bulk bar assigns them to a reviewer and unassigns them", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await contextAs(browser, "compliance");
  try {
    const page = await context.newPage();
    const row = (id: string) => page.locator(`[data-testid="queue-row"][data-id="${id}"]`);
    const bar = page.getByRole("region", { name: "Selected rows" });
    const dialog = page.getByTestId("confirm-dialog");
    const progress = page.getByTestId("bulk-progress");
    // The newest two unassigned business applications: the other tests take the oldest person applications.
    await page.goto("/reviews?assignee=unassigned&kind=business_application");
    await expect(page.getByTestId("queue-row").nth(1)).toBeVisible();
    const ids = await page.getByTestId("queue-row").evaluateAll((found) => found.slice(-2).map((element) => element.getAttribute("data-id")!));
    await page.getByRole("checkbox", { name: `Select ${ids[0]}` }).check();
    // Space on a focused row selects it as well.
    await row(ids[1]!).focus();
    await page.keyboard.press("Space");
    await expect(bar).toContainText("2 selected");
    await bar.getByRole("button", { name: "Assign to a reviewer" }).click();
    await dialog.getByLabel("Reviewer's email").fill(reviewer);
    await dialog.getByRole("button", { name: "Assign to a reviewer on 2" }).click();
    await expect(progress).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    await expect(page.getByTestId("bulk-counts")).toContainText("Done: 2");

    // Both are the reviewer's now; unassigned again in one go, the queue is as it was.
    await page.goto("/reviews?assignee=mine&kind=business_application");
    for (const id of ids) {
      await expect(row(id)).toContainText(reviewer);
      await page.getByRole("checkbox", { name: `Select ${id}` }).check();
    }
    await bar.getByRole("button", { name: "Unassign", exact: true }).click();
    await dialog.getByRole("button", { name: "Unassign on 2" }).click();
    await expect(progress).toHaveAttribute("data-status", "done", { timeout: 30_000 });
    await page.goto("/reviews?assignee=unassigned&kind=business_application");
    for (const id of ids) await expect(row(id)).toHaveCount(1);
  } finally {
    await context.close();
  }
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the queue and a case panel at 390 and 1440 px (${colorScheme}): screenshots, and no serious accessibility violation`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const context = await contextAs(browser, "compliance", { colorScheme });
    const page = await context.newPage();
    try {
      const [business] = (await bankGet("/apply/business_application?page_size=1")).data;
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/reviews");
        await expect(page.getByTestId("queue-row").first()).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`reviews-${width}-${colorScheme}.png`), fullPage: true });
        // A row's action is on the screen at this width, not past the table's horizontal scroll.
        await page.goto("/reviews?assignee=unassigned");
        const assign = page.getByTestId("queue-row").first().getByRole("button", { name: "Assign to me" });
        await expect(assign).toBeVisible();
        const box = (await assign.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        await page.goto(`/applications/business/${business!.id}`);
        await expect(page.getByTestId("case-panel")).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`case-panel-${width}-${colorScheme}.png`), fullPage: true });
      }
      for (const path of ["/reviews", `/applications/business/${business!.id}`]) {
        await page.goto(path);
        const { violations } = await new AxeBuilder({ page }).analyze();
        expect(
          violations
            .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
            .map((violation) => `${path}: ${violation.id}`),
        ).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });
}

import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readChangeRequest } from "@/lib/approvals/store";
import { testDatabaseTargets } from "@/tests/support/databases";
import { fourEyesFixture } from "@/tests/support/four-eyes";
import { startProxyBank } from "@/tests/support/proxy-harness";

// Four-eyes while the bank is not answering (docs/bank-outage.md): approving a held change first checks the object at
// the bank; when that read is not answered, the approval is refused as changes are paused, the request stays pending
// and nothing is sent, then or later; approved once the bank answers, it is sent once.

const bank = startProxyBank();
const key = randomBytes(32);

describe.each(testDatabaseTargets)("four-eyes while the bank is not answering, on $name", (target) => {
  const fixture = fourEyesFixture(bank, key, target);
  const { db, decide, transferId, heldUserdataEdit, harness } = fixture;

  it("refuses the approval (503, changes paused), keeps the request pending with nothing sent, and sends it once approved later", async () => {
    const { id, userdata } = await heldUserdataEdit();
    bank.recording.failNext("GET", `/network_transfer/${transferId()}`, 503);
    const refused = await decide(fixture.staff.approver, id, "approve");
    expect(refused).toMatchObject({
      status: 503,
      json: { error: { code: "bank_unavailable", message: "The bank is not answering; changes are paused. Nothing was sent or queued." } },
    });
    expect((await readChangeRequest(db(), id))!).toMatchObject({ state: "pending", outcome: null, sentAt: null });
    expect(harness.sentToBank()).toEqual([`GET /network_transfer/${transferId()}`]);

    bank.recording.received.length = 0;
    const approved = await decide(fixture.staff.approver, id, "approve");
    expect(approved).toMatchObject({ status: 200, json: { status: "approved", outcome: "succeeded" } });
    expect(harness.sentToBank()).toEqual([
      `GET /network_transfer/${transferId()}`,
      `GET /network_transfer/${transferId()}`,
      `PATCH /network_transfer/${transferId()}`,
    ]);
    expect((await bank.direct.get_network_transfer(transferId())).userdata).toEqual(userdata);
  });
});

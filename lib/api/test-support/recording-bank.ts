import type { ServerResponse } from "node:http";
import { answerJson, startLocalServer, type LocalServer, type ReceivedRequest } from "@/lib/bank/test-support/local-server";

/**
 * A local HTTP server standing in for the bank in the proxy's tests: it records every request it receives (so a test
 * can prove that bad input never reached the bank) and answers the few objects below, each valid per lib/contract.
 */

const stamps = { created_at: "2026-11-20T10:00:00Z", updated_at: "2026-11-20T10:00:00Z" };
const address = { street_line_1: "1 Main St", street_line_2: null, city: "Albany", state: "NY", postal_code: "12207", country: "US" };

export const bankObjects = {
  networkTransfer: {
    id: "nt_1", amount: "12.50", ...stamps, cross_bank: false, description: null, estimated_settlement_at: stamps.created_at,
    from_account_id: "acct_1", to_account_id: "acct_2", status: "pending", userdata: { ticket: 1 }, error: null, org_id: null,
    version: "v1", balanced_at: null, bankdata: null,
  },
  personApplication: {
    id: "apsn_1", bankdata: null, citizenship: "US", ...stamps, date_of_birth: "1985-04-12", email_address: "ada@example.com",
    first_name: "Ada", middle_name: null, last_name: "Lovelace", identification_number: "123-45-6789",
    identification_number_type: "ssn", occupation: "engineer", person_id: null, phone_number: "+12025550143",
    physical_address: address, userdata: null, document_ids: [], mailing_address: null, secondary_email_address: null,
  },
  webhook: {
    id: "webhook_1", url: "https://hooks.example/bank", event: "ach.update", status: "enabled", basic_user: null,
    basic_secret: null, error: null, userdata: null, ...stamps,
  },
  cardAccessToken: { access_token: "eyJ.card.token", expires_in: 3600, token_type: "DPoP" },
};

/**
 * Fields a test adds to every person application the bank answers, as a production bank may add fields the contract
 * does not name yet (reset it after the test).
 */
export const addedApplicationFields: Record<string, unknown> = {};

function answer(request: ReceivedRequest, response: ServerResponse, baseUrl: string): void {
  const path = new URL(request.url, baseUrl).pathname;
  const body = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
  const route = `${request.method} ${path}`;
  switch (route) {
    case "GET /network_transfer/nt_1":
      return answerJson(response, 200, bankObjects.networkTransfer);
    case "PATCH /network_transfer/nt_1":
      return answerJson(response, 200, { ...bankObjects.networkTransfer, userdata: body.userdata });
    case "GET /apply/person_application/apsn_1":
      return answerJson(response, 200, { ...bankObjects.personApplication, ...addedApplicationFields });
    case "GET /apply/person_application":
      return answerJson(response, 200, {
        data: [{ ...bankObjects.personApplication, ...addedApplicationFields }],
        page_next: `${baseUrl}/apply/person_application?page_size=1&page_cursor=apsn_1`,
      });
    case "GET /webhook/webhook_1":
      return answerJson(response, 200, bankObjects.webhook);
    case "POST /webhook":
      return answerJson(response, 201, { ...bankObjects.webhook, id: "webhook_2", url: body.url, event: body.event });
    case "PATCH /webhook/webhook_1":
      return answerJson(response, 200, { ...bankObjects.webhook, ...body, basic_secret: null });
    case "DELETE /webhook/webhook_1":
      response.writeHead(204);
      return void response.end();
    case "POST /simulation":
      response.writeHead(202);
      return void response.end();
    case "POST /card/card_1/uxt_access_token":
      return answerJson(response, 200, bankObjects.cardAccessToken);
    default:
      return answerJson(response, 404, { error: `No such object: ${path}` });
  }
}

export async function startRecordingBank(): Promise<LocalServer> {
  let baseUrl = "";
  const server = await startLocalServer((request, response) => answer(request, response, baseUrl));
  baseUrl = server.url;
  return server;
}

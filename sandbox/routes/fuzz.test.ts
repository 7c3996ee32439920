import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/tests/support/databases";
import { expectDocumentedAnswer, fuzzParameters, fuzzRequests, fuzzSeeds, send } from "@/tests/support/fuzz";
import { sandboxOnDatabase } from "@/tests/support/sandbox-bank";
import { demoKey } from "@/tests/support/sandbox-client";
import { insertFixtures } from "@/tests/support/sandbox-fixtures";

const isErrorBody = (body: unknown) =>
  typeof body === "object" && body !== null && Object.keys(body).length === 1 && typeof (body as { error?: unknown }).error === "string";

// Random and malformed requests against every route of the sandbox bank (tests/support/fuzz.ts): never a 5xx, never
// a hang, every refusal `{"error": "..."}`. Bounded: at most 300 cases or 20 s per seed.
describe.each(testDatabaseTargets)("the sandbox bank under random requests on $name", (target) => {
  const fixture = sandboxOnDatabase(target, { seed: "empty" });
  const authorization = `Basic ${Buffer.from(`${demoKey.id}:${demoKey.secret}`).toString("base64")}`;

  beforeAll(async () => {
    await insertFixtures(fixture.sandbox.context.db, 1);
  }, 120_000);

  it.each(fuzzSeeds)(
    "answers every request with a 2xx-4xx in the documented shape ($name)",
    async ({ seed }) => {
      await fc.assert(
        fc.asyncProperty(fuzzRequests, async (request) => {
          expectDocumentedAnswer(await send(fixture.sandbox.url, request, { authorization }), isErrorBody);
        }),
        fuzzParameters(seed, 300, 20),
      );
    },
    120_000,
  );

  it("refuses unauthenticated random requests with a 401 before looking at them", async () => {
    await fc.assert(
      fc.asyncProperty(fuzzRequests, async (request) => {
        const answer = await send(fixture.sandbox.url, request, {});
        expectDocumentedAnswer(answer, isErrorBody);
        expect(answer.status).toBe(401);
      }),
      fuzzParameters(fuzzSeeds[0]!.seed, 100, 10),
    );
  }, 120_000);
});

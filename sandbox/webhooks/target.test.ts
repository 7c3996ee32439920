import { describe, expect, it } from "vitest";
import { checkTarget, type TargetPolicy } from "./target";

// The webhook target policy on its own (docs/security.md, "Request forgery from webhook and bank URLs");
// routes.test.ts and worker.test.ts check it through the API and at delivery. Names resolve through a stand-in
// resolver, so nothing here depends on DNS.

const consolePort = 3999;
const strict: TargetPolicy = { refusedConsole: { host: "127.0.0.1", port: consolePort }, allowedNetworks: [] };
const names: Record<string, string[]> = {
  "internal.test": ["10.0.0.5"],
  "mixed.test": ["93.184.216.34", "192.168.1.9"],
  "public.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "mapped.test": ["::ffff:127.0.0.1"],
};
const resolve = async (host: string) => names[host] ?? [];
const check = (url: string, policy: TargetPolicy = strict) => checkTarget(url, policy, resolve);
const refusal = async (url: string, policy?: TargetPolicy) => {
  const result = await check(url, policy);
  return "refusal" in result ? result.refusal : null;
};

describe("checkTarget", () => {
  it.each([
    `http://[::ffff:127.0.0.1]:${consolePort}/`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${consolePort}/`,
    `http://2130706433:${consolePort}/`,
    `http://0177.0.0.1:${consolePort}/`,
    `http://0x7f.1:${consolePort}/api/bank/ach`,
    `http://[::]:${consolePort}/`,
    `http://mapped.test:${consolePort}/`,
  ])("refuses %s as the console, however the address is written", async (url) => {
    expect(await refusal(url)).toMatch(/points at the console \((127\.0\.0\.1|::|0\.0\.0\.0):3999\)/);
  });

  it("allows the console's receiver of bank events, even where loopback is not allowed", async () => {
    expect(await check(`http://[::ffff:127.0.0.1]:${consolePort}/api/bank-events/sandbox`)).toEqual({
      addresses: [{ address: "127.0.0.1", family: 4 }],
    });
  });

  it.each([
    ["http://127.0.0.1:8080/", "loopback"],
    ["http://[::1]:8080/", "loopback"],
    ["http://[::ffff:10.0.0.1]/", "private"],
    ["http://10.1.2.3/", "private"],
    ["http://172.16.0.1/", "private"],
    ["http://192.168.0.1/", "private"],
    ["http://169.254.169.254/latest/meta-data", "linkLocal"],
    ["http://100.64.0.1/", "carrierGradeNat"],
    ["http://[fd00::1]/", "uniqueLocal"],
    ["http://[fe80::1]/", "linkLocal"],
    ["http://[64:ff9b::a00:1]/", "rfc6052"],
    ["http://0.0.0.0:8080/", "unspecified"],
    ["http://internal.test/", "private"],
    ["http://mixed.test/", "private"],
  ])("refuses %s (%s) unless an allowed network names it", async (url, range) => {
    expect(await refusal(url)).toContain(`a ${range} address webhooks may not target (SANDBOX_WEBHOOK_ALLOWED_NETWORKS can allow a network)`);
  });

  it("allows loopback and private networks the setting names, and still refuses the console there", async () => {
    const local: TargetPolicy = { ...strict, allowedNetworks: ["127.0.0.0/8", "::1/128", "10.0.0.0/8"] };
    expect(await check("http://127.0.0.1:8080/hook", local)).toEqual({ addresses: [{ address: "127.0.0.1", family: 4 }] });
    expect(await check("http://[::1]:8080/hook", local)).toEqual({ addresses: [{ address: "::1", family: 6 }] });
    expect(await check("http://internal.test/hook", local)).toEqual({ addresses: [{ address: "10.0.0.5", family: 4 }] });
    expect(await refusal("http://192.168.0.1/", local)).toContain("a private address");
    expect(await refusal(`http://127.0.0.1:${consolePort}/`, local)).toContain("points at the console");
  });

  it("allows public addresses, and answers every address a name was checked at", async () => {
    expect(await check("https://public.test/hook")).toEqual({
      addresses: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
      ],
    });
    expect(await check("https://93.184.216.34/")).toEqual({ addresses: [{ address: "93.184.216.34", family: 4 }] });
  });

  it("accepts a name that does not resolve, with no address to deliver to", async () => {
    expect(await check("https://nowhere.test/hook")).toEqual({ addresses: [] });
  });

  it.each(["http://user:pass@public.test/", "http://user@public.test/", "https://:secret@93.184.216.34/"])(
    "refuses %s: credentials belong in basic_user and basic_secret",
    async (url) => {
      expect(await refusal(url)).toBe("url may not carry a user name or password; give them as basic_user and basic_secret");
    },
  );
});

import { chromium } from "@playwright/test";
const base = process.env.BASE ?? "http://127.0.0.1:3000";
const role = process.env.ROLE ?? "compliance";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: process.env.SCHEME ?? "light" });
const page = await context.newPage();
page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") console.log("console:", m.type(), m.text().slice(0, 300)); });
page.on("pageerror", (e) => console.log("pageerror:", e.message));
await page.goto(`${base}/sign-in`);
await page.getByLabel("Email").fill(`${role}@demo.bank`);
await page.getByLabel("Password").fill(`demo-${role}-pass`);
await page.getByRole("button", { name: "Sign in", exact: true }).click();
await page.waitForURL((u) => !u.pathname.startsWith("/sign-in"));
for (const path of (process.env.PATHS ?? "/ach").split(",")) {
  const started = Date.now();
  const response = await page.goto(`${base}${path}`);
  await page.waitForLoadState("networkidle");
  const name = path.replace(/[^a-z0-9]+/gi, "_") || "home";
  await page.screenshot({ path: `/tmp/shots/${name}-${process.env.SCHEME ?? "light"}.png`, fullPage: false });
  console.log(path, response.status(), Date.now() - started, "ms", await page.locator("[data-testid=bank-row]").count(), "rows");
}
await browser.close();

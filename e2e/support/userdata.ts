import type { Page } from "@playwright/test";

/** Replaces the whole text of the userdata editor (CodeMirror), as typing would. */
export async function typeUserdata(page: Page, text: string) {
  const editor = page.getByRole("textbox", { name: "Userdata (JSON object)" });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await editor.fill(text);
}

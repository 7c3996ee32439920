import { describe, expect, it } from "vitest";
import { nextPageCursor } from "./queries";

describe("the browser's bank data layer", () => {
  it("takes the next cursor from the page_next URL the console gives, and none on the last page", () => {
    expect(nextPageCursor({ data: [], page_next: "/api/bank/ach?page_size=25&page_cursor=ach_9&status=sent" })).toBe("ach_9");
    expect(nextPageCursor({ data: [] })).toBeUndefined();
    expect(nextPageCursor(undefined)).toBeUndefined();
  });
});

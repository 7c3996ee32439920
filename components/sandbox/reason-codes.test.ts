import { describe, expect, it } from "vitest";
import * as sandbox from "@/sandbox/control/reason-codes";
import { achReturnCodes, fednowRejectReasons } from "./reason-codes";

describe("the Simulate menu's codes", () => {
  it("are the sandbox's: every ACH return code and instant payment reject reason it takes, with its title, in its order", () => {
    expect(Object.entries(achReturnCodes)).toEqual(Object.entries(sandbox.achReturnCodes));
    expect(Object.entries(fednowRejectReasons)).toEqual(Object.entries(sandbox.fednowRejectReasons));
  });
});

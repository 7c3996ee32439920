import { describe, expect, it } from "vitest";
import { date, idPrefixes, listedResources, listQueries, paginationQuery } from "@/lib/contract";
import { fieldSources } from "./derived";
import { filterControls } from "./filters";
import { detailDefinition, detailHref, listHref, resourceForId, resourceList, resources } from "./index";

describe("resource definitions", () => {
  it("cover every listed resource of the contract, with the contract's path and id prefix", () => {
    expect(Object.keys(resources).sort()).toEqual(Object.keys(listedResources).sort());
    for (const definition of resourceList) {
      expect(definition.apiPath, definition.name).toBe(listedResources[definition.name].path);
      expect(definition.idPrefix, definition.name).toBe(idPrefixes[definition.name]);
    }
  });

  it("show only fields the contract's object has (sections and columns; a derived column, the fields it reads)", () => {
    for (const definition of resourceList) {
      const shape = Object.keys(listedResources[definition.name].schema.shape);
      const keys = [...definition.columns, ...definition.sections.flatMap((section) => section.fields)].flatMap(fieldSources);
      expect(
        keys.filter((key) => !shape.includes(key)),
        definition.name,
      ).toEqual([]);
    }
  });

  it("recognise any id by its prefix, and no unknown prefix", () => {
    expect(resourceForId("ach_123")?.name).toBe("ach");
    expect(resourceForId("fednow_x")?.name).toBe("fednow");
    expect(resourceForId("webhook_1")?.name).toBe("webhook");
    expect(resourceForId("acct_1")).toBeUndefined();
    expect(resourceForId("zz_1")).toBeUndefined();
  });

  it("build detail and filtered list links on the fixed routes", () => {
    expect(detailHref("fednow", "fednow_1")).toBe("/instant-payments/fednow_1");
    expect(detailHref("business_application", "abus_1")).toBe("/applications/business/abus_1");
    expect(listHref("ach", { status: "returned" })).toBe("/ach?status=returned");
  });
});

describe("what a detail page sends the browser of its definition", () => {
  it("is what the detail draws (title, sections, related lists, panels), never the list's columns", () => {
    for (const definition of resourceList) {
      const detail = detailDefinition(definition);
      expect(detail.name).toBe(definition.name);
      expect(detail.title).toBe(definition.title);
      expect(detail.singular).toBe(definition.singular);
      expect(detail.route).toBe(definition.route);
      expect(detail.sections).toBe(definition.sections);
      expect(detail.headline).toBe(definition.headline);
      expect(detail.relatedLists).toBe(definition.relatedLists);
      expect(detail.panels).toBe(definition.panels);
      expect(detail, definition.name).not.toHaveProperty("columns");
      expect(detail, definition.name).not.toHaveProperty("apiPath");
    }
  });
});

describe("filters come from the contract's list queries", () => {
  it("offer every filterable parameter of each list and nothing else", () => {
    for (const definition of resourceList) {
      const expected = Object.keys(listQueries[definition.name].shape).filter((name) => !(name === "page_cursor" || name === "page_size"));
      expect(
        filterControls(definition.name).map((control) => control.name),
        definition.name,
      ).toEqual(expected);
    }
  });

  it("use a select for enums, yes/no for booleans, a date input for dates and a prefixed text box for ids", () => {
    const ach = Object.fromEntries(filterControls("ach").map((control) => [control.name, control]));
    expect(ach.status).toMatchObject({ kind: "select", options: ["pending", "processing", "sent", "returned", "canceled", "error"] });
    expect(ach.effective_date).toMatchObject({ kind: "date" });
    expect(ach.from_date).toMatchObject({ kind: "date", label: "Created from" });
    expect(ach.account_id).toMatchObject({ kind: "text", idPrefix: "acct_" });
    expect(Object.fromEntries(filterControls("network_transfer").map((control) => [control.name, control.kind])).cross_bank).toBe("boolean");
    expect(paginationQuery.from_date.unwrap()).toBe(date);
  });

  it("give every list the bank's creation days: its one Created control, beside which the index's filters offer only presets", () => {
    for (const definition of resourceList) {
      const kinds = Object.fromEntries(filterControls(definition.name).map((control) => [control.name, control.kind]));
      expect([kinds.from_date, kinds.to_date], definition.name).toEqual(["date", "date"]);
    }
  });
});

import { createdAt, dataSection, id, timestamps, type ResourcePage } from "../types";

export const businessApplications: ResourcePage = {
  name: "business_application",
  personalData: true,
  columns: [
    id(),
    { key: "name", label: "Business" },
    { key: "legal_structure", label: "Structure", format: "enum" },
    { key: "incorporation_state", label: "State", format: "mono" },
    { key: "naics", label: "NAICS", format: "mono" },
    { key: "tin", label: "TIN", format: "mono" },
    { key: "publicly_traded", label: "Public", format: "boolean", hiddenByDefault: true },
    createdAt,
  ],
  headline: { key: "name", label: "Business" },
  sections: [
    {
      title: "Business",
      fields: [
        { key: "name", label: "Legal name" },
        { key: "dba", label: "Doing business as" },
        { key: "description", label: "Description" },
        { key: "legal_structure", label: "Legal structure", format: "enum" },
        { key: "incorporation_state", label: "Incorporation state", format: "mono" },
        { key: "established_on", label: "Established", format: "date" },
        { key: "naics", label: "NAICS code", format: "mono" },
        { key: "naics_description", label: "NAICS sector" },
        { key: "publicly_traded", label: "Publicly traded", format: "boolean" },
        { key: "urls", label: "Websites", format: "list" },
      ],
    },
    {
      title: "Tax and identification",
      fields: [
        { key: "tin", label: "TIN", format: "mono" },
        { key: "identification_number_type", label: "Identification type", format: "enum" },
        { key: "identification_number", label: "Identification number", format: "mono" },
      ],
    },
    {
      title: "Contact and addresses",
      fields: [
        { key: "phone_number", label: "Phone", format: "phone" },
        { key: "physical_address", label: "Physical", format: "address" },
        { key: "mailing_address", label: "Mailing", format: "address" },
      ],
    },
    {
      title: "Structure",
      fields: [
        { key: "parent_businesses", label: "Parent businesses", format: "list" },
        { key: "bank_id", label: "Bank", format: "mono" },
        { key: "org_id", label: "Organization", format: "mono" },
      ],
    },
    { title: "Documents", fields: [{ key: "document_ids", label: "Document ids", format: "list" }] },
    timestamps,
    dataSection("bankdata", "userdata"),
  ],
  panels: [{ kind: "beneficial-owners", after: "Tax and identification" }],
};

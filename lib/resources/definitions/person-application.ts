import { createdAt, dataSection, id, timestamps, type ResourcePage } from "../types";

export const personApplications: ResourcePage = {
  name: "person_application",
  personalData: true,
  columns: [
    id(),
    { key: "first_name", label: "First name" },
    { key: "last_name", label: "Last name" },
    { key: "email_address", label: "Email" },
    { key: "citizenship", label: "Citizenship", format: "mono" },
    { key: "occupation", label: "Occupation", hiddenByDefault: true },
    { key: "person_id", label: "Person", format: "mono" },
    createdAt,
  ],
  filters: { person_id: { label: "Person", idPrefix: "psn_" } },
  headline: { key: "last_name", label: "Last name" },
  sections: [
    {
      title: "Identity",
      fields: [
        { key: "first_name", label: "First name" },
        { key: "middle_name", label: "Middle name" },
        { key: "last_name", label: "Last name" },
        { key: "date_of_birth", label: "Date of birth", format: "date" },
        { key: "citizenship", label: "Citizenship", format: "mono" },
        { key: "occupation", label: "Occupation" },
        { key: "person_id", label: "Person created", format: "mono", link: { list: "card", filter: "person_id" } },
      ],
    },
    {
      title: "Identification",
      fields: [
        { key: "identification_number_type", label: "Type", format: "enum" },
        { key: "identification_number", label: "Number", format: "mono" },
      ],
    },
    {
      title: "Contact",
      fields: [
        { key: "email_address", label: "Email" },
        { key: "secondary_email_address", label: "Secondary email" },
        { key: "phone_number", label: "Phone", format: "phone" },
      ],
    },
    {
      title: "Addresses",
      fields: [
        { key: "physical_address", label: "Physical (home)", format: "address" },
        { key: "mailing_address", label: "Mailing", format: "address" },
      ],
    },
    { title: "Documents", fields: [{ key: "document_ids", label: "Document ids", format: "list" }] },
    timestamps,
    dataSection("bankdata", "userdata"),
  ],
};

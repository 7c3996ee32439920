import { z } from "zod";
import { isStorableText, unstorableTextMessage } from "@/lib/contract/json-text";
import { roles } from "@/lib/permissions";

/** What an admin may submit about a staff user; every message names its field. */
export const newStaffInput = z.object({
  email: z.email({ message: "email: expected an email address" }).max(320, "email: at most 320 characters"),
  name: z.string().trim().min(1, "name: required").max(200, "name: at most 200 characters").refine(isStorableText, `name: ${unstorableTextMessage}`),
  role: z.enum(roles, { message: `role: expected one of ${roles.join(", ")}` }),
  password: z
    .string()
    .max(1024, "password: at most 1024 characters")
    .refine(isStorableText, `password: ${unstorableTextMessage}`)
    .refine((value) => value === "" || value.length >= 12, "password: at least 12 characters, or empty for a single sign-on only user"),
});

export const staffIdInput = z.string().regex(/^stf_[A-Za-z0-9_-]+$/, "id: expected a staff user id");

/** The first issue's message, which names the field. */
export const firstIssue = (error: z.ZodError) => error.issues[0]?.message ?? "invalid input";

"use server";

import { revalidatePath } from "next/cache";
import { audited, newRequestId } from "@/lib/audit";
import { requireUser } from "@/lib/auth/current-user";
import { consoleDb } from "@/lib/db/console";
import { viewActions, type ViewActionState } from "@/lib/views/actions";

export type { ViewActionState } from "@/lib/views/actions";

// The logic, its checks and its audit records live in lib/views/actions.ts (tested there against a real database).
const actions = viewActions({
  requireUser,
  db: async () => (await consoleDb()).db,
  audited,
  newRequestId,
  // The sidebar lists every view: refresh the layout, not one page.
  changed: () => revalidatePath("/", "layout"),
});

export async function saveView(previous: ViewActionState, form: FormData): Promise<ViewActionState> {
  return actions.saveView(previous, form);
}

export async function removeView(previous: ViewActionState, form: FormData): Promise<ViewActionState> {
  return actions.removeView(previous, form);
}

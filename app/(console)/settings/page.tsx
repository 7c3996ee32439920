import { redirect } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";

export default async function SettingsPage() {
  await requireUser("staff:manage");
  redirect("/settings/staff");
}

import { SandboxPage } from "@/components/sandbox/sandbox-page";

export const metadata = { title: "Sandbox" };

export default SandboxPage;

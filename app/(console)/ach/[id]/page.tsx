import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "ACH transfers · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="ach" params={params} />;
}

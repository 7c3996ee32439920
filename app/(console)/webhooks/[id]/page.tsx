import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Webhooks · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="webhook" params={params} />;
}

import { ResourceDetailPage } from "@/components/bank/resource-pages";

export const metadata = { title: "Business applications · Bank console" };

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="business_application" params={params} />;
}

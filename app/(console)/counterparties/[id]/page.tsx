import { detailMetadata, ResourceDetailPage } from "@/components/bank/resource-pages";

export const generateMetadata = detailMetadata("counterparty");

export default function Page({ params }: { params: Promise<{ id: string }> }) {
  return <ResourceDetailPage resource="counterparty" params={params} />;
}

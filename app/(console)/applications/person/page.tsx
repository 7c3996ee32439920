import { ResourceListPage, type SearchParams } from "@/components/bank/resource-pages";

export const metadata = { title: "Person applications · Bank console" };

export default function Page({ searchParams }: { searchParams: SearchParams }) {
  return <ResourceListPage resource="person_application" searchParams={searchParams} description="Account applications of people, newest first. Personal data is masked unless revealed." />;
}

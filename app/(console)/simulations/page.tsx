import { SimulationsPage } from "@/components/simulations/simulations-page";

export const metadata = { title: "Simulations" };

export default SimulationsPage;

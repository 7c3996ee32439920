/** Formatting shared by every list and detail page: times (./time) and the other values (./values). */
export * from "./time";
export * from "./values";

/** The banking API's contract: one definition used by the sandbox bank, the console's client and the OpenAPI. */
export * from "./events";
export * from "./json-text";
export * from "./primitives";
export * from "./resources";
export * from "./requests";
export * from "./operations";

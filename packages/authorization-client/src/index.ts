// Public entry point of @fin/authorization-client.
export {};

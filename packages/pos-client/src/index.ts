// Public entry point of @fin/pos-client.
export {};
